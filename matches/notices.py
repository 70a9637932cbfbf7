"""What a match step tells its players on their own streams (``players.notices``): whose turn began, that the
match started or ended, who joined or left a lobby. ``matches.services`` calls one of these per place, in
the step's transaction; nothing here reads the database beyond the match's cached seating.

A step's notices (``notices_step``, ``notices_ended``) are kept on the match until its save
(``notices_take``): ``matches.store.step_save`` writes them in the step's own statement on PostgreSQL. A
lobby's and a rematch's (not a step: no step save) are written at once, in one statement of their own."""
from __future__ import annotations

from matches.access import seat_player_ids, seating
from matches.models import Match, MatchStatus
from players.notices import NoticeKind, Told, notify

#: The attribute of a ``Match`` instance that holds its step's notices until the step is saved.
_PENDING = "_notices_pending"


def _about(match: Match) -> dict[str, object]:
    return {"match": match.pk, "mode": match.mode}


def _people(match: Match) -> list[int]:
    """The players given a seat at the start (a bot's seat has none: it is told nothing)."""
    return sorted({player for player in seat_player_ids(match).values() if player is not None})


def notices_step(match: Match, *, awaited_before: int | None, started: bool) -> None:
    """After a step (kept for its save): ``match_started`` to every seat (``started``), and ``your_turn`` to
    the awaited player when the turn has passed to them (from another player, or at the start)."""
    told = []
    if started:
        told += [Told(player, NoticeKind.MATCH_STARTED, _about(match)) for player in _people(match)]
    if match.awaiting_id is not None and (started or match.awaiting_id != awaited_before):
        told.append(Told(match.awaiting_id, NoticeKind.YOUR_TURN, {**_about(match), "turn": match.turn}))
    _pending(match).extend(told)


def notices_ended(match: Match) -> None:
    """``match_ended`` to every player given a seat at the start, with how it ended."""
    about = {**_about(match), "status": match.status}
    _pending(match).extend(Told(player, NoticeKind.MATCH_ENDED, about) for player in _people(match))


def _pending(match: Match) -> list[Told]:
    pending: list[Told] = match.__dict__.setdefault(_PENDING, [])
    return pending


def notices_take(match: Match) -> list[Told]:
    """The notices of the match's step so far (``notices_step``, ``notices_ended``), in order, for its save to
    write; none are kept after."""
    taken: list[Told] = match.__dict__.pop(_PENDING, [])
    return taken


def notices_lobby(match: Match, *, player: int, change: str) -> None:
    """``lobby_changed`` (``change``: joined or left) to the lobby's other seated players and its host.

    Called before the seat changes, from the seating the step has read already (no statement but the
    notices'); a started match's walk-out is no lobby change."""
    if match.status != MatchStatus.LOBBY:
        return
    seated = {seat.player_id for seat in seating(match) if seat.active and seat.player_id is not None}
    after = seated | {player} if change == "joined" else seated - {player}
    about = {**_about(match), "change": change, "player": player, "players": len(after)}
    told = sorted((seated | {match.host_id}) - {player})
    notify([Told(other, NoticeKind.LOBBY_CHANGED, about) for other in told])


def notices_rematch(lobby: Match, *, followed: int, players: list[int]) -> None:
    """``rematch_offered`` to the other players of the ended match ``followed``: the lobby ``lobby`` is theirs
    to join until ``reserved_until``."""
    until = None if lobby.reserved_until is None else lobby.reserved_until.isoformat()
    about = {**_about(lobby), "rematch_of": followed, "until": until}
    notify([Told(player, NoticeKind.REMATCH_OFFERED, about) for player in players])
