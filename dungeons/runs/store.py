"""The run aggregate's storage: a run with its members, rooms, loot and log, behind one module.

STYLE.md's store (Saleor's fetch): a service loads the run as frozen rows (``RunRow``, ``MemberRow``,
``RoomRow``, ``LootRow``) into a ``RunStep``, the run services compute the step on them, recording what
changed as values (``step.change``, ``step.change_member``, ``step.log``), and ``run_save`` writes the
step's ``RunChanges``: only the columns that changed, the log's new entries appended. The run's
battles are combat's aggregate (combat/store.py); the statements that read a battle together with
its run (the action's checking lock, the poll) are composed here from combat's columns.

Every statement with a fast path has its portable twin here, and tests/dungeons/test_run_store.py runs
both against each other on both databases: a fast read is precompiled SQL (``backend.sql.Columns``,
on both databases; its twin the ORM's query), the step's write on PostgreSQL is one data-modifying
``WITH`` (the run, its members, its new rooms; the log appended with ``||`` without reading it), whose
portable twin writes the same rows with ``backend.sql.rows_update`` / ``rows_insert``. The database
decides the path (``fast=None``); a test passes ``fast`` to run the other. No other module of the
run writes SQL or asks which database it runs on.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone

from backend.api.pagination import Page, keyset_page
from backend.sql import (
    MAX_ROW_ID,
    Columns,
    Prepared,
    column_of,
    concrete_field,
    rows_insert,
    rows_update,
    rows_update_sql,
)
from combat.models import Battle, BattleAction, BattleEvent
from combat.store import (
    BATTLE,
    EVENTS_PAGE,
    EVENTS_SINCE_COLUMN,
    POLLED_BATTLE,
    BattleRow,
    battle_row,
    events_of_column,
)
from combat.texts import names_of
from dungeons import generation
from dungeons.kinds import run_kind_hooks
from dungeons.models import (
    Dungeon,
    DungeonRoom,
    MemberStatus,
    NpcKind,
    Run,
    RunFacts,
    RunLoot,
    RunMember,
    RunStatus,
    WeaponChoice,
)
from dungeons.runs.engine.log import LogEntry
from guilds.models import Guild, Membership
from guilds.selectors import with_current_guild
from players.models import InventoryItem, ItemKind, Player
from players.notice_store import NOTICES_CTE, Told, notices_insert, notices_params

#: Who sees a run's battles: a member who did not leave its lobby (docs/runs.md).
SEEING_STATUSES = [status for status in MemberStatus.values if status != MemberStatus.LEFT]
_NPC_NAMES = dict(NpcKind.choices)


def _vendor_fast(fast: bool | None) -> bool:
    """The path a write takes: the caller's choice, else PostgreSQL's own where it runs."""
    return transaction.get_connection().vendor == "postgresql" if fast is None else fast


# --- the rows ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunRow(RunFacts):
    """A run's columns as loaded (its log apart: ``RunStep``)."""

    id: int
    kind: str
    status: str
    host_id: int
    seed: int
    dungeon_id: int | None
    guild_id: int | None
    floor: int | None
    room: int | None
    room_cleared: bool
    step: int
    npc_kind: str
    npc_hp: int
    npc_max_hp: int
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    event_seq: int = 0
    rules: dict[str, Any] | None = None
    #: The party's moves so far (``RunStep.act``); None: not loaded (a battle's lock never reads them).
    actions: list[dict[str, Any]] | None = None

    @property
    def pk(self) -> int:
        return self.id

    @property
    def npc_name(self) -> str:
        return str(_NPC_NAMES.get(self.npc_kind, self.npc_kind))


@dataclass(frozen=True)
class PlayerFacts:
    """What a run needs of a member's player: the name shown, the stats, the completed dungeons."""

    id: int
    username: str
    display_name: str
    strength: int
    stamina: int
    metabolism: int
    luck: int
    attentiveness: int
    completed_dungeons: int
    user_id: int
    potion_belt_level: int

    @property
    def pk(self) -> int:
        return self.id


@dataclass(frozen=True)
class MemberRow:
    """A run member's columns with their player, and (read with them) the player's current guild."""

    id: int
    run_id: int
    player_id: int
    position: int
    status: str
    active: bool
    weapon_choice: str
    guild_id: int | None
    hp: int
    max_hp: int
    stat_boosts: dict[str, int]
    pending_effects: list[dict[str, Any]]
    buffs: list[dict[str, Any]]
    kills: dict[str, int]
    money_lost: int
    items_lost: int
    player: PlayerFacts
    current_guild_id: int | None = None
    current_guild_rank: int | None = None

    @property
    def pk(self) -> int:
        return self.id


#: A run's columns as RunRow holds them (its log apart).
_RUN_COLUMNS = tuple(f.name for f in dataclasses.fields(RunRow))
#: The member columns a step may change (the rest are written once, when the member joins).
MEMBER_COLUMNS = ("position", "status", "active", "weapon_choice", "guild_id", "hp", "max_hp", "stat_boosts",
                  "pending_effects", "buffs", "kills", "money_lost", "items_lost")


@dataclass(frozen=True)
class RoomRow:
    floor: int
    index: int
    kind: str
    npc_kind: str = ""
    story_item: str = ""
    seal: str = ""


@dataclass(frozen=True)
class LootRow:
    """An item lying in a room of a run (``item_kind``: the catalog's entry, read-only data)."""

    id: int
    floor: int
    room: int
    item_kind: ItemKind
    taken_by_id: int | None = None

    @property
    def pk(self) -> int:
        return self.id


# --- a step: what a request changes on a run ---------------------------------------------------------------


@dataclass(frozen=True)
class RunChanges:
    """What a step changed, as values: the run's changed columns, the log entries it added (and the whole
    log, if it was read), the members whose columns changed (as they stand now) with the union of those
    columns, the rooms it added to the run's dungeon."""

    run_id: int
    run: dict[str, Any]
    entries: tuple[dict[str, Any], ...]
    log: list[dict[str, Any]] | None
    members: tuple[MemberRow, ...]
    member_columns: tuple[str, ...]
    dungeon_id: int | None
    rooms: tuple[RoomRow, ...]
    also: tuple[tuple[models.Model, tuple[str, ...]], ...] = ()
    #: What the step read for the replay (``RunStep.record``) while the run's moves were not loaded: appended
    #: to them without reading them.
    records: tuple[dict[str, Any], ...] = ()
    #: The notices the step writes (``RunStep.tell``).
    told: tuple[Told, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.run or self.entries or self.members or self.rooms or self.also or self.records
                    or self.told)


