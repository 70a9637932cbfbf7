"""The lobby of a run: open, join, leave, the junk dealer's offer, the starting weapon, the formation,
and the start (the dungeon generated from the party, the first room entered)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from backend.errors import InvalidInput, NotAllowed, NotFound, RuleViolation
from backend.sql import Columns, rows_update, singletons_load
from combat.engine.state import to_jsonable
from combat.models import CombatSettings
from dungeons import run_rules
from dungeons import services as dungeon_services
from dungeons.kinds import run_kind_hooks
from dungeons.models import DungeonKind, GenerationSettings, MemberStatus, RoomKind, Run, RunMember, RunStatus, WeaponChoice
from dungeons.run_log import Formation, Started, read_back
from dungeons.runs.core import current_room, lock_run, log, require_status, run_member, run_party, run_rules_get
from dungeons.runs.rooms import RoomEntry, enter_room
from guilds.models import Guild, Membership
from guilds.selectors import player_current_guild
from guilds.services import guild_person_runs_record
from npcs.selectors import guild_npc_kinds_unrescued, junk_dealer_offer_size, junk_dealer_tiers
from npcs.services import warlock_buffs_claim_party
from players.models import InventoryItem, ItemCategory, ItemKind, Player
from players.services import inventory_add


def _join(run: Run, player: Player, position: int) -> RunMember:
    try:
        with transaction.atomic():
            member, _ = RunMember.objects.update_or_create(
                run=run, player=player,
                defaults={"position": position, "status": MemberStatus.JOINED, "active": True,
                          "weapon_choice": WeaponChoice.PENDING},
            )
    except IntegrityError as exc:  # the partial unique index: already active in another run
        current = RunMember.objects.filter(player=player, active=True).values_list("run_id", flat=True).first()
        raise RuleViolation("already_in_run", "You are already in a run.", {"run": current}) from exc
    return member


@transaction.atomic
def run_open(*, player: Player, kind: str) -> Run:
    """Open a lobby of ``kind`` (ordinary or frenzy) with the player as host and first member."""
    if kind not in (DungeonKind.ORDINARY, DungeonKind.FRENZY, DungeonKind.DARKNESS):
        raise InvalidInput("invalid_kind", "Runs are ordinary, frenzy or darkness.", {"kind": kind})
    run = Run(kind=kind, host=player, seed=dungeon_services.new_seed())
    run_kind_hooks(kind).seat_check(run=run, player=player)  # e.g. a darkness lobby is its host's guild's
    run.save(force_insert=True)
    _join(run, player, 0)
    return run


@transaction.atomic
def run_join(*, player: Player, run_id: int) -> Run:
    run = lock_run(run_id)
    if run.status != RunStatus.LOBBY and not RunMember.objects.filter(run=run, player=player).exists():
        # A stranger learns nothing about a run that is no longer a lobby (GET answers 404 too).
        raise NotFound("run_not_found", "No such run.", {"run": run.pk})
    require_status(run, RunStatus.LOBBY)
    members = run_party(run, MemberStatus.JOINED)
    if any(m.player_id == player.pk for m in members):
        raise RuleViolation("already_in_party", "You are already in this party.", {"run": run.pk})
    run_kind_hooks(run.kind).seat_check(run=run, player=player)
    limit = run_rules_get().max_party_size
    if len(members) >= limit:
        raise RuleViolation("party_full", "The party is full.", {"run": run.pk, "limit": limit})
    _join(run, player, len(members))
    return run


def _reorder(members: list[RunMember]) -> None:
    moved = []
    for position, member in enumerate(members):
        if member.position != position:
            member.position = position
            moved.append(member)
    rows_update(moved, ["position"])


def _unseat(run: Run, member: RunMember) -> None:
    """The member is out of the lobby: the starting weapon goes back to the junk dealer."""
    InventoryItem.objects.filter(player_id=member.player_id, acquired_in_run=run).delete()
    member.status, member.active, member.weapon_choice = MemberStatus.LEFT, False, WeaponChoice.PENDING
    member.save(update_fields=["status", "active", "weapon_choice"])


@transaction.atomic
def run_leave(*, player: Player, run_id: int) -> Run:
    """Leave a lobby: the starting weapon goes back to the junk dealer; the last one out cancels it."""
    run = lock_run(run_id)
    member = run_member(run, player, MemberStatus.JOINED)
    require_status(run, RunStatus.LOBBY)
    _unseat(run, member)
    rest = run_party(run, MemberStatus.JOINED)
    _reorder(rest)
    if not rest:
        run.status, run.ended_at = RunStatus.CANCELLED, timezone.now()
    elif run.host_id == player.pk:
        run.host = rest[0].player
    run.save()
    return run


def run_offer(*, player: Player, run_id: int) -> list[ItemKind]:
    """The junk dealer's starting weapons for this player in this lobby (the same on every call)."""
    run = Run.objects.filter(pk=run_id).first()
    if run is None:
        raise NotFound("run_not_found", "No such run.", {"run": run_id})
    run_member(run, player)
    guild = player_current_guild(player=player)
    size = junk_dealer_offer_size(guild_id=guild.pk if guild else None)
    tiers = [weapons for _, weapons in junk_dealer_tiers(rank=guild.rank if guild else 0)]
    if not tiers:  # no tier defined in the admin: the catalog's basic weapons
        tiers = [list(ItemKind.objects.filter(category=ItemCategory.WEAPON, is_basic=True).order_by("pk"))]
    rng = run_rules.room_rng(run.seed, 0, 0, f"offer/{player.pk}")
    return run_rules.junk_offer_tiered(tiers, size=size, rng=rng)


