"""Writes of the Labyrinth of Darkness (SPEC 9.5, docs/darkness.md): a guild's maze, a darkness run's
start, its moves, the torch, camps and the darkness endings.

A darkness run is a dungeons.Run of kind ``darkness``: lobby, party, formation, junk dealer, battles,
traps, treasure, death, escape and completion are the run services' own. The run's ``floor`` is the
section of the room the party stands in and ``room`` its number in the maze (row * cols + col); a room
gets its DungeonRoom (its content, drawn from the run's seed) the first time this run enters it, so
the run services and the battles work on it unchanged.

It uses only the public functions of the runs (``dungeons.runs``: the run loaded as a step, its checks,
a room entered, a member's death, the step saved; tests/darkness/test_darkness_uses_public_runs.py):
the run's rows are changed on the step and saved with it by the run's store.

Locking: every write locks the run row first (``dungeons.runs.run_locked``), then players (through
the run and inventory services), then the guild's maze row last, only to add to what it knows.

Cost: the start and the moves read and write the party in bulk (one read of the members with their
current guilds, one claim of the warlock buffs, the members saved with the run), so their statement
counts do not grow with the party (tests/darkness/test_darkness_query_counts.py).
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from backend.errors import InvalidInput, NotFound, RuleViolation
from combat.engine.state import to_jsonable
from combat.models import CombatSettings
from darkness.engine import GuildMaze as MazeLayout
from darkness.engine import MoveOutcome, Pos, RoomWeights, move, room_content
from darkness.layout import new_maze_fields
from darkness.log_entries import (
    DarknessStarted,
    EnteredAgain,
    Moved,
    TorchOut,
    TorchRelit,
    TorchTaken,
    TurnedAway,
)
from darkness.models import DarknessRun, DarknessSettings, GuildMaze, SetAsideWeapon
from darkness.selectors import DarknessMoved
from dungeons.models import DungeonKind, MemberStatus, RoomKind, RunStatus
from dungeons.runs import (
    MemberRow,
    Place,
    RoomEntry,
    RoomRow,
    RunRow,
    RunStep,
    apply_rules,
    check_step,
    die,
    dungeon_insert,
    end_if_party_gone,
    enter_room,
    inside,
    member_of,
    npc_joins,
    player_ref,
    regenerate,
    require_status,
    rest,
    run_locked,
    run_rules_get,
    run_save,
)
from guilds.models import Guild, Membership
from guilds.services import guild_person_runs_record
from labyrinth.engine.grid import Direction
from npcs.selectors import guild_npc_kinds_unrescued
from npcs.services import warlock_buffs_claim_party
from players.inventory import WEAPON_LIMIT, WEAPON_SLOT_CATEGORIES
from players.models import InventoryItem, ItemCategory, ItemKind, Player
from players.selectors import inventory_list, player_for_user
from players.services import inventory_add, player_lock

#: An ordinary room's drawn content -> the room kind the run services play.
CONTENT_KINDS = {"enemy": RoomKind.ENEMY, "trap": RoomKind.TRAP, "treasure": RoomKind.TREASURE,
                 "empty": RoomKind.EMPTY}


# --- the guild's maze ---------------------------------------------------------------------------


@transaction.atomic
def guild_maze_create(*, guild: Guild, seed: int | None = None) -> GuildMaze:
    """Generate the guild's maze with the settings in force (once: an existing maze is returned)."""
    existing = GuildMaze.objects.filter(guild=guild).first()
    if existing is not None:
        return existing
    params = DarknessSettings.load().maze_params()
    return GuildMaze.objects.create(guild=guild, **new_maze_fields(params, seed))


def _learn(maze: GuildMaze, rooms: list[int]) -> list[int]:
    """Add rooms to what the guild knows (locks the maze row; call last in the transaction); returns what
    it knows now, as far as this transaction saw it.

    ``maze``: the guild's maze as read (unlocked) earlier in this transaction. What the guild knew
    then it still knows (knowledge only grows), so rooms all known then cost nothing; news locks the
    row and adds to what it holds now (another party of the guild may have added since)."""
    if set(rooms) <= set(maze.visited):
        return list(maze.visited)
    locked = GuildMaze.objects.select_for_update().only("visited").get(pk=maze.pk)
    known = set(locked.visited)
    if not set(rooms) <= known:
        locked.visited = sorted(known | set(rooms))
        locked.save(update_fields=["visited"])
    return list(locked.visited)


