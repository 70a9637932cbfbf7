"""Guild endpoints: one small view per operation — validate, call one service, serialize."""
from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from backend.api.schema import errors
from backend.api.views import valid
from backend.errors import NotAllowed
from guilds import listcache, selectors, services
from guilds.serializers import (
    ApplicationOutput,
    DisbandStateOutput,
    GuildCreateInput,
    GuildDetailOutput,
    GuildListOutput,
    GuildListQuery,
    GuildUpdateInput,
    InvitationOutput,
    LeaveOutput,
    PlayerIdInput,
    RejectInput,
)
from players.caller import PlayerApi
from players.selectors import inventory_with_carry
from players.serializers import MeOutput


def _detail(guild_id: int) -> dict[str, Any]:
    guild = selectors.guild_get(guild_id=guild_id)
    return GuildDetailOutput(guild, context={"min_members": selectors.guild_min_members()}).data


class GuildListCreateApi(PlayerApi):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # A kept page for a JWT caller skips DRF's request machinery (listcache.kept_response says
        # why the answer is the same); anything else takes the full path below.
        kept = listcache.kept_response(request) if request.method == "GET" else None
        if kept is None:
            return super().dispatch(request, *args, **kwargs)
        self.headers = self.default_response_headers
        # DRF renders only a Response and takes any request here; its stubs ask for Request and Response.
        return self.finalize_response(request, kept)  # type: ignore[arg-type]

    def get_authenticators(self) -> list[Any]:
        # The JWT user lookup also reads the list's generation (no round trip of its own for a kept page).
        return listcache.reading_generation(super().get_authenticators())

    @extend_schema(
        operation_id="v1_guilds_list",
        parameters=[GuildListQuery],
        responses={200: GuildListOutput, **errors(400, 401)},
        summary="Browse open guilds (keyset-paginated)",
    )
    def get(self, request: Request) -> HttpResponse:
        min_members = selectors.guild_min_members()

        def list_page() -> dict[str, Any]:
            query = valid(GuildListQuery, request.query_params)
            page = selectors.guild_list(ordering=query["ordering"], search=query["search"],
                                        cursor=query["cursor"] or None, page_size=query["page_size"],
                                        min_members=min_members)
            # The selector already returns the items in GuildListItem's shape (it is the hot path).
            return {"results": page.items, "next": page.next_cursor}

        renderer = request.accepted_renderer
        if not isinstance(renderer, JSONRenderer):  # the browsable API's page shows the user: not cached
            return Response(list_page())
        # The same bytes for every player: keyed by the raw query string (a page is kept only once
        # it validated) and the raw Accept header (which, with the query, fixes the negotiated media
        # type, e.g. an indent); a change of the forming threshold counts a change of the list.
        body = listcache.cached_bytes(listcache.request_page_key(request),
                                      lambda: renderer.render(list_page(), request.accepted_media_type,
                                                              self.get_renderer_context()),
                                      generation=listcache.generation_for(request.user),
                                      content_type=renderer.media_type)
        return HttpResponse(body, content_type=renderer.media_type)

    @extend_schema(request=GuildCreateInput, responses={201: GuildDetailOutput, **errors(400, 401, 409)},
                   summary="Found a guild (guildless players only)")
    def post(self, request: Request) -> Response:
        guild = services.guild_create(player=self.player, **valid(GuildCreateInput, request.data))
        return Response(_detail(guild.pk), status=status.HTTP_201_CREATED)


class GuildDetailApi(PlayerApi):
    @extend_schema(responses={200: GuildDetailOutput, **errors(401, 404)}, summary="A guild with its members")
    def get(self, request: Request, guild_id: int) -> Response:
        return Response(_detail(guild_id))

    @extend_schema(request=GuildUpdateInput, responses={200: GuildDetailOutput, **errors(400, 401, 403, 404)},
                   summary="Edit the description or open/close the guild (leader)")
    def patch(self, request: Request, guild_id: int) -> Response:
        services.guild_update(actor=self.player, guild_id=guild_id, **valid(GuildUpdateInput, request.data))
        return Response(_detail(guild_id))


class GuildApplicationsApi(PlayerApi):
    @extend_schema(responses={200: ApplicationOutput(many=True), **errors(401, 403, 404)},
                   summary="Pending applications (leader)")
    def get(self, request: Request, guild_id: int) -> Response:
        guild = selectors.guild_get(guild_id=guild_id)
        if guild.leader_id != self.player.pk:
            raise NotAllowed("not_leader", "Only the guild leader may see applications.", {"guild": guild_id})
        return Response(ApplicationOutput(selectors.guild_pending_applications(guild=guild), many=True).data)

    @extend_schema(request=None, responses={201: ApplicationOutput, **errors(401, 404, 409)},
                   summary="Apply to join the guild")
    def post(self, request: Request, guild_id: int) -> Response:
        application = services.guild_application_create(player=self.player, guild_id=guild_id)
        return Response(ApplicationOutput(application).data, status=status.HTTP_201_CREATED)


class ApplicationApproveApi(PlayerApi):
    @extend_schema(request=None, responses={200: ApplicationOutput, **errors(401, 403, 404, 409)},
                   summary="Approve an application; the applicant joins (leader)")
    def post(self, request: Request, guild_id: int, application_id: int) -> Response:
        application = services.guild_application_approve(actor=self.player, guild_id=guild_id,
                                                          application_id=application_id)
        return Response(ApplicationOutput(application).data)


