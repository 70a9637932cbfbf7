"""The framework's secret start phase (``matches.modes.SecretStart``) through the match routes, on the
test mode ``secret_start_race``: who chooses, what is legal, what stays private, what a deadline does,
and when the play begins."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from matches.models import Match
from tests.matches.helpers import act, awaited, read, started

pytestmark = pytest.mark.django_db

MODE = "secret_start_race"
HANDICAPS = [{"handicap": 0}, {"handicap": 1}, {"handicap": 2}]


def kinds(body: dict) -> list[str]:
    return [e["kind"] for e in body["events"]]


def test_seats_choose_in_turn_order_and_only_the_chooser_learns_its_start() -> None:
    # given: a started match in its secret start phase
    people, match = started(MODE)
    first = awaited(people, match.pk)
    other = next(p for p in people if p != first)
    # then: the awaited seat may send the starts, the other seat nothing
    assert read(first, match.pk)["allowed_actions"] == HANDICAPS
    assert read(other, match.pk)["allowed_actions"] == []
    # when: the first seat chooses
    reply = act(first, match.pk, {"handicap": 2})
    # then: it hears its own choice, the table only that it has chosen
    assert reply.status_code == 200, reply.json()
    assert [(e["kind"], e.get("handicap")) for e in reply.json()["events"]] == [
        ("handicap_chosen", 2), ("has_chosen", None)]
    assert kinds(read(other, match.pk)) == ["match_started", "has_chosen"]
    assert awaited(people, match.pk) == other  # the next seat in turn order chooses next


def test_a_missed_deadline_draws_a_start_that_nobody_is_told_and_then_the_play_begins() -> None:
    # given: the first seat has chosen; the second seat stays silent past its deadline
    people, match = started(MODE, deadline=60)
    first = awaited(people, match.pk)
    other = next(p for p in people if p != first)
    assert act(first, match.pk, {"handicap": 0}).status_code == 200
    with time_machine.travel(timezone.now() + timedelta(seconds=61), tick=False):
        # when: anyone reads
        body = read(other, match.pk)
    # then: the start was drawn (a timeout step), told to nobody; the race is on for the first seat
    assert kinds(body)[-3:] == ["turn_timed_out", "has_chosen", "race_started"]
    assert "handicap_chosen" not in kinds(body)
    assert kinds(read(first, match.pk)).count("handicap_chosen") == 1  # its own choice only
    assert awaited(people, match.pk) == first
    assert read(first, match.pk)["allowed_actions"] == [{"pick": 1}, {"pick": 2}, {"pick": 3}]
    state = Match.objects.get(pk=match.pk).state
    assert state["handicaps"] is None and sum(state["scores"]) in (0, 1, 2)


def test_an_action_of_another_phase_is_a_rule_refusal_and_a_malformed_start_a_400_even_out_of_turn() -> None:
    people, match = started(MODE)
    first = awaited(people, match.pk)
    other = next(p for p in people if p != first)
    # a well-formed move of the play phase, during the start phase: 409 with the phase's code
    refused = act(first, match.pk, {"pick": 1})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "choose_handicap_first"
    # a malformed start from a seat that is not awaited: 400 before the turn rules
    malformed = act(other, match.pk, {"handicap": 7})
    assert malformed.status_code == 400 and malformed.json()["error"]["code"] == "bad_handicap"
    # nothing changed
    assert Match.objects.get(pk=match.pk).state["handicaps"] == []
