"""Writes of the dungeons app: generate a dungeon with the engine and store it with its rooms."""
from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from backend.errors import InvalidInput, NotAllowed, NotFound, RuleViolation
from combat.engine import (
    BattleSetup, BattleState, Combatant, EffectSpec, Event, Kind, Outcome, PotionKind, Stats,
)
from combat.engine.events import Attack, Death, Fled, PotionDrunk, StatRaised
from combat.engine.state import STAT_NAMES, to_jsonable
from combat.models import Battle
from combat.selectors import combat_rules_get, encounter_for_room
from combat.services import battle_start, combatant_player_id, player_combatant_id
from dungeons import generation, run_rules
from dungeons.kinds import run_kind_hooks
from dungeons.models import (
    Dungeon,
    DungeonKind,
    DungeonRoom,
    MemberStatus,
    RoomKind,
    Run,
    RunLoot,
    RunMember,
    RunSettings,
    RunStatus,
    WeaponChoice,
)
from dungeons.run_rules import RunRules
from dungeons.selectors import dungeon_preview, generation_params_get
from guilds.selectors import player_current_guild
from guilds.services import guild_person_runs_record
from npcs.selectors import guild_npc_kinds_unrescued, junk_dealer_offer_size, junk_dealer_tiers
from npcs.services import bounty_progress_record, npc_rescue, warlock_buffs_claim
from players.models import InventoryItem, ItemCategory, ItemKind, Player, Rarity
from players.services import inventory_add

#: Battle events with consequences for the run (inventory, stats, party, bounties).
RUN_RELEVANT_EVENTS = (Death, Fled, PotionDrunk, StatRaised)
#: The NPC companion's combatant id in battles.
NPC_ID = "npc"
#: What treasure and battle loot is drawn from (story items come from story rooms, torches from the Labyrinth).
LOOT_CATEGORIES = (ItemCategory.WEAPON, ItemCategory.ARMOR, ItemCategory.POTION, ItemCategory.AMULET)
#: Battle and boss loot: never amulets, which are found only (and rarely: the catalog makes them
#: rare) in treasure rooms, or bought from the jeweler (SPEC section 6).
BATTLE_LOOT_CATEGORIES = tuple(c for c in LOOT_CATEGORIES if c != ItemCategory.AMULET)
#: What an opened sealed story room's reward is drawn from: the better half of the catalog.
SEALED_REWARD_RARITIES = (Rarity.UNCOMMON, Rarity.RARE)
#: A story room's story item (dungeons.generation.STORY_ITEMS) -> the catalog sub-kind it yields.
STORY_ITEM_SUB_KINDS = {"gems": "gem", "enchanted_stones": "enchanted_stone", "carpenters_tools": "carpenters_tools"}

#: Seeds are stored in a signed 64-bit column.
MAX_SEED = 2**63 - 1


def new_seed() -> int:
    """A fresh seed for a new dungeon; from the OS, never from the engine's streams."""
    return secrets.randbits(63)


@transaction.atomic
def dungeon_generate(
    *,
    kind: str,
    party_size: int,
    rank: float,
    completed: float,
    same_guild: bool,
    seed: int | None = None,
    npc_kinds: Iterable[str] | None = None,
    params: generation.GenerationParams | None = None,
) -> Dungeon:
    """Generate one dungeon with the parameters in force and store it with all its rooms.

    ``npc_kinds`` are the kinds the party's guild has not rescued yet (None: all of them).
    Two queries plus the settings read: the dungeon row and one bulk insert of its rooms.
    Bad inputs (unknown or unsupported kind, impossible numbers) raise InvalidInput.
    """
    seed = new_seed() if seed is None else seed
    if not 0 <= seed <= MAX_SEED:
        raise InvalidInput("invalid_seed", f"seed must be between 0 and {MAX_SEED}")
    params = params or generation_params_get()
    try:
        candidates = generation.npc_candidates(npc_kinds)
        result = dungeon_preview(
            kind=kind,
            party_size=party_size,
            rank=rank,
            completed=completed,
            same_guild=same_guild,
            seed=seed,
            params=params,
            npc_kinds=candidates,
        )
    except ValueError as exc:
        raise InvalidInput("invalid_dungeon", str(exc)) from exc

    dungeon = Dungeon.objects.create(
        kind=result.kind,
        seed=seed,
        generator_version=result.generator_version,
        party_size=party_size,
        rank=rank,
        completed=completed,
        same_guild=same_guild,
        params=params.as_dict(),
        npc_candidates=list(candidates),
        floor_count=len(result.floors),
        npc_chance=result.npc_chance,
        npc_floor=result.npc[0] if result.npc else None,
        npc_room=result.npc[1] if result.npc else None,
        npc_kind=result.npc_kind or "",
    )
    DungeonRoom.objects.bulk_create(
        DungeonRoom(
            dungeon=dungeon,
            floor=floor,
            index=index,
            kind=str(room.kind),
            npc_kind=room.npc_kind or "",
            story_item=room.story_item or "",
            seal=room.seal or "",
        )
        for floor, index, room in result.rooms()
    )
    return dungeon


