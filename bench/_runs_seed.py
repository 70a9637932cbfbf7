"""Seeding for the run benchmark (bench/bench_runs.py): balancing data that keeps battles going,
background history (past runs with dungeons, rooms, parties, battles, events and actions, so the
indexes the hot paths use are not toy-sized), and players and lobbies made for each measurement.

Bulk rows are written with ``INSERT ... SELECT`` through bench_guilds' ``_insert_select``
(columns not named take the model field's default), so the seed keeps working while other apps
add columns. Lobbies made in SQL are checked once against a lobby made by the real services.
"""
from __future__ import annotations

import json
import secrets
import time
from typing import Any

from bench.bench_guilds import _insert_select

BACKGROUND_PREFIX = "bench_bg_"
HOST_PREFIX = "bench_runs_"
BG_GUILD_SIZE = 8
ROOMS_PER_FLOOR = 6


def configure_balancing(*, party_size: int) -> None:
    """Battles that last: every creature and every player has (nearly) unbreakable HP and no round
    limit ends a battle; the party limit admits a party of ``party_size``. Everything else (damage,
    effects, deadlines, encounters) stays as the data migrations made it."""
    from combat.models import CombatSettings, EnemyKind
    from dungeons.models import RunSettings

    RunSettings.objects.filter(pk=RunSettings.load().pk).update(
        max_party_size=max(party_size, RunSettings.load().max_party_size))
    CombatSettings.objects.filter(pk=CombatSettings.load().pk).update(base_hp=30_000, max_rounds=30_000)
    EnemyKind.objects.update(hp=30_000)


# --- background history ------------------------------------------------------------------------------

def _template_battle() -> int:
    """A real battle made by the services (a solo run of a throwaway player), whose setup and
    state JSON the background battles copy so their rows have a realistic size."""
    from django.contrib.auth import get_user_model

    from combat.models import Battle
    from dungeons.models import Run
    from dungeons.runs import lobby as services
    from dungeons.runs.rooms import run_advance
    from players.models import Player

    existing = Battle.objects.filter(run__host__user__username=f"{BACKGROUND_PREFIX}template").first()
    if existing is not None:
        return existing.pk
    user = get_user_model().objects.create(username=f"{BACKGROUND_PREFIX}template", password="!")
    player = Player.objects.create(user=user, display_name=user.username)
    run = services.run_open(player=player, kind="ordinary")
    services.run_weapon_choose(player=player, run_id=run.pk, item_kind_id=None)
    services.run_start(player=player, run_id=run.pk)
    for _ in range(40):
        run = Run.objects.get(pk=run.pk)
        battle = Battle.objects.filter(run=run).first()
        if battle is not None:
            return battle.pk
        run_advance(player=player, run_id=run.pk, step=run.step)
    raise RuntimeError("bench seed: no battle in the template run's first 40 rooms")


def background_counts() -> tuple[int, int, int]:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT (SELECT count(*) FROM dungeons_run"
                    "        WHERE status IN ('completed', 'failed', 'escaped')),"
                    " (SELECT count(*) FROM combat_battle), (SELECT count(*) FROM combat_battleevent)")
        runs, battles, events = cur.fetchone()
    return int(runs), int(battles), int(events)


