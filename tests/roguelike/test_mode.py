"""Mode ``labyrinth_roguelike`` through the match routes: a whole game won, what the view hides,
settings, refusals, the seed's /new_game (opening a new game ends the old) and its keeping of a
game (no deadline, leaving keeps it)."""
from __future__ import annotations

import json
from collections import deque
from datetime import timedelta
from typing import Any

import pytest
import time_machine

from labyrinth.engine.grid import DIRECTIONS, Cell, neighbour
from matches.models import Match, MatchAction, MatchSeat, MatchStatus
from players.models import Player
from roguelike.engine import Game, Side, game_from_json, gold_cell
from tests.factories import PlayerFactory, api_client
from tests.matches.helpers import MATCHES, act, read, url

pytestmark = pytest.mark.django_db
MODE = "labyrinth_roguelike"
CALM = {"seed": 11, "width": 4, "height": 4, "floors": 1, "dragon_count": 0, "archer_count": 0,
        "mine_count": 0, "portal_count": 0}

NEW_GAME = {"winners": [], "winner_seats": [], "reason": "new_game", "details": {}}
PLAYER_KNOWS = {"health", "max_health", "arrows", "bombs", "slots", "items", "gold", "rings", "bags",
                "deaths", "death_limit", "turn", "won", "lost", "here"}
CELL_KNOWS = {"building", "sides", "monsters", "arsenal", "lift"}


def open_game(player: Player, settings: dict[str, Any] | None = None) -> int:
    reply = api_client(player).post(MATCHES, {"mode": MODE, "settings": settings or {}}, format="json")
    assert reply.status_code == 201, reply.json()
    match_id: int = reply.json()["id"]
    assert api_client(player).post(url(match_id, "start/")).status_code == 200
    return match_id


def server_game(match_id: int) -> Game:
    """The game as the server holds it (the test plays the game master's part to find a way)."""
    return game_from_json(Match.objects.get(pk=match_id).state)


