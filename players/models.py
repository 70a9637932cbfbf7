"""The player's character (money, stats), the item catalog, carried items and the carry settings."""
from __future__ import annotations

import operator
from collections.abc import Iterable
from functools import reduce

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from backend.models import SingletonSettings
from combat.engine import EffectSpec, Potion, PotionKind, Weapon
from combat.engine.effects import EFFECTS
from players import inventory
from players.inventory import CarrySummary

STAT_NAMES = ("strength", "stamina", "metabolism", "luck", "attentiveness")


class PlayerSettings(SingletonSettings):
    """Balancing numbers for new characters (admin-editable)."""

    starting_money = models.PositiveIntegerField(default=100, help_text="Coins a new player starts with.")

    class Meta:
        verbose_name = "player settings"
        verbose_name_plural = "player settings"

    def __str__(self) -> str:
        return "Player settings"


class Player(models.Model):
    """The game character of an authenticated user.

    Stats are upgrade levels starting at 0; only the shaman raises them. Money is whole coins
    and never negative: services spend it with a conditional update, and the check
    constraint below makes any bug that tries otherwise fail loudly instead of corrupting.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player")
    display_name = models.CharField(max_length=150)
    # backend.names.name_key(username), set at registration: usernames are unique on it (look-alikes collide).
    name_key = models.CharField(max_length=255, null=True, blank=True, unique=True, editable=False)
    money = models.BigIntegerField(default=0)
    strength = models.PositiveSmallIntegerField(default=0)
    stamina = models.PositiveSmallIntegerField(default=0)
    metabolism = models.PositiveSmallIntegerField(default=0)
    luck = models.PositiveSmallIntegerField(default=0)
    attentiveness = models.PositiveSmallIntegerField(default=0)
    completed_dungeons = models.PositiveIntegerField(default=0)
    potion_belt_level = models.PositiveSmallIntegerField(
        default=0, help_text="Potion belts bought from the potion seller (0-2); each raises the potion limit."
    )
    last_transfer_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player last moved from one guild to another."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # Not columns: /me/ (guilds/apis.py) sets them for its answer. The guild is a guilds.Guild, which
    # players, below guilds, does not name.
    guild: object | None
    carried_items: list[InventoryItem]
    carry_summary: CarrySummary

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(money__gte=0), name="player_money_not_negative"),
            # SPEC section 8: two belts, raising the limit to 4 and then 5.
            models.CheckConstraint(
                condition=models.Q(potion_belt_level__lte=2), name="player_potion_belt_level_max"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def stats(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in STAT_NAMES}


# --- the item catalog ---------------------------------------------------------------------------

class ItemCategory(models.TextChoices):
    WEAPON = "weapon"
    ARMOR = "armor"
    POTION = "potion"
    SPECIAL = "special"
    AMULET = "amulet"
    TORCH = "torch"


class ItemSubKind(models.TextChoices):
    SWORD = "sword"
    CLUB = "club"
    MACE = "mace"
    AXE = "axe"
    BOW = "bow"
    CROSSBOW = "crossbow"
    STAFF = "staff"
    SPELLBOOK = "spellbook"
    KNIFE = "knife"
    TOMAHAWK = "tomahawk"
    CUIRASS = "cuirass"
    GREAVES = "greaves"
    HELMET = "helmet"
    GLOVES = "gloves"
    BOOTS = "boots"
    HEALING = "healing"
    EFFECT = "effect"
    STAT = "stat"
    CARPENTERS_TOOLS = "carpenters_tools", "carpenter's tools"
    GEM = "gem"
    ENCHANTED_STONE = "enchanted_stone"
    AMULET = "amulet"
    TORCH = "torch"


# The sub-kinds each category allows (SPEC section 3); the model's check constraint is built from it.
SUB_KINDS: dict[str, tuple[str, ...]] = {
    ItemCategory.WEAPON: ("sword", "club", "mace", "axe", "bow", "crossbow", "staff", "spellbook", "knife",
                          "tomahawk"),
    ItemCategory.ARMOR: ("cuirass", "greaves", "helmet", "gloves", "boots"),
    ItemCategory.POTION: ("healing", "effect", "stat"),
    ItemCategory.SPECIAL: ("carpenters_tools", "gem", "enchanted_stone"),
    ItemCategory.AMULET: ("amulet",),
    ItemCategory.TORCH: ("torch",),
}

# Weapon sub-kind -> its class, the combat engine's Weapon.kind.
WEAPON_CLASSES: dict[str, str] = {
    "sword": "melee", "club": "melee", "mace": "melee", "axe": "melee",
    "bow": "ranged", "crossbow": "ranged",
    "staff": "magic", "spellbook": "magic",
    "knife": "throwing", "tomahawk": "throwing",
}

assert {c.value for c in ItemCategory} == set(SUB_KINDS)
assert sorted(k for kinds in SUB_KINDS.values() for k in kinds) == sorted(k.value for k in ItemSubKind)
assert set(WEAPON_CLASSES) == set(SUB_KINDS[ItemCategory.WEAPON])
assert (inventory.WEAPON, inventory.ARMOR, inventory.POTION, inventory.TORCH) == (
    ItemCategory.WEAPON, ItemCategory.ARMOR, ItemCategory.POTION, ItemCategory.TORCH)


class Rarity(models.TextChoices):
    COMMON = "common"
    UNCOMMON = "uncommon"
    RARE = "rare"


def _any(conditions: Iterable[Q]) -> Q:
    return reduce(operator.or_, conditions)


def _category(category: str) -> Q:
    return Q(category=category)


def _sub_kind(sub_kind: str) -> Q:
    return Q(category=ItemCategory.POTION, sub_kind=sub_kind)


class ItemKind(models.Model):
    """One entry of the item catalog (admin data): what an item is, weighs, costs and does.

    Which stat fields an item uses depends on its category and sub-kind (docs/items.md); the
    check constraints keep every row usable by the combat engine, clean() says the same as form
    errors. Carried items are InventoryItem rows pointing here.
    """

    name = models.CharField(max_length=64, unique=True)
    description = models.TextField(blank=True, default="")
    category = models.CharField(max_length=16, choices=ItemCategory.choices)
    sub_kind = models.CharField(max_length=32, choices=ItemSubKind.choices)
    weight = models.PositiveSmallIntegerField(help_text="Weight units; carried weight is capped by capacity.")
    price = models.PositiveIntegerField(help_text="Base price in coins; shops may apply their own margins.")
    rarity = models.CharField(max_length=16, choices=Rarity.choices, default=Rarity.COMMON)
    is_basic = models.BooleanField(
        default=False, help_text="Offered by the junk dealer (starting weapons, cheap basics)."
    )
    damage = models.PositiveSmallIntegerField(default=0, help_text="Weapons: damage of a hit (engine W).")
    armor = models.PositiveSmallIntegerField(default=0, help_text="Armor: armor points while worn.")
    heal = models.PositiveSmallIntegerField(default=0, help_text="Healing potions: HP restored.")
    effect = models.CharField(
        max_length=16, blank=True, default="", choices=[(name, name) for name in EFFECTS],
        help_text="Effect potions and amulets: the effect applied; weapons: an optional on-hit effect.",
    )
    effect_turns = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Turns of the carrier; empty = until the end of the battle."
    )
    effect_magnitude = models.FloatField(null=True, blank=True, help_text="Empty = the engine's default.")
    effect_chance = models.FloatField(default=1.0, help_text="Weapons: chance per hit (0-1); otherwise 1.")
    stat = models.CharField(
        max_length=16, blank=True, default="", choices=[(name, name) for name in STAT_NAMES],
        help_text="Stat potions: the stat raised for the rest of the run.",
    )
    stat_amount = models.PositiveSmallIntegerField(default=0, help_text="Stat potions: upgrade levels added.")
    torch_moves = models.PositiveSmallIntegerField(default=0, help_text="Torches: moves before it burns out.")

    class Meta:
        ordering = ["category", "sub_kind", "name"]
        indexes = [models.Index(fields=["category", "sub_kind"], name="itemkind_category_sub_kind")]
        constraints = [
            models.CheckConstraint(
                condition=_any(Q(category=c, sub_kind__in=kinds) for c, kinds in SUB_KINDS.items()),
                name="itemkind_sub_kind_fits_category",
            ),
            models.CheckConstraint(
                condition=~_category(ItemCategory.WEAPON) | Q(damage__gt=0), name="itemkind_weapon_has_damage"
            ),
            models.CheckConstraint(
                condition=~_category(ItemCategory.ARMOR) | Q(armor__gt=0), name="itemkind_armor_has_armor"
            ),
            models.CheckConstraint(
                condition=~_sub_kind("healing") | Q(heal__gt=0), name="itemkind_healing_heals"
            ),
            models.CheckConstraint(
                condition=~(_sub_kind("effect") | _category(ItemCategory.AMULET)) | ~Q(effect=""),
                name="itemkind_effect_item_has_effect",
            ),
            models.CheckConstraint(
                condition=~_sub_kind("stat") | (~Q(stat="") & Q(stat_amount__gt=0)),
                name="itemkind_stat_potion_has_stat",
            ),
            models.CheckConstraint(
                condition=~_category(ItemCategory.TORCH) | Q(torch_moves__gt=0), name="itemkind_torch_burns"
            ),
            models.CheckConstraint(
                condition=Q(effect_chance__gte=0) & Q(effect_chance__lte=1), name="itemkind_effect_chance_0_1"
            ),
            models.CheckConstraint(
                condition=Q(effect_magnitude__isnull=True) | Q(effect_magnitude__gt=0),
                name="itemkind_effect_magnitude_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.sub_kind not in SUB_KINDS.get(self.category, ()):
            allowed = ", ".join(SUB_KINDS.get(self.category, ()))
            errors["sub_kind"] = f"Sub-kinds of {self.category}: {allowed}."
        if self.category == ItemCategory.WEAPON and not self.damage:
            errors["damage"] = "A weapon needs damage."
        if self.category == ItemCategory.ARMOR and not self.armor:
            errors["armor"] = "Armor needs an armor value."
        if self.category == ItemCategory.AMULET and self.rarity != Rarity.RARE:
            errors["rarity"] = ("Amulets are rare: found only, rarely, in treasure rooms "
                                "(or made by the jeweler).")
        if self.category == ItemCategory.POTION and self.sub_kind == "healing" and not self.heal:
            errors["heal"] = "A healing potion needs a heal amount."
        if (self.category == ItemCategory.AMULET or self.sub_kind == "effect") and not self.effect:
            errors["effect"] = "Effect potions and amulets need an effect."
        if self.sub_kind == "stat" and not (self.stat and self.stat_amount):
            errors["stat"] = "A stat potion needs a stat and an amount."
        if self.category == ItemCategory.TORCH and not self.torch_moves:
            errors["torch_moves"] = "A torch needs a number of moves."
        if not 0 <= self.effect_chance <= 1:
            errors["effect_chance"] = "A chance is between 0 and 1."
        if self.effect_magnitude is not None and self.effect_magnitude <= 0:
            errors["effect_magnitude"] = "A magnitude is positive (leave it empty for the default)."
        if errors:
            raise ValidationError(errors)

    @property
    def weapon_class(self) -> str:
        """melee, ranged, magic or throwing for weapons; empty otherwise."""
        return WEAPON_CLASSES.get(self.sub_kind, "") if self.category == ItemCategory.WEAPON else ""

    @property
    def is_equippable(self) -> bool:
        return self.category in inventory.EQUIPPABLE_CATEGORIES

    # --- the combat engine's values ---

    def effect_spec(self) -> EffectSpec | None:
        if not self.effect:
            return None
        permanent = self.category == ItemCategory.AMULET  # an amulet's effect lasts the whole battle
        return EffectSpec(self.effect, turns=None if permanent else self.effect_turns,
                          magnitude=self.effect_magnitude, chance=self.effect_chance)

    def as_weapon(self) -> Weapon:
        if self.category != ItemCategory.WEAPON:
            raise ValueError(f"{self.name} is not a weapon")
        spec = self.effect_spec()
        return Weapon(self.name, self.damage, self.weapon_class, (spec,) if spec else ())

    def as_potion(self, item_id: int) -> Potion:
        if self.category != ItemCategory.POTION:
            raise ValueError(f"{self.name} is not a potion")
        return Potion(str(item_id), PotionKind(self.sub_kind), heal=self.heal, effect=self.effect_spec(),
                      stat=self.stat or None, amount=self.stat_amount)


class InventoryItem(models.Model):
    """One item a player carries (one row per item, so each can be equipped, lost or drunk alone).

    Every row counts against the carry limits; players.services.inventory_add is the only way in.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="inventory")
    item_kind = models.ForeignKey(ItemKind, on_delete=models.PROTECT, related_name="+")
    equipped = models.BooleanField(
        default=False, help_text="Armor worn, or a weapon/torch taken into battle."
    )
    acquired_in_run = models.ForeignKey(
        "dungeons.Run", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The dungeon run the item was picked up in (lost on death in that run); empty = kept.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.item_kind} of {self.player_id}"


