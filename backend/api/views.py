"""Base classes for the thin API views."""
from __future__ import annotations

from functools import cached_property

from rest_framework.views import APIView

from backend.api.compiled import validated as valid
from players.models import Player
from players.selectors import player_for_user

__all__ = ["PlayerApi", "valid"]  # valid: the input check every view uses (backend/api/compiled.py)


class PlayerApi(APIView):
    """An authenticated endpoint acting as the caller's player."""

    @cached_property
    def player(self) -> Player:
        return player_for_user(user_id=self.request.user.pk)
