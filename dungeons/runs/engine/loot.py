"""What a run's rooms and battles drop: the pools loot is drawn from, the draws, a victory's spoils."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from dungeons.runs.engine.rules import RunRules, weighted_pick
from dungeons.runs.engine.values import Place

#: What treasure is drawn from (story items come from story rooms, torches from the Labyrinth).
LOOT_CATEGORIES: tuple[str, ...] = ("weapon", "armor", "potion", "amulet")
#: Battle and boss loot: never amulets, which are found only (and rarely: the catalog makes them rare)
#: in treasure rooms, or bought from the jeweler (SPEC section 6).
BATTLE_LOOT_CATEGORIES: tuple[str, ...] = tuple(c for c in LOOT_CATEGORIES if c != "amulet")
#: What an opened sealed story room's reward is drawn from: the better half of the catalog.
SEALED_REWARD_RARITIES: tuple[str, ...] = ("uncommon", "rare")
#: A story room's story item (dungeons.generation.STORY_ITEMS) -> the catalog sub-kind it yields.
STORY_ITEM_SUB_KINDS = {"gems": "gem", "enchanted_stones": "enchanted_stone",
                        "carpenters_tools": "carpenters_tools"}


class Rare(Protocol):
    """An entry of the item catalog as loot draws read it: its rarity."""

    @property
    def rarity(self) -> str: ...


K = TypeVar("K", bound=Rare)
T = TypeVar("T")


def loot_draw(pool: Sequence[K], count: int, *, place: Place, purpose: str, rules: RunRules) -> list[K]:
    """``count`` items drawn with replacement from ``pool`` (the catalog's entries in id order), weighted
    by rarity (``weight_common``, ``weight_uncommon``, ``weight_rare``), from the room's ``purpose``
    stream."""
    weights = rules.rarity_weights()
    return weighted_pick(pool, [weights.get(kind.rarity, 0) for kind in pool], place.stream(purpose), count)


def story_items_draw(pool: Sequence[T], *, place: Place, rules: RunRules) -> list[T]:
    """The story items lying in a story room without an NPC: ``story_items_count`` draws, each uniform
    over the catalog's items of the room's story item (none if the catalog has none)."""
    rng = place.stream("story")
    return [rng.choice(pool) for _ in range(rules.story_items_count)] if pool else []


@dataclass(frozen=True)
class Spoils:
    """What a won battle leaves: ``items`` drawn from the battle loot (stream ``purpose``), and coins
    for every member left inside."""

    items: int
    purpose: str
    coins: int = 0


def victory_spoils(*, place: Place, boss: bool, rules: RunRules) -> Spoils | None:
    """A boss drops ``boss_loot_items`` items and pays ``boss_coins`` to each member inside; an ordinary
    victory drops one item with ``battle_loot_chance`` (None: nothing)."""
    if boss:
        return Spoils(rules.boss_loot_items, "boss-loot", rules.boss_coins)
    if place.stream("battle-loot").random() < rules.battle_loot_chance:
        return Spoils(1, "battle-loot-item")
    return None
