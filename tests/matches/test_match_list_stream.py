"""``GET matches/stream/``: the caller's match list, live (docs/matches.md, "The list, live"), read
incrementally through Django's AsyncClient: a ``matches`` message with the first page of ``GET matches/`` (the
same query) when it opens, and again whenever the list changes (a lobby opened, a seat taken, a start), never
twice the same, and a burst of changes as one message; a bad query is 400 as over REST."""
from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from players.models import Player
from tests.backend.live.sse_reader import AsyncSseReader, Sse, stream_get, stream_open
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES, act, awaited, open_lobby, url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio,
              pytest.mark.usefixtures("embedded_hub")]

STREAM = "/api/v1/matches/stream/"


async def _get(player: Player, query: str = "") -> Any:
    return await stream_get(player, f"{STREAM}{query}")


async def _open(player: Player, query: str = "") -> AsyncSseReader:
    return await stream_open(player, f"{STREAM}{query}")


async def _rest(player: Player, **query: Any) -> dict[str, Any]:
    return await sync_to_async(lambda: api_client(player).get(MATCHES, query).json())()


async def _in(function: Any, *args: Any, **kwargs: Any) -> Any:
    return await sync_to_async(function)(*args, **kwargs)


def _ids(message: Sse) -> list[int]:
    return [item["id"] for item in message.data["results"]]


async def test_the_list_comes_first_then_again_on_each_lobby_change() -> None:
    # given a lobby open when the viewer's stream opens
    viewer, host, guest = await _in(lambda: [PlayerFactory() for _ in range(3)])
    first = (await _in(open_lobby, host))["id"]
    stream = await _open(viewer, "?mode=secret_race")
    opened = await stream.next()
    # then the stream's first message is the REST list's first page, without an id
    assert (opened.event, opened.id) == ("matches", None)
    rest = await _rest(viewer, mode="secret_race")
    assert opened.data == {"results": rest["results"], "more": False}
    # when another lobby opens, then a guest joins the first
    second = (await _in(open_lobby, host, "secret_race"))
    assert second["id"] not in _ids(opened)
    newer = await stream.next()
    assert _ids(newer) == [second["id"], first]
    assert (await _in(lambda: api_client(guest).post(url(first, "join/")))).status_code == 200
    joined = await stream.next()
    # then each change sent the list as it now is (the join: two players seated)
    assert {item["id"]: item["players"] for item in joined.data["results"]} == {second["id"]: 1, first: 2}
    assert joined.data == {"results": (await _rest(viewer, mode="secret_race"))["results"], "more": False}
    await stream.close()


async def test_a_start_moves_the_match_from_the_lobbies_to_the_watchable_list_a_move_sends_nothing() -> None:
    # given a viewer's two streams: the lobbies and the matches to watch (cell capture allows spectators)
    viewer, host, guest = await _in(lambda: [PlayerFactory() for _ in range(3)])
    match_id = (await _in(open_lobby, host, "cell_capture"))["id"]
    assert (await _in(lambda: api_client(guest).post(url(match_id, "join/")))).status_code == 200
    lobbies = await _open(viewer, "?mode=cell_capture")
    watch = await _open(viewer, "?mode=cell_capture&watchable=true")
    assert _ids(await lobbies.next()) == [match_id]
    assert _ids(await watch.next()) == []
    # when the host starts it
    assert (await _in(lambda: api_client(host).post(url(match_id, "start/")))).status_code == 200
    # then it leaves the lobby list and enters the watchable one
    assert _ids(await lobbies.next()) == []
    started = await watch.next()
    assert _ids(started) == [match_id] and started.data["results"][0]["status"] == "active"
    # when the awaited player moves, and then a new lobby opens
    mover = await _in(lambda: awaited([host, guest], match_id))
    state = (await _in(lambda: api_client(mover).get(url(match_id)).json()))
    assert (await _in(act, mover, match_id, state["allowed_actions"][0])).status_code == 200
    later = (await _in(open_lobby, host, "cell_capture"))["id"]
    # then the lobby stream's next message is the new lobby: the move sent none
    assert _ids(await lobbies.next()) == [later]
    await lobbies.close()
    await watch.close()


#: The list streams' quiet time in the burst test (without it, the stream read after the first lobby).
QUIET = 5


async def test_a_burst_of_changes_is_one_message_after_the_quiet_time(settings: Any) -> None:
    # given a viewer's list stream, which waits 5 s after each read before the next
    settings.LIVE_LIST_QUIET_SECONDS = QUIET
    viewer = await _in(PlayerFactory)
    stream = await _open(viewer, "?mode=secret_race")
    assert _ids(await stream.next()) == []
    # when four lobbies open, 0.2 s apart, just after that read (each wakes the stream, read meanwhile)
    following = asyncio.create_task(stream.next())
    opened = []
    for _ in range(4):
        opened.append((await _in(lambda: open_lobby(PlayerFactory())))["id"])
        await asyncio.sleep(0.2)
    # then the next message, after the quiet time, holds all four: one read answered the four wakes
    assert _ids(await following) == opened[::-1]
    await stream.close()


@pytest.mark.parametrize("query", ["?page_size=0", "?page_size=x", "?watchable=maybe", "?status=nonsense"])
async def test_a_bad_query_is_400_invalid_as_over_rest(query: str) -> None:
    viewer = await _in(PlayerFactory)
    response = await _get(viewer, query)
    assert response.status_code == 400
    rest = await sync_to_async(lambda: api_client(viewer).get(f"{MATCHES}{query}"))()
    assert rest.status_code == 400
    streamed, read = response.json()["error"], rest.json()["error"]
    assert streamed["code"] == read["code"] == "invalid"
    assert set(streamed["details"]["fields"]) == set(read["details"]["fields"])


async def test_without_credentials_it_is_401() -> None:
    response = await AsyncClient().get(STREAM)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
