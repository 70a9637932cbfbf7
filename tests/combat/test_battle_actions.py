"""Battles over REST: whose turn, turn numbers, idempotency keys, refusals, potions, flight, death.

Each battle is the first room of a one-floor run of two players against one sturdy test rat
(30 HP, 1 damage), so it stays on while the rules are probed. Every refusal is checked with its
status and code, and against a snapshot of the battle (step, events, actions, HP, inventories).
"""

from __future__ import annotations

from typing import Any

import pytest

from combat.engine import setup_from_dict
from combat.models import Battle, BattleAction, BattleEvent
from dungeons import run_rules
from dungeons.models import MemberStatus, Run, RunMember, RunStatus
from players.models import InventoryItem, Player
from tests.dungeons.run_helpers import (
    API,
    Party,
    assert_error,
    bestiary,
    current_battle,
    item_kind,
    log_kinds,
    small_dungeons,
    started,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

ENEMY_FIRST = ["enemy", "trap", "treasure", "rest", "boss"]


@pytest.fixture(autouse=True)
def _steered() -> None:
    small_dungeons(rooms=5)
    bestiary(enemy_hp=30, enemy_damage=1, boss_hp=30)


def _battle_of(players: list[Player], monkeypatch: Any, rooms: list[str] = ENEMY_FIRST) -> tuple[Run, Battle]:
    run = started(players, monkeypatch, rooms)
    return run, current_battle(run)


def _snapshot(battle: Battle) -> tuple:
    battle.refresh_from_db()
    return (
        battle.step,
        battle.event_count,
        battle.outcome,
        battle.awaiting_id,
        battle.state,
        BattleEvent.objects.filter(battle=battle).count(),
        BattleAction.objects.filter(battle=battle).count(),
        list(InventoryItem.objects.order_by("pk").values_list("pk", "player_id")),
        list(RunMember.objects.order_by("pk").values_list("status", "hp", "stat_boosts")),
    )


def _awaited(battle: Battle, players: list[Player]) -> tuple[Player, Player]:
    """(the player whose turn it is, the other one)."""
    battle.refresh_from_db()
    first = next(p for p in players if p.pk == battle.awaiting_id)
    return first, next(p for p in players if p.pk != first.pk)


# --- whose turn, which turn ---------------------------------------------------------------------------


def test_the_battle_shows_whose_turn_it_is_and_only_that_player_has_actions(monkeypatch) -> None:
    players = [PlayerFactory(), PlayerFactory()]
    _run, battle = _battle_of(players, monkeypatch)
    party = Party(players)
    now, other = _awaited(battle, players)

    mine, theirs = party.battle(battle.pk, now), party.battle(battle.pk, other)

    assert mine["awaiting"] == now.pk == theirs["awaiting"]
    assert mine["turn"] == battle.step and mine["deadline"] is not None
    kinds = {a["kind"] for a in mine["allowed_actions"]}
    assert kinds == {"attack", "skip", "flee"}
    assert theirs["allowed_actions"] == []
    assert sorted(c["id"] for c in mine["combatants"]) == sorted([f"p{now.pk}", f"p{other.pk}", "e1"])
    assert [e["seq"] for e in mine["events"]] == list(range(1, mine["last_event"] + 1))
    assert party.battle(battle.pk, now, since=mine["last_event"])["events"] == []


def test_acting_out_of_turn_is_not_your_turn_and_changes_nothing(monkeypatch) -> None:
    players = [PlayerFactory(), PlayerFactory()]
    _, battle = _battle_of(players, monkeypatch)
    party = Party(players)
    _, other = _awaited(battle, players)
    before = _snapshot(battle)

    for action in ({"kind": "attack", "target": "e1"}, {"kind": "skip"}, {"kind": "flee"}):
        error = assert_error(party.act(other, battle.pk, battle.step, action), 409, "not_your_turn")
        assert error["details"] == {"turn": battle.step}

    assert _snapshot(battle) == before


def test_an_action_for_another_turn_is_stale_turn_and_changes_nothing(monkeypatch) -> None:
    players = [PlayerFactory(), PlayerFactory()]
    _, battle = _battle_of(players, monkeypatch)
    party = Party(players)
    now, _ = _awaited(battle, players)
    before = _snapshot(battle)

    for turn in (battle.step - 1, battle.step + 1, 0):
        error = assert_error(
            party.act(now, battle.pk, turn, {"kind": "attack", "target": "e1"}), 409, "stale_turn"
        )
        assert error["details"] == {"turn": turn, "current_turn": battle.step}

    assert _snapshot(battle) == before


def test_an_accepted_action_answers_with_its_events_and_the_next_turn(monkeypatch) -> None:
    players = [PlayerFactory(), PlayerFactory()]
    _, battle = _battle_of(players, monkeypatch)
    party = Party(players)
    now, _ = _awaited(battle, players)
    turn, last = battle.step, battle.event_count

    response = party.act(now, battle.pk, turn, {"kind": "attack", "target": "e1"}, key="k-1")

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["turn"], body["first_event"], body["replayed"], body["outcome"]) == (
        turn,
        last + 1,
        False,
        "ongoing",
    )
    assert body["next_turn"] > turn
    assert body["events"][0] == {
        "kind": "attack",
        "actor": f"p{now.pk}",
        "target": "e1",
        "weapon": body["events"][0]["weapon"],
        "text": f"{now.display_name} attacks Test Rat with {body['events'][0]['weapon']}.",
    }
    battle.refresh_from_db()
    assert battle.step == body["next_turn"] and battle.event_count == last + len(body["events"])
    stored = BattleAction.objects.get(battle=battle, step=turn)
    assert (stored.player_id, stored.idempotency_key, stored.action) == (
        now.pk,
        "k-1",
        {"kind": "attack", "actor": f"p{now.pk}", "target": "e1"},
    )
    # the event log since the last one the client saw is exactly what the action produced
    since = party.battle(battle.pk, now, since=last)["events"]
    assert [{k: v for k, v in e.items() if k != "seq"} for e in since] == body["events"]


