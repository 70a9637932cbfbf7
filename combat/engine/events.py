"""Battle events: small frozen values with a kind, forming the battle log the API returns."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from combat.engine.values import quick_init


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; `kind` names it in JSON."""

    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        """{"kind": kind, field: value, ...}, tuples as lists."""
        data: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True, slots=True)
class BattleStarted(Event):
    kind: ClassVar[str] = "battle_started"
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    kind: ClassVar[str] = "round_started"
    round: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    actor: str
    round: int


@dataclass(frozen=True, slots=True)
class ExtraTurn(Event):
    """Haste granted the actor an extra turn (engine version 1: another action in this turn)."""

    kind: ClassVar[str] = "extra_turn"
    actor: str


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """The turn was lost: reason is "stunned", "skip" or "timeout"."""

    kind: ClassVar[str] = "turn_skipped"
    actor: str
    reason: str


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    actor: str


@dataclass(frozen=True, slots=True)
class Attack(Event):
    kind: ClassVar[str] = "attack"
    actor: str
    target: str
    weapon: str


@dataclass(frozen=True, slots=True)
class Miss(Event):
    kind: ClassVar[str] = "miss"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class Critical(Event):
    kind: ClassVar[str] = "critical"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class Damage(Event):
    """HP lost; source is "attack" or the damage-over-time effect's name."""

    kind: ClassVar[str] = "damage"
    target: str
    amount: int
    hp: int
    source: str


@dataclass(frozen=True, slots=True)
class Healed(Event):
    """HP gained; source is "potion" or "regeneration"."""

    kind: ClassVar[str] = "healed"
    target: str
    amount: int
    hp: int
    source: str


@dataclass(frozen=True, slots=True)
class CurseStruck(Event):
    """The curse roll succeeded: the hit kills outright."""

    kind: ClassVar[str] = "curse_struck"
    target: str


@dataclass(frozen=True, slots=True)
class PotionDrunk(Event):
    kind: ClassVar[str] = "potion_drunk"
    actor: str
    potion: str
    potion_kind: str


@dataclass(frozen=True, slots=True)
class StatRaised(Event):
    """A stat potion raised a stat for the rest of the run; the server persists it."""

    kind: ClassVar[str] = "stat_raised"
    actor: str
    stat: str
    amount: int
    value: int


@dataclass(frozen=True, slots=True)
class WeaponSwitched(Event):
    kind: ClassVar[str] = "weapon_switched"
    actor: str
    weapon: str
    slot: int


@dataclass(frozen=True, slots=True)
class EffectApplied(Event):
    kind: ClassVar[str] = "effect_applied"
    target: str
    effect: str
    turns: int | None
    magnitude: float
    permanent: bool


@dataclass(frozen=True, slots=True)
class EffectExtended(Event):
    kind: ClassVar[str] = "effect_extended"
    target: str
    effect: str
    turns: int | None
    magnitude: float
    permanent: bool


@dataclass(frozen=True, slots=True)
class EffectCancelled(Event):
    """effect met its opposite: neither remains."""

    kind: ClassVar[str] = "effect_cancelled"
    target: str
    effect: str
    opposite: str


@dataclass(frozen=True, slots=True)
class EffectReplaced(Event):
    """effect removed `replaced` and stays."""

    kind: ClassVar[str] = "effect_replaced"
    target: str
    effect: str
    replaced: str


@dataclass(frozen=True, slots=True)
class EffectBlocked(Event):
    """effect was not applied because `by` is present."""

    kind: ClassVar[str] = "effect_blocked"
    target: str
    effect: str
    by: str


@dataclass(frozen=True, slots=True)
class EffectExpired(Event):
    kind: ClassVar[str] = "effect_expired"
    target: str
    effect: str


@dataclass(frozen=True, slots=True)
class Death(Event):
    kind: ClassVar[str] = "death"
    target: str


@dataclass(frozen=True, slots=True)
class Fled(Event):
    kind: ClassVar[str] = "fled"
    actor: str


@dataclass(frozen=True, slots=True)
class BattleOver(Event):
    kind: ClassVar[str] = "battle_over"
    outcome: str


EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        BattleStarted,
        RoundStarted,
        TurnStarted,
        ExtraTurn,
        TurnSkipped,
        TurnEnded,
        Attack,
        Miss,
        Critical,
        Damage,
        Healed,
        CurseStruck,
        PotionDrunk,
        StatRaised,
        WeaponSwitched,
        EffectApplied,
        EffectExtended,
        EffectCancelled,
        EffectReplaced,
        EffectBlocked,
        EffectExpired,
        Death,
        Fled,
        BattleOver,
    )
}


def _quick_to_dict(cls: type[Event]) -> None:
    """Give an event type the generic Event.to_dict written out for its fields (the server turns
    every event of every engine call to JSON): the same dict, about four times quicker."""
    names = [f.name for f in dataclasses.fields(cls)]
    lines = ["def to_dict(self):"]
    lines += [f"    {name} = self.{name}" for name in names]
    items = [f"{name!r}: list({name}) if isinstance({name}, tuple) else {name}" for name in names]
    lines.append(f"    return {{'kind': {cls.kind!r}, {', '.join(items)}}}")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # noqa: S102 (as dataclasses itself builds methods)
    to_dict = namespace["to_dict"]
    to_dict.__qualname__ = f"{cls.__qualname__}.to_dict"
    to_dict.__doc__ = Event.to_dict.__doc__
    # A plain assignment to a method is refused by mypy (method-assign); setattr says what is meant.
    setattr(cls, "to_dict", to_dict)  # noqa: B010


# Events are built by the hundred per engine call (and the battle log keeps them): slots (one
# small object each, no __dict__), the quicker constructor (values.py) and to_dict.
for _event_type in EVENT_TYPES.values():
    quick_init(_event_type)
    _quick_to_dict(_event_type)


def event_from_dict(data: Mapping[str, Any]) -> Event:
    cls = EVENT_TYPES[data["kind"]]
    kwargs = {f.name: data[f.name] for f in dataclasses.fields(cls)}
    if cls is BattleStarted:
        kwargs["order"] = tuple(kwargs["order"])
    return cls(**kwargs)
