"""The run owns its battles: it begins a room's battle, takes each step under one lock of the run and
the battle (combat resolves and saves the step), and carries the step's consequences into the same
run instance.

Shape of a step (STYLE.md, fetch-compute-write): one statement locks the battle and its run, and
only if the caller is a member who did not leave the lobby (a stranger's row is filtered out, so
no lock is taken: docs/runs.md); combat.services resolves the action with the engine and saves the battle's changed
columns and its events; then the deaths, flights, potions, stat potions, kills and the outcome
become run state. A step with none of those (most attacks) reads and writes no run or member row.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from backend.errors import NotFound, RuleViolation
from backend.sql import MAX_ROW_ID, Columns, Prepared
from backend.turns import Taken, TurnTable, turn_act, turn_act_locked, turn_deadline, turn_refresh
from combat import engine
from combat.engine.events import Attack, Death, Fled, PotionDrunk, StatRaised
from combat.engine.state import STAT_NAMES
from combat.models import Battle, CombatSettings
from combat.selectors import EncounterRules, encounter_for_room
from combat.store import (
    BATTLE,
    EVENTS_PAGE,
    EVENTS_SINCE_COLUMN,
    POLLED_BATTLE,
    BattleRow,
    BattleStep,
    battle_model,
    battle_row,
    events_of_column,
)
from combat.services import (
    battle_action_parse,
    battle_create,
    battle_deadline_seconds,
    battle_replayed_response,
    battle_step,
    battle_step_record,
    battle_time_out,
)
from dungeons import run_rules
from dungeons.kinds import run_kind_hooks
from dungeons.services import MAX_SEED
from dungeons.models import MemberStatus, Run, RunMember
from dungeons.run_log import BattleBegun, BattleOver, NpcDied
from dungeons.runs.core import (
    BATTLE_LOOT_CATEGORIES,
    drop_loot,
    log,
    next_position,
    pay,
    run_rules_get,
    run_save_changed,
    run_snapshot,
)
from dungeons.runs.endings import complete, die, end_if_party_gone, escape
from npcs.services import bounty_progress_record
from players.models import InventoryItem, ItemCategory, ItemKind, Player
from players.selectors import player_for_user

#: Battle events with consequences for the run (inventory, stats, party, bounties).
RUN_RELEVANT_EVENTS = (Death, Fled, PotionDrunk, StatRaised)
#: Who sees a run's battles: a member who did not leave its lobby (docs/runs.md).
SEEING_STATUSES = [status for status in MemberStatus.values if status != MemberStatus.LEFT]

# The statements of every action and poll, precompiled (backend/sql.py: building them with the ORM cost
# more Python than the rest of the request, issue 13).
_SEEING = ", ".join(["%s"] * len(SEEING_STATUSES))
#: The battle and its run in one statement; never the setup nor the run's growing log (deferred).
_LOCKED_RUN = Columns(Run, exclude=["log"])
_LOCK = (f'SELECT {BATTLE.select()}, {_LOCKED_RUN.select()} FROM "combat_battle" '
         'INNER JOIN "dungeons_run" ON "combat_battle"."run_id" = "dungeons_run"."id" WHERE "combat_battle"."id" = %s')
_LOCK_OF = ' FOR UPDATE OF "combat_battle", "dungeons_run"'
#: An action's one read (docs/runs.md): the battle and its run as ``_LOCK`` reads them, with the player
#: of the account ``user_id`` and the answer already given to the idempotency key (NULL: none, or no
#: key), only if that player is a member who sees the run: a stranger gets no row, so no lock is taken.
#: Index lookups only, also in the generic plan of the prepared statement (``<> ''``: the key's partial
#: unique index); at most one row (one player per account, one membership per run and player).
_ACT_LOCK = (f'SELECT {BATTLE.select()}, {_LOCKED_RUN.select()}, m."player_id", '
             '(SELECT a."response" FROM "combat_battleaction" a WHERE a."battle_id" = "combat_battle"."id" '
             'AND a."player_id" = m."player_id" AND a."idempotency_key" = %s AND a."idempotency_key" <> \'\' LIMIT 1) '
             'FROM "combat_battle" INNER JOIN "dungeons_run" ON "combat_battle"."run_id" = "dungeons_run"."id" '
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
_POLL = f'SELECT {POLLED_BATTLE.select()}, {_POLL_VIEWER} FROM "combat_battle" WHERE "combat_battle"."id" = %s'
_POLL_WITH_EVENTS = (f'SELECT {POLLED_BATTLE.select()}, {_POLL_VIEWER}, {EVENTS_SINCE_COLUMN} '
                     'FROM "combat_battle" WHERE "combat_battle"."id" = %s')


# --- beginning a battle -----------------------------------------------------------------------------

#: What the party carries, with the catalog's items (``select_related("item_kind")``), in id order.
_CARRIED_ITEM, _CARRIED_KIND = Columns(InventoryItem), Columns(ItemKind)
_CARRIED = (f'SELECT {_CARRIED_ITEM.select()}, {_CARRIED_KIND.select()} FROM "players_inventoryitem" '
            'INNER JOIN "players_itemkind" ON "players_inventoryitem"."item_kind_id" = "players_itemkind"."id" '
            'WHERE "players_inventoryitem"."player_id" IN ({}) ORDER BY "players_inventoryitem"."id" ASC')


def _player_combatant(member: RunMember, items: list[InventoryItem]) -> engine.Combatant:
    player = member.player
    boosts = member.stat_boosts or {}
    stats = engine.Stats(**{name: getattr(player, name) + int(boosts.get(name, 0)) for name in STAT_NAMES})
    weapons = [i.item_kind.as_weapon() for i in items if i.equipped and i.item_kind.category == ItemCategory.WEAPON]
    return engine.Combatant(
        id=engine.player_combatant_id(player.pk), kind=engine.Kind.PLAYER, name=player.display_name,
        hp=member.hp, max_hp=member.max_hp, stats=stats, weapons=tuple(weapons[:2]),
        armor=sum(i.item_kind.armor for i in items if i.equipped and i.item_kind.category == ItemCategory.ARMOR),
        potions=tuple(i.item_kind.as_potion(i.pk) for i in items if i.item_kind.category == ItemCategory.POTION),
        amulets=tuple(spec for i in items if i.item_kind.category == ItemCategory.AMULET
                      for spec in [i.item_kind.effect_spec()] if spec is not None),
    )


def battle_begin(run: Run, party: list[RunMember], *, is_boss: bool, settings: CombatSettings | None = None
                 ) -> BattleRow:
    """Start the battle of the run's current room with the party inside (run locked; the caller saves the run).

    ``settings``: the combat settings the caller already read (one read serves the encounter and
    the rules). Enemy turns before the first player's turn resolve at once; their consequences
    (a party wiped before it could act) reach the run like any other step's.
    """
    settings = settings or CombatSettings.load()
    items: dict[int, list[InventoryItem]] = {m.player_id: [] for m in party}
    with connection.cursor() as cursor:
        cursor.execute(_CARRIED.format(", ".join(["%s"] * len(items))), list(items))
        for row in cursor.fetchall():
            item = _CARRIED_ITEM.instance(row, connection)
            InventoryItem.item_kind.field.set_cached_value(item, _CARRIED_KIND.instance(row, connection,
                                                                                         start=_CARRIED_ITEM.width))
            items[item.player_id].append(item)
    players = tuple(_player_combatant(m, items[m.player_id]) for m in party)
    slugs: dict[str, str] = {}
    enemies = encounter_for_room(floor=run.floor, is_boss=is_boss, party_size=len(party),
                                 rng=run_rules.room_rng(run.seed, run.floor, run.room, "encounter"), slugs=slugs,
                                 rules=EncounterRules.from_settings(settings))
    npc = None
    if run.has_npc:
        npc = engine.Combatant(id=engine.NPC_ID, kind=engine.Kind.NPC, name=run.get_npc_kind_display(),
                               hp=run.npc_hp, max_hp=run.npc_max_hp)
    starting = []
    for member in party:
        cid = engine.player_combatant_id(member.player_id)
        for spec in [*member.pending_effects, *member.buffs]:
            starting.append((cid, engine.EffectSpec(spec["name"], spec.get("turns"), spec.get("magnitude"))))
    waiting = [m for m in party if m.pending_effects]  # trap effects wait for the next battle: this one
    if waiting:
        RunMember.objects.filter(pk__in=[m.pk for m in waiting]).update(pending_effects=[])
        for member in waiting:
            member.pending_effects = []
    setup = engine.BattleSetup(players=players, enemies=tuple(enemies), npc=npc, starting_effects=tuple(starting),
                               rules=settings.to_rules())
    seed = run_rules.room_rng(run.seed, run.floor, run.room, "battle").randrange(MAX_SEED)
    battle, result = battle_create(run_id=run.pk, floor=run.floor, room=run.room, setup=setup, seed=seed,
                                   enemy_kinds=slugs)
    # Logged before the first turns' consequences: a member the enemies kill before anyone could act
    # dies in this battle, so their ``died`` comes after its ``battle`` entry.
    log(run, BattleBegun(battle=battle.pk, enemies=[e.name for e in enemies]))
    _carry(run, battle, result.state, result.events, members={m.player_id: m for m in party}, save=False)
    return battle


# --- a step's consequences for the run ---------------------------------------------------------------


def _carry(
    run: Run, battle: BattleRow, state: engine.BattleState, events: Sequence[engine.Event],
    members: dict[int, RunMember] | None = None, *, save: bool = True,
) -> None:
    """Carry one battle step's consequences into the run (run locked; saves what changed on it).

    Potions drunk leave the inventory; stat potions last for the rest of the run; a player who
    dies respawns through Charon, one who flees escapes with the loss fraction; kills count
    towards bounties; at the end HP carries over and a victory clears the room (a boss on the
    last floor completes the run). A draw at the round limit means the enemies withdraw: the
    room is cleared without loot (docs/runs.md). ``members``: the members inside, if the caller
    holds them (battle_begin); otherwise they are read only when the step concerns the run.
    ``save`` False: the caller saves the run (battle_begin, inside a room's entry).
    """
    if not state.over and not any(isinstance(e, RUN_RELEVANT_EVENTS) for e in events):
        return
    before = run_snapshot(run)
    if members is None:
        members = {m.player_id: m for m in RunMember.objects.filter(run=run, status=MemberStatus.IN_DUNGEON)
                   .order_by("position")}
    last_attacker: dict[str, str] = {}
    kills: dict[int, Counter[str]] = {}
    for event in events:
        actor = getattr(event, "actor", "")
        member = members.get(engine.combatant_player_id(actor) or 0)
        if isinstance(event, Attack):
            last_attacker[event.target] = event.actor
        elif isinstance(event, PotionDrunk) and member:
            InventoryItem.objects.filter(pk=int(event.potion), player_id=member.player_id).delete()
        elif isinstance(event, StatRaised) and member:
            member.stat_boosts = {**member.stat_boosts,
                                  event.stat: int(member.stat_boosts.get(event.stat, 0)) + event.amount}
            member.save(update_fields=["stat_boosts"])
        elif isinstance(event, Death):
            killer = engine.combatant_player_id(last_attacker.get(event.target, ""))
            enemy_kinds = battle.enemy_kinds or {}
            if event.target in enemy_kinds and killer:
                kills.setdefault(killer, Counter())[enemy_kinds[event.target]] += 1
            victim = members.get(engine.combatant_player_id(event.target) or 0)
            if event.target == engine.NPC_ID:
                run.npc_hp = 0
                log(run, NpcDied(npc=run.npc_kind))
            elif victim and victim.status == MemberStatus.IN_DUNGEON:
                victim.hp = 0
                die(run, victim)
        elif isinstance(event, Fled) and member and member.status == MemberStatus.IN_DUNGEON:
            escape(run, member, purpose=f"flee/{battle.pk}")
    for player_id, counted in kills.items():
        member = members.get(player_id) or RunMember.objects.get(run=run, player_id=player_id)
        member.kills = {**member.kills, **{s: int(member.kills.get(s, 0)) + n for s, n in counted.items()}}
        member.save(update_fields=["kills"])
        bounty_progress_record(player_id=player_id, kills=dict(counted))
    if state.over:
        _battle_over(run, battle, state, members)
    end_if_party_gone(run, members.values())
    if save:
        run_save_changed(run, before)


def _battle_over(run: Run, battle: BattleRow, state: engine.BattleState, members: dict[int, RunMember]) -> None:
    carried = []
    for combatant in state.players:
        member = members.get(engine.combatant_player_id(combatant.id) or 0)
        if member and member.status == MemberStatus.IN_DUNGEON:
            member.hp, member.max_hp = combatant.hp, combatant.max_hp
            carried.append(member)
    RunMember.objects.bulk_update(carried, ["hp", "max_hp"])
    npc = state.npc
    if npc is not None and run.npc_kind:
        run.npc_hp = npc.hp
    log(run, BattleOver(battle=battle.pk, outcome=state.outcome.value))
    if state.outcome not in (engine.Outcome.VICTORY, engine.Outcome.DRAW):
        return
    run.room_cleared = True
    if state.outcome is engine.Outcome.VICTORY:
        rules = run_rules_get()
        party = [m for m in members.values() if m.status == MemberStatus.IN_DUNGEON]
        if state.has_boss:
            drop_loot(run, rules.boss_loot_items, "boss-loot", BATTLE_LOOT_CATEGORIES)
            pay(party, rules.boss_coins)
        elif run_rules.room_rng(run.seed, run.floor, run.room, "battle-loot").random() < rules.battle_loot_chance:
            drop_loot(run, 1, "battle-loot-item", BATTLE_LOOT_CATEGORIES)
        if state.has_boss and (run_kind_hooks(run.kind).boss_completes_run or next_position(run) is None):
            complete(run, party)


# --- the turn protocol (backend/turns.py) --------------------------------------------------------------


class LockedBattle:
    """The protocol's row: the battle as the last step left it (frozen rows, replaced step by step), its
    run as locked with it, and the step taken but not yet recorded."""

    __slots__ = ("battle", "run", "taken")

    def __init__(self, battle: BattleRow, run: Run | None = None) -> None:
        self.battle = battle
        self.run = run
        self.taken: BattleStep | None = None


def _seen(battle_id: int, **member: Any) -> QuerySet[Battle]:
    """The battle, annotated with ``viewer`` (the player id), if the member named by ``member``
    (player_id=) sees its run; no row otherwise. Index lookups only, no join of the run: the member
    is found by the battle's own run_id. (A poll and an API action use the precompiled _POLL and _ACT_LOCK.)"""
    viewer = (RunMember.objects.filter(run_id=OuterRef("run_id"), status__in=SEEING_STATUSES, **member)
              .order_by().values("player_id")[:1])
    return (Battle.objects.filter(pk=battle_id).annotate(viewer=Subquery(viewer)).filter(viewer__isnull=False)
            .values(*BATTLE.attnames).order_by())


def _not_found(battle_id: int) -> NotFound:
    return NotFound("battle_not_found", "No such battle.", {"battle": battle_id})


class _RunBattles(TurnTable[LockedBattle]):
    """A run's battle in the shared turn protocol: a turn is the engine's step; the run is locked with it."""

    noun = "battle"

    def read(self, object_id: int, player: Player) -> LockedBattle:
        found = _seen(object_id, player_id=player.pk).first()
        if found is None:
            raise _not_found(object_id)
        return LockedBattle(BattleRow(**found))

    def lock(self, object_id: int, player: Player) -> LockedBattle:
        """Lock the battle and its run in one statement. Call only for a player who sees the battle
        (``read``, or the check of ``battle_act``): a stranger is refused before any lock (docs/runs.md),
        and who sees a run never changes once it has battles (only a lobby can be left). The run's
        growing log is loaded only if the step writes it."""
        row = None
        if object_id <= MAX_ROW_ID:  # a larger id names no row (and SQLite cannot bind it)
            with connection.cursor() as cursor:
                cursor.execute(_LOCK + (_LOCK_OF if connection.features.has_select_for_update_of else ""), [object_id])
                row = cursor.fetchone()
        if row is None:
            raise _not_found(object_id)
        return LockedBattle(battle_row(row, connection), _LOCKED_RUN.instance(row, connection, start=BATTLE.width))

    def deadline_seconds(self, row: LockedBattle) -> int:
        return battle_deadline_seconds()

    def waiting_since(self, row: LockedBattle) -> datetime | None:
        if row.battle.is_over or row.battle.awaiting_id is None:
            return None
        return row.battle.turn_started_at

    def current_turn(self, row: LockedBattle) -> int:
        return row.battle.step

    def over_error(self, row: LockedBattle) -> RuleViolation | None:
        if not row.battle.is_over:
            return None
        return RuleViolation("battle_over", "The battle is over.", {"outcome": row.battle.outcome})

    def time_out(self, row: LockedBattle, *, deadline: datetime) -> None:
        assert row.run is not None  # a timeout is applied under the locks
        result, step = battle_time_out(row.battle, deadline=deadline)
        row.battle = step.battle
        _carry(row.run, row.battle, result.state, result.events)

    def replayed_response(self, row: LockedBattle, player: Player, key: str) -> dict[str, Any] | None:
        return battle_replayed_response(row.battle, player_id=player.pk, key=key)

    def parse(self, row: LockedBattle, player: Player, action: Mapping[str, Any]) -> engine.Action:
        return battle_action_parse(player_id=player.pk, data=action)

    def take(self, row: LockedBattle, player: Player, action: engine.Action, *, now: datetime) -> Taken:
        """Resolve the step in memory: ``record`` writes it with the action row (one statement)."""
        assert row.run is not None  # a step is taken under the locks
        turn, first_seq = row.battle.step, row.battle.event_count + 1
        result, step = battle_step(row.battle, action, now=now)
        row.battle, row.taken = step.battle, step
        response = {"turn": turn, "next_turn": step.battle.step, "first_event": first_seq, "events": step.events,
                    "outcome": step.battle.outcome}
        run = row.run
        return Taken(response, action.to_dict(), then=lambda: _carry(run, step.battle, result.state, result.events))

    def record(self, row: LockedBattle, player: Player, *, turn: int, action: dict[str, Any], key: str,
               response: dict[str, Any]) -> None:
        assert row.taken is not None
        battle_step_record(row.taken, player_id=player.pk, turn=turn, action=action, key=key, response=response)


BATTLE_TURNS = _RunBattles()


@dataclass(frozen=True)
class ActOutcome:
    """What an action request got: the response body, and whether it was a replayed answer.

    ``battle``: the battle as the step left it (as locked, for a replayed answer).
    """

    battle: BattleRow | None
    response: dict[str, Any]
    replayed: bool = False


def battle_act(
    *, player: Player, battle_id: int, turn: int, action: Mapping[str, Any], idempotency_key: str = "",
    now: datetime | None = None,
) -> ActOutcome:
    """Take the player's action for turn ``turn`` (the battle step the client saw), by the shared protocol.

    A battle of a run the player does not see is 404 (before any lock); a retry with a used
    idempotency key gets the original answer; passed deadlines apply first; another turn is 409
    ``stale_turn``; an action while another player is awaited is 409 ``not_your_turn``, and every
    engine refusal is a 409 with the engine's reason as its code.
    """
    if not _seen(battle_id, player_id=player.pk).exists():
        raise _not_found(battle_id)
    outcome = turn_act(BATTLE_TURNS, object_id=battle_id, player=player, turn=turn, action=action,
                       idempotency_key=idempotency_key, now=now)
    return ActOutcome(outcome.row.battle, outcome.response, replayed=outcome.replayed)


def battle_act_for_user(
    *, user_id: int, battle_id: int, turn: int, action: Mapping[str, Any], idempotency_key: str = "",
    now: datetime | None = None,
) -> ActOutcome:
    """``battle_act`` for the account ``user_id`` (the API), in one statement before the step: the
    locks of the battle and its run, taken only if the account's player sees the battle, with the
    answer already given to this idempotency key if any (a retry is answered under the lock, with no
    step). An account without a player is 404 ``player_not_found``, a stranger 404 ``battle_not_found``
    (no lock taken), in that order.
    """
    params = [idempotency_key or None, battle_id, user_id, *SEEING_STATUSES]
    with transaction.atomic():
        row = None
        if battle_id <= MAX_ROW_ID:  # a larger id names no row (and SQLite cannot bind it)
            with connection.cursor() as cursor:
                if connection.features.has_select_for_update_of:
                    _ACT_LOCK_OF.execute(cursor, params)
                else:
                    cursor.execute(_ACT_LOCK, params)
                row = cursor.fetchone()
        if row is None:
            player_for_user(user_id=user_id)  # raises player_not_found for an account without a player
            raise _not_found(battle_id)
        locked = LockedBattle(battle_row(row, connection), _LOCKED_RUN.instance(row, connection, start=BATTLE.width))
        player_id, previous = row[-2], row[-1]
        if previous is not None:
            return ActOutcome(locked.battle, json.loads(previous), replayed=True)
        player = Player.from_db(connection.alias, ["id"], [player_id])  # the protocol needs only its id
        outcome = turn_act_locked(BATTLE_TURNS, locked, player=player, turn=turn, action=action,
                                  idempotency_key=idempotency_key, now=now, key_checked=True)
    return ActOutcome(outcome.row.battle, outcome.response, replayed=outcome.replayed)


def battle_refresh(*, player: Player, battle_id: int, now: datetime | None = None) -> Battle:
    """The battle for a reader, after applying passed deadlines (reading is what moves a silent party on);
    a model instance with the loaded columns (its relations, e.g. its events, read on access)."""
    return battle_model(turn_refresh(BATTLE_TURNS, object_id=battle_id, player=player, now=now).battle)


@dataclass(frozen=True)
class Polled:
    """What a poll read: the battle, the reader's player id, and the events after ``since`` if they
    were read with the battle (None: ``combat.selectors.battle_view`` reads them)."""

    battle: BattleRow
    player_id: int
    events: list[dict[str, Any]] | None


def battle_for_user(*, user_id: int, battle_id: int, since: int = 0, now: datetime | None = None) -> Polled:
    """A poll: the battle, the reader's player id and (on PostgreSQL) the events after ``since``, for
    the account ``user_id``, in one statement while no deadline has passed (the reader's player row is
    not read).

    The refusals are the API's usual ones, in its order: an account without a player is 404
    ``player_not_found``, a battle of a run the player does not see is 404 ``battle_not_found``.
    """
    now = now or timezone.now()
    with_events = connection.vendor == "postgresql"
    row = None
    if battle_id <= MAX_ROW_ID:  # a larger id names no row (and SQLite cannot bind it)
        with connection.cursor() as cursor:
            if with_events:
                cursor.execute(_POLL_WITH_EVENTS, [*SEEING_STATUSES, user_id, since, EVENTS_PAGE, battle_id])
            else:
                cursor.execute(_POLL, [*SEEING_STATUSES, user_id, battle_id])
            row = cursor.fetchone()
    viewer = None if row is None else row[POLLED_BATTLE.width]
    if viewer is None:
        player_for_user(user_id=user_id)  # raises player_not_found for an account without a player
        raise _not_found(battle_id)
    battle = battle_row(row, connection, columns=POLLED_BATTLE)
    deadline = turn_deadline(BATTLE_TURNS, LockedBattle(battle))
    if deadline is not None and deadline <= now:  # someone's turn timed out: apply it under the locks
        refreshed = turn_refresh(BATTLE_TURNS, object_id=battle_id, player=player_for_user(user_id=user_id), now=now)
        return Polled(refreshed.battle, viewer, None)  # the timeouts added events
    return Polled(battle, viewer, events_of_column(row[-1]) if with_events else None)
