"""How members leave a run and how it ends: death through Charon, escape with losses, completion, and the
end of a run nobody is left inside. Frozen values in, the changes and log entries out."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from dungeons.runs.engine.log import Completed, Died, LogEntry, MemberEscaped, RunEscaped, RunFailed
from dungeons.runs.engine.rules import RunRules, charon_fee, escape_loss_percent, escape_losses
from dungeons.runs.engine.values import (
    COMPLETED,
    DEAD,
    ESCAPED,
    FAILED,
    FINISHED,
    IN_DUNGEON,
    RUN_ESCAPED,
    Changed,
    Place,
)

T = TypeVar("T")


@dataclass(frozen=True)
class Departure(Generic[T]):
    """A member out of the run: their columns, the log entry, and what they lose: (an escape) the carried
    items, (a death) Charon's fee."""

    change: Changed
    entry: LogEntry
    lost: tuple[T, ...] = ()
    fee: int = 0


def death(*, player_id: int, money: int, items_of_run: int, rules: RunRules) -> Departure[int]:
    """Out of the run at 0 HP: Charon respawns the player for ``charon_fee`` of their money and every item
    collected in this run (``items_of_run`` of them)."""
    fee = charon_fee(money=money, rules=rules)
    change = Changed(player_id, {"status": DEAD, "active": False, "hp": 0, "money_lost": fee,
                                 "items_lost": items_of_run})
    return Departure(change, Died(player=player_id, charon_fee=fee, items_lost=items_of_run), fee=fee)


def escape(*, player_id: int, stats: Mapping[str, int], carried: Sequence[T], place: Place, purpose: str,
           rules: RunRules) -> Departure[T]:
    """Out of the run alive, losing the loss fraction of everything carried (``carried`` in the order of
    their ids), chosen from the stream ``{purpose}/{player}`` of the room."""
    percent = escape_loss_percent(luck=int(stats.get("luck", 0)),
                                  attentiveness=int(stats.get("attentiveness", 0)), rules=rules)
    lost = escape_losses(carried, percent=percent, rng=place.stream(f"{purpose}/{player_id}"))
    change = Changed(player_id, {"status": ESCAPED, "active": False, "items_lost": len(lost)})
    return Departure(change, MemberEscaped(player=player_id, loss_percent=percent, items_lost=len(lost)),
                     tuple(lost))


@dataclass(frozen=True)
class RunEnd:
    """How a run ended (its status) and the log entry saying so."""

    status: str
    entry: LogEntry


def party_gone(statuses: Sequence[str]) -> RunEnd | None:
    """Nobody is left inside (``statuses``: every member's): the run failed, or ended by escape if someone
    got out alive; None while anyone is inside."""
    if IN_DUNGEON in statuses:
        return None
    if ESCAPED in statuses:
        return RunEnd(RUN_ESCAPED, RunEscaped())
    return RunEnd(FAILED, RunFailed())


@dataclass(frozen=True)
class Completion:
    """The last boss fell: the members inside finish (each counts a completed dungeon), and the NPC with
    the party, if alive and the party one guild's, is rescued (``rescued``: its kind)."""

    changes: tuple[Changed, ...]
    rescued: str | None
    end: RunEnd


def completion(*, party: Sequence[int], npc_kind: str, npc_alive: bool, one_guild: bool) -> Completion:
    rescued = npc_kind if npc_kind and npc_alive and one_guild else None
    changes = tuple(Changed(player_id, {"status": FINISHED, "active": False}) for player_id in party)
    return Completion(changes, rescued, RunEnd(COMPLETED, Completed(party=list(party), rescued=rescued)))
