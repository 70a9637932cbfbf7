"""The admin page "Balance" (SPEC 17): choose a party, a policy and a what-if of any balancing field, run the
simulator as a Celery task with a progress bar, and compare the saved data with the what-if in server-drawn
charts and tables, before saving anything (the what-if never writes the admin data). docs/balance.md."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from balance.charts import balance_charts
from balance.data import MODELS, ROWS, SINGLETONS, FieldChange, balance_data_load, balancing_fields
from balance.engine import POLICIES
from balance.models import Simulation, SimulationStatus
from balance.services import MAX_TOTAL_RUNS, simulation_start, simulation_total, starting_gear
from combat.models import EnemyKindEffect
from dungeons.models import RunSettings
from dungeons.services import MAX_SEED
from players.models import ItemKind

MAX_RANK = 10_000
MAX_COMPLETED = 100_000
#: How a run ended, as the tables say it.
OUTCOMES = {"completed": gettext_lazy("completed"), "escaped": gettext_lazy("escaped"),
            "failed": gettext_lazy("failed")}


def _row_label(row: models.Model) -> str:
    if isinstance(row, EnemyKindEffect):
        return f"{row.enemy_kind.name}: {row.name} ({row.trigger})"
    return str(getattr(row, "name", row))


def change_choices() -> list[tuple[str, Any]]:
    """Every balancing field the loader reads, grouped by its row: ``<model>:<row>:<field>`` keys labelled
    with the field's name and its saved value."""
    groups: list[tuple[str, Any]] = [("", gettext_lazy("(no what-if: the saved data only)"))]
    rows: list[models.Model] = [model.load() for model in SINGLETONS]  # type: ignore[attr-defined]
    for model in ROWS:
        queryset = model._default_manager.order_by("pk")
        if model is EnemyKindEffect:
            queryset = queryset.select_related("enemy_kind")
        rows += list(queryset)
    for row in rows:
        meta = row._meta
        label = str(meta.verbose_name).capitalize() if type(row) in SINGLETONS \
            else f"{str(meta.verbose_name).capitalize()}: {_row_label(row)}"
        fields = [(f"{meta.label_lower}:{row.pk}:{f.name}",
                   f"{f.verbose_name} (= {getattr(row, f.attname)})") for f in balancing_fields(type(row))]
        groups.append((label, fields))
    return groups


def _numbers(text: str, *, low: int, high: int) -> list[int]:
    try:
        values = sorted({int(part) for part in text.replace(" ", ",").split(",") if part})
    except ValueError:
        raise ValidationError(_("Give whole numbers separated by commas, e.g. 1, 2, 3."),
                              code="not_numbers") from None
    if not values:
        raise ValidationError(_("Give at least one number."), code="required")
    if values[0] < low or values[-1] > high:
        raise ValidationError(_("Each number is between %(low)s and %(high)s."),
                              params={"low": low, "high": high}, code="out_of_range")
    if len(values) > 8:
        raise ValidationError(_("At most 8 values."), code="too_many")
    return values


