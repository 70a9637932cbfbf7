"""Admin building blocks shared by the apps."""
from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse


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