# --- runs ---------------------------------------------------------------------------------------
# Locking: every run write locks the run row first (select_for_update), then member rows, then
# player rows (through players.services, which lock the player). Battles lock run -> battle the
# same way (combat.services), so a battle step and a run move never interleave.


def run_rules_get() -> RunRules:
    return RunSettings.cached().to_rules()


def _lock_run(run_id: int) -> Run:
    try:
        return Run.objects.select_for_update().get(pk=run_id)
    except Run.DoesNotExist as exc:
        raise NotFound("run_not_found", "No such run.", {"run": run_id}) from exc


def _member(run: Run, player: Player, *statuses: str) -> RunMember:
    """The player's membership of the run in one of ``statuses``; a stranger gets a 404."""
    member = RunMember.objects.filter(run=run, player=player).first()
    if member is None or (run.status != RunStatus.LOBBY and member.status == MemberStatus.LEFT):
        raise NotFound("run_not_found", "No such run.", {"run": run.pk})
    if statuses and member.status not in statuses:
        raise RuleViolation("not_in_party", "You are no longer in this run's party.",
                            {"run": run.pk, "status": member.status})
    return member


def _require_status(run: Run, *statuses: str) -> None:
    if run.status not in statuses:
        code = "run_not_in_lobby" if RunStatus.LOBBY in statuses else "run_not_active"
        raise RuleViolation(code, f"The run is {run.status}.", {"run": run.pk, "status": run.status})


def _log(run: Run, kind: str, **details: Any) -> None:
    run.log = [*run.log, {"kind": kind, "floor": run.floor, "room": run.room, **details}]


def _party(run: Run, *statuses: str) -> list[RunMember]:
    return list(run.members.filter(status__in=statuses).select_related("player__user").order_by("position"))


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
    run = Run.objects.create(kind=kind, host=player, seed=new_seed())
    _join(run, player, 0)
    return run


@transaction.atomic
def run_join(*, player: Player, run_id: int) -> Run:
    run = _lock_run(run_id)
    if run.status != RunStatus.LOBBY and not RunMember.objects.filter(run=run, player=player).exists():
        # A stranger learns nothing about a run that is no longer a lobby (GET answers 404 too).
        raise NotFound("run_not_found", "No such run.", {"run": run.pk})
    _require_status(run, RunStatus.LOBBY)
    members = _party(run, MemberStatus.JOINED)
    if any(m.player_id == player.pk for m in members):
        raise RuleViolation("already_in_party", "You are already in this party.", {"run": run.pk})
    limit = run_rules_get().max_party_size
    if len(members) >= limit:
        raise RuleViolation("party_full", "The party is full.", {"run": run.pk, "limit": limit})
    _join(run, player, len(members))
    return run


def _reorder(members: list[RunMember]) -> None:
    for position, member in enumerate(members):
        if member.position != position:
            member.position = position
            member.save(update_fields=["position"])


@transaction.atomic
def run_leave(*, player: Player, run_id: int) -> Run:
    """Leave a lobby: the starting weapon goes back to the junk dealer; the last one out cancels it."""
    run = _lock_run(run_id)
    member = _member(run, player, MemberStatus.JOINED)
    _require_status(run, RunStatus.LOBBY)
    InventoryItem.objects.filter(player=player, acquired_in_run=run).delete()
    member.status, member.active, member.weapon_choice = MemberStatus.LEFT, False, WeaponChoice.PENDING
    member.save(update_fields=["status", "active", "weapon_choice"])
    rest = _party(run, MemberStatus.JOINED)
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
    _member(run, player)
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
    run = _lock_run(run_id)
    member = _member(run, player, MemberStatus.JOINED)
    _require_status(run, RunStatus.LOBBY)
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


