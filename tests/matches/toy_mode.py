"""A small hidden-information game used to test the match machinery apart from any real game.

Each turn the awaited seat picks 1..3 points; the pick is private to that seat (a private event),
everyone else only sees that the seat moved; a seeded bonus of 0 or 1 (from the step's rng) is
added, so replays prove the per-step rng. First to ``target`` points wins. A timeout scores 0.

``secret_start_race`` is the same race after the framework's secret start phase: each seat first
chooses a secret handicap of 0..2 points (a deadline draws one), added to its score when all have.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from gamekit.results import Impossible, Success
from matches.modes import (
    JSON,
    WHOLE,
    Event,
    ModeAdapter,
    Moved,
    Outcome,
    Phase,
    SecretStart,
    StartRules,
    events,
    integer,
    shape,
)

HANDICAPS = (0, 1, 2)


@dataclass(frozen=True)
class Race:
    order: tuple[int, ...]
    next: int
    scores: tuple[int, ...]
    target: int
    winner: int | None = None
    #: the secret handicaps chosen so far, in turn order; None once the race is on (or it has none)
    handicaps: tuple[int, ...] | None = None


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
    settings_schema = {"target": integer(1, 100)}
    view_schema = {"oneOf": [shape({"my_score": WHOLE, "target": WHOLE}),
                             shape({"choosing": {"type": "boolean"}, "chosen": {"type": "boolean"}})]}
    action_schema = {"oneOf": [shape({"pick": WHOLE}), shape({"handicap": WHOLE})]}
    event_schema = events({
        "picked": shape({"seat": WHOLE, "points": WHOLE, "bonus": WHOLE}), "moved": shape({"seat": WHOLE}),
        "handicap_chosen": shape({"handicap": WHOLE}), "has_chosen": shape({"seat": WHOLE}),
        "race_started": shape({}),
    })
    phases = (SecretRacePlay(),)
    reasons = {"target_reached": "The winner's score reached the target first."}

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
        return None if state.winner is None else Outcome((state.winner,), "target_reached")

    def state_to_json(self, state: Race) -> JSON:
        return {"order": list(state.order), "next": state.next, "scores": list(state.scores),
                "target": state.target, "winner": state.winner,
                "handicaps": None if state.handicaps is None else list(state.handicaps)}

    def state_from_json(self, data: Mapping[str, Any]) -> Race:
        handicaps = data["handicaps"]
        return Race(order=tuple(data["order"]), next=data["next"], scores=tuple(data["scores"]),
                    target=data["target"], winner=data["winner"],
                    handicaps=None if handicaps is None else tuple(handicaps))


class RaceStarts(StartRules[Race, int]):
    """A secret handicap per seat: told to its chooser, announced to the table as chosen."""

    def chosen(self, state: Race) -> tuple[int, ...] | None:
        return state.handicaps

    def order(self, state: Race) -> tuple[int, ...]:
        return state.order

    def choices(self, state: Race) -> list[JSON]:
        return [{"handicap": h} for h in HANDICAPS]

    def parse(self, state: Race, action: Mapping[str, Any]) -> int | Impossible:
        if set(action) == {"pick"}:
            return Impossible("choose_handicap_first", "Every seat first chooses its handicap.")
        handicap = action.get("handicap")
        if set(action) != {"handicap"} or handicap not in HANDICAPS or isinstance(handicap, bool):
            return Impossible("bad_handicap", "an action is {handicap: 0, 1 or 2}", kind="input")
        return int(handicap)

    def draw(self, state: Race, rng: random.Random) -> int:
        return rng.choice(HANDICAPS)

    def record(self, state: Race, start: int) -> Race:
        assert state.handicaps is not None
        return replace(state, handicaps=(*state.handicaps, start))

    def told(self, state: Race, seat: int, start: int) -> JSON:
        return {"kind": "handicap_chosen", "handicap": start}

    def announced(self, state: Race, seat: int) -> JSON:
        return {"kind": "has_chosen", "seat": seat}

    def begin(self, state: Race, rng: random.Random) -> Success[Race, Event]:
        assert state.handicaps is not None
        scores = list(state.scores)
        for seat, handicap in zip(state.order, state.handicaps):
            scores[seat] += handicap
        began = Event({"kind": "race_started"})
        return Success(replace(state, scores=tuple(scores), handicaps=None), (began,))

    def view(self, state: Race, seat: int) -> JSON:
        assert state.handicaps is not None
        return {"choosing": True, "chosen": state.order.index(seat) < len(state.handicaps)}


class SecretStartRaceMode(SecretRaceMode):
    name = "secret_start_race"
    title = "Secret race with secret handicaps (test mode)"
    phases = (SecretStart(RaceStarts()), SecretRacePlay())

    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> Race:
        return replace(super().create(settings=settings, seats=seats, rng=rng), handicaps=())
