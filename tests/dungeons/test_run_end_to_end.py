"""Whole runs played through HTTP by real clients (JWT), from the lobby to the end.

The main scenario is one seeded ordinary run for a party of three of one guild. Balancing data
steers it, nothing is mocked but the seed source:
- two floors of five rooms (GenerationSettings f_min = f_max = 2, r_min = r_max = 5);
- c_opt = 1 with every member at 10 completed dungeons, so an NPC is nearly certain;
- a bestiary of one weak rat and one weak ogre boss, one creature per room;
- traps hit for 25 (before mitigation): the party's two attentive members (attentiveness 8,
  mitigation capped at 75%) take 6, the third (attentiveness 0, stamina 0 so 20 HP) dies;
- the NPC gets 500 HP so the enemies cannot kill it before the rescue.

SEED 441 gives, under generator version 3, for that party (N 3, R 0, C 10, one guild, every NPC
kind a candidate; under version 2 it was seed 6):
    floor 0: treasure, enemy, trap, rest, boss
    floor 1: story (the inquisitor), treasure, enemy, rest, boss
Found with ``seed_where`` (tests/dungeons/run_helpers.py) over seeds 0..; the test checks the
stored layout first, so a change of the generator fails there with the layout it got.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from dungeons.models import MemberStatus, Run, RunLoot, RunMember, RunStatus
from guilds.models import Guild, PersonRunDay
from players.models import InventoryItem, Player
from tests.dungeons.run_helpers import (
    API,
    Party,
    assert_error,
    bestiary,
    fix_seed,
    guild_party,
    item_kind,
    log_kinds,
    run_settings,
    seed_where,
    small_dungeons,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

SEED = 441
CARRY_LIMITS = {"weapon_limit", "armor_slot_taken", "potion_limit", "weight_limit"}
LAYOUT = [["treasure", "enemy", "trap", "rest", "boss"], ["story", "treasure", "enemy", "rest", "boss"]]


def _advance(party: Party, who: Player, run_id: int) -> dict[str, Any]:
    step = party.run(run_id, who)["step"]
    response = party.post(who, f"runs/{run_id}/advance/", {"step": step})
    assert response.status_code == 200, response.json()
    return response.json()


def _take_all(party: Party, takers: list[Player], run: dict[str, Any]) -> dict[int, list[int]]:
    """Share the loot lying in the room between ``takers`` in turn; returns player -> item kinds taken.

    A pickup refused by a carry limit (409 naming it) leaves the item lying there for the next
    taker; an item nobody can carry stays on the floor.
    """
    taken: dict[int, list[int]] = {p.pk: [] for p in takers}
    for index, loot in enumerate(lying for lying in run["current_room"]["loot"] if lying["taken_by"] is None):
        for attempt in range(len(takers)):
            who = takers[(index + attempt) % len(takers)]
            response = party.post(who, f"runs/{run['id']}/loot/{loot['id']}/take/")
            if response.status_code == 200:
                after = next(
                    lying for lying in response.json()["current_room"]["loot"] if lying["id"] == loot["id"]
                )
                assert after["taken_by"] == who.pk
                taken[who.pk].append(loot["item_kind"]["id"])
                break
            error = assert_error(response, 409, response.json()["error"]["code"])
            assert error["code"] in CARRY_LIMITS, error
            assert RunLoot.objects.get(pk=loot["id"]).taken_by_id is None  # it stays where it was
    return taken


def _inventory(player: Player) -> list[int]:
    return sorted(InventoryItem.objects.filter(player=player).values_list("item_kind_id", flat=True))


def _open_lobby_over_http(party: Party, players: list[Player], kind: str) -> tuple[int, dict[int, int]]:
    """The host opens, the others join, everyone takes the first weapon offered; returns run id and
    player -> starting weapon kind."""
    host, *others = players
    opened = party.post(host, "runs/", {"kind": kind})
    assert opened.status_code == 201, opened.json()
    run_id = opened.json()["id"]
    lobbies = party.client(others[0]).get(f"{API}/runs/lobbies/").json()["results"]
    assert run_id in [r["id"] for r in lobbies]
    for player in others:
        joined = party.post(player, f"runs/{run_id}/join/")
        assert joined.status_code == 200, joined.json()
    weapons = {}
    for player in players:
        offer = party.client(player).get(f"{API}/runs/{run_id}/offer/").json()
        assert len(offer) == 3 and len({o["id"] for o in offer}) == 3 and all(o["damage"] > 0 for o in offer)
        assert (
            party.client(player).get(f"{API}/runs/{run_id}/offer/").json() == offer
        )  # the same on every call
        chosen = party.post(player, f"runs/{run_id}/weapon/", {"item_kind": offer[0]["id"]})
        assert chosen.status_code == 200, chosen.json()
        weapons[player.pk] = offer[0]["id"]
    return run_id, weapons


def test_a_party_of_three_plays_a_seeded_ordinary_run_to_completion_over_http(monkeypatch) -> None:
    # given: balancing data steering the run (module docstring), and a party of three of one guild
    small_dungeons(floors=2, rooms=5, c_opt=1.0)
    bestiary(enemy_hp=4, boss_hp=8)
    run_settings(npc_hp=500, trap_damage_base=25, trap_damage_per_floor=2)
    (strong, steady, weak), guild = guild_party(
        3, completed_dungeons=10, strength=4, stamina=6, attentiveness=8, money=500
    )
    Player.objects.filter(pk=weak.pk).update(stamina=0, attentiveness=0, money=1234)
    weak.refresh_from_db()
    heirloom = item_kind("Heirloom Gem", "special", "gem")
    InventoryItem.objects.create(player=weak, item_kind=heirloom)  # owned before the run: kept on death
    rank_before = guild.rank
    fix_seed(monkeypatch, SEED)
    party = Party([strong, steady, weak])

    # when: the lobby is opened, joined and started over HTTP
    run_id, weapons = _open_lobby_over_http(party, [strong, steady, weak], "ordinary")
    formation = party.client(strong).put(
        f"{API}/runs/{run_id}/formation/", {"players": [strong.pk, steady.pk, weak.pk]}, format="json"
    )
    assert formation.status_code == 200, formation.json()
    started = party.post(strong, f"runs/{run_id}/start/")
    assert started.status_code == 200, started.json()

    # then: the dungeon is the documented one, stored with the run's seed
    run = Run.objects.select_related("dungeon").get(pk=run_id)
    stored = [[r.kind for r in run.dungeon.rooms.filter(floor=f).order_by("index")] for f in range(2)]
    assert (run.dungeon.seed, stored, run.dungeon.npc_kind) == (SEED, LAYOUT, "inquisitor"), (
        f"the generator changed: seed_where() finds a new seed; got {stored}"
    )
    assert (
        seed_where(
            lambda d: d.npc is not None and [[str(r.kind) for r in f.rooms] for f in d.floors] == LAYOUT,
            players=[strong, steady, weak],
        )
        <= SEED
    )
    assert PersonRunDay.objects.get(guild=guild).person_runs == 3
    state = party.run(run_id)
    assert state["status"] == "active" and state["seed"] is None  # the seed stays secret while the run is on
    assert [m["max_hp"] for m in state["members"]] == [50, 50, 20]

    # floor 0, room 0: treasure. Every member finds 10 coins; the items are shared out, the weak
    # member taking the first one
    assert state["current_room"]["kind"] == "treasure" and state["current_room"]["cleared"]
    assert len(state["current_room"]["loot"]) >= 2
    taken = _take_all(party, [weak, strong, steady], state)
    assert taken[weak.pk], "the weak member carries run loot into the trap"

    # room 1: an enemy battle, won
    state = _advance(party, strong, run_id)
    assert state["current_room"]["kind"] == "enemy" and not state["current_room"]["cleared"]
    battle = party.fight(state["current_room"]["battle"]["id"])
    assert battle["outcome"] == "victory"
    state = party.run(run_id)
    assert state["current_room"]["cleared"]
    for more in _take_all(party, [strong, steady], state).items():
        taken[more[0]].extend(more[1])

    # room 2: a trap; the weak member dies and respawns through Charon
    weak_money_before_trap = Player.objects.get(pk=weak.pk).money
    assert weak_money_before_trap == 1234 + 10
    state = _advance(party, steady, run_id)
    trap = next(e for e in state["log"] if e["kind"] == "trap")
    assert trap["hits"][str(weak.pk)]["damage"] == 25 and trap["hits"][str(weak.pk)]["hp"] == 0
    assert trap["hits"][str(strong.pk)]["damage"] == 6 == trap["hits"][str(steady.pk)]["damage"]
    died = next(e for e in state["log"] if e["kind"] == "died")
    assert died["player"] == weak.pk and died["charon_fee"] == 124  # 10% of 1244, rounded down
    weak_member = next(m for m in state["members"] if m["player"] == weak.pk)
    assert weak_member["status"] == "dead" and weak_member["money_lost"] == 124
    assert weak_member["items_lost"] == 1 + len(taken[weak.pk])  # the starting weapon and the loot
    assert _inventory(weak) == [heirloom.pk]
    assert Player.objects.get(pk=weak.pk).money == 1120
    # the dead member is out of the run: no more moves, and free to open another lobby
    assert_error(party.post(weak, f"runs/{run_id}/advance/", {"step": state["step"]}), 409, "not_in_party")
    other = party.post(weak, "runs/", {"kind": "frenzy"})
    assert other.status_code == 201, other.json()
    assert party.post(weak, f"runs/{other.json()['id']}/leave/").status_code == 200

    # room 3: rest; the formation changes (the dead member is no longer part of it)
    state = _advance(party, strong, run_id)
    assert state["current_room"]["kind"] == "rest"
    assert_error(
        party.client(strong).put(
            f"{API}/runs/{run_id}/formation/", {"players": [steady.pk, strong.pk, weak.pk]}, format="json"
        ),
        400,
        "invalid_formation",
    )
    formation = party.client(steady).put(
        f"{API}/runs/{run_id}/formation/", {"players": [steady.pk, strong.pk]}, format="json"
    )
    assert formation.status_code == 200, formation.json()
    assert [
        (m["player"], m["position"]) for m in formation.json()["members"] if m["status"] == "in_dungeon"
    ] == [(steady.pk, 0), (strong.pk, 1)]

    # room 4: the boss of floor 0; the turn order keeps the new formation
    state = _advance(party, strong, run_id)
    assert state["current_room"]["kind"] == "boss"
    boss_battle = party.battle(state["current_room"]["battle"]["id"])
    players_in_order = [c for c in boss_battle["order"] if c.startswith("p")]
    assert players_in_order == [f"p{steady.pk}", f"p{strong.pk}"]
    assert party.fight(boss_battle["id"])["outcome"] == "victory"
    state = party.run(run_id)
    assert state["status"] == "active" and state["current_room"]["cleared"]
    for more in _take_all(party, [steady, strong], state).items():
        taken[more[0]].extend(more[1])

    # floor 1, room 0: the story room frees the inquisitor, who joins the party
    state = _advance(party, strong, run_id)
    assert (state["current_room"]["floor"], state["current_room"]["kind"]) == (1, "story")
    assert state["npc"] == {"kind": "inquisitor", "hp": 500, "max_hp": 500}

    # room 1: treasure (15 coins each on floor 1); room 2: enemies, with the NPC in the battle
    state = _advance(party, strong, run_id)
    assert state["current_room"]["kind"] == "treasure"
    for more in _take_all(party, [strong, steady], state).items():
        taken[more[0]].extend(more[1])
    state = _advance(party, steady, run_id)
    battle = party.battle(state["current_room"]["battle"]["id"])
    assert any(c["kind"] == "npc" for c in battle["combatants"])
    assert party.fight(battle["id"])["outcome"] == "victory"
    for more in _take_all(party, [strong, steady], party.run(run_id)).items():
        taken[more[0]].extend(more[1])

    # room 3: rest; room 4: the last boss, whose fall completes the run
    assert _advance(party, strong, run_id)["current_room"]["kind"] == "rest"
    state = _advance(party, strong, run_id)
    assert state["current_room"]["kind"] == "boss"
    assert party.fight(state["current_room"]["battle"]["id"])["outcome"] == "victory"

    # then: the run is completed; the survivors keep their loot, their count rises; the NPC is rescued
    final = party.run(run_id, steady)
    assert final["status"] == "completed" and final["ended_at"] is not None
    # the last boss's loot is still theirs to pick up
    assert final["current_room"]["loot"]
    for more in _take_all(party, [strong, steady], final).items():
        taken[more[0]].extend(more[1])
    assert_error(
        party.post(weak, f"runs/{run_id}/loot/{final['current_room']['loot'][0]['id']}/take/"),
        409,
        "not_in_party",
    )
    assert final["seed"] == SEED  # revealed once the run is over
    statuses = {m["player"]: m["status"] for m in final["members"]}
    assert statuses == {strong.pk: "finished", steady.pk: "finished", weak.pk: "dead"}
    assert not RunMember.objects.filter(run_id=run_id, active=True).exists()
    completed = dict(
        Player.objects.filter(pk__in=[strong.pk, steady.pk, weak.pk]).values_list("pk", "completed_dungeons")
    )
    assert completed == {strong.pk: 11, steady.pk: 11, weak.pk: 10}
    guild.refresh_from_db()
    assert guild.rank > rank_before
    assert final["log"][-1]["kind"] == "completed" and final["log"][-1]["rescued"] == "inquisitor"
    assert final["log"][-1]["party"] == [steady.pk, strong.pk]
    # money: 10 + 15 treasure coins and 50 per boss for each survivor; the dead paid Charon once
    money = dict(Player.objects.filter(pk__in=[strong.pk, steady.pk, weak.pk]).values_list("pk", "money"))
    assert money == {strong.pk: 500 + 10 + 50 + 15 + 50, steady.pk: 500 + 10 + 50 + 15 + 50, weak.pk: 1120}
    # inventories: each survivor holds the starting weapon and exactly what they picked up
    for survivor in (strong, steady):
        assert _inventory(survivor) == sorted([weapons[survivor.pk], *taken[survivor.pk]])
        assert not InventoryItem.objects.filter(player=survivor).exclude(acquired_in_run_id=run_id).exists()
    assert not RunLoot.objects.filter(run_id=run_id, taken_by=weak, floor__gt=0).exists()
    # the log tells the story room by room
    kinds = log_kinds(final)
    assert kinds[0] == "started" and kinds[-1] == "completed"
    assert [e["room_kind"] for e in final["log"] if e["kind"] == "entered"] == LAYOUT[0] + LAYOUT[1]
    for expected in (
        "treasure",
        "battle",
        "battle_over",
        "trap",
        "died",
        "rested",
        "formation",
        "npc_joined",
    ):
        assert expected in kinds, expected
    assert kinds.count("battle_over") == 4
    assert "npc_died" not in kinds and "escaped" not in kinds
    # finished runs are listed for their members
    mine = party.client(strong).get(f"{API}/runs/").json()["results"]
    assert [r["status"] for r in mine if r["id"] == run_id] == ["completed"]
    assert Guild.objects.get(pk=guild.pk).rank == guild.rank
    assert Run.objects.get(pk=run_id).status == RunStatus.COMPLETED
    assert RunMember.objects.get(run_id=run_id, player=weak).status == MemberStatus.DEAD


def _play_on(party: Party, run_id: int, *, until_kind: str | None = None) -> dict[str, Any]:
    """Fight every battle and walk on until the run ends (or a room of ``until_kind`` is entered)."""
    for _ in range(100):
        state = party.run(run_id)
        if state["status"] != "active":
            return state
        room = state["current_room"]
        if room["kind"] == until_kind:
            return state
        if room["battle"] and room["battle"]["outcome"] == "ongoing":
            assert party.fight(room["battle"]["id"])["outcome"] == "victory"
            continue
        alive = next(m["player"] for m in state["members"] if m["status"] == "in_dungeon")
        response = party.post(alive, f"runs/{run_id}/advance/", {"step": state["step"]})
        assert response.status_code == 200, response.json()
    raise AssertionError("the run did not end within 100 moves")


def test_a_frenzy_run_has_no_treasure_or_rest_room_and_is_played_to_completion(monkeypatch) -> None:
    # given: two floors of five rooms, a party of two without a guild, weak enemies, mild traps
    small_dungeons(floors=2, rooms=5)
    bestiary(enemy_hp=4, boss_hp=8)
    run_settings(trap_damage_base=2, trap_damage_per_floor=1)
    players = [PlayerFactory(strength=4, stamina=6, money=10), PlayerFactory(strength=4, stamina=6, money=20)]
    fix_seed(
        monkeypatch,
        seed_where(
            lambda d: all(any(str(r.kind) == "enemy" for r in f.rooms) for f in d.floors),
            players=players,
            kind="frenzy",
        ),
    )
    party = Party(players)
    run_id, weapons = _open_lobby_over_http(party, players, "frenzy")
    assert party.post(players[0], f"runs/{run_id}/start/").status_code == 200

    # then: the stored dungeon has no treasure and no rest room; each floor ends with its boss
    run = Run.objects.select_related("dungeon").get(pk=run_id)
    kinds = [[r.kind for r in run.dungeon.rooms.filter(floor=f).order_by("index")] for f in range(2)]
    assert all(
        floor[-1] == "boss" and "trap" in floor and not {"treasure", "rest"} & set(floor) for floor in kinds
    )
    # nobody may leave as a party or change the formation on the way
    state = party.run(run_id)
    assert_error(
        party.post(players[1], f"runs/{run_id}/escape/", {"step": state["step"]}), 409, "cannot_escape_here"
    )
    assert_error(
        party.client(players[1]).put(
            f"{API}/runs/{run_id}/formation/", {"players": [p.pk for p in reversed(players)]}, format="json"
        ),
        409,
        "formation_locked",
    )

    # when: the party fights and walks through both floors
    final = _play_on(party, run_id)

    # then: completed, both bosses paid 50 each, the count rose, the starting weapons are kept
    assert final["status"] == "completed"
    assert [e["room_kind"] for e in final["log"] if e["kind"] == "entered"] == kinds[0] + kinds[1]
    assert not {"treasure", "rested", "npc_joined", "died", "escaped"} & set(log_kinds(final))
    assert {m["status"] for m in final["members"]} == {"finished"}
    after = {p.pk: p for p in Player.objects.filter(pk__in=[p.pk for p in players])}
    assert [after[p.pk].completed_dungeons for p in players] == [1, 1]
    assert [after[p.pk].money for p in players] == [10 + 100, 20 + 100]
    for player in players:
        assert weapons[player.pk] in _inventory(player)


def test_an_ordinary_run_ends_when_the_party_escapes_from_a_treasure_room(monkeypatch) -> None:
    # given: one floor (enemy, treasure, trap, rest, boss); three members with 0, 3 and 8 upgrades
    small_dungeons(floors=1, rooms=5)
    bestiary(enemy_hp=4)
    run_settings(treasure_items_base=6)
    players = [
        PlayerFactory(strength=6, stamina=6, money=0),
        PlayerFactory(strength=6, stamina=6, luck=3),
        PlayerFactory(strength=6, stamina=6, luck=4, attentiveness=4),
    ]
    own = item_kind("Own Trinket", "special", "gem")
    for player in players:
        InventoryItem.objects.create(player=player, item_kind=own)
    fix_seed(
        monkeypatch,
        seed_where(
            lambda d: (
                [[str(r.kind) for r in f.rooms] for f in d.floors]
                == [["enemy", "treasure", "trap", "rest", "boss"]]
            ),
            players=players,
        ),
    )
    party = Party(players)
    run_id, _ = _open_lobby_over_http(party, players, "ordinary")
    assert party.post(players[0], f"runs/{run_id}/start/").status_code == 200

    # when: they win the first battle, pick up the treasure and leave from the treasure room
    state = _play_on(party, run_id, until_kind="treasure")
    _take_all(party, players, state)
    carried = {p.pk: len(_inventory(p)) for p in players}
    assert all(count >= 2 for count in carried.values())
    money = dict(Player.objects.filter(pk__in=[p.pk for p in players]).values_list("pk", "money"))
    escaped = party.post(players[2], f"runs/{run_id}/escape/", {"step": state["step"]})

    # then: each lost 80%, 65% and 40% of everything carried (run loot and own items alike)
    assert escaped.status_code == 200, escaped.json()
    final = escaped.json()
    assert final["status"] == "escaped" and final["ended_at"] is not None
    for player, percent in zip(players, (80, 65, 40), strict=True):
        lost = math.floor(carried[player.pk] * percent / 100 + 0.5)
        member = next(m for m in final["members"] if m["player"] == player.pk)
        assert (member["status"], member["items_lost"]) == ("escaped", lost)
        assert len(_inventory(player)) == carried[player.pk] - lost
    # money found is kept, no dungeon is counted as completed
    assert dict(Player.objects.filter(pk__in=[p.pk for p in players]).values_list("pk", "money")) == money
    assert set(
        Player.objects.filter(pk__in=[p.pk for p in players]).values_list("completed_dungeons", flat=True)
    ) == {0}
    assert not RunMember.objects.filter(run_id=run_id, active=True).exists()
    assert_error(
        party.post(players[0], f"runs/{run_id}/advance/", {"step": final["step"]}), 409, "not_in_party"
    )
