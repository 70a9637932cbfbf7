"""Reads of the Labyrinth of Darkness: what a guild knows of its maze, and a darkness run's state.

Only rooms someone of the guild has stood in or walked through are described (their four sides and
what they are); nothing about any other room is ever returned, so the unexplored maze cannot be
reconstructed from any response (tests/darkness/test_knowledge.py changes the unexplored part of a
maze and checks that the responses stay byte-identical).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backend.errors import NotAllowed, NotFound
from darkness.engine import Pos, known_rooms
from darkness.models import DarknessRun, GuildMaze
from dungeons.runs import (
    LootRow,
    MemberRow,
    RoomBattle,
    RoomEntry,
    RunRow,
    RunStep,
    player_ref,
    room_contents,
)
from dungeons.selectors import RunView, run_payload
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
    member = _is_member(player, dark.maze.guild_id)
    return darkness_state_of(dark, known=dark.maze.visited, guild_member=member)


def darkness_state_of(dark: DarknessRun, *, known: list[int], guild_member: bool) -> dict[str, Any]:
    """``darkness_state`` of a darkness row (with its maze) the caller holds: ``known``, the room numbers
    the guild knows; ``guild_member``, whether the reader is a current member of the maze's guild."""
    maze = dark.maze
    layout = maze.layout()
    if guild_member:
        rooms = {divmod(index, maze.cols) for index in known}
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


def darkness_allowed(*, run: RunRow, state: dict[str, Any] | None, allowed: list[dict[str, Any]],
                     walking: bool) -> list[dict[str, Any]]:
    """A darkness run's ``allowed_actions`` from the ordinary ones and its state (``darkness_state``): no
    advance (the party moves by direction), an escape only from a camp, and, once the room is done, a
    ``move`` (``step``, ``direction``: POST runs/{id}/move/) through every open side of the room where the
    party stands (a rubber room's passage too: the move succeeds and burns the torch)."""
    if state is None:
        return allowed
    at_camp = state["position"]["kind"] == "camp"
    kept = [a for a in allowed if a["kind"] != "advance" and (a["kind"] != "escape" or at_camp)]
    if not walking:
        return kept
    here = next((r for r in state["rooms"]
                 if (r["row"], r["col"]) == (state["position"]["row"], state["position"]["col"])), None)
    if here is None:
        return kept
    moves = [{"kind": "move", "step": run.step, "direction": side}
             for side in ("UP", "LEFT", "DOWN", "RIGHT") if not here["walls"][side]]
    return [*moves, *kept]


@dataclass(frozen=True)
class DarknessMoved:
    """A move as it left the run, for an answer built without reading it back: the run's step (saved),
    the darkness row with its maze, what the guild knows now (room numbers), the member who moved, and
    the entry of a room entered for the first time (None: no new room)."""

    step: RunStep
    dark: DarknessRun
    known: list[int]
    mover: MemberRow
    entry: RoomEntry | None


def darkness_moved_view(moved: DarknessMoved) -> RunView:
    """The run view a move answers with, built from what the move holds (nothing read back): the run as
    saved, its members and rooms, the new room's content (or, in a room entered before, what lies in it:
    one read), the darkness state as the mover sees it."""
    step = moved.step
    run = step.run
    rooms = step.rooms()
    battle: RoomBattle | None = None
    loot: list[LootRow] = []
    if moved.entry is not None:
        battle = None if moved.entry.battle is None else RoomBattle.of(moved.entry.battle)
        loot = moved.entry.loot
    elif run.floor is not None and run.room is not None and any((r.floor, r.index) == (run.floor, run.room)
                                                                for r in rooms):
        battle, loot = room_contents(run_id=run.id, floor=run.floor, room=run.room)
    state = darkness_state_of(moved.dark, known=moved.known,
                              guild_member=moved.mover.current_guild_id == moved.dark.maze.guild_id)
    return run_payload(run=run, log=step.full_log, player=player_ref(moved.mover.player_id),
                       members=step.members(), rooms=rooms, battle=battle, loot=loot, kind_view=state,
                       held=(step.battle_events, step.battle_names))
