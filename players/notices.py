"""What a user is told: the notices of ``GET /api/v1/me/notices/`` and ``GET /api/v1/me/stream/``.

``notify`` writes a step's notices in the step's own transaction (``players.notice_store``: one statement on
PostgreSQL) and wakes each told user's streams (``user:<id>``) once it commits. A match move and a battle
action fold their notices into the step's own statement instead, then call ``notices_wake``. A notice's
``data`` names what it is about by id; ``notice_text`` renders its sentence at read time, in the reader's
language (``players.serializers.NoticeOutput`` is the one shape of a REST entry and of a stream message;
docs/live.md).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from backend.live import publish
from players.models import NoticeKind
from players.notice_store import Told, notices_insert, notices_prune

__all__ = ["KEEP_DAYS", "NoticeKind", "Told", "notice_text", "notices_forget", "notices_wake", "notify"]

#: Notices older than this are deleted by the daily task (``players.tasks.notices_forget_old``).
KEEP_DAYS = 30


def notify(told: Sequence[Told], *, now: datetime | None = None) -> None:
    """Write the notices with the step that causes them, and wake the told users' streams after its commit."""
    notices_wake(notices_insert(told, now=now or timezone.now()))


def notices_wake(user_ids: Iterable[int]) -> None:
    """Wake the told users' streams once the step commits: for a step whose store wrote its notices in the
    step's own statement (``players.notice_store.NOTICES_CTE``), with the users that statement returned."""
    for user_id in user_ids:
        publish(f"user:{user_id}")


def notices_forget(*, now: datetime | None = None, keep_days: int = KEEP_DAYS) -> int:
    """Delete the notices older than ``keep_days``; a client resuming from before them gets what is left."""
    return notices_prune(before=(now or timezone.now()) - timedelta(days=keep_days))


def notice_text(kind: str, data: dict[str, Any]) -> str:
    """The notice's sentence in the active language."""
    match kind:
        case NoticeKind.YOUR_TURN if "battle" in data:
            return gettext("It is your turn in the battle of run %(run)s.") % data
        case NoticeKind.YOUR_TURN:
            return gettext("It is your turn in match %(match)s (%(mode)s).") % data
        case NoticeKind.MATCH_STARTED:
            return gettext("Match %(match)s (%(mode)s) has started.") % data
        case NoticeKind.MATCH_ENDED:
            return gettext("Match %(match)s (%(mode)s) has ended.") % data
        case NoticeKind.INVITATION:
            return gettext("You are invited to join the guild %(name)s.") % data
        case NoticeKind.APPLICATION_DECIDED if data.get("status") == "approved":
            return gettext("Your application to the guild %(name)s was approved.") % data
        case NoticeKind.APPLICATION_DECIDED if data.get("reason"):
            return gettext("Your application to the guild %(name)s was rejected: %(reason)s") % data
        case NoticeKind.APPLICATION_DECIDED:
            return gettext("Your application to the guild %(name)s was rejected.") % data
        case NoticeKind.LOBBY_CHANGED if "run" in data:
            return _run_lobby_text(data)
        case NoticeKind.LOBBY_CHANGED if data.get("change") == "joined":
            return gettext("A player joined the lobby of match %(match)s (%(mode)s).") % data
        case NoticeKind.LOBBY_CHANGED:
            return gettext("A player left the lobby of match %(match)s (%(mode)s).") % data
        case NoticeKind.REMATCH_OFFERED:
            return gettext("A rematch of match %(rematch_of)s is open: lobby %(match)s (%(mode)s).") % data
    return kind


def _run_lobby_text(data: dict[str, Any]) -> str:
    """A run lobby's change (``dungeons.runs.lobby``): joined, left, weapon_chosen or formation."""
    match data.get("change"):
        case "joined":
            return gettext("A player joined the lobby of run %(run)s.") % data
        case "left":
            return gettext("A player left the lobby of run %(run)s.") % data
        case "weapon_chosen":
            return gettext("A player of the lobby of run %(run)s chose a starting weapon.") % data
        case _:
            return gettext("The formation of the lobby of run %(run)s changed.") % data
