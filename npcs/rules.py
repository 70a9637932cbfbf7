"""The NPC economy as pure functions and tables on plain values (no Django): who offers what, prices,
the shaman's rising cost and which stones pay it, bounty progress.

Every number comes in as an argument (the admin data lives in npcs.models); this module only says
how the numbers combine, so the formulas can be tested exhaustively without a database.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

# --- kinds and their services -----------------------------------------------------------------------

#: The two NPCs every guild has from the start (SPEC section 8); never rescued.
INITIAL_KINDS: tuple[str, ...] = ("junk_dealer", "charon")

# Service names: the route segment a client follows for each.
SHOP = "shop"  # sells items: offers/, offers/{id}/buy/
SELL = "sell"  # buys the players' items: quotes/, sell/
BELTS = "belts"
BUFFS = "buffs"
UPGRADES = "upgrades"
BOUNTIES = "bounties"
STRUCTURES = "structures"
RECIPES = "recipes"
STARTING_WEAPONS = "starting_weapons"  # the run lobby's offer (dungeons), not an npcs route
RESPAWN = "respawn"  # Charon, in the runs (dungeons)

#: What each NPC does for its guild's members.
SERVICES: dict[str, tuple[str, ...]] = {
    "junk_dealer": (STARTING_WEAPONS,),
    "charon": (RESPAWN,),
    "trader": (SELL,),
    "weaponsmith": (SHOP,),
    "armorer": (SHOP,),
    "bowyer": (SHOP,),
    "battle_mage": (SHOP,),
    "warlock": (BUFFS,),
    "shaman": (UPGRADES,),
    "peasant": (),
    "potion_seller": (SHOP, SELL, BELTS),
    "inquisitor": (BOUNTIES,),
    "carpenter": (STRUCTURES,),
    "jeweler": (SHOP, SELL, RECIPES),
}

#: What a shop may stock: (item category, weapon classes or () for any item of the category).
#: The weaponsmith sells every cold weapon of the design: melee and throwing.
SHOP_GOODS: dict[str, tuple[str, tuple[str, ...]]] = {
    "weaponsmith": ("weapon", ("melee", "throwing")),
    "armorer": ("armor", ()),
    "bowyer": ("weapon", ("ranged",)),
    "battle_mage": ("weapon", ("magic",)),
    "potion_seller": ("potion", ()),
    "jeweler": ("amulet", ()),
}


def kinds_with(service: str) -> tuple[str, ...]:
    return tuple(kind for kind, services in SERVICES.items() if service in services)


def shop_sells(*, kind: str, category: str, weapon_class: str) -> bool:
    """Whether the shop ``kind`` may stock an item of this category (and weapon class)."""
    if kind not in SHOP_GOODS:
        return False
    goods_category, classes = SHOP_GOODS[kind]
    return category == goods_category and (not classes or weapon_class in classes)


# --- structure effects -------------------------------------------------------------------------------

JUNK_DEALER_OFFER = "junk_dealer_offer"  # + weapons in the junk dealer's starting offer
SHOP_DISCOUNT = "shop_discount"  # - percent on every coin price members pay the guild's NPCs
SALE_BONUS = "sale_bonus"  # + percent on what the guild's NPCs pay for members' items
SHAMAN_DISCOUNT = "shaman_discount"  # - stone points per shaman upgrade (never below 1)
BOUNTY_BONUS = "bounty_bonus"  # + percent on bounty rewards of quests taken from the guild's inquisitor

STRUCTURE_EFFECTS: dict[str, str] = {
    JUNK_DEALER_OFFER: "The junk dealer offers this many more starting weapons.",
    SHOP_DISCOUNT: "Members pay this percent less at the guild's NPCs (items, belts, buffs, craft fees).",
    SALE_BONUS: "The guild's trader, potion seller and jeweler pay this percent more for members' items.",
    SHAMAN_DISCOUNT: "Each shaman upgrade costs this many stone points less (never below 1).",
    BOUNTY_BONUS: "Bounties taken from the guild's inquisitor pay this percent more.",
}


def clamp_percent(percent: int) -> int:
    return max(0, min(100, percent))


# --- prices ------------------------------------------------------------------------------------------

def shop_price(*, price: int, discount_percent: int) -> int:
    """What a member pays for something priced ``price``: the guild's discount off, rounded up."""
    if price < 0:
        raise ValueError("a price is never negative")
    return -(-price * (100 - clamp_percent(discount_percent)) // 100)


def sale_price(*, base_price: int, rate_percent: int, bonus_percent: int, discount_percent: int) -> int:
    """What an NPC pays for an item of catalog price ``base_price``, rounded down.

    ``rate_percent`` of the base price plus the guild's sale bonus, but never more than a member
    of the same guild would pay for the item at the discounted base price: shop offers are never
    below the base price (ShopOffer.clean), so buying and selling back can never make money.
    """
    if base_price < 0 or rate_percent < 0 or bonus_percent < 0:
        raise ValueError("prices, rates and bonuses are never negative")
    offered = base_price * rate_percent * (100 + bonus_percent) // 10_000
    ceiling = base_price * (100 - clamp_percent(discount_percent)) // 100
    return min(offered, ceiling)


def with_bonus(*, amount: int, bonus_percent: int) -> int:
    """``amount`` raised by ``bonus_percent``, rounded down (bounty rewards)."""
    return amount * (100 + max(0, bonus_percent)) // 100


# --- the shaman ----------------------------------------------------------------------------------------

def shaman_cost(*, level: int, base: int, per_level: int, discount: int = 0) -> int:
    """Stone points to raise a stat from ``level`` to ``level + 1``.

    ``base + per_level x level - discount``, never below 1: the cost rises with every level.
    """
    if level < 0:
        raise ValueError("a stat level is never negative")
    return max(1, base + per_level * level - discount)


def choose_stones(stones: Iterable[tuple[int, int]], cost: int) -> tuple[int, ...] | None:
    """Which stones (id, points) pay ``cost`` points: the fewest points at or above the cost, then the
    fewest stones, then the lowest ids. None if all of them together are not enough.

    A subset-sum over totals (stones are few and worth a few points each): for every reachable total
    the best (count, ids) so far; stones go in id order, so appending an id keeps ids sorted and the
    order between candidates of equal length.
    """
    best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
    for stone_id, points in sorted(stones):
        if points <= 0:
            raise ValueError("a stone is worth a positive number of points")
        for total, (count, ids) in list(best.items()):
            candidate = (count + 1, (*ids, stone_id))
            reached = total + points
            if reached not in best or candidate < best[reached]:
                best[reached] = candidate
    enough = [total for total in best if total >= cost]
    if not enough:
        return None
    return best[min(enough)][1]


# --- bounties ----------------------------------------------------------------------------------------

def bounty_progress(*, progress: int, kills: int, required: int) -> int:
    """Kills counted towards a bounty: never past what it requires."""
    return min(required, progress + max(0, kills))


def stones_points(stones: Sequence[tuple[int, int]]) -> int:
    return sum(points for _, points in stones)
