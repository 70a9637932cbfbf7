"""Entering each kind of room outside battle (trap, treasure, story, sealed story, rest), walking on
(regeneration) and drinking a potion between rooms: frozen values in, the changes and log entries out.

The caller holds what needs storage (the catalog's pools, the stored loot's ids, the players' money)
and applies the changes; docs/runs.md gives every formula.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from dungeons.runs.engine.log import (
    NpcJoined,
    PotionHealed,
    Rested,
    Sealed,
    SealOpened,
    StatPotionDrunk,
    StoryItems,
    Trap,
    Treasure,
)
from dungeons.runs.engine.loot import K, loot_draw
from dungeons.runs.engine.rules import (
    RunRules,
    rest_heal,
    room_regen,
    sealed_reward_coins,
    trap_spring,
    treasure_coins,
    treasure_item_count,
)
from dungeons.runs.engine.values import Changed, Inside, Place, boosted
from gamekit import Impossible

T = TypeVar("T")

# --- traps -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrapsSprung:
    """A trap room's work: every member's new HP and waiting effects, the log entry, and who fell (at 0
    HP: they die, in formation order)."""

    changes: tuple[Changed, ...]
    entry: Trap
    fallen: tuple[int, ...]


def traps_spring(*, place: Place, party: Sequence[Inside], rules: RunRules) -> TrapsSprung:
    """Each member in turn springs a trap (``trap_spring``, their own stream ``trap/{player}``): damage
    mitigated by attentiveness, and maybe the trap's effect, which waits for the next battle."""
    changes, hits, fallen = [], {}, []
    for member in party:
        hit = trap_spring(floor=place.floor, attentiveness=member.stat("attentiveness"),
                          rng=place.stream(f"trap/{member.player_id}"), rules=rules)
        hp = max(0, member.hp - hit.damage)
        effects = list(member.pending_effects)
        if hit.effect:
            effects = [*effects, {"name": hit.effect, "turns": rules.trap_effect_turns}]
        changes.append(Changed(member.player_id, {"hp": hp, "pending_effects": effects}))
        hits[member.player_id] = {"damage": hit.damage, "effect": hit.effect, "hp": hp}
        if hp == 0:
            fallen.append(member.player_id)
    return TrapsSprung(tuple(changes), Trap(hits=hits), tuple(fallen))


# --- treasure, story items, sealed rooms ------------------------------------------------------------


@dataclass(frozen=True)
class Found(Generic[T]):
    """Items now lying in the room (the catalog's entries, in the order they are laid) and coins for
    every member inside; ``entry`` is the log entry once the laid items have their ids."""

    items: list[T]
    coins_each: int = 0


def treasure_find(*, place: Place, party: Sequence[Inside], pool: Sequence[K], rules: RunRules) -> Found[K]:
    """A treasure room: ``treasure_items_base`` items, plus one per member whose attentiveness roll
    succeeds, drawn from ``pool`` by rarity; every member finds ``treasure_coins`` coins."""
    count = treasure_item_count(attentiveness=[m.stat("attentiveness") for m in party],
                                rng=place.stream("treasure"), rules=rules)
    items = loot_draw(pool, count, place=place, purpose="treasure-items", rules=rules)
    return Found(items, treasure_coins(floor=place.floor, rules=rules))


def treasure_entry(found: Found[Any], item_ids: list[int]) -> Treasure:
    return Treasure(items=item_ids, coins_each=found.coins_each)


@dataclass(frozen=True)
class NpcJoins:
    """A story room holding an NPC: it joins the party with ``npc_hp`` HP."""

    run: Mapping[str, Any]
    entry: NpcJoined


def npc_joins(*, npc_kind: str, rules: RunRules) -> NpcJoins:
    return NpcJoins({"npc_kind": npc_kind, "npc_hp": rules.npc_hp, "npc_max_hp": rules.npc_hp},
                    NpcJoined(npc=npc_kind))


