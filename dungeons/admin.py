"""Admin of the dungeons app: generation settings with the designers' preview page, stored dungeons,
run settings, and runs (read-only) drawn on their dungeon with party, loot, battles and log."""
from __future__ import annotations

import random
import re
from collections.abc import Iterable
from datetime import timedelta
from html import escape
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from backend.admin import ReadOnlyAdmin, ReadOnlyInline, SingletonAdmin
from backend.errors import DomainError
from backend.sql import concrete_field
from combat.admin import admin_link, number_term
from combat.models import Battle
from dungeons import generation
from dungeons.charts import ROOM_STYLE, dungeon_svg
from dungeons.generation.sampling import sample_dungeons
from dungeons.models import (
    Dungeon,
    DungeonKind,
    DungeonRoom,
    GenerationSettings,
    MemberStatus,
    Run,
    RunLoot,
    RunMember,
    RunSettings,
    RunStatus,
)
from dungeons.previews import formula_charts, frequency_charts
from dungeons.runs.engine.log import describe_json, who
from dungeons.runs.lobby import run_leave
from dungeons.selectors import dungeon_replay
from dungeons.services import MAX_SEED, new_seed

PARAM_FIELDS = generation.GenerationParams.field_names()


class PreviewForm(forms.Form):
    """Inputs of the preview page; parameter fields start at the saved settings and may be tried out."""

    kind = forms.ChoiceField(
        choices=[(k, label) for k, label in DungeonKind.choices if k != DungeonKind.DARKNESS])
    players = forms.IntegerField(label="N (players)", min_value=1, max_value=100, initial=4)
    rank = forms.FloatField(label="R (guild rank)", min_value=0, max_value=10_000, initial=0)
    completed = forms.FloatField(label="C (completed)", min_value=0, max_value=100_000, initial=0)
    same_guild = forms.BooleanField(label="one-guild party", required=False, initial=True)
    seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, required=False,
                              help_text="empty: a fresh seed")
    samples = forms.IntegerField(
        label="seeds for frequencies", min_value=10, max_value=5_000, initial=400,
        help_text="dungeons generated for the bar charts",
    )

    def __init__(self, *args: Any, settings: GenerationSettings, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in PARAM_FIELDS:
            form_field = concrete_field(GenerationSettings, name).formfield()
            assert form_field is not None  # every parameter is a number column, each with its form field
            form_field.initial = getattr(settings, name)
            form_field.required = False
            form_field.help_text = "saved value: " + str(getattr(settings, name))
            self.fields[f"p_{name}"] = form_field

    def params(self, saved: generation.GenerationParams) -> generation.GenerationParams:
        values = saved.as_dict()
        for name in PARAM_FIELDS:
            value = self.cleaned_data.get(f"p_{name}")
            if value is not None:
                values[name] = value
        return generation.GenerationParams(**values)


@admin.register(GenerationSettings)
class GenerationSettingsAdmin(admin.ModelAdmin):
    change_form_template = "admin/dungeons/generationsettings/change_form.html"
    readonly_fields = ("updated_at",)
    fieldsets = (
        ("Floors: F = [lerp(F_min, F_max, tanh(k (N/N_opt + R/R_opt + C/C_opt)))]",
         {"fields": ("f_min", "f_max", "k")}),
        ("Rooms: R_i = [lerp(R_min, R_max, log2(1 + i/2 + 2N/N_opt + R/R_opt + C/C_opt) / 3)]",
         {"fields": ("r_min", "r_max")}),
        ("Normalisation (also NPC chance x = max(0, C/C_opt - R/R_opt) / 3)",
         {"fields": ("n_opt", "r_opt", "c_opt")}),
        ("Room lottery", {"fields": (("treasure_base", "treasure_cap"), ("trap_base", "trap_cap"),
                                     ("enemy_base", "enemy_cap"))}),
        ("Story rooms (sealed rooms: generator version 2)",
         {"fields": ("story_item_chance", "sealed_room_chance")}),
        (None, {"fields": ("updated_at",)}),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not GenerationSettings.objects.exists() and super().has_add_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: GenerationSettings | None = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest,
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # One row only: the list is pointless, go straight to it.
        settings = GenerationSettings.load()
        return HttpResponseRedirect(reverse("admin:dungeons_generationsettings_change", args=[settings.pk]))

    def get_urls(self) -> list[URLPattern]:
        preview = path("preview/", self.admin_site.admin_view(self.preview_view),
                       name="dungeons_generationsettings_preview")
        return [preview, *super().get_urls()]

    def preview_view(self, request: HttpRequest) -> TemplateResponse:
        """Generate a dungeon from the designer's N, R, C, kind and seed and draw it with the formulas."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        settings = GenerationSettings.load()
        saved = settings.to_params()
        form = PreviewForm(request.GET or None, settings=settings)
        context: dict[str, Any] = {
            **self.admin_site.each_context(request),
            "title": "Dungeon generation preview",
            "opts": self.model._meta,
            "form": form,
            "legend": ROOM_STYLE,
        }
        if not request.GET:
            form = PreviewForm(
                {"kind": "ordinary", "players": 4, "rank": 0, "completed": 0, "same_guild": "on",
                 "samples": 400},
                settings=settings,
            )
            context["form"] = form
        if form.is_valid():
            data = form.cleaned_data
            try:
                params = form.params(saved)
            except ValueError as exc:
                form.add_error(None, str(exc))
            else:
                seed = data["seed"] if data["seed"] is not None else new_seed()
                dungeon = generation.generate_dungeon(
                    kind=data["kind"], n=data["players"], rank=data["rank"], completed=data["completed"],
                    same_guild=data["same_guild"], params=params, rng=random.Random(seed),
                )
                stats = sample_dungeons(
                    kind=data["kind"], n=data["players"], rank=data["rank"], completed=data["completed"],
                    same_guild=data["same_guild"], params=params, samples=data["samples"], seed=seed,
                )
                context.update(
                    seed=seed,
                    dungeon=dungeon,
                    params_changed=params != saved,
                    dungeon_svg=mark_safe(dungeon_svg(dungeon)),  # safe: built by charts, text escaped
                    formula_svgs=[mark_safe(svg) for svg in formula_charts(  # safe: built by charts
                        n=data["players"], rank=data["rank"], completed=data["completed"], params=params)],
                    frequency_svgs=[mark_safe(svg) for svg in frequency_charts(stats)],  # likewise
                    stats=stats,
                )
        return TemplateResponse(request, "admin/dungeons/generation_preview.html", context)


class DungeonRoomInline(ReadOnlyInline):
    model = DungeonRoom
    fields = ("floor", "index", "kind", "npc_kind", "story_item", "seal")
    readonly_fields = fields


@admin.register(Dungeon)
class DungeonAdmin(ReadOnlyAdmin):
    """Generated dungeons are records: viewable, drawn, never edited (they must match their seed)."""

    list_display = ("id", "kind", "party_size", "rank", "completed", "same_guild", "floor_count", "npc_kind",
                    "generator_version", "created_at")
    list_filter = ("kind", "same_guild", "generator_version", "npc_kind")
    search_fields = ("npc_kind",)  # a number searches ids and seeds by index (get_search_results)
    date_hierarchy = "created_at"
    inlines = [DungeonRoomInline]
    fields = ("layout", "kind", "seed", "generator_version", "party_size", "rank", "completed", "same_guild",
              "floor_count", "npc_chance", "npc_floor", "npc_room", "npc_kind", "npc_candidates", "params",
              "created_at")
    readonly_fields = fields

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Dungeon],
                           search_term: str) -> tuple[QuerySet[Dungeon], bool]:
        number = number_term(search_term)
        if number is not None:
            return queryset.filter(Q(pk=number) | Q(seed=number)), False
        return super().get_search_results(request, queryset, search_term)

    @admin.display(description="layout")
    def layout(self, obj: Dungeon) -> SafeString | str:
        try:
            return mark_safe(dungeon_svg(dungeon_replay(dungeon=obj)))  # safe: built by charts
        except ValueError as exc:  # an older generator version: the rooms below still tell
            return format_html("<em>{}</em>", str(exc))


# --- runs ----------------------------------------------------------------------------------------


@admin.register(RunSettings)
class RunSettingsAdmin(SingletonAdmin):
    """The numbers of a run outside battle (dungeons.runs.engine.rules.RunRules), grouped as docs/runs.md
    does."""

    fieldsets = (
        ("Party", {"fields": ("max_party_size",)}),
        ("Escape: loss = max(min, start - per upgrade x (luck + attentiveness)) % of carried items",
         {"fields": ("escape_loss_start_percent", "escape_loss_per_upgrade", "escape_loss_min_percent")}),
        ("Death: Charon takes this share of the money", {"fields": ("charon_fee_percent",)}),
        ("Traps: damage = base + per floor x floor, less attentiveness x mitigation (capped)",
         {"fields": (("trap_damage_base", "trap_damage_per_floor"),
                     ("trap_mitigation_per_attentiveness", "trap_mitigation_max"),
                     ("trap_effect", "trap_effect_turns", "trap_effect_chance"))}),
        ("Treasure and loot",
         {"fields": ("treasure_items_base", "treasure_extra_chance_per_attentiveness",
                     ("treasure_coins_base", "treasure_coins_per_floor"), "battle_loot_chance",
                     ("boss_loot_items", "boss_coins"), "story_items_count")}),
        ("Sealed story rooms: the reward when a party carrying the story item opens one",
         {"fields": ("sealed_reward_items", ("sealed_reward_coins_base", "sealed_reward_coins_per_floor"))}),
        ("Loot rarity weights", {"fields": (("weight_common", "weight_uncommon", "weight_rare"),)}),
        ("Healing: rest rooms and between rooms (+ per metabolism point)",
         {"fields": (("rest_heal_base", "rest_heal_per_metabolism"),
                     ("room_regen_base", "room_regen_per_metabolism"))}),
        ("The rescued NPC", {"fields": ("npc_hp",)}),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        # The changelist creates the row with its defaults (load()), so there is never anything to
        # add; answering without SingletonAdmin's exists() query keeps every admin page one query
        # lighter (the sidebar asks every model admin this question).
        return False


def _stored_layout(dungeon: Dungeon, rooms: list[DungeonRoom]) -> generation.Dungeon:
    """The stored rooms as the engine's value, so the preview's drawing can draw them.

    Built from the rows, not regenerated: a run's dungeon is what was stored, whatever the
    engine's version today.
    """
    floors: dict[int, list[generation.Room]] = {}
    for room in sorted(rooms, key=lambda r: (r.floor, r.index)):
        floors.setdefault(room.floor, []).append(generation.Room(
            kind=generation.RoomKind(room.kind), npc_kind=room.npc_kind or None,
            story_item=room.story_item or None, seal=room.seal or None))
    try:
        params = generation.GenerationParams(**dungeon.params)
    except (TypeError, ValueError):
        params = generation.GenerationParams()
    return generation.Dungeon(
        kind=dungeon.kind, n=dungeon.party_size, rank=dungeon.rank, completed=dungeon.completed,
        same_guild=dungeon.same_guild, params=params,
        floors=tuple(generation.Floor(index, tuple(floors[index])) for index in sorted(floors)),
        npc=dungeon.npc, npc_kind=dungeon.npc_kind or None, npc_chance=dungeon.npc_chance,
        generator_version=dungeon.generator_version,
    )


#: A room of dungeons.charts.dungeon_svg: its tooltip names the position, the rect follows.
_ROOM_RECT = re.compile(
    r'<g><title>floor (?P<floor>\d+), room (?P<room>\d+):[^<]*</title><rect x="(?P<x>[\d.]+)" '
    r'y="(?P<y>[\d.]+)" width="(?P<w>[\d.]+)" height="(?P<h>[\d.]+)"'
)


def run_dungeon_svg(run: Run, rooms: list[DungeonRoom], battles: dict[tuple[int, int], Battle],
                    deaths: dict[tuple[int, int], list[str]]) -> str:
    """The dungeon drawing of the preview page with the run marked on top of it.

    Rooms not reached yet are faded; the party's room has a green frame; a room where someone
    died gets a dagger; a battle room links to its battle. The marks are placed on the drawing's
    own room rectangles (found by their tooltips), so they follow any change of its geometry.
    """
    assert run.dungeon is not None
    svg = dungeon_svg(_stored_layout(run.dungeon, rooms))
    here = (run.floor, run.room) if run.floor is not None and run.room is not None else None
    marks = []
    for match in _ROOM_RECT.finditer(svg):
        position = (int(match["floor"]), int(match["room"]))
        x, y, w, h = (float(match[k]) for k in ("x", "y", "w", "h"))
        reached = here is not None and position <= here
        tip = [f"floor {position[0]}, room {position[1]}"]
        if not reached:
            marks.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="4" fill="#ffffff" '
                         f'fill-opacity="0.7" pointer-events="none"/>')
        if position == here:
            tip.append("the party is here" if run.status == RunStatus.ACTIVE
                       else f"the run ended here ({run.status})")
            marks.append(f'<rect x="{x - 2}" y="{y - 2}" width="{w + 4}" height="{h + 4}" rx="5" fill="none" '
                         f'stroke="#27ae60" stroke-width="4" pointer-events="none"/>')
        for name in deaths.get(position, []):
            tip.append(f"{name} died here")
        if deaths.get(position):
            marks.append(f'<text x="{x + w - 2}" y="{y + 11}" font-size="12" text-anchor="end" '
                         f'fill="#ffffff" font-family="sans-serif" pointer-events="none">&#8224;</text>')
        battle = battles.get(position)
        if battle is not None:
            tip.append(f"battle #{battle.pk}: {battle.outcome}")
            url = reverse("admin:combat_battle_change", args=[battle.pk])
            marks.append(f'<a href="{escape(url)}"><title>{escape("; ".join(tip))}</title>'
                         f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="#000" fill-opacity="0" '
                         f'style="cursor: pointer"/></a>')
    if not marks:
        return svg
    return svg.replace("</svg>", "".join(marks) + "</svg>")


def _names(members: Iterable[RunMember]) -> dict[str, str]:
    return {str(m.player_id): str(m.player) for m in members}


def run_log_html(run: Run, names: dict[str, str], battles: dict[int, Battle]) -> SafeString:
    if not run.log:
        return format_html("<em>{}</em>", "Nothing happened yet.")
    rows = []
    for number, entry in enumerate(run.log, start=1):
        if not isinstance(entry, dict):
            entry = {"kind": str(entry)}
        where = "" if entry.get("floor") is None else f"{entry.get('floor')}/{entry.get('room')}"
        text: SafeString | str = describe_json(entry, names)
        battle_id: int | None = entry.get("battle")
        is_battle = entry.get("kind") in ("battle", "battle_over")
        battle = battles.get(battle_id) if is_battle and battle_id is not None else None
        if battle is not None:
            text = format_html('{} &middot; <a href="{}">open</a>', text,
                               reverse("admin:combat_battle_change", args=[battle.pk]))
        rows.append(format_html("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                                number, where, entry.get("kind", ""), text))
    header = mark_safe("<thead><tr><th>#</th><th>floor/room</th><th>what</th><th></th></tr></thead>")
    return format_html("<table>{}<tbody>{}</tbody></table>", header,
                       mark_safe("".join(rows)))  # safe: every row built by format_html


class RunMemberInline(ReadOnlyInline):
    """The party: formation, status, hit points, kills and what the run took from each member."""

    model = RunMember
    fields = ("position", "player_link", "status", "active", "weapon_choice", "guild", "hp_display",
              "kills_display", "losses", "effects_display", "joined_at")
    readonly_fields = fields
    ordering = ("position", "pk")

    def get_queryset(self, request: HttpRequest) -> QuerySet[RunMember]:
        return super().get_queryset(request).select_related("player", "guild")

    @admin.display(description="player")
    def player_link(self, member: RunMember) -> SafeString | str:
        return admin_link(member.player)

    @admin.display(description="HP")
    def hp_display(self, member: RunMember) -> str:
        return f"{member.hp} / {member.max_hp}"

    @admin.display(description="kills")
    def kills_display(self, member: RunMember) -> str:
        kills = member.kills or {}
        if not kills:
            return "-"
        listed = ", ".join(f"{n} {slug}" for slug, n in sorted(kills.items()))
        return f"{sum(int(n) for n in kills.values())}: {listed}"

    @admin.display(description="losses")
    def losses(self, member: RunMember) -> str:
        if not member.money_lost and not member.items_lost:
            return "-"
        return f"{member.money_lost} coins, {member.items_lost} items"

    @admin.display(description="boosts, effects, buffs")
    def effects_display(self, member: RunMember) -> str:
        parts = [f"+{n} {stat}" for stat, n in (member.stat_boosts or {}).items()]
        parts += [f"{e.get('name')} (trap)" for e in member.pending_effects or [] if isinstance(e, dict)]
        parts += [f"{e.get('name')} (buff)" for e in member.buffs or [] if isinstance(e, dict)]
        return ", ".join(parts) or "-"


class RunLootInline(ReadOnlyInline):
    """Items the rooms gave: where they lie, and who took them."""

    model = RunLoot
    fields = ("floor", "room", "item_kind", "taken_by", "taken_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[RunLoot]:
        return super().get_queryset(request).select_related("item_kind", "taken_by")


class RunBattleInline(ReadOnlyInline):
    """The run's battles, each linking to its log."""

    model = Battle
    fields = ("floor", "room", "outcome", "step", "event_count", "created_at", "ended_at")
    readonly_fields = fields
    show_change_link = True
    ordering = ("floor", "room")
    verbose_name_plural = "battles"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Battle]:
        return super().get_queryset(request).defer("setup", "state")


class RunFinishedFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("open", "lobby or active"), ("over", "over"),
                ("stale_lobby", "lobby older than a day")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Run]) -> QuerySet[Run]:
        if self.value() == "open":
            return queryset.filter(status__in=[RunStatus.LOBBY, RunStatus.ACTIVE])
        if self.value() == "over":
            return queryset.exclude(status__in=[RunStatus.LOBBY, RunStatus.ACTIVE])
        if self.value() == "stale_lobby":
            return queryset.filter(status=RunStatus.LOBBY, created_at__lt=timezone.now() - timedelta(days=1))
        return queryset


