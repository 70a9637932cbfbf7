"""Reads of hosted matches: the modes, the lists, a player's view of a match, the replay record."""

from __future__ import annotations

import hashlib
import math
from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext

from backend.api.pagination import Page, keyset_page
from backend.errors import InvalidInput, NotAllowed, NotFound, RuleViolation
from matches.access import (
    READER_SEATS,
    awaited_seat,
    game_state,
    is_reader_seat,
    match_deadline,
    may_act,
    may_read,
    may_watch,
    mode_adapter,
    queue_fill_at,
    seating,
    watching,
)
from matches.events import spoken
from matches.models import Match, MatchAction, MatchEvent, MatchModeSettings, MatchSeat, MatchStatus
from matches.modes import registered_modes, replay, replay_steps
from matches.store import EVENTS_PER_READ
from matches.store import match_events_since as stored_events_since
from players.models import Player

MATCH_LIST_COLUMNS = {
    name: name
    for name in (
        "id",
        "mode",
        "status",
        "host_id",
        "guild_id",
        "settings",
        "created_at",
        "turn",
        "awaiting_id",
        "result",
    )
}


def mode_list() -> list[dict[str, Any]]:
    """Every registered mode as its adapter declares it (SPEC 14), by name, with the admin's current data:
    the deadline (null when the mode has none) and the defaults of new lobbies in the settings' schema.

    A mode never used has no admin row yet; it gets one with the adapter's defaults on its first lobby
    (``services.mode_settings``), so those are its current data, and this read writes nothing. The title
    is read in the request's language (the adapter's is a lazy translation).
    """
    modes = registered_modes()
    rows = {row.mode: row for row in MatchModeSettings.objects.filter(mode__in=modes)}
    answer = []
    for name, adapter in sorted(modes.items()):
        row = rows.get(name)
        defaults = {**adapter.default_settings(), **(row.defaults if row is not None else {})}
        seconds = adapter.default_turn_deadline_seconds if row is None else row.turn_deadline_seconds
        spectators = adapter.spectators if row is None else row.spectators
        answer.append({
            "name": name,
            "title": str(adapter.title),
            "min_players": adapter.min_players,
            "max_players": adapter.max_players,
            "turn_deadline_seconds": seconds if adapter.turn_deadline else None,
            "settings": adapter.settings_json_schema(defaults),
            "bots": list(adapter.bots) if adapter.max_players > 1 else [],  # one seat: no bots to seat
            "spectators": spectators,
        })
    return answer


def watched_modes() -> list[str]:
    """The registered modes whose started matches may be watched now (the admin's rows; a mode without one,
    its adapter's declaration)."""
    modes = registered_modes()
    rows = dict(MatchModeSettings.objects.filter(mode__in=modes).values_list("mode", "spectators"))
    return sorted(name for name, adapter in modes.items() if rows.get(name, adapter.spectators))


def match_list(
    *, player: Player, mode: str | None, status: str | None, cursor: str | None, page_size: int,
    watchable: bool = False,
) -> Page:
    """Lobbies open to the player (guild lobbies for members only) and the matches the player may read
    (``may_read``: not those of a lobby left before its start), newest first.

    ``watchable``: instead, the running matches the player may watch as a spectator (``may_watch``: of a
    mode that allows it, public or of the player's guild, without the player's seat)."""
    from guilds.models import Membership

    mine = Exists(MatchSeat.objects.filter(READER_SEATS, match=OuterRef("pk"), player=player))
    member = Exists(Membership.objects.filter(guild=OuterRef("guild"), player=player, left_at__isnull=True))
    seen_by = Q(private=False) & (Q(guild__isnull=True) | Q(member))  # a private lobby: in nobody's list
    if watchable:
        qs = Match.objects.filter(seen_by, ~Q(mine), status=MatchStatus.ACTIVE, mode__in=watched_modes())
    else:
        qs = Match.objects.filter((Q(status=MatchStatus.LOBBY) & seen_by) | Q(mine))
    if mode:
        qs = qs.filter(mode=mode)
    if status:
        qs = qs.filter(status=status)
    page = keyset_page(
        qs, key="id", descending=True, cursor=cursor, page_size=page_size, values=MATCH_LIST_COLUMNS
    )
    counts = dict(
        MatchSeat.objects.filter(match_id__in=[m["id"] for m in page.items], active=True)
        .values("match_id")
        .annotate(n=Count("id"))
        .values_list("match_id", "n")
    )
    for item in page.items:
        item["players"] = counts.get(item["id"], 0)
        for column in ("host", "guild", "awaiting"):
            item[column] = item.pop(f"{column}_id")
    return page


