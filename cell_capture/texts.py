"""Cell capture's events in words (SPEC 14 "Events speak"): one sentence per event, in the active language.

The engine (``cell_capture/engine/events.py``) gives each event as its ``kind`` and data; this module renders
it when the log is read, in the seed's log format (seed 7.3: "[Round 3, player A] ...", pieces in the
notation colour_level_(X,Y), which is the same in every language): English here (gettext message ids), Russian
from the app's catalogue (``cell_capture/locale/ru/LC_MESSAGES/django.po``, in the seed's words: раунд, фишка,
капля, цепная реакция). A chain reaction's wave is one sentence, its pieces' clauses joined by "; " (the first
TEXT_LINES of them and a count of the rest). Nothing is stored as text, so one log reads in each language.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from cell_capture.engine.events import TEXT_LINES, neighbours, piece

Data = Mapping[str, Any]


def _cell(cell: Sequence[int]) -> str:
    return f"({cell[0]},{cell[1]})"


def _turn(data: Data) -> str:
    return gettext("[Round %(round)d, player %(player)s]") % {
        "round": data["round"], "player": data["player"]}


def _drops(count: int) -> str:
    return ngettext("%(count)d drop", "%(count)d drops", count) % {"count": count}


def _wave(data: Data, clauses: list[str]) -> str:
    if len(clauses) > TEXT_LINES:
        rest = len(clauses) - TEXT_LINES
        clauses = [*clauses[:TEXT_LINES], ngettext("and %(count)d more", "and %(count)d more", rest) % {
            "count": rest}]
    return gettext("[Chain reaction, wave %(wave)d] %(clauses)s.") % {
        "wave": data["wave"], "clauses": "; ".join(clauses)}


def _exploded(data: Data) -> str:
    player = data["player"]
    return _wave(data, [
        gettext("%(piece)s exploded -> drops to %(cells)s") % {
            "piece": piece(player, level, tuple(cell)),
            "cells": ", ".join(_cell(c) for c in neighbours(tuple(cell), data["width"], data["height"]))}
        for cell, level in data["pieces"]])


def _landed(data: Data) -> str:
    player, clauses = data["player"], []
    for cell, count, level in data["landings"]:
        after = piece(player, level, tuple(cell))
        if level > count:
            clauses.append(gettext("%(piece)s got %(drops)s -> %(after)s") % {
                "piece": piece(player, level - count, tuple(cell)), "drops": _drops(count), "after": after})
        else:
            clauses.append(gettext("the empty cell %(cell)s got %(drops)s -> %(after)s") % {
                "cell": _cell(cell), "drops": _drops(count), "after": after})
    return _wave(data, clauses)


def _captured(data: Data) -> str:
    player = data["player"]
    return _wave(data, [
        gettext("%(piece)s got %(drops)s -> became %(after)s (colour changed)") % {
            "piece": piece(colour, before, tuple(cell)), "drops": _drops(count),
            "after": piece(player, level, tuple(cell))}
        for cell, count, colour, before, level in data["landings"]])


TEXTS: dict[str, Callable[[Data], str]] = {
    "placed": lambda d: gettext("%(turn)s places %(piece)s.") % {
        "turn": _turn(d), "piece": piece(d["player"], 1, tuple(d["cell"]))},
    "upgraded": lambda d: gettext("%(turn)s %(piece)s -> level %(level)d.") % {
        "turn": _turn(d), "piece": piece(d["player"], d["level"] - 1, tuple(d["cell"])), "level": d["level"]},
    "exploded": _exploded,
    "drops": _landed,
    "captured": _captured,
    "skipped": lambda d: gettext("%(turn)s turn skipped.") % {"turn": _turn(d)},
    "eliminated": lambda d: gettext("[Round %(round)d] Player %(player)s has no piece left and is out.") % {
        "round": d["round"], "player": d["player"]},
    "won": lambda d: gettext(
        "[Round %(round)d] Player %(player)s wins: only %(player)s is left on the board."
    ) % {"round": d["round"], "player": d["player"]},
}


def event_text(data: Data) -> str:
    """One cell capture event's sentence in the active language (an unknown kind: its stored text, if any)."""
    render = TEXTS.get(str(data.get("kind")))
    if render is not None:
        return render(data)
    text = data.get("text")
    return text if isinstance(text, str) else ""


def stored(data: Mapping[str, Any]) -> dict[str, Any]:
    """An engine event's JSON as the match log keeps it: kind and data, without the engine's English line."""
    return {key: value for key, value in data.items() if key != "text"}