def _in_rest_room(run: Run) -> bool:
    return run.status == RunStatus.ACTIVE and _current_room(run).kind == RoomKind.REST


@transaction.atomic
def run_formation_set(*, player: Player, run_id: int, players: list[int]) -> Run:
    """Set the party's order: in the lobby, or in a rest room; a permutation of the party present."""
    run = _lock_run(run_id)
    present = MemberStatus.JOINED if run.status == RunStatus.LOBBY else MemberStatus.IN_DUNGEON
    _member(run, player, present)
    if run.status != RunStatus.LOBBY and not _in_rest_room(run):
        raise RuleViolation("formation_locked", "The formation changes only in the lobby or a rest room.")
    members = _party(run, present)
    if sorted(players) != sorted(m.player_id for m in members):
        raise InvalidInput("invalid_formation", "Name every party member once.",
                           {"party": [m.player_id for m in members]})
    by_player = {m.player_id: m for m in members}
    _reorder([by_player[pid] for pid in players])
    if run.status == RunStatus.ACTIVE:
        _log(run, "formation", players=players)
        run.save(update_fields=["log"])
    return run


@transaction.atomic
def run_start(*, player: Player, run_id: int) -> Run:
    """Generate the dungeon from the party's N, R, C, record the person-runs, enter the first room."""
    run = _lock_run(run_id)
    _member(run, player, MemberStatus.JOINED)
    _require_status(run, RunStatus.LOBBY)
    if run.host_id != player.pk:
        raise NotAllowed("not_host", "Only the host starts the run.")
    members = _party(run, MemberStatus.JOINED)
    pending = [m.player_id for m in members if m.weapon_choice == WeaponChoice.PENDING]
    if pending:
        raise RuleViolation("weapon_choice_pending", "Every member takes or refuses a starting weapon first.",
                            {"players": pending})
    started = run_kind_hooks(run.kind).start(run=run, members=members)  # e.g. a guild's own maze
    if started is not None:
        return started
    now = timezone.now()
    guilds = {m.player_id: player_current_guild(player=m.player) for m in members}
    guild_ids = {g.pk if g else None for g in guilds.values()}
    common = next(iter(guilds.values())) if len(guild_ids) == 1 else None
    rank = sum(g.rank if g else 0 for g in guilds.values()) / len(members)
    completed = sum(m.player.completed_dungeons for m in members) / len(members)
    run.dungeon = dungeon_generate(
        kind=run.kind, party_size=len(members), rank=rank, completed=completed, same_guild=common is not None,
        seed=run.seed, npc_kinds=guild_npc_kinds_unrescued(guild_id=common.pk) if common else None,
    )
    for guild_id, count in Counter(g.pk for g in guilds.values() if g).items():
        guild_person_runs_record(guild_id=guild_id, at=now, count=count)
    combat_rules = combat_rules_get()
    for member in members:
        member.guild = guilds[member.player_id]
        member.status = MemberStatus.IN_DUNGEON
        member.max_hp = member.hp = combat_rules.max_hp_for(member.player.stamina)
        member.buffs = [to_jsonable(spec) for spec in warlock_buffs_claim(player_id=member.player_id, run_id=run.pk)]
        member.save()
    run.guild = common
    run.status, run.started_at, run.floor, run.room = RunStatus.ACTIVE, now, 0, 0
    _log(run, "started", party=[m.player_id for m in members], rank=rank, completed=completed)
    _enter_room(run)
    return run


# --- rooms ----------------------------------------------------------------------------------------


def _current_room(run: Run) -> DungeonRoom:
    return DungeonRoom.objects.get(dungeon_id=run.dungeon_id, floor=run.floor, index=run.room)


def _next_position(run: Run) -> tuple[int, int] | None:
    rooms_here = DungeonRoom.objects.filter(dungeon_id=run.dungeon_id, floor=run.floor).count()
    if run.room + 1 < rooms_here:
        return run.floor, run.room + 1
    if run.floor + 1 < run.dungeon.floor_count:
        return run.floor + 1, 0
    return None


def _loot_pool(categories: Sequence[str] = LOOT_CATEGORIES) -> tuple[list[ItemKind], list[int]]:
    kinds = list(ItemKind.objects.filter(category__in=categories).order_by("pk"))
    weights = run_rules_get().rarity_weights()
    return kinds, [weights.get(kind.rarity, 0) for kind in kinds]


