"""NPC kinds and what each guild owns, the economy's admin data (offers, buy rates, buffs, quests,
structures, recipes, stone values), the players' holdings (bought buffs, bounties) and the ledger of
every NPC trade."""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from backend.models import SingletonSettings
from combat.engine import EffectSpec
from combat.engine.effects import EFFECTS
from combat.models import EnemyKind
from dungeons.generation import NPC_KINDS
from dungeons.generation.rules import ALWAYS_RESCUABLE
from guilds.models import Guild
from npcs import rules
from players.models import ItemCategory, ItemKind, ItemSubKind, Player

NPC_KIND_SLUGS: tuple[str, ...] = rules.INITIAL_KINDS + NPC_KINDS
assert set(rules.SERVICES) == set(NPC_KIND_SLUGS), "every NPC kind has its services listed"
assert set(rules.SHOP_GOODS) == set(rules.kinds_with(rules.SHOP))

_PERCENT = [MinValueValidator(0), MaxValueValidator(100)]


def _effect_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in EFFECTS]


class NpcSettings(SingletonSettings):
    """The NPC economy's single numbers (admin-editable); per-item numbers live in their own tables."""

    junk_dealer_offer_base = models.PositiveSmallIntegerField(
        default=3, help_text="Starting weapons the junk dealer offers each party member (before structures)."
    )
    first_belt_price = models.PositiveIntegerField(default=150, help_text="Potion seller: the first belt.")
    second_belt_price = models.PositiveIntegerField(default=400, help_text="Potion seller: the second belt.")
    shaman_stones_base = models.PositiveSmallIntegerField(
        default=1, help_text="Shaman: stone points for a stat's first upgrade (level 0 -> 1)."
    )
    shaman_stones_per_level = models.PositiveSmallIntegerField(
        default=1, help_text="Shaman: extra stone points per level the stat already has."
    )
    shaman_max_level = models.PositiveSmallIntegerField(
        default=20, help_text="Shaman: no stat is raised past this level."
    )
    max_open_bounties = models.PositiveSmallIntegerField(
        default=3, help_text="Inquisitor: open bounties a player may hold at once."
    )

    class Meta:
        verbose_name = "NPC settings"
        verbose_name_plural = "NPC settings"

    def __str__(self) -> str:
        return "NPC settings"

    def belt_price(self, level: int) -> int:
        """The price of the belt that takes a player to ``level`` (1 or 2)."""
        return {1: self.first_belt_price, 2: self.second_belt_price}[level]


class NpcKind(models.Model):
    """One kind of NPC: its name and flavour, and the rank points a guild earns by rescuing it.

    The fourteen rows (two initial, twelve to rescue) come from the data migration; what each
    kind does is code (npcs.rules.SERVICES), so kinds are edited here but never added or removed.
    """

    slug = models.CharField(max_length=32, unique=True, choices=[(s, s) for s in NPC_KIND_SLUGS])
    name = models.CharField(max_length=64)
    description = models.TextField(blank=True, default="")
    rank_points = models.PositiveSmallIntegerField(
        default=1, help_text="Added to a guild's rank by each rescue (initial NPCs are never rescued)."
    )

    class Meta:
        ordering = ["id"]
        verbose_name = "NPC kind"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def of(cls, slug: str) -> NpcKind:
        """The row of ``slug``, created with plain defaults if missing: the data migration makes all
        fourteen, but a database flushed since (e.g. between transactional tests) must not break a rescue."""
        if slug not in NPC_KIND_SLUGS:
            raise ValueError(f"unknown NPC kind {slug!r}")
        kind, _ = cls.objects.get_or_create(slug=slug, defaults={
            "name": slug.replace("_", " ").title(), "rank_points": 0 if slug in rules.INITIAL_KINDS else 1})
        return kind

    @property
    def is_initial(self) -> bool:
        return self.slug in rules.INITIAL_KINDS

    @property
    def is_repeatable(self) -> bool:
        return self.slug in ALWAYS_RESCUABLE

    @property
    def services(self) -> tuple[str, ...]:
        return rules.SERVICES[self.slug]


