"""Dungeon tables: the generation balancing settings (singleton) and generated dungeons with rooms."""
from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from backend.models import SingletonSettings
from combat.engine import EFFECTS
from dungeons.generation import NPC_KINDS, STORY_ITEMS, GenerationParams, validation_errors
from dungeons.runs.engine.rules import RunRules

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
    EMPTY = "empty", "Empty"  # only in the Labyrinth of Darkness (darkness/)


# The functional API takes (member name, (value, label)): the values are the engine's slugs. The stubs
# know only the class syntax (hence the ignores); the annotation keeps NpcKind.choices typed.
NpcKind: type[models.TextChoices] = models.TextChoices(  # type: ignore[call-overload]
    "NpcKind", [(kind.upper(), (kind, kind.replace("_", " ").capitalize())) for kind in NPC_KINDS])
StoryItem: type[models.TextChoices] = models.TextChoices(  # type: ignore[call-overload]
    "StoryItem", [(item.upper(), (item, item.replace("_", " ").capitalize())) for item in STORY_ITEMS])


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
        help_text="Rooms per floor at the curve's nominal top; strong parties on deep floors exceed it "
                  "(intended).",
    )
    n_opt = models.FloatField("N_opt", default=_DEFAULTS.n_opt, help_text="Optimal party size.")
    r_opt = models.FloatField(
        "R_opt", default=_DEFAULTS.r_opt, help_text="Guild rank of substantial progress.")
    c_opt = models.FloatField(
        "C_opt", default=_DEFAULTS.c_opt, help_text="Optimal number of completed dungeons.")
    k = models.FloatField(
        "k", default=_DEFAULTS.k, help_text="How fast the floor count saturates (tanh slope).")
    treasure_base = models.FloatField(
        default=_DEFAULTS.treasure_base,
        help_text="Lottery X = clamp(0, treasure_base + N - treasures, treasure_cap).",
    )
    treasure_cap = models.FloatField(default=_DEFAULTS.treasure_cap)
    trap_base = models.FloatField(
        default=_DEFAULTS.trap_base, help_text="Lottery Y = clamp(0, trap_base + C - traps, trap_cap)."
    )
    trap_cap = models.FloatField(default=_DEFAULTS.trap_cap)
    enemy_base = models.FloatField(
        default=_DEFAULTS.enemy_base,
        help_text="Lottery Z = clamp(0, enemy_base + floor - enemy rooms, enemy_cap).",
    )
    enemy_cap = models.FloatField(default=_DEFAULTS.enemy_cap)
    story_item_chance = models.FloatField(
        default=_DEFAULTS.story_item_chance,
        help_text="Chance per floor that one more room is a story room holding story items (0..1).",
    )
    sealed_room_chance = models.FloatField(
        default=_DEFAULTS.sealed_room_chance,
        help_text="Chance that a story-item room is answered by a sealed story room on a later floor, which "
                  "opens only for a party carrying that story item (0..1; generator version 2).",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "dungeon generation settings"
        verbose_name_plural = "dungeon generation settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(f_min__gte=1) & Q(f_max__gte=F("f_min")), name="gen_floors_valid"
            ),
            models.CheckConstraint(
                condition=Q(r_min__gte=1) & Q(r_max__gte=F("r_min")), name="gen_rooms_valid"
            ),
            models.CheckConstraint(
                condition=Q(n_opt__gt=0) & Q(r_opt__gt=0) & Q(c_opt__gt=0) & Q(k__gte=0),
                name="gen_norms_valid",
            ),
            models.CheckConstraint(
                condition=Q(treasure_cap__gte=0) & Q(trap_cap__gte=0) & Q(enemy_cap__gte=0),
                name="gen_caps_valid",
            ),
            models.CheckConstraint(
                condition=Q(story_item_chance__gte=0) & Q(story_item_chance__lte=1),
                name="gen_story_chance_valid",
            ),
            models.CheckConstraint(
                condition=Q(sealed_room_chance__gte=0) & Q(sealed_room_chance__lte=1),
                name="gen_sealed_chance_valid",
            ),
        ]

    def __str__(self) -> str:
        return "Dungeon generation settings"

    def params_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in GenerationParams.field_names()}

    def to_params(self) -> GenerationParams:
        return self.as_value(GenerationParams)

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
                condition=Q(party_size__gte=1) & Q(rank__gte=0) & Q(completed__gte=0),
                name="dungeon_inputs_valid",
            ),
            # The NPC is all there (floor, room, kind) or not at all, and only for one-guild parties.
            models.CheckConstraint(
                condition=(Q(npc_floor__isnull=True) & Q(npc_room__isnull=True) & Q(npc_kind=""))
                | (Q(npc_floor__isnull=False) & Q(npc_room__isnull=False) & ~Q(npc_kind="")
                   & Q(same_guild=True)),
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
    seal = models.CharField(max_length=32, choices=StoryItem.choices, blank=True, default="",
                            help_text="A sealed story room: opens only for a party carrying this story item.")

    class Meta:
        ordering = ["dungeon", "floor", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["dungeon", "floor", "index"], name="dungeon_room_position_unique"
            ),
            # Only a story room holds something, and one thing at most: an NPC, items, or a seal.
            models.CheckConstraint(
                condition=(Q(npc_kind="") & Q(story_item="") & Q(seal=""))
                | (Q(kind=RoomKind.STORY) & ~Q(npc_kind="") & Q(story_item="") & Q(seal=""))
                | (Q(kind=RoomKind.STORY) & Q(npc_kind="") & ~Q(story_item="") & Q(seal=""))
                | (Q(kind=RoomKind.STORY) & Q(npc_kind="") & Q(story_item="") & ~Q(seal="")),
                name="dungeon_room_story_content_v2",
            ),
        ]

    def __str__(self) -> str:
        return f"floor {self.floor} room {self.index}: {self.kind}"


