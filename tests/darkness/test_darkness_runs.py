"""The Labyrinth of Darkness through the REST API: start, moves, torch, camps, every ending, activity."""
from __future__ import annotations

import pytest

from darkness.models import DarknessRun, GuildMaze
from dungeons.models import MemberStatus, Run, RunMember, RunStatus
from guilds.models import PersonRunDay
from npcs.models import GuildNpc
from players.models import InventoryItem, Player
from tests.darkness.helpers import API, CORRIDOR_PATH, deadly_trap, install_maze, only
from tests.dungeons.run_helpers import (
    Party,
    assert_error,
    bestiary,
    current_battle,
    guild_party,
    lobby,
    log_kinds,
    run_settings,
)
from tests.factories import PlayerFactory, make_guild

pytestmark = pytest.mark.django_db


def start(players, party: Party) -> dict:
    run = lobby(players, kind="darkness")
    response = party.post(players[0], f"runs/{run.pk}/start/")
    assert response.status_code == 200, response.json()
    return response.json()


def move(party: Party, who, run: dict, direction: str):
    return party.post(who, f"runs/{run['id']}/move/", {"step": run["step"], "direction": direction})


def walk(party: Party, who, run: dict, directions) -> dict:
    for direction in directions:
        response = move(party, who, run, direction)
        assert response.status_code == 200, response.json()
        run = response.json()
    return run


def torches(player: Player) -> list[InventoryItem]:
    return list(InventoryItem.objects.filter(player=player, item_kind__category="torch"))


@pytest.fixture
def corridor():
    """A two-member guild on the corridor maze, every ordinary room empty, torch 30."""
    only("empty", torch_length=30)
    players, guild = guild_party(2)
    install_maze(guild)
    return players, guild, Party(players)


def test_a_darkness_run_starts_at_the_entrance_with_a_lit_torch(corridor) -> None:
    players, guild, party = corridor
    run = start(players, party)
    assert run["status"] == "active" and run["kind"] == "darkness"
    dark = run["darkness"]
    assert dark["position"] == {"row": 0, "col": 0, "section": 0, "kind": "entrance"}
    assert dark["torch"] == {"left": 30, "length": 30, "bearer": players[0].pk}
    assert [(r["row"], r["col"]) for r in dark["rooms"]] == [(0, 0)]
    assert dark["rooms"][0]["walls"] == {"UP": True, "LEFT": True, "DOWN": True, "RIGHT": False}
    # the torch fills one weapon slot of its bearer, equipped
    (torch,) = torches(players[0])
    assert torch.equipped and not torches(players[1])
    # one person-run per member
    assert sum(PersonRunDay.objects.filter(guild=guild).values_list("person_runs", flat=True)) == 2


def test_a_wall_is_refused_without_burning_and_a_passage_burns_one(corridor) -> None:
    players, _, party = corridor
    run = start(players, party)
    error = assert_error(move(party, players[1], run, "DOWN"), 409, "wall")
    assert error["details"]["direction"] == "DOWN"
    again = party.run(run["id"])
    assert again["step"] == run["step"] and again["darkness"]["torch"]["left"] == 30
    run = walk(party, players[1], run, ["RIGHT"])
    assert run["step"] == again["step"] + 1
    assert run["darkness"]["torch"]["left"] == 29
    assert run["darkness"]["position"]["col"] == 1
    assert run["darkness"]["path"] == [{"row": 0, "col": 0}, {"row": 0, "col": 1}]
    # the same step again is stale
    assert_error(move(party, players[0], again, "RIGHT"), 409, "stale_step")