def spectator_cutoff(match: Match) -> int | None:
    """For a spectator of the match: the first step whose events and effects are still held back (the
    last ``spectator_delay_turns`` steps of a running match; the start, step 0, is never held); None when
    nothing is (no delay, or the match is over). None too when the match may not be watched at all."""
    row = watching(match)
    if row is None or not row.spectator_delay_turns or match.is_over:
        return None
    return max(1, match.turn - row.spectator_delay_turns)


def match_events_since(
    *, match: Match, seat: int | None, since: int, rows: list[MatchEvent] | None = None,
    spectator: bool = False,
) -> tuple[list[dict[str, Any]], int]:
    """The events after ``since`` the seat may see (each with its ``text`` in the request's language), and the
    last sequence number this read covered; ``rows``: the stored events after ``since`` if already read.

    A ``spectator`` (no seat) sees the public events the mode lets watchers see (``spectator_events``), up
    to the ones of the steps still held back (``spectator_cutoff``): the read covers up to just before the
    first held one, so the next read (``since`` = ``last_event``) gets it once it is released."""
    if rows is None:
        rows = stored_events_since(match_id=match.pk, since=since)
    last = rows[-1].seq if len(rows) == EVENTS_PER_READ else match.event_count
    adapter = mode_adapter(match.mode)
    if spectator:
        cutoff = spectator_cutoff(match)
        held = next((i for i, row in enumerate(rows) if cutoff is not None and row.turn >= cutoff), None)
        if held is not None:
            rows, last = rows[:held], rows[held].seq - 1
        shown = adapter.spectator_events(match.settings)
        rows = [row for row in rows if row.seats is None and (shown is None or shown(row.data))]
    visible = [{"seq": row.seq, **row.data} for row in rows if row.visible_to(seat)]
    return spoken(adapter, visible), max(last, since)


def spectator_view(match: Match) -> dict[str, Any]:
    """The game as a spectator may see it: the mode's ``public_view`` (with ``public``: the mode's name), of
    the game as it was before the steps still held back (``spectator_cutoff``): the match replayed from its
    seed and stored steps up to there (``matches.modes.replay``), as a replay would; else as it is."""
    adapter = mode_adapter(match.mode)
    cutoff = spectator_cutoff(match)
    if cutoff is None or cutoff >= match.turn or match.seed is None:
        state = game_state(match)
    else:
        steps = list(MatchAction.objects.filter(match_id=match.pk, turn__lt=cutoff).order_by("turn")
                     .values_list("seat", "action"))
        seats = sum(1 for s in seating(match) if s.seat is not None)
        state = replay(adapter, settings=match.settings, seats=seats, seed=match.seed, steps=steps)
    return {"public": adapter.name, **adapter.public_view(state)}


def spoken_events(mode: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A step's events (an action's answer) with their ``text`` in the request's language."""
    return spoken(mode_adapter(mode), events)


def seat_name(seat: MatchSeat) -> str:
    """The name a seat shows: its player's, or its bot's level in the request's language."""
    if seat.bot:
        return gettext("Bot (%(level)s)") % {"level": seat.bot}
    assert seat.player is not None
    return seat.player.display_name


