"""Helpers of the labyrinth_paper mode tests: a table of players over the real match routes, every
response kept for the leak scanner, and an oracle that reads the server's state to plan a player's
way (the test plays the game master's part to find a plan; the game itself runs only on the server)."""
from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from rest_framework.test import APIClient

from gamekit.results import Impossible
from matches.models import Match
from matches.services import mode_settings
from paper_labyrinth.actions import turn_from_json, turn_to_json
from paper_labyrinth.engine import rules
from paper_labyrinth.engine.model import Side
from paper_labyrinth.engine.requests import Skip, Turn
from paper_labyrinth.engine.state import GameState, state_from_json
from paper_labyrinth.mode import PaperLabyrinthMode
from players.models import Player
from tests.factories import PlayerFactory
from tests.matches.helpers import MATCHES, url
from tests.paper_labyrinth.engine.rules_boards import answered

MODE = "labyrinth_paper"
ADAPTER = PaperLabyrinthMode()
MOVES = [{"do": "move", "direction": d} for d in ("UP", "LEFT", "DOWN", "RIGHT")] + [
    {"do": "downstream"}, {"do": "cycle"}]
SKIP = {"type": "turn", "steps": [{"do": "skip"}]}

# What no player's response may hold before the end (keys anywhere in view, events, allowed actions).
SECRET_KEYS = {"map", "walls", "outer", "holes", "flow", "treasures", "piles", "pos", "position",
               "positions", "starts", "chosen", "armed", "true", "ticks", "game", "seed", "row", "col",
               "final_state", "picture"}
COUNT_KEYS = {"treasures"}  # "нашел клад": how many lay there is a public fact, where they lie is not
SEAT_LISTS = {"wounded", "killed"}  # lists of seats in the quantum shot's answer, not positions
POSITION_TEXT = re.compile(r"\(\s*\d+\s*,\s*\d+\s*\)")


def client(player: Player) -> APIClient:
    """Authenticated without a JWT: the test's clock may run past any token's lifetime."""
    c = APIClient()
    c.force_authenticate(player.user)
    return c