# --- idempotency ----------------------------------------------------------------------------------


def test_a_retry_with_the_same_idempotency_key_gets_the_original_answer_and_no_second_effect(
    monkeypatch,
) -> None:
    players = [PlayerFactory(), PlayerFactory()]
    _, battle = _battle_of(players, monkeypatch)
    party = Party(players)
    now, other = _awaited(battle, players)
    turn = battle.step

    original = party.act(now, battle.pk, turn, {"kind": "attack", "target": "e1"}, key="retry-me").json()
    after = _snapshot(battle)

    # the same request again, and the same key with a different body: the original answer, replayed
    for action in ({"kind": "attack", "target": "e1"}, {"kind": "skip"}):
        replay = party.act(now, battle.pk, turn, action, key="retry-me")
        assert replay.status_code == 200, replay.json()
        assert replay.json() == {**original, "replayed": True}
    assert _snapshot(battle) == after
    # without the key the duplicate is a stale turn
    assert_error(party.act(now, battle.pk, turn, {"kind": "attack", "target": "e1"}), 409, "stale_turn")
    assert _snapshot(battle) == after
    # another player's keys are their own: the same key is a new action for them, not a replay
    battle.refresh_from_db()
    assert battle.awaiting_id == other.pk
    theirs = party.act(other, battle.pk, battle.step, {"kind": "skip"}, key="retry-me")
    assert theirs.status_code == 200, theirs.json()
    assert theirs.json()["replayed"] is False and theirs.json()["turn"] == battle.step
    assert BattleAction.objects.filter(battle=battle, idempotency_key="retry-me").count() == 2


# --- refusals -------------------------------------------------------------------------------------


def test_another_partys_battle_is_404_for_reading_and_acting(monkeypatch) -> None:
    players = [PlayerFactory()]
    _, battle = _battle_of(players, monkeypatch)
    outsider = PlayerFactory()
    started([outsider], monkeypatch, ENEMY_FIRST)  # in a battle of their own
    party = Party([outsider])
    before = _snapshot(battle)

    assert_error(party.client(outsider).get(f"{API}/battles/{battle.pk}/"), 404, "battle_not_found")
    assert_error(party.act(outsider, battle.pk, battle.step, {"kind": "skip"}), 404, "battle_not_found")
    assert_error(
        party.act(outsider, battle.pk, battle.step, {"kind": "skip"}, key="x"), 404, "battle_not_found"
    )
    assert_error(party.client(outsider).get(f"{API}/battles/987654/"), 404, "battle_not_found")
    assert _snapshot(battle) == before


