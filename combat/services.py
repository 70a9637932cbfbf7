"""Writes of the combat app: create a battle, resolve and save one step of it, record actions.

Combat knows battles, not runs: the run side (``dungeons/runs/battles.py``) owns the battle flow.
It locks the run and the battle (one statement), asks these functions to resolve and save a step
(STYLE.md, Saleor's fetch-compute-write: load the engine state, call the pure engine, persist the
new state and its events), and applies the step's consequences to the run itself. Nothing here
imports dungeons (tests/test_combat_knows_no_runs.py).
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.utils import timezone

from backend.errors import InvalidInput, RuleViolation
from combat import engine
from combat.models import Battle, BattleAction, BattleEvent, CombatSettings

#: The columns a step changes; the setup, the seed and the enemy kinds never change after the start.
STEP_COLUMNS = ["state", "step", "event_count", "outcome", "ended_at", "awaiting", "turn_started_at"]


def battle_deadline_seconds() -> int:
    return CombatSettings.cached().turn_deadline_seconds


def _sync(battle: Battle, state: engine.BattleState, *, now: datetime) -> None:
    """Copy the engine state's turn facts onto the row (``now``: when the awaited turn starts)."""
    battle.state = state.to_dict()
    battle.step = state.step
    battle.outcome = state.outcome.value
    if state.over and battle.ended_at is None:
        battle.ended_at = timezone.now()
    awaiting = state.awaiting
    battle.awaiting_id = engine.combatant_player_id(awaiting) if awaiting else None
    battle.turn_started_at = now if awaiting else None


def _events(battle: Battle, result: engine.Success) -> list[dict[str, Any]]:
    """Append the step's events to the battle log (one insert); returns them as JSON."""
    events = [event.to_dict() for event in result.events]
    first = battle.event_count + 1
    BattleEvent.objects.bulk_create(
        BattleEvent(battle=battle, seq=first + offset, data=data) for offset, data in enumerate(events)
    )
    battle.event_count += len(events)
    return events


def _save_step(battle: Battle, result: engine.Success, *, now: datetime) -> list[dict[str, Any]]:
    events = _events(battle, result)
    _sync(battle, result.state, now=now)
    battle.save(update_fields=STEP_COLUMNS)
    return events


def battle_create(
    *, run_id: int, floor: int, room: int, setup: engine.BattleSetup, seed: int, enemy_kinds: Mapping[str, str],
) -> tuple[Battle, engine.Success]:
    """Start the battle of a room and store it: the row with its first state, then its first events.

    Enemy turns before the first player's turn are already resolved; the caller (the run side)
    applies their consequences, as for any other step.
    """
    result = engine.start_battle(setup, seed)
    battle = Battle(run_id=run_id, floor=floor, room=room, seed=seed, engine_version=engine.ENGINE_VERSION,
                    setup=engine.setup_to_dict(setup), enemy_kinds=dict(enemy_kinds))
    _sync(battle, result.state, now=timezone.now())
    battle.event_count = len(result.events)
    battle.save(force_insert=True)
    battle.event_count = 0
    _events(battle, result)
    return battle, result


def battle_action_parse(*, player_id: int, data: Mapping[str, Any]) -> engine.Action:
    """The player's action from its JSON; a malformed one is 400 ``invalid_action``."""
    try:
        return engine.player_action(engine.player_combatant_id(player_id), data)
    except engine.ActionShapeError as exc:
        raise InvalidInput("invalid_action", exc.message, exc.details) from exc


def battle_step(battle: Battle, action: engine.Action, *, now: datetime) -> tuple[engine.Success, list[dict[str, Any]]]:
    """Resolve the action on the (locked) battle and save the step; a refusal is a 409 that changes nothing.

    Returns the engine's result and the step's events as JSON.
    """
    state = engine.BattleState.from_dict(battle.state)
    result = engine.act(state, action)
    if isinstance(result, engine.Impossible):
        raise RuleViolation(result.reason, result.message or result.reason.replace("_", " "), {"turn": battle.step})
    return result, _save_step(battle, result, now=now)


def battle_time_out(battle: Battle, *, deadline: datetime) -> engine.Success:
    """The awaited player's deadline passed: skip the turn, record it, save the step (battle locked).

    The next awaited player's turn starts at ``deadline``.
    """
    state = engine.BattleState.from_dict(battle.state)
    awaiting = state.awaiting
    assert awaiting is not None
    action = engine.Timeout(awaiting)
    result = engine.act(state, action)
    assert isinstance(result, engine.Success)  # a timeout for the awaiting player always applies
    BattleAction.objects.create(battle=battle, step=state.step, player_id=battle.awaiting_id, action=action.to_dict(),
                                response={"timeout": True})
    _save_step(battle, result, now=deadline)
    return result


def battle_replayed_response(battle: Battle, *, player_id: int, key: str) -> dict[str, Any] | None:
    """The stored answer of the player's earlier action with this idempotency key, if any."""
    return (BattleAction.objects.filter(battle=battle, player_id=player_id, idempotency_key=key)
            .values_list("response", flat=True).order_by().first())


def battle_action_record(battle: Battle, *, player_id: int, turn: int, action: dict[str, Any], key: str,
                         response: dict[str, Any]) -> None:
    """The action row: unique per (battle, step), the backstop against a second effect for one turn."""
    BattleAction.objects.create(battle=battle, step=turn, player_id=player_id, action=action,
                                idempotency_key=key, response=response)