def leaks(value: Any, path: str = "") -> Iterator[str]:
    """Every place in a response part that holds a secret: a secret key, a position-like pair of
    numbers, or a position written in text."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in SECRET_KEYS and not (key in COUNT_KEYS and type(inner) is int):
                yield f"{path}.{key}: secret key"
            if key == "reorder" and not isinstance(inner, bool):
                yield f"{path}.reorder: a re-order cell"
            if key in SEAT_LISTS:
                continue
            yield from leaks(inner, f"{path}.{key}")
    elif isinstance(value, list):
        if len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            yield f"{path}: a pair of numbers {value}"
        for i, inner in enumerate(value):
            yield from leaks(inner, f"{path}[{i}]")
    elif isinstance(value, str) and POSITION_TEXT.search(value):
        yield f"{path}: a position in text {value!r}"


@dataclass
class Table:
    """A started labyrinth_paper match of fresh players, and every response they got."""

    people: list[Player]
    match_id: int
    clients: dict[int, APIClient]
    seen: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @classmethod
    def open(cls, players: int = 3, settings: dict[str, Any] | None = None, deadline: int = 60) -> Table:
        row = mode_settings(MODE)
        row.turn_deadline_seconds = deadline
        row.save()
        people = [PlayerFactory() for _ in range(players)]
        clients = {p.pk: client(p) for p in people}
        reply = clients[people[0].pk].post(MATCHES, {"mode": MODE, "settings": settings or {}}, format="json")
        assert reply.status_code == 201, reply.json()
        match_id = reply.json()["id"]
        for p in people[1:]:
            assert clients[p.pk].post(url(match_id, "join/")).status_code == 200
        assert clients[people[0].pk].post(url(match_id, "start/")).status_code == 200
        return cls(people, match_id, clients)

    # -- the routes --

    def match(self) -> Match:
        return Match.objects.get(pk=self.match_id)

    def read(self, player: Player) -> dict[str, Any]:
        reply = self.clients[player.pk].get(url(self.match_id))
        assert reply.status_code == 200, reply.json()
        body: dict[str, Any] = reply.json()
        self.seen.append(("read", body))
        return body

    def read_all(self) -> list[dict[str, Any]]:
        return [self.read(p) for p in self.people]

    def awaited(self) -> Player:
        awaiting = self.match().awaiting_id
        return next(p for p in self.people if p.pk == awaiting)

    def post(self, player: Player, action: dict[str, Any], *, status: int = 200) -> dict[str, Any]:
        turn = self.match().turn
        reply = self.clients[player.pk].post(url(self.match_id, "actions/"), {"turn": turn, "action": action},
                                             format="json")
        assert reply.status_code == status, (action, reply.json())
        body: dict[str, Any] = reply.json()
        self.seen.append(("post", body))
        return body

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """The awaited player reads (every player reads too, as a table would) and posts."""
        self.read_all()
        return self.post(self.awaited(), action)

    def choose_starts(self, cells: list[int] | None = None) -> None:
        for k in range(len(self.people)):
            mover = self.awaited()
            allowed = self.read(mover)["allowed_actions"]
            cell = cells[k] if cells else k
            assert {"type": "start", "cell": cell} in allowed
            self.post(mover, {"type": "start", "cell": cell})

    def seat_of(self, player: Player) -> int:
        return int(self.match().seats.get(player=player).seat)

    # -- the oracle: the server's state --

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.match().state
        return state

    def game(self) -> GameState:
        return state_from_json(self.state()["game"])

    def engine_seat(self, player: Player) -> int:
        return int(self.state()["order"].index(self.seat_of(player)))

    def assert_nothing_leaked(self) -> None:
        """The scanner over every response kept so far (reads before the end, and every post)."""
        found: list[str] = []
        for kind, body in self.seen:
            if kind == "read" and body["status"] != "active":
                continue  # the end shows everything (docs: hosting)
            for part in ("view", "events", "allowed_actions"):
                found += [f"{kind} {part}{where}" for where in leaks(body.get(part), "")]
            if kind == "read":  # the settings are public: the setting names only, a map by its id
                settings = body["settings"]
                assert set(settings) == set(ADAPTER.default_settings()), settings
                assert settings["map"] is None or type(settings["map"]) is int
                found += [f"settings{where}" for where in leaks(list(settings.values()), "")]
            if kind == "read":
                found += [f"read seed: {body['seed']}"] if "seed" in body else []
        assert not found, found[:20]

    def timeout(self, clock: Any) -> None:
        """The awaited player stays silent past the deadline; someone reads."""
        clock.shift(timedelta(seconds=self.match().turn_deadline_seconds + 1))
        self.read(self.people[0])


def others_skip(state: GameState, mover: int) -> GameState:
    """The state after the other players in the game each skip once (the test's plan for them)."""
    while state.result is None and state.current is not None and state.current != mover:
        state, _ = answered(rules.apply(state, state.current, Turn((Skip(),))))
    return state


def plan(state: GameState, mover: int, goal: Callable[[GameState], bool], extra: list[dict[str, Any]],
         limit: int = 4000) -> list[dict[str, Any]]:
    """A shortest list of ``mover``'s turns (single movements, treasure choices, and the ``extra``
    turns) after which ``goal`` holds, the others skipping in between (breadth first over the real rules)."""
    cells = sorted(state.map.cells)
    turns = [{"type": "turn", "steps": [m]} for m in MOVES]
    turns += [{"type": "turn", "steps": [m], "treasure": k} for m in MOVES[:4] for k in (1, 2)]
    turns += extra
    start = others_skip(state, mover)
    queue: deque[tuple[GameState, list[dict[str, Any]]]] = deque([(start, [])])
    seen = {_key(start, mover)}
    while queue and len(seen) < limit:
        here, steps = queue.popleft()
        for action in turns:
            answer = rules.apply(here, mover, turn_from_json(action, cells))
            if isinstance(answer, Impossible):
                continue
            after = answer.state
            if goal(after):
                return [*steps, action]
            after = others_skip(after, mover)
            key = _key(after, mover)
            if key in seen or after.result is not None:
                continue
            seen.add(key)
            queue.append((after, [*steps, action]))
    raise AssertionError("no plan found")


def _key(state: GameState, mover: int) -> str:
    p = state.players[mover]
    return json.dumps([p.pos, p.health, p.outside and p.outside.value, p.immune,
                       None if p.slot is None else [p.slot.kind, p.slot.true], p.bullets, p.grenades,
                       sorted((list(k), v.infectious) for k, v in state.ticks.items())])


def open_exit_sides(state: GameState) -> dict[Any, Any]:
    """Each cell with an open exit -> the exit's direction."""
    return {pos: d for (pos, d), kind in state.outer.items()
            if rules.side_now(state, pos, d) is Side.OPEN_EXIT}


__all__ = ["ADAPTER", "MODE", "SKIP", "Table", "client", "leaks", "open_exit_sides", "others_skip", "plan",
           "turn_to_json"]
