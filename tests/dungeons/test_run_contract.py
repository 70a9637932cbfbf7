"""The contract test of runs and battles (SPEC 14, issue 26): a whole run is played over HTTP (a trap, a
battle, treasure, a rest, the boss) and every answer, the run's (GET runs/{id}/ and each step's), the
battle's (GET battles/{id}/) and each battle action's, is validated against its component of the schema
served at /api/schema/, $refs resolved: its log entries, events and every other part, each typed by kind.
"""
from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.dungeons.run_helpers import (
    API,
    Party,
    bestiary,
    first_attack,
    guild_party,
    run_settings,
    small_dungeons,
    started,
)
from tests.schema_checks import errors, json_schema, served_schema, validator

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(admin_client: Client) -> dict[str, Any]:
    schema: dict[str, Any] = json_schema(served_schema(admin_client))
    return schema


def test_a_whole_run_answers_in_the_published_shapes(published: dict[str, Any], monkeypatch: Any) -> None:
    small_dungeons(rooms=5)
    bestiary(enemy_hp=12, enemy_damage=1, boss_hp=12)
    run_settings(trap_damage_base=2, trap_damage_per_floor=0, trap_effect_chance=0.0, battle_loot_chance=0.0)
    players, _ = guild_party(1)
    run = started(players, monkeypatch, ["trap", "enemy", "treasure", "rest", "boss"])
    party = Party(players)
    checks = {name: validator(published, name) for name in ("RunOutput", "BattleOutput", "ActOutput")}
    problems: list[str] = []
    seen: dict[str, set[str]] = {"run": set(), "battle": set()}

    def check(component: str, body: dict[str, Any]) -> dict[str, Any]:
        problems.extend(f"{component}: {e}" for e in errors(checks[component], body))
        return body

    def run_read(**headers: Any) -> dict[str, Any]:
        reply = party.client(players[0]).get(f"{API}/runs/{run.pk}/", **headers)
        assert reply.status_code == 200, reply.json()
        body = check("RunOutput", reply.json())
        seen["run"] |= {event["kind"] for event in body["events"]}
        return body

    for _ in range(12):
        state = run_read()
        room = state["current_room"]
        battle = room and room["battle"]
        if battle is not None and battle["outcome"] == "ongoing":
            for _ in range(200):
                fight = check("BattleOutput", party.battle(battle["id"]))
                seen["battle"] |= {event["kind"] for event in fight["events"]}
                if fight["outcome"] != "ongoing":
                    break
                reply = party.act(players[0], battle["id"], fight["turn"], first_attack(fight))
                assert reply.status_code == 200, reply.json()
                check("ActOutput", reply.json())
            continue
        advance = next((a for a in state["allowed_actions"] if a["kind"] == "advance"), None)
        if advance is None:
            break
        reply = party.post(players[0], f"runs/{run.pk}/advance/", {"step": advance["step"]})
        assert reply.status_code == 200, reply.json()
        check("RunOutput", reply.json())
    final = run_read(HTTP_ACCEPT_LANGUAGE="ru")
    assert not problems, problems[:5]
    assert final["current_room"]["kind"] == "boss" and final["current_room"]["cleared"], final["status"]
    assert {"started", "trap", "battle", "battle_over", "treasure", "rested"} <= seen["run"], seen["run"]
    assert {"battle_started", "attack", "damage", "battle_over"} <= seen["battle"], seen["battle"]
