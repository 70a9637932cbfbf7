"""Admin of the Labyrinth of Darkness: the settings, each guild's maze drawn with its explored part,
and each darkness run's path drawn on its maze."""
from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy

from backend.admin import ReadOnlyAdmin, SingletonAdmin
from darkness.drawing import maze_svg
from darkness.models import DarknessRun, DarknessSettings, GuildMaze, SetAsideWeapon


@admin.register(DarknessSettings)
class DarknessSettingsAdmin(SingletonAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the data migration made the row (and load() makes it): no query on every admin page

    fieldsets = [
        ("New guild mazes (existing mazes never change)",
         {"fields": ["rows", "cols", "sections", "teleport_rate", "rubber_rate", "stun_rate", "stun_turns"]}),
        ("Runs", {"fields": ["torch_length"]}),
        ("Room contents (relative weights; enemies grow per section deeper)",
         {"fields": ["enemy_weight", "enemy_weight_per_section", "trap_weight", "treasure_weight",
                     "empty_weight"]}),
    ]


@admin.register(GuildMaze)
class GuildMazeAdmin(ReadOnlyAdmin):
    list_display = ["guild", "rows", "cols", "sections", "explored", "generator_version", "created_at"]
    search_fields = ["guild__name"]
    fields = ("guild", "drawing", "explored", "seed", "generator_version", "params", "entrance", "heart",
              "camps", "map_block", "created_at")
    readonly_fields = fields

    @admin.display(description=gettext_lazy("map text"))
    def map_block(self, obj: GuildMaze) -> SafeString:
        """The maze's stored text as written: a monospace block keeping its spaces and lines."""
        return format_html('<pre class="maze-text" style="font-family:monospace;white-space:pre;'
                           'line-height:1.1;overflow-x:auto">{}</pre>', obj.map_text)

    @admin.display(description="explored rooms")
    def explored(self, obj: GuildMaze) -> str:
        return f"{len(obj.visited)} / {obj.rows * obj.cols}"

    @admin.display(description="maze (grey: unexplored; E entrance, C camp, H heart, T/R/S specials)")
    def drawing(self, obj: GuildMaze) -> SafeString:
        return mark_safe(maze_svg(obj.layout(), obj.visited_positions()))  # safe: built from numbers


@admin.register(DarknessRun)
class DarknessRunAdmin(ReadOnlyAdmin):
    list_display = ["run", "maze", "row", "col", "torch_left", "torch_length", "bearer"]
    fields = ("run_link", "maze", "drawing", "row", "col", "torch_left", "torch_length", "bearer",
              "set_aside", "path", "entered")
    readonly_fields = fields

    @admin.display(description="weapons set aside (given back when their owner's run ends)")
    def set_aside(self, obj: DarknessRun) -> str:
        kept = SetAsideWeapon.objects.filter(run_id=obj.run_id).select_related("item_kind", "player")
        return ", ".join(f"{row.item_kind} (item {row.item_id}) of {row.player}" for row in kept) or "-"

    @admin.display(description="run")
    def run_link(self, obj: DarknessRun) -> SafeString:
        return format_html('<a href="../../../dungeons/run/{}/change/">{}</a>', obj.run_id, obj.run)

    @admin.display(description="path (red) on the guild's maze")
    def drawing(self, obj: DarknessRun) -> SafeString:
        path = [(int(r), int(c)) for r, c in obj.path]
        return mark_safe(maze_svg(obj.maze.layout(), obj.maze.visited_positions(), path))
