"""Reads of the Labyrinth of Darkness: what a guild knows of its maze, and a darkness run's state.

Only rooms someone of the guild has stood in or walked through are described (their four sides and
what they are); nothing about any other room is ever returned, so the unexplored maze cannot be
reconstructed from any response (tests/darkness/test_knowledge.py changes the unexplored part of a
maze and checks that the responses stay byte-identical).
"""
from __future__ import annotations

from typing import Any

from backend.errors import NotAllowed, NotFound
from darkness.engine import Pos, known_rooms
from darkness.models import DarknessRun, GuildMaze
from guilds.models import Guild, Membership
from players.models import Player


def _is_member(player: Player, guild_id: int | None) -> bool:
    return guild_id is not None and Membership.objects.filter(
        guild_id=guild_id, player=player, left_at__isnull=True).exists()


def _map_payload(maze: GuildMaze, rooms: set[Pos]) -> dict[str, Any]:
    layout = maze.layout()
    return {"rows": maze.rows, "cols": maze.cols, "sections": maze.sections,
            "entrance": {"row": layout.entrance[0], "col": layout.entrance[1]},
            "explored": len(rooms), "rooms": known_rooms(layout, rooms)}


def guild_labyrinth(*, guild_id: int, player: Player) -> dict[str, Any]:
    """The guild's explored map, for its members only."""
    guild = Guild.objects.filter(pk=guild_id, disbanded_at__isnull=True).first()
    if guild is None:
        raise NotFound("guild_not_found", "No such guild.", {"guild": guild_id})
    if not _is_member(player, guild.pk):
        raise NotAllowed("not_member", "Only the guild's members see its labyrinth.",
                         {"guild": guild_id})
    maze = GuildMaze.objects.filter(guild=guild).first()
    if maze is None:
        raise NotFound("labyrinth_not_found", "This guild has no labyrinth yet.", {"guild": guild_id})
    return {"guild": guild.pk, **_map_payload(maze, maze.visited_positions())}


def darkness_state(*, run_id: int, player: Player) -> dict[str, Any] | None:
    """A darkness run's place, torch and map for the run view (None for other runs and lobbies).

    A current member of the run's guild sees everything the guild knows; anyone else who was in the
    run sees only the rooms this run went through."""
    dark = DarknessRun.objects.filter(run_id=run_id).select_related("maze").first()
    if dark is None:
        return None
    maze = dark.maze
    layout = maze.layout()
    if _is_member(player, maze.guild_id):
        rooms = maze.visited_positions()
    else:
        rooms = {(r, c) for r, c in dark.path} | {layout.position(i) for i in dark.entered}
    here: Pos = dark.position
    return {
        "position": {"row": here[0], "col": here[1], "section": layout.section(here),
                     "kind": layout.room_kind(here)},
        "torch": {"left": dark.torch_left, "length": dark.torch_length, "bearer": dark.bearer_id},
        "path": [{"row": r, "col": c} for r, c in dark.path],
        **_map_payload(maze, rooms),
    }
