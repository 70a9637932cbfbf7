"""Reads about players."""
from __future__ import annotations

from backend.errors import NotFound
from players.models import Player


def player_for_user(*, user_id: int) -> Player:
    try:
        return Player.objects.select_related("user").get(user_id=user_id)
    except Player.DoesNotExist as exc:
        raise NotFound("player_not_found", "This account has no player.") from exc


def player_get(*, player_id: int) -> Player:
    try:
        return Player.objects.select_related("user").get(pk=player_id)
    except Player.DoesNotExist as exc:
        raise NotFound("player_not_found", "No such player.", {"player": player_id}) from exc
