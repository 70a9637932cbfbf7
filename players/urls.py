"""REST routes of the players app (mounted under /api/v1/)."""
from django.urls import path

from players import apis
from players.streams import NoticeStreamApi

urlpatterns = [
    path("auth/register/", apis.RegisterApi.as_view(), name="auth-register"),
    path("auth/token/", apis.TokenApi.as_view(), name="auth-token"),
    path("auth/token/refresh/", apis.TokenRefreshApi.as_view(), name="auth-token-refresh"),
    path("me/inventory/", apis.InventoryApi.as_view(), name="me-inventory"),
    path("me/inventory/<id:item_id>/", apis.InventoryItemApi.as_view(), name="me-inventory-item"),
    path("me/inventory/<id:item_id>/equip/", apis.InventoryEquipApi.as_view(), name="me-inventory-equip"),
    path("me/inventory/<id:item_id>/unequip/", apis.InventoryUnequipApi.as_view(),
         name="me-inventory-unequip"),
    path("me/notices/", apis.NoticesApi.as_view(), name="me-notices"),
    path("me/stream/", NoticeStreamApi.as_view(), name="me-stream"),
    path("items/", apis.ItemKindListApi.as_view(), name="item-kinds"),
    path("items/<id:item_kind_id>/", apis.ItemKindDetailApi.as_view(), name="item-kind"),
]
