"""The Labyrinth of Darkness's run-log entries in words (SPEC 14 "Events speak"), registered with the run
log's texts (dungeons/runs/texts.py) by the app's ready(); the Russian is in darkness/locale/."""
from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import pgettext_lazy as _pl

from darkness.log_entries import (
    DarknessStarted,
    EnteredAgain,
    Moved,
    TorchOut,
    TorchRelit,
    TorchTaken,
    TurnedAway,
)
from dungeons.run_log import Names
from dungeons.runs import players_text, register_text

DIRECTIONS: dict[str, Promise] = {
    "UP": _pl("darkness", "up"), "LEFT": _pl("darkness", "left"),
    "DOWN": _pl("darkness", "down"), "RIGHT": _pl("darkness", "right"),
}
#: darkness.engine's MoveOutcome values
MOVES: dict[str, Promise] = {
    "moved": _pl("darkness move", "into the next room"), "wall": _pl("darkness move", "a wall"),
    "rubber": _pl("darkness move", "a rubber room holds it where it was"),
    "teleported": _pl("darkness move", "a teleport carries it away"),
}


def _word(words: dict[str, Promise], value: str) -> str:
    found = words.get(value)
    return value if found is None else str(found)


def _taken(e: TorchTaken, names: Names) -> str:
    if e.player is None:
        return gettext("Nobody can carry the torch: it burns unborne.")
    if e.set_aside:
        return gettext("%(player)s carries the torch, setting weapon #%(item)d aside.") % {
            "player": players_text(e.player, names), "item": e.set_aside}
    return gettext("%(player)s carries the torch.") % {"player": players_text(e.player, names)}


def register_texts() -> None:
    register_text(DarknessStarted, lambda e, n: gettext(
        "The party enters the guild's labyrinth (maze #%(maze)d): %(party)s (R = %(rank)s).") % {
        "maze": e.maze, "party": players_text(e.party, n), "rank": f"{e.rank:g}"})
    register_text(TorchTaken, _taken)
    register_text(TorchRelit, lambda e, n: gettext("The torch is relit at a camp: %(torch)d moves.") % {
        "torch": e.torch})
    register_text(EnteredAgain, lambda e, n: gettext("The party enters a room it has been in before."))
    register_text(TorchOut, lambda e, n: gettext("The torch burns out: the party is lost in the dark."))
    register_text(Moved, lambda e, n: gettext(
        "The party moves %(direction)s: %(outcome)s (torch -%(burn)d, %(torch)d left).") % {
        "direction": _word(DIRECTIONS, e.direction), "outcome": _word(MOVES, e.outcome), "burn": e.burn,
        "torch": e.torch})
    register_text(TurnedAway, lambda e, n: gettext(
        "%(players)s no longer belong to the guild and stay outside.") % {
        "players": players_text(e.players, n)})
