"""REST routes of the Labyrinth of Darkness (mounted under /api/v1/)."""
from django.urls import path

from darkness import apis

urlpatterns = [
    path("runs/<id:run_id>/move/", apis.RunMoveApi.as_view(), name="run-move"),
    path("guilds/<id:guild_id>/labyrinth/", apis.GuildLabyrinthApi.as_view(), name="guild-labyrinth"),
]
