"""The match aggregate's storage: a match with its seats, its event log and its action rows, in one module.

STYLE.md's store (Saleor's fetch), as battles have it (combat/store.py): an action or a read loads the
match with everything the request needs in one statement, the services compute the step with the mode's
pure engine, and the step is saved in one statement. Nothing else in matches writes SQL.

- ``match_act_lock``: an action's one read: the match locked, the caller's player (by account), the
  seats with their players' names, the answer already given to the idempotency key.
- ``match_poll``: a read's one statement: the match, the caller's player, the seats and the events after
  ``since``, without a lock.
- ``step_save``: a step's writes: its events appended, the match's changed columns (``STEP_COLUMNS``),
  the seats released when it ended the match, its action row and its notices (``players.notice_store``'s
  ``WITH`` items composed into the statement: whose turn began, that the match started or ended).

Each has two paths that load or write the same rows: PostgreSQL's precompiled (and, for an action's two
statements, prepared) SQL, and the portable ORM path that SQLite runs (``fast=False`` on PostgreSQL runs
it too; tests/matches/test_match_store.py compares them on both databases where they can run).

The match stays a ``Match`` model instance (the mode adapters, the access rules and the admin speak it):
the store builds it from the loaded columns (``Model.from_db``) with its seating attached as
``matches.access.seating`` caches it, and saves only the columns a step changes.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Subquery
from django.utils import timezone

from backend.sql import MAX_ROW_ID, Columns, Prepared, rows_insert, rows_update
from matches.models import Match, MatchAction, MatchEvent, MatchSeat
from players.models import Player
from players.notice_store import Told, notices_insert, notices_saved, with_notices

#: Every column of a match (its state is what every request needs; the rest is small).
MATCH = Columns(Match)
#: The columns a step (an action or a timeout) changes; the seed, settings and start never change after it.
STEP_COLUMNS = ("state", "turn", "awaiting_id", "turn_started_at", "deadline_at", "event_count", "idle_steps",
                "status", "result", "ended_at")
#: The most events one read returns (a client reads on with ``since``).
EVENTS_PER_READ = 500
#: The seat columns a request reads (the times joined and left are deferred: read on access).
_SEAT_FIELDS = ["id", "match_id", "player_id", "bot", "mode", "seat", "active"]


@dataclass(frozen=True)
class ActLocked:
    """What an action's lock read: the match (locked, its seating attached), the caller's player id (None:
    the account has no player) and the answer already given to the request's idempotency key (None: none)."""

    match: Match
    player_id: int | None
    previous: dict[str, Any] | None


@dataclass(frozen=True)
class Polled:
    """What a read loaded: the match (its seating attached), the caller's player id (None: the account has no
    player) and the stored events after ``since`` with their ``seq`` and ``seats`` (None: not loaded)."""

    match: Match
    player_id: int | None
    events: list[MatchEvent] | None


@dataclass(frozen=True)
class ActionRecord:
    """The action row a step is saved with: unique per (match, turn), the backstop against a second effect
    for one turn; ``action`` None for a timeout; ``response`` answers a retry with the same key."""

    turn: int
    seat: int
    player_id: int | None
    action: dict[str, Any] | None
    idempotency_key: str
    response: dict[str, Any]


def player_ref(player_id: int) -> Player:
    """A reference to a player's row (only its id loaded): the turn protocol and the rules use its id."""
    return Player.from_db(transaction.get_connection().alias, ["id"], [player_id])


def _attach_seating(match: Match, seats: Sequence[MatchSeat]) -> Match:
    match._seating = list(seats)  # type: ignore[attr-defined] # matches.access.seating's cache
    return match