# --- the torch ----------------------------------------------------------------------------------
# A darkness run has a bearer from its start to its end (seed 004: one player carries the torch all
# the way). The first in formation takes it at the start; when the bearer dies or flees, the next
# member inside in formation takes it at once. A bearer whose weapon slots are full sets their second
# weapon aside (SetAsideWeapon) for as long as they are in the run. The torch never leaves its bearer
# while the run is on (players.services refuses to drop or unequip it, NPCs serve nobody in a run).


def _torch_kind() -> ItemKind | None:
    """The catalog item that stands for the labyrinth's torch: the shortest-burning torch."""
    return ItemKind.objects.filter(category=ItemCategory.TORCH).order_by("torch_moves", "pk").first()


def _torch_items(run_id: int) -> QuerySet[InventoryItem]:
    return InventoryItem.objects.filter(acquired_in_run_id=run_id, item_kind__category=ItemCategory.TORCH)


def _set_aside_second_weapon(run_id: int, player_id: int) -> int | None:
    """Free a weapon slot of the player: their second weapon (one not in hand, else the later of the two
    in hand, which a battle begins with the first) leaves the inventory and is kept until it is given
    back (``_give_back``); returns its id. None: nothing fills a weapon slot."""
    player = player_lock(player_id)
    slots = [item for item in inventory_list(player=player)
             if item.item_kind.category in WEAPON_SLOT_CATEGORIES]
    if not slots:
        return None
    item = ([i for i in slots if not i.equipped] or slots)[-1]
    SetAsideWeapon.objects.create(run_id=run_id, player_id=player_id, item_id=item.pk,
                                  item_kind_id=item.item_kind_id,
                                  equipped=item.equipped, acquired_in_run_id=item.acquired_in_run_id)
    kept = item.pk
    item.delete()
    return kept


def _give_back(run_id: int, player_id: int | None = None) -> None:
    """The weapons set aside in the run (by ``player_id``, or by anyone) come back to their owners, as the
    same inventory items; the carry limits are not applied (the slot was theirs)."""
    kept = SetAsideWeapon.objects.filter(run_id=run_id,
                                         **({} if player_id is None else {"player_id": player_id}))
    rows = list(kept)
    if rows:
        for owner in sorted({row.player_id for row in rows}):
            player_lock(owner)  # an inventory write holds its player's lock (players/services.py)
        InventoryItem.objects.bulk_create([
            InventoryItem(pk=row.item_id, player_id=row.player_id, item_kind_id=row.item_kind_id,
                          equipped=row.equipped, acquired_in_run_id=row.acquired_in_run_id) for row in rows])
        SetAsideWeapon.objects.filter(pk__in=[row.pk for row in rows]).delete()


def _torch_add(run_id: int, member: MemberRow, kind: ItemKind, *, passed: bool) -> int | None:
    """Put the torch in ``member``'s hand, setting their second weapon aside first if their weapon slots
    are full; returns the id of the item set aside. A refusal of the carry rules is raised as it is."""
    player = player_ref(member.player_id)
    try:
        inventory_add(player=player, item_kind=kind, equip=True, acquired_in_run_id=run_id,
                      over_capacity=passed)
        return None
    except RuleViolation as exc:
        if exc.code != WEAPON_LIMIT:
            raise
    set_aside = _set_aside_second_weapon(run_id, member.player_id)
    inventory_add(player=player, item_kind=kind, equip=True, acquired_in_run_id=run_id, over_capacity=passed)
    return set_aside


