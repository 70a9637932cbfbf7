"""Battle state as immutable, JSON-serializable values: stats, gear, combatants, the battle."""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from combat.engine.effects import DEFAULT_MAGNITUDES, ActiveEffect, EffectTuple
from combat.engine.rules import CombatRules
from combat.engine.values import unchecked

# Bumped whenever a rule change would make old seeds replay differently (as Brogue does).
# Version 2: haste is an extra turn (not a second action inside one), and one flight per battle.
ENGINE_VERSION = 2
#: Versions whose rules the engine still runs: a battle keeps the rules it started with.
SUPPORTED_VERSIONS: tuple[int, ...] = (1, 2)

STAT_NAMES: tuple[str, ...] = ("strength", "stamina", "metabolism", "luck", "attentiveness")


class Side(str, enum.Enum):
    PLAYERS = "players"
    ENEMIES = "enemies"


class Kind(str, enum.Enum):
    PLAYER = "player"
    ENEMY = "enemy"
    NPC = "npc"


class Outcome(str, enum.Enum):
    """How a battle stands: ongoing, or how it ended."""

    ONGOING = "ongoing"
    VICTORY = "victory"  # every enemy is dead
    DEFEAT = "defeat"  # every player is dead
    ESCAPED = "escaped"  # no player is left in battle and at least one fled
    DRAW = "draw"  # CombatRules.max_rounds reached


@dataclass(frozen=True)
class Stats:
    """The five permanent stats of SPEC section 3 (enemies have them too)."""

    strength: int = 0
    stamina: int = 0
    metabolism: int = 0
    luck: int = 0
    attentiveness: int = 0

    def raised(self, stat: str, amount: int) -> Stats:
        return replace(self, **{stat: getattr(self, stat) + amount})


@dataclass(frozen=True)
class EffectSpec:
    """An effect a weapon hit, a potion or an amulet applies; chance is per hit."""

    name: str
    turns: int | None = None
    magnitude: float | None = None
    chance: float = 1.0

    def __post_init__(self) -> None:
        _check_spec(self.name, self.chance)


def _check_spec(name: str, chance: float) -> None:
    if name not in DEFAULT_MAGNITUDES:
        raise ValueError(f"unknown effect {name!r}")
    if not 0.0 <= chance <= 1.0:
        raise ValueError("chance must be within [0, 1]")


@dataclass(frozen=True)
class Weapon:
    """A weapon in a slot; on_hit effects land on the target of a hit."""

    name: str
    damage: int
    kind: str = "melee"
    on_hit: tuple[EffectSpec, ...] = ()


FISTS = Weapon("fists", 0, "fists")


class PotionKind(str, enum.Enum):
    HEALING = "healing"
    EFFECT = "effect"
    STAT = "stat"


@dataclass(frozen=True)
class Potion:
    """A carried potion; id is the server's item id so it can remove the drunk one."""

    id: str
    kind: PotionKind
    heal: int = 0
    effect: EffectSpec | None = None
    stat: str | None = None
    amount: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", PotionKind(self.kind))
        _check_potion(self.kind, self.heal, self.effect, self.stat, self.amount)


def _check_potion(
    kind: PotionKind, heal: int, effect: EffectSpec | None, stat: str | None, amount: int
) -> None:
    if kind is PotionKind.HEALING and heal <= 0:
        raise ValueError("a healing potion heals a positive amount")
    if kind is PotionKind.EFFECT and effect is None:
        raise ValueError("an effect potion needs an effect")
    if kind is PotionKind.STAT and (stat not in STAT_NAMES or amount <= 0):
        raise ValueError("a stat potion raises a known stat by a positive amount")


