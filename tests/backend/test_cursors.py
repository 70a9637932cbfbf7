"""List cursors are signed: a forged, foreign or out-of-range cursor is 400 ``invalid_cursor``, never a 500.

Issue 11, item 4: ``GET guilds/?cursor=WyJ4IiwxXQ`` (base64 of ``["x",1]``) compared a string with
a number column (a 500 on PostgreSQL); ids beyond 64 bits overflowed SQLite.
"""
from __future__ import annotations

import base64
import json
from collections.abc import Iterator

import pytest
from django.db import transaction
from django.db.models.functions import Lower
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from backend.api.pagination import cursor_scope, encode_cursor
from dungeons.models import Run
from guilds.selectors import GUILD_ORDERINGS, listed_guilds
from players.models import Player
from tests.dungeons.run_helpers import assert_error
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db

LISTS = ["/api/v1/guilds/", "/api/v1/runs/", "/api/v1/runs/lobbies/"]


def _plain(value: object) -> str:
    """A cursor as the server used to issue them: unsigned base64 JSON."""
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


FORGED = [_plain(["x", 1]), _plain([1, 2**70]), _plain([2**70, 1]), _plain([1.5, -1]), _plain(["x", "y"]),
          "WyJ4IiwxXQ", "x:y", "", "::", "%%%"]


@pytest.fixture(scope="module")
def player(django_db_setup, django_db_blocker) -> Iterator[Player]:
    """Three guilds and runs, built once for the module (its tests only read) in a transaction rolled back
    at its end; each test's own transaction is a savepoint in it. The module runs in one worker
    (tests/workers.py)."""
    with django_db_blocker.unblock(), transaction.atomic():
        player = PlayerFactory()
        for n in range(3):
            make_guild(name=f"Guild {n}")
            Run.objects.create(kind="ordinary", host=player, seed=n)
        yield player
        transaction.set_rollback(True)


@pytest.fixture
def client(player: Player) -> APIClient:
    return api_client(player)


@pytest.mark.parametrize("cursor", [c for c in FORGED if c])
@pytest.mark.parametrize("ordering", sorted(GUILD_ORDERINGS))
def test_a_forged_guild_cursor_is_400_in_every_ordering(client, ordering, cursor) -> None:
    response = client.get("/api/v1/guilds/", {"ordering": ordering, "cursor": cursor})
    assert_error(response, 400, "invalid_cursor")


@pytest.mark.parametrize("cursor", [c for c in FORGED if c])
@pytest.mark.parametrize("url", LISTS[1:])
def test_a_forged_run_list_cursor_is_400(client, url, cursor) -> None:
    assert_error(client.get(url, {"cursor": cursor}), 400, "invalid_cursor")


def test_a_cursor_of_one_ordering_is_refused_by_another(client) -> None:
    page = client.get("/api/v1/guilds/", {"ordering": "name", "page_size": 1}).json()
    assert page["next"]
    assert client.get("/api/v1/guilds/", {"ordering": "name", "cursor": page["next"]}).status_code == 200
    for other in ("-name", "activity", "-members_count"):
        assert_error(client.get("/api/v1/guilds/", {"ordering": other, "cursor": page["next"]}), 400,
                     "invalid_cursor")


def test_a_signed_cursor_with_values_no_column_holds_is_still_refused(client) -> None:
    # a leaked SECRET_KEY must not reach the database with an id beyond 64 bits either
    scope = cursor_scope(listed_guilds(), Lower("name"), False)
    for key, pk in (("a", 2**63), ("a", 0), (2**64, 1), (float("inf"), 1), (True, 1), (["a"], 1)):
        cursor = encode_cursor(key, pk, scope=scope)
        response = client.get("/api/v1/guilds/", {"ordering": "name", "cursor": cursor})
        assert_error(response, 400, "invalid_cursor")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cursor=st.text(min_size=1, max_size=80).filter(lambda s: "\x00" not in s))
def test_any_other_cursor_text_is_400(client, cursor) -> None:
    for url in LISTS:
        assert_error(client.get(url, {"cursor": cursor}), 400, "invalid_cursor")


@pytest.mark.parametrize("cursor", [" ", "\t", " \n "])
def test_a_whitespace_cursor_is_400_not_the_first_page(client, cursor) -> None:
    # found by the hypothesis test above: a trimmed cursor used to become "" and serve page one
    for url in LISTS:
        assert_error(client.get(url, {"cursor": cursor}), 400, "invalid_cursor")
