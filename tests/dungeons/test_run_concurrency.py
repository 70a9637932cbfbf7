"""Run rules under real concurrent requests on PostgreSQL (live server, one thread and connection per
request, released together by a barrier), with the invariants checked in the database afterwards:
a player is in at most one active run, a party never outgrows its limit, a move happens once, and
money never goes negative when Charon's fee races the player's own spending."""

from __future__ import annotations

from collections import Counter
from functools import partial

import pytest

from combat.models import Battle
from dungeons.models import MemberStatus, Run, RunLoot, RunMember, RunStatus
from guilds.models import PersonRunDay
from npcs.models import NpcKind, NpcTrade, ShopOffer
from npcs.services import npc_rescue
from players.models import InventoryItem, Player
from tests.dungeons.concurrency import all_at_once, live_url_fixture, request, token  # noqa: F401 (fixture)
from tests.dungeons.run_helpers import (
    bestiary,
    guild_party,
    item_kind,
    lobby,
    run_settings,
    small_dungeons,
    started,
)
from tests.factories import PlayerFactory, make_run

pytestmark = pytest.mark.postgres

API = "/api/v1"


def _active_runs(player: Player) -> list[int]:
    return list(RunMember.objects.filter(player=player, active=True).values_list("run_id", flat=True))


def test_a_player_joining_eight_lobbies_at_once_is_active_in_exactly_one(live_url) -> None:
    # given: eight open lobbies and one player who is in none
    lobbies = [make_run() for _ in range(8)]
    player = PlayerFactory()
    bearer = token(player)

    # when: the player joins all of them at the same moment
    replies = all_at_once(
        [partial(request, "POST", f"{live_url}{API}/runs/{run.pk}/join/", bearer, {}) for run in lobbies]
    )

    # then: one join won; the others were refused naming the rule, and left no trace
    assert Counter(r.status for r in replies) == {200: 1, 409: 7}, replies
    assert {r.code for r in replies if r.status == 409} == {"already_in_run"}
    won = next(r.body["id"] for r in replies if r.status == 200)
    assert _active_runs(player) == [won]
    assert RunMember.objects.filter(player=player).count() == 1
    for run in lobbies:
        expected = 2 if run.pk == won else 1
        assert RunMember.objects.filter(run=run, active=True).count() == expected


def test_a_player_opening_eight_lobbies_at_once_hosts_exactly_one(live_url) -> None:
    player = PlayerFactory()
    bearer = token(player)

    replies = all_at_once(
        [partial(request, "POST", f"{live_url}{API}/runs/", bearer, {"kind": "ordinary"}) for _ in range(8)]
    )

    assert Counter(r.status for r in replies) == {201: 1, 409: 7}, replies
    assert {r.code for r in replies if r.status == 409} == {"already_in_run"}
    assert list(Run.objects.filter(host=player).values_list("pk", flat=True)) == _active_runs(player)
    assert len(_active_runs(player)) == 1


def test_twelve_players_racing_for_the_last_five_places_leave_a_party_of_six(live_url) -> None:
    run_settings(max_party_size=6)
    run = make_run()
    joiners = [PlayerFactory() for _ in range(12)]

    replies = all_at_once(
        [partial(request, "POST", f"{live_url}{API}/runs/{run.pk}/join/", token(p), {}) for p in joiners]
    )

    assert Counter(r.status for r in replies) == {200: 5, 409: 7}, replies
    assert {r.code for r in replies if r.status == 409} == {"party_full"}
    members = RunMember.objects.filter(run=run, status=MemberStatus.JOINED)
    assert members.count() == 6
    assert sorted(members.values_list("position", flat=True)) == list(range(6))
    joined = {p.pk for p, r in zip(joiners, replies, strict=True) if r.status == 200}
    assert set(members.values_list("player_id", flat=True)) == joined | {run.host_id}


