"""The base of every API view that acts as the caller's player."""
from __future__ import annotations

from functools import cached_property

from rest_framework.exceptions import NotAuthenticated
from rest_framework.views import APIView

from players.models import Player
from players.selectors import player_for_user


class PlayerApi(APIView):
    """An authenticated endpoint acting as the caller's player."""

    @cached_property
    def player(self) -> Player:
        user_id = self.request.user.pk
        if user_id is None:  # unreachable behind IsAuthenticated (the default); refused as it refuses
            raise NotAuthenticated()
        return player_for_user(user_id=user_id)
