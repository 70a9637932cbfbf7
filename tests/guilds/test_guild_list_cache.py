"""The guild list's cached pages (guilds/listcache.py): never stale, never foreign, never fatal.

Every test here commits for real (``transaction=True``): kept pages are bypassed inside an atomic
block, and the generation counts a change only when it commits.
"""
from __future__ import annotations

import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from guilds import listcache, selectors
from guilds.models import Guild, GuildRules, Membership
from guilds.services import (
    guild_activity_fold,
    guild_activity_recompute_all,
    guild_person_runs_record,
    guild_rank_add,
)
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db(transaction=True)

ORDERINGS = ["name", "-name", "members_count", "-members_count", "activity", "-activity"]


@pytest.fixture(autouse=True)
def list_cache(settings):
    settings.GUILD_LIST_CACHE = True
    listcache.forget_pages()  # a page kept by an earlier test's database must not count here
    yield
    listcache.forget_pages()


def _queries(client) -> list[dict[str, Any]]:
    """Every ordering's first page and, through its cursor, its second page (2 rows a page), and a search."""
    queries: list[dict[str, Any]] = [{"search": "guild"}]
    for ordering in ORDERINGS:
        queries.append({"ordering": ordering, "page_size": 2})
        with override_settings(GUILD_LIST_CACHE=False):
            cursor = client.get("/api/v1/guilds/", queries[-1]).json()["next"]
        if cursor:
            queries.append({"ordering": ordering, "page_size": 2, "cursor": cursor})
    return queries


def _lists(client, queries) -> list[bytes]:
    responses = [client.get("/api/v1/guilds/", query) for query in queries]
    assert all(r.status_code == 200 for r in responses), [r.content for r in responses]
    return [r.content for r in responses]


def _same_rows(pages: list[bytes]) -> list[Any]:
    """The pages' rows and their cursors' rows: a cursor is signed with the time it was made."""
    shown = []
    for page in pages:
        body = json.loads(page)
        shown.append((body["results"], body["next"] and body["next"].split(":")[0]))
    return shown


def _fresh(client, queries) -> list[bytes]:
    with override_settings(GUILD_LIST_CACHE=False):
        return _lists(client, queries)


class ListWatcher:
    """Warms the cache with every query, lets a change happen, then checks that the cached list
    equals a freshly computed one and that the change did show in the list."""

    def __init__(self) -> None:
        self.client = api_client(PlayerFactory())

    def check(self, change, *, shows: bool = True) -> None:
        queries = _queries(self.client)
        before = _lists(self.client, queries)
        assert _lists(self.client, queries) == before  # served from the cache now
        change()
        after = _lists(self.client, queries)
        fresh = _fresh(self.client, queries)
        assert _same_rows(after) == _same_rows(fresh), f"stale page after {change.__name__}"
        if shows:
            assert _same_rows(after) != _same_rows(before), \
                f"{change.__name__} changed nothing in the list: not a test of it"


def _aged(guild: Guild, days: int = 2) -> None:
    """Members joined long enough ago to leave (membership rows are not in the list)."""
    Membership.objects.filter(guild=guild).update(joined_at=timezone.now() - timedelta(days=days))