def _drop_loot(
    run: Run, count: int, purpose: str, categories: Sequence[str] = LOOT_CATEGORIES
) -> list[RunLoot]:
    kinds, weights = _loot_pool(categories)
    rng = run_rules.room_rng(run.seed, run.floor, run.room, purpose)
    picked = run_rules.weighted_pick(kinds, weights, rng, count)
    return RunLoot.objects.bulk_create(
        RunLoot(run=run, floor=run.floor, room=run.room, item_kind=kind) for kind in picked
    )


def _pay(members: list[RunMember], coins: int) -> None:
    if coins > 0:
        Player.objects.filter(pk__in=[m.player_id for m in members]).update(money=F("money") + coins)


def _enter_room(run: Run) -> None:
    """Walk into the room at the run's position and let it happen (call holding the run lock)."""
    rules = run_rules_get()
    room = _current_room(run)
    run.room_cleared = False
    party = _party(run, MemberStatus.IN_DUNGEON)
    _log(run, "entered", room_kind=room.kind)
    if room.kind in (RoomKind.ENEMY, RoomKind.BOSS):
        run.save()
        _battle_begin(run, party, is_boss=room.kind == RoomKind.BOSS)
        return
    if room.kind == RoomKind.TRAP:
        _spring_traps(run, party, rules)
    elif room.kind == RoomKind.TREASURE:
        count = run_rules.treasure_item_count(
            attentiveness=[m.player.attentiveness for m in party],
            rng=run_rules.room_rng(run.seed, run.floor, run.room, "treasure"), rules=rules,
        )
        loot = _drop_loot(run, count, "treasure-items")
        coins = run_rules.treasure_coins(floor=run.floor, rules=rules)
        _pay(party, coins)
        _log(run, "treasure", items=[l.pk for l in loot], coins_each=coins)
    elif room.kind == RoomKind.STORY and room.seal:
        _open_sealed_room(run, room, party, rules)
    elif room.kind == RoomKind.STORY:
        if room.npc_kind:
            run.npc_kind, run.npc_hp, run.npc_max_hp = room.npc_kind, rules.npc_hp, rules.npc_hp
            _log(run, "npc_joined", npc=room.npc_kind)
        else:
            kinds = list(ItemKind.objects.filter(sub_kind=STORY_ITEM_SUB_KINDS[room.story_item]).order_by("pk"))
            rng = run_rules.room_rng(run.seed, run.floor, run.room, "story")
            picked = [rng.choice(kinds) for _ in range(rules.story_items_count)] if kinds else []
            loot = RunLoot.objects.bulk_create(
                RunLoot(run=run, floor=run.floor, room=run.room, item_kind=kind) for kind in picked)
            _log(run, "story_items", story_item=room.story_item, items=[l.pk for l in loot])
    elif room.kind == RoomKind.REST:
        for member in party:
            healed = min(member.max_hp - member.hp, run_rules.rest_heal(metabolism=member.player.metabolism,
                                                                        rules=rules))
            member.hp += healed
            member.save(update_fields=["hp"])
        _log(run, "rested", hp={m.player_id: m.hp for m in party})
    if run.status == RunStatus.ACTIVE:
        run.room_cleared = True
    run.save()


def _open_sealed_room(run: Run, room: DungeonRoom, party: list[RunMember], rules: RunRules) -> None:
    """A sealed story room opens only if a member inside carries the story item it names, found in
    this run (``acquired_in_run``); the item is shown, not spent. Then it holds ``sealed_reward_items``
    uncommon or rare items (never amulets) and coins for every member; otherwise it stays shut."""
    key = (InventoryItem.objects.filter(player_id__in=[m.player_id for m in party], acquired_in_run=run,
                                        item_kind__sub_kind=STORY_ITEM_SUB_KINDS[room.seal])
           .order_by("pk").values_list("player_id", flat=True).first())
    if key is None:
        _log(run, "sealed", seal=room.seal)
        return
    kinds = list(ItemKind.objects.filter(category__in=BATTLE_LOOT_CATEGORIES,
                                         rarity__in=SEALED_REWARD_RARITIES).order_by("pk"))
    weights = [rules.rarity_weights().get(kind.rarity, 0) for kind in kinds]
    rng = run_rules.room_rng(run.seed, run.floor, run.room, "sealed-reward")
    loot = RunLoot.objects.bulk_create(
        RunLoot(run=run, floor=run.floor, room=run.room, item_kind=kind)
        for kind in run_rules.weighted_pick(kinds, weights, rng, rules.sealed_reward_items))
    coins = run_rules.sealed_reward_coins(floor=run.floor, rules=rules)
    _pay(party, coins)
    _log(run, "seal_opened", seal=room.seal, opened_by=key, items=[l.pk for l in loot], coins_each=coins)


