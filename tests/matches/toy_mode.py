"""A small hidden-information game used to test the match machinery apart from any real game.

Each turn the awaited seat picks 1..3 points; the pick is private to that seat (a private event),
everyone else only sees that the seat moved; a seeded bonus of 0 or 1 (from the step's rng) is
added, so replays prove the per-step rng. First to ``target`` points wins. A timeout scores 0.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from gamekit.results import Impossible, Success
from matches.modes import JSON, Event, ModeAdapter, Moved, Outcome, Phase


@dataclass(frozen=True)
class Race:
    order: tuple[int, ...]
    next: int
    scores: tuple[int, ...]
    target: int
    winner: int | None = None


class SecretRacePlay(Phase[Race]):
    def awaiting(self, state: Race) -> int | None:
        return None if state.winner is not None else state.order[state.next]

    def legal_actions(self, state: Race, seat: int) -> list[JSON]:
        return [{"pick": n} for n in (1, 2, 3)] if self.awaiting(state) == seat else []

    def check_action(self, state: Race, action: Mapping[str, Any]) -> Impossible | None:
        pick = action.get("pick")
        if set(action) != {"pick"} or not isinstance(pick, int) or isinstance(pick, bool):
            return Impossible("bad_pick", "an action is {pick: n}", kind="input")
        return None

    def _step(self, state: Race, seat: int, points: int, rng: random.Random) -> Success[Race, Event]:
        bonus = rng.randint(0, 1) if points else 0
        scores = list(state.scores)
        scores[seat] += points + bonus
        winner = seat if scores[seat] >= state.target else None
        new = replace(state, scores=tuple(scores), next=(state.next + 1) % len(state.order), winner=winner)
        events = (
            Event({"kind": "picked", "seat": seat, "points": points, "bonus": bonus}, frozenset({seat})),
            Event({"kind": "moved", "seat": seat}),
        )
        return Success(new, events)

    def apply(self, state: Race, seat: int, action: Mapping[str, Any], rng: random.Random) -> Moved[Race]:
        malformed = self.check_action(state, action)
        if malformed is not None:
            return malformed
        if action["pick"] not in (1, 2, 3):
            return Impossible("bad_pick_value", "pick 1, 2 or 3")
        return self._step(state, seat, action["pick"], rng)

    def timeout(self, state: Race, seat: int, rng: random.Random) -> Success[Race, Event]:
        return self._step(state, seat, 0, rng)

    def view(self, state: Race, seat: int) -> JSON:
        return {"my_score": state.scores[seat], "target": state.target}


class SecretRaceMode(ModeAdapter[Race]):
    name = "secret_race"
    title = "Secret race (test mode)"
    min_players = 2
    max_players = 4
    phases = (SecretRacePlay(),)

    def default_settings(self) -> JSON:
        return {"target": 10}

    def validate_settings(self, settings: Mapping[str, Any]) -> JSON | Impossible:
        target = settings.get("target")
        if (
            set(settings) != {"target"}
            or not isinstance(target, int)
            or isinstance(target, bool)
            or not 1 <= target <= 100
        ):
            return Impossible("bad_target", "target is 1..100", kind="input")
        return {"target": target}

    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> Race:
        order = list(range(seats))
        rng.shuffle(order)
        return Race(order=tuple(order), next=0, scores=(0,) * seats, target=settings["target"])

    def turn_order(self, state: Race) -> tuple[int, ...]:
        return state.order

    def may_reveal(self, settings: Mapping[str, Any], state: Race) -> bool:
        return True  # its secrets (the picks) belong to the match alone

    def outcome(self, state: Race) -> Outcome | None:
        return None if state.winner is None else Outcome((state.winner,))

    def state_to_json(self, state: Race) -> JSON:
        return {"order": list(state.order), "next": state.next, "scores": list(state.scores),
                "target": state.target, "winner": state.winner}

    def state_from_json(self, data: Mapping[str, Any]) -> Race:
        return Race(order=tuple(data["order"]), next=data["next"], scores=tuple(data["scores"]),
                    target=data["target"], winner=data["winner"])