# --- runs -------------------------------------------------------------------------------------

_RUN_DEFAULTS = RunRules()


class RunSettings(SingletonSettings):
    """Every number of a dungeon run outside battle (dungeons.runs.engine.rules.RunRules, docs/runs.md)."""

    max_party_size = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.max_party_size)
    escape_loss_start_percent = models.PositiveSmallIntegerField(
        default=_RUN_DEFAULTS.escape_loss_start_percent, help_text="Share of carried items lost on escape.")
    escape_loss_per_upgrade = models.PositiveSmallIntegerField(
        default=_RUN_DEFAULTS.escape_loss_per_upgrade,
        help_text="Points less per luck or attentiveness upgrade.")
    escape_loss_min_percent = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.escape_loss_min_percent)
    charon_fee_percent = models.PositiveSmallIntegerField(
        default=_RUN_DEFAULTS.charon_fee_percent, help_text="Share of money Charon takes (rounded down).")
    trap_damage_base = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.trap_damage_base)
    trap_damage_per_floor = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.trap_damage_per_floor)
    trap_mitigation_per_attentiveness = models.FloatField(
        default=_RUN_DEFAULTS.trap_mitigation_per_attentiveness,
        help_text="Share of trap damage avoided per point.")
    trap_mitigation_max = models.FloatField(default=_RUN_DEFAULTS.trap_mitigation_max)
    trap_effect = models.CharField(
        max_length=16, blank=True, default=_RUN_DEFAULTS.trap_effect, choices=[(e, e) for e in EFFECTS],
        help_text="Effect a trap may leave, carried into the next battle; empty = none.")
    trap_effect_turns = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.trap_effect_turns)
    trap_effect_chance = models.FloatField(default=_RUN_DEFAULTS.trap_effect_chance)
    treasure_items_base = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.treasure_items_base)
    treasure_extra_chance_per_attentiveness = models.FloatField(
        default=_RUN_DEFAULTS.treasure_extra_chance_per_attentiveness,
        help_text="Each member adds an item with chance attentiveness x this.")
    treasure_coins_base = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.treasure_coins_base)
    treasure_coins_per_floor = models.PositiveSmallIntegerField(
        default=_RUN_DEFAULTS.treasure_coins_per_floor)
    battle_loot_chance = models.FloatField(default=_RUN_DEFAULTS.battle_loot_chance)
    boss_loot_items = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.boss_loot_items)
    boss_coins = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.boss_coins)
    story_items_count = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.story_items_count)
    sealed_reward_items = models.PositiveSmallIntegerField(
        default=_RUN_DEFAULTS.sealed_reward_items,
        help_text="Items (uncommon or rare weapons, armor, potions) an opened sealed story room holds.")
    sealed_reward_coins_base = models.PositiveSmallIntegerField(
        default=_RUN_DEFAULTS.sealed_reward_coins_base,
        help_text="Coins each member finds in an opened sealed story room (plus per floor).")
    sealed_reward_coins_per_floor = models.PositiveSmallIntegerField(
        default=_RUN_DEFAULTS.sealed_reward_coins_per_floor)
    rest_heal_base = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.rest_heal_base)
    rest_heal_per_metabolism = models.PositiveSmallIntegerField(
        default=_RUN_DEFAULTS.rest_heal_per_metabolism)
    room_regen_base = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.room_regen_base)
    room_regen_per_metabolism = models.PositiveSmallIntegerField(
        default=_RUN_DEFAULTS.room_regen_per_metabolism)
    npc_hp = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.npc_hp)
    weight_common = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.weight_common)
    weight_uncommon = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.weight_uncommon)
    weight_rare = models.PositiveSmallIntegerField(default=_RUN_DEFAULTS.weight_rare)

    class Meta:
        verbose_name = "run settings"
        verbose_name_plural = "run settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(max_party_size__gte=1) & Q(escape_loss_min_percent__lte=100)
                & Q(escape_loss_start_percent__lte=100) & Q(charon_fee_percent__lte=100),
                name="run_settings_percents_valid",
            ),
            models.CheckConstraint(
                condition=Q(trap_mitigation_per_attentiveness__gte=0) & Q(trap_mitigation_max__gte=0)
                & Q(trap_mitigation_max__lte=1) & Q(trap_effect_chance__gte=0) & Q(trap_effect_chance__lte=1)
                & Q(treasure_extra_chance_per_attentiveness__gte=0) & Q(battle_loot_chance__gte=0)
                & Q(battle_loot_chance__lte=1),
                name="run_settings_chances_valid",
            ),
        ]

    def __str__(self) -> str:
        return "Run settings"

    def to_rules(self) -> RunRules:
        return self.as_value(RunRules)


