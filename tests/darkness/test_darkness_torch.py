"""The torch cannot be dodged (issue 24, item 11; seed 004: one player carries it all the way, perhaps
instead of the main weapon): a darkness run has a bearer from its start to its end, chosen by the party's
formation; a bearer with both weapon slots full sets the second weapon aside and gets it back when the
run ends for them; the torch is never dropped, put away or sold while the run is on."""
from __future__ import annotations

import pytest

from darkness.models import DarknessRun, SetAsideWeapon
from dungeons.models import MemberStatus, Run, RunMember, RunStatus
from npcs.services import npc_rescue
from players.models import CarrySettings, InventoryItem, ItemKind, Player
from players.services import inventory_add
from tests.darkness.helpers import API, CORRIDOR_PATH, deadly_trap, install_maze, only
from tests.dungeons.run_helpers import (
    Party,
    assert_error,
    bestiary,
    current_battle,
    first_attack,
    guild_party,
    lobby,
)

pytestmark = pytest.mark.django_db


def _armed(player: Player) -> list[int]:
    """Two weapons in hand (both weapon slots full); their item ids, the one a battle begins with first."""
    kinds = ItemKind.objects.filter(category="weapon").order_by("pk")[:2]
    return [inventory_add(player=player, item_kind=kind, equip=True).pk for kind in kinds]


def _carried(player: Player) -> list[tuple[int, str, bool]]:
    return list(InventoryItem.objects.filter(player=player).order_by("pk")
                .values_list("pk", "item_kind__category", "equipped"))


def _start(players: list[Player], party: Party, formation: list[Player] | None = None) -> dict:
    run = lobby(players, kind="darkness")
    if formation:
        party.client(players[0]).put(f"{API}/runs/{run.pk}/formation/",
                                     {"players": [p.pk for p in formation]}, format="json")
    response = party.post(players[0], f"runs/{run.pk}/start/")
    assert response.status_code == 200, response.json()
    return response.json()


def _walk(party: Party, who: Player, run: dict, directions: list[str]) -> dict:
    for direction in directions:
        response = party.post(who, f"runs/{run['id']}/move/", {"step": run["step"], "direction": direction})
        assert response.status_code == 200, response.json()
        run = response.json()
    return run


@pytest.fixture
def corridor():
    """A two-member guild on the corridor maze, every ordinary room empty, both carrying two weapons."""
    only("empty", torch_length=30)
    players, guild = guild_party(2)
    install_maze(guild)
    arms = {p.pk: _armed(p) for p in players}
    return players, guild, Party(players), arms


def test_a_bearer_with_full_weapon_slots_sets_the_second_aside_and_gets_it_back_at_the_end(corridor) -> None:
    # given: both members carry two weapons, the host first in formation
    players, _, party, arms = corridor
    bestiary(boss_hp=1, boss_damage=1)
    first, second = arms[players[0].pk]
    # when: the run starts
    run = _start(players, party)
    # then: the first in formation bears the torch in place of their second weapon, which is kept aside
    assert run["darkness"]["torch"]["bearer"] == players[0].pk
    torch_taken = next(e for e in run["log"] if e["kind"] == "torch_taken")
    assert (torch_taken["player"], torch_taken["set_aside"]) == (players[0].pk, second)
    carried = _carried(players[0])
    assert carried[0] == (first, "weapon", True) and carried[1][1:] == ("torch", True) and len(carried) == 2
    me = party.client(players[0]).get(f"{API}/me/").json()
    assert me["carry"]["weapons"] == 2 and second not in [i["id"] for i in me["inventory"]]
    assert _carried(players[1]) == [(pk, "weapon", True) for pk in arms[players[1].pk]]  # untouched
    # when: the party walks to the heart and beats its boss
    run = _walk(party, players[0], run, CORRIDOR_PATH)
    assert party.fight(current_battle(Run.objects.get(pk=run["id"])).pk)["outcome"] == "victory"
    # then: the run is completed, the torch stays in the labyrinth and the weapon is back, the same item
    assert party.run(run["id"])["status"] == "completed"
    assert _carried(players[0]) == [(first, "weapon", True), (second, "weapon", True)]
    assert not SetAsideWeapon.objects.exists()


def test_the_party_chooses_its_bearer_by_the_formation(corridor) -> None:
    players, _, party, arms = corridor
    run = _start(players, party, formation=[players[1], players[0]])
    assert run["darkness"]["torch"]["bearer"] == players[1].pk
    assert [c[1] for c in _carried(players[1])] == ["weapon", "torch"]
    assert _carried(players[0]) == [(pk, "weapon", True) for pk in arms[players[0].pk]]


def test_an_unequipped_weapon_is_the_one_set_aside(corridor) -> None:
    players, _, party, arms = corridor
    first, second = arms[players[0].pk]
    assert party.post(players[0], f"me/inventory/{first}/unequip/").status_code == 200
    _start(players, party)
    assert next((pk, category) for pk, category, _ in _carried(players[0])) == (second, "weapon")
    assert SetAsideWeapon.objects.get().item_id == first


