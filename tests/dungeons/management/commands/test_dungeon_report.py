"""dungeon_report prints the distributions of many dungeons and shows a progress bar on stderr."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command


@pytest.mark.django_db
def test_report_prints_distributions_and_a_progress_bar() -> None:
    out, err = StringIO(), StringIO()
    call_command("dungeon_report", "--count", "200", "--players", "4", "--completed", "40",
                 stdout=out, stderr=err)
    report = out.getvalue()
    assert report.startswith("200 ordinary dungeons, N=4 R=0 C=40 one guild")
    for section in ("floors per dungeon:", "rooms per floor:", "room kinds", "NPC:", "story items:"):
        assert section in report
    assert "formula 64.0%" in report  # x = 4/3 -> 16/25
    assert "100% 200/200" in err.getvalue() and "\r[" in err.getvalue()


@pytest.mark.django_db
def test_report_is_reproducible_for_a_seed() -> None:
    def run() -> str:
        out = StringIO()
        call_command("dungeon_report", "--count", "50", "--kind", "frenzy", "--seed", "9", "--no-progress",
                     stdout=out)
        return out.getvalue()

    first = run()
    assert first == run()
    assert "  rest        0.0%" in first and "  treasure    0.0%" in first


@pytest.mark.django_db
def test_mixed_party_report_has_no_npc() -> None:
    out = StringIO()
    call_command("dungeon_report", "--count", "30", "--completed", "300", "--mixed", "--no-progress",
                 stdout=out)
    assert "NPC: 0 of 30 (0.0%); formula 0.0%" in out.getvalue()


@pytest.mark.django_db
def test_impossible_inputs_are_a_command_error() -> None:
    with pytest.raises(CommandError):
        call_command("dungeon_report", "--players", "0", "--no-progress", stdout=StringIO())
