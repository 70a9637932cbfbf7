"""The lobby of a run: open, join, leave, the junk dealer's offer, the starting weapon, the formation,
and the start (the dungeon generated from the party, the first room entered)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from backend.errors import InvalidInput, NotAllowed, NotFound, RuleViolation
from backend.live import publish
from backend.sql import singletons_load
from combat.engine.state import to_jsonable
from combat.models import CombatSettings
from dungeons import services as dungeon_services
from dungeons.kinds import run_kind_hooks
from dungeons.models import (
    DungeonKind,
    GenerationSettings,
    MemberStatus,
    RoomKind,
    Run,
    RunStatus,
    WeaponChoice,
)
from dungeons.runs import store
from dungeons.runs.core import member_of, require_status, rules_snapshot, run_locked, run_read, run_rules_get
from dungeons.runs.engine import lobby as rules
from dungeons.runs.engine.log import Formation, Started
from dungeons.runs.engine.values import STAT_NAMES
from dungeons.runs.rooms import RoomEntry, current_room, enter_room
from dungeons.runs.store import MemberRow, RoomRow, RunRow, RunStep
from guilds.selectors import player_current_guild
from guilds.services import guild_person_runs_record
from npcs.selectors import guild_npc_kinds_unrescued, junk_dealer_offer_size, junk_dealer_tiers
from npcs.services import warlock_buffs_claim_party
from players.models import ItemCategory, ItemKind, Player
from players.notices import NoticeKind, Told, notices_wake
from players.services import inventory_add

#: The hub channel of the open lobbies' list (``GET runs/lobbies/stream/``, ``dungeons.streams``): published
#: once a lobby opens, changes its host, starts or is cancelled.
LOBBIES_CHANNEL = "runs:lobbies"


def _join(run_id: int, player: Player, position: int) -> None:
    try:
        with transaction.atomic():
            store.member_join(run_id=run_id, player_id=player.pk, position=position)
    except IntegrityError as exc:  # the partial unique index: already active in another run
        raise RuleViolation("already_in_run", "You are already in a run.",
                            {"run": store.active_run_of(player.pk)}) from exc


def _tell_lobby(step: RunStep, others: list[MemberRow], *, player: int, change: str, players: int) -> None:
    """``lobby_changed`` to the lobby's other members (the host is one): ``player`` joined, left, chose a
    starting weapon or set the formation, and ``players`` are in the lobby now (docs/live.md). Written with
    the step's save; their streams wake once it commits."""
    about = {"run": step.pk, "kind": step.run.kind, "change": change, "player": player, "players": players}
    told = [m for m in others if m.player_id != player]
    step.tell([Told(m.player_id, NoticeKind.LOBBY_CHANGED, about) for m in told])
    notices_wake(m.player.user_id for m in told)


@transaction.atomic
def run_open(*, player: Player, kind: str) -> Run:
    """Open a lobby of ``kind`` (ordinary or frenzy) with the player as host and first member."""
    if kind not in (DungeonKind.ORDINARY, DungeonKind.FRENZY, DungeonKind.DARKNESS):
        raise InvalidInput("invalid_kind", "Runs are ordinary, frenzy or darkness.", {"kind": kind})
    opening = RunStep(RunRow(
        id=0, kind=kind, status=RunStatus.LOBBY, host_id=player.pk, seed=dungeon_services.new_seed(),
        dungeon_id=None, guild_id=None, floor=None, room=None, room_cleared=False, step=0, npc_kind="",
        npc_hp=0, npc_max_hp=0, created_at=timezone.now(), started_at=None, ended_at=None), members=[])
    # e.g. a darkness lobby is its host's guild's
    run_kind_hooks(kind).seat_check(step=opening, player=player, opening=True)
    run = store.run_insert(kind=kind, host_id=player.pk, seed=opening.run.seed, guild_id=opening.run.guild_id)
    _join(run.pk, player, 0)
    publish(LOBBIES_CHANNEL)
    return run


@transaction.atomic
def run_join(*, player: Player, run_id: int) -> RunRow:
    step = run_locked(run_id)
    if step.run.status != RunStatus.LOBBY and step.member(player.pk) is None:
        # A stranger learns nothing about a run that is no longer a lobby (GET answers 404 too).
        raise NotFound("run_not_found", "No such run.", {"run": step.pk})
    require_status(step.run, RunStatus.LOBBY)
    members = step.party(MemberStatus.JOINED)
    if any(m.player_id == player.pk for m in members):
        raise RuleViolation("already_in_party", "You are already in this party.", {"run": step.pk})
    run_kind_hooks(step.run.kind).seat_check(step=step, player=player, opening=False)
    limit = run_rules_get().max_party_size
    if len(members) >= limit:
        raise RuleViolation("party_full", "The party is full.", {"run": step.pk, "limit": limit})
    _join(step.pk, player, len(members))
    _tell_lobby(step, members, player=player.pk, change="joined", players=len(members) + 1)
    store.run_save(step)
    return step.run


