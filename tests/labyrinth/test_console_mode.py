"""The hosted mode `labyrinth_console` through the match API: a whole game, privacy, bad actions, replay."""
from __future__ import annotations

from collections import deque
from datetime import timedelta
from typing import Any

import pytest
import time_machine

from gamekit.results import Success
from labyrinth.engine import DIRECTIONS, Direction, StepOutcome, parse_map, step, unreachable_cells
from labyrinth.engine.console import ConsoleGame, game_from_dict
from matches.models import Match, MatchAction, MatchStatus
from matches.modes import get_mode, rng_for
from players.models import Player
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES, act, awaited, read, started, url

pytestmark = pytest.mark.django_db

MODE = "labyrinth_console"
LETTER = {Direction.UP: "W", Direction.LEFT: "A", Direction.DOWN: "S", Direction.RIGHT: "D"}
PUBLIC_KINDS = {"match_started", "won", "match_over", "turn_timed_out"}


def hidden_game(match: Match) -> tuple[ConsoleGame, list[int]]:
    """The game as the server holds it (tests may peek; players may not)."""
    match.refresh_from_db()
    assert match.state is not None
    return game_from_dict(parse_map(match.state["map"]), match.state["game"]), match.state["order"]


def way_out(game: ConsoleGame, player: int) -> str:
    """The first step of a shortest way out from where ``player`` really stands (W if none)."""
    me = game.players[player]
    m = game.map
    need_key = m.key_required()
    start = (me.cell, me.keys > 0 or not need_key)
    seen = {start}
    queue: deque[tuple[tuple[tuple[int, int, int], bool], str]] = deque([(start, "")])
    while queue:
        (cell, holding), first = queue.popleft()
        for d in DIRECTIONS:
            result = step(m, cell, d)
            if result.outcome is StepOutcome.EXITED and holding:
                return first or LETTER[d]
            if result.outcome not in (StepOutcome.MOVED, StepOutcome.TELEPORTED):
                continue
            state = (result.cell, holding or result.cell in game.keys_on_ground)
            if state not in seen:
                seen.add(state)
                queue.append((state, first or LETTER[d]))
    return "W"


def play_to_the_end(people: list[Player], match: Match, limit: int = 600) -> list[dict[str, Any]]:
    """Every awaited player walks its shortest way out; the answers of every action, in order."""
    answers = []
    for _ in range(limit):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            return answers
        game, order = hidden_game(match)
        mover = awaited(people, match.pk)
        seat = order[game.turn]
        reply = act(mover, match.pk, {"command": way_out(game, game.turn)})
        assert reply.status_code == 200, reply.json()
        answers.append({"seat": seat, **reply.json()})
    raise AssertionError("the game did not end")


def test_the_mode_is_registered_with_its_limits() -> None:
    mode = get_mode(MODE)
    assert mode is not None and (mode.min_players, mode.max_players) == (1, 8)


def test_one_player_alone_plays_a_whole_game_to_the_exit() -> None:
    # given: a lobby of one player, started alone (the seed's game is single-player by default)
    player = PlayerFactory()
    settings = {"rows": 5, "cols": 6}
    lobby = api_client(player).post(MATCHES, {"mode": MODE, "settings": settings}, format="json")
    assert lobby.status_code == 201, lobby.json()
    match_id = lobby.json()["id"]
    started_body = api_client(player).post(url(match_id, "start/"))
    assert started_body.status_code == 200, started_body.json()
    assert started_body.json()["order"] == [player.pk] and started_body.json()["deadline"] is None
    match = Match.objects.get(pk=match_id)
    # when: the player walks the way out, command by command, each read first as a client would
    answers = []
    for _ in range(600):
        body = read(player, match_id)
        if body["status"] != "active":
            break
        assert body["awaiting"] == player.pk and body["deadline"] is None
        assert {"command": "W"} in body["allowed_actions"]
        game, _ = hidden_game(match)
        reply = act(player, match_id, {"command": way_out(game, 0)}, turn=body["turn"])
        assert reply.status_code == 200, reply.json()
        answers.append(reply.json())
    # then: leaving through the exit won the game and ended the match
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.result["winners"] == [player.pk]
    assert match.result == {"winners": [player.pk], "winner_seats": [0], "reason": "exit_reached",
                            "details": {}}
    assert [e["kind"] for e in answers[-1]["events"]][-2:] == ["won", "match_over"]
    end = read(player, match_id)
    assert end["status"] == "finished" and end["allowed_actions"] == []
    assert end["view"]["revealed"]["map"] == match.state["map"]  # a generated map is shown after the end


