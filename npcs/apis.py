"""NPC endpoints: one small view per operation - validate, call one selector or service, serialize.

Every route is under /api/v1/guilds/{guild_id}/npcs/. The list is open to every player; everything
below an NPC is for the members of the guild that owns it (403 ``not_member`` otherwise).
"""
from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from backend.api.schema import errors
from backend.api.views import valid
from npcs import rules, selectors, services
from npcs.serializers import (
    BeltOutput,
    BountyBoardOutput,
    BuffBoardOutput,
    BuffPurchaseOutput,
    BuiltStructureOutput,
    GuildNpcsOutput,
    OfferOutput,
    PlayerBountyOutput,
    PurchaseOutput,
    QuoteOutput,
    RecipeOutput,
    SaleOutput,
    SellInput,
    StructureOutput,
    UpgradeBoardOutput,
    UpgradeInput,
    UpgradeOutput,
)
from players.caller import PlayerApi

# The NPC actions' errors: 401; 403 not_member; 404 guild/NPC/object not found.
USE = (401, 403, 404)


def _kind_parameter(service: str) -> OpenApiParameter:
    kinds = list(rules.kinds_with(service))
    return OpenApiParameter("kind", OpenApiTypes.STR, OpenApiParameter.PATH, enum=kinds,
                            description=f"An NPC kind with the {service!r} service: {', '.join(kinds)}.")


SHOP_KIND = _kind_parameter(rules.SHOP)
BUYER_KIND = _kind_parameter(rules.SELL)


class GuildNpcListApi(PlayerApi):
    @extend_schema(responses={200: GuildNpcsOutput, **errors(401, 404)}, tags=["npcs"],
                   summary="A guild's NPCs (initial and rescued), its structures and rank (any player)")
    def get(self, request: Request, guild_id: int) -> Response:
        return Response(GuildNpcsOutput(selectors.guild_npc_list(guild_id=guild_id)).data)


class ShopOffersApi(PlayerApi):
    @extend_schema(parameters=[SHOP_KIND], responses={200: OfferOutput(many=True), **errors(*USE)},
                   tags=["npcs"],
                   summary="What a shop NPC sells, at the caller's price, with today's stock")
    def get(self, request: Request, guild_id: int, kind: str) -> Response:
        offers = selectors.shop_offers(player=self.player, guild_id=guild_id, kind=kind)
        return Response(OfferOutput(offers, many=True).data)


class ShopBuyApi(PlayerApi):
    @extend_schema(parameters=[SHOP_KIND], request=None, tags=["npcs"],
                   responses={201: PurchaseOutput, **errors(*USE, 409)},
                   summary="Buy one item (409 not_enough_money, out_of_stock, or a carry limit)")
    def post(self, request: Request, guild_id: int, kind: str, offer_id: int) -> Response:
        purchase = services.shop_buy(player=self.player, guild_id=guild_id, kind=kind, offer_id=offer_id)
        return Response(PurchaseOutput(purchase).data, status=status.HTTP_201_CREATED)


class SellQuotesApi(PlayerApi):
    @extend_schema(parameters=[BUYER_KIND], responses={200: QuoteOutput(many=True), **errors(*USE)},
                   tags=["npcs"], summary="What a buying NPC would pay for each carried item")
    def get(self, request: Request, guild_id: int, kind: str) -> Response:
        quotes = selectors.sell_quotes(player=self.player, guild_id=guild_id, kind=kind)
        return Response(QuoteOutput(quotes, many=True).data)


class SellApi(PlayerApi):
    @extend_schema(parameters=[BUYER_KIND], request=SellInput, tags=["npcs"],
                   responses={200: SaleOutput, **errors(400, *USE, 409)},
                   summary="Sell one carried item (404 if not carried, 409 not_bought_here)")
    def post(self, request: Request, guild_id: int, kind: str) -> Response:
        item_id = valid(SellInput, request.data)["item"]
        sale = services.npc_sell(player=self.player, guild_id=guild_id, kind=kind, item_id=item_id)
        return Response(SaleOutput(sale).data)


def _belts(state: selectors.BeltState, money: int) -> dict[str, Any]:
    return BeltOutput({"level": state.level, "max_level": state.max_level, "next_price": state.next_price,
                       "money": money}).data


class BeltApi(PlayerApi):
    @extend_schema(responses={200: BeltOutput, **errors(*USE)}, tags=["npcs"],
                   summary="The caller's potion belts and the next belt's price")
    def get(self, request: Request, guild_id: int) -> Response:
        state = selectors.belt_state(player=self.player, guild_id=guild_id)
        return Response(_belts(state, self.player.money))


class BeltBuyApi(PlayerApi):
    @extend_schema(request=None, responses={200: BeltOutput, **errors(*USE, 409)}, tags=["npcs"],
                   summary="Buy the next potion belt (409 belt_max_level, not_enough_money)")
    def post(self, request: Request, guild_id: int) -> Response:
        state = services.belt_buy(player=self.player, guild_id=guild_id)
        self.player.refresh_from_db(fields=["money"])
        return Response(_belts(state, self.player.money))


