"""REST routes of the npcs app (mounted under /api/v1/): everything under a guild's NPCs.

``<shop_npc:kind>`` and ``<buying_npc:kind>`` match only the kinds that offer that service (npcs.rules),
so a route an NPC does not have is a plain 404 rather than a view that has to refuse.
"""
from django.urls import path, register_converter

from npcs import apis, rules


def _kind_converter(service: str) -> type:
    return type(f"{service.title()}KindConverter", (), {
        "regex": "|".join(rules.kinds_with(service)),
        "to_python": staticmethod(str),
        "to_url": staticmethod(str),
    })


register_converter(_kind_converter(rules.SHOP), "shop_npc")
register_converter(_kind_converter(rules.SELL), "buying_npc")

NPCS = "guilds/<id:guild_id>/npcs/"

urlpatterns = [
    path(NPCS, apis.GuildNpcListApi.as_view(), name="guild-npcs"),
    path(NPCS + "<shop_npc:kind>/offers/", apis.ShopOffersApi.as_view(), name="npc-offers"),
    path(NPCS + "<shop_npc:kind>/offers/<id:offer_id>/buy/", apis.ShopBuyApi.as_view(), name="npc-buy"),
    path(NPCS + "<buying_npc:kind>/quotes/", apis.SellQuotesApi.as_view(), name="npc-quotes"),
    path(NPCS + "<buying_npc:kind>/sell/", apis.SellApi.as_view(), name="npc-sell"),
    path(NPCS + "potion_seller/belts/", apis.BeltApi.as_view(), name="npc-belts"),
    path(NPCS + "potion_seller/belts/buy/", apis.BeltBuyApi.as_view(), name="npc-belt-buy"),
    path(NPCS + "warlock/buffs/", apis.BuffBoardApi.as_view(), name="npc-buffs"),
    path(NPCS + "warlock/buffs/<id:buff_id>/buy/", apis.BuffBuyApi.as_view(), name="npc-buff-buy"),
    path(NPCS + "shaman/upgrades/", apis.UpgradeApi.as_view(), name="npc-upgrades"),
    path(NPCS + "inquisitor/bounties/", apis.BountyBoardApi.as_view(), name="npc-bounties"),
    path(NPCS + "inquisitor/bounties/<id:quest_id>/accept/", apis.BountyAcceptApi.as_view(),
         name="npc-bounty-accept"),
    path(NPCS + "inquisitor/bounties/<id:quest_id>/abandon/", apis.BountyAbandonApi.as_view(),
         name="npc-bounty-abandon"),
    path(NPCS + "carpenter/structures/", apis.StructureBoardApi.as_view(), name="npc-structures"),
    path(NPCS + "carpenter/structures/<id:structure_id>/build/", apis.StructureBuildApi.as_view(),
         name="npc-structure-build"),
    path(NPCS + "jeweler/recipes/", apis.RecipeBoardApi.as_view(), name="npc-recipes"),
    path(NPCS + "jeweler/recipes/<id:recipe_id>/craft/", apis.RecipeCraftApi.as_view(),
         name="npc-recipe-craft"),
]
