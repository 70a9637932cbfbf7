"""Match endpoints (SPEC 12 and 14): the modes, lobby, seats, start, the caller's view, actions, replay."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from backend.api.compiled import renderer, validator
from backend.api.schema import errors
from backend.api.views import valid
from backend.live import wait_for
from matches import selectors, services
from matches.serializers import (
    MatchActInput,
    MatchActOutput,
    MatchBotInput,
    MatchJoinCodeInput,
    MatchListOutput,
    MatchListQuery,
    MatchOpenInput,
    MatchOutput,
    MatchQuery,
    MatchQueueInput,
    MatchQueueLeaveOutput,
    MatchQueueLeaveQuery,
    MatchReplayOutput,
    MatchReplayQuery,
    MatchSeatReplayOutput,
    ModeOutput,
)
from players.caller import PlayerApi


def _match(match_id: int, request: Request, player: Any, since: int = 0) -> dict[str, Any]:
    match = selectors.match_for_reader(match_id=match_id, player=player)
    return renderer(MatchOutput)(selectors.match_payload(match, player, since=since))


class ModeListApi(PlayerApi):
    """The match modes the server hosts (SPEC 14): what a client needs to open a lobby of each."""

    @extend_schema(
        responses={200: ModeOutput(many=True), **errors(401)},
        summary="Every match mode: limits, deadline, settings (JSON Schema, the admin's defaults), bots",
    )
    def get(self, request: Request) -> Response:
        return Response(ModeOutput(selectors.mode_list(), many=True).data)


class MatchListCreateApi(PlayerApi):
    @extend_schema(
        operation_id="v1_matches_list",
        parameters=[MatchListQuery],
        responses={200: MatchListOutput, **errors(400, 401)},
        summary="Lobbies open to the caller and the caller's own matches, newest first (watchable: the "
        "running matches the caller may watch as a spectator)",
    )
    def get(self, request: Request) -> Response:
        query = valid(MatchListQuery, request.query_params)
        page = services.match_list_read(
            player=self.player,
            mode=query["mode"] or None,
            status=query.get("status") or None,
            cursor=query["cursor"] or None,
            page_size=query["page_size"],
            watchable=query["watchable"],
        )
        return Response(MatchListOutput({"results": page.items, "next": page.next_cursor}).data)

    @extend_schema(
        request=MatchOpenInput,
        responses={201: MatchOutput, **errors(400, 401, 409)},
        summary="Open a lobby of a mode, hosted by the caller (guild: members only)",
    )
    def post(self, request: Request) -> Response:
        match = services.match_open(player=self.player, **valid(MatchOpenInput, request.data))
        return Response(_match(match.pk, request, self.player), status=status.HTTP_201_CREATED)


#: a view method, kept as it is by its schema decorator
_View = TypeVar("_View", bound=Callable[..., Response])


def _lobby_action(summary: str) -> Callable[[_View], _View]:
    return extend_schema(
        request=None, responses={200: MatchOutput, **errors(401, 403, 404, 409)}, summary=summary
    )


class MatchJoinApi(PlayerApi):
    @_lobby_action("Take a seat in a lobby")
    def post(self, request: Request, match_id: int) -> Response:
        services.match_join(player=self.player, match_id=match_id)
        return Response(_match(match_id, request, self.player))


class MatchJoinByCodeApi(PlayerApi):
    @extend_schema(
        operation_id="v1_matches_join_by_code",
        request=MatchJoinCodeInput,
        responses={200: MatchOutput, **errors(400, 401, 404, 409)},
        summary="Take a seat in a private lobby by its invite code (404 invite_not_found: no such code; "
        "409 invite_expired: its lobby started or was cancelled)",
    )
    def post(self, request: Request) -> Response:
        match = services.match_join_by_code(player=self.player, **valid(MatchJoinCodeInput, request.data))
        return Response(_match(match.pk, request, self.player))


class MatchQueueApi(PlayerApi):
    @extend_schema(
        request=MatchQueueInput,
        responses={200: MatchOutput, **errors(400, 401, 409)},
        summary="Quick join: a seat in the oldest waiting public lobby of the mode with the same settings, "
        "else a new one; after the mode's queue_fill_seconds it fills and starts",
    )
    def post(self, request: Request) -> Response:
        match = services.match_queue_join(player=self.player, **valid(MatchQueueInput, request.data))
        return Response(_match(match.pk, request, self.player))

    @extend_schema(
        operation_id="v1_matches_queue_leave",
        parameters=[MatchQueueLeaveQuery],
        request=None,
        responses={200: MatchQueueLeaveOutput, **errors(400, 401, 409)},
        summary="Leave the queue: every waiting quick-join lobby the caller sits in (of ?mode=); "
        "409 not_queued when there is none",
    )
    def delete(self, request: Request) -> Response:
        query = valid(MatchQueueLeaveQuery, request.query_params)
        left = services.match_queue_leave(player=self.player, mode=query["mode"] or None)
        return Response(MatchQueueLeaveOutput({"left": left}).data)


class MatchLeaveApi(PlayerApi):
    @_lobby_action(
        "Leave a lobby, or walk out of a started match (one's turns then time out at once); "
        "the answer is the match as the leaver now sees it (a cancelled lobby after the last one left)"
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = services.match_leave(player=self.player, match_id=match_id)
        # Not read again: a lobby the last player left is cancelled, which no one may read any more.
        return Response(renderer(MatchOutput)(selectors.match_payload(match, self.player, since=0)))


class MatchBotAddApi(PlayerApi):
    @extend_schema(
        request=MatchBotInput,
        responses={200: MatchOutput, **errors(400, 401, 403, 404, 409)},
        summary="Seat a bot of a level in the lobby (host): a seat with no player, played by the server",
    )
    def post(self, request: Request, match_id: int) -> Response:
        services.match_bot_add(player=self.player, match_id=match_id, **valid(MatchBotInput, request.data))
        return Response(_match(match_id, request, self.player))


class MatchStartApi(PlayerApi):
    @_lobby_action("Start the match (host): seed and turn order drawn, game built")
    def post(self, request: Request, match_id: int) -> Response:
        services.match_start(player=self.player, match_id=match_id)
        return Response(_match(match_id, request, self.player))


class MatchDetailApi(PlayerApi):
    @extend_schema(
        parameters=[MatchQuery],
        responses={200: MatchOutput, **errors(400, 401, 404)},
        summary="The caller's view of a match: whose turn, deadline, allowed actions, events since "
        "(with wait: a long-poll until something after since exists)",
    )
    def get(self, request: Request, match_id: int) -> Response:
        query = valid(MatchQuery, request.query_params)
        since = query["since"]
        # The match, the caller's player, the seats and the new events in one statement (matches/store.py).
        match, player, events = services.match_read_for_user(user_id=self.user_id, match_id=match_id,
                                                             since=since)
        if query.get("wait") and not match.is_over:
            spectator = selectors.is_spectator(match, player)  # a spectator's news may be held back (delay)
            if selectors.events_readable(match, spectator=spectator) <= since:
                # Long-poll: woken by the match's steps (the hub), not by reading again and again.
                wait_for(f"match:{match_id}",
                         lambda: selectors.match_news(match_id=match_id, since=since, spectator=spectator),
                         seconds=query["wait"])
                match, player, events = services.match_read_for_user(user_id=self.user_id, match_id=match_id,
                                                                     since=since)
        view = selectors.match_payload(match, player, since=since, events=events)
        return Response(renderer(MatchOutput)(view))


class MatchActApi(PlayerApi):
    @extend_schema(
        request=MatchActInput,
        responses={200: MatchActOutput, **errors(400, 401, 403, 404, 409)},
        summary="One action on the caller's turn (one of allowed_actions)",
    )
    def post(self, request: Request, match_id: int) -> Response:
        # The usual body takes the compiled check; the serializer judges everything else.
        data = validator(MatchActInput)(request.data)
        outcome = services.match_act_for_user(
            user_id=self.user_id,
            match_id=match_id,
            turn=data["turn"],
            action=data["action"],
            idempotency_key=data["idempotency_key"],
        )
        # The stored answer (also an idempotent replay's) has no text: rendered in this request's language.
        events = selectors.spoken_events(outcome.row.mode, outcome.response["events"])
        answer = {**outcome.response, "events": events, "replayed": outcome.replayed}
        return Response(renderer(MatchActOutput)(answer))


class MatchResignApi(PlayerApi):
    @_lobby_action(
        "Resign: the caller loses at once, a step of the log (`resigned`); with one other seat left it wins "
        "(reason `resigned`), else the game goes on without the caller's seat. In a lobby 409: use leave"
    )
    def post(self, request: Request, match_id: int) -> Response:
        services.match_resign(player=self.player, match_id=match_id)
        return Response(_match(match_id, request, self.player))


class MatchRematchApi(PlayerApi):
    @extend_schema(
        request=None,
        responses={201: MatchOutput, **errors(401, 404, 409)},
        summary="After the end: a lobby with the same mode and settings, hosted by the caller, kept 60 s for "
        "the match's players (each is told: rematch_offered); one per match (409 rematch_exists names it)",
    )
    def post(self, request: Request, match_id: int) -> Response:
        lobby = services.match_rematch(player=self.player, match_id=match_id)
        return Response(_match(lobby.pk, request, self.player), status=status.HTTP_201_CREATED)


class MatchReplayApi(PlayerApi):
    @extend_schema(
        parameters=[MatchReplayQuery],
        responses={
            200: PolymorphicProxySerializer(
                component_name="MatchReplayAnswer",
                serializers=[MatchReplayOutput, MatchSeatReplayOutput],
                resource_type_field_name=None,
            ),
            **errors(400, 401, 403, 404, 409),
        },
        summary="After the end: seed, settings, seats and every step, enough to replay exactly; with "
        "?as_seat=N the per-seat replay: each step's events seat N could see and its view after it",
    )
    def get(self, request: Request, match_id: int) -> Response:
        query = valid(MatchReplayQuery, request.query_params)
        if query.get("as_seat") is not None:
            per_seat = selectors.match_seat_replay(match_id=match_id, player=self.player,
                                                   as_seat=query["as_seat"])
            return Response(MatchSeatReplayOutput(per_seat).data)
        return Response(MatchReplayOutput(selectors.match_replay(match_id=match_id, player=self.player)).data)
