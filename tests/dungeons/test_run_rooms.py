"""Rooms in order over HTTP: moves with their step, loot, traps, rest rooms and party escape, each rule
with its refusal (status, code and nothing changed). Every dungeon is one floor of a chosen layout
(``started`` finds the seed); the bestiary is the test one."""

from __future__ import annotations

from typing import Any

import pytest

from combat.engine import EffectSpec, setup_from_dict
from combat.models import Battle
from dungeons import run_rules
from dungeons.models import Run, RunLoot, RunMember, RunStatus
from players.models import InventoryItem, Player
from tests.dungeons.run_helpers import (
    API,
    Party,
    assert_error,
    bestiary,
    combat_settings,
    current_battle,
    guild_party,
    item_kind,
    log_kinds,
    run_settings,
    small_dungeons,
    started,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _steered() -> None:
    bestiary(enemy_hp=30, enemy_damage=1, boss_hp=30)


def _state(run_id: int) -> tuple:
    """Everything a refused move must leave as it was."""
    run = Run.objects.get(pk=run_id)
    members = list(
        RunMember.objects.filter(run_id=run_id)
        .order_by("pk")
        .values_list("player_id", "status", "position", "hp", "active", "items_lost", "money_lost")
    )
    loot = list(RunLoot.objects.filter(run_id=run_id).order_by("pk").values_list("pk", "taken_by_id"))
    money = list(
        Player.objects.filter(run_memberships__run_id=run_id).order_by("pk").values_list("money", flat=True)
    )
    return (
        run.status,
        run.floor,
        run.room,
        run.step,
        run.room_cleared,
        len(run.log),
        members,
        loot,
        money,
        InventoryItem.objects.count(),
        Battle.objects.count(),
    )


def _advance(party: Party, who: Player, run: Run) -> Any:
    run.refresh_from_db()
    return party.post(who, f"runs/{run.pk}/advance/", {"step": run.step})


# --- moves ------------------------------------------------------------------------------------------


def test_advance_names_the_step_it_answers_so_a_duplicate_never_moves_twice(monkeypatch) -> None:
    small_dungeons(rooms=4)
    players = [PlayerFactory(), PlayerFactory()]
    run = started(players, monkeypatch, ["treasure", "trap", "rest", "boss"])
    party = Party(players)
    step = run.step

    first = party.post(players[0], f"runs/{run.pk}/advance/", {"step": step})
    assert first.status_code == 200, first.json()
    assert (first.json()["current_room"]["room"], first.json()["step"]) == (1, step + 1)
    moved = _state(run.pk)

    # the same move again (a double click, a retry, the other member) is stale
    for who in players:
        error = assert_error(party.post(who, f"runs/{run.pk}/advance/", {"step": step}), 409, "stale_step")
        assert error["details"] == {"step": step, "current_step": step + 1}
    assert_error(party.post(players[1], f"runs/{run.pk}/advance/", {"step": step + 5}), 409, "stale_step")
    assert _state(run.pk) == moved


def test_the_party_cannot_advance_while_the_battle_is_on(monkeypatch) -> None:
    small_dungeons(rooms=5)
    players = [PlayerFactory()]
    run = started(players, monkeypatch, ["enemy", "trap", "treasure", "rest", "boss"])
    party = Party(players)
    assert current_battle(run).outcome == "ongoing"
    before = _state(run.pk)

    error = assert_error(_advance(party, players[0], run), 409, "room_not_cleared")

    assert (error["details"]["floor"], error["details"]["room"]) == (0, 0)
    assert _state(run.pk) == before


def test_moves_on_another_partys_run_are_404_and_change_nothing(monkeypatch) -> None:
    small_dungeons(rooms=4)
    ours = [PlayerFactory()]
    run = started(ours, monkeypatch, ["treasure", "trap", "rest", "boss"])
    loot = RunLoot.objects.filter(run=run).first()
    assert loot is not None
    outsider = PlayerFactory()
    party = Party([outsider])
    before = _state(run.pk)

    for response in (
        party.client(outsider).get(f"{API}/runs/{run.pk}/"),
        party.post(outsider, f"runs/{run.pk}/advance/", {"step": run.step}),
        party.post(outsider, f"runs/{run.pk}/escape/", {"step": run.step}),
        party.post(outsider, f"runs/{run.pk}/loot/{loot.pk}/take/"),
        party.post(outsider, f"runs/{run.pk}/leave/"),
        party.client(outsider).put(
            f"{API}/runs/{run.pk}/formation/", {"players": [outsider.pk]}, format="json"
        ),
    ):
        assert_error(response, 404, "run_not_found")
    assert _state(run.pk) == before


def test_loot_of_another_run_is_not_found_in_ours(monkeypatch) -> None:
    small_dungeons(rooms=4)
    theirs = started([PlayerFactory()], monkeypatch, ["treasure", "trap", "rest", "boss"])
    mine = started([me := PlayerFactory()], monkeypatch, ["treasure", "trap", "rest", "boss"])
    their_loot = RunLoot.objects.filter(run=theirs).first()
    before = (_state(theirs.pk), _state(mine.pk))

    assert_error(Party([me]).post(me, f"runs/{mine.pk}/loot/{their_loot.pk}/take/"), 404, "loot_not_found")

    assert (_state(theirs.pk), _state(mine.pk)) == before


# --- formation --------------------------------------------------------------------------------------


def test_the_formation_is_locked_outside_the_lobby_and_rest_rooms(monkeypatch) -> None:
    small_dungeons(rooms=5)
    a, b = PlayerFactory(stamina=10), PlayerFactory(stamina=10)
    run = started([a, b], monkeypatch, ["enemy", "treasure", "trap", "rest", "boss"])
    party = Party([a, b])

    def set_formation() -> Any:
        return party.client(a).put(
            f"{API}/runs/{run.pk}/formation/", {"players": [b.pk, a.pk]}, format="json"
        )

    # during a battle
    before = _state(run.pk)
    assert_error(set_formation(), 409, "formation_locked")
    assert _state(run.pk) == before
    # in a treasure room and a trap room
    party.fight(current_battle(run).pk)
    for kind in ("treasure", "trap"):
        assert _advance(party, a, run).json()["current_room"]["kind"] == kind
        before = _state(run.pk)
        assert_error(set_formation(), 409, "formation_locked")
        assert _state(run.pk) == before
    # in the rest room it changes, and is logged
    assert _advance(party, a, run).json()["current_room"]["kind"] == "rest"
    response = set_formation()
    assert response.status_code == 200, response.json()
    assert [m["player"] for m in sorted(response.json()["members"], key=lambda m: m["position"])] == [
        b.pk,
        a.pk,
    ]
    assert {k: v for k, v in response.json()["log"][-1].items() if k != "seq"} == {
        "kind": "formation", "floor": 0, "room": 3, "players": [b.pk, a.pk]}


# --- loot ---------------------------------------------------------------------------------------------


def test_loot_is_taken_once_and_only_in_its_room(monkeypatch) -> None:
    small_dungeons(rooms=4)
    a, b = PlayerFactory(strength=10), PlayerFactory(strength=10)
    run = started([a, b], monkeypatch, ["treasure", "trap", "rest", "boss"])
    party = Party([a, b])
    first, second = RunLoot.objects.filter(run=run).order_by("pk")[:2]

    taken = party.post(a, f"runs/{run.pk}/loot/{first.pk}/take/")
    assert taken.status_code == 200, taken.json()
    item = InventoryItem.objects.get(player=a, item_kind=first.item_kind_id)
    assert (item.acquired_in_run_id, item.equipped) == (run.pk, False)
    before = _state(run.pk)

    # someone else (or the taker again) cannot take it twice
    for who in (b, a):
        assert_error(party.post(who, f"runs/{run.pk}/loot/{first.pk}/take/"), 409, "loot_taken")
    assert _state(run.pk) == before
    # once the party moved on, what was left on the floor is out of reach
    assert _advance(party, a, run).status_code == 200
    before = _state(run.pk)
    assert_error(party.post(b, f"runs/{run.pk}/loot/{second.pk}/take/"), 409, "loot_out_of_reach")
    assert _state(run.pk) == before
    assert_error(party.post(b, f"runs/{run.pk}/loot/99999/take/"), 404, "loot_not_found")


def test_a_pickup_beyond_a_carry_limit_leaves_the_loot_on_the_floor(monkeypatch) -> None:
    # given: a treasure room full of loot (12 items); one member carries exactly the potion limit,
    # another a load at the weight capacity (40 at strength 0)
    small_dungeons(rooms=4)
    run_settings(treasure_items_base=12)
    tonic = item_kind("Carried Tonic", "potion", "healing", heal=3)
    boulder = item_kind("Heavy Keepsake", "special", "gem", weight=40)
    potions_full, laden = PlayerFactory(strength=10), PlayerFactory(strength=0)
    for _ in range(3):
        InventoryItem.objects.create(player=potions_full, item_kind=tonic)
    InventoryItem.objects.create(player=laden, item_kind=boulder)
    run = started([potions_full, laden], monkeypatch, ["treasure", "trap", "rest", "boss"])
    party = Party([potions_full, laden])
    loot = list(RunLoot.objects.filter(run=run).select_related("item_kind"))
    potion = next((lying for lying in loot if lying.item_kind.category == "potion"), None)
    assert potion is not None, "the treasure holds no potion with this seed and catalog"
    before = _state(run.pk)

    # when: the potion is refused for the first (potion_limit), everything for the second (weight_limit)
    error = assert_error(
        party.post(potions_full, f"runs/{run.pk}/loot/{potion.pk}/take/"), 409, "potion_limit"
    )
    assert (error["details"]["limit"], error["details"]["current"]) == (3, 3)
    for lying in loot:
        error = assert_error(party.post(laden, f"runs/{run.pk}/loot/{lying.pk}/take/"), 409, "weight_limit")
        assert (error["details"]["limit"], error["details"]["current"]) == (40, 40)

    # then: every item still lies in the room, and nobody's inventory changed
    assert _state(run.pk) == before
    assert all(lying["taken_by"] is None for lying in party.run(run.pk)["current_room"]["loot"])
    # the item is still there for someone who can carry it
    Player.objects.filter(pk=laden.pk).update(strength=1)
    taken = party.post(laden, f"runs/{run.pk}/loot/{potion.pk}/take/")
    assert taken.status_code == 200, taken.json()


def test_treasure_pays_every_member_and_attentiveness_adds_items(monkeypatch) -> None:
    small_dungeons(rooms=4)
    run_settings(treasure_items_base=2, treasure_extra_chance_per_attentiveness=0.5, treasure_coins_base=7)
    sharp, dull = PlayerFactory(attentiveness=2, money=0), PlayerFactory(attentiveness=0, money=3)
    run = started([sharp, dull], monkeypatch, ["treasure", "trap", "rest", "boss"])

    # attentiveness 2 x 0.5 = certain extra item; attentiveness 0 never adds one
    assert RunLoot.objects.filter(run=run, floor=0, room=0).count() == 3
    assert dict(Player.objects.filter(pk__in=[sharp.pk, dull.pk]).values_list("pk", "money")) == {
        sharp.pk: 7,
        dull.pk: 10,
    }
    assert run.log[-1]["kind"] == "treasure" and run.log[-1]["coins_each"] == 7


# --- traps ---------------------------------------------------------------------------------------------


def test_a_trap_hurts_by_attentiveness_and_its_effect_is_carried_into_the_next_battle(monkeypatch) -> None:
    # given: a certain trap effect (bleeding, 3 turns), trap damage 10 and mitigation 10% per point
    small_dungeons(rooms=5)
    run_settings(
        trap_damage_base=10,
        trap_damage_per_floor=0,
        trap_effect="bleeding",
        trap_effect_turns=3,
        trap_effect_chance=1.0,
        trap_mitigation_per_attentiveness=0.1,
        trap_mitigation_max=0.75,
    )
    careless, careful = PlayerFactory(stamina=4, attentiveness=0), PlayerFactory(stamina=4, attentiveness=10)
    run = started([careless, careful], monkeypatch, ["trap", "enemy", "treasure", "rest", "boss"])
    party = Party([careless, careful])

    # then: 10 damage unmitigated, 10 x 0.25 = 2.5 -> 3 at the 75% cap
    state = party.run(run.pk)
    hits = state["log"][-1]["hits"]
    assert (hits[str(careless.pk)]["damage"], hits[str(careful.pk)]["damage"]) == (10, 3)
    members = {m["player"]: m for m in state["members"]}
    assert (members[careless.pk]["hp"], members[careful.pk]["hp"]) == (40 - 10, 40 - 3)
    assert members[careless.pk]["pending_effects"] == [{"name": "bleeding", "turns": 3}]

    # when: the party walks into the enemy room
    state = _advance(party, careless, run).json()

    # then: the effect starts the battle on the one it stuck to, and is no longer pending
    battle = Battle.objects.get(pk=state["current_room"]["battle"]["id"])
    setup = setup_from_dict(battle.setup)
    assert (f"p{careless.pk}", EffectSpec("bleeding", 3, None)) in [
        (cid, EffectSpec(s.name, s.turns, None)) for cid, s in setup.starting_effects
    ]
    bleeding = [
        e
        for e in battle.events.order_by("seq").values_list("data", flat=True)
        if e["kind"] == "effect_applied" and e["effect"] == "bleeding"
    ]
    assert f"p{careless.pk}" in [e["target"] for e in bleeding]
    assert RunMember.objects.get(run=run, player=careless).pending_effects == []
    if hits[str(careful.pk)]["effect"] is None:
        assert all(e["target"] != f"p{careful.pk}" for e in bleeding)


def test_a_trap_that_kills_the_whole_party_fails_the_run_and_charon_takes_his_fee(monkeypatch) -> None:
    small_dungeons(rooms=4)
    run_settings(trap_damage_base=50)
    rich, broke = PlayerFactory(money=999), PlayerFactory(money=0)
    run = started([rich, broke], monkeypatch, ["trap", "treasure", "rest", "boss"], weapons=True)

    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and run.ended_at is not None
    assert log_kinds(run)[-3:] == ["died", "died", "failed"]
    assert dict(Player.objects.filter(pk__in=[rich.pk, broke.pk]).values_list("pk", "money")) == {
        rich.pk: 900,
        broke.pk: 0,
    }
    assert dict(RunMember.objects.filter(run=run).values_list("player_id", "money_lost")) == {
        rich.pk: 99,
        broke.pk: 0,
    }
    assert not InventoryItem.objects.filter(
        player__in=[rich, broke]
    ).exists()  # the starting weapons are lost
    assert not RunMember.objects.filter(run=run, active=True).exists()
    # a failed run takes no more moves
    assert_error(Party([rich]).post(rich, f"runs/{run.pk}/advance/", {"step": run.step}), 409, "not_in_party")


# --- rest ---------------------------------------------------------------------------------------------


def test_a_rest_room_heals_by_metabolism_up_to_max_hp(monkeypatch) -> None:
    small_dungeons(rooms=4)
    run_settings(
        trap_damage_base=12,
        trap_effect_chance=0.0,
        rest_heal_base=2,
        rest_heal_per_metabolism=3,
        room_regen_base=0,
        room_regen_per_metabolism=0,
    )
    slow, fast = PlayerFactory(metabolism=0), PlayerFactory(metabolism=5)
    run = started([slow, fast], monkeypatch, ["trap", "treasure", "rest", "boss"])
    party = Party([slow, fast])
    _advance(party, slow, run)
    state = _advance(party, slow, run).json()

    assert state["current_room"]["kind"] == "rest"
    hp = {m["player"]: m["hp"] for m in state["members"]}
    assert hp == {slow.pk: 20 - 12 + 2, fast.pk: 20}  # 2 + 3 x 5 = 17 would pass the maximum of 20


# --- party escape -----------------------------------------------------------------------------------------


def _give(player: Player, count: int) -> list[int]:
    gem = item_kind(f"Pebble of {player.pk}", "special", "gem")
    return [InventoryItem.objects.create(player=player, item_kind=gem).pk for _ in range(count)]


@pytest.mark.parametrize("room", ["treasure", "rest"])
def test_the_party_escapes_from_a_treasure_or_rest_room_losing_the_seeded_loss_fraction(
    monkeypatch, room
) -> None:
    # given: three members carrying ten items each, with 0, 3 and 9 upgrades of luck + attentiveness
    small_dungeons(rooms=4)
    novice = PlayerFactory(luck=0, attentiveness=0)
    middling = PlayerFactory(luck=2, attentiveness=1)
    veteran = PlayerFactory(luck=5, attentiveness=4)
    carried = {p.pk: _give(p, 10) for p in (novice, middling, veteran)}
    run_settings(trap_damage_base=0, trap_damage_per_floor=0)
    run = started(
        [novice, middling, veteran],
        monkeypatch,
        ["trap", "treasure", "rest", "boss"] if room == "treasure" else ["treasure", "trap", "rest", "boss"],
    )
    party = Party([novice, middling, veteran])
    while party.run(run.pk)["current_room"]["kind"] != room:
        assert _advance(party, novice, run).status_code == 200
    run.refresh_from_db()
    position, step = (run.floor, run.room), run.step
    completed_before = dict(Player.objects.values_list("pk", "completed_dungeons"))

    # when: one member leads the party out
    response = party.post(middling, f"runs/{run.pk}/escape/", {"step": step})

    # then: 80%, 65% and the 40% floor of ten items are lost: 8, 7 (6.5 rounds up) and 4
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "escaped" and body["seed"] == run.seed
    lost = {m["player"]: m["items_lost"] for m in body["members"]}
    assert lost == {novice.pk: 8, middling.pk: 7, veteran.pk: 4}
    percents = {
        e["player"]: e["loss_percent"] for e in body["log"] if e["kind"] == "escaped" and "player" in e
    }
    assert percents == {novice.pk: 80, middling.pk: 65, veteran.pk: 40}
    # which items went is the seeded choice of run_rules.escape_losses for the room and player
    for player_id, ids in carried.items():
        rng = run_rules.room_rng(run.seed, *position, f"escape/{player_id}")
        gone = run_rules.escape_losses(ids, percent=percents[player_id], rng=rng)
        left = sorted(
            InventoryItem.objects.filter(player_id=player_id, pk__in=ids).values_list("pk", flat=True)
        )
        assert left == sorted(set(ids) - set(gone))
    assert all(m["status"] == "escaped" for m in body["members"])
    assert not RunMember.objects.filter(run=run, active=True).exists()
    assert dict(Player.objects.values_list("pk", "completed_dungeons")) == completed_before
    # the same escape again is stale; the run is over
    assert_error(party.post(novice, f"runs/{run.pk}/escape/", {"step": step}), 409, "not_in_party")


def test_an_escape_from_a_run_with_an_npc_rescues_nobody(monkeypatch) -> None:
    small_dungeons(rooms=5, c_opt=0.1)
    players, guild = guild_party(2, completed_dungeons=10)
    run = started(
        players,
        monkeypatch,
        predicate=lambda d: (
            [[str(r.kind) for r in f.rooms] for f in d.floors]
            == [["story", "treasure", "trap", "rest", "boss"]]
        ),
    )
    party = Party(players)
    assert party.run(run.pk)["npc"]["hp"] > 0
    _advance(party, players[0], run)
    run.refresh_from_db()

    assert party.post(players[1], f"runs/{run.pk}/escape/", {"step": run.step}).status_code == 200

    guild.refresh_from_db()
    assert guild.rank == 0
    assert "completed" not in log_kinds(Run.objects.get(pk=run.pk))


@pytest.mark.parametrize("room", ["enemy", "trap", "story_items"])
def test_the_party_cannot_escape_from_other_rooms(monkeypatch, room) -> None:
    small_dungeons(rooms=5, story_item_chance=1.0 if room == "story_items" else 0.0)
    players = [PlayerFactory(stamina=5)]
    layouts = {
        "enemy": ["enemy", "trap", "treasure", "rest", "boss"],
        "trap": ["trap", "enemy", "treasure", "rest", "boss"],
    }
    if room == "story_items":
        run = started(players, monkeypatch, predicate=lambda d: str(d.floors[0].rooms[0].kind) == "story")
    else:
        run = started(players, monkeypatch, layouts[room])
    party = Party(players)
    before = _state(run.pk)

    error = assert_error(
        party.post(players[0], f"runs/{run.pk}/escape/", {"step": run.step}), 409, "cannot_escape_here"
    )

    assert error["details"]["room_kind"] == ("story" if room == "story_items" else room)
    assert _state(run.pk) == before
    assert_error(party.post(players[0], f"runs/{run.pk}/escape/", {"step": run.step + 1}), 409, "stale_step")


# --- what reaches the battle --------------------------------------------------------------------------------


def test_warlock_buffs_and_carried_amulets_are_in_every_battle_of_the_run(monkeypatch) -> None:
    # given: the guild's warlock (rescued) sold the first member a vigor buff for the next run, and
    # the second member carries an amulet of resilience (a permanent effect)
    from npcs.models import PlayerBuff, WarlockBuff
    from npcs.services import npc_rescue, warlock_buff_buy

    small_dungeons(rooms=5)
    run_settings(trap_effect_chance=0.0)  # no trap effect among the starting effects
    (buffed, warded), guild = guild_party(2, stamina=10, strength=5, money=10_000)
    npc_rescue(guild_id=guild.pk, kind="warlock")
    vigor = WarlockBuff.objects.create(
        name="Test Vigor Hex", effect="vigor", turns=None, magnitude=0.3, price=1
    )
    warlock_buff_buy(player=buffed, guild_id=guild.pk, buff_id=vigor.pk)
    amulet = item_kind(
        "Test Amulet of Warding", "amulet", "amulet", effect="resilience", effect_magnitude=0.2, rarity="rare"
    )
    InventoryItem.objects.create(player=warded, item_kind=amulet)
    bestiary(enemy_hp=3, boss_hp=3)  # quick victories

    # when: the run starts (the buff is claimed for it) and the party fights two battles
    run = started([buffed, warded], monkeypatch, ["enemy", "treasure", "trap", "rest", "boss"])
    party = Party([buffed, warded])
    assert PlayerBuff.objects.get(player=buffed).claimed_run_id == run.pk
    assert RunMember.objects.get(run=run, player=buffed).buffs == [
        {"name": "vigor", "turns": None, "magnitude": 0.3, "chance": 1.0}
    ]
    assert RunMember.objects.get(run=run, player=warded).buffs == []
    battles = [current_battle(run).pk]
    first = party.battle(battles[0])
    party.fight(battles[0])
    run_settings(trap_damage_base=0, trap_damage_per_floor=0)
    while party.run(run.pk)["current_room"]["kind"] != "boss":
        assert _advance(party, buffed, run).status_code == 200
    battles.append(party.run(run.pk)["current_room"]["battle"]["id"])

    # then: each battle's setup carries the buff as a starting effect and the amulet on its carrier,
    # and the battle applied both at its start
    for battle_id in battles:
        battle = Battle.objects.get(pk=battle_id)
        setup = setup_from_dict(battle.setup)
        assert [(cid, s.name, s.magnitude) for cid, s in setup.starting_effects] == [
            (f"p{buffed.pk}", "vigor", 0.3)
        ]
        warded_setup = next(p for p in setup.players if p.id == f"p{warded.pk}")
        assert [(s.name, s.magnitude) for s in warded_setup.amulets] == [("resilience", 0.2)]
        applied = [
            (e["target"], e["effect"], e["permanent"])
            for e in battle.events.order_by("seq").values_list("data", flat=True)
            if e["kind"] == "effect_applied"
        ]
        assert (f"p{warded.pk}", "resilience", True) in applied
        assert (f"p{buffed.pk}", "vigor", False) in applied
    effects = {c["id"]: {e["name"]: e for e in c["effects"]} for c in first["combatants"]}
    assert effects[f"p{warded.pk}"]["resilience"]["permanent"] is True
    assert effects[f"p{buffed.pk}"]["vigor"]["magnitude"] == 0.3


# --- completion -------------------------------------------------------------------------------------------


def test_the_last_bosss_loot_can_be_taken_by_the_party_that_completed_the_run(monkeypatch) -> None:
    # regression: the final boss dropped boss_loot_items items that nobody could ever pick up (the
    # members were already 'finished', so every pickup was 409 not_in_party)
    small_dungeons(rooms=2)
    bestiary(boss_hp=3)
    run_settings(boss_loot_items=2)
    winner, other = PlayerFactory(strength=10, stamina=10), PlayerFactory(strength=10, stamina=10)
    run = started([winner, other], monkeypatch, ["rest", "boss"])
    party = Party([winner, other])
    state = _advance(party, winner, run).json()
    assert party.fight(state["current_room"]["battle"]["id"])["outcome"] == "victory"
    final = party.run(run.pk)
    assert final["status"] == "completed"
    first, second = final["current_room"]["loot"]

    taken = party.post(winner, f"runs/{run.pk}/loot/{first['id']}/take/")

    assert taken.status_code == 200, taken.json()
    item = InventoryItem.objects.get(
        player=winner, item_kind_id=first["item_kind"]["id"], acquired_in_run=run
    )
    assert item is not None
    assert_error(party.post(other, f"runs/{run.pk}/loot/{first['id']}/take/"), 409, "loot_taken")
    # the run stays completed, and nobody else may reach in
    stranger = PlayerFactory()
    assert_error(
        Party([stranger]).post(stranger, f"runs/{run.pk}/loot/{second['id']}/take/"), 404, "run_not_found"
    )
    assert Run.objects.get(pk=run.pk).status == RunStatus.COMPLETED


def test_loot_of_a_run_that_ended_otherwise_stays_out_of_reach(monkeypatch) -> None:
    small_dungeons(rooms=4)
    players = [PlayerFactory()]
    run = started(players, monkeypatch, ["treasure", "trap", "rest", "boss"])
    party = Party(players)
    loot = RunLoot.objects.filter(run=run).first()
    assert party.post(players[0], f"runs/{run.pk}/escape/", {"step": run.step}).status_code == 200
    before = _state(run.pk)

    assert_error(party.post(players[0], f"runs/{run.pk}/loot/{loot.pk}/take/"), 409, "not_in_party")

    assert _state(run.pk) == before


def test_an_npc_killed_in_battle_is_not_rescued(monkeypatch) -> None:
    # given: an NPC with 1 HP freed in the first room, then enemies that always go for the weakest
    small_dungeons(rooms=5, c_opt=0.1)
    bestiary(enemy_hp=20, enemy_damage=1, boss_hp=3)
    run_settings(npc_hp=1, trap_damage_base=0, trap_damage_per_floor=0)
    combat_settings(ai_focus_weakest_chance=1.0)
    players, guild = guild_party(2, completed_dungeons=10, stamina=10, strength=2)
    run = started(
        players,
        monkeypatch,
        predicate=lambda d: (
            [str(r.kind) for r in d.floors[0].rooms][:2] == ["story", "enemy"] and d.npc == (0, 0)
        ),
    )
    party = Party(players)
    assert party.run(run.pk)["npc"]["hp"] == 1

    # when: the party fights the enemy room (the NPC falls) and then the boss
    state = _advance(party, players[0], run).json()
    assert party.fight(state["current_room"]["battle"]["id"])["outcome"] == "victory"
    state = party.run(run.pk)
    assert state["npc"]["hp"] == 0
    while state["status"] == "active":
        room = state["current_room"]
        if room["battle"] and room["battle"]["outcome"] == "ongoing":
            party.fight(room["battle"]["id"])
        else:
            assert (
                party.post(players[0], f"runs/{run.pk}/advance/", {"step": state["step"]}).status_code == 200
            )
        state = party.run(run.pk)

    # then: the run completed, but the dead NPC was not rescued and the guild's rank did not rise
    assert state["status"] == "completed"
    assert "npc_died" in log_kinds(state) and state["log"][-1]["rescued"] is None
    guild.refresh_from_db()
    assert guild.rank == 0


def test_after_a_draw_with_the_last_boss_the_party_cannot_go_on_but_can_leave(monkeypatch) -> None:
    # regression: a draw (the round limit) against the last boss cleared the room without completing
    # the run; "advance" then failed an assertion (500) and the party stayed active in the run for ever
    small_dungeons(rooms=2)
    bestiary(boss_hp=200, boss_damage=1)
    combat_settings(max_rounds=1)
    player = PlayerFactory(stamina=10)
    run = started([player], monkeypatch, ["rest", "boss"])
    party = Party([player])
    state = _advance(party, player, run).json()
    skip = party.fight(state["current_room"]["battle"]["id"], choose=lambda battle: {"kind": "skip"})
    assert skip["outcome"] == "draw"
    state = party.run(run.pk)
    assert (state["status"], state["current_room"]["cleared"]) == ("active", True)
    before = _state(run.pk)

    error = assert_error(
        party.post(player, f"runs/{run.pk}/advance/", {"step": state["step"]}), 409, "no_next_room"
    )

    assert (error["details"]["floor"], error["details"]["room"]) == (0, 1)
    assert _state(run.pk) == before
    left = party.post(player, f"runs/{run.pk}/escape/", {"step": state["step"]})
    assert left.status_code == 200, left.json()
    assert left.json()["status"] == "escaped"
    assert not RunMember.objects.filter(player=player, active=True).exists()
    assert party.post(player, "runs/", {"kind": "ordinary"}).status_code == 201  # free for the next run


def test_a_draw_in_an_ordinary_room_clears_it_without_loot(monkeypatch) -> None:
    small_dungeons(rooms=5)
    bestiary(enemy_hp=200, enemy_damage=1)
    combat_settings(max_rounds=1)
    run_settings(battle_loot_chance=1.0)
    player = PlayerFactory(stamina=10, money=5)
    run = started([player], monkeypatch, ["enemy", "trap", "treasure", "rest", "boss"])
    party = Party([player])

    assert party.fight(current_battle(run).pk, choose=lambda battle: {"kind": "skip"})["outcome"] == "draw"

    state = party.run(run.pk)
    assert state["current_room"]["cleared"] and state["current_room"]["loot"] == []
    assert Player.objects.get(pk=player.pk).money == 5
    assert _advance(party, player, run).json()["current_room"]["kind"] == "trap"


# --- amulets: only (rarely) from treasure rooms ----------------------------------------------------------


def test_amulets_are_rare_in_the_catalog_and_the_admin_refuses_a_common_one() -> None:
    from django.core.exceptions import ValidationError

    from players.models import ItemKind

    amulets = ItemKind.objects.filter(category="amulet")
    assert amulets.exists() and set(amulets.values_list("rarity", flat=True)) == {"rare"}
    common = ItemKind(name="Test Trinket", category="amulet", sub_kind="amulet", weight=1, price=5,
                      rarity="common", effect="vigor")
    with pytest.raises(ValidationError) as refused:
        common.full_clean()
    assert "rarity" in refused.value.message_dict


def test_boss_and_battle_loot_never_hold_amulets_but_treasure_rooms_may(monkeypatch) -> None:
    # given: only rare items drop (amulets are rare), a boss that drops 30 items, a room full of treasure
    small_dungeons(rooms=4)
    bestiary(boss_hp=3)
    run_settings(weight_common=0, weight_uncommon=0, weight_rare=1, boss_loot_items=30,
                 treasure_items_base=30)
    winner = PlayerFactory(strength=10, stamina=10)
    run = started([winner], monkeypatch, ["treasure", "trap", "rest", "boss"])
    party = Party([winner])
    treasure = party.run(run.pk)["current_room"]["loot"]
    for _ in range(3):
        state = party.post(winner, f"runs/{run.pk}/advance/", {"step": party.run(run.pk)["step"]}).json()
    assert state["current_room"]["kind"] == "boss"
    assert party.fight(state["current_room"]["battle"]["id"])["outcome"] == "victory"
    boss_loot = party.run(run.pk)["current_room"]["loot"]

    # then: 30 rare items each; amulets among the treasure, none in the boss's loot
    assert len(treasure) == len(boss_loot) == 30
    assert any(item["item_kind"]["category"] == "amulet" for item in treasure)
    assert {item["item_kind"]["category"] for item in boss_loot} <= {"weapon", "armor", "potion"}