class CarrySettings(SingletonSettings):
    """Carry limits (admin-editable): weapon and potion counts, the belt bonus, the weight capacity."""

    max_weapons = models.PositiveSmallIntegerField(default=2, help_text="Weapons carried (a torch is one).")
    max_potions = models.PositiveSmallIntegerField(default=3, help_text="Potions carried without a belt.")
    potions_per_belt_level = models.PositiveSmallIntegerField(
        default=1, help_text="Extra potions per potion belt level (SPEC: 4 with one belt, 5 with two)."
    )
    capacity_base = models.PositiveSmallIntegerField(default=40, help_text="Weight capacity at strength 0.")
    capacity_per_strength = models.PositiveSmallIntegerField(
        default=5, help_text="Capacity per strength level."
    )

    class Meta:
        verbose_name = "carry settings"
        verbose_name_plural = "carry settings"

    def __str__(self) -> str:
        return "Carry settings"

    def to_rules(self) -> inventory.CarryRules:
        return self.as_value(inventory.CarryRules)


class NoticeKind(models.TextChoices):
    """What a user is told on their own stream (``GET /api/v1/me/stream/``; docs/live.md)."""

    YOUR_TURN = "your_turn"
    MATCH_STARTED = "match_started"
    MATCH_ENDED = "match_ended"
    INVITATION = "invitation"
    APPLICATION_DECIDED = "application_decided"
    LOBBY_CHANGED = "lobby_changed"
    REMATCH_OFFERED = "rematch_offered"


class NoticeCounter(models.Model):
    """A user's last notice ``seq``. Written only by ``players.notice_store``: the upsert that takes the next
    numbers locks this row until the commit, so one user's notices are numbered in their commit order with
    no gap (a rolled-back step gives its numbers back)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="+")
    last_seq = models.PositiveBigIntegerField(default=0)


class Notice(models.Model):
    """One thing a user is told (a turn, a match started or ended, an invitation, ...), numbered per user.

    ``data`` names what it is about by id (``{"match": 7, ...}``, ``{"run": 3, "battle": 9, ...}``,
    ``{"guild": 2, ...}``); its sentence is rendered at read time in the reader's language. The unique
    (user, seq) index serves "the user's notices after N".
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             db_index=False)
    seq = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=32, choices=NoticeKind.choices)
    data = models.JSONField(default=dict)
    created = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["user", "seq"]
        constraints = [models.UniqueConstraint(fields=["user", "seq"], name="players_notice_user_seq")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.seq} for user {self.user_id}"