@dataclass(frozen=True)
class Combatant:
    """A player, an enemy or the NPC companion, as it stands at one moment of a battle."""

    id: str
    kind: Kind
    name: str
    hp: int
    max_hp: int
    stats: Stats = field(default_factory=Stats)
    weapons: tuple[Weapon, ...] = ()
    active_weapon: int = 0
    armor: int = 0
    potions: tuple[Potion, ...] = ()
    amulets: tuple[EffectSpec, ...] = ()
    effects: EffectTuple = ()
    is_boss: bool = False
    fled: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind(self.kind))
        _check_combatant(self.id, self.hp, self.max_hp, self.weapons, self.active_weapon)

    @property
    def side(self) -> Side:
        return Side.ENEMIES if self.kind is Kind.ENEMY else Side.PLAYERS

    @property
    def alive(self) -> bool:
        return self.hp > 0

    @property
    def in_battle(self) -> bool:
        """Alive and still fighting: the dead and the fled take no turns and cannot be targeted."""
        return self.hp > 0 and not self.fled

    @property
    def takes_turns(self) -> bool:
        return self.kind is not Kind.NPC

    @property
    def weapon(self) -> Weapon:
        return self.weapons[self.active_weapon] if self.weapons else FISTS

    def has(self, effect: str) -> bool:
        for present in self.effects:
            if present.name == effect:
                return True
        return False


def _check_combatant(
    combatant_id: str, hp: int, max_hp: int, weapons: tuple[Weapon, ...], active_weapon: int
) -> None:
    if not 0 <= hp <= max_hp:
        raise ValueError(f"{combatant_id}: hp must be within [0, max_hp]")
    if weapons and not 0 <= active_weapon < len(weapons):
        raise ValueError(f"{combatant_id}: active_weapon out of range")


@dataclass(frozen=True)
class BattleSetup:
    """What the server knows when a battle starts (players in formation order)."""

    players: tuple[Combatant, ...]
    enemies: tuple[Combatant, ...]
    npc: Combatant | None = None
    # Non-permanent effects present at the start (e.g. warlock buffs): (combatant id, spec).
    starting_effects: tuple[tuple[str, EffectSpec], ...] = ()
    rules: CombatRules = field(default_factory=CombatRules)


