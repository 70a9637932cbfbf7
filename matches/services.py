"""Writes of hosted matches: lobbies, seats, the start, and each step through the shared turn protocol.

Every write locks the match row first (then seats), so concurrent requests on one match queue
in one order. Steps go through ``backend.turns`` exactly as battles do; the game itself is the
mode adapter's (``matches.modes``): this module never looks inside a game's state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from backend.deadlines import DeadlineKind, deadline_set
from backend.errors import InvalidInput, NotAllowed, NotFound, RuleViolation, refused
from backend.live import publish
from backend.turns import (
    Taken,
    TurnOutcome,
    TurnTable,
    deadlines_apply,
    turn_act,
    turn_act_locked,
    turn_deadline,
    turn_refresh,
)
from gamekit.results import Impossible
from matches import store
from matches.access import (
    READER_SEATS,
    awaited_seat,
    forget_seating,
    game_state,
    guild_member,
    is_reader_seat,
    match_deadline,
    may_act,
    may_read,
    may_see_lobby,
    may_watch,
    mode_adapter,
    seat_player_ids,
    seating,
    store_state,
    turn_deadline_seconds,
    turn_waiting_since,
)
from matches.models import Match, MatchEvent, MatchModeSettings, MatchSeat, MatchStatus
from matches.modes import ABANDONED, NEW_GAME, Event, ModeAdapter, Outcome, match_result, rng_for
from matches.notices import notices_ended, notices_lobby, notices_step
from matches.store import ActionRecord
from players.models import Player
from players.selectors import player_for_user

_SEED_SOURCE = random.SystemRandom()
SEED_LIMIT = 2**63 - 1


def mode_settings(name: str) -> MatchModeSettings:
    """The mode's admin row, created with the adapter's defaults the first time a mode is used."""
    row = MatchModeSettings.objects.filter(mode=name).first()
    if row is None:
        adapter = mode_adapter(name)
        row, _ = MatchModeSettings.objects.get_or_create(
            mode=name,
            defaults={
                "defaults": adapter.default_settings(),
                "turn_deadline_seconds": adapter.default_turn_deadline_seconds,
                "spectators": adapter.spectators,
                "spectator_delay_turns": adapter.default_spectator_delay_turns,
            },
        )
    return row


def _seat_of(match: Match, player: Player) -> MatchSeat | None:
    return next((seat for seat in seating(match) if seat.player_id == player.pk), None)


def _not_found(match_id: int) -> NotFound:
    return NotFound("match_not_found", "No such match.", {"match": match_id})


def _locked(match_id: int) -> Match:
    """The match row locked for a write. Every step that changes a match (join, leave, start, an action, a
    timed-out turn, the end) takes this lock, so its streams are woken here, once the step commits (a
    refused step rolls back and wakes nobody; an idempotent replay wakes them for nothing new)."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise _not_found(match_id)
    publish(f"match:{match_id}")
    return match


def _take_seat(match: Match, player: Player, seat: MatchSeat | None) -> None:
    """Seat the player (reusing a row from an earlier stay); one active match per mode is the index's rule."""
    try:
        with transaction.atomic():
            if seat is None:
                MatchSeat.objects.create(match=match, player=player, mode=match.mode)
            else:
                seat.active, seat.left_at = True, None
                seat.save(update_fields=["active", "left_at"])
    except IntegrityError as exc:
        raise RuleViolation(
            "already_in_match", "You are already in an active match of this mode.", {"mode": match.mode}
        ) from exc
    forget_seating(match)


# --- lobby ------------------------------------------------------------------------------------