def story_items_entry(story_item: str, item_ids: list[int]) -> StoryItems:
    return StoryItems(story_item=story_item, items=item_ids)


def seal_open(*, place: Place, seal: str, key_holder: int | None, pool: Sequence[K],
              rules: RunRules) -> Found[K] | Sealed:
    """A sealed story room opens if a member inside carries the story item it names, found in this run
    (``key_holder``: the first such member, None: nobody); then it holds ``sealed_reward_items`` items of
    ``pool`` (the uncommon and rare battle loot) and coins for every member. Shut: ``Sealed``."""
    if key_holder is None:
        return Sealed(seal=seal)
    items = loot_draw(pool, rules.sealed_reward_items, place=place, purpose="sealed-reward", rules=rules)
    return Found(items, sealed_reward_coins(floor=place.floor, rules=rules))


def seal_entry(found: Found[Any], *, seal: str, key_holder: int, item_ids: list[int]) -> SealOpened:
    return SealOpened(seal=seal, opened_by=key_holder, items=item_ids, coins_each=found.coins_each)


# --- healing ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rest:
    changes: tuple[Changed, ...]
    entry: Rested


def rest(*, party: Sequence[Inside], rules: RunRules) -> Rest:
    """A rest room (or a camp) heals every member ``rest_heal`` of their metabolism, up to max HP."""
    changes, hp = [], {}
    for member in party:
        heal = rest_heal(metabolism=member.stat("metabolism"), rules=rules)
        healed = member.hp + min(member.max_hp - member.hp, heal)
        changes.append(Changed(member.player_id, {"hp": healed}))
        hp[member.player_id] = healed
    return Rest(tuple(changes), Rested(hp=hp))


def regenerate(*, party: Sequence[Inside], rules: RunRules) -> tuple[Changed, ...]:
    """Walking on to the next room heals each member ``room_regen`` of their metabolism, up to max HP."""
    return tuple(Changed(m.player_id, {"hp": min(m.max_hp, m.hp + room_regen(metabolism=m.stat("metabolism"),
                                                                                rules=rules))})
                 for m in party)


# --- a potion between rooms ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PotionFacts:
    """A carried potion as drinking it between rooms reads it (the catalog's fields, the item's id)."""

    item_id: int
    item_kind: int
    sub_kind: str
    heal: int = 0
    stat: str = ""
    stat_amount: int = 0
    effect: str = ""


@dataclass(frozen=True)
class Drunk:
    change: Changed
    entry: PotionHealed | StatPotionDrunk


def potion_drink(*, player_id: int, hp: int, max_hp: int, stat_boosts: Mapping[str, int], potion: PotionFacts,
                 hp_per_stamina: int) -> Drunk | Impossible:
    """A healing potion restores up to max HP; a stat potion raises the stat for the rest of the run (a
    stamina one also max HP and HP by ``hp_per_stamina`` per point); an effect potion works only in
    battle (refused: effects exist only there)."""
    if potion.sub_kind == "effect":
        return Impossible("effect_potion_in_battle_only", "Effect potions work only in battle.",
                          {"potion": potion.item_id, "effect": potion.effect})
    if potion.sub_kind == "stat":
        extra = potion.stat_amount * hp_per_stamina if potion.stat == "stamina" else 0
        change = Changed(player_id, {"stat_boosts": boosted(stat_boosts, potion.stat, potion.stat_amount),
                                     "max_hp": max_hp + extra, "hp": hp + extra})
        return Drunk(change, StatPotionDrunk(player=player_id, potion=potion.sub_kind,
                                             item_kind=potion.item_kind, hp=hp + extra, max_hp=max_hp + extra,
                                             stat=potion.stat, amount=potion.stat_amount))
    healed = min(max_hp - hp, potion.heal)
    return Drunk(Changed(player_id, {"hp": hp + healed}),
                 PotionHealed(player=player_id, potion=potion.sub_kind, item_kind=potion.item_kind,
                              hp=hp + healed, max_hp=max_hp, healed=healed))