class GuildNpc(models.Model):
    """An NPC a guild rescued; ``count`` is how many (peasants may come many times, others once)."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="npcs")
    kind = models.ForeignKey(NpcKind, on_delete=models.PROTECT, related_name="+")
    count = models.PositiveIntegerField(default=1)
    rank_points = models.PositiveIntegerField(default=0, help_text="Rank points these rescues added.")
    first_rescued_at = models.DateTimeField()
    last_rescued_at = models.DateTimeField()

    class Meta:
        ordering = ["guild", "kind"]
        verbose_name = "guild NPC"
        constraints = [
            models.UniqueConstraint(fields=["guild", "kind"], name="guildnpc_one_row_per_kind"),
            models.CheckConstraint(condition=Q(count__gte=1), name="guildnpc_count_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.guild}" + (f" x{self.count}" if self.count > 1 else "")


class NpcRescue(models.Model):
    """The rescue ledger: one row per rescue that counted, with the rank points it added."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="npc_rescues")
    kind = models.ForeignKey(NpcKind, on_delete=models.PROTECT, related_name="+")
    run_id = models.PositiveBigIntegerField(null=True, blank=True,
                                            help_text="The dungeon run that brought it.")
    rank_points = models.PositiveSmallIntegerField()
    rescued_at = models.DateTimeField()

    class Meta:
        ordering = ["-rescued_at", "-id"]
        verbose_name = "NPC rescue"
        constraints = [
            # At most one NPC per run (SPEC section 8): a repeated call for the same run is a no-op.
            models.UniqueConstraint(fields=["run_id"], condition=Q(run_id__isnull=False),
                                    name="npcrescue_one_per_run"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} rescued by {self.guild}"


# --- shops: what they sell and what they buy ------------------------------------------------------------

class ShopOffer(models.Model):
    """An item a shop NPC sells, at its price, with an optional daily stock per guild."""

    npc = models.ForeignKey(NpcKind, on_delete=models.CASCADE, related_name="offers",
                            limit_choices_to={"slug__in": rules.kinds_with(rules.SHOP)})
    item_kind = models.ForeignKey(ItemKind, on_delete=models.CASCADE, related_name="+")
    price = models.PositiveIntegerField(help_text="Coins, before the guild's structure discount; "
                                                  "at least the item's catalog price.")
    daily_stock = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Units each guild's shop can sell per day (UTC); empty = unlimited."
    )
    is_active = models.BooleanField(default=True, help_text="Inactive offers are not shown or sold.")

    class Meta:
        ordering = ["npc", "price", "item_kind__name"]
        constraints = [models.UniqueConstraint(fields=["npc", "item_kind"], name="shopoffer_unique_item")]

    def __str__(self) -> str:
        return f"{self.item_kind} at the {self.npc} for {self.price}"

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.npc_id and self.item_kind_id:
            kind, item = self.npc, self.item_kind
            if not rules.shop_sells(kind=kind.slug, category=item.category, weapon_class=item.weapon_class):
                errors["item_kind"] = f"The {kind} does not sell {item.category} ({item.sub_kind})."
            elif self.price is not None and self.price < item.price:
                # Otherwise a member could buy here and sell back to an NPC for more (npcs.rules.sale_price).
                errors["price"] = f"At least the catalog price of {item}: {item.price}."
        if errors:
            raise ValidationError(errors)


