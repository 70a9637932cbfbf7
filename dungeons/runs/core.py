"""What every run service shares: the rules in force, a run loaded for a step, the caller's membership, the
checks of status and step, loot and coins. Every statement goes through the run's store (store.py)."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from backend.errors import NotFound, RuleViolation
from backend.live import publish
from dungeons.models import MemberStatus, RunSettings, RunStatus
from dungeons.runs import store
from dungeons.runs.engine import Changed, Inside, Place, loot, run_stats
from dungeons.runs.engine.log import LogEntry
from dungeons.runs.engine.loot import LOOT_CATEGORIES, loot_draw
from dungeons.runs.engine.rules import RunRules
from dungeons.runs.engine.values import STAT_NAMES
from dungeons.runs.store import LootRow, MemberRow, PlayerFacts, RunRow, RunStep
from players.models import ItemKind, Player

#: A story room's story item -> the catalog sub-kind it yields (the engine's table, under its older home).
STORY_ITEM_SUB_KINDS = loot.STORY_ITEM_SUB_KINDS


def run_rules_get(run: RunRow | None = None) -> RunRules:
    """The run settings in force: for a started run those it recorded at its start (a run plays by the
    numbers it began with, and its replay gives them), else the admin's current ones."""
    if run is not None and run.rules is not None:
        return rules_of(run.rules)
    return RunSettings.cached().to_rules()


def rules_snapshot() -> dict[str, Any]:
    """The admin's current run settings as a run records them at its start."""
    return dataclasses.asdict(RunSettings.cached().to_rules())


def rules_of(recorded: Mapping[str, Any]) -> RunRules:
    """The rules a run recorded (a setting added since keeps its default)."""
    names = {f.name for f in dataclasses.fields(RunRules)}
    return RunRules(**{name: value for name, value in recorded.items() if name in names})


def _not_found(run_id: int) -> NotFound:
    return NotFound("run_not_found", "No such run.", {"run": run_id})


def run_locked(run_id: int, *, rooms: bool = False) -> RunStep:
    """The run, locked with its log, as a step (every run write starts with it); 404 if there is none.
    ``rooms``: the step will need the dungeon's rooms (read with the run where the store can).

    Every step that changes a run outside battle (the lobby's, a room's, a run kind's) takes this lock, so
    the run's streams and long-polls are woken here, once the step commits (``backend.live.publish``: a
    refused step rolls back and wakes nobody)."""
    step = store.run_step_lock(run_id, rooms=rooms)
    if step is None:
        raise _not_found(run_id)
    publish(f"run:{run_id}")
    return step


def run_read(run_id: int) -> RunStep:
    """The run as a step, not locked (a read); 404 if there is none."""
    found = store.run_read(run_id)
    if found is None:
        raise _not_found(run_id)
    return RunStep(found[0], log=found[1])


def member_of(step: RunStep, player: Player, *statuses: str) -> MemberRow:
    """The player's membership of the run in one of ``statuses``; a stranger gets a 404 (so does who left
    the lobby of a run that is no longer one)."""
    member = step.member(player.pk)
    if member is None or (step.run.status != RunStatus.LOBBY and member.status == MemberStatus.LEFT):
        raise _not_found(step.pk)
    if statuses and member.status not in statuses:
        raise RuleViolation("not_in_party", "You are no longer in this run's party.",
                            {"run": step.pk, "status": member.status})
    return member


def require_status(run: RunRow, *statuses: str) -> None:
    if run.status not in statuses:
        code = "run_not_in_lobby" if RunStatus.LOBBY in statuses else "run_not_active"
        raise RuleViolation(code, f"The run is {run.status}.", {"run": run.id, "status": run.status})


def check_step(run: RunRow, step: int) -> None:
    if step != run.step:
        raise RuleViolation("stale_step", "The party has moved on; reload the run.",
                            {"step": step, "current_step": run.step})


def place_of(run: RunRow) -> Place:
    """Where the party stands (the run must be inside its dungeon)."""
    assert run.floor is not None and run.room is not None
    return Place(run.seed, run.floor, run.room)


def stats_of(player: PlayerFacts | Player) -> dict[str, int]:
    """A player's permanent stats."""
    return {name: getattr(player, name) for name in STAT_NAMES}


def inside(member: MemberRow) -> Inside:
    """A member as the run's rules read them (dungeons/runs/engine), with their stats for this run: the
    permanent ones raised by the stat potions drunk in it."""
    return Inside(member.player_id, member.hp, member.max_hp, run_stats_of(member), member.pending_effects)


def run_stats_of(member: MemberRow, player: PlayerFacts | Player | None = None) -> dict[str, int]:
    """The member's stats for this run (``player``: their player's row, if read again under its lock)."""
    return run_stats(stats_of(member.player if player is None else player), member.stat_boosts)


def apply_rules(step: RunStep, changes: Sequence[Changed] = (), *entries: LogEntry) -> None:
    """Record what a rule returned on the step: the members' new columns, then its log entries."""
    for change in changes:
        step.change_member(change.player_id, **change.columns)
    for entry in entries:
        step.log(entry)


def drop_loot(
    step: RunStep, count: int, purpose: str, categories: Sequence[str] = LOOT_CATEGORIES
) -> list[LootRow]:
    """``count`` items drawn with the rarity weights lie in the current room (seeded by ``purpose``)."""
    run = step.run
    place = place_of(run)
    pool = catalog_read(step, store.item_kinds(categories), purpose)
    picked = loot_draw(pool, count, place=place, purpose=purpose, rules=run_rules_get(step.run))
    return store.loot_add(run_id=run.id, floor=place.floor, room=place.room, kinds=picked)


def catalog_read(step: RunStep, pool: list[ItemKind], purpose: str) -> list[ItemKind]:
    """The catalog's entries a draw of the room's stream ``purpose`` reads (``pool``, in id order), recorded
    on the step for the replay (``RunStep.record``: each entry's id and rarity, all a draw reads of it), so
    a rebuild draws from the catalog as it stood, not as it stands."""
    step.record("catalog", purpose=purpose, items=[{"id": kind.pk, "rarity": kind.rarity} for kind in pool])
    return pool


def pay(members: Sequence[MemberRow], coins: int) -> None:
    """Every member finds ``coins`` (one update of their players' money)."""
    store.pay([m.player_id for m in members], coins)
