"""REST views of the dungeons app: the designers' generation preview, runs, and the battles of runs."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.api.compiled import renderer, validator
from backend.api.schema import errors
from backend.api.views import valid
from backend.live import wait_for
from combat.selectors import battle_view
from combat.serializers import ActOutput, BattleActInput, BattleOutput, BattleQuery
from combat.texts import names_of, spoken
from dungeons import generation
from dungeons.models import DungeonKind, NpcKind, RoomKind, RunStatus, StoryItem
from dungeons.runs import lobby, rooms
from dungeons.runs.battles import battle_act_for_user, battle_for_user, run_deadline_refresh
from dungeons.runs.store import RoomBattle, stored_log
from dungeons.selectors import (
    dungeon_preview,
    generation_params_get,
    run_list_lobbies,
    run_list_mine,
    run_news,
    run_payload,
    run_replay,
    run_view,
)
from dungeons.serializers import (
    OfferItemOutput,
    RunDrinkInput,
    RunFormationInput,
    RunListOutput,
    RunListQuery,
    RunOpenInput,
    RunOutput,
    RunQuery,
    RunReplayOutput,
    RunStepInput,
    RunWeaponInput,
)
from dungeons.services import MAX_SEED, new_seed
from players.caller import PlayerApi
from players.models import Player


def preview_payload(*, dungeon: generation.Dungeon, seed: int) -> dict[str, Any]:
    """The JSON shape of a generated dungeon shared by the preview API and the admin page."""
    return {
        "kind": dungeon.kind,
        "seed": seed,
        "generator_version": dungeon.generator_version,
        "inputs": {
            "players": dungeon.n,
            "rank": dungeon.rank,
            "completed": dungeon.completed,
            "same_guild": dungeon.same_guild,
        },
        "params": dungeon.params.as_dict(),
        "floor_count": len(dungeon.floors),
        "room_count": dungeon.room_total,
        "npc_chance": dungeon.npc_chance,
        "npc": None
        if dungeon.npc is None
        else {"floor": dungeon.npc[0], "room": dungeon.npc[1], "kind": dungeon.npc_kind},
        "floors": [
            {
                "index": floor.index,
                "rooms": [
                    {"index": j, "kind": str(room.kind), "npc_kind": room.npc_kind,
                     "story_item": room.story_item, "seal": room.seal}
                    for j, room in enumerate(floor.rooms)
                ],
            }
            for floor in dungeon.floors
        ],
    }


class DungeonPreviewNpcSerializer(serializers.Serializer[Any]):
    floor = serializers.IntegerField()
    room = serializers.IntegerField()
    # Same values as a room's npc_kind; a plain string keeps one enum per choice set in the schema.
    kind = serializers.CharField(help_text="The NPC kind (see the room's npc_kind).")


class DungeonPreviewRoomSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=RoomKind.choices)
    npc_kind = serializers.ChoiceField(choices=NpcKind.choices, allow_null=True)
    story_item = serializers.ChoiceField(choices=StoryItem.choices, allow_null=True)
    seal = serializers.ChoiceField(choices=StoryItem.choices, allow_null=True,
                                   help_text="A sealed story room: the story item that opens it.")


class DungeonPreviewFloorSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    rooms = DungeonPreviewRoomSerializer(many=True)


class DungeonPreviewInputsSerializer(serializers.Serializer[Any]):
    players = serializers.IntegerField()
    rank = serializers.FloatField()
    completed = serializers.FloatField()
    same_guild = serializers.BooleanField()


class DungeonPreviewSerializer(serializers.Serializer[Any]):
    """The preview response (module-level names keep the OpenAPI components unique)."""

    kind = serializers.ChoiceField(choices=DungeonKind.choices)
    seed = serializers.IntegerField(help_text="Pass it back to get the same dungeon.")
    generator_version = serializers.IntegerField()
    inputs = DungeonPreviewInputsSerializer()
    params = serializers.DictField(child=serializers.FloatField(), help_text="GenerationParams in force.")
    floor_count = serializers.IntegerField()
    room_count = serializers.IntegerField()
    npc_chance = serializers.FloatField(help_text="0 for mixed-guild parties.")
    npc = DungeonPreviewNpcSerializer(allow_null=True)
    floors = DungeonPreviewFloorSerializer(many=True)


class DungeonPreviewApi(APIView):
    """Generate a dungeon with the parameters in force, without storing it (staff only)."""

    permission_classes = [IsAdminUser]

    class InputSerializer(serializers.Serializer[Any]):
        """The query string; every field has a designer-friendly default."""

        kind = serializers.ChoiceField(choices=DungeonKind.choices, default=DungeonKind.ORDINARY)
        players = serializers.IntegerField(min_value=1, max_value=100, default=4, help_text="Party size N.")
        rank = serializers.FloatField(min_value=0, max_value=10_000, default=0.0, help_text="Guild rank R.")
        completed = serializers.FloatField(
            min_value=0, max_value=100_000, default=0.0, help_text="Mean completed dungeons C."
        )
        same_guild = serializers.BooleanField(default=True,
                                              help_text="All members in one guild (NPC possible).")
        seed = serializers.IntegerField(
            min_value=0, max_value=MAX_SEED, required=False, help_text="Omit for a fresh random seed."
        )

        def validate_kind(self, value: str) -> str:
            try:
                generation.parse_kind(value)
            except ValueError as exc:
                raise serializers.ValidationError(str(exc)) from exc
            return value

    @extend_schema(
        operation_id="dungeons_preview",
        summary="Preview a generated dungeon (staff only)",
        description="Generates a dungeon from the party's N, R, C with the generation settings in force and "
        "returns its layout without storing anything. The same seed and inputs always give the same dungeon.",
        parameters=[
            OpenApiParameter("kind", OpenApiTypes.STR, enum=["ordinary", "frenzy"],
                             description="Dungeon kind "
                             "(darkness is generated by the labyrinth engine and refused here)."),
            OpenApiParameter("players", OpenApiTypes.INT, description="Party size N (1..100, default 4)."),
            OpenApiParameter("rank", OpenApiTypes.FLOAT, description="Guild rank R (default 0)."),
            OpenApiParameter("completed", OpenApiTypes.FLOAT,
                             description="Mean completed dungeons C (default 0)."),
            OpenApiParameter("same_guild", OpenApiTypes.BOOL, description="One-guild party (default true)."),
            OpenApiParameter("seed", OpenApiTypes.INT,
                             description="0..2^63-1; omitted: a fresh seed, returned."),
        ],
        responses={
            200: DungeonPreviewSerializer,
            400: OpenApiResponse(
                description="Invalid parameters: {error: {code: 'invalid', details: {fields}}}"),
            403: OpenApiResponse(description="Not staff."),
        },
        examples=[OpenApiExample("query", value=None,
                                 summary="?kind=ordinary&players=4&rank=3&completed=10&seed=7")],
    )
    def get(self, request: Request) -> Response:
        # A plain dict, not the QueryDict: DRF reads a missing boolean in form data as False.
        serializer = self.InputSerializer(data=request.query_params.dict())
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        seed = data["seed"] if "seed" in data else new_seed()
        dungeon = dungeon_preview(
            kind=data["kind"],
            party_size=data["players"],
            rank=data["rank"],
            completed=data["completed"],
            same_guild=data["same_guild"],
            seed=seed,
            params=generation_params_get(),
        )
        return Response(DungeonPreviewSerializer(preview_payload(dungeon=dungeon, seed=seed)).data)


# --- runs -----------------------------------------------------------------------------------------


#: a run whose long-poll may wait: one that is over answers at once (nothing more will come)
_GOING_ON = (RunStatus.LOBBY, RunStatus.ACTIVE)


def _run(run_id: int, player: Player, since: int = 0) -> dict[str, Any]:
    return renderer(RunOutput)(run_view(run_id=run_id, player=player, since=since))


class RunListCreateApi(PlayerApi):
    @extend_schema(operation_id="v1_runs_list", parameters=[RunListQuery],
                   responses={200: RunListOutput, **errors(400, 401)},
                   summary="The caller's runs, newest first")
    def get(self, request: Request) -> Response:
        query = valid(RunListQuery, request.query_params)
        page = run_list_mine(player=self.player, cursor=query["cursor"] or None, page_size=query["page_size"])
        return Response({"results": page.items, "next": page.next_cursor})

    @extend_schema(request=RunOpenInput, responses={201: RunOutput, **errors(400, 401, 409)},
                   summary="Open a lobby (ordinary or frenzy) and join it as host")
    def post(self, request: Request) -> Response:
        run = lobby.run_open(player=self.player, **valid(RunOpenInput, request.data))
        return Response(_run(run.pk, self.player), status=status.HTTP_201_CREATED)


class RunLobbiesApi(PlayerApi):
    @extend_schema(parameters=[RunListQuery], responses={200: RunListOutput, **errors(400, 401)},
                   summary="Open lobbies to join, newest first")
    def get(self, request: Request) -> Response:
        query = valid(RunListQuery, request.query_params)
        page = run_list_lobbies(cursor=query["cursor"] or None, page_size=query["page_size"])
        return Response({"results": page.items, "next": page.next_cursor})


class RunDetailApi(PlayerApi):
    @extend_schema(parameters=[RunQuery], responses={200: RunOutput, **errors(400, 401, 404)},
                   summary="A run: party, position, room, log, events since, whom it awaits, allowed actions "
                   "(with wait: a long-poll until something after since exists)")
    def get(self, request: Request, run_id: int) -> Response:
        query = valid(RunQuery, request.query_params)
        since = query["since"]
        view = run_view(run_id=run_id, player=self.player, since=since)
        if query.get("wait") and view.last_event <= since and view.status in _GOING_ON:
            # Long-poll: woken by the run's and its battles' steps (the hub), not by reading again and again.
            wait_for(f"run:{run_id}", lambda: run_news(run_id=run_id, since=since), seconds=query["wait"])
            view = run_view(run_id=run_id, player=self.player, since=since)
            battle = None if view.current_room is None else view.current_room.battle
            if run_deadline_refresh(player=self.player, battle_id=None if battle is None else battle.id,
                                    deadline=view.deadline):  # a timed-out turn applied: read again
                view = run_view(run_id=run_id, player=self.player, since=since)
        return Response(renderer(RunOutput)(view))


class RunReplayApi(PlayerApi):
    @extend_schema(responses={200: RunReplayOutput, **errors(401, 404, 409)},
                   summary="After the end: seeds, rules and every step, enough to replay it exactly")
    def get(self, request: Request, run_id: int) -> Response:
        return Response(RunReplayOutput(run_replay(run_id=run_id, player=self.player)).data)


_View = TypeVar("_View", bound=Callable[..., Any])


def _run_action(summary: str, request_serializer: type[serializers.Serializer[Any]] | None = None
                ) -> Callable[[_View], _View]:
    return extend_schema(request=request_serializer,
                         responses={200: RunOutput, **errors(400, 401, 403, 404, 409)}, summary=summary)


class RunJoinApi(PlayerApi):
    @_run_action("Join a lobby")
    def post(self, request: Request, run_id: int) -> Response:
        lobby.run_join(player=self.player, run_id=run_id)
        return Response(_run(run_id, self.player))


class RunLeaveApi(PlayerApi):
    @_run_action("Leave a lobby (the starting weapon goes back)")
    def post(self, request: Request, run_id: int) -> Response:
        lobby.run_leave(player=self.player, run_id=run_id)
        return Response(_run(run_id, self.player))


class RunStartApi(PlayerApi):
    @_run_action("Start the run (host): generate the dungeon and enter the first room")
    def post(self, request: Request, run_id: int) -> Response:
        started = lobby.run_start(player=self.player, run_id=run_id)
        if started.rooms is None or started.entry is None:  # started by its kind: read back
            return Response(_run(run_id, self.player))
        step, entry = started.step, started.entry
        battle = None if entry.battle is None else RoomBattle.of(entry.battle)
        view = run_payload(run=step.run, log=stored_log(step.full_log), player=self.player,
                           members=step.members(), rooms=started.rooms, battle=battle, loot=entry.loot,
                           held=(step.battle_events, step.battle_names))
        return Response(renderer(RunOutput)(view))


class RunOfferApi(PlayerApi):
    @extend_schema(responses={200: OfferItemOutput(many=True), **errors(401, 404)},
                   summary="The junk dealer's starting weapons for the caller")
    def get(self, request: Request, run_id: int) -> Response:
        offer = lobby.run_offer(player=self.player, run_id=run_id)
        return Response(OfferItemOutput(offer, many=True).data)


class RunWeaponApi(PlayerApi):
    @_run_action("Take a starting weapon from the offer, or refuse (null)", RunWeaponInput)
    def post(self, request: Request, run_id: int) -> Response:
        data = valid(RunWeaponInput, request.data)
        lobby.run_weapon_choose(player=self.player, run_id=run_id, item_kind_id=data["item_kind"])
        return Response(_run(run_id, self.player))


class RunFormationApi(PlayerApi):
    @_run_action("Set the formation (lobby or rest room)", RunFormationInput)
    def put(self, request: Request, run_id: int) -> Response:
        lobby.run_formation_set(player=self.player, run_id=run_id, **valid(RunFormationInput, request.data))
        return Response(_run(run_id, self.player))


class RunAdvanceApi(PlayerApi):
    @_run_action("Go on to the next room", RunStepInput)
    def post(self, request: Request, run_id: int) -> Response:
        rooms.run_advance(player=self.player, run_id=run_id, **valid(RunStepInput, request.data))
        return Response(_run(run_id, self.player))


class RunEscapeApi(PlayerApi):
    @_run_action("The whole party leaves from a treasure or rest room", RunStepInput)
    def post(self, request: Request, run_id: int) -> Response:
        rooms.run_escape(player=self.player, run_id=run_id, **valid(RunStepInput, request.data))
        return Response(_run(run_id, self.player))


class RunDrinkApi(PlayerApi):
    @_run_action("Drink a healing or stat potion between rooms (effect potions only in battle)",
                 RunDrinkInput)
    def post(self, request: Request, run_id: int) -> Response:
        rooms.run_potion_drink(player=self.player, run_id=run_id,
                                  item_id=valid(RunDrinkInput, request.data)["potion"])
        return Response(_run(run_id, self.player))


class RunLootTakeApi(PlayerApi):
    @extend_schema(request=None, responses={200: RunOutput, **errors(401, 404, 409)},
                   summary="Pick up an item lying in the current room")
    def post(self, request: Request, run_id: int, loot_id: int) -> Response:
        rooms.run_loot_take(player=self.player, run_id=run_id, loot_id=loot_id)
        return Response(_run(run_id, self.player))


# --- battles of runs (the run owns the battle flow: dungeons/runs/battles.py) -----------------------


def _user_id(request: Request) -> int:
    """The caller's user id; an anonymous caller is unreachable behind IsAuthenticated (the default) and
    refused as it refuses, as PlayerApi.player does."""
    user_id = request.user.pk
    if user_id is None:
        raise NotAuthenticated()
    return user_id


class BattleDetailApi(PlayerApi):
    @extend_schema(parameters=[BattleQuery], responses={200: BattleOutput, **errors(400, 401, 404)},
                   summary="A battle of the caller's run: state, whose turn, allowed actions, events since")
    def get(self, request: Request, battle_id: int) -> Response:
        since = valid(BattleQuery, request.query_params)["since"]
        # A poll reads the battle with the reader's membership and the new events in one statement.
        polled = battle_for_user(user_id=_user_id(request), battle_id=battle_id, since=since)
        view = battle_view(polled.battle, player_id=polled.player_id, since=since, events=polled.events)
        return Response(renderer(BattleOutput)(view))


class BattleActApi(PlayerApi):
    @extend_schema(request=BattleActInput, responses={200: ActOutput, **errors(400, 401, 404, 409)},
                   summary="Act on the caller's turn (attack, drink, switch_weapon, skip, flee)")
    def post(self, request: Request, battle_id: int) -> Response:
        # The usual body takes the compiled check; the serializer judges everything else (issue 13).
        data = validator(BattleActInput)(request.data)
        # The caller's player and their membership of the battle's run are read in one statement.
        outcome = battle_act_for_user(user_id=_user_id(request), battle_id=battle_id, turn=data["turn"],
                                      action=data["action"], idempotency_key=data["idempotency_key"])
        # The answer is stored without words; its events speak the request's language (combat/texts.py).
        names = names_of(outcome.battle.state) if outcome.battle is not None else {}
        answer = {**outcome.response, "events": spoken(outcome.response["events"], names)}
        return Response(renderer(ActOutput)({**answer, "replayed": outcome.replayed}))
