"""A simulation the admin page "Balance" asked for: its inputs, its progress while a worker plays it, and
its result (the saved data's figures beside a what-if's), kept so the page can show it again."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class SimulationStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class Simulation(models.Model):
    """One press of "Run": a grid of party sizes x ranks x completed counts, each played ``runs`` times
    over the saved data and, if a what-if was given, over the same data with that field changed."""

    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    inputs = models.JSONField(help_text="policy, party_sizes, ranks, completed, kind, gear, runs, seed")
    change_field = models.CharField(max_length=120, blank=True, default="",
                                    help_text="The what-if's field as <model>:<row>:<field>; empty: none.")
    change_value = models.CharField(max_length=120, blank=True, default="")
    status = models.CharField(max_length=8, choices=SimulationStatus.choices, default=SimulationStatus.QUEUED)
    done = models.PositiveIntegerField(default=0, help_text="Runs simulated so far.")
    total = models.PositiveIntegerField(default=0, help_text="Runs to simulate.")
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("balance")
        verbose_name_plural = _("balance")
        constraints = [models.CheckConstraint(condition=models.Q(done__lte=models.F("total")),
                                              name="simulation_done_le_total")]

    def __str__(self) -> str:
        return f"simulation #{self.pk} ({self.status})"
