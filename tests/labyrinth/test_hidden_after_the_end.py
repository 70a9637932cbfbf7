"""A leak scanner over every ending: a designer map still in the pool (console and paper) and a chosen
roguelike seed stay hidden from everything a player reads after the end (the view, the events, the
replay, the match list), whatever ended the match; a map drawn for the match alone, or a designer map
taken out of the pool, is then revealed."""
from __future__ import annotations

import json
from datetime import timedelta
from random import Random
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from labyrinth.engine import format_map, generate_map
from labyrinth.models import LabyrinthMapDesign
from matches.models import Match, MatchStatus
from matches.modes import ModeAdapter, get_mode
from paper_labyrinth.engine import format_paper_map, parse_paper_map
from paper_labyrinth.engine.examples import SMALL_CLASSIC_TEXT
from paper_labyrinth.models import PaperMapDesign
from players.models import Player
from roguelike.engine import game_from_json, gold_cell
from tests.factories import PlayerFactory
from tests.labyrinth.test_console_mode import play_to_the_end
from tests.matches.helpers import MATCHES, url
from tests.roguelike.test_mode import CALM, cells_in, way

pytestmark = pytest.mark.django_db

DEADLINE = 60
# A generated 4x5 map with a dream field, a key, stuns and walls: its text is what must not be read.
CONSOLE_MAP = format_map(generate_map(4, 5, Random(3)))


class Table:
    """The seated players of one match, each with a client that keeps every JSON body it was given."""

    def __init__(self, mode: str, players: int, settings: dict[str, Any]) -> None:
        self.mode = mode
        self.people = [PlayerFactory() for _ in range(players)]
        self.clients: dict[int, APIClient] = {}
        for person in self.people:
            self.clients[person.pk] = APIClient()
            self.clients[person.pk].force_authenticate(person.user)  # the clock runs past any JWT
        self.seen: list[Any] = []
        self.match_id = self.post(self.people[0], MATCHES, {"mode": mode, "settings": settings}, 201)["id"]
        for person in self.people[1:]:
            self.post(person, url(self.match_id, "join/"))
        self.post(self.people[0], url(self.match_id, "start/"))

    def keep(self, reply: Any, status: int) -> dict[str, Any]:
        assert reply.status_code == status, reply.json()
        body: dict[str, Any] = reply.json()
        self.seen.append(body)
        return body

    def post(self, person: Player, path: str, data: Any = None, status: int = 200) -> dict[str, Any]:
        return self.keep(self.clients[person.pk].post(path, data, format="json"), status)

    def get(self, person: Player, path: str, query: Any = None) -> dict[str, Any]:
        return self.keep(self.clients[person.pk].get(path, query), 200)

    def match(self) -> Match:
        return Match.objects.get(pk=self.match_id)

    def walk_out(self, *people: Player) -> None:
        """The players leave one by one until the match is over (a paper game ends with one left)."""
        for person in people or self.people:
            if not self.match().is_over:
                self.post(person, url(self.match_id, "leave/"))

    def read_everything(self) -> list[dict[str, Any]]:
        """What each player may read once the match is over: the match, its replay, the list."""
        assert self.match().is_over
        bodies = []
        for person in self.people:
            bodies.append(self.get(person, url(self.match_id)))
            bodies.append(self.get(person, url(self.match_id, "replay/")))
            bodies.append(self.get(person, MATCHES, {"mode": self.mode}))
        return bodies

    def replays(self) -> list[dict[str, Any]]:
        return [body for body in self.seen if "final_state" in body]


def text_of(body: Any) -> str:
    return json.dumps(body, ensure_ascii=False)


def found(needles: list[str], bodies: list[Any]) -> list[str]:
    return sorted({needle for needle in needles for body in bodies if needle in text_of(body)})


def map_lines(*texts: str) -> list[str]:
    """The lines of map texts that draw walls, special cells or items (not blank or comment lines)."""
    lines = {line.strip() for text in texts for line in text.splitlines()}
    return sorted(line for line in lines if len(line) >= 5 and not line.startswith("#")
                  and any(ch not in ". " for ch in line))


