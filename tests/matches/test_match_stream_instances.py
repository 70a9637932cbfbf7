"""Two real server instances (uvicorn processes) on one PostgreSQL database and one Redis: a move made
through one reaches a stream held by the other, through Redis pub/sub (SPEC 13, "across instances")."""
from __future__ import annotations

from pathlib import Path

import pytest
from rest_framework_simplejwt.tokens import RefreshToken

from matches.models import Match
from players.models import Player
from tests.backend.live.servers import SocketSseReader, database_url_of_test, post_json, server_env, uvicorn
from tests.matches.helpers import awaited, read, started, url

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _bearer(player: Player) -> dict[str, str]:
    return {"Authorization": f"Bearer {RefreshToken.for_user(player.user).access_token}"}


def test_a_move_made_through_one_instance_reaches_a_stream_held_by_the_other(tmp_path: Path) -> None:
    # given a started match of a real mode (the servers know no test mode), and two server instances
    # sharing the database and Redis
    people, match = started("cell_capture")
    env = server_env(database_url_of_test())
    with uvicorn(env, tmp_path / "a.log") as first, uvicorn(env, tmp_path / "b.log") as second:
        mover = awaited(people, match.pk)
        watcher = next(p for p in people if p.pk != mover.pk)
        # and the other seat's stream held by the second instance, at the live edge
        stream = SocketSseReader(second, url(match.pk, "stream/"), _bearer(watcher))
        assert stream.response.status == 200
        assert stream.response.getheader("X-Accel-Buffering") == "no"
        header = stream.until("match")[-1]
        # when the mover acts through the first instance
        action = read(mover, match.pk)["allowed_actions"][0]
        status, answer = post_json(first, url(match.pk, "actions/"),
                                   {"turn": header.data["turn"], "action": action, "idempotency_key": "k1"},
                                   _bearer(mover))
        assert status == 200, answer
        # then the watcher's stream on the second instance gets the move's public event and the next turn
        arrived = stream.until("match")
        stream.close()
    assert [m.id for m in arrived if m.id is not None] == [e["seq"] for e in answer["events"]]
    assert arrived[-1].data["turn"] == header.data["turn"] + 1
    assert arrived[-1].data["awaiting"] == Match.objects.get(pk=match.pk).awaiting_id