def test_a_lone_player_is_never_timed_out() -> None:
    # given: a solo game, the admin's deadline one minute
    people, match = started(MODE, players=1, settings={"rows": 4, "cols": 4}, deadline=60)
    # when: the player comes back a day later
    with time_machine.travel(match.turn_started_at + timedelta(days=1), tick=False):
        body = read(people[0], match.pk)
    # then: the game waited (a whole round of timeouts would have abandoned it)
    assert body["status"] == "active" and body["turn"] == 1 and body["deadline"] is None
    assert not MatchAction.objects.filter(match=match).exists()


def test_two_players_play_a_generated_labyrinth_to_a_win() -> None:
    # given
    people, match = started(MODE, players=2, settings={"rows": 5, "cols": 6})
    # when
    answers = play_to_the_end(people, match)
    # then
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    game, order = hidden_game(match)
    assert game.winner is not None
    winner_seat = order[game.winner]
    winner = match.seats.get(seat=winner_seat).player
    assert match.result["winners"] == [winner.pk]
    last = answers[-1]
    assert last["seat"] == winner_seat and last["status"] == "finished"
    assert [e["kind"] for e in last["events"]][-2:] == ["won", "match_over"]
    for reader in people:
        body = read(reader, match.pk)
        assert body["status"] == "finished" and body["view"]["revealed"]["map"] == match.state["map"]
        assert body["view"]["field"] == {"rows": 5, "cols": 6}  # the seat's own view keeps its shape


def test_each_player_hears_only_their_own_answers_and_sees_only_public_facts_of_the_other() -> None:
    # given
    people, match = started(MODE, players=2, settings={"rows": 4, "cols": 4})
    first = awaited(people, match.pk)
    second = next(p for p in people if p != first)
    # when
    moved = act(first, match.pk, {"command": "d"}).json()["events"]
    looked = act(second, match.pk, {"command": "e"}).json()["events"]  # free: still the second's turn
    shot = act(second, match.pk, {"command": "x a"}).json()["events"]
    # then
    assert moved and looked[0]["kind"] == "inventory" and shot[0]["kind"] == "no_ammo"
    assert all(e["text"] for e in moved + looked + shot)
    events = {p.pk: read(p, match.pk)["events"] for p in people}
    seqs = {pk: {e["seq"] for e in found} for pk, found in events.items()}
    every = {e["seq"]: e for found in events.values() for e in found}
    assert {every[s]["kind"] for s in seqs[first.pk] & seqs[second.pk]} <= PUBLIC_KINDS
    assert [every[s]["kind"] for s in sorted(seqs[first.pk] - seqs[second.pk])] == [e["kind"] for e in moved]
    assert [every[s]["kind"] for s in sorted(seqs[second.pk] - seqs[first.pk])] == ["inventory", "no_ammo"]
    game, order = hidden_game(match)
    for reader in people:
        body = read(reader, match.pk)
        me = game.players[order.index(body["seat"])]
        assert body["view"]["field"] == {"rows": 4, "cols": 4}
        assert body["view"]["inventory"] == {"ammo": me.ammo, "key": me.keys > 0}
        assert set(body["view"]) == {"field", "choosing_starts", "inventory", "commands", "help",
                                     "turns_played", "winner"}
        assert "cell" not in str(body) and "map" not in body["view"]


def test_allowed_actions_are_the_seeds_commands_for_the_awaited_player_only() -> None:
    people, match = started(MODE, players=2, settings={"rows": 3, "cols": 3})
    mover = awaited(people, match.pk)
    other = next(p for p in people if p != mover)
    allowed = read(mover, match.pk)["allowed_actions"]
    assert [a["command"] for a in allowed] == ["W", "A", "S", "D", "X W", "X A", "X S", "X D", "E", "?"]
    assert read(other, match.pk)["allowed_actions"] == []
    reply = act(mover, match.pk, allowed[-1])
    assert reply.status_code == 200 and reply.json()["events"][0]["kind"] == "help"


@pytest.mark.parametrize("action", [{"command": "jump"}, {"command": 5}, {"move": "W"},
                                    {"command": "W", "x": 1},
                                    {}, {"command": "X"}])
def test_malformed_actions_are_400_and_change_nothing(action: dict[str, Any]) -> None:
    people, match = started(MODE, players=2, settings={"rows": 3, "cols": 3})
    mover = awaited(people, match.pk)
    before = Match.objects.get(pk=match.pk)
    reply = act(mover, match.pk, action)
    assert reply.status_code == 400 and reply.json()["error"]["code"] == "bad_command"
    after = Match.objects.get(pk=match.pk)
    assert (after.turn, after.state, after.event_count) == (before.turn, before.state, before.event_count)


