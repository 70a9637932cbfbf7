"""The eighteen battle effects: their tables, the stacking rules and the EffectBook API."""
from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from combat.engine.values import quick_init

# Every effect of SPEC section 7, in the order the docs list them.
EFFECTS: tuple[str, ...] = (
    "haste",
    "stun",
    "camouflage",
    "provocation",
    "curse",
    "blessing",
    "weakness",
    "vigor",
    "fragility",
    "resilience",
    "distraction",
    "concentration",
    "fear",
    "fearlessness",
    "regeneration",
    "bleeding",
    "burning",
    "frostbite",
)

# Opposite pairs cancel each other; the table lists both directions so a lookup is one step.
OPPOSITES: Mapping[str, str] = {
    "weakness": "vigor",
    "vigor": "weakness",
    "fragility": "resilience",
    "resilience": "fragility",
    "distraction": "concentration",
    "concentration": "distraction",
    "fear": "fearlessness",
    "fearlessness": "fear",
    "regeneration": "bleeding",
    "bleeding": "regeneration",
    "burning": "frostbite",
    "frostbite": "burning",
}

# replacing effect -> the effect it replaces (SPEC's "replaces" column).
REPLACES: Mapping[str, str] = {
    "stun": "haste",
    "provocation": "camouflage",
    "blessing": "curse",
}

# Default strength of each effect when the source gives none. For the flag-like effects
# (haste, stun, camouflage, provocation, blessing) the magnitude carries no meaning and is 1.
DEFAULT_MAGNITUDES: Mapping[str, float] = {
    "haste": 1.0,
    "stun": 1.0,
    "camouflage": 1.0,
    "provocation": 1.0,
    "curse": 0.1,
    "blessing": 1.0,
    "weakness": 0.25,
    "vigor": 0.25,
    "fragility": 0.25,
    "resilience": 0.25,
    "distraction": 0.15,
    "concentration": 0.1,
    "fear": 0.1,
    "fearlessness": 0.1,
    "regeneration": 2.0,
    "bleeding": 2.0,
    "burning": 3.0,
    "frostbite": 2.0,
}


class EffectTableError(ValueError):
    """The opposite/replacement tables break one of their invariants."""


def validate_tables(
    effects: Iterable[str],
    opposites: Mapping[str, str],
    replaces: Mapping[str, str],
    magnitudes: Mapping[str, float],
) -> None:
    """Raise EffectTableError unless the tables are consistent (run at import time)."""
    known = set(effects)
    for name, other in opposites.items():
        if name not in known or other not in known:
            raise EffectTableError(f"unknown effect in opposites: {name} -> {other}")
        if name == other:
            raise EffectTableError(f"{name} is its own opposite")
        if opposites.get(other) != name:
            raise EffectTableError(f"opposites not symmetric: {name} -> {other}")
    for name, other in replaces.items():
        if name not in known or other not in known:
            raise EffectTableError(f"unknown effect in replacements: {name} -> {other}")
    # Replacement is a graph name -> replaced; walking from any node must never come back.
    for start in replaces:
        seen = {start}
        node = replaces.get(start)
        while node is not None:
            if node in seen:
                raise EffectTableError(f"replacement cycle through {start}")
            seen.add(node)
            node = replaces.get(node)
    in_replacements = set(replaces) | set(replaces.values())
    both = in_replacements & set(opposites)
    if both:
        raise EffectTableError(f"effects both opposite and replacement: {sorted(both)}")
    # One effect replacing two would make "blocked" ambiguous; the table keeps it one-to-one.
    if len(set(replaces.values())) != len(replaces):
        raise EffectTableError("an effect is replaced by two different effects")
    missing = known - set(magnitudes)
    if missing:
        raise EffectTableError(f"effects without a default magnitude: {sorted(missing)}")


validate_tables(EFFECTS, OPPOSITES, REPLACES, DEFAULT_MAGNITUDES)

# replaced effect -> the effect that replaces it.
REPLACED_BY: Mapping[str, str] = {replaced: replacer for replacer, replaced in REPLACES.items()}


class ApplyOutcome(str, enum.Enum):
    """What applying an effect did; the values are the plain strings of SPEC section 7."""

    ADDED = "added"
    EXTENDED = "extended"
    CANCELLED = "cancelled"
    REPLACED = "replaced"
    BLOCKED = "blocked"

    def __str__(self) -> str:
        return self.value


