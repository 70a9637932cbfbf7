"""The console labyrinth's events in words (SPEC 14 "Events speak"): one sentence per event, in the active
language.

The engine (``labyrinth/engine/console.py``) gives the game master's answers as events, a ``kind`` and data;
the mode (``labyrinth/mode.py``) stores them so, and this module renders them when the log is read: English
here (gettext message ids, the engine's own ``describe`` sentences), Russian from the app's catalogue
(``labyrinth/locale/ru/LC_MESSAGES/django.po``, in seed 003's words: ведущий, оглушение, оружейная, патроны,
ключ, выход, сон). Nothing is stored as text, so one log reads in each request's language.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

Data = Mapping[str, Any]


def help_text() -> str:
    """The seed's commands (the ``?`` answer) in the active language; the English is ``console.HELP_TEXT``."""
    return gettext(
        "W / A / S / D - step up / left / down / right (one turn)\n"
        "X <W/A/S/D>  - shoot in that direction (one turn; a turn is spent only with a bullet)\n"
        "E            - your inventory (free)\n"
        "?            - this help (free)\n"
        "Commands are case-insensitive."
    )


def start_help() -> str:
    """What a view says while the hidden starts are chosen, in the active language."""
    return gettext('Choose your hidden start: {"start": [row, col]}.')


def _key(data: Data) -> str:
    return pgettext("console key", "the key") if data.get("has_key") else pgettext("console key", "no key")


def _shot(data: Data) -> str:
    if data.get("hit"):
        return gettext("Bang! You hit someone. Bullets left: %(ammo)d.") % {"ammo": data.get("ammo", 0)}
    return gettext("Bang! You missed. Bullets left: %(ammo)d.") % {"ammo": data.get("ammo", 0)}


def _killed(data: Data) -> str:
    if data.get("in_dream"):
        return gettext("You were shot!")
    return gettext(
        "You were shot! You are back at your start with an empty inventory and skip your next turn.")


def _won(data: Data) -> str:
    return gettext("The player at seat %(seat)d found the way out and wins! The game is over.") % {
        "seat": data.get("winner", 0)}


TEXTS: dict[str, Callable[[Data], str]] = {
    # the mode's own events: the hidden starts, the turn limit
    "start_chosen": lambda d: gettext("Your start position is (%(row)d, %(col)d).") % {
        "row": d.get("row", 0), "col": d.get("col", 0)},
    "game_started": lambda d: gettext("Every player has a start: the game begins."),
    "turn_limit": lambda d: gettext("%(limit)d turns have been played and nobody got out: a draw.") % {
        "limit": d.get("max_turns", 0)},
    # the game master's answers (console.describe)
    "moved": lambda d: gettext("You moved."),
    "wall": lambda d: gettext("A wall: you stay where you are."),
    "stunned": lambda d: ngettext(
        "You are stunned: you will skip your next %(turns)d turn.",
        "You are stunned: you will skip your next %(turns)d turns.", d.get("turns", 0)) % {
        "turns": d.get("turns", 0)},
    "turn_skipped": lambda d: gettext(
        "You are stunned and skip this turn; %(remaining)d more to skip after it.") % {
        "remaining": d.get("remaining", 0)},
    "teleported": lambda d: gettext("You were teleported."),
    "armory": lambda d: gettext("An armory: you have %(ammo)d bullets.") % {"ammo": d.get("ammo", 0)},
    "key_found": lambda d: gettext("You found the key and picked it up."),
    "exit_locked": lambda d: gettext("This is the exit, but it is locked: you need the key."),
    "no_ammo": lambda d: gettext("You have no bullets (your turn is not spent)."),
    "shot": _shot,
    "killed": _killed,
    "woke_up": lambda d: gettext("You wake up. Your inventory: %(ammo)d bullets, %(key)s.") % {
        "ammo": d.get("ammo", 0), "key": _key(d)},
    "inventory": lambda d: gettext("Inventory: %(ammo)d bullets, %(key)s.") % {
        "ammo": d.get("ammo", 0), "key": _key(d)},
    "help": lambda d: help_text(),
    "won": _won,
}


def event_text(data: Data) -> str:
    """One console labyrinth event's sentence in the active language (an unknown kind: its stored text)."""
    render = TEXTS.get(str(data.get("kind")))
    if render is not None:
        return render(data)
    text = data.get("text")
    return text if isinstance(text, str) else ""
