"""Admin of the Labyrinth of Darkness: the guild maze drawn with its explored part, a run's path."""
from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from darkness.drawing import CELL, MARGIN
from darkness.models import DarknessRun, DarknessSettings, GuildMaze, SetAsideWeapon
from players.models import ItemKind
from players.services import inventory_add
from tests.darkness.helpers import install_maze, only
from tests.dungeons.run_helpers import Party, guild_party, lobby

pytestmark = pytest.mark.django_db


def _walked(directions):
    only("empty")
    players, guild = guild_party(2)
    maze = install_maze(guild)
    party = Party(players)
    run = lobby(players, kind="darkness")
    body = party.post(players[0], f"runs/{run.pk}/start/").json()
    for direction in directions:
        body = party.post(players[0], f"runs/{run.pk}/move/",
                          {"step": body["step"], "direction": direction}).json()
    return maze, DarknessRun.objects.get(run_id=run.pk)


def test_the_guild_maze_page_draws_the_explored_part(admin_client: Client) -> None:
    maze, _ = _walked(["RIGHT", "DOWN"])
    page = admin_client.get(f"/admin/darkness/guildmaze/{maze.pk}/change/")
    assert page.status_code == 200
    svg = re.search(r"<svg[^>]*aria-label=\"guild maze\".*?</svg>", page.content.decode(), re.DOTALL).group(0)
    rects = re.findall(r'<rect x="(\d+)" y="(\d+)" width="\d+" height="\d+" fill="([^"]+)"/>', svg)
    assert len(rects) == 8
    unexplored = {((int(y) - MARGIN) // CELL, (int(x) - MARGIN) // CELL)
                  for x, y, fill in rects if fill == "#c8c8c8"}
    assert unexplored == {(1, 0), (2, 0), (2, 1), (3, 0), (3, 1)}
    assert ">H<" in svg and ">C<" in svg and ">E<" in svg
    assert admin_client.get("/admin/darkness/guildmaze/").status_code == 200


def test_the_guild_maze_page_shows_its_map_text_in_a_block_keeping_its_spaces(admin_client: Client) -> None:
    maze, _ = _walked(["RIGHT"])
    page = admin_client.get(f"/admin/darkness/guildmaze/{maze.pk}/change/").content.decode()
    block = re.search(r'<pre class="maze-text" style="([^"]*)">(.*?)</pre>', page, re.DOTALL)
    assert "monospace" in block.group(1) and "white-space:pre" in block.group(1)
    assert html.unescape(block.group(2)) == maze.map_text and " " in maze.map_text and "\n" in maze.map_text


def test_the_darkness_run_page_draws_its_path(admin_client: Client) -> None:
    _, dark = _walked(["RIGHT", "DOWN", "LEFT"])
    page = admin_client.get(f"/admin/darkness/darknessrun/{dark.pk}/change/").content.decode()
    points = re.search(r'<polyline points="([^"]+)"', page).group(1).split()
    centre = [f"{MARGIN + c * CELL + CELL // 2},{MARGIN + r * CELL + CELL // 2}" for r, c in
              [(0, 0), (0, 1), (1, 1), (1, 0)]]
    assert points == centre
    assert admin_client.get("/admin/darkness/darknessrun/").status_code == 200


def test_the_darkness_run_page_names_the_weapons_set_aside(admin_client: Client) -> None:
    only("empty")
    players, guild = guild_party(1)
    install_maze(guild)
    for kind in ItemKind.objects.filter(category="weapon").order_by("pk")[:2]:
        inventory_add(player=players[0], item_kind=kind, equip=True)
    run = lobby(players, kind="darkness")
    assert Party(players).post(players[0], f"runs/{run.pk}/start/").status_code == 200
    kept = SetAsideWeapon.objects.get()
    page = admin_client.get(f"/admin/darkness/darknessrun/{DarknessRun.objects.get().pk}/change/")
    assert f"{kept.item_kind} (item {kept.item_id}) of {players[0]}" in page.content.decode()


def test_the_settings_open_as_one_row_and_refuse_an_impossible_maze(admin_client: Client) -> None:
    page = admin_client.get("/admin/darkness/darknesssettings/", follow=True)
    assert page.status_code == 200 and b"torch_length" in page.content
    settings = DarknessSettings.load()
    data = {f.name: getattr(settings, f.name) for f in DarknessSettings._meta.fields if f.name != "id"}
    data["sections"] = 30
    reply = admin_client.post(f"/admin/darkness/darknesssettings/{settings.pk}/change/", data)
    assert reply.status_code == 200 and b"sections must be between" in reply.content
    assert DarknessSettings.load().sections == 4
    assert GuildMaze.objects.count() == 0
