"""The game plug-in interface of hosted matches: what a mode declares, its phases, and the registry.

A hosted game is a pure engine plus a small adapter, a ``ModeAdapter``: the declaration of a game
in the way boardgame.io's game definition is one. The mode declares what the modes list shows (its
title, player limits, whether its turns have a deadline, each setting's JSON Schema: GET
/api/v1/modes/), its settings' check, how a game is set up (``create``), its ``phases`` (each one's
moves: who acts, what is legal, what each seat may see, what a missed deadline does, when the phase
is over), the end (``outcome``) and how its state is stored. The match machinery
(``matches/services.py``) owns seats, turns, deadlines, idempotency and the log, and talks to a game
only through this interface:

- a *seat* is an index 0..n-1 into the match's players in the order they joined the lobby;
  the mode decides the turn order (drawn from the rng it gets at creation);
- *settings* and *actions* are JSON objects; every action in ``legal_actions`` can be sent back
  unchanged and ``apply`` accepts it;
- the *state* is the mode's own typed value (frozen dataclasses): the machinery decodes the stored
  JSON once per request (``state_from_json``), hands the value to every hook, and encodes it once
  when it stores a step (``state_to_json``);
- a refusal is a value, ``gamekit.Impossible`` (kind "input": a 400, "rule": a 409), returned by
  ``validate_settings``, ``create``, ``check_action`` and ``apply``; the machinery turns it into
  the API's error in one place (``backend.errors.refused``). A move that applies is
  ``gamekit.Success(new_state, events)``;
- every random number comes from the ``random.Random`` passed in: the machinery derives it from
  the match's stored seed (``rng_for(seed, turn)``), so seed + settings + actions replay exactly.

Phases: a mode lists its ``phases`` in order; the current one is the first that is not ``over``
(the last, the play, runs to the game's end). The framework's ``SecretStart`` is the phase in
which each seat in turn privately chooses its start (or is given a random one at its deadline):
a mode with hidden starts declares ``SecretStart(its StartRules)`` before its play phase.

Game apps register their adapter in their ``AppConfig.ready()``::

    from matches.modes import register
    register(CellCaptureMode())

so ``matches`` imports no game app (no import cycle) and adding a mode adds no route.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeAlias, TypeVar

from django_stubs_ext import StrOrPromise

from gamekit.bots import Memory, Policy
from gamekit.pictures import LegendEntry
from gamekit.results import Impossible, Success

JSON = dict[str, Any]
S = TypeVar("S")
C = TypeVar("C")


@dataclass(frozen=True)
class Event:
    """One event of the match log: ``data`` (JSON) and who may see it.

    ``seats`` None means public (every seated player sees it); otherwise only those seats do.
    """

    data: JSON
    seats: frozenset[int] | None = None

    def visible_to(self, seat: int) -> bool:
        return self.seats is None or seat in self.seats


#: what a move does: the new state and its events, or the refusal (nothing changed)
Moved: TypeAlias = Success[S, Event] | Impossible


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game: the winning seats (empty: nobody won), why it ended (``reason``, one
    of the mode's ``reasons``) and the mode's details (JSON).

    The machinery shows it as a match's ``result``, one shape for every mode (SPEC 14): ``{"winners":
    [player ids], "winner_seats": [seats], "reason": code, "details": {...}}`` (``match_result``).
    """

    winners: tuple[int, ...]
    reason: str
    details: JSON = field(default_factory=dict)


#: the reasons the machinery itself ends a match with, whatever the mode: every seated player walked
#: out or a whole round timed out (``abandoned``; ``details.cause`` says which), a new game of a
#: single-player mode replaced it (``new_game``), the players resigned until at most one was left
#: (``resigned``: that one, if any, wins)
ABANDONED = "abandoned"
NEW_GAME = "new_game"
RESIGNED = "resigned"
MACHINE_REASONS = (ABANDONED, NEW_GAME, RESIGNED)


def match_result(outcome: Outcome, seat_players: Mapping[int, int | None]) -> JSON:
    """A match's ``result``: the outcome with the winning seats' player ids (``seat_players``; a bot's seat
    has none: a bot that won is in ``winner_seats`` only)."""
    winners = [seat_players[seat] for seat in outcome.winners]
    return {
        "winners": [player for player in winners if player is not None],
        "winner_seats": list(outcome.winners),
        "reason": outcome.reason,
        "details": dict(outcome.details),
    }