class RunStatus(models.TextChoices):
    LOBBY = "lobby"
    ACTIVE = "active"
    COMPLETED = "completed"
    FAILED = "failed"  # the whole party died
    ESCAPED = "escaped"  # everyone left alive escaped
    CANCELLED = "cancelled"  # the lobby emptied before the start


class RunFacts:
    """What a run's columns say about it, for the model and for the run store's frozen row alike."""

    status: str
    npc_kind: str
    npc_hp: int

    @property
    def is_over(self) -> bool:
        return self.status not in (RunStatus.LOBBY, RunStatus.ACTIVE)

    @property
    def has_npc(self) -> bool:
        return bool(self.npc_kind) and self.npc_hp > 0


class Run(RunFacts, models.Model):
    """One party's run through one dungeon, from the lobby to its end.

    The position (floor, room) only moves forward; ``step`` counts run-level moves (advance,
    escape) so a client's move names the step it answers and a duplicate cannot move twice.
    ``seed`` drives every non-battle draw of the run (offers, traps, loot) and stays secret
    while the run is on.
    """

    kind = models.CharField(max_length=16, choices=DungeonKind.choices)
    status = models.CharField(max_length=16, choices=RunStatus.choices, default=RunStatus.LOBBY)
    host = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="hosted_runs")
    seed = models.BigIntegerField()
    dungeon = models.OneToOneField(
        Dungeon, null=True, blank=True, on_delete=models.PROTECT, related_name="run")
    guild = models.ForeignKey(
        "guilds.Guild", null=True, blank=True, on_delete=models.SET_NULL, related_name="runs",
        help_text="The guild every member belonged to at the start (rescues go to it); "
                  "empty for mixed parties.",
    )
    floor = models.PositiveSmallIntegerField(null=True, blank=True)
    room = models.PositiveSmallIntegerField(null=True, blank=True)
    room_cleared = models.BooleanField(
        default=False, help_text="The current room is done; the party may go on.")
    step = models.PositiveIntegerField(default=0)
    npc_kind = models.CharField(max_length=32, choices=NpcKind.choices, blank=True, default="")
    npc_hp = models.PositiveSmallIntegerField(default=0)
    npc_max_hp = models.PositiveSmallIntegerField(default=0)
    log = models.JSONField(default=list, blank=True, help_text="What happened in each room, in order.")
    event_seq = models.PositiveIntegerField(
        default=0, help_text="The last number of the run's one sequence of events (its log entries and "
                             "its battles' events) given by a write of the run; an ongoing battle may have "
                             "gone on.")
    rules = models.JSONField(
        null=True, blank=True,
        help_text="The run settings (RunRules) in force from the start: the run plays by them to its end.")
    actions = models.JSONField(
        default=list, blank=True, help_text="Every move of the party from the start: who did what, when.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["-created_at", "-id"], condition=Q(status="lobby"), name="run_open_lobbies"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(seed__gte=0), name="run_seed_non_negative"),
            models.CheckConstraint(condition=Q(npc_hp__lte=F("npc_max_hp")), name="run_npc_hp_within_max"),
            models.CheckConstraint(
                condition=Q(status="lobby") | Q(status="cancelled") | Q(dungeon__isnull=False),
                name="run_started_has_dungeon",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} run #{self.pk} ({self.status})"


class MemberStatus(models.TextChoices):
    JOINED = "joined"  # in the lobby
    IN_DUNGEON = "in_dungeon"
    DEAD = "dead"  # respawned through Charon
    ESCAPED = "escaped"
    FINISHED = "finished"  # was there when the boss of the last floor fell
    LEFT = "left"  # left the lobby


class WeaponChoice(models.TextChoices):
    PENDING = "pending"
    TAKEN = "taken"
    REFUSED = "refused"


class RunMember(models.Model):
    """A player in a run: place in the formation, hit points and what the run did to them.

    ``active`` is true while the player is in a lobby or inside a dungeon; a partial unique
    index makes "a player is in at most one active run" a database fact.
    """

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="run_memberships")
    position = models.PositiveSmallIntegerField(help_text="Place in the formation (0 first).")
    status = models.CharField(max_length=16, choices=MemberStatus.choices, default=MemberStatus.JOINED)
    active = models.BooleanField(default=True)
    weapon_choice = models.CharField(max_length=8, choices=WeaponChoice.choices, default=WeaponChoice.PENDING)
    guild = models.ForeignKey(
        "guilds.Guild", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The member's guild when the run started (the activity ledger counts it there).",
    )
    hp = models.PositiveSmallIntegerField(default=0)
    max_hp = models.PositiveSmallIntegerField(default=0)
    stat_boosts = models.JSONField(default=dict, blank=True, help_text="Stat potions drunk in this run.")
    pending_effects = models.JSONField(
        default=list, blank=True, help_text="Trap effects for the next battle.")
    buffs = models.JSONField(
        default=list, blank=True, help_text="Warlock buffs for every battle of this run.")
    kills = models.JSONField(
        default=dict, blank=True, help_text="Enemy kind slug -> creatures this member killed.")
    money_lost = models.PositiveIntegerField(default=0, help_text="Charon's fee, if the member died.")
    items_lost = models.PositiveSmallIntegerField(default=0, help_text="Items lost to death or escape.")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=Q(active=True), name="run_member_one_active_run"
            ),
            models.UniqueConstraint(fields=["run", "player"], name="run_member_once"),
            models.CheckConstraint(condition=Q(hp__lte=F("max_hp")), name="run_member_hp_within_max"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in run {self.run_id}"


class RunLoot(models.Model):
    """An item lying in a room of a run until a member takes it (a refused pickup leaves it here)."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="loot")
    floor = models.PositiveSmallIntegerField()
    room = models.PositiveSmallIntegerField()
    item_kind = models.ForeignKey("players.ItemKind", on_delete=models.PROTECT, related_name="+")
    taken_by = models.ForeignKey("players.Player", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    taken_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "floor", "room", "id"]
        indexes = [models.Index(fields=["run", "floor", "room"], name="run_loot_room")]

    def __str__(self) -> str:
        return f"{self.item_kind} in run {self.run_id} ({self.floor}, {self.room})"
