"""The public guild list: what is listed, every ordering both ways, search, keyset pagination."""
from __future__ import annotations

import pytest

from guilds.models import Guild, GuildActivity
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db


@pytest.fixture
def guilds():
    """Five listed guilds with distinct sizes and activities, plus a closed and a disbanded one."""
    made = []
    for index, (name, members, activity) in enumerate(
            [("bravo", 2, 1.5), ("Alpha", 0, 3.0), ("charlie", 4, 0.0), ("Delta", 1, 3.0), ("echo", 3, 0.5)]):
        guild = make_guild(name=name, members=members)
        GuildActivity.objects.filter(guild=guild).update(activity_a=activity)
        made.append(guild)
    closed = make_guild(name="Closed Circle")
    Guild.objects.filter(pk=closed.pk).update(is_open=False)
    gone = make_guild(name="Gone")
    api_client(gone.leader).post(f"/api/v1/guilds/{gone.pk}/disband-vote/")
    return made


def names(response) -> list[str]:
    return [g["name"] for g in response.json()["results"]]


def test_only_open_living_guilds_are_listed(guilds):
    response = api_client(PlayerFactory()).get("/api/v1/guilds/?ordering=name")
    assert names(response) == ["Alpha", "bravo", "charlie", "Delta", "echo"]


def test_list_items_have_the_contract_fields(guilds):
    item = api_client(PlayerFactory()).get("/api/v1/guilds/?ordering=name").json()["results"][0]
    assert {"id", "name", "leader", "members_count", "activity", "rank", "is_open", "is_forming"} <= set(item)
    assert item["is_forming"] is True and item["members_count"] == 1


@pytest.mark.parametrize("ordering, expected", [
    ("name", ["Alpha", "bravo", "charlie", "Delta", "echo"]),
    ("-name", ["echo", "Delta", "charlie", "bravo", "Alpha"]),
    ("members_count", ["Alpha", "Delta", "bravo", "echo", "charlie"]),
    ("-members_count", ["charlie", "echo", "bravo", "Delta", "Alpha"]),
    # ties break on id in the same direction: Alpha was created before Delta
    ("activity", ["charlie", "echo", "bravo", "Alpha", "Delta"]),
    ("-activity", ["Delta", "Alpha", "bravo", "echo", "charlie"]),
])
def test_every_ordering_both_ways(guilds, ordering, expected):
    response = api_client(PlayerFactory()).get(f"/api/v1/guilds/?ordering={ordering}")
    assert names(response) == expected


def test_search_matches_names_ignoring_case(guilds):
    response = api_client(PlayerFactory()).get("/api/v1/guilds/?ordering=name&search=LT")
    assert names(response) == ["Delta"]


@pytest.mark.parametrize("ordering",
                         ["name", "-name", "members_count", "-members_count", "activity", "-activity"])
def test_cursor_pages_walk_every_guild_exactly_once(guilds, ordering):
    client = api_client(PlayerFactory())
    full = names(client.get(f"/api/v1/guilds/?ordering={ordering}"))
    seen, cursor, pages = [], "", 0
    while True:
        body = client.get("/api/v1/guilds/", {"ordering": ordering, "page_size": 2, "cursor": cursor}).json()
        seen += [g["name"] for g in body["results"]]
        pages += 1
        if body["next"] is None:
            break
        cursor = body["next"]
    assert seen == full
    assert pages == 3


@pytest.mark.parametrize("query", ["ordering=rank", "ordering=NAME", "page_size=0", "page_size=101",
                                   "cursor=%%%", "cursor=bm90LWpzb24", "cursor=WyJhIiwgImIiXQ"])
def test_bad_list_parameters_are_400(guilds, query):
    response = api_client(PlayerFactory()).get(f"/api/v1/guilds/?{query}")
    assert response.status_code == 400
    assert response.json()["error"]["code"] in {"invalid", "invalid_cursor"}


def test_the_list_needs_few_queries_whatever_the_page_size(guilds, django_assert_max_num_queries):
    client = api_client(PlayerFactory())
    # auth user + player lookup is not needed here; rules (min size) + the page itself
    with django_assert_max_num_queries(4):
        response = client.get("/api/v1/guilds/?ordering=name&page_size=50")
    assert len(response.json()["results"]) == 5


def test_editing_the_minimum_size_in_the_admin_changes_the_forming_flag(guilds):
    from guilds.models import GuildRules

    client = api_client(PlayerFactory())
    assert [g["is_forming"] for g in client.get("/api/v1/guilds/?ordering=name").json()["results"]] == [
        True, False, False, True, False]
    rules = GuildRules.load()
    rules.min_members = 5
    rules.save()  # saving drops this process's cached copy
    assert [g["is_forming"] for g in client.get("/api/v1/guilds/?ordering=name").json()["results"]] == [
        True, True, False, True, True]


@pytest.mark.parametrize("descending", [True, False])
def test_activity_cursors_are_the_row_activity_and_id_under_the_guild_scope(guilds, descending):
    # Activity lives in GuildActivity, but a cursor is still [activity, guild id] under the scope of
    # the guild list's "activity" key: cursors issued before the move keep working.
    # The token carries its signing time, so the served one is compared by what it decodes to.
    from backend.api.pagination import cursor_scope, decode_cursor, encode_cursor
    from guilds.selectors import listed_guilds

    ordering = "-activity" if descending else "activity"
    scope = cursor_scope(listed_guilds(), "activity", descending)
    client = api_client(PlayerFactory())
    full = client.get(f"/api/v1/guilds/?ordering={ordering}").json()["results"]
    first = client.get("/api/v1/guilds/", {"ordering": ordering, "page_size": 2}).json()
    assert decode_cursor(first["next"], scope=scope) == (full[1]["activity"], full[1]["id"])
    made = encode_cursor(full[1]["activity"], full[1]["id"], scope=scope)
    rest = client.get("/api/v1/guilds/", {"ordering": ordering, "cursor": made, "page_size": 100}).json()
    assert [g["id"] for g in rest["results"]] == [g["id"] for g in full[2:]]