def test_bad_action_bodies_are_400(monkeypatch) -> None:
    players = [PlayerFactory()]
    _, battle = _battle_of(players, monkeypatch)
    party = Party(players)
    before = _snapshot(battle)

    for body in (
        {"action": {"kind": "skip"}},
        {"turn": battle.step, "action": {"kind": "dance"}},
        {"turn": -1, "action": {"kind": "skip"}},
        {"turn": battle.step},
    ):
        response = party.post(players[0], f"battles/{battle.pk}/actions/", body)
        assert response.status_code == 400, (body, response.json())
        assert set(response.json()) == {"error"}
    assert_error(
        party.act(players[0], battle.pk, battle.step, {"kind": "switch_weapon"}), 400, "invalid_action"
    )
    assert_error(
        party.act(players[0], battle.pk, battle.step, {"kind": "attack", "target": "e9"}),
        409,
        "unknown_target",
    )
    assert_error(
        party.act(players[0], battle.pk, battle.step, {"kind": "attack", "target": f"p{players[0].pk}"}),
        409,
        "not_an_enemy",
    )
    assert_error(
        party.act(players[0], battle.pk, battle.step, {"kind": "switch_weapon", "slot": 1}),
        409,
        "no_such_weapon",
    )
    assert _snapshot(battle) == before


def test_drinking_a_potion_one_does_not_hold_is_no_such_potion(monkeypatch) -> None:
    # given: the second member brought a potion into the battle; the first brought none
    thirsty, holder = PlayerFactory(), PlayerFactory()
    theirs = InventoryItem.objects.create(
        player=holder, item_kind=item_kind("Test Tonic", "potion", "healing", heal=5)
    )
    run = started([thirsty, holder], monkeypatch, ENEMY_FIRST)
    battle = current_battle(run)
    party = Party([thirsty, holder])
    if battle.awaiting_id == holder.pk:
        assert party.act(holder, battle.pk, battle.step, {"kind": "skip"}).status_code == 200
        battle.refresh_from_db()
    assert battle.awaiting_id == thirsty.pk
    holder_in_battle = next(c for c in party.battle(battle.pk)["combatants"] if c["id"] == f"p{holder.pk}")
    assert holder_in_battle["potions"] == [{"id": str(theirs.pk), "kind": "healing"}]
    before = _snapshot(battle)

    # when / then: another member's potion, or one nobody has, cannot be drunk
    for potion in (str(theirs.pk), "999999", "e1"):
        assert_error(
            party.act(thirsty, battle.pk, battle.step, {"kind": "drink", "potion": potion}),
            409,
            "no_such_potion",
        )
    assert party.act(thirsty, battle.pk, battle.step, {"kind": "drink", "potion": ""}).status_code == 400

    assert _snapshot(battle) == before


def test_a_drunk_healing_potion_is_free_and_leaves_the_inventory(monkeypatch) -> None:
    # given: a member carrying a healing potion, hurt by a trap before the battle
    bestiary(enemy_hp=30, enemy_damage=1)
    from tests.dungeons.run_helpers import run_settings

    run_settings(trap_damage_base=10, trap_effect_chance=0.0, room_regen_per_metabolism=0)
    drinker = PlayerFactory()
    potion = InventoryItem.objects.create(
        player=drinker, item_kind=item_kind("Test Salve", "potion", "healing", heal=6)
    )
    run = started([drinker], monkeypatch, ["trap", "enemy", "treasure", "rest", "boss"])
    party = Party([drinker])
    state = party.post(drinker, f"runs/{run.pk}/advance/", {"step": run.step}).json()
    battle = Battle.objects.get(pk=state["current_room"]["battle"]["id"])
    me = next(c for c in party.battle(battle.pk)["combatants"] if c["id"] == f"p{drinker.pk}")
    assert me["potions"] == [{"id": str(potion.pk), "kind": "healing"}]

    response = party.act(drinker, battle.pk, battle.step, {"kind": "drink", "potion": str(potion.pk)})

    assert response.status_code == 200, response.json()
    assert [e["kind"] for e in response.json()["events"]] == ["potion_drunk", "healed"]
    after = party.battle(battle.pk)
    assert after["awaiting"] == drinker.pk  # drinking does not use the turn
    me_after = next(c for c in after["combatants"] if c["id"] == f"p{drinker.pk}")
    assert me_after["hp"] == min(me["max_hp"], me["hp"] + 6) and me_after["potions"] == []
    assert not InventoryItem.objects.filter(pk=potion.pk).exists()
    assert_error(
        party.act(drinker, battle.pk, after["turn"], {"kind": "drink", "potion": str(potion.pk)}),
        409,
        "no_such_potion",
    )