class BalanceForm(forms.Form):
    """The inputs of a simulation and its optional what-if; every refusal is a form error."""

    policy = forms.ChoiceField(label=gettext_lazy("policy"), choices=[(p, p) for p in sorted(POLICIES)],
                               initial="cautious")
    party_sizes = forms.CharField(label=gettext_lazy("party sizes"), initial="1, 2, 3, 4",
                                  help_text=gettext_lazy("comma-separated"))
    ranks = forms.CharField(label=gettext_lazy("guild ranks"), initial="0",
                            help_text=gettext_lazy("comma-separated"))
    completed = forms.CharField(label=gettext_lazy("completed dungeons"), initial="0",
                                help_text=gettext_lazy("of every member; comma-separated"))
    kind = forms.ChoiceField(label=gettext_lazy("dungeon kind"),
                             choices=[("ordinary", gettext_lazy("ordinary")),
                                      ("frenzy", gettext_lazy("frenzy"))])
    gear = forms.ModelMultipleChoiceField(
        label=gettext_lazy("starting gear"), required=False,
        queryset=ItemKind.objects.order_by("category", "name"),
        help_text=gettext_lazy("what every member carries at the start; none: a new player's nothing"))
    runs = forms.IntegerField(label=gettext_lazy("runs per party"), min_value=1, max_value=5_000, initial=100)
    seed = forms.IntegerField(label=gettext_lazy("seed"), min_value=0, max_value=MAX_SEED, initial=1)
    change_field = forms.ChoiceField(label=gettext_lazy("what-if: field"), required=False)
    change_value = forms.CharField(label=gettext_lazy("what-if: new value"), required=False, max_length=120)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["change_field"].choices = change_choices()  # type: ignore[attr-defined]
        self.change: FieldChange | None = None

    def clean_party_sizes(self) -> list[int]:
        return _numbers(self.cleaned_data["party_sizes"], low=1, high=RunSettings.load().max_party_size)

    def clean_ranks(self) -> list[int]:
        return _numbers(self.cleaned_data["ranks"], low=0, high=MAX_RANK)

    def clean_completed(self) -> list[int]:
        return _numbers(self.cleaned_data["completed"], low=0, high=MAX_COMPLETED)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        key = data.get("change_field")
        if key:
            change = FieldChange.parse(key, data.get("change_value", ""))
            try:
                change.check()
            except ValidationError as exc:
                self.add_error("change_value", exc.messages)  # a row's errors may name its fields
            else:
                self.change = change
        if "gear" in data:
            try:
                starting_gear(balance_data_load(), [kind.pk for kind in data["gear"]])
            except ValidationError as exc:
                self.add_error("gear", exc)
        if not self.errors:
            total = simulation_total(self.inputs(), what_if=self.change is not None)
            if total > MAX_TOTAL_RUNS:
                raise ValidationError(
                    _("%(total)s runs asked for; at most %(max)s: fewer runs or fewer values."),
                    params={"total": total, "max": MAX_TOTAL_RUNS}, code="too_many_runs")
        return data

    def inputs(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {"policy": d["policy"], "party_sizes": d["party_sizes"], "ranks": d["ranks"],
                "completed": d["completed"], "kind": d["kind"], "gear": [kind.pk for kind in d["gear"]],
                "runs": d["runs"], "seed": d["seed"]}


def _table(cells: list[dict[str, Any]]) -> list[list[str]]:
    rows = []
    for c in cells:
        rows.append([str(c["party"]), str(c["rank"]), str(c["completed"]), str(c["runs"]),
                     f"{c['completion_rate']:.3f} [{c['completion_low']:.3f}, {c['completion_high']:.3f}]",
                     ", ".join(f"{OUTCOMES.get(k, k)} {v}" for k, v in c["outcomes"].items()),
                     f"{c['deaths_per_run']:.2f}", f"{c['coins_per_run']:.1f}", f"{c['items_per_run']:.2f}",
                     f"{c['charon_per_run']:.1f}", f"{c['npcs_rescued']}", f"{c['floors_per_run']:.2f}",
                     f"{c['rooms_per_run']:.1f}", f"{c['battle_turns_per_run']:.1f}"])
    return rows


def describe_change(simulation: Simulation) -> str:
    """The what-if in words: the row, the field, the saved value and the new one."""
    change = FieldChange.parse(simulation.change_field, simulation.change_value)
    model = MODELS.get(change.model)
    row = model._default_manager.filter(pk=change.pk).first() if model is not None else None
    if row is None:
        return change.key + " = " + change.value
    field = row._meta.get_field(change.field)
    return _("%(row)s, %(field)s: %(saved)s (saved) becomes %(value)s") % {
        "row": _row_label(row), "field": getattr(field, "verbose_name", change.field),
        "saved": getattr(row, getattr(field, "attname", change.field)), "value": change.value}


@admin.register(Simulation)
class SimulationAdmin(admin.ModelAdmin):
    """The page "Balance": its form and the past simulations; each simulation's page (progress, then the
    result); the status the page polls."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a simulation is started by the page's form, not added as a row

    def has_change_permission(self, request: HttpRequest, obj: Simulation | None = None) -> bool:
        return False

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            path("", view(self.balance_view), name="balance_simulation_changelist"),
            path("<int:pk>/", view(self.simulation_view), name="balance_simulation_change"),
            path("<int:pk>/status/", view(self.status_view), name="balance_simulation_status"),
        ]

    def _context(self, request: HttpRequest, title: str) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "title": title, "opts": self.model._meta}

    def balance_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        form = BalanceForm(request.POST if request.method == "POST" else None)
        if request.method == "POST":
            if not request.user.has_perm("balance.add_simulation"):
                raise PermissionDenied
            if form.is_valid():
                simulation = simulation_start(user=request.user, inputs=form.inputs(),  # type: ignore[arg-type]
                                              change=form.change)
                return HttpResponseRedirect(reverse("admin:balance_simulation_change", args=[simulation.pk]))
        recent = Simulation.objects.defer("result").select_related("created_by")[:20]
        context = {**self._context(request, _("Balance")), "form": form, "recent": recent}
        return TemplateResponse(request, "admin/balance/balance.html", context)

    def simulation_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        simulation = get_object_or_404(Simulation, pk=pk)
        context: dict[str, Any] = {
            **self._context(request, _("Balance: simulation #%(id)s") % {"id": pk}), "simulation": simulation,
            "change": describe_change(simulation) if simulation.change_field else "",
            "finished": simulation.status in (SimulationStatus.DONE, SimulationStatus.FAILED),
        }
        if simulation.status == SimulationStatus.DONE and simulation.result:
            columns = [simulation.result["saved"]]
            titles = [_("Saved data")]
            if simulation.result.get("what_if") is not None:
                columns.append(simulation.result["what_if"])
                titles.append(_("What-if"))
            pictures = balance_charts(columns)
            context["columns"] = [
                # safe: built by charts, their text escaped
                {"title": title, "svgs": [mark_safe(svg) for svg in svgs],
                 "rows": _table(cells)}
                for title, svgs, cells in zip(titles, pictures, columns, strict=True)]
        return TemplateResponse(request, "admin/balance/simulation.html", context)

    def status_view(self, request: HttpRequest, pk: int) -> JsonResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        found = Simulation.objects.filter(pk=pk).values("status", "done", "total", "error").first()
        if found is None:
            return JsonResponse({"code": "not_found", "detail": "No such simulation."}, status=404)
        return JsonResponse(found)
