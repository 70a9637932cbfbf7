"""A run lobby's changes told to its other members (``lobby_changed`` naming the run; docs/live.md): who
joined or left, who chose a starting weapon, a new formation. The player who made the change is not told; the
lobby's page reads the run on these instead of being reloaded by hand."""
from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from players.models import Player
from players.notices import notice_text
from tests.dungeons.run_helpers import API, Party
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def told(party: Party, player: Player) -> list[dict[str, Any]]:
    """The run lobby notices the player has, oldest first (their data)."""
    reply = party.client(player).get(f"{API}/me/notices/")
    assert reply.status_code == 200, reply.json()
    return [n["data"] for n in reply.json()["notices"] if n["kind"] == "lobby_changed"]


def test_joining_and_leaving_tells_the_members_already_there_and_not_the_mover() -> None:
    # given a lobby of a host
    host, guest, third = PlayerFactory(), PlayerFactory(), PlayerFactory()
    party = Party([host, guest, third])
    run_id = party.post(host, "runs/", {"kind": "frenzy"}).json()["id"]
    # when a guest joins, then a third, then the guest leaves
    for who, path in ((guest, "join/"), (third, "join/"), (guest, "leave/")):
        assert party.post(who, f"runs/{run_id}/{path}").status_code == 200
    # then the host heard each change, the guest only the third's joining, the third the guest's leaving
    about = {"run": run_id, "kind": "frenzy"}
    joined_third = {**about, "change": "joined", "player": third.pk, "players": 3}
    left = {**about, "change": "left", "player": guest.pk, "players": 2}
    joined_guest = {**about, "change": "joined", "player": guest.pk, "players": 2}
    assert told(party, host) == [joined_guest, joined_third, left]
    assert told(party, guest) == [joined_third]
    assert told(party, third) == [left]


def test_a_weapon_choice_and_a_formation_tell_the_others() -> None:
    host, guest = PlayerFactory(), PlayerFactory()
    party = Party([host, guest])
    run_id = party.post(host, "runs/", {"kind": "ordinary"}).json()["id"]
    assert party.post(guest, f"runs/{run_id}/join/").status_code == 200
    # when the guest refuses the junk dealer's weapons and puts themself in front
    assert party.post(guest, f"runs/{run_id}/weapon/", {"item_kind": None}).status_code == 200
    reply = party.client(guest).put(f"{API}/runs/{run_id}/formation/", {"players": [guest.pk, host.pk]},
                                    format="json")
    assert reply.status_code == 200, reply.json()
    # then the host heard both; the guest heard nothing of their own doing
    about = {"run": run_id, "kind": "ordinary", "player": guest.pk, "players": 2}
    assert [n["change"] for n in told(party, host)] == ["joined", "weapon_chosen", "formation"]
    assert told(party, host)[1:] == [{**about, "change": "weapon_chosen"}, {**about, "change": "formation"}]
    assert told(party, guest) == []


def test_the_last_one_out_tells_nobody_and_a_refused_join_tells_nobody() -> None:
    host, stranger = PlayerFactory(), PlayerFactory()
    party = Party([host, stranger])
    run_id = party.post(host, "runs/", {"kind": "ordinary"}).json()["id"]
    assert party.post(host, f"runs/{run_id}/join/").status_code == 409  # already in the party
    assert party.post(host, f"runs/{run_id}/leave/").status_code == 200  # the lobby is cancelled
    assert party.post(stranger, f"runs/{run_id}/join/").status_code == 404  # no longer a lobby
    assert told(party, host) == [] and told(party, stranger) == []


@pytest.mark.parametrize(("change", "english", "russian"), [
    ("joined", "A player joined the lobby of run 7.", "Игрок вошёл в лобби похода 7."),
    ("left", "A player left the lobby of run 7.", "Игрок вышел из лобби похода 7."),
    ("weapon_chosen", "A player of the lobby of run 7 chose a starting weapon.",
     "Игрок из лобби похода 7 выбрал стартовое оружие."),
    ("formation", "The formation of the lobby of run 7 changed.", "Построение в лобби похода 7 изменилось."),
])
def test_a_run_lobby_notice_speaks_english_and_russian(change: str, english: str, russian: str) -> None:
    data = {"run": 7, "kind": "ordinary", "change": change, "player": 3, "players": 2}
    with translation.override("en"):
        assert notice_text("lobby_changed", data) == english
    with translation.override("ru"):
        assert notice_text("lobby_changed", data) == russian
