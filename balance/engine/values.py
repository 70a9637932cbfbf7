"""The frozen values the simulator reads: the admin's data (``BalanceData``), a catalog entry
(``ItemFacts``), a carried item (``Held``), a party member to simulate (``PlayerSpec``)."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from combat import engine
from combat.engine.encounters import EncounterRules, EnemyTemplate
from dungeons.generation import GenerationParams
from dungeons.runs.engine import RunRules


@dataclass(frozen=True)
class ItemFacts:
    """An entry of the item catalog as a run reads it. The engine values (``weapon``, ``potion``,
    ``effect``) are the catalog's own conversions (``players.models.ItemKind.as_weapon`` ...), made by
    the loader, so the simulator fights with exactly what the server builds."""

    id: int
    name: str
    category: str
    sub_kind: str
    weight: int
    rarity: str
    is_basic: bool = False
    armor: int = 0
    heal: int = 0
    stat: str = ""
    stat_amount: int = 0
    effect: str = ""
    weapon: engine.Weapon | None = None
    potion: engine.Potion | None = None  # its id is the item's, given when carried
    effect_value: engine.EffectSpec | None = None

    @property
    def pk(self) -> int:
        return self.id

    @property
    def damage(self) -> int:
        return self.weapon.damage if self.weapon is not None else 0

    # --- dungeons.runs.engine.battles.ItemKindFacts ---

    def as_weapon(self) -> engine.Weapon:
        if self.weapon is None:
            raise ValueError(f"{self.name} is not a weapon")
        return self.weapon

    def as_potion(self, item_id: int) -> engine.Potion:
        if self.potion is None:
            raise ValueError(f"{self.name} is not a potion")
        return dataclasses.replace(self.potion, id=str(item_id))

    def effect_spec(self) -> engine.EffectSpec | None:
        return self.effect_value


@dataclass(frozen=True)
class Held:
    """One carried item (``dungeons.runs.engine.battles.CarriedItem``): its id, worn or in hand, and
    whether it was collected in the run being simulated (lost on death)."""

    pk: int
    item_kind: ItemFacts
    equipped: bool = False
    of_run: bool = False


class CarryCheck(Protocol):
    """The carry rules (players/inventory.py, handed in by the loader): may a player of ``strength``
    carrying ``carried`` pick up ``item``?"""

    def __call__(self, carried: Sequence[Held], item: ItemFacts, strength: int) -> bool: ...


def _fits_anything(carried: Sequence[Held], item: ItemFacts, strength: int) -> bool:
    return True


@dataclass(frozen=True)
class JunkTier:
    """A tier of the junk dealer's starting weapons: reached from ``min_rank``, its weapons in id order."""

    min_rank: int
    weapons: tuple[int, ...]


@dataclass(frozen=True)
class BalanceData:
    """Every balancing number a run reads, as saved in the admin (``balance.data.balance_data_load``),
    or a what-if copy of it (``what_if``)."""

    run_rules: RunRules = field(default_factory=RunRules)
    combat_rules: engine.CombatRules = field(default_factory=engine.CombatRules)
    encounter_rules: EncounterRules = field(default_factory=EncounterRules)
    generation: GenerationParams = field(default_factory=GenerationParams)
    bestiary: tuple[EnemyTemplate, ...] = ()
    catalog: tuple[ItemFacts, ...] = ()  # in id order
    junk_tiers: tuple[JunkTier, ...] = ()
    junk_offer_size: int = 3
    starting_money: int = 100
    carry: CarryCheck = _fits_anything

    def item(self, item_id: int) -> ItemFacts:
        return self._by_id()[item_id]

    def _by_id(self) -> dict[int, ItemFacts]:
        found: dict[int, ItemFacts] | None = self.__dict__.get("_items")
        if found is None:
            found = {item.id: item for item in self.catalog}
            object.__setattr__(self, "_items", found)
        return found


#: The sections of ``BalanceData`` a what-if names ("run_rules.trap_damage_base").
SECTIONS = ("run_rules", "combat_rules", "encounter_rules", "generation")


def what_if(data: BalanceData, changes: dict[str, Any]) -> BalanceData:
    """A copy of ``data`` with fields changed: ``{"run_rules.trap_damage_base": 2}``,
    ``{"junk_offer_size": 4}``, ``{"enemy.giant-rat.hp": 6}`` (a creature of the bestiary by slug),
    ``{"item.12.heal": 10}`` (an entry of the catalog by id)."""
    for name, value in changes.items():
        parts = name.split(".")
        if parts[0] in SECTIONS and len(parts) == 2:
            section = getattr(data, parts[0])
            if parts[1] not in {f.name for f in dataclasses.fields(section)}:
                raise KeyError(name)
            data = dataclasses.replace(data, **{parts[0]: dataclasses.replace(section, **{parts[1]: value})})
        elif parts[0] == "enemy" and len(parts) == 3:
            if not any(t.slug == parts[1] for t in data.bestiary):
                raise KeyError(name)
            bestiary = tuple(dataclasses.replace(t, **{parts[2]: value}) if t.slug == parts[1] else t
                             for t in data.bestiary)
            data = dataclasses.replace(data, bestiary=bestiary)
        elif parts[0] == "item" and len(parts) == 3:
            item_id = int(parts[1])
            data.item(item_id)  # KeyError for an unknown item
            catalog = tuple(dataclasses.replace(i, **{parts[2]: value}) if i.id == item_id else i
                            for i in data.catalog)
            data = dataclasses.replace(data, catalog=catalog)
        elif len(parts) == 1 and parts[0] in ("junk_offer_size", "starting_money"):
            data = dataclasses.replace(data, **{parts[0]: value})
        else:
            raise KeyError(name)
    return data


@dataclass(frozen=True)
class PlayerSpec:
    """A party member to simulate: their player id (the run's streams are keyed by it), permanent stats,
    money, the items they carry (catalog ids and whether each is worn or in hand) and completed dungeons.
    The default is a new player: no stats, the starting money (None: the data's), nothing carried."""

    player_id: int
    stats: tuple[tuple[str, int], ...] = ()
    money: int | None = None
    items: tuple[tuple[int, bool], ...] = ()
    completed: int = 0

    def stat_map(self) -> dict[str, int]:
        return dict(self.stats)


@dataclass(frozen=True)
class PartySpec:
    """A party: its members in formation order, their guild's rank and whether they share one guild (a
    guildless party: ``guild=False``, rank 0), and the NPC kinds the guild has rescued already."""

    members: tuple[PlayerSpec, ...]
    guild: bool = True
    guild_rank: int = 0
    rescued: tuple[str, ...] = ()

    @classmethod
    def new_players(cls, size: int, *, completed: int = 0, rank: int = 0, guild: bool = True,
                    first_id: int = 1, items: tuple[tuple[int, bool], ...] = ()) -> PartySpec:
        """``size`` new players, each carrying ``items`` (catalog ids, worn or in hand) if given."""
        return cls(tuple(PlayerSpec(first_id + i, completed=completed, items=items) for i in range(size)),
                   guild=guild, guild_rank=rank)