class RunStep:
    """One request's work on a run: the rows as loaded (frozen) and, replacing them, the rows as the step
    leaves them; ``run_save`` writes the difference. Members (every member of the run, in formation order,
    with their players), the dungeon's rooms and facts are read on first use unless they were loaded with
    the run; the log only if it was loaded with the run."""

    def __init__(self, run: RunRow, *, log: list[dict[str, Any]] | None = None,
                 members: Sequence[MemberRow] | None = None, rooms: Sequence[RoomRow] | None = None,
                 dungeon: DungeonFacts | None = None) -> None:
        self.run = run
        self._saved = run
        self._log = log
        self.entries: list[dict[str, Any]] = []
        self._members: dict[int, MemberRow] | None = None
        self._members_saved: dict[int, MemberRow] = {}
        self._rooms = None if rooms is None else list(rooms)
        self._dungeon = dungeon
        self.rooms_added: list[RoomRow] = []
        #: The battle events this step numbered in the run's sequence (stored by combat's store), as the
        #: run's events show them: an answer built from the step shows them without reading them back.
        self.battle_events: list[dict[str, Any]] = []
        #: Their battles' combatants' names (battle id -> combatant id -> name), to word them.
        self.battle_names: dict[int, dict[str, str]] = {}
        #: What a run kind keeps for this step (its own rows, by its own key), so that its hooks change the
        #: very instances its service holds (e.g. darkness's row, whose torch passes on a death).
        self.held: dict[str, Any] = {}
        self._also: dict[int, tuple[models.Model, set[str]]] = {}
        #: The inputs recorded for the replay (``record``) while the run's moves were not loaded.
        self.records: list[dict[str, Any]] = []
        #: The notices to write with the step (``tell``).
        self.told: list[Told] = []
        if members is not None:
            self._hold(members)

    def _hold(self, members: Sequence[MemberRow]) -> None:
        self._members = {m.player_id: m for m in members}
        self._members_saved = dict(self._members)

    @property
    def pk(self) -> int:
        return self.run.id

    def change(self, **columns: Any) -> RunRow:
        self.run = dataclasses.replace(self.run, **columns)
        return self.run

    def log(self, entry: LogEntry, *, seq: int | None = None) -> None:
        """Append an entry to the run log where the party stands now, numbered in the run's one sequence
        (SPEC 13): the next number, or ``seq`` reserved for it earlier (``reserve``)."""
        if seq is None:
            seq = self.reserve()
        self.entries.append({"seq": seq, **entry.to_json(floor=self.run.floor, room=self.run.room)})

    def tell(self, told: Sequence[Told]) -> None:
        """Notices the step writes with its own save (on PostgreSQL in its one statement); the caller wakes
        the told users' streams (``players.notices.notices_wake``: once the step commits)."""
        self.told += told

    def reserve(self) -> int:
        """The next number of the run's one sequence, taken now (for an entry logged later: a battle's
        ``battle`` entry comes before its first events but names the battle, stored after them)."""
        return self.change(event_seq=self.run.event_seq + 1).event_seq

    def numbered(self, last: int) -> None:
        """A battle's events took the run's numbers up to ``last``: the run's next entry comes after them."""
        if last > self.run.event_seq:
            self.change(event_seq=last)

    def battle_numbered(self, battle: BattleRow, events: Sequence[dict[str, Any]]) -> None:
        """A new battle's first events (stored by combat's store) took the run's numbers up to the battle's
        ``run_seq``."""
        first = battle.run_seq - len(events) + 1
        self.battle_events += [battle_event(battle.id, first + n, n + 1, data)  # as a read gives them back
                               for n, data in enumerate(stored_log(list(events)))]
        self.battle_names[battle.id] = names_of(battle.state)
        self.numbered(battle.run_seq)

    def act(self, player_id: int, action: dict[str, Any], *, at: datetime) -> None:
        """Record a move of the party (who did what, when) for the run's replay; the run must have been
        loaded with its moves (a run service's lock)."""
        assert self.run.actions is not None, "the run was loaded without its moves"
        self.change(actions=[*self.run.actions, {"player": player_id, "at": at.isoformat(), **action}])

    def record(self, read: str, **facts: Any) -> None:
        """Record for the run's replay an input the step read that no rule of an engine gives (the catalog a
        loot draw read, the items an escape chose its losses from), where the party stands. It goes with the
        party's moves (``Run.actions``, told apart by its ``read``), written with the step: set with them
        when they were loaded (a run service's lock), else appended without reading them (a battle's)."""
        entry = {"read": read, "floor": self.run.floor, "room": self.run.room, **facts}
        if self.run.actions is not None:
            self.change(actions=[*self.run.actions, entry])
        else:
            self.records.append(entry)

    @property
    def full_log(self) -> list[dict[str, Any]]:
        """The whole log with this step's entries (the run must have been loaded with its log); once the
        step is saved, exactly as a read of the run gives it."""
        assert self._log is not None, "the run was loaded without its log"
        return [*self._log, *self.entries]

    def members(self) -> list[MemberRow]:
        """Every member of the run (any status), in formation order, as the step leaves them."""
        if self._members is None:
            self._hold(members_load(self.run.id))
        assert self._members is not None
        return sorted(self._members.values(), key=lambda m: (m.position, m.id))

    def party(self, *statuses: str) -> list[MemberRow]:
        """The members in one of ``statuses``, in formation order."""
        return [m for m in self.members() if m.status in statuses]

    def member(self, player_id: int) -> MemberRow | None:
        if self._members is None:
            self.members()
        assert self._members is not None
        return self._members.get(player_id)

    def change_member(self, player_id: int, **columns: Any) -> MemberRow:
        member = self.member(player_id)
        assert member is not None and self._members is not None
        changed = self._members[player_id] = dataclasses.replace(member, **columns)
        return changed

    def rooms(self) -> list[RoomRow]:
        """The rooms of the run's dungeon, floor by floor in order, with those this step added."""
        if self._rooms is None:
            self._rooms = [] if self.run.dungeon_id is None else rooms_of(self.run.dungeon_id)
        return sorted([*self._rooms, *self.rooms_added], key=lambda r: (r.floor, r.index))

    def dungeon(self) -> DungeonFacts:
        """The run's dungeon's facts (it must have one)."""
        if self._dungeon is None:
            assert self.run.dungeon_id is not None
            self._dungeon = dungeon_facts(self.run.dungeon_id)
        return self._dungeon

    def save_with(self, row: models.Model, fields: Sequence[str] | None = None) -> None:
        """Save another row (stored already) with the step: a row of the run kind's own, e.g. darkness's.
        Its ``fields`` (None: every column) are written as the instance stands when the step is saved,
        in the same statement as the run's on PostgreSQL."""
        names = [f.name for f in row._meta.concrete_fields if not f.primary_key] if fields is None else fields
        self._also.setdefault(id(row), (row, set()))[1].update(names)

    def add_room(self, room: RoomRow) -> None:
        """A room of the run's dungeon made by this step (a darkness run's, the first time it is entered)."""
        self.rooms_added.append(room)

    def changes(self) -> RunChanges:
        run = {name: getattr(self.run, name) for name in _RUN_COLUMNS
               if getattr(self.run, name) != getattr(self._saved, name)}
        members, columns = [], set()
        for player_id, member in (self._members or {}).items():
            before = self._members_saved.get(player_id)
            changed = {name for name in MEMBER_COLUMNS
                       if before is None or getattr(member, name) != getattr(before, name)}
            if changed:
                members.append(member)
                columns |= changed
        return RunChanges(run_id=self.run.id, run=run, entries=tuple(self.entries),
                          log=self.full_log if self._log is not None else None, members=tuple(members),
                          member_columns=tuple(name for name in MEMBER_COLUMNS if name in columns),
                          dungeon_id=self.run.dungeon_id, rooms=tuple(self.rooms_added),
                          also=tuple((row, tuple(sorted(names))) for row, names in self._also.values()),
                          records=tuple(self.records), told=tuple(self.told))

    def saved(self) -> None:
        """The step's changes are written: what it holds now is what is stored (the log's new entries as
        a read would give them)."""
        if self._log is not None:
            self._log = [*self._log, *stored_log(self.entries)]
        if self._rooms is not None:
            self._rooms += self.rooms_added
        self._saved, self.entries, self.rooms_added, self._also, self.records = self.run, [], [], {}, []
        self.told = []
        if self._members is not None:
            self._members_saved = dict(self._members)


