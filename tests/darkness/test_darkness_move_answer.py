"""A darkness move answers with the run as any later read of it gives it, to the byte (issue 25).

The move builds its answer from what it holds (the run's step as saved, the darkness row, what the guild
knows): nothing is read back. Every kind of move is checked against a GET of the run by the same
player right after it.
"""
from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from darkness.models import DarknessRun, GuildMaze
from dungeons.runs.store import run_step_lock
from guilds.models import Membership
from tests.darkness.helpers import API, CORRIDOR_PATH, darkness_settings, deadly_trap, install_maze, only
from tests.dungeons.run_helpers import Party, bestiary, guild_party, lobby

pytestmark = pytest.mark.django_db


def _moves(party: Party, who: Any, run: dict[str, Any], directions: list[str]) -> list[dict[str, Any]]:
    """Each move's answer, checked against a read of the run by the mover right after it."""
    answers = []
    for direction in directions:
        response = party.post(who, f"runs/{run['id']}/move/", {"step": run["step"], "direction": direction})
        assert response.status_code == 200, response.json()
        assert response.content == party.client(who).get(f"{API}/runs/{run['id']}/").content, direction
        run = response.json()
        answers.append(run)
    return answers


def _started(content: str, maze: str | None = None, *, deadly: bool = False,
             **settings: Any) -> tuple[Any, Party, dict[str, Any]]:
    only(content, torch_length=settings.pop("torch_length", 30))
    if settings:
        darkness_settings(**settings)
    players, guild = guild_party(2)
    if deadly:  # a trap in every ordinary room, deadly for the first (the torch's bearer) only
        deadly_trap(players[0], players[1])
    install_maze(guild, maze) if maze else install_maze(guild)
    party = Party(players)
    run = lobby(players, kind="darkness")
    response = party.post(players[0], f"runs/{run.pk}/start/")
    assert response.status_code == 200, response.json()
    return players, party, response.json()


@pytest.mark.parametrize("content", ["empty", "treasure", "trap"])
def test_a_walk_through_the_corridor_answers_what_a_read_gives(content: str) -> None:
    # given a darkness run whose ordinary rooms all hold one content, and a boss that takes its time
    bestiary(boss_hp=10_000)
    players, party, run = _started(content)
    # when the party walks the corridor to the heart (a camp on the way, the boss's battle at the end),
    # then every answer is the read that follows it
    answers = _moves(party, players[0], run, CORRIDOR_PATH)
    assert answers[-1]["current_room"]["battle"] is not None


def test_a_room_entered_before_a_rubber_room_and_a_teleport_answer_what_a_read_gives() -> None:
    players, party, run = _started("treasure", "4 2\n. R\n_ .\n. .\n. _\n. T\n_ .\n. .\n"
                                   "R RubberRoom(DOWN)\nT Teleport((3, 1))\n")
    run = _moves(party, players[0], run, ["RIGHT"])[-1]  # into the rubber room, its treasure lying there
    run = _moves(party, players[0], run, ["LEFT", "DOWN", "UP"])[-1]  # held, then on, then back
    _moves(party, players[1], run, ["DOWN", "LEFT", "DOWN", "RIGHT"])  # the camp, then the teleport


def test_a_death_in_a_trap_and_the_torch_passing_answer_what_a_read_gives() -> None:
    players, party, run = _started("trap", deadly=True)
    answers = _moves(party, players[1], run, ["RIGHT"])
    assert answers[-1]["darkness"]["torch"]["bearer"] == players[1].pk


def test_the_torch_burning_out_answers_what_a_read_gives() -> None:
    players, party, run = _started("empty", torch_length=2)
    answers = _moves(party, players[0], run, ["RIGHT", "DOWN"])
    assert answers[-1]["status"] == "failed"


def test_a_mover_no_longer_in_the_guild_is_answered_what_a_read_gives() -> None:
    # given a run whose second member has left the guild since the start
    players, party, run = _started("empty")
    Membership.objects.filter(player=players[1]).update(left_at=timezone.now())
    # when they move, then the answer shows them only this run's rooms, as their read does
    answers = _moves(party, players[1], run, ["RIGHT"])
    assert len(answers[-1]["darkness"]["rooms"]) == 2


@pytest.mark.postgres
def test_the_runs_step_holds_the_darkness_row_the_orm_reads() -> None:
    # given a started darkness run
    _, _, run = _started("empty")
    # when the run's store loads its step (one read after the lock, with the kind's own row)
    step = run_step_lock(run["id"], rooms=True)
    assert step is not None
    held = step.held[DarknessRun._meta.label]
    # then it is the darkness row with its maze, as the ORM reads them
    stored = DarknessRun.objects.select_related("maze").get(run_id=run["id"])
    assert [getattr(held, f.attname) for f in DarknessRun._meta.concrete_fields] == \
        [getattr(stored, f.attname) for f in DarknessRun._meta.concrete_fields]
    assert [getattr(held.maze, f.attname) for f in GuildMaze._meta.concrete_fields] == \
        [getattr(stored.maze, f.attname) for f in GuildMaze._meta.concrete_fields]
