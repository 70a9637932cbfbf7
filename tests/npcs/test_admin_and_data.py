"""The economy as admin data: the migrated defaults, the admin's search and filters, and the validation
that keeps a designer's rows usable (shops sell their goods, no buy-back profit, potion seller > trader)."""
from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from combat.models import EnemyKind
from dungeons.generation import NPC_KINDS
from npcs import rules
from npcs.models import (
    BountyQuest,
    BuyRate,
    JewelerRecipe,
    NpcKind,
    NpcSettings,
    PlayerBounty,
    ShopOffer,
    StoneValue,
    Structure,
    WarlockBuff,
)
from npcs.services import npc_rescue
from players.models import ItemKind
from tests.npcs.helpers import carry, goods, hall

pytestmark = pytest.mark.django_db


# --- the migrated defaults ------------------------------------------------------------------------------

def test_every_npc_kind_is_loaded_with_one_rank_point_for_a_rescue() -> None:
    kinds = dict(NpcKind.objects.values_list("slug", "rank_points"))
    assert set(kinds) == set(rules.INITIAL_KINDS) | set(NPC_KINDS)
    assert {kinds[slug] for slug in NPC_KINDS} == {1}
    assert {kinds[slug] for slug in rules.INITIAL_KINDS} == {0}
    assert NpcSettings.load().junk_dealer_offer_base == 3


def test_the_migrated_economy_is_consistent() -> None:
    for offer in ShopOffer.objects.select_related("npc", "item_kind"):
        offer.full_clean()  # fits the shop, priced at least at the catalog price
    for rate in BuyRate.objects.select_related("npc"):
        rate.full_clean()
    potion = {r.npc.slug: r.rate_percent for r in BuyRate.objects.filter(category="potion", sub_kind="")}
    assert potion["potion_seller"] > potion["trader"]
    assert {s.effect for s in Structure.objects.all()} == set(rules.STRUCTURE_EFFECTS)
    assert all(s.materials.exists() for s in Structure.objects.all())
    assert all(r.materials.exists() and r.amulet.category == "amulet" for r in JewelerRecipe.objects.all())
    assert WarlockBuff.objects.count() == 7 and BountyQuest.objects.count() == 12
    assert dict(StoneValue.objects.values_list("item_kind__name", "points")) == {"Glowing Pebble": 1,
                                                                                "Runestone": 3}


# --- validation ---------------------------------------------------------------------------------------

def test_a_shop_offer_must_fit_the_shop_and_not_undercut_the_catalog() -> None:
    axe = goods("weapon", "axe", price=50)
    smith, bowyer = NpcKind.objects.get(slug="weaponsmith"), NpcKind.objects.get(slug="bowyer")
    ShopOffer(npc=smith, item_kind=axe, price=50).full_clean()
    with pytest.raises(ValidationError) as wrong_shop:
        ShopOffer(npc=bowyer, item_kind=axe, price=50).full_clean()
    assert "item_kind" in wrong_shop.value.message_dict
    with pytest.raises(ValidationError) as too_cheap:
        ShopOffer(npc=smith, item_kind=axe, price=49).full_clean()
    assert "price" in too_cheap.value.message_dict


def test_the_potion_seller_must_keep_paying_more_for_potions_than_the_trader() -> None:
    trader = BuyRate.objects.get(npc__slug="trader", category="potion", sub_kind="")
    seller = BuyRate.objects.get(npc__slug="potion_seller", category="potion", sub_kind="")
    seller.rate_percent = trader.rate_percent
    with pytest.raises(ValidationError):
        seller.full_clean()
    trader.rate_percent = 60
    with pytest.raises(ValidationError):
        trader.full_clean()
    trader.rate_percent = 59
    trader.full_clean()


def test_stone_values_are_for_enchanted_stones_and_recipes_make_amulets() -> None:
    with pytest.raises(ValidationError):
        StoneValue(item_kind=goods("special", "gem"), points=2).full_clean()
    with pytest.raises(ValidationError):
        JewelerRecipe(amulet=goods("special", "gem"), fee=1).full_clean()
    with pytest.raises(ValidationError):
        WarlockBuff(name="Broken", effect="vigor", magnitude=-1, price=1).full_clean()


# --- the admin ---------------------------------------------------------------------------------------