@quick_init
@dataclass(frozen=True, slots=True)  # one small object each (the battle loop makes many)
class ActiveEffect:
    """An effect on a creature: turns left of its carrier (None = until battle end)."""

    name: str
    turns: int | None
    magnitude: float
    permanent: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "turns": self.turns,
            "magnitude": self.magnitude,
            "permanent": self.permanent,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ActiveEffect:
        turns = data["turns"]
        magnitude = data["magnitude"]
        assert turns is None or isinstance(turns, int)
        assert isinstance(magnitude, (int, float))
        return cls(str(data["name"]), turns, float(magnitude), bool(data["permanent"]))


@dataclass(frozen=True)
class ApplyResult:
    """The outcome of one application and the other effect involved, if any."""

    outcome: ApplyOutcome
    effect: str
    other: str | None = None


#: Stands in for an absent effect: `(effects.get(name) or NO_EFFECT).magnitude` is 0 then.
NO_EFFECT = ActiveEffect("none", None, 0.0)

EffectTuple = tuple[ActiveEffect, ...]
#: The working form of one creature's effects inside an engine call: name -> effect, in the
#: order of the tuple (an extended effect keeps its place, a new one goes last), so
#: ``tuple(d.values())`` is exactly the tuple the stacking rules define.
EffectDict = dict[str, ActiveEffect]


def _longer(a: int | None, b: int | None) -> int | None:
    # None ("until battle end") outlasts any count.
    if a is None or b is None:
        return None
    return max(a, b)


def _find(effects: EffectTuple, name: str) -> ActiveEffect | None:
    for effect in effects:
        if effect.name == name:
            return effect
    return None


def _check_args(name: str, turns: int | None, magnitude: float | None) -> None:
    # Bad arguments are programming errors (the server validates admin data), not rule refusals.
    plain_turns = turns is None or (type(turns) is int and turns >= 1)
    if plain_turns and magnitude is None and name in DEFAULT_MAGNITUDES:
        return  # the usual case: a known effect, a plain positive count or none, the default strength
    if name not in DEFAULT_MAGNITUDES:
        raise ValueError(f"unknown effect {name!r}")
    if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int) or turns < 1):
        raise ValueError(f"turns must be a positive int or None, got {turns!r}")
    if magnitude is not None and (not math.isfinite(magnitude) or magnitude < 0):
        raise ValueError(f"magnitude must be a finite number >= 0, got {magnitude!r}")


# The outcomes of one application, built once: (outcome, effect, other) never varies otherwise.
_EXTENDED = {name: ApplyResult(ApplyOutcome.EXTENDED, name, name) for name in DEFAULT_MAGNITUDES}
_ADDED = {name: ApplyResult(ApplyOutcome.ADDED, name) for name in DEFAULT_MAGNITUDES}


def apply_into(
    effects: EffectDict,
    name: str,
    *,
    turns: int | None = None,
    magnitude: float | None = None,
    permanent: bool = False,
    magnitudes: Mapping[str, float] = DEFAULT_MAGNITUDES,
) -> ApplyResult:
    """Apply one effect in place to a creature's working effects under the SPEC stacking rules.

    The one implementation of the rules: apply_effect (tuples) and EffectBook wrap it. Nothing
    changes when the outcome is ``blocked``.
    """
    _check_args(name, turns, magnitude)
    strength = float(magnitudes[name] if magnitude is None else magnitude)
    if permanent:
        turns = None

    same = effects.get(name)
    if same is not None:
        lasting = same.permanent or permanent
        effects[name] = ActiveEffect(
            name,
            None if lasting else _longer(same.turns, turns),
            max(same.magnitude, strength),
            lasting,
        )
        return _EXTENDED[name]

    opposite_name = OPPOSITES.get(name)
    opposite = effects.get(opposite_name) if opposite_name else None
    if opposite is not None:
        if opposite.permanent:
            return ApplyResult(ApplyOutcome.BLOCKED, name, opposite.name)
        del effects[opposite.name]
        if permanent:
            # A permanent effect cannot be removed, so it is the opposite that goes.
            effects[name] = ActiveEffect(name, turns, strength, permanent)
            return ApplyResult(ApplyOutcome.REPLACED, name, opposite.name)
        return ApplyResult(ApplyOutcome.CANCELLED, name, opposite.name)

    replacer_name = REPLACED_BY.get(name)
    if replacer_name is not None and replacer_name in effects:
        return ApplyResult(ApplyOutcome.BLOCKED, name, replacer_name)

    replaced_name = REPLACES.get(name)
    replaced = effects.get(replaced_name) if replaced_name else None
    if replaced is not None:
        if replaced.permanent:
            # A permanent effect cannot be replaced; the newcomer cannot sit beside it either.
            return ApplyResult(ApplyOutcome.BLOCKED, name, replaced.name)
        del effects[replaced.name]
        effects[name] = ActiveEffect(name, turns, strength, permanent)
        return ApplyResult(ApplyOutcome.REPLACED, name, replaced.name)

    effects[name] = ActiveEffect(name, turns, strength, permanent)
    return _ADDED[name]


