"""The one shape of a move's result in every engine and mode: ``Success(state, events)`` or ``Impossible``.

An expected refusal (a wall, an occupied cell, a malformed action) is a value, not an exception:
the caller looks at the result, and nothing changed when it is ``Impossible``. ``kind`` tells a
malformed input ("input", an API's 400) from a move the rules refuse ("rule", a 409); the web
layer turns an ``Impossible`` into its error in one place (``backend.errors.refused``).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeAlias, TypeVar

S = TypeVar("S")
E = TypeVar("E")

#: "input": the request is malformed (the same request can never succeed); "rule": the rules refuse it now
Refusal: TypeAlias = Literal["input", "rule"]


@dataclass(frozen=True)
class Success(Generic[S, E]):
    """The move applied: the new state (the old one is unchanged) and the events it produced, in order."""

    state: S
    events: tuple[E, ...] = ()
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class Impossible:
    """A refused move; nothing changed. ``code`` is stable and machine-readable (the API's error code),
    ``message`` a sentence for people, ``details`` JSON facts that help the client (never a secret)."""

    code: str
    message: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)
    kind: Refusal = "rule"
    ok: ClassVar[bool] = False

    @property
    def reason(self) -> str:
        """The code under the combat engine's older name."""
        return self.code


Result: TypeAlias = Success[S, E] | Impossible
