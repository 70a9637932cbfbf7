"""Match admin: each mode's default settings and deadline, and the matches with their board and log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from backend.admin import ReadOnlyAdmin, ReadOnlyInline, legend_html
from combat.admin import _pretty_json, admin_link, number_term
from gamekit.results import Impossible
from matches.access import game_state
from matches.events import event_text
from matches.models import Match, MatchAction, MatchModeSettings, MatchSeat
from matches.modes import ReplayError, get_mode, registered_modes
from matches.selectors import match_state_at

#: the query parameter of a match page that shows the board after that many stored steps
STEP = "step"


class MatchModeSettingsForm(forms.ModelForm):
    """Defaults checked by the mode itself (validate_settings): a bad value never reaches a lobby."""

    class Meta:
        model = MatchModeSettings
        fields = (
            "mode", "defaults", "turn_deadline_seconds", "spectators", "spectator_delay_turns",
            # lobbies (SPEC 15): quick join's fill, idle lobbies, several matches
            "queue_fill_seconds", "lobby_idle_seconds", "max_active_per_player",
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["mode"] = forms.ChoiceField(choices=[(name, name) for name in sorted(registered_modes())])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # a ModelForm's clean() returns its cleaned_data
        adapter = get_mode(data.get("mode", ""))
        if adapter is not None and isinstance(data.get("defaults"), dict):
            complete = adapter.validate_settings(data["defaults"])
            if isinstance(complete, Impossible):
                problem = f"{complete.code}: {complete.message} {complete.details or ''}"
                self.add_error("defaults", problem.strip())
            else:
                data["defaults"] = complete
        return data


@admin.register(MatchModeSettings)
class MatchModeSettingsAdmin(admin.ModelAdmin):
    form = MatchModeSettingsForm
    list_display = ("mode", "title", "players", "defaults", "turn_deadline_seconds", "queue_fill_seconds",
                    "lobby_idle_seconds", "max_active_per_player", "spectators", "spectator_delay_turns")

    @admin.display(description="title")
    def title(self, row: MatchModeSettings) -> str:
        adapter = get_mode(row.mode)
        return str(adapter.title) if adapter else "(mode not installed)"

    @admin.display(description="players")
    def players(self, row: MatchModeSettings) -> str:
        adapter = get_mode(row.mode)
        return f"{adapter.min_players}..{adapter.max_players}" if adapter else "-"


class MatchSeatInline(ReadOnlyInline):
    model = MatchSeat
    fields = ("seat", "player", "bot", "active", "joined_at", "left_at")
    readonly_fields = fields
    ordering = ("id",)


class MatchActionInline(ReadOnlyInline):
    model = MatchAction
    fields = ("turn", "seat", "player", "action", "idempotency_key", "created_at")
    readonly_fields = fields
    ordering = ("turn",)
    show_change_link = False


class ModeFilter(admin.SimpleListFilter):
    title = "mode"
    parameter_name = "mode"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(name, name) for name in sorted(registered_modes())]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Match]) -> QuerySet[Match]:
        return queryset.filter(mode=self.value()) if self.value() else queryset


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    """Matches as a game master sees them: the board as a picture, the players, the log, the replay data."""

    list_display = ("id", "mode", "status", "host", "seated", "turn", "awaiting", "created_at", "ended_at")
    list_filter = (ModeFilter, "status")
    search_fields = ("host__display_name",)  # a number searches match ids and seeds
    list_select_related = ("host", "awaiting")
    list_per_page = 50
    show_full_result_count = False
    inlines = (MatchSeatInline, MatchActionInline)
    fieldsets = (
        (
            None,
            {
                "fields": (
                    ("mode", "status"),
                    ("host", "guild_link"),
                    "settings_json",
                    ("turn", "event_count"),
                    "awaiting",
                    ("created_at", "started_at", "ended_at"),
                    ("private", "invite_code", "queued_at", "lobby_deadline_at"),
                    "result_json",
                )
            },
        ),
        ("Board", {"fields": ("board",)}),
        ("Log", {"fields": ("log",)}),
        (
            "Replay data (seed + settings + actions reproduce the match)",
            {"classes": ("collapse",), "fields": ("seed", "state_json")},
        ),
    )
    readonly_fields = (
        "mode",
        "status",
        "host",
        "guild_link",
        "settings_json",
        "turn",
        "event_count",
        "awaiting",
        "created_at",
        "started_at",
        "ended_at",
        "result_json",
        "board",
        "log",
        "seed",
        "state_json",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        queryset: QuerySet[Match] = (
            super().get_queryset(request).annotate(seated_count=Count("seats", filter=Q(seats__active=True)))
        )
        view = request.resolver_match.url_name if request.resolver_match else None
        if view is not None and view.endswith("changelist"):
            queryset = queryset.defer("state")
        return queryset

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Match], search_term: str
    ) -> tuple[QuerySet[Match], bool]:
        number = number_term(search_term)
        if number is not None:
            return queryset.filter(Q(pk=number) | Q(seed=number)), False
        return super().get_search_results(request, queryset, search_term)

    @admin.display(description="seated", ordering="seated_count")
    def seated(self, match: Match) -> int:
        return getattr(match, "seated_count", 0)

    @admin.display(description="guild")
    def guild_link(self, match: Match) -> SafeString | str:
        return admin_link(match.guild)

    @admin.display(description="settings")
    def settings_json(self, match: Match) -> SafeString:
        return _pretty_json(match.settings)

    @admin.display(description="result")
    def result_json(self, match: Match) -> SafeString:
        return _pretty_json(match.result)

    @admin.display(description="state")
    def state_json(self, match: Match) -> SafeString:
        return _pretty_json(match.state)

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> Match | None:
        match = super().get_object(request, object_id, from_field)
        if match is not None:  # the board's step (?step=N), read by ``board``
            match._board_step = request.GET.get(STEP)
        return match

    @admin.display(description="board")
    def board(self, match: Match) -> SafeString | str:
        """The mode's picture with its legend; with stored steps, a control stepping the board through them
        (``?step=N``: the game replayed from the seed up to step N; none or out of range: as it is now)."""
        adapter = get_mode(match.mode)
        if adapter is None or match.state is None:
            return "-"
        total = match.actions.count()
        step = _step(getattr(match, "_board_step", None), total)
        try:
            state = game_state(match) if step == total else match_state_at(match, step)
        except ReplayError as error:
            return format_html("{} {}", gettext("This match's steps cannot be replayed:"), str(error))
        picture = adapter.picture(state)
        if not picture:
            return "(this mode draws no picture)"
        # The SVG is built by the mode's own code from numbers and escaped names, never from user text.
        parts = [_step_control(step, total) if total else "", mark_safe(picture),
                 legend_html(adapter.picture_legend())]
        return format_html('<div class="match-board">{}{}{}</div>', *parts)

    @admin.display(description="events")
    def log(self, match: Match) -> SafeString:
        rows = match.events.order_by("seq")
        adapter = get_mode(match.mode)  # the events speak the admin's language (SPEC 14 "Events speak")
        return format_html(
            "<table><tr><th>#</th><th>turn</th><th>seen by</th><th>kind</th><th>event</th></tr>{}</table>",
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                (
                    (
                        row.seq,
                        row.turn,
                        "all" if row.seats is None else row.seats,
                        row.data.get("kind", ""),
                        (event_text(adapter, row.data) if adapter else row.data.get("text")) or row.data,
                    )
                    for row in rows
                ),
            ),
        )


def _step(asked: str | None, total: int) -> int:
    """The board's step from the query (a number from 0 to ``total``); anything else: the last (now)."""
    return int(asked) if asked is not None and asked.isdecimal() and int(asked) <= total else total


def _step_control(step: int, total: int) -> SafeString:
    """Links to the board's first, previous, next and last step (plain links: the admin runs no script)."""

    def link(to: int, text: str, rel: str) -> SafeString | str:
        if to == step or not 0 <= to <= total:
            return format_html('<span class="step-{}">{}</span>', rel, text)
        return format_html('<a class="step-{}" href="?{}={}">{}</a>', rel, STEP, to, text)

    where = gettext("Step %(step)s of %(total)s") % {"step": step, "total": total}
    if step == total:
        where += " " + gettext("(now)")
    return format_html(
        '<p class="board-steps">{} {} <b class="step-at" data-step="{}">{}</b> {} {}</p>',
        link(0, gettext("« start"), "first"), link(step - 1, gettext("‹ previous"), "previous"), step, where,
        link(step + 1, gettext("next ›"), "next"), link(total, gettext("now »"), "last"))
