"""Darkness runs under real concurrent requests on PostgreSQL: one move per step, parties of one guild
moving at the same moment both add to what the guild knows, and a lobby's seats go to its guild only."""
from __future__ import annotations

from collections import Counter
from functools import partial

import pytest

from darkness.models import DarknessRun, GuildMaze
from dungeons.models import MemberStatus, Run, RunMember
from dungeons.runs.lobby import run_start
from tests.darkness.helpers import API, install_maze, only
from tests.dungeons.concurrency import all_at_once, live_url_fixture, request, token  # noqa: F401 (fixture)
from tests.dungeons.run_helpers import guild_party, lobby, run_settings
from tests.factories import PlayerFactory, make_guild

pytestmark = pytest.mark.postgres

FORK = "4 2\n. .\n. .\n.|.\n. _\n. .\n_ .\n. .\n"  # the entrance (0,0) opens RIGHT and DOWN


def test_sixteen_identical_moves_for_one_step_move_once(live_url) -> None:
    # given: a darkness run at the entrance of the corridor maze
    only("empty", torch_length=30)
    players, guild = guild_party(2)
    install_maze(guild)
    run = lobby(players, kind="darkness")
    run_start(player=players[0], run_id=run.pk)
    step = Run.objects.get(pk=run.pk).step
    bearers = [token(p) for p in players]

    # when: both members send the same move eight times each, all at once
    replies = all_at_once([partial(request, "POST", f"{live_url}{API}/runs/{run.pk}/move/", bearers[i % 2],
                                   {"step": step, "direction": "RIGHT"}) for i in range(16)])

    # then: one move happened, the others were told the party had moved on, one torch unit burnt
    assert Counter(r.status for r in replies) == {200: 1, 409: 15}, replies
    assert {r.code for r in replies if r.status == 409} == {"stale_step"}
    dark = DarknessRun.objects.get(run_id=run.pk)
    assert (dark.row, dark.col, dark.torch_left) == (0, 1, 29)
    assert dark.path == [[0, 0], [0, 1]]
    assert Run.objects.get(pk=run.pk).step == step + 1
    assert GuildMaze.objects.get(guild=guild).visited == [0, 1]


def test_two_parties_of_one_guild_moving_at_once_both_add_to_its_knowledge(live_url) -> None:
    only("empty")
    players, guild = guild_party(4)
    install_maze(guild, FORK)
    runs = []
    for pair in (players[:2], players[2:]):
        run = lobby(pair, kind="darkness")
        run_start(player=pair[0], run_id=run.pk)
        runs.append(Run.objects.get(pk=run.pk))

    replies = all_at_once([
        partial(request, "POST", f"{live_url}{API}/runs/{runs[0].pk}/move/", token(players[0]),
                {"step": runs[0].step, "direction": "RIGHT"}),
        partial(request, "POST", f"{live_url}{API}/runs/{runs[1].pk}/move/", token(players[2]),
                {"step": runs[1].step, "direction": "DOWN"}),
    ])

    assert [r.status for r in replies] == [200, 200], replies
    assert GuildMaze.objects.get(guild=guild).visited == [0, 1, 2]


def test_concurrent_joins_seat_only_the_guilds_members_up_to_the_party_limit(live_url) -> None:
    # given: a darkness lobby of a guild, four seats; six more of its members, six players of other
    # guilds or of none
    run_settings(max_party_size=4)
    players, _guild = guild_party(7)
    run = lobby(players[:1], kind="darkness")
    outsiders = [make_guild().leader for _ in range(3)] + [PlayerFactory() for _ in range(3)]

    # when: all twelve ask for a seat at once
    replies = all_at_once([partial(request, "POST", f"{live_url}{API}/runs/{run.pk}/join/", token(p))
                           for p in [*players[1:], *outsiders]])

    # then: three members sat down and three found it full; every outsider was refused
    members, others = replies[:6], replies[6:]
    assert Counter((r.status, r.code) for r in members) == {(200, None): 3, (409, "party_full"): 3}, members
    assert {(r.status, r.code) for r in others} == {(409, "not_guild_member")}, others
    seated = RunMember.objects.filter(run=run, status=MemberStatus.JOINED)
    assert sorted(seated.values_list("position", flat=True)) == [0, 1, 2, 3]
    assert set(seated.values_list("player_id", flat=True)) <= {p.pk for p in players}
