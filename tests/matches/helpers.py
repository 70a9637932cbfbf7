"""Helpers of the match tests: open, fill and start a lobby through the API; play a step."""

from __future__ import annotations

from typing import Any

from matches.models import Match
from players.models import Player
from tests.factories import PlayerFactory, api_client

MATCHES = "/api/v1/matches/"


def url(match_id: int, tail: str = "") -> str:
    return f"{MATCHES}{match_id}/{tail}"


def open_lobby(
    host: Player, mode: str = "secret_race", settings: dict[str, Any] | None = None, **extra: Any
) -> dict[str, Any]:
    reply = api_client(host).post(MATCHES, {"mode": mode, "settings": settings or {}, **extra}, format="json")
    assert reply.status_code == 201, reply.json()
    return reply.json()


def started(
    mode: str = "secret_race", players: int = 2, settings: dict[str, Any] | None = None, deadline: int = 3600
) -> tuple[list[Player], Match]:
    """A started match of ``players`` fresh players (the first hosts); an hour's deadline unless told."""
    from matches.services import mode_settings

    row = mode_settings(mode)
    row.turn_deadline_seconds = deadline
    row.save()
    people = [PlayerFactory() for _ in range(players)]
    match_id = open_lobby(people[0], mode, settings)["id"]
    for player in people[1:]:
        assert api_client(player).post(url(match_id, "join/")).status_code == 200
    reply = api_client(people[0]).post(url(match_id, "start/"))
    assert reply.status_code == 200, reply.json()
    return people, Match.objects.get(pk=match_id)


def read(player: Player, match_id: int, since: int = 0) -> dict[str, Any]:
    reply = api_client(player).get(url(match_id), {"since": since})
    assert reply.status_code == 200, reply.json()
    return reply.json()


def awaited(people: list[Player], match_id: int) -> Player:
    match = Match.objects.get(pk=match_id)
    return next(p for p in people if p.pk == match.awaiting_id)


def act(
    player: Player, match_id: int, action: dict[str, Any], *, turn: int | None = None, key: str = ""
) -> Any:
    if turn is None:
        turn = Match.objects.get(pk=match_id).turn
    return api_client(player).post(
        url(match_id, "actions/"), {"turn": turn, "action": action, "idempotency_key": key}, format="json"
    )
