"""Bots take seats (SPEC 15): the host seats one with ``POST matches/{id}/bots/``, it plays its turns through
the same step a person's action takes, as soon as its turn is due (here: the next read), and its refusals
change nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import services as match_services
from matches.access import mode_adapter
from matches.models import Match, MatchAction, MatchSeat, MatchStatus
from matches.services import match_bots_fill, mode_settings, sensible_bot
from players.models import Player
from tests.factories import PlayerFactory, make_guild
from tests.matches.helpers import MATCHES, url

pytestmark = pytest.mark.django_db

MAX_STEPS = 1500


def _client(player: Player) -> APIClient:
    """Authenticated without a JWT: a long game may outlive a token."""
    client = APIClient()
    client.force_authenticate(player.user)
    return client


def _lobby(host: Player, mode: str, settings: dict[str, Any] | None = None) -> int:
    row = mode_settings(mode)  # the admin row, with an hour's deadline: the person is never timed out here
    row.turn_deadline_seconds = 3600
    row.save()
    reply = _client(host).post(MATCHES, {"mode": mode, "settings": settings or {}}, format="json")
    assert reply.status_code == 201, reply.json()
    return int(reply.json()["id"])


def _add_bot(player: Player, match_id: int, level: Any) -> Any:
    return _client(player).post(url(match_id, "bots/"), {"level": level}, format="json")


SOLO_GAMES = [
    ("cell_capture", {"width": 5, "height": 5}, ["greedy"]),
    ("cell_capture", {"width": 5, "height": 5}, ["random", "greedy"]),
    ("labyrinth_console", {"rows": 3, "cols": 3, "max_turns": 40}, ["explorer"]),
    ("labyrinth_console", {"rows": 3, "cols": 3, "max_turns": 40}, ["explorer", "random"]),
    ("labyrinth_paper", {"variant": "classic"}, ["explorer"]),
    ("labyrinth_paper", {"variant": "quantum"}, ["explorer", "random"]),
]


@pytest.mark.parametrize(("mode", "table", "bots"), SOLO_GAMES)
def test_one_person_plays_alone_against_bots_to_an_ending(mode: str, table: dict[str, Any], bots: list[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # given: a lobby whose host seats bots, then starts, on a fixed match seed (the game and the bots' draws
    # are then the same in every run: a failure reproduces)
    monkeypatch.setattr(match_services, "_SEED_SOURCE", random.Random(28))
    person = PlayerFactory()
    client = _client(person)
    match_id = _lobby(person, mode, table)
    for level in bots:
        reply = _add_bot(person, match_id, level)
        assert reply.status_code == 200, reply.json()
    body = reply.json()
    seated = [(p["player"], p["bot"]) for p in body["players"]]
    assert seated == [(person.pk, None)] + [(None, level) for level in bots]
    assert client.post(url(match_id, "start/")).status_code == 200
    chooser = random.Random(7)
    # when: the person only reads and posts one of their allowed actions, until the match ends
    for _ in range(MAX_STEPS):
        body = client.get(url(match_id)).json()
        if body["status"] != MatchStatus.ACTIVE:
            break
        # then (each time): the read found the bots' turns played, and it is the person's turn
        assert body["awaiting"] == person.pk and body["allowed_actions"], body
        action = chooser.choice(body["allowed_actions"])
        reply = client.post(url(match_id, "actions/"), {"turn": body["turn"], "action": action},
                            format="json")
        assert reply.status_code == 200, reply.json()
    else:
        raise AssertionError(f"{mode} did not end in {MAX_STEPS} of the person's steps")
    # then: the game ended by its own rules, and the bots' steps are in the log with their seats, no player
    assert body["status"] == MatchStatus.FINISHED and body["result"]["reason"] in mode_adapter(mode).reasons
    steps = MatchAction.objects.filter(match_id=match_id)
    bot_seats = {p["seat"] for p in body["players"] if p["bot"]}
    assert {s.seat for s in steps if s.player_id is None} == bot_seats
    assert all(s.action is not None for s in steps if s.player_id is None)  # they played, never timed out
    assert not MatchSeat.objects.filter(match_id=match_id, active=True).exists()


def test_the_roguelike_offers_no_bots() -> None:
    # given: a roguelike lobby (one seat)
    person = PlayerFactory()
    match_id = _lobby(person, "labyrinth_roguelike")
    # when: its host asks for a bot the engine knows
    reply = _add_bot(person, match_id, "explorer")
    # then: refused with its code, and the modes list offers none
    assert reply.status_code == 409 and reply.json()["error"]["code"] == "bots_not_offered"
    assert MatchSeat.objects.filter(match_id=match_id).count() == 1
    modes = {m["name"]: m for m in _client(person).get("/api/v1/modes/").json()}
    assert modes["labyrinth_roguelike"]["bots"] == []
    assert modes["cell_capture"]["bots"] == ["random", "greedy"]


def _seats(match_id: int) -> list[tuple[int | None, str, bool]]:
    rows = MatchSeat.objects.filter(match_id=match_id).order_by("id")
    return list(rows.values_list("player", "bot", "active"))


@pytest.mark.parametrize(("level", "status", "code"), [
    ("grandmaster", 400, "unknown_bot"),
    ("", 400, "invalid"),
    (None, 400, "invalid"),
])
def test_a_bad_level_is_400_and_changes_nothing(level: Any, status: int, code: str) -> None:
    host = PlayerFactory()
    match_id = _lobby(host, "cell_capture")
    before = _seats(match_id)
    reply = _add_bot(host, match_id, level)
    assert reply.status_code == status and reply.json()["error"]["code"] == code, reply.json()
    assert _seats(match_id) == before
    if code == "unknown_bot":
        assert reply.json()["error"]["details"]["bots"] == ["random", "greedy"]


def test_only_the_host_seats_a_bot() -> None:
    # given: a lobby with a second player
    host, guest = PlayerFactory(), PlayerFactory()
    match_id = _lobby(host, "cell_capture")
    assert _client(guest).post(url(match_id, "join/")).status_code == 200
    before = _seats(match_id)
    # when: the guest asks for a bot
    reply = _add_bot(guest, match_id, "greedy")
    # then: 403 not_host, nothing seated
    assert reply.status_code == 403 and reply.json()["error"]["code"] == "not_host"
    assert _seats(match_id) == before


def test_a_full_lobby_seats_no_bot() -> None:
    # given: a paper lobby (5 seats) filled by its host and four bots
    host = PlayerFactory()
    match_id = _lobby(host, "labyrinth_paper")
    for _ in range(4):
        assert _add_bot(host, match_id, "random").status_code == 200
    before = _seats(match_id)
    # when: a fifth bot is asked for
    reply = _add_bot(host, match_id, "explorer")
    # then: 409 match_full, nothing changed
    assert reply.status_code == 409 and reply.json()["error"]["code"] == "match_full"
    assert reply.json()["error"]["details"] == {"max_players": 5}
    assert _seats(match_id) == before


def test_no_bot_sits_down_after_the_start() -> None:
    host = PlayerFactory()
    match_id = _lobby(host, "cell_capture", {"width": 5, "height": 5})
    assert _add_bot(host, match_id, "greedy").status_code == 200
    assert _client(host).post(url(match_id, "start/")).status_code == 200
    before = _seats(match_id), Match.objects.get(pk=match_id).state
    reply = _add_bot(host, match_id, "random")
    assert reply.status_code == 409 and reply.json()["error"]["code"] == "match_not_in_lobby"
    assert (_seats(match_id), Match.objects.get(pk=match_id).state) == before


def test_a_stranger_to_a_guild_lobby_gets_404() -> None:
    guild = make_guild(members=0)
    host = guild.leader
    reply = _client(host).post(MATCHES, {"mode": "cell_capture", "settings": {}, "guild": guild.pk},
                               format="json")
    match_id = reply.json()["id"]
    answer = _add_bot(PlayerFactory(), match_id, "greedy")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "match_not_found"
    assert len(_seats(match_id)) == 1


def test_the_bots_turn_reads_as_nobodys_awaited_player_with_the_seat_due_now() -> None:
    # given: a started match where the bot moves first (the turn order is drawn: try seeds until it does)
    for _ in range(20):
        host = PlayerFactory()
        match_id = _lobby(host, "cell_capture", {"width": 5, "height": 5})
        _add_bot(host, match_id, "greedy")
        _client(host).post(url(match_id, "start/"))
        match = Match.objects.get(pk=match_id)
        if match.awaiting_id is None:
            break
    else:
        pytest.skip("the bot never drew the first turn")
    # then: awaiting is null and the deadline is the turn's start: due at once
    assert match.deadline_at == match.turn_started_at and match.deadline_at is not None
    assert not MatchAction.objects.filter(match_id=match_id).exists()
    # when: the host reads
    body = _client(host).get(url(match_id)).json()
    # then: the bot has played its turn, and the host is awaited
    assert body["awaiting"] == host.pk and body["awaiting_seat"] == body["seat"]
    bot_step = MatchAction.objects.get(match_id=match_id, turn=1)
    assert bot_step.player_id is None and bot_step.action is not None


def test_the_last_person_walking_out_abandons_a_match_of_bots() -> None:
    # given: a person with two bots, started
    host = PlayerFactory()
    match_id = _lobby(host, "cell_capture", {"width": 5, "height": 5})
    _add_bot(host, match_id, "greedy")
    _add_bot(host, match_id, "random")
    assert _client(host).post(url(match_id, "start/")).status_code == 200
    # when: the person walks out
    assert _client(host).post(url(match_id, "leave/")).status_code == 200
    # then: the bots do not play on alone: the match is abandoned, every seat released
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.ABANDONED and match.result["details"] == {"cause": "left"}
    assert not MatchSeat.objects.filter(match_id=match_id, active=True).exists()


def test_the_host_leaving_a_lobby_of_bots_cancels_it() -> None:
    host = PlayerFactory()
    match_id = _lobby(host, "cell_capture")
    _add_bot(host, match_id, "greedy")
    assert _client(host).post(url(match_id, "leave/")).status_code == 200
    assert Match.objects.get(pk=match_id).status == MatchStatus.CANCELLED
    assert not MatchSeat.objects.filter(match_id=match_id, active=True).exists()


def test_the_host_role_passes_to_a_person_not_a_bot() -> None:
    host, guest = PlayerFactory(), PlayerFactory()
    match_id = _lobby(host, "cell_capture")
    _add_bot(host, match_id, "greedy")
    assert _client(guest).post(url(match_id, "join/")).status_code == 200
    assert _client(host).post(url(match_id, "leave/")).status_code == 200
    assert Match.objects.get(pk=match_id).host_id == guest.pk


def test_bots_fill_a_lobby_up_to_a_number_of_seats() -> None:
    # given: a paper lobby of one person
    host = PlayerFactory()
    match_id = _lobby(host, "labyrinth_paper")
    match = Match.objects.get(pk=match_id)
    # when: the server fills it up to 3 seats, then asks for 9 (more than the mode's 5)
    added = match_bots_fill(match, up_to=3)
    more = match_bots_fill(match, up_to=9)
    # then: the sensible bot sat down, within the mode's limit
    assert (added, more) == (2, 2) and sensible_bot(mode_adapter("labyrinth_paper")) == "explorer"
    assert _seats(match_id) == [(host.pk, "", True)] + [(None, "explorer", True)] * 4
    assert match_bots_fill(match, up_to=5) == 0
    roguelike = Match.objects.get(pk=_lobby(PlayerFactory(), "labyrinth_roguelike"))
    assert match_bots_fill(roguelike, up_to=2) == 0


def test_the_deadline_clock_plays_a_bots_turn_with_nobody_reading() -> None:
    from django.utils import timezone

    from matches.services import MATCH_DEADLINES

    # given: a started match of a person and a bot, after the person's move when the bot moved first
    host = PlayerFactory()
    match_id = _lobby(host, "cell_capture", {"width": 5, "height": 5})
    _add_bot(host, match_id, "greedy")
    _client(host).post(url(match_id, "start/"))
    match = Match.objects.get(pk=match_id)
    if match.awaiting_id == host.pk:  # the person moved first: their move hands the turn to the bot
        action = _client(host).get(url(match_id)).json()["allowed_actions"][0]
        assert _client(host).post(url(match_id, "actions/"), {"turn": match.turn, "action": action},
                                  format="json").status_code == 200
        match.refresh_from_db()
    turn = match.turn
    # then: the bot's turn is due now, in the clock's index
    assert match.awaiting_id is None and match.deadline_at is not None
    assert match_id in MATCH_DEADLINES.due(timezone.now(), 100)
    # when: the clock fires it (what the server's timer does within 1 s), nobody reading
    MATCH_DEADLINES.fire(match_id, timezone.now())
    # then: the bot played that turn and the person is awaited
    match.refresh_from_db()
    assert match.awaiting_id == host.pk and match.turn == turn + 1
    step = MatchAction.objects.get(match_id=match_id, turn=turn)
    assert step.player_id is None and step.action is not None


def _chatty(view: Any, allowed: Any, memory: Any, rng: random.Random, events: Any = (), /) -> Any:
    """A bot that only ever asks for the help (the console's free ``?``, which keeps the turn)."""
    return {"command": "?"}, memory


@pytest.fixture(name="chatty_console")
def chatty_console_fixture() -> Any:
    """The console labyrinth with one more bot level, ``chatty``, registered for the test, then restored."""
    from labyrinth.mode import LabyrinthConsoleMode
    from matches.modes import get_mode, register

    original = get_mode("labyrinth_console")

    class ChattyConsole(LabyrinthConsoleMode):
        bot_policies = {**LabyrinthConsoleMode.bot_policies, "chatty": _chatty}

    register(ChattyConsole())
    yield
    assert original is not None
    register(original)


def test_a_bot_taking_free_actions_is_asked_again_a_bounded_number_of_times(chatty_console: Any) -> None:
    from matches.services import BOT_STEPS_IN_A_ROW

    # given: a person and a bot that only ever sends the free "?" (the turn stays its own)
    host = PlayerFactory()
    match_id = _lobby(host, "labyrinth_console", {"rows": 3, "cols": 3, "max_turns": 40})
    assert _add_bot(host, match_id, "chatty").status_code == 200
    assert _client(host).post(url(match_id, "start/")).status_code == 200
    # when: the person plays until the bot has had a turn (the reads let it play)
    for _ in range(10):
        body = _client(host).get(url(match_id)).json()
        if MatchAction.objects.filter(match_id=match_id, player=None).exists() or body["status"] != "active":
            break
        action = next(a for a in body["allowed_actions"] if a["command"] in ("W", "A", "S", "D"))
        _client(host).post(url(match_id, "actions/"), {"turn": body["turn"], "action": action}, format="json")
    # then: the bot's turn was BOT_STEPS_IN_A_ROW free actions, then a timeout, and the person is awaited
    bot_steps = list(MatchAction.objects.filter(match_id=match_id, player=None).order_by("turn")
                     .values_list("action", flat=True))
    assert bot_steps[:BOT_STEPS_IN_A_ROW + 1] == [{"command": "?"}] * BOT_STEPS_IN_A_ROW + [None]
    assert _client(host).get(url(match_id)).json()["awaiting"] == host.pk