def _torch_bear(step: RunStep, dark: DarknessRun, member: MemberRow, *, passed: bool) -> None:
    """``member`` takes the torch (``_torch_add``). At the start a load too heavy for it refuses the start
    (409 ``torch_bearer_cannot_carry``); a torch passed on cannot be refused, so it is carried whatever
    the load weighs. Sets ``dark.bearer`` (the caller saves ``dark``)."""
    kind = _torch_kind()
    try:
        set_aside = None if kind is None else _torch_add(step.pk, member, kind, passed=passed)
    except RuleViolation as exc:
        if passed:  # only a designer's limits (no weapon slot at all) can refuse it: it burns unborne
            dark.bearer_id = None
            step.log(TorchTaken(player=None))
            return
        raise RuleViolation("torch_bearer_cannot_carry", "The first in formation carries the torch, but "
                            "cannot: lighten their load or put another member first.",
                            {"player": member.player_id, "reason": exc.code, **exc.details}) from exc
    dark.bearer_id = member.player_id
    step.log(TorchTaken(player=member.player_id, set_aside=set_aside))


def torch_take_back(*, step: RunStep, member: MemberRow) -> None:
    """A member is leaving the run (dying or escaping; their player locked), before the death or escape
    rules take their share: the labyrinth takes its torch back, so it is never among what they lose, and
    their weapon set aside comes back, to share the fate of what they carry."""
    _torch_items(step.pk).filter(player_id=member.player_id).delete()
    _give_back(step.pk, member.player_id)


def torch_pass(*, step: RunStep) -> None:
    """A member died or escaped: if they bore the torch, the next member inside after them in formation
    (wrapping round) takes it at once."""
    dark = step.held.get(_HELD) or DarknessRun.objects.filter(run_id=step.pk).first()
    if dark is None or dark.bearer_id is None:
        return
    step.held[_HELD] = dark  # a second death in this step finds the torch where the first left it
    party = step.party(MemberStatus.IN_DUNGEON)
    if any(m.player_id == dark.bearer_id for m in party):
        return
    if party:
        old = step.member(dark.bearer_id)
        after = -1 if old is None else old.position
        _torch_bear(step, dark, min(party, key=lambda m: (m.position <= after, m.position)), passed=True)
    else:
        dark.bearer_id = None
    step.save_with(dark, ["bearer"])


def torch_put_out(*, step: RunStep) -> None:
    """The run ends for the party (completion, escape): the labyrinth's torch stays in the labyrinth, and
    every weapon set aside comes back."""
    _torch_items(step.pk).delete()
    _give_back(step.pk)


# --- the lobby: the guild's own ------------------------------------------------------------------


def _current_guild_id(player_id: int) -> int | None:
    return (Membership.objects.filter(player_id=player_id, left_at__isnull=True)
            .values_list("guild_id", flat=True).first())


def darkness_seat_check(*, step: RunStep, player: Player, opening: bool) -> None:
    """Called by run_open and run_join: a darkness lobby belongs to its host's guild, recorded in
    ``run.guild`` when it is opened, and only that guild's members take a seat (409 not_guild_member),
    so nobody from outside can sit in it and block its start."""
    guild_id = _current_guild_id(player.pk)
    run = step.run
    if opening:  # the host opens it
        if guild_id is None:
            raise RuleViolation("not_guild_member", "The Labyrinth of Darkness is a guild's own maze: join a "
                                "guild to enter one.")
        step.change(guild_id=guild_id)
        return
    # A lobby opened before lobbies recorded their guild belongs to its host's guild.
    lobby_guild = run.guild_id if run.guild_id is not None else _current_guild_id(run.host_id)
    if guild_id is None or guild_id != lobby_guild:
        raise RuleViolation("not_guild_member", "Only members of the lobby's guild take a seat in its "
                            "Labyrinth of Darkness.", {"guild": lobby_guild})


def darkness_unseated(*, step: RunStep, members: list[MemberRow]) -> list[MemberRow]:
    """Called by run_start: the members no longer of the lobby's guild (they left it, were kicked, or it
    was disbanded since they sat down) stay outside and the run starts without them, so a lobby cannot
    be blocked that way either; a host no longer of it is refused (they may leave the lobby)."""
    run = step.run
    lobby_guild = run.guild_id
    if lobby_guild is None:  # opened before lobbies recorded their guild: its host's
        lobby_guild = next(m.current_guild_id for m in members if m.player_id == run.host_id)
    outsiders = [m for m in members if lobby_guild is None or m.current_guild_id != lobby_guild]
    if any(m.player_id == run.host_id for m in outsiders):
        raise RuleViolation("not_guild_member", "You are no longer a member of this lobby's guild: leave the "
                            "lobby (the next member becomes its host).", {"guild": lobby_guild})
    if outsiders:
        step.log(TurnedAway(players=[m.player_id for m in outsiders]))
    return outsiders


