"""The hosted match mode `labyrinth_console`: seed 003's game (labyrinth/engine/console.py) on matches.

Settings: ``map`` (the id of a designer map that passes check; one deactivated before the start
gives a generated map instead) or, with ``map`` null, a map of ``rows`` x ``cols`` generated from
the match seed; ``max_turns`` (null: none, the seed's rule)
ends a game nobody has won after that many spent turns, as a draw; ``start_positions`` "random"
draws the hidden starts, "chosen" lets each player first send ``{"start": [row, col]}`` in secret.
Seats play in an order drawn at the start; one player alone plays the seed's single-player game
(its command line's default), with no deadline. An action is one of the seed's commands,
``{"command": "W"}``, ``{"command": "X D"}``, ``{"command": "E"}``, ``{"command": "?"}`` (any
case). Every answer of the game master is a private event of the seat it is for. The state holds
the map text and the lobby's settings freeze the admin's generator settings, so the replay
(seed, settings, actions, final state) reproduces the game; a designer map still in the pool is
never revealed (``may_reveal``). See docs/labyrinth.md.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from labyrinth.engine import GeneratorSettings, LabyrinthMap, format_map, generate_map, parse_map
from labyrinth.engine.svg import map_svg
from labyrinth.engine.console import (
    HELP_TEXT,
    ConsoleGame,
    Event as GameEvent,
    act,
    describe,
    game_from_dict,
    game_to_dict,
    new_game,
    parse_command,
    pass_turn,
    random_start,
)
from matches.modes import JSON, ActionRefused, Event, ModeAdapter, Outcome

MIN_SIDE = 3
MAX_SIDE = 50
MAX_TURNS = 100_000
START_POSITIONS = ("random", "chosen")
MAX_ID = 2**31 - 1  # a larger id cannot be a row's (and would overflow the database's integer)
COMMANDS = ("W", "A", "S", "D", "X W", "X A", "X S", "X D", "E", "?")


def _designer_map(map_id: int) -> LabyrinthMap:
    """An active designer map (active maps always pass check); ActionRefused(input) for any other id."""
    from labyrinth.models import LabyrinthMapDesign

    row = LabyrinthMapDesign.objects.active().filter(pk=map_id).first()
    if row is None:
        raise ActionRefused("unknown_map", "No such active labyrinth map.", kind="input",
                            details={"map": map_id})
    return row.to_map()


def _generator_settings() -> JSON:
    """The generator settings designers set in the admin, as JSON (frozen into a lobby's settings)."""
    from labyrinth.models import LabyrinthGeneratorSettings

    return dataclasses.asdict(LabyrinthGeneratorSettings.load().to_settings())


class LabyrinthConsoleMode(ModeAdapter):
    name = "labyrinth_console"
    title = "Labyrinth (seed 003's console game)"
    min_players = 1
    max_players = 8

    # -- settings --

    def default_settings(self) -> JSON:
        return {"map": None, "rows": 8, "cols": 8, "max_turns": None, "start_positions": "random"}

    def validate_settings(self, settings: Mapping[str, Any]) -> JSON:
        """The complete settings. ``generator`` is always the admin's generator settings of the moment
        (a given one, e.g. in stored defaults, is replaced), frozen into the lobby so the seed and the
        settings replay the same map whatever designers change later; with a designer map too, for the
        generated map that replaces it if it is deactivated before the start."""
        unknown = sorted(set(settings) - {*self.default_settings(), "generator"})
        if unknown:
            raise ActionRefused("unknown_setting", "Settings are map, rows, cols, max_turns and "
                                "start_positions.", kind="input", details={"unknown": unknown})
        complete = {**self.default_settings(), **settings}
        complete.pop("generator", None)
        limit = complete["max_turns"]
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)
                                  or not 1 <= limit <= MAX_TURNS):
            raise ActionRefused("bad_max_turns", f"max_turns is null (no limit) or 1 to {MAX_TURNS}.",
                                kind="input", details={"max_turns": limit})
        if complete["start_positions"] not in START_POSITIONS:
            raise ActionRefused("bad_start_positions", "start_positions is \"random\" or \"chosen\".",
                                kind="input", details={"start_positions": complete["start_positions"]})
        for side in ("rows", "cols"):
            value = complete[side]
            if not isinstance(value, int) or isinstance(value, bool) or not MIN_SIDE <= value <= MAX_SIDE:
                raise ActionRefused("bad_size", f"{side} is a whole number from {MIN_SIDE} to {MAX_SIDE}.",
                                    kind="input", details={side: value})
        map_id = complete["map"]
        if map_id is not None:
            if not isinstance(map_id, int) or isinstance(map_id, bool) or not 1 <= map_id <= MAX_ID:
                raise ActionRefused("unknown_map", "map is a map id or null.", kind="input",
                                    details={"map": map_id})
            _designer_map(map_id)
        return {**complete, "generator": _generator_settings()}

    # -- the game --

    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> JSON:
        order = list(range(seats))
        rng.shuffle(order)
        try:  # a designer map is read at the start (the lobby's public settings hold only its id)
            m = None if settings["map"] is None else _designer_map(settings["map"])
        except ActionRefused:
            m = None  # deactivated since the lobby opened: a generated map instead, as the paper mode does
        if m is None:
            # Lobbies opened before the generator was frozen with designer maps too have none.
            generator = GeneratorSettings(**(settings["generator"] or {}))
            m = generate_map(settings["rows"], settings["cols"], rng, generator)
        state = {"map": format_map(m), "order": order, "max_turns": settings["max_turns"], "draw": False,
                 "starts": [], "game": None}
        if settings["start_positions"] == "random":
            state["game"] = game_to_dict(new_game(m, [None] * seats, rng))
        return state

    def _game(self, state: JSON) -> ConsoleGame:
        return game_from_dict(parse_map(state["map"]), state["game"])

    def _choose(self, state: JSON, seat: int, start: tuple[int, int] | None,
                rng: random.Random) -> tuple[JSON, list[Event]]:
        """Before the game: ``seat`` chooses its hidden start (None: drawn, after a missed deadline)."""
        m = parse_map(state["map"])
        events = []
        if start is None:
            _, row, col = random_start(m, rng)
            start = (row, col)
        else:
            text = f"Your start position is ({start[0]}, {start[1]})."
            events.append(Event({"kind": "start_chosen", "row": start[0], "col": start[1], "text": text},
                                frozenset({seat})))
        starts = [*state["starts"], list(start)]
        state = {**state, "starts": starts}
        if len(starts) == len(state["order"]):
            game = new_game(m, [(r, c) for r, c in starts], rng)
            state["game"] = game_to_dict(game)
            events.append(Event({"kind": "game_started",
                                 "text": "Every player has a start: the game begins."}))
        return state, events

    def _step(self, state: JSON, game: ConsoleGame, events: Sequence[GameEvent]) -> tuple[JSON, list[Event]]:
        """The new state and the match events; the turn limit (if any) ends a game nobody won as a draw."""
        found = self._events(state, events)
        limit = state["max_turns"]
        draw = not game.over and limit is not None and game.turns_played >= limit
        if draw:
            found.append(Event({"kind": "turn_limit", "max_turns": limit,
                                "text": f"{limit} turns have been played and nobody got out: a draw."}))
        return {**state, "game": game_to_dict(game), "draw": draw}, found

    def _events(self, state: JSON, events: Sequence[GameEvent]) -> list[Event]:
        order = state["order"]
        found = []
        for event in events:
            data = {key: value for key, value in event.to_dict().items() if key != "player"}
            if "winner" in data:
                data["winner"] = order[data["winner"]]
            data["text"] = describe(event)
            found.append(Event(data, None if event.player is None else frozenset({order[event.player]})))
        return found

    def turn_order(self, state: JSON) -> tuple[int, ...]:
        return tuple(state["order"])

    def awaiting(self, state: JSON) -> int | None:
        game = state["game"]
        if game is None:
            return int(state["order"][len(state["starts"])])
        return None if game["winner"] is not None or state["draw"] else state["order"][game["turn"]]

    def legal_actions(self, state: JSON, seat: int) -> list[JSON]:
        if self.awaiting(state) != seat:
            return []
        if state["game"] is None:
            return [{"start": [r, c]} for _, r, c in parse_map(state["map"]).cells(0)]
        return [{"command": c} for c in COMMANDS]

    def _start(self, state: JSON, action: Mapping[str, Any]) -> tuple[int, int]:
        """The chosen start of a ``{"start": [r, c]}`` action, or ActionRefused(input)."""
        start = action.get("start")
        if set(action) == {"start"} and isinstance(start, list) and len(start) == 2 \
                and all(isinstance(v, int) and not isinstance(v, bool) for v in start):
            row, col = start
            if parse_map(state["map"]).contains((0, row, col)):
                return row, col
        raise ActionRefused("bad_start", "Before the game each player sends {\"start\": [row, col]}, "
                            "a cell of the field.", kind="input", details={"field": self._field(state)})

    def _field(self, state: JSON) -> dict[str, int]:
        field0 = parse_map(state["map"]).fields[0]
        return {"rows": field0.rows, "cols": field0.cols}

    def check_action(self, state: Any, action: Mapping[str, Any]) -> None:
        if state["game"] is None:
            self._start(state, action)
            return
        text = action.get("command")
        if set(action) != {"command"} or not isinstance(text, str) or parse_command(text) is None:
            raise ActionRefused("bad_command", "An action is {\"command\": C}, C one of W, A, S, D, "
                                "X <W/A/S/D>, E, ? (any case).", kind="input",
                                details={"commands": list(COMMANDS)})

    def apply(self, state: JSON, seat: int, action: Mapping[str, Any],
              rng: random.Random) -> tuple[JSON, Sequence[Event]]:
        self.check_action(state, action)
        if state["game"] is None:
            return self._choose(state, seat, self._start(state, action), rng)
        command = parse_command(action["command"])
        assert command is not None
        game, events = act(self._game(state), state["order"].index(seat), command)
        return self._step(state, game, events)

    def deadline_seconds(self, state: JSON, seconds: int) -> int | None:
        """None for a lone player: nobody waits for them (the seed's command line has no clock either),
        and a missed deadline would throw the game away (a whole round of timeouts abandons a match)."""
        return None if len(state["order"]) == 1 else seconds

    def timeout(self, state: JSON, seat: int, rng: random.Random) -> tuple[JSON, Sequence[Event]]:
        if state["game"] is None:
            return self._choose(state, seat, None, rng)
        game, events = pass_turn(self._game(state), state["order"].index(seat))
        return self._step(state, game, events)

    def view(self, state: JSON, seat: int) -> JSON:
        """What the seat knows: the size of the real field, its own inventory, who won; no positions."""
        if state["game"] is None:
            return {"field": self._field(state), "choosing_starts": True,
                    "inventory": {"ammo": 0, "key": False},
                    "commands": [], "help": "Choose your hidden start: {\"start\": [row, col]}.",
                    "turns_played": 0, "winner": None}
        game = self._game(state)
        me = game.players[state["order"].index(seat)]
        field0 = game.map.fields[0]
        winner = game.winner
        return {
            "field": {"rows": field0.rows, "cols": field0.cols},
            "choosing_starts": False,
            "inventory": {"ammo": me.ammo, "key": me.keys > 0},
            "commands": list(COMMANDS),
            "help": HELP_TEXT,
            "turns_played": game.turns_played,
            "winner": None if winner is None else state["order"][winner],
        }

    def outcome(self, state: JSON) -> Outcome | None:
        if state["game"] is None:
            return None
        winner = state["game"]["winner"]
        if winner is not None:
            return Outcome((state["order"][winner],))
        return Outcome((), {"reason": "turn_limit"}) if state["draw"] else None

    def may_reveal(self, settings: Mapping[str, Any], state: JSON) -> bool:
        """A map generated from the match's own seed, or a designer map no longer in the pool (lobbies
        name designer maps by id, so while it is active every later game on it would be transparent)."""
        from labyrinth.models import LabyrinthMapDesign

        return not LabyrinthMapDesign.in_pool(settings.get("map"))

    def picture(self, state: JSON) -> str:
        """The map with every player's cells tinted: bodies, and spirits in their dreams."""
        if state["game"] is None:
            return map_svg(parse_map(state["map"]))
        game = self._game(state)
        cells = {cell for p in game.players for cell in (p.body, p.cell)}
        return map_svg(game.map, highlight=sorted(cells))

    def state_to_json(self, state: JSON) -> JSON:
        return dict(state)

    def state_from_json(self, data: Mapping[str, Any]) -> JSON:
        return dict(data)