# --- loading -----------------------------------------------------------------------------------------------

_RUN = Columns(Run, exclude=["log", "actions"])
_RUN_WITH_LOG = Columns(Run)
_LOCK_RUN = f'SELECT {_RUN_WITH_LOG.select()} FROM "dungeons_run" WHERE "dungeons_run"."id" = %s'
#: Planned once per database session on PostgreSQL (backend.sql.Prepared): the lock and the reads that follow
#: it on every run service, whose planning (the members' joins) cost more than their execution.
_LOCK_RUN_PREPARED = Prepared("run_lock", _LOCK_RUN + " FOR UPDATE")


def run_row(values: dict[str, Any]) -> RunRow:
    return RunRow(**{name: values[name] for name in _RUN_COLUMNS if name in values})


def run_lock(run_id: int, *, fast: bool = True) -> tuple[RunRow, list[dict[str, Any]]] | None:
    """The run's row and log, locked for the caller's transaction (every run write starts with it), or
    None: no such run. ``fast``: one precompiled statement; else the ORM's."""
    if run_id > MAX_ROW_ID:  # a larger id names no row (and SQLite cannot bind it)
        return None
    connection = transaction.get_connection()
    if fast:
        with connection.cursor() as cursor:
            if connection.features.has_select_for_update:
                _LOCK_RUN_PREPARED.execute(cursor, [run_id], connection)
            else:
                cursor.execute(_LOCK_RUN, [run_id])
            row = cursor.fetchone()
        values = None if row is None else _RUN_WITH_LOG.mapping(row, connection)
    else:
        values = Run.objects.select_for_update().filter(pk=run_id).values(*_RUN_WITH_LOG.attnames).first()
    return None if values is None else (run_row(values), values["log"])


def run_read(run_id: int) -> tuple[RunRow, list[dict[str, Any]]] | None:
    """The run's row and log, not locked (a read), or None."""
    if run_id > MAX_ROW_ID:
        return None
    values = Run.objects.filter(pk=run_id).values(*_RUN_WITH_LOG.attnames).first()
    return None if values is None else (run_row(values), values["log"])


_MEMBER, _USER = Columns(RunMember, exclude=["joined_at"]), get_user_model()
_FACTS = [f.name for f in dataclasses.fields(PlayerFacts) if f.name not in ("id", "username")]
#: Every member of a run in formation order, each with its player's facts, account name and current
#: guild (id and rank: ``guilds.selectors.with_current_guild`` joined in), in one precompiled read.
_MEMBERS = (
    f'SELECT {_MEMBER.select()}, {", ".join(f"p.{name}" for name in _FACTS)}, u."username", gm."guild_id", '
    'gg."rank" '
    f'FROM "dungeons_runmember" INNER JOIN "players_player" p ON "dungeons_runmember"."player_id" = p."id" '
    f'INNER JOIN "{_USER._meta.db_table}" u ON p."user_id" = u."id" '
    f'LEFT OUTER JOIN "{Membership._meta.db_table}" gm ON gm."player_id" = p."id" AND gm."left_at" IS NULL '
    f'LEFT OUTER JOIN "{Guild._meta.db_table}" gg ON gg."id" = gm."guild_id" '
    'WHERE "dungeons_runmember"."run_id" = %s '
    'ORDER BY "dungeons_runmember"."position" ASC, "dungeons_runmember"."id" ASC'
)
_MEMBERS_PREPARED = Prepared("run_members", _MEMBERS)


def _member_row(member: dict[str, Any], facts: Sequence[Any]) -> MemberRow:
    """A member from its columns and, after them, its player's facts, username, current guild and rank."""
    player = PlayerFacts(member["player_id"], facts[len(_FACTS)], *facts[:len(_FACTS)])
    return MemberRow(**member, player=player, current_guild_id=facts[-2], current_guild_rank=facts[-1])


def members_load(run_id: int, *, fast: bool = True) -> list[MemberRow]:
    """Every member of the run (any status) in formation order, with their players and current guilds.
    ``fast``: one precompiled statement; else the ORM's query."""
    if fast:
        connection = transaction.get_connection()
        with connection.cursor() as cursor:
            _MEMBERS_PREPARED.execute(cursor, [run_id], connection)
            rows = cursor.fetchall()
        found = []
        for row in rows:
            member = _MEMBER.mapping(row, connection)
            facts = row[_MEMBER.width:]
            found.append(_member_row(member, facts))
        return found
    members = (with_current_guild(RunMember.objects.filter(run_id=run_id), "player")
               .select_related("player__user").order_by("position", "pk"))
    return [_member_row({name: getattr(m, name) for name in _MEMBER.attnames},
                        [*(getattr(m.player, name) for name in _FACTS), m.player.user.username,
                         m.current_guild_id, m.current_guild_rank])
            for m in members]


#: PostgreSQL: once the run is locked, every member (``_MEMBERS``' columns as one JSON array each), the
#: dungeon's facts and (``{rooms}``) its rooms in one statement: what a move of the party works on. Read
#: after the lock, not with it: a statement waiting for the lock would see the rows its holder wrote only
#: in the locked row, never in a subquery (it keeps the snapshot it started with).
_STEP_MEMBERS = (
    f'(SELECT json_agg(json_build_array({_MEMBER.select()}, {", ".join(f"p.{name}" for name in _FACTS)}, '
    'u."username", '
    'gm."guild_id", gg."rank") ORDER BY "dungeons_runmember"."position", "dungeons_runmember"."id")::text '
    + _MEMBERS[_MEMBERS.index("FROM"):_MEMBERS.index("WHERE")]
    + 'WHERE "dungeons_runmember"."run_id" = "dungeons_run"."id")'
)
_STEP_ROOMS = ('(SELECT json_agg(json_build_array(r."floor", r."index", r."kind", r."npc_kind", '
               'r."story_item", '
               'r."seal") ORDER BY r."floor", r."index")::text FROM "dungeons_dungeonroom" r '
               'WHERE r."dungeon_id" = "dungeons_run"."dungeon_id")')
_STEP_READ = (f'SELECT {_STEP_MEMBERS}, d."params"::text, d."npc_kind", d."floor_count"{{rooms}}{{own}} '
              'FROM "dungeons_run" '
              'LEFT OUTER JOIN "dungeons_dungeon" d ON d."id" = "dungeons_run"."dungeon_id"{joins} '
              'WHERE "dungeons_run"."id" = %s')


@dataclass(frozen=True)
class _OwnRow:
    """How the step's read joins a run kind's own row (``RunKindHooks.own_row``): its columns and those of
    the rows its foreign keys name, in that order."""

    model: type[models.Model]
    columns: list[Columns[Any]]
    related: list[Any]
    select: str
    joins: str