def _reorder(step: RunStep, members: list[MemberRow]) -> list[MemberRow]:
    """The members, in this order, are the formation (positions from 0); returns them as they now stand."""
    for position, member in enumerate(members):
        if member.position != position:
            step.change_member(member.player_id, position=position)
    return [m for m in (step.member(member.player_id) for member in members) if m is not None]


def _unseat(step: RunStep, member: MemberRow) -> None:
    """The member is out of the lobby: the starting weapon goes back to the junk dealer."""
    store.items_of_run_delete(player_id=member.player_id, run_id=step.pk)
    step.change_member(member.player_id, status=MemberStatus.LEFT, active=False,
                       weapon_choice=WeaponChoice.PENDING)


@transaction.atomic
def run_leave(*, player: Player, run_id: int) -> RunRow:
    """Leave a lobby: the starting weapon goes back to the junk dealer; the last one out cancels it."""
    step = run_locked(run_id)
    member = member_of(step, player, MemberStatus.JOINED)
    require_status(step.run, RunStatus.LOBBY)
    _unseat(step, member)
    rest = _reorder(step, step.party(MemberStatus.JOINED))
    if not rest:
        step.change(status=RunStatus.CANCELLED, ended_at=timezone.now())
        publish(LOBBIES_CHANNEL)
    elif step.run.host_id == player.pk:
        step.change(host_id=rest[0].player_id)
        publish(LOBBIES_CHANNEL)
    _tell_lobby(step, rest, player=player.pk, change="left", players=len(rest))
    store.run_save(step)
    return step.run


def run_offer(*, player: Player, run_id: int) -> list[ItemKind]:
    """The junk dealer's starting weapons for this player in this lobby (the same on every call)."""
    step = run_read(run_id)
    member_of(step, player)
    guild = player_current_guild(player=player)
    size = junk_dealer_offer_size(guild_id=guild.pk if guild else None)
    tiers = [weapons for _, weapons in junk_dealer_tiers(rank=guild.rank if guild else 0)]
    if not tiers:  # no tier defined in the admin: the catalog's basic weapons
        tiers = [store.item_kinds_where(category=ItemCategory.WEAPON, is_basic=True)]
    return rules.junk_dealer_offer(tiers, size=size, seed=step.run.seed, player_id=player.pk)


@transaction.atomic
def run_weapon_choose(*, player: Player, run_id: int, item_kind_id: int | None) -> MemberRow:
    """Take one weapon of the offer (it is carried and in hand), or refuse (``None``)."""
    step = run_locked(run_id)
    member = member_of(step, player, MemberStatus.JOINED)
    require_status(step.run, RunStatus.LOBBY)
    if member.weapon_choice != WeaponChoice.PENDING:
        raise RuleViolation("weapon_already_chosen", "You already chose.", {"choice": member.weapon_choice})
    if item_kind_id is None:
        member = step.change_member(player.pk, weapon_choice=WeaponChoice.REFUSED)
    else:
        offer = {kind.pk: kind for kind in run_offer(player=player, run_id=step.pk)}
        if item_kind_id not in offer:
            raise RuleViolation("not_offered", "The junk dealer does not offer that.",
                                {"item_kind": item_kind_id, "offer": sorted(offer)})
        inventory_add(player=player, item_kind=offer[item_kind_id], equip=True, acquired_in_run_id=step.pk)
        member = step.change_member(player.pk, weapon_choice=WeaponChoice.TAKEN)
    party = step.party(MemberStatus.JOINED)
    _tell_lobby(step, party, player=player.pk, change="weapon_chosen", players=len(party))
    store.run_save(step)
    return member


@transaction.atomic
def run_formation_set(*, player: Player, run_id: int, players: list[int]) -> RunRow:
    """Set the party's order: in the lobby, or in a rest room; a permutation of the party present."""
    step = run_locked(run_id, rooms=True)
    run = step.run
    present = MemberStatus.JOINED if run.status == RunStatus.LOBBY else MemberStatus.IN_DUNGEON
    member_of(step, player, present)
    if run.status != RunStatus.LOBBY and not (run.status == RunStatus.ACTIVE
                                              and current_room(step).kind == RoomKind.REST):
        raise RuleViolation("formation_locked", "The formation changes only in the lobby or a rest room.")
    members = step.party(present)
    if sorted(players) != sorted(m.player_id for m in members):
        raise InvalidInput("invalid_formation", "Name every party member once.",
                           {"party": [m.player_id for m in members]})
    by_player = {m.player_id: m for m in members}
    _reorder(step, [by_player[pid] for pid in players])
    if run.status == RunStatus.ACTIVE:
        step.act(player.pk, {"kind": "formation", "players": players}, at=timezone.now())
        step.log(Formation(players=players))
    else:  # in the run, the log's ``formation`` entry tells the party
        _tell_lobby(step, members, player=player.pk, change="formation", players=len(members))
    store.run_save(step)
    return step.run


