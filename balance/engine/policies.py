"""Bot policies: small pure functions of what a player sees (their member, the battle view they would
get, the room), named so a report can say which played (SPEC 17).

- ``cautious``: takes the best weapon offered and loot that fits (and wears or wields it), attacks the
  weakest living enemy with the best weapon carried, drinks healing below half HP (in battle and between
  rooms), keeps the healthiest in front (formation at every rest room), never flees a boss (flees an
  ordinary battle only as the last one standing below a quarter of HP with no healing left), never
  leaves a dungeon early;
- ``aggressive``: takes the hardest-hitting weapon and loot that fits, attacks the strongest enemy
  (most HP: the boss first), drinks healing only below a quarter of HP, never flees, never leaves.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from balance.engine.values import Held, ItemFacts
from combat import engine

HEALING = "healing"


@dataclass(frozen=True)
class MemberView:
    """A member as they see themselves outside battle: HP, stats for this run, what they carry."""

    player_id: int
    hp: int
    max_hp: int
    stats: Mapping[str, int]
    items: tuple[Held, ...]

    def healing(self) -> Held | None:
        """The first healing potion carried (by item id)."""
        return next((i for i in self.items
                     if i.item_kind.category == "potion" and i.item_kind.sub_kind == HEALING), None)


def best_weapon(offer: Sequence[ItemFacts]) -> ItemFacts | None:
    """The hardest-hitting weapon (the first of equals); None for an empty offer."""
    return max(offer, key=lambda item: item.damage, default=None)


def _healing_potion(me: engine.Combatant) -> str | None:
    return next((p.id for p in me.potions if p.kind is engine.PotionKind.HEALING), None)


def _best_slot(me: engine.Combatant) -> int:
    best = max(range(len(me.weapons)), key=lambda slot: me.weapons[slot].damage, default=0)
    return best if me.weapons and me.weapons[best].damage > me.weapons[me.active_weapon].damage else \
        me.active_weapon


def _standing(state: engine.BattleState) -> int:
    return sum(1 for c in state.players if c.in_battle)


def _free_action(me: engine.Combatant, *, heal_below: float) -> engine.Action | None:
    """The free actions before an attack: a healing potion below ``heal_below`` of max HP, then the
    hardest-hitting weapon carried into the hand."""
    potion = _healing_potion(me)
    if potion is not None and me.hp < me.max_hp * heal_below:
        return engine.DrinkPotion(me.id, potion)
    slot = _best_slot(me)
    if slot != me.active_weapon:
        return engine.SwitchWeapon(me.id, slot)
    return None


def cautious_battle(me: engine.Combatant, state: engine.BattleState, room_kind: str) -> engine.Action:
    free = _free_action(me, heal_below=0.5)
    if free is not None:
        return free
    potion = _healing_potion(me)
    if potion is None and me.hp * 4 <= me.max_hp and not state.has_boss and _standing(state) == 1:
        flee = next((a for a in engine.allowed_actions(state) if isinstance(a, engine.Flee)), None)
        if flee is not None:
            return flee
    targets = engine.valid_targets(me, state.combatants)
    return engine.AttackAction(me.id, min(targets, key=lambda c: c.hp).id)


def aggressive_battle(me: engine.Combatant, state: engine.BattleState, room_kind: str) -> engine.Action:
    free = _free_action(me, heal_below=0.25)
    if free is not None:
        return free
    targets = engine.valid_targets(me, state.combatants)
    return engine.AttackAction(me.id, max(targets, key=lambda c: c.hp).id)


def drink_below(fraction: float) -> Callable[[MemberView], Held | None]:
    def drink(me: MemberView) -> Held | None:
        return me.healing() if me.hp < me.max_hp * fraction else None
    return drink


def healthiest_in_front(party: Sequence[MemberView]) -> list[int]:
    """The formation: the most HP first (a stable order among equals)."""
    return [m.player_id for m in sorted(party, key=lambda m: -m.hp)]


def keep_order(party: Sequence[MemberView]) -> list[int]:
    return [m.player_id for m in party]


def take_what_fits(me: MemberView, item: ItemFacts) -> bool:
    """Every item is wanted; the carry rules decide whether it fits."""
    return True


def never_leave(party: Sequence[MemberView], room_kind: str) -> bool:
    return False


@dataclass(frozen=True)
class Policy:
    """A named bot: what each member does at each choice of a run."""

    name: str
    weapon: Callable[[Sequence[ItemFacts]], ItemFacts | None]
    battle: Callable[[engine.Combatant, engine.BattleState, str], engine.Action]
    drink: Callable[[MemberView], Held | None]
    formation: Callable[[Sequence[MemberView]], list[int]]
    take: Callable[[MemberView, ItemFacts], bool] = take_what_fits
    leave: Callable[[Sequence[MemberView], str], bool] = never_leave
    #: wear or wield what is picked up (a weapon while fewer than two are in hand)
    equips: bool = True


CAUTIOUS = Policy("cautious", weapon=best_weapon, battle=cautious_battle, drink=drink_below(0.5),
                  formation=healthiest_in_front)
AGGRESSIVE = Policy("aggressive", weapon=best_weapon, battle=aggressive_battle, drink=drink_below(0.25),
                    formation=keep_order)

POLICIES: dict[str, Policy] = {policy.name: policy for policy in (CAUTIOUS, AGGRESSIVE)}
