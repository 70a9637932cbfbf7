"""A small hidden-information game used to test the match machinery apart from any real game.

Each turn the awaited seat picks 1..3 points; the pick is private to that seat (a private event),
everyone else only sees that the seat moved; a seeded bonus of 0 or 1 (from the step's rng) is
added, so replays prove the per-step rng. First to ``target`` points wins. A timeout scores 0.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from matches.modes import JSON, ActionRefused, Event, ModeAdapter, Outcome


class SecretRaceMode(ModeAdapter):
    name = "secret_race"
    title = "Secret race (test mode)"
    min_players = 2
    max_players = 4

    def default_settings(self) -> JSON:
        return {"target": 10}

    def validate_settings(self, settings: Mapping[str, Any]) -> JSON:
        target = settings.get("target")
        if (
            set(settings) != {"target"}
            or not isinstance(target, int)
            or isinstance(target, bool)
            or not 1 <= target <= 100
        ):
            raise ActionRefused("bad_target", "target is 1..100", kind="input")
        return {"target": target}

    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> JSON:
        order = list(range(seats))
        rng.shuffle(order)
        return {
            "order": order,
            "next": 0,
            "scores": [0] * seats,
            "target": settings["target"],
            "winner": None,
        }

    def turn_order(self, state: JSON) -> tuple[int, ...]:
        return tuple(state["order"])

    def awaiting(self, state: JSON) -> int | None:
        return None if state["winner"] is not None else state["order"][state["next"]]

    def legal_actions(self, state: JSON, seat: int) -> list[JSON]:
        return [{"pick": n} for n in (1, 2, 3)] if self.awaiting(state) == seat else []

    def check_action(self, state: JSON, action: Mapping[str, Any]) -> None:
        pick = action.get("pick")
        if set(action) != {"pick"} or not isinstance(pick, int) or isinstance(pick, bool):
            raise ActionRefused("bad_pick", "an action is {pick: n}", kind="input")

    def _step(self, state: JSON, seat: int, points: int, rng: random.Random) -> tuple[JSON, list[Event]]:
        bonus = rng.randint(0, 1) if points else 0
        scores = list(state["scores"])
        scores[seat] += points + bonus
        winner = seat if scores[seat] >= state["target"] else None
        new = {**state, "scores": scores, "next": (state["next"] + 1) % len(state["order"]), "winner": winner}
        events = [
            Event({"kind": "picked", "seat": seat, "points": points, "bonus": bonus}, frozenset({seat})),
            Event({"kind": "moved", "seat": seat}),
        ]
        return new, events

    def apply(
        self, state: JSON, seat: int, action: Mapping[str, Any], rng: random.Random
    ) -> tuple[JSON, Sequence[Event]]:
        self.check_action(state, action)
        if action["pick"] not in (1, 2, 3):
            raise ActionRefused("bad_pick_value", "pick 1, 2 or 3")
        return self._step(state, seat, action["pick"], rng)

    def timeout(self, state: JSON, seat: int, rng: random.Random) -> tuple[JSON, Sequence[Event]]:
        return self._step(state, seat, 0, rng)

    def view(self, state: JSON, seat: int) -> JSON:
        return {"my_score": state["scores"][seat], "target": state["target"]}

    def may_reveal(self, settings: Mapping[str, Any], state: JSON) -> bool:
        return True  # its secrets (the picks) belong to the match alone

    def outcome(self, state: JSON) -> Outcome | None:
        return None if state["winner"] is None else Outcome((state["winner"],))

    def state_to_json(self, state: JSON) -> JSON:
        return dict(state)

    def state_from_json(self, data: Mapping[str, Any]) -> JSON:
        return dict(data)
