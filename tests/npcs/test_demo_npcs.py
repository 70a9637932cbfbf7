"""`load_demo_npcs` (run by `dev.py serve` after `load_demo_data`): every NPC page can be reached by play."""
from __future__ import annotations

import pytest
from django.core.management import call_command

from guilds.models import Guild
from npcs.management.commands.load_demo_npcs import DEMO_GUILD, DEMO_NPCS, ITEMS_PER_PLAYER
from players.models import InventoryItem, Player
from tests.factories import api_client

pytestmark = pytest.mark.django_db


def load(settings) -> None:
    settings.DEBUG = True
    call_command("load_demo_data")
    call_command("load_demo_npcs")


def kinds_of(name: str) -> list[int]:
    items = InventoryItem.objects.filter(player__user__username=name)
    return sorted(items.values_list("item_kind", flat=True))


def test_the_demo_guild_has_rescued_npcs_with_stocked_shops_and_players_carry_items(settings) -> None:
    # given the demo world, as `serve` loads it
    load(settings)
    guild = Guild.objects.get(name=DEMO_GUILD)
    ayla = Player.objects.get(user__username="ayla")
    client = api_client(ayla)

    # when a member of the demo guild looks at its NPCs, a shop's offers and their own inventory
    npcs = client.get(f"/api/v1/guilds/{guild.pk}/npcs/")
    offers = client.get(f"/api/v1/guilds/{guild.pk}/npcs/weaponsmith/offers/")
    me = client.get("/api/v1/me/")

    # then every demo kind serves the guild, the shop has stock, and ayla carries items and coins
    assert npcs.status_code == 200, npcs.json()
    served = {npc["kind"] for npc in npcs.json()["npcs"]}
    assert set(DEMO_NPCS) <= served
    assert offers.status_code == 200 and offers.json(), offers.json()
    assert len(me.json()["inventory"]) == ITEMS_PER_PLAYER
    assert me.json()["money"] >= 500
    guild.refresh_from_db()
    assert guild.rank == len(DEMO_NPCS)


def test_loading_again_changes_nothing_and_the_same_seed_picks_the_same_items(settings) -> None:
    # given the demo world loaded once
    load(settings)
    guild = Guild.objects.get(name=DEMO_GUILD)
    before = {name: kinds_of(name) for name in ("ayla", "eris", "ilse")}
    rank = guild.rank

    # when it is loaded again
    call_command("load_demo_npcs")

    # then nothing more was rescued or given
    guild.refresh_from_db()
    assert guild.rank == rank
    assert {name: kinds_of(name) for name in before} == before

    # and when ayla's items are gone, loading gives her the very same kinds again (seeded)
    InventoryItem.objects.filter(player__user__username="ayla").delete()
    call_command("load_demo_npcs")
    assert kinds_of("ayla") == before["ayla"]
