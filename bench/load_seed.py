"""Seeding for the load benchmark (bench/bench_load.py): the guild bench's 100k guilds and 5M ledger
rows, plus players who play (with guilds, a little gear and JWTs), open lobbies and runs left in
the middle of a battle. Every step checks what is there first, so a re-run seeds only what is
missing (in practice: a few more players to replace those the previous run left inside a dungeon).

The load writes to the database (runs, battles, the activity ledger through ``run_start``), so it
uses a database of its own, ``deepdelve_load`` by default: the guild bench's ``deepdelve_bench``
would no longer pass its "already seeded" check (its ledger row count would change) and would
reseed itself, truncating everything. When ``deepdelve_bench`` exists and is seeded, the load
database is cloned from it (``CREATE DATABASE ... TEMPLATE``, seconds instead of minutes).
"""
from __future__ import annotations

import os
import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit

GUILD_BENCH_DATABASE = "deepdelve_bench"
ACTOR_PREFIX = "bench_load_"


def _actor_n(column: str) -> str:
    """SQL: the number n of a ``bench_load_<n>`` username, NULL for any other (never a cast error,
    whatever order the planner evaluates the conditions in)."""
    return (f"(CASE WHEN {column} ~ '^{ACTOR_PREFIX}[0-9]+$' "
            f"THEN substr({column}, {len(ACTOR_PREFIX) + 1})::int END)")


def _admin_url(database_url: str) -> str:
    parts = urlsplit(database_url)
    return urlunsplit(("postgresql", parts.netloc, "/postgres", "", ""))


def _guild_bench_seeded(conn: Any, guilds: int, days: int, database_url: str) -> bool:
    """Whether the guild bench's database exists with exactly its seed (read-only check)."""
    import psycopg

    found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [GUILD_BENCH_DATABASE]).fetchone()
    if found is None:
        return False
    parts = urlsplit(database_url)
    url = urlunsplit(("postgresql", parts.netloc, "/" + GUILD_BENCH_DATABASE, "", ""))
    try:
        with psycopg.connect(url, autocommit=True) as source:
            row = source.execute("SELECT (SELECT count(*) FROM guilds_guild), "
                                 "(SELECT count(*) FROM guilds_personrunday)").fetchone()
    except psycopg.Error:
        return False
    return row is not None and row[0] == guilds and row[1] == guilds * days


