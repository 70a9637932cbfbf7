"""``GET matches/{id}/stream/`` for a spectator (SPEC 13 and 15), read through Django's AsyncClient: the
public events only, steps behind when the admin says so, as the REST read shows them; a mode that forbids
watching keeps the 404."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from matches.models import MatchEvent
from matches.services import mode_settings
from players.models import Player
from tests.backend.live.sse_reader import Sse
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import url
from tests.matches.test_match_stream import _events, _headers, _move, _open

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio,
              pytest.mark.usefixtures("embedded_hub")]


def _watching(mode: str, on: bool = True, delay: int = 0) -> None:
    row = mode_settings(mode)
    row.spectators, row.spectator_delay_turns = on, delay
    row.save()


def _started() -> tuple[list[Player], int, Player]:
    from tests.matches.helpers import started

    people, match = started()
    return people, match.pk, PlayerFactory()


def _rest(player: Player, match_id: int) -> list[dict]:
    return list(api_client(player).get(url(match_id), {"since": 0}).json()["events"])


def _seqs(match_id: int, **where: object) -> list[int]:
    rows = MatchEvent.objects.filter(match_id=match_id, **where).order_by("seq")
    return list(rows.values_list("seq", flat=True))


async def test_a_spectators_stream_carries_the_public_events_only() -> None:
    # given a watched secret race, a spectator streaming it from the start
    await sync_to_async(_watching)("secret_race")
    people, match_id, watcher = await sync_to_async(_started)()
    stream = await _open(watcher, match_id, "?since=0")
    await stream.until("match")
    # when a seat picks (the pick is private to it, the move public)
    await _move(people, match_id, pick=3)
    live = await stream.until("match")
    # then the spectator gets the move and never the pick, as its REST read shows it
    assert [m.event for m in _events(live)] == ["moved"]
    read = await sync_to_async(_rest)(watcher, match_id)
    assert [e for e in read if e["seq"] == _events(live)[0].id] == [_events(live)[0].data]
    assert "picked" not in {e["kind"] for e in read}
    await stream.close()


async def test_a_delayed_spectators_stream_releases_each_step_the_admins_steps_later() -> None:
    # given a race watched one step behind, two moves made, a spectator streaming from the start
    await sync_to_async(_watching)("secret_race", delay=1)
    people, match_id, watcher = await sync_to_async(_started)()
    await _move(people, match_id)
    await _move(people, match_id)
    stream = await _open(watcher, match_id, "?since=0")
    past = await stream.until("match")
    # then it has the public events of the start and the first move (turn 1), not of the second
    public = {"seats__isnull": True}
    assert [m.id for m in _events(past)] == await sync_to_async(_seqs)(match_id, turn__lt=2, **public)
    # when a third move is made, the second's public events come, and not the third's
    await _move(people, match_id)
    live: list[Sse] = await stream.until("match")
    assert [m.id for m in _events(live)] == await sync_to_async(_seqs)(match_id, turn=2, **public)
    await stream.close()


async def test_a_stream_of_a_mode_that_forbids_spectators_is_404_to_a_stranger() -> None:
    await sync_to_async(_watching)("secret_race", on=False)
    _, match_id, watcher = await sync_to_async(_started)()
    response = await AsyncClient().get(url(match_id, "stream/"), headers=await _headers(watcher))
    assert response.status_code == 404
