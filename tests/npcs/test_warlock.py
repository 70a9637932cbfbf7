"""The warlock: buffs bought between runs, claimed by the buyer's next run and applied at the start of
every battle of that run (and of no later run)."""
from __future__ import annotations

import pytest

from combat.engine import EffectSpec
from npcs.models import NpcKind, PlayerBuff, WarlockBuff
from npcs.services import npc_rescue, warlock_buffs_claim
from tests.dungeons.run_helpers import Party, guild_party
from tests.factories import api_client
from tests.npcs.helpers import API, Snapshot, assert_error, hall, money
from tests.npcs.runs import effects_of, one_floor_run, play_to_the_end

pytestmark = pytest.mark.django_db


def _buff(name: str = "Dark Vigor") -> WarlockBuff:
    return WarlockBuff.objects.get(name=name)


def test_buying_a_buff_pays_and_leaves_it_waiting_for_the_next_run() -> None:
    h = hall("warlock", money=100)
    board = h.get("warlock/buffs/").json()
    vigor = next(o for o in board["offers"] if o["name"] == "Dark Vigor")
    assert (vigor["effect"], vigor["turns"], vigor["magnitude"], vigor["price"]) == ("vigor", None, 0.15, 80)
    assert board["pending"] == []

    response = h.post(f"warlock/buffs/{vigor['id']}/buy/")

    assert response.status_code == 201, response.json()
    assert response.json()["money"] == 20 and response.json()["buff"]["effect"] == "vigor"
    assert [b["name"] for b in h.get("warlock/buffs/").json()["pending"]] == ["Dark Vigor"]
    assert money(h.player) == 20


def test_a_buff_already_waiting_is_not_sold_twice() -> None:
    h = hall("warlock", money=500)
    h.post(f"warlock/buffs/{_buff().pk}/buy/")
    before = Snapshot.of(h.player)
    assert_error(h.post(f"warlock/buffs/{_buff().pk}/buy/"), 409, "buff_already_bought")
    assert Snapshot.of(h.player) == before
    assert h.post(f"warlock/buffs/{_buff('Iron Hex').pk}/buy/").status_code == 201  # a different one is fine


def test_refusals_change_nothing() -> None:
    h = hall("warlock", money=79)
    WarlockBuff.objects.filter(name="Iron Hex").update(is_active=False)
    before = Snapshot.of(h.player)
    assert_error(h.post(f"warlock/buffs/{_buff().pk}/buy/"), 409, "not_enough_money")
    assert_error(h.post(f"warlock/buffs/{_buff('Iron Hex').pk}/buy/"), 404, "buff_not_found")
    assert_error(h.post("warlock/buffs/999999/buy/"), 404, "buff_not_found")
    assert_error(h.post(f"warlock/buffs/{_buff().pk}/buy/", player=h.outsider), 403, "not_member")
    assert Snapshot.of(h.player) == before and not PlayerBuff.objects.exists()


def test_a_run_claims_every_waiting_buff_once() -> None:
    # given: two bought buffs
    h = hall("warlock", money=500)
    h.post(f"warlock/buffs/{_buff().pk}/buy/")
    h.post(f"warlock/buffs/{_buff('Veil of Shadows').pk}/buy/")

    # when: run 11 starts (twice, as a retried start would), then run 12
    first = warlock_buffs_claim(player_id=h.player.pk, run_id=11)
    again = warlock_buffs_claim(player_id=h.player.pk, run_id=11)
    later = warlock_buffs_claim(player_id=h.player.pk, run_id=12)

    # then: run 11 has both, every time; run 12 none; the board shows nothing pending
    assert first == again == [EffectSpec("vigor", None, 0.15), EffectSpec("camouflage", 1, None)]
    assert later == []
    assert h.get("warlock/buffs/").json()["pending"] == []
    assert h.post(f"warlock/buffs/{_buff().pk}/buy/").status_code == 201  # it may be bought again


def test_a_claimed_buff_keeps_what_was_paid_for_even_if_the_designer_changes_it() -> None:
    h = hall("warlock", money=500)
    h.post(f"warlock/buffs/{_buff().pk}/buy/")
    WarlockBuff.objects.filter(pk=_buff().pk).update(magnitude=0.01)
    assert warlock_buffs_claim(player_id=h.player.pk, run_id=1) == [EffectSpec("vigor", None, 0.15)]


def test_the_buff_holds_in_every_battle_of_the_next_run_and_not_after(monkeypatch) -> None:
    # given: a member who bought Dark Vigor
    (player,), guild = guild_party(1, money=500, strength=4, stamina=6)
    npc_rescue(guild_id=guild.pk, kind="warlock")
    bought = api_client(player).post(f"{API}/guilds/{guild.pk}/npcs/warlock/buffs/{_buff().pk}/buy/")
    assert bought.status_code == 201, bought.json()
    party = Party([player])

    # when: the next run is played through
    run = one_floor_run([player], monkeypatch)
    battles = play_to_the_end(party, run.pk, player)

    # then: vigor is on the player from the start of both battles, for the whole battle
    assert len(battles) == 2 and party.run(run.pk)["status"] == "completed"
    for battle in battles:
        vigor = effects_of(battle, player)["vigor"]
        assert (vigor["turns"], vigor["magnitude"], vigor["permanent"]) == (None, 0.15, False)

    # and the run after it has no buff left
    later = one_floor_run([player], monkeypatch)
    assert all("vigor" not in effects_of(b, player) for b in play_to_the_end(party, later.pk, player))
    assert NpcKind.objects.get(slug="warlock").services == ("buffs",)
