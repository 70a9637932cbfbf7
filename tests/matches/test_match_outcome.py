"""SPEC 14's one outcome shape. For every registered mode, a game played to its end over the API has a
result of exactly ``{winners, winner_seats, reason, details}`` wherever the result is carried (the match,
the list, the replay, the event that ended it, the ``match_over`` refusal), and each seat's view after the
end has the keys it had during play, plus ``revealed`` (in the mode's own terms, never the stored state)
where the game hid something."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Match
from matches.modes import (
    MACHINE_REASONS,
    ModeAdapter,
    Outcome,
    get_mode,
    match_result,
    register,
    registered_modes,
)
from players.models import Player
from tests.factories import api_client
from tests.matches.helpers import MATCHES, url
from tests.matches.test_match_replay import _play_to_the_end
from tests.matches.toy_mode import SecretRaceMode

pytestmark = pytest.mark.django_db

RESULT_KEYS = {"winners", "winner_seats", "reason", "details"}
ENDINGS = ("match_over", "match_abandoned")
#: what each mode's ``revealed`` holds after the end (the random games draw their maps and worlds, so every
#: mode that hides something may show it); a mode not named hides nothing: its view gains no ``revealed``
REVEALED_KEYS = {
    "labyrinth_console": {"map", "players"},
    "labyrinth_paper": {"map", "players"},
    "labyrinth_roguelike": {"world", "monsters", "ground", "player_cell"},
}


def assert_one_shape(result: Any, adapter: ModeAdapter[Any], players: dict[int, int]) -> None:
    """``result`` is SPEC 14's outcome: the keys exactly, the winners' ids those of the winning seats, a
    reason the mode or the machinery declares, the details an object."""
    assert isinstance(result, dict) and set(result) == RESULT_KEYS, result
    assert all(isinstance(seat, int) for seat in result["winner_seats"])
    assert result["winners"] == [players[seat] for seat in result["winner_seats"]]
    assert result["reason"] in {*adapter.reasons, *MACHINE_REASONS}, result
    assert isinstance(result["details"], dict)


@pytest.mark.parametrize("mode", sorted(registered_modes()))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_ending_has_one_result_shape_and_the_view_keeps_its_shape(mode: str, seed: int) -> None:
    # given: a game played to its end (random legal actions, some turns timed out)
    views: list[dict[str, Any]] = []
    match = _play_to_the_end(mode, seed, views)
    adapter = get_mode(mode)
    assert adapter is not None
    players = dict(match.seats.filter(seat__isnull=False).values_list("seat", "player_id"))
    # then: its result is the one shape
    assert_one_shape(match.result, adapter, players)
    for seat, player_id in players.items():
        client = api_client(Player.objects.get(pk=player_id))
        # and every answer that carries it carries the same
        body = client.get(url(match.pk), {"since": max(0, match.event_count - 5)}).json()
        assert body["result"] == match.result
        assert [e["result"] for e in body["events"] if e["kind"] in ENDINGS] == [match.result]
        listed = client.get(MATCHES, {"mode": mode}).json()["results"]
        assert next(m for m in listed if m["id"] == match.pk)["result"] == match.result
        assert client.get(url(match.pk, "replay/")).json()["result"] == match.result
        offered = [v for v in views if v["seat"] == seat and v["allowed_actions"]]
        if offered:
            action = offered[-1]["allowed_actions"][0]
            refused = client.post(url(match.pk, "actions/"), {"turn": match.turn, "action": action},
                                  format="json")
            assert refused.status_code == 409 and refused.json()["error"]["code"] == "match_over"
            assert refused.json()["error"]["details"]["result"] == match.result
        # and the seat's view keeps the keys it had during play, plus what was hidden
        during = [v["view"] for v in views if v["seat"] == seat]
        if during:
            assert set(body["view"]) - {"revealed"} == set(during[-1])
        assert_revealed(match, adapter, body["view"])


def assert_revealed(match: Match, adapter: ModeAdapter[Any], view: dict[str, Any]) -> None:
    keys = REVEALED_KEYS.get(match.mode)
    if keys is None:
        assert "revealed" not in view
        return
    assert set(view["revealed"]) == keys and view["revealed"] != match.state
    assert view["revealed"] == adapter.revealed(adapter.state_from_json(match.state))


def test_every_mode_declares_its_reasons_apart_from_the_machinery() -> None:
    for adapter in registered_modes().values():
        assert adapter.reasons and not set(adapter.reasons) & set(MACHINE_REASONS), adapter.name
        assert all(isinstance(text, str) and text for text in adapter.reasons.values())


class _Silent(SecretRaceMode):
    name = "silent_race"
    reasons: dict[str, str] = {}


class _Usurper(SecretRaceMode):
    name = "usurper_race"
    reasons = {"abandoned": "Claims the machinery's code."}


@pytest.mark.parametrize("mode", [_Silent(), _Usurper()])
def test_a_mode_without_its_own_reasons_is_refused(mode: ModeAdapter[Any]) -> None:
    with pytest.raises(ValueError):
        register(mode)
    assert get_mode(mode.name) is None


def test_an_outcome_is_shown_with_the_seats_players() -> None:
    outcome = Outcome((1,), "won", {"colour": "red"})
    assert match_result(outcome, {0: 10, 1: 11}) == {
        "winners": [11], "winner_seats": [1], "reason": "won", "details": {"colour": "red"}
    }
