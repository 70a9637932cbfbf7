"""Reads of the npcs app: who may use which NPC, what a guild has, and each NPC's board (offers,
quotes, buffs, upgrades, bounties, structures, recipes) as the caller sees it.

The first two functions are the contract the dungeon runs call; their signatures do not change.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.db.models import Prefetch, Sum
from django.utils import timezone

from backend.errors import NotAllowed, NotFound
from dungeons.generation import NPC_KINDS
from dungeons.generation.rules import ALWAYS_RESCUABLE
from guilds.models import Guild, Membership
from npcs import rules
from npcs.models import (
    BountyQuest,
    BountyStatus,
    BuyRate,
    GuildNpc,
    GuildStructure,
    JewelerMaterial,
    JewelerRecipe,
    JunkDealerTier,
    NpcKind,
    NpcSettings,
    OfferStockDay,
    PlayerBounty,
    PlayerBuff,
    ShopOffer,
    StoneValue,
    Structure,
    StructureMaterial,
    WarlockBuff,
)
from players.models import STAT_NAMES, InventoryItem, ItemKind, ItemSubKind, Player
from players.selectors import inventory_list

# --- the runs' contract -------------------------------------------------------------------------------

#: The kinds of NPC a guild rescued (a fixed read: a run start pays it).
_RESCUED = ('SELECT "npcs_npckind"."slug" FROM "npcs_guildnpc" INNER JOIN "npcs_npckind" '
            'ON "npcs_guildnpc"."kind_id" = "npcs_npckind"."id" WHERE "npcs_guildnpc"."guild_id" = %s')


def guild_npc_kinds_unrescued(*, guild_id: int) -> list[str]:
    """NPC kinds the guild has not rescued yet (peasants always included): the generation candidates."""
    with transaction.get_connection().cursor() as cursor:
        cursor.execute(_RESCUED, [guild_id])
        owned = {slug for (slug,) in cursor.fetchall()}
    return [kind for kind in NPC_KINDS if kind not in owned or kind in ALWAYS_RESCUABLE]


def junk_dealer_offer_size(*, guild_id: int | None) -> int:
    """How many basic weapons the junk dealer offers each party member at the dungeon entrance."""
    base = NpcSettings.cached().junk_dealer_offer_base
    return base + structure_bonus(guild_id=guild_id, effect=rules.JUNK_DEALER_OFFER)


def junk_dealer_tiers(*, rank: int) -> list[tuple[JunkDealerTier, list[ItemKind]]]:
    """The tiers a guild of ``rank`` reaches, its own (the highest) first, each with its weapons in
    id order; empty when no tier is defined (the runs then offer the catalog's basic weapons)."""
    tiers = list(JunkDealerTier.objects.filter(min_rank__lte=max(0, rank)).order_by("-min_rank")
                 .prefetch_related(Prefetch("weapons", queryset=ItemKind.objects.order_by("pk"))))
    return [(tier, list(tier.weapons.all())) for tier in tiers]


def junk_dealer_next_tier(*, rank: int) -> JunkDealerTier | None:
    """The next tier a guild of ``rank`` can reach by rescuing NPCs, or None."""
    return JunkDealerTier.objects.filter(min_rank__gt=max(0, rank)).order_by("min_rank").first()


# --- structures' effects --------------------------------------------------------------------------------

def structure_bonus(*, guild_id: int | None, effect: str) -> int:
    """The summed amount of the guild's built structures with this effect (0 for no guild)."""
    if guild_id is None:
        return 0
    total = (GuildStructure.objects.filter(guild_id=guild_id, structure__effect=effect)
             .aggregate(total=Sum("structure__amount"))["total"])
    return int(total or 0)


# --- access ------------------------------------------------------------------------------------------------

def npc_for_member(*, player: Player, guild_id: int, kind: str) -> NpcKind:
    """The guild's NPC of ``kind`` if ``player`` may use it.

    404 ``guild_not_found`` for a missing or disbanded guild; 403 ``not_member`` for anyone but its
    current members (checked before the NPC, so outsiders learn nothing about it); 404
    ``npc_not_rescued`` when the guild does not have that NPC.
    """
    if not Guild.objects.filter(pk=guild_id, disbanded_at__isnull=True).exists():
        raise NotFound("guild_not_found", "No such guild.", {"guild": guild_id})
    if not Membership.objects.filter(guild_id=guild_id, player=player, left_at__isnull=True).exists():
        raise NotAllowed("not_member", "Only members of the guild that owns this NPC may use it.",
                         {"guild": guild_id, "npc": kind})
    npc = NpcKind.of(kind)
    if not (npc.is_initial or GuildNpc.objects.filter(guild_id=guild_id, kind=npc).exists()):
        raise NotFound("npc_not_rescued", "This guild has no such NPC.", {"guild": guild_id, "npc": kind})
    return npc


# --- what a guild has ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GuildNpcRow:
    kind: NpcKind
    count: int
    rank_points: int
    first_rescued_at: datetime | None
    last_rescued_at: datetime | None


@dataclass(frozen=True)
class GuildNpcs:
    guild: Guild
    npcs: list[GuildNpcRow]
    structures: list[GuildStructure]
    junk_dealer_offer_size: int
    junk_dealer_tier: JunkDealerTier | None = None
    junk_dealer_next_tier: JunkDealerTier | None = None


def guild_npc_list(*, guild_id: int) -> GuildNpcs:
    """The guild's NPCs (the two initial ones, then every rescued kind) and its structures."""
    guild = Guild.objects.filter(pk=guild_id, disbanded_at__isnull=True).first()
    if guild is None:
        raise NotFound("guild_not_found", "No such guild.", {"guild": guild_id})
    rows = [GuildNpcRow(NpcKind.of(slug), 1, 0, None, None) for slug in rules.INITIAL_KINDS]
    owned = {npc.kind.slug: npc for npc in GuildNpc.objects.filter(guild=guild).select_related("kind")}
    rows += [GuildNpcRow(npc.kind, npc.count, npc.rank_points, npc.first_rescued_at, npc.last_rescued_at)
             for slug in NPC_KINDS if (npc := owned.get(slug)) is not None]
    structures = list(GuildStructure.objects.filter(guild=guild).select_related("structure", "built_by"))
    tier = JunkDealerTier.objects.filter(min_rank__lte=guild.rank).order_by("-min_rank").first()
    return GuildNpcs(guild, rows, structures, junk_dealer_offer_size(guild_id=guild_id), tier,
                     junk_dealer_next_tier(rank=guild.rank))


# --- shops ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class OfferView:
    offer: ShopOffer
    price: int  # after the guild's discount
    stock_left: int | None  # today's, None = unlimited


def today() -> date:
    return timezone.now().date()


def shop_offers(*, player: Player, guild_id: int, kind: str) -> list[OfferView]:
    npc = npc_for_member(player=player, guild_id=guild_id, kind=kind)
    discount = structure_bonus(guild_id=guild_id, effect=rules.SHOP_DISCOUNT)
    offers = list(ShopOffer.objects.filter(npc=npc, is_active=True).select_related("item_kind"))
    sold = dict(OfferStockDay.objects.filter(guild_id=guild_id, offer__in=offers, day=today())
                .values_list("offer_id", "sold"))
    return [OfferView(offer, rules.shop_price(price=offer.price, discount_percent=discount),
                      _stock_left(offer, sold.get(offer.pk, 0)))
            for offer in offers]


def _stock_left(offer: ShopOffer, sold: int) -> int | None:
    return None if offer.daily_stock is None else max(0, offer.daily_stock - sold)


def offer_get(*, npc: NpcKind, offer_id: int) -> ShopOffer:
    offer = ShopOffer.objects.filter(pk=offer_id, npc=npc, is_active=True).select_related("item_kind").first()
    if offer is None:
        raise NotFound("offer_not_found", f"The {npc} offers no such item.", {"offer": offer_id})
    return offer


@dataclass(frozen=True)
class Quote:
    item: InventoryItem
    price: int | None  # None = this NPC does not buy it


def buy_rates(*, npc: NpcKind) -> dict[tuple[str, str], int]:
    """(category, sub_kind or "") -> percent of the catalog price the NPC pays."""
    return {(r.category, r.sub_kind): r.rate_percent for r in BuyRate.objects.filter(npc=npc)}


def quote_price(*, item: InventoryItem, rates: dict[tuple[str, str], int], bonus: int,
                discount: int) -> int | None:
    kind = item.item_kind
    rate = rates.get((kind.category, kind.sub_kind), rates.get((kind.category, "")))
    if rate is None:
        return None
    return rules.sale_price(base_price=kind.price, rate_percent=rate, bonus_percent=bonus,
                            discount_percent=discount)


def sell_quotes(*, player: Player, guild_id: int, kind: str) -> list[Quote]:
    """What the NPC would pay for each item the player carries."""
    npc = npc_for_member(player=player, guild_id=guild_id, kind=kind)
    rates = buy_rates(npc=npc)
    bonus = structure_bonus(guild_id=guild_id, effect=rules.SALE_BONUS)
    discount = structure_bonus(guild_id=guild_id, effect=rules.SHOP_DISCOUNT)
    return [Quote(item, quote_price(item=item, rates=rates, bonus=bonus, discount=discount))
            for item in inventory_list(player=player)]


# --- potion seller's belts --------------------------------------------------------------------------------

MAX_BELT_LEVEL = 2  # players.Player's check constraint: two belts (SPEC section 8)


@dataclass(frozen=True)
class BeltState:
    level: int
    max_level: int
    next_price: int | None  # None = both belts owned


def belt_state(*, player: Player, guild_id: int) -> BeltState:
    npc_for_member(player=player, guild_id=guild_id, kind="potion_seller")
    level = player.potion_belt_level
    if level >= MAX_BELT_LEVEL:
        return BeltState(level, MAX_BELT_LEVEL, None)
    discount = structure_bonus(guild_id=guild_id, effect=rules.SHOP_DISCOUNT)
    price = rules.shop_price(price=NpcSettings.load().belt_price(level + 1), discount_percent=discount)
    return BeltState(level, MAX_BELT_LEVEL, price)


# --- warlock -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BuffBoard:
    offers: list[tuple[WarlockBuff, int]]  # (buff, price after discount)
    pending: list[PlayerBuff]


def player_pending_buffs(*, player_id: int) -> list[PlayerBuff]:
    return list(PlayerBuff.objects.filter(player_id=player_id, claimed_run_id__isnull=True)
                .select_related("buff").order_by("bought_at", "pk"))


def buff_board(*, player: Player, guild_id: int) -> BuffBoard:
    npc_for_member(player=player, guild_id=guild_id, kind="warlock")
    discount = structure_bonus(guild_id=guild_id, effect=rules.SHOP_DISCOUNT)
    offers = [(buff, rules.shop_price(price=buff.price, discount_percent=discount))
              for buff in WarlockBuff.objects.filter(is_active=True)]
    return BuffBoard(offers, player_pending_buffs(player_id=player.pk))


# --- shaman --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StatUpgrade:
    stat: str
    level: int
    cost: int | None  # stone points for the next level; None = at the maximum


@dataclass(frozen=True)
class UpgradeBoard:
    stats: list[StatUpgrade]
    stone_points: int  # what the player's carried stones are worth together
    max_level: int


def stones_of(items: Iterable[InventoryItem]) -> list[tuple[int, int]]:
    """(item id, points) of every enchanted stone among ``items``."""
    stones = [item for item in items if item.item_kind.sub_kind == ItemSubKind.ENCHANTED_STONE]
    values = dict(StoneValue.objects.filter(item_kind__in={s.item_kind_id for s in stones})
                  .values_list("item_kind_id", "points"))
    return [(stone.pk, values.get(stone.item_kind_id, 1)) for stone in stones]


def upgrade_cost(*, level: int, guild_id: int, settings: NpcSettings) -> int:
    discount = structure_bonus(guild_id=guild_id, effect=rules.SHAMAN_DISCOUNT)
    return rules.shaman_cost(level=level, base=settings.shaman_stones_base,
                             per_level=settings.shaman_stones_per_level, discount=discount)


def upgrade_board(*, player: Player, guild_id: int) -> UpgradeBoard:
    npc_for_member(player=player, guild_id=guild_id, kind="shaman")
    settings = NpcSettings.load()
    stats = []
    for stat in STAT_NAMES:
        level = getattr(player, stat)
        cost = None if level >= settings.shaman_max_level else upgrade_cost(level=level, guild_id=guild_id,
                                                                             settings=settings)
        stats.append(StatUpgrade(stat, level, cost))
    points = rules.stones_points(stones_of(inventory_list(player=player)))
    return UpgradeBoard(stats, points, settings.shaman_max_level)


# --- inquisitor ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BountyBoard:
    quests: list[BountyQuest]
    mine: list[PlayerBounty]
    max_open: int
    bonus_percent: int


def bounty_board(*, player: Player, guild_id: int) -> BountyBoard:
    npc_for_member(player=player, guild_id=guild_id, kind="inquisitor")
    quests = list(BountyQuest.objects.filter(is_active=True).select_related("enemy_kind"))
    mine = list(PlayerBounty.objects.filter(player=player).exclude(status=BountyStatus.ABANDONED)
                .select_related("quest")[:50])
    return BountyBoard(quests, mine, NpcSettings.load().max_open_bounties,
                       structure_bonus(guild_id=guild_id, effect=rules.BOUNTY_BONUS))


# --- carpenter and jeweler ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class StructureView:
    structure: Structure
    built: GuildStructure | None


def structure_board(*, player: Player, guild_id: int) -> list[StructureView]:
    npc_for_member(player=player, guild_id=guild_id, kind="carpenter")
    built = {b.structure_id: b
             for b in GuildStructure.objects.filter(guild_id=guild_id).select_related("built_by")}
    materials = Prefetch("materials", queryset=StructureMaterial.objects.select_related("item_kind"))
    structures = Structure.objects.filter(is_active=True).prefetch_related(materials)
    return [StructureView(s, built.get(s.pk)) for s in structures]


def structure_get(*, structure_id: int) -> Structure:
    structure = Structure.objects.filter(pk=structure_id, is_active=True).first()
    if structure is None:
        raise NotFound("structure_not_found", "The carpenter builds no such structure.",
                       {"structure": structure_id})
    return structure


def recipe_board(*, player: Player, guild_id: int) -> list[tuple[JewelerRecipe, int]]:
    """Active recipes with the fee the caller would pay (after the guild's discount)."""
    npc_for_member(player=player, guild_id=guild_id, kind="jeweler")
    discount = structure_bonus(guild_id=guild_id, effect=rules.SHOP_DISCOUNT)
    materials = Prefetch("materials", queryset=JewelerMaterial.objects.select_related("item_kind"))
    recipes = (JewelerRecipe.objects.filter(is_active=True).select_related("amulet")
               .prefetch_related(materials))
    return [(recipe, rules.shop_price(price=recipe.fee, discount_percent=discount)) for recipe in recipes]


def recipe_get(*, recipe_id: int) -> JewelerRecipe:
    recipe = JewelerRecipe.objects.filter(pk=recipe_id, is_active=True).select_related("amulet").first()
    if recipe is None:
        raise NotFound("recipe_not_found", "The jeweler knows no such recipe.", {"recipe": recipe_id})
    return recipe