def test_a_haste_potion_gives_the_drinker_an_extra_turn_with_its_own_ticking(monkeypatch) -> None:
    # given: a lone member carrying a haste potion (1 turn) against the sturdy rat
    hasty = PlayerFactory()
    potion = InventoryItem.objects.create(
        player=hasty,
        item_kind=item_kind("Test Quicksilver", "potion", "effect", effect="haste", effect_turns=1),
    )
    _, battle = _battle_of([hasty], monkeypatch)
    party = Party([hasty])
    drink = {"kind": "drink", "potion": str(potion.pk)}
    assert party.act(hasty, battle.pk, battle.step, drink).status_code == 200
    battle.refresh_from_db()

    # when: the member attacks (the regular turn ends)
    first = party.act(hasty, battle.pk, battle.step, {"kind": "attack", "target": "e1"})

    # then: the turn ends, haste ticks out, and the same member takes an extra turn before the rat
    kinds = [e["kind"] for e in first.json()["events"]]
    assert kinds[-4:] == ["effect_expired", "turn_ended", "extra_turn", "turn_started"]
    assert first.json()["events"][-1]["actor"] == f"p{hasty.pk}"
    view = party.battle(battle.pk)
    assert view["awaiting"] == hasty.pk and view["turn"] == first.json()["next_turn"]
    # the extra turn is a whole turn: it ends, and the rat acts before the member's next one
    second = party.act(hasty, battle.pk, view["turn"], {"kind": "skip"})
    kinds = [e["kind"] for e in second.json()["events"]]
    assert "extra_turn" not in kinds and kinds[:2] == ["turn_skipped", "turn_ended"]
    assert next(e for e in second.json()["events"] if e["kind"] == "turn_started")["actor"] == "e1"


def test_a_finished_battle_refuses_every_action_with_battle_over(monkeypatch) -> None:
    bestiary(enemy_hp=1, enemy_damage=1)
    players = [PlayerFactory(strength=10)]
    _, battle = _battle_of(players, monkeypatch)
    party = Party(players)
    last = party.act(players[0], battle.pk, battle.step, {"kind": "attack", "target": "e1"}, key="win")
    while last.json()["outcome"] == "ongoing":  # a miss: attack again
        last = party.act(players[0], battle.pk, last.json()["next_turn"], {"kind": "attack", "target": "e1"})
    assert last.json()["outcome"] == "victory"
    before = _snapshot(battle)

    for turn in (battle.step, last.json()["next_turn"]):
        error = assert_error(party.act(players[0], battle.pk, turn, {"kind": "skip"}), 409, "battle_over")
        assert error["details"] == {"outcome": "victory"}
    assert party.battle(battle.pk)["allowed_actions"] == []
    assert _snapshot(battle) == before


def test_nobody_flees_a_boss(monkeypatch) -> None:
    players = [PlayerFactory(stamina=5)]
    small_dungeons(rooms=2)
    run = started(players, monkeypatch, ["rest", "boss"])
    party = Party(players)
    state = party.post(players[0], f"runs/{run.pk}/advance/", {"step": run.step}).json()
    battle = Battle.objects.get(pk=state["current_room"]["battle"]["id"])
    assert "flee" not in {a["kind"] for a in party.battle(battle.pk)["allowed_actions"]}
    before = _snapshot(battle)

    assert_error(party.act(players[0], battle.pk, battle.step, {"kind": "flee"}), 409, "cannot_flee_boss")

    assert _snapshot(battle) == before


# --- stat potions ---------------------------------------------------------------------------------


