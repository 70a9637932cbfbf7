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

The clock is part of the mode's state JSON (``state["clock"]``): ``timer`` (the minute runs for
the awaited player), ``paused`` (the awaited player is in a pause), ``pauses`` (the seats that have
used theirs) and ``gm_after``. Every function here is pure: a state in, a new state out.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


class ClockRefused(Exception):
    """A call or a pause the clock refuses now: ``code`` is the API's 409 code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def new_clock(settings: Mapping[str, Any]) -> JSON | None:
    """The clock a new game starts with; None for an "every_turn" table.

    A setting missing altogether means "every_turn": the settings of a match opened before the
    clock existed (a new lobby always has the key: the mode's defaults fill it in).
    """
    if settings.get("timer", EVERY_TURN) != ON_CALL:
        return None
    return {"timer": False, "paused": False, "pauses": [], "gm_after": settings["gm_timer_after"]}


def _clock(state: Mapping[str, Any]) -> JSON | None:
    clock: JSON | None = state.get("clock")
    return clock


def deadline_seconds(state: Mapping[str, Any], seconds: int) -> int:
    """The awaited player's time from the last step: a pause, the minute, or the game master's patience;
    ``seconds`` (the mode's admin deadline) on a table without a clock."""
    clock = _clock(state)
    if clock is None:
        return seconds
    if clock["paused"]:
        return PAUSE
    return MINUTE if clock["timer"] else int(clock["gm_after"])


def may_call(state: Mapping[str, Any]) -> bool:
    """Whether a seat that is not awaited may call the timer now."""
    clock = _clock(state)
    return clock is not None and not clock["timer"] and not clock["paused"]


def may_pause(state: Mapping[str, Any], seat: int) -> bool:
    """Whether the awaited ``seat`` may take its pause now."""
    clock = _clock(state)
    return clock is not None and seat not in clock["pauses"]


def _number(state: Mapping[str, Any], seat: int) -> int:
    """The seat's place in the turn order, the "Игрок N" of the game master's texts."""
    return int(state["order"].index(seat)) + 1


def _with(state: Mapping[str, Any], **changes: Any) -> JSON:
    clock = _clock(state)
    assert clock is not None
    return {**state, "clock": {**clock, **changes}}


def call(state: Mapping[str, Any], caller: int, awaited: int) -> tuple[JSON, JSON]:
    """``caller`` calls the timer on the ``awaited`` seat: the new state and the public event's data."""
    clock = _clock(state)
    if clock is None:
        raise ClockRefused("timer_every_turn", "At this table every turn has its deadline: nothing to call.")
    if caller == awaited:
        raise ClockRefused("own_turn", "The timer is called on the awaited player by another player.")
    if clock["paused"]:
        raise ClockRefused("paused", "The awaited player is thinking in a pause.")
    if clock["timer"]:
        raise ClockRefused("timer_running", "The timer already runs for the awaited player.")
    number, by = _number(state, awaited), _number(state, caller)
    return _with(state, timer=True), {
        "kind": "timer_started", "seat": awaited, "number": number, "by": caller, "by_number": by,
        "seconds": MINUTE, "text": f"Игрок {by} потребовал хронометраж: у Игрока {number} минута на ход."}


def pause(state: Mapping[str, Any], seat: int) -> tuple[JSON, JSON]:
    """The awaited ``seat`` takes its pause (a running timer stops): the new state and the event's data."""
    clock = _clock(state)
    if clock is None:
        raise ClockRefused("timer_every_turn", "At this table every turn has its deadline: no pauses.")
    if seat in clock["pauses"]:
        raise ClockRefused("pause_used", "Each player takes one pause per game.")
    number = _number(state, seat)
    paused = _with(state, timer=False, paused=True, pauses=sorted([*clock["pauses"], seat]))
    return paused, {"kind": "pause_taken", "seat": seat, "number": number, "seconds": PAUSE,
                    "text": f"Игрок {number} взял 5-минутную паузу на обдумывание хода."}


def expire(state: Mapping[str, Any], seat: int) -> tuple[JSON, JSON] | None:
    """The awaited ``seat``'s time ran out before the minute did: the pause is over, or the game master
    waited long enough; either way the minute starts (the new state and the event's data). None when
    the minute itself ran out (the player loses) or the table has no clock (the deadline loses)."""
    clock = _clock(state)
    if clock is None or clock["timer"]:
        return None
    number = _number(state, seat)
    if clock["paused"]:
        data = {"kind": "pause_over", "seat": seat, "number": number, "seconds": MINUTE,
                "text": f"Пауза Игрока {number} окончена: у него минута на ход."}
    else:
        data = {"kind": "timer_started", "seat": seat, "number": number, "by": None, "by_number": None,
                "seconds": MINUTE, "text": f"Ведущий начал хронометраж: у Игрока {number} минута на ход."}
    return _with(state, timer=True, paused=False), data


def turn_over(state: JSON) -> JSON:
    """After a start chosen or a turn played (or lost to the minute): the next wait begins untimed."""
    return state if _clock(state) is None else _with(state, timer=False, paused=False)


def clock_view(state: Mapping[str, Any], seat: int) -> JSON:
    """What every seat knows of the clock (the calls and pauses are public events too)."""
    clock = _clock(state)
    if clock is None:
        return {"timer": EVERY_TURN}
    return {"timer": ON_CALL, "timer_running": clock["timer"], "paused": clock["paused"],
            "pause_used": seat in clock["pauses"], "gm_timer_after": clock["gm_after"]}
