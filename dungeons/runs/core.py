"""What every run service shares: the rules in force, a run loaded for a step, the caller's membership, the
checks of status and step, loot and coins. Every statement goes through the run's store (store.py)."""
from __future__ import annotations

from collections.abc import Sequence

from backend.errors import NotFound, RuleViolation
from dungeons import run_rules
from dungeons.models import MemberStatus, RunSettings, RunStatus
from dungeons.run_rules import RunRules
from dungeons.runs import store
from dungeons.runs.store import LootRow, MemberRow, RunRow, RunStep
from players.models import ItemCategory, Player, Rarity

#: What treasure and battle loot is drawn from (story items come from story rooms, torches from the Labyrinth).
LOOT_CATEGORIES = (ItemCategory.WEAPON, ItemCategory.ARMOR, ItemCategory.POTION, ItemCategory.AMULET)
#: Battle and boss loot: never amulets, which are found only (and rarely: the catalog makes them
#: rare) in treasure rooms, or bought from the jeweler (SPEC section 6).
BATTLE_LOOT_CATEGORIES = tuple(c for c in LOOT_CATEGORIES if c != ItemCategory.AMULET)
#: What an opened sealed story room's reward is drawn from: the better half of the catalog.
SEALED_REWARD_RARITIES = (Rarity.UNCOMMON, Rarity.RARE)
#: A story room's story item (dungeons.generation.STORY_ITEMS) -> the catalog sub-kind it yields.
STORY_ITEM_SUB_KINDS = {"gems": "gem", "enchanted_stones": "enchanted_stone", "carpenters_tools": "carpenters_tools"}


def run_rules_get() -> RunRules:
    return RunSettings.cached().to_rules()


def _not_found(run_id: int) -> NotFound:
    return NotFound("run_not_found", "No such run.", {"run": run_id})


def run_locked(run_id: int, *, rooms: bool = False) -> RunStep:
    """The run, locked with its log, as a step (every run write starts with it); 404 if there is none.
    ``rooms``: the step will need the dungeon's rooms (read with the run where the store can)."""
    step = store.run_step_lock(run_id, rooms=rooms)
    if step is None:
        raise _not_found(run_id)
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


def drop_loot(
    step: RunStep, count: int, purpose: str, categories: Sequence[str] = LOOT_CATEGORIES
) -> list[LootRow]:
    """``count`` items drawn with the rarity weights lie in the current room (seeded by ``purpose``)."""
    run = step.run
    assert run.floor is not None and run.room is not None
    kinds = store.item_kinds(categories)
    weights = run_rules_get().rarity_weights()
    rng = run_rules.room_rng(run.seed, run.floor, run.room, purpose)
    picked = run_rules.weighted_pick(kinds, [weights.get(kind.rarity, 0) for kind in kinds], rng, count)
    return store.loot_add(run_id=run.id, floor=run.floor, room=run.room, kinds=picked)


def pay(members: Sequence[MemberRow], coins: int) -> None:
    """Every member finds ``coins`` (one update of their players' money)."""
    store.pay([m.player_id for m in members], coins)
