"""The NPC reads cost a fixed number of queries however much a guild owns (no N+1)."""
from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dungeons.generation import NPC_KINDS
from npcs.models import GuildStructure, JewelerRecipe, Structure
from tests.npcs.helpers import Hall, carry, goods, hall, offer

pytestmark = pytest.mark.django_db


def _queries(call: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


def _build_everything(h: Hall) -> None:
    for structure in Structure.objects.all():
        GuildStructure.objects.create(guild=h.guild, structure=structure, built_at=h.guild.created_at)


def _more_recipes(h: Hall) -> None:
    for _ in range(3):
        recipe = JewelerRecipe.objects.create(amulet=goods("amulet"), fee=5)
        recipe.materials.create(item_kind=goods("special", "gem"), quantity=2)


def test_the_npc_list_does_not_grow_with_npcs_and_structures() -> None:
    small, big = hall("trader"), hall(*NPC_KINDS)
    _build_everything(big)
    assert len(big.get("").json()["npcs"]) == 14 and len(big.get("").json()["structures"]) == 5
    assert _queries(lambda: big.get("")) == _queries(lambda: small.get("")) <= 10


@pytest.mark.parametrize(("path", "extra"), [
    ("weaponsmith/offers/", lambda h: [offer("weaponsmith", goods("weapon", "sword"), daily_stock=2)
                                       for _ in range(5)]),
    ("trader/quotes/", lambda h: carry(h.player, goods("special", "gem"), 5)),
    ("carpenter/structures/", _build_everything),
    ("jeweler/recipes/", _more_recipes),
])
def test_boards_do_not_grow_with_their_rows(path: str, extra: Callable[[Hall], object]) -> None:
    h = hall("weaponsmith", "trader", "carpenter", "jeweler")
    before = _queries(lambda: h.get(path))
    extra(h)
    assert _queries(lambda: h.get(path)) == before <= 14