@transaction.atomic
def match_open(*, player: Player, mode: str, settings: Mapping[str, Any], guild: int | None = None) -> Match:
    """Open a lobby of ``mode`` hosted (and joined) by the player; ``guild``: members only."""
    adapter = mode_adapter(mode)
    row = mode_settings(mode)
    complete = adapter.validate_settings({**row.defaults, **settings})
    if isinstance(complete, Impossible):
        raise refused(complete)
    fixed = sorted(set(settings) - adapter.lobby_settings) if adapter.lobby_settings is not None else []
    if fixed:
        raise InvalidInput("setting_not_per_game", "These settings are the mode's defaults, not a lobby's.",
                           {"settings": fixed, "per_game": sorted(adapter.lobby_settings or ())})
    if guild is not None and not guild_member(player, guild):
        raise RuleViolation(
            "not_guild_member", "A guild lobby is for the host's own guild.", {"guild": guild}
        )
    if adapter.new_game_ends_old:
        _end_old_games(player, mode)
    match = Match.objects.create(
        mode=mode,
        host=player,
        guild_id=guild,
        settings=complete,
        turn_deadline_seconds=row.turn_deadline_seconds,
    )
    _take_seat(match, player, None)
    return match


def _end_old_games(player: Player, mode: str) -> None:
    """A new game of a single-player mode ends the old one: a lobby is left, a started match abandoned."""
    now = timezone.now()
    seats = MatchSeat.objects.filter(player=player, mode=mode, active=True)
    for match_id in seats.values_list("match_id", flat=True):
        old = _locked(match_id)
        if old.status == MatchStatus.LOBBY:
            match_leave(player=player, match_id=match_id, now=now)
        elif old.status == MatchStatus.ACTIVE:
            told = _new_events(old, [Event({"kind": "ended_by_new_game"})], turn=old.turn)
            _end(old, MatchStatus.ABANDONED, _nobody_won(NEW_GAME), now=now, events=told)


@transaction.atomic
def match_join(*, player: Player, match_id: int) -> Match:
    match = _locked(match_id)
    seat = _seat_of(match, player)
    if seat is not None and seat.active:
        raise RuleViolation("already_joined", "You are already seated at this match.", {"match": match_id})
    if not may_see_lobby(match, player):
        if seat is not None and seat.seat is not None:
            raise RuleViolation("match_not_in_lobby", "The match has started.", {"status": match.status})
        raise _not_found(match_id)
    adapter = mode_adapter(match.mode)
    if match.seats.filter(active=True).count() >= adapter.max_players:
        raise RuleViolation("match_full", "Every seat is taken.", {"max_players": adapter.max_players})
    notices_lobby(match, player=player.pk, change="joined")
    _take_seat(match, player, seat)
    return match


@transaction.atomic
def match_leave(*, player: Player, match_id: int, now: datetime | None = None) -> Match:
    """Leave a lobby, or walk out of a started match (one's turns then time out at once).

    The host leaving a lobby hands it to the earliest remaining player; an empty lobby is
    cancelled, and a started match nobody is left in is abandoned. A started game of a mode that
    keeps it (``leave_keeps_game``) stays as it is: its player comes back to it.
    """
    now = now or timezone.now()
    match = _locked(match_id)
    seat = _seat_of(match, player)
    if seat is None or not may_read(match, player, seat):
        raise _not_found(match_id)
    if not seat.active:
        raise RuleViolation("not_seated", "You are not seated at this match.", {"status": match.status})
    if match.status == MatchStatus.ACTIVE and mode_adapter(match.mode).leave_keeps_game:
        return match
    notices_lobby(match, player=player.pk, change="left")
    seat.active, seat.left_at = False, now
    seat.save(update_fields=["active", "left_at"])
    forget_seating(match)
    remaining = list(match.seats.filter(active=True).order_by("id"))
    if match.status == MatchStatus.LOBBY:
        if not remaining:
            match.status, match.ended_at = MatchStatus.CANCELLED, now
        elif match.host_id == player.pk:
            match.host = remaining[0].player
        match.save(update_fields=["status", "ended_at", "host"])
        return match
    assert seat.seat is not None
    match.absent_seats = sorted({*match.absent_seats, seat.seat})
    match.deadline_at = match_deadline(match)  # the seat's own turn now times out at once
    match.save(update_fields=["absent_seats", "deadline_at"])
    if not remaining:
        _end(match, MatchStatus.ABANDONED, _nobody_won(ABANDONED, cause="left"), now=now)
        return match
    deadlines_apply_now(match, now=now)
    return match


