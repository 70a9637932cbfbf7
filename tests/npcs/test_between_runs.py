"""NPCs serve between runs: a player who is in a dungeon may look, but not trade, craft or upgrade."""
from __future__ import annotations

import pytest

from npcs.models import ShopOffer
from npcs.services import npc_rescue
from tests.dungeons.run_helpers import Party, guild_party
from tests.factories import api_client
from tests.npcs.helpers import API, Snapshot, assert_error, carry, goods
from tests.npcs.runs import one_floor_run, play_to_the_end

pytestmark = pytest.mark.django_db


def test_a_player_in_a_dungeon_cannot_trade_until_the_run_is_over(monkeypatch) -> None:
    # given: a member carrying a sword, whose guild has a trader and a weaponsmith, in a started run
    (player,), guild = guild_party(1, money=500, strength=4, stamina=6)
    for kind in ("trader", "weaponsmith"):
        npc_rescue(guild_id=guild.pk, kind=kind)
    (sword,) = carry(player, goods("weapon", "sword", price=60))
    run = one_floor_run([player], monkeypatch)
    client, npcs = api_client(player), f"{API}/guilds/{guild.pk}/npcs"
    sold = ShopOffer.objects.filter(npc__slug="weaponsmith").first()
    before = Snapshot.of(player)

    # when / then: looking is fine, trading is refused with the run named
    assert client.get(f"{npcs}/trader/quotes/").status_code == 200
    sale = client.post(f"{npcs}/trader/sell/", {"item": sword.pk}, format="json")
    error = assert_error(sale, 409, "in_dungeon")
    assert error["details"] == {"run": run.pk}
    assert_error(client.post(f"{npcs}/weaponsmith/offers/{sold.pk}/buy/"), 409, "in_dungeon")
    assert Snapshot.of(player) == before

    # and once the run is over, the trader buys again
    play_to_the_end(Party([player]), run.pk, player)
    assert client.post(f"{npcs}/trader/sell/", {"item": sword.pk}, format="json").status_code == 200
