"""A run on the protocol of battles and matches (SPEC 14): ``GET runs/{id}/?since=N`` gives the log's entries
after N with their seq, whom the run awaits and until when, and the caller's ``allowed_actions``: each one
listed succeeds when sent back unchanged to its route, and what is not listed is refused."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils.dateparse import parse_datetime

from combat.models import CombatSettings
from dungeons.models import Run, RunLoot
from dungeons.runs import store
from players.models import InventoryItem, Player
from tests.darkness.helpers import install_maze, only
from tests.dungeons.run_helpers import (
    API,
    Party,
    assert_error,
    bestiary,
    current_battle,
    first_attack,
    guild_party,
    item_kind,
    lobby,
    run_settings,
    small_dungeons,
    started,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

#: The route each kind of allowed action is sent back to, under runs/{id}/.
ROUTES = {"advance": "advance/", "escape": "escape/", "drink": "drink/", "move": "move/"}


def send_back(party: Party, who: Player, run_id: int, action: dict[str, Any]) -> Any:
    """Post an allowed action unchanged to its route."""
    if action["kind"] == "take_loot":
        return party.post(who, f"runs/{run_id}/loot/{action['loot']}/take/")
    return party.post(who, f"runs/{run_id}/{ROUTES[action['kind']]}", action)


def kinds(run: dict[str, Any]) -> list[str]:
    return [action["kind"] for action in run["allowed_actions"]]


@pytest.fixture(autouse=True)
def _steered() -> None:
    small_dungeons(rooms=5)
    bestiary(enemy_hp=20, enemy_damage=1, boss_hp=20)
    run_settings(trap_damage_base=2, trap_damage_per_floor=0, trap_effect_chance=0.0, battle_loot_chance=0.0)


def _unsaid(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: value for key, value in e.items() if key != "text"} for e in events]


def test_the_log_and_the_battles_events_share_one_sequence_and_since_shows_what_came_after(
        monkeypatch: Any) -> None:
    # given a run that went through a trap into a battle, and fought a few turns of it
    players, _ = guild_party(1)
    run = started(players, monkeypatch, ["trap", "enemy", "treasure", "rest", "boss"])
    party = Party(players)
    step = party.run(run.pk)["step"]
    assert party.post(players[0], f"runs/{run.pk}/advance/", {"step": step}).status_code == 200
    battle_id = current_battle(store_run(run.pk)).pk
    for _ in range(2):
        battle = party.battle(battle_id)
        if battle["outcome"] == "ongoing":
            assert party.act(players[0], battle_id, battle["turn"], first_attack(battle)).status_code == 200
    # when it is read without since, and after some seq
    whole = party.run(run.pk)
    log = whole["log"]
    after = party.client(players[0]).get(f"{API}/runs/{run.pk}/?since=2").json()
    # then the events are numbered 1, 2, ... with no gap: the log's entries and the battle's events
    events = whole["events"]
    assert [e["seq"] for e in events] == list(range(1, whole["last_event"] + 1))
    assert all(e["text"] for e in events) and all("text" not in entry for entry in log)
    said = _unsaid(events)
    assert [e for e in said if e["origin"] == "run"] == [{"origin": "run", **entry} for entry in log]
    fought = [e for e in _unsaid(events) if e["origin"] == "battle"]
    stored = party.battle(battle_id)["events"]
    assert [{key: value for key, value in e.items() if key not in ("seq", "origin", "battle", "battle_seq")}
            for e in fought] == [{key: value for key, value in e.items() if key not in ("seq", "text")}
                                 for e in stored]
    assert [e["battle_seq"] for e in fought] == [e["seq"] for e in stored] and fought
    assert {e["battle"] for e in fought} == {battle_id}
    # the battle's events come after its ``battle`` entry, in the order they happened
    begun = next(e["seq"] for e in events if e["origin"] == "run" and e["kind"] == "battle")
    assert fought[0]["seq"] == begun + 1
    # and the battle's own numbering is untouched; since cuts what came before
    assert after["last_event"] == whole["last_event"]
    assert after["events"] == events[2:]
    last = whole["last_event"]
    assert party.client(players[0]).get(f"{API}/runs/{run.pk}/?since={last}").json()["events"] == []
    before_last = party.client(players[0]).get(f"{API}/runs/{run.pk}/?since={last - 1}").json()
    assert before_last["events"] == events[-1:]
    # and a since past the end shows nothing, a bad one is a 400
    assert party.client(players[0]).get(f"{API}/runs/{run.pk}/?since=999").json()["events"] == []
    assert_error(party.client(players[0]).get(f"{API}/runs/{run.pk}/?since=-1"), 400, "invalid")


def store_run(run_id: int) -> Run:
    return Run.objects.get(pk=run_id)


def test_a_battle_makes_the_run_await_its_player_until_the_turns_deadline(monkeypatch: Any) -> None:
    # given a run of two in its first room's battle
    players, _ = guild_party(2)
    run = started(players, monkeypatch, ["enemy", "trap", "treasure", "rest", "boss"])
    party = Party(players)
    battle = party.battle(current_battle(run).pk)
    # when a member reads the run
    seen = party.run(run.pk, players[1])
    # then it awaits whom the battle awaits, until the battle's deadline, and offers nothing of its own
    assert battle["awaiting"] in (players[0].pk, players[1].pk)
    assert seen["awaiting"] == battle["awaiting"]
    assert parse_datetime(seen["deadline"]) == parse_datetime(battle["deadline"])
    assert seen["allowed_actions"] == []
    # and what it does not list is refused
    assert_error(party.post(players[1], f"runs/{run.pk}/advance/", {"step": seen["step"]}), 409,
                 "room_not_cleared")
    # when the battle is won, the run awaits nobody
    party.fight(battle["id"])
    after = party.run(run.pk)
    assert (after["awaiting"], after["deadline"]) == (None, None)
    assert kinds(after) == ["advance"]


def test_the_deadline_is_the_turns_start_plus_the_combat_settings_seconds(monkeypatch: Any) -> None:
    players, _ = guild_party(1)
    run = started(players, monkeypatch, ["enemy", "trap", "treasure", "rest", "boss"])
    seen = Party(players).run(run.pk)
    battle = current_battle(run)
    seconds = CombatSettings.load().turn_deadline_seconds
    assert seen["awaiting"] == battle.awaiting_id == players[0].pk
    assert parse_datetime(seen["deadline"]) == battle.turn_started_at + timedelta(seconds=seconds)


def test_every_listed_action_succeeds_sent_back_unchanged_through_a_whole_run(monkeypatch: Any) -> None:
    # given a run of two strong members through every kind of room, each carrying a potion
    players, _ = guild_party(2, strength=10, stamina=10)
    for player in players:
        tonic = item_kind(f"Tonic {player.pk}", "potion", "healing", heal=3)
        InventoryItem.objects.create(player=player, item_kind=tonic)
    run = started(players, monkeypatch, ["trap", "enemy", "treasure", "rest", "boss"])
    party = Party(players)
    seen_kinds: set[str] = set()
    for _ in range(60):
        view = party.run(run.pk, players[0])
        if view["status"] != "active":
            break
        if view["awaiting"] is not None:  # a battle: fought on its own route
            assert view["allowed_actions"] == []
            party.fight(view["current_room"]["battle"]["id"])
            continue
        allowed = view["allowed_actions"]
        seen_kinds |= set(kinds(view))
        # every member sees its own potions only
        potions = {a["potion"] for a in allowed if a["kind"] == "drink"}
        assert potions <= set(InventoryItem.objects.filter(player=players[0]).values_list("pk", flat=True))
        # take what lies here, drink once, then go on (never escape: the run goes to its end)
        order = ["take_loot", "drink", "advance"]
        action = min((a for a in allowed if a["kind"] in order), key=lambda a: order.index(a["kind"]))
        response = send_back(party, players[0], run.pk, action)
        assert response.status_code == 200, (action, response.json())
    else:
        raise AssertionError("the run did not end")
    # then the run was completed, and every kind of an ordinary run was offered on the way
    assert party.run(run.pk)["status"] == "completed"
    assert {"advance", "escape", "drink", "take_loot"} <= seen_kinds


def test_escape_is_listed_only_where_it_succeeds(monkeypatch: Any) -> None:
    # given a run standing in a trap room (no escape), then in a treasure room (escape)
    players, _ = guild_party(1)
    run = started(players, monkeypatch, ["trap", "treasure", "enemy", "rest", "boss"])
    party = Party(players)
    at_trap = party.run(run.pk)
    assert "escape" not in kinds(at_trap)
    assert_error(party.post(players[0], f"runs/{run.pk}/escape/", {"step": at_trap["step"]}), 409,
                 "cannot_escape_here")
    advance = next(a for a in at_trap["allowed_actions"] if a["kind"] == "advance")
    assert send_back(party, players[0], run.pk, advance).status_code == 200
    at_treasure = party.run(run.pk)
    escape = next(a for a in at_treasure["allowed_actions"] if a["kind"] == "escape")
    # when it is sent back, then the party is out and nothing more is offered
    assert escape == {"kind": "escape", "step": at_treasure["step"]}
    assert send_back(party, players[0], run.pk, escape).status_code == 200
    assert party.run(run.pk)["allowed_actions"] == []


def test_an_effect_potion_and_a_pickup_over_a_limit_are_not_listed(monkeypatch: Any) -> None:
    # given a member carrying two weapons, a healing and an effect potion, in a treasure room holding a weapon
    players, _ = guild_party(1)
    player = players[0]
    sword = item_kind("Listed sword", "weapon", "sword", damage=3)
    for _ in range(2):
        InventoryItem.objects.create(player=player, item_kind=sword)
    tonic = item_kind("Listed tonic", "potion", "healing", heal=3)
    healing = InventoryItem.objects.create(player=player, item_kind=tonic)
    InventoryItem.objects.create(player=player, item_kind=item_kind("Listed poison", "potion", "effect",
                                                                    effect="poison"))
    run = started(players, monkeypatch, ["treasure", "enemy", "trap", "rest", "boss"])
    RunLoot.objects.filter(run_id=run.pk).delete()
    weapon, potion = store.loot_add(run_id=run.pk, floor=0, room=0,
                                    kinds=[sword, item_kind("Lying tonic", "potion", "healing", heal=1)])
    party = Party(players)
    # when the member reads the run
    allowed = party.run(run.pk)["allowed_actions"]
    # then only the healing potion is offered to drink, and only the potion to pick up
    assert [a for a in allowed if a["kind"] == "drink"] == [{"kind": "drink", "potion": healing.pk}]
    assert [a for a in allowed if a["kind"] == "take_loot"] == [{"kind": "take_loot", "loot": potion.id}]
    # and what is not listed is refused
    assert_error(party.post(player, f"runs/{run.pk}/loot/{weapon.id}/take/"), 409, "weapon_limit")


def test_a_stranger_and_a_lobby_are_offered_nothing(monkeypatch: Any) -> None:
    players, _ = guild_party(2)
    waiting = lobby(players)
    stranger = PlayerFactory()
    seen = Party([stranger]).run(waiting.pk)
    shown = (seen["allowed_actions"], seen["awaiting"], seen["deadline"], seen["events"])
    assert shown == ([], None, None, [])


def test_a_darkness_run_offers_moves_through_open_sides_and_no_advance() -> None:
    # given a darkness run at the corridor's entrance (open to the right only), its rooms empty
    only("empty")
    players, guild = guild_party(1)
    install_maze(guild)
    party = Party(players)
    run = lobby(players, kind="darkness")
    begun = party.post(players[0], f"runs/{run.pk}/start/").json()
    step = begun["step"]
    # when the member reads it, then the one way on is offered, as the move route takes it
    assert begun["allowed_actions"] == [{"kind": "move", "step": step, "direction": "RIGHT"}]
    wall = party.post(players[0], f"runs/{run.pk}/move/", {"step": step, "direction": "DOWN"})
    assert_error(wall, 409, "wall")
    assert_error(party.post(players[0], f"runs/{run.pk}/advance/", {"step": step}), 409, "use_move")
    moved = send_back(party, players[0], run.pk, begun["allowed_actions"][0])
    assert moved.status_code == 200, moved.json()
    # and the next room, open left and down, offers both
    assert sorted(a["direction"] for a in moved.json()["allowed_actions"]) == ["DOWN", "LEFT"]
    # walking to the camp, the party may leave there (and only there)
    view = moved.json()
    for direction in ["DOWN", "LEFT", "DOWN"]:
        assert "escape" not in kinds(view)
        view = send_back(party, players[0], run.pk, {"kind": "move", "step": view["step"],
                                                     "direction": direction}).json()
    assert view["darkness"]["position"]["kind"] == "camp"
    escape = next(a for a in view["allowed_actions"] if a["kind"] == "escape")
    assert send_back(party, players[0], run.pk, escape).status_code == 200
