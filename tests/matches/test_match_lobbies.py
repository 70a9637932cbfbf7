"""The lobby lifecycle of SPEC 15 (issue 28): quick join's queue and its fill, private lobbies and their
invite codes, idle lobbies cancelled by the deadline clock, several matches per player within the mode's
limit. Concurrent joins are in test_lobby_concurrency.py."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from backend.deadlines import deadlines_fire_due
from matches.models import Match, MatchModeSettings, MatchSeat, MatchStatus
from matches.modes import _REGISTRY, get_mode, register
from matches.services import mode_settings
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES, open_lobby, url
from tests.matches.toy_mode import SecretRaceMode

pytestmark = pytest.mark.django_db

QUEUE = f"{MATCHES}queue/"
JOIN = f"{MATCHES}join/"
DUEL = "duel_race"


class DuelRaceMode(SecretRaceMode):
    """The secret race for exactly two: a quick-join lobby is full with its second player."""

    name = DUEL
    title = "Secret race for two (test mode)"
    min_players = 2
    max_players = 2


@pytest.fixture(name="duel")
def duel_fixture() -> Iterator[str]:
    register(DuelRaceMode())
    yield DUEL
    _REGISTRY.pop(DUEL, None)


def admin_row(mode: str = "secret_race", **fields: int) -> MatchModeSettings:
    row = mode_settings(mode)
    for name, value in fields.items():
        setattr(row, name, value)
    row.save()
    return row


def queue(player, mode: str = "secret_race", **settings: int):  # type: ignore[no-untyped-def]
    return api_client(player).post(QUEUE, {"mode": mode, "settings": settings}, format="json")


def code_of(reply) -> str:  # type: ignore[no-untyped-def]
    return str(reply.json()["error"]["code"])


# --- quick join ---------------------------------------------------------------------------------------


def test_quick_join_opens_a_queue_lobby_then_seats_the_next_caller_in_it() -> None:
    # given: nobody waits in the secret race's queue
    first, second = PlayerFactory(), PlayerFactory()
    # when: two players queue one after the other with the same settings
    opened = queue(first, target=12)
    joined = queue(second, target=12)
    # then: the first opened a public queue lobby it hosts; the second sits in it
    assert opened.status_code == 200 and joined.status_code == 200
    assert opened.json()["id"] == joined.json()["id"]
    body = joined.json()
    assert body["status"] == "lobby" and body["host"] == first.pk and body["private"] is False
    assert [p["player"] for p in body["players"]] == [first.pk, second.pk]
    assert body["queue_fill_at"] is not None
    assert Match.objects.get(pk=body["id"]).queued_at is not None


def test_quick_join_takes_only_lobbies_of_the_same_mode_and_settings_public_and_waiting() -> None:
    # given: a queue lobby of other settings, an ordinary public lobby and a private one
    other_settings = queue(PlayerFactory(), target=12).json()["id"]
    ordinary = open_lobby(PlayerFactory())["id"]
    private = open_lobby(PlayerFactory(), private=True)["id"]
    # when: a player queues with the default settings
    reply = queue(PlayerFactory())
    # then: a new queue lobby is opened: none of the others was compatible
    assert reply.status_code == 200
    assert reply.json()["id"] not in {other_settings, ordinary, private}
    assert MatchSeat.objects.filter(match_id=other_settings, active=True).count() == 1


def test_quick_join_takes_the_oldest_compatible_lobby_with_a_free_seat(duel: str) -> None:
    # given: two players fill the first duel lobby (it starts: every seat taken), a third waits in a second
    full = queue(PlayerFactory(), duel).json()["id"]
    assert queue(PlayerFactory(), duel).json()["id"] == full
    waiting = queue(PlayerFactory(), duel).json()["id"]
    # when: a fourth player queues
    reply = queue(PlayerFactory(), duel)
    # then: the full lobby started and the fourth sits in the waiting one, which is full and starts too
    assert Match.objects.get(pk=full).status == MatchStatus.ACTIVE
    assert reply.json()["id"] == waiting and reply.json()["status"] == "active"


def test_queueing_twice_for_one_mode_is_refused_and_changes_nothing() -> None:
    player = PlayerFactory()
    first = queue(player).json()["id"]
    again = queue(player)
    assert again.status_code == 409 and code_of(again) == "already_queued"
    seated = MatchSeat.objects.filter(player=player, active=True)
    assert list(seated.values_list("match_id", flat=True)) == [first]


def test_bad_queue_input_is_a_400_with_a_code_and_opens_nothing() -> None:
    player = PlayerFactory()
    assert code_of(api_client(player).post(QUEUE, {"mode": "no_such_mode"}, format="json")) == "unknown_mode"
    assert code_of(api_client(player).post(QUEUE, {}, format="json")) == "invalid"
    assert queue(player, nope=1).status_code == 400
    assert not Match.objects.exists()


def test_leaving_the_queue_frees_the_seat_and_leaving_when_not_queued_is_a_409() -> None:
    # given: a player waiting in the queue, and a player in an ordinary lobby only
    waiter, other = PlayerFactory(), PlayerFactory()
    lobby = queue(waiter).json()["id"]
    open_lobby(other)
    # when: both leave the queue
    left = api_client(waiter).delete(QUEUE)
    not_queued = api_client(other).delete(QUEUE)
    # then: the waiter left (the emptied lobby is cancelled); the other was in no queue: nothing changed
    assert left.status_code == 200 and left.json() == {"left": [lobby]}
    assert Match.objects.get(pk=lobby).status == MatchStatus.CANCELLED
    assert not_queued.status_code == 409 and code_of(not_queued) == "not_queued"
    assert MatchSeat.objects.filter(player=other, active=True).count() == 1
    assert code_of(api_client(waiter).delete(QUEUE)) == "not_queued"


def test_the_queue_fills_and_starts_with_min_players_seated_when_its_time_passes() -> None:
    # given: a queue lobby of two (the mode's minimum) and a fill time of 30 s
    admin_row(queue_fill_seconds=30)
    lobby = queue(PlayerFactory()).json()["id"]
    queue(PlayerFactory())
    opened = Match.objects.get(pk=lobby).queued_at
    assert opened is not None
    # when: the deadline clock passes after the fill time, nobody reading
    with time_machine.travel(opened + timedelta(seconds=31), tick=False):
        deadlines_fire_due()
    # then: the match started with its two players
    match = Match.objects.get(pk=lobby)
    assert match.status == MatchStatus.ACTIVE and match.lobby_deadline_at is None
    assert MatchSeat.objects.filter(match=match, seat__isnull=False).count() == 2


def test_a_fill_time_passed_is_applied_by_a_read_first() -> None:
    admin_row(queue_fill_seconds=30)
    first = PlayerFactory()
    lobby = queue(first).json()["id"]
    queue(PlayerFactory())
    opened = Match.objects.get(pk=lobby).queued_at
    assert opened is not None
    with time_machine.travel(opened + timedelta(seconds=31), tick=False):
        read = api_client(first).get(url(lobby))
    assert read.status_code == 200 and read.json()["status"] == "active"


def test_a_lone_player_at_the_fill_time_waits_on_and_the_next_player_starts_the_match() -> None:
    # given: one player in a queue lobby whose fill time passes (the test mode offers no bots to fill with)
    admin_row(queue_fill_seconds=30, lobby_idle_seconds=600)
    lobby = queue(PlayerFactory()).json()["id"]
    opened = Match.objects.get(pk=lobby).queued_at
    assert opened is not None
    with time_machine.travel(opened + timedelta(seconds=31), tick=False):
        deadlines_fire_due()
        # then: the lobby waits on, its next time being its idle end
        match = Match.objects.get(pk=lobby)
        assert match.status == MatchStatus.LOBBY
        assert match.lobby_deadline_at == opened + timedelta(seconds=600)
        # when: a second player queues after the fill time
        joined = queue(PlayerFactory())
    # then: the lobby has its minimum and starts at once
    assert joined.json()["id"] == lobby and joined.json()["status"] == "active"


def test_a_lone_player_at_the_fill_time_gets_the_modes_sensible_bot_and_plays_at_once() -> None:
    # given: one player queued for cell capture, whose fill time passes with nobody else queueing
    admin_row("cell_capture", queue_fill_seconds=30, lobby_idle_seconds=600)
    person = PlayerFactory()
    lobby = queue(person, "cell_capture").json()["id"]
    opened = Match.objects.get(pk=lobby).queued_at
    assert opened is not None
    with time_machine.travel(opened + timedelta(seconds=31), tick=False):
        # when: the clock fires
        deadlines_fire_due()
        # then: the empty seat up to min_players holds the mode's sensible bot, and the match started
        body = api_client(person).get(url(lobby)).json()
    assert body["status"] == "active"
    bots = [p["bot"] for p in body["players"] if p["bot"] is not None]
    assert bots == [next(level for level in get_mode("cell_capture").bots if level != "random")]
    assert len(body["players"]) == get_mode("cell_capture").min_players


def test_a_fill_time_of_zero_never_fills() -> None:
    admin_row(queue_fill_seconds=0, lobby_idle_seconds=0)
    lobby = queue(PlayerFactory()).json()
    assert lobby["queue_fill_at"] is None
    assert Match.objects.get(pk=lobby["id"]).lobby_deadline_at is None


# --- private lobbies ----------------------------------------------------------------------------------


def test_a_private_lobby_has_a_code_its_players_see_and_strangers_never_find_it() -> None:
    # given: a private lobby
    host, stranger = PlayerFactory(), PlayerFactory()
    lobby = open_lobby(host, private=True)
    code = lobby["invite_code"]
    # then: the host sees a short code of unambiguous letters
    assert lobby["private"] is True and len(code) == 8 and set(code) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    # and: a stranger finds it in no list, cannot read it nor join it by its id
    assert api_client(stranger).get(MATCHES).json()["results"] == []
    assert api_client(stranger).get(url(lobby["id"])).status_code == 404
    assert code_of(api_client(stranger).post(url(lobby["id"], "join/"))) == "match_not_found"
    # and: the host's own list shows it
    assert [m["id"] for m in api_client(host).get(MATCHES).json()["results"]] == [lobby["id"]]


def test_the_code_takes_a_seat_and_shows_the_code_to_the_new_player_only_once_seated() -> None:
    host, friend = PlayerFactory(), PlayerFactory()
    lobby = open_lobby(host, private=True)
    # when: the friend types the code in lower case with a dash
    typed = lobby["invite_code"].lower()
    reply = api_client(friend).post(JOIN, {"code": f"{typed[:4]}-{typed[4:]}"}, format="json")
    # then: a seat, and the code is shown to the friend now seated
    assert reply.status_code == 200, reply.json()
    assert reply.json()["id"] == lobby["id"] and reply.json()["invite_code"] == lobby["invite_code"]
    again = api_client(friend).post(JOIN, {"code": lobby["invite_code"]}, format="json")
    assert again.status_code == 409 and code_of(again) == "already_joined"


def test_public_lobbies_show_no_code() -> None:
    lobby = open_lobby(PlayerFactory())
    assert lobby["private"] is False and lobby["invite_code"] is None


def test_a_wrong_code_is_404_and_an_expired_one_409() -> None:
    # given: a private lobby that started, and one that was cancelled
    host, friend, late = PlayerFactory(), PlayerFactory(), PlayerFactory()
    started = open_lobby(host, private=True)
    assert api_client(friend).post(JOIN, {"code": started["invite_code"]}, format="json").status_code == 200
    assert api_client(host).post(url(started["id"], "start/")).status_code == 200
    cancelled_host = PlayerFactory()
    cancelled = open_lobby(cancelled_host, private=True)
    api_client(cancelled_host).post(url(cancelled["id"], "leave/"))
    # when / then: a code nobody was given is 404, the expired codes 409; nothing changes
    wrong = api_client(late).post(JOIN, {"code": "ZZZZZZZZ"}, format="json")
    assert wrong.status_code == 404 and code_of(wrong) == "invite_not_found"
    for lobby in (started, cancelled):
        expired = api_client(late).post(JOIN, {"code": lobby["invite_code"]}, format="json")
        assert expired.status_code == 409 and code_of(expired) == "invite_expired"
    assert code_of(api_client(late).post(JOIN, {"code": ""}, format="json")) == "invalid"
    assert code_of(api_client(late).post(JOIN, {}, format="json")) == "invalid"
    assert not MatchSeat.objects.filter(player=late).exists()


def test_invite_codes_are_unique_and_unguessable_draws() -> None:
    codes = {open_lobby(PlayerFactory(), private=True)["invite_code"] for _ in range(20)}
    assert len(codes) == 20


# --- idle lobbies -------------------------------------------------------------------------------------


def test_an_idle_lobby_is_cancelled_by_the_clock_and_a_seat_change_restarts_its_idle_time() -> None:
    # given: lobbies are cancelled after 60 s without a seat change
    admin_row(lobby_idle_seconds=60)
    host = PlayerFactory()
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False):
        lobby = open_lobby(host)["id"]
    # when: a player joins after 50 s, and the clock passes at 70 s and at 111 s
    with time_machine.travel(t0 + timedelta(seconds=50), tick=False):
        assert api_client(PlayerFactory()).post(url(lobby, "join/")).status_code == 200
    with time_machine.travel(t0 + timedelta(seconds=70), tick=False):
        deadlines_fire_due()
        # then: at 70 s the lobby waits on (its seats changed at 50 s)
        assert Match.objects.get(pk=lobby).status == MatchStatus.LOBBY
    with time_machine.travel(t0 + timedelta(seconds=111), tick=False):
        deadlines_fire_due()
        late = api_client(PlayerFactory()).post(url(lobby, "join/"))
    # and: at 111 s it is cancelled, its seats freed; a join is refused
    match = Match.objects.get(pk=lobby)
    assert match.status == MatchStatus.CANCELLED and match.lobby_deadline_at is None
    assert not MatchSeat.objects.filter(match=match, active=True).exists()
    assert late.status_code == 404


def test_an_idle_time_passed_is_applied_by_a_join_first() -> None:
    admin_row(lobby_idle_seconds=60)
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False):
        lobby = open_lobby(PlayerFactory(), private=True)
    with time_machine.travel(t0 + timedelta(seconds=61), tick=False):
        reply = api_client(PlayerFactory()).post(JOIN, {"code": lobby["invite_code"]}, format="json")
    assert reply.status_code == 409 and code_of(reply) == "invite_expired"
    assert Match.objects.get(pk=lobby["id"]).status == MatchStatus.CANCELLED


def test_the_list_applies_a_passed_idle_time_first() -> None:
    # given: a public lobby past its idle time the clock has not applied yet
    admin_row(lobby_idle_seconds=60)
    t0 = timezone.now()
    with time_machine.travel(t0, tick=False):
        lobby = open_lobby(PlayerFactory())["id"]
    # when: another player lists the lobbies after the idle time
    with time_machine.travel(t0 + timedelta(seconds=61), tick=False):
        listed = api_client(PlayerFactory()).get(MATCHES).json()["results"]
    # then: the cancelled lobby is not shown as open
    assert listed == []
    assert Match.objects.get(pk=lobby).status == MatchStatus.CANCELLED


def test_a_one_seat_mode_queue_lobby_is_full_with_its_opener_and_starts() -> None:
    # given: the roguelike, a mode of one seat; when: a player queues for it
    reply = queue(PlayerFactory(), "labyrinth_roguelike")
    # then: the new queue lobby has every seat taken, so it started at once
    assert reply.status_code == 200, reply.json()
    assert reply.json()["max_players"] == 1 and reply.json()["status"] == "active"


# --- several matches ----------------------------------------------------------------------------------


def test_a_player_sits_in_up_to_the_modes_limit() -> None:
    # given: the default limit of 3 and four lobbies of other hosts
    player = PlayerFactory()
    lobbies = [open_lobby(PlayerFactory())["id"] for _ in range(4)]
    # when: the player joins all four
    replies = [api_client(player).post(url(lobby, "join/")) for lobby in lobbies]
    # then: three seats; the fourth is refused with the limit, and changes nothing
    assert [r.status_code for r in replies] == [200, 200, 200, 409]
    assert replies[3].json()["error"] == {
        "code": "already_in_match",
        "message": "You already sit in as many active matches of this mode as you may.",
        "details": {"mode": "secret_race", "max_active_per_player": 3},
    }
    seated = MatchSeat.objects.filter(player=player, active=True)
    assert sorted(seated.values_list("slot", flat=True)) == [0, 1, 2]
    # when: one seat is freed, a join takes the freed slot
    api_client(player).post(url(lobbies[1], "leave/"))
    assert api_client(player).post(url(lobbies[3], "join/")).status_code == 200


def test_the_admin_limit_counts_lobbies_and_running_matches() -> None:
    admin_row(max_active_per_player=1)
    player = PlayerFactory()
    open_lobby(player)
    refused = api_client(player).post(MATCHES, {"mode": "secret_race"}, format="json")
    assert refused.status_code == 409 and code_of(refused) == "already_in_match"
    assert refused.json()["error"]["details"]["max_active_per_player"] == 1


# --- admin --------------------------------------------------------------------------------------------


def test_the_admin_edits_the_lobby_settings_and_refuses_bad_values(admin_client: Client) -> None:
    # given: the mode's admin row
    row = mode_settings("secret_race")
    page = f"/admin/matches/matchmodesettings/{row.pk}/change/"
    form = {"mode": "secret_race", "defaults": '{"target": 10}', "turn_deadline_seconds": 60,
            "queue_fill_seconds": 45, "lobby_idle_seconds": 300, "max_active_per_player": 5,
            "spectator_delay_turns": 0}
    # when: the designer saves new values, then a limit of 0
    saved = admin_client.post(page, form)
    refused = admin_client.post(page, {**form, "max_active_per_player": 0})
    # then: the first is stored; the second is refused on the form and stores nothing
    assert saved.status_code == 302
    row.refresh_from_db()
    assert (row.queue_fill_seconds, row.lobby_idle_seconds, row.max_active_per_player) == (45, 300, 5)
    assert refused.status_code == 200 and "max_active_per_player" in refused.context["adminform"].form.errors
    row.max_active_per_player = 0
    with pytest.raises(ValidationError):
        row.full_clean()

