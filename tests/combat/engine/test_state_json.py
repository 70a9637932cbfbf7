"""The quick JSON paths (state loaders, per-type event to_dict, reused actions) against the generic ones.

BattleState.from_dict builds its values without running the dataclass constructors, after running
the constructors' own checks; each event type's to_dict is generated. These tests keep them equal
to the constructors and to the generic Event.to_dict, errors included.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from combat.engine import (
    BattleState,
    Combatant,
    EffectSpec,
    Kind,
    Outcome,
    Potion,
    PotionKind,
    Stats,
    Success,
    Weapon,
    act,
    allowed_actions,
    start_battle,
)
from combat.engine import battle as battle_module
from combat.engine.effects import ActiveEffect
from combat.engine.events import EVENT_TYPES, Event
from combat.engine.rules import CombatRules
from combat.engine.state import combatant_from_dict
from tests.combat.engine.test_engine_digests import _choose, random_setup


def _states_and_events(battles: int) -> tuple[list[BattleState], list[Event]]:
    states: list[BattleState] = []
    events: list[Event] = []
    for seed in range(battles):
        rng = random.Random(f"state-json/{seed}")
        result = start_battle(random_setup(rng), seed, version=rng.choice([1, 2]))
        state = result.state
        events.extend(result.events)
        while True:
            states.append(state)
            if state.over:
                break
            outcome = act(state, _choose(rng, state, allowed_actions(state)))
            assert isinstance(outcome, Success)
            state = outcome.state
            events.extend(outcome.events)
    return states, events


def _by_constructors(data: dict[str, Any]) -> BattleState:
    """The state as the constructors build it from its JSON (what from_dict did before)."""

    def spec(s: dict[str, Any]) -> EffectSpec:
        return EffectSpec(s["name"], s["turns"], s["magnitude"], s["chance"])

    def combatant(c: dict[str, Any]) -> Combatant:
        return Combatant(
            id=c["id"], kind=Kind(c["kind"]), name=c["name"], hp=c["hp"], max_hp=c["max_hp"],
            stats=Stats(**c["stats"]),
            weapons=tuple(Weapon(w["name"], w["damage"], w["kind"], tuple(spec(s) for s in w["on_hit"]))
                          for w in c["weapons"]),
            active_weapon=c["active_weapon"], armor=c["armor"],
            potions=tuple(Potion(p["id"], PotionKind(p["kind"]), p["heal"],
                                 spec(p["effect"]) if p["effect"] else None, p["stat"], p["amount"])
                          for p in c["potions"]),
            amulets=tuple(spec(s) for s in c["amulets"]),
            effects=tuple(ActiveEffect.from_dict(e) for e in c["effects"]),
            is_boss=c["is_boss"], fled=c["fled"],
        )

    return BattleState(
        seed=data["seed"], combatants=tuple(combatant(c) for c in data["combatants"]),
        order=tuple(data["order"]),
        rules=CombatRules.from_dict(data["rules"]), round=data["round"], turn_index=data["turn_index"],
        turn_open=data["turn_open"], extra_actions_used=data["extra_actions_used"], step=data["step"],
        outcome=Outcome(data["outcome"]), version=data["version"],
    )


def test_loaded_states_are_the_constructors_values_field_for_field() -> None:
    states, _ = _states_and_events(25)
    for state in states:
        data = json.loads(json.dumps(state.to_dict()))
        loaded = BattleState.from_dict(data)
        assert loaded == state == _by_constructors(data)
        assert repr(loaded) == repr(_by_constructors(data))
        # The same types too (an enum member, not its text; a tuple, not a list).
        for mine, theirs in zip(loaded.combatants, _by_constructors(data).combatants):
            assert [(k, type(v)) for k, v in vars(mine).items()] == [
                (k, type(v)) for k, v in vars(theirs).items()
            ]
        assert json.dumps(loaded.to_dict()) == json.dumps(data)


def _combatant_json() -> dict[str, Any]:
    state = start_battle(random_setup(random.Random("bad-json")), 3).state
    data: dict[str, Any] = json.loads(json.dumps(state.to_dict()))
    return next(c for c in data["combatants"] if c["weapons"] and c["potions"])


BREAKAGES: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("unknown kind", lambda c: c.update(kind="dragon")),
    ("hp above max", lambda c: c.update(hp=c["max_hp"] + 1)),
    ("negative hp", lambda c: c.update(hp=-1)),
    ("weapon slot", lambda c: c.update(active_weapon=len(c["weapons"]))),
    ("unknown amulet", lambda c: c.update(amulets=[{"name": "luck", "turns": None, "magnitude": None,
                                                     "chance": 1.0}])),
    ("chance", lambda c: c["weapons"][0].update(on_hit=[{"name": "fear", "turns": 1, "magnitude": None,
                                                          "chance": 1.5}])),
    ("potion kind", lambda c: c["potions"][0].update(kind="poison")),
    ("healing potion", lambda c: c["potions"][0].update(kind="healing", heal=0)),
    ("effect potion", lambda c: c["potions"][0].update(kind="effect", effect=None)),
    ("stat potion", lambda c: c["potions"][0].update(kind="stat", stat="charm", amount=1)),
    ("unknown stat", lambda c: c["stats"].update(charm=1)),
    ("missing field", lambda c: c.pop("armor")),
]


@pytest.mark.parametrize("name, breakage", BREAKAGES, ids=[name for name, _ in BREAKAGES])
def test_a_bad_combatant_fails_as_its_constructor_does(
    name: str, breakage: Callable[[dict[str, Any]], None]
) -> None:
    data = _combatant_json()
    breakage(data)
    with pytest.raises(Exception) as by_constructor:
        _by_constructors({"seed": 1, "combatants": [data], "order": [], "rules": {}, "round": 1,
                          "turn_index": 0, "turn_open": False, "extra_actions_used": 0, "step": 0,
                          "outcome": "ongoing", "version": 2})
    with pytest.raises(Exception) as by_loader:
        combatant_from_dict(data)
    mine, theirs = by_loader.value, by_constructor.value
    assert (type(mine), str(mine)) == (type(theirs), str(theirs))


def test_missing_stats_default_to_zero_as_in_the_constructor() -> None:
    data = _combatant_json()
    data["stats"] = {"luck": 2}
    assert combatant_from_dict(data).stats == Stats(luck=2)


def test_an_unknown_outcome_is_refused() -> None:
    data = start_battle(random_setup(random.Random("outcome")), 1).state.to_dict()
    data["outcome"] = "won"
    with pytest.raises(ValueError):
        BattleState.from_dict(data)


def test_each_event_type_dumps_as_the_generic_to_dict() -> None:
    _, events = _states_and_events(25)
    seen = set()
    for event in events:
        assert json.dumps(event.to_dict()) == json.dumps(Event.to_dict(event))
        seen.add(event.kind)
    assert len(seen) >= 15
    for cls in EVENT_TYPES.values():
        assert cls.to_dict is not Event.to_dict


def test_allowed_actions_reuse_equal_actions_and_their_memo_stays_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    states, _ = _states_and_events(3)
    waiting = [s for s in states if not s.over]
    first = [allowed_actions(s) for s in waiting]
    battle_module._action_memo.clear()
    assert [allowed_actions(s) for s in waiting] == first
    monkeypatch.setattr(battle_module, "_ACTION_MEMO_SIZE", 3)
    battle_module._action_memo.clear()
    assert [allowed_actions(s) for s in waiting] == first
    assert len(battle_module._action_memo) <= 3