# --- starting a run -----------------------------------------------------------------------------


def darkness_run_start(*, step: RunStep, members: list[MemberRow]) -> bool:
    """Called by dungeons.runs.lobby.run_start (run locked, host checked, weapons chosen): enter the
    guild's maze at the entrance with a lit torch. Every member must belong to one guild.

    ``members``: the party in formation order with their players and their current guilds
    (``current_guild_id``, ``current_guild_rank``), as run_start reads them; nothing about them is read
    again. The caller saves the step."""
    now = timezone.now()
    run = step.run
    guild_ids = {m.current_guild_id for m in members}
    guild_id = next(iter(guild_ids))
    if len(guild_ids) != 1 or guild_id is None:
        raise RuleViolation("darkness_needs_one_guild", "Every member must belong to the same guild: the "
                            "Labyrinth of Darkness is a guild's own maze.")
    rank = members[0].current_guild_rank
    maze = GuildMaze.objects.filter(guild_id=guild_id).first()
    if maze is None:  # every guild gets its maze when created; this is a safety net
        maze = guild_maze_create(guild=Guild.objects.get(pk=guild_id))
    layout = maze.layout()
    settings = DarknessSettings.load()
    candidates = guild_npc_kinds_unrescued(guild_id=guild_id)
    npc = Place(run.seed, 0, 0).stream("darkness-npc").choice(candidates) if candidates else ""
    heart = layout.heart
    dungeon_id = dungeon_insert(
        kind=DungeonKind.DARKNESS, seed=run.seed, generator_version=maze.generator_version,
        party_size=len(members), rank=rank,
        completed=sum(m.player.completed_dungeons for m in members) / len(members), same_guild=True,
        params={"maze": maze.pk, "torch_length": settings.torch_length,
                "room_weights": settings.room_weights().__dict__},
        npc_candidates=list(candidates), floor_count=maze.sections, npc_chance=1.0 if npc else 0.0,
        npc_floor=layout.section(heart) if npc else None, npc_room=layout.index(heart) if npc else None,
        npc_kind=npc,
    )
    guild_person_runs_record(guild_id=guild_id, at=now, count=len(members))
    combat_settings = CombatSettings.load()
    combat_rules = combat_settings.to_rules()
    buffs = warlock_buffs_claim_party(player_ids=[m.player_id for m in members], run_id=run.id)
    for member in members:
        hp = combat_rules.max_hp_for(member.player.stamina)
        step.change_member(member.player_id, guild_id=guild_id, status=MemberStatus.IN_DUNGEON, max_hp=hp,
                           hp=hp, buffs=[to_jsonable(spec) for spec in buffs[member.player_id]])
    entrance = layout.entrance
    step.change(dungeon_id=dungeon_id, guild_id=guild_id, status=RunStatus.ACTIVE, started_at=now,
                floor=layout.section(entrance), room=layout.index(entrance))
    # Inserted by _enter with its bearer and first place (one statement).
    dark = step.held[_HELD] = DarknessRun(
        run_id=run.id, maze=maze, row=entrance[0], col=entrance[1], torch_length=settings.torch_length,
        torch_left=settings.torch_length, path=[], entered=[])
    step.log(DarknessStarted(party=[m.player_id for m in members], rank=rank, maze=maze.pk))
    bearer = step.member(members[0].player_id)
    assert bearer is not None
    _torch_bear(step, dark, bearer, passed=False)  # the party chose its bearer by the formation
    _enter(step, dark, layout, entrance, combat_settings, npc_kind=npc)
    _learn(maze, [layout.index(entrance)])
    return True


# --- moving -------------------------------------------------------------------------------------


