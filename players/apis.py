"""Player endpoints: registration, JWT login and refresh (throttled), and /me/."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView
from rest_framework_simplejwt.tokens import RefreshToken
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView

from backend.api.schema import errors
from backend.api.views import PlayerApi
from guilds.selectors import player_current_guild
from players.serializers import MeOutput, RegisterInput, RegisterOutput
from players.services import player_register


class AuthThrottled:
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"


class RegisterApi(AuthThrottled, APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(request=RegisterInput, responses={201: RegisterOutput, **errors(400, 409, 429)},
                   summary="Register a user and create their player")
    def post(self, request: Request) -> Response:
        data = RegisterInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_register(**data.validated_data)
        refresh = RefreshToken.for_user(player.user)
        body = {"id": player.pk, "username": player.user.username,
                "access": str(refresh.access_token), "refresh": str(refresh)}
        return Response(RegisterOutput(body).data, status=status.HTTP_201_CREATED)


class TokenApi(AuthThrottled, TokenObtainPairView):
    """JWT login: ``{username, password}`` -> ``{access, refresh}``."""


class TokenRefreshApi(AuthThrottled, TokenRefreshView):
    """Exchange a refresh token for a new access token."""


class MeApi(PlayerApi):
    @extend_schema(responses={200: MeOutput, **errors(401, 404)}, summary="The caller's player")
    def get(self, request: Request) -> Response:
        player = self.player
        player.guild = player_current_guild(player=player)
        return Response(MeOutput(player).data)