def match_payload(
    match: Match, player: Player, *, since: int, events: list[MatchEvent] | None = None
) -> dict[str, Any]:
    """The player's view of a match: seats, whose turn, the deadline, their view, allowed actions, events
    (``events``: the stored events after ``since`` if the match was read with them)."""
    seats = seating(match)
    mine = next((s for s in seats if s.player_id == player.pk), None)
    seat = mine.seat if mine is not None else None
    # Not a reader of a started game, yet let in: a spectator (services and match_for_reader checked it).
    spectator = is_spectator(match, player)
    if spectator:
        seat = None
    adapter = mode_adapter(match.mode)
    view: dict[str, Any] | None = None
    allowed: list[dict[str, Any]] = []
    order: list[int | None] = []
    by_seat = {s.seat: s.player_id for s in seats if s.seat is not None}
    if match.state is not None:
        state = game_state(match)
        order = [by_seat[s] for s in adapter.turn_order(state)]
        if seat is not None:
            # After the end a seat keeps its own view (what it knew); the hidden rest comes under
            # ``revealed`` only when the mode says nothing still in play would leak (may_reveal).
            view = adapter.view(state, seat)
            hidden = adapter.revealed(state) if match.is_over else None
            if hidden is not None and adapter.may_reveal(match.settings, state):
                view = {**view, "revealed": hidden}
        elif spectator:
            view = spectator_view(match)
        if seat is not None and mine is not None and may_act(match, mine):
            allowed = adapter.legal_actions(state, seat)
    deadline = match_deadline(match)
    shown, last = (
        match_events_since(match=match, seat=seat, since=since, rows=events, spectator=spectator)
        if match.state is not None
        else ([], 0)
    )
    seated = mine is not None and mine.active
    return {
        "id": match.pk,
        "mode": match.mode,
        "status": match.status,
        "host": match.host_id,
        "guild": match.guild_id,
        "private": match.private,
        "invite_code": match.invite_code if seated else None,
        "queue_fill_at": _queue_fill_at(match),
        "settings": match.settings,
        "min_players": adapter.min_players,
        "max_players": adapter.max_players,
        "players": [
            {"player": s.player_id, "name": seat_name(s), "seat": s.seat, "active": s.active,
             "bot": s.bot or None}
            for s in seats
            if s.active or s.seat is not None
        ],
        "seat": seat,
        "spectator": spectator,
        "order": order,
        "turn": match.turn,
        "awaiting": match.awaiting_id,
        "awaiting_seat": awaited_seat(match),
        "deadline": deadline,
        "view": view,
        "allowed_actions": allowed,
        "events": shown,
        "last_event": last,
        "result": match.result,
        "seed_commitment": seed_commitment(match.seed),
        "rematch": match.rematch_id,
        "reserved_until": match.reserved_until,
        "created_at": match.created_at,
        "started_at": match.started_at,
        "ended_at": match.ended_at,
    }


def seed_commitment(seed: int | None) -> str | None:
    """SPEC 15's fair seed: the hex SHA-256 of the seed's decimal text, shown from the start (None in a
    lobby); the replay reveals the seed, so anyone can check it was fixed before the first move."""
    return None if seed is None else hashlib.sha256(str(seed).encode("ascii")).hexdigest()

def _queue_fill_at(match: Match) -> datetime | None:
    """When quick join fills a waiting queue lobby (None: not one, or its mode never fills)."""
    if match.queued_at is None or match.status != MatchStatus.LOBBY:
        return None
    return queue_fill_at(match, MatchModeSettings.objects.filter(mode=match.mode).first())


#: what a stream's ``match`` message carries (SPEC 13): it is sent whenever one of these changes
MATCH_HEADER_FIELDS = ("status", "turn", "awaiting", "deadline", "result")


def match_stream_read(
    match: Match, player: Player, *, since: int | None, rows: list[MatchEvent] | None = None
) -> dict[str, Any]:
    """What a stream of the match shows the player after event ``since`` (None: from now on): the events the
    player's seat may see (``match_events_since``, as ``GET matches/{id}/?since=N``), the last sequence number
    the read covered, whether more events wait beyond this read's page, and the match's header. ``rows``: the
    stored events after ``since`` when they were read with the match (``services.match_read_for_user``)."""
    mine = next((s for s in seating(match) if s.player_id == player.pk), None)
    spectator = is_spectator(match, player)
    cutoff = spectator_cutoff(match) if spectator else None
    if since is None:  # from now on: for a spectator, from what is released now
        after = match.event_count if cutoff is None else _released_through(match, cutoff)
    else:
        after = since
    events, last = (
        match_events_since(match=match, seat=None if mine is None or spectator else mine.seat, since=after,
                           rows=rows if since is not None else None, spectator=spectator)
        if match.state is not None else ([], after)
    )
    header = {
        "id": match.pk,
        "status": match.status,
        "turn": match.turn,
        "awaiting": match.awaiting_id,
        "deadline": match_deadline(match),
        "result": match.result,
    }
    # A spectator's read stops before the held-back events: more waits only beyond a full page.
    more = last < (match.event_count if cutoff is None else _released_through(match, cutoff))
    return {"events": events, "last_event": last, "more": more, "header": header}


