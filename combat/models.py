"""Combat balancing data: the combat rules singleton and the bestiary (enemy and boss kinds)."""
from __future__ import annotations

import dataclasses
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

from backend.models import BalancingQuerySet, SingletonSettings, track_balancing_changes
from combat.engine import DEFAULT_MAGNITUDES, EFFECTS, CombatRules, EffectSpec, Stats, Weapon
from combat.engine.encounters import EnemyTemplate

_DEFAULTS = CombatRules()
STAT_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Stats))
# CombatRules fields copied one to one into CombatSettings columns (a test keeps them in step).
RULE_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(CombatRules))

_UNIT = [MinValueValidator(0.0), MaxValueValidator(1.0)]


def default_effect_magnitudes() -> dict[str, float]:
    """The engine's default magnitude of every effect (the JSON column's default)."""
    return dict(DEFAULT_MAGNITUDES)


def _probability(default: float, help_text: str) -> models.FloatField[float, float]:
    return models.FloatField(default=default, validators=_UNIT, help_text=help_text + " (0..1)")


class CombatSettings(SingletonSettings):
    """Every number of the combat engine (CombatRules) plus how encounters are drawn.

    The rule fields carry CombatRules' names and defaults, so ``to_rules`` is a plain copy.
    The encounter fields belong to the server (combat.selectors.encounter_for_room).
    """

    # to-hit
    base_miss_chance = _probability(
        _DEFAULTS.base_miss_chance, "Chance that an attack misses before modifiers."
    )
    attentiveness_miss_reduction = _probability(
        _DEFAULTS.attentiveness_miss_reduction, "Miss chance removed per attentiveness point of the attacker."
    )
    min_miss_chance = _probability(_DEFAULTS.min_miss_chance, "Lowest miss chance after every modifier.")
    max_miss_chance = _probability(_DEFAULTS.max_miss_chance, "Highest miss chance after every modifier.")
    # criticals
    base_crit_chance = _probability(_DEFAULTS.base_crit_chance, "Chance of a critical hit before modifiers.")
    luck_crit_per_point = _probability(_DEFAULTS.luck_crit_per_point, "Critical chance added per luck point.")
    max_crit_chance = _probability(_DEFAULTS.max_crit_chance, "Highest critical chance after every modifier.")
    crit_multiplier = models.FloatField(
        default=_DEFAULTS.crit_multiplier, validators=[MinValueValidator(1.0), MaxValueValidator(10.0)],
        help_text="A critical hit's raw damage is multiplied by this (1..10).",
    )
    # damage
    strength_damage_per_point = models.FloatField(
        default=_DEFAULTS.strength_damage_per_point,
        validators=[MinValueValidator(0.0), MaxValueValidator(10.0)],
        help_text="Raw damage added per strength point of the attacker.",
    )
    fist_damage = models.PositiveSmallIntegerField(
        default=_DEFAULTS.fist_damage, validators=[MaxValueValidator(100)],
        help_text="Weapon damage of a creature fighting without a weapon.",
    )
    armor_constant = models.FloatField(
        default=_DEFAULTS.armor_constant, validators=[MinValueValidator(1.0), MaxValueValidator(1000.0)],
        help_text="Damage x armor_constant / (armor_constant + armor): this much armor halves a hit.",
    )
    min_damage = models.PositiveSmallIntegerField(
        default=_DEFAULTS.min_damage, validators=[MaxValueValidator(100)],
        help_text="A landed hit takes at least this much HP.",
    )
    min_attack_multiplier = models.FloatField(
        default=_DEFAULTS.min_attack_multiplier, validators=_UNIT,
        help_text="Floor of the attack multiplier 1 - weakness + vigor (0..1).",
    )
    min_defense_multiplier = models.FloatField(
        default=_DEFAULTS.min_defense_multiplier,
        validators=[MinValueValidator(0.01), MaxValueValidator(1.0)],
        help_text="Floor of the defense multiplier 1 - fragility + resilience; damage is divided by it "
        "(0.01..1).",
    )
    # regeneration and HP
    metabolism_regen_per_point = models.FloatField(
        default=_DEFAULTS.metabolism_regen_per_point,
        validators=[MinValueValidator(0.0), MaxValueValidator(10.0)],
        help_text="Regeneration heals magnitude x (1 + metabolism x this).",
    )
    base_hp = models.PositiveSmallIntegerField(
        default=_DEFAULTS.base_hp, validators=[MinValueValidator(1)],
        help_text="Players' maximum HP at stamina 0.",
    )
    hp_per_stamina = models.PositiveSmallIntegerField(
        default=_DEFAULTS.hp_per_stamina,
        help_text="Maximum HP per stamina point (also what a stamina potion adds).",
    )
    # enemy AI and termination
    ai_focus_weakest_chance = _probability(
        _DEFAULTS.ai_focus_weakest_chance,
        "Chance an enemy attacks the weakest valid target instead of a random one.",
    )
    max_rounds = models.PositiveSmallIntegerField(
        default=_DEFAULTS.max_rounds, validators=[MinValueValidator(1)],
        help_text="A battle reaching this round ends as a draw.",
    )
    effect_magnitudes = models.JSONField(
        default=default_effect_magnitudes,
        help_text="Default strength of each effect when its source gives none: {effect: positive number}. "
        "Effects left out keep the engine's default.",
    )

    # encounters: how many enemies a room holds (docs/combat.md, "Balancing data in the admin")
    encounter_base = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1)],
        help_text="Enemies in an enemy room before the terms below.",
    )
    encounter_party_divisor = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1)], help_text="One more enemy per this many players.",
    )
    encounter_floor_divisor = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1)],
        help_text="One more enemy per this many floors (0-based).",
    )
    encounter_max = models.PositiveSmallIntegerField(
        default=6, validators=[MinValueValidator(1)],
        help_text="Most enemies in one room, boss and escort included.",
    )
    boss_escort_party_divisor = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1)],
        help_text="A boss comes with one ordinary enemy of the floor per this many players.",
    )
    boss_hp_per_extra_player = models.FloatField(
        default=0.5, validators=[MinValueValidator(0.0), MaxValueValidator(10.0)],
        help_text="A boss's HP is multiplied by 1 + this x (players - 1), "
        "so parties of any size meet a fair boss.",
    )
    turn_deadline_seconds = models.PositiveSmallIntegerField(
        default=60, validators=[MinValueValidator(1)],
        help_text="A player's turn is skipped when this many seconds pass without an action.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "combat settings"
        verbose_name_plural = "combat settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(min_miss_chance__gte=0) & Q(max_miss_chance__lte=1)
                & Q(max_miss_chance__gte=F("min_miss_chance")),
                name="combat_miss_range_valid",
            ),
            models.CheckConstraint(
                condition=Q(base_miss_chance__gte=0) & Q(base_miss_chance__lte=1)
                & Q(base_crit_chance__gte=0) & Q(base_crit_chance__lte=1)
                & Q(max_crit_chance__gte=0) & Q(max_crit_chance__lte=1)
                & Q(ai_focus_weakest_chance__gte=0) & Q(ai_focus_weakest_chance__lte=1),
                name="combat_chances_valid",
            ),
            models.CheckConstraint(
                condition=Q(crit_multiplier__gte=1) & Q(armor_constant__gt=0)
                & Q(min_defense_multiplier__gt=0)
                & Q(base_hp__gte=1) & Q(max_rounds__gte=1),
                name="combat_rules_valid",
            ),
            models.CheckConstraint(
                condition=Q(encounter_base__gte=1) & Q(encounter_party_divisor__gte=1)
                & Q(encounter_floor_divisor__gte=1) & Q(encounter_max__gte=1)
                & Q(boss_escort_party_divisor__gte=1) & Q(boss_hp_per_extra_player__gte=0),
                name="combat_encounters_valid",
            ),
        ]

    def __str__(self) -> str:
        return "Combat settings"

    def rules_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in RULE_FIELDS}

    def to_rules(self) -> CombatRules:
        return self.as_value(CombatRules)

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if (
            self.max_miss_chance is not None
            and self.min_miss_chance is not None
            and self.max_miss_chance < self.min_miss_chance
        ):
            errors["max_miss_chance"] = "The highest miss chance cannot be below the lowest."
        magnitudes = self.effect_magnitudes
        if not isinstance(magnitudes, dict):
            errors["effect_magnitudes"] = "An object mapping effect names to numbers."
        else:
            unknown = sorted(set(magnitudes) - set(EFFECTS))
            bad = sorted(
                name for name, value in magnitudes.items()
                if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0
            )
            if unknown:
                errors["effect_magnitudes"] = f"Unknown effects: {', '.join(unknown)}."
            elif bad:
                errors["effect_magnitudes"] = f"Magnitudes must be positive numbers: {', '.join(bad)}."
        if errors:
            raise ValidationError(errors)


