"""REST routes of hosted matches (mounted under /api/v1/); a new mode adds none."""

from django.urls import path

from matches import apis, streams

urlpatterns = [
    path("modes/", apis.ModeListApi.as_view(), name="modes"),
    path("matches/", apis.MatchListCreateApi.as_view(), name="matches"),
    # Named routes before the id routes; the id converter takes digits only, so they never clash.
    path("matches/join/", apis.MatchJoinByCodeApi.as_view(), name="match-join-by-code"),
    path("matches/queue/", apis.MatchQueueApi.as_view(), name="match-queue"),
    path("matches/stream/", streams.MatchListStreamApi.as_view(), name="match-list-stream"),
    path("matches/<id:match_id>/", apis.MatchDetailApi.as_view(), name="match"),
    path("matches/<id:match_id>/join/", apis.MatchJoinApi.as_view(), name="match-join"),
    path("matches/<id:match_id>/leave/", apis.MatchLeaveApi.as_view(), name="match-leave"),
    path("matches/<id:match_id>/bots/", apis.MatchBotAddApi.as_view(), name="match-bots"),
    path("matches/<id:match_id>/start/", apis.MatchStartApi.as_view(), name="match-start"),
    path("matches/<id:match_id>/actions/", apis.MatchActApi.as_view(), name="match-actions"),
    path("matches/<id:match_id>/resign/", apis.MatchResignApi.as_view(), name="match-resign"),
    path("matches/<id:match_id>/rematch/", apis.MatchRematchApi.as_view(), name="match-rematch"),
    path("matches/<id:match_id>/replay/", apis.MatchReplayApi.as_view(), name="match-replay"),
    path("matches/<id:match_id>/stream/", streams.MatchStreamApi.as_view(), name="match-stream"),
]