@dataclass(frozen=True)
class RunStarted:
    """A started run with what its start wrote, so the answer is built without reading it back:
    the run's step (the run, its log and members as the start left them), the dungeon's rooms and the
    first room's entry (its room, battle and loot). ``rooms`` and ``entry`` are None when the run's
    kind started it (e.g. darkness)."""

    step: RunStep
    rooms: list[RoomRow] | None = None
    entry: RoomEntry | None = None


@transaction.atomic
def run_start(*, player: Player, run_id: int) -> RunStarted:
    """Generate the dungeon from the party's N, R, C, record the person-runs, enter the first room.

    The party is read and written in bulk (one read of the members with their players and current
    guilds, one claim of the warlock buffs, the members' changes saved with the run's), so the start's
    statement count does not grow with the party; the answer is built from what the start wrote
    (``RunStarted``).
    """
    step = run_locked(run_id)
    members = step.party(MemberStatus.JOINED)  # with each member's current guild (one read)
    if all(m.player_id != player.pk for m in members):
        member_of(step, player, MemberStatus.JOINED)  # a stranger's 404, or not_in_party
    require_status(step.run, RunStatus.LOBBY)
    if step.run.host_id != player.pk:
        raise NotAllowed("not_host", "Only the host starts the run.")
    hooks = run_kind_hooks(step.run.kind)
    # e.g. who left the lobby's guild
    outsiders = {m.player_id for m in hooks.unseated(step=step, members=members)}
    if outsiders:
        for member in members:
            if member.player_id in outsiders:
                _unseat(step, member)
        members = _reorder(step, [m for m in members if m.player_id not in outsiders])
    pending = [m.player_id for m in members if m.weapon_choice == WeaponChoice.PENDING]
    if pending:
        raise RuleViolation("weapon_choice_pending", "Every member takes or refuses a starting weapon first.",
                            {"players": pending})
    step.change(rules=rules_snapshot())  # the numbers the run plays by to its end (and its replay gives)
    publish(LOBBIES_CHANNEL)  # no longer a lobby
    party_facts = [{"player": m.player_id, "position": m.position,
                    "completed_dungeons": m.player.completed_dungeons,
                    "stats": {name: getattr(m.player, name) for name in STAT_NAMES}} for m in members]
    step.act(player.pk, {"kind": "start", "party": party_facts}, at=timezone.now())
    if hooks.start(step=step, members=members):  # e.g. a guild's own maze
        store.run_save(step)
        return RunStarted(step)
    run = step.run
    now = timezone.now()
    player_ids = [m.player_id for m in members]
    party = rules.party_inputs(guilds=[m.current_guild_id for m in members],
                               ranks=[m.current_guild_rank for m in members],
                               completed=[m.player.completed_dungeons for m in members])
    common, rank, completed = party.guild, party.rank, party.completed  # the party's one guild (id)
    settings, generation_settings = singletons_load(CombatSettings, GenerationSettings)  # one read of both
    dungeon = dungeon_services.dungeon_generate(
        kind=run.kind, party_size=len(members), rank=rank, completed=completed, same_guild=common is not None,
        seed=run.seed, npc_kinds=guild_npc_kinds_unrescued(guild_id=common) if common else None,
        params=generation_settings.to_params(),
    )
    for guild_id, count in Counter(m.current_guild_id for m in members if m.current_guild_id).items():
        guild_person_runs_record(guild_id=guild_id, at=now, count=count)
    combat_rules = settings.to_rules()
    buffs = warlock_buffs_claim_party(player_ids=player_ids, run_id=run.id)
    for member in members:
        hp = combat_rules.max_hp_for(member.player.stamina)
        step.change_member(member.player_id, guild_id=member.current_guild_id, status=MemberStatus.IN_DUNGEON,
                           max_hp=hp, hp=hp, buffs=[to_jsonable(spec) for spec in buffs[member.player_id]])
    step.change(dungeon_id=dungeon.pk, guild_id=common, status=RunStatus.ACTIVE, started_at=now, floor=0,
                room=0)
    step.log(Started(party=player_ids, rank=rank, completed=completed))
    rooms = store.rooms_held(dungeon.rooms.all())
    entry = enter_room(step, settings=settings, room=rooms[0])
    store.run_save(step)
    return RunStarted(step, rooms, entry)
