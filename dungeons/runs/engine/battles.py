"""A run's battles as the run's rules see them: what each member brings into a battle, the battle's
seed, and what a battle step means for the run (potions gone, stat boosts, deaths, flights, kills, the
end with HP carried over). The battle itself is the combat engine's."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from combat import engine
from combat.engine.events import Attack, Death, Fled, PotionDrunk, StatRaised
from dungeons.runs.engine.values import STAT_NAMES, Changed, Place

#: A battle's seed is drawn below this (it is stored in a signed 64-bit column).
MAX_SEED = 2**63 - 1
#: Battle events with consequences for the run (inventory, stats, party, bounties).
RUN_RELEVANT_EVENTS = (Death, Fled, PotionDrunk, StatRaised)
_WEAPON, _ARMOR, _POTION, _AMULET = "weapon", "armor", "potion", "amulet"


class ItemKindFacts(Protocol):
    """An entry of the item catalog as a battle reads it (``players.models.ItemKind`` is one)."""

    @property
    def category(self) -> str: ...

    @property
    def armor(self) -> int: ...

    def as_weapon(self) -> engine.Weapon: ...

    def as_potion(self, item_id: int) -> engine.Potion: ...

    def effect_spec(self) -> engine.EffectSpec | None: ...


class CarriedItem(Protocol):
    """A carried item (``players.models.InventoryItem`` is one): its id, whether it is worn or in hand."""

    @property
    def pk(self) -> int | None: ...

    @property
    def equipped(self) -> bool: ...

    @property
    def item_kind(self) -> ItemKindFacts: ...


def player_combatant(*, player_id: int, name: str, hp: int, max_hp: int, stats: Mapping[str, int],
                     items: Sequence[CarriedItem]) -> engine.Combatant:
    """A member as a battle's combatant: their stats for this run, the weapons in hand (at most two; none:
    fists), the sum of the armor worn, every carried potion and every carried amulet (a permanent
    effect). ``items`` in the order of their ids."""
    weapons = [i.item_kind.as_weapon() for i in items if i.equipped and i.item_kind.category == _WEAPON]
    return engine.Combatant(
        id=engine.player_combatant_id(player_id), kind=engine.Kind.PLAYER, name=name, hp=hp, max_hp=max_hp,
        stats=engine.Stats(**{stat: int(stats.get(stat, 0)) for stat in STAT_NAMES}),
        weapons=tuple(weapons[:2]),
        armor=sum(i.item_kind.armor for i in items if i.equipped and i.item_kind.category == _ARMOR),
        potions=tuple(i.item_kind.as_potion(i.pk or 0) for i in items if i.item_kind.category == _POTION),
        amulets=tuple(spec for i in items if i.item_kind.category == _AMULET
                      for spec in [i.item_kind.effect_spec()] if spec is not None),
    )


def starting_effects(player_id: int, pending: Iterable[Mapping[str, Any]],
                     buffs: Iterable[Mapping[str, Any]]) -> list[tuple[str, engine.EffectSpec]]:
    """A member's effects at a battle's start: the trap effects waiting for it, then the warlock's buffs."""
    cid = engine.player_combatant_id(player_id)
    return [(cid, engine.EffectSpec(spec["name"], spec.get("turns"), spec.get("magnitude")))
            for spec in [*pending, *buffs]]


def battle_seed(place: Place) -> int:
    """The seed of the room's battle, from the room's ``battle`` stream."""
    return place.stream("battle").randrange(MAX_SEED)


# --- a battle step's consequences for the run ----------------------------------------------------------


@dataclass(frozen=True)
class PotionGone:
    """A member drank a carried potion (``potion``: its id as the battle knows it)."""

    player_id: int
    potion: str


@dataclass(frozen=True)
class StatBoost:
    """A stat potion drunk in battle: the stat stays raised for the rest of the run."""

    player_id: int
    stat: str
    amount: int


@dataclass(frozen=True)
class MemberFell:
    player_id: int


@dataclass(frozen=True)
class NpcFell:
    """The NPC companion died: it can no longer be rescued in this run."""


@dataclass(frozen=True)
class MemberFled:
    player_id: int


Consequence = PotionGone | StatBoost | MemberFell | NpcFell | MemberFled


@dataclass(frozen=True)
class StepConsequences:
    """What one battle step means for the run, in the order it happened, with the kills counted per
    member (enemy kind slug -> creatures killed; the killer is the last to have attacked the victim)."""

    happened: tuple[Consequence, ...] = ()
    kills: Mapping[int, Mapping[str, int]] = field(default_factory=dict)


def step_consequences(events: Sequence[engine.Event], *, inside: set[int],
                      enemy_kinds: Mapping[str, str]) -> StepConsequences:
    """The run's share of a battle step's events. ``inside``: the players inside when the step began
    (only they are concerned); ``enemy_kinds``: combatant id -> the enemy's kind slug."""

    def member_of(combatant: str) -> int | None:
        player_id = engine.combatant_player_id(combatant)
        return player_id if player_id in inside else None

    happened: list[Consequence] = []
    last_attacker: dict[str, str] = {}
    kills: dict[int, Counter[str]] = {}
    for event in events:
        member = member_of(getattr(event, "actor", ""))
        if isinstance(event, Attack):
            last_attacker[event.target] = event.actor
        elif isinstance(event, PotionDrunk) and member is not None:
            happened.append(PotionGone(member, event.potion))
        elif isinstance(event, StatRaised) and member is not None:
            happened.append(StatBoost(member, event.stat, event.amount))
        elif isinstance(event, Death):
            killer = engine.combatant_player_id(last_attacker.get(event.target, ""))
            if event.target in enemy_kinds and killer:
                kills.setdefault(killer, Counter())[enemy_kinds[event.target]] += 1
            victim = member_of(event.target)
            if event.target == engine.NPC_ID:
                happened.append(NpcFell())
            elif victim is not None:
                happened.append(MemberFell(victim))
        elif isinstance(event, Fled) and member is not None:
            happened.append(MemberFled(member))
    return StepConsequences(tuple(happened), {player: dict(counted) for player, counted in kills.items()})


def kills_added(kills: Mapping[str, int], counted: Mapping[str, int]) -> dict[str, int]:
    """A member's kills per enemy kind after a step's."""
    return {**kills, **{slug: int(kills.get(slug, 0)) + n for slug, n in counted.items()}}


def hp_carried(state: engine.BattleState, *, inside: set[int]) -> tuple[Changed, ...]:
    """At a battle's end the members' HP (and max HP, raised by stamina potions) carry over to the run
    (``inside``: the players still inside after the step's deaths and flights)."""
    changes = []
    for combatant in state.players:
        player_id = engine.combatant_player_id(combatant.id)
        if player_id in inside:
            changes.append(Changed(player_id, {"hp": combatant.hp, "max_hp": combatant.max_hp}))
    return tuple(changes)
