"""The game plug-in interface of hosted matches: what a mode adapter provides, and the registry.

A hosted game is a pure engine plus a small adapter implementing ``ModeAdapter``. The match
machinery (``matches/services.py``) knows seats, turns, deadlines, idempotency and the log; it
knows nothing of any game. It talks to a game only through this interface, with plain JSON
values:

- a *seat* is an index 0..n-1 into the match's players in the order they joined the lobby;
  the adapter decides the turn order (drawn from the rng it gets at creation);
- *settings* and *actions* are JSON objects; every action in ``legal_actions`` can be sent back
  unchanged and ``apply`` accepts it;
- the *state* is the adapter's own value; ``state_to_json`` / ``state_from_json`` store it;
- every random number comes from the ``random.Random`` passed in: the machinery derives it from
  the match's stored seed (``rng_for(seed, turn)``), so seed + settings + actions replay exactly.

Game apps register their adapter in their ``AppConfig.ready()``::

    from matches.modes import register
    register(CellCaptureMode())

so ``matches`` imports no game app (no import cycle) and adding a mode adds no route.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

JSON = dict[str, Any]


class ActionRefused(Exception):
    """An action (or settings) the game refuses: ``kind`` "rule" is a 409, "input" a 400.

    ``code`` is machine-readable (``occupied``, ``not_your_piece``, ``off_board``, ...) and becomes
    the error code of the API's answer; nothing is written when an action is refused.
    """

    def __init__(
        self,
        code: str,
        message: str = "",
        *,
        kind: Literal["rule", "input"] = "rule",
        details: Mapping[str, Any] | None = None,
    ) -> None:
        self.code = code
        self.message = message or code.replace("_", " ")
        self.kind = kind
        self.details = dict(details or {})
        super().__init__(f"{code}: {self.message}")


@dataclass(frozen=True)
class Event:
    """One event of the match log: ``data`` (JSON) and who may see it.

    ``seats`` None means public (every seated player sees it); otherwise only those seats do.
    """

    data: JSON
    seats: frozenset[int] | None = None

    def visible_to(self, seat: int) -> bool:
        return self.seats is None or seat in self.seats


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game: the winning seats (empty: nobody won) and free details."""

    winners: tuple[int, ...]
    details: JSON = field(default_factory=dict)


