"""Player endpoints: registration, JWT login and refresh (throttled), the item catalog, inventory.

/me/, which shows the guild, is in guilds/apis.py.
"""
from __future__ import annotations

from collections.abc import Sequence

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView
from rest_framework_simplejwt.serializers import TokenObtainPairSerializer, TokenRefreshSerializer
from rest_framework_simplejwt.tokens import RefreshToken
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView

from backend.api.schema import errors
from backend.api.throttling import ResilientScopedRateThrottle, UsernameRateThrottle
from backend.api.views import valid
from players import selectors, services
from players.caller import PlayerApi
from players.serializers import (
    InventoryItemOutput,
    InventoryOutput,
    ItemKindListQuery,
    ItemKindOutput,
    NoticesOutput,
    NoticesQuery,
    RegisterInput,
    RegisterOutput,
)
from players.services import player_register


class AuthThrottled:
    throttle_classes: Sequence[type[BaseThrottle]] = [ResilientScopedRateThrottle]
    throttle_scope = "auth"


class RegisterApi(AuthThrottled, APIView):
    permission_classes = [AllowAny]
    authentication_classes: Sequence[type[BaseAuthentication]] = []

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


@extend_schema_view(post=extend_schema(responses={200: TokenObtainPairSerializer, **errors(400, 401, 429)},
                                       summary="Log in: a JWT access and refresh token pair"))
class TokenApi(AuthThrottled, TokenObtainPairView):
    """JWT login: ``{username, password}`` -> ``{access, refresh}``; limited per address and per username."""

    throttle_classes = [ResilientScopedRateThrottle, UsernameRateThrottle]


@extend_schema_view(post=extend_schema(responses={200: TokenRefreshSerializer, **errors(400, 401, 429)},
                                       summary="A new access token for a refresh token"))
class TokenRefreshApi(AuthThrottled, TokenRefreshView):
    """Exchange a refresh token for a new access token."""


class ItemKindListApi(PlayerApi):
    @extend_schema(parameters=[ItemKindListQuery],
                   responses={200: ItemKindOutput(many=True), **errors(400, 401)},
                   summary="The item catalog, optionally by category and sub-kind")
    def get(self, request: Request) -> Response:
        query = ItemKindListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(ItemKindOutput(selectors.item_kind_list(**query.validated_data), many=True).data)


class ItemKindDetailApi(PlayerApi):
    @extend_schema(responses={200: ItemKindOutput, **errors(401, 404)}, summary="One catalog item")
    def get(self, request: Request, item_kind_id: int) -> Response:
        return Response(ItemKindOutput(selectors.item_kind_get(item_kind_id=item_kind_id)).data)


class InventoryApi(PlayerApi):
    @extend_schema(responses={200: InventoryOutput, **errors(401)},
                   summary="What the caller carries, with totals")
    def get(self, request: Request) -> Response:
        items, carry = selectors.inventory_with_carry(player=self.player)
        return Response(InventoryOutput({"inventory": items, "carry": carry}).data)


class InventoryItemApi(PlayerApi):
    @extend_schema(request=None, responses={204: None, **errors(401, 404, 409)},
                   summary="Drop a carried item (not the labyrinth's torch while its run is on)")
    def delete(self, request: Request, item_id: int) -> Response:
        services.inventory_remove(player=self.player, item_id=item_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InventoryEquipApi(PlayerApi):
    @extend_schema(request=None, responses={200: InventoryItemOutput, **errors(401, 404, 409)},
                   summary="Wear armor or take a weapon/torch into battle (slot rules apply)")
    def post(self, request: Request, item_id: int) -> Response:
        item = services.inventory_equip(player=self.player, item_id=item_id)
        return Response(InventoryItemOutput(item).data)


class InventoryUnequipApi(PlayerApi):
    @extend_schema(request=None, responses={200: InventoryItemOutput, **errors(401, 404, 409)},
                   summary="Take off armor or put a weapon away (it stays carried)")
    def post(self, request: Request, item_id: int) -> Response:
        item = services.inventory_unequip(player=self.player, item_id=item_id)
        return Response(InventoryItemOutput(item).data)


class NoticesApi(APIView):
    """The caller's notices after ``?since=N`` (what ``GET me/stream/`` pushes, read on demand)."""

    @extend_schema(parameters=[NoticesQuery], responses={200: NoticesOutput, **errors(400, 401)},
                   summary="The caller's notices (your turn, match started or ended, ...) after ?since=N")
    def get(self, request: Request) -> Response:
        user_id = request.user.pk
        if user_id is None:  # unreachable behind IsAuthenticated (the default); refused as it refuses
            raise NotAuthenticated()
        since = valid(NoticesQuery, request.query_params)["since"]
        notices, more = selectors.notice_page(user_id=user_id, since=since)
        last = notices[-1].seq if notices else since
        return Response(NoticesOutput({"notices": notices, "last": last, "more": more}).data)
