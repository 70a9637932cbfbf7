"""The rooms of a run: entering one (battle, trap, treasure, story, sealed story, rest), and the moves
inside: advance, the party's escape, a potion between rooms, picking up loot."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from backend.errors import NotFound, RuleViolation
from backend.sql import rows_insert, rows_update
from combat.engine import PotionKind
from combat import store as battles_store
from combat.models import CombatSettings
from combat.store import BattleRow
from combat.selectors import combat_rules_get
from dungeons import run_rules
from dungeons.kinds import run_kind_hooks
from dungeons.models import DungeonRoom, MemberStatus, RoomKind, Run, RunLoot, RunMember, RunStatus
from dungeons.run_log import (
    LogEntry,
    Entered,
    NpcJoined,
    PotionHealed,
    Rested,
    SealOpened,
    Sealed,
    StatPotionDrunk,
    StoryItems,
    Trap,
    Treasure,
)
from dungeons.run_rules import RunRules
from dungeons.runs.battles import battle_begin
from dungeons.runs.core import (
    BATTLE_LOOT_CATEGORIES,
    SEALED_REWARD_RARITIES,
    STORY_ITEM_SUB_KINDS,
    check_step,
    current_room,
    drop_loot,
    lock_run,
    log,
    next_position,
    pay,
    require_status,
    run_member,
    run_party,
    run_rules_get,
    run_save,
)
from dungeons.runs.endings import die, end_if_party_gone, escape
from players.models import InventoryItem, ItemCategory, ItemKind, Player
from players.services import inventory_add


@dataclass(frozen=True)
class RoomEntry:
    """What entering a room made, for an answer built without reading it back: the room, its
    battle (an enemy or boss room) and the loot that now lies in it (in the order of its ids)."""

    room: DungeonRoom
    battle: BattleRow | None = None
    loot: list[RunLoot] = field(default_factory=list)


def enter_room(
    run: Run, party: list[RunMember] | None = None, *, settings: CombatSettings | None = None,
    room: DungeonRoom | None = None,
) -> RoomEntry:
    """Walk into the room at the run's position and let it happen; saves the run (call holding its lock).

    ``party``: the members inside, with their players, if the caller already read them;
    ``settings``: the combat settings, if the caller already read them; ``room``: the room at the
    run's position, if the caller holds it.
    """
    rules = run_rules_get()
    room = current_room(run) if room is None else room
    run.room_cleared = False
    party = run_party(run, MemberStatus.IN_DUNGEON) if party is None else party
    log(run, Entered(room_kind=room.kind))
    if room.kind in (RoomKind.ENEMY, RoomKind.BOSS):
        battle = battle_begin(run, party, is_boss=room.kind == RoomKind.BOSS, settings=settings)
        run_save(run)
        return RoomEntry(room, battle=battle)
    loot: list[RunLoot] = []
    if room.kind == RoomKind.TRAP:
        _spring_traps(run, party, rules)
    elif room.kind == RoomKind.TREASURE:
        count = run_rules.treasure_item_count(
            attentiveness=[m.player.attentiveness for m in party],
            rng=run_rules.room_rng(run.seed, run.floor, run.room, "treasure"), rules=rules,
        )
        loot = drop_loot(run, count, "treasure-items")
        coins = run_rules.treasure_coins(floor=run.floor, rules=rules)
        pay(party, coins)
        log(run, Treasure(items=[l.pk for l in loot], coins_each=coins))
    elif room.kind == RoomKind.STORY and room.seal:
        loot = _open_sealed_room(run, room, party, rules)
    elif room.kind == RoomKind.STORY:
        if room.npc_kind:
            run.npc_kind, run.npc_hp, run.npc_max_hp = room.npc_kind, rules.npc_hp, rules.npc_hp
            log(run, NpcJoined(npc=room.npc_kind))
        else:
            kinds = list(ItemKind.objects.filter(sub_kind=STORY_ITEM_SUB_KINDS[room.story_item]).order_by("pk"))
            rng = run_rules.room_rng(run.seed, run.floor, run.room, "story")
            picked = [rng.choice(kinds) for _ in range(rules.story_items_count)] if kinds else []
            loot = rows_insert([RunLoot(run=run, floor=run.floor, room=run.room, item_kind=kind) for kind in picked])
            log(run, StoryItems(story_item=room.story_item, items=[l.pk for l in loot]))
    elif room.kind == RoomKind.REST:
        for member in party:
            member.hp += min(member.max_hp - member.hp,
                             run_rules.rest_heal(metabolism=member.player.metabolism, rules=rules))
        rows_update(party, ["hp"])
        log(run, Rested(hp={m.player_id: m.hp for m in party}))
    if run.status == RunStatus.ACTIVE:
        run.room_cleared = True
    run_save(run)
    return RoomEntry(room, loot=loot)


def _open_sealed_room(run: Run, room: DungeonRoom, party: list[RunMember], rules: RunRules) -> list[RunLoot]:
    """A sealed story room opens only if a member inside carries the story item it names, found in
    this run (``acquired_in_run``); the item is shown, not spent. Then it holds ``sealed_reward_items``
    uncommon or rare items (never amulets) and coins for every member; otherwise it stays shut."""
    key = (InventoryItem.objects.filter(player_id__in=[m.player_id for m in party], acquired_in_run=run,
                                        item_kind__sub_kind=STORY_ITEM_SUB_KINDS[room.seal])
           .order_by("pk").values_list("player_id", flat=True).first())
    if key is None:
        log(run, Sealed(seal=room.seal))
        return []
    kinds = list(ItemKind.objects.filter(category__in=BATTLE_LOOT_CATEGORIES,
                                         rarity__in=SEALED_REWARD_RARITIES).order_by("pk"))
    weights = [rules.rarity_weights().get(kind.rarity, 0) for kind in kinds]
    rng = run_rules.room_rng(run.seed, run.floor, run.room, "sealed-reward")
    loot = rows_insert([RunLoot(run=run, floor=run.floor, room=run.room, item_kind=kind)
                        for kind in run_rules.weighted_pick(kinds, weights, rng, rules.sealed_reward_items)])
    coins = run_rules.sealed_reward_coins(floor=run.floor, rules=rules)
    pay(party, coins)
    log(run, SealOpened(seal=room.seal, opened_by=key, items=[l.pk for l in loot], coins_each=coins))
    return loot


def _spring_traps(run: Run, party: list[RunMember], rules: RunRules) -> None:
    hits = {}
    for member in party:
        rng = run_rules.room_rng(run.seed, run.floor, run.room, f"trap/{member.player_id}")
        hit = run_rules.trap_spring(floor=run.floor, attentiveness=member.player.attentiveness, rng=rng, rules=rules)
        member.hp = max(0, member.hp - hit.damage)
        if hit.effect:
            member.pending_effects = [*member.pending_effects,
                                      {"name": hit.effect, "turns": rules.trap_effect_turns}]
        hits[member.player_id] = {"damage": hit.damage, "effect": hit.effect, "hp": member.hp}
    rows_update(party, ["hp", "pending_effects"])
    log(run, Trap(hits=hits))
    for member in party:
        if member.hp == 0:
            die(run, member)
    end_if_party_gone(run, party)


# --- moves ----------------------------------------------------------------------------------------


def _moving(player: Player, run_id: int, step: int) -> Run:
    """The locked run for a move of the party (advance, escape): by a member inside an active run,
    naming the run step the client saw."""
    run = lock_run(run_id)
    run_member(run, player, MemberStatus.IN_DUNGEON)
    require_status(run, RunStatus.ACTIVE)
    check_step(run, step)
    return run


@transaction.atomic
def run_advance(*, player: Player, run_id: int, step: int) -> Run:
    """Go on to the next room (once the current one is done); ``step`` is the run step the client saw."""
    run = _moving(player, run_id, step)
    run_kind_hooks(run.kind).advance_check(run=run)
    if not run.room_cleared:
        raise RuleViolation("room_not_cleared", "Finish this room first.", {"floor": run.floor, "room": run.room})
    position = next_position(run)
    if position is None:  # the last boss withdrew (a draw at the round limit): no way on, only out
        raise RuleViolation("no_next_room", "This was the last room; the party can only leave (escape).",
                            {"floor": run.floor, "room": run.room})
    rules = run_rules_get()
    party = run_party(run, MemberStatus.IN_DUNGEON)
    for member in party:
        regen = run_rules.room_regen(metabolism=member.player.metabolism, rules=rules)
        member.hp = min(member.max_hp, member.hp + regen)
    rows_update(party, ["hp"])
    run.floor, run.room = position
    run.step += 1
    enter_room(run, party)
    return run


@transaction.atomic
def run_escape(*, player: Player, run_id: int, step: int) -> Run:
    """The whole party leaves the dungeon from a treasure or rest room; each loses the loss fraction."""
    run = _moving(player, run_id, step)
    run_kind_hooks(run.kind).escape_check(run=run)
    room = current_room(run)
    stranded = run.room_cleared and next_position(run) is None  # the last boss withdrew: leaving is all left
    if room.kind not in (RoomKind.TREASURE, RoomKind.REST) and not stranded:
        raise RuleViolation("cannot_escape_here", "The party can leave only from a treasure or rest room.",
                            {"room_kind": room.kind})
    for member in run_party(run, MemberStatus.IN_DUNGEON):
        escape(run, member, purpose="escape")
    run.step += 1
    end_if_party_gone(run)
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
    run = lock_run(run_id)
    run_member(run, player)  # a stranger gets a 404 before learning the run's status
    require_status(run, RunStatus.ACTIVE)
    member = run_member(run, player, MemberStatus.IN_DUNGEON)
    battle = battles_store.ongoing_battle(run_id=run.pk)
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
    if kind.sub_kind == PotionKind.STAT.value:
        member.stat_boosts = {**member.stat_boosts, kind.stat: int(member.stat_boosts.get(kind.stat, 0))
                              + kind.stat_amount}
        if kind.stat == "stamina":
            extra = kind.stat_amount * combat_rules_get().hp_per_stamina
            member.max_hp, member.hp = member.max_hp + extra, member.hp + extra
        entry: LogEntry = StatPotionDrunk(player=player.pk, potion=kind.sub_kind, item_kind=kind.pk, hp=member.hp,
                                          max_hp=member.max_hp, stat=kind.stat, amount=kind.stat_amount)
    else:
        healed = min(member.max_hp - member.hp, kind.heal)
        member.hp += healed
        entry = PotionHealed(player=player.pk, potion=kind.sub_kind, item_kind=kind.pk, hp=member.hp,
                             max_hp=member.max_hp, healed=healed)
    member.save(update_fields=["hp", "max_hp", "stat_boosts"])
    item.delete()
    log(run, entry)
    run.save(update_fields=["log"])
    return run


@transaction.atomic
def run_loot_take(*, player: Player, run_id: int, loot_id: int) -> RunLoot:
    """Pick up an item lying in the current room; a refused pickup (409 naming the limit) leaves it.

    The room of the last boss stays reachable after the run completes: the party that finished it
    may still pick up what the boss dropped.
    """
    run = lock_run(run_id)
    if run.status == RunStatus.COMPLETED:
        run_member(run, player, MemberStatus.FINISHED)
    else:
        run_member(run, player, MemberStatus.IN_DUNGEON)
        require_status(run, RunStatus.ACTIVE)
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