def test_joins_racing_the_start_either_make_it_into_the_dungeon_or_are_refused(live_url, monkeypatch) -> None:
    # given: a lobby of one whose host is about to start, and five players joining at that moment
    small_dungeons(rooms=4)
    bestiary()
    host = PlayerFactory()
    run = lobby([host])
    joiners = [PlayerFactory() for _ in range(5)]  # the party limit is 6: no party_full here
    calls = [partial(request, "POST", f"{live_url}{API}/runs/{run.pk}/start/", token(host), {})]
    calls += [partial(request, "POST", f"{live_url}{API}/runs/{run.pk}/join/", token(p), {}) for p in joiners]

    replies = all_at_once(calls)

    # then: the start either went first (later joiners are strangers to a started run: 404) or found a
    # member who had not chosen a weapon yet (weapon_choice_pending); the dungeon was generated for
    # exactly the party inside
    start, joins = replies[0], replies[1:]
    assert {r.status for r in joins} <= {200, 404}
    assert {r.code for r in joins if r.status == 404} <= {"run_not_found"}
    run.refresh_from_db()
    if start.status == 200:
        assert run.status == RunStatus.ACTIVE
        inside = RunMember.objects.filter(run=run, status=MemberStatus.IN_DUNGEON)
        assert list(inside.values_list("player_id", flat=True)) == [host.pk]
        assert run.dungeon.party_size == 1
        assert PersonRunDay.objects.count() == 0  # a guildless host records no guild activity
        assert all(r.status == 404 for r in joins)
    else:
        assert (start.status, start.code) == (409, "weapon_choice_pending")
        assert run.status == RunStatus.LOBBY and run.dungeon_id is None
        assert RunMember.objects.filter(run=run, status=MemberStatus.JOINED).count() == 1 + sum(
            r.status == 200 for r in joins
        )
    for player in joiners:
        assert len(_active_runs(player)) <= 1


def test_sixteen_identical_moves_of_a_party_move_it_once(live_url, monkeypatch) -> None:
    # given: a party of three in a treasure room; the next room is an enemy room
    small_dungeons(rooms=5)
    bestiary(enemy_hp=50)
    players = [PlayerFactory(), PlayerFactory(), PlayerFactory()]
    run = started(players, monkeypatch, ["treasure", "enemy", "trap", "rest", "boss"])
    step, log_length = run.step, len(run.log)

    # when: every member's clients press "go on" for the same step at once
    replies = all_at_once(
        [
            partial(
                request,
                "POST",
                f"{live_url}{API}/runs/{run.pk}/advance/",
                token(players[n % 3]),
                {"step": step},
            )
            for n in range(16)
        ]
    )

    # then: one move; the party entered the enemy room once and one battle started
    assert Counter(r.status for r in replies) == {200: 1, 409: 15}, replies
    assert {r.code for r in replies if r.status == 409} == {"stale_step"}
    run.refresh_from_db()
    assert (run.step, run.room) == (step + 1, 1)
    assert [e["kind"] for e in run.log[log_length:]].count("entered") == 1
    assert Battle.objects.filter(run=run).count() == 1