def _seats_of_json(match: Match, value: str | None, alias: str) -> list[MatchSeat]:
    """The seats of a ``_SEATS_COLUMN`` value, each with its player's id and name loaded (a bot's: none)."""
    seats = []
    for seat_id, player_id, bot, number, active, name in [] if value is None else json.loads(value):
        seat = MatchSeat.from_db(alias, _SEAT_FIELDS,
                                 [seat_id, match.pk, player_id, bot, match.mode, number, active])
        player = (None if player_id is None
                  else Player.from_db(alias, ["id", "display_name"], [player_id, name]))
        MatchSeat.player.field.set_cached_value(seat, player)
        seats.append(seat)
    return seats


def _seats_orm(match: Match) -> list[MatchSeat]:
    return list(MatchSeat.objects.filter(match_id=match.pk).select_related("player").only(
        *_SEAT_FIELDS, "player__id", "player__display_name").order_by("id"))


def _events_of_json(match_id: int, value: str | None) -> list[MatchEvent]:
    return [MatchEvent(match_id=match_id, seq=seq, turn=turn, seats=seats, data=data)
            for seq, turn, seats, data in ([] if value is None else json.loads(value))]


def _caller(user_id: int) -> Subquery:
    return Subquery(Player.objects.filter(user_id=user_id).values("id")[:1])


# --- reads ------------------------------------------------------------------------------------------------

#: The account's player (NULL: none).
_CALLER = '(SELECT p."id" FROM "players_player" p WHERE p."user_id" = %s)'
#: The match's seats in joining order, each as [id, player, bot, seat, active, the player's name] (a bot's
#: seat: no player, no name).
_SEATS_COLUMN = (
    '(SELECT json_agg(json_build_array(s."id", s."player_id", s."bot", s."seat", s."active", '
    'p."display_name") '
    'ORDER BY s."id")::text FROM "matches_matchseat" s '
    'LEFT OUTER JOIN "players_player" p ON p."id" = s."player_id" '
    'WHERE s."match_id" = "matches_match"."id")')
#: An action's one read: the match (locked), the caller, the seats, the answer already given to the key
#: (NULL: none, or no key), and whether the match row is the one the statement's snapshot saw: a row that
#: changed while the lock was awaited (a start, a leave, an end) may have changed its seats, which the
#: subqueries read as they were before; then they are read again (``match_act_lock``).
_ACT_LOCK = (
    f'SELECT {MATCH.select()}, {_CALLER}, {_SEATS_COLUMN}, '
    '(SELECT a."response" FROM "matches_matchaction" a '
    'INNER JOIN "players_player" p ON p."id" = a."player_id" WHERE a."match_id" = "matches_match"."id" '
    'AND p."user_id" = %s AND a."idempotency_key" = %s '
    'AND a."idempotency_key" <> \'\' LIMIT 1)::text, '
    '"matches_match"."xmin" = (SELECT m."xmin" FROM "matches_match" m WHERE m."id" = "matches_match"."id") '
    'FROM "matches_match" WHERE "matches_match"."id" = %s FOR UPDATE OF "matches_match"')
#: Planned once per database session (backend.sql.Prepared), as the battle's lock is.
_ACT_LOCK_PREPARED = Prepared("match_act_lock", _ACT_LOCK)


def match_act_lock(*, match_id: int, user_id: int, key: str, fast: bool | None = None) -> ActLocked | None:
    """The match locked (None if there is none), with the caller's player, the seats and the answer already
    given to ``key``. ``fast``: one prepared statement (PostgreSQL's own); else the ORM's queries.

    The answer to the key is read in the statement's snapshot, taken before the lock was waited for: a
    duplicate that committed meanwhile is not seen here, so the caller checks it again after a refusal
    (``backend.turns.turn_act_locked``'s ``key_checked``)."""
    if match_id > MAX_ROW_ID:
        return None
    connection = transaction.get_connection()
    if not (connection.vendor == "postgresql" if fast is None else fast):
        return _act_lock_portable(match_id=match_id, user_id=user_id, key=key)
    with connection.cursor() as cursor:
        _ACT_LOCK_PREPARED.execute(cursor, [user_id, user_id, key, match_id], connection)
        row = cursor.fetchone()
    if row is None:
        return None
    match = MATCH.instance(row, connection)
    player_id, seats, previous, fresh = row[MATCH.width:]
    _attach_seating(match, _seats_of_json(match, seats, connection.alias) if fresh else _seats_orm(match))
    return ActLocked(match, player_id, None if previous is None else json.loads(previous))