class WeaponKind(models.TextChoices):
    NATURAL = "natural", "Natural (claws, teeth)"
    MELEE = "melee", "Melee"
    RANGED = "ranged", "Ranged"
    MAGIC = "magic", "Magic"


class EffectTrigger(models.TextChoices):
    ON_HIT = "on_hit", "On hit: lands on the target of a hit"
    INNATE = "innate", "Innate: permanent on the creature from the battle's start"


class EnemyKind(models.Model):
    """One creature of the bestiary: its numbers in battle and the floors it haunts.

    An encounter draws kinds whose floor range holds the room's floor, weighted by ``weight``
    (0 takes a kind out of the draw without deleting it). ``hp`` is the creature's maximum HP
    as is; stats work as for players (strength adds damage, luck criticals, attentiveness
    accuracy, metabolism regeneration) except stamina, which an enemy's fixed HP ignores.
    """

    name = models.CharField(max_length=64, unique=True)
    slug = models.SlugField(
        max_length=64, unique=True, help_text="Stable key (encounters are drawn in slug order)."
    )
    description = models.TextField(blank=True, default="")
    is_boss = models.BooleanField(
        default=False, help_text="Bosses appear only in boss rooms; nobody can flee them."
    )
    hp = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)], help_text="Maximum HP.")
    armor = models.PositiveSmallIntegerField(
        default=0, help_text="Armor points (armor_constant points halve a hit)."
    )
    weapon_name = models.CharField(
        max_length=64, help_text="Shown in the battle log: 'Goblin attacks with ...'."
    )
    weapon_kind = models.CharField(max_length=16, choices=WeaponKind.choices, default=WeaponKind.MELEE)
    weapon_damage = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1)],
        help_text="Engine weapon damage W of each hit, before strength and armor.",
    )
    strength = models.PositiveSmallIntegerField(
        default=0, help_text="Adds strength_damage_per_point per point."
    )
    stamina = models.PositiveSmallIntegerField(
        default=0, help_text="Kept for symmetry with players; HP is fixed."
    )
    metabolism = models.PositiveSmallIntegerField(default=0, help_text="Boosts the creature's regeneration.")
    luck = models.PositiveSmallIntegerField(default=0, help_text="Raises critical chance.")
    attentiveness = models.PositiveSmallIntegerField(default=0, help_text="Lowers miss chance.")
    min_floor = models.PositiveSmallIntegerField(
        default=0, help_text="Shallowest floor (0-based) it appears on."
    )
    max_floor = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Deepest floor it appears on; empty = every deeper floor."
    )
    weight = models.PositiveSmallIntegerField(
        default=10, help_text="Relative chance in the random draw among kinds of the floor; 0 = never drawn."
    )

    #: The bestiary is balancing data kept by each process (``combat.selectors.encounter_for_room``): every
    #: change replaces the settings token (``track_balancing_changes`` below).
    objects = BalancingQuerySet.as_manager()

    class Meta:
        ordering = ["is_boss", "min_floor", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(hp__gte=1) & Q(weapon_damage__gte=1), name="enemykind_hp_and_damage_positive"
            ),
            models.CheckConstraint(
                condition=Q(max_floor__isnull=True) | Q(max_floor__gte=F("min_floor")),
                name="enemykind_floor_range_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (boss)" if self.is_boss else self.name

    def clean(self) -> None:
        if self.max_floor is not None and self.min_floor is not None and self.max_floor < self.min_floor:
            raise ValidationError({"max_floor": "The deepest floor cannot be above the shallowest."})

    @property
    def floors_label(self) -> str:
        return f"{self.min_floor}+" if self.max_floor is None else f"{self.min_floor}-{self.max_floor}"

    def appears_on(self, floor: int) -> bool:
        return self.min_floor <= floor and (self.max_floor is None or floor <= self.max_floor)

    # --- the combat engine's values ---

    def stats(self) -> Stats:
        return Stats(**{name: getattr(self, name) for name in STAT_NAMES})

    def _effects(self, trigger: str) -> tuple[EffectSpec, ...]:
        # .all() so a prefetch_related("effects") is used; order by id keeps it deterministic.
        rows = sorted((e for e in self.effects.all() if e.trigger == trigger), key=lambda e: e.pk)
        return tuple(row.spec() for row in rows)

    def weapon(self) -> Weapon:
        on_hit = self._effects(EffectTrigger.ON_HIT)
        return Weapon(self.weapon_name, self.weapon_damage, self.weapon_kind, on_hit)

    def innate_effects(self) -> tuple[EffectSpec, ...]:
        """Permanent effects from the battle's start (the engine's amulets)."""
        return self._effects(EffectTrigger.INNATE)

    def template(self) -> EnemyTemplate:
        """The creature as encounters draw it (combat.engine.encounters), effects included."""
        return EnemyTemplate(slug=self.slug, name=self.name, hp=self.hp, weapon=self.weapon(),
                             armor=self.armor, stats=self.stats(), innate=self.innate_effects(),
                             is_boss=self.is_boss, weight=self.weight, min_floor=self.min_floor,
                             max_floor=self.max_floor)


class EnemyKindEffect(models.Model):
    """An effect of an enemy kind: applied by its hits (with a chance) or innate (permanent)."""

    enemy_kind = models.ForeignKey(EnemyKind, on_delete=models.CASCADE, related_name="effects")
    objects = BalancingQuerySet.as_manager()
    trigger = models.CharField(max_length=8, choices=EffectTrigger.choices, default=EffectTrigger.ON_HIT)
    name = models.CharField("effect", max_length=16, choices=[(name, name) for name in EFFECTS])
    turns = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)],
        help_text="Turns of the carrier; empty = until the end of the battle. Innate effects: empty.",
    )
    magnitude = models.FloatField(
        null=True, blank=True, validators=[MinValueValidator(0.0)],
        help_text="Empty = the combat settings' default.",
    )
    chance = models.FloatField(
        default=1.0, validators=_UNIT, help_text="On hit: chance per landed hit (0..1)."
    )

    class Meta:
        ordering = ["enemy_kind", "id"]
        constraints = [
            models.UniqueConstraint(fields=["enemy_kind", "trigger", "name"], name="enemykindeffect_unique"),
            models.CheckConstraint(condition=Q(name__in=EFFECTS), name="enemykindeffect_name_known"),
            models.CheckConstraint(
                condition=Q(chance__gte=0) & Q(chance__lte=1), name="enemykindeffect_chance_0_1"
            ),
            models.CheckConstraint(
                condition=Q(magnitude__isnull=True) | Q(magnitude__gt=0),
                name="enemykindeffect_magnitude_positive",
            ),
            models.CheckConstraint(
                condition=Q(turns__isnull=True) | Q(turns__gte=1), name="enemykindeffect_turns_positive"
            ),
            models.CheckConstraint(
                condition=~Q(trigger="innate") | (Q(turns__isnull=True) & Q(chance=1)),
                name="enemykindeffect_innate_is_permanent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.trigger})"

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.name not in EFFECTS:
            errors["name"] = f"Unknown effect {self.name!r}; one of: {', '.join(EFFECTS)}."
        if self.magnitude is not None and self.magnitude <= 0:
            errors["magnitude"] = "A magnitude is positive (leave it empty for the default)."
        if self.trigger == EffectTrigger.INNATE:
            if self.turns is not None:
                errors["turns"] = "An innate effect lasts the whole battle; leave turns empty."
            if self.chance != 1:
                errors["chance"] = "An innate effect is always there; its chance is 1."
        if errors:
            raise ValidationError(errors)

    def spec(self) -> EffectSpec:
        return EffectSpec(self.name, turns=self.turns, magnitude=self.magnitude, chance=self.chance)


# --- battles ----------------------------------------------------------------------------------


#: A battle waiting for a player's turn (the partial index the deadline clock reads).
TURN_AWAITED = Q(outcome="ongoing", awaiting__isnull=False, turn_started_at__isnull=False)


class Battle(models.Model):
    """One battle of a run, in one enemy or boss room: the engine's setup and state as JSON.

    ``step`` is the engine's call counter (BattleState.step) and the turn number clients
    answer: an action names the step it was chosen at, and BattleAction's unique (battle,
    step) lets only one action through per step. ``turn_started_at`` is when the awaiting
    player's turn began; its deadline is applied by the deadline clock (backend/deadlines.py), or by
    whoever reads or acts first.
    """

    run = models.ForeignKey("dungeons.Run", on_delete=models.CASCADE, related_name="battles")
    floor = models.PositiveSmallIntegerField()
    room = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    engine_version = models.PositiveSmallIntegerField()
    setup = models.JSONField(help_text="The engine's BattleSetup: replay = setup + seed + actions.")
    state = models.JSONField(help_text="The engine's BattleState after the last step.")
    outcome = models.CharField(max_length=16, default="ongoing", db_index=True)
    step = models.PositiveIntegerField(default=0)
    event_count = models.PositiveIntegerField(default=0)
    awaiting = models.ForeignKey("players.Player", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+", help_text="The player whose turn it is.")
    turn_started_at = models.DateTimeField(null=True, blank=True)
    enemy_kinds = models.JSONField(default=dict, help_text="Combatant id -> EnemyKind slug (for bounties).")
    run_seq = models.PositiveIntegerField(
        default=0, help_text="The last number of its run's one sequence its events took (SPEC 13).")
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["run", "floor", "room"], name="battle_one_per_room"),
            models.CheckConstraint(condition=Q(seed__gte=0), name="battle_seed_non_negative"),
        ]
        indexes = [
            # The deadline clock's earliest pending turn: only the battles waiting for a player.
            models.Index(fields=["turn_started_at"], condition=TURN_AWAITED, name="battle_turn_awaited"),
        ]

    def __str__(self) -> str:
        return f"battle #{self.pk} of run {self.run_id} ({self.floor}, {self.room}): {self.outcome}"

    @property
    def is_over(self) -> bool:
        return self.outcome != "ongoing"


class BattleEvent(models.Model):
    """One engine event of a battle, numbered from 1 in order: the battle log."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    run_seq = models.PositiveIntegerField(
        default=0, help_text="Its number in its run's one sequence of events.")
    data = models.JSONField()

    class Meta:
        ordering = ["battle", "seq"]
        constraints = [models.UniqueConstraint(fields=["battle", "seq"], name="battle_event_seq_unique")]

    def __str__(self) -> str:
        return f"{self.battle_id}#{self.seq} {self.data.get('kind', '')}"


class BattleAction(models.Model):
    """An action that took effect (a player's, or the server's timeout), with the answer it got.

    Unique (battle, step): one action per turn step, whatever the locking; unique (battle,
    player, idempotency_key): a retried request finds its original answer here.
    """

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="actions")
    step = models.PositiveIntegerField(help_text="The battle step the action answered.")
    player = models.ForeignKey("players.Player", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    action = models.JSONField()
    idempotency_key = models.CharField(max_length=64, blank=True, default="")
    response = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["battle", "step"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "step"], name="battle_action_one_per_step"),
            models.UniqueConstraint(fields=["battle", "player", "idempotency_key"],
                                    condition=~Q(idempotency_key=""), name="battle_action_idempotency_key"),
        ]

    def __str__(self) -> str:
        return f"{self.battle_id} step {self.step}: {self.action.get('kind', '')}"


track_balancing_changes(EnemyKind, EnemyKindEffect)
