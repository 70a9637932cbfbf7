"""The NPC economy's pure formulas: prices without arbitrage, the shaman's rising cost, which stones pay
it, bounty progress, and the tables of who offers what."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dungeons.generation import NPC_KINDS
from npcs import rules

percent = st.integers(min_value=0, max_value=100)
coins = st.integers(min_value=0, max_value=100_000)


# --- prices ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("price", "discount", "expected"), [
    (100, 0, 100), (100, 10, 90), (15, 10, 14), (1, 10, 1), (100, 100, 0), (100, 150, 0), (100, -5, 100),
])
def test_shop_price_takes_the_discount_off_and_rounds_up(price: int, discount: int, expected: int) -> None:
    assert rules.shop_price(price=price, discount_percent=discount) == expected


@pytest.mark.parametrize(("base", "rate", "bonus", "discount", "expected"), [
    (100, 50, 0, 0, 50), (35, 40, 0, 0, 14), (35, 60, 0, 0, 21), (100, 50, 10, 0, 55),
    (100, 100, 10, 0, 100),  # capped at the catalog price
    (100, 100, 0, 10, 90),  # capped at what a member would pay after the guild's discount
])
def test_sale_price_known_values(base: int, rate: int, bonus: int, discount: int, expected: int) -> None:
    assert rules.sale_price(base_price=base, rate_percent=rate, bonus_percent=bonus,
                            discount_percent=discount) == expected


@given(base=coins, markup=coins, rate=percent, bonus=st.integers(0, 500), discount=percent)
def test_selling_back_never_pays_more_than_buying_costs(base: int, markup: int, rate: int, bonus: int,
                                                        discount: int) -> None:
    # an offer is never below the catalog price (ShopOffer.clean), whatever the structures add up to
    bought = rules.shop_price(price=base + markup, discount_percent=discount)
    sold = rules.sale_price(base_price=base, rate_percent=rate, bonus_percent=bonus,
                            discount_percent=discount)
    assert 0 <= sold <= bought


@given(low=percent, high=percent, base=coins)
def test_a_higher_rate_never_pays_less(low: int, high: int, base: int) -> None:
    low, high = sorted((low, high))
    paid = [rules.sale_price(base_price=base, rate_percent=r, bonus_percent=0, discount_percent=0)
            for r in (low, high)]
    assert paid[0] <= paid[1]


def test_negative_prices_are_refused() -> None:
    with pytest.raises(ValueError):
        rules.shop_price(price=-1, discount_percent=0)
    with pytest.raises(ValueError):
        rules.sale_price(base_price=-1, rate_percent=50, bonus_percent=0, discount_percent=0)


def test_with_bonus_rounds_down() -> None:
    assert rules.with_bonus(amount=60, bonus_percent=25) == 75
    assert rules.with_bonus(amount=7, bonus_percent=10) == 7
    assert rules.with_bonus(amount=100, bonus_percent=0) == 100


# --- the shaman ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("level", "expected"), [(0, 1), (1, 2), (4, 5), (19, 20)])
def test_shaman_cost_default_numbers_rise_by_one_per_level(level: int, expected: int) -> None:
    assert rules.shaman_cost(level=level, base=1, per_level=1) == expected


@given(level=st.integers(0, 200), base=st.integers(0, 50), per_level=st.integers(0, 50),
       discount=st.integers(0, 100))
def test_shaman_cost_is_the_formula_never_below_one_and_never_falling(level: int, base: int, per_level: int,
                                                                      discount: int) -> None:
    cost = rules.shaman_cost(level=level, base=base, per_level=per_level, discount=discount)
    assert cost == max(1, base + per_level * level - discount)
    assert cost >= 1
    assert rules.shaman_cost(level=level + 1, base=base, per_level=per_level, discount=discount) >= cost


def test_shaman_cost_refuses_a_negative_level() -> None:
    with pytest.raises(ValueError):
        rules.shaman_cost(level=-1, base=1, per_level=1)


def _brute_force(stones: list[tuple[int, int]], cost: int) -> tuple[int, ...] | None:
    candidates = [combo for n in range(len(stones) + 1) for combo in itertools.combinations(sorted(stones), n)
                  if sum(points for _, points in combo) >= cost]
    if not candidates:
        return None
    best = min(candidates, key=lambda c: (sum(p for _, p in c), len(c), tuple(i for i, _ in c)))
    return tuple(i for i, _ in best)


@given(points=st.lists(st.integers(1, 6), max_size=8), cost=st.integers(1, 30))
def test_choose_stones_finds_the_cheapest_fewest_lowest_payment(points: list[int], cost: int) -> None:
    stones = [(100 + i, p) for i, p in enumerate(points)]
    assert rules.choose_stones(stones, cost) == _brute_force(stones, cost)


def test_choose_stones_known_cases() -> None:
    pebbles_and_rune = [(1, 1), (2, 1), (3, 3)]
    assert rules.choose_stones(pebbles_and_rune, 2) == (1, 2)  # two pebbles, not the 3-point rune
    assert rules.choose_stones(pebbles_and_rune, 3) == (3,)  # the rune pays exactly 3; two pebbles fall short
    assert rules.choose_stones(pebbles_and_rune, 5) == (1, 2, 3)
    assert rules.choose_stones(pebbles_and_rune, 6) is None
    assert rules.choose_stones([], 1) is None
    with pytest.raises(ValueError):
        rules.choose_stones([(1, 0)], 1)


# --- bounties -------------------------------------------------------------------------------------------

@given(progress=st.integers(0, 50), kills=st.integers(0, 50), extra=st.integers(0, 50))
def test_bounty_progress_adds_kills_up_to_the_count(progress: int, kills: int, extra: int) -> None:
    required = progress + extra
    after = rules.bounty_progress(progress=progress, kills=kills, required=required)
    assert after == min(required, progress + kills)


# --- tables -------------------------------------------------------------------------------------------

def test_every_kind_has_its_services_and_the_rescuable_ones_are_the_generators() -> None:
    assert set(rules.SERVICES) == set(rules.INITIAL_KINDS) | set(NPC_KINDS)
    assert rules.kinds_with(rules.SHOP) == (
        "weaponsmith", "armorer", "bowyer", "battle_mage", "potion_seller", "jeweler")
    assert rules.kinds_with(rules.SELL) == ("trader", "potion_seller", "jeweler")
    assert rules.SERVICES["peasant"] == ()


@pytest.mark.parametrize(("kind", "category", "weapon_class", "sells"), [
    ("weaponsmith", "weapon", "melee", True), ("weaponsmith", "weapon", "throwing", True),
    ("weaponsmith", "weapon", "ranged", False), ("bowyer", "weapon", "ranged", True),
    ("battle_mage", "weapon", "magic", True), ("battle_mage", "weapon", "melee", False),
    ("armorer", "armor", "", True), ("armorer", "weapon", "melee", False),
    ("potion_seller", "potion", "", True),
    ("jeweler", "amulet", "", True), ("jeweler", "special", "", False), ("trader", "weapon", "melee", False),
])
def test_shops_sell_only_their_goods(kind: str, category: str, weapon_class: str, sells: bool) -> None:
    assert rules.shop_sells(kind=kind, category=category, weapon_class=weapon_class) is sells
