"""The text of a match's events (SPEC 14 "Events speak"), rendered at read time in the request's language.

A match's log stores each event as its ``kind`` and data (``MatchEvent.data``), never as a sentence in one
language. A read adds ``text``: one human sentence in the active language (the request's, picked by
``LocaleMiddleware``), through gettext. The machinery's own events (the start, a timed-out turn, the end,
an abandoned match, a game ended by a new one) are rendered here; every other kind by its mode
(``ModeAdapter.event_text``), whose app keeps the Russian in its own catalogue.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.translation import gettext

from matches.modes import ModeAdapter


def _timed_out(data: Mapping[str, Any]) -> str:
    seat = data.get("seat")
    if isinstance(seat, int):
        return gettext("The player at seat %(seat)d let the turn's time run out.") % {"seat": seat}
    return gettext("A turn's time ran out.")


def _over(data: Mapping[str, Any]) -> str:
    # The event carries the match's result (matches.md, "The outcome"); an event stored before that
    # shape carried the winners alone.
    result = data.get("result")
    # ``winner_seats``: a bot that won has no player id in ``winners`` (docs/matches.md, "Bots")
    winners = (result.get("winner_seats", result.get("winners")) if isinstance(result, Mapping)
               else data.get("winners"))
    return gettext("The game is over.") if winners else gettext("The game is over: nobody won.")


def _abandoned(data: Mapping[str, Any]) -> str:
    result = data.get("result")
    details = result.get("details") if isinstance(result, Mapping) else None
    if isinstance(details, Mapping) and details.get("cause") == "left":
        return gettext("Every player left: the match is abandoned.")
    return gettext("Nobody played for a whole round: the match is abandoned.")


def _resigned(data: Mapping[str, Any]) -> str:
    seat = data.get("seat")
    if isinstance(seat, int):
        return gettext("The player at seat %(seat)d resigned.") % {"seat": seat}
    return gettext("A player resigned.")


#: the machinery's own kinds (matches/services.py), the same in every mode
FRAMEWORK_TEXTS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "match_started": lambda data: gettext("The match has started."),
    "turn_timed_out": _timed_out,
    "resigned": _resigned,
    "match_over": _over,
    "match_abandoned": _abandoned,
    "ended_by_new_game": lambda data: gettext("The player started a new game: this one is over."),
}


def event_text(adapter: ModeAdapter[Any], data: Mapping[str, Any]) -> str:
    """The sentence of one stored event in the active language."""
    framework = FRAMEWORK_TEXTS.get(str(data.get("kind")))
    return framework(data) if framework is not None else adapter.event_text(data)


def spoken(adapter: ModeAdapter[Any], events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The events as the API shows them: each one's stored JSON with its ``text`` in the active language
    (an older event's stored ``text`` is replaced by it)."""
    return [{**event, "text": event_text(adapter, event)} for event in events]
