"""``GET runs/lobbies/stream/``: the open lobbies, live (docs/runs.md, "The open lobbies, live"), read
incrementally through Django's AsyncClient: a ``lobbies`` message with the first page of ``GET runs/lobbies/``
when it opens, and again when a lobby opens, changes its host, starts or is cancelled; what wakes it
(``runs:lobbies`` on the hub) and what does not (a join, a weapon choice); a bad query is 400 as over REST."""
from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from backend.live import tap
from dungeons.runs.lobby import LOBBIES_CHANNEL
from players.models import Player
from tests.backend.live.sse_reader import AsyncSseReader, Sse, stream_get, stream_open
from tests.dungeons.run_helpers import API, Party, bestiary, small_dungeons
from tests.factories import PlayerFactory, api_client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio,
              pytest.mark.usefixtures("embedded_hub")]

STREAM = f"{API}/runs/lobbies/stream/"


async def _get(player: Player, query: str = "") -> Any:
    return await stream_get(player, f"{STREAM}{query}")


async def _open(player: Player, query: str = "") -> AsyncSseReader:
    return await stream_open(player, f"{STREAM}{query}")


def _post(party: Party, who: Player, path: str, data: dict[str, Any] | None = None) -> Any:
    reply = party.post(who, path, data)
    assert reply.status_code in (200, 201), reply.json()
    return reply.json()


def _listed(message: Sse) -> list[tuple[int, str]]:
    return [(item["id"], item["host_username"]) for item in message.data["results"]]


async def test_the_lobbies_come_first_then_again_when_one_opens_changes_host_or_is_cancelled() -> None:
    # given one open lobby of ann's when bob's stream opens
    names = ("ann", "cid", "bob")
    ann, cid, bob = await sync_to_async(lambda: [PlayerFactory(user__username=name) for name in names])()
    party = await sync_to_async(Party)([ann, cid, bob])
    first = (await sync_to_async(_post)(party, ann, "runs/", {"kind": "ordinary"}))["id"]
    stream = await _open(bob)
    opened = await stream.next()
    # then the first message is the REST list's first page, without an id
    assert (opened.event, opened.id) == ("lobbies", None)
    rest = await sync_to_async(lambda: api_client(bob).get(f"{API}/runs/lobbies/").json())()
    assert opened.data == {"results": rest["results"], "more": False}
    # when cid opens a lobby, then leaves it (it is cancelled)
    second = (await sync_to_async(_post)(party, cid, "runs/", {"kind": "frenzy"}))["id"]
    assert _listed(await stream.next()) == [(second, "cid"), (first, "ann")]
    await sync_to_async(_post)(party, cid, f"runs/{second}/leave/")
    assert _listed(await stream.next()) == [(first, "ann")]
    # when cid joins ann's, and ann leaves it (cid becomes its host)
    await sync_to_async(_post)(party, cid, f"runs/{first}/join/")
    await sync_to_async(_post)(party, ann, f"runs/{first}/leave/")
    # then the join sent nothing (the list did not change), the host's leaving did
    assert _listed(await stream.next()) == [(first, "cid")]
    await stream.close()


@pytest.fixture
def published(settings: Any) -> Any:
    seen: list[str] = []
    undo = tap(seen.append)
    yield seen
    undo()


def test_what_wakes_the_lobbies_stream(published: list[str]) -> None:
    # a lobby opened wakes it; a join, a weapon choice and a formation do not; the start does
    small_dungeons(rooms=2)
    bestiary()
    ann, bob = PlayerFactory(), PlayerFactory()
    party = Party([ann, bob])
    run_id = _post(party, ann, "runs/", {"kind": "ordinary"})["id"]
    assert published.count(LOBBIES_CHANNEL) == 1
    _post(party, bob, f"runs/{run_id}/join/")
    for who in (ann, bob):
        _post(party, who, f"runs/{run_id}/weapon/", {"item_kind": None})
    assert party.client(ann).put(f"{API}/runs/{run_id}/formation/", {"players": [bob.pk, ann.pk]},
                                 format="json").status_code == 200
    assert published.count(LOBBIES_CHANNEL) == 1
    # a refused start (not the host) wakes nothing; the host's start does
    assert party.post(bob, f"runs/{run_id}/start/").status_code == 403
    assert published.count(LOBBIES_CHANNEL) == 1
    _post(party, ann, f"runs/{run_id}/start/")
    assert published.count(LOBBIES_CHANNEL) == 2


@pytest.mark.parametrize("query", ["?page_size=0", "?page_size=101", "?page_size=x"])
async def test_a_bad_query_is_400_invalid_as_over_rest(query: str) -> None:
    viewer = await sync_to_async(PlayerFactory)()
    response = await _get(viewer, query)
    rest = await sync_to_async(lambda: api_client(viewer).get(f"{API}/runs/lobbies/{query}"))()
    assert response.status_code == rest.status_code == 400
    streamed, read = response.json()["error"], rest.json()["error"]
    assert streamed["code"] == read["code"] == "invalid"
    assert set(streamed["details"]["fields"]) == set(read["details"]["fields"]) == {"page_size"}


def test_both_list_streams_are_in_the_openapi_schema_with_their_own_parameters(admin_client: Any) -> None:
    schema = admin_client.get("/api/schema/", {"format": "json"}).json()
    for path, own in (("/api/v1/runs/lobbies/stream/", {"page_size"}),
                      ("/api/v1/matches/stream/", {"mode", "status", "watchable", "page_size"})):
        stream = schema["paths"][path]["get"]
        assert "text/event-stream" in stream["responses"]["200"]["content"]
        assert own | {"ticket"} <= {p["name"] for p in stream["parameters"]}
        assert "cursor" not in {p["name"] for p in stream["parameters"]}
        assert {"400", "401", "429"} <= set(stream["responses"])