def test_acting_out_of_turn_or_on_a_stale_turn_is_409() -> None:
    people, match = started(MODE, players=2, settings={"rows": 3, "cols": 3})
    mover = awaited(people, match.pk)
    other = next(p for p in people if p != mover)
    assert act(other, match.pk, {"command": "W"}).json()["error"]["code"] == "not_your_turn"
    assert act(mover, match.pk, {"command": "W"}, turn=9).json()["error"]["code"] == "stale_turn"


@pytest.mark.parametrize("given, code", [
    ({"rows": 2}, "bad_size"), ({"cols": 51}, "bad_size"), ({"rows": "8"}, "bad_size"),
    ({"rows": True}, "bad_size"),
    ({"map": 999999}, "unknown_map"), ({"map": "x"}, "unknown_map"), ({"map": 10**30}, "unknown_map"),
    ({"map": -1}, "unknown_map"), ({"players": 2}, "unknown_setting"),
    ({"max_turns": 0}, "bad_max_turns"), ({"max_turns": "9"}, "bad_max_turns"),
    ({"start_positions": "mine"}, "bad_start_positions"),
])
def test_bad_settings_are_400(given: dict[str, Any], code: str) -> None:
    reply = api_client(PlayerFactory()).post(MATCHES, {"mode": MODE, "settings": given}, format="json")
    assert reply.status_code == 400 and reply.json()["error"]["code"] == code


def test_the_replay_reproduces_the_game_exactly() -> None:
    people, match = started(MODE, players=3, settings={"rows": 4, "cols": 5})
    play_to_the_end(people, match)
    record = api_client(people[0]).get(url(match.pk, "replay/")).json()
    adapter = get_mode(MODE)
    assert adapter is not None
    state = adapter.create(settings=record["settings"], seats=len(record["seats"]),
                           rng=rng_for(record["seed"], 0))
    for step_ in record["actions"]:
        rng = rng_for(record["seed"], step_["turn"])
        moved = (adapter.timeout(state, step_["seat"], rng) if step_["timeout"]
                 else adapter.apply(state, step_["seat"], step_["action"], rng))
        assert isinstance(moved, Success), moved
        state = moved.state
    assert adapter.state_to_json(state) == record["final_state"]
    assert adapter.outcome(state) is not None


def test_the_admin_picture_is_the_map_with_the_players_marked() -> None:
    _people, match = started(MODE, players=2, settings={"rows": 3, "cols": 4})
    adapter = get_mode(MODE)
    assert adapter is not None
    svg = adapter.picture(adapter.state_from_json(match.state))
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")


def test_a_designer_map_is_played_as_uploaded_and_an_inactive_one_is_refused() -> None:
    from labyrinth.models import LabyrinthMapDesign

    corridor = LabyrinthMapDesign.objects.create(name="corridor", text="1 5\n. . . . E\nE Exit(RIGHT)\n")
    draft = LabyrinthMapDesign.objects.create(name="draft", text="1 3\n.|. E\nE Exit(RIGHT)\n",
                                              is_active=False)
    people, match = started(MODE, players=2, settings={"map": corridor.pk})
    game, _ = hidden_game(match)
    assert game.map == corridor.to_map()
    play_to_the_end(people, match)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and len(match.result["winners"]) == 1
    reply = api_client(people[0]).post(MATCHES, {"mode": MODE, "settings": {"map": draft.pk}}, format="json")
    assert reply.status_code == 400 and reply.json()["error"]["code"] == "unknown_map"


def test_a_designer_map_deactivated_before_the_start_gives_a_generated_map() -> None:
    from labyrinth.models import LabyrinthMapDesign

    # given: a lobby on a designer map, which a designer takes out of the pool before the start
    corridor = LabyrinthMapDesign.objects.create(name="corridor", text="1 5\n. . . . E\nE Exit(RIGHT)\n")
    host, guest = PlayerFactory(), PlayerFactory()
    settings = {"map": corridor.pk, "rows": 4, "cols": 5}
    lobby = api_client(host).post(MATCHES, {"mode": MODE, "settings": settings}, format="json").json()["id"]
    assert api_client(guest).post(url(lobby, "join/")).status_code == 200
    LabyrinthMapDesign.objects.filter(pk=corridor.pk).update(is_active=False)
    # when
    reply = api_client(host).post(url(lobby, "start/"))
    # then: the match starts on a map of rows x cols generated from its seed, as the paper mode does
    assert reply.status_code == 200 and reply.json()["status"] == "active"
    match = Match.objects.get(pk=lobby)
    generated = parse_map(match.state["map"])
    assert (generated.fields[0].rows, generated.fields[0].cols) == (4, 5)
    assert unreachable_cells(generated) == []
    adapter = get_mode(MODE)
    assert adapter is not None
    again = adapter.create(settings=match.settings, seats=2, rng=rng_for(match.seed, 0))
    assert adapter.state_to_json(again) == match.state


