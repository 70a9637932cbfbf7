"""Seed 002's protocol between the host and the rules engine: options, requests, answers.

A player's request for their turn is one ``Turn`` (a tuple of steps plus how much of the answer to
report); ``Status`` and ``Repeat`` are free queries that never use the turn. The engine answers with
``Message`` values (every one public: the host shows all of them to every seat), refuses a request
that is malformed for the turn with an ``Impossible`` value (nothing changes), and reports the end
with ``Result``.

Classic turn (C§2.1): exactly one movement (``Move``, ``Downstream``, ``Cycle``) plus any number of
``Shoot``, ``Grenade``, ``Throw`` and ``PlaceMine`` in any order before or after it; conditional
steps (``Conditional``) hold only such non-movement actions. A ``Skip`` is a whole turn on its own.
Quantum turn (Q§2.1): exactly one step, any of the above except ``Conditional``; ``Shoot(None)`` is
the shot "into my own cell". Positions (``Pos``) appear only in the secret re-order choice.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, TypeAlias

from labyrinth.engine.grid import Direction
from paper_labyrinth.engine.model import Pos

JSONValue: TypeAlias = Any
"""Anything ``json.dumps`` takes (None, bool, int, str, lists and str-keyed dicts of those)."""


class Item(Enum):
    """What can be carried, left, thrown or found. A mine here is always an unarmed one."""

    BULLET = "bullet"
    GRENADE = "grenade"
    MINE = "mine"
    TREASURE = "treasure"
    CORPSE = "corpse"


class Visibility(Enum):
    """How much of the answer the game master reports (C§6.7-6.8, Q§6.6-6.7)."""

    NORMAL = "normal"
    DARK = "dark"            # "результат не сообщать": only "Есть" (the request is acknowledged)
    HALF_DARK = "half_dark"  # only "стенки нет" / "нельзя, стенка" for the movement


class Condition(Enum):
    """What a conditional step may test: facts the game master has determined so far in this turn.

    Movement facts (the last movement of the turn): ``wall`` / ``no_wall`` (the step was blocked /
    not), the reported cell kind (``land`` .. ``mouth``; an immune player's encephalitis cell counts
    as land, as the game master reports it), ``found_*`` (the arrival report found that item; a
    treasure counts when one lay there). Before the movement every movement fact is false.
    Shot facts: ``scream`` / ``no_scream``: whether any shot of this turn so far was answered by a
    scream (``no_scream`` is false before the first shot).
    """

    WALL = "wall"
    NO_WALL = "no_wall"
    LAND = "land"
    HOSPITAL = "hospital"
    ARSENAL = "arsenal"
    HOLE = "hole"
    RIVER = "river"
    MOUTH = "mouth"
    ENCEPHALITIS = "encephalitis"
    FOUND_ANYTHING = "found_anything"
    FOUND_TREASURE = "found_treasure"
    FOUND_BULLETS = "found_bullets"
    FOUND_GRENADES = "found_grenades"
    FOUND_MINE = "found_mine"
    FOUND_CORPSE = "found_corpse"
    SCREAM = "scream"
    NO_SCREAM = "no_scream"


# --- steps -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """A movement: one step left, right, up or down (from any cell)."""

    direction: Direction


@dataclass(frozen=True)
class Downstream:
    """A movement: the "ход по течению" (only from a river cell, never from a mouth)."""


@dataclass(frozen=True)
class Cycle:
    """A movement: the "ход по циклу" to the next hole of the cycle (only from a hole)."""


@dataclass(frozen=True)
class Skip:
    """The whole turn skipped (C§6.6). Classic: alone in the turn; quantum: the one action."""


@dataclass(frozen=True)
class Shoot:
    """One bullet in a direction; ``None`` = into the own cell (quantum only)."""

    direction: Direction | None


@dataclass(frozen=True)
class Grenade:
    """A grenade at the wall on one side of the player's cell."""

    direction: Direction


@dataclass(frozen=True)
class Throw:
    """Leave (``direction=None``) or throw one item to a neighbouring cell. Mines are unarmed."""

    item: Item
    direction: Direction | None = None


@dataclass(frozen=True)
class PlaceMine:
    """Arm a carried mine and place it on the own cell (``None``) or the neighbour in ``direction``."""

    direction: Direction | None = None


@dataclass(frozen=True)
class Conditional:
    """Classic only: do ``then`` (non-movement actions, possibly nested conditionals) if ``condition``
    holds at this point of the turn (see ``Condition``)."""

    condition: Condition
    then: tuple[Step, ...]