@admin.register(Run)
class RunAdmin(ReadOnlyAdmin):
    """Runs are game records: the dungeon drawn with the party's way through it, the party, the loot,
    the battles and the log, all read-only. The one write is cancelling lobbies, through the service."""

    list_display = ("id", "kind", "status", "host", "party", "position", "step", "guild", "created_at",
                    "started_at", "ended_at")
    list_filter = (RunFinishedFilter, "status", "kind")
    # A number searches run ids and seeds (get_search_results); words search the people and the guild.
    search_fields = ("host__display_name", "members__player__display_name", "guild__name")
    date_hierarchy = "created_at"
    list_select_related = ("host", "guild")
    list_per_page = 50
    show_full_result_count = False  # one COUNT(*) of a big table per page is enough
    inlines = (RunMemberInline, RunBattleInline, RunLootInline)
    actions = ("cancel_lobbies",)
    fieldsets = (
        (None, {"fields": (("kind", "status"), "host", "guild", "dungeon_link", "seed",
                           ("created_at", "started_at", "ended_at"))}),
        ("Where the party is", {"fields": ("drawing", ("floor", "room", "room_cleared", "step"), "npc")}),
        ("What happened", {"fields": ("log_display",)}),
    )
    readonly_fields = ("kind", "status", "host", "guild", "dungeon_link", "seed", "created_at", "started_at",
                       "ended_at", "drawing", "floor", "room", "room_cleared", "step", "npc", "log_display")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Run]:
        queryset = super().get_queryset(request)
        if request.resolver_match and (request.resolver_match.url_name or "").endswith("changelist"):
            # A correlated subquery, not a join + GROUP BY: the page's COUNT(*) and date queries
            # then stay plain scans of the run table.
            present = (RunMember.objects.filter(run=OuterRef("pk")).exclude(status=MemberStatus.LEFT)
                       .order_by().values("run").annotate(n=Count("pk")).values("n"))
            queryset = queryset.defer("log").annotate(party_size=Coalesce(Subquery(present), 0))
        return queryset

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Run],
                           search_term: str) -> tuple[QuerySet[Run], bool]:
        number = number_term(search_term)
        if number is not None:
            return queryset.filter(Q(pk=number) | Q(seed=number)), False
        return super().get_search_results(request, queryset, search_term)

    def has_cancel_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("dungeons.change_run")

    @admin.action(description="Cancel the selected lobbies (every member leaves, weapons go back)",
                  permissions=["cancel"])
    def cancel_lobbies(self, request: HttpRequest, queryset: QuerySet[Run]) -> None:
        cancelled, skipped = 0, 0
        for run_id, status in queryset.values_list("pk", "status"):
            if status != RunStatus.LOBBY:
                skipped += 1
                continue
            with transaction.atomic():
                members = RunMember.objects.filter(run_id=run_id, status=MemberStatus.JOINED)
                for member in members.select_related("player").order_by("-position"):
                    try:
                        run_leave(player=member.player, run_id=run_id)
                    except DomainError:  # started or left meanwhile: leave it alone
                        break
            if Run.objects.filter(pk=run_id, status=RunStatus.CANCELLED).exists():
                cancelled += 1
            else:
                skipped += 1
        self.message_user(request, f"{cancelled} lobbies cancelled.", messages.SUCCESS)
        if skipped:
            self.message_user(request, f"{skipped} runs were not lobbies and were left alone.",
                              messages.WARNING)

    @admin.display(description="party", ordering="party_size")
    def party(self, run: Run) -> int | str:
        return getattr(run, "party_size", "-")

    @admin.display(description="floor/room")
    def position(self, run: Run) -> str:
        if run.floor is None:
            return "-"
        return f"{run.floor}/{run.room}" + (" cleared" if run.room_cleared else "")

    @admin.display(description="dungeon")
    def dungeon_link(self, run: Run) -> SafeString | str:
        if run.dungeon is None:
            return "- (generated when the run starts)"
        return admin_link(run.dungeon, f"dungeon #{run.dungeon_id}: {run.dungeon.floor_count} floors")

    @admin.display(description="NPC")
    def npc(self, run: Run) -> str:
        return f"{run.get_npc_kind_display()} ({run.npc_hp} / {run.npc_max_hp} HP)" if run.npc_kind else "-"

    def _battles(self, run: Run) -> list[Battle]:
        return list(Battle.objects.filter(run=run).only("id", "run_id", "floor", "room", "outcome"))

    @admin.display(description="dungeon")
    def drawing(self, run: Run) -> SafeString | str:
        if run.dungeon is None:
            return "The dungeon is generated when the run starts."
        rooms = list(DungeonRoom.objects.filter(dungeon_id=run.dungeon.pk))
        members = run.members.select_related("player")
        names = _names(members)
        deaths: dict[tuple[int, int], list[str]] = {}
        for entry in run.log or []:
            if isinstance(entry, dict) and entry.get("kind") == "died" and entry.get("floor") is not None:
                where = (entry["floor"], entry["room"])
                deaths.setdefault(where, []).append(who(entry.get("player"), names))
        battles = {(b.floor, b.room): b for b in self._battles(run)}
        svg = run_dungeon_svg(run, rooms, battles, deaths)
        note = format_html(
            '<p class="help">{}</p>',
            "Faded rooms are not reached yet; the green frame is the party's room; a dagger marks a death; "
            "click a battle room to open its battle. Hover a room for details.")
        return format_html("{}{}", mark_safe(svg), note)  # safe: built by charts, text escaped

    @admin.display(description="log")
    def log_display(self, run: Run) -> SafeString:
        names = _names(run.members.select_related("player"))
        return run_log_html(run, names, {b.pk: b for b in self._battles(run)})
