"""The turn protocol of battles and matches: deadlines, stale turns, idempotent retries, one action per turn.

A turn-based object (a battle, a match) is a row that stores its current ``turn`` number, the
player it ``awaits`` and when that player's turn started. Its app describes it with a
``TurnTable`` (how to find and lock the row, how to take a step, time a turn out, record an
action); the three functions below are the whole protocol, the same for every game:

- ``turn_refresh``: a read. Every passed deadline is applied first (the deadline clock,
  ``backend/deadlines.py``, may not have come to it yet: the result is the same whoever applies
  it), taking the locks only when a deadline has passed.
- ``turn_act``: one action. Under the row lock: a repeated idempotency key gets the original
  answer; passed deadlines are applied; an action for any turn but the current one is 409
  ``stale_turn``; the step is taken and recorded; the table's unique (object, turn) row is the
  backstop that makes a second effect for one turn impossible.
- ``deadlines_apply``: deadlines chain: a timed-out player's successor starts its turn at the
  moment the deadline passed, so a silent table times out exactly as if a clock had run.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic

from django.db import IntegrityError, transaction
from django.utils import timezone
from typing_extensions import TypeVar

from backend.errors import DomainError, RuleViolation

Row = TypeVar("Row")
#: Who acts: the apps' player. The protocol only passes it on to the table, so the plumbing names no app
#: (an app's table may say ``TurnTable[Battle, Player]``; ``TurnTable[Battle]`` leaves it unchecked).
Actor = TypeVar("Actor", default=Any)


@dataclass(frozen=True)
class Taken:
    """A step the table took for an action: the answer, the action JSON to record, and a follow-up.

    ``then`` runs after the action row is recorded, inside the same transaction (e.g. a battle
    hands its events to the run).
    """

    response: dict[str, Any]
    action: dict[str, Any]
    then: Callable[[], None] | None = None


@dataclass(frozen=True)
class TurnOutcome(Generic[Row]):
    """What an action request got: the locked row, the response body, and whether it was replayed."""

    row: Row
    response: dict[str, Any]
    replayed: bool = False


class TurnTable(ABC, Generic[Row, Actor]):
    """How one kind of turn-based row plugs into the shared protocol."""

    #: the word used in messages ("battle", "match")
    noun: str

    @abstractmethod
    def read(self, object_id: int, player: Actor) -> Row:
        """The row without locks, or NotFound when it does not exist or the player may not see it."""

    @abstractmethod
    def lock(self, object_id: int, player: Actor) -> Row:
        """The row locked for update (inside a transaction), or NotFound as in ``read``."""

    @abstractmethod
    def deadline_seconds(self, row: Row) -> int | None:
        """How long the awaited player has for a turn; None: the turn has no deadline."""

    @abstractmethod
    def waiting_since(self, row: Row) -> datetime | None:
        """When the awaited player's turn started; None when nobody is awaited (or it is over)."""

    @abstractmethod
    def current_turn(self, row: Row) -> int:
        """The turn number an action must name."""

    @abstractmethod
    def over_error(self, row: Row) -> RuleViolation | None:
        """The refusal for an action when the game is over; None while it goes on."""

    @abstractmethod
    def time_out(self, row: Row, *, deadline: datetime) -> None:
        """The awaited player's deadline passed: record and persist the timeout step.

        The next awaited player's turn starts at ``deadline``.
        """

    @abstractmethod
    def replayed_response(self, row: Row, player: Actor, key: str) -> dict[str, Any] | None:
        """The stored answer of the player's earlier action with this idempotency key, if any."""

    @abstractmethod
    def parse(self, row: Row, player: Actor, action: Mapping[str, Any]) -> Any:
        """The action checked for shape (InvalidInput, a 400, before any turn rule)."""

    @abstractmethod
    def take(self, row: Row, player: Actor, action: Any, *, now: datetime) -> Taken:
        """Apply the action for the current turn (a refusal changes nothing) and persist the new state,
        here or in ``record`` (a battle writes the step and its action row in one statement)."""

    @abstractmethod
    def record(
        self,
        row: Row,
        player: Actor,
        *,
        turn: int,
        action: dict[str, Any],
        key: str,
        response: dict[str, Any],
    ) -> None:
        """Create the action row (unique per object and turn: the backstop against a second effect), with
        the step's own writes if ``take`` left them to it."""


def turn_deadline(table: TurnTable[Row, Actor], row: Row) -> datetime | None:
    """When the awaited player's turn times out; None when nobody is awaited or the turn has no deadline."""
    started = table.waiting_since(row)
    if started is None:
        return None
    seconds = table.deadline_seconds(row)
    return None if seconds is None else started + timedelta(seconds=seconds)


