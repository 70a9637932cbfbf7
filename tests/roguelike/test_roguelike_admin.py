"""The roguelike's board in the match admin: every building (portals numbered in their ring), the gold,
the monsters with their health and the player drawn as marks, with a legend (English and Russian)."""
from __future__ import annotations

import re
from html import escape

import pytest
from django.test import Client

from roguelike.engine.model import Building, Loot, MonsterKind
from roguelike.picture import BUILDINGS, LOOT, MONSTERS
from tests.factories import PlayerFactory
from tests.roguelike.test_mode import open_game, server_game

pytestmark = pytest.mark.django_db
BUSY = {"seed": 21, "width": 6, "height": 6, "floors": 2, "dragon_count": 2, "archer_count": 2,
        "portal_count": 3, "mine_count": 1, "hospital_count": 1, "arsenal_count": 1}
MARK = re.compile(r'<tspan class="mark" fill="([^"]+)"><title>([^<]*)</title>([^<]*)</tspan>')


def _marks(page: str) -> dict[str, list[tuple[str, str]]]:
    """The marks drawn, by the cell their title starts with: (text, title)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for _colour, title, text in MARK.findall(page):
        cell = title[: title.index(")") + 1]
        found.setdefault(cell, []).append((text, title))
    return found


def test_the_board_shows_buildings_portals_gold_and_monsters(admin_client: Client) -> None:
    match_id = open_game(PlayerFactory(), BUSY)
    game = server_game(match_id)
    page = admin_client.get(f"/admin/matches/match/{match_id}/change/").content.decode()
    marks = _marks(page)
    expected: list[tuple[str, str]] = []
    portals = {cell: i + 1 for i, cell in enumerate(game.world.portals)}
    for cell, building in game.world.buildings:
        letter = BUILDINGS[building][0] + (str(portals[cell]) if building is Building.PORTAL else "")
        expected.append((str(cell), letter))
    for cell, loot in game.ground:
        expected.append((str(cell), LOOT[loot][0]))
    for monster in game.monsters:
        expected.append((str(monster.cell), f"{MONSTERS[monster.kind][0]}{monster.health}"))
    expected.append((str(game.player.cell), "@"))
    drawn = [(cell, text) for cell, items in marks.items() for text, _title in items]
    assert sorted(drawn) == sorted(expected)
    # the seed's busy world really has each kind of thing
    assert {b for _c, b in game.world.buildings} >= {Building.PORTAL, Building.ARSENAL, Building.HOSPITAL}
    assert len(portals) == 3 and Loot.GOLD in {loot for _c, loot in game.ground}
    assert {m.kind for m in game.monsters} == {MonsterKind.DRAGON, MonsterKind.ARCHER}
    # a dragon's title says what it is
    dragon = next(m for m in game.monsters if m.kind is MonsterKind.DRAGON)
    title = escape(f"{dragon.cell} Dragon (its number: health)")
    assert (f"d{dragon.health}", title) in marks[str(dragon.cell)]


def test_the_board_has_its_legend_in_both_languages(admin_client: Client) -> None:
    match_id = open_game(PlayerFactory(), BUSY)
    page = admin_client.get(f"/admin/matches/match/{match_id}/change/").content.decode()
    legend = re.search(r'<table class="picture-legend">.*?</table>', page, re.DOTALL).group(0)
    for letter, _fill in BUILDINGS.values():
        assert f">{letter}</span>" in legend
    assert ">$</span></td><td>Gold (the treasure)" in legend and ">d</span></td><td>Dragon" in legend
    assert "Graveyard" in legend and "Exit" in legend and "The player" in legend
    russian = admin_client.get(f"/admin/matches/match/{match_id}/change/",
                               HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Кладбище" in russian and "Золото (сокровище)" in russian
    assert "Дракон (число — здоровье)" in russian