def _released_through(match: Match, cutoff: int) -> int:
    """The last event's number of the steps before ``cutoff`` (what a delayed spectator may have seen)."""
    last = MatchEvent.objects.filter(match_id=match.pk, turn__lt=cutoff).order_by("-seq").values_list(
        "seq", flat=True).first()
    return last or 0


def events_readable(match: Match, *, spectator: bool) -> int:
    """The number of the last event the reader may have now: the match's last, or for a spectator the last
    one released (``spectator_cutoff``)."""
    cutoff = spectator_cutoff(match) if spectator else None
    return match.event_count if cutoff is None else _released_through(match, cutoff)


def is_spectator(match: Match, player: Player) -> bool:
    """Whether the player, let in to read the match, reads it as a spectator (no reader's seat, a game on)."""
    mine = next((s for s in seating(match) if s.player_id == player.pk), None)
    return match.state is not None and not is_reader_seat(mine)


def match_news(*, match_id: int, since: int, spectator: bool = False) -> float | None:
    """For a long-poll of the match after event ``since`` (``backend.live.wait_for``): None when there is
    something to answer with now (an event after ``since``, for a ``spectator`` a released one; the match
    over or gone, a deadline passed), else the seconds until the awaited turn's deadline (``math.inf``:
    none), when a read will apply it."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.is_over or events_readable(match, spectator=spectator) > since:
        return None
    deadline = match_deadline(match)
    if deadline is None:
        return math.inf
    left = (deadline - timezone.now()).total_seconds()
    return None if left <= 0 else left


def match_for_reader(*, match_id: int, player: Player) -> Match:
    """The match if the player may read it: a reader (``may_read``) or a spectator (``may_watch``)."""
    match = Match.objects.filter(pk=match_id).first()
    mine = None if match is None else next((s for s in seating(match) if s.player_id == player.pk), None)
    if match is None or not (may_read(match, player, mine) or may_watch(match, player, mine)):
        raise NotFound("match_not_found", "No such match.", {"match": match_id})
    return match


def _replayable(match_id: int, player: Player) -> tuple[Match, MatchSeat]:
    """The ended match and the caller's seat, for its replay: 404 to whoever had no seat at the start, 409
    ``match_not_over`` before the end."""
    match = Match.objects.filter(pk=match_id).first()
    mine = None if match is None else MatchSeat.objects.filter(match=match, player=player).first()
    if match is None or mine is None or mine.seat is None:
        raise NotFound("match_not_found", "No such match.", {"match": match_id})
    if match.status not in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
        raise RuleViolation(
            "match_not_over", "The replay is available after the end.", {"status": match.status}
        )
    return match, mine


def _withheld(match: Match) -> bool:
    return match.state is None or not mode_adapter(match.mode).may_reveal(match.settings, game_state(match))


def _steps(match: Match) -> list[dict[str, Any]]:
    """Every stored step in order: turn, seat, player, action (None: a timeout or a resignation), and
    whether it was a resignation (the action row's answer says so)."""
    rows = MatchAction.objects.filter(match=match).order_by("turn").values(
        "turn", "seat", "player_id", "action", "response")
    return [{"turn": r["turn"], "seat": r["seat"], "player": r["player_id"], "action": r["action"],
             "resigned": bool(isinstance(r["response"], dict) and r["response"].get("resigned"))}
            for r in rows]


def match_state_at(match: Match, step: int) -> Any:
    """The match's game after its first ``step`` stored steps (0: as it was created), replayed from the seed
    as a replay does (the admin's board stepped through the log). A ReplayError if the record cannot be
    followed."""
    steps = _steps(match)[:step]
    assert match.seed is not None
    return replay(mode_adapter(match.mode), settings=match.settings,
                  seats=match.seats.filter(seat__isnull=False).count(), seed=match.seed,
                  steps=[(s["seat"], s["action"]) for s in steps],
                  resigned={s["turn"] for s in steps if s["resigned"]})


def match_replay(*, match_id: int, player: Player) -> dict[str, Any]:
    """Seed, settings, seats and every step of a finished match: enough to replay it exactly.

    Unless the mode lets the game's hidden content be revealed (``ModeAdapter.may_reveal``): then the
    replay is ``withheld``: no seed, no final state, and only the caller's own actions (another seat's
    start cell or path would show a designer map still in play), each other step by turn and seat.
    """
    match, mine = _replayable(match_id, player)
    withheld = _withheld(match)
    return {
        "id": match.pk,
        "mode": match.mode,
        "withheld": withheld,
        "seed": None if withheld else match.seed,
        "seed_commitment": seed_commitment(match.seed),
        "settings": match.settings,
        "seats": [
            {"seat": seat, "player": player_id, "bot": bot or None}
            for seat, player_id, bot in match.seats.filter(seat__isnull=False)
            .order_by("seat")
            .values_list("seat", "player_id", "bot")
        ],
        "actions": [
            {
                "turn": s["turn"],
                "seat": s["seat"],
                "player": s["player"],
                "action": None if withheld and s["seat"] != mine.seat else s["action"],
                "timeout": s["action"] is None and not s["resigned"],
                "resigned": s["resigned"],
            }
            for s in _steps(match)
        ],
        "result": match.result,
        "final_state": None if withheld else match.state,
    }


def match_seat_replay(*, match_id: int, player: Player, as_seat: int) -> dict[str, Any]:
    """SPEC 15's per-seat replay: the match step by step as seat ``as_seat`` lived it: after the start and
    after each step, the events that seat could see (the stored log, by the read's own filter) and the
    seat's view (the steps replayed through the mode from the seed, the mode's ``view``).

    Any seat of a replay that is not withheld (everything is public then); only the caller's own seat of
    a withheld one (another seat's view would show what the mode still hides). The events of a step are
    those logged with its turn; those the machinery logged after the last step (an abandoned match's end)
    close the last step.
    """
    match, mine = _replayable(match_id, player)
    numbered = dict(match.seats.filter(seat__isnull=False).values_list("seat", "player_id"))
    if as_seat not in numbered:
        raise InvalidInput("bad_seat", "No such seat in this match.", {"as_seat": as_seat,
                                                                        "seats": sorted(numbered)})
    withheld = _withheld(match)
    if withheld and as_seat != mine.seat:
        raise NotAllowed("replay_withheld", "While the game's hidden content is in play, only your own "
                         "seat's replay is shown.", {"seat": mine.seat})
    adapter = mode_adapter(match.mode)
    steps = _steps(match)
    assert match.seed is not None
    states = replay_steps(adapter, settings=match.settings, seats=len(numbered), seed=match.seed,
                          steps=[(s["seat"], s["action"]) for s in steps],
                          resigned={s["turn"] for s in steps if s["resigned"]})
    turns = [0, *(s["turn"] for s in steps)]
    seen: dict[int, list[dict[str, Any]]] = {turn: [] for turn in turns}
    for row in MatchEvent.objects.filter(match=match).order_by("seq"):
        if row.visible_to(as_seat):
            # the latest step at or before the event's turn (the machinery's end may follow the last step)
            turn = max(t for t in turns if t <= row.turn)
            seen[turn].append({"seq": row.seq, **row.data})
    header = [{"turn": 0, "seat": None, "player": None, "action": None, "timeout": False, "resigned": False}]
    shown = [
        {"turn": s["turn"], "seat": s["seat"], "player": s["player"],
         "action": None if withheld and s["seat"] != mine.seat else s["action"],
         "timeout": s["action"] is None and not s["resigned"], "resigned": s["resigned"]}
        for s in steps
    ]
    return {
        "id": match.pk,
        "mode": match.mode,
        "as_seat": as_seat,
        "player": numbered[as_seat],
        "steps": [
            {**step, "events": spoken(adapter, seen[step["turn"]]), "view": adapter.view(state, as_seat)}
            for step, (state, _events) in zip([*header, *shown], states, strict=True)
        ],
        "result": match.result,
    }