def test_a_turn_limit_ends_a_game_nobody_won_as_a_draw() -> None:
    people, match = started(MODE, players=2, settings={"rows": 3, "cols": 3, "max_turns": 2})
    first = awaited(people, match.pk)
    assert act(first, match.pk, {"command": "E"}).status_code == 200  # free: not a spent turn
    act(first, match.pk, {"command": "W"})
    reply = act(awaited(people, match.pk), match.pk, {"command": "W"})
    assert reply.json()["status"] == "finished"
    assert [e["kind"] for e in reply.json()["events"]][-2:] == ["turn_limit", "match_over"]
    match.refresh_from_db()
    assert match.result["winners"] == [] and match.result["reason"] == "turn_limit"


def test_the_admins_generator_settings_are_frozen_into_the_lobby() -> None:
    from labyrinth.models import LabyrinthGeneratorSettings

    generator = LabyrinthGeneratorSettings.load()
    generator.keys = 0
    generator.save()
    _people, match = started(MODE, players=2, settings={"rows": 4, "cols": 4})
    assert match.settings["generator"]["keys"] == 0
    generator.keys = 1
    generator.save()
    adapter = get_mode(MODE)
    assert adapter is not None
    again = adapter.create(settings=match.settings, seats=2, rng=rng_for(match.seed, 0))
    assert adapter.state_to_json(again) == match.state and not again.map.key_required()
    stored = adapter.validate_settings({**match.settings, "rows": 5})  # e.g. the admin's saved defaults
    assert stored["generator"]["keys"] == 1 and stored["rows"] == 5


def test_chosen_starts_are_secret_and_the_game_begins_once_everyone_has_one() -> None:
    from labyrinth.models import LabyrinthMapDesign

    corridor = LabyrinthMapDesign.objects.create(name="corridor", text="1 5\n. . . . E\nE Exit(RIGHT)\n")
    people, match = started(MODE, players=2, settings={"map": corridor.pk, "start_positions": "chosen"})
    first = awaited(people, match.pk)
    second = next(p for p in people if p != first)
    body = read(first, match.pk)
    assert body["view"]["choosing_starts"] is True and body["view"]["field"] == {"rows": 1, "cols": 5}
    assert body["allowed_actions"] == [{"start": [0, c]} for c in range(5)]
    assert read(second, match.pk)["allowed_actions"] == []
    for bad in ({"command": "W"}, {"start": [1, 0]}, {"start": [0, True]}, {"start": "0,0"}):
        reply = act(first, match.pk, bad)
        assert reply.status_code == 400 and reply.json()["error"]["code"] == "bad_start", bad
    chosen = act(first, match.pk, {"start": [0, 3]}).json()["events"]
    assert [(e["kind"], e["row"], e["col"]) for e in chosen] == [("start_chosen", 0, 3)]
    assert all(e["kind"] != "start_chosen" for e in read(second, match.pk)["events"])
    began = act(second, match.pk, {"start": [0, 0]}).json()["events"]
    assert [e["kind"] for e in began] == ["start_chosen", "game_started"]
    game, _order = hidden_game(match)
    assert [p.start for p in game.players] == [(0, 0, 3), (0, 0, 0)]
    assert act(first, match.pk, {"start": [0, 1]}).json()["error"]["code"] == "bad_command"
    assert act(first, match.pk, {"command": "d"}).status_code == 200
    assert act(second, match.pk, {"command": "d"}).status_code == 200
    won = act(first, match.pk, {"command": "d"}).json()
    assert won["status"] == "finished" and [e["kind"] for e in won["events"]] == ["won", "match_over"]


def test_a_player_who_misses_the_choosing_deadline_gets_a_random_start() -> None:
    adapter = get_mode(MODE)
    assert adapter is not None
    settings = adapter.validate_settings({"rows": 4, "cols": 4, "start_positions": "chosen"})
    state = adapter.create(settings=settings, seats=2, rng=rng_for(7, 0))
    seat = adapter.awaiting(state)
    assert seat is not None
    timed_out = adapter.timeout(state, seat, rng_for(7, 1))
    state, events = timed_out.state, timed_out.events
    assert events == () and len(state.starts) == 1 and state.game is None
    other = adapter.awaiting(state)
    assert other is not None and other != seat
    chosen = adapter.apply(state, other, {"start": [3, 3]}, rng_for(7, 2))
    assert isinstance(chosen, Success)
    state, events = chosen.state, chosen.events
    assert [e.data["kind"] for e in events] == ["start_chosen", "game_started"]
    assert adapter.awaiting(state) == state.order[0] and adapter.outcome(state) is None