def _spring_traps(run: Run, party: list[RunMember], rules: RunRules) -> None:
    hits = {}
    for member in party:
        rng = run_rules.room_rng(run.seed, run.floor, run.room, f"trap/{member.player_id}")
        hit = run_rules.trap_spring(floor=run.floor, attentiveness=member.player.attentiveness, rng=rng, rules=rules)
        member.hp = max(0, member.hp - hit.damage)
        if hit.effect:
            member.pending_effects = [*member.pending_effects,
                                      {"name": hit.effect, "turns": rules.trap_effect_turns}]
        member.save(update_fields=["hp", "pending_effects"])
        hits[member.player_id] = {"damage": hit.damage, "effect": hit.effect, "hp": member.hp}
    _log(run, "trap", hits=hits)
    for member in party:
        if member.hp == 0:
            _die(run, member)
    _end_if_party_gone(run)


# --- battles --------------------------------------------------------------------------------------


def _player_combatant(member: RunMember, items: list[InventoryItem]) -> Combatant:
    player = member.player
    boosts = member.stat_boosts or {}
    stats = Stats(**{name: getattr(player, name) + int(boosts.get(name, 0)) for name in STAT_NAMES})
    weapons = [i.item_kind.as_weapon() for i in items if i.equipped and i.item_kind.category == ItemCategory.WEAPON]
    return Combatant(
        id=player_combatant_id(player.pk), kind=Kind.PLAYER, name=player.display_name,
        hp=member.hp, max_hp=member.max_hp, stats=stats, weapons=tuple(weapons[:2]),
        armor=sum(i.item_kind.armor for i in items if i.equipped and i.item_kind.category == ItemCategory.ARMOR),
        potions=tuple(i.item_kind.as_potion(i.pk) for i in items if i.item_kind.category == ItemCategory.POTION),
        amulets=tuple(spec for i in items if i.item_kind.category == ItemCategory.AMULET
                      for spec in [i.item_kind.effect_spec()] if spec is not None),
    )


def _battle_begin(run: Run, party: list[RunMember], *, is_boss: bool) -> None:
    items: dict[int, list[InventoryItem]] = {m.player_id: [] for m in party}
    for item in InventoryItem.objects.filter(player_id__in=items).select_related("item_kind").order_by("pk"):
        items[item.player_id].append(item)
    players = tuple(_player_combatant(m, items[m.player_id]) for m in party)
    slugs: dict[str, str] = {}
    enemies = encounter_for_room(floor=run.floor, is_boss=is_boss, party_size=len(party),
                                 rng=run_rules.room_rng(run.seed, run.floor, run.room, "encounter"), slugs=slugs)
    npc = None
    if run.has_npc:
        npc = Combatant(id=NPC_ID, kind=Kind.NPC, name=run.get_npc_kind_display(), hp=run.npc_hp,
                        max_hp=run.npc_max_hp)
    starting = []
    for member in party:
        cid = player_combatant_id(member.player_id)
        for spec in [*member.pending_effects, *member.buffs]:
            starting.append((cid, EffectSpec(spec["name"], spec.get("turns"), spec.get("magnitude"))))
        if member.pending_effects:
            member.pending_effects = []
            member.save(update_fields=["pending_effects"])
    setup = BattleSetup(players=players, enemies=tuple(enemies), npc=npc, starting_effects=tuple(starting),
                        rules=combat_rules_get())
    seed = run_rules.room_rng(run.seed, run.floor, run.room, "battle").randrange(MAX_SEED)
    battle = battle_start(run_id=run.pk, floor=run.floor, room=run.room, setup=setup, seed=seed,
                          enemy_kinds=slugs)
    run.refresh_from_db()
    _log(run, "battle", battle=battle.pk, enemies=[e.name for e in enemies])
    run.save()