def _foreign_key(model: type[models.Model], name: str) -> models.ForeignKey[Any, Any]:
    """The model's foreign key ``name`` (a run kind's own row names its run and its related rows by them)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.ForeignKey):
        raise TypeError(f"{model.__name__}.{name} is not a foreign key")
    return field


def _own_row(declared: tuple[type[models.Model], tuple[str, ...]] | None) -> _OwnRow | None:
    if declared is None:
        return None
    model, related = declared
    table = model._meta.db_table
    run_key = _foreign_key(model, "run")
    fields = [_foreign_key(model, name) for name in related]
    columns = [Columns(model), *(Columns(field.related_model) for field in fields)]
    joins = f' LEFT OUTER JOIN "{table}" ON "{table}"."{column_of(run_key)}" = "dungeons_run"."id"' + "".join(
        f' LEFT OUTER JOIN "{field.related_model._meta.db_table}" ON "{field.related_model._meta.db_table}".'
        f'"{column_of(field.target_field)}" = "{table}"."{column_of(field)}"' for field in fields)
    return _OwnRow(model, columns, fields, ", " + ", ".join(c.select() for c in columns), joins)


_STEP_READS: dict[tuple[bool, str], tuple[Prepared, _OwnRow | None]] = {}


def _step_read(rooms: bool, kind: str) -> tuple[Prepared, _OwnRow | None]:
    found = _STEP_READS.get((rooms, kind))
    if found is None:
        own = _own_row(run_kind_hooks(kind).own_row)
        sql = _STEP_READ.format(rooms=f", {_STEP_ROOMS}" if rooms else "", own=own.select if own else "",
                                joins=own.joins if own else "")
        name = f"run_step_read_{kind}{'_rooms' if rooms else ''}"
        found = _STEP_READS[(rooms, kind)] = (Prepared(name, sql), own)
    return found


def run_step_lock(run_id: int, *, rooms: bool = False, fast: bool | None = None) -> RunStep | None:
    """The run locked, with its log, as a step; None: no such run. On PostgreSQL (``fast``) one more
    statement reads every member, the dungeon's facts, (``rooms``) its rooms and the run kind's own row
    (``RunKindHooks.own_row``, held in ``step.held`` under its model's label); elsewhere those are read on
    first use (a statement each; the kind reads its own row itself)."""
    found = run_lock(run_id)
    if found is None:
        return None
    if not _vendor_fast(fast):
        return RunStep(found[0], log=found[1])
    connection = transaction.get_connection()
    statement, own = _step_read(rooms, found[0].kind)
    with connection.cursor() as cursor:
        statement.execute(cursor, [run_id], connection)
        row = cursor.fetchone()
    members, params, npc_kind, floor_count = row[:4]
    width = _MEMBER.width
    step = RunStep(
        found[0], log=found[1],
        members=[_member_row(dict(zip(_MEMBER.attnames, member[:width])), member[width:])
                 for member in json.loads(members or "[]")],
        rooms=[RoomRow(*room) for room in json.loads(row[4] or "[]")] if rooms else None,
        dungeon=None if params is None else DungeonFacts(json.loads(params), npc_kind, floor_count),
    )
    if own is not None:
        start = 5 if rooms else 4
        held = own.columns[0].instance(row, connection, start=start)
        if held.pk is not None:  # the kind's row exists (not yet in a lobby)
            start += own.columns[0].width
            for field, columns in zip(own.related, own.columns[1:]):
                field.set_cached_value(held, columns.instance(row, connection, start=start))
                start += columns.width
            step.held[own.model._meta.label] = held
    return step


def stored_log(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A run log as reading it back after saving gives it: PostgreSQL's ``jsonb`` orders the keys of
    every mapping (shorter keys first, then by their bytes), SQLite keeps them as written. An answer
    built from the run in memory (a run start's) is then the one a read would give, byte for byte."""
    return _jsonb_order(log) if transaction.get_connection().vendor == "postgresql" else log


def _jsonb_order(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _jsonb_order(item) for key, item in
                sorted(value.items(), key=lambda pair: (len(str(pair[0]).encode()), str(pair[0]).encode()))}
    if isinstance(value, list):
        return [_jsonb_order(item) for item in value]
    return value


# --- saving a step -----------------------------------------------------------------------------------------


def run_save(step: RunStep, *, fast: bool | None = None) -> None:
    """Write what the step changed (nothing, if it changed nothing): on PostgreSQL in one statement, the
    log's new entries appended without reading it, the step's notices numbered and written in it (the
    notices' ``WITH`` items, ``players.notice_store.NOTICES_CTE``); elsewhere (``fast`` False) one statement
    per table and the notices' own."""
    changes = step.changes()
    if changes:
        if _vendor_fast(fast):
            _save_fast(changes, transaction.get_connection())
        else:
            _save_portable(changes)
    step.saved()


def _member_models(changes: RunChanges) -> list[RunMember]:
    return [RunMember(id=m.id, **{name: getattr(m, name) for name in changes.member_columns})
            for m in changes.members]


def _room_models(changes: RunChanges) -> list[DungeonRoom]:
    if not changes.rooms:
        return []
    assert changes.dungeon_id is not None  # rooms are added only to the run's dungeon
    return [DungeonRoom(dungeon_id=changes.dungeon_id, floor=r.floor, index=r.index, kind=r.kind,
                        npc_kind=r.npc_kind, story_item=r.story_item, seal=r.seal) for r in changes.rooms]


def _save_portable(changes: RunChanges) -> None:
    columns = dict(changes.run)
    if changes.entries:
        columns["log"] = (changes.log if changes.log is not None
                          else [*_list_read(changes.run_id, "log"), *changes.entries])
    if changes.records:
        assert "actions" not in columns  # records are appended only to moves that were not loaded
        columns["actions"] = [*_list_read(changes.run_id, "actions"), *changes.records]
    if columns:
        rows_update([Run(id=changes.run_id, **columns)], list(columns))
    rows_update(_member_models(changes), changes.member_columns)
    rows_insert(_room_models(changes))
    for row, fields in changes.also:
        rows_update([row], fields)
    notices_insert(changes.told, now=timezone.now(), fast=False)


def _list_read(run_id: int, column: str) -> list[dict[str, Any]]:
    """A run's JSON list column as stored (the log, the moves), for the portable path's append."""
    return list(Run.objects.filter(pk=run_id).values_list(column, flat=True).get())


_ROOM_INSERT = ('INSERT INTO "dungeons_dungeonroom" ("dungeon_id", "floor", "index", "kind", "npc_kind", '
                '"story_item", '
                '"seal") VALUES {}')


def _save_fast(changes: RunChanges, connection: BaseDatabaseWrapper) -> None:
    parts: list[str] = []
    params: list[Any] = []
    if changes.told:
        parts.append(NOTICES_CTE)
        params += notices_params(changes.told, now=timezone.now())
    if changes.run or changes.entries or changes.records:
        sets = []
        for name, value in changes.run.items():
            field = concrete_field(Run, name)
            sets.append(f'"{column_of(field)}" = %s')
            params.append(field.get_db_prep_save(value, connection))
        if changes.entries:
            sets.append('"log" = "dungeons_run"."log" || %s::jsonb')
            params.append(json.dumps(list(changes.entries)))
        if changes.records:
            sets.append('"actions" = "dungeons_run"."actions" || %s::jsonb')
            params.append(json.dumps(list(changes.records)))
        parts.append(f'saved_run AS (UPDATE "dungeons_run" SET {", ".join(sets)} WHERE "id" = %s)')
        params.append(changes.run_id)
    if changes.members:
        sql, values = rows_update_sql(_member_models(changes), changes.member_columns, connection)
        parts.append(f"saved_members AS ({sql})")
        params += values
    if changes.rooms:
        rows = ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * len(changes.rooms))
        parts.append(f"saved_rooms AS ({_ROOM_INSERT.format(rows)})")
        params += [value for r in changes.rooms
                   for value in (changes.dungeon_id, r.floor, r.index, r.kind, r.npc_kind, r.story_item,
                                 r.seal)]
    for number, (row, fields) in enumerate(changes.also):
        sql, values = rows_update_sql([row], fields, connection)
        parts.append(f"saved_also_{number} AS ({sql})")
        params += values
    with connection.cursor() as cursor:
        cursor.execute("WITH " + ", ".join(parts) + " SELECT 1", params)