@dataclass(frozen=True)
class BattleState:
    """The whole battle between two engine calls; to_dict/from_dict persist it as JSON."""

    seed: int
    combatants: tuple[Combatant, ...]
    order: tuple[str, ...]  # ids of the turn takers, fixed at start, repeated every round
    rules: CombatRules = field(default_factory=CombatRules)
    round: int = 1
    turn_index: int = 0
    turn_open: bool = False  # the current slot's turn has started (turn_started emitted)
    extra_actions_used: int = 0  # haste bonus actions taken in this turn
    step: int = 0  # engine calls made so far; derives each call's random stream
    outcome: Outcome = Outcome.ONGOING
    version: int = ENGINE_VERSION

    def __post_init__(self) -> None:
        object.__setattr__(self, "outcome", Outcome(self.outcome))

    @property
    def over(self) -> bool:
        return self.outcome is not Outcome.ONGOING

    def get(self, combatant_id: str) -> Combatant:
        for combatant in self.combatants:
            if combatant.id == combatant_id:
                return combatant
        raise KeyError(combatant_id)

    def find(self, combatant_id: str) -> Combatant | None:
        for combatant in self.combatants:
            if combatant.id == combatant_id:
                return combatant
        return None

    @property
    def current_id(self) -> str | None:
        return None if self.over else self.order[self.turn_index]

    @property
    def awaiting(self) -> str | None:
        """The id of the player whose action the battle waits for, or None."""
        player = self.awaiting_player
        return None if player is None else player.id

    @property
    def awaiting_player(self) -> Combatant | None:
        """The player whose action the battle waits for, or None."""
        if self.outcome is not Outcome.ONGOING or not self.turn_open:
            return None
        current = self.get(self.order[self.turn_index])
        return current if current.kind is Kind.PLAYER and current.hp > 0 and not current.fled else None

    @property
    def players(self) -> tuple[Combatant, ...]:
        return tuple(c for c in self.combatants if c.kind is Kind.PLAYER)

    @property
    def enemies(self) -> tuple[Combatant, ...]:
        return tuple(c for c in self.combatants if c.kind is Kind.ENEMY)

    @property
    def npc(self) -> Combatant | None:
        return next((c for c in self.combatants if c.kind is Kind.NPC), None)

    @property
    def has_boss(self) -> bool:
        for c in self.combatants:
            if c.is_boss and c.kind is Kind.ENEMY:
                return True
        return False

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: exactly to_jsonable(self), written out field by field (about ten times
        quicker than the generic walk; a test keeps the two equal)."""
        return {
            "seed": self.seed,
            "combatants": [_combatant_json(c) for c in self.combatants],
            "order": list(self.order),
            "rules": self.rules.to_dict(),
            "round": self.round,
            "turn_index": self.turn_index,
            "turn_open": self.turn_open,
            "extra_actions_used": self.extra_actions_used,
            "step": self.step,
            "outcome": self.outcome.value,
            "version": self.version,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BattleState:
        return _battle_from_dict(data)


# --- JSON -------------------------------------------------------------------------------------
# Dataclasses become dicts of their fields, enums their values, tuples lists; from_dict undoes it
# class by class so the format stays explicit and reviewable.


def to_jsonable(value: Any) -> Any:
    if isinstance(value, CombatRules):
        return value.to_dict()
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


def _spec_json(spec: EffectSpec) -> dict[str, Any]:
    return {"name": spec.name, "turns": spec.turns, "magnitude": spec.magnitude, "chance": spec.chance}


def _weapon_json(weapon: Weapon) -> dict[str, Any]:
    return {"name": weapon.name, "damage": weapon.damage, "kind": weapon.kind,
            "on_hit": [_spec_json(spec) for spec in weapon.on_hit]}


def _potion_json(potion: Potion) -> dict[str, Any]:
    effect = potion.effect
    return {"id": potion.id, "kind": potion.kind.value, "heal": potion.heal,
            "effect": None if effect is None else _spec_json(effect), "stat": potion.stat,
            "amount": potion.amount}


def _combatant_json(c: Combatant) -> dict[str, Any]:
    stats = c.stats
    return {
        "id": c.id,
        "kind": c.kind.value,
        "name": c.name,
        "hp": c.hp,
        "max_hp": c.max_hp,
        "stats": {"strength": stats.strength, "stamina": stats.stamina, "metabolism": stats.metabolism,
                  "luck": stats.luck, "attentiveness": stats.attentiveness},
        "weapons": [_weapon_json(weapon) for weapon in c.weapons],
        "active_weapon": c.active_weapon,
        "armor": c.armor,
        "potions": [_potion_json(potion) for potion in c.potions],
        "amulets": [_spec_json(spec) for spec in c.amulets],
        "effects": [{"name": e.name, "turns": e.turns, "magnitude": e.magnitude, "permanent": e.permanent}
                    for e in c.effects],
        "is_boss": c.is_boss,
        "fled": c.fled,
    }


# The loaders build each value from its fields (values.unchecked) after running the very checks
# and coercions of its constructor (the shared _check_* functions, enum members looked up by
# value): the same values and the same errors as the constructors, about four times quicker.
# The server loads the stored state on every battle request.

_KINDS: Mapping[str, Kind] = {member.value: member for member in Kind}
_POTION_KINDS: Mapping[str, PotionKind] = {member.value: member for member in PotionKind}
_OUTCOMES: Mapping[str, Outcome] = {member.value: member for member in Outcome}
_STAT_KEYS = frozenset(STAT_NAMES)


def _member(table: Mapping[str, Any], enum_type: type[enum.Enum], value: Any) -> Any:
    """enum_type(value), the common case (the value as text) by one lookup."""
    found = table.get(value) if type(value) is str else None
    return enum_type(value) if found is None else found


def _spec(data: Mapping[str, Any]) -> EffectSpec:
    values = {"name": data["name"], "turns": data["turns"], "magnitude": data["magnitude"],
              "chance": data["chance"]}
    _check_spec(values["name"], values["chance"])
    return unchecked(EffectSpec, values)


def _weapon(data: Mapping[str, Any]) -> Weapon:
    return unchecked(Weapon, {"name": data["name"], "damage": data["damage"], "kind": data["kind"],
                              "on_hit": tuple([_spec(s) for s in data["on_hit"]])})


def _potion(data: Mapping[str, Any]) -> Potion:
    effect = data["effect"]
    values = {"id": data["id"], "kind": _member(_POTION_KINDS, PotionKind, data["kind"]),
              "heal": data["heal"], "effect": _spec(effect) if effect else None, "stat": data["stat"],
              "amount": data["amount"]}
    _check_potion(values["kind"], values["heal"], values["effect"], values["stat"], values["amount"])
    return unchecked(Potion, values)


def _stats(data: Mapping[str, Any]) -> Stats:
    if data.keys() != _STAT_KEYS:
        return Stats(**data)  # missing stats default to 0; an unknown one is a TypeError
    return unchecked(Stats, {"strength": data["strength"], "stamina": data["stamina"],
                             "metabolism": data["metabolism"], "luck": data["luck"],
                             "attentiveness": data["attentiveness"]})


def combatant_from_dict(data: Mapping[str, Any]) -> Combatant:
    values = {
        "id": data["id"],
        "kind": _member(_KINDS, Kind, data["kind"]),
        "name": data["name"],
        "hp": data["hp"],
        "max_hp": data["max_hp"],
        "stats": _stats(data["stats"]),
        "weapons": tuple([_weapon(w) for w in data["weapons"]]),
        "active_weapon": data["active_weapon"],
        "armor": data["armor"],
        "potions": tuple([_potion(p) for p in data["potions"]]),
        "amulets": tuple([_spec(s) for s in data["amulets"]]),
        "effects": tuple([ActiveEffect.from_dict(e) for e in data["effects"]]),
        "is_boss": data["is_boss"],
        "fled": data["fled"],
    }
    _check_combatant(values["id"], values["hp"], values["max_hp"], values["weapons"], values["active_weapon"])
    return unchecked(Combatant, values)


def _battle_from_dict(data: Mapping[str, Any]) -> BattleState:
    if data.get("version") not in SUPPORTED_VERSIONS:
        raise ValueError(f"battle state version {data.get('version')!r} is not one of {SUPPORTED_VERSIONS}")
    return unchecked(BattleState, {
        "seed": data["seed"],
        "combatants": tuple([combatant_from_dict(c) for c in data["combatants"]]),
        "order": tuple(data["order"]),
        "rules": CombatRules.from_dict(data["rules"]),
        "round": data["round"],
        "turn_index": data["turn_index"],
        "turn_open": data["turn_open"],
        "extra_actions_used": data["extra_actions_used"],
        "step": data["step"],
        "outcome": _member(_OUTCOMES, Outcome, data["outcome"]),
        "version": data["version"],
    })


def setup_to_dict(setup: BattleSetup) -> dict[str, Any]:
    """The JSON form: exactly to_jsonable(setup), written out field by field as ``BattleState.to_dict``
    is (a test keeps the two equal)."""
    return {
        "players": [_combatant_json(c) for c in setup.players],
        "enemies": [_combatant_json(c) for c in setup.enemies],
        "npc": None if setup.npc is None else _combatant_json(setup.npc),
        "starting_effects": [[target, _spec_json(spec)] for target, spec in setup.starting_effects],
        "rules": setup.rules.to_dict(),
    }


def setup_from_dict(data: Mapping[str, Any]) -> BattleSetup:
    npc = data.get("npc")
    return BattleSetup(
        players=tuple(combatant_from_dict(c) for c in data["players"]),
        enemies=tuple(combatant_from_dict(c) for c in data["enemies"]),
        npc=combatant_from_dict(npc) if npc else None,
        starting_effects=tuple((cid, _spec(spec)) for cid, spec in data.get("starting_effects", ())),
        rules=CombatRules.from_dict(data["rules"]) if "rules" in data else CombatRules(),
    )


def ids_in(combatants: Sequence[Combatant]) -> tuple[str, ...]:
    return tuple(c.id for c in combatants)