Movement: TypeAlias = Move | Downstream | Cycle
Action: TypeAlias = Shoot | Grenade | Throw | PlaceMine
Step: TypeAlias = Move | Downstream | Cycle | Skip | Shoot | Grenade | Throw | PlaceMine | Conditional
MOVEMENTS = (Move, Downstream, Cycle)
ACTIONS = (Shoot, Grenade, Throw, PlaceMine)


@dataclass(frozen=True)
class Reorder:
    """The secret re-order choice (classic, C§5.5): the cell a wounded player continues from.

    Allowed only in the first turn after a wound, while re-orders are left; placed before the
    turn's steps, with no arrival effect on that cell. Never reported (only "перезаказ" is)."""

    cell: Pos


@dataclass(frozen=True)
class Turn:
    """A player's whole request for their turn.

    ``treasure``: the answer to "which treasure do you keep?" stated in advance (C§5.8): ``None``
    keeps the carried treasure, or takes the top one of the stack if none is carried (the default
    auto-pickup); ``0`` takes no treasure at all (C§3.3 "may leave it"); ``k >= 1`` takes the k-th
    from the bottom of the found stack (the top one if the stack is lower), leaving a carried one
    on top of the stack. A dark turn always keeps the old one (C§6.7). ``refill=False`` declines the
    arsenal's refill (C§4.3 "unless he asked otherwise")."""

    steps: tuple[Step, ...]
    visibility: Visibility = Visibility.NORMAL
    reorder: Reorder | None = None
    treasure: int | None = None
    refill: bool = True


@dataclass(frozen=True)
class Status:
    """Free query (C§6.4): the asking player's own health, inventory and counters."""


@dataclass(frozen=True)
class Repeat:
    """Free query (C§6.3): the game master repeats the last answer of player ``seat``."""

    seat: int


Request: TypeAlias = Turn | Status | Repeat


# --- answers -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """One answer of the game master. ``seat``: the player it is about (who acted, or the victim
    announced on their turn); ``code``: machine-readable; ``text``: the seed's Russian phrase;
    ``data``: public facts only (counts, kinds), never positions, hole numbers or wall kinds."""

    seat: int
    code: str
    text: str
    data: dict[str, JSONValue]

    def to_json(self) -> dict[str, JSONValue]:
        return {"seat": self.seat, "code": self.code, "text": self.text, "data": self.data}


@dataclass(frozen=True)
class Result:
    """The end of the game: ``kind`` "win" (``seat`` the winner) or "draw" (``seat`` None)."""

    kind: Literal["win", "draw"]
    seat: int | None
    reason: str


# --- options -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """What the table agreed before the game (C§7, Q§7). ``Options.for_variant`` gives the seed's
    defaults of each variant; every field may be overridden.

    cure_time: effective moves a sick player has to reach a hospital (None = unlimited; quantum
    has no timer by default). nstop: rounds without an irreversible change before a draw (None:
    ``new_game`` fills in the map's cell count, C§3.6 "обычно"). river_mode: "deep" (classic)
    or "shallow" (quantum). shot_range: None (until an obstacle, classic) or 1 (quantum). reorders:
    re-orders after a wound (classic: N-1 for N players, None = that default; quantum: 0).
    mine_victims_reorder: False = C§7.5. no_skip_or_repeat: C§7.7 forbids skipping and repeating a
    request that was answered with a wall. last_survivor_turns: C§7.9 (None = killing everyone
    wins at once). grenade_reports: report the blast result ("стенка
    взорвалась" ...), quantum's rule (Q§5.4); classic reports only the grenades spent."""

    variant: Literal["classic", "quantum"] = "classic"
    cure_time: int | None = 5
    nstop: int | None = None
    starting_bullets: int = 3
    starting_grenades: int = 3
    starting_mines: int = 0
    allow_conditional: bool = True
    allow_dark: bool = True
    allow_half_dark: bool = True
    allow_throw: bool = True
    allow_adjacent_mines: bool = True
    river_mode: Literal["deep", "shallow"] = "deep"
    shot_range: int | None = None
    reorders: int | None = None
    mine_victims_reorder: bool = True
    no_skip_or_repeat: bool = False
    last_survivor_turns: int | None = None
    grenade_reports: bool = False

    @classmethod
    def for_variant(cls, variant: Literal["classic", "quantum"], **changes: object) -> Options:
        base: dict[str, object] = {"variant": variant}
        if variant == "quantum":
            base.update(cure_time=None, river_mode="shallow", shot_range=1, reorders=0,
                        allow_conditional=False, grenade_reports=True)
        base.update(changes)
        return cls(**base)  # type: ignore[arg-type]