# --- the lobby ---------------------------------------------------------------------------------------------


def run_insert(*, kind: str, host_id: int, seed: int, guild_id: int | None) -> Run:
    """A new lobby's row (the model instance: its opener's callers keep it)."""
    run = Run(kind=kind, host_id=host_id, seed=seed, guild_id=guild_id)
    run.save(force_insert=True)
    return run


def member_join(*, run_id: int, player_id: int, position: int) -> None:
    """Seat the player in the lobby (again, if they left it). Raises IntegrityError if the player is active
    in another run (the partial unique index): call inside a savepoint."""
    RunMember.objects.update_or_create(run_id=run_id, player_id=player_id, defaults={
        "position": position, "status": MemberStatus.JOINED, "active": True,
        "weapon_choice": WeaponChoice.PENDING})


#: What a list of runs shows of each (``RunListItem``), by the ORM path of its value.
RUN_LIST_COLUMNS = {"id": "id", "kind": "kind", "status": "status", "host": "host",
                    "host_username": "host__user__username", "created_at": "created_at"}


def runs_of_player(*, player_id: int, cursor: str | None, page_size: int) -> Page:
    """A page of the player's runs, newest first (not the lobbies they left), keyset-paginated."""
    seen = RunMember.objects.filter(player_id=player_id).filter(Q(run__started_at__isnull=True)
                                                                 | ~Q(status=MemberStatus.LEFT))
    runs = Run.objects.filter(pk__in=seen.values("run_id"))
    return keyset_page(runs, key="id", descending=True, cursor=cursor, page_size=page_size,
                       values=RUN_LIST_COLUMNS)


def lobbies_open(*, cursor: str | None, page_size: int) -> Page:
    """A page of the open lobbies, newest first."""
    lobbies = Run.objects.filter(status=RunStatus.LOBBY)
    return keyset_page(lobbies, key="id", descending=True, cursor=cursor, page_size=page_size,
                       values=RUN_LIST_COLUMNS)


def active_run_of(player_id: int) -> int | None:
    found = active_membership(player_id)
    return None if found is None else found[0]


def active_membership(player_id: int) -> tuple[int, str] | None:
    """The run the player is active in (a lobby or inside a dungeon) and their status there, if any."""
    return RunMember.objects.filter(player_id=player_id, active=True).values_list("run_id", "status").first()


def items_at_stake(player_id: int) -> set[int]:
    """Ids of the player's items picked up in a run that is not over (a lobby or an active run): such an
    item can still be taken back (a lobby's weapon on leaving, a run's items on death)."""
    return set(InventoryItem.objects.filter(player_id=player_id,
                                            acquired_in_run__status__in=(RunStatus.LOBBY, RunStatus.ACTIVE))
               .values_list("pk", flat=True))


# --- a run kind's own dungeon ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DungeonFacts:
    """What a run kind reads of its run's dungeon: the parameters snapshot, the NPC held, the floors."""

    params: dict[str, Any]
    npc_kind: str
    floor_count: int


def dungeon_store(
    result: generation.Dungeon, *, seed: int, party_size: int, rank: float, completed: float,
    same_guild: bool, params: generation.GenerationParams, candidates: Iterable[str],
) -> Dungeon:
    """Store a generated dungeon and its rooms (two statements), returned with its rooms held as
    ``dungeon_get`` prefetches them."""
    [dungeon] = rows_insert([Dungeon(
        kind=result.kind,
        seed=seed,
        generator_version=result.generator_version,
        party_size=party_size,
        rank=rank,
        completed=completed,
        same_guild=same_guild,
        params=params.as_dict(),
        npc_candidates=list(candidates),
        floor_count=len(result.floors),
        npc_chance=result.npc_chance,
        npc_floor=result.npc[0] if result.npc else None,
        npc_room=result.npc[1] if result.npc else None,
        npc_kind=result.npc_kind or "",
    )])
    # Built from positional values in the model's field order (id, dungeon, floor, index, kind, npc_kind,
    # story_item, seal): half the cost of keyword arguments for a few dozen rows; each holds its dungeon.
    # (Positional values set the attname, dungeon_id, which the stubs' plugin reads as the relation.)
    rooms = [
        DungeonRoom(None, dungeon.pk, floor, index, str(room.kind),  # type: ignore[misc]
                    room.npc_kind or "", room.story_item or "", room.seal or "")
        for floor, index, room in result.rooms()
    ]
    for row in rooms:
        DungeonRoom.dungeon.field.set_cached_value(row, dungeon)
    rows_insert(rooms)
    # Held as dungeon_get prefetches them (in their order): dungeon.rooms.all() reads no row.
    held = dungeon.rooms.all()
    # Django's private prefetch state, which the stubs do not declare.
    held._result_cache, held._prefetch_done = rooms, True  # type: ignore[attr-defined]
    dungeon._prefetched_objects_cache = {"rooms": held}  # type: ignore[attr-defined]
    return dungeon


def dungeon_insert(**columns: Any) -> int:
    """Store a dungeon a run kind made itself (e.g. a darkness run's, whose rooms come as it walks in)."""
    return Dungeon.objects.create(**columns).pk


def dungeon_facts(dungeon_id: int) -> DungeonFacts:
    facts = Dungeon.objects.filter(pk=dungeon_id).values_list("params", "npc_kind", "floor_count").get()
    return DungeonFacts(*facts)


# --- rooms, loot and coins ---------------------------------------------------------------------------------


def _room_row(room: DungeonRoom) -> RoomRow:
    return RoomRow(room.floor, room.index, room.kind, room.npc_kind, room.story_item, room.seal)


def rooms_held(rooms: Iterable[DungeonRoom]) -> list[RoomRow]:
    """The rows of rooms the caller holds (a dungeon just generated)."""
    return [_room_row(room) for room in rooms]


def rooms_of(dungeon_id: int) -> list[RoomRow]:
    """Every room of a dungeon, floor by floor, in order."""
    rooms = DungeonRoom.objects.filter(dungeon_id=dungeon_id).order_by("floor", "index")
    columns = ("floor", "index", "kind", "npc_kind", "story_item", "seal")
    return [RoomRow(*values) for values in rooms.values_list(*columns)]


def next_position(step: RunStep) -> tuple[int, int] | None:
    """The room after the run's, floor by floor; None after the last."""
    run = step.run
    assert run.floor is not None and run.room is not None
    rooms_here = sum(1 for room in step.rooms() if room.floor == run.floor)
    if run.room + 1 < rooms_here:
        return run.floor, run.room + 1
    if run.floor + 1 < step.dungeon().floor_count:
        return run.floor + 1, 0
    return None


_ITEM_KIND = Columns(ItemKind)
_ITEM_KINDS = (f'SELECT {_ITEM_KIND.select()} FROM "players_itemkind" '
               'WHERE "players_itemkind"."category" IN ({}) ORDER BY "players_itemkind"."id" ASC')