def ensure_database(database_url: str, *, guilds: int, days: int) -> str:
    """Create the load database if missing: a clone of a seeded guild-bench database when there is
    one (and nobody is connected to it), else empty (seeded later). Returns what was done."""
    import psycopg

    name = urlsplit(database_url).path.lstrip("/")
    with psycopg.connect(_admin_url(database_url), autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None:
            return f"database {name} exists"
        if name != GUILD_BENCH_DATABASE and _guild_bench_seeded(conn, guilds, days, database_url):
            started = time.perf_counter()
            try:
                conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{GUILD_BENCH_DATABASE}"')
                return (f"database {name} cloned from the seeded {GUILD_BENCH_DATABASE} in "
                        f"{time.perf_counter() - started:.1f} s")
            except psycopg.Error as exc:  # e.g. the guild bench is connected to it right now
                print(f"  cloning {GUILD_BENCH_DATABASE} failed ({exc.__class__.__name__}: "
                      f"{str(exc).strip()[:120]}); seeding instead", flush=True)
        conn.execute(f'CREATE DATABASE "{name}"')
        return f"database {name} created empty"


def _timed(label: str, started: float) -> None:
    print(f"  {label}: {time.perf_counter() - started:.1f} s", flush=True)


# --- guilds: the guild bench's seed, reused as is -------------------------------------------------------

def ensure_guilds(*, guilds: int, days: int) -> None:
    """100k guilds and their ledger, as ``bench_guilds.seed`` makes them, with activity computed.

    The load adds ledger rows (every started run records person-runs), so "seeded" here means the
    guild count matches and the ledger holds at least the seeded rows.
    """
    from django.db import connection

    from bench import bench_guilds
    from guilds.models import Guild

    with connection.cursor() as cur:
        cur.execute("SELECT (SELECT count(*) FROM guilds_guild), (SELECT count(*) FROM guilds_personrunday)")
        have_guilds, have_rows = cur.fetchone()
    if have_guilds == guilds and have_rows >= guilds * days:
        print(f"seed: guilds already there ({have_guilds:,} guilds, {have_rows:,} ledger rows)", flush=True)
    else:
        # Truncates guilds, players and (by cascade) every run, then seeds as the guild bench does.
        bench_guilds.seed(guilds=guilds, days=days, reseed=True)
    if Guild.objects.filter(disbanded_at__isnull=True, activity_row__computed_at__isnull=True).exists():
        from guilds.services import guild_activity_recompute_all

        started = time.perf_counter()
        updated = guild_activity_recompute_all()
        with connection.cursor() as cur:
            cur.execute("VACUUM ANALYZE guilds_guildactivity")
        _timed(f"activity computed for {updated:,} guilds", started)


# --- players who play ----------------------------------------------------------------------------------

def _actor_count() -> int:
    from django.contrib.auth import get_user_model

    return int(get_user_model().objects.filter(username__startswith=ACTOR_PREFIX).count())


def _add_actors(first: int, last: int) -> None:
    """Players ``bench_load_<first..last>``: user, player, a membership in a living guild (players
    2k-1 and 2k share one, so a party can be a one-guild party), and a little gear: a worn cap and
    boots and a minor healing potion."""
    from django.db import connection, transaction

    from bench.bench_guilds import _insert_select

    params = {"first": first, "last": last}
    with transaction.atomic(), connection.cursor() as cur:
        _insert_select(cur, "auth.User", {
            "password": "'!'", "is_superuser": "false", "username": f"'{ACTOR_PREFIX}' || n",
            "first_name": "''", "last_name": "''", "email": "''", "is_staff": "false", "is_active": "true",
            "date_joined": "now() - make_interval(days => 30 + n %% 300)",
        }, "generate_series(%(first)s, %(last)s) AS n", params)
        _insert_select(cur, "players.Player", {
            "user_id": "id", "display_name": "username", "money": "50 + (id * 37) %% 2000",
            "completed_dungeons": "(id * 13) %% 25", "strength": "id %% 3", "stamina": "(id / 3) %% 3",
            "metabolism": "(id / 9) %% 2", "luck": "(id / 18) %% 2", "attentiveness": "(id / 36) %% 2",
            "created_at": "date_joined",
        }, f"auth_user WHERE {_actor_n('username')} BETWEEN %(first)s AND %(last)s", params)
        _insert_select(cur, "guilds.Membership", {
            "guild_id": "g.id", "player_id": "p.id", "joined_at": "now() - interval '30 days'",
            "left_at": "NULL", "left_reason": "''",
        }, f"""(SELECT pl.id, {_actor_n('u.username')} AS n
                FROM players_player pl JOIN auth_user u ON u.id = pl.user_id
                WHERE {_actor_n('u.username')} BETWEEN %(first)s AND %(last)s) AS p
            JOIN (SELECT id, row_number() OVER (ORDER BY id) AS rn
                  FROM guilds_guild WHERE disbanded_at IS NULL) AS g
              ON g.rn = 1 + (((p.n + 1) / 2)::bigint * 7919)
                        %% (SELECT count(*) FROM guilds_guild WHERE disbanded_at IS NULL)""", params)
        for name, equipped in (("Leather Cap", True), ("Worn Boots", True), ("Minor Healing Potion", False)):
            cur.execute("SELECT id FROM players_itemkind WHERE name = %s", [name])
            row = cur.fetchone()
            if row is None:  # the catalog is admin data; gear is decoration, not required
                continue
            _insert_select(cur, "players.InventoryItem", {
                "player_id": "p.id", "item_kind_id": str(int(row[0])),
                "equipped": "true" if equipped else "false",
                "acquired_in_run_id": "NULL", "created_at": "now()",
            }, f"""players_player p JOIN auth_user u ON u.id = p.user_id
                   WHERE {_actor_n('u.username')} BETWEEN %(first)s AND %(last)s""",
                params)


def free_pairs(limit: int, *, exclude: set[int] | None = None) -> list[tuple[int, int]]:
    """Pairs (player ids of bench_load_2k-1 and bench_load_2k) neither of whom is in an active run."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(f"""
            WITH actor AS MATERIALIZED (
                SELECT p.id, {_actor_n('u.username')} AS n
                FROM players_player p JOIN auth_user u ON u.id = p.user_id WHERE u.username LIKE %s),
            busy AS MATERIALIZED (SELECT player_id FROM dungeons_runmember WHERE active)
            SELECT a.id, b.id FROM actor a JOIN actor b ON b.n = a.n + 1
            WHERE a.n %% 2 = 1
              AND a.id NOT IN (SELECT player_id FROM busy) AND b.id NOT IN (SELECT player_id FROM busy)
            ORDER BY a.n""", [ACTOR_PREFIX.replace("_", "\\_") + "%"])
        rows = [(int(a), int(b)) for a, b in cur.fetchall()]
    exclude = exclude or set()
    return [pair for pair in rows if pair[0] not in exclude and pair[1] not in exclude][:limit]


def ensure_actors(*, base: int, free_pairs_needed: int) -> None:
    """At least ``base`` actor players, and at least ``free_pairs_needed`` pairs not in a run."""
    started = time.perf_counter()
    have = _actor_count()
    target = max(base, have)
    short = free_pairs_needed - len(free_pairs(free_pairs_needed))
    if short > 0:
        target = max(target, have + 2 * short)
    target += target % 2
    if target > have:
        _add_actors(have + 1, target)
        from django.db import connection

        with connection.cursor() as cur:
            for table in ("auth_user", "players_player", "guilds_membership", "players_inventoryitem"):
                cur.execute(f"VACUUM ANALYZE {table}")
        _timed(f"seed: {target - have:,} players added ({target:,} in all)", started)
    else:
        print(f"seed: {have:,} players already there", flush=True)


# --- lobbies and runs left in battle ---------------------------------------------------------------------

def background_counts() -> tuple[int, int]:
    from combat.models import Battle
    from dungeons.models import Run, RunStatus

    lobbies = Run.objects.filter(status=RunStatus.LOBBY,
                                 host__user__username__startswith=ACTOR_PREFIX).count()
    battles = Battle.objects.filter(outcome="ongoing", run__status=RunStatus.ACTIVE).count()
    return lobbies, battles


def ensure_background(*, lobbies: int, battles: int, reserve_pairs: int) -> None:
    """Open lobbies (half with a second member) and started runs stopped in an ongoing battle, made
    through the real services. ``reserve_pairs`` free pairs are kept for the load clients."""
    from dungeons.models import Run, RunStatus
    from dungeons.runs import lobby as runs
    from dungeons.runs.rooms import run_advance
    from players.models import Player

    have_lobbies, have_battles = background_counts()
    need_lobbies, need_battles = max(0, lobbies - have_lobbies), max(0, battles - have_battles)
    if not need_lobbies and not need_battles:
        print(f"seed: {have_lobbies:,} open lobbies and {have_battles:,} ongoing battles already there",
              flush=True)
        return
    started = time.perf_counter()
    pairs = free_pairs(reserve_pairs + need_lobbies + need_battles * 2)[reserve_pairs:]
    players = {p.pk: p for p in Player.objects.filter(pk__in=[pk for pair in pairs for pk in pair])}
    made_lobbies = made_battles = attempts = 0
    for index, (a, b) in enumerate(pairs):
        host, other = players[a], players[b]
        if made_lobbies < need_lobbies:
            run = runs.run_open(player=host, kind="ordinary" if index % 4 else "frenzy")
            if index % 2:
                runs.run_join(player=other, run_id=run.pk)
            made_lobbies += 1
            continue
        if made_battles >= need_battles or attempts > need_battles * 3:
            break
        attempts += 1
        run = runs.run_open(player=host, kind="ordinary")
        runs.run_join(player=other, run_id=run.pk)
        for player in (host, other):
            offer = runs.run_offer(player=player, run_id=run.pk)
            runs.run_weapon_choose(player=player, run_id=run.pk, item_kind_id=offer[0].pk if offer else None)
        runs.run_start(player=host, run_id=run.pk)
        # Walk on until a battle holds the party (a trap or treasure room may come first).
        for _ in range(6):
            run = Run.objects.get(pk=run.pk)
            if run.status != RunStatus.ACTIVE:
                break
            if not run.room_cleared:
                made_battles += 1
                break
            run_advance(player=host, run_id=run.pk, step=run.step)
    have_lobbies, have_battles = background_counts()
    _timed(f"seed: lobbies and battles through the services (now {have_lobbies:,} open lobbies, "
           f"{have_battles:,} ongoing battles)", started)


# --- tokens ----------------------------------------------------------------------------------------------

def tokens_for(player_ids: list[int]) -> dict[int, tuple[str, str]]:
    """(access, refresh) JWTs for each player, signed with the server's SECRET_KEY."""
    from rest_framework_simplejwt.tokens import RefreshToken

    from players.models import Player

    out = {}
    for player in Player.objects.filter(pk__in=player_ids).select_related("user"):
        refresh = RefreshToken.for_user(player.user)
        out[player.pk] = (str(refresh.access_token), str(refresh))
    return out


def redis_flush(urls: list[str]) -> None:
    """Empty the Redis databases this benchmark owns (numbers 12-14 by default, never others)."""
    import redis

    for url in urls:
        client = redis.Redis.from_url(url)
        client.flushdb()
        client.close()


def database_summary() -> dict[str, int]:
    from django.db import connection

    queries = {
        "guilds": "SELECT count(*) FROM guilds_guild",
        "ledger rows": "SELECT count(*) FROM guilds_personrunday",
        "players": "SELECT count(*) FROM players_player",
        "runs": "SELECT count(*) FROM dungeons_run",
        "open lobbies": "SELECT count(*) FROM dungeons_run WHERE status = 'lobby'",
        "active runs": "SELECT count(*) FROM dungeons_run WHERE status = 'active'",
        "battles": "SELECT count(*) FROM combat_battle",
        "battle actions": "SELECT count(*) FROM combat_battleaction",
    }
    out = {}
    with connection.cursor() as cur:
        for label, sql in queries.items():
            cur.execute(sql)
            out[label] = int(cur.fetchone()[0])
    return out


if __name__ == "__main__":  # pragma: no cover - used through bench_load.py
    raise SystemExit("run: python3 dev.py bench load  (" + os.path.basename(__file__) + " is a helper)")
