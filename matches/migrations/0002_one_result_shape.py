"""Every stored result in the one outcome shape of SPEC 14: ``{winners, winner_seats, reason, details}``.

Before it, each mode put its details beside ``winners`` and ``winner_seats`` (cell capture's
``winner_colour``, the roguelike's ``victory``/``defeat``, the paper labyrinth's ``paper``, the console
labyrinth's ``reason``), a new roguelike game left ``ended_by``, and an abandoned match had none. The
``match_over`` events (``winners`` only) and the stored answers of finishing actions (replayed to a
repeated idempotency key) get the same result. The codes are copied here, not imported: a migration
keeps the meaning it had when it was written.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

#: the paper engine's ``Result.reason`` -> the match's reason (paper_labyrinth/mode.py, REASONS)
PAPER_REASONS = {
    "treasure": "treasure_carried_out",
    "last_survivor": "last_player",
    "nstop": "draw_nstop",
    "all_skip": "draw_all_skip",
    "treasure_out": "draw_treasure_out",
    "treasure_on_source": "draw_treasure_on_source",
    "all_dead": "draw_all_dead",
    "survivor_time": "draw_survivor_time",
}
SHAPE = {"winners", "winner_seats", "reason", "details"}


def _reason(match: Any, old: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The reason and details of an old result (without its winners)."""
    rest = {k: v for k, v in old.items() if k not in ("winners", "winner_seats")}
    if rest.get("ended_by") == "new_game":
        return "new_game", {}
    if match.mode == "cell_capture":
        return "won", rest
    if match.mode == "labyrinth_console":
        if rest.get("reason") == "turn_limit":
            return "turn_limit", {"max_turns": (match.settings or {}).get("max_turns")}
        return "exit_reached", {}
    if match.mode == "labyrinth_roguelike":
        details: dict[str, Any] = {k: rest[k] for k in ("turns", "deaths") if k in rest}
        return ("treasure_carried_out" if rest.get("victory") else "death_limit"), details
    if match.mode == "labyrinth_paper" and isinstance(rest.get("paper"), dict):
        return PAPER_REASONS.get(rest["paper"].get("reason"), "ended"), {}
    return ("won" if old.get("winners") else "ended"), rest


def _abandoned(match: Any, seats: Any) -> dict[str, Any]:
    numbered = list(seats.filter(match=match, seat__isnull=False).values_list("left_at", flat=True))
    cause = "left" if numbered and all(left is not None for left in numbered) else "timeouts"
    return {"winners": [], "winner_seats": [], "reason": "abandoned", "details": {"cause": cause}}


ENDINGS = ("match_over", "match_abandoned")


def _ended(event: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """A ``match_over`` or ``match_abandoned`` event carrying the result instead of ``winners``."""
    return {**{k: v for k, v in event.items() if k != "winners"}, "result": result}


def one_shape(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("matches", "Match")
    MatchSeat = apps.get_model("matches", "MatchSeat")
    MatchEvent = apps.get_model("matches", "MatchEvent")
    MatchAction = apps.get_model("matches", "MatchAction")
    for match in Match.objects.filter(status__in=("finished", "abandoned")).iterator():
        old = match.result
        if isinstance(old, dict) and set(old) == SHAPE:
            continue
        if old is None:
            if match.status != "abandoned":
                continue
            new = _abandoned(match, MatchSeat.objects)
        else:
            reason, details = _reason(match, old)
            new = {"winners": list(old.get("winners", [])), "winner_seats": list(old.get("winner_seats", [])),
                   "reason": reason, "details": details}
        match.result = new
        match.save(update_fields=["result"])
        for event in MatchEvent.objects.filter(match=match):
            if event.data.get("kind") in ENDINGS:
                event.data = _ended(event.data, new)
                event.save(update_fields=["data"])
        for action in MatchAction.objects.filter(match=match):
            answer = action.response
            if isinstance(answer, dict) and answer.get("result") is not None:
                events = [_ended(e, new) if e.get("kind") in ENDINGS else e for e in answer.get("events", [])]
                action.response = {**answer, "result": new, "events": events}
                action.save(update_fields=["response"])


class Migration(migrations.Migration):
    dependencies = [("matches", "0001_initial")]

    operations = [migrations.RunPython(one_shape, migrations.RunPython.noop)]
