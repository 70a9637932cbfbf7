"""REST routes of the guilds app (under /api/v1/): SPEC section 4's table, and /me/ (it shows the guild)."""
from django.urls import path

from guilds import apis

urlpatterns = [
    path("guilds/", apis.GuildListCreateApi.as_view(), name="guild-list"),
    path("guilds/<id:guild_id>/", apis.GuildDetailApi.as_view(), name="guild-detail"),
    path("guilds/<id:guild_id>/applications/", apis.GuildApplicationsApi.as_view(),
         name="guild-applications"),
    path("guilds/<id:guild_id>/applications/<id:application_id>/approve/",
         apis.ApplicationApproveApi.as_view(), name="guild-application-approve"),
    path("guilds/<id:guild_id>/applications/<id:application_id>/reject/", apis.ApplicationRejectApi.as_view(),
         name="guild-application-reject"),
    path("guilds/<id:guild_id>/applications/<id:application_id>/withdraw/",
         apis.ApplicationWithdrawApi.as_view(), name="guild-application-withdraw"),
    path("guilds/<id:guild_id>/invitations/", apis.GuildInvitationsApi.as_view(), name="guild-invitations"),
    path("guilds/<id:guild_id>/leader/", apis.GuildLeaderApi.as_view(), name="guild-leader"),
    path("guilds/<id:guild_id>/kick/", apis.GuildKickApi.as_view(), name="guild-kick"),
    path("guilds/<id:guild_id>/leave/", apis.GuildLeaveApi.as_view(), name="guild-leave"),
    path("guilds/<id:guild_id>/disband-vote/", apis.GuildDisbandVoteApi.as_view(), name="guild-disband-vote"),
    path("invitations/", apis.MyInvitationsApi.as_view(), name="my-invitations"),
    path("invitations/<id:invitation_id>/accept/", apis.InvitationAcceptApi.as_view(),
         name="invitation-accept"),
    path("invitations/<id:invitation_id>/decline/", apis.InvitationDeclineApi.as_view(),
         name="invitation-decline"),
    path("me/", apis.MeApi.as_view(), name="me"),
    path("me/applications/", apis.MyApplicationsApi.as_view(), name="my-applications"),
]
