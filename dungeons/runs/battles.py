"""The run owns its battles: it begins a room's battle, takes each step under one lock of the run and
the battle (combat resolves the step, combat's store saves it), and carries the step's consequences
into the run's step.

Shape of a step (STYLE.md, fetch-compute-write): one statement locks the battle and its run, and
only if the caller is a member who did not leave the lobby (a stranger's row is filtered out, so
no lock is taken: docs/runs.md); combat.services resolves the action with the engine as a value and
combat.store writes the battle's changed columns and its events with the action row; then the deaths,
flights, potions, stat potions, kills and the outcome become the run's step (``RunStep``), which the
run's store saves. A step with none of those (most attacks) reads and writes no run or member row.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from backend.deadlines import DeadlineKind
from backend.errors import NotFound, RuleViolation
from backend.live import publish
from backend.turns import (
    Taken,
    TurnTable,
    deadlines_apply,
    turn_act,
    turn_act_locked,
    turn_deadline,
    turn_refresh,
)
from combat import engine
from combat.engine.encounters import EncounterRules
from combat.models import Battle, CombatSettings
from combat.selectors import encounter_for_room
from combat.services import (
    battle_action_parse,
    battle_create,
    battle_deadline_seconds,
    battle_replayed_response,
    battle_step,
    battle_step_record,
    battle_time_out,
    battle_turn_told,
)
from combat.store import BattleRow, BattleStep, battle_model, turn_awaited_first, turns_awaited_since
from dungeons.kinds import run_kind_hooks
from dungeons.models import MemberStatus
from dungeons.runs import store
from dungeons.runs.core import (
    apply_rules,
    drop_loot,
    pay,
    place_of,
    run_rules_get,
    run_stats_of,
)
from dungeons.runs.endings import complete, die, end_if_party_gone, escape
from dungeons.runs.engine import battles, loot
from dungeons.runs.engine.battles import RUN_RELEVANT_EVENTS
from dungeons.runs.engine.log import BattleBegun, BattleOver, NpcDied
from dungeons.runs.engine.loot import BATTLE_LOOT_CATEGORIES
from dungeons.runs.engine.values import boosted
from dungeons.runs.store import MemberRow, PollRead, RunRow, RunStep
from npcs.services import bounty_progress_record
from players.models import Player
from players.notices import notices_wake
from players.selectors import player_for_user

# --- beginning a battle -----------------------------------------------------------------------------


def _player_combatant(member: MemberRow, items: list[Any]) -> engine.Combatant:
    player = member.player
    return battles.player_combatant(player_id=player.pk, name=player.display_name, hp=member.hp,
                                    max_hp=member.max_hp, stats=run_stats_of(member), items=items)


def battle_begin(step: RunStep, party: list[MemberRow], *, is_boss: bool,
                 settings: CombatSettings | None = None) -> BattleRow:
    """Start the battle of the run's current room with the party inside (run locked; the caller saves the
    step).

    ``settings``: the combat settings the caller already read (one read serves the encounter and
    the rules). Enemy turns before the first player's turn resolve at once; their consequences
    (a party wiped before it could act) reach the run like any other step's.
    """
    run = step.run
    place = place_of(run)
    settings = settings or CombatSettings.cached()  # coherent with the request's settings token
    items = store.carried([m.player_id for m in party])
    players = tuple(_player_combatant(m, items[m.player_id]) for m in party)
    slugs: dict[str, str] = {}
    enemies = encounter_for_room(floor=place.floor, is_boss=is_boss, party_size=len(party),
                                 rng=place.stream("encounter"), slugs=slugs,
                                 rules=EncounterRules.from_settings(settings))
    npc = None
    if run.has_npc:
        npc = engine.Combatant(id=engine.NPC_ID, kind=engine.Kind.NPC, name=run.npc_name,
                               hp=run.npc_hp, max_hp=run.npc_max_hp)
    starting = [effect for m in party
                for effect in battles.starting_effects(m.player_id, m.pending_effects, m.buffs)]
    # trap effects wait for the next battle: this one
    store.pending_effects_clear(step, [m.player_id for m in party if m.pending_effects])
    setup = engine.BattleSetup(players=players, enemies=tuple(enemies), npc=npc,
                               starting_effects=tuple(starting), rules=settings.to_rules())
    # The ``battle`` entry comes first in the run's one sequence, then the battle's first events; it names
    # the battle, so it is logged once the battle is stored, under the number taken now.
    begun = step.reserve()
    battle, result = battle_create(run_id=run.id, floor=place.floor, room=place.room, setup=setup,
                                   seed=battles.battle_seed(place), enemy_kinds=slugs, run_seq=begun)
    # Logged before the first turns' consequences: a member the enemies kill before anyone could act
    # dies in this battle, so their ``died`` comes after its ``battle`` entry.
    step.log(BattleBegun(battle=battle.id, enemies=[e.name for e in enemies]), seq=begun)
    step.battle_numbered(battle, [event.to_dict() for event in result.events])
    # the awaited player is told with the step's save; their streams wake once it commits
    told = battle_turn_told(battle, actor=None)
    step.tell(told)
    users = {m.player_id: m.player.user_id for m in party}
    notices_wake(users[t.player] for t in told)
    _carry(step, battle, result.state, result.events)
    return battle


# --- a step's consequences for the run ---------------------------------------------------------------


def _carry(step: RunStep, battle: BattleRow, state: engine.BattleState,
           events: Sequence[engine.Event]) -> bool:
    """Carry one battle step's consequences into the run's step (run locked; the caller saves it).

    Potions drunk leave the inventory; stat potions last for the rest of the run; a player who
    dies respawns through Charon, one who flees escapes with the loss fraction; kills count
    towards bounties; at the end HP carries over and a victory clears the room (a boss on the
    last floor completes the run). A draw at the round limit means the enemies withdraw: the
    room is cleared without loot (docs/runs.md). The members are read only when the step concerns
    the run; the ones it concerns are those inside when it began. Returns whether it did (False: the
    step concerns the run in nothing).
    """
    if not state.over and not any(isinstance(e, RUN_RELEVANT_EVENTS) for e in events):
        return False
    inside_ids = {m.player_id for m in step.party(MemberStatus.IN_DUNGEON)}
    found = battles.step_consequences(events, inside=inside_ids, enemy_kinds=battle.enemy_kinds or {})
    for happened in found.happened:
        member = step.member(getattr(happened, "player_id", 0))
        if isinstance(happened, battles.PotionGone):
            store.potion_delete(player_id=happened.player_id, item_id=int(happened.potion))
        elif isinstance(happened, battles.StatBoost):
            assert member is not None
            boosts = boosted(member.stat_boosts, happened.stat, happened.amount)
            step.change_member(member.player_id, stat_boosts=boosts)
        elif isinstance(happened, battles.NpcFell):
            step.change(npc_hp=0)
            step.log(NpcDied(npc=step.run.npc_kind))
        elif member is not None and member.status == MemberStatus.IN_DUNGEON:
            if isinstance(happened, battles.MemberFell):
                die(step, member)
            else:
                escape(step, member, purpose=f"flee/{battle.id}")
    for player_id, counted in found.kills.items():
        killer_row = step.member(player_id)
        assert killer_row is not None
        step.change_member(player_id, kills=battles.kills_added(killer_row.kills, counted))
        bounty_progress_record(player_id=player_id, kills=dict(counted))
    if state.over:
        _battle_over(step, battle, state, inside_ids)
    end_if_party_gone(step)
    return True


def _battle_over(step: RunStep, battle: BattleRow, state: engine.BattleState, inside_ids: set[int]) -> None:
    still = {m.player_id for m in step.party(MemberStatus.IN_DUNGEON) if m.player_id in inside_ids}
    apply_rules(step, battles.hp_carried(state, inside=still))
    npc = state.npc
    if npc is not None and step.run.npc_kind:
        step.change(npc_hp=npc.hp)
    step.log(BattleOver(battle=battle.id, outcome=state.outcome.value))
    if state.outcome not in (engine.Outcome.VICTORY, engine.Outcome.DRAW):
        return
    step.change(room_cleared=True)
    if state.outcome is engine.Outcome.VICTORY:
        run = step.run
        party = step.party(MemberStatus.IN_DUNGEON)
        spoils = loot.victory_spoils(place=place_of(run), boss=state.has_boss, rules=run_rules_get(run))
        if spoils is not None:
            drop_loot(step, spoils.items, spoils.purpose, BATTLE_LOOT_CATEGORIES)
            pay(party, spoils.coins)
        last = run_kind_hooks(run.kind).boss_completes_run or store.next_position(step) is None
        if state.has_boss and last:
            complete(step, party)


# --- the turn protocol (backend/turns.py) --------------------------------------------------------------


class LockedBattle:
    """The protocol's row: the battle as the last step left it (frozen rows, replaced step by step), its
    run's step as locked with it (None for a read), and the battle step taken but not yet recorded."""

    __slots__ = ("battle", "run", "taken")

    def __init__(self, battle: BattleRow, run: RunStep | None = None) -> None:
        self.battle = battle
        self.run = run
        self.taken: BattleStep | None = None