def way(game: Game, start: Cell, goal: Cell) -> list[str]:
    """Directions of a shortest walk (no portals, no lift needed on one floor)."""
    back: dict[Cell, tuple[Cell, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for d in DIRECTIONS:
            there = neighbour(game.world.maze, cell, d)
            if there is not None and there not in back and game.world.side(cell, d) is Side.SPACE:
                back[there] = (cell, d.value)
                queue.append(there)
    steps: list[str] = []
    at = goal
    while (link := back[at]) is not None:
        at, direction = link
        steps.append(direction)
    return steps[::-1]


def cells_in(value: Any) -> list[Any]:
    """Every [f, r, c]-shaped list of three whole numbers anywhere in a JSON value."""
    if isinstance(value, dict):
        return [cell for v in value.values() for cell in cells_in(v)]
    if isinstance(value, list):
        whole = all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        own = [value] if len(value) == 3 and whole else []
        return own + [cell for v in value for cell in cells_in(v)]
    return []


def test_a_whole_game_is_won_through_the_match_routes() -> None:
    player = PlayerFactory()
    match_id = open_game(player, CALM)
    game = server_game(match_id)
    gold = gold_cell(game)
    assert gold is not None
    plan = way(game, game.player.cell, gold) + way(game, gold, game.world.exit_cell)
    plan.append(game.world.exit_side.value)
    for direction in plan:
        body = read(player, match_id)
        assert {"type": "go", "direction": direction} in body["allowed_actions"]
        reply = act(player, match_id, {"type": "go", "direction": direction}, turn=body["turn"])
        assert reply.status_code == 200, reply.json()
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED
    assert match.result == {"winners": [player.pk], "winner_seats": [0], "reason": "treasure_carried_out",
                            "details": {"turns": match.result["details"]["turns"], "deaths": 0}}
    events = [e["kind"] for e in read(player, match_id)["events"]]
    assert events.count("picked_up") == 1 and events[-2:] == ["victory", "match_over"]


def test_the_view_never_shows_the_map_monsters_elsewhere_or_the_gold() -> None:
    player = PlayerFactory()
    match_id = open_game(player, {"dragon_count": 3, "archer_count": 3, "seed": 5})
    game = server_game(match_id)
    for step in range(12):
        body = read(player, match_id)
        assert cells_in(body["view"]) == [] and cells_in(body["events"]) == []
        assert set(body["view"]) == PLAYER_KNOWS and set(body["view"]["here"]) <= CELL_KNOWS
        assert all(set(m) <= {"kind", "facing"} for m in body["view"]["here"]["monsters"])
        assert "world" not in json.dumps(body) and "ground" not in json.dumps(body)
        here = server_game(match_id)
        sharing = [m.kind.value for m in here.monsters if m.cell == here.player.cell]
        assert [m["kind"] for m in body["view"]["here"]["monsters"]] == sharing
        assert body["view"]["gold"] == here.player.gold
        go = [a for a in body["allowed_actions"] if a["type"] == "go"]
        if not go or Match.objects.get(pk=match_id).is_over:
            break
        assert act(player, match_id, go[step % len(go)], turn=body["turn"]).status_code == 200
    assert gold_cell(game) is not None


def test_lobby_settings_are_the_seeds_per_game_ones_and_are_validated() -> None:
    player = PlayerFactory()
    client = api_client(player)
    for settings, code in [({"player_health": 50}, "setting_not_per_game"), ({"width": 9}, "bad_setting"),
                           ({"colour": "red"}, "bad_setting"), ({"floors": "two"}, "bad_setting"),
                           ({"width": 3, "height": 3, "floors": 1, "portal_count": 20}, "bad_setting")]:
        reply = client.post(MATCHES, {"mode": MODE, "settings": settings}, format="json")
        assert reply.status_code == 400 and reply.json()["error"]["code"] == code, (settings, reply.json())
    assert not Match.objects.filter(mode=MODE).exists()
    reply = client.post(MATCHES, {"mode": MODE, "settings": {"seed": 3, "width": 5}}, format="json")
    assert reply.status_code == 201 and reply.json()["settings"]["width"] == 5
    assert reply.json()["settings"]["player_health"] == 5 and len(reply.json()["settings"]) == 26


def test_the_same_seed_gives_the_same_labyrinth_in_two_games() -> None:
    first = server_game(open_game(PlayerFactory(), {"seed": 77}))
    second = server_game(open_game(PlayerFactory(), {"seed": 77}))
    assert first == second


def test_a_new_game_ends_the_old_one() -> None:
    player = PlayerFactory()
    old = open_game(player, CALM)
    lobby = api_client(player).post(MATCHES, {"mode": MODE, "settings": {}}, format="json").json()["id"]
    ended = Match.objects.get(pk=old)
    assert ended.status == MatchStatus.ABANDONED and ended.result == NEW_GAME
    assert act(player, old, {"type": "go", "direction": "UP"}).json()["error"]["code"] == "match_over"
    newer = open_game(player)
    assert Match.objects.get(pk=lobby).status == MatchStatus.CANCELLED
    active = MatchSeat.objects.filter(player=player, active=True).values_list("match_id", flat=True)
    assert list(active) == [newer]


def test_refused_and_malformed_actions_change_nothing() -> None:
    player = PlayerFactory()
    match_id = open_game(player, CALM)
    before = Match.objects.get(pk=match_id).state
    game = server_game(match_id)
    wall = next(d for d in DIRECTIONS if game.world.side(game.player.cell, d) in (Side.WALL, Side.OUTER_WALL))
    reply = act(player, match_id, {"type": "go", "direction": wall.value})
    assert reply.status_code == 409 and reply.json()["error"]["code"] == "wall"
    reply = act(player, match_id, {"type": "build", "direction": "UP"})
    assert reply.status_code == 409 and reply.json()["error"]["code"] in ("no_cement",)
    for bad in ({"type": "fly"}, {"type": "go"}, {"type": "go", "direction": "NORTH"},
                {"type": "lift", "floor": "2"}):
        reply = act(player, match_id, bad)
        assert reply.status_code == 400 and reply.json()["error"]["code"] == "bad_action", bad
    match = Match.objects.get(pk=match_id)
    assert match.state == before and match.turn == 1


def test_a_single_player_game_cannot_be_joined() -> None:
    player, other = PlayerFactory(), PlayerFactory()
    lobby = api_client(player).post(MATCHES, {"mode": MODE, "settings": {}}, format="json").json()["id"]
    reply = api_client(other).post(url(lobby, "join/"))
    assert reply.status_code == 409 and reply.json()["error"]["code"] == "match_full"


def test_the_modes_admin_row_starts_with_the_seeds_defaults() -> None:
    from matches.services import mode_settings

    row = mode_settings(MODE)
    assert row.defaults["respawn_health_percent"] == 80 and row.defaults["spawn_location"] == "graveyard"


def test_an_idle_game_is_never_thrown_away_and_goes_on_from_the_same_place() -> None:
    # given: a game one step in, and an admin deadline of one second (which this mode does not use)
    from matches.services import mode_settings

    row = mode_settings(MODE)
    row.turn_deadline_seconds = 1
    row.save()
    player = PlayerFactory()
    match_id = open_game(player, CALM)
    game = server_game(match_id)
    first = next(d for d in DIRECTIONS if game.world.side(game.player.cell, d) is Side.SPACE)
    assert act(player, match_id, {"type": "go", "direction": first.value}).status_code == 200
    before = Match.objects.get(pk=match_id)
    seen = read(player, match_id)["view"]
    # when: the player comes back a year later and lists, reads and plays
    with time_machine.travel(before.turn_started_at + timedelta(days=365), tick=False):
        listed = api_client(player).get(MATCHES, {"mode": MODE}).json()["results"]
        body = read(player, match_id)
        again = act(player, match_id, {"type": "go", "direction": first.opposite.value})
    # then: the game waited, with no deadline and no timeout, exactly where it was
    assert [(m["id"], m["status"], m["turn"]) for m in listed] == [(match_id, "active", before.turn)]
    assert body["status"] == "active" and body["deadline"] is None and body["turn"] == before.turn
    assert body["view"] == seen and body["allowed_actions"]
    assert again.status_code == 200, again.json()
    assert not MatchAction.objects.filter(match_id=match_id, action__isnull=True).exists()


def test_leaving_a_started_game_keeps_it_and_only_a_new_game_ends_it() -> None:
    # given: a started game
    player = PlayerFactory()
    match_id = open_game(player, CALM)
    before = Match.objects.get(pk=match_id)
    # when: the player leaves it
    reply = api_client(player).post(url(match_id, "leave/"))
    # then: nothing changed: the game is theirs to come back to, and goes on
    assert reply.status_code == 200, reply.json()
    assert reply.json()["status"] == "active" and reply.json()["players"][0]["active"] is True
    after = Match.objects.get(pk=match_id)
    assert (after.status, after.state, after.turn, after.absent_seats) == ("active", before.state, 1, [])
    assert MatchSeat.objects.get(match_id=match_id).active
    assert read(player, match_id)["allowed_actions"]
    # and when the player opens a new game, the old one ends
    assert api_client(player).post(MATCHES, {"mode": MODE, "settings": {}}, format="json").status_code == 201
    ended = Match.objects.get(pk=match_id)
    assert ended.status == MatchStatus.ABANDONED and ended.result == NEW_GAME


def test_the_admin_picture_draws_the_floors() -> None:
    from matches.modes import get_mode

    adapter = get_mode(MODE)
    assert adapter is not None
    picture = adapter.picture(server_game(open_game(PlayerFactory(), {"floors": 2, "seed": 1})))
    assert picture.startswith("<svg") and picture.count("</svg>") == 1