# --- the settings' declaration -----------------------------------------------------------------
# A mode declares each of its settings as a JSON Schema (type, bounds, choices; no default: the admin's
# current one is added when the modes are listed, ``ModeAdapter.settings_json_schema``). These helpers write
# the few shapes the modes need.


def integer(minimum: int, maximum: int, *, nullable: bool = False, description: str = "") -> JSON:
    """A whole number from ``minimum`` to ``maximum`` (``nullable``: or null)."""
    kind: str | list[str] = ["integer", "null"] if nullable else "integer"
    schema: JSON = {"type": kind, "minimum": minimum, "maximum": maximum}
    return {**schema, "description": description} if description else schema


def boolean(*, nullable: bool = False, description: str = "") -> JSON:
    """True or false (``nullable``: or null)."""
    schema: JSON = {"type": ["boolean", "null"] if nullable else "boolean"}
    return {**schema, "description": description} if description else schema


def choice(*values: str | int | None, description: str = "") -> JSON:
    """One of ``values`` (None in them: null is one)."""
    schema: JSON = {"enum": list(values)}
    return {**schema, "description": description} if description else schema


def either(*schemas: JSON, description: str = "") -> JSON:
    """A value that matches at least one of ``schemas`` (e.g. a number or a word)."""
    schema: JSON = {"anyOf": list(schemas)}
    return {**schema, "description": description} if description else schema


# --- the shapes' declaration (SPEC 14 "Schemas") -------------------------------------------------
# A mode declares the JSON Schema of its view, of an action and of an event
# (``view_schema``, ``action_schema``, ``event_schema``), as it declares its settings; matches/openapi.py
# publishes them as the OpenAPI components named after the mode (``CellCaptureView``, ...). These helpers
# write the shapes the modes need.

WHOLE: JSON = {"type": "integer"}
TEXT: JSON = {"type": "string"}
FLAG: JSON = {"type": "boolean"}
DIRECTION: JSON = {"enum": ["UP", "LEFT", "DOWN", "RIGHT"]}


def nullable(schema: JSON) -> JSON:
    """``schema`` or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def array(items: JSON, *, length: int | None = None) -> JSON:
    """A list of ``items`` (``length``: exactly that many)."""
    schema: JSON = {"type": "array", "items": items}
    return schema if length is None else {**schema, "minItems": length, "maxItems": length}


def row(*entries: JSON) -> JSON:
    """A list of ``len(entries)`` values, the i-th of ``entries[i]``'s shape (e.g. [cell, level]). OpenAPI
    3.0 has no tuple, so the schema says each entry is one of the entries' shapes, and the length."""
    distinct = [entry for i, entry in enumerate(entries) if entry not in entries[:i]]
    items = distinct[0] if len(distinct) == 1 else {"anyOf": distinct}
    return array(items, length=len(entries))


def mapping(values: JSON) -> JSON:
    """An object whose keys are free (e.g. seats as strings) and whose values are ``values``."""
    return {"type": "object", "additionalProperties": values}


def shape(required: Mapping[str, JSON], optional: Mapping[str, JSON] | None = None, *, closed: bool = True,
          description: str = "") -> JSON:
    """An object with the ``required`` keys and maybe the ``optional`` ones (``closed``: no other key)."""
    schema: JSON = {
        "type": "object",
        "properties": {**required, **(optional or {})},
        "required": list(required),
        "additionalProperties": not closed,
    }
    return {**schema, "description": description} if description else schema


#: why the machinery ended a match (``details.cause`` of an ``abandoned`` result): every seat walked out, or a
#: whole round timed out
MACHINE_CAUSES = ("left", "timeouts")


def result_schema(details: Mapping[str, JSON] | None = None) -> JSON:
    """A match's ``result`` (``match_result``) whose ``details`` may carry the mode's ``details`` keys (what
    its ``outcome`` gives) or the machinery's ``cause``; no other key."""
    return shape({
        "winners": array(WHOLE), "winner_seats": array(WHOLE), "reason": TEXT,
        "details": shape({}, {**(details or {}), "cause": {"enum": list(MACHINE_CAUSES)}}),
    })


