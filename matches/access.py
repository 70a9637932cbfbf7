"""The seat and reading rules of hosted matches, which reads (selectors) and writes (services) share.

Who may read a match and who may act in it, the seat rows of a match, its game as the mode's typed
value, and when the awaited player's turn times out. Nothing here writes to the database.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q

from backend.errors import InvalidInput
from matches.models import Match, MatchModeSettings, MatchSeat, MatchStatus
from matches.modes import ModeAdapter, get_mode, registered_modes
from players.models import Player

#: the seat rows whose player may read their match (``may_read``): seated now, or given a seat at the start
READER_SEATS = Q(active=True) | Q(seat__isnull=False)


def mode_adapter(name: str) -> ModeAdapter[Any]:
    adapter = get_mode(name)
    if adapter is None:
        raise InvalidInput(
            "unknown_mode", "No such match mode.", {"mode": name, "modes": sorted(registered_modes())}
        )
    return adapter


def game_state(match: Match) -> Any:
    """The match's game as the mode's typed value, decoded from the stored JSON once per loaded row.

    Every hook of a request gets this one value (the deadline, the action's check, the move, the view);
    a stored step leaves the value it stored here, so nothing is decoded twice. Keyed by the JSON
    object itself: a row loaded again (or a state set by other code) is decoded again.
    """
    cached: tuple[object, Any] | None = getattr(match, "_game_state", None)
    if cached is not None and cached[0] is match.state:
        return cached[1]
    state = None if match.state is None else mode_adapter(match.mode).state_from_json(match.state)
    match._game_state = (match.state, state)  # type: ignore[attr-defined]
    return state


def store_state(match: Match, adapter: ModeAdapter[Any], state: Any) -> None:
    """Encode the game once into the row's JSON, and keep the value for the rest of the request."""
    match.state = adapter.state_to_json(state)
    match._game_state = (match.state, state)  # type: ignore[attr-defined]


def guild_member(player: Player, guild_id: int) -> bool:
    from guilds.models import Membership  # guilds is a core app; only game apps stay unimported

    return Membership.objects.filter(guild_id=guild_id, player=player, left_at__isnull=True).exists()


def may_see_lobby(match: Match, player: Player) -> bool:
    """Whether a player not seated may see (and join by its id) the lobby: a public one, of the player's
    guild if it has one. A private lobby is seen by its seated players only; others join it by its code."""
    return match.status == MatchStatus.LOBBY and not match.private and (
        match.guild_id is None or guild_member(player, match.guild_id)
    )


def seating(match: Match) -> list[MatchSeat]:
    """Every seat row of the match with its player, in joining order (one query, cached on the row)."""
    cached: list[MatchSeat] | None = getattr(match, "_seating", None)
    if cached is None:
        cached = list(MatchSeat.objects.filter(match=match).select_related("player").order_by("id"))
        match._seating = cached  # type: ignore[attr-defined]
    return cached


def forget_seating(match: Match) -> None:
    match._seating = None  # type: ignore[attr-defined]


def may_read(match: Match, player: Player, seat: MatchSeat | None) -> bool:
    """Seated players (current, or former ones of a started match); in a lobby, whoever may join.

    ``READER_SEATS`` is the same rule for queries.
    """
    if seat is not None and (seat.active or seat.seat is not None):
        return True
    return may_see_lobby(match, player)


def is_reader_seat(seat: MatchSeat | None) -> bool:
    """Whether the seat row makes its player a reader of the match (``READER_SEATS``): seated now, or at
    the start."""
    return seat is not None and (seat.active or seat.seat is not None)


def watching(match: Match) -> MatchModeSettings | None:
    """The mode's admin row when its started matches may be watched (SPEC 15), else None.

    Only a started game is watched (a lobby is read by whoever may join it; a cancelled lobby never had
    a game), and only by those who may see the match: anyone for a public match, the guild's members for
    a guild's. A mode never used has no admin row: its adapter's declaration stands in.
    """
    if match.state is None or match.status == MatchStatus.LOBBY:
        return None
    row = MatchModeSettings.objects.filter(mode=match.mode).first()
    if row is None:
        adapter = mode_adapter(match.mode)
        row = MatchModeSettings(mode=match.mode, spectators=adapter.spectators,
                                spectator_delay_turns=adapter.default_spectator_delay_turns)
    return row if row.spectators else None


def may_watch(match: Match, player: Player, seat: MatchSeat | None) -> bool:
    """Whether the player, not a reader of the match (``may_read``), may read it as a spectator."""
    if is_reader_seat(seat) or match.private or watching(match) is None:  # a private match: its players only
        return False
    return match.guild_id is None or guild_member(player, match.guild_id)


def may_act(match: Match, seat: MatchSeat) -> bool:
    """Whether the seat's player may send actions at all: seated in the running match, not walked out."""
    return (
        match.status == MatchStatus.ACTIVE
        and seat.active
        and seat.seat is not None
        and seat.seat not in match.absent_seats
    )


def seat_player_ids(match: Match) -> dict[int, int | None]:
    """Seat number -> player id (None: a bot's seat), for the seats given at the start."""
    return {seat.seat: seat.player_id for seat in seating(match) if seat.seat is not None}


def bot_seat(match: Match, seat: int | None) -> MatchSeat | None:
    """The seat row of the bot at seat number ``seat``; None when a person (or nobody) sits there."""
    if seat is None:
        return None
    return next((row for row in seating(match) if row.seat == seat and row.bot), None)


def awaited_bot(match: Match) -> MatchSeat | None:
    """The seat row of the bot whose turn it is, if a bot's turn it is.

    On a bot's turn the match awaits no player (``awaiting`` is null: it is a player id), so the awaited
    seat is the game's own answer; a running match with a person awaited never decodes anything here.
    """
    if match.status != MatchStatus.ACTIVE or match.awaiting_id is not None or match.state is None:
        return None
    return bot_seat(match, mode_adapter(match.mode).awaiting(game_state(match)))


def awaited_seat(match: Match) -> int | None:
    """The seat whose turn it is: the awaited player's, or the awaited bot's."""
    if match.awaiting_id is None:
        bot = awaited_bot(match)
        return None if bot is None else bot.seat
    for seat, player_id in seat_player_ids(match).items():
        if player_id == match.awaiting_id:
            return seat
    return None


def turn_deadline_seconds(match: Match) -> int | None:
    """How long the awaited seat has for a turn: none at all for a seat that walked out, nor for a bot (its
    turn is due at once: the deadline clock, or the first read, plays it); else the mode's rule."""
    if match.awaiting_id is None and awaited_bot(match) is not None:
        return 0
    if match.absent_seats and awaited_seat(match) in match.absent_seats:
        return 0
    return mode_adapter(match.mode).deadline_seconds(game_state(match), match.turn_deadline_seconds)


def turn_waiting_since(match: Match) -> datetime | None:
    """When the awaited seat's turn started; None when nobody is awaited or the match is not running."""
    if match.status != MatchStatus.ACTIVE:
        return None
    if match.awaiting_id is None and awaited_bot(match) is None:
        return None
    return match.turn_started_at


def match_deadline(match: Match) -> datetime | None:
    """When the awaited player's turn times out: ``backend.turns.turn_deadline`` of the match's turns."""
    started = turn_waiting_since(match)
    if started is None:
        return None
    seconds = turn_deadline_seconds(match)
    return None if seconds is None else started + timedelta(seconds=seconds)


def queue_fill_at(match: Match, row: MatchModeSettings | None) -> datetime | None:
    """When quick join fills this queue lobby (SPEC 15): ``queued_at`` + the mode's ``queue_fill_seconds``
    (``row``: the mode's admin row); None when it is no queue lobby or its mode never fills."""
    if match.queued_at is None or row is None or not row.queue_fill_seconds:
        return None
    return match.queued_at + timedelta(seconds=row.queue_fill_seconds)
