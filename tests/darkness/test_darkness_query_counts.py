"""The statements a darkness run start and a darkness move cost, pinned (issue 13): the same for a
party of one and of eight, so per-member reads, writes and savepoints cannot creep back.

Counted over HTTP as tests/dungeons/test_run_query_counts.py counts the ordinary start: the account's
read and the transaction's BEGIN and COMMIT (a savepoint pair inside a test) are included, and so is
the run view a start's answer reads back (a move answers from what it holds). PostgreSQL's counts are
lower: the run's store reads a step and saves it in one statement each (dungeons/runs/store.py).
"""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from combat.models import CombatSettings
from dungeons.models import RunMember, RunSettings
from tests.darkness.helpers import install_maze, only
from tests.dungeons.run_helpers import Party, bestiary_kept, guild_party, lobby, run_settings

pytestmark = pytest.mark.django_db

#: The start: the account, the player, BEGIN, the run lock, the members (PostgreSQL: with the dungeon's facts
#: and the darkness row, none yet, in one read), the maze, the darkness settings, the guild's NPC kinds, the
#: dungeon, the person-runs (PostgreSQL: 1), the combat settings, the buff claim, the torch (its kind, then
#: the inventory service: 7), the darkness row, the maze's knowledge (lock, update), the run saved with its
#: members and entrance room (PostgreSQL: 1; SQLite: the run, the members, the room), COMMIT; then the run
#: view read back (PostgreSQL 6: the run, the members, the rooms, the room's battle and loot, the darkness
#: row, the guild membership, what the reader carries for its allowed actions (drink, take_loot); SQLite 8).
START_STATEMENTS = 32 if connection.vendor == "postgresql" else 36
#: A move into a new empty room, every member wounded: the account, BEGIN, the run lock, the members with
#: the rooms, the dungeon's facts and the darkness row (PostgreSQL: one read; SQLite: the members, the
#: darkness row and the dungeon's facts apart), the run saved with the members' regeneration, the new room
#: and the darkness row (PostgreSQL: 1; SQLite: 4), the maze's knowledge (lock, update), COMMIT; the answer
#: is built from what the move holds (SQLite reads the rooms for it), but for what the mover carries, read for
#: its allowed actions (drink, take_loot: SPEC 14).
MOVE_STATEMENTS = 9 if connection.vendor == "postgresql" else 15


def _statements(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries]


def _measured(size: int) -> tuple[list[str], list[str]]:
    """The statements of the start of a darkness run by a party of ``size`` of one guild (on the corridor
    maze, its rooms empty) and of its first move, into a room it has not entered, every member wounded."""
    players, guild = guild_party(size, metabolism=2)  # who regenerates on entering a room
    install_maze(guild)
    run = lobby(players, kind="darkness")
    party = Party(players[:1])
    RunSettings.cached(), CombatSettings.cached()  # read by the process before (as a running server has)
    with CaptureQueriesContext(connection) as start:
        response = party.post(players[0], f"runs/{run.pk}/start/")
    assert response.status_code == 200, response.json()
    assert response.json()["darkness"]["torch"]["bearer"] == players[0].pk
    RunMember.objects.filter(run_id=run.pk).update(hp=1)
    with CaptureQueriesContext(connection) as moved:
        response = party.post(players[0], f"runs/{run.pk}/move/", {"step": response.json()["step"],
                                                                   "direction": "RIGHT"})
    assert response.status_code == 200, response.json()
    assert all(m["hp"] > 1 for m in response.json()["members"]), response.json()["members"]
    return _statements(start), _statements(moved)


def test_a_darkness_start_and_move_cost_the_same_statements_for_one_player_and_for_eight() -> None:
    # given two darkness lobbies of one guild each, of one player and of eight
    run_settings(max_party_size=8)
    only("empty")
    # when each host starts and then moves into a new room
    solo_start, solo_move = _measured(1)
    eight_start, eight_move = _measured(8)
    # then the counts do not grow with the party, and no member gets a savepoint of its own
    assert len(eight_start) == len(solo_start), "\n".join(eight_start)
    assert len(eight_start) <= START_STATEMENTS, "\n".join(eight_start)
    assert len(eight_move) == len(solo_move), "\n".join(eight_move)
    assert len(eight_move) <= MOVE_STATEMENTS, "\n".join(eight_move)
    for solo, eight in ((solo_start, eight_start), (solo_move, eight_move)):
        assert sum(q.startswith("SAVEPOINT") for q in eight) == sum(q.startswith("SAVEPOINT") for q in solo)


#: A move into a new enemy room, the party unwounded: the account, BEGIN, the run lock, the step's read, the
#: party's items, the battle with its first events (PostgreSQL: 1; SQLite: 2), the run saved with the new room
#: and the darkness row, the maze's knowledge (lock, update), COMMIT. The awaited player's ``your_turn`` goes
#: with the run's save on PostgreSQL (SQLite: three statements of its own), and the floor's bestiary is kept
#: by the process (combat.selectors.bestiary_of_floor): no statement for either.
ENEMY_MOVE_STATEMENTS = 10 if connection.vendor == "postgresql" else 19


def test_a_darkness_move_into_an_enemy_room_costs_the_same_statements_for_one_player_and_for_eight() -> None:
    # given two darkness runs started by a party of one and of eight, every room holding enemies
    run_settings(max_party_size=8)
    only("enemy")
    counts = []
    for size in (1, 8):
        players, guild = guild_party(size)
        install_maze(guild)
        run = lobby(players, kind="darkness")
        party = Party(players[:1])
        RunSettings.cached(), CombatSettings.cached()
        started = party.post(players[0], f"runs/{run.pk}/start/")
        assert started.status_code == 200, started.json()
        # the process has read the floor's bestiary with the current token (as a running server has)
        bestiary_kept(0)
        # when the host moves into a new room, whose battle starts
        with CaptureQueriesContext(connection) as moved:
            response = party.post(players[0], f"runs/{run.pk}/move/", {"step": started.json()["step"],
                                                                       "direction": "RIGHT"})
        assert response.status_code == 200, response.json()
        assert response.json()["current_room"]["battle"] is not None, response.json()["current_room"]
        counts.append(_statements(moved))
    # then the count does not grow with the party, and stays within its pin
    solo, eight = counts
    assert len(eight) == len(solo), "\n".join(eight)
    assert len(eight) <= ENEMY_MOVE_STATEMENTS, "\n".join(eight)
