"""Writes of the combat app: start a battle for a run's room, take a player's action, apply deadlines.

Every write follows one shape (STYLE.md, Saleor's fetch-compute-write): lock the run row, then
the battle row; load the engine state; call the pure engine; persist the new state, its events
and the action in the same transaction; hand the events to the run (dungeons.services), which
turns deaths, flights, potions and the outcome into run state. Lock order run -> battle ->
player rows everywhere, so concurrent requests queue instead of deadlocking.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from backend.errors import InvalidInput, NotFound, RuleViolation
from backend.turns import Taken, TurnTable, turn_act, turn_refresh
from combat import engine
from combat.models import Battle, BattleAction, BattleEvent, CombatSettings
from players.models import Player

PLAYER_PREFIX = "p"


def player_combatant_id(player_id: int) -> str:
    return f"{PLAYER_PREFIX}{player_id}"


def combatant_player_id(combatant_id: str) -> int | None:
    """The player behind a combatant id, or None for enemies and the NPC."""
    if combatant_id.startswith(PLAYER_PREFIX) and combatant_id[1:].isdigit():
        return int(combatant_id[1:])
    return None


def _deadline_seconds() -> int:
    return CombatSettings.cached().turn_deadline_seconds


def _sync_turn(battle: Battle, state: engine.BattleState, *, turn_started_at: datetime) -> None:
    awaiting = state.awaiting
    battle.awaiting_id = combatant_player_id(awaiting) if awaiting else None
    battle.turn_started_at = turn_started_at if awaiting else None


def _persist(battle: Battle, result: engine.Success, *, turn_started_at: datetime) -> list[dict[str, Any]]:
    """Store the engine's new state and append its events; returns the events as JSON."""
    state = result.state
    events = [event.to_dict() for event in result.events]
    first = battle.event_count + 1
    BattleEvent.objects.bulk_create(
        BattleEvent(battle=battle, seq=first + offset, data=data) for offset, data in enumerate(events)
    )
    battle.state = state.to_dict()
    battle.step = state.step
    battle.event_count += len(events)
    battle.outcome = state.outcome.value
    if state.over and battle.ended_at is None:
        battle.ended_at = timezone.now()
    _sync_turn(battle, state, turn_started_at=turn_started_at)
    # The setup never changes after the start; leave it (and the other fixed columns) alone.
    battle.save(update_fields=["state", "step", "event_count", "outcome", "ended_at", "awaiting",
                               "turn_started_at"])
    return events


def _after_step(battle: Battle, result: engine.Success) -> None:
    from dungeons.services import run_after_battle_step  # the run owns the battle's consequences

    run_after_battle_step(battle=battle, state=result.state, events=result.events)


def battle_start(
    *, run_id: int, floor: int, room: int, setup: engine.BattleSetup, seed: int, enemy_kinds: Mapping[str, str]
) -> Battle:
    """Start the battle of a room (call inside the run's transaction, holding the run row lock).

    Enemy turns before the first player's turn resolve at once; if the battle ends there (a
    party wiped before it could act), the run hears about it like any other step.
    """
    result = engine.start_battle(setup, seed)
    battle = Battle.objects.create(
        run_id=run_id, floor=floor, room=room, seed=seed, engine_version=engine.ENGINE_VERSION,
        setup=engine.setup_to_dict(setup), state=result.state.to_dict(), enemy_kinds=dict(enemy_kinds),
    )
    _persist(battle, result, turn_started_at=timezone.now())
    _after_step(battle, result)
    return battle


# --- the turn protocol (backend/turns.py) ------------------------------------------------------


