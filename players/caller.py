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
    def user_id(self) -> int:
        """The caller's account id, for a service that reads the account's player in a statement of its own
        (an account without a player is then its 404 ``player_not_found``)."""
        user_id = self.request.user.pk
        if user_id is None:  # unreachable behind IsAuthenticated (the default); refused as it refuses
            raise NotAuthenticated()
        return int(user_id)

    @cached_property
    def player(self) -> Player:
        return player_for_user(user_id=self.user_id)
