"""Builders shared by the NPC tests: a guild with rescued NPCs, items made for one test, shop offers,
money and inventory snapshots (to prove that a refusal changed nothing)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from guilds.models import Guild
from npcs.models import NpcKind, NpcTrade, ShopOffer
from npcs.services import npc_rescue
from players.models import InventoryItem, ItemKind, Player
from players.services import inventory_add
from tests.dungeons.run_helpers import assert_error  # noqa: F401 - re-exported for the NPC tests
from tests.factories import PlayerFactory, api_client, make_guild
from tests.players.test_inventory_services import make_kind

API = "/api/v1"


@dataclass
class Hall:
    """A guild, one of its members (``player``), and an outsider who belongs to another guild."""

    guild: Guild
    player: Player
    outsider: Player

    def url(self, path: str = "") -> str:
        return f"{API}/guilds/{self.guild.pk}/npcs/{path}"

    def client(self, player: Player | None = None) -> Any:
        return api_client(player or self.player)

    def get(self, path: str, player: Player | None = None) -> Any:
        return self.client(player).get(self.url(path))

    def post(self, path: str, data: dict[str, Any] | None = None, player: Player | None = None) -> Any:
        return self.client(player).post(self.url(path), data or {}, format="json")


def hall(*kinds: str, money: int = 1000, **player_fields: Any) -> Hall:
    """A guild that rescued ``kinds``, with a member holding ``money`` coins."""
    player = PlayerFactory(money=money, **player_fields)
    guild = make_guild(leader=player)
    for kind in kinds:
        npc_rescue(guild_id=guild.pk, kind=kind)
    guild.refresh_from_db()
    rival = make_guild(leader=PlayerFactory(money=money))
    for kind in kinds:
        npc_rescue(guild_id=rival.pk, kind=kind)  # the outsider's own guild has the same NPCs
    return Hall(guild, player, rival.leader)


def goods(category: str, sub_kind: str | None = None, *, price: int = 10, **fields: Any) -> ItemKind:
    """A catalog entry made for one test (players' make_kind) at ``price`` coins."""
    item = make_kind(category, sub_kind, **fields)
    ItemKind.objects.filter(pk=item.pk).update(price=price)
    item.price = price
    return item


def offer(kind: str, item_kind: ItemKind, *, price: int | None = None, **fields: Any) -> ShopOffer:
    return ShopOffer.objects.create(npc=NpcKind.of(kind), item_kind=item_kind,
                                    price=item_kind.price if price is None else price, **fields)


def carry(player: Player, item_kind: ItemKind, count: int = 1) -> list[InventoryItem]:
    return [inventory_add(player=player, item_kind=item_kind) for _ in range(count)]


def money(player: Player) -> int:
    return Player.objects.values_list("money", flat=True).get(pk=player.pk)


def inventory(player: Player) -> list[tuple[int, int]]:
    """(item id, item kind id) of everything the player carries."""
    return list(InventoryItem.objects.filter(player=player).order_by("pk").values_list("pk", "item_kind_id"))


@dataclass(frozen=True)
class Snapshot:
    """Everything an NPC service may change for a player; equal snapshots mean nothing changed."""

    player: tuple[Any, ...]
    inventory: list[tuple[int, int]]
    trades: int

    @classmethod
    def of(cls, player: Player) -> Snapshot:
        row = Player.objects.filter(pk=player.pk).values_list(
            "money", "strength", "stamina", "metabolism", "luck", "attentiveness", "potion_belt_level").get()
        return cls(row, inventory(player), NpcTrade.objects.filter(player=player).count())
