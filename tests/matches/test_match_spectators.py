"""Spectators (SPEC 15): a player without a seat reads a started match of a mode that allows it: the mode's
public view and the public events, maybe some steps behind, never what a seat knows alone; no actions (403);
strangers of a mode that forbids watching, or of another guild's match, keep the 404."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from matches.models import Match, MatchAction, MatchEvent, MatchModeSettings, MatchStatus
from matches.modes import get_mode
from matches.services import mode_settings
from players.models import Player
from tests.factories import PlayerFactory, api_client, make_guild
from tests.matches.helpers import MATCHES, act, awaited, open_lobby, read, started, url

pytestmark = pytest.mark.django_db

#: the machinery's own events, public in every mode
FRAMEWORK = {"match_started", "turn_timed_out", "match_over", "match_abandoned", "ended_by_new_game"}


def watching(mode: str, on: bool = True, delay: int = 0) -> MatchModeSettings:
    """The admin sets the mode's spectators and delay."""
    row = mode_settings(mode)
    row.spectators, row.spectator_delay_turns = on, delay
    row.save()
    return row


def play(people: list[Player], match_id: int, steps: int, rng: random.Random) -> None:
    """``steps`` actions, each a random allowed one of the awaited player (stops at the end)."""
    for _ in range(steps):
        if Match.objects.get(pk=match_id).status != MatchStatus.ACTIVE:
            return
        mover = awaited(people, match_id)
        body = read(mover, match_id)
        reply = act(mover, match_id, rng.choice(body["allowed_actions"]), turn=body["turn"])
        assert reply.status_code == 200, reply.json()


def public_rows(match_id: int) -> list[MatchEvent]:
    return list(MatchEvent.objects.filter(match_id=match_id, seats__isnull=True).order_by("seq"))


# --- the machinery, on the test-only secret race (each pick private to its seat) --------------------------


def test_a_spectator_reads_the_public_events_only_and_never_a_seats_view() -> None:
    # given a running secret race whose mode the admin lets anyone watch, after a few private picks
    watching("secret_race")
    people, match = started()
    play(people, match.pk, 3, random.Random(1))
    # when a player with no seat reads it
    body = read(PlayerFactory(), match.pk)
    # then the answer says spectator, with no seat, no action, the mode's public view (nothing of the race)
    assert body["spectator"] is True and body["seat"] is None and body["allowed_actions"] == []
    assert body["view"] == {"public": "secret_race"}
    # and exactly the public events: no pick, which each seat knows alone
    private = MatchEvent.objects.filter(match_id=match.pk, seats__isnull=False)
    assert private.exists()
    assert [e["seq"] for e in body["events"]] == [row.seq for row in public_rows(match.pk)]
    assert "picked" not in {e["kind"] for e in body["events"]}
    assert body["last_event"] == Match.objects.get(pk=match.pk).event_count


def test_a_seated_player_reads_as_before_while_others_watch() -> None:
    watching("secret_race")
    people, match = started()
    play(people, match.pk, 2, random.Random(2))
    body = read(people[0], match.pk)
    assert body["spectator"] is False and body["seat"] is not None
    assert "public" not in body["view"]
    assert "picked" in {e["kind"] for e in body["events"]}  # the seat's own pick


def test_a_spectator_cannot_act_403_and_nothing_changes() -> None:
    # given a watched running race
    watching("secret_race")
    _, match = started()
    before = Match.objects.get(pk=match.pk)
    # when a spectator posts an action the awaited player could post
    reply = act(PlayerFactory(), match.pk, {"pick": 1}, turn=before.turn)
    # then 403 spectator, and the match is as it was
    assert reply.status_code == 403 and reply.json()["error"]["code"] == "spectator"
    after = Match.objects.get(pk=match.pk)
    assert (after.turn, after.event_count, after.state) == (before.turn, before.event_count, before.state)
    assert not MatchAction.objects.filter(match_id=match.pk).exists()
    # and leave and start keep their answers to a stranger
    stranger = PlayerFactory()
    assert api_client(stranger).post(url(match.pk, "leave/")).status_code == 404
    assert api_client(stranger).post(url(match.pk, "start/")).status_code == 404
    assert api_client(stranger).get(url(match.pk, "replay/")).status_code == 404