def test_the_torch_cannot_be_dropped_put_away_or_sold_while_the_run_is_on(corridor) -> None:
    # given: a started run; the guild has a trader who buys torches
    players, guild, party, _ = corridor
    npc_rescue(guild_id=guild.pk, kind="trader")
    run = _start(players, party)
    (torch,) = [pk for pk, category, _ in _carried(players[0]) if category == "torch"]
    before = _carried(players[0])
    # when / then: every way out is refused and nothing changes
    for method, path, code in (("delete", f"me/inventory/{torch}/", "torch_in_use"),
                               ("post", f"me/inventory/{torch}/unequip/", "torch_in_use"),
                               ("post", f"guilds/{guild.pk}/npcs/trader/sell/", "in_dungeon")):
        response = getattr(party.client(players[0]), method)(f"{API}/{path}", {"item": torch}, format="json")
        assert_error(response, 409, code)
        assert _carried(players[0]) == before
    assert party.post(players[0], f"me/inventory/{torch}/equip/").status_code == 200  # in hand already
    assert DarknessRun.objects.get(run_id=run["id"]).bearer_id == players[0].pk
    # and another member cannot touch it at all
    response = party.client(players[1]).delete(f"{API}/me/inventory/{torch}/")
    assert_error(response, 404, "inventory_item_not_found")


def test_a_dead_bearers_weapon_comes_back_and_the_next_bearer_sets_theirs_aside(corridor) -> None:
    # given: a trap that kills the bearer (no attentiveness) but not the other member
    players, _, party, arms = corridor
    deadly_trap(players[0], players[1])
    run = _start(players, party)
    # when: the party walks into the trap
    run = _walk(party, players[1], run, ["RIGHT"])
    # then: the torch passed on at once; the new bearer set their second weapon aside
    assert [m["status"] for m in run["members"]] == ["dead", "in_dungeon"]
    assert run["darkness"]["torch"]["bearer"] == players[1].pk
    first, second = arms[players[1].pk]
    assert next((pk, c) for pk, c, _ in _carried(players[1])) == (first, "weapon")
    assert [c for _, c, _ in _carried(players[1])] == ["weapon", "torch"]
    set_aside = [e["set_aside"] for e in run["log"] if e["kind"] == "torch_taken"]
    assert set_aside == [arms[players[0].pk][1], second]
    kinds = [e["kind"] for e in run["log"]]
    assert kinds[kinds.index("died"):][:2] == ["died", "torch_taken"]  # the death, then the pass
    # the dead bearer got their own weapon back (it was not found in this run) and lost no torch
    assert _carried(players[0]) == [(pk, "weapon", True) for pk in arms[players[0].pk]]
    assert RunMember.objects.get(run_id=run["id"], player=players[0]).items_lost == 0


def test_a_torch_passed_on_is_carried_whatever_the_load(corridor) -> None:
    # given: the second member's capacity leaves no room for the torch once the run is on
    players, _, party, _arms = corridor
    deadly_trap(players[0], players[1])
    run = _start(players, party)
    CarrySettings.objects.update(capacity_base=1, capacity_per_strength=0)
    # when: the bearer dies
    run = _walk(party, players[1], run, ["RIGHT"])
    # then: the other takes the torch all the same
    assert run["darkness"]["torch"]["bearer"] == players[1].pk
    assert "torch" in [c for _, c, _ in _carried(players[1])]


def test_a_first_in_formation_too_loaded_for_the_torch_is_refused_the_start(corridor) -> None:
    # given: a capacity below the torch's weight for the host, not for the other member
    players, _, party, _ = corridor
    InventoryItem.objects.filter(player__in=players).delete()
    CarrySettings.objects.update(capacity_base=1, capacity_per_strength=5)
    Player.objects.filter(pk=players[1].pk).update(strength=1)
    run = lobby(players, kind="darkness")
    # when: the host starts with themselves first
    error = assert_error(party.post(players[0], f"runs/{run.pk}/start/"), 409, "torch_bearer_cannot_carry")
    # then: refused, naming who and why; nothing changed
    assert (error["details"]["player"], error["details"]["reason"]) == (players[0].pk, "weight_limit")
    assert Run.objects.get(pk=run.pk).status == RunStatus.LOBBY and not InventoryItem.objects.exists()
    # when: the party puts the stronger member first, the run starts with them bearing it
    party.client(players[0]).put(f"{API}/runs/{run.pk}/formation/",
                                 {"players": [players[1].pk, players[0].pk]}, format="json")
    response = party.post(players[0], f"runs/{run.pk}/start/")
    assert response.status_code == 200, response.json()
    assert response.json()["darkness"]["torch"]["bearer"] == players[1].pk


def test_a_bearer_who_flees_hands_the_torch_on_at_once(corridor) -> None:
    # given: a battle in the first room; the bearer (first in formation) flees, the other fights on
    players, _, party, _arms = corridor
    only("enemy")
    bestiary(enemy_hp=100, enemy_damage=1)
    run = _start(players, party)
    run = _walk(party, players[1], run, ["RIGHT"])
    battle = current_battle(Run.objects.get(pk=run["id"]))
    for _ in range(100):
        mine = party.battle(battle.pk, who=players[1])
        if mine["awaiting"] == players[0].pk:
            break
        assert party.act(players[1], battle.pk, mine["turn"], first_attack(mine)).status_code == 200
    mine = party.battle(battle.pk, who=players[0])
    # when: the bearer flees
    assert party.act(players[0], battle.pk, mine["turn"], {"kind": "flee"}).status_code == 200
    # then: the torch is with the member inside at once, never among the fugitive's losses
    dark = DarknessRun.objects.get(run_id=run["id"])
    assert dark.bearer_id == players[1].pk
    assert RunMember.objects.get(run_id=run["id"], player=players[0]).status == MemberStatus.ESCAPED
    assert all(c != "torch" for _, c, _ in _carried(players[0]))
    assert [c for _, c, _ in _carried(players[1])] == ["weapon", "torch"]
    # the fugitive's set-aside weapon came back before the loss fraction was drawn
    assert not SetAsideWeapon.objects.filter(player=players[0]).exists()
