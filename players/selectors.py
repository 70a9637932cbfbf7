"""Reads about players: the player of a user, the item catalog, carried items and carry totals."""
from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from backend.errors import NotFound
from players import inventory
from players.models import CarrySettings, InventoryItem, ItemKind, Notice, Player
from players.notice_store import NOTICES_PAGE, notice_counter, notices_after


def player_for_user(*, user_id: int) -> Player:
    try:
        return Player.objects.select_related("user").get(user_id=user_id)
    except Player.DoesNotExist as exc:
        raise NotFound("player_not_found", "This account has no player.") from exc


def player_get(*, player_id: int) -> Player:
    try:
        return Player.objects.select_related("user").get(pk=player_id)
    except Player.DoesNotExist as exc:
        raise NotFound("player_not_found", "No such player.", {"player": player_id}) from exc


def item_kind_list(*, category: str = "", sub_kind: str = "") -> QuerySet[ItemKind]:
    """The catalog in category, sub-kind, name order, optionally narrowed."""
    qs = ItemKind.objects.all()
    if category:
        qs = qs.filter(category=category)
    if sub_kind:
        qs = qs.filter(sub_kind=sub_kind)
    return qs.order_by("category", "sub_kind", "name", "pk")


def item_kind_get(*, item_kind_id: int) -> ItemKind:
    try:
        return ItemKind.objects.get(pk=item_kind_id)
    except ItemKind.DoesNotExist as exc:
        raise NotFound("item_kind_not_found", "No such item in the catalog.",
                       {"item_kind": item_kind_id}) from exc


def inventory_list(*, player: Player) -> list[InventoryItem]:
    """Everything the player carries, oldest first, with its catalog entry."""
    return list(InventoryItem.objects.filter(player=player).select_related("item_kind").order_by("pk"))


def carried(items: Iterable[InventoryItem]) -> list[inventory.Carried]:
    """Inventory rows as the pure carry rules see them."""
    return [
        inventory.Carried(category=item.item_kind.category, sub_kind=item.item_kind.sub_kind,
                          weight=item.item_kind.weight, equipped=item.equipped)
        for item in items
    ]


def carry_limits(*, player: Player, strength: int | None = None) -> inventory.CarryLimits:
    """The player's limits; ``strength``: the strength they carry with (default: their permanent one;
    inside a dungeon run, their strength for the run, which stat potions raise)."""
    return inventory.carry_limits(rules=CarrySettings.load().to_rules(),
                                  strength=player.strength if strength is None else strength,
                                  belt_level=player.potion_belt_level)


def carry_summary(*, player: Player, items: Iterable[InventoryItem]) -> inventory.CarrySummary:
    return inventory.carry_summary(carried=carried(items), limits=carry_limits(player=player))


def inventory_with_carry(*, player: Player) -> tuple[list[InventoryItem], inventory.CarrySummary]:
    """What the player carries and the totals against each limit (/me/ and /me/inventory/)."""
    items = inventory_list(player=player)
    return items, carry_summary(player=player, items=items)


def notice_page(*, user_id: int, since: int, limit: int = NOTICES_PAGE) -> tuple[list[Notice], bool]:
    """The user's notices after ``since`` (a page, oldest first), and whether more follow it."""
    found = notices_after(user_id=user_id, since=since, limit=limit + 1)
    return found[:limit], len(found) > limit


def notice_last(*, user_id: int) -> int:
    """The user's last notice number so far (0 before the first): a stream's live edge."""
    return notice_counter(user_id=user_id)