def framework_events(details: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
    """The data of the events the machinery itself logs in every mode (matches/services.py; their texts:
    matches/events.py), by kind; ``details``: the mode's outcome details (``result_schema``)."""
    result = shape({"result": result_schema(details)})
    return {
        "match_started": shape({"order": array(nullable(WHOLE)), "seats": mapping(nullable(WHOLE))},
                               description="order: player ids in turn order; seats: seat -> player id "
                               "(null: a bot's seat)."),
        "turn_timed_out": shape({"seat": WHOLE, "player": nullable(WHOLE)}),
        "resigned": shape({"seat": WHOLE, "player": WHOLE}),
        "match_over": result,
        "match_abandoned": result,
        "ended_by_new_game": shape({}),
    }


FRAMEWORK_EVENT_KINDS = tuple(framework_events())


def events(kinds: Mapping[str, JSON | Sequence[JSON]], *, details: Mapping[str, JSON] | None = None,
           description: str = "") -> JSON:
    """A mode's event: one of its ``kinds`` or the machinery's own (``framework_events``), each with its own
    data. ``kinds`` maps each kind to the ``shape`` of its data (or to several, e.g. one per ``code`` of the
    paper game master's answers: the event is one of them); the event as the API shows it is that data
    with its ``kind``, its number in the match's log (``seq``) and its sentence in the request's language
    (``text``), and no other key: a ``oneOf`` told apart by ``kind`` (one value per branch). ``details``: the
    keys the mode's outcome details may carry (the ``result`` of ``match_over``)."""
    declared: dict[str, JSON | Sequence[JSON]] = {**framework_events(details), **kinds}
    branches = [_event_branch(kind, data) for kind, shapes in sorted(declared.items())
                for data in ([shapes] if isinstance(shapes, Mapping) else shapes)]
    return {"oneOf": branches, "description": description} if description else {"oneOf": branches}


def _event_branch(kind: str, data: JSON) -> JSON:
    branch: JSON = {
        **data,
        "properties": {"kind": {"enum": [kind]}, "seq": WHOLE, "text": TEXT, **data["properties"]},
        "required": ["kind", "seq", "text", *data["required"]],
        "additionalProperties": False,
    }
    return branch


# --- phases ------------------------------------------------------------------------------------


class Phase(ABC, Generic[S]):
    """One phase of a game (boardgame.io's phases): who acts, what is legal, what a seat sees, what a
    move and a missed deadline do, and when the phase is over (the next phase then takes over)."""

    #: a name for people and logs (the API does not show it: a mode's view says what it wants to)
    name: str = "play"

    def over(self, state: S) -> bool:
        """Whether this phase has ended (boardgame.io's ``endIf``); the play phase never ends this way:
        the game does (``ModeAdapter.outcome``)."""
        return False

    @abstractmethod
    def awaiting(self, state: S) -> int | None:
        """The seat whose action the game waits for; None once the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[JSON]:
        """Every action ``seat`` may send now (usually none for a seat that is not awaited)."""

    def check_action(self, state: S, action: Mapping[str, Any]) -> Impossible | None:
        """The action's shape (an Impossible of kind "input"), checked whoever's turn it is, so a malformed
        action is a 400 even out of turn; None: well formed. By default every shape passes here."""
        return None

    @abstractmethod
    def apply(self, state: S, seat: int, action: Mapping[str, Any], rng: random.Random) -> Moved[S]:
        """``seat`` plays ``action``: Success(new state, events) or Impossible (kind "input" for a malformed
        action, "rule" for one the rules refuse). ``state`` is never changed."""

    @abstractmethod
    def timeout(self, state: S, seat: int, rng: random.Random) -> Success[S, Event]:
        """The awaited ``seat`` let its deadline pass (e.g. its turn is skipped)."""

    @abstractmethod
    def view(self, state: S, seat: int) -> JSON:
        """What ``seat`` may know of the game in this phase."""


class StartRules(ABC, Generic[S, C]):
    """What a mode tells the framework's ``SecretStart`` phase: the starts (``C``, e.g. a cell) and how
    they are listed, read, drawn, stored, announced, and how the play begins once every seat has one."""

    @abstractmethod
    def chosen(self, state: S) -> Sequence[C] | None:
        """The starts chosen so far, in turn order; None once the play has begun (the phase is over)."""

    @abstractmethod
    def order(self, state: S) -> Sequence[int]:
        """The seats in turn order: the order in which they choose."""

    @abstractmethod
    def choices(self, state: S) -> list[JSON]:
        """Every start action the choosing seat may send."""

    @abstractmethod
    def parse(self, state: S, action: Mapping[str, Any]) -> C | Impossible:
        """The start an action names; Impossible "input" when malformed (checked before the turn rules),
        "rule" for a well-formed action of another phase (refused when it is applied)."""

    @abstractmethod
    def draw(self, state: S, rng: random.Random) -> C:
        """A start drawn at random for a seat whose deadline passed."""

    @abstractmethod
    def record(self, state: S, start: C) -> S:
        """The state with ``start`` as the next seat's start."""

    def told(self, state: S, seat: int, start: C) -> JSON | None:
        """The event only the chooser sees when it chose ``start`` itself (None: none)."""
        return None

    def announced(self, state: S, seat: int) -> JSON | None:
        """The public event that ``seat`` has its start, without saying which (None: none)."""
        return None

    @abstractmethod
    def begin(self, state: S, rng: random.Random) -> Success[S, Event]:
        """Every seat has its start: the play begins (the state of the game and its opening events)."""

    @abstractmethod
    def view(self, state: S, seat: int) -> JSON:
        """What ``seat`` knows while the starts are being chosen."""


class SecretStart(Phase[S], Generic[S, C]):
    """Each seat in turn order chooses its start in secret, or is given one drawn at random when its
    deadline passes; when the last seat has one, the play begins.

    The framework owns the secrecy: a start is told to its chooser alone (``StartRules.told``), the
    table learns at most that a seat has chosen (``announced``); a drawn start is told to nobody.
    """

    name = "secret_start"

    def __init__(self, rules: StartRules[S, C]) -> None:
        self.rules = rules

    def over(self, state: S) -> bool:
        return self.rules.chosen(state) is None

    def awaiting(self, state: S) -> int | None:
        chosen = self.rules.chosen(state)
        assert chosen is not None, "the play has begun"
        return self.rules.order(state)[len(chosen)]

    def legal_actions(self, state: S, seat: int) -> list[JSON]:
        return self.rules.choices(state) if seat == self.awaiting(state) else []

    def check_action(self, state: S, action: Mapping[str, Any]) -> Impossible | None:
        start = self.rules.parse(state, action)
        return start if isinstance(start, Impossible) and start.kind == "input" else None

    def apply(self, state: S, seat: int, action: Mapping[str, Any], rng: random.Random) -> Moved[S]:
        start = self.rules.parse(state, action)
        if isinstance(start, Impossible):
            return start
        told = self.rules.told(state, seat, start)
        private = () if told is None else (Event(told, frozenset({seat})),)
        return self._chosen(state, seat, start, private, rng)

    def timeout(self, state: S, seat: int, rng: random.Random) -> Success[S, Event]:
        return self._chosen(state, seat, self.rules.draw(state, rng), (), rng)

    def _chosen(
        self, state: S, seat: int, start: C, private: tuple[Event, ...], rng: random.Random
    ) -> Success[S, Event]:
        announced = self.rules.announced(state, seat)
        events = private if announced is None else (*private, Event(announced))
        new = self.rules.record(state, start)
        chosen = self.rules.chosen(new)
        if chosen is not None and len(chosen) < len(self.rules.order(new)):
            return Success(new, events)
        begun = self.rules.begin(new, rng)
        return Success(begun.state, (*events, *begun.events))

    def view(self, state: S, seat: int) -> JSON:
        return self.rules.view(state, seat)


# --- the mode ----------------------------------------------------------------------------------


class ModeAdapter(ABC, Generic[S]):
    """One hosted game: its declaration. Implementations are stateless singletons (the state is a value).

    ``awaiting``, ``legal_actions``, ``check_action``, ``apply``, ``timeout`` and ``view`` are the
    current phase's; a mode extends them (calling ``super()``) only for moves that every phase takes,
    as boardgame.io's game-level moves (the paper labyrinth's clock).
    """

    #: the mode's slug, e.g. "cell_capture" (the ``mode`` of POST /api/v1/matches/)
    name: str
    #: a short human title for the admin and the modes list: English, marked for translation
    #: (``gettext_lazy``, so each request reads it in its own language; the Russian is in the app's catalogue)
    title: StrOrPromise = ""
    min_players: int
    max_players: int
    #: the turn deadline the mode's admin row starts with (the admin edits it there)
    default_turn_deadline_seconds: int = 60
    #: whether the admin's turn deadline applies to the mode's turns at all; False: the game waits for its
    #: player as long as it takes (``deadline_seconds`` is then None, and the modes list shows no deadline)
    turn_deadline: bool = True
    #: each setting's JSON Schema (type, bounds, choices: the helpers above), by name; its names are the
    #: keys of ``default_settings``. ``validate_settings`` stays the check (its codes are the API's).
    settings_schema: Mapping[str, JSON]
    #: settings a match stores beyond the declared ones (e.g. the admin's generator, frozen into the lobby),
    #: by name, as JSON Schemas: the match's ``settings`` has every declared and every stored one
    stored_settings_schema: Mapping[str, JSON] = {}
    #: the JSON Schema of what ``view`` answers in every phase (the helpers above), ``revealed`` included
    view_schema: JSON
    #: the JSON Schema of an action: every ``legal_actions`` entry and every action ``apply`` accepts
    action_schema: JSON
    #: the JSON Schema of the mode's events as the API shows them (``events``: kind, seq, text and data)
    event_schema: JSON
    #: the settings a lobby may choose; None: every one (the rest are the admin's defaults only)
    lobby_settings: frozenset[str] | None = None
    #: the bots a host may seat (SPEC 15: ``POST matches/{id}/bots/ {"level": name}``), by level: pure
    #: policies (``gamekit.bots.Policy``, the game's ``engine/bots.py``); their names are ``bots``
    bot_policies: Mapping[str, Policy] = {}
    #: whether a non-member may watch the mode's started matches (SPEC 15): the value the mode's admin row
    #: starts with (``MatchModeSettings.spectators``; the admin edits it there, and the modes list shows the
    #: admin's). A spectator reads ``public_view`` and the public events the mode lets through
    #: (``spectator_events``), never a seat's own view
    spectators: bool = False
    #: the admin row's first ``spectator_delay_turns``: how many steps behind a spectator reads a running
    #: match
    default_spectator_delay_turns: int = 0
    #: the JSON Schema of ``public_view`` (published as ``<Mode>PublicView``)
    public_view_schema: JSON = {"type": "object", "properties": {}, "required": [],
                                "additionalProperties": False}
    #: a single-player game's "new game": opening a lobby ends the player's active match of the mode
    new_game_ends_old: bool = False
    #: a game its player comes back to: ``leave/`` of the started match keeps it as it is (no walk-out)
    leave_keeps_game: bool = False
    #: the phases in order; the last is the play, which lasts until ``outcome`` is not None
    phases: tuple[Phase[S], ...]
    #: every ``reason`` the mode's ``outcome`` may give, by code, with what it means (docs/matches.md lists
    #: them); the machinery's own (``MACHINE_REASONS``) end every mode's matches too
    reasons: Mapping[str, str]
    #: the keys the ``details`` of the mode's ``outcome`` may carry, as JSON Schemas (the ``result`` of a
    #: match and of its ``match_over`` event; pass the same to ``events``)
    outcome_details: Mapping[str, JSON] = {}

    # --- settings ---------------------------------------------------------------------------

    @abstractmethod
    def default_settings(self) -> JSON:
        """The settings a new mode row starts with (the admin edits them per mode)."""

    @abstractmethod
    def validate_settings(self, settings: Mapping[str, Any]) -> JSON | Impossible:
        """The complete, normalised settings, or Impossible (kind "input") naming the bad field.

        The machinery passes the mode's defaults overlaid with the lobby's ``settings``.
        """

    def settings_json_schema(self, defaults: Mapping[str, Any]) -> JSON:
        """The settings as a JSON Schema object (SPEC 14's modes list): every declared setting with its
        ``default`` from ``defaults`` (the admin's current ones), no other key, and ``lobby_settings``: the
        names a lobby may set (the rest only the admin changes)."""
        lobby = self.settings_schema if self.lobby_settings is None else self.lobby_settings
        return {
            "type": "object",
            "properties": {
                name: {**schema, "default": defaults.get(name)}
                for name, schema in self.settings_schema.items()
            },
            "additionalProperties": False,
            "lobby_settings": sorted(lobby),
        }

    def settings_component(self) -> JSON:
        """The JSON Schema of a match's complete ``settings`` (SPEC 14 "Schemas"): every declared setting and
        every stored one, no other key."""
        return {
            "type": "object",
            "properties": {**self.settings_schema, **self.stored_settings_schema},
            "required": [*self.settings_schema, *self.stored_settings_schema],
            "additionalProperties": False,
        }

    # --- the game ---------------------------------------------------------------------------

    @abstractmethod
    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> S | Impossible:
        """A new game for ``seats`` players (seats 0..seats-1); the turn order is drawn from ``rng``.

        A game that cannot be built from these settings is Impossible: the start is refused with its
        code and nothing is written.
        """

    @abstractmethod
    def turn_order(self, state: S) -> tuple[int, ...]:
        """The seats in turn order (for views and the admin)."""

    def phase(self, state: S) -> Phase[S]:
        """The current phase: the first that is not over (the play, once the others are)."""
        return next((p for p in self.phases[:-1] if not p.over(state)), self.phases[-1])

    def awaiting(self, state: S) -> int | None:
        """The seat whose action the game waits for; None once the game is over."""
        return self.phase(state).awaiting(state)

    def legal_actions(self, state: S, seat: int) -> list[JSON]:
        """Every action ``seat`` may send now.

        For a seat that is not awaited this is usually empty; a mode may list actions sent out of
        turn (e.g. calling a timer on the awaited player). The machinery takes from such a seat
        exactly the actions listed for it, and anything else is 409 ``not_your_turn``.
        """
        return self.phase(state).legal_actions(state, seat)

    def check_action(self, state: S, action: Mapping[str, Any]) -> Impossible | None:
        """The action's shape before any turn rule (Impossible of kind "input": a 400 even out of turn)."""
        return self.phase(state).check_action(state, action)

    def apply(self, state: S, seat: int, action: Mapping[str, Any], rng: random.Random) -> Moved[S]:
        """``seat`` plays ``action``: Success(new state, events), or Impossible (nothing changed).

        The machinery calls it for the awaiting seat, or for another seat with one of the actions
        ``legal_actions`` lists for that seat; ``state`` is never changed.
        """
        return self.phase(state).apply(state, seat, action, rng)

    def timeout(self, state: S, seat: int, rng: random.Random) -> Success[S, Event]:
        """The awaiting ``seat`` let its deadline pass: the phase's answer (e.g. the turn is skipped)."""
        return self.phase(state).timeout(state, seat, rng)

    def view(self, state: S, seat: int) -> JSON:
        """What ``seat`` may know of the game (a game with hidden information hides the rest)."""
        return self.phase(state).view(state, seat)

    def resign(self, state: S, seat: int, rng: random.Random) -> Success[S, Event]:
        """``seat`` resigned (SPEC 15; at any time, awaited or not): what the game does with its seat.

        By default nothing: the game goes on as it was, and the machinery plays the seat's turns as
        timeouts at once (as for a player who walked out) and never counts it among the winners; with
        one other seat left that seat wins (``resigned``). A mode that can take a seat out of its game
        overrides this; the machinery logs the ``resigned`` event itself.
        """
        return Success(state, ())

    def deadline_seconds(self, state: S, seconds: int) -> int | None:
        """How long the awaited seat has, in seconds from the step that began its wait; None: no deadline.

        ``seconds`` is the match's deadline (the mode's admin row, copied onto the match at the
        start), and by default the answer (None when the mode has no ``turn_deadline``). Every step
        restarts the count, so a step that changes the answer (a timer called, a pause taken) starts
        the new one. The machinery's own rule comes first: the turns of a seat that walked out time
        out at once.
        """
        return seconds if self.turn_deadline else None

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on; the result once it is over (its ``reason`` one of ``reasons``)."""

    @abstractmethod
    def state_to_json(self, state: S) -> JSON:
        """The state as JSON (stored on the match row after every step)."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """The inverse of ``state_to_json`` (also for rows stored by earlier versions of the mode)."""

    # --- bots (SPEC 15) ------------------------------------------------------------------------

    @property
    def bots(self) -> tuple[str, ...]:
        """The bot levels a host may seat (the modes list's ``bots``), in the order the mode declares them."""
        return tuple(self.bot_policies)

    def bot_action(self, level: str, seat_view: Mapping[str, Any], allowed: Sequence[JSON], memory: Memory,
                   rng: random.Random, events: Sequence[Mapping[str, Any]] = ()) -> tuple[JSON, Memory]:
        """The action the bot ``level`` sends for its seat, and its new memory (JSON, stored between turns).

        The bot gets what the API gives its seat and nothing else: ``seat_view`` (``view``), ``allowed``
        (``legal_actions``), ``events`` (the data of the events the seat may see, in order, since the bot
        last acted) and its own ``memory`` (None before its first action); every draw comes from ``rng``
        (the machinery derives it from the match seed, so the replay stays exact). The answer is always one
        of ``allowed``; an unknown level is a caller's mistake (KeyError).
        """
        action, memory = self.bot_policies[level](seat_view, allowed, memory, rng, events)
        if action not in allowed:
            raise ValueError(f"{self.name}: the bot {level!r} chose {action!r}, which is not allowed")
        return action, memory

    # --- optional ---------------------------------------------------------------------------

    def revealed(self, state: S) -> JSON | None:
        """What the game hid from the seats, in the mode's own terms (the map, the world, where everyone
        stood), never the stored state: a finished match's view adds it as ``revealed`` when
        ``may_reveal`` allows it. None (the default): the game hides nothing a view does not show."""
        return None

    def may_reveal(self, settings: Mapping[str, Any], state: S) -> bool:
        """Whether the hidden content of this finished game may be shown to its players: the view's
        ``revealed``, the replay's seed, final state and the other seats' actions.

        No by default, so a mode reveals nothing it has not thought about. A mode says yes only when
        what it would reveal lets nobody see into a game still to be played: a map drawn from the
        match's own secret seed may be shown, a designer map other lobbies may still name may not.
        Asked on every read of a finished match, whatever ended it.
        """
        return False

    def public_view(self, state: S) -> JSON:
        """What anyone who may watch the match may know of the game (SPEC 15, spectators): what every seat is
        told, never what a seat knows alone (a map, a position, a hand). Empty by default, so a mode shows
        nothing it has not thought about; its shape is ``public_view_schema``."""
        return {}

    def public_view_component(self) -> JSON:
        """The JSON Schema of a spectator's ``view``: ``public_view_schema`` with ``public``, the mode's name,
        which the machinery adds (so a seat's view, which has no ``public``, is never taken for it)."""
        schema = dict(self.public_view_schema)
        return {**schema, "properties": {"public": {"enum": [self.name]}, **schema.get("properties", {})},
                "required": ["public", *schema.get("required", [])]}

    def spectator_events(self, settings: Mapping[str, Any]) -> Callable[[Mapping[str, Any]], bool] | None:
        """Which public events (those with no seat restriction) reach a spectator of a match with these
        ``settings``: a test of an event's data, or None (the default): every one. A mode whose public
        events describe hidden content other games still use (a designer map in the pool) keeps those from
        watchers; asked once per read."""
        return None

    def picture(self, state: S) -> str:
        """An SVG picture of the board or map for the admin ("" when the mode has none)."""
        return ""

    def picture_legend(self) -> Sequence[LegendEntry]:
        """What the marks of ``picture`` mean, in the active language (shown under it; none by default)."""
        return ()

    def event_text(self, data: Mapping[str, Any]) -> str:
        """One human sentence for a stored event of this mode (its ``kind`` and data) in the active language
        (gettext, called at read time: the request's language; SPEC 14 "Events speak"). Events are stored
        as kind and data, never as text in one language; this renders them. By default the ``text`` an
        older event stored, else "" (a mode that speaks renders every kind it emits)."""
        text = data.get("text")
        return text if isinstance(text, str) else ""


_REGISTRY: dict[str, ModeAdapter[Any]] = {}


def register(adapter: ModeAdapter[Any]) -> ModeAdapter[Any]:
    """Register a mode (from its app's ``AppConfig.ready()``); registering the same name again replaces it."""
    phases = getattr(adapter, "phases", ())  # a mode without phases has no game to host
    declared = getattr(adapter, "settings_schema", None)  # nor one that does not declare its settings
    reasons = getattr(adapter, "reasons", None)  # nor one that does not say how its games end
    # nor one that does not declare its view's, actions' and events' shapes (SPEC 14 "Schemas")
    shapes = [getattr(adapter, f"{part}_schema", None) for part in ("view", "action", "event")]
    limits = 1 <= adapter.min_players <= adapter.max_players
    if not adapter.name or not limits or not phases or declared is None or not reasons or None in shapes:
        raise ValueError(f"bad mode adapter {adapter!r}")
    if set(reasons) & set(MACHINE_REASONS):
        raise ValueError(f"{adapter.name}: the reasons {MACHINE_REASONS} are the machinery's")
    _REGISTRY[adapter.name] = adapter
    return adapter


def get_mode(name: str) -> ModeAdapter[Any] | None:
    return _REGISTRY.get(name)


def registered_modes() -> dict[str, ModeAdapter[Any]]:
    """Every registered mode by name (a copy)."""
    return dict(_REGISTRY)


def rng_for(seed: int, turn: int) -> random.Random:
    """The random stream of one step of a match: turn 0 creates the game, turn n > 0 is the n-th step.

    Derived from the stored seed and the step only, so a replay draws exactly the same numbers
    whatever happened in other matches or in other steps.
    """
    return random.Random(f"deepdelve-match/{seed}/{turn}")


def bot_rng_for(seed: int, turn: int, seat: int) -> random.Random:
    """The random stream of the bot at ``seat`` choosing step ``turn``'s action: derived from the match's
    seed, the step and the seat only, apart from the game's own stream (``rng_for``), so the bot's choice
    and the game's draws are the same whenever the step is played again."""
    return random.Random(f"deepdelve-bot/{seed}/{turn}/{seat}")


class ReplayError(Exception):
    """A replay record that the game refuses: not the record of a match this mode played."""


def replay(
    adapter: ModeAdapter[S],
    *,
    settings: Mapping[str, Any],
    seats: int,
    seed: int,
    steps: Sequence[tuple[int, Mapping[str, Any] | None]],
    resigned: Collection[int] = (),
) -> S:
    """Replay a match from its stored record: each step is (seat, action), or (seat, None) for a timeout;
    ``resigned``: the steps (1-based) that were a seat's resignation (their action is None too).

    Step n (1-based) draws from ``rng_for(seed, n)`` as it did when it was played. A record no game can
    follow (a refused start or action: not a stored match's) is a ReplayError.
    """
    state = None
    for state, _events in replay_steps(adapter, settings=settings, seats=seats, seed=seed, steps=steps,
                                       resigned=resigned):
        pass
    assert state is not None
    return state


def replay_steps(
    adapter: ModeAdapter[S],
    *,
    settings: Mapping[str, Any],
    seats: int,
    seed: int,
    steps: Sequence[tuple[int, Mapping[str, Any] | None]],
    resigned: Collection[int] = (),
) -> Iterator[tuple[S, tuple[Event, ...]]]:
    """``replay`` step by step: the state and the game's events after the creation (step 0), then after
    each step of the record, in order (the per-seat replay shows each seat's view of them)."""
    state = adapter.create(settings=settings, seats=seats, rng=rng_for(seed, 0))
    if isinstance(state, Impossible):
        raise ReplayError(f"the game cannot be built: {state.code}")
    yield state, ()
    for turn, (seat, action) in enumerate(steps, start=1):
        rng = rng_for(seed, turn)
        if turn in resigned:
            moved: Moved[S] = adapter.resign(state, seat, rng)
        elif action is None:
            moved = adapter.timeout(state, seat, rng)
        else:
            moved = adapter.apply(state, seat, action, rng)
        if isinstance(moved, Impossible):
            raise ReplayError(f"step {turn} was refused: {moved.code}")
        state = moved.state
        yield state, tuple(moved.events)