@transaction.atomic
def match_start(*, player: Player, match_id: int, now: datetime | None = None) -> Match:
    """The host starts: seats are numbered in joining order, the seed is drawn, the game is built."""
    now = now or timezone.now()
    match = _locked(match_id)
    seat = _seat_of(match, player)
    if not may_read(match, player, seat):
        raise _not_found(match_id)
    if match.host_id != player.pk:
        raise NotAllowed("not_host", "Only the host starts the match.", {"host": match.host_id})
    if match.status != MatchStatus.LOBBY:
        raise RuleViolation("match_not_in_lobby", "The match has started.", {"status": match.status})
    adapter = mode_adapter(match.mode)
    seats = list(match.seats.filter(active=True).order_by("id"))
    if len(seats) < adapter.min_players:
        raise RuleViolation(
            "not_enough_players",
            "Too few players to start.",
            {"players": len(seats), "min_players": adapter.min_players},
        )
    for number, row in enumerate(seats):
        row.seat = number
    MatchSeat.objects.bulk_update(seats, ["seat"])
    forget_seating(match)
    match.seed = _SEED_SOURCE.randrange(SEED_LIMIT)
    state = adapter.create(settings=match.settings, seats=len(seats), rng=rng_for(match.seed, 0))
    if isinstance(state, Impossible):  # the game cannot be built from these settings: nothing is written
        raise refused(state)
    match.status, match.started_at, match.turn = MatchStatus.ACTIVE, now, 1
    order = [seats[number].player_id for number in adapter.turn_order(state)]
    started = Event(
        {"kind": "match_started", "order": order, "seats": {str(s.seat): s.player_id for s in seats}}
    )
    events = _step(match, adapter, state, [started], turn=0, turn_started_at=now)
    store.step_save(match, events, None, release_seats=match.is_over, extra_columns=("seed", "started_at"))
    return match


# --- steps ------------------------------------------------------------------------------------


def _nobody_won(reason: str, **details: Any) -> dict[str, Any]:
    """The result of a match the machinery ends (``MACHINE_REASONS``): the one shape, nobody won."""
    return match_result(Outcome((), reason, details), {})


def _finish(match: Match, status: str, result: dict[str, Any], *, now: datetime) -> list[MatchEvent]:
    """End the match in memory (nobody awaited any more); returns the event the ending adds, if any (an
    abandoned match tells it; a finished one told it with the step's ``match_over``)."""
    match.status, match.result, match.ended_at = status, result, now
    match.awaiting_id, match.turn_started_at, match.deadline_at = None, None, None
    notices_ended(match)
    if status == MatchStatus.ABANDONED:
        return _new_events(match, [Event({"kind": "match_abandoned", "result": result})], turn=match.turn)
    return []


def _end(match: Match, status: str, result: dict[str, Any], *, now: datetime,
         events: Sequence[MatchEvent] = ()) -> None:
    """End a locked match outside a step (everyone walked out, a new game ended it) and save it."""
    ended = [*events, *_finish(match, status, result, now=now)]
    store.step_save(match, ended, None, release_seats=True)


def _new_events(match: Match, events: Sequence[Event], *, turn: int) -> list[MatchEvent]:
    """The events numbered after the match's last one (unsaved: the step's save writes them)."""
    first = match.event_count + 1
    rows = [
        MatchEvent(
            match_id=match.pk,
            seq=first + offset,
            turn=turn,
            data=event.data,
            seats=None if event.seats is None else sorted(event.seats),
        )
        for offset, event in enumerate(events)
    ]
    match.event_count += len(rows)
    return rows


