"""Builders for darkness tests: a hand-drawn maze installed as a guild's maze, steerable settings."""
from __future__ import annotations

from typing import Any

from darkness.models import DarknessSettings, GuildMaze
from guilds.models import Guild
from players.models import Player
from tests.dungeons.run_helpers import run_settings

API = "/api/v1"

# A 4x2 maze in two sections (rows 0-1, rows 2-3), one corridor:
# entrance (0,0) R (0,1) D (1,1) L (1,0) D camp (2,0) R (2,1) D (3,1) L heart (3,0)
CORRIDOR = "4 2\n. .\n_ .\n. .\n. _\n. .\n_ .\n. .\n"
CORRIDOR_PATH = ["RIGHT", "DOWN", "LEFT", "DOWN", "RIGHT", "DOWN", "LEFT"]


def darkness_settings(**numbers: Any) -> DarknessSettings:
    settings = DarknessSettings.load()
    for name, value in numbers.items():
        setattr(settings, name, value)
    settings.save()
    return settings


def only(content: str, **more: Any) -> DarknessSettings:
    """Every ordinary room holds ``content`` (enemy, trap, treasure or empty)."""
    weights = {"enemy_weight": 0.0, "enemy_weight_per_section": 0.0, "trap_weight": 0.0,
               "treasure_weight": 0.0, "empty_weight": 0.0}
    weights[f"{content}_weight"] = 1.0
    return darkness_settings(**weights, **more)


def deadly_trap(victim: Player, survivor: Player) -> None:
    """Every ordinary room holds a trap that kills ``victim`` (no attentiveness) and spares ``survivor``."""
    only("trap")
    Player.objects.filter(pk=victim.pk).update(attentiveness=0)
    Player.objects.filter(pk=survivor.pk).update(attentiveness=10)
    run_settings(trap_damage_base=60, trap_damage_per_floor=0, trap_mitigation_per_attentiveness=0.1,
                 trap_mitigation_max=0.9, trap_effect_chance=0.0)


def install_maze(guild: Guild, text: str = CORRIDOR, *, entrance: tuple[int, int] = (0, 0),
                 heart: tuple[int, int] = (3, 0), camps: list[tuple[int, int]] | None = None,
                 section_of_row: list[int] | None = None) -> GuildMaze:
    """Replace the guild's generated maze by a hand-drawn one (the knowledge starts empty)."""
    rows, cols = map(int, text.split("\n", 1)[0].split())
    maze = GuildMaze.objects.get(guild=guild)
    maze.map_text = text
    maze.rows, maze.cols = rows, cols
    maze.entrance, maze.heart = list(entrance), list(heart)
    maze.camps = [list(c) for c in (camps if camps is not None else [(2, 0)])]
    maze.section_of_row = section_of_row or [0, 0, 1, 1]
    maze.sections = max(maze.section_of_row) + 1
    maze.visited = []
    maze.save()
    return maze