def apply_effect(
    effects: EffectTuple,
    name: str,
    *,
    turns: int | None = None,
    magnitude: float | None = None,
    permanent: bool = False,
    magnitudes: Mapping[str, float] = DEFAULT_MAGNITUDES,
) -> tuple[EffectTuple, ApplyResult]:
    """Apply one effect to a creature's effects under the SPEC stacking rules (pure)."""
    working = {effect.name: effect for effect in effects}
    result = apply_into(working, name, turns=turns, magnitude=magnitude, permanent=permanent,
                        magnitudes=magnitudes)
    if result.outcome is ApplyOutcome.BLOCKED:
        return effects, result
    return tuple(working.values()), result


def tick_into(effects: EffectDict) -> list[str]:
    """The carrier's turn ended: counted durations drop by one in place; returns expired names."""
    expired: list[str] = []
    for effect in tuple(effects.values()):
        turns = effect.turns
        if turns is None:
            continue
        if turns <= 1:
            expired.append(effect.name)
            del effects[effect.name]
        else:
            effects[effect.name] = ActiveEffect(effect.name, turns - 1, effect.magnitude, effect.permanent)
    return expired


def tick_effects(effects: EffectTuple) -> tuple[EffectTuple, tuple[str, ...]]:
    """The carrier's turn ended: counted durations drop by one; returns (left, expired names)."""
    working = {effect.name: effect for effect in effects}
    expired = tick_into(working)
    return tuple(working.values()), tuple(expired)


def magnitude_of(effects: EffectTuple, name: str) -> float:
    """The strength of an effect on a creature, 0 when absent."""
    effect = _find(effects, name)
    return effect.magnitude if effect is not None else 0.0


def has_effect(effects: EffectTuple, name: str) -> bool:
    return _find(effects, name) is not None


class EffectBook:
    """A mutable view over one creature's effects with the exact API of SPEC section 7.

    The engine stores effects as immutable tuples of ActiveEffect; the book wraps one such
    tuple for callers (admin previews, tests, scripts) that prefer a stateful object.
    """

    def __init__(
        self,
        effects: Iterable[ActiveEffect] = (),
        *,
        magnitudes: Mapping[str, float] = DEFAULT_MAGNITUDES,
    ) -> None:
        self._effects: EffectTuple = tuple(effects)
        self._magnitudes = magnitudes
        self.last: ApplyResult | None = None

    def apply(
        self,
        name: str,
        turns: int | None = None,
        magnitude: float | None = None,
        permanent: bool = False,
    ) -> ApplyOutcome:
        """Apply an effect; turns=None lasts until battle end; returns the outcome."""
        self._effects, self.last = apply_effect(
            self._effects,
            name,
            turns=turns,
            magnitude=magnitude,
            permanent=permanent,
            magnitudes=self._magnitudes,
        )
        return self.last.outcome

    def active(self) -> dict[str, ActiveEffect]:
        return {effect.name: effect for effect in self._effects}

    def end_turn(self) -> tuple[str, ...]:
        """The carrier's turn ended: durations tick; returns the names that expired."""
        self._effects, expired = tick_effects(self._effects)
        return expired

    def snapshot(self) -> EffectTuple:
        return self._effects

    def __contains__(self, name: object) -> bool:
        return any(effect.name == name for effect in self._effects)

    def __repr__(self) -> str:
        return f"EffectBook({list(self._effects)!r})"
