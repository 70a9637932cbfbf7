"""The match machinery's own events speak the reader's language, from the result they carry."""
from __future__ import annotations

from django.utils import translation

from matches.events import FRAMEWORK_TEXTS


def nobody(cause: str) -> dict[str, object]:
    return {"winners": [], "winner_seats": [], "reason": "abandoned", "details": {"cause": cause}}


def test_the_end_says_whether_anybody_won() -> None:
    won = {"kind": "match_over",
           "result": {"winners": [7], "winner_seats": [1], "reason": "won", "details": {}}}
    drawn = {"kind": "match_over", "result": {**nobody("x"), "reason": "draw_nstop", "details": {}}}
    assert FRAMEWORK_TEXTS["match_over"](won) == "The game is over."
    assert FRAMEWORK_TEXTS["match_over"](drawn) == "The game is over: nobody won."
    # an event stored before the one outcome shape carried the winners alone
    assert FRAMEWORK_TEXTS["match_over"]({"kind": "match_over", "winners": [7]}) == "The game is over."


def test_an_abandoned_match_says_why_in_english_and_russian() -> None:
    left = {"kind": "match_abandoned", "result": nobody("left")}
    idle = {"kind": "match_abandoned", "result": nobody("timeouts")}
    assert FRAMEWORK_TEXTS["match_abandoned"](left) == "Every player left: the match is abandoned."
    assert FRAMEWORK_TEXTS["match_abandoned"](idle) == (
        "Nobody played for a whole round: the match is abandoned.")
    with translation.override("ru"):
        assert FRAMEWORK_TEXTS["match_abandoned"](left) == "Все игроки ушли: матч брошен."
        assert FRAMEWORK_TEXTS["match_abandoned"](idle) == "Целый круг никто не ходил: матч брошен."