class OfferStockDay(models.Model):
    """How many units of a limited offer one guild's shop sold on one day (UTC)."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="+")
    offer = models.ForeignKey(ShopOffer, on_delete=models.CASCADE, related_name="stock_days")
    day = models.DateField()
    sold = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = "offer stock per day"
        constraints = [models.UniqueConstraint(fields=["guild", "offer", "day"], name="offerstockday_unique")]

    def __str__(self) -> str:
        return f"{self.offer} in {self.guild} on {self.day}: {self.sold} sold"


class BuyRate(models.Model):
    """What share of an item's catalog price an NPC pays for it; a sub-kind row beats its category's."""

    npc = models.ForeignKey(NpcKind, on_delete=models.CASCADE, related_name="buy_rates",
                            limit_choices_to={"slug__in": rules.kinds_with(rules.SELL)})
    category = models.CharField(max_length=16, choices=ItemCategory.choices)
    sub_kind = models.CharField(max_length=32, choices=ItemSubKind.choices, blank=True, default="",
                                help_text="Empty = every sub-kind of the category.")
    rate_percent = models.PositiveSmallIntegerField(validators=_PERCENT,
                                                    help_text="Percent of the catalog price.")

    class Meta:
        ordering = ["npc", "category", "sub_kind"]
        constraints = [
            models.UniqueConstraint(fields=["npc", "category", "sub_kind"], name="buyrate_unique"),
            models.CheckConstraint(condition=Q(rate_percent__lte=100), name="buyrate_at_most_100_percent"),
        ]

    def __str__(self) -> str:
        return f"{self.npc} buys {self.sub_kind or self.category} at {self.rate_percent}%"

    def clean(self) -> None:
        # SPEC section 8: the potion seller buys potions dearer than the trader (same category and sub-kind).
        pair = {"potion_seller": "trader", "trader": "potion_seller"}
        if self.category != ItemCategory.POTION or not self.npc_id or self.npc.slug not in pair:
            return
        other = pair[self.npc.slug]
        theirs = BuyRate.objects.filter(npc__slug=other, category=self.category,
                                        sub_kind=self.sub_kind).first()
        if theirs is None or self.rate_percent is None:
            return
        seller, trader = ((self.rate_percent, theirs.rate_percent) if self.npc.slug == "potion_seller"
                          else (theirs.rate_percent, self.rate_percent))
        if seller <= trader:
            raise ValidationError({"rate_percent": f"The potion seller must pay more for potions than the "
                                                   f"trader (the {other} pays {theirs.rate_percent}%)."})


# --- warlock -------------------------------------------------------------------------------------------

class WarlockBuff(models.Model):
    """A buff the warlock sells: applied at the start of every battle of the buyer's next run."""

    name = models.CharField(max_length=64, unique=True)
    description = models.TextField(blank=True, default="")
    effect = models.CharField(max_length=16, choices=_effect_choices())
    turns = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)],
        help_text="Turns of the carrier in each battle; empty = the whole battle.",
    )
    magnitude = models.FloatField(null=True, blank=True, help_text="Empty = the combat settings' default.")
    price = models.PositiveIntegerField()
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["price", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(effect__in=EFFECTS), name="warlockbuff_effect_known"),
            models.CheckConstraint(condition=Q(magnitude__isnull=True) | Q(magnitude__gt=0),
                                   name="warlockbuff_magnitude_positive"),
            models.CheckConstraint(condition=Q(turns__isnull=True) | Q(turns__gte=1),
                                   name="warlockbuff_turns_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.magnitude is not None and self.magnitude <= 0:
            raise ValidationError({"magnitude": "A magnitude is positive (leave it empty for the default)."})


class PlayerBuff(models.Model):
    """A warlock buff a player bought: pending until their next run claims it.

    The effect is copied at purchase, so a later admin edit does not change what was paid for.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="warlock_buffs")
    buff = models.ForeignKey(WarlockBuff, on_delete=models.PROTECT, related_name="+")
    guild = models.ForeignKey(Guild, on_delete=models.SET_NULL, null=True, related_name="+",
                              help_text="Whose warlock sold it.")
    effect = models.CharField(max_length=16, choices=_effect_choices())
    turns = models.PositiveSmallIntegerField(null=True, blank=True)
    magnitude = models.FloatField(null=True, blank=True)
    price_paid = models.PositiveIntegerField()
    bought_at = models.DateTimeField()
    claimed_run_id = models.PositiveBigIntegerField(null=True, blank=True,
                                                    help_text="The run that used it; empty = still pending.")
    claimed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-bought_at", "-id"]
        verbose_name = "bought warlock buff"
        constraints = [
            # Two pending copies of one buff would merge into one in battle: the second is refused.
            models.UniqueConstraint(fields=["player", "buff"], condition=Q(claimed_run_id__isnull=True),
                                    name="playerbuff_one_pending_per_buff"),
        ]
        indexes = [models.Index(fields=["player", "claimed_run_id"], name="playerbuff_player_run")]

    def __str__(self) -> str:
        return f"{self.buff} for {self.player}"

    @property
    def is_pending(self) -> bool:
        return self.claimed_run_id is None

    def spec(self) -> EffectSpec:
        return EffectSpec(self.effect, turns=self.turns, magnitude=self.magnitude)


# --- shaman -------------------------------------------------------------------------------------------

class StoneValue(models.Model):
    """How many points an enchanted stone is worth at the shaman (a stone without a row is worth 1)."""

    item_kind = models.OneToOneField(ItemKind, on_delete=models.CASCADE, related_name="+",
                                     limit_choices_to={"sub_kind": ItemSubKind.ENCHANTED_STONE})
    points = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])

    class Meta:
        ordering = ["points", "item_kind__name"]
        constraints = [models.CheckConstraint(condition=Q(points__gte=1), name="stonevalue_points_positive")]

    def __str__(self) -> str:
        return f"{self.item_kind}: {self.points} points"

    def clean(self) -> None:
        if self.item_kind_id and self.item_kind.sub_kind != ItemSubKind.ENCHANTED_STONE:
            raise ValidationError({"item_kind": "Only enchanted stones are worth points at the shaman."})


# --- inquisitor ---------------------------------------------------------------------------------------

class BountyQuest(models.Model):
    """A bounty the inquisitor offers: kill ``kills`` creatures of ``enemy_kind`` for ``reward`` coins."""

    title = models.CharField(max_length=80)
    description = models.TextField(blank=True, default="")
    # Deleting a creature deletes its quests and the bounties taken on them (paid rewards stay in
    # the trade ledger); to retire a quest, make it inactive.
    enemy_kind = models.ForeignKey(EnemyKind, on_delete=models.CASCADE, related_name="+")
    kills = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    reward = models.PositiveIntegerField(help_text="Coins, before the guild's bounty bonus.")
    is_active = models.BooleanField(default=True,
                                    help_text="Inactive quests are not offered; taken ones go on.")

    class Meta:
        ordering = ["reward", "title"]
        constraints = [models.CheckConstraint(condition=Q(kills__gte=1), name="bountyquest_kills_positive")]

    def __str__(self) -> str:
        return self.title


class BountyStatus(models.TextChoices):
    OPEN = "open"
    COMPLETED = "completed"
    ABANDONED = "abandoned"


class PlayerBounty(models.Model):
    """A bounty a player took: kills count from battles until it is complete (reward paid) or abandoned."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="bounties")
    quest = models.ForeignKey(BountyQuest, on_delete=models.CASCADE, related_name="taken")
    guild = models.ForeignKey(Guild, on_delete=models.SET_NULL, null=True, related_name="+",
                              help_text="Whose inquisitor gave it (its structures set the bonus).")
    enemy_slug = models.SlugField(max_length=64, help_text="Copied from the quest: what counts.")
    kills_required = models.PositiveSmallIntegerField()
    reward = models.PositiveIntegerField(help_text="Copied from the quest at acceptance.")
    progress = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=16, choices=BountyStatus.choices, default=BountyStatus.OPEN)
    reward_paid = models.PositiveIntegerField(default=0)
    accepted_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-accepted_at", "-id"]
        verbose_name_plural = "player bounties"
        constraints = [
            models.UniqueConstraint(fields=["player", "quest"], condition=Q(status="open"),
                                    name="playerbounty_one_open_per_quest"),
            models.CheckConstraint(condition=Q(progress__lte=models.F("kills_required")),
                                   name="playerbounty_progress_within_required"),
        ]
        indexes = [models.Index(fields=["player", "status", "enemy_slug"], name="playerbounty_open_kills")]

    def __str__(self) -> str:
        return f"{self.quest} for {self.player} ({self.progress}/{self.kills_required})"