def assert_withheld(table: Table, needles: list[str]) -> None:
    """Every body the players were given hides the secret; every replay is the withheld one."""
    bodies = table.read_everything()
    assert found(needles, table.seen) == []
    for body in bodies:
        if "view" in body:
            assert body["view"] is not None and "revealed" not in body["view"]
    seats = {row["player"]: row["seat"] for row in table.replays()[0]["seats"]}
    for person, replay in zip(table.people, table.replays()):
        assert replay["withheld"] is True and replay["seed"] is None and replay["final_state"] is None
        others = [step for step in replay["actions"] if step["seat"] != seats[person.pk]]
        assert all(step["action"] is None for step in others)


def assert_revealed(table: Table, needles: list[str]) -> None:
    """The same reads show everything (so the scanner above does see a map when one is there)."""
    match = table.match()
    table.seen.clear()
    bodies = table.read_everything()
    assert found(needles, bodies) == sorted(needles)
    views = [body["view"] for body in bodies if "view" in body]
    adapter = get_mode(match.mode)
    assert adapter is not None
    hidden = adapter.revealed(adapter.state_from_json(match.state))
    assert hidden is not None and hidden != match.state  # the mode's own terms, never the stored state
    assert views and all(view["revealed"] == hidden for view in views)
    assert all(replay["final_state"] == match.state and replay["seed"] == match.seed
               for replay in table.replays())


# --- seed 003's console labyrinth ------------------------------------------------------------------------


def console_design() -> LabyrinthMapDesign:
    return LabyrinthMapDesign.objects.create(name="puzzle", text=CONSOLE_MAP)


def console_needles(table: Table) -> list[str]:
    state_map = table.match().state["map"]
    assert state_map == CONSOLE_MAP  # the game is on the designer map
    return map_lines(CONSOLE_MAP, state_map) + [str(table.match().seed)]


def test_a_console_designer_map_stays_hidden_when_everyone_walks_out() -> None:
    design = console_design()
    table = Table("labyrinth_console", 2, {"map": design.pk, "start_positions": "chosen"})
    first = next(p for p in table.people if p.pk == table.match().awaiting_id)
    table.post(first, url(table.match_id, "actions/"), {"turn": 1, "action": {"start": [0, 2]}})
    table.walk_out()
    assert table.match().status == MatchStatus.ABANDONED
    assert_withheld(table, console_needles(table))
    LabyrinthMapDesign.objects.filter(pk=design.pk).update(is_active=False)
    assert_revealed(table, console_needles(table))


def test_a_console_designer_map_stays_hidden_after_a_win() -> None:
    design = console_design()
    table = Table("labyrinth_console", 2, {"map": design.pk})
    play_to_the_end(table.people, table.match())
    assert table.match().status == MatchStatus.FINISHED
    assert_withheld(table, console_needles(table))
    design.delete()  # out of the pool for good
    assert_revealed(table, console_needles(table))


def test_a_console_designer_map_stays_hidden_when_nobody_plays() -> None:
    design = console_design()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        table = Table("labyrinth_console", 3, {"map": design.pk})
        clock.shift(timedelta(seconds=4 * DEADLINE))
        table.get(table.people[1], url(table.match_id))
    assert table.match().status == MatchStatus.ABANDONED
    assert_withheld(table, console_needles(table))


def test_a_generated_console_map_is_revealed_after_the_end() -> None:
    table = Table("labyrinth_console", 2, {"rows": 4, "cols": 4})
    table.walk_out()
    assert_revealed(table, map_lines(table.match().state["map"]))


# --- seed 002's paper labyrinth ---------------------------------------------------------------------------


def paper_design() -> PaperMapDesign:
    return PaperMapDesign.objects.create(name="puzzle", text=SMALL_CLASSIC_TEXT)


def paper_needles(table: Table) -> list[str]:
    state_map = table.match().state["map"]
    assert state_map == format_paper_map(parse_paper_map(SMALL_CLASSIC_TEXT))
    return map_lines(SMALL_CLASSIC_TEXT, state_map) + [str(table.match().seed)]


