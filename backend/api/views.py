"""Base classes for the thin API views."""
from __future__ import annotations

from functools import cached_property
from typing import Any

from rest_framework import serializers
from rest_framework.views import APIView

from players.models import Player
from players.selectors import player_for_user


class PlayerApi(APIView):
    """An authenticated endpoint acting as the caller's player."""

    @cached_property
    def player(self) -> Player:
        return player_for_user(user_id=self.request.user.pk)


def valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """Validate request data with an input serializer (400 ``invalid`` with field errors if bad)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
