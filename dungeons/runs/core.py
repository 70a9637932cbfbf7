"""What every run service shares: the run lock, the caller's membership, the party, the log, loot and coins."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from backend.errors import NotFound, RuleViolation
from backend.sql import MAX_ROW_ID, Columns, rows_insert, rows_update
from dungeons import run_rules
from dungeons.models import DungeonRoom, MemberStatus, Run, RunLoot, RunMember, RunSettings, RunStatus
from dungeons.run_log import LogEntry
from dungeons.run_rules import RunRules
from players.models import ItemCategory, ItemKind, Player, Rarity

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


#: The run's row, locked (every run service starts with it): precompiled (backend.sql.Columns).
_RUN = Columns(Run)
_LOCK_RUN = f'SELECT {_RUN.select()} FROM "dungeons_run" WHERE "dungeons_run"."id" = %s'


def lock_run(run_id: int) -> Run:
    connection = transaction.get_connection()
    row = None
    if run_id <= MAX_ROW_ID:  # a larger id names no row (and SQLite cannot bind it)
        with connection.cursor() as cursor:
            cursor.execute(_LOCK_RUN + (" FOR UPDATE" if connection.features.has_select_for_update else ""), [run_id])
            row = cursor.fetchone()
    if row is None:
        raise NotFound("run_not_found", "No such run.", {"run": run_id})
    return _RUN.instance(row, connection)


def run_member(run: Run, player: Player, *statuses: str) -> RunMember:
    """The player's membership of the run in one of ``statuses``; a stranger gets a 404."""
    member = RunMember.objects.filter(run=run, player=player).first()
    if member is None or (run.status != RunStatus.LOBBY and member.status == MemberStatus.LEFT):
        raise NotFound("run_not_found", "No such run.", {"run": run.pk})
    if statuses and member.status not in statuses:
        raise RuleViolation("not_in_party", "You are no longer in this run's party.",
                            {"run": run.pk, "status": member.status})
    return member


def require_status(run: Run, *statuses: str) -> None:
    if run.status not in statuses:
        code = "run_not_in_lobby" if RunStatus.LOBBY in statuses else "run_not_active"
        raise RuleViolation(code, f"The run is {run.status}.", {"run": run.pk, "status": run.status})


def check_step(run: Run, step: int) -> None:
    if step != run.step:
        raise RuleViolation("stale_step", "The party has moved on; reload the run.",
                            {"step": step, "current_step": run.step})


def log(run: Run, entry: LogEntry) -> None:
    """Append an entry to the run log where the party stands (in memory; the caller saves the run)."""
    run.log = [*run.log, entry.to_json(floor=run.floor, room=run.room)]


def run_party(run: Run, *statuses: str) -> list[RunMember]:
    return list(run.members.filter(status__in=statuses).select_related("player__user").order_by("position"))


def current_room(run: Run) -> DungeonRoom:
    return DungeonRoom.objects.get(dungeon_id=run.dungeon_id, floor=run.floor, index=run.room)


def next_position(run: Run) -> tuple[int, int] | None:
    rooms_here = DungeonRoom.objects.filter(dungeon_id=run.dungeon_id, floor=run.floor).count()
    if run.room + 1 < rooms_here:
        return run.floor, run.room + 1
    if run.floor + 1 < run.dungeon.floor_count:
        return run.floor + 1, 0
    return None


#: The catalog's items of some categories, in id order (what loot is drawn from): precompiled.
_ITEM_KIND = Columns(ItemKind)
_ITEM_KINDS = f'SELECT {_ITEM_KIND.select()} FROM "players_itemkind" WHERE "players_itemkind"."category" IN ({{}}) ' \
              'ORDER BY "players_itemkind"."id" ASC'


def drop_loot(
    run: Run, count: int, purpose: str, categories: Sequence[str] = LOOT_CATEGORIES
) -> list[RunLoot]:
    """``count`` items drawn with the rarity weights lie in the current room (seeded by ``purpose``)."""
    connection = transaction.get_connection()
    with connection.cursor() as cursor:
        cursor.execute(_ITEM_KINDS.format(", ".join(["%s"] * len(categories))), [str(c) for c in categories])
        kinds = [_ITEM_KIND.instance(row, connection) for row in cursor.fetchall()]
    weights = run_rules_get().rarity_weights()
    rng = run_rules.room_rng(run.seed, run.floor, run.room, purpose)
    picked = run_rules.weighted_pick(kinds, [weights.get(kind.rarity, 0) for kind in kinds], rng, count)
    return rows_insert([RunLoot(run=run, floor=run.floor, room=run.room, item_kind=kind) for kind in picked])


def pay(members: Sequence[RunMember], coins: int) -> None:
    if coins > 0 and members:
        with transaction.get_connection().cursor() as cursor:
            cursor.execute('UPDATE "players_player" SET "money" = ("players_player"."money" + %s) '
                           f'WHERE "players_player"."id" IN ({", ".join(["%s"] * len(members))})',
                           [coins, *(m.player_id for m in members)])


def run_save(run: Run) -> None:
    """``run.save()`` of a run read from the database (its loaded columns), without the ORM's statement."""
    rows_update([run], [name for name in run_snapshot(run) if name != Run._meta.pk.name])


def run_snapshot(run: Run) -> dict[str, Any]:
    """The run's loaded column values, to save only what a step changed (``run_save_changed``)."""
    return {f.name: run.__dict__[f.attname] for f in Run._meta.concrete_fields if f.attname in run.__dict__}


def run_save_changed(run: Run, before: dict[str, Any]) -> None:
    """Save the columns that differ from ``before`` (a column loaded since, e.g. the deferred log, counts
    as changed): an unchanged run costs no statement, a changed one never rewrites what did not change."""
    changed = [name for name, value in run_snapshot(run).items() if name not in before or before[name] != value]
    if changed:
        run.save(update_fields=changed)