def run_after_battle_step(*, battle: Battle, state: BattleState, events: Sequence[Event]) -> None:
    """Carry one battle step's consequences into the run (called by combat.services, run lock held).

    Potions drunk leave the inventory; stat potions last for the rest of the run; a player who
    dies respawns through Charon, one who flees escapes with the loss fraction; kills count
    towards bounties; at the end HP carries over and a victory clears the room (a boss on the
    last floor completes the run). A draw at the round limit means the enemies withdraw: the
    room is cleared without loot (docs/runs.md). A step with none of those (most attacks)
    touches no run row at all.
    """
    if not state.over and not any(isinstance(e, RUN_RELEVANT_EVENTS) for e in events):
        return
    run = Run.objects.get(pk=battle.run_id)  # the caller holds its row lock
    members = {m.player_id: m for m in _party(run, MemberStatus.IN_DUNGEON)}
    last_attacker: dict[str, str] = {}
    kills: dict[int, Counter[str]] = {}
    for event in events:
        actor = getattr(event, "actor", "")
        member = members.get(combatant_player_id(actor) or 0)
        if isinstance(event, Attack):
            last_attacker[event.target] = event.actor
        elif isinstance(event, PotionDrunk) and member:
            InventoryItem.objects.filter(pk=int(event.potion), player_id=member.player_id).delete()
        elif isinstance(event, StatRaised) and member:
            member.stat_boosts = {**member.stat_boosts,
                                  event.stat: int(member.stat_boosts.get(event.stat, 0)) + event.amount}
            member.save(update_fields=["stat_boosts"])
        elif isinstance(event, Death):
            killer = combatant_player_id(last_attacker.get(event.target, ""))
            if event.target in battle.enemy_kinds and killer:
                kills.setdefault(killer, Counter())[battle.enemy_kinds[event.target]] += 1
            victim = members.get(combatant_player_id(event.target) or 0)
            if event.target == NPC_ID:
                run.npc_hp = 0
                _log(run, "npc_died", npc=run.npc_kind)
            elif victim and victim.status == MemberStatus.IN_DUNGEON:
                victim.hp = 0
                _die(run, victim)
        elif isinstance(event, Fled) and member and member.status == MemberStatus.IN_DUNGEON:
            _escape(run, member, purpose=f"flee/{battle.pk}")
    for player_id, counted in kills.items():
        member = members.get(player_id) or RunMember.objects.get(run=run, player_id=player_id)
        member.kills = {**member.kills, **{s: int(member.kills.get(s, 0)) + n for s, n in counted.items()}}
        member.save(update_fields=["kills"])
        bounty_progress_record(player_id=player_id, kills=dict(counted))
    if state.over:
        _battle_over(run, battle, state, members)
    _end_if_party_gone(run)
    run.save()


def _battle_over(run: Run, battle: Battle, state: BattleState, members: dict[int, RunMember]) -> None:
    for combatant in state.players:
        member = members.get(combatant_player_id(combatant.id) or 0)
        if member and member.status == MemberStatus.IN_DUNGEON:
            member.hp, member.max_hp = combatant.hp, combatant.max_hp
            member.save(update_fields=["hp", "max_hp"])
    npc = state.npc
    if npc is not None and run.npc_kind:
        run.npc_hp = npc.hp
    _log(run, "battle_over", battle=battle.pk, outcome=state.outcome.value)
    if state.outcome not in (Outcome.VICTORY, Outcome.DRAW):
        return
    run.room_cleared = True
    if state.outcome is Outcome.VICTORY:
        rules = run_rules_get()
        party = [m for m in members.values() if m.status == MemberStatus.IN_DUNGEON]
        if state.has_boss:
            _drop_loot(run, rules.boss_loot_items, "boss-loot", BATTLE_LOOT_CATEGORIES)
            _pay(party, rules.boss_coins)
        elif run_rules.room_rng(run.seed, run.floor, run.room, "battle-loot").random() < rules.battle_loot_chance:
            _drop_loot(run, 1, "battle-loot-item", BATTLE_LOOT_CATEGORIES)
        if state.has_boss and (run_kind_hooks(run.kind).boss_completes_run or _next_position(run) is None):
            _complete(run, party)


# --- endings ------------------------------------------------------------------------------------


def _die(run: Run, member: RunMember) -> None:
    """Out of the run; Charon respawns the player for a tenth of their money and this run's items."""
    player = Player.objects.select_for_update().get(pk=member.player_id)
    fee = run_rules.charon_fee(money=player.money, rules=run_rules_get())
    lost, _ = InventoryItem.objects.filter(player=player, acquired_in_run=run).delete()
    Player.objects.filter(pk=player.pk).update(money=F("money") - fee)
    member.status, member.active, member.hp = MemberStatus.DEAD, False, 0
    member.money_lost, member.items_lost = fee, lost
    member.save(update_fields=["status", "active", "hp", "money_lost", "items_lost"])
    _log(run, "died", player=member.player_id, charon_fee=fee, items_lost=lost)
    run_kind_hooks(run.kind).member_died(run=run)