#: The key of the darkness row a step holds (``RunStep.held``; the run's store reads it with the step where
#: it can, DarknessHooks.own_row): the hooks then change the move's own instance.
_HELD = DarknessRun._meta.label


def _darkness_of(step: RunStep) -> DarknessRun:
    run = step.run
    if run.kind != DungeonKind.DARKNESS:
        raise RuleViolation("not_darkness", "Only a Labyrinth of Darkness run moves by direction; "
                            "use advance.",
                            {"run": run.id, "kind": run.kind})
    dark: DarknessRun | None = step.held.get(_HELD)
    if dark is None:
        dark = step.held[_HELD] = DarknessRun.objects.select_related("maze").get(run_id=run.id)
    return dark


def _fixed_kind(layout: MazeLayout, pos: Pos) -> str | None:
    """The kind of a room the maze itself decides (the heart, a camp, the entrance); None: drawn."""
    if pos == layout.heart:
        return RoomKind.BOSS
    if pos in layout.camps:
        return RoomKind.REST
    if pos == layout.entrance:
        return RoomKind.EMPTY
    return None


def _drawn_kind(run: RunRow, layout: MazeLayout, pos: Pos, weights: RoomWeights) -> str:
    section, index = layout.section(pos), layout.index(pos)
    drawn = room_content(section, weights, Place(run.seed, section, index).stream("darkness-room"))
    return CONTENT_KINDS[drawn]


def _enter(step: RunStep, dark: DarknessRun, layout: MazeLayout, pos: Pos,
           combat_settings: CombatSettings | None = None, *, npc_kind: str | None = None) -> RoomEntry | None:
    """Stand in the room at ``pos``: its content plays the first time this run enters it; a camp heals
    and relights the torch every time. ``dark`` is saved with the step (inserted now at the start); the
    caller saves the step.

    ``combat_settings``: the combat settings, if the caller already read them; ``npc_kind``: the NPC held
    at the heart, if the caller knows it (the start). Returns the entry of a room entered the first time."""
    index = layout.index(pos)
    step.change(floor=layout.section(pos), room=index)
    camp = pos in layout.camps
    if camp:
        dark.torch_left = dark.torch_length
        step.log(TorchRelit(torch=dark.torch_left))
    dark.row, dark.col = pos
    dark.path = [*dark.path, list(pos)]
    first = index not in dark.entered
    if first:
        dark.entered = sorted({*dark.entered, index})
    if dark.pk is None:  # the start's: inserted now
        dark.save()
    else:
        step.save_with(dark)
    if first:
        run = step.run
        kind = _fixed_kind(layout, pos)
        if kind is None:  # drawn with the weights' snapshot taken at the start
            weights = RoomWeights(**step.dungeon().params["room_weights"])
            kind = _drawn_kind(run, layout, pos, weights)
        room = RoomRow(floor=layout.section(pos), index=index, kind=kind)
        step.add_room(room)
        if pos == layout.heart and npc_kind is None:
            npc_kind = step.dungeon().npc_kind
        if pos == layout.heart and npc_kind:
            joins = npc_joins(npc_kind=npc_kind, rules=run_rules_get(step.run))
            step.change(**joins.run)
            step.log(joins.entry)
        return enter_room(step, settings=combat_settings, room=room)
    if camp:  # a camp heals like a rest room on every visit
        rested = rest(party=[inside(m) for m in step.party(MemberStatus.IN_DUNGEON)],
                      rules=run_rules_get(step.run))
        apply_rules(step, rested.changes, rested.entry)
    step.log(EnteredAgain())
    step.change(room_cleared=True)
    return None


def _lost_in_the_dark(step: RunStep, dark: DarknessRun) -> None:
    """The torch burnt out outside a camp: death for every member still inside."""
    step.log(TorchOut())
    dark.bearer_id = None
    step.save_with(dark, ["bearer"])
    for member in step.party(MemberStatus.IN_DUNGEON):
        current = step.member(member.player_id)
        if current is not None and current.status == MemberStatus.IN_DUNGEON:
            die(step, current)
    end_if_party_gone(step)


def _refused_unless_a_player(user_id: int) -> None:
    """An account without a player is refused first (404 player_not_found), as by every player view."""
    player_for_user(user_id=user_id)