def _not_found(battle_id: int) -> NotFound:
    return NotFound("battle_not_found", "No such battle.", {"battle": battle_id})


def _numbered_from(battle: BattleRow, run: RunStep) -> BattleRow:
    """The battle as its next step takes it: its events go on in the run's one sequence after the last
    number given, by the battle's earlier steps (``battle.run_seq``, written with them) or by the run's
    writes (its log's entries, ``run.event_seq``). Both are read with the lock: no statement."""
    last = max(battle.run_seq, run.run.event_seq)
    return battle if last == battle.run_seq else replace(battle, run_seq=last)


def _consequences(run: RunStep, battle: BattleRow, result: engine.Success) -> None:
    """A battle step's consequences carried into the run and saved (only what they changed; most steps
    concern the run in nothing, and cost nothing here). The run's entries they add come after the step's
    events in the run's one sequence."""
    run.numbered(battle.run_seq)
    if _carry(run, battle, result.state, result.events):
        store.run_save(run)


def _woken(run: RunRow) -> RunStep:
    """The locked battle's run as a step, its streams woken once the battle step commits (a battle step's
    events and the run entries it causes are the run's events: SPEC 13). Every battle step takes its locks
    through here: an action, a deadline applied by a read or by the deadline clock."""
    publish(f"run:{run.id}")
    return RunStep(run)


