"""Better starting weapons as a guild progresses: the junk dealer's offer comes from the tier of
weapons the guild's rank reaches (admin data with defaults), and structures keep adding choices."""
from __future__ import annotations

import random

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from dungeons import run_rules
from dungeons.models import RunMember
from dungeons.runs import lobby as run_services
from npcs.models import JunkDealerTier, NpcSettings
from npcs.services import npc_rescue
from players.models import ItemKind
from tests.dungeons.run_helpers import API, Party
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db


def _tier(min_rank: int) -> set[int]:
    return set(JunkDealerTier.objects.get(min_rank=min_rank).weapons.values_list("pk", flat=True))


def _offer(player) -> list[dict]:
    run = run_services.run_open(player=player, kind="ordinary")
    response = Party([player]).client(player).get(f"{API}/runs/{run.pk}/offer/")
    assert response.status_code == 200, response.json()
    return response.json()


def _rescue_peasants(guild, count: int) -> None:
    for run_id in range(count):
        npc_rescue(guild_id=guild.pk, kind="peasant", run_id=run_id)


def test_the_default_tiers_rise_with_rank_and_tier_0_is_the_catalogs_basic_weapons() -> None:
    tiers = list(JunkDealerTier.objects.order_by("min_rank"))
    assert [(t.name, t.min_rank) for t in tiers] == [("Scrap", 0), ("Serviceable", 3), ("Fine", 6)]
    basics = set(ItemKind.objects.filter(category="weapon", is_basic=True).values_list("pk", flat=True))
    assert _tier(0) == basics and len(basics) == 6
    assert all(len(_tier(rank)) == 6 for rank in (3, 6))
    best = {rank: max(ItemKind.objects.filter(pk__in=_tier(rank)).values_list("damage", flat=True))
            for rank in (0, 3, 6)}
    assert best[0] < best[3] < best[6]  # each tier's best weapon beats the one below
    for tier in tiers:
        assert set(tier.weapons.values_list("category", flat=True)) == {"weapon"}


def test_a_guildless_player_and_a_new_guild_get_scrap_weapons() -> None:
    loner = PlayerFactory()
    assert {w["id"] for w in _offer(loner)} <= _tier(0)
    leader = PlayerFactory()
    make_guild(leader=leader)
    offer = _offer(leader)
    assert {w["id"] for w in offer} <= _tier(0) and len(offer) == 3


def test_rescuing_peasants_raises_the_rank_and_the_junk_dealer_offers_the_next_tier() -> None:
    # given: a guild whose three peasant rescues take its rank to 3
    leader = PlayerFactory()
    guild = make_guild(leader=leader)
    hall = api_client(leader).get(f"{API}/guilds/{guild.pk}/npcs/").json()
    assert hall["junk_dealer_tier"] == {"name": "Scrap", "min_rank": 0}
    assert hall["junk_dealer_next_tier"] == {"name": "Serviceable", "min_rank": 3}
    _rescue_peasants(guild, 3)

    # when
    offer = _offer(leader)

    # then: three different weapons of the Serviceable tier, and the hall says so
    assert len({w["id"] for w in offer}) == 3 and {w["id"] for w in offer} <= _tier(3)
    hall = api_client(leader).get(f"{API}/guilds/{guild.pk}/npcs/").json()
    assert hall["rank"] == 3 and hall["junk_dealer_tier"] == {"name": "Serviceable", "min_rank": 3}
    assert hall["junk_dealer_next_tier"] == {"name": "Fine", "min_rank": 6}
    # and a weapon of that tier can be taken
    run_id = RunMember.objects.get(player=leader, active=True).run_id
    taken = Party([leader]).post(leader, f"runs/{run_id}/weapon/", {"item_kind": offer[0]["id"]})
    assert taken.status_code == 200, taken.json()


def test_a_bigger_offer_than_the_tier_fills_up_from_the_tiers_below() -> None:
    # given: rank 6 (the Fine tier, 6 weapons) and an offer of 9 (structures or the base raise it)
    settings = NpcSettings.load()
    settings.junk_dealer_offer_base = 9
    settings.save()
    leader = PlayerFactory()
    _rescue_peasants(make_guild(leader=leader), 6)

    offer = {w["id"] for w in _offer(leader)}

    # then: all six Fine weapons, and three of the Serviceable tier
    assert len(offer) == 9 and _tier(6) <= offer and offer - _tier(6) <= _tier(3)


def test_without_tiers_the_junk_dealer_offers_the_catalogs_basic_weapons() -> None:
    JunkDealerTier.objects.all().delete()
    offer = {w["id"] for w in _offer(PlayerFactory())}
    assert len(offer) == 3
    basics = ItemKind.objects.filter(category="weapon", is_basic=True)
    assert offer <= set(basics.values_list("pk", flat=True))


def test_the_admin_lists_the_tiers_with_their_weapons(admin_client) -> None:
    page = admin_client.get(reverse("admin:npcs_junkdealertier_changelist")).content.decode()
    assert "Serviceable" in page and "Battle Axe (8)" in page
    tier = JunkDealerTier.objects.get(min_rank=6)
    assert admin_client.get(reverse("admin:npcs_junkdealertier_change", args=[tier.pk])).status_code == 200


# --- the pure rule ---------------------------------------------------------------------------------


@given(
    tiers=st.lists(st.lists(st.integers(0, 30), max_size=8, unique=True), min_size=1, max_size=4),
    size=st.integers(0, 12),
    seed=st.integers(0, 2**32),
)
def test_a_tiered_offer_takes_the_best_tier_first_and_lower_tiers_only_to_fill_up(
    tiers: list[list[int]], size: int, seed: int
) -> None:
    offer = run_rules.junk_offer_tiered(tiers, size=size, rng=random.Random(seed))
    distinct = {w for tier in tiers for w in tier}
    assert len(offer) == len(set(offer)) == min(size, len(distinct))
    # a weapon of a lower tier is there only if every weapon of the tiers above is
    above: set[int] = set()
    for tier in tiers:
        if any(w in offer for w in set(tier) - above):
            assert above <= set(offer)
        above |= set(tier)
    assert run_rules.junk_offer_tiered(tiers, size=size, rng=random.Random(seed)) == offer


@given(pool=st.lists(st.integers(0, 30), max_size=8, unique=True), size=st.integers(0, 10),
       seed=st.integers(0, 99))
def test_one_tier_offers_exactly_what_the_untiered_offer_did(pool: list[int], size: int, seed: int) -> None:
    assert run_rules.junk_offer_tiered([pool], size=size, rng=random.Random(seed)) == run_rules.junk_offer(
        pool, size=size, rng=random.Random(seed))
