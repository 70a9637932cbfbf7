"""The hosted match mode `labyrinth_console`: seed 003's game (labyrinth/engine/console.py) on matches.

Settings: ``map`` (the id of a designer map that passes check; one deactivated before the start
gives a generated map instead) or, with ``map`` null, a map of ``rows`` x ``cols`` generated from
the match seed; ``max_turns`` (null: none, the seed's rule)
ends a game nobody has won after that many spent turns, as a draw; ``start_positions`` "random"
draws the hidden starts, "chosen" lets each player first send ``{"start": [row, col]}`` in secret
(the framework's ``SecretStart`` phase; a missed deadline draws the start).
Seats play in an order drawn at the start; one player alone plays the seed's single-player game
(its command line's default), with no deadline. An action is one of the seed's commands,
``{"command": "W"}``, ``{"command": "X D"}``, ``{"command": "E"}``, ``{"command": "?"}`` (any
case). Every answer of the game master is a private event of the seat it is for, stored as kind and
data and said at read time in the reader's language (``texts.py``). The state is a
``ConsoleState`` (frozen; stored as the JSON it always was): it holds the map text and the
lobby's settings freeze the admin's generator settings, so the replay (seed, settings, actions,
final state) reproduces the game; a designer map still in the pool is
never revealed (``may_reveal``). See docs/labyrinth.md.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from gamekit.results import Impossible, Success
from labyrinth.engine import GeneratorSettings, LabyrinthMap, format_map, generate_map, parse_map
from labyrinth.engine.bots import BOTS
from labyrinth.engine.console import (
    ConsoleGame,
    act,
    game_from_dict,
    game_to_dict,
    new_game,
    parse_command,
    pass_turn,
    random_start,
)
from labyrinth.engine.console import (
    Event as GameEvent,
)
from labyrinth.engine.svg import map_svg
from labyrinth.texts import event_text, help_text, start_help
from matches.modes import (
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
    choice,
    events,
    integer,
    mapping,
    nullable,
    shape,
)

MIN_SIDE = 3
MAX_SIDE = 50
MAX_TURNS = 100_000
START_POSITIONS = ("random", "chosen")
MAX_ID = 2**31 - 1  # a larger id cannot be a row's (and would overflow the database's integer)
COMMANDS = ("W", "A", "S", "D", "X W", "X A", "X S", "X D", "E", "?")

Start = tuple[int, int]


def _designer_map(map_id: int) -> LabyrinthMap | Impossible:
    """An active designer map (active maps always pass check); Impossible (input) for any other id."""
    from labyrinth.models import LabyrinthMapDesign

    row = LabyrinthMapDesign.objects.active().filter(pk=map_id).first()
    if row is None:
        return Impossible("unknown_map", "No such active labyrinth map.", {"map": map_id}, kind="input")
    designed: LabyrinthMap = row.to_map()
    return designed


def _generator_settings() -> JSON:
    """The generator settings designers set in the admin, as JSON (frozen into a lobby's settings)."""
    from labyrinth.models import LabyrinthGeneratorSettings

    return dataclasses.asdict(LabyrinthGeneratorSettings.load().to_settings())


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class ConsoleState:
    """A match of the console game: the hidden map (its text as stored, and parsed), the seats in turn
    order, the turn limit, whether it ended in a draw, the chosen starts, and the game once it began."""

    map_text: str
    map: LabyrinthMap
    order: tuple[int, ...]
    max_turns: int | None
    draw: bool = False
    starts: tuple[Start, ...] = ()
    game: ConsoleGame | None = None

    def field(self) -> dict[str, int]:
        field0 = self.map.fields[0]
        return {"rows": field0.rows, "cols": field0.cols}

    def to_json(self) -> JSON:
        return {"map": self.map_text, "order": list(self.order), "max_turns": self.max_turns,
                "draw": self.draw, "starts": [list(start) for start in self.starts],
                "game": None if self.game is None else game_to_dict(self.game)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ConsoleState:
        m = parse_map(data["map"])
        return cls(map_text=data["map"], map=m, order=tuple(data["order"]), max_turns=data["max_turns"],
                   draw=data["draw"], starts=tuple((r, c) for r, c in data["starts"]),
                   game=None if data["game"] is None else game_from_dict(m, data["game"]))


class ConsoleStarts(StartRules[ConsoleState, Start]):
    """Seed 003's hidden starts chosen by the players (``start_positions`` "chosen"): a cell of field 0,
    told to its chooser alone."""

    def chosen(self, state: ConsoleState) -> Sequence[Start] | None:
        return state.starts if state.game is None else None

    def order(self, state: ConsoleState) -> Sequence[int]:
        return state.order

    def choices(self, state: ConsoleState) -> list[JSON]:
        return [{"start": [r, c]} for _, r, c in state.map.cells(0)]

    def parse(self, state: ConsoleState, action: Mapping[str, Any]) -> Start | Impossible:
        start = action.get("start")
        if (set(action) == {"start"} and isinstance(start, list) and len(start) == 2
                and all(map(_is_int, start))):
            row, col = start
            if state.map.contains((0, row, col)):
                return row, col
        return Impossible("bad_start", "Before the game each player sends {\"start\": [row, col]}, a cell of "
                          "the field.", {"field": state.field()}, kind="input")

    def draw(self, state: ConsoleState, rng: random.Random) -> Start:
        _, row, col = random_start(state.map, rng)
        return row, col

    def record(self, state: ConsoleState, start: Start) -> ConsoleState:
        return replace(state, starts=(*state.starts, start))

    def told(self, state: ConsoleState, seat: int, start: Start) -> JSON:
        return {"kind": "start_chosen", "row": start[0], "col": start[1]}

    def begin(self, state: ConsoleState, rng: random.Random) -> Success[ConsoleState, Event]:
        game = new_game(state.map, list(state.starts), rng)
        began = Event({"kind": "game_started"})
        return Success(replace(state, game=game), (began,))

    def view(self, state: ConsoleState, seat: int) -> JSON:
        return {"field": state.field(), "choosing_starts": True, "inventory": {"ammo": 0, "key": False},
                "commands": [], "help": start_help(),
                "turns_played": 0, "winner": None}


def _game(state: ConsoleState) -> ConsoleGame:
    assert state.game is not None, "the starts are still being chosen"
    return state.game


class ConsolePlay(Phase[ConsoleState]):
    """Seed 003's commands in turn order; a missed deadline lets the turn go by; a turn limit (if any)
    ends a game nobody has won as a draw."""

    def awaiting(self, state: ConsoleState) -> int | None:
        game = _game(state)
        return None if game.winner is not None or state.draw else state.order[game.turn]

    def legal_actions(self, state: ConsoleState, seat: int) -> list[JSON]:
        return [{"command": c} for c in COMMANDS] if self.awaiting(state) == seat else []

    def check_action(self, state: ConsoleState, action: Mapping[str, Any]) -> Impossible | None:
        text = action.get("command")
        if set(action) != {"command"} or not isinstance(text, str) or parse_command(text) is None:
            return Impossible("bad_command", "An action is {\"command\": C}, C one of W, A, S, D, "
                              "X <W/A/S/D>, E, ? (any case).", {"commands": list(COMMANDS)}, kind="input")
        return None

    def apply(self, state: ConsoleState, seat: int, action: Mapping[str, Any],
              rng: random.Random) -> Moved[ConsoleState]:
        malformed = self.check_action(state, action)
        if malformed is not None:
            return malformed
        command = parse_command(action["command"])
        assert command is not None
        game, events = act(_game(state), state.order.index(seat), command)
        return self._step(state, game, events)

    def timeout(self, state: ConsoleState, seat: int, rng: random.Random) -> Success[ConsoleState, Event]:
        game, events = pass_turn(_game(state), state.order.index(seat))
        return self._step(state, game, events)

    def _step(self, state: ConsoleState, game: ConsoleGame,
              events: Sequence[GameEvent]) -> Success[ConsoleState, Event]:
        """The new state and the match events; the turn limit (if any) ends a game nobody won as a draw."""
        found = [_event(state, event) for event in events]
        limit = state.max_turns
        draw = not game.over and limit is not None and game.turns_played >= limit
        if draw:
            found.append(Event({"kind": "turn_limit", "max_turns": limit}))
        return Success(replace(state, game=game, draw=draw), tuple(found))

    def view(self, state: ConsoleState, seat: int) -> JSON:
        """What the seat knows: the size of the real field, its own inventory, who won; no positions."""
        game = _game(state)
        me = game.players[state.order.index(seat)]
        winner = game.winner
        return {
            "field": state.field(),
            "choosing_starts": False,
            "inventory": {"ammo": me.ammo, "key": me.keys > 0},
            "commands": list(COMMANDS),
            "help": help_text(),
            "turns_played": game.turns_played,
            "winner": None if winner is None else state.order[winner],
        }


def _event(state: ConsoleState, event: GameEvent) -> Event:
    """A game master's answer as a match event, private to the seat it is for (the win is public): its kind
    and data; the help's text is the mode's, said in the reader's language (texts.py)."""
    data = {key: value for key, value in event.to_dict().items() if key not in ("player", "text")}
    if "winner" in data:
        data["winner"] = state.order[data["winner"]]
    return Event(data, None if event.player is None else frozenset({state.order[event.player]}))



#: the details of an outcome (``outcome``)
DETAILS: dict[str, JSON] = {"max_turns": nullable(WHOLE)}
#: a spectator's view (``public_view``): what the whole table is told, never the map, its size or a position
PUBLIC_VIEW_SCHEMA = shape({
    "phase": {"enum": ["choosing_starts", "playing", "over"]}, "starts_chosen": WHOLE, "turns_played": WHOLE,
    "winner": nullable(WHOLE), "draw": FLAG,
})
#: the view in both phases (``ConsoleStarts.view``, ``ConsolePlay.view``); after the end, what was
#: hidden under ``revealed`` (``revealed``): the map in the seed's text format and each seat's cells
_PLACE = array(WHOLE, length=3)
VIEW_SCHEMA = shape(
    {"field": shape({"rows": WHOLE, "cols": WHOLE}), "choosing_starts": FLAG,
     "inventory": shape({"ammo": WHOLE, "key": FLAG}), "commands": array({"enum": list(COMMANDS)}),
     "help": TEXT, "turns_played": WHOLE, "winner": nullable(WHOLE)},
    {"revealed": shape({"map": TEXT, "players": mapping(shape({"start": array(WHOLE)},
                                                              {"body": _PLACE, "cell": _PLACE}))})},
)
ACTION_SCHEMA: JSON = {"oneOf": [
    shape({"command": TEXT}, description="A command: W, A, S, D, X <W/A/S/D>, E or ? (any case)."),
    shape({"start": array(WHOLE, length=2)}, description="While the starts are chosen: [row, col]."),
]}
#: the game master's answers (``labyrinth.engine.console``: their data without the hearer, who is the event's
#: only reader, and without the help's English text, said in the reader's language), the secret start, the
#: turn limit, by kind
_NONE = shape({})
EVENT_SCHEMA = events({
    "moved": _NONE, "wall": _NONE, "teleported": _NONE, "key_found": _NONE, "exit_locked": _NONE,
    "no_ammo": _NONE, "help": _NONE, "game_started": _NONE,
    "stunned": shape({"turns": WHOLE}), "turn_skipped": shape({"remaining": WHOLE}),
    "armory": shape({"ammo": WHOLE}), "shot": shape({"hit": FLAG, "ammo": WHOLE}),
    "killed": shape({"in_dream": FLAG}), "woke_up": shape({"ammo": WHOLE, "has_key": FLAG}),
    "inventory": shape({"ammo": WHOLE, "has_key": FLAG}),
    "won": shape({"winner": WHOLE}, description="winner: the seat that got out."),
    "start_chosen": shape({"row": WHOLE, "col": WHOLE}), "turn_limit": shape({"max_turns": WHOLE}),
}, details=DETAILS)
_NUMBER: JSON = {"type": "number"}
#: the admin's generator settings frozen into a lobby's settings (null in lobbies older than that)
GENERATOR_SCHEMA = nullable(shape({
    f.name: WHOLE if f.type in (int, "int") else _NUMBER for f in dataclasses.fields(GeneratorSettings)
}))


class LabyrinthConsoleMode(ModeAdapter[ConsoleState]):
    name = "labyrinth_console"
    title = gettext_lazy("Console labyrinth")
    min_players = 1
    max_players = 8
    settings_schema = {
        "map": integer(1, MAX_ID, nullable=True,
                       description="An active designer map's id; null: a map generated from the seed."),
        "rows": integer(MIN_SIDE, MAX_SIDE, description="Rows of a generated map."),
        "cols": integer(MIN_SIDE, MAX_SIDE, description="Columns of a generated map."),
        "max_turns": integer(1, MAX_TURNS, nullable=True,
                             description="Spent turns that end a game nobody won as a draw; null: no limit."),
        "start_positions": choice(*START_POSITIONS,
                                  description="random: drawn; chosen: each picks one in secret first."),
    }
    stored_settings_schema = {"generator": GENERATOR_SCHEMA}
    view_schema = VIEW_SCHEMA
    action_schema = ACTION_SCHEMA
    event_schema = EVENT_SCHEMA
    outcome_details = DETAILS
    phases = (SecretStart(ConsoleStarts()), ConsolePlay())
    bot_policies = BOTS
    #: watched at the table: the public view and events show no map (``public_view``)
    spectators = True
    public_view_schema = PUBLIC_VIEW_SCHEMA
    reasons = {
        "exit_reached": "The winner walked out of the labyrinth.",
        "turn_limit": "max_turns turns were played and nobody got out: a draw.",
    }

    # -- settings --

    def default_settings(self) -> JSON:
        return {"map": None, "rows": 8, "cols": 8, "max_turns": None, "start_positions": "random"}

    def validate_settings(self, settings: Mapping[str, Any]) -> JSON | Impossible:
        """The complete settings. ``generator`` is always the admin's generator settings of the moment
        (a given one, e.g. in stored defaults, is replaced), frozen into the lobby so the seed and the
        settings replay the same map whatever designers change later; with a designer map too, for the
        generated map that replaces it if it is deactivated before the start."""
        unknown = sorted(set(settings) - {*self.default_settings(), "generator"})
        if unknown:
            return Impossible("unknown_setting", "Settings are map, rows, cols, max_turns and "
                              "start_positions.", {"unknown": unknown}, kind="input")
        complete = {**self.default_settings(), **settings}
        complete.pop("generator", None)
        limit = complete["max_turns"]
        if limit is not None and (not _is_int(limit) or not 1 <= limit <= MAX_TURNS):
            message = gettext("max_turns is null (no limit) or 1 to %(limit)d.") % {"limit": MAX_TURNS}
            return Impossible("bad_max_turns", message,
                              {"max_turns": limit}, kind="input")
        if complete["start_positions"] not in START_POSITIONS:
            return Impossible("bad_start_positions", "start_positions is \"random\" or \"chosen\".",
                              {"start_positions": complete["start_positions"]}, kind="input")
        for side in ("rows", "cols"):
            value = complete[side]
            if not _is_int(value) or not MIN_SIDE <= value <= MAX_SIDE:
                message = gettext("%(key)s is a whole number from %(low)d to %(high)d.") % {
                    "key": side, "low": MIN_SIDE, "high": MAX_SIDE}
                return Impossible("bad_size", message, {side: value}, kind="input")
        map_id = complete["map"]
        if map_id is not None:
            if not _is_int(map_id) or not 1 <= map_id <= MAX_ID:
                return Impossible("unknown_map", "map is a map id or null.", {"map": map_id}, kind="input")
            designed = _designer_map(map_id)
            if isinstance(designed, Impossible):
                return designed
        return {**complete, "generator": _generator_settings()}

    # -- the game --

    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> ConsoleState:
        order = list(range(seats))
        rng.shuffle(order)
        # A designer map is read at the start (the lobby's public settings hold only its id); one
        # deactivated since the lobby opened gives a generated map instead, as the paper mode does.
        m = None if settings["map"] is None else _designer_map(settings["map"])
        if m is None or isinstance(m, Impossible):
            # Lobbies opened before the generator was frozen with designer maps too have none.
            generator = GeneratorSettings(**(settings["generator"] or {}))
            m = generate_map(settings["rows"], settings["cols"], rng, generator)
        state = ConsoleState(map_text=format_map(m), map=m, order=tuple(order),
                             max_turns=settings["max_turns"])
        if settings["start_positions"] == "random":
            return replace(state, game=new_game(m, [None] * seats, rng))
        return state

    def turn_order(self, state: ConsoleState) -> tuple[int, ...]:
        return state.order

    def deadline_seconds(self, state: ConsoleState, seconds: int) -> int | None:
        """None for a lone player: nobody waits for them (the seed's command line has no clock either),
        and a missed deadline would throw the game away (a whole round of timeouts abandons a match)."""
        return None if len(state.order) == 1 else seconds

    def outcome(self, state: ConsoleState) -> Outcome | None:
        if state.game is None:
            return None
        winner = state.game.winner
        if winner is not None:
            return Outcome((state.order[winner],), "exit_reached")
        return Outcome((), "turn_limit", {"max_turns": state.max_turns}) if state.draw else None

    def public_view(self, state: ConsoleState) -> JSON:
        """What every seat is told: the phase, how many starts are chosen (not where), the turns played, the
        winner's seat or the draw. Not the field's size (a designer map's would narrow it down), not a cell,
        not an inventory: those are each seat's own. The public events (the start, the win, the turn limit)
        carry no more; every answer of the game master is private to its seat."""
        game = state.game
        over = game is not None and (game.winner is not None or state.draw)
        winner = None if game is None or game.winner is None else state.order[game.winner]
        return {"phase": "choosing_starts" if game is None else "over" if over else "playing",
                "starts_chosen": len(state.starts) if game is None else len(state.order),
                "turns_played": 0 if game is None else game.turns_played, "winner": winner,
                "draw": state.draw}

    def may_reveal(self, settings: Mapping[str, Any], state: ConsoleState) -> bool:
        """A map generated from the match's own seed, or a designer map no longer in the pool (lobbies
        name designer maps by id, so while it is active every later game on it would be transparent)."""
        from labyrinth.models import LabyrinthMapDesign

        return not LabyrinthMapDesign.in_pool(settings.get("map"))

    def revealed(self, state: ConsoleState) -> JSON:
        """The map (the seed's text format) and, by seat, where each player started and stood at the end:
        their body on field 0 and their spirit's cell (the same while awake); before the game began, the
        starts chosen so far."""
        if state.game is None:
            starts = {str(state.order[i]): {"start": list(start)} for i, start in enumerate(state.starts)}
            return {"map": state.map_text, "players": starts}
        players = {
            str(state.order[i]): {"start": list(p.start), "body": list(p.body), "cell": list(p.cell)}
            for i, p in enumerate(state.game.players)
        }
        return {"map": state.map_text, "players": players}

    def picture(self, state: ConsoleState) -> str:
        """The map with every player's cells tinted: bodies, and spirits in their dreams."""
        if state.game is None:
            return map_svg(state.map)
        cells = {cell for p in state.game.players for cell in (p.body, p.cell)}
        return map_svg(state.game.map, highlight=sorted(cells))

    def event_text(self, data: Mapping[str, Any]) -> str:
        """The game master's answer in the active language (labyrinth/texts.py)."""
        return event_text(data)

    def state_to_json(self, state: ConsoleState) -> JSON:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> ConsoleState:
        return ConsoleState.from_json(data)