def test_a_mode_that_forbids_spectators_keeps_the_404() -> None:
    watching("secret_race", on=False)
    _, match = started()
    stranger = api_client(PlayerFactory())
    assert stranger.get(url(match.pk)).json()["error"]["code"] == "match_not_found"
    reply = stranger.post(url(match.pk, "actions/"), {"turn": 1, "action": {"pick": 1}}, format="json")
    assert reply.status_code == 404


def test_another_guilds_match_is_not_watched_but_its_members_watch() -> None:
    # given a started guild match of a watched mode
    watching("secret_race")
    guild = make_guild(members=2)
    players = [m.player for m in guild.memberships.order_by("id")]
    match_id = open_lobby(players[0], guild=guild.pk)["id"]
    assert api_client(players[1]).post(url(match_id, "join/")).status_code == 200
    assert api_client(players[0]).post(url(match_id, "start/")).status_code == 200
    # then an outsider gets 404, the third member watches
    assert api_client(PlayerFactory()).get(url(match_id)).status_code == 404
    assert read(players[2], match_id)["spectator"] is True


def test_a_private_match_is_watched_by_nobody_and_listed_to_no_watcher() -> None:
    # given: a started private match of a watched mode, its second player seated by the code
    watching("secret_race")
    host, guest, stranger = PlayerFactory(), PlayerFactory(), PlayerFactory()
    lobby = open_lobby(host, private=True)
    code = lobby["invite_code"]
    joined = api_client(guest).post(f"{MATCHES}join/", {"code": code}, format="json")
    assert joined.status_code == 200, joined.json()
    assert api_client(host).post(url(lobby["id"], "start/")).status_code == 200
    # then: a stranger neither reads it nor finds it among the watchable matches
    assert api_client(stranger).get(url(lobby["id"])).status_code == 404
    listed = api_client(stranger).get(MATCHES, {"watchable": "true"}).json()["results"]
    assert lobby["id"] not in [m["id"] for m in listed]


def test_a_lobby_is_not_spectated() -> None:
    watching("secret_race")
    lobby = open_lobby(PlayerFactory())
    body = read(PlayerFactory(), lobby["id"])  # whoever may join reads a lobby, as before
    assert body["spectator"] is False and body["view"] is None


def test_the_modes_list_shows_the_admins_value() -> None:
    # the migration switched watching on for the table games' rows that existed (cell capture's)
    assert MatchModeSettings.objects.get(mode="cell_capture").spectators is True
    client = api_client(PlayerFactory())

    def listed() -> dict[str, Any]:
        return {m["name"]: m["spectators"] for m in client.get("/api/v1/modes/").json()}

    watching("cell_capture", on=False)
    watching("secret_race", on=True)
    assert listed()["cell_capture"] is False and listed()["secret_race"] is True
    watching("cell_capture", on=True)
    assert listed()["cell_capture"] is True


def test_a_mode_never_used_lists_and_starts_with_its_adapters_declaration() -> None:
    MatchModeSettings.objects.filter(mode__in=["cell_capture", "labyrinth_roguelike"]).delete()
    listed = {m["name"]: m["spectators"] for m in api_client(PlayerFactory()).get("/api/v1/modes/").json()}
    assert listed["cell_capture"] is True and listed["labyrinth_roguelike"] is False
    assert mode_settings("cell_capture").spectators is True


# --- the delay ---------------------------------------------------------------------------------------------