def _act_lock_portable(*, match_id: int, user_id: int, key: str) -> ActLocked | None:
    match = Match.objects.select_for_update().annotate(caller=_caller(user_id)).filter(pk=match_id).first()
    if match is None:
        return None
    player_id: int | None = match.caller
    previous = None if not key or player_id is None else (
        MatchAction.objects.filter(match_id=match_id, player_id=player_id, idempotency_key=key)
        .values_list("response", flat=True).order_by().first())
    return ActLocked(_attach_seating(match, _seats_orm(match)), player_id, previous)


#: A read's one statement: the match, the caller, the seats and the events after ``since`` (each as
#: [seq, turn, seats, data]), without a lock.
_POLL = (
    f'SELECT {MATCH.select()}, {_CALLER}, {_SEATS_COLUMN}, '
    '(SELECT json_agg(json_build_array(e."seq", e."turn", e."seats", e."data") ORDER BY e."seq")::text FROM '
    '(SELECT "seq", "turn", "seats", "data" FROM "matches_matchevent" '
    'WHERE "match_id" = "matches_match"."id" AND "seq" > %s ORDER BY "seq" LIMIT %s) e) '
    'FROM "matches_match" WHERE "matches_match"."id" = %s')


def match_poll(*, match_id: int, user_id: int, since: int, fast: bool | None = None) -> Polled | None:
    """The match (None if there is none) with the caller's player, the seats and the events after ``since``:
    one precompiled statement (``fast``: PostgreSQL's own); else the ORM's queries, without the events."""
    if match_id > MAX_ROW_ID:
        return None
    connection = transaction.get_connection()
    if not (connection.vendor == "postgresql" if fast is None else fast):
        read = Match.objects.annotate(caller=_caller(user_id)).filter(pk=match_id).first()
        if read is None:
            return None
        return Polled(_attach_seating(read, _seats_orm(read)), read.caller, None)
    with connection.cursor() as cursor:
        cursor.execute(_POLL, [user_id, since, EVENTS_PER_READ, match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    polled = MATCH.instance(row, connection)
    player_id, seats, events = row[MATCH.width:]
    _attach_seating(polled, _seats_of_json(polled, seats, connection.alias))
    return Polled(polled, player_id, _events_of_json(polled.pk, events))


def match_events_since(*, match_id: int, since: int) -> list[MatchEvent]:
    """The stored events after ``since``, oldest first, at most ``EVENTS_PER_READ``."""
    return list(MatchEvent.objects.filter(match_id=match_id, seq__gt=since).order_by("seq")[:EVENTS_PER_READ])


def replayed_response(*, match_id: int, player_id: int, key: str) -> dict[str, Any] | None:
    """The stored answer of the player's earlier action at this match with this idempotency key, if any."""
    return (MatchAction.objects.filter(match_id=match_id, player_id=player_id, idempotency_key=key)
            .values_list("response", flat=True).order_by().first())


# --- writes -----------------------------------------------------------------------------------------------

#: A step's writes in one statement on PostgreSQL: its events (each [turn, seats, data]) appended, the
#: match's STEP_COLUMNS, its seats released if the step ended the match, and the action row, whose unique
#: (match, turn) fails the whole statement: a second effect for one turn stays impossible.
_STEP_SAVE = """WITH step_events AS (
    INSERT INTO "matches_matchevent" ("match_id", "seq", "turn", "seats", "data")
    SELECT %s, %s + e.n - 1, (e.item->>0)::integer, NULLIF(e.item->1, 'null'::jsonb), e.item->2
    FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY AS e (item, n)
), step_match AS (
    UPDATE "matches_match" SET "state" = %s::jsonb, "turn" = %s, "awaiting_id" = %s, "turn_started_at" = %s,
        "deadline_at" = %s, "event_count" = %s, "idle_steps" = %s, "status" = %s, "result" = %s::jsonb,
        "ended_at" = %s
    WHERE "id" = %s
), step_seats AS (
    UPDATE "matches_matchseat" SET "active" = false WHERE "match_id" = %s AND "active" AND %s
)
INSERT INTO "matches_matchaction" ("match_id", "turn", "seat", "player_id", "action", "idempotency_key",
                                   "response", "created_at")
VALUES (%s, %s, %s, %s, %s::jsonb, %s, %s::jsonb, %s)"""
_STEP_SAVE_PREPARED = Prepared("match_step_save", _STEP_SAVE)
#: The same with the step's notices (players.notice_store's ``WITH`` items, their parameters first): a step
#: that tells someone (whose turn began, that the match ended) is still one statement, which returns the
#: users told.
_STEP_SAVE_TOLD_PREPARED = Prepared("match_step_save_told", with_notices(_STEP_SAVE))


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def step_save(match: Match, events: Sequence[MatchEvent], action: ActionRecord | None, *,
              release_seats: bool, told: Sequence[Told], extra_columns: Sequence[str] = (),
              fast: bool | None = None) -> list[int]:
    """Write a step: its new events (numbered, unsaved), the match's ``STEP_COLUMNS`` (and
    ``extra_columns``: the start's seed and time), its seats released (``release_seats``: it ended the match),
    its action row and its notices (``told``: required, so that no step's save forgets the notices its step
    gave; ``matches.services._save`` passes them); returns the users told (each once, in user order), whose
    streams the caller wakes. One prepared statement on PostgreSQL (``fast``; a step with an action row and
    no extra columns), notices included; else the ORM's few and the notices' own."""
    connection = transaction.get_connection()
    fast = connection.vendor == "postgresql" if fast is None else fast
    if fast and action is not None and not extra_columns:
        return _step_save_fast(match, events, action, release_seats, told, connection)
    rows_insert(list(events))
    rows_update([match], [*STEP_COLUMNS, *extra_columns])
    if release_seats:
        seats_release(match)
    if action is not None:
        rows_insert([MatchAction(match_id=match.pk, turn=action.turn, seat=action.seat,
                                 player_id=action.player_id, action=action.action,
                                 idempotency_key=action.idempotency_key, response=action.response)])
    return notices_insert(told, now=timezone.now(), fast=fast)


def _step_save_fast(match: Match, events: Sequence[MatchEvent], action: ActionRecord, release_seats: bool,
                    told: Sequence[Told], connection: BaseDatabaseWrapper) -> list[int]:
    first = events[0].seq if events else match.event_count + 1
    now = timezone.now()
    params = [
        match.pk, first, json.dumps([[e.turn, e.seats, e.data] for e in events]),
        json.dumps(match.state), match.turn, match.awaiting_id, match.turn_started_at, match.deadline_at,
        match.event_count, match.idle_steps, match.status, _json(match.result), match.ended_at, match.pk,
        match.pk, release_seats,
        match.pk, action.turn, action.seat, action.player_id, _json(action.action),
        action.idempotency_key, json.dumps(action.response), now,
    ]
    users: list[int] = []
    with connection.cursor() as cursor:
        if told:
            users = notices_saved(_STEP_SAVE_TOLD_PREPARED, cursor, params, told, now=now,
                                  connection=connection)
        else:
            _STEP_SAVE_PREPARED.execute(cursor, params, connection)
    for event in events:
        event._state.adding, event._state.db = False, connection.alias
    if release_seats:
        match._seating = None  # type: ignore[attr-defined]
    return users


def seats_release(match: Match) -> None:
    """The match is over: its seats are no longer active (each player may join another of the mode)."""
    MatchSeat.objects.filter(match_id=match.pk, active=True).update(active=False)
    match._seating = None  # type: ignore[attr-defined]
