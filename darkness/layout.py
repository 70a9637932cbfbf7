"""The stored form of a generated guild maze (shared by the services and the data migration)."""
from __future__ import annotations

import dataclasses
import random
import secrets
from typing import Any

from darkness.engine import DARKNESS_GENERATOR_VERSION, MazeParams, generate_guild_maze
from labyrinth.engine import format_map

#: Seeds are stored in a signed 64-bit column.
MAX_SEED = 2**63 - 1


def new_maze_fields(params: MazeParams, seed: int | None = None) -> dict[str, Any]:
    """Generate a maze and return the GuildMaze column values (the guild is the caller's)."""
    seed = secrets.randbits(63) if seed is None else seed
    maze = generate_guild_maze(params, random.Random(seed))
    return {
        "seed": seed,
        "generator_version": DARKNESS_GENERATOR_VERSION,
        "params": dataclasses.asdict(params),
        "rows": maze.rows,
        "cols": maze.cols,
        "sections": params.sections,
        "map_text": format_map(maze.map),
        "entrance": list(maze.entrance),
        "heart": list(maze.heart),
        "camps": [list(camp) for camp in maze.camps],
        "section_of_row": list(maze.section_of_row),
        "visited": [],
    }
