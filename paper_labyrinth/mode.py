"""Seed 002's paper Labyrinth hosted as match mode ``labyrinth_paper`` (SPEC 9.4, issue 18).

2-5 players, variant ``classic`` or ``quantum``; the server is the game master (the rules engine
``paper_labyrinth.engine.rules``). docs/paper-labyrinth.md ("Hosting") describes the hosted form:

- **Settings** (``validate_settings``): the variant, the map (a designer map's id, or null: a map of
  ``rows`` x ``cols`` generated from the match seed for the number of seats), how starts are chosen,
  ``cure_time``, ``nstop``, ``starting_mines`` and the table options of C§7 the engine supports. An
  option left null takes the variant's default from the seed.
- **Starts** (C§6.1): with ``starts`` "chosen" (the default) each player first posts
  ``{"type": "start", "cell": k}`` in turn order, ``k`` an anonymous index into the outline (the
  player's empty plan); nobody else learns it. "random": distinct cells drawn from the seed. Then
  the game master announces each player's cell type (C§6.2).
- **Turns**: ``{"type": "turn", "steps": [...], ...}`` (paper_labyrinth/actions.py), one shape for
  both variants; the engine refuses a turn malformed for the variant (409 with its code).
- **Information**: every answer of the game master is a public event; the view shows the caller's
  own status, the outline and the public record; nothing else of the map or of positions.
- **Clock** (C§9, paper_labyrinth/clock.py): by default no turn has a time limit until another
  player calls the timer (``{"type": "timer"}``, sent out of turn) or the game master does after a
  long silence; then the awaited player has a minute or loses (the engine's ``timeout``; a missed
  start choice draws a start instead). Each player may once per game take a five-minute pause
  (``{"type": "pause"}``). Setting ``timer`` "every_turn" keeps the minute (the mode's deadline)
  on every turn instead.

Seats and numbers: the engine's seat ``e`` is the ``e``-th player in the turn order (its texts say
"Игрок e+1"); the match seat is ``order[e]``. Events carry both (``seat``, ``number``).
"""
from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from matches.modes import JSON, ActionRefused, Event, ModeAdapter, Outcome
from paper_labyrinth import clock as paper_clock
from paper_labyrinth.actions import ActionFormatError, cell_index, public_request, turn_from_json
from paper_labyrinth.clock import CLOCK_ACTIONS, PAUSE_ACTION, TIMER_ACTION, ClockRefused
from paper_labyrinth.engine import rules
from paper_labyrinth.engine.generator import MAX_SIDE as GEN_MAX_SIDE, MIN_SIDE as GEN_MIN_SIDE
from paper_labyrinth.engine.mapformat import format_paper_map, parse_paper_map
from paper_labyrinth.engine.model import PaperMap, Pos
from paper_labyrinth.engine.requests import JSONValue, Message, Options, Refused, Turn
from paper_labyrinth.engine.state import GameState, map_to_json, state_from_json, state_to_json
from paper_labyrinth.engine.svg import paper_map_svg

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


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(code: str, message: str, **details: Any) -> ActionRefused:
    return ActionRefused(code, message, kind="input", details=details)


def _designer_map(map_id: int, variant: str, river_mode: str | None) -> PaperMap:
    """An active designer map that passes the variant's map rules; ActionRefused(input) otherwise."""
    from paper_labyrinth.maps import PaperMapUnavailable, design_map

    try:
        return design_map(map_id, variant, river_mode=river_mode)  # type: ignore[arg-type]
    except PaperMapUnavailable as exc:
        raise _bad(exc.code, exc.message, map=map_id, rules=list(exc.rules)) from exc


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


