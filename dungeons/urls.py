"""REST routes of the dungeons app (mounted under /api/v1/)."""
from django.urls import path

from dungeons.apis import DungeonPreviewApi

urlpatterns = [
    path("dungeons/preview/", DungeonPreviewApi.as_view(), name="dungeon-preview"),
]