@transaction.atomic
def darkness_move(*, user_id: int, run_id: int, step: int, direction: str) -> DarknessMoved:
    """Walk one room in ``direction`` (UP, LEFT, DOWN, RIGHT) for the account ``user_id``'s player;
    ``step`` is the run step the client saw.

    A wall is refused (409 ``wall``) and burns nothing; every other move burns one torch unit (a stun
    cell more). A camp relights the torch; the torch reaching 0 anywhere else loses the party. The
    caller's player is found among the run's members (read with it), not read apart."""
    try:
        heading = Direction(direction)
    except ValueError:
        _refused_unless_a_player(user_id)
        raise InvalidInput("invalid_direction", "direction is UP, LEFT, DOWN or RIGHT.",
                           {"direction": direction}) from None
    try:
        moving = run_locked(run_id, rooms=True)
    except NotFound:
        _refused_unless_a_player(user_id)
        raise
    mover = next((m for m in moving.members() if m.player.user_id == user_id), None)
    player = player_ref(mover.player_id) if mover is not None else player_for_user(user_id=user_id)
    mover = member_of(moving, player, MemberStatus.IN_DUNGEON)  # a stranger's 404, or not_in_party
    run = moving.run
    dark = _darkness_of(moving)
    require_status(run, RunStatus.ACTIVE)
    check_step(run, step)
    if not run.room_cleared:
        raise RuleViolation("room_not_cleared", "Finish this room first (the battle must be over).",
                            {"floor": run.floor, "room": run.room})
    layout = dark.maze.layout()
    result = move(layout.map, dark.position, heading)
    if result.outcome is MoveOutcome.WALL:
        raise RuleViolation("wall", "A wall stands that way.", {"row": dark.row, "col": dark.col,
                                                                 "direction": heading.value})
    moving.act(player.pk, {"kind": "move", "step": step, "direction": heading.value}, at=timezone.now())
    moving.change(step=run.step + 1)
    dark.torch_left = max(0, dark.torch_left - result.burn)
    moving.log(Moved(direction=heading.value, outcome=result.outcome.value, burn=result.burn,
                     torch=dark.torch_left))
    entry = None
    if result.outcome is MoveOutcome.RUBBER:
        dark.path = [*dark.path, list(dark.position)]
        moving.save_with(dark)
        if dark.torch_left == 0:
            _lost_in_the_dark(moving, dark)
        run_save(moving)
        return DarknessMoved(moving, dark, list(dark.maze.visited), mover, None)
    assert result.entered is not None
    learned = [layout.index(result.entered), layout.index(result.position)]
    if dark.torch_left == 0 and result.position not in layout.camps:
        dark.row, dark.col = result.position
        dark.path = [*dark.path, list(result.position)]
        moving.save_with(dark)
        moving.change(floor=layout.section(result.position), room=layout.index(result.position))
        _lost_in_the_dark(moving, dark)
    else:
        apply_rules(moving, regenerate(party=[inside(m) for m in moving.party(MemberStatus.IN_DUNGEON)],
                                       rules=run_rules_get(moving.run)))
        entry = _enter(moving, dark, layout, result.position)
    run_save(moving)
    return DarknessMoved(moving, dark, _learn(dark.maze, learned), mover, entry)


def darkness_advance_refuse(*, step: RunStep) -> None:
    """Called by dungeons.runs.rooms.run_advance for darkness runs: the party moves by direction."""
    raise RuleViolation("use_move", "In the Labyrinth of Darkness the party moves by direction (move).")


def darkness_escape_check(*, step: RunStep) -> None:
    """Called by dungeons.runs.rooms.run_escape for darkness runs: the party leaves only from a camp,
    and leaves the torch behind."""
    dark = _darkness_of(step)
    if dark.position not in dark.maze.layout().camps:
        raise RuleViolation("cannot_escape_here",
                            "In the Labyrinth of Darkness the party can leave only from a camp.",
                            {"row": dark.row, "col": dark.col})
    torch_put_out(step=step)
    dark.bearer_id = None
    step.save_with(dark, ["bearer"])
