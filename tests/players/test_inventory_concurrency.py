"""Carry limits under real concurrency on PostgreSQL: many pickups for one player at the same moment."""
from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection
from rest_framework_simplejwt.tokens import RefreshToken

from backend.errors import RuleViolation
from players.models import InventoryItem, ItemKind
from players.services import inventory_add
from tests.factories import PlayerFactory

pytestmark = pytest.mark.postgres


def _all_at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run each call in its own thread (own DB connection), released together by a barrier."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = call()
        except BaseException as exc:  # noqa: BLE001 - the outcome is what the test checks
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a concurrent call hung"
    return results


def _outcome(result: Any) -> str:
    if isinstance(result, RuleViolation):
        return result.code
    if isinstance(result, BaseException):
        raise result
    return "added"


@pytest.mark.django_db(transaction=True)
def test_sixteen_concurrent_potion_pickups_leave_exactly_the_potion_limit():
    # given: a player with no potions and a potion kind
    player = PlayerFactory()
    potion = ItemKind.objects.create(name="Concurrent Tonic", category="potion", sub_kind="healing", weight=1,
                                     price=10, heal=5)

    # when: sixteen pickups run at the same moment
    results = _all_at_once([partial(inventory_add, player=player, item_kind=potion) for _ in range(16)])

    # then: three were added, thirteen refused with the limit named
    assert Counter(map(_outcome, results)) == {"added": 3, "potion_limit": 13}
    assert InventoryItem.objects.filter(player=player).count() == 3
    for refusal in results:
        if isinstance(refusal, RuleViolation):
            assert refusal.details["limit"] == 3 and refusal.details["current"] == 3


@pytest.mark.django_db(transaction=True)
def test_concurrent_heavy_pickups_never_exceed_the_capacity():
    # given: capacity 40 and sixteen 7-unit loads offered at once
    player = PlayerFactory()
    ore = ItemKind.objects.create(name="Concurrent Ore", category="special", sub_kind="gem", weight=7,
                                  price=1)

    # when
    results = _all_at_once([partial(inventory_add, player=player, item_kind=ore) for _ in range(16)])

    # then: 5 x 7 = 35 fits, a sixth would be 42
    assert Counter(map(_outcome, results)) == {"added": 5, "weight_limit": 11}
    assert InventoryItem.objects.filter(player=player).count() == 5


@pytest.mark.django_db(transaction=True)
def test_concurrent_pickups_of_different_weapons_fill_exactly_two_slots():
    player = PlayerFactory()
    kinds = [ItemKind.objects.create(name=f"Concurrent Blade {i}", category="weapon", sub_kind="sword",
                                     weight=1, price=1, damage=3) for i in range(16)]
    results = _all_at_once([partial(inventory_add, player=player, item_kind=kind) for kind in kinds])
    assert Counter(map(_outcome, results)) == {"added": 2, "weapon_limit": 14}
    assert InventoryItem.objects.filter(player=player).count() == 2


def _http(method: str, url: str, token: str) -> int:
    request = urllib.request.Request(url, method=method, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as error:
        json.loads(error.read())  # every refusal is a JSON error body
        return error.code


def test_sixteen_concurrent_drops_of_one_item_over_http_remove_it_once(live_server):
    # given: a carried item and sixteen clients dropping it at once
    player = PlayerFactory()
    kind = ItemKind.objects.create(name="Dropped Knife", category="weapon", sub_kind="knife", weight=1,
                                   price=1, damage=2)
    item = inventory_add(player=player, item_kind=kind)
    token = str(RefreshToken.for_user(player.user).access_token)
    url = f"{live_server.url}/api/v1/me/inventory/{item.pk}/"

    # when
    statuses = _all_at_once([partial(_http, "DELETE", url, token) for _ in range(16)])

    # then
    assert Counter(statuses) == {204: 1, 404: 15}
    assert not InventoryItem.objects.filter(player=player).exists()