def _escape(run: Run, member: RunMember, *, purpose: str) -> None:
    """Out of the run alive, losing the loss fraction of everything carried (seeded choice)."""
    player = Player.objects.select_for_update().get(pk=member.player_id)
    percent = run_rules.escape_loss_percent(luck=player.luck, attentiveness=player.attentiveness,
                                            rules=run_rules_get())
    carried = list(InventoryItem.objects.filter(player=player).order_by("pk").values_list("pk", flat=True))
    rng = run_rules.room_rng(run.seed, run.floor or 0, run.room or 0, f"{purpose}/{player.pk}")
    lost = run_rules.escape_losses(carried, percent=percent, rng=rng)
    InventoryItem.objects.filter(pk__in=lost).delete()
    member.status, member.active, member.items_lost = MemberStatus.ESCAPED, False, len(lost)
    member.save(update_fields=["status", "active", "items_lost"])
    _log(run, "escaped", player=member.player_id, loss_percent=percent, items_lost=len(lost))


def _end_if_party_gone(run: Run) -> None:
    if run.status != RunStatus.ACTIVE or run.members.filter(status=MemberStatus.IN_DUNGEON).exists():
        return
    run_kind_hooks(run.kind).run_ending(run=run)
    escaped = run.members.filter(status=MemberStatus.ESCAPED).exists()
    run.status = RunStatus.ESCAPED if escaped else RunStatus.FAILED
    run.ended_at, run.room_cleared = timezone.now(), False
    _log(run, run.status)


def _complete(run: Run, party: list[RunMember]) -> None:
    # The rescue writes the guild row before any player row is touched here, the guild services'
    # order (guild, then player), so a completion never deadlocks with a kick or a leave.
    run_kind_hooks(run.kind).run_ending(run=run)
    rescued = run.has_npc and run.guild_id is not None
    if rescued:
        npc_rescue(guild_id=run.guild_id, kind=run.npc_kind, run_id=run.pk)
    for member in party:
        member.status, member.active = MemberStatus.FINISHED, False
        member.save(update_fields=["status", "active"])
    Player.objects.filter(pk__in=[m.player_id for m in party]).update(
        completed_dungeons=F("completed_dungeons") + 1)
    run.status, run.ended_at = RunStatus.COMPLETED, timezone.now()
    _log(run, "completed", party=[m.player_id for m in party], rescued=run.npc_kind if rescued else None)


# --- moves ----------------------------------------------------------------------------------------


def _check_step(run: Run, step: int) -> None:
    if step != run.step:
        raise RuleViolation("stale_step", "The party has moved on; reload the run.",
                            {"step": step, "current_step": run.step})


@transaction.atomic
def run_advance(*, player: Player, run_id: int, step: int) -> Run:
    """Go on to the next room (once the current one is done); ``step`` is the run step the client saw."""
    run = _lock_run(run_id)
    _member(run, player, MemberStatus.IN_DUNGEON)
    _require_status(run, RunStatus.ACTIVE)
    _check_step(run, step)
    run_kind_hooks(run.kind).advance_check(run=run)
    if not run.room_cleared:
        raise RuleViolation("room_not_cleared", "Finish this room first.", {"floor": run.floor, "room": run.room})
    position = _next_position(run)
    if position is None:  # the last boss withdrew (a draw at the round limit): no way on, only out
        raise RuleViolation("no_next_room", "This was the last room; the party can only leave (escape).",
                            {"floor": run.floor, "room": run.room})
    rules = run_rules_get()
    for member in _party(run, MemberStatus.IN_DUNGEON):
        regen = run_rules.room_regen(metabolism=member.player.metabolism, rules=rules)
        member.hp = min(member.max_hp, member.hp + regen)
        member.save(update_fields=["hp"])
    run.floor, run.room = position
    run.step += 1
    _enter_room(run)
    return run