@transaction.atomic
def run_weapon_choose(*, player: Player, run_id: int, item_kind_id: int | None) -> RunMember:
    """Take one weapon of the offer (it is carried and in hand), or refuse (``None``)."""
    run = lock_run(run_id)
    member = run_member(run, player, MemberStatus.JOINED)
    require_status(run, RunStatus.LOBBY)
    if member.weapon_choice != WeaponChoice.PENDING:
        raise RuleViolation("weapon_already_chosen", "You already chose.", {"choice": member.weapon_choice})
    if item_kind_id is None:
        member.weapon_choice = WeaponChoice.REFUSED
    else:
        offer = {kind.pk: kind for kind in run_offer(player=player, run_id=run.pk)}
        if item_kind_id not in offer:
            raise RuleViolation("not_offered", "The junk dealer does not offer that.",
                                {"item_kind": item_kind_id, "offer": sorted(offer)})
        inventory_add(player=player, item_kind=offer[item_kind_id], equip=True, acquired_in_run_id=run.pk)
        member.weapon_choice = WeaponChoice.TAKEN
    member.save(update_fields=["weapon_choice"])
    return member


@transaction.atomic
def run_formation_set(*, player: Player, run_id: int, players: list[int]) -> Run:
    """Set the party's order: in the lobby, or in a rest room; a permutation of the party present."""
    run = lock_run(run_id)
    present = MemberStatus.JOINED if run.status == RunStatus.LOBBY else MemberStatus.IN_DUNGEON
    run_member(run, player, present)
    if run.status != RunStatus.LOBBY and not (run.status == RunStatus.ACTIVE
                                              and current_room(run).kind == RoomKind.REST):
        raise RuleViolation("formation_locked", "The formation changes only in the lobby or a rest room.")
    members = run_party(run, present)
    if sorted(players) != sorted(m.player_id for m in members):
        raise InvalidInput("invalid_formation", "Name every party member once.",
                           {"party": [m.player_id for m in members]})
    by_player = {m.player_id: m for m in members}
    _reorder([by_player[pid] for pid in players])
    if run.status == RunStatus.ACTIVE:
        log(run, Formation(players=players))
        run.save(update_fields=["log"])
    return run


#: The party of a lobby in order, each member with its player, account and current guild (id and rank):
#: ``guilds.selectors.with_current_guild`` joined into one precompiled read (backend.sql.Columns).
_MEMBER, _PLAYER, _USER = Columns(RunMember), Columns(Player), Columns(get_user_model())
_PARTY = (
    f'SELECT {_MEMBER.select()}, {_PLAYER.select()}, {_USER.select()}, gm."guild_id", gg."rank" '
    f'FROM "dungeons_runmember" INNER JOIN "players_player" ON "dungeons_runmember"."player_id" = "players_player"."id" '
    f'INNER JOIN "auth_user" ON "players_player"."user_id" = "auth_user"."id" '
    f'LEFT OUTER JOIN "{Membership._meta.db_table}" gm ON gm."player_id" = "players_player"."id" AND gm."left_at" IS NULL '
    f'LEFT OUTER JOIN "{Guild._meta.db_table}" gg ON gg."id" = gm."guild_id" '
    'WHERE "dungeons_runmember"."run_id" = %s AND "dungeons_runmember"."status" = %s '
    'ORDER BY "dungeons_runmember"."position" ASC'
)