def _admin_change(admin_client, guild: Guild, **changes: Any) -> None:
    """POST the guild's admin change form with ``changes``, as a game designer would."""
    guild.refresh_from_db()
    memberships = list(guild.memberships.order_by("left_at", "joined_at"))
    votes = list(guild.disband_votes.all())
    data: dict[str, Any] = {"name": guild.name, "description": guild.description, "leader": guild.leader_id,
                            "rank": guild.rank, **({"is_open": "on"} if guild.is_open else {})}
    for prefix, rows in (("memberships", memberships), ("disband_votes", votes)):
        data.update({f"{prefix}-TOTAL_FORMS": len(rows), f"{prefix}-INITIAL_FORMS": len(rows),
                     f"{prefix}-MIN_NUM_FORMS": 0, f"{prefix}-MAX_NUM_FORMS": 1000})
        for index, row in enumerate(rows):
            data.update({f"{prefix}-{index}-id": row.pk, f"{prefix}-{index}-guild": guild.pk})
    for field, value in changes.items():
        if field == "is_open":
            data.pop("is_open", None)
            if value:
                data["is_open"] = "on"
        else:
            data[field] = value
    response = admin_client.post(reverse("admin:guilds_guild_change", args=[guild.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]


def test_every_writer_of_a_listed_field_invalidates_the_cached_pages(admin_client):
    # given: a few guilds and a player watching the list (every ordering, two pages, a search)
    watcher = ListWatcher()
    founder, joiner, invitee = PlayerFactory(), PlayerFactory(), PlayerFactory()
    alpha = make_guild(name="Alpha guild", members=3)
    beta = make_guild(name="Beta guild", members=1)
    make_guild(name="Gamma guild", members=2)
    lonely = make_guild(name="Lonely guild")
    state: dict[str, Any] = {}

    def create() -> None:
        response = api_client(founder).post("/api/v1/guilds/", {"name": "Delta guild"}, format="json")
        assert response.status_code == 201
        state["delta"] = response.json()["id"]

    def close() -> None:
        assert api_client(alpha.leader).patch(f"/api/v1/guilds/{alpha.pk}/", {"is_open": False},
                                              format="json").status_code == 200

    def reopen() -> None:
        assert api_client(alpha.leader).patch(f"/api/v1/guilds/{alpha.pk}/", {"is_open": True},
                                              format="json").status_code == 200

    def join_by_application() -> None:
        application = api_client(joiner).post(f"/api/v1/guilds/{beta.pk}/applications/").json()
        assert api_client(beta.leader).post(
            f"/api/v1/guilds/{beta.pk}/applications/{application['id']}/approve/").status_code == 200

    def join_by_invitation() -> None:
        invitation = api_client(beta.leader).post(f"/api/v1/guilds/{beta.pk}/invitations/",
                                                  {"player": invitee.pk}, format="json").json()
        assert api_client(invitee).post(f"/api/v1/invitations/{invitation['id']}/accept/").status_code == 200

    def hand_over_leadership() -> None:
        assert api_client(beta.leader).post(f"/api/v1/guilds/{beta.pk}/leader/", {"player": joiner.pk},
                                            format="json").status_code == 200

    def kick() -> None:
        assert api_client(joiner).post(f"/api/v1/guilds/{beta.pk}/kick/", {"player": invitee.pk},
                                       format="json").status_code == 200

    def leave() -> None:
        _aged(alpha)
        member = (Membership.objects.filter(guild=alpha, left_at__isnull=True)
                  .exclude(player=alpha.leader).first())
        assert api_client(member.player).post(f"/api/v1/guilds/{alpha.pk}/leave/").status_code == 200

    def disband() -> None:
        assert api_client(lonely.leader).post(f"/api/v1/guilds/{lonely.pk}/disband-vote/").status_code == 200

    def rank_from_a_rescue() -> None:
        guild_rank_add(guild_id=beta.pk, points=3)

    def activity_fold() -> None:
        guild_activity_recompute_all()
        guild_person_runs_record(guild_id=alpha.pk, at=timezone.now(), count=28)
        guild_activity_fold()

    def activity_full_recompute() -> None:
        guild_person_runs_record(guild_id=beta.pk, at=timezone.now(), count=14)
        guild_activity_recompute_all()

    def rename_in_the_admin() -> None:
        _admin_change(admin_client, Guild.objects.get(pk=state["delta"]), name="Zeta guild")

    def close_in_the_admin() -> None:
        _admin_change(admin_client, Guild.objects.get(pk=state["delta"]), is_open=False)

    def leader_renamed() -> None:
        user = Guild.objects.get(pk=beta.pk).leader.user  # the leader since the hand-over
        user.username = "renamed_leader"
        user.save()

    def leader_renamed_in_the_user_admin() -> None:
        user = get_user_model().objects.get(username="renamed_leader")
        response = admin_client.post(reverse("admin:auth_user_change", args=[user.pk]), {
            "username": "renamed_again", "password": user.password, "is_active": "on",
            "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00", "initial-date_joined_0": "2026-01-01",
            "initial-date_joined_1": "00:00:00"})
        assert response.status_code == 302, response.content.decode()[:2000]

    def minimum_size_in_the_admin() -> None:
        rules = GuildRules.load()
        rules.min_members = 4
        rules.save()

    def deleted_in_the_admin() -> None:
        Guild.objects.get(name="Gamma guild").delete()

    for change in (create, close, reopen, join_by_application, join_by_invitation, hand_over_leadership, kick,
                   leave, disband, rank_from_a_rescue, activity_fold, activity_full_recompute,
                   rename_in_the_admin, close_in_the_admin, leader_renamed, leader_renamed_in_the_user_admin,
                   minimum_size_in_the_admin, deleted_in_the_admin):
        watcher.check(change)


def test_the_same_query_gives_every_player_the_same_bytes_and_other_queries_never_share_a_page():
    make_guild(name="Stone keepers")
    for index in (3, 0, 4, 1, 2):  # created out of name order: -activity (ties by -id) is not -name
        make_guild(name=f"Iron {index}", members=index % 3)
    first, second = api_client(PlayerFactory()), api_client(PlayerFactory())
    queries = [{}, {"ordering": "name"}, {"ordering": "name", "page_size": 2}, {"ordering": "-name"},
               {"search": "iron"}, {"search": "stone"}, {"search": "iron", "ordering": "name"},
               {"ordering": "name", "page_size": 3}]
    pages = _lists(first, queries)
    assert _lists(second, queries) == pages  # cached bytes, cursors included
    assert _same_rows(pages) == _same_rows(_fresh(second, queries))
    assert len(set(pages)) == len(pages)  # distinct queries, distinct bytes: no page serves another query
    # a cursor of one ordering is refused by another even when its page of the first was cached
    cursor = json.loads(pages[2])["next"]
    response = first.get("/api/v1/guilds/", {"ordering": "name", "page_size": 2, "cursor": cursor})
    assert response.status_code == 200
    refused = second.get("/api/v1/guilds/", {"ordering": "-activity", "page_size": 2, "cursor": cursor})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_cursor"
    # a response with an indent is another rendering, never the compact bytes
    indented = first.get("/api/v1/guilds/", HTTP_ACCEPT="application/json; indent=2")
    assert indented.content != pages[0] and json.loads(indented.content) == json.loads(pages[0])


def test_a_page_of_another_signing_key_is_never_served(settings):
    for index in range(3):
        make_guild(name=f"Key guild {index}")
    client = api_client(PlayerFactory())
    page = client.get("/api/v1/guilds/", {"page_size": 1})
    cursor = page.json()["next"]
    assert client.get("/api/v1/guilds/", {"page_size": 1, "cursor": cursor}).status_code == 200
    settings.SECRET_KEY = "another-" + settings.SECRET_KEY  # a key rotation without fallbacks
    client = api_client(PlayerFactory())  # a token of the new key
    assert client.get("/api/v1/guilds/", {"page_size": 1, "cursor": cursor}).status_code == 400
    assert client.get("/api/v1/guilds/", {"page_size": 1}).json()["next"] != cursor


def test_bad_parameters_are_400_with_the_cache_on_and_store_nothing():
    make_guild(name="Only guild")
    client = api_client(PlayerFactory())
    for query in ({"ordering": "rank"}, {"page_size": 0}, {"cursor": "forged"}):
        for _ in range(2):
            assert client.get("/api/v1/guilds/", query).status_code == 400


def test_a_reader_that_read_before_a_commit_and_stored_after_it_is_never_served():
    # given: a reader that reads the generation, runs its query, and only then (after a writer
    # committed and replaced the generation) stores its old page
    guild = make_guild(name="Racing guild")
    key = listcache.page_key(("race",))

    def render() -> bytes:
        return JSONRenderer().render(selectors.guild_list().items)

    def slow_render() -> bytes:
        old = render()
        assert api_client(guild.leader).patch(f"/api/v1/guilds/{guild.pk}/", {"is_open": False},
                                              format="json").status_code == 200
        return old

    stale = listcache.cached_bytes(key, slow_render, generation=listcache.current_generation())
    assert b"Racing guild" in stale
    # then: the next reader does not get the kept old page
    fresh = listcache.cached_bytes(key, render, generation=listcache.current_generation())
    assert b"Racing guild" not in fresh
    generation = listcache.current_generation()
    assert listcache.cached_bytes(key, lambda: b"never rendered", generation=generation) == fresh


def test_a_write_that_rolls_back_keeps_the_pages_and_a_commit_drops_them():
    make_guild(name="Steady guild")
    key = listcache.page_key(("rollback",))

    def page(body: bytes) -> bytes:
        return listcache.cached_bytes(key, lambda: body, generation=listcache.current_generation())

    assert page(b"one") == b"one"
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        listcache.guild_list_changed()
        raise RuntimeError("rolled back")
    assert page(b"two") == b"one"
    with transaction.atomic():
        listcache.guild_list_changed()
        assert page(b"inside") == b"inside"  # atomic blocks bypass the pages
    assert page(b"three") == b"three"


def test_without_the_generation_row_nothing_is_kept_and_the_next_change_makes_it():
    from guilds.models import GuildListGeneration

    guild = make_guild(name="Rowless guild")
    GuildListGeneration.objects.all().delete()
    client = api_client(PlayerFactory())
    assert b"Rowless guild" in client.get("/api/v1/guilds/").content
    assert api_client(guild.leader).patch(f"/api/v1/guilds/{guild.pk}/", {"is_open": False},
                                          format="json").status_code == 200
    assert GuildListGeneration.objects.get(pk=1).value > 10**18  # made by the first change, from the clock
    assert b"Rowless guild" not in client.get("/api/v1/guilds/").content


def test_a_kept_page_costs_only_the_callers_own_user_query(django_assert_num_queries):
    make_guild(name="Quiet guild", members=2)
    client = api_client(PlayerFactory())
    first = client.get("/api/v1/guilds/?ordering=name")
    with django_assert_num_queries(1):  # the JWT user lookup, which also reads the generation
        again = client.get("/api/v1/guilds/?ordering=name")
    assert again.content == first.content


def test_a_session_caller_reads_the_generation_with_one_more_query(admin_client, django_assert_num_queries):
    make_guild(name="Session guild")
    first = admin_client.get("/api/v1/guilds/", HTTP_ACCEPT="application/json")
    # the session, its user, the generation, and (issue 24) the forming threshold: a session's user query
    # does not read the settings token, so the rules' row is read rather than trusted from a copy
    with django_assert_num_queries(4):
        again = admin_client.get("/api/v1/guilds/", HTTP_ACCEPT="application/json")
    assert again.content == first.content


def test_the_list_does_not_need_the_cache_server(settings):
    guild = make_guild(name="Weather guild")
    client = api_client(PlayerFactory())
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
                                   "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
    assert b"Weather guild" in client.get("/api/v1/guilds/").content
    assert api_client(guild.leader).patch(f"/api/v1/guilds/{guild.pk}/", {"is_open": False},
                                          format="json").status_code == 200
    assert b"Weather guild" not in client.get("/api/v1/guilds/").content


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.postgres
def test_concurrent_readers_never_serve_a_page_older_than_a_finished_write():
    """Real concurrent requests on PostgreSQL: readers hammer the list (storing pages, some from
    snapshots older than a write) while a leader toggles the guild open and closed; after each
    toggle returns, a new request must show it."""
    guild = make_guild(name="Flicker guild")
    for index in range(3):
        make_guild(name=f"Other guild {index}")
    leader = api_client(guild.leader)
    stop = threading.Event()
    errors: list[str] = []

    def reader() -> None:
        from django.db import connection

        client = _client_for(viewer_token)
        try:
            while not stop.is_set():
                if client.get("/api/v1/guilds/").status_code != 200:
                    errors.append("reader got a non-200")
        finally:
            connection.close()

    viewer = PlayerFactory()
    viewer_token = _token(viewer)
    threads = [threading.Thread(target=reader) for _ in range(4)]
    for thread in threads:
        thread.start()
    try:
        check = _client_for(viewer_token)
        for round_ in range(12):
            is_open = round_ % 2 == 1
            assert leader.patch(f"/api/v1/guilds/{guild.pk}/", {"is_open": is_open},
                                format="json").status_code == 200
            listed = b"Flicker guild" in check.get("/api/v1/guilds/").content
            assert listed == is_open, f"round {round_}: a page from before the write was served"
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    assert not errors


def _token(player) -> str:
    from rest_framework_simplejwt.tokens import RefreshToken

    return str(RefreshToken.for_user(player.user).access_token)


def _client_for(token: str):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def test_the_list_is_not_cached_where_the_setting_is_off(settings):
    settings.GUILD_LIST_CACHE = False
    make_guild(name="Uncached guild")
    key = listcache.page_key(("off",))
    generation = listcache.current_generation()
    assert listcache.cached_bytes(key, lambda: b"a", generation=generation) == b"a"
    assert listcache.cached_bytes(key, lambda: b"b", generation=generation) == b"b"


def test_at_most_the_configured_number_of_pages_is_kept(settings):
    settings.GUILD_LIST_CACHE_PAGES = 2
    generation = listcache.current_generation()
    for name in ("a", "b", "c"):
        listcache.cached_bytes(listcache.page_key((name,)), lambda name=name: name.encode(),
                               generation=generation)
    again = listcache.cached_bytes(listcache.page_key(("a",)), lambda: b"again", generation=generation)
    assert again == b"again"
    assert listcache.cached_bytes(listcache.page_key(("c",)), lambda: b"again", generation=generation) == b"c"


# --- the kept-page shortcut (listcache.kept_response): DRF's dispatch skipped, the answer the same --

def _answer(response) -> tuple[int, bytes, dict[str, str]]:
    return response.status_code, response.content, dict(response.items())


@pytest.fixture
def dispatches(monkeypatch) -> list[str]:
    """The requests that went through DRF's full path (``APIView.initial``) of the list view."""
    from guilds.apis import GuildListCreateApi

    seen: list[str] = []
    full_initial = GuildListCreateApi.initial

    def initial(self, request, *args, **kwargs):
        seen.append(request.META.get("QUERY_STRING", ""))
        return full_initial(self, request, *args, **kwargs)

    monkeypatch.setattr(GuildListCreateApi, "initial", initial)
    return seen


def test_a_kept_page_skips_drfs_dispatch_and_answers_as_the_full_path(dispatches):
    for index in range(3):
        make_guild(name=f"Shortcut guild {index}", members=index)
    client = api_client(PlayerFactory())
    for query, accept in (("ordering=name&page_size=2", "application/json"), ("", "application/json"),
                          ("", "application/json; indent=2"), ("ordering=-members_count", "*/*")):
        full = client.get(f"/api/v1/guilds/?{query}", HTTP_ACCEPT=accept)
        assert full.status_code == 200 and dispatches[-1] == query
        calls = len(dispatches)
        kept = client.get(f"/api/v1/guilds/?{query}", HTTP_ACCEPT=accept)
        assert len(dispatches) == calls, f"{query!r} {accept!r}: the kept page went through DRF's dispatch"
        assert _answer(kept) == _answer(full)  # status, bytes and every header
        with override_settings(GUILD_LIST_CACHE=False):
            computed = _answer(client.get(f"/api/v1/guilds/?{query}", HTTP_ACCEPT=accept))
        assert computed[::2] == _answer(kept)[::2]  # status and headers (a cursor carries its time)
    indented = client.get("/api/v1/guilds/", HTTP_ACCEPT="application/json; indent=2").content
    assert indented != client.get("/api/v1/guilds/", HTTP_ACCEPT="application/json").content  # another page
    # a HEAD, a POST and an OPTIONS are never answered from a kept page
    calls = len(dispatches)
    assert client.head("/api/v1/guilds/").status_code == 200
    assert client.options("/api/v1/guilds/").status_code == 200
    assert len(dispatches) == calls + 2


def _refused_headers(player) -> dict[str, str]:
    """Authorization headers that simplejwt refuses, each for its own reason (and one it may not)."""
    import time_machine
    from rest_framework_simplejwt.tokens import AccessToken, RefreshToken

    inactive = PlayerFactory()
    inactive.user.is_active = False
    inactive.user.save(update_fields=["is_active"])
    deleted = PlayerFactory()
    deleted_token = str(AccessToken.for_user(deleted.user))
    deleted.user.delete()
    with time_machine.travel(timezone.now() - timedelta(days=2)):
        expired = str(AccessToken.for_user(player.user))
    valid = str(AccessToken.for_user(player.user))
    no_user = AccessToken.for_user(player.user)
    del no_user["user_id"]
    padded = AccessToken.for_user(player.user)
    padded["user_id"] = "0042"  # user 42 to the ORM, whoever that is
    headers = {
        "an empty header": "", "another scheme": f"Basic {valid}", "no token": "Bearer",
        "three parts": f"Bearer {valid} x", "garbage": "Bearer not.a.jwt",
        "a tampered signature": f"Bearer {valid[:-3]}abc", "expired": f"Bearer {expired}",
        "a refresh token": f"Bearer {RefreshToken.for_user(player.user)}",
        "an inactive user": f"Bearer {AccessToken.for_user(inactive.user)}",
        "a deleted user": f"Bearer {deleted_token}", "no user claim": f"Bearer {no_user}",
        "a zero-padded user id": f"Bearer {padded}",
    }
    return headers


def test_a_kept_page_is_refused_exactly_as_the_full_path_refuses(dispatches):
    make_guild(name="Guarded guild")
    player = PlayerFactory()
    client = api_client(player)
    assert client.get("/api/v1/guilds/").status_code == 200
    assert client.get("/api/v1/guilds/").status_code == 200  # kept, for every header below
    from rest_framework.test import APIClient

    for reason, header in _refused_headers(player).items():
        anyone = APIClient()
        extra = {"HTTP_AUTHORIZATION": header} if header else {}
        with override_settings(GUILD_LIST_CACHE=False):
            full = _answer(anyone.get("/api/v1/guilds/", **extra))
        kept = _answer(anyone.get("/api/v1/guilds/", **extra))
        assert kept == full, f"{reason}: {kept[:2]} != {full[:2]}"
        if reason != "a zero-padded user id":
            assert full[0] == 401, f"{reason}: {full[:2]}"
    assert _answer(APIClient().get("/api/v1/guilds/"))[0] == 401  # no header at all


def test_a_kept_page_serves_only_its_exact_query_and_bad_parameters_stay_400():
    for index in range(3):
        make_guild(name=f"Exact guild {index}")
    client = api_client(PlayerFactory())
    first = client.get("/api/v1/guilds/", {"page_size": 1}).json()
    cursor = first["next"]
    assert client.get("/api/v1/guilds/", {"page_size": 1, "cursor": cursor}).status_code == 200
    assert client.get("/api/v1/guilds/", {"page_size": 1, "cursor": cursor}).status_code == 200  # kept
    for bad in ({"page_size": 1, "cursor": cursor + "x"}, {"page_size": 1, "cursor": cursor[:-1]},
                {"page_size": 1, "cursor": cursor, "ordering": "name"}, {"page_size": 0, "cursor": cursor},
                {"page_size": 1, "cursor": cursor, "ordering": "rank"}):
        for _ in range(2):
            with override_settings(GUILD_LIST_CACHE=False):
                full = _answer(client.get("/api/v1/guilds/", bad))
            assert full[0] == 400
            assert _answer(client.get("/api/v1/guilds/", bad)) == full


def test_a_kept_page_is_not_served_once_its_caller_is_deactivated():
    make_guild(name="Door guild")
    player = PlayerFactory()
    client = api_client(player)
    assert client.get("/api/v1/guilds/").status_code == 200
    assert client.get("/api/v1/guilds/").status_code == 200
    player.user.is_active = False
    player.user.save(update_fields=["is_active"])
    refused = _answer(client.get("/api/v1/guilds/"))
    with override_settings(GUILD_LIST_CACHE=False):
        assert refused == _answer(client.get("/api/v1/guilds/"))
    assert refused[0] == 401


def test_the_shortcut_replicates_exactly_the_list_views_auth_permissions_and_throttles():
    """``listcache.kept_response`` answers a kept page without DRF's dispatch: it checks the bearer
    JWT as simplejwt's ``JWTAuthentication`` does, which is all that ``IsAuthenticated`` and an
    empty throttle list ask. A view change here (another permission, a throttle, another first
    authenticator) must be mirrored in the shortcut, so it fails this test first."""
    from rest_framework.permissions import IsAuthenticated
    from rest_framework_simplejwt.authentication import JWTAuthentication

    from guilds.apis import GuildListCreateApi

    view = GuildListCreateApi()
    assert [type(p) for p in view.get_permissions()] == [IsAuthenticated]
    assert view.get_throttles() == []
    assert isinstance(view.get_authenticators()[0], JWTAuthentication)
