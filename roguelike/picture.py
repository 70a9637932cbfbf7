"""The roguelike's board for the admin (a match's ``picture``): the floors' walls and exit (the grid
engine's drawing) with the buildings, the portals' ring order, what lies on the ground, the monsters
with their health and the player, each as a short mark explained by ``legend()``."""
from __future__ import annotations

from django.utils.translation import pgettext

from gamekit.pictures import LegendEntry
from labyrinth.engine.grid import Cell, Exit
from labyrinth.engine.svg import COLOURS, Mark, map_svg
from roguelike.engine import Game
from roguelike.engine.model import Building, Loot, MonsterKind

#: each building's letter and cell colour (a portal's letter is followed by its place in the ring)
BUILDINGS: dict[Building, tuple[str, str]] = {
    Building.ARSENAL: ("A", "#c4c4c4"), Building.HOSPITAL: ("H", "#f7b2b2"),
    Building.PORTAL: ("P", "#9ad0f5"), Building.MINES: ("M", "#e0c097"), Building.LIFT: ("L", "#d7c4ef"),
    Building.GRAVEYARD: ("G", "#bdbdbd"),
}
LOOT: dict[Loot, tuple[str, str]] = {Loot.GOLD: ("$", "#b8860b"), Loot.DRAGON_RING: ("o", "#8e24aa"),
                                     Loot.BAG: ("b", "#6d4c41")}
MONSTERS: dict[MonsterKind, tuple[str, str]] = {MonsterKind.DRAGON: ("d", "#c62828"),
                                                MonsterKind.ARCHER: ("a", "#ad1457")}
PLAYER = ("@", "#1565c0")
PICTURE_CELL = 40


def _building_name(building: Building) -> str:
    return {
        Building.ARSENAL: pgettext("roguelike legend", "Arsenal"),
        Building.HOSPITAL: pgettext("roguelike legend", "Hospital"),
        Building.PORTAL: pgettext("roguelike legend", "Portal (its number: the ring's order, "
                                  "each leads to the next, the last to the first)"),
        Building.MINES: pgettext("roguelike legend", "Mines"),
        Building.LIFT: pgettext("roguelike legend", "Lift"),
        Building.GRAVEYARD: pgettext("roguelike legend", "Graveyard"),
    }[building]


def _loot_name(loot: Loot) -> str:
    return {Loot.GOLD: pgettext("roguelike legend", "Gold (the treasure)"),
            Loot.DRAGON_RING: pgettext("roguelike legend", "Dragon ring"),
            Loot.BAG: pgettext("roguelike legend", "Bag")}[loot]


def _monster_name(kind: MonsterKind) -> str:
    return {MonsterKind.DRAGON: pgettext("roguelike legend", "Dragon (its number: health)"),
            MonsterKind.ARCHER: pgettext("roguelike legend", "Archer (its number: health)")}[kind]


def board_marks(game: Game) -> dict[Cell, list[Mark]]:
    """Every cell's marks: its building on the upper line, then the ground's loot, the monsters and the
    player on the lower one."""
    marks: dict[Cell, list[Mark]] = {}
    portals = {cell: i + 1 for i, cell in enumerate(game.world.portals)}
    for cell, building in game.world.buildings:
        letter, fill = BUILDINGS[building]
        text = f"{letter}{portals[cell]}" if cell in portals else letter
        marks.setdefault(cell, []).append(Mark(text, "#222", f"{cell} {_building_name(building)}", top=True,
                                               fill=fill))
    for cell, loot in game.ground:
        letter, colour = LOOT[loot]
        marks.setdefault(cell, []).append(Mark(letter, colour, f"{cell} {_loot_name(loot)}"))
    for monster in game.monsters:
        letter, colour = MONSTERS[monster.kind]
        marks.setdefault(monster.cell, []).append(
            Mark(f"{letter}{monster.health}", colour, f"{monster.cell} {_monster_name(monster.kind)}"))
    carried = pgettext("roguelike legend", "carries the gold") if game.player.gold else ""
    marks.setdefault(game.player.cell, []).append(
        Mark(PLAYER[0] + ("$" if game.player.gold else ""), PLAYER[1],
             f"{game.player.cell} {pgettext('roguelike legend', 'The player')} {carried}".strip()))
    return marks


def board_svg(game: Game) -> str:
    """The floors side by side, every mark drawn (admin only: the whole world, no fog)."""
    return map_svg(game.world.maze, size=PICTURE_CELL, teleport_lines=False, marks=board_marks(game))


def legend() -> list[LegendEntry]:
    """The marks of ``board_svg``, in the active language."""
    entries = [LegendEntry(letter, _building_name(building), fill=fill)
               for building, (letter, fill) in BUILDINGS.items()]
    entries.append(LegendEntry("E", pgettext("roguelike legend", "Exit (the arrow: its side)"),
                               fill=COLOURS[Exit]))
    entries += [LegendEntry(letter, _loot_name(loot), colour=colour)
                for loot, (letter, colour) in LOOT.items()]
    entries += [LegendEntry(letter, _monster_name(kind), colour=colour)
                for kind, (letter, colour) in MONSTERS.items()]
    entries.append(LegendEntry(PLAYER[0], pgettext("roguelike legend", "The player (@$: carrying the gold)"),
                               colour=PLAYER[1]))
    return entries