def _step(
    match: Match,
    adapter: ModeAdapter[Any],
    state: Any,
    events: Sequence[Event],
    *,
    turn: int,
    turn_started_at: datetime,
) -> list[MatchEvent]:
    """Step ``turn`` of the locked match in memory: the new state, the next turn and whom it awaits, the
    end if the game is over; returns its events (with ``match_over`` at the end), for the store to save."""
    outcome = adapter.outcome(state)
    awaited_before = match.awaiting_id
    seat_players = seat_player_ids(match)
    result = None if outcome is None else match_result(outcome, seat_players)
    if result is not None:
        events = [*events, Event({"kind": "match_over", "result": result})]
    rows = _new_events(match, events, turn=turn)
    store_state(match, adapter, state)
    match.turn = turn + 1
    awaiting = adapter.awaiting(state)
    match.awaiting_id = None if awaiting is None else seat_players[awaiting]
    match.turn_started_at = None if awaiting is None else turn_started_at
    match.deadline_at = match_deadline(match)
    deadline_set(match.deadline_at)
    notices_step(match, awaited_before=awaited_before, started=turn == 0)
    if result is not None:
        rows += _finish(match, MatchStatus.FINISHED, result, now=turn_started_at)
    return rows


def _acting_seat(
    match: Match, player: Player, adapter: ModeAdapter[Any], state: Any, action: dict[str, Any]
) -> int:
    """The seat the action is for: the awaited player's, or another seated player's when the mode lists
    exactly this action for them now (an out-of-turn action, e.g. a call on the awaited player)."""
    if match.awaiting_id == player.pk:
        seat = awaited_seat(match)
        assert seat is not None
        return seat
    mine = _seat_of(match, player)
    if mine is not None and may_act(match, mine):
        assert mine.seat is not None
        if action in adapter.legal_actions(state, mine.seat):
            return mine.seat
    raise RuleViolation(
        "not_your_turn", "It is not your turn.", {"turn": match.turn, "awaiting": match.awaiting_id}
    )


class _MatchTurns(TurnTable[Match]):
    """A match in the shared turn protocol: the match row is the lock; a turn is a step of the game."""

    noun = "match"

    def read(self, object_id: int, player: Player) -> Match:
        match = Match.objects.filter(pk=object_id).first()
        if match is None or not _may_read_or_watch(match, player):
            raise _not_found(object_id)
        return match

    def lock(self, object_id: int, player: Player) -> Match:
        """The match locked for a reader or a spectator (a spectator's read applies passed deadlines as any
        read does; its action is refused by ``parse``)."""
        match = _locked(object_id)
        if not _may_read_or_watch(match, player):
            raise _not_found(object_id)
        return match

    def deadline_seconds(self, row: Match) -> int | None:
        return turn_deadline_seconds(row)

    def waiting_since(self, row: Match) -> datetime | None:
        return turn_waiting_since(row)

    def current_turn(self, row: Match) -> int:
        return row.turn

    def over_error(self, row: Match) -> RuleViolation | None:
        if row.status == MatchStatus.LOBBY:
            return RuleViolation("match_not_started", "The match has not started.", {"status": row.status})
        if row.is_over:
            return RuleViolation(
                "match_over", "The match is over.", {"status": row.status, "result": row.result}
            )
        return None

    def time_out(self, row: Match, *, deadline: datetime) -> None:
        adapter = mode_adapter(row.mode)
        seat = awaited_seat(row)
        assert seat is not None and row.seed is not None and row.awaiting_id is not None
        turn = row.turn
        timed_out = adapter.timeout(game_state(row), seat, rng_for(row.seed, turn))
        record = ActionRecord(turn=turn, seat=seat, player_id=row.awaiting_id, action=None,
                              idempotency_key="", response={"timeout": True})
        told = Event({"kind": "turn_timed_out", "seat": seat, "player": row.awaiting_id})
        row.idle_steps += 1
        events = _step(row, adapter, timed_out.state, [told, *timed_out.events], turn=turn,
                       turn_started_at=deadline)
        if row.status == MatchStatus.ACTIVE and row.idle_steps >= len(seat_player_ids(row)):
            abandoned = _nobody_won(ABANDONED, cause="timeouts")
            events += _finish(row, MatchStatus.ABANDONED, abandoned, now=deadline)
        store.step_save(row, events, record, release_seats=row.is_over)

    def replayed_response(self, row: Match, player: Player, key: str) -> dict[str, Any] | None:
        return store.replayed_response(match_id=row.pk, player_id=player.pk, key=key)

    def parse(self, row: Match, player: Player, action: Mapping[str, Any]) -> dict[str, Any]:
        if not is_reader_seat(_seat_of(row, player)):  # let in to read: a spectator, who never acts
            raise NotAllowed("spectator", "Spectators cannot act in a match.", {"match": row.pk})
        if row.state is not None:
            malformed = mode_adapter(row.mode).check_action(game_state(row), action)
            if malformed is not None:
                raise refused(malformed)
        return dict(action)

    def take(self, row: Match, player: Player, action: dict[str, Any], *, now: datetime) -> Taken:
        adapter = mode_adapter(row.mode)
        before = game_state(row)
        seat = _acting_seat(row, player, adapter, before, action)
        assert row.seed is not None
        turn = row.turn
        moved = adapter.apply(before, seat, action, rng_for(row.seed, turn))
        if isinstance(moved, Impossible):
            raise refused(moved)
        row.idle_steps = 0
        rows = _step(row, adapter, moved.state, moved.events, turn=turn, turn_started_at=now)
        row._unsaved_events = rows  # type: ignore[attr-defined] # saved with the action row (record)
        response = {
            "turn": turn,
            "next_turn": row.turn,
            "status": row.status,
            "result": row.result,
            "events": [{"seq": e.seq, **e.data} for e in rows if e.visible_to(seat)],
        }
        return Taken(response, action)

    def record(
        self,
        row: Match,
        player: Player,
        *,
        turn: int,
        action: dict[str, Any],
        key: str,
        response: dict[str, Any],
    ) -> None:
        seat = next(s for s, p in seat_player_ids(row).items() if p == player.pk)
        events: list[MatchEvent] = row._unsaved_events  # type: ignore[attr-defined] # the step of ``take``
        row._unsaved_events = []  # type: ignore[attr-defined]
        record = ActionRecord(turn=turn, seat=seat, player_id=player.pk, action=action, idempotency_key=key,
                              response=response)
        store.step_save(row, events, record, release_seats=row.is_over)