ADMIN_PAGES = [
    ("npckind", {"q": "shaman"}), ("guildnpc", {"kind__id__exact": "1"}), ("npcrescue", {"q": "Guild"}),
    ("shopoffer", {"npc": "weaponsmith", "item_kind__category": "weapon", "q": "Sword"}),
    ("buyrate", {"npc": "trader"}), ("warlockbuff", {"is_active__exact": "1", "q": "Vigor"}),
    ("playerbuff", {"claimed_run_id__isempty": "1"}), ("stonevalue", {"q": "Rune"}),
    ("bountyquest", {"enemy_kind__is_boss__exact": "1", "q": "rat"}),
    ("playerbounty", {"status__exact": "open"}),
    ("structure", {"effect__exact": "shop_discount"}), ("guildstructure", {"q": "Guild"}),
    ("jewelerrecipe", {"q": "Amulet"}), ("npctrade", {"action__exact": "buy"}), ("offerstockday", {}),
]


@pytest.mark.parametrize(("model", "query"), ADMIN_PAGES, ids=[m for m, _ in ADMIN_PAGES])
def test_the_admin_lists_search_and_filter(admin_client, model: str, query: dict) -> None:
    # given: some of everything (a rescue, a purchase, a build)
    h = hall("weaponsmith", "carpenter", money=500)
    sold = ShopOffer.objects.filter(npc__slug="weaponsmith").first()
    h.post(f"weaponsmith/offers/{sold.pk}/buy/")
    carry(h.player, ItemKind.objects.get(name="Carpenter's Tools"))
    h.post(f"carpenter/structures/{Structure.objects.get(slug='junk-stall').pk}/build/")

    response = admin_client.get(reverse(f"admin:npcs_{model}_changelist"), query)

    assert response.status_code == 200
    assert b"errornote" not in response.content


def test_the_admin_shows_the_rescued_and_filtered_rows(admin_client) -> None:
    h = hall("weaponsmith")
    npc_rescue(guild_id=h.guild.pk, kind="peasant")
    page = admin_client.get(reverse("admin:npcs_guildnpc_changelist"), {"q": h.guild.name}).content.decode()
    assert "Weaponsmith" in page and "Peasant" in page
    offers = admin_client.get(reverse("admin:npcs_shopoffer_changelist"), {"npc": "bowyer"}).content.decode()
    assert "Longbow" in offers and "Arming Sword" not in offers


def test_npc_kinds_cannot_be_added_or_deleted_in_the_admin(admin_client) -> None:
    assert admin_client.get(reverse("admin:npcs_npckind_add")).status_code == 403
    kind = NpcKind.objects.get(slug="peasant")
    assert admin_client.get(reverse("admin:npcs_npckind_delete", args=[kind.pk])).status_code == 403
    response = admin_client.post(reverse("admin:npcs_npckind_changelist"), {
        "form-TOTAL_FORMS": "1", "form-INITIAL_FORMS": "1", "form-0-id": str(kind.pk),
        "form-0-rank_points": "4",
        "_save": "Save"}, follow=True)
    assert response.status_code == 200
    assert NpcKind.objects.get(slug="peasant").rank_points == 4


def test_the_ledgers_are_read_only_in_the_admin(admin_client) -> None:
    for model in ("guildnpc", "npcrescue", "npctrade", "playerbuff", "playerbounty", "offerstockday"):
        assert admin_client.get(reverse(f"admin:npcs_{model}_add")).status_code == 403


def test_deleting_a_creature_or_an_item_takes_its_quests_offers_and_recipes_with_it() -> None:
    # given: a bounty taken on a creature, and an amulet that is both offered and crafted
    h = hall("inquisitor", "jeweler")
    creature = EnemyKind.objects.create(name="Doomed Newt", slug="doomed-newt", hp=3, weapon_name="Tail",
                                        weapon_damage=1)
    quest = BountyQuest.objects.create(title="Newts", enemy_kind=creature, kills=2, reward=10)
    assert h.post(f"inquisitor/bounties/{quest.pk}/accept/").status_code == 201
    amulet = goods("amulet")
    ShopOffer.objects.create(npc=NpcKind.objects.get(slug="jeweler"), item_kind=amulet, price=10)
    JewelerRecipe.objects.create(amulet=amulet, fee=1)

    # when
    creature.delete()
    amulet.delete()

    # then
    assert not BountyQuest.objects.filter(pk=quest.pk).exists() and not PlayerBounty.objects.exists()
    assert not ShopOffer.objects.filter(item_kind_id=amulet.pk).exists()
    assert not JewelerRecipe.objects.filter(amulet_id=amulet.pk).exists()