@pytest.mark.parametrize("starts", ["chosen", "random"])
def test_a_paper_designer_map_stays_hidden_when_the_players_walk_out(starts: str) -> None:
    example = paper_design()
    table = Table("labyrinth_paper", 3, {"map": example.pk, "starts": starts})
    table.walk_out()
    assert table.match().is_over
    assert_withheld(table, paper_needles(table))
    PaperMapDesign.objects.filter(pk=example.pk).update(is_active=False)
    assert_revealed(table, paper_needles(table))


def test_a_paper_designer_map_stays_hidden_after_the_last_player_wins() -> None:
    example = paper_design()
    table = Table("labyrinth_paper", 2, {"map": example.pk, "starts": "chosen"})
    for cell in (3, 7):  # each player chooses a secret start cell
        mover = next(p for p in table.people if p.pk == table.match().awaiting_id)
        action = {"type": "start", "cell": cell}
        table.post(mover, url(table.match_id, "actions/"), {"turn": table.match().turn, "action": action})
    loser = next(p for p in table.people if p.pk == table.match().awaiting_id)
    table.walk_out(loser)  # their turn times out at once: they lose, the other is the last one left
    match = table.match()
    assert match.status == MatchStatus.FINISHED and match.result["winners"] != [loser.pk]
    assert_withheld(table, paper_needles(table))


# --- seed 000's roguelike -------------------------------------------------------------------------------


def world_needles(table: Table) -> list[str]:
    state = table.match().state
    return [str(state["world_seed"]), json.dumps(state["world"]["floors"])]


def assert_world_withheld(table: Table) -> None:
    assert_withheld(table, world_needles(table))
    assert [cell for body in table.seen for cell in cells_in(body)] == []  # no [floor, row, col] at all


def test_a_chosen_seed_world_stays_hidden_when_the_player_leaves_and_a_new_game_ends_it() -> None:
    table = Table("labyrinth_roguelike", 1, {"seed": 20260101})
    table.walk_out()  # leaving keeps a roguelike game: its player comes back to it
    assert table.match().status == MatchStatus.ACTIVE
    table.post(table.people[0], MATCHES, {"mode": "labyrinth_roguelike", "settings": {}}, 201)
    assert table.match().status == MatchStatus.ABANDONED
    assert_world_withheld(table)


def test_a_chosen_seed_world_stays_hidden_when_a_new_game_ends_it() -> None:
    table = Table("labyrinth_roguelike", 1, {"seed": 20260101})
    table.post(table.people[0], MATCHES, {"mode": "labyrinth_roguelike", "settings": {}}, 201)
    assert table.match().status == MatchStatus.ABANDONED
    assert_world_withheld(table)


def test_a_chosen_seed_world_stays_hidden_after_a_win() -> None:
    table = Table("labyrinth_roguelike", 1, CALM)
    game = game_from_json(table.match().state)
    gold = gold_cell(game)
    assert gold is not None
    plan = [*way(game, game.player.cell, gold), *way(game, gold, game.world.exit_cell),
            game.world.exit_side.value]
    for direction in plan:
        step = {"turn": table.match().turn, "action": {"type": "go", "direction": direction}}
        table.post(table.people[0], url(table.match_id, "actions/"), step)
    assert table.match().status == MatchStatus.FINISHED
    assert_world_withheld(table)


def test_a_world_drawn_for_the_match_is_revealed_after_the_end() -> None:
    table = Table("labyrinth_roguelike", 1, {"width": 4, "height": 4})
    table.post(table.people[0], MATCHES, {"mode": "labyrinth_roguelike", "settings": {}}, 201)  # a new game
    assert table.match().status == MatchStatus.ABANDONED
    assert_revealed(table, world_needles(table))


def test_a_mode_reveals_nothing_it_has_not_said_it_may() -> None:
    adapter = get_mode("labyrinth_console")
    assert adapter is not None
    assert ModeAdapter.may_reveal(adapter, {"map": None}, {}) is False  # the interface's default
