"""The hosted match mode `labyrinth_console`: seed 003's game (labyrinth/engine/console.py) on matches.

Settings: ``map`` (the id of a designer map that passes check) or, with ``map`` null, a map of
``rows`` x ``cols`` generated from the match seed; ``max_turns`` (null: none, the seed's rule)
ends a game nobody has won after that many spent turns, as a draw. Seats play in an order drawn at the start;
start positions are drawn at random (hidden). An action is one of the seed's commands,
``{"command": "W"}``, ``{"command": "X D"}``, ``{"command": "E"}``, ``{"command": "?"}`` (any
case). Every answer of the game master is a private event of the seat it is for; only the win is
public. The state holds the map text, so the replay (seed, settings, actions, final state)
reproduces the game; the admin's generator settings are frozen into the lobby's settings.
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
)
from matches.modes import JSON, ActionRefused, Event, ModeAdapter, Outcome

MIN_SIDE = 3
MAX_SIDE = 50
MAX_TURNS = 100_000
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
    min_players = 2
    max_players = 8

    # -- settings --

    def default_settings(self) -> JSON:
        return {"map": None, "rows": 8, "cols": 8, "max_turns": None}

    def validate_settings(self, settings: Mapping[str, Any]) -> JSON:
        """The complete settings. ``generator`` is always the admin's generator settings of the moment
        (a given one, e.g. in stored defaults, is replaced), frozen into the lobby so the seed and the
        settings replay the same map whatever designers change later."""
        unknown = sorted(set(settings) - {*self.default_settings(), "generator"})
        if unknown:
            raise ActionRefused("unknown_setting", "Settings are map, rows, cols and max_turns.",
                                kind="input",
                                details={"unknown": unknown})
        complete = {**self.default_settings(), **settings}
        complete.pop("generator", None)
        limit = complete["max_turns"]
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)
                                  or not 1 <= limit <= MAX_TURNS):
            raise ActionRefused("bad_max_turns", f"max_turns is null (no limit) or 1 to {MAX_TURNS}.",
                                kind="input", details={"max_turns": limit})
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
            return {**complete, "generator": None}
        return {**complete, "generator": _generator_settings()}

    # -- the game --

    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> JSON:
        order = list(range(seats))
        rng.shuffle(order)
        if settings["map"] is not None:
            m = _designer_map(settings["map"])
        else:
            generator = GeneratorSettings(**settings["generator"])
            m = generate_map(settings["rows"], settings["cols"], rng, generator)
        game = new_game(m, [None] * seats, rng)
        return {"map": format_map(m), "order": order, "max_turns": settings["max_turns"], "draw": False,
                "game": game_to_dict(game)}

    def _game(self, state: JSON) -> ConsoleGame:
        return game_from_dict(parse_map(state["map"]), state["game"])

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
        return None if game["winner"] is not None or state["draw"] else state["order"][game["turn"]]

    def legal_actions(self, state: JSON, seat: int) -> list[JSON]:
        return [{"command": c} for c in COMMANDS] if self.awaiting(state) == seat else []

    def check_action(self, state: Any, action: Mapping[str, Any]) -> None:
        text = action.get("command")
        if set(action) != {"command"} or not isinstance(text, str) or parse_command(text) is None:
            raise ActionRefused("bad_command", "An action is {\"command\": C}, C one of W, A, S, D, "
                                "X <W/A/S/D>, E, ? (any case).", kind="input",
                                details={"commands": list(COMMANDS)})

    def apply(self, state: JSON, seat: int, action: Mapping[str, Any],
              rng: random.Random) -> tuple[JSON, Sequence[Event]]:
        self.check_action(state, action)
        command = parse_command(action["command"])
        assert command is not None
        game, events = act(self._game(state), state["order"].index(seat), command)
        return self._step(state, game, events)

    def timeout(self, state: JSON, seat: int, rng: random.Random) -> tuple[JSON, Sequence[Event]]:
        game, events = pass_turn(self._game(state), state["order"].index(seat))
        return self._step(state, game, events)

    def view(self, state: JSON, seat: int) -> JSON:
        """What the seat knows: the size of the real field, its own inventory, who won; no positions."""
        game = self._game(state)
        me = game.players[state["order"].index(seat)]
        field0 = game.map.fields[0]
        winner = game.winner
        return {
            "field": {"rows": field0.rows, "cols": field0.cols},
            "inventory": {"ammo": me.ammo, "key": me.keys > 0},
            "commands": list(COMMANDS),
            "help": HELP_TEXT,
            "turns_played": game.turns_played,
            "winner": None if winner is None else state["order"][winner],
        }

    def outcome(self, state: JSON) -> Outcome | None:
        winner = state["game"]["winner"]
        if winner is not None:
            return Outcome((state["order"][winner],))
        return Outcome((), {"reason": "turn_limit"}) if state["draw"] else None

    def picture(self, state: JSON) -> str:
        """The map with every player's cells tinted: bodies, and spirits in their dreams."""
        game = self._game(state)
        cells = {cell for p in game.players for cell in (p.body, p.cell)}
        return map_svg(game.map, highlight=sorted(cells))

    def state_to_json(self, state: JSON) -> JSON:
        return dict(state)

    def state_from_json(self, data: Mapping[str, Any]) -> JSON:
        return dict(data)
