"""Dungeon tables: the generation balancing settings (singleton) and generated dungeons with rooms."""
from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from backend.models import SingletonSettings
from dungeons.generation import NPC_KINDS, STORY_ITEMS, GenerationParams, validation_errors

_DEFAULTS = GenerationParams()


class DungeonKind(models.TextChoices):
    ORDINARY = "ordinary", "Ordinary"
    FRENZY = "frenzy", "Frenzy"
    DARKNESS = "darkness", "Labyrinth of Darkness"


class RoomKind(models.TextChoices):
    ENEMY = "enemy", "Enemies"
    TRAP = "trap", "Trap"
    TREASURE = "treasure", "Treasure"
    STORY = "story", "Story"
    REST = "rest", "Rest"
    BOSS = "boss", "Boss"


NpcKind = models.TextChoices("NpcKind", [(kind, kind.replace("_", " ").capitalize()) for kind in NPC_KINDS])
StoryItem = models.TextChoices("StoryItem", [(item, item.replace("_", " ").capitalize()) for item in STORY_ITEMS])


class GenerationSettings(SingletonSettings):
    """Every number of dungeon generation (SPEC section 5), tuned by designers in the admin.

    Field names are GenerationParams' names, so ``to_params`` is a plain copy; the engine
    validates the combination (e.g. f_max >= f_min) and the form shows its messages.
    """

    f_min = models.PositiveSmallIntegerField("F_min", default=_DEFAULTS.f_min, help_text="Fewest floors.")
    f_max = models.PositiveSmallIntegerField("F_max", default=_DEFAULTS.f_max, help_text="Most floors.")
    r_min = models.PositiveSmallIntegerField(
        "R_min", default=_DEFAULTS.r_min, help_text="Rooms per floor for the weakest party."
    )
    r_max = models.PositiveSmallIntegerField(
        "R_max", default=_DEFAULTS.r_max,
        help_text="Rooms per floor at the curve's nominal top; strong parties on deep floors exceed it (intended).",
    )
    n_opt = models.FloatField("N_opt", default=_DEFAULTS.n_opt, help_text="Optimal party size.")
    r_opt = models.FloatField("R_opt", default=_DEFAULTS.r_opt, help_text="Guild rank of substantial progress.")
    c_opt = models.FloatField("C_opt", default=_DEFAULTS.c_opt, help_text="Optimal number of completed dungeons.")
    k = models.FloatField("k", default=_DEFAULTS.k, help_text="How fast the floor count saturates (tanh slope).")
    treasure_base = models.FloatField(
        default=_DEFAULTS.treasure_base, help_text="Lottery X = clamp(0, treasure_base + N - treasures, treasure_cap)."
    )
    treasure_cap = models.FloatField(default=_DEFAULTS.treasure_cap)
    trap_base = models.FloatField(
        default=_DEFAULTS.trap_base, help_text="Lottery Y = clamp(0, trap_base + C - traps, trap_cap)."
    )
    trap_cap = models.FloatField(default=_DEFAULTS.trap_cap)
    enemy_base = models.FloatField(
        default=_DEFAULTS.enemy_base, help_text="Lottery Z = clamp(0, enemy_base + floor - enemy rooms, enemy_cap)."
    )
    enemy_cap = models.FloatField(default=_DEFAULTS.enemy_cap)
    story_item_chance = models.FloatField(
        default=_DEFAULTS.story_item_chance,
        help_text="Chance per floor that one more room is a story room holding story items (0..1).",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "dungeon generation settings"
        verbose_name_plural = "dungeon generation settings"
        constraints = [
            models.CheckConstraint(condition=Q(f_min__gte=1) & Q(f_max__gte=F("f_min")), name="gen_floors_valid"),
            models.CheckConstraint(condition=Q(r_min__gte=1) & Q(r_max__gte=F("r_min")), name="gen_rooms_valid"),
            models.CheckConstraint(
                condition=Q(n_opt__gt=0) & Q(r_opt__gt=0) & Q(c_opt__gt=0) & Q(k__gte=0), name="gen_norms_valid"
            ),
            models.CheckConstraint(
                condition=Q(treasure_cap__gte=0) & Q(trap_cap__gte=0) & Q(enemy_cap__gte=0), name="gen_caps_valid"
            ),
            models.CheckConstraint(
                condition=Q(story_item_chance__gte=0) & Q(story_item_chance__lte=1), name="gen_story_chance_valid"
            ),
        ]

    def __str__(self) -> str:
        return "Dungeon generation settings"

    def params_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in GenerationParams.field_names()}

    def to_params(self) -> GenerationParams:
        return GenerationParams(**self.params_dict())

    def clean(self) -> None:
        # The same rules the engine enforces, shown as form errors instead of a 500 later.
        try:
            self.to_params()
        except (ValueError, TypeError):
            probe = object.__new__(GenerationParams)
            for name, value in self.params_dict().items():
                object.__setattr__(probe, name, value)
            raise ValidationError(validation_errors(probe)) from None


