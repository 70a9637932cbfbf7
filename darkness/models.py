"""Tables of the Labyrinth of Darkness: the designers' settings, each guild's maze with what the guild
knows of it, and a darkness run's place, torch and path (the run itself is a dungeons.Run)."""
from __future__ import annotations

import functools

from django.db import models
from django.db.models import Q

from backend.models import SingletonSettings
from darkness.engine import GuildMaze as MazeLayout
from darkness.engine import MazeParams, Pos, RoomWeights
from labyrinth.engine import parse_map

_MAZE = MazeParams()
_WEIGHTS = RoomWeights()


class DarknessSettings(SingletonSettings):
    """Every number of the Labyrinth of Darkness (docs/darkness.md). Maze numbers apply to mazes
    generated afterwards: an existing guild's maze never changes."""

    rows = models.PositiveSmallIntegerField(default=_MAZE.rows, help_text="Rows of a new guild maze.")
    cols = models.PositiveSmallIntegerField(default=_MAZE.cols, help_text="Columns of a new guild maze.")
    sections = models.PositiveSmallIntegerField(default=_MAZE.sections,
                                                help_text="Bands of rows joined by camps.")
    teleport_rate = models.FloatField(default=_MAZE.teleport_rate,
                                      help_text="Teleports per room (upper bound).")
    rubber_rate = models.FloatField(default=_MAZE.rubber_rate,
                                    help_text="Rubber rooms per room (upper bound).")
    stun_rate = models.FloatField(default=_MAZE.stun_rate, help_text="Stun cells per room (upper bound).")
    stun_turns = models.PositiveSmallIntegerField(default=_MAZE.stun_turns,
                                                  help_text="Extra torch units a stun cell burns.")
    torch_length = models.PositiveSmallIntegerField(default=30, help_text="Torch units when lit or relit.")
    enemy_weight = models.FloatField(default=_WEIGHTS.enemy, help_text="Room content weights: enemies...")
    enemy_weight_per_section = models.FloatField(default=_WEIGHTS.enemy_per_section,
                                                 help_text="...plus this per section deeper (harder deeper).")
    trap_weight = models.FloatField(default=_WEIGHTS.trap)
    treasure_weight = models.FloatField(default=_WEIGHTS.treasure)
    empty_weight = models.FloatField(default=_WEIGHTS.empty)

    class Meta:
        verbose_name = "darkness settings"
        verbose_name_plural = "darkness settings"
        constraints = [
            models.CheckConstraint(condition=Q(torch_length__gte=1) & Q(stun_turns__gte=1),
                                   name="darkness_settings_torch_valid"),
            models.CheckConstraint(
                condition=Q(teleport_rate__gte=0) & Q(rubber_rate__gte=0) & Q(stun_rate__gte=0)
                & Q(enemy_weight__gte=0) & Q(trap_weight__gte=0) & Q(treasure_weight__gte=0)
                & Q(empty_weight__gte=0),
                name="darkness_settings_rates_valid"),
        ]

    def __str__(self) -> str:
        return "Darkness settings"

    def maze_params(self) -> MazeParams:
        return MazeParams(rows=self.rows, cols=self.cols, sections=self.sections,
                          teleport_rate=self.teleport_rate, rubber_rate=self.rubber_rate,
                          stun_rate=self.stun_rate, stun_turns=self.stun_turns)

    def room_weights(self) -> RoomWeights:
        return RoomWeights(enemy=self.enemy_weight, enemy_per_section=self.enemy_weight_per_section,
                           trap=self.trap_weight, treasure=self.treasure_weight, empty=self.empty_weight)

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        problems = self.maze_params().problems()
        if problems:
            raise ValidationError(problems)


class GuildMaze(models.Model):
    """A guild's maze, generated once (seed + generator version + params) and stored whole; ``visited``
    is what the guild's members have seen of it, kept across runs."""

    guild = models.OneToOneField("guilds.Guild", on_delete=models.CASCADE, related_name="maze")
    seed = models.BigIntegerField()
    generator_version = models.PositiveSmallIntegerField()
    params = models.JSONField(help_text="The MazeParams in force at generation.")
    rows = models.PositiveSmallIntegerField()
    cols = models.PositiveSmallIntegerField()
    sections = models.PositiveSmallIntegerField()
    map_text = models.TextField(help_text="The walls and special cells in seed 003's map format.")
    entrance = models.JSONField(help_text="[row, col]")
    heart = models.JSONField(help_text="[row, col]")
    camps = models.JSONField(help_text="[[row, col], ...]: section s's camp is camps[s - 1].")
    section_of_row = models.JSONField()
    visited = models.JSONField(default=list, blank=True,
                               help_text="Room numbers (row * cols + col) the guild has been in, sorted.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(seed__gte=0), name="guild_maze_seed_non_negative")]

    def __str__(self) -> str:
        return f"Maze of {self.guild}"

    def layout(self) -> MazeLayout:
        """The maze as the engine's value (parsed from the stored map; never regenerated)."""
        return _layout(self.map_text, tuple(self.section_of_row), _pos(self.entrance), _pos(self.heart),
                       tuple(_pos(c) for c in self.camps))

    def visited_positions(self) -> set[Pos]:
        return {divmod(index, self.cols) for index in self.visited}


@functools.lru_cache(maxsize=512)
def _layout(map_text: str, section_of_row: tuple[int, ...], entrance: Pos, heart: Pos,
            camps: tuple[Pos, ...]) -> MazeLayout:
    """Parsing a stored map is the costly part of reading a maze; mazes never change, so each
    process keeps the last few hundred it read (keyed by the stored values themselves)."""
    return MazeLayout(parse_map(map_text), section_of_row, entrance, heart, camps)


def _pos(value: list[int]) -> Pos:
    return (int(value[0]), int(value[1]))


class DarknessRun(models.Model):
    """A darkness run's place in its guild's maze, its torch and the rooms it went through."""

    run = models.OneToOneField("dungeons.Run", on_delete=models.CASCADE, related_name="darkness")
    maze = models.ForeignKey(GuildMaze, on_delete=models.PROTECT, related_name="runs")
    row = models.PositiveSmallIntegerField()
    col = models.PositiveSmallIntegerField()
    torch_length = models.PositiveSmallIntegerField(
        help_text="Units when lit or relit (the settings at the start).")
    torch_left = models.PositiveSmallIntegerField()
    bearer = models.ForeignKey("players.Player", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    path = models.JSONField(default=list, blank=True,
                            help_text="[[row, col], ...] every place stood on, in order.")
    entered = models.JSONField(default=list, blank=True,
                               help_text="Room numbers entered in this run, sorted.")

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(torch_left__lte=models.F("torch_length")),
                                              name="darkness_run_torch_within_length")]

    def __str__(self) -> str:
        return f"Darkness of run {self.run_id}"

    @property
    def position(self) -> Pos:
        return (self.row, self.col)


class SetAsideWeapon(models.Model):
    """A weapon its owner set aside to carry the torch (docs/darkness.md): kept outside the labyrinth,
    out of every carry limit, and given back (as the same inventory item) when the owner's run ends."""

    run = models.ForeignKey("dungeons.Run", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    item_id = models.BigIntegerField(
        unique=True, help_text="The inventory item's id, kept when it comes back."
    )
    item_kind = models.ForeignKey("players.ItemKind", on_delete=models.PROTECT, related_name="+")
    equipped = models.BooleanField()
    acquired_in_run = models.ForeignKey("dungeons.Run", null=True, blank=True, on_delete=models.SET_NULL,
                                        related_name="+", help_text="As the inventory item had it.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.item_kind} of {self.player_id}, set aside in run {self.run_id}"