class BuffBoardApi(PlayerApi):
    @extend_schema(responses={200: BuffBoardOutput, **errors(*USE)}, tags=["npcs"],
                   summary="The warlock's buffs and the caller's bought ones waiting for their next run")
    def get(self, request: Request, guild_id: int) -> Response:
        board = selectors.buff_board(player=self.player, guild_id=guild_id)
        offers = [{"buff": buff, "price": price} for buff, price in board.offers]
        return Response(BuffBoardOutput({"offers": offers, "pending": board.pending}).data)


class BuffBuyApi(PlayerApi):
    @extend_schema(request=None, responses={201: BuffPurchaseOutput, **errors(*USE, 409)}, tags=["npcs"],
                   summary="Buy a buff for every battle of the next run "
                           "(409 buff_already_bought, not_enough_money)")
    def post(self, request: Request, guild_id: int, buff_id: int) -> Response:
        bought = services.warlock_buff_buy(player=self.player, guild_id=guild_id, buff_id=buff_id)
        self.player.refresh_from_db(fields=["money"])
        return Response(BuffPurchaseOutput({"buff": bought, "money": self.player.money}).data,
                        status=status.HTTP_201_CREATED)


class UpgradeApi(PlayerApi):
    @extend_schema(responses={200: UpgradeBoardOutput, **errors(*USE)}, tags=["npcs"],
                   summary="The caller's stats, the stone points each next level costs, and their stones")
    def get(self, request: Request, guild_id: int) -> Response:
        board = selectors.upgrade_board(player=self.player, guild_id=guild_id)
        return Response(UpgradeBoardOutput(board).data)

    @extend_schema(request=UpgradeInput, responses={200: UpgradeOutput, **errors(400, *USE, 409)},
                   tags=["npcs"],
                   summary="Raise a stat for enchanted stones (409 not_enough_stones, stat_max_level)")
    def post(self, request: Request, guild_id: int) -> Response:
        stat = valid(UpgradeInput, request.data)["stat"]
        upgrade = services.shaman_upgrade(player=self.player, guild_id=guild_id, stat=stat)
        return Response(UpgradeOutput(upgrade).data)


class BountyBoardApi(PlayerApi):
    @extend_schema(responses={200: BountyBoardOutput, **errors(*USE)}, tags=["npcs"],
                   summary="The inquisitor's bounty quests and the caller's bounties")
    def get(self, request: Request, guild_id: int) -> Response:
        return Response(BountyBoardOutput(selectors.bounty_board(player=self.player, guild_id=guild_id)).data)


class BountyAcceptApi(PlayerApi):
    @extend_schema(request=None, responses={201: PlayerBountyOutput, **errors(*USE, 409)}, tags=["npcs"],
                   summary="Take a bounty quest (409 bounty_already_taken, too_many_bounties)")
    def post(self, request: Request, guild_id: int, quest_id: int) -> Response:
        bounty = services.bounty_accept(player=self.player, guild_id=guild_id, quest_id=quest_id)
        return Response(PlayerBountyOutput(bounty).data, status=status.HTTP_201_CREATED)


class BountyAbandonApi(PlayerApi):
    @extend_schema(request=None, responses={200: PlayerBountyOutput, **errors(*USE)}, tags=["npcs"],
                   summary="Abandon the caller's open bounty of this quest")
    def post(self, request: Request, guild_id: int, quest_id: int) -> Response:
        bounty = services.bounty_abandon(player=self.player, guild_id=guild_id, quest_id=quest_id)
        return Response(PlayerBountyOutput(bounty).data)


class StructureBoardApi(PlayerApi):
    @extend_schema(responses={200: StructureOutput(many=True), **errors(*USE)}, tags=["npcs"],
                   summary="What the carpenter builds, from what, and what the guild has built")
    def get(self, request: Request, guild_id: int) -> Response:
        views = selectors.structure_board(player=self.player, guild_id=guild_id)
        return Response(StructureOutput(views, many=True).data)


class StructureBuildApi(PlayerApi):
    @extend_schema(request=None, responses={201: BuiltStructureOutput, **errors(*USE, 409)}, tags=["npcs"],
                   summary="Build a structure for the guild (409 missing_materials, structure_already_built, "
                           "not_enough_money)")
    def post(self, request: Request, guild_id: int, structure_id: int) -> Response:
        built = services.structure_build(player=self.player, guild_id=guild_id, structure_id=structure_id)
        return Response(BuiltStructureOutput(built).data, status=status.HTTP_201_CREATED)


class RecipeBoardApi(PlayerApi):
    @extend_schema(responses={200: RecipeOutput(many=True), **errors(*USE)}, tags=["npcs"],
                   summary="The amulets the jeweler makes, from which gems, for what fee")
    def get(self, request: Request, guild_id: int) -> Response:
        recipes = [{"recipe": recipe, "fee": fee}
                   for recipe, fee in selectors.recipe_board(player=self.player, guild_id=guild_id)]
        return Response(RecipeOutput(recipes, many=True).data)


class RecipeCraftApi(PlayerApi):
    @extend_schema(request=None, responses={201: PurchaseOutput, **errors(*USE, 409)}, tags=["npcs"],
                   summary="Have an amulet made (409 missing_materials, not_enough_money, weight_limit)")
    def post(self, request: Request, guild_id: int, recipe_id: int) -> Response:
        crafted = services.jeweler_craft(player=self.player, guild_id=guild_id, recipe_id=recipe_id)
        return Response(PurchaseOutput(crafted).data, status=status.HTTP_201_CREATED)
