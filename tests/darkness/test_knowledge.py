"""What a guild knows of its maze: kept across runs, shown to members only, and nothing more."""
from __future__ import annotations

import importlib
import json
import random

import pytest
from django.apps import apps as global_apps
from django.utils import timezone
from rest_framework.test import APIClient

from darkness.engine import move as maze_move
from darkness.models import DarknessSettings, GuildMaze
from darkness.services import guild_maze_create
from guilds.models import Guild, Membership
from labyrinth.engine import Direction, format_map, has_wall, parse_map, with_special, with_wall
from labyrinth.engine.grid import Stun
from tests.darkness.helpers import API, darkness_settings, install_maze, only
from tests.dungeons.run_helpers import Party, guild_party, lobby
from tests.factories import PlayerFactory, api_client, make_guild

pytestmark = pytest.mark.django_db


def labyrinth(client: APIClient, guild: Guild):
    return client.get(f"{API}/guilds/{guild.pk}/labyrinth/")


def test_a_new_guild_gets_a_maze_with_the_settings_in_force() -> None:
    darkness_settings(rows=6, cols=5, sections=3)
    guild = make_guild()
    maze = GuildMaze.objects.get(guild=guild)
    assert (maze.rows, maze.cols, maze.sections, maze.visited) == (6, 5, 3, [])
    layout = maze.layout()
    assert len(layout.camps) == 2 and layout.section(layout.heart) == 2
    # later settings never change an existing maze
    darkness_settings(rows=8)
    assert guild_maze_create(guild=guild).map_text == maze.map_text


def test_the_data_migration_gives_every_guild_without_a_maze_one() -> None:
    guild = make_guild()
    GuildMaze.objects.filter(guild=guild).delete()
    migration = importlib.import_module("darkness.migrations.0002_settings_and_guild_mazes")
    migration.forwards(global_apps, None)
    assert GuildMaze.objects.filter(guild=guild).count() == 1
    before = GuildMaze.objects.get(guild=guild).map_text
    migration.forwards(global_apps, None)  # idempotent: existing mazes stay
    assert GuildMaze.objects.get(guild=guild).map_text == before
    assert DarknessSettings.objects.count() == 1


def test_the_labyrinth_route_is_for_members_only() -> None:
    players, guild = guild_party(2)
    assert labyrinth(api_client(players[1]), guild).status_code == 200
    outsider = PlayerFactory()
    reply = labyrinth(api_client(outsider), guild)
    assert reply.status_code == 403 and reply.json()["error"]["code"] == "not_member"
    assert labyrinth(APIClient(), guild).status_code == 401
    reply = api_client(players[0]).get(f"{API}/guilds/987654/labyrinth/")
    assert reply.status_code == 404 and reply.json()["error"]["code"] == "guild_not_found"
    assert api_client(players[0]).get(f"{API}/guilds/0/labyrinth/").status_code == 404
    assert api_client(players[0]).get(f"{API}/guilds/abc/labyrinth/").status_code == 404


def test_knowledge_is_kept_across_runs_and_shared_by_the_guild() -> None:
    only("empty")
    players, guild = guild_party(3)
    install_maze(guild)
    party = Party(players[:2])
    run = lobby(players[:2], kind="darkness")
    run_json = party.post(players[0], f"runs/{run.pk}/start/").json()
    for direction in ("RIGHT", "DOWN"):
        run_json = party.post(players[0], f"runs/{run.pk}/move/",
                              {"step": run_json["step"], "direction": direction}).json()
    # the member who stayed home sees what the party saw
    body = labyrinth(api_client(players[2]), guild).json()
    assert body["explored"] == 3
    assert [(r["row"], r["col"], r["kind"]) for r in body["rooms"]] == [(0, 0, "entrance"), (0, 1, "room"),
                                                                          (1, 1, "room")]
    assert body["rooms"][2]["walls"] == {"UP": False, "LEFT": False, "DOWN": True, "RIGHT": True}


def test_a_former_member_sees_only_the_rooms_of_their_own_run() -> None:
    only("empty")
    players, guild = guild_party(2)
    install_maze(guild)
    GuildMaze.objects.filter(guild=guild).update(visited=[0, 1, 3, 2])
    party = Party(players)
    run = lobby(players, kind="darkness")
    party.post(players[0], f"runs/{run.pk}/start/")
    # the second member leaves the guild (the guild rules' minimum stay is not what is tested here)
    Membership.objects.filter(guild=guild, player=players[1]).update(left_at=timezone.now())
    leaver = party.run(run.pk, who=players[1])["darkness"]
    assert [(r["row"], r["col"]) for r in leaver["rooms"]] == [(0, 0)]
    assert party.run(run.pk, who=players[0])["darkness"]["explored"] == 4


def _mutate_unexplored(maze: GuildMaze, known: set[tuple[int, int]], rng: random.Random) -> None:
    """Change everything about the rooms nobody has seen: walls between them, their specials, and the
    heart and camps if they lie there."""
    m = parse_map(maze.map_text)
    for r in range(maze.rows):
        for c in range(maze.cols):
            if (r, c) in known:
                continue
            for d, (nr, nc) in ((Direction.RIGHT, (r, c + 1)), (Direction.DOWN, (r + 1, c))):
                if nr < maze.rows and nc < maze.cols and (nr, nc) not in known:
                    m = with_wall(m, (0, r, c), d, not has_wall(m, (0, r, c), d))
            m = with_special(m, (0, r, c), Stun(9) if rng.random() < 0.5 else None)
    unseen = sorted((r, c) for r in range(maze.rows) for c in range(maze.cols) if (r, c) not in known)
    maze.map_text = format_map(m)
    if tuple(maze.heart) not in known:
        maze.heart = list(rng.choice(unseen))
    maze.camps = [camp if tuple(camp) in known else list(rng.choice(unseen)) for camp in maze.camps]
    maze.save()


def test_no_response_lets_a_client_reconstruct_the_unexplored_maze() -> None:
    # given: a real 10x10 guild maze, a party that walked some way into it
    only("empty", teleport_rate=0.0)
    players, guild = guild_party(2)
    party = Party(players)
    maze = GuildMaze.objects.get(guild=guild)
    run = lobby(players, kind="darkness")
    run_json = party.post(players[0], f"runs/{run.pk}/start/").json()
    rng = random.Random(4)
    layout = maze.layout()
    for _ in range(12):
        here = (run_json["darkness"]["position"]["row"], run_json["darkness"]["position"]["col"])
        options = [d for d in Direction if maze_move(layout.map, here, d).outcome.value != "wall"]
        reply = party.post(players[0], f"runs/{run.pk}/move/",
                           {"step": run_json["step"], "direction": rng.choice(options).value})
        assert reply.status_code == 200, reply.json()
        run_json = reply.json()
    maze.refresh_from_db()
    known = maze.visited_positions()
    assert 1 < len(known) < 100
    before = [labyrinth(party.client(p), guild).content for p in players]
    run_before = [party.client(p).get(f"{API}/runs/{run.pk}/").content for p in players]

    # when: everything unexplored is redrawn
    _mutate_unexplored(maze, known, random.Random(5))
    assert maze.visited_positions() == known

    # then: every response is byte for byte the same
    assert [labyrinth(party.client(p), guild).content for p in players] == before
    assert [party.client(p).get(f"{API}/runs/{run.pk}/").content for p in players] == run_before
    body = json.loads(before[0])
    assert {(r["row"], r["col"]) for r in body["rooms"]} == known
    assert "seed" not in body and "map_text" not in json.dumps(body)