class _RunBattles(TurnTable[LockedBattle]):
    """A run's battle in the shared turn protocol: a turn is the engine's step; the run is locked with it."""

    noun = "battle"

    def read(self, object_id: int, player: Player) -> LockedBattle:
        battle = store.battle_seen(battle_id=object_id, player_id=player.pk)
        if battle is None:
            raise _not_found(object_id)
        return LockedBattle(battle)

    def lock(self, object_id: int, player: Player) -> LockedBattle:
        """Lock the battle and its run in one statement. Call only for a player who sees the battle
        (``read``, or the check of ``battle_act``): a stranger is refused before any lock (docs/runs.md),
        and who sees a run never changes once it has battles (only a lobby can be left). The run's
        growing log is not read: a step appends to it."""
        found = store.battle_lock(battle_id=object_id)
        if found is None:
            raise _not_found(object_id)
        return LockedBattle(found[0], _woken(found[1]))

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
        result, step = battle_time_out(_numbered_from(row.battle, row.run), deadline=deadline)
        row.battle = step.battle
        _consequences(row.run, row.battle, result)

    def replayed_response(self, row: LockedBattle, player: Player, key: str) -> dict[str, Any] | None:
        return battle_replayed_response(row.battle, player_id=player.pk, key=key)

    def parse(self, row: LockedBattle, player: Player, action: Mapping[str, Any]) -> engine.Action:
        return battle_action_parse(player_id=player.pk, data=action)

    def take(self, row: LockedBattle, player: Player, action: engine.Action, *, now: datetime) -> Taken:
        """Resolve the step in memory: ``record`` writes it with the action row (one statement)."""
        run = row.run
        assert run is not None  # a step is taken under the locks
        turn, first_seq = row.battle.step, row.battle.event_count + 1
        result, step = battle_step(_numbered_from(row.battle, run), action, now=now)
        row.battle, row.taken = step.battle, step
        response = {"turn": turn, "next_turn": step.battle.step, "first_event": first_seq,
                    "events": step.events, "outcome": step.battle.outcome}
        return Taken(response, action.to_dict(), then=lambda: _consequences(run, step.battle, result))

    def record(self, row: LockedBattle, player: Player, *, turn: int, action: dict[str, Any], key: str,
               response: dict[str, Any]) -> None:
        assert row.taken is not None
        battle_step_record(row.taken, player_id=player.pk, turn=turn, action=action, key=key,
                           response=response)


