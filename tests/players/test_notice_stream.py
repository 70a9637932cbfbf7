"""``GET me/stream/`` read incrementally through Django's AsyncClient (SPEC 13; docs/live.md): the user's
notices as SSE (id = seq, event = kind, data = the REST entry), the missed ones first, in order, each once,
then live; resume by ``Last-Event-ID`` or ``?since``; the live edge; never another user's notices."""
from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction
from django.test import AsyncClient
from rest_framework_simplejwt.tokens import RefreshToken

from players.models import Player
from players.notices import NoticeKind, Told, notify
from tests.backend.live.sse_reader import AsyncSseReader, Sse
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio,
              pytest.mark.usefixtures("embedded_hub")]

STREAM = "/api/v1/me/stream/"


async def _open(player: Player, query: str = "", **headers: str) -> AsyncSseReader:
    token = await sync_to_async(lambda: str(RefreshToken.for_user(player.user).access_token))()
    response = await AsyncClient().get(f"{STREAM}{query}", headers={"Authorization": f"Bearer {token}",
                                                                     **headers})
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    return AsyncSseReader(response)


async def _tell(player: Player, *guilds: int) -> None:
    def tell() -> None:
        with transaction.atomic():
            notify([Told(player.pk, NoticeKind.INVITATION, {"guild": g, "name": f"G{g}", "invitation": g})
                    for g in guilds])

    await sync_to_async(tell)()


async def _rest(player: Player, since: int = 0) -> list[dict[str, Any]]:
    def read() -> list[dict[str, Any]]:
        return list(api_client(player).get("/api/v1/me/notices/", {"since": since}).json()["notices"])

    return await sync_to_async(read)()


async def _read(stream: AsyncSseReader, count: int) -> list[Sse]:
    return [await stream.next() for _ in range(count)]


async def test_the_stream_sends_the_missed_notices_then_each_new_one_live() -> None:
    # given a user with two notices
    me = await sync_to_async(PlayerFactory)()
    await _tell(me, 1, 2)
    # when their stream opens after 0 and a third notice comes while it is open
    stream = await _open(me, "?since=0")
    first = await _read(stream, 2)
    await _tell(me, 3)
    live = await stream.next()
    # then it carries all three in order, each as the REST read shows it
    messages = [*first, live]
    assert [(m.id, m.event) for m in messages] == [(1, "invitation"), (2, "invitation"), (3, "invitation")]
    assert [m.data for m in messages] == await _rest(me)
    await stream.close()


async def test_a_step_tells_the_stream_through_the_api() -> None:
    # given an invitee's open stream
    invitee = await sync_to_async(PlayerFactory)()
    guild = await sync_to_async(make_guild)()
    stream = await _open(invitee, "?since=0")
    # when the guild's leader invites them
    reply = await sync_to_async(lambda: api_client(guild.leader).post(
        f"/api/v1/guilds/{guild.pk}/invitations/", {"player": invitee.pk}, format="json"))()
    assert reply.status_code == 201
    # then the invitation arrives
    told = await stream.next()
    assert (told.id, told.event, told.data["data"]["guild"]) == (1, "invitation", guild.pk)
    assert told.data["text"] == f"You are invited to join the guild {guild.name}."
    await stream.close()


async def test_resume_after_last_event_id_sends_what_was_missed_once_in_order() -> None:
    me = await sync_to_async(PlayerFactory)()
    await _tell(me, 1, 2)
    first = await _open(me, "?since=0")
    seen = await _read(first, 2)
    await first.close()
    await _tell(me, 3, 4)
    await _tell(me, 5)
    # Last-Event-ID wins over ?since=
    again = await _open(me, "?since=0", **{"Last-Event-ID": str(seen[-1].id)})
    missed = await _read(again, 3)
    assert [m.id for m in seen + missed] == [1, 2, 3, 4, 5]
    assert [m.data["data"]["guild"] for m in missed] == [3, 4, 5]
    await again.close()
    since = await _open(me, "?since=4")
    assert (await since.next()).id == 5
    await since.close()


async def test_at_the_live_edge_nothing_old_is_sent() -> None:
    # Served synchronously (WSGI, the test client), a stream answers what there is and ends: from the live
    # edge that is nothing, after 1 the rest. (Under ASGI the live edge is taken at the stream's first read,
    # when it opens; what comes after is sent live, as the tests above show.)
    me = await sync_to_async(PlayerFactory)()
    await _tell(me, 1, 2)

    def body(query: dict[str, Any]) -> bytes:
        reply = api_client(me).get(STREAM, query)
        assert reply.status_code == 200 and reply["Content-Type"] == "text/event-stream"
        return bytes(reply.content)

    assert await sync_to_async(body)({}) == b""
    after_one = (await sync_to_async(body)({"since": 1})).decode()
    assert after_one.startswith("id: 2\nevent: invitation\ndata: ") and after_one.count("id: ") == 1


async def test_a_user_never_sees_another_users_notices() -> None:
    me, other = await sync_to_async(PlayerFactory)(), await sync_to_async(PlayerFactory)()
    await _tell(other, 1)
    stream = await _open(me, "?since=0")
    await _tell(other, 2)
    await _tell(me, 3)
    told = await stream.next()
    assert (told.id, told.data["data"]["guild"]) == (1, 3)
    await stream.close()


@pytest.mark.parametrize("bad", ["x", "-1", "1.5"])
async def test_a_non_numeric_event_id_is_a_400(bad: str) -> None:
    me = await sync_to_async(PlayerFactory)()
    token = await sync_to_async(lambda: str(RefreshToken.for_user(me.user).access_token))()
    headers = {"Authorization": f"Bearer {token}", "Last-Event-ID": bad}
    reply = await AsyncClient().get(STREAM, headers=headers)
    assert reply.status_code == 400
    assert reply.json()["error"]["code"] == "invalid_event_id"


async def test_a_stranger_gets_a_401() -> None:
    assert (await AsyncClient().get(STREAM)).status_code == 401
