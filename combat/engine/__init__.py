"""Pure combat rules engine: turn order, actions, damage and effects (no Django)."""
from __future__ import annotations

from combat.engine.effects import (
    DEFAULT_MAGNITUDES,
    EFFECTS,
    OPPOSITES,
    REPLACES,
    ActiveEffect,
    ApplyOutcome,
    EffectBook,
    apply_effect,
    tick_effects,
)

__all__ = [
    "DEFAULT_MAGNITUDES",
    "EFFECTS",
    "OPPOSITES",
    "REPLACES",
    "ActiveEffect",
    "ApplyOutcome",
    "EffectBook",
    "apply_effect",
    "tick_effects",
]