BATTLE_TURNS = _RunBattles()


class _BattleDeadlines(DeadlineKind):
    """The runs' battles for the deadline clock (backend/deadlines.py): a battle's deadline is its awaited
    turn's start plus the combat settings' seconds, so the partial index on the start finds the next one;
    a passed one is applied as a read applies it, under the locks of the battle and its run."""

    name = "battle"

    def next(self) -> datetime | None:
        began = turn_awaited_first()
        return None if began is None else began + timedelta(seconds=battle_deadline_seconds())

    def due(self, now: datetime, limit: int) -> list[int]:
        return turns_awaited_since(now - timedelta(seconds=battle_deadline_seconds()), limit=limit)

    def fire(self, object_id: int, now: datetime) -> int:
        with transaction.atomic():
            found = store.battle_lock(battle_id=object_id)
            if found is None:
                return 0
            return deadlines_apply(BATTLE_TURNS, LockedBattle(found[0], _woken(found[1])), now=now)


BATTLE_DEADLINES = _BattleDeadlines()


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
    if store.battle_seen(battle_id=battle_id, player_id=player.pk) is None:
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
    with transaction.atomic():
        found = store.battle_act_lock(battle_id=battle_id, user_id=user_id, key=idempotency_key)
        if found is None:
            player_for_user(user_id=user_id)  # raises player_not_found for an account without a player
            raise _not_found(battle_id)
        if found.previous is not None:
            return ActOutcome(found.battle, found.previous, replayed=True)
        locked = LockedBattle(found.battle, _woken(found.run))
        player = store.player_ref(found.player_id)  # the protocol needs only its id
        outcome = turn_act_locked(BATTLE_TURNS, locked, player=player, turn=turn, action=action,
                                  idempotency_key=idempotency_key, now=now, key_checked=True)
    return ActOutcome(outcome.row.battle, outcome.response, replayed=outcome.replayed)


def battle_refresh(*, player: Player, battle_id: int, now: datetime | None = None) -> Battle:
    """The battle for a reader, after applying passed deadlines (those the deadline clock has not yet);
    a model instance with the loaded columns (its relations, e.g. its events, read on access)."""
    return battle_model(turn_refresh(BATTLE_TURNS, object_id=battle_id, player=player, now=now).battle)


def run_deadline_refresh(*, player: Player, battle_id: int | None, deadline: datetime | None,
                         now: datetime | None = None) -> bool:
    """For a reader of a run (its stream, its long-poll) who saw its room's battle (``battle_id``) await a
    turn until ``deadline``: once that has passed, apply it as a read of the battle would (``battle_refresh``;
    the deadline clock may have done so already) and say so (True: read the run again)."""
    now = now or timezone.now()
    if battle_id is None or deadline is None or deadline > now:
        return False
    battle_refresh(player=player, battle_id=battle_id, now=now)
    return True


def battle_for_user(*, user_id: int, battle_id: int, since: int = 0, now: datetime | None = None) -> PollRead:
    """A poll: the battle, the reader's player id and (on PostgreSQL) the events after ``since``, for
    the account ``user_id``, in one statement while no deadline has passed (the reader's player row is
    not read).

    The refusals are the API's usual ones, in its order: an account without a player is 404
    ``player_not_found``, a battle of a run the player does not see is 404 ``battle_not_found``.
    """
    now = now or timezone.now()
    found = store.battle_poll(battle_id=battle_id, user_id=user_id, since=since)
    if found is None:
        player_for_user(user_id=user_id)  # raises player_not_found for an account without a player
        raise _not_found(battle_id)
    deadline = turn_deadline(BATTLE_TURNS, LockedBattle(found.battle))
    if deadline is not None and deadline <= now:  # someone's turn timed out: apply it under the locks
        reader = player_for_user(user_id=user_id)
        refreshed = turn_refresh(BATTLE_TURNS, object_id=battle_id, player=reader, now=now)
        return PollRead(refreshed.battle, found.player_id, None)  # the timeouts added events
    return found