# --- junk dealer --------------------------------------------------------------------------------------

class JunkDealerTier(models.Model):
    """A tier of the junk dealer's starting weapons: a guild gets the highest tier its rank reaches.

    The offer is drawn from that tier; if it holds fewer weapons than the offer size (which the
    carpenter's structures raise), the lower tiers fill it up, best first (docs/npcs.md).
    """

    name = models.CharField(max_length=64)
    min_rank = models.PositiveIntegerField(
        unique=True,
        help_text="The guild rank from which this tier is offered (0: every guild and the guildless).")
    weapons = models.ManyToManyField(
        ItemKind, related_name="junk_dealer_tiers", limit_choices_to={"category": ItemCategory.WEAPON},
        help_text="The starting weapons of this tier.")

    class Meta:
        ordering = ["min_rank"]

    def __str__(self) -> str:
        return f"{self.name} (rank {self.min_rank}+)"


# --- carpenter ------------------------------------------------------------------------------------------

class Structure(models.Model):
    """A guild structure the carpenter builds once per guild, with one guild-wide effect."""

    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=64)
    description = models.TextField(blank=True, default="")
    effect = models.CharField(max_length=32, choices=[(k, k) for k in rules.STRUCTURE_EFFECTS],
                              help_text="What it does (docs/npcs.md): " + " ".join(
                                  f"{k}: {v}" for k, v in rules.STRUCTURE_EFFECTS.items()))
    amount = models.PositiveSmallIntegerField(help_text="Weapons, percent or stone points, by effect.")
    coins = models.PositiveIntegerField(default=0, help_text="Coins the builder pays besides the materials.")
    is_active = models.BooleanField(default=True,
                                    help_text="Inactive structures cannot be built; built ones work.")

    class Meta:
        ordering = ["coins", "name"]
        constraints = [models.CheckConstraint(condition=Q(effect__in=list(rules.STRUCTURE_EFFECTS)),
                                              name="structure_effect_known")]

    def __str__(self) -> str:
        return self.name