def test_a_spectator_reads_a_running_match_the_admins_steps_behind() -> None:
    # given a cell capture match watched two steps behind, and a seat's view recorded after each step
    watching("cell_capture", delay=2)
    people, match = started("cell_capture", settings={"width": 5, "height": 5})
    seen_by_seat = [read(people[0], match.pk)["view"]]
    rng = random.Random(3)
    for _ in range(5):
        play(people, match.pk, 1, rng)
        seen_by_seat.append(read(people[0], match.pk)["view"])
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE and match.turn == 6
    # when a spectator reads
    body = read(PlayerFactory(), match.pk)
    # then the board is the one of two steps ago (the public view is the whole board)
    assert body["view"] == {"public": "cell_capture", **seen_by_seat[3]}
    # and the events stop before those of the last two steps; last_event says where to go on from
    held = MatchEvent.objects.filter(match_id=match.pk, turn__gte=4).order_by("seq")
    assert held.exists()
    released = MatchEvent.objects.filter(match_id=match.pk, turn__lt=4).order_by("seq")
    assert [e["seq"] for e in body["events"]] == list(released.values_list("seq", flat=True))
    assert body["last_event"] == held.first().seq - 1  # type: ignore[union-attr]
    # when one more step is played, the next read from last_event gets the released step, no more
    play(people, match.pk, 1, rng)
    later = read(PlayerFactory(), match.pk, since=body["last_event"])
    assert {e["seq"] for e in later["events"]} == set(
        MatchEvent.objects.filter(match_id=match.pk, turn=4).values_list("seq", flat=True))
    # and a seated player is never behind
    assert read(people[1], match.pk)["last_event"] == Match.objects.get(pk=match.pk).event_count


def test_after_the_end_a_delayed_spectator_sees_everything_public() -> None:
    watching("secret_race", delay=3)
    people, match = started()
    play(people, match.pk, 200, random.Random(4))
    match.refresh_from_db()
    assert match.is_over
    body = read(PlayerFactory(), match.pk)
    assert [e["seq"] for e in body["events"]] == [row.seq for row in public_rows(match.pk)]
    assert body["result"] == match.result and body["last_event"] == match.event_count


# --- every mode: a spectator never sees what a seat knows alone -------------------------------------------


def _texts(bodies: list[dict[str, Any]]) -> str:
    return json.dumps(bodies, ensure_ascii=False)


def test_cell_capture_spectators_see_the_public_board_and_every_event() -> None:
    people, match = started("cell_capture", settings={"width": 5, "height": 5})
    play(people, match.pk, 4, random.Random(5))
    seat = read(people[0], match.pk)
    body = read(PlayerFactory(), match.pk)
    assert body["view"] == {"public": "cell_capture", **seat["view"]}
    assert body["events"] == seat["events"]  # every cell capture event is public


def test_a_console_labyrinth_on_a_designer_map_shows_spectators_no_cell() -> None:
    from labyrinth.models import LabyrinthMapDesign
    from tests.labyrinth.test_hidden_after_the_end import CONSOLE_MAP, map_lines

    # given a running console match on a designer map, a few commands played
    design = LabyrinthMapDesign.objects.create(name="puzzle", text=CONSOLE_MAP)
    people, match = started("labyrinth_console", settings={"map": design.pk})
    play(people, match.pk, 6, random.Random(6))
    watcher = PlayerFactory()
    bodies = [read(watcher, match.pk)]
    # then the view is the public one: phase, counts, winner; no field, no inventory, no cell
    view = bodies[0]["view"]
    assert set(view) == {"public", "phase", "starts_chosen", "turns_played", "winner", "draw"}
    assert all(not isinstance(value, (list, dict)) for value in view.values())
    # and no answer of the game master (each private to its seat) reaches the spectator
    seat_kinds = {e["kind"] for p in people for e in read(p, match.pk)["events"]} - FRAMEWORK
    assert seat_kinds - {"game_started"}  # the seats did hear answers
    assert {e["kind"] for e in bodies[0]["events"]} <= FRAMEWORK | {"game_started", "won", "turn_limit"}
    # and no line of the map appears in anything the spectator read, to the end
    from tests.labyrinth.test_console_mode import play_to_the_end

    play_to_the_end(people, Match.objects.get(pk=match.pk))
    bodies.append(read(watcher, match.pk))
    assert "revealed" not in bodies[-1]["view"] and bodies[-1]["view"]["phase"] == "over"
    assert [line for line in map_lines(CONSOLE_MAP) if line in _texts(bodies)] == []


def _paper_start(people: list[Player], match_id: int) -> None:
    for cell in (3, 7):  # each player chooses a secret start cell
        mover = awaited(people, match_id)
        reply = act(mover, match_id, {"type": "start", "cell": cell})
        assert reply.status_code == 200, reply.json()


