"""Every step that changes a match wakes its streams (``match:<id>`` on the live hub) once it commits; a
refused step wakes nobody."""
from __future__ import annotations

import pytest

from backend.live import tap
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import act, awaited, open_lobby, url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def published(settings):
    settings.REDIS_URL = ""  # delivered in this process
    seen: list[str] = []
    undo = tap(seen.append)
    yield seen
    undo()


def test_join_start_action_and_leave_each_publish_the_match(published: list[str]) -> None:
    # given a lobby
    host, guest = PlayerFactory(), PlayerFactory()
    match_id = open_lobby(host)["id"]
    channel = f"match:{match_id}"
    # when a player joins, the host starts, the awaited player acts and the other leaves
    assert api_client(guest).post(url(match_id, "join/")).status_code == 200
    assert published.count(channel) == 1
    assert api_client(host).post(url(match_id, "start/")).status_code == 200
    assert published.count(channel) == 2
    mover = awaited([host, guest], match_id)
    assert act(mover, match_id, {"pick": 1}).status_code == 200
    assert published.count(channel) == 3
    # then a refused step (a stale turn) publishes nothing
    assert act(mover, match_id, {"pick": 1}, turn=1).status_code == 409
    assert published.count(channel) == 3
    # and walking out of the started match does
    assert api_client(guest).post(url(match_id, "leave/")).status_code == 200
    assert published.count(channel) == 4


def test_the_lists_are_woken_by_lobby_changes_starts_and_ends_never_by_a_move(published: list[str]) -> None:
    # given a lobby: opening it woke the match lists (GET matches/stream/) once
    from matches.services import LIST_CHANNEL

    host, guest = PlayerFactory(), PlayerFactory()
    match_id = open_lobby(host)["id"]
    assert published.count(LIST_CHANNEL) == 1
    # when a player joins and the host starts, each wakes them
    assert api_client(guest).post(url(match_id, "join/")).status_code == 200
    assert published.count(LIST_CHANNEL) == 2
    assert api_client(host).post(url(match_id, "start/")).status_code == 200
    assert published.count(LIST_CHANNEL) == 3
    # then a move does not, nor a refused step
    mover = awaited([host, guest], match_id)
    assert act(mover, match_id, {"pick": 1}).status_code == 200
    assert act(mover, match_id, {"pick": 1}, turn=1).status_code == 409
    assert published.count(LIST_CHANNEL) == 3
    # and the last player walking out (the match abandoned) does
    for person in (host, guest):
        assert api_client(person).post(url(match_id, "leave/")).status_code == 200
    assert published.count(LIST_CHANNEL) > 3
    assert api_client(host).get(url(match_id)).json()["status"] == "abandoned"