@transaction.atomic
def run_escape(*, player: Player, run_id: int, step: int) -> Run:
    """The whole party leaves the dungeon from a treasure or rest room; each loses the loss fraction."""
    run = _lock_run(run_id)
    _member(run, player, MemberStatus.IN_DUNGEON)
    _require_status(run, RunStatus.ACTIVE)
    _check_step(run, step)
    run_kind_hooks(run.kind).escape_check(run=run)
    room = _current_room(run)
    stranded = run.room_cleared and _next_position(run) is None  # the last boss withdrew: leaving is all left
    if room.kind not in (RoomKind.TREASURE, RoomKind.REST) and not stranded:
        raise RuleViolation("cannot_escape_here", "The party can leave only from a treasure or rest room.",
                            {"room_kind": room.kind})
    for member in _party(run, MemberStatus.IN_DUNGEON):
        _escape(run, member, purpose="escape")
    run.step += 1
    _end_if_party_gone(run)
    run.save()
    return run


@transaction.atomic
def run_potion_drink(*, player: Player, run_id: int, item_id: int) -> Run:
    """Drink a carried healing or stat potion between rooms (e.g. after a trap), outside battle.

    Healing restores up to max HP; a stat potion lasts for the rest of the run (``stat_boosts``,
    as in battle; stamina also raises max HP and HP by ``hp_per_stamina`` per point). Effect
    potions work only in battle (effects exist only there): 409, and during a battle every potion
    is drunk with the battle's own action: 409 ``in_battle``. The potion leaves the inventory.
    """
    run = _lock_run(run_id)
    _member(run, player)  # a stranger gets a 404 before learning the run's status
    _require_status(run, RunStatus.ACTIVE)
    member = _member(run, player, MemberStatus.IN_DUNGEON)
    ongoing = Battle.objects.filter(run_id=run.pk, outcome=Outcome.ONGOING.value)
    battle = ongoing.values_list("pk", flat=True).first()
    if battle is not None:
        raise RuleViolation("in_battle", "A battle is on: drink with the battle's drink action.",
                            {"battle": battle})
    item = (InventoryItem.objects.select_for_update().select_related("item_kind")
            .filter(pk=item_id, player=player, item_kind__category=ItemCategory.POTION).first())
    if item is None:
        raise NotFound("potion_not_found", "You carry no such potion.", {"potion": item_id})
    kind = item.item_kind
    if kind.sub_kind == PotionKind.EFFECT.value:
        raise RuleViolation("effect_potion_in_battle_only", "Effect potions work only in battle.",
                            {"potion": item_id, "effect": kind.effect})
    details: dict[str, Any] = {}
    if kind.sub_kind == PotionKind.STAT.value:
        member.stat_boosts = {**member.stat_boosts, kind.stat: int(member.stat_boosts.get(kind.stat, 0))
                              + kind.stat_amount}
        if kind.stat == "stamina":
            extra = kind.stat_amount * combat_rules_get().hp_per_stamina
            member.max_hp, member.hp = member.max_hp + extra, member.hp + extra
        details.update(stat=kind.stat, amount=kind.stat_amount)
    else:
        details["healed"] = min(member.max_hp - member.hp, kind.heal)
        member.hp += details["healed"]
    member.save(update_fields=["hp", "max_hp", "stat_boosts"])
    item.delete()
    _log(run, "potion_drunk", player=player.pk, potion=kind.sub_kind, item_kind=kind.pk, hp=member.hp,
         max_hp=member.max_hp, **details)
    run.save(update_fields=["log"])
    return run


@transaction.atomic
def run_loot_take(*, player: Player, run_id: int, loot_id: int) -> RunLoot:
    """Pick up an item lying in the current room; a refused pickup (409 naming the limit) leaves it.

    The room of the last boss stays reachable after the run completes: the party that finished it
    may still pick up what the boss dropped.
    """
    run = _lock_run(run_id)
    if run.status == RunStatus.COMPLETED:
        _member(run, player, MemberStatus.FINISHED)
    else:
        _member(run, player, MemberStatus.IN_DUNGEON)
        _require_status(run, RunStatus.ACTIVE)
    loot = RunLoot.objects.filter(pk=loot_id, run=run).select_related("item_kind").first()
    if loot is None:
        raise NotFound("loot_not_found", "No such item here.", {"loot": loot_id})
    if (loot.floor, loot.room) != (run.floor, run.room):
        raise RuleViolation("loot_out_of_reach", "That item lies in another room.", {"loot": loot_id})
    if loot.taken_by_id is not None:
        raise RuleViolation("loot_taken", "Someone took it already.", {"loot": loot_id})
    inventory_add(player=player, item_kind=loot.item_kind, acquired_in_run_id=run.pk)
    loot.taken_by, loot.taken_at = player, timezone.now()
    loot.save(update_fields=["taken_by", "taken_at"])
    return loot