class ModeAdapter(ABC):
    """One hosted game. Implementations are stateless singletons (the state is a value)."""

    #: the mode's slug, e.g. "cell_capture" (the ``mode`` of POST /api/v1/matches/)
    name: str
    #: a short human title for the admin and lists
    title: str = ""
    min_players: int
    max_players: int
    #: the turn deadline the mode's admin row starts with (the admin edits it there)
    default_turn_deadline_seconds: int = 60
    #: the settings a lobby may choose; None: every one (the rest are the admin's defaults only)
    lobby_settings: frozenset[str] | None = None
    #: a single-player game's "new game": opening a lobby ends the player's active match of the mode
    new_game_ends_old: bool = False
    #: a game its player comes back to: ``leave/`` of the started match keeps it as it is (no walk-out)
    leave_keeps_game: bool = False

    # --- settings ---------------------------------------------------------------------------

    @abstractmethod
    def default_settings(self) -> JSON:
        """The settings a new mode row starts with (the admin edits them per mode)."""

    @abstractmethod
    def validate_settings(self, settings: Mapping[str, Any]) -> JSON:
        """The complete, normalised settings, or ActionRefused(kind="input") naming the bad field.

        The machinery passes the mode's defaults overlaid with the lobby's ``settings``.
        """

    # --- the game ---------------------------------------------------------------------------

    @abstractmethod
    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> Any:
        """A new game for ``seats`` players (seats 0..seats-1); the turn order is drawn from ``rng``.

        A game that cannot be built from these settings raises ActionRefused: the start is refused
        with its code and nothing is written.
        """

    @abstractmethod
    def turn_order(self, state: Any) -> tuple[int, ...]:
        """The seats in turn order (for views and the admin)."""

    @abstractmethod
    def awaiting(self, state: Any) -> int | None:
        """The seat whose action the game waits for; None once the game is over."""

    @abstractmethod
    def legal_actions(self, state: Any, seat: int) -> list[JSON]:
        """Every action ``seat`` may send now.

        For a seat that is not awaited this is usually empty; a mode may list actions sent out of
        turn (e.g. calling a timer on the awaited player). The machinery takes from such a seat
        exactly the actions listed for it, and anything else is 409 ``not_your_turn``.
        """

    @abstractmethod
    def apply(
        self, state: Any, seat: int, action: Mapping[str, Any], rng: random.Random
    ) -> tuple[Any, Sequence[Event]]:
        """``seat`` plays ``action``: the new state and the events, or raises ActionRefused.

        The machinery calls it for the awaiting seat, or for another seat with one of the actions
        ``legal_actions`` lists for that seat; ``state`` must not be mutated.
        A malformed action (wrong shape, a cell off the board) is kind "input"; a well-formed
        action the rules refuse is kind "rule".
        """

    def deadline_seconds(self, state: Any, seconds: int) -> int | None:
        """How long the awaited seat has, in seconds from the step that began its wait; None: no deadline.

        ``seconds`` is the match's deadline (the mode's admin row, copied onto the match at the
        start), and by default the answer. Every step restarts the count, so a step that changes
        the answer (a timer called, a pause taken) starts the new one. The machinery's own rule
        comes first: the turns of a seat that walked out time out at once.
        """
        return seconds

    @abstractmethod
    def timeout(self, state: Any, seat: int, rng: random.Random) -> tuple[Any, Sequence[Event]]:
        """The awaiting ``seat`` let its deadline pass: skip its turn (new state and events)."""

    @abstractmethod
    def view(self, state: Any, seat: int) -> JSON:
        """What ``seat`` may know of the game (a game with hidden information hides the rest)."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """None while the game goes on; the result once it is over."""

    @abstractmethod
    def state_to_json(self, state: Any) -> JSON:
        """The state as JSON (stored on the match row after every step)."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> Any:
        """The inverse of ``state_to_json``."""

    # --- optional ---------------------------------------------------------------------------

    def check_action(self, state: Any, action: Mapping[str, Any]) -> None:
        """Check an action's shape before any turn rule (ActionRefused kind "input"); by default none.

        Called whoever's turn it is, so a malformed action is a 400 even out of turn.
        """

    def full_view(self, state: Any) -> JSON:
        """Everything (for the admin, and the ``revealed`` part of a finished match's view when
        ``may_reveal`` allows it); by default the state's JSON."""
        return self.state_to_json(state)

    def may_reveal(self, settings: Mapping[str, Any], state: Any) -> bool:
        """Whether the hidden content of this finished game may be shown to its players: the view's
        ``revealed`` (``full_view``), the replay's seed, final state and the other seats' actions.

        No by default, so a mode reveals nothing it has not thought about. A mode says yes only when
        what it would reveal lets nobody see into a game still to be played: a map drawn from the
        match's own secret seed may be shown, a designer map other lobbies may still name may not.
        Asked on every read of a finished match, whatever ended it.
        """
        return False

    def picture(self, state: Any) -> str:
        """An SVG picture of the board or map for the admin ("" when the mode has none)."""
        return ""


_REGISTRY: dict[str, ModeAdapter] = {}


def register(adapter: ModeAdapter) -> ModeAdapter:
    """Register a mode (from its app's ``AppConfig.ready()``); registering the same name again replaces it."""
    if not adapter.name or not 1 <= adapter.min_players <= adapter.max_players:
        raise ValueError(f"bad mode adapter {adapter!r}")
    _REGISTRY[adapter.name] = adapter
    return adapter


def get_mode(name: str) -> ModeAdapter | None:
    return _REGISTRY.get(name)


def registered_modes() -> dict[str, ModeAdapter]:
    """Every registered mode by name (a copy)."""
    return dict(_REGISTRY)


def rng_for(seed: int, turn: int) -> random.Random:
    """The random stream of one step of a match: turn 0 creates the game, turn n > 0 is the n-th step.

    Derived from the stored seed and the step only, so a replay draws exactly the same numbers
    whatever happened in other matches or in other steps.
    """
    return random.Random(f"deepdelve-match/{seed}/{turn}")


def replay(
    adapter: ModeAdapter,
    *,
    settings: Mapping[str, Any],
    seats: int,
    seed: int,
    steps: Sequence[tuple[int, Mapping[str, Any] | None]],
) -> Any:
    """Replay a match from its stored record: each step is (seat, action), or (seat, None) for a timeout.

    Step n (1-based) draws from ``rng_for(seed, n)`` as it did when it was played.
    """
    state = adapter.create(settings=settings, seats=seats, rng=rng_for(seed, 0))
    for turn, (seat, action) in enumerate(steps, start=1):
        rng = rng_for(seed, turn)
        state, _ = (
            adapter.timeout(state, seat, rng) if action is None else adapter.apply(state, seat, action, rng)
        )
    return state