def test_a_camp_heals_relights_and_allows_formation_and_leaving(corridor) -> None:
    players, _, party = corridor
    run_settings(rest_heal_base=5, rest_heal_per_metabolism=0, room_regen_base=0, room_regen_per_metabolism=0)
    run = start(players, party)
    # no formation change and no leaving outside a camp
    assert_error(party.client(players[0]).put(f"{API}/runs/{run['id']}/formation/",
                                              {"players": [players[1].pk, players[0].pk]}, format="json"),
                 409, "formation_locked")
    assert_error(party.post(players[0], f"runs/{run['id']}/escape/", {"step": run["step"]}), 409,
                 "cannot_escape_here")
    RunMember.objects.filter(run_id=run["id"]).update(hp=1)
    run = walk(party, players[0], run, CORRIDOR_PATH[:4])
    dark = run["darkness"]
    assert dark["position"]["kind"] == "camp" and dark["torch"]["left"] == 30  # relit after 4 moves
    assert [m["hp"] for m in run["members"]] == [6, 6]
    response = party.client(players[1]).put(f"{API}/runs/{run['id']}/formation/",
                                            {"players": [players[1].pk, players[0].pk]}, format="json")
    assert response.status_code == 200, response.json()
    response = party.post(players[1], f"runs/{run['id']}/escape/", {"step": run["step"]})
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "escaped"
    assert not torches(players[0]) and not torches(players[1])  # the torch stays in the labyrinth


def test_the_torch_burning_out_loses_everyone_inside_and_the_map_stays(corridor) -> None:
    players, guild, party = corridor
    only("empty", torch_length=3)
    money = [p.money for p in players]
    run = start(players, party)
    run = walk(party, players[0], run, ["RIGHT", "DOWN"])
    assert run["darkness"]["torch"]["left"] == 1
    run = walk(party, players[0], run, ["LEFT"])
    assert run["status"] == "failed"
    assert "torch_out" in log_kinds(run)
    assert {m["status"] for m in run["members"]} == {MemberStatus.DEAD}
    for player, before in zip(players, money):
        player.refresh_from_db()
        assert player.money == before - before // 10  # Charon's fee: the death rules
        assert not torches(player)
    known = party.client(players[0]).get(f"{API}/guilds/{guild.pk}/labyrinth/").json()
    assert {(r["row"], r["col"]) for r in known["rooms"]} == {(0, 0), (0, 1), (1, 1), (1, 0)}
    # the next run starts again at the entrance, knowing what the guild saw
    again = start(players, party)
    assert again["darkness"]["position"]["kind"] == "entrance"
    assert again["darkness"]["explored"] == 4


def test_a_stun_cell_burns_extra_torch(corridor) -> None:
    players, guild, party = corridor
    install_maze(guild, "4 2\n. S\n_ .\n. .\n. _\n. .\n_ .\n. .\nS Stun(3)\n")
    run = start(players, party)
    run = walk(party, players[0], run, ["RIGHT"])
    assert run["darkness"]["torch"]["left"] == 26
    assert run["darkness"]["position"]["kind"] == "stun"


def test_a_rubber_room_holds_the_party_for_a_torch_unit(corridor) -> None:
    players, guild, party = corridor
    # (0,1) lets the party out only DOWN; LEFT is open but the room holds it
    install_maze(guild, "4 2\n. R\n_ .\n. .\n. _\n. .\n_ .\n. .\nR RubberRoom(DOWN)\n")
    run = start(players, party)
    run = walk(party, players[0], run, ["RIGHT", "LEFT"])
    dark = run["darkness"]
    assert (dark["position"]["row"], dark["position"]["col"]) == (0, 1)
    assert dark["torch"]["left"] == 28
    run = walk(party, players[0], run, ["DOWN"])
    assert run["darkness"]["position"]["row"] == 1


def test_a_teleport_moves_the_party_within_its_section(corridor) -> None:
    players, guild, party = corridor
    install_maze(guild, "4 2\n. T\n_ .\n. .\n. _\n. .\n_ .\n. .\nT Teleport((1, 0))\n")
    run = start(players, party)
    run = walk(party, players[0], run, ["RIGHT"])
    dark = run["darkness"]
    assert (dark["position"]["row"], dark["position"]["col"]) == (1, 0)
    assert {(r["row"], r["col"]): r["kind"] for r in dark["rooms"]}[(0, 1)] == "teleport"


