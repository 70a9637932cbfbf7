"""The rooms of a run: entering one (battle, trap, treasure, story, sealed story, rest), and the moves
inside: advance, the party's escape, a potion between rooms, picking up loot. Each move loads the run
as a step (dungeons/runs/store.py), computes it and has the store save what it changed."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from backend.errors import NotFound, RuleViolation, refused
from combat import store as battles_store
from combat.models import CombatSettings
from combat.selectors import combat_rules_get
from combat.store import BattleRow
from dungeons.kinds import run_kind_hooks
from dungeons.models import MemberStatus, RoomKind, RunStatus
from dungeons.runs import store
from dungeons.runs.battles import battle_begin
from dungeons.runs.core import (
    apply_rules,
    catalog_read,
    check_step,
    inside,
    member_of,
    pay,
    place_of,
    require_status,
    run_locked,
    run_rules_get,
    run_stats_of,
)
from dungeons.runs.endings import die, end_if_party_gone, escape
from dungeons.runs.engine import Place, loot, rooms
from dungeons.runs.engine.log import Entered, Sealed
from dungeons.runs.engine.loot import (
    BATTLE_LOOT_CATEGORIES,
    LOOT_CATEGORIES,
    SEALED_REWARD_RARITIES,
    STORY_ITEM_SUB_KINDS,
)
from dungeons.runs.engine.rules import RunRules
from dungeons.runs.store import LootRow, MemberRow, RoomRow, RunRow, RunStep
from gamekit import Impossible
from players.models import ItemKind, Player
from players.services import inventory_add


@dataclass(frozen=True)
class RoomEntry:
    """What entering a room made, for an answer built without reading it back: the room, its
    battle (an enemy or boss room) and the loot that now lies in it (in the order of its ids)."""

    room: RoomRow
    battle: BattleRow | None = None
    loot: list[LootRow] = field(default_factory=list)


def current_room(step: RunStep) -> RoomRow:
    """The room where the party stands."""
    run = step.run
    return next(room for room in step.rooms() if (room.floor, room.index) == (run.floor, run.room))


def enter_room(step: RunStep, *, settings: CombatSettings | None = None,
               room: RoomRow | None = None) -> RoomEntry:
    """Walk into the room at the run's position and let it happen, on the step (call holding the run's
    lock; the caller saves the step).

    ``settings``: the combat settings, if the caller already read them; ``room``: the room at the
    run's position, if the caller holds it.
    """
    rules = run_rules_get(step.run)
    room = current_room(step) if room is None else room
    step.change(room_cleared=False)
    party = step.party(MemberStatus.IN_DUNGEON)
    step.log(Entered(room_kind=room.kind))
    if room.kind in (RoomKind.ENEMY, RoomKind.BOSS):
        battle = battle_begin(step, party, is_boss=room.kind == RoomKind.BOSS, settings=settings)
        return RoomEntry(room, battle=battle)
    place = place_of(step.run)
    laid: list[LootRow] = []
    if room.kind == RoomKind.TRAP:
        _spring_traps(step, place, party, rules)
    elif room.kind == RoomKind.TREASURE:
        found = rooms.treasure_find(place=place, party=[inside(m) for m in party],
                                    pool=catalog_read(step, store.item_kinds(LOOT_CATEGORIES),
                                                      "treasure-items"), rules=rules)
        laid = _lay(step, place, found.items)
        pay(party, found.coins_each)
        step.log(rooms.treasure_entry(found, [item.pk for item in laid]))
    elif room.kind == RoomKind.STORY and room.seal:
        laid = _open_sealed_room(step, place, room, party, rules)
    elif room.kind == RoomKind.STORY and room.npc_kind:
        joins = rooms.npc_joins(npc_kind=room.npc_kind, rules=rules)
        step.change(**joins.run)
        step.log(joins.entry)
    elif room.kind == RoomKind.STORY:
        sub_kind = STORY_ITEM_SUB_KINDS[room.story_item]
        pool = catalog_read(step, store.item_kinds_where(sub_kind=sub_kind), "story")
        laid = _lay(step, place, loot.story_items_draw(pool, place=place, rules=rules))
        step.log(rooms.story_items_entry(room.story_item, [item.pk for item in laid]))
    elif room.kind == RoomKind.REST:
        rested = rooms.rest(party=[inside(m) for m in party], rules=rules)
        apply_rules(step, rested.changes, rested.entry)
    if step.run.status == RunStatus.ACTIVE:
        step.change(room_cleared=True)
    return RoomEntry(room, loot=laid)


def _lay(step: RunStep, place: Place, kinds: list[ItemKind]) -> list[LootRow]:
    """The drawn items now lie in the room (stored, with their ids)."""
    return store.loot_add(run_id=step.pk, floor=place.floor, room=place.room, kinds=kinds)


def _open_sealed_room(step: RunStep, place: Place, room: RoomRow, party: list[MemberRow],
                      rules: RunRules) -> list[LootRow]:
    """A sealed story room opens only if a member inside carries the story item it names, found in
    this run (``acquired_in_run``); the item is shown, not spent. Then it holds ``sealed_reward_items``
    uncommon or rare items (never amulets) and coins for every member; otherwise it stays shut."""
    key = store.key_holder(player_ids=[m.player_id for m in party], run_id=step.pk,
                           sub_kind=STORY_ITEM_SUB_KINDS[room.seal])
    pool = [] if key is None else catalog_read(
        step, store.item_kinds_where(category__in=BATTLE_LOOT_CATEGORIES, rarity__in=SEALED_REWARD_RARITIES),
        "sealed-reward")
    opened = rooms.seal_open(place=place, seal=room.seal, key_holder=key, pool=pool, rules=rules)
    if isinstance(opened, Sealed):
        step.log(opened)
        return []
    assert key is not None
    laid = _lay(step, place, opened.items)
    pay(party, opened.coins_each)
    step.log(rooms.seal_entry(opened, seal=room.seal, key_holder=key, item_ids=[item.pk for item in laid]))
    return laid


def _spring_traps(step: RunStep, place: Place, party: list[MemberRow], rules: RunRules) -> None:
    sprung = rooms.traps_spring(place=place, party=[inside(m) for m in party], rules=rules)
    apply_rules(step, sprung.changes, sprung.entry)
    for player_id in sprung.fallen:
        now = step.member(player_id)
        if now is not None and now.hp == 0:
            die(step, now)
    end_if_party_gone(step)


# --- moves ----------------------------------------------------------------------------------------


def _moving(player: Player, run_id: int, step_number: int) -> RunStep:
    """The locked run for a move of the party (advance, escape): by a member inside an active run,
    naming the run step the client saw."""
    step = run_locked(run_id, rooms=True)
    member_of(step, player, MemberStatus.IN_DUNGEON)
    require_status(step.run, RunStatus.ACTIVE)
    check_step(step.run, step_number)
    return step


@transaction.atomic
def run_advance(*, player: Player, run_id: int, step: int) -> RunRow:
    """Go on to the next room (once the current one is done); ``step`` is the run step the client saw."""
    moving = _moving(player, run_id, step)
    moving.act(player.pk, {"kind": "advance", "step": step}, at=timezone.now())
    run = moving.run
    run_kind_hooks(run.kind).advance_check(step=moving)
    if not run.room_cleared:
        raise RuleViolation("room_not_cleared", "Finish this room first.",
                            {"floor": run.floor, "room": run.room})
    position = store.next_position(moving)
    if position is None:  # the last boss withdrew (a draw at the round limit): no way on, only out
        raise RuleViolation("no_next_room", "This was the last room; the party can only leave (escape).",
                            {"floor": run.floor, "room": run.room})
    regenerated = rooms.regenerate(party=[inside(m) for m in moving.party(MemberStatus.IN_DUNGEON)],
                                   rules=run_rules_get(moving.run))
    apply_rules(moving, regenerated)
    moving.change(floor=position[0], room=position[1], step=run.step + 1)
    enter_room(moving)
    store.run_save(moving)
    return moving.run


@transaction.atomic
def run_escape(*, player: Player, run_id: int, step: int) -> RunRow:
    """The whole party leaves the dungeon from a treasure or rest room; each loses the loss fraction."""
    moving = _moving(player, run_id, step)
    moving.act(player.pk, {"kind": "escape", "step": step}, at=timezone.now())
    run_kind_hooks(moving.run.kind).escape_check(step=moving)
    room = current_room(moving)
    # the last boss withdrew: leaving is all that is left
    stranded = moving.run.room_cleared and store.next_position(moving) is None
    if room.kind not in (RoomKind.TREASURE, RoomKind.REST) and not stranded:
        raise RuleViolation("cannot_escape_here", "The party can leave only from a treasure or rest room.",
                            {"room_kind": room.kind})
    for member in moving.party(MemberStatus.IN_DUNGEON):
        escape(moving, member, purpose="escape")
    moving.change(step=moving.run.step + 1)
    end_if_party_gone(moving)
    store.run_save(moving)
    return moving.run


@transaction.atomic
def run_potion_drink(*, player: Player, run_id: int, item_id: int) -> RunRow:
    """Drink a carried healing or stat potion between rooms (e.g. after a trap), outside battle.

    Healing restores up to max HP; a stat potion lasts for the rest of the run (``stat_boosts``,
    as in battle; stamina also raises max HP and HP by ``hp_per_stamina`` per point). Effect
    potions work only in battle (effects exist only there): 409, and during a battle every potion
    is drunk with the battle's own action: 409 ``in_battle``. The potion leaves the inventory.
    """
    step = run_locked(run_id)
    member_of(step, player)  # a stranger gets a 404 before learning the run's status
    require_status(step.run, RunStatus.ACTIVE)
    member = member_of(step, player, MemberStatus.IN_DUNGEON)
    battle = battles_store.ongoing_battle(run_id=step.pk)
    if battle is not None:
        raise RuleViolation("in_battle", "A battle is on: drink with the battle's drink action.",
                            {"battle": battle})
    item = store.potion_locked(player_id=player.pk, item_id=item_id)
    if item is None:
        raise NotFound("potion_not_found", "You carry no such potion.", {"potion": item_id})
    kind = item.item_kind
    potion = rooms.PotionFacts(item_id=item_id, item_kind=kind.pk, sub_kind=kind.sub_kind, heal=kind.heal,
                               stat=kind.stat, stat_amount=kind.stat_amount, effect=kind.effect)
    # the combat rules (a statement here) are read only for what needs them: a stamina potion
    stamina = kind.sub_kind == "stat" and kind.stat == "stamina"
    drunk = rooms.potion_drink(player_id=player.pk, hp=member.hp, max_hp=member.max_hp,
                               stat_boosts=member.stat_boosts, potion=potion,
                               hp_per_stamina=combat_rules_get().hp_per_stamina if stamina else 0)
    if isinstance(drunk, Impossible):
        raise refused(drunk)
    step.act(player.pk, {"kind": "drink", "potion": item_id, "item_kind": kind.pk}, at=timezone.now())
    apply_rules(step, [drunk.change])
    store.item_delete(item)
    step.log(drunk.entry)
    store.run_save(step)
    return step.run


@transaction.atomic
def run_loot_take(*, player: Player, run_id: int, loot_id: int) -> LootRow:
    """Pick up an item lying in the current room; a refused pickup (409 naming the limit) leaves it.

    The room of the last boss stays reachable after the run completes: the party that finished it
    may still pick up what the boss dropped.
    """
    step = run_locked(run_id)
    strength = None  # the permanent strength, once the run is over
    if step.run.status == RunStatus.COMPLETED:
        member_of(step, player, MemberStatus.FINISHED)
    else:
        member = member_of(step, player, MemberStatus.IN_DUNGEON)
        require_status(step.run, RunStatus.ACTIVE)
        strength = run_stats_of(member)["strength"]  # a strength potion drunk in the run carries more
    loot = store.loot_get(run_id=step.pk, loot_id=loot_id)
    if loot is None:
        raise NotFound("loot_not_found", "No such item here.", {"loot": loot_id})
    if (loot.floor, loot.room) != (step.run.floor, step.run.room):
        raise RuleViolation("loot_out_of_reach", "That item lies in another room.", {"loot": loot_id})
    if loot.taken_by_id is not None:
        raise RuleViolation("loot_taken", "Someone took it already.", {"loot": loot_id})
    inventory_add(player=player, item_kind=loot.item_kind, acquired_in_run_id=step.pk, strength=strength)
    store.loot_take(loot_id=loot.id, player_id=player.pk)
    return loot
