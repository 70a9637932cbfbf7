"""The legend of the paper Labyrinth's admin drawings (a designer map's drawing and a match's board,
``paper_labyrinth.engine.svg``): the cell letters (the seed's Cyrillic ones), the marks of holes,
treasures, loose items, the river and the exits, and on a match's board the players."""
from __future__ import annotations

from django.utils.translation import pgettext

from gamekit.pictures import LegendEntry
from paper_labyrinth.engine.mapformat import LETTERS
from paper_labyrinth.engine.model import CellType
from paper_labyrinth.engine.svg import CLOSED_EXIT, COLOURS, OPEN_EXIT

DARK_CELLS = (CellType.HOLE, CellType.MOUTH)  # drawn with white letters


def _cell_name(kind: CellType) -> str:
    return {
        CellType.LAND: pgettext("paper legend", "Land"),
        CellType.HOSPITAL: pgettext("paper legend", "Hospital (medical battalion)"),
        CellType.ARSENAL: pgettext("paper legend", "Arsenal"),
        CellType.HOLE: pgettext("paper legend", "Hole (its number: the place in its cycle, "
                                "cycle.place when there are several)"),
        CellType.RIVER: pgettext("paper legend", "River (the arrow: where it carries)"),
        CellType.MOUTH: pgettext("paper legend", "Mouth (the river's end)"),
        CellType.ENCEPHALITIS: pgettext("paper legend", "Encephalitis"),
    }[kind]


def map_legend(*, players: bool = False) -> list[LegendEntry]:
    """Every mark of a revealed drawing, in the active language; ``players``: with the players' rings (a
    match's board)."""
    entries = [LegendEntry(LETTERS[kind], _cell_name(kind), colour="#fff" if kind in DARK_CELLS else "#333",
                           fill=COLOURS[kind]) for kind in CellType]
    entries += [
        LegendEntry("T", pgettext("paper legend", "a true treasure (one letter per treasure of the pile)"),
                    colour="#b8860b"),
        LegendEntry("F", pgettext("paper legend", "a false treasure"), colour="#b8860b"),
        LegendEntry("b2 g1 m1",
                    pgettext("paper legend", "loose bullets, grenades and mines, with their counts")),
        LegendEntry("\u2192", pgettext("paper legend", "an open exit (the arrow points out)"),
                    colour=OPEN_EXIT),
        LegendEntry("- -", pgettext("paper legend", "a closed exit (opened by a grenade)"),
                    colour=CLOSED_EXIT),
    ]
    if players:
        entries.append(LegendEntry("1", pgettext("paper legend", "a player (the turn order's number; a red "
                                                 "ring: dead or out of the game)"), colour="#2e7d32"))
    return entries
