"""The statements a battle action, a battle poll and a run start cost, pinned (issue 13).

Counted over HTTP with real clients (JWT), so a count includes the account's own read and the
transaction's BEGIN and COMMIT: the baseline authenticated write is 2 statements (the account, one
UPDATE in autocommit). On PostgreSQL the lock
statements are checked too: one statement locks the run and the battle together, and a step never
rewrites what it did not change (the battle's setup, the run's log).
"""
from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backend.sql import prepared_sql
from combat.models import BattleEvent, CombatSettings
from dungeons.models import RunSettings
from players.models import Notice
from tests.dungeons.run_helpers import (
    API,
    Party,
    bestiary,
    bestiary_kept,
    combat_settings,
    current_battle,
    fix_seed,
    guild_party,
    layout,
    lobby,
    run_settings,
    seed_where,
    small_dungeons,
    started,
)

pytestmark = pytest.mark.django_db

#: Pinned bounds (issue 13): an action, a poll, a start whatever the party's size.
#: An action: the account, BEGIN, the lock with the check (membership, the key's earlier answer), the step's
#: writes, COMMIT. The writes are one statement on PostgreSQL (combat.services), three on SQLite.
ACTION_STATEMENTS = 5 if connection.vendor == "postgresql" else 7
#: A poll: the account, the battle with the reader's membership and (PostgreSQL) the events since; SQLite
#: reads the events apart.
POLL_STATEMENTS = 2 if connection.vendor == "postgresql" else 3
#: A start: the person-run log and the guild's ledger are one statement on PostgreSQL, two on SQLite; the run
#: is saved with its members in one on PostgreSQL (dungeons/runs/store.py), two on SQLite; the first battle
#: with its events in one on PostgreSQL (combat/store.py), two on SQLite; the floor's bestiary is kept by the
#: process (combat.selectors.bestiary_of_floor: none); the awaited player's ``your_turn`` notice
#: (players/notice_store.py) in the run's save on PostgreSQL, three statements of its own on SQLite.
START_STATEMENTS = 15 if connection.vendor == "postgresql" else 21


def _sql(queries: CaptureQueriesContext) -> list[str]:
    """The statements of a request as the server sends them. A test runs inside a transaction, so the
    request's own BEGIN and COMMIT show here as a savepoint pair: they are counted, as in production
    (Django logs BEGIN and COMMIT too, and bench/bench_runs.py counts them). A prepared statement
    shows as the SQL it runs (backend.sql.Prepared)."""
    return [prepared_sql(q["sql"]) for q in queries.captured_queries]


def _first_room_is_enemy(dungeon: Any) -> bool:
    return layout(dungeon)[0][0] == "enemy"


@pytest.fixture
def tough_bestiary() -> None:
    """Battles that last: nobody dies in the few steps a test takes."""
    small_dungeons(floors=1, rooms=5)
    bestiary(enemy_hp=10_000, enemy_damage=1, boss_hp=10_000)
    combat_settings(base_hp=10_000)


def _solo_battle(monkeypatch: Any) -> tuple[Party, int]:
    players, _ = guild_party(1)
    run = started(players, monkeypatch, predicate=_first_room_is_enemy)
    return Party(players), current_battle(run).pk


def test_a_battle_action_takes_at_most_its_pinned_statements(tough_bestiary: None, monkeypatch: Any) -> None:
    # given a solo run in its first battle, awaiting the player
    party, battle_id = _solo_battle(monkeypatch)
    state = party.battle(battle_id)
    target = next(a["target"] for a in state["allowed_actions"] if a["kind"] == "attack")
    # when the player attacks (with an idempotency key, the usual client)
    with CaptureQueriesContext(connection) as queries:
        response = party.act(party.players[0], battle_id, state["turn"], {"kind": "attack", "target": target},
                             key="k-1")
    # then
    assert response.status_code == 200, response.json()
    statements = _sql(queries)
    assert len(statements) <= ACTION_STATEMENTS, "\n".join(statements)
    assert not any('"setup"' in sql for sql in statements if sql.startswith(("UPDATE", "WITH"))), statements
    assert not any('UPDATE "dungeons_run"' in sql for sql in statements), statements
    if connection.vendor == "postgresql":
        locks = [sql for sql in statements if "FOR UPDATE" in sql]
        assert len(locks) == 1, locks
        assert 'FOR UPDATE OF "combat_battle", "dungeons_run"' in locks[0], locks[0]


