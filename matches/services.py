"""Writes of hosted matches: lobbies, seats, the start, and each step through the shared turn protocol.

Every write locks the match row first (then seats), so concurrent requests on one match queue
in one order. Steps go through ``backend.turns`` exactly as battles do; the game itself is the
mode adapter's (``matches.modes``): this module never looks inside a game's state.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from backend.api.pagination import Page
from backend.deadlines import DeadlineKind, deadline_set
from backend.errors import DomainError, InvalidInput, NotAllowed, NotFound, RuleViolation, refused
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
from matches import selectors, store
from matches.access import (
    READER_SEATS,
    awaited_bot,
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
    queue_fill_at,
    seat_player_ids,
    seating,
    store_state,
    turn_deadline_seconds,
    turn_waiting_since,
)
from matches.models import Match, MatchEvent, MatchModeSettings, MatchSeat, MatchStatus
from matches.modes import (
    ABANDONED,
    NEW_GAME,
    RESIGNED,
    Event,
    ModeAdapter,
    Outcome,
    bot_rng_for,
    match_result,
    rng_for,
)
from matches.notices import notices_ended, notices_lobby, notices_rematch, notices_step, notices_take
from matches.store import ActionRecord
from players.models import Player
from players.notices import notices_wake
from players.selectors import player_for_user

_SEED_SOURCE = random.SystemRandom()
SEED_LIMIT = 2**63 - 1
#: how long a rematch lobby is kept for the players of the match it follows (SPEC 15)
REMATCH_RESERVED_SECONDS = 60

#: the most steps a bot takes in a row before its turn times out: a free action (the console's E or ?, the
#: paper game's pause) keeps the turn, and the bot is asked again, this many times at most
BOT_STEPS_IN_A_ROW = 10


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


#: The hub channel of the match lists (``GET matches/stream/``, ``matches.streams``): published once a match
#: enters, leaves or changes in somebody's list (a lobby opened, a seat taken or given up, a start, an end, an
#: idle lobby cancelled), never on a move.
LIST_CHANNEL = "matches:list"


def _listed_changed() -> None:
    """The match lists' streams read again once the step commits."""
    publish(LIST_CHANNEL)