def test_stat_potions_last_for_the_rest_of_the_run(monkeypatch) -> None:
    # given: a member carrying a strength draught and a stamina draught (+2 each)
    bestiary(enemy_hp=2, enemy_damage=1, boss_hp=2)
    ox = item_kind("Test Ox Draught", "potion", "stat", stat="strength", stat_amount=2)
    troll = item_kind("Test Troll Blood", "potion", "stat", stat="stamina", stat_amount=2)
    drinker = PlayerFactory(strength=1, stamina=0)
    InventoryItem.objects.create(player=drinker, item_kind=ox)
    InventoryItem.objects.create(player=drinker, item_kind=troll)
    run, battle = _battle_of([drinker], monkeypatch, ["enemy", "treasure", "trap", "rest", "boss"])
    party = Party([drinker])

    # when: both are drunk in the first battle, which is then won
    for potion in InventoryItem.objects.filter(player=drinker, item_kind__sub_kind="stat").order_by("pk"):
        response = party.act(
            drinker, battle.pk, party.battle(battle.pk)["turn"], {"kind": "drink", "potion": str(potion.pk)}
        )
        assert response.status_code == 200, response.json()
    assert party.fight(battle.pk)["outcome"] == "victory"

    # then: the run remembers the boosts and the higher maximum HP
    member = RunMember.objects.get(run=run, player=drinker)
    assert member.stat_boosts == {"strength": 2, "stamina": 2}
    assert member.max_hp == 20 + 2 * 5
    assert not InventoryItem.objects.filter(player=drinker, item_kind__sub_kind="stat").exists()
    drinker.refresh_from_db()
    assert (drinker.strength, drinker.stamina) == (1, 0)  # permanent stats are untouched
    # and the next battle (the boss) starts with them
    from tests.dungeons.run_helpers import run_settings

    run_settings(trap_damage_base=0, trap_damage_per_floor=0)
    while party.run(run.pk)["current_room"]["kind"] != "boss":
        run.refresh_from_db()
        assert party.post(drinker, f"runs/{run.pk}/advance/", {"step": run.step}).status_code == 200
    boss_battle = Battle.objects.get(pk=party.run(run.pk)["current_room"]["battle"]["id"])
    me = next(p for p in setup_from_dict(boss_battle.setup).players if p.id == f"p{drinker.pk}")
    assert (me.stats.strength, me.stats.stamina, me.max_hp) == (3, 2, 30)


# --- a single member's flight ----------------------------------------------------------------------------


def test_one_member_flees_losing_the_seeded_fraction_while_the_other_fights_on(monkeypatch) -> None:
    # given: a runner with luck 3 + attentiveness 2 (loss 80 - 25 = 55%) carrying four gems
    runner, stayer = PlayerFactory(luck=3, attentiveness=2), PlayerFactory(strength=10)
    gem = item_kind("Test Gem", "special", "gem")
    carried = [InventoryItem.objects.create(player=runner, item_kind=gem).pk for _ in range(4)]
    run, battle = _battle_of([runner, stayer], monkeypatch)
    party = Party([runner, stayer])
    while battle.awaiting_id != runner.pk:  # let the stayer skip until it is the runner's turn
        assert party.act(stayer, battle.pk, battle.step, {"kind": "skip"}).status_code == 200
        battle.refresh_from_db()

    # when
    response = party.act(runner, battle.pk, battle.step, {"kind": "flee"})

    # then: 55% of 4 = 2.2 -> 2 items lost, the seeded choice for this battle and player
    assert response.status_code == 200, response.json()
    assert response.json()["events"][0] == {"kind": "fled", "actor": f"p{runner.pk}",
                                            "text": f"{runner.display_name} flees the battle."}
    assert response.json()["outcome"] == "ongoing"
    member = RunMember.objects.get(run=run, player=runner)
    assert (member.status, member.active, member.items_lost) == (MemberStatus.ESCAPED, False, 2)
    rng = run_rules.room_rng(run.seed, 0, 0, f"flee/{battle.pk}/{runner.pk}")
    gone = run_rules.escape_losses(carried, percent=55, rng=rng)
    assert len(gone) == 2
    assert sorted(InventoryItem.objects.filter(player=runner).values_list("pk", flat=True)) == sorted(
        set(carried) - set(gone)
    )
    escaped = [{k: v for k, v in e.items() if k != "seq"}  # its number in the run's one sequence
               for e in Run.objects.get(pk=run.pk).log if e["kind"] == "escaped"]
    assert escaped == [
        {"kind": "escaped", "floor": 0, "room": 0, "player": runner.pk, "loss_percent": 55, "items_lost": 2}
    ]
    # the runner is out: no more turns; the stayer fights on and wins the room
    assert_error(
        party.act(runner, battle.pk, party.battle(battle.pk)["turn"], {"kind": "skip"}), 409, "not_your_turn"
    )
    final = party.fight(battle.pk)
    assert final["outcome"] == "victory"
    run.refresh_from_db()
    assert run.status == RunStatus.ACTIVE and run.room_cleared
    assert RunMember.objects.get(run=run, player=stayer).status == MemberStatus.IN_DUNGEON
    # the runner can still read the battle they left
    assert party.battle(battle.pk, runner)["outcome"] == "victory"


