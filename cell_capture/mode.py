"""Cell capture hosted as match mode ``cell_capture``: the adapter between the pure engine and matches.

Seat i plays colour PALETTE[i]; the engine draws the turn order from the creation rng. An action
is ``{"cell": [x, y]}``; every event is public (cell capture hides nothing); a deadline skips the
turn (``Game.skip``). Events are stored as kind and data and speak at read time (``texts.py``).
One phase: the play. The state is the engine's ``Game`` (a frozen value).
A malformed cell or one off the board is a 400 (``bad_cell``, ``off_board``); a cell the rules
refuse is a 409 with the engine's code (``occupied``, ``empty_cell``, ``not_your_piece``): the
engine's ``Game.move`` returns them as ``Impossible`` values, handed on unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from html import escape
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from cell_capture.engine import MAX_PLAYERS, MAX_SIZE, MIN_PLAYERS, MIN_SIZE, Game, new_game
from cell_capture.engine.bots import BOTS
from cell_capture.texts import event_text, stored
from gamekit.pictures import LegendEntry
from gamekit.results import Impossible, Success
from matches.modes import (
    JSON,
    WHOLE,
    Event,
    ModeAdapter,
    Moved,
    Outcome,
    Phase,
    array,
    events,
    integer,
    mapping,
    nullable,
    row,
    shape,
)

PALETTE: tuple[str, ...] = (
    "red",
    "blue",
    "green",
    "orange",
    "purple",
    "teal",
    "pink",
    "brown",
    "olive",
    "navy",
)
DEFAULT_SETTINGS: JSON = {"width": 8, "height": 8}
SETTING_KEYS = ("width", "height")
_CELL_PX = 44
_MARGIN_PX = 24  # the row and column numbers


def _seat(colour: str | None) -> int | None:
    return None if colour is None else PALETTE.index(colour)


def _cell(action: Mapping[str, Any]) -> tuple[int, int] | Impossible:
    cell = action.get("cell") if isinstance(action, Mapping) else None
    if (
        not isinstance(cell, list)
        or len(cell) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        or set(action) != {"cell"}
    ):
        return Impossible(
            "bad_cell",
            'An action is {"cell": [x, y]} with two integers.',
            {"action": dict(action) if isinstance(action, Mapping) else action},
            kind="input",
        )
    return cell[0], cell[1]


def _board_cell(state: Game, action: Mapping[str, Any]) -> tuple[int, int] | Impossible:
    """The cell an action names, or the 400 of a malformed action or of a cell off the board."""
    cell = _cell(action)
    if not isinstance(cell, Impossible) and not state.on_board(cell):
        return Impossible(
            "off_board",
            "The cell is outside the board.",
            {"cell": list(cell), "width": state.width, "height": state.height},
            kind="input",
        )
    return cell


def _board(state: Game) -> JSON:
    """Cell capture hides nothing: the board with seats and colours, the round, who is out."""
    return {
        "width": state.width,
        "height": state.height,
        "round": state.round,
        "to_move": _seat(state.to_move),
        "winner": _seat(state.winner),
        "colours": {str(PALETTE.index(c)): c for c in state.order},
        "eliminated": [PALETTE.index(c) for c in state.eliminated],
        "board": [
            {"x": x, "y": y, "seat": PALETTE.index(colour), "colour": colour, "level": level}
            for (x, y), (colour, level) in sorted(state.board.items())
        ],
    }


class CellCapturePlay(Phase[Game]):
    """The whole game: the mover places (round 1) or upgrades a piece; a missed deadline skips the turn."""

    def awaiting(self, state: Game) -> int | None:
        return _seat(state.to_move)

    def legal_actions(self, state: Game, seat: int) -> list[JSON]:
        if state.to_move is None or _seat(state.to_move) != seat:
            return []
        return [{"cell": [x, y]} for x, y in state.legal_moves()]

    def check_action(self, state: Game, action: Mapping[str, Any]) -> Impossible | None:
        cell = _board_cell(state, action)
        return cell if isinstance(cell, Impossible) else None

    def apply(self, state: Game, seat: int, action: Mapping[str, Any], rng: random.Random) -> Moved[Game]:
        cell = _board_cell(state, action)
        if isinstance(cell, Impossible):
            return cell
        moved = state.move(cell)
        if isinstance(moved, Impossible):
            return moved
        return Success(moved.state, tuple(Event(stored(e.to_dict())) for e in moved.events))

    def timeout(self, state: Game, seat: int, rng: random.Random) -> Success[Game, Event]:
        new, events = state.skip()
        return Success(new, tuple(Event(stored(e.to_dict())) for e in events))

    def view(self, state: Game, seat: int) -> JSON:
        return _board(state)


CELL = array(WHOLE, length=2)
COLOUR: JSON = {"enum": list(PALETTE)}
#: the details of an outcome (``outcome``)
DETAILS: dict[str, JSON] = {"winner_colour": COLOUR}
#: the view (``_board``): the whole board, the same in every phase and after the end (nothing is hidden)
VIEW_SCHEMA = shape({
    "width": WHOLE, "height": WHOLE, "round": WHOLE,
    "to_move": nullable(WHOLE), "winner": nullable(WHOLE),
    "colours": mapping(COLOUR), "eliminated": array(WHOLE),
    "board": array(shape({"x": WHOLE, "y": WHOLE, "seat": WHOLE, "colour": COLOUR, "level": WHOLE})),
})
ACTION_SCHEMA = shape({"cell": CELL}, description="The cell to place on (round 1) or to upgrade: [x, y].")
_TURN = {"round": WHOLE, "player": COLOUR}
_WAVE = {**_TURN, "wave": WHOLE}
#: the engine's events (``cell_capture.engine.events``), by kind: the round, the mover's colour and the kind's
#: data; a wave's pieces are [cell, level], its landings [cell, drops, level] or, captured,
#: [cell, drops, previous colour, previous level, level]
EVENT_SCHEMA = events({
    "placed": shape({**_TURN, "cell": CELL}),
    "upgraded": shape({**_TURN, "cell": CELL, "level": WHOLE}),
    "exploded": shape({**_WAVE, "width": WHOLE, "height": WHOLE,
                       "pieces": array(row(CELL, WHOLE))}),
    "drops": shape({**_WAVE, "landings": array(row(CELL, WHOLE, WHOLE))}),
    "captured": shape({**_WAVE, "landings": array(row(CELL, WHOLE, COLOUR, WHOLE, WHOLE))}),
    "skipped": shape(_TURN),
    "eliminated": shape(_TURN),
    "won": shape(_WAVE),
}, details=DETAILS)


class CellCaptureMode(ModeAdapter[Game]):
    name = "cell_capture"
    title = gettext_lazy("Cell capture")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    settings_schema = {
        "width": integer(MIN_SIZE, MAX_SIZE, description="Columns of the board."),
        "height": integer(MIN_SIZE, MAX_SIZE, description="Rows of the board."),
    }
    view_schema = VIEW_SCHEMA
    action_schema = ACTION_SCHEMA
    event_schema = EVENT_SCHEMA
    outcome_details = DETAILS
    phases = (CellCapturePlay(),)
    bot_policies = BOTS
    reasons = {"won": "Only the winner's colour is left on the board."}
    #: the board is public: a spectator sees what every seat sees
    spectators = True
    public_view_schema = VIEW_SCHEMA

    def default_settings(self) -> JSON:
        return dict(DEFAULT_SETTINGS)

    def validate_settings(self, settings: Mapping[str, Any]) -> JSON | Impossible:
        unknown = sorted(set(settings) - set(SETTING_KEYS))
        if unknown:
            return Impossible(
                "unknown_setting",
                "Cell capture's settings are width and height.",
                {"unknown": unknown},
                kind="input",
            )
        complete = {**DEFAULT_SETTINGS, **settings}
        for key in SETTING_KEYS:
            value = complete[key]
            if not isinstance(value, int) or isinstance(value, bool) or not MIN_SIZE <= value <= MAX_SIZE:
                return Impossible(
                    "bad_size", gettext("%(key)s is a whole number from %(low)d to %(high)d.") % {
                        "key": key, "low": MIN_SIZE, "high": MAX_SIZE}, {key: value},
                    kind="input",
                )
        return {key: complete[key] for key in SETTING_KEYS}

    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> Game:
        return new_game(width=settings["width"], height=settings["height"], colors=PALETTE[:seats], rng=rng)

    def public_view(self, state: Game) -> JSON:
        """The whole board, as every seat sees it: nothing in cell capture is hidden."""
        return _board(state)

    def turn_order(self, state: Game) -> tuple[int, ...]:
        return tuple(PALETTE.index(colour) for colour in state.order)

    def may_reveal(self, settings: Mapping[str, Any], state: Game) -> bool:
        """Nothing is hidden: the board is the whole game (no ``revealed`` is added; the replay is whole)."""
        return True

    def outcome(self, state: Game) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome((PALETTE.index(state.winner),), "won", {"winner_colour": state.winner})

    def state_to_json(self, state: Game) -> JSON:
        return state.to_dict()

    def state_from_json(self, data: Mapping[str, Any]) -> Game:
        return Game.from_dict(data)

    def event_text(self, data: Mapping[str, Any]) -> str:
        """The event in the seed's log format, in the active language (cell_capture/texts.py)."""
        return event_text(data)

    def picture(self, state: Game) -> str:
        """The board as SVG for the admin: (0, 0) bottom-left, columns and rows numbered on the margins, a
        circle of its seat's colour per piece with its level written in it."""
        cell, margin = _CELL_PX, _MARGIN_PX
        size_w, size_h = margin + state.width * cell, margin + state.height * cell
        parts = [
            (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_w}" height="{size_h}" '
             f'viewBox="0 0 {size_w} {size_h}" font-family="sans-serif" font-size="{cell * 0.4:.0f}" '
             f'role="img" aria-label="cell capture board" style="max-width:100%;height:auto">'
             f'<rect x="{margin}" width="{size_w - margin}" height="{size_h - margin}" fill="#f4f1e8"/>')
        ]
        for x in range(state.width + 1):
            parts.append(f'<line x1="{margin + x * cell}" y1="0" x2="{margin + x * cell}" '
                         f'y2="{size_h - margin}" stroke="#bbb"/>')
        for y in range(state.height + 1):
            parts.append(f'<line x1="{margin}" y1="{y * cell}" x2="{size_w}" y2="{y * cell}" stroke="#bbb"/>')
        for x in range(state.width):
            parts.append(f'<text class="axis" x="{margin + x * cell + cell / 2}" '
                         f'y="{size_h - margin / 3:.0f}" text-anchor="middle" fill="#555">{x}</text>')
        for y in range(state.height):
            baseline = (state.height - y) * cell - cell / 3
            parts.append(f'<text class="axis" x="{margin / 2}" y="{baseline:.0f}" text-anchor="middle" '
                         f'fill="#555">{y}</text>')
        for (x, y), (colour, level) in sorted(state.board.items()):
            cx, cy = margin + x * cell + cell / 2, (state.height - 1 - y) * cell + cell / 2
            parts.append(
                f'<g class="piece" data-seat="{PALETTE.index(colour)}" data-level="{level}">'
                f'<title>{escape(colour)} (seat {PALETTE.index(colour)}) level {level} ({x},{y})</title>'
                f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.42}" fill="{escape(colour)}" stroke="#333"/>'
                f'<text x="{cx}" y="{cy + cell * 0.15}" text-anchor="middle" fill="white" '
                f'font-weight="bold">{level}</text></g>'
            )
        parts.append("</svg>")
        return "".join(parts)

    def picture_legend(self) -> list[LegendEntry]:
        """Each seat's colour, and what the number in a piece is."""
        seats = [LegendEntry("", gettext("seat %(seat)d (%(colour)s)") % {"seat": seat, "colour": colour},
                             fill=colour) for seat, colour in enumerate(PALETTE[:MAX_PLAYERS])]
        return [*seats, LegendEntry("1", gettext("a piece's number: its level"), colour="#fff", fill="#555"),
                LegendEntry("0,0", gettext("the bottom-left cell (x: the column, y: the row)"))]
