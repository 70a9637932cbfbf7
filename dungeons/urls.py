"""REST routes of the dungeons app (mounted under /api/v1/): the preview, runs and their battles."""
from django.urls import path

from dungeons import apis, streams

urlpatterns = [
    path("dungeons/preview/", apis.DungeonPreviewApi.as_view(), name="dungeon-preview"),
    path("runs/", apis.RunListCreateApi.as_view(), name="runs"),
    path("runs/lobbies/", apis.RunLobbiesApi.as_view(), name="run-lobbies"),
    path("runs/lobbies/stream/", streams.RunLobbiesStreamApi.as_view(), name="run-lobbies-stream"),
    path("runs/<int:run_id>/", apis.RunDetailApi.as_view(), name="run"),
    path("runs/<int:run_id>/stream/", streams.RunStreamApi.as_view(), name="run-stream"),
    path("runs/<int:run_id>/replay/", apis.RunReplayApi.as_view(), name="run-replay"),
    path("runs/<int:run_id>/join/", apis.RunJoinApi.as_view(), name="run-join"),
    path("runs/<int:run_id>/leave/", apis.RunLeaveApi.as_view(), name="run-leave"),
    path("runs/<int:run_id>/offer/", apis.RunOfferApi.as_view(), name="run-offer"),
    path("runs/<int:run_id>/weapon/", apis.RunWeaponApi.as_view(), name="run-weapon"),
    path("runs/<int:run_id>/formation/", apis.RunFormationApi.as_view(), name="run-formation"),
    path("runs/<int:run_id>/start/", apis.RunStartApi.as_view(), name="run-start"),
    path("runs/<int:run_id>/advance/", apis.RunAdvanceApi.as_view(), name="run-advance"),
    path("runs/<int:run_id>/escape/", apis.RunEscapeApi.as_view(), name="run-escape"),
    path("runs/<int:run_id>/drink/", apis.RunDrinkApi.as_view(), name="run-drink"),
    path("runs/<int:run_id>/loot/<int:loot_id>/take/", apis.RunLootTakeApi.as_view(), name="run-loot-take"),
    path("battles/<int:battle_id>/", apis.BattleDetailApi.as_view(), name="battle"),
    path("battles/<int:battle_id>/actions/", apis.BattleActApi.as_view(), name="battle-actions"),
]