def test_all_dead_in_a_trap_fails_the_run(corridor) -> None:
    players, _, party = corridor
    only("trap")
    run_settings(trap_damage_base=500, trap_damage_per_floor=0, trap_mitigation_max=0.0)
    run = start(players, party)
    run = walk(party, players[0], run, ["RIGHT"])
    assert run["status"] == "failed"
    assert {m["status"] for m in run["members"]} == {"dead"}
    assert DarknessRun.objects.get(run_id=run["id"]).bearer_id is None


def test_the_torch_passes_to_the_next_member_when_its_bearer_dies(corridor) -> None:
    players, _, party = corridor
    deadly_trap(players[0], players[1])
    run = start(players, party)
    run = walk(party, players[1], run, ["RIGHT"])
    assert run["status"] == "active"
    assert [m["status"] for m in run["members"]] == ["dead", "in_dungeon"]
    assert run["darkness"]["torch"]["bearer"] == players[1].pk
    assert len(torches(players[1])) == 1 and not torches(players[0])


def test_defeating_the_heart_completes_the_run_and_rescues_the_npc(corridor) -> None:
    players, guild, party = corridor
    bestiary(boss_hp=1, boss_damage=1)
    run = start(players, party)
    run = walk(party, players[0], run, CORRIDOR_PATH)
    assert run["darkness"]["position"]["kind"] == "heart"
    assert run["npc"] is not None
    battle = current_battle(Run.objects.get(pk=run["id"]))
    assert party.fight(battle.pk)["outcome"] == "victory"
    run = party.run(run["id"])
    assert run["status"] == "completed"
    assert GuildNpc.objects.filter(guild=guild).exists()
    for player in players:
        player.refresh_from_db()
        assert player.completed_dungeons == 1
        assert not torches(player)
    # the map stays, the next run starts at the entrance
    assert GuildMaze.objects.get(guild=guild).visited == list(range(8))


def test_a_battle_must_be_over_before_moving_on(corridor) -> None:
    players, _, party = corridor
    only("enemy")
    bestiary(enemy_hp=50, enemy_damage=1)
    run = start(players, party)
    run = walk(party, players[0], run, ["RIGHT"])
    assert run["current_room"]["kind"] == "enemy" and run["current_room"]["battle"]["outcome"] == "ongoing"
    assert_error(move(party, players[0], run, "LEFT"), 409, "room_not_cleared")


def test_a_party_from_two_guilds_or_none_cannot_enter(corridor) -> None:
    # A member of another guild cannot even sit in the lobby, nor a guildless player open one (issue 24:
    # both used to sit down and only the start refused, 409 darkness_needs_one_guild, blocking the lobby).
    players, _, party = corridor
    stranger = PlayerFactory()
    make_guild(leader=stranger)
    run = lobby([players[0]], kind="darkness")
    assert_error(Party([stranger]).post(stranger, f"runs/{run.pk}/join/"), 409, "not_guild_member")
    assert party.post(players[0], f"runs/{run.pk}/start/").json()["members"][0]["player"] == players[0].pk
    loner = PlayerFactory()
    assert_error(Party([loner]).post(loner, "runs/", {"kind": "darkness"}), 409, "not_guild_member")
    assert Run.objects.get(pk=run.pk).status == RunStatus.ACTIVE


def test_bad_input_on_the_move_route(corridor) -> None:
    players, _, party = corridor
    run = start(players, party)
    url = f"runs/{run['id']}/move/"
    for body in ({}, {"step": run["step"]}, {"direction": "UP"}, {"step": -1, "direction": "UP"},
                 {"step": run["step"], "direction": "NORTH"}, {"step": "x", "direction": "UP"},
                 {"step": run["step"], "direction": None}):
        assert_error(party.post(players[0], url, body), 400, "invalid")
    from rest_framework.test import APIClient
    assert APIClient().post(f"{API}/{url}", {"step": 0, "direction": "UP"}, format="json").status_code == 401
    outsider = PlayerFactory()
    assert_error(Party([outsider]).post(outsider, url, {"step": run["step"], "direction": "RIGHT"}), 404,
                 "run_not_found")
    assert_error(party.post(players[0], "runs/999999/move/", {"step": 0, "direction": "RIGHT"}), 404,
                 "run_not_found")
    assert party.client(players[0]).post(f"{API}/runs/99999999999999999999/move/", {}).status_code == 404
    assert_error(party.post(players[0], f"runs/{run['id']}/advance/", {"step": run["step"]}), 409, "use_move")
    assert party.run(run["id"])["step"] == run["step"]