def test_a_paper_labyrinth_on_a_designer_map_keeps_the_game_masters_answers_from_spectators() -> None:
    from paper_labyrinth.engine.examples import SMALL_CLASSIC_TEXT
    from paper_labyrinth.mode import SPECTATOR_ANSWERS
    from paper_labyrinth.models import PaperMapDesign
    from tests.labyrinth.test_hidden_after_the_end import map_lines

    # given a running paper game on a designer map still in the pool, a few turns played
    design = PaperMapDesign.objects.create(name="puzzle", text=SMALL_CLASSIC_TEXT)
    people, match = started("labyrinth_paper", settings={"map": design.pk, "starts": "chosen"})
    _paper_start(people, match.pk)
    play(people, match.pk, 4, random.Random(7))
    # when a spectator reads
    body = read(PlayerFactory(), match.pk)
    # then the view has no outline, no cell count, nobody's status
    assert set(body["view"]) == {"public", "variant", "phase", "starts_chosen", "turns_played", "result"}
    # and of the game master's public answers (which name the cells met) only endings would pass
    heard = [e for e in read(people[0], match.pk)["events"] if e["kind"] == "gm"]
    assert heard  # the table heard them
    assert all(e["code"] in SPECTATOR_ANSWERS for e in body["events"] if e["kind"] == "gm")
    assert [line for line in map_lines(SMALL_CLASSIC_TEXT) if line in _texts([body])] == []
    # when the map leaves the pool, the spectator hears the table's answers as the seats do
    PaperMapDesign.objects.filter(pk=design.pk).update(is_active=False)
    again = read(PlayerFactory(), match.pk)
    assert [e["seq"] for e in again["events"] if e["kind"] == "gm"] == [e["seq"] for e in heard]


def test_a_paper_labyrinth_on_a_generated_map_shows_spectators_the_tables_public_answers() -> None:
    people, match = started("labyrinth_paper", settings={"starts": "chosen"})
    _paper_start(people, match.pk)
    play(people, match.pk, 3, random.Random(8))
    body = read(PlayerFactory(), match.pk)
    assert [e["seq"] for e in body["events"]] == [row.seq for row in public_rows(match.pk)]
    assert "outline" not in body["view"] and body["view"]["phase"] == "playing"


def test_the_roguelike_is_not_watched_unless_the_admin_allows_it_and_then_shows_the_score_only() -> None:
    # given a running roguelike game (one player), a few moves made
    people, match = started("labyrinth_roguelike", players=1)
    play(people, match.pk, 3, random.Random(9))
    watcher = PlayerFactory()
    # then by default it is not watched
    assert api_client(watcher).get(url(match.pk)).status_code == 404
    # when the admin allows it, a spectator sees the score, and none of the player's events
    watching("labyrinth_roguelike")
    body = read(watcher, match.pk)
    assert set(body["view"]) == {"public", "turn", "deaths", "death_limit", "won", "lost"}
    assert {e["kind"] for e in body["events"]} <= FRAMEWORK
    assert body["view"]["turn"] == read(people[0], match.pk)["view"]["turn"]


def test_every_mode_declares_a_public_view_in_its_schema() -> None:
    for name in ("cell_capture", "labyrinth_console", "labyrinth_paper", "labyrinth_roguelike"):
        adapter = get_mode(name)
        assert adapter is not None
        component = adapter.public_view_component()
        assert component["required"][0] == "public" and component["additionalProperties"] is False


def test_the_list_offers_watchable_matches_on_request() -> None:
    # given a running watched race, a running unwatched cell capture, a lobby
    watching("secret_race")
    watching("cell_capture", on=False)
    _, race = started()
    _, board = started("cell_capture")
    open_lobby(PlayerFactory())
    viewer = api_client(PlayerFactory())
    # when a stranger lists the watchable matches
    listed = viewer.get(MATCHES, {"watchable": "true"}).json()["results"]
    # then the running watched match is there, the unwatched one and the lobby are not
    ids = {item["id"] for item in listed}
    assert race.pk in ids and board.pk not in ids
    assert all(item["status"] == "active" for item in listed)
    # and the usual list is as it was: no match the caller may only watch
    assert race.pk not in {item["id"] for item in viewer.get(MATCHES).json()["results"]}