class Dungeon(models.Model):
    """One generated dungeon, stored with everything needed to regenerate it from its seed."""

    kind = models.CharField(max_length=16, choices=DungeonKind.choices)
    seed = models.BigIntegerField(help_text="random.Random(seed) was handed to the engine.")
    generator_version = models.PositiveSmallIntegerField()
    party_size = models.PositiveSmallIntegerField(help_text="N")
    rank = models.FloatField(help_text="R: the guild rank (mean for mixed parties)")
    completed = models.FloatField(help_text="C: mean dungeons completed by the party")
    same_guild = models.BooleanField()
    # The parameters in force at generation: designers may retune later, replays must not drift.
    params = models.JSONField()
    npc_candidates = models.JSONField(default=list, help_text="NPC kinds the guild had not rescued yet.")
    floor_count = models.PositiveSmallIntegerField()
    npc_chance = models.FloatField()
    npc_floor = models.PositiveSmallIntegerField(null=True, blank=True)
    npc_room = models.PositiveSmallIntegerField(null=True, blank=True)
    npc_kind = models.CharField(max_length=32, choices=NpcKind.choices, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(seed__gte=0), name="dungeon_seed_non_negative"),
            models.CheckConstraint(
                condition=Q(party_size__gte=1) & Q(rank__gte=0) & Q(completed__gte=0), name="dungeon_inputs_valid"
            ),
            # The NPC is all there (floor, room, kind) or not at all, and only for one-guild parties.
            models.CheckConstraint(
                condition=(Q(npc_floor__isnull=True) & Q(npc_room__isnull=True) & Q(npc_kind=""))
                | (Q(npc_floor__isnull=False) & Q(npc_room__isnull=False) & ~Q(npc_kind="") & Q(same_guild=True)),
                name="dungeon_npc_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} dungeon #{self.pk} (seed {self.seed})"

    @property
    def npc(self) -> tuple[int, int] | None:
        if self.npc_floor is None or self.npc_room is None:
            return None
        return self.npc_floor, self.npc_room


class DungeonRoom(models.Model):
    """One room of a generated dungeon; (floor, index) is the order the party passes them in."""

    dungeon = models.ForeignKey(Dungeon, on_delete=models.CASCADE, related_name="rooms")
    floor = models.PositiveSmallIntegerField()
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16, choices=RoomKind.choices)
    npc_kind = models.CharField(max_length=32, choices=NpcKind.choices, blank=True, default="")
    story_item = models.CharField(max_length=32, choices=StoryItem.choices, blank=True, default="")

    class Meta:
        ordering = ["dungeon", "floor", "index"]
        constraints = [
            models.UniqueConstraint(fields=["dungeon", "floor", "index"], name="dungeon_room_position_unique"),
            # Only a story room holds something, and never both an NPC and items.
            models.CheckConstraint(
                condition=(Q(npc_kind="") & Q(story_item=""))
                | (Q(kind=RoomKind.STORY) & ~Q(npc_kind="") & Q(story_item=""))
                | (Q(kind=RoomKind.STORY) & Q(npc_kind="") & ~Q(story_item="")),
                name="dungeon_room_story_content",
            ),
        ]

    def __str__(self) -> str:
        return f"floor {self.floor} room {self.index}: {self.kind}"