def test_a_battle_action_that_passes_the_turn_tells_within_its_pinned_statements(
    tough_bestiary: None, monkeypatch: Any
) -> None:
    # given a run of two in its first battle (enemies that never kill), awaiting one of them
    players, _ = guild_party(2)
    run = started(players, monkeypatch, predicate=_first_room_is_enemy)
    party, battle_id = Party(players), current_battle(run).pk
    passed = 0
    for step in range(8):  # the turn passes to the other player within a round (the enemies' turns between)
        state = party.battle(battle_id)
        mover = state["awaiting"]
        mine = party.battle(battle_id, who=mover)
        target = next(a["target"] for a in mine["allowed_actions"] if a["kind"] == "attack")
        other = next(p for p in players if p.pk != mover)
        before = Notice.objects.filter(user_id=other.user_id, kind="your_turn").count()
        # when the awaited player attacks
        with CaptureQueriesContext(connection) as queries:
            response = party.act(mover, battle_id, mine["turn"], {"kind": "attack", "target": target},
                                 key=f"k-{step}")
        assert response.status_code == 200, response.json()
        statements = _sql(queries)
        told = [sql for sql in statements if "INSERT INTO players_notice " in sql]
        if party.battle(battle_id)["awaiting"] != other.pk:
            continue
        # then the other player, whose turn it is now, is told, within the action's pinned statements
        # on PostgreSQL (the notice is part of the step's save); three more on SQLite
        assert Notice.objects.filter(user_id=other.user_id, kind="your_turn").count() == before + 1
        assert len(statements) <= ACTION_STATEMENTS + (0 if connection.vendor == "postgresql" else 3), (
            "\n".join(statements))
        if connection.vendor == "postgresql":
            assert len(told) == 1 and '"combat_battleaction"' in told[0], statements
        passed += 1
    assert passed


def test_a_battle_poll_takes_at_most_its_pinned_statements(tough_bestiary: None, monkeypatch: Any) -> None:
    # given a battle with events the reader has not seen
    party, battle_id = _solo_battle(monkeypatch)
    party.battle(battle_id, since=10**6)  # the process has read the settings (CombatSettings.cached)
    # when a member polls it
    with CaptureQueriesContext(connection) as queries:
        response = party.client(party.players[0]).get(f"{API}/battles/{battle_id}/?since=0")
    # then it takes no lock and does not load the setup
    assert response.status_code == 200, response.json()
    statements = _sql(queries)
    assert len(statements) <= POLL_STATEMENTS, "\n".join(statements)
    assert not any("FOR UPDATE" in sql for sql in statements)
    assert not any('"combat_battle"."setup"' in sql for sql in statements), statements
    # and the events read with the battle are the log as the ORM reads it, each with its sentence
    logged = BattleEvent.objects.filter(battle_id=battle_id).order_by("seq").values_list("seq", "data")
    events = response.json()["events"]
    unsaid = [{key: value for key, value in e.items() if key != "text"} for e in events]
    assert unsaid == [{"seq": seq, **data} for seq, data in logged]
    assert all(e["text"] for e in events) and all("text" not in data for _, data in logged)
    assert logged


def _start_statements(size: int, monkeypatch: Any) -> list[str]:
    players, _ = guild_party(size)
    fix_seed(monkeypatch, seed_where(_first_room_is_enemy, players=players))
    run = lobby(players)
    party = Party(players[:1])
    # the process has read the settings and the floor's bestiary (as a running server has)
    RunSettings.cached(), CombatSettings.cached()
    bestiary_kept(0)
    with CaptureQueriesContext(connection) as queries:
        response = party.post(players[0], f"runs/{run.pk}/start/")
    assert response.status_code == 200, response.json()
    assert response.json()["current_room"]["battle"] is not None
    return _sql(queries)


def test_a_run_start_costs_the_same_statements_for_one_player_and_for_eight(
    tough_bestiary: None, monkeypatch: Any
) -> None:
    # given two lobbies of one guild each, of one player and of eight, whose first room holds enemies
    run_settings(max_party_size=8)
    # when each host starts
    solo = _start_statements(1, monkeypatch)
    eight = _start_statements(8, monkeypatch)
    # then the count does not grow with the party, and no member gets a savepoint of its own
    assert len(eight) == len(solo), "\n".join(eight)
    assert len(eight) <= START_STATEMENTS, "\n".join(eight)
    assert (sum(sql.startswith("SAVEPOINT") for sql in eight)
            == sum(sql.startswith("SAVEPOINT") for sql in solo))


@pytest.mark.parametrize("first_room", ["enemy", "trap", "treasure", "deadly trap"])
def test_a_run_start_answers_what_reading_the_run_gives_byte_for_byte(first_room: str,
                                                                      monkeypatch: Any) -> None:
    # given a lobby of three whose first room is of one kind (a trap that kills everyone, too)
    small_dungeons(floors=1, rooms=5)
    bestiary()
    if first_room == "deadly trap":
        combat_settings(base_hp=1, hp_per_stamina=0)
    kind = first_room.split()[-1]
    players, _ = guild_party(3)
    fix_seed(monkeypatch, seed_where(lambda dungeon: layout(dungeon)[0][0] == kind, players=players))
    run = lobby(players)
    party = Party(players)
    # when the host starts it (the answer is built from what the start wrote, not read back)
    response = party.post(players[0], f"runs/{run.pk}/start/")
    # then it is the run as any member reads it afterwards, to the byte
    assert response.status_code == 200, response.json()
    assert response.json()["floors"][0]["visited"] == [kind]
    if first_room == "deadly trap":
        assert response.json()["status"] == "failed", response.json()
    assert response.content == party.client(players[0]).get(f"{API}/runs/{run.pk}/").content