def item_kinds(categories: Sequence[str], *, fast: bool = True) -> list[ItemKind]:
    """The catalog's items of some categories, in id order (what loot is drawn from). ``fast``: one
    precompiled statement; else the ORM's query."""
    if not fast:
        return list(ItemKind.objects.filter(category__in=categories).order_by("pk"))
    connection = transaction.get_connection()
    with connection.cursor() as cursor:
        cursor.execute(_ITEM_KINDS.format(", ".join(["%s"] * len(categories))), [str(c) for c in categories])
        return [_ITEM_KIND.instance(row, connection) for row in cursor.fetchall()]


def item_kinds_where(**lookups: Any) -> list[ItemKind]:
    """The catalog's items matching ``lookups`` (e.g. a story item's sub-kind), in id order."""
    return list(ItemKind.objects.filter(**lookups).order_by("pk"))


def loot_add(*, run_id: int, floor: int, room: int, kinds: Sequence[ItemKind]) -> list[LootRow]:
    """Items now lying in a room (one insert), in the order of their ids."""
    loot = rows_insert([RunLoot(run_id=run_id, floor=floor, room=room, item_kind=kind) for kind in kinds])
    return [LootRow(item.pk, floor, room, kind) for item, kind in zip(loot, kinds)]


def _loot_row(loot: RunLoot) -> LootRow:
    return LootRow(loot.pk, loot.floor, loot.room, loot.item_kind, loot.taken_by_id)


def loot_in_room(*, run_id: int, floor: int, room: int) -> list[LootRow]:
    return [_loot_row(loot) for loot in RunLoot.objects.filter(run_id=run_id, floor=floor, room=room)
            .select_related("item_kind").order_by("pk")]


def loot_get(*, run_id: int, loot_id: int) -> LootRow | None:
    loot = RunLoot.objects.filter(pk=loot_id, run_id=run_id).select_related("item_kind").first()
    return None if loot is None else _loot_row(loot)


def loot_take(*, loot_id: int, player_id: int) -> None:
    RunLoot.objects.filter(pk=loot_id).update(taken_by_id=player_id, taken_at=timezone.now())


@dataclass(frozen=True)
class RoomBattle:
    """A room's battle as the run view shows it: its id and outcome, and whose turn it awaits since when
    (the run's ``awaiting`` and ``deadline`` while it is on)."""

    id: int
    outcome: str
    awaiting_id: int | None = None
    turn_started_at: datetime | None = None
    run_seq: int = 0

    @classmethod
    def of(cls, battle: BattleRow) -> RoomBattle:
        return cls(battle.id, battle.outcome, battle.awaiting_id, battle.turn_started_at, battle.run_seq)


#: PostgreSQL: a room's battle (id, outcome, whose turn since when) and the loot lying in it (with the
#: catalog's name, category, sub-kind and weight), in one statement.
_CONTENTS = ('SELECT b."id", b."outcome", b."awaiting_id", b."turn_started_at", b."run_seq", '
             '(SELECT json_agg(json_build_array(l."id", l."taken_by_id", k."id", k."name", k."category", '
             'k."sub_kind", k."weight") ORDER BY l."id")::text FROM "dungeons_runloot" l '
             'INNER JOIN "players_itemkind" k ON k."id" = l."item_kind_id" '
             'WHERE l."run_id" = %s AND l."floor" = %s AND l."room" = %s) '
             'FROM (SELECT 1) one LEFT OUTER JOIN "combat_battle" b '
             'ON b."run_id" = %s AND b."floor" = %s AND b."room" = %s')
_SHOWN_KIND = ["id", "name", "category", "sub_kind", "weight"]


def room_contents(*, run_id: int, floor: int, room: int, fast: bool | None = None
                  ) -> tuple[RoomBattle | None, list[LootRow]]:
    """A room's battle (if it has one) and the loot lying in it, in id order (each with the catalog's name,
    category, sub-kind and weight): one statement on PostgreSQL (``fast``), else the ORM's two."""
    if not _vendor_fast(fast):
        found = (Battle.objects.filter(run_id=run_id, floor=floor, room=room)
                 .values_list("id", "outcome", "awaiting_id", "turn_started_at", "run_seq").first())
        battle = None if found is None else RoomBattle(*found)
        return battle, loot_in_room(run_id=run_id, floor=floor, room=room)
    connection = transaction.get_connection()
    with connection.cursor() as cursor:
        cursor.execute(_CONTENTS, [run_id, floor, room] * 2)
        battle_id, outcome, awaiting_id, started, run_seq, loot = cursor.fetchone()
    return (None if battle_id is None else RoomBattle(battle_id, outcome, awaiting_id, started, run_seq),
            [LootRow(loot_id, floor, room, ItemKind.from_db(connection.alias, _SHOWN_KIND, kind), taken_by)
             for loot_id, taken_by, *kind in json.loads(loot or "[]")])


_PAY = ('UPDATE "players_player" SET "money" = ("players_player"."money" + %s) '
        'WHERE "players_player"."id" IN ({})')


def pay(player_ids: Sequence[int], coins: int, *, fast: bool = True) -> None:
    """Every player finds ``coins``: one fixed update (``fast``), else the ORM's."""
    if coins <= 0 or not player_ids:
        return
    if not fast:
        Player.objects.filter(pk__in=player_ids).update(money=F("money") + coins)
        return
    with transaction.get_connection().cursor() as cursor:
        cursor.execute(_PAY.format(", ".join(["%s"] * len(player_ids))), [coins, *player_ids])


def money_take(*, player_id: int, coins: int) -> None:
    """The player pays ``coins`` (Charon's fee): call holding the player's lock."""
    Player.objects.filter(pk=player_id).update(money=F("money") - coins)


def completed_count_raise(player_ids: Sequence[int]) -> None:
    """Each player counts one more completed dungeon."""
    Player.objects.filter(pk__in=player_ids).update(completed_dungeons=F("completed_dungeons") + 1)


def items_of_run_delete(*, player_id: int, run_id: int) -> int:
    """The player's items collected in this run are gone (a death, or a lobby left); how many rows went."""
    lost, _ = InventoryItem.objects.filter(player_id=player_id, acquired_in_run_id=run_id).delete()
    return lost


def carried_ids(*, player_id: int) -> list[int]:
    """The ids of everything the player carries, in id order (what an escape chooses its losses from)."""
    return list(InventoryItem.objects.filter(player_id=player_id).order_by("pk").values_list("pk", flat=True))


def items_delete(item_ids: Iterable[int]) -> None:
    """These carried items are gone (lost in an escape)."""
    InventoryItem.objects.filter(pk__in=item_ids).delete()


def potion_delete(*, player_id: int, item_id: int) -> None:
    """A potion drunk in battle leaves its drinker's inventory."""
    InventoryItem.objects.filter(pk=item_id, player_id=player_id).delete()


def potion_locked(*, player_id: int, item_id: int) -> InventoryItem | None:
    """The player's carried potion ``item_id`` (with its catalog entry), locked; None if they carry none."""
    return (InventoryItem.objects.select_for_update().select_related("item_kind")
            .filter(pk=item_id, player_id=player_id, item_kind__category="potion").first())


def item_delete(item: InventoryItem) -> None:
    """A carried item is used up (a potion drunk between rooms)."""
    item.delete()