def deadlines_apply(table: TurnTable[Row, Actor], row: Row, *, now: datetime) -> int:
    """Time out every turn whose deadline has passed (holding the row lock); returns turns skipped."""
    skipped = 0
    while True:
        deadline = turn_deadline(table, row)
        if deadline is None or deadline > now:
            return skipped
        table.time_out(row, deadline=deadline)
        skipped += 1


def turn_refresh(
    table: TurnTable[Row, Actor], *, object_id: int, player: Actor, now: datetime | None = None
) -> Row:
    """The row for a reader, after applying passed deadlines.

    A plain read when no deadline has passed; only then the locks are taken (and the check
    repeated under them), so readers of a live game never queue behind each other.
    """
    now = now or timezone.now()
    row = table.read(object_id, player)
    deadline = turn_deadline(table, row)
    if deadline is None or deadline > now:
        return row
    with transaction.atomic():
        row = table.lock(object_id, player)
        deadlines_apply(table, row, now=now)
    return row


def _stale(noun: str, details: dict[str, Any]) -> RuleViolation:
    return RuleViolation("stale_turn", f"That turn has passed; reload the {noun}.", details)


@transaction.atomic
def turn_act(
    table: TurnTable[Row, Actor],
    *,
    object_id: int,
    player: Actor,
    turn: int,
    action: Mapping[str, Any],
    idempotency_key: str = "",
    now: datetime | None = None,
    key_checked: bool = False,
) -> TurnOutcome[Row]:
    """Take the player's action for turn ``turn`` (the turn the client saw).

    - A retry with an idempotency key the player already used here gets the original answer.
    - The action's shape is checked (400), passed deadlines are applied; then a finished game
      refuses, and a ``turn`` other than the current one is 409 ``stale_turn``.
    - The row lock serialises concurrent requests; the unique (object, turn) action row makes a
      second effect for one turn impossible even if two requests got past it (they cannot).
    - ``key_checked``: the caller looked the key up and found no answer, before the lock or in the
      locking statement itself (one statement fewer under the lock). A duplicate that committed
      before the lock was taken has moved the turn on, so this request is refused; the key is
      looked up again then, and the original answer given, exactly as if it had been found first.
    """
    return turn_act_locked(table, table.lock(object_id, player), player=player, turn=turn, action=action,
                           idempotency_key=idempotency_key, now=now, key_checked=key_checked)


def turn_act_locked(
    table: TurnTable[Row, Actor],
    row: Row,
    *,
    player: Actor,
    turn: int,
    action: Mapping[str, Any],
    idempotency_key: str = "",
    now: datetime | None = None,
    key_checked: bool = False,
) -> TurnOutcome[Row]:
    """``turn_act`` on a row the caller locked in its own transaction (``table.lock`` or an equivalent
    statement of its own, e.g. one that also checks who may act and looks the key up)."""
    now = now or timezone.now()
    if idempotency_key and not key_checked:
        previous = table.replayed_response(row, player, idempotency_key)
        if previous is not None:
            return TurnOutcome(row, previous, replayed=True)
    try:
        return _take(table, row, player, turn, action, idempotency_key, now)
    except DomainError:
        if not (idempotency_key and key_checked) or transaction.get_connection().needs_rollback:
            raise
        previous = table.replayed_response(row, player, idempotency_key)
        if previous is None:
            raise
        return TurnOutcome(row, previous, replayed=True)


def _take(
    table: TurnTable[Row, Actor], row: Row, player: Actor, turn: int, action: Mapping[str, Any],
    idempotency_key: str, now: datetime,
) -> TurnOutcome[Row]:
    parsed = table.parse(row, player, action)
    deadlines_apply(table, row, now=now)
    over = table.over_error(row)
    if over is not None:
        raise over
    current = table.current_turn(row)
    if turn != current:
        raise _stale(table.noun, {"turn": turn, "current_turn": current})
    taken = table.take(row, player, parsed, now=now)
    try:
        # No savepoint: a failed insert dooms the whole request anyway, and the refusal below rolls it back.
        with transaction.atomic(savepoint=False):
            table.record(
                row, player, turn=current, action=taken.action, key=idempotency_key, response=taken.response
            )
    except IntegrityError as exc:  # unreachable while the lock holds; the constraint is the backstop
        raise _stale(table.noun, {"turn": turn}) from exc
    if taken.then is not None:
        taken.then()
    return TurnOutcome(row, taken.response)
