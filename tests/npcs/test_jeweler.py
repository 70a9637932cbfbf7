"""The jeweler: amulets made from gems (recipes) and sold (offers), and the amulet's permanent effect in
battle, both in the combat engine and in a real run."""
from __future__ import annotations

import random

import pytest

from combat.engine import BattleSetup, Combatant, EffectSpec, Kind, Weapon, start_battle
from npcs.models import JewelerRecipe, NpcTrade
from npcs.services import npc_rescue
from players.models import InventoryItem, ItemKind
from tests.dungeons.run_helpers import Party, guild_party
from tests.factories import api_client
from tests.npcs.helpers import API, Snapshot, assert_error, carry, goods, hall, inventory, money, offer
from tests.npcs.runs import effects_of, one_floor_run, play_to_the_end

pytestmark = pytest.mark.django_db


def _recipe(amulet: str) -> JewelerRecipe:
    return JewelerRecipe.objects.get(amulet__name=amulet)


def _item(name: str) -> ItemKind:
    return ItemKind.objects.get(name=name)


def test_the_jeweler_makes_an_amulet_from_gems() -> None:
    # given: two rubies (and a sapphire the recipe does not need) and 100 coins
    h = hall("jeweler", money=100)
    carry(h.player, _item("Rough Ruby"), 2)
    (sapphire,) = carry(h.player, _item("Sapphire"))
    recipe = _recipe("Amulet of Vigor")
    listed = next(r for r in h.get("jeweler/recipes/").json() if r["id"] == recipe.pk)
    assert (listed["fee"], listed["amulet"]["effect"]) == (80, "vigor")
    assert [(m["item_kind"]["name"], m["quantity"]) for m in listed["materials"]] == [("Rough Ruby", 2)]

    # when
    response = h.post(f"jeweler/recipes/{recipe.pk}/craft/")

    # then: the rubies and the fee are gone, the amulet is carried
    assert response.status_code == 201, response.json()
    assert (response.json()["price"], response.json()["money"]) == (80, 20)
    amulet = _item("Amulet of Vigor")
    crafted = response.json()["item"]["id"]
    assert inventory(h.player) == [(sapphire.pk, sapphire.item_kind_id), (crafted, amulet.pk)]
    assert NpcTrade.objects.get(player=h.player, action="craft").item_kind_id == amulet.pk


def test_the_jeweler_sells_amulets() -> None:
    h = hall("jeweler", money=400)
    offers = h.get("jeweler/offers/").json()
    blessing = next(o for o in offers if o["item_kind"]["name"] == "Amulet of Blessing")
    response = h.post(f"jeweler/offers/{blessing['id']}/buy/")
    assert response.status_code == 201, response.json()
    assert money(h.player) == 0
    assert InventoryItem.objects.get(player=h.player).item_kind.category == "amulet"


def test_crafting_without_the_gems_changes_nothing() -> None:
    h = hall("jeweler", money=500)
    carry(h.player, _item("Rough Ruby"))
    before = Snapshot.of(h.player)
    crafted = h.post(f"jeweler/recipes/{_recipe('Amulet of Vigor').pk}/craft/")
    error = assert_error(crafted, 409, "missing_materials")
    assert error["details"]["missing"] == [
        {"item_kind": _item("Rough Ruby").pk, "name": "Rough Ruby", "needed": 2, "held": 1}]
    assert Snapshot.of(h.player) == before


def test_crafting_without_the_fee_keeps_the_gems() -> None:
    h = hall("jeweler", money=59)
    carry(h.player, _item("Rough Ruby"))
    before = Snapshot.of(h.player)
    crafted = h.post(f"jeweler/recipes/{_recipe('Amulet of the Fearless').pk}/craft/")
    assert_error(crafted, 409, "not_enough_money")
    assert Snapshot.of(h.player) == before