def key_holder(*, player_ids: Sequence[int], run_id: int, sub_kind: str) -> int | None:
    """The first of the players (by their item's id) carrying an item of ``sub_kind`` found in this run."""
    keys = InventoryItem.objects.filter(player_id__in=player_ids, acquired_in_run_id=run_id,
                                        item_kind__sub_kind=sub_kind)
    return keys.order_by("pk").values_list("player_id", flat=True).first()


def player_ref(player_id: int) -> Player:
    """A reference to a player's row (only its id loaded), for a service that takes a player and reads it
    itself under its lock."""
    return Player.from_db(transaction.get_connection().alias, ["id"], [player_id])


_CARRIED_ITEM, _CARRIED_KIND = Columns(InventoryItem), Columns(ItemKind)
_CARRIED = (f'SELECT {_CARRIED_ITEM.select()}, {_CARRIED_KIND.select()} FROM "players_inventoryitem" '
            'INNER JOIN "players_itemkind" '
            'ON "players_inventoryitem"."item_kind_id" = "players_itemkind"."id" '
            'WHERE "players_inventoryitem"."player_id" IN ({}) ORDER BY "players_inventoryitem"."id" ASC')


def carried(player_ids: Sequence[int], *, fast: bool = True) -> dict[int, list[InventoryItem]]:
    """What each player carries, with the catalog's items, in id order (what a battle brings in): one
    precompiled statement (``fast``), else the ORM's query."""
    items: dict[int, list[InventoryItem]] = {player_id: [] for player_id in player_ids}
    if not fast:
        found = InventoryItem.objects.filter(player_id__in=player_ids).select_related("item_kind")
        for item in found.order_by("pk"):
            items[item.player_id].append(item)
        return items
    connection = transaction.get_connection()
    with connection.cursor() as cursor:
        cursor.execute(_CARRIED.format(", ".join(["%s"] * len(items))), list(items))
        for row in cursor.fetchall():
            item = _CARRIED_ITEM.instance(row, connection)
            kind = _CARRIED_KIND.instance(row, connection, start=_CARRIED_ITEM.width)
            InventoryItem.item_kind.field.set_cached_value(item, kind)
            items[item.player_id].append(item)
    return items


def pending_effects_clear(step: RunStep, player_ids: Iterable[int]) -> None:
    """Trap effects waiting for the next battle are spent: it begins (the step's save writes it)."""
    for player_id in player_ids:
        step.change_member(player_id, pending_effects=[])


# --- a run's battles, read with the run ---------------------------------------------------------------------

_SEEING = ", ".join(["%s"] * len(SEEING_STATUSES))
#: The battle and its run in one statement; never the setup nor the run's growing log.
_LOCK = (f'SELECT {BATTLE.select()}, {_RUN.select()} FROM "combat_battle" '
         'INNER JOIN "dungeons_run" ON "combat_battle"."run_id" = "dungeons_run"."id" '
         'WHERE "combat_battle"."id" = %s')
_LOCK_OF = ' FOR UPDATE OF "combat_battle", "dungeons_run"'
#: An action's one read (docs/runs.md): the battle and its run as ``_LOCK`` reads them, with the player
#: of the account ``user_id`` and the answer already given to the idempotency key (NULL: none, or no
#: key), only if that player is a member who sees the run: a stranger gets no row, so no lock is taken.
#: Index lookups only, also in the generic plan of the prepared statement (``<> ''``: the key's partial
#: unique index); at most one row (one player per account, one membership per run and player).
_ACT_LOCK = (f'SELECT {BATTLE.select()}, {_RUN.select()}, m."player_id", '
             '(SELECT a."response" FROM "combat_battleaction" a WHERE a."battle_id" = "combat_battle"."id" '
             'AND a."player_id" = m."player_id" AND a."idempotency_key" = %s AND a."idempotency_key" <> \'\' '
             'LIMIT 1) '
             'FROM "combat_battle" '
             'INNER JOIN "dungeons_run" ON "combat_battle"."run_id" = "dungeons_run"."id" '
             'INNER JOIN "dungeons_runmember" m ON m."run_id" = "combat_battle"."run_id" '
             'INNER JOIN "players_player" p ON p."id" = m."player_id" '
             f'WHERE "combat_battle"."id" = %s AND p."user_id" = %s AND m."status" IN ({_SEEING})')
_ACT_LOCK_OF = Prepared("battle_act_lock", _ACT_LOCK + _LOCK_OF)
#: A poll: the battle (not its setup nor its enemy kinds), the reader's player id if the account
#: ``user_id`` is a member who sees its run (NULL otherwise) and, on PostgreSQL, the events after
#: ``since`` (combat.store.EVENTS_SINCE_COLUMN). Index lookups only.
_POLL_VIEWER = ('(SELECT m."player_id" FROM "dungeons_runmember" m INNER JOIN "players_player" p '
                'ON p."id" = m."player_id" WHERE m."run_id" = "combat_battle"."run_id" '
                f'AND m."status" IN ({_SEEING}) AND p."user_id" = %s LIMIT 1)')
_POLL = (f'SELECT {POLLED_BATTLE.select()}, {_POLL_VIEWER} FROM "combat_battle" '
         'WHERE "combat_battle"."id" = %s')
_POLL_WITH_EVENTS = (f'SELECT {POLLED_BATTLE.select()}, {_POLL_VIEWER}, {EVENTS_SINCE_COLUMN} '
                     'FROM "combat_battle" WHERE "combat_battle"."id" = %s')


def _viewer(**member: Any) -> Subquery:
    """The player id of the member named by ``member`` who sees the battle's run (in an ORM query of
    battles)."""
    return Subquery(RunMember.objects.filter(run_id=OuterRef("run_id"), status__in=SEEING_STATUSES, **member)
                    .order_by().values("player_id")[:1])


def battle_seen(*, battle_id: int, player_id: int) -> BattleRow | None:
    """The battle, if the player is a member who sees its run (no lock: a read). Index lookups only, no
    join of the run: the member is found by the battle's own run_id."""
    if battle_id > MAX_ROW_ID:
        return None
    found = (Battle.objects.filter(pk=battle_id).annotate(viewer=_viewer(player_id=player_id))
             .filter(viewer__isnull=False).values(*BATTLE.attnames).order_by().first())
    return None if found is None else BattleRow(**found)


def _battle_and_run_orm(battle: Battle) -> tuple[BattleRow, RunRow]:
    return (BattleRow(**{name: getattr(battle, name) for name in BATTLE.attnames}),
            run_row({name: getattr(battle.run, name) for name in _RUN.attnames}))


def _locked_battles() -> Any:
    return (Battle.objects.select_for_update(of=("self", "run")).select_related("run")
            .defer("setup", "run__log", "run__actions").order_by())


def battle_lock(*, battle_id: int, fast: bool = True) -> tuple[BattleRow, RunRow] | None:
    """The battle and its run, both locked, in one statement (``fast``: precompiled; else the ORM's)."""
    if battle_id > MAX_ROW_ID:
        return None
    connection = transaction.get_connection()
    if not fast:
        found = _locked_battles().filter(pk=battle_id).first()
        return None if found is None else _battle_and_run_orm(found)
    with connection.cursor() as cursor:
        locking = _LOCK_OF if connection.features.has_select_for_update_of else ""
        cursor.execute(_LOCK + locking, [battle_id])
        row = cursor.fetchone()
    if row is None:
        return None
    return battle_row(row, connection), run_row(_RUN.mapping(row, connection, start=BATTLE.width))


