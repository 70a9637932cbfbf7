"""The run-kind extension point of the run services: what a run kind built on dungeons may change.

The run machinery (``dungeons/services.py``, ``dungeons/selectors.py``) handles every run kind the
same way (lobby, party, formation, battles, loot, deaths, endings) and knows nothing of any app
built on it. A run kind with rules of its own (the Labyrinth of Darkness, ``darkness/``) subclasses
``RunKindHooks``, overriding only what it changes, and registers it in its ``AppConfig.ready()``::

    from dungeons.kinds import register_run_kind
    register_run_kind(DungeonKind.DARKNESS, DarknessHooks())

so dungeons imports no app built on it (no import cycle). A kind with no registered hooks (ordinary,
frenzy) gets the no-op defaults. Every hook runs inside the caller's transaction with the run row
locked (select_for_update), and may raise the usual ``backend.errors`` exceptions to refuse. A hook
works on the run's step (``dungeons.runs.RunStep``: the run as loaded, changed and logged in memory,
saved by the caller with the rest of the step) and uses only the public functions of ``dungeons.runs``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.db.models import Model

    from dungeons.runs.store import MemberRow, RunRow, RunStep
    from players.models import Player


class RunKindHooks:
    """One run kind's departures from the ordinary run rules. The defaults change nothing."""

    #: True: beating a boss completes the run at once (not only the last room's boss)
    boss_completes_run: bool = False
    #: A row of the kind's own that its run's steps work on: its model (with a ``run`` key to the run) and
    #: the foreign keys to read with it. The run's store reads it with the run's members where it can
    #: (``RunStep.held``, under the model's label); the kind reads it itself otherwise.
    own_row: tuple[type[Model], tuple[str, ...]] | None = None

    def seat_check(self, *, step: RunStep, player: Player, opening: bool) -> None:
        """``run_open`` (``opening``: the lobby not saved yet, the host's seat) and ``run_join``:
        raise to refuse the player a seat. May set columns of a lobby being opened."""

    def unseated(self, *, step: RunStep, members: list[MemberRow]) -> list[MemberRow]:
        """``run_start`` (host checked), before the party's choices are checked: the members of the lobby
        who may no longer go in. They are sent out of the lobby (as if they had left) and the run
        starts without them; raise to refuse the start instead."""
        return []

    def start(self, *, step: RunStep, members: list[MemberRow]) -> bool:
        """``run_start`` (host checked, weapons chosen): start the run here on the step and return True,
        or False for the ordinary start (generate a dungeon and enter its first room)."""
        return False

    def advance_check(self, *, step: RunStep) -> None:
        """``run_advance``, before any ordinary check: raise to refuse advancing in this kind."""

    def escape_check(self, *, step: RunStep) -> None:
        """``run_escape``, before the ordinary room check: raise to refuse, or tidy up before leaving."""

    def member_leaving(self, *, step: RunStep, member: MemberRow) -> None:
        """A member is leaving the run (dying, fleeing, escaping with the party), their player row locked,
        before the death or escape rules take their share of what they carry."""

    def member_left(self, *, step: RunStep) -> None:
        """A member of the run died or escaped (after it is recorded on the step)."""

    def run_ending(self, *, step: RunStep) -> None:
        """The run is about to end for the party (completed, escaped or failed)."""

    def run_view(self, *, run: RunRow, player: Player) -> dict[str, Any] | None:
        """The run view's kind-specific state (the ``darkness`` field of ``RunOutput``); None: none."""
        return None

    def allowed_actions(self, *, run: RunRow, kind_view: Any, allowed: list[dict[str, Any]],
                        walking: bool) -> list[dict[str, Any]]:
        """The run view's ``allowed_actions`` in this kind: ``allowed``, the ordinary runs' (advance,
        escape, drink, take_loot); ``kind_view``, what ``run_view`` returned; ``walking``, the reader is
        inside an active run whose room is done (the party may go on). No statement: what it needs is
        in ``kind_view``."""
        return allowed


_DEFAULT = RunKindHooks()
_REGISTRY: dict[str, RunKindHooks] = {}


def register_run_kind(kind: str, hooks: RunKindHooks) -> RunKindHooks:
    """Register a kind's hooks (from its app's ``AppConfig.ready()``); registering again replaces them."""
    _REGISTRY[kind] = hooks
    return hooks


def run_kind_hooks(kind: str) -> RunKindHooks:
    """The hooks of a run kind: the registered ones, or the no-op defaults."""
    return _REGISTRY.get(kind, _DEFAULT)
