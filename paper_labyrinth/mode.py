"""Seed 002's paper Labyrinth hosted as match mode ``labyrinth_paper`` (SPEC 9.4, issue 18).

2-5 players, variant ``classic`` or ``quantum``; the server is the game master (the rules engine
``paper_labyrinth.engine.rules``). docs/paper-labyrinth.md ("Hosting") describes the hosted form:

- **Settings** (``validate_settings``): the variant, the map (a designer map's id, or null: a map of
  ``rows`` x ``cols`` generated from the match seed for the number of seats), how starts are chosen,
  ``cure_time``, ``nstop``, ``starting_mines`` and the table options of C§7 the engine supports. An
  option left null takes the variant's default from the seed.
- **Starts** (C§6.1): with ``starts`` "chosen" (the default) each player first posts
  ``{"type": "start", "cell": k}`` in turn order, ``k`` an anonymous index into the outline (the
  player's empty plan); nobody else learns it (the framework's ``SecretStart`` phase). "random":
  distinct cells drawn from the seed. Then the game master announces each player's cell type (C§6.2).
- **Turns**: ``{"type": "turn", "steps": [...], ...}`` (paper_labyrinth/actions.py), one shape for
  both variants; the engine refuses a turn malformed for the variant (409 with its code).
- **Information**: every answer of the game master is a public event; the view shows the caller's
  own status, the outline and the public record; nothing else of the map or of positions.
- **Clock** (C§9, paper_labyrinth/clock.py): by default no turn has a time limit until another
  player calls the timer (``{"type": "timer"}``, sent out of turn) or the game master does after a
  long silence; then the awaited player has a minute or loses (the engine's ``timeout``; a missed
  start choice draws a start instead). Each player may once per game take a five-minute pause
  (``{"type": "pause"}``). Setting ``timer`` "every_turn" keeps the minute (the mode's deadline)
  on every turn instead. The clock's actions are the game's in every phase (boardgame.io's
  game-level moves): the adapter adds them around the current phase's.
- **State**: a frozen ``PaperState`` (the map parsed once per process, the engine's ``GameState``
  once the game began, the ``Clock``), stored as the JSON it always was.

Seats and numbers: the engine's seat ``e`` is the ``e``-th player in the turn order (its texts say
"Игрок e+1"); the match seat is ``order[e]``. Events carry both (``seat``, ``number``).
"""
from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from gamekit.pictures import LegendEntry
from gamekit.results import Impossible, Success
from matches.modes import (
    DIRECTION,
    FLAG,
    JSON,
    TEXT,
    WHOLE,
    Event,
    ModeAdapter,
    Moved,
    Outcome,
    Phase,
    SecretStart,
    StartRules,
    array,
    boolean,
    choice,
    either,
    events,
    integer,
    mapping,
    nullable,
    shape,
)
from paper_labyrinth import clock as paper_clock
from paper_labyrinth.actions import (
    CONDITIONS,
    HERE,
    ITEMS,
    MAX_DEPTH,
    ActionFormatError,
    cell_index,
    public_request,
    turn_from_json,
)
from paper_labyrinth.clock import CLOCK_ACTIONS, PAUSE_ACTION, TIMER_ACTION, Clock
from paper_labyrinth.engine import rules
from paper_labyrinth.engine.bots import BOTS
from paper_labyrinth.engine.generator import MAX_SIDE as GEN_MAX_SIDE
from paper_labyrinth.engine.generator import MIN_SIDE as GEN_MIN_SIDE
from paper_labyrinth.engine.mapformat import format_paper_map, parse_paper_map
from paper_labyrinth.engine.model import CellType, PaperMap, Pos
from paper_labyrinth.engine.requests import JSONValue, Message, Options, Turn
from paper_labyrinth.engine.state import GameState, map_to_json, state_from_json, state_to_json
from paper_labyrinth.engine.svg import paper_map_svg
from paper_labyrinth.legend import map_legend
from paper_labyrinth.texts import event_text, spoken

MAX_ID = 2**31 - 1
PICTURE_CELL = 44
VARIANTS = ("classic", "quantum")
STARTS = ("chosen", "random")
UNLIMITED = "unlimited"
#: the section-7 options a table agrees on, each null (the variant's default) or a value the check allows
BOOL_OPTIONS = ("allow_conditional", "allow_dark", "allow_half_dark", "allow_throw", "allow_adjacent_mines",
                "mine_victims_reorder", "no_skip_or_repeat", "grenade_reports")