def test_an_ordinary_run_does_not_move_by_direction(corridor) -> None:
    players, _, party = corridor
    from tests.dungeons.run_helpers import small_dungeons
    small_dungeons(rooms=2)
    run = lobby(players)
    party.post(players[0], f"runs/{run.pk}/start/")
    assert_error(party.post(players[0], f"runs/{run.pk}/move/", {"step": 0, "direction": "UP"}), 409,
                 "not_darkness")


def test_a_member_with_full_weapon_slots_sets_a_weapon_aside_to_bear_the_torch(corridor) -> None:
    # Issue 24: the first in formation bears it, a weapon set aside; before, they were skipped (and with
    # every member's slots full, nobody bore it). tests/darkness/test_darkness_torch.py has the rest.
    from players.models import ItemKind
    from players.services import inventory_add

    players, _, party = corridor
    sword = ItemKind.objects.filter(category="weapon").order_by("pk").first()
    for _ in range(2):
        inventory_add(player=players[0], item_kind=sword)
    run = start(players, party)
    assert run["darkness"]["torch"]["bearer"] == players[0].pk
    assert len(torches(players[0])) == 1 and not torches(players[1])
    assert InventoryItem.objects.filter(player=players[0], item_kind=sword).count() == 1


def test_the_last_unit_into_a_camp_relights_instead_of_losing_the_party(corridor) -> None:
    players, _, party = corridor
    only("empty", torch_length=4)
    run = start(players, party)
    run = walk(party, players[0], run, CORRIDOR_PATH[:4])  # the fourth move reaches the camp on 0
    assert run["status"] == "active"
    assert run["darkness"]["torch"]["left"] == 4


def test_a_bearer_who_flees_hands_the_torch_on_at_once(corridor, monkeypatch) -> None:
    # Issue 24: at once, so the run always has a bearer inside; before, at the party's next move.
    from tests.dungeons.run_helpers import first_attack, fix_seed

    players, _, party = corridor
    fix_seed(monkeypatch, 1604)
    only("enemy")
    bestiary(enemy_hp=8, enemy_damage=1)
    run = start(players, party)
    run = walk(party, players[1], run, ["RIGHT"])
    battle = current_battle(Run.objects.get(pk=run["id"]))

    def choose(mine: dict) -> dict:
        return {"kind": "flee"} if mine["awaiting"] == players[0].pk else first_attack(mine)

    final = party.fight(battle.pk, choose)
    run = party.run(run["id"], who=players[1])
    assert final["outcome"] == "victory", (final["outcome"], run["members"], run["log"][-6:])
    assert [m["status"] for m in run["members"]] == ["escaped", "in_dungeon"]
    assert run["darkness"]["torch"]["bearer"] == players[1].pk
    assert not torches(players[0]) and len(torches(players[1])) == 1
    run = walk(party, players[1], run, ["LEFT"])
    assert run["darkness"]["torch"]["bearer"] == players[1].pk
    assert not torches(players[0]) and len(torches(players[1])) == 1


def test_a_party_that_flees_out_leaves_the_torch_behind(corridor, monkeypatch) -> None:
    """The last member inside flees (one flight per battle, so a party of one), taking no torch home."""
    from tests.dungeons.run_helpers import fix_seed

    players, _, _ = corridor
    solo, party = players[:1], Party(players[:1])
    fix_seed(monkeypatch, 1604)
    only("enemy")
    bestiary(enemy_hp=8, enemy_damage=1)
    run = start(solo, party)
    assert torches(solo[0])
    run = walk(party, solo[0], run, ["RIGHT"])
    battle = current_battle(Run.objects.get(pk=run["id"]))
    assert party.fight(battle.pk, lambda mine: {"kind": "flee"})["outcome"] == "escaped"
    assert party.run(run["id"])["status"] == "escaped"
    assert not torches(solo[0])