MATCH_TURNS = _MatchTurns()


def deadlines_apply_now(match: Match, *, now: datetime) -> None:
    """Apply passed deadlines to a locked match (e.g. right after a player walked out)."""
    deadlines_apply(MATCH_TURNS, match, now=now)


class _MatchDeadlines(DeadlineKind):
    """Matches for the deadline clock (backend/deadlines.py): the stored ``deadline_at`` finds them, the
    turn protocol applies their deadlines exactly as a read does."""

    name = "match"

    def next(self) -> datetime | None:
        pending = Match.objects.filter(deadline_at__isnull=False).order_by("deadline_at")
        return pending.values_list("deadline_at", flat=True).first()

    def due(self, now: datetime, limit: int) -> list[int]:
        passed = Match.objects.filter(deadline_at__isnull=False, deadline_at__lte=now).order_by("deadline_at")
        return list(passed.values_list("id", flat=True)[:limit])

    def fire(self, object_id: int, now: datetime) -> int:
        with transaction.atomic():
            match = Match.objects.select_for_update().filter(pk=object_id).first()
            if match is None:
                return 0
            skipped = deadlines_apply(MATCH_TURNS, match, now=now)
            deadline = match_deadline(match)
            if match.deadline_at != deadline:  # a stored deadline that is not the match's own (e.g. migrated)
                match.deadline_at = deadline
                match.save(update_fields=["deadline_at"])
            return skipped


MATCH_DEADLINES = _MatchDeadlines()


def match_refresh(*, player: Player, match_id: int, now: datetime | None = None) -> Match:
    """The match for a reader, after applying passed deadlines."""
    return turn_refresh(MATCH_TURNS, object_id=match_id, player=player, now=now)