def seed_background(*, runs: int, battles_per_run: int, events_per_battle: int, actions_per_battle: int,
                    reseed: bool) -> None:
    """Past runs (ended, members inactive) with everything they leave behind; skipped when present."""
    from django.db import connection, transaction

    from combat.engine import ENGINE_VERSION
    from dungeons.generation import GENERATOR_VERSION, GenerationParams

    have_runs, have_battles, have_events = background_counts()
    if not reseed and have_runs >= runs and have_events >= runs * battles_per_run * events_per_battle:
        print(f"seed: background present ({have_runs:,} past runs, {have_battles:,} battles, "
              f"{have_events:,} battle events); --reseed to redo", flush=True)
        return
    players = max(runs // 2, 1000)
    battles = runs * battles_per_run
    print(f"seed: {players:,} players in {players // BG_GUILD_SIZE:,} guilds, {runs:,} past runs with "
          f"dungeons, {battles:,} battles, {battles * events_per_battle:,} events, "
          f"{battles * actions_per_battle:,} actions", flush=True)
    started = time.perf_counter()
    with connection.cursor() as cur:
        cur.execute("TRUNCATE combat_battleaction, combat_battleevent, combat_battle, dungeons_runloot, "
                    "dungeons_runmember, dungeons_run, dungeons_dungeonroom, dungeons_dungeon, "
                    "players_inventoryitem, guilds_personrunday, guilds_membership, guilds_guild, "
                    "players_player, auth_user RESTART IDENTITY CASCADE")
    configure_balancing(party_size=8)
    template = _template_battle()
    params: dict[str, Any] = {"runs": runs, "players": players, "size": BG_GUILD_SIZE, "bpr": battles_per_run,
                              "epb": events_per_battle, "apb": actions_per_battle, "tpl": template,
                              "gen": GENERATOR_VERSION, "eng": ENGINE_VERSION, "rpf": ROOMS_PER_FLOOR,
                              "gparams": json.dumps(GenerationParams().as_dict()),
                              "bg": f"{BACKGROUND_PREFIX}%"}
    steps: list[tuple[str, dict[str, str], str]] = [
        ("auth.User", {
            "password": "'!'", "is_superuser": "false", "username": f"'{BACKGROUND_PREFIX}' || n",
            "first_name": "''", "last_name": "''", "email": "''", "is_staff": "false", "is_active": "true",
            "date_joined": "now() - make_interval(days => 30 + n %% 300)",
        }, "generate_series(1, %(players)s) AS n"),
        ("players.Player", {
            "user_id": "id", "display_name": "username", "money": "50 + id %% 2000",
            "completed_dungeons": "id %% 23", "created_at": "date_joined",
        }, (f"auth_user WHERE username LIKE '{BACKGROUND_PREFIX}%%' "
            f"AND username <> '{BACKGROUND_PREFIX}template'")),
        # Guilds of 8: the first player of every block of 8 leads it.
        ("guilds.Guild", {
            "name": "'Background guild ' || p.n", "description": "''", "leader_id": "p.id", "is_open": "true",
            "members_count": "%(size)s", "rank": "p.n %% 7",
            "created_at": "now() - interval '60 days'",
        }, ("(SELECT id, row_number() OVER (ORDER BY id)::int AS n FROM players_player "
            "WHERE display_name LIKE %(bg)s AND display_name <> 'bench_bg_template') AS p "
            "WHERE p.n %% %(size)s = 1")),
        ("guilds.GuildActivity", {"guild_id": "g.id", "activity_a": "0", "computed_at": "NULL"},
         ("guilds_guild AS g "
          "WHERE NOT EXISTS (SELECT 1 FROM guilds_guildactivity AS a WHERE a.guild_id = g.id)")),
        ("guilds.Membership", {
            "guild_id": "g.id", "player_id": "p.id", "joined_at": "g.created_at", "left_at": "NULL",
            "left_reason": "''",
        }, ("(SELECT id, row_number() OVER (ORDER BY id)::int AS n FROM players_player "
            "WHERE display_name LIKE %(bg)s AND display_name <> 'bench_bg_template') AS p "
            "JOIN (SELECT id, created_at, row_number() OVER (ORDER BY id)::int AS n FROM guilds_guild) AS g "
            "ON g.n = (p.n - 1) / %(size)s + 1")),
        ("dungeons.Dungeon", {
            "kind": "CASE WHEN n %% 4 = 0 THEN 'frenzy' ELSE 'ordinary' END",
            "seed": "(n::bigint * 2654435761) %% 9223372036854775807", "generator_version": "%(gen)s",
            "party_size": "1 + n %% 4", "rank": "(n %% 7)::float8", "completed": "(n %% 23)::float8",
            "same_guild": "false", "params": "%(gparams)s::jsonb", "npc_candidates": "'[]'::jsonb",
            "floor_count": "2 + n %% 4", "npc_chance": "0", "npc_floor": "NULL", "npc_room": "NULL",
            "npc_kind": "''", "created_at": "now() - make_interval(mins => n)",
        }, "generate_series(1, %(runs)s) AS n"),
        ("dungeons.DungeonRoom", {
            "dungeon_id": "d.id", "floor": "f", "index": "i",
            "kind": "CASE WHEN i = %(rpf)s - 1 THEN 'boss' WHEN i = %(rpf)s - 2 THEN 'rest' "
                    "WHEN (d.id + f + i) %% 5 = 0 THEN 'trap' WHEN (d.id + f + i) %% 7 = 0 THEN 'treasure' "
                    "ELSE 'enemy' END",
            "npc_kind": "''", "story_item": "''",
        }, ("dungeons_dungeon AS d CROSS JOIN LATERAL generate_series(0, d.floor_count - 1) AS f "
            "CROSS JOIN generate_series(0, %(rpf)s - 1) AS i "
            "WHERE NOT EXISTS (SELECT 1 FROM dungeons_run AS x WHERE x.dungeon_id = d.id)")),
        ("dungeons.Run", {
            "kind": "d.kind",
            "status": "(ARRAY['completed','completed','failed','escaped'])[1 + d.id %% 4]",
            "host_id": "(SELECT min(id) FROM players_player WHERE display_name LIKE %(bg)s) "
                       "+ (d.id * 7) %% %(players)s",
            "seed": "d.seed", "dungeon_id": "d.id", "guild_id": "NULL", "floor": "d.floor_count - 1",
            "room": "%(rpf)s - 1", "room_cleared": "false", "step": "d.floor_count * %(rpf)s",
            "npc_kind": "''", "npc_hp": "0", "npc_max_hp": "0",
            "log": """jsonb_build_array(
                jsonb_build_object('seq', 1, 'kind', 'started', 'floor', 0, 'room', 0,
                                   'party', jsonb_build_array(d.id), 'rank', 0, 'completed', 0),
                jsonb_build_object('seq', 2, 'kind', 'entered', 'floor', 0, 'room', 0, 'room_kind', 'enemy'),
                jsonb_build_object('seq', 3, 'kind', 'battle', 'floor', 0, 'room', 0, 'battle', d.id,
                                   'enemies', jsonb_build_array('Giant Rat', 'Goblin Cutthroat')),
                jsonb_build_object('seq', 4, 'kind', 'battle_over', 'floor', 0, 'room', 0, 'battle', d.id,
                                   'outcome', 'victory'),
                jsonb_build_object('seq', 5, 'kind', 'entered', 'floor', 0, 'room', 1, 'room_kind', 'trap'),
                jsonb_build_object('seq', 6, 'kind', 'trap', 'floor', 0, 'room', 1,
                                   'hits', jsonb_build_object()),
                jsonb_build_object('seq', 7, 'kind', 'completed', 'floor', 0, 'room', 1,
                                   'party', jsonb_build_array()))""",
            # the log's entries are the run's one sequence; the seeded battles' events stay outside it
            "event_seq": "7",
            "created_at": "d.created_at", "started_at": "d.created_at + interval '1 minute'",
            "ended_at": "d.created_at + interval '25 minutes'",
        }, ("dungeons_dungeon AS d "
            "WHERE NOT EXISTS (SELECT 1 FROM dungeons_run AS x WHERE x.dungeon_id = d.id)")),
        # Parties of 1-4 distinct players; the host first. Nobody is active in a past run.
        ("dungeons.RunMember", {
            # the host first, then players a quarter of the range apart: distinct within a party
            "run_id": "r.id",
            "player_id": "m.low + ((r.host_id - m.low) + k * (%(players)s / 4)) %% %(players)s",
            "position": "k",
            "status": "CASE r.status WHEN 'completed' THEN 'finished' WHEN 'failed' THEN 'dead' "
                      "ELSE 'escaped' END",
            "active": "false", "weapon_choice": "'taken'", "guild_id": "NULL", "hp": "0", "max_hp": "20",
            "kills": "jsonb_build_object('giant-rat', k + 1)", "joined_at": "r.created_at",
        }, ("dungeons_run AS r JOIN dungeons_dungeon AS d ON d.id = r.dungeon_id "
            "CROSS JOIN (SELECT min(id) AS low FROM players_player WHERE display_name LIKE %(bg)s) AS m "
            "CROSS JOIN LATERAL generate_series(0, d.party_size - 1) AS k "
            "WHERE r.status IN ('completed', 'failed', 'escaped')")),
        ("combat.Battle", {
            "run_id": "r.id", "floor": "0", "room": "b", "seed": "(r.seed + b) %% 9223372036854775807",
            "engine_version": "%(eng)s", "setup": "(SELECT setup FROM combat_battle WHERE id = %(tpl)s)",
            "state": "(SELECT state FROM combat_battle WHERE id = %(tpl)s)", "outcome": "'victory'",
            "step": "%(apb)s", "event_count": "%(epb)s", "awaiting_id": "NULL", "turn_started_at": "NULL",
            "enemy_kinds": """'{"e1": "giant-rat", "e2": "goblin-cutthroat"}'::jsonb""",
            "created_at": "r.started_at + make_interval(mins => b)",
            "ended_at": "r.started_at + make_interval(mins => b + 1)",
        }, ("dungeons_run AS r CROSS JOIN generate_series(0, %(bpr)s - 1) AS b "
            "WHERE r.status IN ('completed', 'failed', 'escaped')")),
        ("combat.BattleEvent", {
            "battle_id": "b.id", "seq": "s",
            "data": """CASE s %% 4
                WHEN 1 THEN jsonb_build_object('kind', 'turn_started', 'actor', 'p1', 'round', 1 + s / 8)
                WHEN 2 THEN jsonb_build_object('kind', 'attack', 'actor', 'p1', 'target', 'e1',
                                               'weapon', 'Hatchet')
                WHEN 3 THEN jsonb_build_object('kind', 'damage', 'target', 'e1', 'amount', 3, 'hp', 40,
                                               'source', 'attack')
                ELSE jsonb_build_object('kind', 'turn_ended', 'actor', 'p1') END""",
        }, "combat_battle AS b CROSS JOIN generate_series(1, %(epb)s) AS s WHERE b.id <> %(tpl)s"),
        ("combat.BattleAction", {
            "battle_id": "b.id", "step": "s", "player_id": "r.host_id",
            "action": "jsonb_build_object('kind', 'attack', 'actor', 'p' || r.host_id, 'target', 'e1')",
            "idempotency_key": "md5(b.id || '/' || s)",
            "response": "jsonb_build_object('turn', s, 'next_turn', s + 1, 'first_event', s * 4, 'events', "
                        "jsonb_build_array(), 'outcome', 'ongoing')",
            "created_at": "b.created_at + make_interval(secs => s)",
        }, ("combat_battle AS b JOIN dungeons_run AS r ON r.id = b.run_id "
            "CROSS JOIN generate_series(1, %(apb)s) AS s WHERE b.id <> %(tpl)s")),
    ]
    with transaction.atomic(), connection.cursor() as cur:
        # The rows are consistent by construction: skip the per-row foreign-key triggers.
        cur.execute("SET LOCAL session_replication_role = replica")
        for label, exprs, source in steps:
            step_started = time.perf_counter()
            _insert_select(cur, label, exprs, source, params)
            elapsed = time.perf_counter() - step_started
            print(f"  {label}: {cur.rowcount:,} rows in {elapsed:.1f} s", flush=True)
    connection.close()
    with connection.cursor() as cur:
        for table in ("auth_user", "players_player", "guilds_guild", "guilds_membership", "dungeons_dungeon",
                      "dungeons_dungeonroom", "dungeons_run", "dungeons_runmember", "combat_battle",
                      "combat_battleevent", "combat_battleaction"):
            cur.execute(f"VACUUM ANALYZE {table}")
    print(f"seed: done in {time.perf_counter() - started:.1f} s", flush=True)


# --- players and lobbies for the measurements -------------------------------------------------------------

def _numbered(tag_param: str = "like") -> str:
    """SQL: this batch's players numbered 1.. in id order (``n``)."""
    return ("(SELECT id, row_number() OVER (ORDER BY id)::int AS n FROM players_player "
            f"WHERE display_name LIKE %({tag_param})s)")


def make_players(*, count: int, group_size: int) -> tuple[str, list[tuple[int, str]]]:
    """``count`` fresh players in guilds of ``group_size`` (the first of each group leads it).
    Returns the batch's name tag and, in order, (player id, JWT access token) per player."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from rest_framework_simplejwt.tokens import AccessToken

    from players.models import Player

    tag = f"{HOST_PREFIX}{secrets.token_hex(4)}_"
    params = {"count": count, "size": group_size, "tag": tag, "like": tag.replace("_", "\\_") + "%"}
    steps: list[tuple[str, dict[str, str], str]] = [
        ("auth.User", {
            "password": "'!'", "is_superuser": "false", "username": "%(tag)s || n", "first_name": "''",
            "last_name": "''", "email": "''", "is_staff": "false", "is_active": "true",
            "date_joined": "now() - interval '90 days'",
        }, "generate_series(1, %(count)s) AS n"),
        ("players.Player", {
            "user_id": "id", "display_name": "username", "money": "500", "completed_dungeons": "id %% 15",
            "created_at": "date_joined",
        }, "auth_user WHERE username LIKE %(like)s"),
        ("guilds.Guild", {
            "name": "%(tag)s || 'guild ' || p.n", "description": "''", "leader_id": "p.id", "is_open": "true",
            "members_count": "%(size)s", "rank": "p.n %% 5",
            "created_at": "now() - interval '90 days'",
        }, _numbered() + " AS p WHERE (p.n - 1) %% %(size)s = 0"),
        ("guilds.GuildActivity", {"guild_id": "g.id", "activity_a": "0", "computed_at": "NULL"},
         ("guilds_guild AS g "
          "WHERE NOT EXISTS (SELECT 1 FROM guilds_guildactivity AS a WHERE a.guild_id = g.id)")),
        ("guilds.Membership", {
            "guild_id": "g.id", "player_id": "p.id", "joined_at": "g.created_at", "left_at": "NULL",
            "left_reason": "''",
        }, _numbered() + " AS p JOIN " + _numbered() + " AS l ON l.n = (p.n - 1) / %(size)s * %(size)s + 1 "
           "JOIN guilds_guild AS g ON g.leader_id = l.id"),
    ]
    with transaction.atomic(), connection.cursor() as cur:
        for label, exprs, source in steps:
            _insert_select(cur, label, exprs, source, params)
    ids = list(Player.objects.filter(display_name__startswith=tag).order_by("pk")
               .values_list("pk", "user_id"))
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=[uid for _, uid in ids])}
    return tag, [(pid, str(AccessToken.for_user(users[uid]))) for pid, uid in ids]


def make_lobbies(*, count: int, party_size: int) -> list[tuple[str, int]]:
    """``count`` lobbies of ``party_size`` fresh players (one guild per party), everyone joined and
    having refused the starting weapon: the state ``run_open`` + ``run_join`` + ``run_weapon_choose``
    leave (``check_lobby_shape`` proves it). Returns (host's token, run id) per lobby."""
    from django.db import connection, transaction

    from dungeons.models import Run

    tag, players = make_players(count=count * party_size, group_size=party_size)
    params = {"size": party_size, "like": tag.replace("_", "\\_") + "%"}
    with transaction.atomic(), connection.cursor() as cur:
        _insert_select(cur, "dungeons.Run", {
            "kind": "CASE WHEN p.n %% 4 = 0 THEN 'frenzy' ELSE 'ordinary' END", "status": "'lobby'",
            "host_id": "p.id", "seed": "floor(random() * 9.2e18)::bigint", "dungeon_id": "NULL",
            "guild_id": "NULL", "floor": "NULL", "room": "NULL", "room_cleared": "false", "step": "0",
            "npc_kind": "''", "npc_hp": "0", "npc_max_hp": "0", "log": "'[]'::jsonb", "created_at": "now()",
            "started_at": "NULL", "ended_at": "NULL",
        }, _numbered() + " AS p WHERE (p.n - 1) %% %(size)s = 0", params)
        _insert_select(cur, "dungeons.RunMember", {
            "run_id": "r.id", "player_id": "p.id", "position": "(p.n - 1) %% %(size)s", "status": "'joined'",
            "active": "true", "weapon_choice": "'refused'", "guild_id": "NULL", "hp": "0", "max_hp": "0",
            "joined_at": "now()",
        }, _numbered() + " AS p JOIN " + _numbered() + " AS l ON l.n = (p.n - 1) / %(size)s * %(size)s + 1 "
           "JOIN dungeons_run AS r ON r.host_id = l.id AND r.status = 'lobby'", params)
    hosts = players[::party_size]
    runs = dict(Run.objects.filter(host_id__in=[pid for pid, _ in hosts], status="lobby")
                .values_list("host_id", "pk"))
    return [(token, runs[pid]) for pid, token in hosts]


def check_lobby_shape() -> None:
    """A lobby made in SQL holds exactly what the services write for one (ids, times and the seed
    aside): if a column is added whose service value differs from its default, stop here."""
    from dungeons.models import Run, RunMember
    from dungeons.runs import lobby as services
    from players.models import Player

    (_token, sql_run_id), = make_lobbies(count=1, party_size=2)
    _tag, players = make_players(count=2, group_size=2)
    host, guest = (Player.objects.get(pk=pid) for pid, _ in players)
    run = services.run_open(player=host, kind="ordinary")
    services.run_join(player=guest, run_id=run.pk)
    for player in (host, guest):
        services.run_weapon_choose(player=player, run_id=run.pk, item_kind_id=None)
    skip_run = {"id", "seed", "host", "created_at", "kind"}
    skip_member = {"id", "run", "player", "joined_at"}

    def shape(model: Any, obj: Any, skip: set[str]) -> dict[str, Any]:
        return {f.name: getattr(obj, f.attname) for f in model._meta.concrete_fields if f.name not in skip}

    made, real = Run.objects.get(pk=sql_run_id), Run.objects.get(pk=run.pk)
    differences = {k: (v, shape(Run, real, skip_run)[k]) for k, v in shape(Run, made, skip_run).items()
                   if shape(Run, real, skip_run)[k] != v}
    for position in (0, 1):
        m = RunMember.objects.get(run=made, position=position)
        r = RunMember.objects.get(run=real, position=position)
        a, b = shape(RunMember, m, skip_member), shape(RunMember, r, skip_member)
        differences.update({f"member.{k}": (v, b[k]) for k, v in a.items() if b[k] != v})
    if differences:
        raise RuntimeError("bench lobbies made in SQL differ from the services' (sql, services): "
                           f"{differences}")
    for obj in (made, real):  # leave nobody in an active lobby
        for member in RunMember.objects.filter(run=obj).select_related("player"):
            services.run_leave(player=member.player, run_id=obj.pk)