class _BattleTurns(TurnTable[Battle]):
    """A battle in the shared turn protocol: locks run then battle; a turn is the engine's step."""

    noun = "battle"

    def read(self, object_id: int, player: Player) -> Battle:
        from dungeons.models import RunMember

        battle = Battle.objects.filter(pk=object_id).first()
        if battle is None or not RunMember.objects.filter(run_id=battle.run_id, player=player).exists():
            raise NotFound("battle_not_found", "No such battle.", {"battle": object_id})
        return battle

    def lock(self, object_id: int, player: Player) -> Battle:
        """Lock the run, then the battle; a battle of a run the player is not in is a 404."""
        from dungeons.models import Run, RunMember

        run_id = Battle.objects.filter(pk=object_id).values_list("run_id", flat=True).first()
        if run_id is None or not RunMember.objects.filter(run_id=run_id, player=player).exists():
            raise NotFound("battle_not_found", "No such battle.", {"battle": object_id})
        Run.objects.select_for_update().get(pk=run_id)
        return Battle.objects.select_for_update().get(pk=object_id)

    def deadline_seconds(self, row: Battle) -> int:
        return _deadline_seconds()

    def waiting_since(self, row: Battle) -> datetime | None:
        if row.is_over or row.awaiting_id is None:
            return None
        return row.turn_started_at

    def current_turn(self, row: Battle) -> int:
        return row.step

    def over_error(self, row: Battle) -> RuleViolation | None:
        if not row.is_over:
            return None
        return RuleViolation("battle_over", "The battle is over.", {"outcome": row.outcome})

    def time_out(self, row: Battle, *, deadline: datetime) -> None:
        state = engine.BattleState.from_dict(row.state)
        awaiting = state.awaiting
        assert awaiting is not None
        result = engine.act(state, engine.Timeout(awaiting))
        assert isinstance(result, engine.Success)  # a timeout for the awaiting player always applies
        action = engine.Timeout(awaiting).to_dict()
        BattleAction.objects.create(battle=row, step=state.step, player_id=row.awaiting_id, action=action,
                                    response={"timeout": True})
        _persist(row, result, turn_started_at=deadline)
        _after_step(row, result)

    def replayed_response(self, row: Battle, player: Player, key: str) -> dict[str, Any] | None:
        previous = BattleAction.objects.filter(battle=row, player=player, idempotency_key=key).first()
        return None if previous is None else previous.response

    def parse(self, row: Battle, player: Player, action: Mapping[str, Any]) -> engine.Action:
        return _parse_action(player, action)

    def take(self, row: Battle, player: Player, action: engine.Action, *, now: datetime) -> Taken:
        state = engine.BattleState.from_dict(row.state)
        result = engine.act(state, action)
        if isinstance(result, engine.Impossible):
            raise RuleViolation(result.reason, result.message or result.reason.replace("_", " "),
                                {"turn": row.step})
        first_seq = row.event_count + 1
        events = _persist(row, result, turn_started_at=now)
        response = {"turn": state.step, "next_turn": row.step, "first_event": first_seq, "events": events,
                    "outcome": row.outcome}
        return Taken(response, action.to_dict(), then=lambda: _after_step(row, result))

    def record(self, row: Battle, player: Player, *, turn: int, action: dict[str, Any], key: str,
               response: dict[str, Any]) -> None:
        BattleAction.objects.create(battle=row, step=turn, player=player, action=action,
                                    idempotency_key=key, response=response)


BATTLE_TURNS = _BattleTurns()


def battle_refresh(*, player: Player, battle_id: int, now: datetime | None = None) -> Battle:
    """The battle for a reader, after applying passed deadlines (reading is what moves a silent party on)."""
    return turn_refresh(BATTLE_TURNS, object_id=battle_id, player=player, now=now)


# --- player actions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ActOutcome:
    """What an action request got: the response body, and whether it was a replayed answer."""

    battle: Battle
    response: dict[str, Any]
    replayed: bool = False


def _parse_action(player: Player, data: Mapping[str, Any]) -> engine.Action:
    actor = player_combatant_id(player.pk)
    kind = data.get("kind")
    if kind == "attack":
        return engine.AttackAction(actor, str(data.get("target", "")))
    if kind == "drink":
        return engine.DrinkPotion(actor, str(data.get("potion", "")))
    if kind == "switch_weapon":
        slot = data.get("slot")
        if not isinstance(slot, int) or isinstance(slot, bool):
            raise InvalidInput("invalid_action", "switch_weapon needs an integer slot.", {"slot": slot})
        return engine.SwitchWeapon(actor, slot)
    if kind == "skip":
        return engine.Skip(actor)
    if kind == "flee":
        return engine.Flee(actor)
    raise InvalidInput("invalid_action", "Unknown action kind.", {"kind": kind})


def battle_act(
    *, player: Player, battle_id: int, turn: int, action: Mapping[str, Any], idempotency_key: str = "",
    now: datetime | None = None,
) -> ActOutcome:
    """Take the player's action for turn ``turn`` (the battle step the client saw), by the shared protocol.

    A retry with a used idempotency key gets the original answer; passed deadlines apply first;
    another turn is 409 ``stale_turn``; an action while another player is awaited is 409
    ``not_your_turn``, and every engine refusal is a 409 with the engine's reason as its code.
    """
    outcome = turn_act(BATTLE_TURNS, object_id=battle_id, player=player, turn=turn, action=action,
                       idempotency_key=idempotency_key, now=now)
    return ActOutcome(outcome.row, outcome.response, replayed=outcome.replayed)


# --- reads used by the API ----------------------------------------------------------------------


def battle_events_since(*, battle: Battle, since: int, limit: int = 500) -> list[dict[str, Any]]:
    """Events numbered after ``since``, oldest first, each with its ``seq``."""
    rows = BattleEvent.objects.filter(battle=battle, seq__gt=since).order_by("seq")[:limit]
    return [{"seq": row.seq, **row.data} for row in rows]


def battle_allowed_actions(*, battle: Battle, player: Player) -> list[dict[str, Any]]:
    """The actions the player may take now (empty unless it is their turn)."""
    if battle.awaiting_id != player.pk:
        return []
    state = engine.BattleState.from_dict(battle.state)
    actions: Sequence[engine.Action] = engine.allowed_actions(state)
    return [{k: v for k, v in a.to_dict().items() if k != "actor"} for a in actions]