def test_a_second_flight_in_the_same_battle_is_refused_and_changes_nothing(monkeypatch) -> None:
    # given: a party of three; the first awaited member flees
    players = [PlayerFactory(), PlayerFactory(), PlayerFactory()]
    run, battle = _battle_of(players, monkeypatch)
    party = Party(players)
    runner, _ = _awaited(battle, players)
    assert party.act(runner, battle.pk, battle.step, {"kind": "flee"}).status_code == 200
    battle.refresh_from_db()
    second = next(p for p in players if p.pk == battle.awaiting_id)
    assert "flee" not in {a["kind"] for a in party.battle(battle.pk, second)["allowed_actions"]}
    before = _snapshot(battle)

    # when: the next member tries to flee too
    response = party.act(second, battle.pk, battle.step, {"kind": "flee"})

    # then: 409 flight_already_taken, nothing changed, and the two others fight on to victory
    error = assert_error(response, 409, "flight_already_taken")
    assert error["details"] == {"turn": battle.step}
    assert _snapshot(battle) == before
    assert party.fight(battle.pk)["outcome"] == "victory"
    statuses = dict(RunMember.objects.filter(run=run).values_list("player_id", "status"))
    assert sorted(statuses.values()) == sorted([MemberStatus.ESCAPED] + [MemberStatus.IN_DUNGEON] * 2)
    assert Run.objects.get(pk=run.pk).status == RunStatus.ACTIVE


def test_the_last_member_fleeing_ends_the_run_as_escaped(monkeypatch) -> None:
    runner = PlayerFactory()
    run, battle = _battle_of([runner], monkeypatch)
    party = Party([runner])

    response = party.act(runner, battle.pk, battle.step, {"kind": "flee"})

    assert response.json()["outcome"] == "escaped"
    run.refresh_from_db()
    assert run.status == RunStatus.ESCAPED and log_kinds(run)[-2:] == ["battle_over", "escaped"]
    assert not RunMember.objects.filter(run=run, active=True).exists()


# --- death in battle ------------------------------------------------------------------------------


def test_a_member_killed_in_battle_respawns_through_charon_and_the_others_fight_on(monkeypatch) -> None:
    # given: a rat that kills a 20-HP member in one bite, and a member it cannot kill soon
    bestiary(enemy_hp=200, enemy_damage=25)
    frail = PlayerFactory(stamina=0, money=555)
    tank = PlayerFactory(stamina=200, money=40)
    run = started([frail, tank], monkeypatch, ENEMY_FIRST, weapons=True)
    battle = current_battle(run)
    party = Party([frail, tank])

    # when: both skip until the rat has bitten the frail member
    for _ in range(100):
        if RunMember.objects.get(run=run, player=frail).status == MemberStatus.DEAD:
            break
        battle.refresh_from_db()
        awaited = frail if battle.awaiting_id == frail.pk else tank
        assert party.act(awaited, battle.pk, battle.step, {"kind": "skip"}).status_code == 200

    # then: the frail member paid 55 of 555, lost the starting weapon; the battle goes on with the tank
    member = RunMember.objects.get(run=run, player=frail)
    assert (member.status, member.active, member.hp, member.money_lost, member.items_lost) == (
        MemberStatus.DEAD,
        False,
        0,
        55,
        1,
    )
    assert Player.objects.get(pk=frail.pk).money == 500
    assert not InventoryItem.objects.filter(player=frail).exists()
    battle.refresh_from_db()
    assert battle.outcome == "ongoing" and battle.awaiting_id == tank.pk
    run.refresh_from_db()
    assert run.status == RunStatus.ACTIVE
    assert {
        "kind": "died",
        "floor": 0,
        "room": 0,
        "player": frail.pk,
        "charon_fee": 55,
        "items_lost": 1,
    } in [{k: v for k, v in e.items() if k != "seq"} for e in run.log]
    assert Player.objects.get(pk=tank.pk).money == 40
