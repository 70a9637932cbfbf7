"""The notices' store: every statement that numbers and writes a user's notices, and reads them back.

A batch of notices (one step's: a turn passed, a match started, ...) is written by one statement on
PostgreSQL: a data-modifying ``WITH`` resolves the players to their users, takes each user's next numbers
by an upsert of their counter row (``NoticeCounter``: the row stays locked until the commit, so one user's
notices commit in their ``seq`` order, with no gap; a rolled-back step gives its numbers back), and inserts
the notices. The counters are taken in user order, so two steps noticing the same users cannot deadlock
on them. A step's own save may take the same ``WITH`` items (``NOTICES_CTE``) into its statement: the
match's and the battle's step saves do, so a step that tells someone is still one statement. Elsewhere
(SQLite, whose writers queue anyway) the portable path does the same in three statements; the tests hold
both paths equal.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from backend.sql import Prepared
from players.models import Notice, NoticeCounter, Player

#: Notices read by one REST page or one stream catch-up.
NOTICES_PAGE = 200


@dataclass(frozen=True)
class Told:
    """One notice to write: to ``player``'s user, of ``kind``, about ``data`` (ids and what renders it)."""

    player: int
    kind: str
    data: dict[str, Any]


_NOTICE, _COUNTER, _PLAYER = Notice._meta.db_table, NoticeCounter._meta.db_table, Player._meta.db_table

#: A step's notices as the ``WITH`` items of a data-modifying statement (parameters: the notices as JSON,
#: ``notices_params``'s, then when): ``notice_told`` returns the users told, one row per notice. The notices'
#: own statement is this alone (``notices_insert``); a step's store composes it into its own save, so the
#: step and its notices are one statement (``matches.store.step_save``, ``combat.store.step_save``).
NOTICES_CTE = f"""notice_wanted AS (
    SELECT p.user_id, w.ord, w.kind, w.data
    FROM jsonb_to_recordset(%s::jsonb) AS w(ord integer, player bigint, kind text, data jsonb)
    JOIN {_PLAYER} p ON p.id = w.player
), notice_counted AS (
    INSERT INTO {_COUNTER} AS c (user_id, last_seq)
    SELECT user_id, COUNT(*) FROM notice_wanted GROUP BY user_id ORDER BY user_id
    ON CONFLICT (user_id) DO UPDATE SET last_seq = c.last_seq + EXCLUDED.last_seq
    RETURNING c.user_id, c.last_seq
), notice_told AS (
    INSERT INTO {_NOTICE} (user_id, seq, kind, data, created)
    SELECT w.user_id,
           c.last_seq - COUNT(*) OVER (PARTITION BY w.user_id)
                      + ROW_NUMBER() OVER (PARTITION BY w.user_id ORDER BY w.ord),
           w.kind, w.data, %s
    FROM notice_wanted w JOIN notice_counted c ON c.user_id = w.user_id
    RETURNING user_id
)"""
#: The users told by ``NOTICES_CTE``, in user order, as one value (NULL: nobody), for a composing
#: statement's ``RETURNING`` or ``SELECT`` list; ``users_of_column`` reads it.
NOTICES_TOLD_COLUMN = "(SELECT array_agg(DISTINCT t.user_id ORDER BY t.user_id) FROM notice_told t)"

_INSERT_FAST = f"WITH {NOTICES_CTE} SELECT {NOTICES_TOLD_COLUMN}"


def notices_params(told: Sequence[Told], *, now: datetime) -> list[Any]:
    """The parameters of ``NOTICES_CTE`` for these notices (in their order per user)."""
    rows = [{"ord": i, "player": t.player, "kind": t.kind, "data": t.data} for i, t in enumerate(told)]
    return [json.dumps(rows), now]


def users_of_column(value: Sequence[int] | None) -> list[int]:
    """The users a ``NOTICES_TOLD_COLUMN`` value names (each once, in user order)."""
    return [] if value is None else list(value)


def with_notices(save: str) -> str:
    """A step's save (a data-modifying ``WITH ... INSERT ... VALUES``, its last statement without
    ``RETURNING``) with the step's notices composed before it: one statement that also returns the users
    told. Its parameters: ``notices_params``'s, then the save's (``notices_saved`` runs it)."""
    return f"WITH {NOTICES_CTE}, {save.removeprefix('WITH ')} RETURNING {NOTICES_TOLD_COLUMN}"


def notices_saved(statement: Prepared, cursor: Any, params: Sequence[Any], told: Sequence[Told], *,
                  now: datetime, connection: BaseDatabaseWrapper) -> list[int]:
    """Run a ``with_notices`` statement (prepared) with the save's ``params`` and the notices ``told``;
    returns the users told (each once, in user order)."""
    statement.execute(cursor, [*notices_params(told, now=now), *params], connection)
    (users,) = cursor.fetchone()
    return users_of_column(users)


_COUNT_UP = (f"INSERT INTO {_COUNTER} (user_id, last_seq) VALUES {{rows}} ON CONFLICT (user_id) "
             f"DO UPDATE SET last_seq = {_COUNTER}.last_seq + excluded.last_seq RETURNING user_id, last_seq")


def notices_insert(told: Sequence[Told], *, now: datetime, fast: bool | None = None) -> list[int]:
    """Write the notices (in their order per user); returns the users told, each once, in user order.

    Call inside the transaction of the step the notices tell (their counters stay locked to its end).
    """
    if not told:
        return []
    connection = transaction.get_connection()
    if fast if fast is not None else connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_INSERT_FAST, notices_params(told, now=now))
            (users,) = cursor.fetchone()
            return users_of_column(users)
    return _insert_portable(told, now=now)


def _insert_portable(told: Sequence[Told], *, now: datetime) -> list[int]:
    users = dict(Player.objects.filter(pk__in={t.player for t in told}).values_list("pk", "user_id"))
    wanted = [(users[t.player], t) for t in told if t.player in users]
    counts = Counter(user_id for user_id, _ in wanted)
    if not counts:
        return []
    with transaction.atomic(savepoint=False), transaction.get_connection().cursor() as cursor:
        order = sorted(counts)
        cursor.execute(_COUNT_UP.format(rows=", ".join(["(%s, %s)"] * len(order))),
                       [value for user_id in order for value in (user_id, counts[user_id])])
        last = dict(cursor.fetchall())
        following = {user_id: last[user_id] - counts[user_id] for user_id in order}
        notices = []
        for user_id, t in wanted:
            following[user_id] += 1
            notices.append(Notice(user_id=user_id, seq=following[user_id], kind=t.kind, data=t.data,
                                  created=now))
        Notice.objects.bulk_create(notices)
    return order


def notices_after(*, user_id: int, since: int, limit: int = NOTICES_PAGE) -> list[Notice]:
    """The user's notices after ``since``, in ``seq`` order (the unique (user, seq) index)."""
    return list(Notice.objects.filter(user_id=user_id, seq__gt=since).order_by("seq")[:limit])


def notice_counter(*, user_id: int) -> int:
    """The last ``seq`` given to the user's notices (0 before the first)."""
    found = NoticeCounter.objects.filter(user_id=user_id).values_list("last_seq", flat=True).first()
    return found or 0


def notices_prune(*, before: datetime) -> int:
    """Delete the notices created before ``before`` (the counters stay: numbers are never reused)."""
    deleted, _ = Notice.objects.filter(created__lt=before).delete()
    return deleted
