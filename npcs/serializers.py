"""Input and output shapes of the NPC endpoints (explicit fields; nested item shapes from players)."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

from backend.api.converters import MAX_DB_ID
from combat.engine.effects import EFFECTS
from npcs import rules
from npcs.models import BountyStatus
from players.models import STAT_NAMES
from players.serializers import InventoryItemOutput, ItemKindOutput, ItemKindRef

# A plain string, not an enum: "effect" is already the combat effects' enum in the schema.
STRUCTURE_EFFECT_HELP = "One of: " + "; ".join(f"{k} ({v})" for k, v in rules.STRUCTURE_EFFECTS.items())


class PlayerRef(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    display_name = serializers.CharField()


# --- what a guild has ---------------------------------------------------------------------------------

class GuildNpcOutput(serializers.Serializer[Any]):
    kind = serializers.CharField(source="kind.slug", help_text="The NPC kind's slug, used in its routes.")
    name = serializers.CharField(source="kind.name")
    description = serializers.CharField(source="kind.description")
    services = serializers.ListField(child=serializers.CharField(), source="kind.services",
                                     help_text="What it does for members: the route segments under it.")
    initial = serializers.BooleanField(source="kind.is_initial",
                                       help_text="Every guild has it from the start.")
    repeatable = serializers.BooleanField(source="kind.is_repeatable",
                                          help_text="Can be rescued again (peasants).")
    count = serializers.IntegerField(help_text="How many the guild has (peasants: one per rescue).")
    rank_points = serializers.IntegerField(help_text="Rank points its rescues added to the guild.")
    first_rescued_at = serializers.DateTimeField(allow_null=True)
    last_rescued_at = serializers.DateTimeField(allow_null=True)


class BuiltStructureOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="structure.id")
    slug = serializers.CharField(source="structure.slug")
    name = serializers.CharField(source="structure.name")
    effect = serializers.CharField(source="structure.effect", help_text=STRUCTURE_EFFECT_HELP)
    amount = serializers.IntegerField(source="structure.amount")
    built_at = serializers.DateTimeField()
    built_by = PlayerRef(allow_null=True)


class JunkDealerTierOutput(serializers.Serializer[Any]):
    name = serializers.CharField()
    min_rank = serializers.IntegerField(help_text="The guild rank from which this tier is offered.")


class GuildNpcsOutput(serializers.Serializer[Any]):
    guild = serializers.IntegerField(source="guild.id")
    rank = serializers.IntegerField(source="guild.rank",
                                    help_text="The sum of the rank points of its rescues.")
    npcs = GuildNpcOutput(many=True)
    structures = BuiltStructureOutput(many=True)
    junk_dealer_offer_size = serializers.IntegerField(
        help_text="Starting weapons the junk dealer offers each member at the dungeon entrance.")
    junk_dealer_tier = JunkDealerTierOutput(
        allow_null=True, help_text="The tier of starting weapons the guild's rank reaches (null: no tiers).")
    junk_dealer_next_tier = JunkDealerTierOutput(
        allow_null=True,
        help_text="The next tier and the rank it needs: rescuing NPCs (peasants too) gets there.")


# --- shops ------------------------------------------------------------------------------------------

class OfferOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="offer.id")
    item_kind = ItemKindOutput(source="offer.item_kind")
    price = serializers.IntegerField(help_text="What the caller pays, after the guild's discount.")
    list_price = serializers.IntegerField(source="offer.price",
                                          help_text="The shop's price before discounts.")
    daily_stock = serializers.IntegerField(source="offer.daily_stock", allow_null=True,
                                           help_text="Units per guild per day (UTC); null = unlimited.")
    stock_left = serializers.IntegerField(allow_null=True, help_text="Units left today; null = unlimited.")


class PurchaseOutput(serializers.Serializer[Any]):
    item = InventoryItemOutput(help_text="The new item in the caller's inventory.")
    price = serializers.IntegerField(help_text="Coins paid.")
    money = serializers.IntegerField(help_text="The caller's money afterwards.")


class QuoteOutput(serializers.Serializer[Any]):
    item = InventoryItemOutput()
    price = serializers.IntegerField(allow_null=True,
                                     help_text="What the NPC pays; null = it does not buy this.")


class SellInput(serializers.Serializer[Any]):
    item = serializers.IntegerField(min_value=1, max_value=MAX_DB_ID,
                                    help_text="The id of a carried item (GET /me/inventory/).")


class SaleOutput(serializers.Serializer[Any]):
    item = serializers.IntegerField(source="item_id", help_text="The sold item's id (no longer carried).")
    item_kind = ItemKindRef()
    price = serializers.IntegerField(help_text="Coins received.")
    money = serializers.IntegerField(help_text="The caller's money afterwards.")


# --- potion seller's belts ----------------------------------------------------------------------------

class BeltOutput(serializers.Serializer[Any]):
    level = serializers.IntegerField(
        help_text="Belts owned: 0, 1 or 2 (each raises the potion limit by one).")
    max_level = serializers.IntegerField()
    next_price = serializers.IntegerField(allow_null=True,
                                          help_text="The next belt's price; null = both owned.")
    money = serializers.IntegerField(help_text="The caller's money.")


# --- warlock ----------------------------------------------------------------------------------------

class BuffOfferOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="buff.id")
    name = serializers.CharField(source="buff.name")
    description = serializers.CharField(source="buff.description")
    effect = serializers.ChoiceField(choices=list(EFFECTS), source="buff.effect")
    turns = serializers.IntegerField(source="buff.turns", allow_null=True,
                                     help_text="Turns in each battle; null = the whole battle.")
    magnitude = serializers.FloatField(source="buff.magnitude", allow_null=True,
                                       help_text="null = the combat settings' default.")
    price = serializers.IntegerField(help_text="What the caller pays, after the guild's discount.")
    list_price = serializers.IntegerField(source="buff.price")


class PlayerBuffOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    buff = serializers.IntegerField(source="buff_id")
    name = serializers.CharField(source="buff.name")
    effect = serializers.ChoiceField(choices=list(EFFECTS))
    turns = serializers.IntegerField(allow_null=True)
    magnitude = serializers.FloatField(allow_null=True)
    price_paid = serializers.IntegerField()
    bought_at = serializers.DateTimeField()


class BuffBoardOutput(serializers.Serializer[Any]):
    offers = BuffOfferOutput(many=True)
    pending = PlayerBuffOutput(many=True, help_text="Bought buffs waiting for the caller's next run.")


class BuffPurchaseOutput(serializers.Serializer[Any]):
    buff = PlayerBuffOutput()
    money = serializers.IntegerField(help_text="The caller's money afterwards.")


# --- shaman -----------------------------------------------------------------------------------------

class StatUpgradeOutput(serializers.Serializer[Any]):
    stat = serializers.ChoiceField(choices=list(STAT_NAMES))
    level = serializers.IntegerField()
    cost = serializers.IntegerField(allow_null=True,
                                    help_text="Stone points for the next level; null = maximum.")


class UpgradeBoardOutput(serializers.Serializer[Any]):
    stats = StatUpgradeOutput(many=True)
    stone_points = serializers.IntegerField(
        help_text="What the caller's enchanted stones are worth together.")
    max_level = serializers.IntegerField()


class UpgradeInput(serializers.Serializer[Any]):
    stat = serializers.ChoiceField(choices=list(STAT_NAMES))


class UpgradeOutput(serializers.Serializer[Any]):
    stat = serializers.ChoiceField(choices=list(STAT_NAMES))
    level = serializers.IntegerField(help_text="The stat's new level.")
    stone_points = serializers.IntegerField(help_text="What the consumed stones were worth.")
    stones_used = serializers.IntegerField()


# --- inquisitor -------------------------------------------------------------------------------------

class EnemyKindRef(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()


class BountyQuestOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    title = serializers.CharField()
    description = serializers.CharField()
    enemy_kind = EnemyKindRef()
    kills = serializers.IntegerField(help_text="Creatures to kill.")
    reward = serializers.IntegerField(help_text="Coins, before the guild's bounty bonus.")


class PlayerBountyOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    quest = serializers.IntegerField(source="quest_id")
    title = serializers.CharField(source="quest.title")
    enemy_kind = serializers.CharField(source="enemy_slug")
    kills_required = serializers.IntegerField()
    progress = serializers.IntegerField()
    reward = serializers.IntegerField()
    reward_paid = serializers.IntegerField(help_text="Paid when the bounty completed (with the bonus).")
    status = serializers.ChoiceField(choices=BountyStatus.choices)
    accepted_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class BountyBoardOutput(serializers.Serializer[Any]):
    quests = BountyQuestOutput(many=True)
    mine = PlayerBountyOutput(many=True, help_text="The caller's open and completed bounties, newest first.")
    max_open = serializers.IntegerField()
    bonus_percent = serializers.IntegerField(help_text="The guild's bounty bonus from its structures.")


# --- carpenter and jeweler ----------------------------------------------------------------------------

class MaterialOutput(serializers.Serializer[Any]):
    item_kind = ItemKindRef()
    quantity = serializers.IntegerField()


class StructureOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="structure.id")
    slug = serializers.CharField(source="structure.slug")
    name = serializers.CharField(source="structure.name")
    description = serializers.CharField(source="structure.description")
    effect = serializers.CharField(source="structure.effect", help_text=STRUCTURE_EFFECT_HELP)
    effect_description = serializers.SerializerMethodField()
    amount = serializers.IntegerField(source="structure.amount")
    coins = serializers.IntegerField(source="structure.coins")
    materials = MaterialOutput(many=True, source="structure.materials.all")
    built_at = serializers.DateTimeField(source="built.built_at", allow_null=True, default=None)
    built_by = PlayerRef(source="built.built_by", allow_null=True, default=None)

    def get_effect_description(self, view: object) -> str:
        return rules.STRUCTURE_EFFECTS[view.structure.effect]  # type: ignore[attr-defined]


class RecipeOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="recipe.id")
    amulet = ItemKindOutput(source="recipe.amulet")
    fee = serializers.IntegerField(help_text="What the caller pays, after the guild's discount.")
    list_fee = serializers.IntegerField(source="recipe.fee")
    materials = MaterialOutput(many=True, source="recipe.materials.all")
