"""The table's clock of mode ``labyrinth_paper`` (seed 002, C§9): timer calls, pauses, the game master.

The hosted reading (docs/paper-labyrinth.md, "Deadline, timer and pauses"), the default
(setting ``timer`` "on_call"): a turn has no time limit of its own. Any other seated player may
call the timer on the awaited player, who then has ``MINUTE`` to name the move or loses; each
player may once per game take a thinking pause of ``PAUSE`` before a move (it stops a running
timer), after which the minute runs. When the awaited player has been silent for the table's
``gm_timer_after`` seconds the game master calls the timer itself, so a forgotten match still ends.

Setting ``timer`` "every_turn" is the earlier hosted form: every turn has the mode's deadline and
a missed one loses; nothing is called or paused. Its state has no clock at all, exactly like the
state of a match started before the clock existed, so old matches play and replay as they did.

The clock is part of the mode's state (``PaperState.clock``, a frozen ``Clock``; stored as
``state["clock"]``): ``timer`` (the minute runs for the awaited player), ``paused`` (the awaited
player is in a pause), ``pauses`` (the seats that have used theirs) and ``gm_after``. Every function
here is pure: a clock in, a new clock out; a call or a pause the clock refuses is an ``Impossible``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gamekit.results import Impossible, Success

ON_CALL = "on_call"
EVERY_TURN = "every_turn"
TIMERS = (ON_CALL, EVERY_TURN)
#: C§9: "Если в течение 1 минуты после этого ход не будет назван, игрок объявляется проигравшим"
MINUTE = 60
#: C§9: "любой игрок перед своим ходом может взять 5-минутную паузу на обдумывание хода"
PAUSE = 300
#: how long the game master lets a silent player be before calling the timer (a whole day: no
#: table is kept waiting for ever, yet a slow game agreed on by its players is not cut short)
GM_TIMER_AFTER = 86400
GM_TIMER_LIMITS = (60, 7 * 86400)
TIMER_ACTION = {"type": "timer"}
PAUSE_ACTION = {"type": "pause"}
CLOCK_ACTIONS = ("timer", "pause")

JSON = dict[str, Any]


@dataclass(frozen=True)
class Clock:
    """The table's clock: whether the minute runs, whether the awaited player pauses, who paused already."""

    timer: bool = False
    paused: bool = False
    pauses: tuple[int, ...] = ()
    gm_after: int = GM_TIMER_AFTER

    def to_json(self) -> JSON:
        return {"timer": self.timer, "paused": self.paused, "pauses": list(self.pauses),
                "gm_after": self.gm_after}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Clock:
        return cls(timer=bool(data["timer"]), paused=bool(data["paused"]), pauses=tuple(data["pauses"]),
                   gm_after=int(data["gm_after"]))


def new_clock(settings: Mapping[str, Any]) -> Clock | None:
    """The clock a new game starts with; None for an "every_turn" table.

    A setting missing altogether means "every_turn": the settings of a match opened before the
    clock existed (a new lobby always has the key: the mode's defaults fill it in).
    """
    if settings.get("timer", EVERY_TURN) != ON_CALL:
        return None
    return Clock(gm_after=settings["gm_timer_after"])


def deadline_seconds(clock: Clock | None, seconds: int) -> int:
    """The awaited player's time from the last step: a pause, the minute, or the game master's patience;
    ``seconds`` (the mode's admin deadline) on a table without a clock."""
    if clock is None:
        return seconds
    if clock.paused:
        return PAUSE
    return MINUTE if clock.timer else clock.gm_after


def may_call(clock: Clock | None) -> bool:
    """Whether a seat that is not awaited may call the timer now."""
    return clock is not None and not clock.timer and not clock.paused


def may_pause(clock: Clock | None, seat: int) -> bool:
    """Whether the awaited ``seat`` may take its pause now."""
    return clock is not None and seat not in clock.pauses


def _number(order: Sequence[int], seat: int) -> int:
    """The seat's place in the turn order, the "Игрок N" of the game master's texts."""
    return list(order).index(seat) + 1


def call(clock: Clock | None, order: Sequence[int], caller: int,
         awaited: int) -> Success[Clock, JSON] | Impossible:
    """``caller`` calls the timer on the ``awaited`` seat: the new clock and the public event's data."""
    if clock is None:
        return Impossible("timer_every_turn", "At this table every turn has its deadline: nothing to call.")
    if caller == awaited:
        return Impossible("own_turn", "The timer is called on the awaited player by another player.")
    if clock.paused:
        return Impossible("paused", "The awaited player is thinking in a pause.")
    if clock.timer:
        return Impossible("timer_running", "The timer already runs for the awaited player.")
    number, by = _number(order, awaited), _number(order, caller)
    return Success(replace(clock, timer=True), ({
        "kind": "timer_started", "seat": awaited, "number": number, "by": caller, "by_number": by,
        "seconds": MINUTE},))


def pause(clock: Clock | None, order: Sequence[int], seat: int) -> Success[Clock, JSON] | Impossible:
    """The awaited ``seat`` takes its pause (a running timer stops): the new clock and the event's data."""
    if clock is None:
        return Impossible("timer_every_turn", "At this table every turn has its deadline: no pauses.")
    if seat in clock.pauses:
        return Impossible("pause_used", "Each player takes one pause per game.")
    number = _number(order, seat)
    paused = replace(clock, timer=False, paused=True, pauses=tuple(sorted([*clock.pauses, seat])))
    return Success(paused, ({"kind": "pause_taken", "seat": seat, "number": number, "seconds": PAUSE},))


def expire(clock: Clock | None, order: Sequence[int], seat: int) -> Success[Clock, JSON] | None:
    """The awaited ``seat``'s time ran out before the minute did: the pause is over, or the game master
    waited long enough; either way the minute starts (the new clock and the event's data). None when
    the minute itself ran out (the player loses) or the table has no clock (the deadline loses)."""
    if clock is None or clock.timer:
        return None
    number = _number(order, seat)
    if clock.paused:
        data = {"kind": "pause_over", "seat": seat, "number": number, "seconds": MINUTE}
    else:
        data = {"kind": "timer_started", "seat": seat, "number": number, "by": None, "by_number": None,
                "seconds": MINUTE}
    return Success(replace(clock, timer=True, paused=False), (data,))


def turn_over(clock: Clock | None) -> Clock | None:
    """After a start chosen or a turn played (or lost to the minute): the next wait begins untimed."""
    return None if clock is None else replace(clock, timer=False, paused=False)


def clock_view(clock: Clock | None, seat: int) -> JSON:
    """What every seat knows of the clock (the calls and pauses are public events too)."""
    if clock is None:
        return {"timer": EVERY_TURN}
    return {"timer": ON_CALL, "timer_running": clock.timer, "paused": clock.paused,
            "pause_used": seat in clock.pauses, "gm_timer_after": clock.gm_after}