def _lobby_party(run: Run) -> list[RunMember]:
    """The joined members, as ``with_current_guild(run.members.filter(status=JOINED), "player")
    .select_related("player__user").order_by("position")`` reads them."""
    connection = transaction.get_connection()
    with connection.cursor() as cursor:
        cursor.execute(_PARTY, [run.pk, str(MemberStatus.JOINED)])
        rows = cursor.fetchall()
    members = []
    user_at, guild_at = _MEMBER.width + _PLAYER.width, _MEMBER.width + _PLAYER.width + _USER.width
    for row in rows:
        member = _MEMBER.instance(row, connection)
        player = _PLAYER.instance(row, connection, start=_MEMBER.width)
        user = _USER.instance(row, connection, start=user_at)
        Player.user.field.set_cached_value(player, user)
        Player.user.field.remote_field.set_cached_value(user, player)
        RunMember.player.field.set_cached_value(member, player)
        member.current_guild_id, member.current_guild_rank = row[guild_at], row[guild_at + 1]
        members.append(member)
    return members


@dataclass(frozen=True)
class RunStarted:
    """A started run with what its start wrote, so the answer is built without reading it back:
    the party (in order, with their players and users) and the first room's entry (its room,
    battle and loot). Both None when the run's kind started it (e.g. darkness)."""

    run: Run
    party: list[RunMember] | None = None
    entry: RoomEntry | None = None


@transaction.atomic
def run_start(*, player: Player, run_id: int) -> RunStarted:
    """Generate the dungeon from the party's N, R, C, record the person-runs, enter the first room.

    The party is read and written in bulk (one read of the members with their players and current
    guilds, one claim of the warlock buffs, one update of the members), so the start's statement count
    does not grow with the party; the answer is built from what the start wrote (``RunStarted``).
    """
    run = lock_run(run_id)
    members = _lobby_party(run)  # with each member's current guild (one read)
    if all(m.player_id != player.pk for m in members):
        run_member(run, player, MemberStatus.JOINED)  # a stranger's 404, or not_in_party
    require_status(run, RunStatus.LOBBY)
    if run.host_id != player.pk:
        raise NotAllowed("not_host", "Only the host starts the run.")
    outsiders = run_kind_hooks(run.kind).unseated(run=run, members=members)  # e.g. left the lobby's guild
    if outsiders:
        for member in outsiders:
            _unseat(run, member)
        members = [m for m in members if m not in outsiders]
        _reorder(members)
    pending = [m.player_id for m in members if m.weapon_choice == WeaponChoice.PENDING]
    if pending:
        raise RuleViolation("weapon_choice_pending", "Every member takes or refuses a starting weapon first.",
                            {"players": pending})
    started = run_kind_hooks(run.kind).start(run=run, members=members)  # e.g. a guild's own maze
    if started is not None:
        return RunStarted(started)
    now = timezone.now()
    player_ids = [m.player_id for m in members]
    guild_ids = {m.current_guild_id for m in members}
    common = next(iter(guild_ids)) if len(guild_ids) == 1 else None  # the party's one guild (id)
    rank = sum(m.current_guild_rank or 0 for m in members) / len(members)
    completed = sum(m.player.completed_dungeons for m in members) / len(members)
    settings, generation_settings = singletons_load(CombatSettings, GenerationSettings)  # one read of both
    run.dungeon = dungeon_services.dungeon_generate(
        kind=run.kind, party_size=len(members), rank=rank, completed=completed, same_guild=common is not None,
        seed=run.seed, npc_kinds=guild_npc_kinds_unrescued(guild_id=common) if common else None,
        params=generation_settings.to_params(),
    )
    for guild_id, count in Counter(m.current_guild_id for m in members if m.current_guild_id).items():
        guild_person_runs_record(guild_id=guild_id, at=now, count=count)
    combat_rules = settings.to_rules()
    buffs = warlock_buffs_claim_party(player_ids=player_ids, run_id=run.pk)
    for member in members:
        member.guild_id = member.current_guild_id
        member.status = MemberStatus.IN_DUNGEON
        member.max_hp = member.hp = combat_rules.max_hp_for(member.player.stamina)
        member.buffs = [to_jsonable(spec) for spec in buffs[member.player_id]]
    rows_update(members, ["guild", "status", "max_hp", "hp", "buffs"])
    run.guild_id = common
    run.status, run.started_at, run.floor, run.room = RunStatus.ACTIVE, now, 0, 0
    log(run, Started(party=player_ids, rank=rank, completed=completed))
    entry = enter_room(run, members, settings=settings, room=run.dungeon.rooms.all()[0])
    run.log = read_back(run.log)  # the answer is built from this run: as a read would give it
    return RunStarted(run, members, entry)