class PaperLabyrinthMode(ModeAdapter):
    name = "labyrinth_paper"
    title = "Paper Labyrinth (seed 002, classic and quantum)"
    min_players = 2
    max_players = 5
    default_turn_deadline_seconds = 60

    # -- settings --

    def default_settings(self) -> JSON:
        return {"variant": "classic", "map": None, "rows": None, "cols": None, "cut_corners": False,
                "starts": "chosen", "cure_time": None, "nstop": None, "starting_mines": 0,
                "river_mode": None, "shot_range": None, "reorders": None, "last_survivor_turns": None,
                **{name: None for name in BOOL_OPTIONS},
                "timer": paper_clock.ON_CALL, "gm_timer_after": paper_clock.GM_TIMER_AFTER}

    def validate_settings(self, settings: Mapping[str, Any]) -> JSON:
        defaults = self.default_settings()
        unknown = sorted(set(settings) - set(defaults))
        if unknown:
            raise _bad("unknown_setting", f"Settings are {', '.join(sorted(defaults))}.", unknown=unknown)
        s = {**defaults, **settings}
        if s["variant"] not in VARIANTS:
            raise _bad("bad_variant", "variant is \"classic\" or \"quantum\".", variant=s["variant"])
        if s["starts"] not in STARTS:
            raise _bad("bad_starts", "starts is \"chosen\" (each player picks a secret cell) or \"random\".",
                       starts=s["starts"])
        if (s["rows"] is None) != (s["cols"] is None):
            raise _bad("bad_size", "rows and cols are both null (the seed's usual size for the number of "
                       "players) or both given.", rows=s["rows"], cols=s["cols"])
        for side in ("rows", "cols"):
            value = s[side]
            if value is not None and (not _is_int(value) or not GEN_MIN_SIDE <= value <= GEN_MAX_SIDE):
                raise _bad("bad_size", f"{side} is null or a whole number from {GEN_MIN_SIDE} to {GEN_MAX_SIDE}.",
                           **{side: value})
        if not isinstance(s["cut_corners"], bool):
            raise _bad("bad_setting", "cut_corners is true or false.", setting="cut_corners")
        if s["starting_mines"] not in (0, 1) or isinstance(s["starting_mines"], bool):
            raise _bad("bad_starting_mines", "starting_mines is 0 or 1 (the starting kit, C§5.1).",
                       starting_mines=s["starting_mines"])
        for name in BOOL_OPTIONS:
            if s[name] is not None and not isinstance(s[name], bool):
                raise _bad("bad_setting", f"{name} is true, false or null (the variant's default).", setting=name)
        if s["river_mode"] not in (None, "deep", "shallow"):
            raise _bad("bad_setting", "river_mode is \"deep\", \"shallow\" or null (the variant's default).",
                       setting="river_mode")
        for name in ("cure_time", "shot_range"):
            value = s[name]
            top = 1 if name == "shot_range" else LIMITS[name][1]
            if value is not None and value != UNLIMITED and not (_is_int(value) and 1 <= value <= top):
                raise _bad(f"bad_{name}", f"{name} is null (the variant's default), \"{UNLIMITED}\" or "
                           f"1 to {top}.", **{name: value})
        for name in ("nstop", "reorders", "last_survivor_turns"):
            low, high = LIMITS[name]
            value = s[name]
            if value is not None and not (_is_int(value) and low <= value <= high):
                raise _bad(f"bad_{name}", f"{name} is null (the default) or {low} to {high}.", **{name: value})
        if s["timer"] not in paper_clock.TIMERS:
            raise _bad("bad_timer", "timer is \"on_call\" (the minute when called, C§9) or \"every_turn\".",
                       timer=s["timer"])
        low, high = paper_clock.GM_TIMER_LIMITS
        if not (_is_int(s["gm_timer_after"]) and low <= s["gm_timer_after"] <= high):
            raise _bad("bad_gm_timer_after", f"gm_timer_after is {low} to {high} seconds.",
                       gm_timer_after=s["gm_timer_after"])
        map_id = s["map"]
        if map_id is not None:
            if not _is_int(map_id) or not 1 <= map_id <= MAX_ID:
                raise _bad("unknown_map", "map is a designer map's id or null (generated).", map=map_id)
            _designer_map(map_id, s["variant"], s["river_mode"])  # settings are public: only the id is kept
        return s

    # -- the game --

    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> JSON:
        order = list(range(seats))
        rng.shuffle(order)
        from paper_labyrinth.maps import paper_map_for_match

        m = None
        if settings["map"] is not None:
            try:  # read at the start (the lobby's settings are public: they hold only the id)
                m = _designer_map(settings["map"], settings["variant"], settings["river_mode"])
            except ActionRefused:
                m = None  # deactivated since the lobby opened: a generated map instead (docs)
        if m is None:
            size = None if settings["rows"] is None else (settings["rows"], settings["cols"])
            m = paper_map_for_match(None, rng, seats, settings["variant"], size=size,
                                    river_mode=settings["river_mode"], cut_corners=settings["cut_corners"])
        options = options_from_settings(settings, len(m.cells))
        state: JSON = {"map": format_paper_map(m), "order": order, "options": dataclasses.asdict(options),
                       "chosen": [], "opening": [], "game": None}
        clock = paper_clock.new_clock(settings)
        if clock is not None:  # an "every_turn" state has none: as old matches' states, so they replay
            state["clock"] = clock
        if settings["starts"] == "random":
            cells = len(m.cells)
            picks = rng.sample(range(cells), seats) if cells >= seats else [rng.randrange(cells)
                                                                           for _ in range(seats)]
            state, _ = self._begin({**state, "chosen": picks}, rng)
        return state

    def _stored(self, state: Mapping[str, Any]) -> StoredMap:
        return stored_map(state["map"])

    def _game(self, state: Mapping[str, Any]) -> GameState:
        """The game, its map taken from the stored map's cache when the game's map JSON is exactly the
        one that map stores (always, unless the row was edited by hand: then it is parsed)."""
        data = state["game"]
        stored = self._stored(state)
        return state_from_json(data, game_map=stored.map if data["map"] == stored.json else None)

    def _begin(self, state: JSON, rng: random.Random) -> tuple[JSON, list[Event]]:
        """Every player has a start: the game begins and the game master announces the cell types."""
        stored = self._stored(state)
        starts = [stored.cells[k] for k in state["chosen"]]
        game = rules.new_game(stored.map, Options(**state["options"]), len(state["order"]), starts, rng)
        opening = [self._event_data(state, msg) for msg in rules.opening(game)]
        began = {**state, "game": state_to_json(game), "opening": opening}
        return began, [Event({"kind": "game_started", "text": "Все выбрали клетки: игра начинается."}),
                       *(Event(data) for data in opening)]

    def _event_data(self, state: Mapping[str, Any], msg: Message) -> JSON:
        """One answer of the game master as public event data (engine seats become match seats)."""
        order = state["order"]

        def seat_of(value: JSONValue) -> JSONValue:
            return order[value] if isinstance(value, int) and 0 <= value < len(order) else value

        data = dict(msg.data)
        for key in SEAT_KEYS:
            if key in data:
                value = data[key]
                data[key] = [seat_of(v) for v in value] if isinstance(value, list) else seat_of(value)
        return {"kind": "gm", "seat": seat_of(msg.seat) if msg.seat >= 0 else None,
                "number": msg.seat + 1 if msg.seat >= 0 else None, "code": msg.code, "text": msg.text,
                "data": data}

    def turn_order(self, state: JSON) -> tuple[int, ...]:
        return tuple(state["order"])

    def awaiting(self, state: JSON) -> int | None:
        if state["game"] is None:
            return int(state["order"][len(state["chosen"])])
        return self._awaiting(state, self._game(state))

    @staticmethod
    def _awaiting(state: Mapping[str, Any], game: GameState) -> int | None:
        engine_seat = rules.whose_turn(game)
        return None if engine_seat is None else int(state["order"][engine_seat])

    def legal_actions(self, state: JSON, seat: int) -> list[JSON]:
        """The awaited seat: every one-step turn the engine accepts now, or the starts, and the pause while
        unused. Another seat: the timer call while it may be called (an out-of-turn action)."""
        game = None if state["game"] is None else self._game(state)
        awaited = self.awaiting(state) if game is None else self._awaiting(state, game)
        if awaited is None:
            return []
        if awaited != seat:
            return [dict(TIMER_ACTION)] if paper_clock.may_call(state) else []
        if game is None:
            own = [{"type": "start", "cell": k} for k in range(len(self._stored(state).cells))]
        else:
            own = self._turns(state, game, seat)
        return own + ([dict(PAUSE_ACTION)] if paper_clock.may_pause(state, seat) else [])

    def _turns(self, state: JSON, game: GameState, seat: int) -> list[JSON]:
        """Every one-step turn the engine accepts now. The engine's ``check_turn`` is exactly the refusal
        part of ``rules.apply`` (the turn itself never refuses); tests apply every listed action."""
        engine_seat = state["order"].index(seat)
        found = []
        variant = game.options.variant
        for action, turn in zip(_candidates(variant), _candidate_turns(variant)):
            try:  # the engine's own check of a turn (public facts only); apply runs it first
                rules.check_turn(game, engine_seat, turn)
            except Refused:
                continue
            found.append(action)
        return found

    def check_action(self, state: JSON, action: Mapping[str, Any]) -> None:
        self._parse(state, action)

    def _parse(self, state: Mapping[str, Any], action: Mapping[str, Any]) -> Pos | Turn | str:
        """The start cell of a ``start`` action, the engine's ``Turn``, or "timer" / "pause";
        ActionRefused(input) if malformed."""
        cells = self._stored(state).cells
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
            raise ActionFormatError("type is \"start\" (before the game), \"turn\", \"timer\" or \"pause\".",
                                    "type")
        except ActionFormatError as exc:
            raise ActionRefused("bad_action", exc.problem, kind="input",
                                details={"field": exc.field, "cells": len(cells)}) from exc

    def apply(self, state: JSON, seat: int, action: Mapping[str, Any],
              rng: random.Random) -> tuple[JSON, Sequence[Event]]:
        parsed = self._parse(state, action)
        if isinstance(parsed, str):
            return self._clock_action(state, seat, parsed)
        engine_seat = state["order"].index(seat)
        number = engine_seat + 1
        if state["game"] is None:
            if not isinstance(parsed, tuple):
                raise ActionRefused("choose_start_first", "Every player first chooses a start cell.")
            chosen, events = self._chosen(state, parsed, rng)
            return paper_clock.turn_over(chosen), events
        if isinstance(parsed, tuple):
            raise ActionRefused("game_started", "The start cells are chosen: the game is on.")
        try:
            game, messages = rules.apply(self._game(state), engine_seat, parsed, rng)
        except Refused as exc:
            raise ActionRefused(exc.code, exc.detail) from exc
        heard = Event({"kind": "request", "seat": seat, "number": number, "request": public_request(action)})
        return (paper_clock.turn_over({**state, "game": state_to_json(game)}),
                [heard, *(Event(self._event_data(state, msg)) for msg in messages)])

    def _clock_action(self, state: JSON, seat: int, kind: str) -> tuple[JSON, list[Event]]:
        """A timer call (by a seat not awaited) or the awaited seat's pause: a public event, no game step."""
        awaited = self.awaiting(state)
        try:
            if kind == "timer":
                assert awaited is not None  # the machinery asks nothing of a game that is over
                new, data = paper_clock.call(state, seat, awaited)
            elif seat != awaited:
                raise ClockRefused("not_your_turn", "A pause is taken before one's own move.")
            else:
                new, data = paper_clock.pause(state, seat)
        except ClockRefused as exc:
            raise ActionRefused(exc.code, exc.message) from exc
        return new, [Event(data)]

    def _chosen(self, state: JSON, start: Pos, rng: random.Random) -> tuple[JSON, list[Event]]:
        stored = self._stored(state)
        seat = self.awaiting(state)
        number = len(state["chosen"]) + 1
        chosen = {**state, "chosen": [*state["chosen"], stored.cells.index(start)]}
        events = [Event({"kind": "start_chosen", "seat": seat, "number": number,
                         "text": f"Игрок {number} выбрал начальную клетку."})]
        if len(chosen["chosen"]) < len(state["order"]):
            return chosen, events
        began, more = self._begin(chosen, rng)
        return began, events + more

    def deadline_seconds(self, state: JSON, seconds: int) -> int | None:
        """The clock's: a pause, the minute, or the game master's patience; the admin's ``seconds`` on an
        "every_turn" table."""
        return paper_clock.deadline_seconds(state, seconds)

    def timeout(self, state: JSON, seat: int, rng: random.Random) -> tuple[JSON, Sequence[Event]]:
        """A pause over or the game master's patience spent: the minute starts. The minute (or an
        "every_turn" deadline) spent: before the game the start is drawn; in the game the player loses
        (C§9)."""
        expired = paper_clock.expire(state, seat)
        if expired is not None:
            new, data = expired
            return new, [Event(data)]
        if state["game"] is None:
            cells = self._stored(state).cells
            chosen, events = self._chosen(state, cells[rng.randrange(len(cells))], rng)
            return paper_clock.turn_over(chosen), events
        game, messages = rules.timeout(self._game(state), state["order"].index(seat))
        return (paper_clock.turn_over({**state, "game": state_to_json(game)}),
                [Event(self._event_data(state, m)) for m in messages])

    def view(self, state: JSON, seat: int) -> JSON:
        """What ``seat`` may know: the outline (its own plan), its own status, the public record."""
        m = self._stored(state).map
        engine_seat = state["order"].index(seat)
        outline = [[(r, c) in m.cells for c in range(m.cols)] for r in range(m.rows)]
        base: JSON = {"variant": state["options"]["variant"], "number": engine_seat + 1,
                      "outline": outline, "cell_count": len(m.cells), "opening": state["opening"],
                      "clock": paper_clock.clock_view(state, seat)}
        if state["game"] is None:
            return {**base, "phase": "choosing_starts", "start_chosen": engine_seat < len(state["chosen"]),
                    "status": None, "turns_played": 0, "last_answers": {}, "result": None}
        game = self._game(state)
        result = rules.outcome(game)
        last = {str(state["order"][e]): [self._event_data(state, msg) for msg in msgs]
                for e, msgs in sorted(game.last.items())}
        return {**base, "phase": "playing" if result is None else "over",
                "status": rules.status(game, engine_seat), "turns_played": game.turn, "last_answers": last,
                "result": None if result is None else self._result(state, result)}

    def _result(self, state: Mapping[str, Any], result: Any) -> JSON:
        seat = None if result.seat is None else state["order"][result.seat]
        return {"kind": result.kind, "seat": seat, "reason": result.reason}

    def outcome(self, state: JSON) -> Outcome | None:
        if state["game"] is None:
            return None
        result = rules.outcome(self._game(state))
        if result is None:
            return None
        details = self._result(state, result)
        winners = () if details["seat"] is None else (details["seat"],)
        return Outcome(winners, {"paper": details})

    def full_view(self, state: JSON) -> JSON:
        """After the end everything is shown, as the paper game master shows the map (the starts too),
        when ``may_reveal`` allows it."""
        return dict(state)

    def may_reveal(self, settings: Mapping[str, Any], state: JSON) -> bool:
        """A generated map (from the match's own seed), or a designer map no longer in the pool: while
        lobbies may still name it, showing it would make every later game on it transparent."""
        from paper_labyrinth.models import PaperMapDesign

        return not PaperMapDesign.in_pool(settings.get("map"))

    def picture(self, state: JSON) -> str:
        """The map as it is now (walls blown, exits opened, items moved), every secret shown (admin only)."""
        if state["game"] is None:
            return paper_map_svg(self._stored(state).map)
        game = self._game(state)
        piles = game.piles
        now = dataclasses.replace(
            game.map, walls=frozenset(game.walls), outer=dict(game.outer),
            treasures={pos: tuple(p.treasures) for pos, p in piles.items() if p.treasures},
            bullets={pos: p.bullets for pos, p in piles.items() if p.bullets},
            grenades={pos: p.grenades for pos, p in piles.items() if p.grenades},
            mines={pos: p.mines + p.armed for pos, p in piles.items() if p.mines + p.armed})
        return _with_players(paper_map_svg(now, size=PICTURE_CELL), game)

    def state_to_json(self, state: JSON) -> JSON:
        return dict(state)

    def state_from_json(self, data: Mapping[str, Any]) -> JSON:
        return dict(data)
