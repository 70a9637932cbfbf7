"""``GET matches/{id}/?since=N&wait=S`` for a delayed spectator: the long-poll waits until a step is released
to watchers (the admin's steps behind), not until any step is made."""
from __future__ import annotations

import pytest

from matches.models import MatchEvent
from matches.services import mode_settings
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import act, awaited, read, started, url
from tests.matches.test_match_long_poll import _poll_in_thread, _until_listening, waits  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_delayed_spectators_long_poll_answers_when_a_step_is_released(waits: list[bool]) -> None:  # noqa: F811
    # given a race watched one step behind, and a spectator long-polling after what is released (the start)
    row = mode_settings("secret_race")
    row.spectators, row.spectator_delay_turns = True, 1
    row.save()
    people, match = started()
    watcher = PlayerFactory()
    last = read(watcher, match.pk)["last_event"]
    thread, answers = _poll_in_thread(watcher, match.pk, last, 30)
    _until_listening(match.pk, thread)
    # when two moves are made (the first is released by the second)
    for _ in range(2):
        assert act(awaited(people, match.pk), match.pk, {"pick": 1}).status_code == 200
    thread.join()
    # then the poll was woken by a step (not by its time running out) and answers the first move's public
    # events, not the second's
    assert waits == [True]
    body = answers[0].json()
    first = MatchEvent.objects.filter(match_id=match.pk, turn=1, seats__isnull=True).order_by("seq")
    assert [e["seq"] for e in body["events"]] == list(first.values_list("seq", flat=True))
    assert body["spectator"] is True


def test_a_delayed_spectators_long_poll_with_nothing_released_waits_its_time(waits: list[bool]) -> None:  # noqa: F811
    # given a race watched two steps behind, one move made: held back from watchers
    row = mode_settings("secret_race")
    row.spectators, row.spectator_delay_turns = True, 2
    row.save()
    people, match = started()
    assert act(awaited(people, match.pk), match.pk, {"pick": 1}).status_code == 200
    watcher = PlayerFactory()
    last = read(watcher, match.pk)["last_event"]
    # when the spectator long-polls after it briefly
    reply = api_client(watcher).get(url(match.pk), {"since": last, "wait": 0.05})
    # then it waited (the held events did not answer it at once) and got nothing new
    assert waits == [False]
    assert reply.json()["events"] == [] and reply.json()["last_event"] == last
