"""Admin building blocks shared by the apps."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from gamekit.pictures import LegendEntry


def legend_html(entries: Sequence[LegendEntry]) -> SafeString:
    """A picture's legend as a small table: each mark drawn as in the picture, then its meaning ("" when
    the picture has no legend). Every text is escaped."""
    if not entries:
        return SafeString("")
    rows = format_html_join(
        "", '<tr><td><span style="display:inline-block;min-width:2.2em;padding:1px 4px;text-align:center;'
        'font-weight:bold;border:1px solid #ccc;background:{};color:{}">{}</span></td><td>{}</td></tr>',
        # a colour-only mark keeps the swatch's height with a no-break space
        ((entry.fill, entry.colour, entry.mark or "\u00a0", entry.meaning) for entry in entries))
    return format_html('<table class="picture-legend"><caption>{}</caption>{}</table>',
                       gettext("Legend"), rows)


class SingletonAdmin(admin.ModelAdmin):
    """Admin for a one-row settings table: the changelist opens the row itself, no add or delete."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not self.model.objects.exists()

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest,
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        obj = self.model.load()
        meta = self.model._meta
        change = f"admin:{meta.app_label}_{meta.model_name}_change"
        return HttpResponseRedirect(reverse(change, args=[obj.pk]))


class ReadOnlyInline(admin.TabularInline):
    """An inline that shows rows and never adds, edits or deletes them (game state, logs)."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """An admin for rows only the game writes: browse and search, never add, edit or delete."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
