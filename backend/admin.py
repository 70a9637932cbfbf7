"""Admin building blocks shared by the apps, and the admin of the task outbox."""
from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse

from backend import outbox
from backend.models import OutboxMessage


class SingletonAdmin(admin.ModelAdmin):
    """Admin for a one-row settings table: the changelist opens the row itself, no add or delete."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not self.model.objects.exists()

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    def changelist_view(self, request: HttpRequest, extra_context=None):  # noqa: ANN001
        obj = self.model.load()
        meta = self.model._meta
        return HttpResponseRedirect(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk]))


class ReadOnlyInline(admin.TabularInline):
    """An inline that shows rows and never adds, edits or deletes them (game state, logs)."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """An admin for rows only the game writes: browse and search, never add, edit or delete."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:  # noqa: ANN001
        return False


@admin.register(OutboxMessage)
class OutboxMessageAdmin(admin.ModelAdmin):
    """The task outbox for operators: what is waiting for the broker, why, and a way to push it now."""

    list_display = ("id", "task_name", "created_at", "published_at", "attempts", "next_attempt_at",
                    "short_error")
    list_filter = (("published_at", admin.EmptyFieldListFilter), "task_name")
    search_fields = ("task_name", "last_error")
    date_hierarchy = "created_at"
    readonly_fields = ("task_name", "kwargs", "created_at", "published_at", "attempts", "next_attempt_at",
                       "last_error")
    actions = ("publish_now",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # messages come from enqueue() in the same transaction as their change

    @admin.display(description="last error")
    def short_error(self, message: OutboxMessage) -> str:
        return message.last_error[:80]

    @admin.action(description="Publish the selected unpublished messages now")
    def publish_now(self, request: HttpRequest, queryset: QuerySet[OutboxMessage]) -> None:
        waiting = queryset.filter(published_at__isnull=True).values_list("pk", flat=True)
        outcomes = [outbox.publish(pk) for pk in waiting]
        sent = sum(outcome is outbox.Published.SENT for outcome in outcomes)
        level = messages.SUCCESS if sent == len(outcomes) else messages.WARNING
        self.message_user(request, f"Published {sent} of {len(outcomes)} message(s).", level)
