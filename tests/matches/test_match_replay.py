"""For every registered mode: a whole game played over the API (random legal actions, some sent out of
turn where the mode allows it, some turns timed out where the mode has deadlines) replays from the
stored seed, settings and actions to exactly the stored final state."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from matches.models import Match
from matches.modes import get_mode, registered_modes, replay
from players.models import Player
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES, url

pytestmark = pytest.mark.django_db

# Small boards keep a random game short; other modes play with their defaults.
SMALL_SETTINGS = {"cell_capture": {"width": 5, "height": 5},
                  "labyrinth_console": {"rows": 3, "cols": 3, "max_turns": 40},
                  "labyrinth_roguelike": {"width": 3, "height": 3, "floors": 1}}
#: a game no deadline ends (the roguelike) and random play has not ended by then is ended by a new game
NEW_GAME_AFTER = 300
MAX_STEPS = 3000
TIMEOUT_EVERY = 3
OUT_OF_TURN_EVERY = 5  # a player who is not awaited sends what the mode lets them (e.g. a timer call)
#: modes whose turns wait as long as it takes (the roguelike: its player comes back to it)
WITHOUT_DEADLINES = {"labyrinth_roguelike"}


def _client(player: Player) -> APIClient:
    """Authenticated without a JWT: the game's clock runs for hours, past any token's lifetime."""
    client = APIClient()
    client.force_authenticate(player.user)
    return client


def _play_to_the_end(mode: str, seed: int, views: list[dict[str, Any]] | None = None, *,
                     players: int = 2, resign_at: int | None = None, bots: tuple[str, ...] = ()) -> Match:
    """The match of ``mode`` played to its end; ``views``: each match read's body during play is added;
    ``resign_at``: at that step the last player resigns (the others play on if two or more are left);
    ``bots``: one person plays against these bots (seated by the host), which the reads let play."""
    adapter = get_mode(mode)
    assert adapter is not None
    chooser = random.Random(seed)
    # two players where the mode allows it (a lone player of a game for several has no deadlines)
    count = 1 if bots else min(max(adapter.min_players, players), adapter.max_players)
    people = [PlayerFactory() for _ in range(count)]
    clients = {p.pk: _client(p) for p in people}
    with time_machine.travel(timezone.now(), tick=False) as clock:
        match_id = (
            clients[people[0].pk]
            .post(MATCHES, {"mode": mode, "settings": SMALL_SETTINGS.get(mode, {})}, format="json")
            .json()["id"]
        )
        for player in people[1:]:
            clients[player.pk].post(url(match_id, "join/"))
        for level in bots:
            seated = clients[people[0].pk].post(url(match_id, "bots/"), {"level": level}, format="json")
            assert seated.status_code == 200, seated.json()
        assert clients[people[0].pk].post(url(match_id, "start/")).status_code == 200
        for step in range(MAX_STEPS):
            match = Match.objects.get(pk=match_id)
            if match.is_over:
                return match
            if step == resign_at:
                resigned = clients[people[-1].pk].post(url(match_id, "resign/"))
                assert resigned.status_code == 200, resigned.json()
                continue
            if step == NEW_GAME_AFTER and adapter.new_game_ends_old:  # the seed's /new_game ends it
                new = clients[people[0].pk].post(MATCHES, {"mode": mode, "settings": {}}, format="json")
                assert new.status_code == 201, new.json()
                continue
            deadline = None
            if step % TIMEOUT_EVERY == TIMEOUT_EVERY - 1:
                read = clients[people[0].pk].get(url(match_id), {"since": match.event_count})
                deadline = read.json()["deadline"]
            if deadline is not None:
                # this turn times out on the next read (the mode's deadline: the payload says when)
                clock.move_to(datetime.fromisoformat(deadline) + timedelta(seconds=1))
                clients[people[0].pk].get(url(match_id))
                continue
            actor = match.awaiting_id
            if actor is None:  # a bot's turn, due at once: a read plays it
                clients[people[0].pk].get(url(match_id), {"since": match.event_count})
                continue
            if step % OUT_OF_TURN_EVERY == OUT_OF_TURN_EVERY - 1 and len(people) > 1:
                actor = chooser.choice([p.pk for p in people if p.pk != match.awaiting_id])
            # since the match's last event: the view and the actions, not the whole log again at every step
            view = clients[actor].get(url(match_id), {"since": match.event_count}).json()
            assert "allowed_actions" in view, view
            if views is not None:
                views.append(view)
            if not view["allowed_actions"]:  # nothing to send out of turn (most modes, most of the time)
                continue
            action = chooser.choice(view["allowed_actions"])
            reply = clients[actor].post(
                url(match_id, "actions/"), {"turn": view["turn"], "action": action}, format="json"
            )
            assert reply.status_code == 200, reply.json()
            clock.shift(timedelta(seconds=1))
    raise AssertionError(f"{mode} did not end in {MAX_STEPS} steps")


@pytest.mark.parametrize("mode", sorted(registered_modes()))
@pytest.mark.parametrize("seed", [1, 2])
def test_the_replay_reproduces_the_final_state(mode: str, seed: int) -> None:
    # given: a game played to its end
    match = _play_to_the_end(mode, seed)
    # when: a seated player fetches the replay and runs it through the mode alone
    body = api_client(match.host).get(url(match.pk, "replay/")).json()
    adapter = get_mode(body["mode"])
    assert adapter is not None
    steps = [(s["seat"], s["action"]) for s in body["actions"]]
    final = replay(
        adapter, settings=body["settings"], seats=len(body["seats"]), seed=body["seed"], steps=steps
    )
    # then: the same final state, and the replay's actions are every step
    assert adapter.state_to_json(final) == match.state == body["final_state"]
    assert [s["turn"] for s in body["actions"]] == list(range(1, match.turn))
    assert any(s["timeout"] for s in body["actions"]) == (mode not in WITHOUT_DEADLINES)
    called = any(s["action"] == {"type": "timer"} for s in body["actions"])  # sent out of turn
    assert called == (mode == "labyrinth_paper")


@pytest.mark.parametrize("mode", sorted(registered_modes()))
def test_the_replay_reproduces_a_game_with_a_resignation(mode: str) -> None:
    # given: a game of three players where the mode allows it, one of whom resigns on the way
    match = _play_to_the_end(mode, 3, players=3, resign_at=4)
    # when: the replay is run through the mode alone, the resignation a step of it
    body = api_client(match.host).get(url(match.pk, "replay/")).json()
    adapter = get_mode(body["mode"])
    assert adapter is not None
    steps = [(s["seat"], s["action"]) for s in body["actions"]]
    resigned = {s["turn"] for s in body["actions"] if s["resigned"]}
    final = replay(adapter, settings=body["settings"], seats=len(body["seats"]), seed=body["seed"],
                   steps=steps, resigned=resigned)
    # then: the same final state, one resignation among the steps, and the resigned seat won nothing
    assert adapter.state_to_json(final) == match.state == body["final_state"]
    assert len(resigned) == 1
    quitter = next(s["player"] for s in body["actions"] if s["resigned"])
    assert match.result is not None and quitter not in match.result["winners"]


@pytest.mark.parametrize("mode", sorted(registered_modes()))
def test_the_per_seat_replay_ends_where_each_seat_ended_and_shows_what_it_saw(mode: str) -> None:
    # given: a game played to its end (with a resignation where three may sit)
    match = _play_to_the_end(mode, 5, players=3, resign_at=6)
    seats = dict(match.seats.filter(seat__isnull=False).values_list("seat", "player"))
    for seat, player_id in seats.items():
        player = Player.objects.get(pk=player_id)
        # when: the seat's player reads the match, and a player reads the replay as that seat
        final = api_client(player).get(url(match.pk)).json()
        body = api_client(match.host).get(url(match.pk, "replay/"), {"as_seat": seat}).json()
        # then: the last view is the seat's view at the end (without what the end reveals), and the
        # steps' events are exactly the events the seat read, in order
        last_view = {k: v for k, v in final["view"].items() if k != "revealed"}
        assert body["steps"][-1]["view"] == last_view
        assert [e for step in body["steps"] for e in step["events"]] == final["events"]
        assert [s["turn"] for s in body["steps"]] == [0, *range(1, len(body["steps"]))]
        assert body["as_seat"] == seat and body["player"] == player_id


def test_the_per_seat_replay_refuses_a_bad_seat_and_a_match_not_over() -> None:
    # given: a finished two-player match and a running one
    done = _play_to_the_end("cell_capture", 1)
    people = [PlayerFactory(), PlayerFactory()]
    opened = api_client(people[0]).post(MATCHES, {"mode": "cell_capture", "settings": {}}, format="json")
    lobby = opened.json()
    api_client(people[1]).post(url(lobby["id"], "join/"))
    api_client(people[0]).post(url(lobby["id"], "start/"))
    # when / then: a seat the match never had is 400, a running match 409
    bad = api_client(done.host).get(url(done.pk, "replay/"), {"as_seat": 7})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_seat"
    early = api_client(people[0]).get(url(lobby["id"], "replay/"), {"as_seat": 0})
    assert early.status_code == 409 and early.json()["error"]["code"] == "match_not_over"


#: the modes a person may play against bots (more than one seat, and bots declared)
BOT_MODES = sorted(name for name, adapter in registered_modes().items()
                   if adapter.max_players > 1 and adapter.bots)


@pytest.mark.parametrize("mode", BOT_MODES)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_replay_with_bots_reproduces_the_final_state(mode: str, seed: int) -> None:
    # given: a person against every bot of the mode, played to the end (some of the person's turns timed out)
    adapter = get_mode(mode)
    assert adapter is not None
    match = _play_to_the_end(mode, seed, bots=adapter.bots[: adapter.max_players - 1])
    # when: the person fetches the replay and runs it through the mode alone
    body = api_client(match.host).get(url(match.pk, "replay/")).json()
    steps = [(s["seat"], s["action"]) for s in body["actions"]]
    final = replay(adapter, settings=body["settings"], seats=len(body["seats"]), seed=body["seed"],
                   steps=steps)
    # then: the same final state; the bots' seats and steps are in it, without a player
    assert adapter.state_to_json(final) == match.state == body["final_state"]
    assert [s["turn"] for s in body["actions"]] == list(range(1, match.turn))
    bot_seats = {s["seat"] for s in body["seats"] if s["bot"] is not None}
    levels = [s["bot"] for s in body["seats"] if s["bot"] is not None]
    assert levels == list(adapter.bots[: adapter.max_players - 1])
    assert bot_seats and all(s["player"] is None for s in body["seats"] if s["seat"] in bot_seats)
    assert {s["seat"] for s in body["actions"] if s["player"] is None} <= bot_seats
    assert any(s["player"] is None and s["action"] is not None for s in body["actions"])
