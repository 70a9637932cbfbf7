"""REST routes of the combat app (mounted under /api/v1/)."""
from django.urls import path

from combat import apis

urlpatterns = [
    path("battles/<int:battle_id>/", apis.BattleDetailApi.as_view(), name="battle"),
    path("battles/<int:battle_id>/actions/", apis.BattleActApi.as_view(), name="battle-actions"),
]