class MaterialLine(models.Model):
    """``quantity`` items of ``item_kind`` that a recipe consumes."""

    item_kind = models.ForeignKey(ItemKind, on_delete=models.PROTECT, related_name="+")
    quantity = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.quantity} x {self.item_kind}"


class StructureMaterial(MaterialLine):
    structure = models.ForeignKey(Structure, on_delete=models.CASCADE, related_name="materials")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["structure", "item_kind"],
                                               name="structurematerial_unique")]


class GuildStructure(models.Model):
    """A structure a guild has built; its effect applies to every member."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="structures")
    structure = models.ForeignKey(Structure, on_delete=models.PROTECT, related_name="built")
    built_by = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    built_at = models.DateTimeField()

    class Meta:
        ordering = ["guild", "built_at"]
        constraints = [models.UniqueConstraint(fields=["guild", "structure"], name="guildstructure_once")]

    def __str__(self) -> str:
        return f"{self.structure} of {self.guild}"


# --- jeweler ------------------------------------------------------------------------------------------

class JewelerRecipe(models.Model):
    """An amulet the jeweler makes from gems (its materials) for a fee."""

    amulet = models.ForeignKey(ItemKind, on_delete=models.CASCADE, related_name="+",
                               limit_choices_to={"category": ItemCategory.AMULET})
    fee = models.PositiveIntegerField(default=0, help_text="Coins, before the guild's structure discount.")
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["fee", "amulet__name"]
        constraints = [models.UniqueConstraint(fields=["amulet"], name="jewelerrecipe_one_per_amulet")]

    def __str__(self) -> str:
        return f"Recipe: {self.amulet}"

    def clean(self) -> None:
        if self.amulet_id and self.amulet.category != ItemCategory.AMULET:
            raise ValidationError({"amulet": "The jeweler makes amulets."})


class JewelerMaterial(MaterialLine):
    recipe = models.ForeignKey(JewelerRecipe, on_delete=models.CASCADE, related_name="materials")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["recipe", "item_kind"], name="jewelermaterial_unique")]


# --- the ledger ---------------------------------------------------------------------------------------

class TradeAction(models.TextChoices):
    BUY = "buy", "bought an item"
    SELL = "sell", "sold an item"
    BELT = "belt", "bought a potion belt"
    BUFF = "buff", "bought a warlock buff"
    UPGRADE = "upgrade", "raised a stat"
    BOUNTY = "bounty", "bounty reward"
    BUILD = "build", "built a structure"
    CRAFT = "craft", "had an amulet made"


class NpcTrade(models.Model):
    """One completed NPC transaction, written in the same transaction as the trade itself."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="npc_trades")
    guild = models.ForeignKey(Guild, on_delete=models.SET_NULL, null=True, related_name="+")
    npc = models.ForeignKey(NpcKind, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=16, choices=TradeAction.choices)
    item_kind = models.ForeignKey(ItemKind, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    coins = models.BigIntegerField(
        help_text="The player's money change: negative = paid, positive = received.")
    note = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "NPC trade"
        indexes = [models.Index(fields=["player", "-created_at"], name="npctrade_player_recent")]

    def __str__(self) -> str:
        return f"{self.player} {self.get_action_display()} ({self.coins:+d})"