def _locked(match_id: int) -> Match:
    """The match row locked for a write. Every step that changes a match (join, leave, start, an action, a
    timed-out turn, the end) takes this lock, so its streams are woken here, once the step commits (a
    refused step rolls back and wakes nobody; an idempotent replay wakes them for nothing new)."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise _not_found(match_id)
    publish(f"match:{match_id}")
    return match


def active_limit(mode: str) -> int:
    """How many active seats of ``mode`` one player may hold: the admin's ``max_active_per_player``; one for a
    mode where a new game ends the old (the roguelike)."""
    if mode_adapter(mode).new_game_ends_old:
        return 1
    return mode_settings(mode).max_active_per_player


def _take_seat(match: Match, player: Player, seat: MatchSeat | None) -> None:
    """Seat the player (reusing a row from an earlier stay) in a free slot of the player's active seats of the
    mode. The partial unique index on (player, mode, slot) WHERE active is the rule's backstop: two joins
    racing for one slot cannot both commit; the loser reads the slots again (a new statement sees the
    winner's committed row) and takes the next free one, or is refused when none is left."""
    limit = active_limit(match.mode)
    for _attempt in range(limit + 2):
        taken = set(
            MatchSeat.objects.filter(player=player, mode=match.mode, active=True)
            .values_list("slot", flat=True)
        )
        free = next((n for n in range(limit) if n not in taken), None)
        if free is None or len(taken) >= limit:
            break
        try:
            with transaction.atomic():
                if seat is None:
                    MatchSeat.objects.create(match=match, player=player, mode=match.mode, slot=free)
                else:
                    seat.active, seat.left_at, seat.slot = True, None, free
                    seat.save(update_fields=["active", "left_at", "slot"])
        except IntegrityError:
            if seat is not None:
                seat.active = False
            continue
        forget_seating(match)
        return
    raise RuleViolation(
        "already_in_match",
        "You already sit in as many active matches of this mode as you may.",
        {"mode": match.mode, "max_active_per_player": limit},
    )


def _active_count(match: Match) -> int:
    return match.seats.filter(active=True).count()


# --- lobby times: the queue's fill and the idle lobby's end, fired by the deadline clock ----------------


def _idle_at(match: Match, row: MatchModeSettings) -> datetime | None:
    """When this lobby is cancelled if no seat changes before (None: the mode never cancels idle lobbies)."""
    if not row.lobby_idle_seconds:
        return None
    return (match.seats_changed_at or match.created_at) + timedelta(seconds=row.lobby_idle_seconds)


def _lobby_deadline(match: Match, now: datetime) -> datetime | None:
    """The lobby's next time for the clock: the queue's fill while it is ahead, else the idle end."""
    if match.status != MatchStatus.LOBBY:
        return None
    row = mode_settings(match.mode)
    fill = queue_fill_at(match, row)
    times = [at for at in (fill if fill is not None and fill > now else None, _idle_at(match, row)) if at]
    return min(times, default=None)


def _lobby_seats_changed(match: Match, now: datetime) -> None:
    """A seat of the locked lobby changed: its idle time starts again; the clock learns its next time."""
    match.seats_changed_at = now
    match.lobby_deadline_at = _lobby_deadline(match, now)
    match.save(update_fields=["seats_changed_at", "lobby_deadline_at"])
    deadline_set(match.lobby_deadline_at)
    _listed_changed()


def _queue_ready(match: Match, now: datetime) -> None:
    """After a seat was taken in a locked queue lobby: every seat taken, or the fill time passed with enough
    players seated (a fill that found too few), starts it."""
    if match.queued_at is None or match.status != MatchStatus.LOBBY:
        return
    adapter = mode_adapter(match.mode)
    seated = _active_count(match)
    fill = queue_fill_at(match, mode_settings(match.mode))
    if seated >= adapter.max_players or (fill is not None and fill <= now and seated >= adapter.min_players):
        _start_or_keep(match, now)


def _start_or_keep(match: Match, now: datetime) -> None:
    """Start the locked lobby with nobody asking (the queue): a start the mode refuses (e.g. no world could
    be built) leaves the lobby as it was, to be started by its host or cancelled when idle."""
    try:
        with transaction.atomic():
            _start(match, now)
    except DomainError:
        match.refresh_from_db()
        forget_seating(match)


def _queue_fill(match: Match, now: datetime) -> None:
    """The queue's fill time passed and the lobby has fewer than ``min_players`` people: the empty seats up to
    ``min_players`` fill with bots and the match starts (SPEC 15, quick join)."""
    adapter = mode_adapter(match.mode)
    match_bots_fill(match, up_to=adapter.min_players, now=now)
    if _active_count(match) >= adapter.min_players:
        _start_or_keep(match, now)


def _cancel_idle(match: Match, now: datetime) -> None:
    """The locked lobby's seats have not changed for the mode's ``lobby_idle_seconds``: it is cancelled and
    its seats are freed (each player may sit in another match)."""
    MatchSeat.objects.filter(match=match, active=True).update(active=False, left_at=now)
    forget_seating(match)
    match.status, match.ended_at, match.lobby_deadline_at = MatchStatus.CANCELLED, now, None
    match.save(update_fields=["status", "ended_at", "lobby_deadline_at"])
    _listed_changed()


def lobby_times_apply(match: Match, now: datetime) -> bool:
    """Apply the locked lobby's passed time, as the clock and a read do: a queue lobby's fill (it starts: with
    ``min_players`` seated at once, else through ``_queue_fill``), then an idle lobby's end; the next time is
    stored. Returns whether anything was due."""
    if match.status != MatchStatus.LOBBY or match.lobby_deadline_at is None or match.lobby_deadline_at > now:
        return False
    row = mode_settings(match.mode)
    fill = queue_fill_at(match, row)
    if fill is not None and fill <= now:
        if _active_count(match) >= mode_adapter(match.mode).min_players:
            _start_or_keep(match, now)
        else:
            _queue_fill(match, now)
    idle = _idle_at(match, row)
    if match.status == MatchStatus.LOBBY and idle is not None and idle <= now:
        _cancel_idle(match, now)
    if match.status == MatchStatus.LOBBY:
        match.lobby_deadline_at = _lobby_deadline(match, now)
        match.save(update_fields=["lobby_deadline_at"])
    return True


def lobby_times_apply_now(match_id: int, now: datetime) -> None:
    """Apply a lobby's passed time in a transaction of its own, if one has passed (a read, a join: first)."""
    if not Match.objects.filter(pk=match_id, status=MatchStatus.LOBBY, lobby_deadline_at__lte=now).exists():
        return
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is not None and lobby_times_apply(match, now):
            publish(f"match:{match_id}")


# --- lobby ------------------------------------------------------------------------------------


#: The letters of an invite code: no 0/O, 1/I/L, easy to read out and type (31 signs: about 40 bits in 8).
INVITE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
INVITE_LENGTH = 8


def _invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


def _lobby_settings(adapter: ModeAdapter[Any], row: MatchModeSettings, settings: Mapping[str, Any]) -> Any:
    """A new lobby's complete settings: the admin's defaults with the lobby's own, checked by the mode."""
    complete = adapter.validate_settings({**row.defaults, **settings})
    if isinstance(complete, Impossible):
        raise refused(complete)
    fixed = sorted(set(settings) - adapter.lobby_settings) if adapter.lobby_settings is not None else []
    if fixed:
        raise InvalidInput("setting_not_per_game", "These settings are the mode's defaults, not a lobby's.",
                           {"settings": fixed, "per_game": sorted(adapter.lobby_settings or ())})
    return complete


@transaction.atomic
def match_open(*, player: Player, mode: str, settings: Mapping[str, Any], guild: int | None = None,
               private: bool = False, now: datetime | None = None) -> Match:
    """Open a lobby of ``mode`` hosted (and joined) by the player; ``guild``: members only; ``private``: in
    nobody's list, joined by its invite code."""
    now = now or timezone.now()
    adapter = mode_adapter(mode)
    complete = _lobby_settings(adapter, mode_settings(mode), settings)
    if guild is not None and not guild_member(player, guild):
        raise RuleViolation(
            "not_guild_member", "A guild lobby is for the host's own guild.", {"guild": guild}
        )
    return _open(player=player, mode=mode, settings=complete, guild=guild, private=private, now=now)


def _open(*, player: Player, mode: str, settings: Any, now: datetime, guild: int | None = None,
          private: bool = False, queued: bool = False) -> Match:
    adapter = mode_adapter(mode)
    if adapter.new_game_ends_old:
        _end_old_games(player, mode)
    fields: dict[str, Any] = {
        "mode": mode, "host": player, "guild_id": guild, "settings": settings, "private": private,
        "turn_deadline_seconds": mode_settings(mode).turn_deadline_seconds, "seats_changed_at": now,
        "queued_at": now if queued else None,
    }
    for _attempt in range(5):  # a code already given (about one chance in 2**39 per lobby) draws another
        try:
            with transaction.atomic():
                match = Match.objects.create(**fields, invite_code=_invite_code() if private else None)
            break
        except IntegrityError:
            continue
    else:  # pragma: no cover - five collisions in a row mean a broken random source
        raise RuntimeError("no free invite code")
    _take_seat(match, player, None)
    match.lobby_deadline_at = _lobby_deadline(match, now)
    match.save(update_fields=["lobby_deadline_at"])
    deadline_set(match.lobby_deadline_at)
    _listed_changed()
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


def match_join(*, player: Player, match_id: int, now: datetime | None = None) -> Match:
    """Take a seat in a lobby one may see (a private lobby is 404 to strangers: it is joined by its code)."""
    now = now or timezone.now()
    lobby_times_apply_now(match_id, now)  # an idle lobby is cancelled, a filled queue started, before
    with transaction.atomic():
        match = _locked(match_id)
        seat = _seat_of(match, player)
        if seat is not None and seat.active:
            raise RuleViolation("already_joined", "You are already seated at this match.",
                                {"match": match_id})
        if not may_see_lobby(match, player):
            if seat is not None and seat.seat is not None:
                raise RuleViolation("match_not_in_lobby", "The match has started.", {"status": match.status})
            raise _not_found(match_id)
        _seat_in(match, player, seat, now)
        return match


def _seat_in(match: Match, player: Player, seat: MatchSeat | None, now: datetime) -> None:
    """Seat the player in the locked lobby, within the mode's ``max_players`` and the player's limit (and,
    in a rematch's reserved time, only a player of the match it follows)."""
    _rematch_reserved_check(match, player, now)
    adapter = mode_adapter(match.mode)
    if _active_count(match) >= adapter.max_players:
        raise RuleViolation("match_full", "Every seat is taken.", {"max_players": adapter.max_players})
    notices_lobby(match, player=player.pk, change="joined")
    _take_seat(match, player, seat)
    _lobby_seats_changed(match, now)
    _queue_ready(match, now)


def _rematch_reserved_check(match: Match, player: Player, now: datetime) -> None:
    """A rematch lobby is kept for the players of the match it follows until ``reserved_until``."""
    if match.reserved_until is not None and now < match.reserved_until:
        followed = Match.objects.filter(rematch=match).first()
        if followed is None or player.pk not in seat_player_ids(followed).values():
            raise RuleViolation(
                "rematch_reserved",
                "This rematch is kept for the players of the match it follows for a while.",
                {"until": match.reserved_until.isoformat()},
            )


def _invite_not_found() -> NotFound:
    return NotFound("invite_not_found", "No lobby has this invite code.")


def match_join_by_code(*, player: Player, code: str, now: datetime | None = None) -> Match:
    """Take a seat in a private lobby by its invite code (case and spaces or dashes around letters do not
    matter). An unknown code is 404 ``invite_not_found``; the code of a lobby that started or was cancelled
    409 ``invite_expired``."""
    now = now or timezone.now()
    typed = code.upper().replace("-", "").replace(" ", "")
    found = Match.objects.filter(invite_code=typed).values_list("pk", flat=True).first() if typed else None
    if found is None:
        raise _invite_not_found()
    lobby_times_apply_now(found, now)
    with transaction.atomic():
        match = _locked(found)
        seat = _seat_of(match, player)
        if seat is not None and seat.active:
            raise RuleViolation("already_joined", "You are already seated at this match.", {"match": found})
        if match.status != MatchStatus.LOBBY:
            raise RuleViolation("invite_expired", "This lobby has started or was cancelled.",
                                {"status": match.status})
        if match.guild_id is not None and not guild_member(player, match.guild_id):
            raise _invite_not_found()
        _seat_in(match, player, seat, now)
        return match


# --- quick join (SPEC 15) ---------------------------------------------------------------------------


def _queue_lobbies(mode: str) -> list[tuple[int, Any, int]]:
    """The waiting public queue lobbies of a mode, oldest first: id, settings, players seated."""
    waiting = Match.objects.filter(mode=mode, status=MatchStatus.LOBBY, queued_at__isnull=False,
                                   private=False, guild__isnull=True)
    seated = waiting.annotate(seated=Count("seats", filter=Q(seats__active=True))).order_by("id")
    return list(seated.values_list("id", "settings", "seated"))


def match_queue_join(*, player: Player, mode: str, settings: Mapping[str, Any],
                     now: datetime | None = None) -> Match:
    """Quick join: a seat in the oldest waiting public queue lobby of ``mode`` with the same settings and a
    free seat, else a new queue lobby the caller hosts. The mode's admin row is locked first, so the joins
    of one mode's queue are chosen one at a time (N joins at once fill ceil(N / max_players) lobbies)."""
    now = now or timezone.now()
    adapter = mode_adapter(mode)
    complete = _lobby_settings(adapter, mode_settings(mode), settings)
    with transaction.atomic():
        MatchModeSettings.objects.select_for_update().filter(mode=mode).first()  # the mode's queue lock
        queued = MatchSeat.objects.filter(player=player, mode=mode, active=True,
                                          match__status=MatchStatus.LOBBY, match__queued_at__isnull=False)
        if queued.exists():
            raise RuleViolation("already_queued", "You are already waiting in this mode's queue.",
                                {"match": queued.values_list("match_id", flat=True).first()})
        for candidate, candidate_settings, seated in _queue_lobbies(mode):
            if seated >= adapter.max_players or candidate_settings != complete:
                continue
            match = _locked(candidate)
            lobby_times_apply(match, now)  # one past its time is filled or cancelled, not joined
            if match.status != MatchStatus.LOBBY or _active_count(match) >= adapter.max_players:
                continue
            _seat_in(match, player, _seat_of(match, player), now)
            return match
        match = _open(player=player, mode=mode, settings=complete, now=now, queued=True)
        _queue_ready(match, now)  # a one-seat mode's lobby is full with its opener
        return match


@transaction.atomic
def match_queue_leave(*, player: Player, mode: str | None = None, now: datetime | None = None) -> list[int]:
    """Leave every queue lobby the caller waits in (of ``mode``, if given); 409 ``not_queued`` if none.
    Returns the lobbies left."""
    now = now or timezone.now()
    waiting = MatchSeat.objects.filter(player=player, active=True, match__status=MatchStatus.LOBBY,
                                       match__queued_at__isnull=False)
    if mode:
        waiting = waiting.filter(mode=mode)
    left = []
    for match_id in sorted(waiting.values_list("match_id", flat=True)):
        if _locked(match_id).status == MatchStatus.LOBBY:  # not started meanwhile
            match_leave(player=player, match_id=match_id, now=now)
            left.append(match_id)
    if not left:
        raise RuleViolation("not_queued", "You are not waiting in a queue.", {"mode": mode})
    return left


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
    # Bots keep no game alive: a lobby or a match nobody but bots sits at ends as an empty one does.
    remaining = list(match.seats.filter(active=True, player__isnull=False).order_by("id"))
    if match.status == MatchStatus.LOBBY:
        if not remaining:
            match.status, match.ended_at = MatchStatus.CANCELLED, now
            match.seats.filter(active=True).update(active=False, left_at=now)  # the bots' seats
            forget_seating(match)
        elif match.host_id == player.pk:
            heir = remaining[0].player
            assert heir is not None  # ``remaining`` are people's seats
            match.host = heir
        match.save(update_fields=["status", "ended_at", "host"])
        _lobby_seats_changed(match, now)
        return match
    assert seat.seat is not None
    match.absent_seats = sorted({*match.absent_seats, seat.seat})
    match.deadline_at = match_deadline(match)  # the seat's own turn now times out at once
    match.save(update_fields=["absent_seats", "deadline_at"])
    _listed_changed()  # one player fewer
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
    _start(match, now)
    return match


def _start(match: Match, now: datetime) -> None:
    """Start the locked lobby: seats numbered in joining order, the seed drawn, the game built."""
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
    match.lobby_deadline_at = None
    _listed_changed()
    order = [seats[number].player_id for number in adapter.turn_order(state)]
    started = Event(
        {"kind": "match_started", "order": order, "seats": {str(s.seat): s.player_id for s in seats}}
    )
    events = _step(match, adapter, state, [started], turn=0, turn_started_at=now)
    _save(match, events, None, release_seats=match.is_over,
          extra_columns=("seed", "started_at", "lobby_deadline_at"))


@transaction.atomic
def match_resign(*, player: Player, match_id: int, now: datetime | None = None) -> Match:
    """The caller resigns (SPEC 15): a step of the log (``resigned``) that loses the game at once.

    The seat is taken out of play as a walk-out is (its turns time out at once, its place in the mode is
    freed) and is never among the winners; the mode's ``resign`` hook does the rest. When at most one seat
    that has not resigned is left, the match is finished: that seat wins (``resigned``; nobody, if none).
    The match row's lock orders it with every action: one of the two happens first, whole.
    """
    now = now or timezone.now()
    match = _locked(match_id)
    seat = _seat_of(match, player)
    if seat is None or not may_read(match, player, seat):
        raise _not_found(match_id)
    if match.status == MatchStatus.LOBBY:
        raise RuleViolation("match_not_started", "The match has not started: leave the lobby instead.",
                            {"status": match.status})
    deadlines_apply_now(match, now=now)  # what has timed out is settled first, as for an action
    if match.is_over:
        raise RuleViolation("match_over", "The match is over.",
                            {"status": match.status, "result": match.result})
    assert seat.seat is not None and match.seed is not None
    if seat.seat in match.resigned_seats:
        raise RuleViolation("already_resigned", "You have already resigned.", {"seat": seat.seat})
    adapter = mode_adapter(match.mode)
    turn = match.turn
    resigned = adapter.resign(game_state(match), seat.seat, rng_for(match.seed, turn))
    match.resigned_seats = sorted({*match.resigned_seats, seat.seat})
    match.absent_seats = sorted({*match.absent_seats, seat.seat})
    match.idle_steps = 0
    told = Event({"kind": "resigned", "seat": seat.seat, "player": player.pk})
    events = _step(match, adapter, resigned.state, [told, *resigned.events], turn=turn, turn_started_at=now)
    record = ActionRecord(turn=turn, seat=seat.seat, player_id=player.pk, action=None, idempotency_key="",
                          response={"resigned": True})
    if seat.active and not match.is_over:
        seat.active, seat.left_at = False, now
        seat.save(update_fields=["active", "left_at"])
    _save(match, events, record, release_seats=match.is_over,
          extra_columns=("resigned_seats", "absent_seats"))
    forget_seating(match)
    if match.status == MatchStatus.ACTIVE:
        deadlines_apply_now(match, now=now)  # the resigned seat's own turn times out at once
    return match


@transaction.atomic
def match_rematch(*, player: Player, match_id: int, now: datetime | None = None) -> Match:
    """A lobby with the ended match's mode and settings (and guild), hosted by the caller (SPEC 15).

    One match has at most one rematch: the ended match's row is locked, so of two players asking at once
    the first opens it and the second is told which it is (409 ``rematch_exists``). For
    ``REMATCH_RESERVED_SECONDS`` only the match's players may join it; they are told (``rematch_offered``).
    """
    now = now or timezone.now()
    old = _locked(match_id)
    mine = _seat_of(old, player)
    if mine is None or mine.seat is None:
        raise _not_found(match_id)
    if old.status not in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
        raise RuleViolation(
            "match_not_over", "A rematch is opened after the end.", {"status": old.status}
        )
    if old.rematch_id is not None:
        raise RuleViolation(
            "rematch_exists", "This match already has its rematch.", {"rematch": old.rematch_id}
        )
    if old.guild_id is not None and not guild_member(player, old.guild_id):
        raise RuleViolation(
            "not_guild_member", "A guild lobby is for the host's own guild.", {"guild": old.guild_id}
        )
    # a lobby as any other (its idle time, a new invite code if the match was private), kept a while
    lobby = _open(player=player, mode=old.mode, settings=old.settings, guild=old.guild_id,
                  private=old.private, now=now)
    lobby.reserved_until = now + timedelta(seconds=REMATCH_RESERVED_SECONDS)
    lobby.save(update_fields=["reserved_until"])
    old.rematch = lobby
    old.save(update_fields=["rematch"])
    others = sorted({pk for pk in seat_player_ids(old).values() if pk is not None} - {player.pk})  # no bots
    notices_rematch(lobby, followed=old.pk, players=others)
    return lobby


# --- steps ------------------------------------------------------------------------------------


def _save(match: Match, events: Sequence[MatchEvent], action: ActionRecord | None, *, release_seats: bool,
          extra_columns: Sequence[str] = ()) -> None:
    """Save a step with the notices it gave (one statement on PostgreSQL for a move: ``matches.store``) and
    wake the told users' streams once it commits."""
    notices_wake(store.step_save(match, events, action, release_seats=release_seats,
                                 extra_columns=extra_columns, told=notices_take(match)))


def _nobody_won(reason: str, **details: Any) -> dict[str, Any]:
    """The result of a match the machinery ends (``MACHINE_REASONS``): the one shape, nobody won."""
    return match_result(Outcome((), reason, details), {})


def _finish(match: Match, status: str, result: dict[str, Any], *, now: datetime) -> list[MatchEvent]:
    """End the match in memory (nobody awaited any more); returns the event the ending adds, if any (an
    abandoned match tells it; a finished one told it with the step's ``match_over``)."""
    match.status, match.result, match.ended_at = status, result, now
    match.awaiting_id, match.turn_started_at, match.deadline_at = None, None, None
    notices_ended(match)
    _listed_changed()
    if status == MatchStatus.ABANDONED:
        return _new_events(match, [Event({"kind": "match_abandoned", "result": result})], turn=match.turn)
    return []


def _end(match: Match, status: str, result: dict[str, Any], *, now: datetime,
         events: Sequence[MatchEvent] = ()) -> None:
    """End a locked match outside a step (everyone walked out, a new game ended it) and save it."""
    ended = [*events, *_finish(match, status, result, now=now)]
    _save(match, ended, None, release_seats=True)


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
    outcome = _outcome(match, adapter, state)
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


def _outcome(match: Match, adapter: ModeAdapter[Any], state: Any) -> Outcome | None:
    """The mode's outcome, with the seats that resigned never among the winners; the game is over by
    resignation once at most one seat that has not resigned is left (that seat wins), or only bots are (they
    win together)."""
    outcome = adapter.outcome(state)
    if not match.resigned_seats:
        return outcome
    resigned = set(match.resigned_seats)
    if outcome is not None:
        winners = tuple(s for s in outcome.winners if s not in resigned)
        return Outcome(winners, outcome.reason, outcome.details)
    players = seat_player_ids(match)
    left = [s for s in sorted(players) if s not in resigned]
    # bots keep no game alive: once no person is left in play, the bots left win together
    people_left = [s for s in left if players[s] is not None]
    return Outcome(tuple(left), RESIGNED, {}) if len(left) <= 1 or not people_left else None


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
        bot = awaited_bot(row)
        if bot is not None:  # a bot's turn is due at once: it is played, not timed out
            _bot_step(row, bot, now=deadline)
            return
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
        _save(row, events, record, release_seats=row.is_over)

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
        _save(row, events, record, release_seats=row.is_over)


MATCH_TURNS = _MatchTurns()


# --- bots (SPEC 15) ---------------------------------------------------------------------------


def _bot_step(match: Match, bot: MatchSeat, *, now: datetime) -> None:
    """The awaited bot plays its turn on the locked match: the same step a person's action takes (the mode's
    move, its events, the next turn, the end) and the same action row, with no player.

    The bot is asked with what the API gives its seat and nothing else: its view, its allowed actions, the
    events its seat may see since it last acted, and its own notebook (``bot_memory``). Its draws come from
    ``bot_rng_for(seed, turn, seat)`` and the game's from ``rng_for(seed, turn)``, so the step is the same
    whenever it is played. A bot that has taken ``BOT_STEPS_IN_A_ROW`` free actions in a row (the turn stays
    its own) is not asked again: its turn times out as a silent person's does.
    """
    adapter = mode_adapter(match.mode)
    seat, level = bot.seat, bot.bot
    assert seat is not None and match.seed is not None
    turn, state = match.turn, game_state(match)
    kept: dict[str, Any] = bot.bot_memory or {"notes": None, "seen": 0, "turn": None, "streak": 0}
    streak = kept["streak"] + 1 if kept["turn"] == turn - 1 else 1
    allowed = adapter.legal_actions(state, seat)
    action: dict[str, Any] | None = None
    notes = kept["notes"]
    if allowed and streak <= BOT_STEPS_IN_A_ROW:
        seen = [row.data for row in MatchEvent.objects.filter(match_id=match.pk, seq__gt=kept["seen"])
                .order_by("seq") if row.visible_to(seat)]
        action, notes = adapter.bot_action(level, adapter.view(state, seat), allowed, notes,
                                           bot_rng_for(match.seed, turn, seat), seen)
    seen_until = match.event_count  # the bot's next turn is told this step's answers too
    moved = None if action is None else adapter.apply(state, seat, action, rng_for(match.seed, turn))
    if moved is None or isinstance(moved, Impossible):  # nothing left to try this turn: it times out
        action = None
        timed_out = adapter.timeout(state, seat, rng_for(match.seed, turn))
        new_state = timed_out.state
        told = [Event({"kind": "turn_timed_out", "seat": seat, "player": None}), *timed_out.events]
    else:
        new_state, told = moved.state, list(moved.events)
    events = _step(match, adapter, new_state, told, turn=turn, turn_started_at=now)
    bot.bot_memory = {"notes": notes, "seen": seen_until, "turn": turn, "streak": streak}
    MatchSeat.objects.filter(pk=bot.pk).update(bot_memory=bot.bot_memory)
    record = ActionRecord(turn=turn, seat=seat, player_id=None, action=action, idempotency_key="",
                          response={"bot": level, "turn": turn, "next_turn": match.turn})
    _save(match, events, record, release_seats=match.is_over)


def _bot_level(adapter: ModeAdapter[Any], level: str) -> str:
    """The level checked against the mode's bots (400 ``unknown_bot``), or 409 ``bots_not_offered`` for a
    mode of one seat (the roguelike: its single player can ask for no company)."""
    if adapter.max_players < 2 or not adapter.bots:
        raise RuleViolation("bots_not_offered", "This mode seats no bots.", {"mode": adapter.name})
    if level not in adapter.bots:
        raise InvalidInput("unknown_bot", "No such bot in this mode.",
                           {"level": level, "bots": list(adapter.bots)})
    return level


def _seat_bot(match: Match, level: str) -> None:
    MatchSeat.objects.create(match=match, player=None, bot=level, mode=match.mode)
    forget_seating(match)
    _listed_changed()


@transaction.atomic
def match_bot_add(*, player: Player, match_id: int, level: str) -> Match:
    """The host seats a bot of ``level`` in the lobby (SPEC 15): a seat with no player, taken as a join takes
    one (under the match's lock, within the mode's ``max_players``), so a player joining and a bot being
    added for the last seat at once get it once. Refusals, in order: 404 (a lobby the caller may not see),
    403 ``not_host``, 409 ``bots_not_offered``, 400 ``unknown_bot``, 409 ``match_not_in_lobby``,
    409 ``match_full``; a refusal changes nothing."""
    match = _locked(match_id)
    if not may_read(match, player, _seat_of(match, player)):
        raise _not_found(match_id)
    if match.host_id != player.pk:
        raise NotAllowed("not_host", "Only the host seats bots.", {"host": match.host_id})
    adapter = mode_adapter(match.mode)
    _bot_level(adapter, level)
    if match.status != MatchStatus.LOBBY:
        raise RuleViolation("match_not_in_lobby", "The match has started.", {"status": match.status})
    if match.seats.filter(active=True).count() >= adapter.max_players:
        raise RuleViolation("match_full", "Every seat is taken.", {"max_players": adapter.max_players})
    _seat_bot(match, level)
    return match


def sensible_bot(adapter: ModeAdapter[Any]) -> str:
    """The level that plays the game sensibly: the mode's first bot but ``random`` (else ``random``)."""
    return next((level for level in adapter.bots if level != "random"), "random")


def match_bots_fill(match: Match, *, up_to: int, now: datetime | None = None) -> int:
    """Seat the mode's sensible bot (``sensible_bot``) in the empty seats of a lobby until ``up_to`` seats
    (at most the mode's ``max_players``) are taken; returns how many bots sat down.

    For the server's own features (the quick-join queue fills a lobby whose wait passed): no host check.
    Call it inside a transaction holding the match's lock (``_locked``, as every lobby write does); a match
    that is no lobby, or a mode that seats no bots, gets none.
    """
    del now  # a seat records its joining time itself; kept in the signature for the callers' clock
    adapter = mode_adapter(match.mode)
    if match.status != MatchStatus.LOBBY or adapter.max_players < 2 or not adapter.bots:
        return 0
    taken = match.seats.filter(active=True).count()
    wanted = max(0, min(up_to, adapter.max_players) - taken)
    level = sensible_bot(adapter)
    for _ in range(wanted):
        _seat_bot(match, level)
    return wanted


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


class _LobbyDeadlines(DeadlineKind):
    """Lobbies for the deadline clock: a queue lobby's fill and an idle lobby's end (``lobby_deadline_at``, on
    a partial index of the lobbies that have one), applied by ``lobby_times_apply`` as a read or a join
    applies them first. A kind of its own, so a turn's deadline (``_MatchDeadlines``) is untouched."""

    name = "lobby"

    def next(self) -> datetime | None:
        pending = Match.objects.filter(lobby_deadline_at__isnull=False).order_by("lobby_deadline_at")
        return pending.values_list("lobby_deadline_at", flat=True).first()

    def due(self, now: datetime, limit: int) -> list[int]:
        passed = Match.objects.filter(lobby_deadline_at__isnull=False, lobby_deadline_at__lte=now)
        return list(passed.order_by("lobby_deadline_at").values_list("id", flat=True)[:limit])

    def fire(self, object_id: int, now: datetime) -> int:
        with transaction.atomic():
            match = Match.objects.select_for_update().filter(pk=object_id).first()
            if match is None:
                return 0
            if match.status != MatchStatus.LOBBY:  # a stored time of a lobby that is no more
                match.lobby_deadline_at = None
                match.save(update_fields=["lobby_deadline_at"])
                return 0
            if not lobby_times_apply(match, now):
                return 0
            publish(f"match:{object_id}")
            return 1


LOBBY_DEADLINES = _LobbyDeadlines()


def match_refresh(*, player: Player, match_id: int, now: datetime | None = None) -> Match:
    """The match for a reader, after applying passed deadlines."""
    return turn_refresh(MATCH_TURNS, object_id=match_id, player=player, now=now)


#: The most lobbies past their time one list applies (the clock applies the rest within a second).
LOBBIES_PER_LIST = 20


def match_list_refresh(*, player: Player, mode: str | None = None, now: datetime | None = None) -> None:
    """Apply passed deadlines to every running match the player may read (of ``mode``, if given).

    Lobbies past their fill or idle time are applied first too (at most ``LOBBIES_PER_LIST``).
    The list shows ``status``, ``turn`` and ``awaiting``; without this it would show a turn that a
    read of the same match answers as timed out (a read applies what the deadline clock has not yet).
    Each match is locked only when one of its deadlines has passed, as ``turn_refresh`` does.
    """
    now = now or timezone.now()
    lobbies = Match.objects.filter(status=MatchStatus.LOBBY, lobby_deadline_at__lte=now)
    if mode:
        lobbies = lobbies.filter(mode=mode)
    for lobby_id in lobbies.order_by("lobby_deadline_at").values_list("id", flat=True)[:LOBBIES_PER_LIST]:
        lobby_times_apply_now(lobby_id, now)  # a listed lobby past its fill or idle time, as the clock would
    seated = MatchSeat.objects.filter(READER_SEATS, player=player).values("match_id")
    running = Match.objects.filter(status=MatchStatus.ACTIVE, pk__in=seated)
    if mode:
        running = running.filter(mode=mode)
    for match in running:
        deadline = turn_deadline(MATCH_TURNS, match)
        if deadline is not None and deadline <= now:
            with transaction.atomic():
                deadlines_apply_now(_locked(match.pk), now=now)


def match_list_read(*, player: Player, mode: str | None, status: str | None, cursor: str | None,
                    page_size: int, watchable: bool) -> Page:
    """A page of the player's match list as ``GET matches/`` and its stream show it: the passed lobby
    times and turn deadlines applied first (``match_list_refresh``), then the page
    (``selectors.match_list``)."""
    match_list_refresh(player=player, mode=mode)
    return selectors.match_list(player=player, mode=mode, status=status, cursor=cursor, page_size=page_size,
                                watchable=watchable)


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
    lobby_time = match.lobby_deadline_at if match.status == MatchStatus.LOBBY else None
    if lobby_time is not None and lobby_time <= now:
        lobby_times_apply_now(match_id, now)  # the queue's fill or the idle end, as the clock would
        return match_refresh(player=player, match_id=match_id, now=now), player, None
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
