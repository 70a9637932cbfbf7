"""Mode ``labyrinth_paper`` through the match routes: settings (defaults, refusals with codes, the
options reaching the engine), the secret starts, malformed actions (400) and turns the rules refuse
(409), allowed_actions (each one accepted), the public feed, and random games of both variants with
the bot's whole turns that reveal nothing."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamekit.results import Impossible, Success
from matches.models import Match
from matches.modes import rng_for
from matches.services import mode_settings
from paper_labyrinth.actions import turn_to_json
from paper_labyrinth.engine.bot import random_request
from paper_labyrinth.engine.mapformat import format_paper_map, parse_paper_map
from paper_labyrinth.engine.model import CellType
from paper_labyrinth.models import PaperMapDesign
from tests.factories import PlayerFactory
from tests.matches.helpers import MATCHES, url
from tests.paper_labyrinth.mode_helpers import ADAPTER, MODE, SKIP, Table, client

pytestmark = pytest.mark.django_db


# --- settings --------------------------------------------------------------------------------------


def test_the_mode_row_starts_with_the_defaults_and_the_seeds_minute() -> None:
    row = mode_settings(MODE)
    assert row.turn_deadline_seconds == 60
    assert ADAPTER.validate_settings(row.defaults) == row.defaults
    assert row.defaults["variant"] == "classic" and row.defaults["starts"] == "chosen"


@pytest.mark.parametrize(("game_settings", "code"), [
    ({"colour": "red"}, "unknown_setting"),
    ({"variant": "modern"}, "bad_variant"),
    ({"starts": "anywhere"}, "bad_starts"),
    ({"rows": 2}, "bad_size"),
    ({"cols": 13}, "bad_size"),
    ({"rows": True}, "bad_size"),
    ({"cut_corners": "yes"}, "bad_setting"),
    ({"starting_mines": 2}, "bad_starting_mines"),
    ({"starting_mines": True}, "bad_starting_mines"),
    ({"allow_dark": "no"}, "bad_setting"),
    ({"river_mode": "rapid"}, "bad_setting"),
    ({"cure_time": 0}, "bad_cure_time"),
    ({"cure_time": "forever"}, "bad_cure_time"),
    ({"shot_range": 2}, "bad_shot_range"),
    ({"nstop": 0}, "bad_nstop"),
    ({"reorders": 5}, "bad_reorders"),
    ({"last_survivor_turns": -1}, "bad_last_survivor_turns"),
    ({"map": 999_999}, "unknown_map"),
    ({"map": "big"}, "unknown_map"),
])
def test_bad_settings_are_refused_with_a_code(game_settings: dict, code: str) -> None:
    reply = client(PlayerFactory()).post(MATCHES, {"mode": MODE, "settings": game_settings}, format="json")
    assert reply.status_code == 400, reply.json()
    assert reply.json()["error"]["code"] == code
    assert not Match.objects.exists()


def test_the_tables_options_reach_the_engine_and_null_means_the_variants_default() -> None:
    table = Table.open(2, {"variant": "quantum", "nstop": 7, "starting_mines": 1, "cure_time": 3,
                           "allow_dark": False, "rows": 3, "cols": 4, "starts": "random"})
    options = table.game().options
    assert (options.variant, options.nstop, options.starting_mines, options.cure_time) == ("quantum", 7, 1, 3)
    assert options.allow_dark is False
    assert (options.river_mode, options.shot_range, options.allow_conditional) == ("shallow", 1, False)
    assert all(p.slot is not None and p.slot.kind == "mine" for p in table.game().players)
    defaults = Table.open(3, {"cure_time": "unlimited", "starts": "random"}).game()
    assert (defaults.options.variant, defaults.options.cure_time, defaults.options.river_mode) == (
        "classic", None, "deep")
    # the seed's usual 4 x 5 for three players; Nstop: the number of cells
    assert (defaults.map.rows, defaults.map.cols, defaults.options.nstop) == (4, 5, 20)


def test_a_designer_map_hosts_the_game_and_is_checked_for_the_variant(admin_client) -> None:
    example = PaperMapDesign.objects.get(name="Seed 002: small classic example")
    table = Table.open(3, {"map": example.pk, "starts": "random"})
    assert table.match().settings["map"] == example.pk  # the settings are public: the id only
    assert table.game().map == parse_paper_map(example.text)
    assert table.state()["map"] == format_paper_map(parse_paper_map(example.text))
    # a design deactivated after a lobby opened: that match starts on a generated map instead
    host, guest = PlayerFactory(), PlayerFactory()
    lobby = client(host).post(MATCHES, {"mode": MODE, "settings": {"map": example.pk, "starts": "random"}},
                              format="json").json()["id"]
    assert client(guest).post(url(lobby, "join/")).status_code == 200
    PaperMapDesign.objects.filter(pk=example.pk).update(is_active=False)
    assert client(host).post(url(lobby, "start/")).status_code == 200
    generated = parse_paper_map(Match.objects.get(pk=lobby).state["map"])
    assert (generated.rows, generated.cols) == (4, 4)  # the seed's usual size for two players
    # a map with closed exits only is a classic map, not a quantum one (Q§1.4)
    closed = PaperMapDesign.objects.create(name="closed", text=example.text.replace("oС", "xС"))
    assert closed.is_active
    refused = client(PlayerFactory()).post(MATCHES, {"mode": MODE, "settings": {"map": closed.pk,
                                                                                "variant": "quantum"}},
                                           format="json")
    assert refused.status_code == 400, refused.json()
    assert refused.json()["error"]["code"] == "map_invalid_for_variant"
    # the admin's page of the match draws the map with every secret and the players (admin only)
    page = admin_client.get(f"/admin/matches/match/{table.match_id}/change/").content.decode()
    assert "<svg" in page and "<circle" in page


# --- the start ----------------------------------------------------------------------------------------


def test_each_player_chooses_a_secret_start_from_the_outline() -> None:
    table = Table.open(3)
    m = parse_paper_map(table.state()["map"])
    first = table.awaited()
    body = table.read(first)
    view = body["view"]
    assert view["phase"] == "choosing_starts"
    assert view["outline"] == [[(r, c) in m.cells for c in range(m.cols)] for r in range(m.rows)]
    starts = [{"type": "start", "cell": k} for k in range(len(m.cells))]
    assert body["allowed_actions"] == [*starts, {"type": "pause"}]  # the player's pause (C§9) too
    # a turn before the starts is refused by the rules; a cell off the outline is malformed
    assert table.post(first, SKIP, status=409)["error"]["code"] == "choose_start_first"
    outside = table.post(first, {"type": "start", "cell": len(m.cells)}, status=400)
    assert outside["error"]["code"] == "bad_action"
    reply = table.post(first, {"type": "start", "cell": 5})
    assert [e["kind"] for e in reply["events"]] == ["start_chosen"]
    assert all(set(e) == {"seq", "kind", "seat", "number", "text"} for e in reply["events"])
    for other in table.people[1:]:
        assert table.read(other)["view"]["start_chosen"] is (other == first)
    for cell in (6, 7):
        table.post(table.awaited(), {"type": "start", "cell": cell})
    # then: the game master announces each player's cell type (C§6.2), the same to everyone
    views = [table.read(p)["view"] for p in table.people]
    assert views[0]["phase"] == "playing"
    assert len(views[0]["opening"]) == 3 and all(v["opening"] == views[0]["opening"] for v in views)
    cells = sorted(m.cells)
    game = table.game()
    assert [p.pos for p in game.players] == [cells[5], cells[6], cells[7]]
    late = table.post(table.awaited(), {"type": "start", "cell": 1}, status=409)
    assert late["error"]["code"] == "game_started"
    table.assert_nothing_leaked()


@pytest.mark.parametrize("timer", ["on_call", "every_turn"])
def test_a_missed_start_choice_draws_a_start(timer: str) -> None:
    adapter_state = ADAPTER.create(settings=ADAPTER.validate_settings({"timer": timer}), seats=2,
                                   rng=rng_for(3, 0))
    seat = ADAPTER.awaiting(adapter_state)
    if timer == "on_call":  # the game master's patience runs out first: the minute starts
        timed_out = ADAPTER.timeout(adapter_state, seat, rng_for(3, 1))
        adapter_state, events = timed_out.state, timed_out.events
        assert adapter_state.chosen == () and [e.data["kind"] for e in events] == ["timer_started"]
    timed_out = ADAPTER.timeout(adapter_state, seat, rng_for(3, 1))
    state, events = timed_out.state, timed_out.events
    assert len(state.chosen) == 1 and state.game is None
    assert all("cell" not in e.data for e in events)


# --- actions ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [
    {},
    {"type": "dance"},
    {"type": "turn"},
    {"type": "turn", "steps": []},
    {"type": "turn", "steps": "UP"},
    {"type": "turn", "steps": [{"do": "fly"}]},
    {"type": "turn", "steps": [{"do": "move", "direction": "NORTH"}]},
    {"type": "turn", "steps": [{"do": "move"}]},
    {"type": "turn", "steps": [{"do": "move", "direction": "UP", "far": True}]},
    {"type": "turn", "steps": [{"do": "throw", "item": "cake", "direction": "UP"}]},
    {"type": "turn", "steps": [{"do": "if", "condition": "lucky", "then": [{"do": "skip"}]}]},
    {"type": "turn", "steps": [{"do": "if", "condition": "scream", "then": []}]},
    {"type": "turn", "steps": [{"do": "skip"}], "visibility": "bright"},
    {"type": "turn", "steps": [{"do": "skip"}], "reorder": -1},
    {"type": "turn", "steps": [{"do": "skip"}], "reorder": "here"},
    {"type": "turn", "steps": [{"do": "skip"}], "treasure": "top"},
    {"type": "turn", "steps": [{"do": "skip"}], "refill": "no"},
    {"type": "turn", "steps": [{"do": "skip"}], "speed": 3},
    {"type": "start", "cell": 1, "extra": 1},
])
def test_malformed_actions_are_400_even_out_of_turn(action: dict) -> None:
    table = Table.open(2, {"starts": "random"})
    waiting = next(p for p in table.people if p != table.awaited())
    turn = table.match().turn
    for player in (table.awaited(), waiting):
        assert table.post(player, action, status=400)["error"]["code"] == "bad_action"
    assert table.match().turn == turn


@pytest.mark.parametrize(("game_settings", "action", "code"), [
    ({}, {"type": "turn", "steps": [{"do": "move", "direction": "UP"}, {"do": "move", "direction": "UP"}]},
     "two_movements"),
    ({}, {"type": "turn", "steps": [{"do": "shoot", "direction": "UP"}]}, "no_movement"),
    ({}, {"type": "turn", "steps": [{"do": "skip"}, {"do": "move", "direction": "UP"}]}, "skip_not_alone"),
    ({}, {"type": "turn", "steps": [{"do": "shoot", "direction": "HERE"}, {"do": "cycle"}]}, "own_cell_shot"),
    ({}, {"type": "turn", "steps": [{"do": "cycle"}], "reorder": 0}, "reorder_not_allowed"),
    ({}, {"type": "turn", "steps": [{"do": "if", "condition": "wall", "then": [{"do": "skip"}]},
                                    {"do": "cycle"}]}, "movement_in_condition"),
    ({"allow_dark": False}, {"type": "turn", "steps": [{"do": "cycle"}], "visibility": "dark"},
     "dark_forbidden"),
    ({"no_skip_or_repeat": True}, SKIP, "skip_forbidden"),
    ({"allow_throw": False}, {"type": "turn", "steps": [{"do": "throw", "item": "bullet", "direction": "UP"},
                                                        {"do": "cycle"}]}, "throw_forbidden"),
    ({"variant": "quantum"}, {"type": "turn", "steps": [{"do": "shoot", "direction": "UP"}, {"do": "cycle"}]},
     "one_action"),
    ({"variant": "quantum"}, {"type": "turn", "steps": [{"do": "if", "condition": "wall",
                                                         "then": [{"do": "shoot", "direction": "UP"}]}]},
     "conditional_forbidden"),
])
def test_turns_the_rules_refuse_are_409_with_the_rules_code_and_change_nothing(game_settings: dict,
                                                                            action: dict, code: str) -> None:
    table = Table.open(2, {**game_settings, "starts": "random"})
    before = table.match()
    assert table.post(table.awaited(), action, status=409)["error"]["code"] == code
    after = table.match()
    assert (after.turn, after.state, after.event_count) == (before.turn, before.state, before.event_count)


def test_a_player_out_of_turn_gets_409_not_your_turn() -> None:
    table = Table.open(3, {"starts": "random"})
    waiting = next(p for p in table.people if p != table.awaited())
    assert table.post(waiting, SKIP, status=409)["error"]["code"] == "not_your_turn"
    assert table.read(waiting)["allowed_actions"] == [{"type": "timer"}]  # only the call on the awaited one


def test_every_answer_is_public_and_the_request_is_heard_without_the_reorder_cell() -> None:
    table = Table.open(3, {"starts": "random"})
    mover = table.awaited()
    reply = table.post(mover, {"type": "turn", "steps": [{"do": "move", "direction": "UP"}]})
    heard = reply["events"][0]
    assert heard["kind"] == "request" and heard["seat"] == table.seat_of(mover) and heard["number"] == 1
    assert heard["request"] == {"type": "turn", "steps": [{"do": "move", "direction": "UP"}]}
    answers = [e for e in reply["events"] if e["kind"] == "gm"]
    assert answers
    assert all(set(e) == {"seq", "kind", "seat", "number", "code", "text", "data"} for e in answers)
    for player in table.people:  # every seat reads the same feed
        feed = table.read(player)["events"]
        assert [e["seq"] for e in feed if e["seq"] >= heard["seq"]] == [e["seq"] for e in reply["events"]]
    assert table.read(mover)["view"]["last_answers"][str(table.seat_of(mover))] == [
        {k: v for k, v in e.items() if k != "seq"} for e in answers]


def test_the_quantum_shot_into_the_own_cell_names_the_victims_by_their_match_seats() -> None:
    # given: three players who all chose the same land cell (sharing a start is allowed)
    table = Table.open(3, {"variant": "quantum"})
    m = parse_paper_map(table.state()["map"])
    land = sorted(m.cells).index(next(p for p in sorted(m.cells) if m.cells[p] is CellType.LAND))
    table.choose_starts([land, land, land])
    shooter = table.awaited()
    # when: the first one shoots into the own cell
    reply = table.post(shooter, {"type": "turn", "steps": [{"do": "shoot", "direction": "HERE"}]})
    # then: the game master names the two others, as match seats
    shot = next(e for e in reply["events"] if e.get("code") == "shot")
    others = sorted(table.seat_of(p) for p in table.people if p != shooter)
    assert sorted(shot["data"]["wounded"]) == others
    for player in table.people:
        own = table.read(player)["view"]["status"]
        assert own["health"] == ("healthy" if player == shooter else "wounded")
    table.assert_nothing_leaked()


# --- allowed actions and random games -------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "quantum"])
def test_every_allowed_action_is_accepted_and_random_games_reveal_nothing(variant: str) -> None:
    chooser = random.Random(variant)
    for game_no in range(2):
        table = Table.open(3, {"variant": variant, "nstop": 4})
        for _ in range(400):
            match = table.match()
            if match.is_over:
                break
            mover = table.awaited()
            body = table.read(mover)
            allowed = body["allowed_actions"]
            assert allowed, body
            seat = table.seat_of(mover)
            state = ADAPTER.state_from_json(match.state)
            for action in allowed:  # each one applies as sent (on the server's state)
                applied = ADAPTER.apply(state, seat, json.loads(json.dumps(action)), rng_for(0, match.turn))
                assert isinstance(applied, Success), (action, applied)
            if state.game is not None and chooser.random() < 0.6:
                game = table.game()
                turn = random_request(game, table.engine_seat(mover), chooser)
                action = turn_to_json(turn, sorted(game.map.cells))
            else:
                action = chooser.choice(allowed)
            table.read_all()
            table.post(mover, action)
        assert table.match().is_over
        table.assert_nothing_leaked()


# --- never a 500 ----------------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.floats(allow_nan=False) | st.sampled_from(
        ["turn", "start", "move", "UP", "HERE", "skip", "shoot", "throw", "treasure", "if", "wall", "dark"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["type", "steps", "do", "direction", "item", "condition", "then", "cell", "reorder", "treasure",
         "refill", "visibility"]), inner, max_size=5),
    max_leaves=20)
STEP = st.fixed_dictionaries(
    {"do": st.sampled_from(["move", "downstream", "cycle", "skip", "shoot", "grenade", "leave", "throw",
                            "mine", "if"])},
    optional={"direction": JSON_VALUES, "item": JSON_VALUES, "condition": JSON_VALUES, "then": JSON_VALUES})
TURNS = st.fixed_dictionaries({"type": st.just("turn"), "steps": st.lists(STEP, max_size=4)},
                              optional={"visibility": JSON_VALUES, "reorder": JSON_VALUES,
                                        "treasure": JSON_VALUES, "refill": JSON_VALUES})


@pytest.mark.parametrize("variant", ["classic", "quantum"])
@settings(max_examples=60, deadline=None)
@given(action=st.one_of(TURNS, st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=4), JSON_VALUES
                        .filter(lambda v: isinstance(v, dict))))
def test_any_json_action_is_accepted_or_refused_with_a_code_never_an_error(variant: str,
                                                                           action: dict) -> None:
    for starts in ("random", "chosen"):
        state = ADAPTER.create(settings=ADAPTER.validate_settings({"variant": variant, "starts": starts}),
                               seats=3, rng=rng_for(1, 0))
        seat = ADAPTER.awaiting(state)
        answer = ADAPTER.check_action(state, action) or ADAPTER.apply(state, seat, action, rng_for(1, 1))
        if isinstance(answer, Impossible):
            assert answer.code and answer.kind in ("input", "rule")


def test_the_match_board_in_the_admin_has_the_legend_with_the_players(admin_client) -> None:
    table = Table.open(3)
    page = admin_client.get(f"/admin/matches/match/{table.match_id}/change/").content.decode()
    assert '<table class="picture-legend">' in page and "a player (the turn order" in page
    assert ">С</span></td><td>Land<" in page