def test_money_never_goes_negative_when_charons_fee_races_the_players_purchases(
    live_url, monkeypatch
) -> None:
    # given: a player with 100 coins, a member of a guild whose jeweler sells a 30-coin amulet, alone in
    # a run whose next room is a trap that kills
    small_dungeons(rooms=4)
    bestiary()
    run_settings(trap_damage_base=60, treasure_coins_base=0)
    (victim,), guild = guild_party(1, money=100)
    # (a transactional test may find the migrated rows flushed by an earlier one: make sure they exist)
    jeweler, _ = NpcKind.objects.get_or_create(slug="jeweler", defaults={"name": "Jeweler", "rank_points": 1})
    npc_rescue(guild_id=guild.pk, kind="jeweler")
    charm = item_kind("Race Charm", "amulet", "amulet", effect="fearlessness", rarity="rare")
    offer = ShopOffer.objects.create(npc=jeweler, item_kind=charm, price=30)
    run = started([victim], monkeypatch, ["treasure", "trap", "rest", "boss"])
    Player.objects.filter(pk=victim.pk).update(money=100)
    bearer = token(victim)
    buy = f"{live_url}{API}/guilds/{guild.pk}/npcs/jeweler/offers/{offer.pk}/buy/"

    # when: the party walks into the trap while the player buys eight amulets at the same moment
    calls = [partial(request, "POST", f"{live_url}{API}/runs/{run.pk}/advance/", bearer, {"step": run.step})]
    calls += [partial(request, "POST", buy, bearer, {}) for _ in range(8)]
    replies = all_at_once(calls)

    # then: the death happened, every purchase was paid or refused whole, and the books balance
    advance, purchases = replies[0], replies[1:]
    assert advance.status == 200, advance
    assert {r.status for r in purchases} <= {200, 201, 409}, purchases
    # NPCs serve between runs: a purchase before the death commits is in_dungeon, after it may lack money
    assert {r.code for r in purchases if r.status == 409} <= {"not_enough_money", "in_dungeon"}
    bought = sum(r.status in (200, 201) for r in purchases)
    member = RunMember.objects.get(run=run, player=victim)
    assert member.status == MemberStatus.DEAD
    money = Player.objects.get(pk=victim.pk).money
    assert money >= 0
    assert money == 100 - 30 * bought - member.money_lost
    # the fee was 10% (rounded down) of the money at the moment of death, after some of the purchases
    assert any(member.money_lost == (100 - 30 * before) // 10 for before in range(bought + 1))
    assert NpcTrade.objects.filter(player=victim).count() == bought
    assert (
        InventoryItem.objects.filter(player=victim, item_kind=charm).count() == bought
    )  # not run items: kept


def test_a_party_grabbing_one_item_at_once_gives_it_to_exactly_one_member(live_url, monkeypatch) -> None:
    small_dungeons(rooms=4)
    bestiary()
    # (an earlier transactional test may have flushed the migrated catalog: keep one lootable kind)
    item_kind("Race Helmet", "armor", "helmet", armor=1)
    players = [PlayerFactory(strength=10), PlayerFactory(strength=10), PlayerFactory(strength=10)]
    run = started(players, monkeypatch, ["treasure", "trap", "rest", "boss"])
    loot = RunLoot.objects.filter(run=run).first()
    assert loot is not None
    url = f"{live_url}{API}/runs/{run.pk}/loot/{loot.pk}/take/"

    replies = all_at_once([partial(request, "POST", url, token(players[n % 3]), {}) for n in range(12)])

    assert Counter(r.status for r in replies) == {200: 1, 409: 11}, replies
    assert {r.code for r in replies if r.status == 409} == {"loot_taken"}
    loot.refresh_from_db()
    winner = next(
        p for p, r in zip([players[n % 3] for n in range(12)], replies, strict=True) if r.status == 200
    )
    assert loot.taken_by_id == winner.pk
    assert InventoryItem.objects.filter(acquired_in_run=run, item_kind=loot.item_kind_id).count() == 1


def test_going_on_and_leaving_at_once_from_one_step_does_exactly_one_of_them(live_url, monkeypatch) -> None:
    small_dungeons(rooms=4)
    bestiary()
    players = [PlayerFactory(), PlayerFactory()]
    run = started(players, monkeypatch, ["treasure", "trap", "rest", "boss"])
    step = run.step
    moves = ["advance", "escape"] * 8
    replies = all_at_once(
        [
            partial(
                request,
                "POST",
                f"{live_url}{API}/runs/{run.pk}/{move}/",
                token(players[n % 2]),
                {"step": step},
            )
            for n, move in enumerate(moves)
        ]
    )

    assert Counter(r.status for r in replies) == {200: 1, 409: 15}, replies
    assert {r.code for r in replies if r.status == 409} <= {"stale_step", "not_in_party"}
    won = next(move for move, r in zip(moves, replies, strict=True) if r.status == 200)
    run.refresh_from_db()
    if won == "advance":
        assert (run.status, run.step, run.room) == (RunStatus.ACTIVE, step + 1, 1)
    else:
        assert (run.status, run.step, run.room) == (RunStatus.ESCAPED, step + 1, 0)
        assert set(RunMember.objects.filter(run=run).values_list("status", flat=True)) == {
            MemberStatus.ESCAPED
        }


def test_eight_drinks_of_one_potion_between_rooms_at_once_heal_once(live_url, monkeypatch) -> None:
    # given: a member hurt by a trap (20 HP - 10) who carries one potion healing 6
    small_dungeons(rooms=5)
    bestiary()
    run_settings(trap_damage_base=10, trap_damage_per_floor=0, trap_effect_chance=0.0)
    drinker = PlayerFactory()
    salve = item_kind("Race Salve", "potion", "healing", heal=6)
    potion = InventoryItem.objects.create(player=drinker, item_kind=salve)
    run = started([drinker], monkeypatch, ["trap", "enemy", "treasure", "rest", "boss"])
    bearer = token(drinker)

    # when: eight requests drink it at the same moment
    replies = all_at_once([partial(request, "POST", f"{live_url}{API}/runs/{run.pk}/drink/", bearer,
                                   {"potion": potion.pk}) for _ in range(8)])

    # then: one drink took effect; the others found the potion gone
    assert Counter(r.status for r in replies) == {200: 1, 404: 7}, replies
    assert {r.code for r in replies if r.status == 404} == {"potion_not_found"}
    assert RunMember.objects.get(run=run, player=drinker).hp == 16
    assert not InventoryItem.objects.filter(pk=potion.pk).exists()
    assert [e["kind"] for e in Run.objects.get(pk=run.pk).log].count("potion_drunk") == 1