LIMITS = {"cure_time": (1, 1000), "nstop": (1, 100_000), "reorders": (0, 4), "last_survivor_turns": (1, 1000)}
#: keys of the engine's message data that name engine seats (converted to match seats in events)
SEAT_KEYS = ("wounded", "killed", "of")
#: stored maps kept parsed per process (a few kilobytes each; a match reads its map on every call)
MAP_CACHE_SIZE = 256
#: each setting's JSON Schema (``validate_settings`` checks them, and that rows and cols are both null or both
#: given); null in an option of C§7: the variant's default
SETTINGS_SCHEMA: dict[str, JSON] = {
    "variant": choice(*VARIANTS),
    "map": integer(1, MAX_ID, nullable=True,
                   description="An active designer map's id; null: a map generated from the seed."),
    "rows": integer(GEN_MIN_SIDE, GEN_MAX_SIDE, nullable=True,
                    description="Rows of a generated map; null (and cols null): the seed's size."),
    "cols": integer(GEN_MIN_SIDE, GEN_MAX_SIDE, nullable=True,
                    description="Columns of a generated map; null (and rows null): the seed's size."),
    "cut_corners": boolean(),
    "starts": choice(*STARTS),
    "cure_time": either(integer(1, LIMITS["cure_time"][1]), choice(UNLIMITED, None)),
    "nstop": integer(*LIMITS["nstop"], nullable=True),
    "starting_mines": integer(0, 1),
    "river_mode": choice("deep", "shallow", None),
    "shot_range": either(integer(1, 1), choice(UNLIMITED, None)),
    "reorders": integer(*LIMITS["reorders"], nullable=True),
    "last_survivor_turns": integer(*LIMITS["last_survivor_turns"], nullable=True),
    **{name: boolean(nullable=True) for name in BOOL_OPTIONS},
    "timer": choice(*paper_clock.TIMERS),
    "gm_timer_after": integer(*paper_clock.GM_TIMER_LIMITS),
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(code: str, message: str, **details: Any) -> Impossible:
    return Impossible(code, message, details, kind="input")


def _designer_map(map_id: int, variant: str, river_mode: str | None) -> PaperMap | Impossible:
    """An active designer map that passes the variant's map rules; Impossible (input) otherwise."""
    from paper_labyrinth.maps import PaperMapUnavailable, design_map

    try:
        return design_map(map_id, variant, river_mode=river_mode)  # type: ignore[arg-type]
    except PaperMapUnavailable as exc:
        return _bad(exc.code, exc.message, map=map_id, rules=list(exc.rules))


def options_from_settings(settings: Mapping[str, Any], cells: int) -> Options:
    """The engine's options of a match: the variant's defaults overridden by every non-null setting."""
    changes: dict[str, object] = {"starting_mines": settings["starting_mines"],
                                  "nstop": settings["nstop"] if settings["nstop"] is not None else cells}
    for name in (*BOOL_OPTIONS, "river_mode", "reorders", "last_survivor_turns"):
        if settings[name] is not None:
            changes[name] = settings[name]
    for name in ("cure_time", "shot_range"):
        value = settings[name]
        if value is not None:
            changes[name] = None if value == UNLIMITED else value
    return Options.for_variant(settings["variant"], **changes)


def _with_players(svg: str, game: GameState) -> str:
    """The players drawn on the admin's picture: a numbered ring per player in the labyrinth (the
    number is the turn order's; red once dead or out of the game)."""
    margin = PICTURE_CELL // 2
    marks = []
    for p in game.players:
        if p.outside is not None:
            continue
        r, c = p.pos
        slot = p.seat % 3 - 1
        x = margin + c * PICTURE_CELL + PICTURE_CELL // 2 + slot * PICTURE_CELL // 4
        y = margin + r * PICTURE_CELL + PICTURE_CELL * 3 // 4
        colour = "#2e7d32" if p.in_game else "#c62828"
        marks.append(f'<circle cx="{x}" cy="{y}" r="{PICTURE_CELL // 7}" fill="#fff" stroke="{colour}" '
                     f'stroke-width="2"/><text x="{x}" y="{y + 4}" text-anchor="middle" '
                     f'font-size="{PICTURE_CELL // 4}">{p.seat + 1}</text>')
    return svg.replace("</svg>", "".join(marks) + "</svg>")


@dataclasses.dataclass(frozen=True)
class StoredMap:
    """A match's stored map text parsed once per process (``stored_map``): the map, its outline's
    cells counted row by row (what a cell index means) and the JSON a game on it stores
    (``state_to_json``'s ``map``). Shared between calls: nothing may change it."""

    map: PaperMap
    cells: tuple[Pos, ...]
    json: JSON


@functools.lru_cache(maxsize=MAP_CACHE_SIZE)
def stored_map(text: str) -> StoredMap:
    """The parsed form of a match's stored map, keyed by the exact text: equal texts parse to equal
    maps, so a hit is never another map."""
    m = parse_paper_map(text)
    return StoredMap(m, tuple(sorted(m.cells)), map_to_json(m))


def _candidates(variant: str) -> list[JSON]:
    """Complete turns of one step each (classic: each movement alone, or a skip; quantum: every action)."""
    moves: list[JSON] = [{"do": "move", "direction": d} for d in ("UP", "LEFT", "DOWN", "RIGHT")]
    moves += [{"do": "downstream"}, {"do": "cycle"}, {"do": "skip"}]
    if variant == "quantum":
        targets = ["HERE", "UP", "LEFT", "DOWN", "RIGHT"]
        items = ["bullet", "grenade", "mine", "treasure", "corpse"]
        moves += [{"do": "shoot", "direction": t} for t in targets]
        moves += [{"do": "grenade", "direction": d} for d in targets[1:]]
        moves += [{"do": "leave", "item": i} for i in items]
        moves += [{"do": "throw", "item": i, "direction": d} for i in items for d in targets[1:]]
        moves += [{"do": "mine", "direction": t} for t in targets]
    return [{"type": "turn", "steps": [step]} for step in moves]


@functools.cache
def _candidate_turns(variant: str) -> tuple[Turn, ...]:
    """The engine's turns of ``_candidates(variant)``, in order (they name no cell: parsed once)."""
    return tuple(turn_from_json(action, ()) for action in _candidates(variant))


def _parse(cells: Sequence[Pos], action: Mapping[str, Any]) -> Pos | Turn | str | Impossible:
    """The start cell of a ``start`` action, the engine's ``Turn``, or "timer" / "pause"; Impossible
    (input) if malformed. One reading of an action for every phase: a well-formed action of another
    phase is refused by the phase (a 409), not here."""
    try:
        kind = action.get("type")
        if kind in CLOCK_ACTIONS:
            if set(action) != {"type"}:
                raise ActionFormatError(f"a {kind} action is {{\"type\": \"{kind}\"}} alone.", "action")
            return str(kind)
        if kind == "start":
            if set(action) != {"type", "cell"}:
                raise ActionFormatError("a start is {\"type\": \"start\", \"cell\": k}.", "action")
            return cell_index(action.get("cell"), cells, "cell")
        if kind == "turn":
            return turn_from_json(action, cells)
        raise ActionFormatError("type is \"start\" (before the game), \"turn\", \"timer\" or "
                                "\"pause\".", "type")
    except ActionFormatError as exc:
        return Impossible("bad_action", exc.problem, {"field": exc.field, "cells": len(cells)}, kind="input")


def _event_data(order: Sequence[int], msg: Message) -> JSON:
    """One answer of the game master as public event data: its code and data, engine seats become match seats
    (their players' numbers under ``data.numbers``); no text: ``paper_labyrinth.texts`` says it at read time,
    in the reader's language (the Russian is the engine's own phrase)."""

    def seat_of(value: JSONValue) -> JSONValue:
        return order[value] if isinstance(value, int) and 0 <= value < len(order) else value

    def number_of(value: JSONValue) -> JSONValue:
        return value + 1 if isinstance(value, int) else value

    data = dict(msg.data)
    numbers: dict[str, JSONValue] = {}
    for key in SEAT_KEYS:
        if key in data:
            value = data[key]
            numbers[key] = [number_of(v) for v in value] if isinstance(value, list) else number_of(value)
            data[key] = [seat_of(v) for v in value] if isinstance(value, list) else seat_of(value)
    if numbers:
        data["numbers"] = numbers
    return {"kind": "gm", "seat": seat_of(msg.seat) if msg.seat >= 0 else None,
            "number": msg.seat + 1 if msg.seat >= 0 else None, "code": msg.code, "data": data}


@dataclasses.dataclass(frozen=True)
class PaperState:
    """A match of the paper game: the map (its stored text, parsed once per process), the seats in turn
    order, the table's options, the starts chosen (anonymous outline indexes), the game master's opening
    announcement, the game once it began (the engine's ``GameState``, never changed in place: the rules
    copy it), and the table's clock (None: every turn has the mode's deadline)."""

    map_text: str
    stored: StoredMap
    order: tuple[int, ...]
    options: Options
    chosen: tuple[int, ...] = ()
    opening: tuple[JSON, ...] = ()
    game: GameState | None = None
    clock: Clock | None = None

    def engine_seat(self, seat: int) -> int:
        return self.order.index(seat)

    def to_json(self) -> JSON:
        data: JSON = {"map": self.map_text, "order": list(self.order),
                      "options": dataclasses.asdict(self.options), "chosen": list(self.chosen),
                      "opening": list(self.opening),
                      "game": None if self.game is None else state_to_json(self.game)}
        if self.clock is not None:  # an "every_turn" state has none: as old matches' states, so they replay
            data["clock"] = self.clock.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PaperState:
        stored = stored_map(data["map"])
        game = data["game"]
        # The game's map from the stored map's cache when the game's map JSON is exactly the one that
        # map stores (always, unless the row was edited by hand: then it is parsed).
        return cls(map_text=data["map"], stored=stored, order=tuple(data["order"]),
                   options=Options(**data["options"]), chosen=tuple(data["chosen"]),
                   opening=tuple(data["opening"]),
                   game=None if game is None else state_from_json(
                       game, game_map=stored.map if game["map"] == stored.json else None),
                   clock=None if data.get("clock") is None else Clock.from_json(data["clock"]))


def _game(state: PaperState) -> GameState:
    assert state.game is not None, "the starts are still being chosen"
    return state.game


def _base_view(state: PaperState, seat: int) -> JSON:
    m = state.stored.map
    outline = [[(r, c) in m.cells for c in range(m.cols)] for r in range(m.rows)]
    return {"variant": state.options.variant, "number": state.engine_seat(seat) + 1, "outline": outline,
            "cell_count": len(m.cells), "opening": [spoken(answer) for answer in state.opening],
            "clock": paper_clock.clock_view(state.clock, seat)}


class PaperStarts(StartRules[PaperState, int]):
    """C§6.1: each player marks a start cell on their plan (an index into the outline), in turn order;
    the table hears only that a player has chosen. Then the game master announces the cell types."""

    def chosen(self, state: PaperState) -> Sequence[int] | None:
        return state.chosen if state.game is None else None

    def order(self, state: PaperState) -> Sequence[int]:
        return state.order

    def choices(self, state: PaperState) -> list[JSON]:
        return [{"type": "start", "cell": k} for k in range(len(state.stored.cells))]

    def parse(self, state: PaperState, action: Mapping[str, Any]) -> int | Impossible:
        parsed = _parse(state.stored.cells, action)
        if isinstance(parsed, Impossible):
            return parsed
        if not isinstance(parsed, tuple):
            return Impossible("choose_start_first", "Every player first chooses a start cell.")
        return state.stored.cells.index(parsed)

    def draw(self, state: PaperState, rng: random.Random) -> int:
        return rng.randrange(len(state.stored.cells))

    def record(self, state: PaperState, start: int) -> PaperState:
        return dataclasses.replace(state, chosen=(*state.chosen, start))

    def announced(self, state: PaperState, seat: int) -> JSON:
        number = len(state.chosen) + 1
        return {"kind": "start_chosen", "seat": seat, "number": number}

    def begin(self, state: PaperState, rng: random.Random) -> Success[PaperState, Event]:
        """Every player has a start: the game begins and the game master announces the cell types."""
        starts = [state.stored.cells[k] for k in state.chosen]
        game = rules.new_game(state.stored.map, state.options, len(state.order), starts, rng)
        opening = tuple(_event_data(state.order, msg) for msg in rules.opening(game))
        began = Event({"kind": "game_started"})
        return Success(dataclasses.replace(state, game=game, opening=opening),
                       (began, *(Event(data) for data in opening)))

    def view(self, state: PaperState, seat: int) -> JSON:
        return {**_base_view(state, seat), "phase": "choosing_starts",
                "start_chosen": state.engine_seat(seat) < len(state.chosen), "status": None,
                "turns_played": 0, "last_answers": {}, "result": None}


#: the match's ``reason`` for each ending of the seed's game (the engine's ``Result.reason``): a win by
#: the true treasure carried out or by the last player standing, or one of the draws (C§8, Q§8)
REASONS = {
    "treasure": "treasure_carried_out",
    "last_survivor": "last_player",
    "nstop": "draw_nstop",
    "all_skip": "draw_all_skip",
    "treasure_out": "draw_treasure_out",
    "treasure_on_source": "draw_treasure_on_source",
    "all_dead": "draw_all_dead",
    "survivor_time": "draw_survivor_time",
}
REASON_MEANINGS = {
    "treasure_carried_out": "The winner carried the true treasure out of the labyrinth.",
    "last_player": "The winner was the last player left in the game.",
    "draw_nstop": "nstop rounds passed without a change: a draw.",
    "draw_all_skip": "Every player in the game skipped their turn: a draw.",
    "draw_treasure_out": "The true treasure was thrown out of the labyrinth: a draw.",
    "draw_treasure_on_source": "The true treasure lies on a river's source, out of reach: a draw.",
    "draw_all_dead": "Every player was killed: a draw.",
    "draw_survivor_time": "The last player left did not carry the treasure out in time: a draw.",
}


def _result(state: PaperState, result: Any) -> JSON:
    seat = None if result.seat is None else state.order[result.seat]
    return {"kind": result.kind, "seat": seat, "reason": result.reason}


class PaperPlay(Phase[PaperState]):
    """The turns of the seed's game; a missed minute loses (C§9). Every answer is a public event."""

    def awaiting(self, state: PaperState) -> int | None:
        engine_seat = rules.whose_turn(_game(state))
        return None if engine_seat is None else state.order[engine_seat]

    def legal_actions(self, state: PaperState, seat: int) -> list[JSON]:
        """Every one-step turn the engine accepts now and that does something. The engine's ``check_turn`` is
        exactly the refusal part of ``rules.apply`` (the turn itself never refuses); ``rules.has_effect``
        leaves out the actions it would answer "Ничего не выйдет" (a throw of an item the player does not
        carry, a grenade or a mine without one, a shot without bullets); tests apply every listed action."""
        if self.awaiting(state) != seat:
            return []
        game, engine_seat = _game(state), state.engine_seat(seat)
        variant = game.options.variant
        return [action for action, turn in zip(_candidates(variant), _candidate_turns(variant))
                if rules.check_turn(game, engine_seat, turn) is None
                and all(rules.has_effect(game, engine_seat, step) for step in turn.steps)]

    def check_action(self, state: PaperState, action: Mapping[str, Any]) -> Impossible | None:
        parsed = _parse(state.stored.cells, action)
        return parsed if isinstance(parsed, Impossible) else None

    def apply(self, state: PaperState, seat: int, action: Mapping[str, Any],
              rng: random.Random) -> Moved[PaperState]:
        parsed = _parse(state.stored.cells, action)
        if isinstance(parsed, Impossible):
            return parsed
        if not isinstance(parsed, Turn):
            return Impossible("game_started", "The start cells are chosen: the game is on.")
        engine_seat = state.engine_seat(seat)
        played = rules.apply(_game(state), engine_seat, parsed, rng)
        if isinstance(played, Impossible):
            return played
        heard = Event({"kind": "request", "seat": seat, "number": engine_seat + 1,
                       "request": public_request(action)})
        return Success(dataclasses.replace(state, game=played.state),
                       (heard, *(Event(_event_data(state.order, msg)) for msg in played.events)))

    def timeout(self, state: PaperState, seat: int, rng: random.Random) -> Success[PaperState, Event]:
        game, messages = rules.timeout(_game(state), state.engine_seat(seat))
        return Success(dataclasses.replace(state, game=game),
                       tuple(Event(_event_data(state.order, m)) for m in messages))

    def view(self, state: PaperState, seat: int) -> JSON:
        """What ``seat`` may know: the outline (its own plan), its own status, the public record; the keys
        of the starts' view, so a view keeps its shape from the first read to the end."""
        game = _game(state)
        engine_seat = state.engine_seat(seat)
        result = rules.outcome(game)
        last = {str(state.order[e]): [spoken(_event_data(state.order, msg)) for msg in msgs]
                for e, msgs in sorted(game.last.items())}
        return {**_base_view(state, seat), "phase": "playing" if result is None else "over",
                "start_chosen": True, "status": rules.status(game, engine_seat), "turns_played": game.turn,
                "last_answers": last,
                "result": None if result is None else _result(state, result)}


def _clocked(state: PaperState, ticked: Success[Clock, JSON]) -> Success[PaperState, Event]:
    """A clock's step as the match's: the state with the new clock, its public event."""
    return Success(dataclasses.replace(state, clock=ticked.state),
                   tuple(Event(data) for data in ticked.events))


def _turn_over(moved: Success[PaperState, Event]) -> Success[PaperState, Event]:
    """After a start chosen or a turn played (or lost): the next wait begins untimed."""
    clock = paper_clock.turn_over(moved.state.clock)
    return Success(dataclasses.replace(moved.state, clock=clock), moved.events)



_SEATS: JSON = array(WHOLE)
_CELL: JSON = {"enum": [kind.value for kind in CellType]}
_ITEM: JSON = {"enum": list(ITEMS)}
_AT = shape({"cell": _CELL})
_NONE = shape({})
#: the data of each answer of the game master (``code``: the engine's ``Message``,
#: paper_labyrinth/engine/rules.py), seats named in it (``wounded``, ``killed``, ``of``) as match seats,
#: their players' numbers under ``numbers``
GM_DATA: dict[str, JSON] = {
    **{code: _NONE for code in (
        "mine", "healed", "cremated", "tick", "no_hole", "no_river", "inflow", "won", "crumbled", "exited",
        "reentered", "eliminated", "forbidden_here", "no_bullets", "draw_treasure_out", "blast",
        "mine_placed",
        "skipped", "reordered", "dark", "draw_all_dead", "last_survivor", "draw_survivor_time",
        "draw_treasure_source", "draw_all_skip", "killed", "timeout", "no_wall")},
    **{code: _AT for code in ("start", "moved", "cycle", "shallow", "downstream", "drifted")},
    "status": shape({
        "health": {"enum": ["healthy", "wounded", "sick", "dead"]}, "immune": FLAG, "bullets": WHOLE,
        "grenades": WHOLE, "slot": nullable({"enum": ["treasure", "mine", "corpse"]}), "reorders_left": WHOLE,
        "may_reorder": FLAG, "cure_left": nullable(WHOLE), "outside": FLAG, "eliminated": FLAG,
        "calm_rounds": WHOLE, "nstop": WHOLE}),
    "died": shape({"cause": {"enum": ["encephalitis", "cure_time"]}}),
    "infected": shape({"cure_left": nullable(WHOLE)}),
    "found": shape({key: WHOLE for key in ("treasures", "bullets", "grenades", "mines", "corpses")}),
    "refilled": shape({"bullets": WHOLE, "grenades": WHOLE}),
    "wall": shape({}, {"drift": FLAG, "cell": _CELL},
                  description="No drift: a half-dark turn's answer (only whether a wall was met)."),
    "nothing_doing": shape({"reason": TEXT, "problem": {"enum": list(rules.NOTHING_DOING)}}, {"item": _ITEM},
                           description="reason: the seed's Russian words (text: the reader's language)."),
    "shot": shape({"bullets": WHOLE}, {
        "scream": FLAG, "fell": mapping(WHOLE), "underfoot": WHOLE,  # classic
        "wounded": _SEATS, "killed": _SEATS,  # quantum
        "numbers": shape({}, {"wounded": _SEATS, "killed": _SEATS})}),
    "grenade": shape({"grenades": WHOLE}, {"result": {"enum": ["exploded", "not_exploded", "no_wall"]}}),
    **{code: shape({"item": _ITEM}) for code in ("at_feet", "left", "thrown")},
    "condition": shape({"condition": TEXT, "met": FLAG}),
    "draw_nstop": shape({"nstop": WHOLE}),
    "wounded": shape({"reorder": FLAG}),
    "repeat": shape({"of": WHOLE, "numbers": shape({"of": WHOLE})}),
}


#: a spectator's view (``PaperLabyrinthMode.public_view``): nothing of the map, nobody's status
PUBLIC_VIEW_SCHEMA = shape(
    {"variant": {"enum": list(VARIANTS)}, "phase": {"enum": ["choosing_starts", "playing", "over"]},
     "starts_chosen": WHOLE, "turns_played": WHOLE,
     "result": nullable(shape({"kind": TEXT, "seat": nullable(WHOLE), "reason": TEXT}))},
)
#: the game master's answers a spectator hears on a designer map still in the pool: the endings, which say
#: who won or that nobody did, and nothing of a cell (``spectator_events``)
SPECTATOR_ANSWERS = frozenset({"won", "last_survivor", "eliminated", "draw_nstop", "draw_all_skip",
                               "draw_treasure_out", "draw_treasure_source", "draw_all_dead",
                               "draw_survivor_time"})
#: one answer of the game master (``_event_data``) by ``code``: ``seat`` and ``number`` null for an answer to
#: the table (e.g. a draw)
GM_ANSWERS = [
    shape({"seat": nullable(WHOLE), "number": nullable(WHOLE), "code": {"enum": [code]}, "data": data})
    for code, data in sorted(GM_DATA.items())
]
#: one answer of the game master as a view shows it (the opening, the last answers), with its sentence
_ANSWER: JSON = {"oneOf": [shape({"kind": {"enum": ["gm"]}, "text": TEXT, **answer["properties"]})
                           for answer in GM_ANSWERS]}
#: the view in every phase (``PaperLabyrinthMode.view``); after the end the map and the players' cells under
#: ``revealed``
VIEW_SCHEMA = shape(
    {"phase": {"enum": ["choosing_starts", "playing", "over"]}, "variant": {"enum": list(VARIANTS)},
     "number": WHOLE, "cell_count": WHOLE, "start_chosen": FLAG, "turns_played": WHOLE,
     "outline": array(array(FLAG)),
     "clock": shape({"timer": {"enum": list(paper_clock.TIMERS)}},
                    {"timer_running": FLAG, "paused": FLAG, "pause_used": FLAG, "gm_timer_after": WHOLE},
                    description="An every_turn table's clock has its timer alone."),
     "opening": array(_ANSWER), "last_answers": mapping(array(_ANSWER)),
     "status": nullable(GM_DATA["status"]),
     "result": nullable(shape({"kind": TEXT, "seat": nullable(WHOLE), "reason": TEXT}))},
    {"revealed": shape({"map": TEXT, "players": mapping(shape({"start": array(WHOLE, length=2)},
                                                              {"end": array(WHOLE, length=2)}))})},
)
_AIM: JSON = {"enum": [*DIRECTION["enum"], HERE]}
_SIMPLE_STEPS: list[JSON] = [
    shape({"do": {"enum": ["move", "grenade"]}, "direction": DIRECTION}),
    shape({"do": {"enum": ["downstream", "cycle", "skip"]}}),
    shape({"do": {"enum": ["shoot", "mine"]}, "direction": _AIM}),
    shape({"do": {"enum": ["leave"]}, "item": _ITEM}),
    shape({"do": {"enum": ["throw"]}, "item": _ITEM, "direction": DIRECTION}),
]


def _step(depth: int = 0) -> JSON:
    """A step at ``depth`` conditions deep: a condition's steps are one deeper, at most MAX_DEPTH."""
    if depth >= MAX_DEPTH:
        return {"oneOf": _SIMPLE_STEPS}
    conditional = shape({"do": {"enum": ["if"]}, "condition": {"enum": list(CONDITIONS)},
                         "then": array(_step(depth + 1))})
    return {"oneOf": [*_SIMPLE_STEPS, conditional]}


_STEP = _step()
_TURN_OPTIONS: dict[str, JSON] = {"visibility": {"enum": ["normal", "dark", "half_dark"]},
                                  "treasure": nullable(WHOLE), "refill": FLAG}
#: an action (paper_labyrinth/actions.py): the secret start, a turn of steps, the clock's calls
ACTION_SCHEMA: JSON = {"oneOf": [
    shape({"type": {"enum": ["start"]}, "cell": WHOLE}),
    shape({"type": {"enum": ["turn"]}, "steps": array(_STEP)}, {**_TURN_OPTIONS, "reorder": WHOLE}),
    shape({"type": {"enum": sorted(CLOCK_ACTIONS)}}),
]}
_WHO = {"seat": WHOLE, "number": WHOLE}
#: the mode's own events (the starts, a request heard: ``reorders`` true instead of its secret cell; the
#: clock: ``by`` null when the game master started the timer) and the game master's answers, by kind (and
#: code), spoken by paper_labyrinth/texts.py
EVENT_SCHEMA = events({
    "start_chosen": shape(_WHO), "game_started": _NONE,
    "request": shape({**_WHO, "request": shape({"type": {"enum": ["turn"]}, "steps": array(_STEP)},
                                               {**_TURN_OPTIONS, "reorders": FLAG})}),
    "timer_started": shape({**_WHO, "by": nullable(WHOLE), "by_number": nullable(WHOLE), "seconds": WHOLE}),
    "pause_taken": shape({**_WHO, "seconds": WHOLE}), "pause_over": shape({**_WHO, "seconds": WHOLE}),
    "gm": GM_ANSWERS,
})


class PaperLabyrinthMode(ModeAdapter[PaperState]):
    name = "labyrinth_paper"
    title = gettext_lazy("Paper labyrinth")
    min_players = 2
    max_players = 5
    default_turn_deadline_seconds = 60
    settings_schema = SETTINGS_SCHEMA
    view_schema = VIEW_SCHEMA
    action_schema = ACTION_SCHEMA
    event_schema = EVENT_SCHEMA
    phases = (SecretStart(PaperStarts()), PaperPlay())
    reasons = REASON_MEANINGS
    bot_policies = BOTS
    #: watched at the table: the public view shows no map, and a designer map's answers stay at the table
    #: (``public_view``, ``spectator_events``)
    spectators = True
    public_view_schema = PUBLIC_VIEW_SCHEMA

    # -- settings --

    def default_settings(self) -> JSON:
        return {"variant": "classic", "map": None, "rows": None, "cols": None, "cut_corners": False,
                "starts": "chosen", "cure_time": None, "nstop": None, "starting_mines": 0,
                "river_mode": None, "shot_range": None, "reorders": None, "last_survivor_turns": None,
                **{name: None for name in BOOL_OPTIONS},
                "timer": paper_clock.ON_CALL, "gm_timer_after": paper_clock.GM_TIMER_AFTER}

    def validate_settings(self, settings: Mapping[str, Any]) -> JSON | Impossible:
        defaults = self.default_settings()
        unknown = sorted(set(settings) - set(defaults))
        if unknown:
            message = gettext("Settings are %(names)s.") % {"names": ", ".join(sorted(defaults))}
            return _bad("unknown_setting", message, unknown=unknown)
        s = {**defaults, **settings}
        if s["variant"] not in VARIANTS:
            return _bad("bad_variant", "variant is \"classic\" or \"quantum\".", variant=s["variant"])
        if s["starts"] not in STARTS:
            return _bad("bad_starts", "starts is \"chosen\" (each player picks a secret cell) or \"random\".",
                       starts=s["starts"])
        if (s["rows"] is None) != (s["cols"] is None):
            return _bad("bad_size", "rows and cols are both null (the seed's usual size for the number of "
                       "players) or both given.", rows=s["rows"], cols=s["cols"])
        for side in ("rows", "cols"):
            value = s[side]
            if value is not None and (not _is_int(value) or not GEN_MIN_SIDE <= value <= GEN_MAX_SIDE):
                message = gettext("%(key)s is null or a whole number from %(low)d to %(high)d.") % {
                    "key": side, "low": GEN_MIN_SIDE, "high": GEN_MAX_SIDE}
                return _bad("bad_size", message, **{side: value})
        if not isinstance(s["cut_corners"], bool):
            return _bad("bad_setting", "cut_corners is true or false.", setting="cut_corners")
        if s["starting_mines"] not in (0, 1) or isinstance(s["starting_mines"], bool):
            return _bad("bad_starting_mines", "starting_mines is 0 or 1 (the starting kit, C§5.1).",
                       starting_mines=s["starting_mines"])
        for name in BOOL_OPTIONS:
            if s[name] is not None and not isinstance(s[name], bool):
                message = gettext("%(key)s is true, false or null (the variant's default).") % {"key": name}
                return _bad("bad_setting", message,
                            setting=name)
        if s["river_mode"] not in (None, "deep", "shallow"):
            return _bad("bad_setting", "river_mode is \"deep\", \"shallow\" or null (the variant's default).",
                       setting="river_mode")
        for name in ("cure_time", "shot_range"):
            value = s[name]
            top = 1 if name == "shot_range" else LIMITS[name][1]
            if value is not None and value != UNLIMITED and not (_is_int(value) and 1 <= value <= top):
                message = gettext("%(key)s is null (the variant's default), \"%(unlimited)s\" or 1 to "
                                  "%(top)d.") % {"key": name, "unlimited": UNLIMITED, "top": top}
                return _bad(f"bad_{name}", message, **{name: value})
        for name in ("nstop", "reorders", "last_survivor_turns"):
            low, high = LIMITS[name]
            value = s[name]
            if value is not None and not (_is_int(value) and low <= value <= high):
                message = gettext("%(key)s is null (the default) or %(low)d to %(high)d.") % {
                    "key": name, "low": low, "high": high}
                return _bad(f"bad_{name}", message, **{name: value})
        if s["timer"] not in paper_clock.TIMERS:
            return _bad("bad_timer", "timer is \"on_call\" (the minute when called, C§9) or \"every_turn\".",
                       timer=s["timer"])
        low, high = paper_clock.GM_TIMER_LIMITS
        if not (_is_int(s["gm_timer_after"]) and low <= s["gm_timer_after"] <= high):
            message = gettext("gm_timer_after is %(low)d to %(high)d seconds.") % {"low": low, "high": high}
            return _bad("bad_gm_timer_after", message,
                       gm_timer_after=s["gm_timer_after"])
        map_id = s["map"]
        if map_id is not None:
            if not _is_int(map_id) or not 1 <= map_id <= MAX_ID:
                return _bad("unknown_map", "map is a designer map's id or null (generated).", map=map_id)
            # The settings are public: they keep only the id.
            designed = _designer_map(map_id, s["variant"], s["river_mode"])
            if isinstance(designed, Impossible):
                return designed
        return s

    # -- the game --

    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> PaperState:
        order = list(range(seats))
        rng.shuffle(order)
        from paper_labyrinth.maps import paper_map_for_match

        # A designer map is read at the start (the lobby's settings are public: they hold only the id);
        # one deactivated since the lobby opened gives a generated map instead (docs).
        m = None if settings["map"] is None else _designer_map(settings["map"], settings["variant"],
                                                                settings["river_mode"])
        if m is None or isinstance(m, Impossible):
            size = None if settings["rows"] is None else (settings["rows"], settings["cols"])
            m = paper_map_for_match(None, rng, seats, settings["variant"], size=size,
                                    river_mode=settings["river_mode"], cut_corners=settings["cut_corners"])
        text = format_paper_map(m)
        state = PaperState(map_text=text, stored=stored_map(text), order=tuple(order),
                           options=options_from_settings(settings, len(m.cells)),
                           clock=paper_clock.new_clock(settings))
        if settings["starts"] == "random":
            cells = len(m.cells)
            picks = rng.sample(range(cells), seats) if cells >= seats else [rng.randrange(cells)
                                                                           for _ in range(seats)]
            state = PaperStarts().begin(dataclasses.replace(state, chosen=tuple(picks)), rng).state
        return state

    def turn_order(self, state: PaperState) -> tuple[int, ...]:
        return state.order

    # -- the clock: moves of every phase --

    def legal_actions(self, state: PaperState, seat: int) -> list[JSON]:
        """The awaited seat: the phase's actions (the starts, or every one-step turn the engine accepts now)
        and the pause while unused. Another seat: the timer call while it may be called (out of turn)."""
        awaited = self.awaiting(state)
        if awaited is None:
            return []
        if awaited != seat:
            return [dict(TIMER_ACTION)] if paper_clock.may_call(state.clock) else []
        pause = [dict(PAUSE_ACTION)] if paper_clock.may_pause(state.clock, seat) else []
        return super().legal_actions(state, seat) + pause

    def apply(self, state: PaperState, seat: int, action: Mapping[str, Any],
              rng: random.Random) -> Moved[PaperState]:
        """A timer call (by a seat not awaited) or the awaited seat's pause: a public event, no game step;
        any other action is the phase's, and the next wait begins untimed."""
        if action.get("type") not in CLOCK_ACTIONS:
            moved = super().apply(state, seat, action, rng)
            return moved if isinstance(moved, Impossible) else _turn_over(moved)
        kind = _parse(state.stored.cells, action)
        if isinstance(kind, Impossible):
            return kind
        awaited = self.awaiting(state)
        if kind == "timer":
            assert awaited is not None  # the machinery asks nothing of a game that is over
            ticked = paper_clock.call(state.clock, state.order, seat, awaited)
        elif seat != awaited:
            return Impossible("not_your_turn", "A pause is taken before one's own move.")
        else:
            ticked = paper_clock.pause(state.clock, state.order, seat)
        return ticked if isinstance(ticked, Impossible) else _clocked(state, ticked)

    def deadline_seconds(self, state: PaperState, seconds: int) -> int | None:
        """The clock's: a pause, the minute, or the game master's patience; the admin's ``seconds`` on an
        "every_turn" table."""
        return paper_clock.deadline_seconds(state.clock, seconds)

    def timeout(self, state: PaperState, seat: int, rng: random.Random) -> Success[PaperState, Event]:
        """A pause over or the game master's patience spent: the minute starts. The minute (or an
        "every_turn" deadline) spent: the phase's timeout (before the game the start is drawn; in the
        game the player loses, C§9)."""
        expired = paper_clock.expire(state.clock, state.order, seat)
        if expired is not None:
            return _clocked(state, expired)
        return _turn_over(super().timeout(state, seat, rng))

    def outcome(self, state: PaperState) -> Outcome | None:
        if state.game is None:
            return None
        result = rules.outcome(state.game)
        if result is None:
            return None
        winners = () if result.seat is None else (state.order[result.seat],)
        return Outcome(winners, REASONS[result.reason])

    def revealed(self, state: PaperState) -> JSON:
        """After the end the map is shown (the seed's text, every secret in it), as the paper game master
        shows it, with each seat's start and the cell where it ended, when ``may_reveal`` allows it."""
        cells = state.stored.cells
        players: JSON = {str(state.order[i]): {"start": list(cells[k])} for i, k in enumerate(state.chosen)}
        if state.game is not None:
            for p in state.game.players:
                players[str(state.order[p.seat])]["end"] = list(p.pos)
        return {"map": state.map_text, "players": players}

    def public_view(self, state: PaperState) -> JSON:
        """What a watcher of the table may know: the variant, the phase, how many starts are chosen, the turns
        played, the result. Not the outline nor the number of cells (the map's shape, a designer map's
        fingerprint), not a player's status (each seat's own view)."""
        game = state.game
        result = None if game is None else rules.outcome(game)
        return {"variant": state.options.variant,
                "phase": "choosing_starts" if game is None else "playing" if result is None else "over",
                "starts_chosen": len(state.chosen), "turns_played": 0 if game is None else game.turn,
                "result": None if result is None else _result(state, result)}

    def spectator_events(self, settings: Mapping[str, Any]) -> Callable[[Mapping[str, Any]], bool] | None:
        """Every answer of the game master is public at the table, and names the cell types a player meets:
        with a designer map still in the pool (``may_reveal``'s rule), a watcher who plays that map elsewhere
        would learn it from them. Then a spectator hears the table's own events (a start chosen, the game
        begun, a move requested, the clock) and of the game master's answers only the endings
        (``SPECTATOR_ANSWERS``); a generated map's are all shown."""
        from paper_labyrinth.models import PaperMapDesign

        if not PaperMapDesign.in_pool(settings.get("map")):
            return None
        return lambda data: data.get("kind") != "gm" or data.get("code") in SPECTATOR_ANSWERS

    def may_reveal(self, settings: Mapping[str, Any], state: PaperState) -> bool:
        """A generated map (from the match's own seed), or a designer map no longer in the pool: while
        lobbies may still name it, showing it would make every later game on it transparent."""
        from paper_labyrinth.models import PaperMapDesign

        return not PaperMapDesign.in_pool(settings.get("map"))

    def event_text(self, data: Mapping[str, Any]) -> str:
        """The game master speaks the reader's language (paper_labyrinth/texts.py): events keep code, data."""
        return event_text(data)

    def picture(self, state: PaperState) -> str:
        """The map as it is now (walls blown, exits opened, items moved), every secret shown (admin only)."""
        if state.game is None:
            return paper_map_svg(state.stored.map)
        game = state.game
        piles = game.piles
        now = dataclasses.replace(
            game.map, walls=frozenset(game.walls), outer=dict(game.outer),
            treasures={pos: tuple(p.treasures) for pos, p in piles.items() if p.treasures},
            bullets={pos: p.bullets for pos, p in piles.items() if p.bullets},
            grenades={pos: p.grenades for pos, p in piles.items() if p.grenades},
            mines={pos: p.mines + p.armed for pos, p in piles.items() if p.mines + p.armed})
        return _with_players(paper_map_svg(now, size=PICTURE_CELL), game)

    def picture_legend(self) -> list[LegendEntry]:
        return map_legend(players=True)

    def state_to_json(self, state: PaperState) -> JSON:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> PaperState:
        return PaperState.from_json(data)