def test_an_amulet_too_heavy_to_carry_is_not_made_and_nothing_is_taken() -> None:
    # given: a heavy amulet recipe and a member already carrying nearly the capacity (40)
    h = hall("jeweler", money=500)
    heavy = goods("amulet", name="Millstone Amulet", weight=15)
    recipe = JewelerRecipe.objects.create(amulet=heavy, fee=10)
    recipe.materials.create(item_kind=_item("Rough Ruby"), quantity=1)
    carry(h.player, _item("Rough Ruby"))
    carry(h.player, goods("special", "carpenters_tools", weight=30))
    before = Snapshot.of(h.player)

    # when / then: 31 - 1 (the ruby) + 15 > 40
    error = assert_error(h.post(f"jeweler/recipes/{recipe.pk}/craft/"), 409, "weight_limit")
    assert error["details"]["limit"] == 40
    assert Snapshot.of(h.player) == before


def test_inactive_unknown_recipes_and_outsiders_are_refused() -> None:
    h = hall("jeweler", money=500)
    JewelerRecipe.objects.filter(pk=_recipe("Amulet of Mending").pk).update(is_active=False)
    assert_error(h.post(f"jeweler/recipes/{_recipe('Amulet of Mending').pk}/craft/"), 404, "recipe_not_found")
    assert_error(h.post("jeweler/recipes/999999/craft/"), 404, "recipe_not_found")
    assert_error(h.get("jeweler/recipes/", player=h.outsider), 403, "not_member")


# --- the amulet in battle ----------------------------------------------------------------------------------

def test_a_crafted_amulets_effect_is_permanent_in_the_combat_engine() -> None:
    # given: the amulet the jeweler made, as the runs put it on the carrier's combatant
    h = hall("jeweler", money=500)
    carry(h.player, _item("Sapphire"), 2)
    crafted = h.post(f"jeweler/recipes/{_recipe('Amulet of Blessing').pk}/craft/").json()["item"]
    spec = InventoryItem.objects.get(pk=crafted["id"]).item_kind.effect_spec()
    assert spec == EffectSpec("blessing", None, None, 1.0)
    hero = Combatant(id="p1", kind=Kind.PLAYER, name="Hero", hp=30, max_hp=30, weapons=(Weapon("Sword", 5),),
                     amulets=(spec,))
    rat = Combatant(id="e1", kind=Kind.ENEMY, name="Rat", hp=5, max_hp=5, weapons=(Weapon("Teeth", 1),))

    # when: the battle starts, and a curse comes at the carrier as a starting effect
    curse = ("p1", EffectSpec("curse", turns=3))
    setup = BattleSetup(players=(hero,), enemies=(rat,), starting_effects=(curse,))
    state = start_battle(setup, seed=7, rng=random.Random(7)).state

    # then: the blessing is there for the whole battle, and the curse could not land
    effects = {e.name: e for e in state.get("p1").effects}
    assert effects["blessing"].permanent and effects["blessing"].turns is None
    assert "curse" not in effects


def test_a_bought_amulet_holds_in_every_battle_of_a_real_run(monkeypatch) -> None:
    # given: a member who bought the Amulet of Warding from the guild's jeweler
    (player,), guild = guild_party(1, money=400, strength=4, stamina=6)
    npc_rescue(guild_id=guild.pk, kind="jeweler")
    warding = offer("jeweler", goods("amulet", name="Test Warding", effect="resilience", effect_magnitude=0.1,
                                     price=300))
    bought = api_client(player).post(f"{API}/guilds/{guild.pk}/npcs/jeweler/offers/{warding.pk}/buy/")
    assert bought.status_code == 201, bought.json()

    # when: a run is played through
    run = one_floor_run([player], monkeypatch)
    battles = play_to_the_end(Party([player]), run.pk, player)

    # then: resilience is permanent on the player in both battles
    assert len(battles) == 2
    for battle in battles:
        resilience = effects_of(battle, player)["resilience"]
        assert (resilience["permanent"], resilience["turns"], resilience["magnitude"]) == (True, None, 0.1)