@dataclass(frozen=True)
class ActLocked:
    """What an action's checking lock read: the battle and its run (locked), the acting player, and the
    answer already given to the request's idempotency key (None: none)."""

    battle: BattleRow
    run: RunRow
    player_id: int
    previous: dict[str, Any] | None


def battle_act_lock(*, battle_id: int, user_id: int, key: str, fast: bool = True) -> ActLocked | None:
    """The battle and its run locked, only if the account's player is a member who sees the run (None
    otherwise: nothing is locked), with the answer already given to ``key``. ``fast``: one prepared
    statement on PostgreSQL (precompiled elsewhere); else the ORM's queries."""
    if battle_id > MAX_ROW_ID:
        return None
    connection = transaction.get_connection()
    if not fast:
        found = (_locked_battles().annotate(viewer=_viewer(player__user_id=user_id))
                 .filter(pk=battle_id, viewer__isnull=False).first())
        if found is None:
            return None
        battle, run = _battle_and_run_orm(found)
        previous = None if not key else (
            BattleAction.objects.filter(battle_id=battle_id, player_id=found.viewer, idempotency_key=key)
            .values_list("response", flat=True).order_by().first())
        return ActLocked(battle, run, found.viewer, previous)
    params = [key or None, battle_id, user_id, *SEEING_STATUSES]
    with connection.cursor() as cursor:
        if connection.features.has_select_for_update_of:
            _ACT_LOCK_OF.execute(cursor, params, connection)
        else:
            cursor.execute(_ACT_LOCK, params)
        row = cursor.fetchone()
    if row is None:
        return None
    previous = row[-1]
    return ActLocked(battle_row(row, connection), run_row(_RUN.mapping(row, connection, start=BATTLE.width)),
                     row[-2], None if previous is None else json.loads(previous)
                     if isinstance(previous, str) else previous)


@dataclass(frozen=True)
class PollRead:
    """What a poll read: the battle, the reader's player id, and the events after ``since`` if they were
    read with it (None: not read)."""

    battle: BattleRow
    player_id: int
    events: list[dict[str, Any]] | None


def battle_poll(*, battle_id: int, user_id: int, since: int, fast: bool = True) -> PollRead | None:
    """The battle for the account's player if they see its run (None otherwise): one precompiled statement
    (``fast``), with the events after ``since`` on PostgreSQL; else the ORM's query, without them."""
    if battle_id > MAX_ROW_ID:
        return None
    if not fast:
        found = (Battle.objects.filter(pk=battle_id).annotate(viewer=_viewer(player__user_id=user_id))
                 .values(*POLLED_BATTLE.attnames, "viewer").order_by().first())
        if found is None or found["viewer"] is None:
            return None
        viewer = found.pop("viewer")
        return PollRead(BattleRow(**found), viewer, None)
    connection = transaction.get_connection()
    with_events = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        if with_events:
            cursor.execute(_POLL_WITH_EVENTS, [*SEEING_STATUSES, user_id, since, EVENTS_PAGE, battle_id])
        else:
            cursor.execute(_POLL, [*SEEING_STATUSES, user_id, battle_id])
        row = cursor.fetchone()
    if row is None or row[POLLED_BATTLE.width] is None:
        return None
    return PollRead(battle_row(row, connection, columns=POLLED_BATTLE), row[POLLED_BATTLE.width],
                    events_of_column(row[-1]) if with_events else None)


# --- the run's one sequence (SPEC 13) and its replay -------------------------------------------------------


def battle_event(battle_id: int, run_seq: int, battle_seq: int, data: dict[str, Any]) -> dict[str, Any]:
    """A battle's event as the run's events show it: its number in the run's one sequence (``seq``), its
    battle and its number there (``battle_seq``, the ``seq`` of GET battles/{id}/), then the engine's
    kind and fields."""
    return {"seq": run_seq, "origin": "battle", "battle": battle_id, "battle_seq": battle_seq, **data}


def battle_events_of_run(*, run_id: int, since: int
                         ) -> tuple[list[dict[str, Any]], dict[int, dict[str, str]]]:
    """The events of the run's battles numbered after ``since`` in the run's one sequence, in its order
    (``battle_event``'s shape), and the names of those battles' combatants (battle id -> id -> name): two
    statements, the second only if there are events."""
    found = (BattleEvent.objects.filter(battle__run_id=run_id, run_seq__gt=since).order_by("run_seq")
             .values_list("battle_id", "run_seq", "seq", "data"))
    events = [battle_event(battle_id, run_seq, seq, data) for battle_id, run_seq, seq, data in found]
    names: dict[int, dict[str, str]] = {}
    if events:
        for battle_id, state in Battle.objects.filter(pk__in={e["battle"] for e in events}).values_list(
                "pk", "state"):
            names[battle_id] = names_of(state)
    return events, names


def run_event_count(run: RunRow, battle: RoomBattle | None) -> int:
    """The last number of the run's one sequence: the run's writes keep it, but for the steps of a battle
    still on (its room's, the only one that can be), which keep it on the battle."""
    return max(run.event_seq, 0 if battle is None else battle.run_seq)


@dataclass(frozen=True)
class ReplayBattle:
    """A battle of a run as its replay gives it: where, its seed and engine version, its setup (the
    engine's ``BattleSetup``), every action that took effect (timeouts included) and its stored events."""

    id: int
    floor: int
    room: int
    seed: int
    engine_version: int
    setup: dict[str, Any]
    outcome: str
    created_at: datetime
    ended_at: datetime | None
    actions: list[dict[str, Any]]
    events: list[dict[str, Any]]


def run_replay_read(run_id: int) -> tuple[RunRow, list[dict[str, Any]], list[RoomRow], list[ReplayBattle],
                                          list[tuple[int, int, int, int, int | None]]]:
    """What a finished run's replay shows: the run (with its moves), its log, its dungeon's rooms, its
    battles with their actions and events, and its loot (id, floor, room, item kind, taker)."""
    values = Run.objects.filter(pk=run_id).values(*_RUN_WITH_LOG.attnames).get()
    run = run_row(values)
    rooms = [] if run.dungeon_id is None else rooms_of(run.dungeon_id)
    battles = list(Battle.objects.filter(run_id=run_id).order_by("pk"))
    actions: dict[int, list[dict[str, Any]]] = {b.pk: [] for b in battles}
    for a in BattleAction.objects.filter(battle__run_id=run_id).order_by("battle_id", "step"):
        actions[a.battle_id].append({"step": a.step, "player": a.player_id, "action": a.action,
                                     "timeout": a.action.get("kind") == "timeout", "at": a.created_at})
    events: dict[int, list[dict[str, Any]]] = {b.pk: [] for b in battles}
    for battle_id, run_seq, seq, data in (BattleEvent.objects.filter(battle__run_id=run_id)
                                          .order_by("battle_id", "seq")
                                          .values_list("battle_id", "run_seq", "seq", "data")):
        events[battle_id].append(battle_event(battle_id, run_seq, seq, data))
    loot: list[tuple[int, int, int, int, int | None]] = list(
        RunLoot.objects.filter(run_id=run_id).order_by("pk")
        .values_list("pk", "floor", "room", "item_kind_id", "taken_by_id"))
    return run, values["log"], rooms, [
        ReplayBattle(b.pk, b.floor, b.room, b.seed, b.engine_version, b.setup, b.outcome, b.created_at,
                     b.ended_at, actions[b.pk], events[b.pk]) for b in battles], loot
