"""The pictures of the admin page "Balance", drawn on the server as SVG with the designers' chart helpers
(``dungeons.charts``): completion by party size and by rank, deaths by floor. The two columns (saved data,
what-if) are drawn on the same scales so they compare at a glance."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from dungeons.charts import SERIES_COLORS, bar_chart, line_chart

Series = list[tuple[str, list[tuple[float, float]]]]


def _chart(*, title: str, x_label: str, y_label: str, series: Series, y_max: float, percent: bool) -> str:
    """A line chart; with one x value only (a line would be a dot), a bar per series instead."""
    xs = {x for _, points in series for x, _ in points}
    if len(xs) > 1:
        return line_chart(title=title, x_label=x_label, y_label=y_label, series=series, y_max=y_max,
                          whole_x=True)
    x = next(iter(xs), 0.0)
    bars = [(f"{name} ({x_label} {x:g})", points[0][1] if points else 0.0,
             SERIES_COLORS[i % len(SERIES_COLORS)]) for i, (name, points) in enumerate(series)]
    return bar_chart(title=title, bars=bars, value_format="{:.1%}" if percent else "{:.2f}")


def _pooled_completion(cells: Sequence[dict[str, Any]], x_key: str,
                       series_key: str) -> dict[int, dict[int, float]]:
    """Completion rate by ``series_key`` then ``x_key``, pooling the runs of the other inputs."""
    runs: dict[int, dict[int, list[int]]] = {}
    for cell in cells:
        counted = runs.setdefault(cell[series_key], {}).setdefault(cell[x_key], [0, 0])
        counted[0] += cell["runs"]
        counted[1] += cell["outcomes"].get("completed", 0)
    return {s: {x: done / total for x, (total, done) in sorted(by_x.items())}
            for s, by_x in sorted(runs.items())}


def _deaths_by_floor(cells: Sequence[dict[str, Any]]) -> dict[int, dict[int, float]]:
    """Deaths per run on each floor, by party size, pooling the runs of the other inputs."""
    deaths: dict[int, dict[int, float]] = {}
    runs: dict[int, int] = {}
    for cell in cells:
        runs[cell["party"]] = runs.get(cell["party"], 0) + cell["runs"]
        by_floor = deaths.setdefault(cell["party"], {})
        for floor, per_run in cell["deaths_by_floor"].items():
            by_floor[int(floor)] = by_floor.get(int(floor), 0.0) + per_run * cell["runs"]
    return {party: {f: n / runs[party] for f, n in by_floor.items()}
            for party, by_floor in sorted(deaths.items())}


def _round_up(value: float) -> float:
    """A round top for an axis: 1, 2 or 5 times a power of ten."""
    if value <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    return float(next(step * power for step in (1, 2, 5, 10) if value <= step * power + 1e-12))


def balance_charts(columns: Sequence[Sequence[dict[str, Any]]]) -> list[list[str]]:
    """For each column of cells (the saved data, then the what-if), its three SVG pictures."""
    floors = sorted({int(f) for cells in columns for cell in cells for f in cell["deaths_by_floor"]}) or [0]
    floor_range = range(floors[0], floors[-1] + 1)
    deaths = [_deaths_by_floor(cells) for cells in columns]
    deaths_max = _round_up(max((v for d in deaths for by_floor in d.values() for v in by_floor.values()),
                               default=0.0))
    pictures = []
    for cells, dead in zip(columns, deaths, strict=True):
        by_size = _pooled_completion(cells, "party", "rank")
        by_rank = _pooled_completion(cells, "rank", "party")
        parties = sorted({cell["party"] for cell in cells})
        pictures.append([
            _chart(title=_("Completion by party size"), x_label=_("party size"), y_label=_("completion rate"),
                   series=[(_("rank %(rank)s") % {"rank": r}, [(float(x), y) for x, y in by_x.items()])
                           for r, by_x in by_size.items()], y_max=1.0, percent=True),
            _chart(title=_("Completion by guild rank"), x_label=_("rank"), y_label=_("completion rate"),
                   series=[(_("party of %(size)s") % {"size": n}, [(float(x), y) for x, y in by_x.items()])
                           for n, by_x in by_rank.items()], y_max=1.0, percent=True),
            _chart(title=_("Deaths per run by floor"), x_label=_("floor"), y_label=_("deaths per run"),
                   series=[(_("party of %(size)s") % {"size": n},
                            [(float(f), dead.get(n, {}).get(f, 0.0)) for f in floor_range]) for n in parties],
                   y_max=deaths_max, percent=False),
        ])
    return pictures
