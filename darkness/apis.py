"""REST views of the Labyrinth of Darkness: a party's move and a guild's explored map."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from backend.api.compiled import renderer, validator
from backend.api.schema import errors
from darkness import services
from darkness.selectors import darkness_moved_view, guild_labyrinth
from darkness.serializers import DarknessMoveInput, GuildLabyrinthOutput
from dungeons.serializers import RunOutput
from players.caller import PlayerApi
from players.selectors import player_for_user


class RunMoveApi(PlayerApi):
    @extend_schema(request=DarknessMoveInput, responses={200: RunOutput, **errors(400, 401, 404, 409)},
                   summary="Labyrinth of Darkness: walk through an open passage (burns torch)",
                   description="Carries the run's step like advance: of concurrent moves for one step, one "
                   "moves and the others get 409 stale_step. A wall is 409 wall and burns nothing; the "
                   "current room must be cleared first (409 room_not_cleared).")
    def post(self, request: Request, run_id: int) -> Response:
        user_id = request.user.pk
        if user_id is None:  # unreachable behind IsAuthenticated (the default); refused as it refuses
            raise NotAuthenticated()
        try:
            data = validator(DarknessMoveInput)(request.data)  # the usual body takes the compiled check
        except ValidationError:
            player_for_user(user_id=user_id)  # an account without a player is refused first (404)
            raise
        # The caller's player is found among the run's members; the answer is built from what the move holds.
        moved = services.darkness_move(user_id=user_id, run_id=run_id, **data)
        return Response(renderer(RunOutput)(darkness_moved_view(moved)))


class GuildLabyrinthApi(PlayerApi):
    @extend_schema(responses={200: GuildLabyrinthOutput, **errors(401, 403, 404)},
                   summary="The guild's explored Labyrinth of Darkness (members only)")
    def get(self, request: Request, guild_id: int) -> Response:
        return Response(GuildLabyrinthOutput(guild_labyrinth(guild_id=guild_id, player=self.player)).data)
