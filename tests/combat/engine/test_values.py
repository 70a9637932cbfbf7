"""The quicker constructors of combat/engine/values.py make the same frozen values."""
from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from combat.engine import AttackAction, BattleState, Combatant, Kind
from combat.engine import events as E
from combat.engine.effects import ActiveEffect
from combat.engine.values import quick_init, unchecked


def test_a_quick_init_value_is_the_frozen_dataclass_it_was() -> None:
    damage = E.Damage("e1", 3, 10, "attack")
    assert damage == E.Damage(target="e1", amount=3, hp=10, source="attack")
    assert hash(damage) == hash(E.Damage("e1", 3, 10, "attack"))
    assert repr(damage) == "Damage(target='e1', amount=3, hp=10, source='attack')"
    assert dataclasses.replace(damage, hp=2).hp == 2
    assert dataclasses.asdict(damage) == {"target": "e1", "amount": 3, "hp": 10, "source": "attack"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        damage.hp = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        E.Damage("e1", 3, 10)  # type: ignore[call-arg]
    assert ActiveEffect("vigor", 2, 0.5).permanent is False  # plain defaults kept
    assert AttackAction("p1", "e1").to_dict() == {"kind": "attack", "actor": "p1", "target": "e1"}


def test_quick_init_refuses_classes_it_would_change() -> None:
    @dataclasses.dataclass(frozen=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(frozen=True)
    class Factory:
        x: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass
    class Mutable:
        x: int

    for cls in (Checked, Factory, Mutable):
        with pytest.raises(TypeError):
            quick_init(cls)


def test_quick_init_on_slots_dataclasses_and_not_on_a_mix() -> None:
    # Events and ActiveEffect are slots dataclasses: no instance __dict__, the same value.
    for value in (E.Damage("e1", 3, 10, "attack"), E.TurnEnded("p1"), ActiveEffect("vigor", 2, 0.5)):
        assert not hasattr(value, "__dict__")
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.copy(value) == value == dataclasses.replace(value)

    @dataclasses.dataclass(frozen=True)
    class Plain:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Mixed(Plain):  # slots of its own, yet a __dict__ from its base
        y: int = 2

    @quick_init
    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        x: int
        y: int = 2

    with pytest.raises(TypeError):
        quick_init(Mixed)
    assert Slotted(1) == Slotted(1, 2) and repr(Slotted(1)).endswith("Slotted(x=1, y=2)")
    with pytest.raises(dataclasses.FrozenInstanceError):
        Slotted(1).x = 3  # type: ignore[misc]


def test_unchecked_builds_the_value_the_constructor_would() -> None:
    made = Combatant("p1", Kind.PLAYER, "p1", 5, 10)
    copy = unchecked(Combatant, {f.name: getattr(made, f.name) for f in dataclasses.fields(Combatant)})
    assert copy == made and hash(copy) == hash(made) and repr(copy) == repr(made)
    state = BattleState(seed=1, combatants=(made,), order=("p1",))
    again = unchecked(BattleState, dict(state.__dict__))
    assert again == state and again.to_dict() == state.to_dict()