def match_list_refresh(*, player: Player, mode: str | None = None, now: datetime | None = None) -> None:
    """Apply passed deadlines to every running match the player may read (of ``mode``, if given).

    The list shows ``status``, ``turn`` and ``awaiting``; without this it would show a turn that a
    read of the same match answers as timed out (a read applies what the deadline clock has not yet).
    Each match is locked only when one of its deadlines has passed, as ``turn_refresh`` does.
    """
    now = now or timezone.now()
    seated = MatchSeat.objects.filter(READER_SEATS, player=player).values("match_id")
    running = Match.objects.filter(status=MatchStatus.ACTIVE, pk__in=seated)
    if mode:
        running = running.filter(mode=mode)
    for match in running:
        deadline = turn_deadline(MATCH_TURNS, match)
        if deadline is not None and deadline <= now:
            with transaction.atomic():
                deadlines_apply_now(_locked(match.pk), now=now)


def _may_read_or_watch(match: Match, player: Player) -> bool:
    seat = _seat_of(match, player)
    return may_read(match, player, seat) or may_watch(match, player, seat)


def _reader(match: Match | None, player_id: int | None, *, user_id: int, match_id: int) -> Player:
    """The caller's player (only its id loaded) if they may read the loaded match, as a reader or a
    spectator; else the API's 404s in its order: an account without a player is ``player_not_found``, a
    match one may not read ``match_not_found``."""
    if match is None or player_id is None:
        player_for_user(user_id=user_id)  # raises player_not_found for an account without a player
        raise _not_found(match_id)
    player = store.player_ref(player_id)
    if not _may_read_or_watch(match, player):
        raise _not_found(match_id)
    return player


def match_read_for_user(
    *, user_id: int, match_id: int, since: int, now: datetime | None = None
) -> tuple[Match, Player, list[MatchEvent] | None]:
    """A read for the account ``user_id`` (the API): the match, the caller's player (only its id loaded) and
    the events after ``since`` when they were read with the match (None: read them). One statement while no
    deadline has passed (``store.match_poll``); else ``match_refresh``'s locks and timeouts.

    The refusals are the API's, in its order: an account without a player is 404 ``player_not_found``, a
    match the player may not read 404 ``match_not_found``.
    """
    now = now or timezone.now()
    found = store.match_poll(match_id=match_id, user_id=user_id, since=since)
    match = None if found is None else found.match
    player = _reader(match, None if found is None else found.player_id, user_id=user_id, match_id=match_id)
    assert found is not None and match is not None
    deadline = turn_deadline(MATCH_TURNS, match)
    if deadline is not None and deadline <= now:  # a turn timed out: applied under the lock, then read again
        return turn_refresh(MATCH_TURNS, object_id=match_id, player=player, now=now), player, None
    return match, player, found.events


def match_act_for_user(
    *,
    user_id: int,
    match_id: int,
    turn: int,
    action: Mapping[str, Any],
    idempotency_key: str = "",
    now: datetime | None = None,
) -> TurnOutcome[Match]:
    """``match_act`` for the account ``user_id`` (the API): the match is locked with the caller's player, its
    seats and the answer already given to the key in one statement (``store.match_act_lock``), and the
    step saved in one. The refusals are ``match_act``'s, after 404 ``player_not_found`` for an account
    without a player."""
    with transaction.atomic():
        found = store.match_act_lock(match_id=match_id, user_id=user_id, key=idempotency_key)
        match = None if found is None else found.match
        caller = None if found is None else found.player_id
        player = _reader(match, caller, user_id=user_id, match_id=match_id)
        assert found is not None and match is not None
        if found.previous is not None:
            return TurnOutcome(match, found.previous, replayed=True)
        outcome = turn_act_locked(MATCH_TURNS, match, player=player, turn=turn, action=action,
                                  idempotency_key=idempotency_key, now=now, key_checked=True)
        # The store's lock is not ``_locked``: this step wakes the match's streams itself (after the commit).
        publish(f"match:{match_id}")
        return outcome


def match_act(
    *,
    player: Player,
    match_id: int,
    turn: int,
    action: Mapping[str, Any],
    idempotency_key: str = "",
    now: datetime | None = None,
) -> TurnOutcome[Match]:
    """One action on the caller's turn, by the shared turn protocol (backend/turns.py)."""
    return turn_act(
        MATCH_TURNS,
        object_id=match_id,
        player=player,
        turn=turn,
        action=action,
        idempotency_key=idempotency_key,
        now=now,
    )