class ApplicationRejectApi(PlayerApi):
    @extend_schema(request=RejectInput, responses={200: ApplicationOutput, **errors(400, 401, 403, 404, 409)},
                   summary="Reject an application, optionally with a reason the applicant sees (leader)")
    def post(self, request: Request, guild_id: int, application_id: int) -> Response:
        application = services.guild_application_reject(actor=self.player, guild_id=guild_id,
                                                         application_id=application_id,
                                                         reason=valid(RejectInput, request.data)["reason"])
        return Response(ApplicationOutput(application).data)


class ApplicationWithdrawApi(PlayerApi):
    @extend_schema(request=None, responses={200: ApplicationOutput, **errors(401, 404, 409)},
                   summary="Withdraw one's own pending application")
    def post(self, request: Request, guild_id: int, application_id: int) -> Response:
        application = services.guild_application_withdraw(player=self.player, guild_id=guild_id,
                                                          application_id=application_id)
        return Response(ApplicationOutput(application).data)


class GuildInvitationsApi(PlayerApi):
    @extend_schema(request=PlayerIdInput,
                   responses={201: InvitationOutput, **errors(400, 401, 403, 404, 409)},
                   summary="Invite a player (leader)")
    def post(self, request: Request, guild_id: int) -> Response:
        invitation = services.guild_invitation_create(actor=self.player, guild_id=guild_id,
                                                      player_id=valid(PlayerIdInput, request.data)["player"])
        return Response(InvitationOutput(invitation).data, status=status.HTTP_201_CREATED)


class MyInvitationsApi(PlayerApi):
    @extend_schema(responses={200: InvitationOutput(many=True), **errors(401)},
                   summary="The caller's pending invitations")
    def get(self, request: Request) -> Response:
        invitations = selectors.player_pending_invitations(player=self.player)
        return Response(InvitationOutput(invitations, many=True).data)


class MyApplicationsApi(PlayerApi):
    @extend_schema(responses={200: ApplicationOutput(many=True), **errors(401)},
                   summary="The caller's pending applications and rejections of the last 30 days "
                           "(with reasons)")
    def get(self, request: Request) -> Response:
        return Response(ApplicationOutput(selectors.player_applications(player=self.player), many=True).data)


# /me/ lives here, not in players/apis.py: it shows the caller's guild, and players is below guilds.
# (No docstring: the schema's description of the operation stays PlayerApi's.)
class MeApi(PlayerApi):
    @extend_schema(responses={200: MeOutput, **errors(401, 404)},
                   summary="The caller's player: stats, money, guild, inventory and carry totals")
    def get(self, request: Request) -> Response:
        player = self.player
        player.guild = selectors.player_current_guild(player=player)
        player.carried_items, player.carry_summary = inventory_with_carry(player=player)
        return Response(MeOutput(player).data)


class InvitationAcceptApi(PlayerApi):
    @extend_schema(request=None, responses={200: InvitationOutput, **errors(401, 404, 409)},
                   summary="Accept an invitation and join (invitee)")
    def post(self, request: Request, invitation_id: int) -> Response:
        invitation = services.guild_invitation_accept(player=self.player, invitation_id=invitation_id)
        return Response(InvitationOutput(invitation).data)


class InvitationDeclineApi(PlayerApi):
    @extend_schema(request=None, responses={200: InvitationOutput, **errors(401, 404, 409)},
                   summary="Decline an invitation (invitee)")
    def post(self, request: Request, invitation_id: int) -> Response:
        invitation = services.guild_invitation_decline(player=self.player, invitation_id=invitation_id)
        return Response(InvitationOutput(invitation).data)


class GuildLeaderApi(PlayerApi):
    @extend_schema(request=PlayerIdInput,
                   responses={200: GuildDetailOutput, **errors(400, 401, 403, 404, 409)},
                   summary="Hand leadership to another member (leader)")
    def post(self, request: Request, guild_id: int) -> Response:
        services.guild_leader_hand_over(actor=self.player, guild_id=guild_id,
                                        player_id=valid(PlayerIdInput, request.data)["player"])
        return Response(_detail(guild_id))


class GuildKickApi(PlayerApi):
    @extend_schema(request=PlayerIdInput,
                   responses={200: GuildDetailOutput, **errors(400, 401, 403, 404, 409)},
                   summary="Remove a member (leader)")
    def post(self, request: Request, guild_id: int) -> Response:
        guild = services.guild_member_kick(actor=self.player, guild_id=guild_id,
                                           player_id=valid(PlayerIdInput, request.data)["player"])
        if guild.is_disbanded:  # the kicked member's departure completed a unanimous disband vote
            return Response(LeaveOutput({"guild": guild.pk, "disbanded": True}).data)
        return Response(_detail(guild_id))


class GuildLeaveApi(PlayerApi):
    @extend_schema(request=None, responses={200: LeaveOutput, **errors(401, 403, 404, 409)},
                   summary="Leave the guild (member)")
    def post(self, request: Request, guild_id: int) -> Response:
        guild = services.guild_leave(player=self.player, guild_id=guild_id)
        return Response(LeaveOutput({"guild": guild.pk, "disbanded": guild.is_disbanded}).data)


class GuildDisbandVoteApi(PlayerApi):
    @extend_schema(request=None, responses={200: DisbandStateOutput, **errors(401, 403, 404, 409)},
                   summary="Vote to disband; the last vote disbands at once (member)")
    def post(self, request: Request, guild_id: int) -> Response:
        state = services.guild_disband_vote(player=self.player, guild_id=guild_id)
        return Response(DisbandStateOutput(state).data)

    @extend_schema(request=None, responses={200: DisbandStateOutput, **errors(401, 403, 404, 409)},
                   summary="Withdraw one's disband vote (member)")
    def delete(self, request: Request, guild_id: int) -> Response:
        state = services.guild_disband_vote_withdraw(player=self.player, guild_id=guild_id)
        return Response(DisbandStateOutput(state).data)

