"""The pure carry rules (players/inventory.py): each limit, its boundaries, and hypothesis invariants."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from players.inventory import (
    ARMOR_SLOT_TAKEN,
    POTION_LIMIT,
    WEAPON_LIMIT,
    WEIGHT_LIMIT,
    Carried,
    CarryLimits,
    CarryRules,
    carry_limits,
    carry_summary,
    equip_violation,
    pickup_violation,
)

LIMITS = CarryLimits(max_weapons=2, max_potions=3, capacity=40)
SWORD = Carried("weapon", "sword", 5)
TORCH = Carried("torch", "torch", 2)
HELMET = Carried("armor", "helmet", 3)
BOOTS = Carried("armor", "boots", 2)
POTION = Carried("potion", "healing", 1)
GEM = Carried("special", "gem", 1)
AMULET = Carried("amulet", "amulet", 1)


def test_default_rules_give_two_weapons_three_potions_and_capacity_forty():
    assert carry_limits(rules=CarryRules(), strength=0, belt_level=0) == CarryLimits(2, 3, 40)


def test_capacity_grows_with_strength_and_the_potion_limit_with_the_belt():
    limits = carry_limits(rules=CarryRules(), strength=3, belt_level=2)
    assert limits.capacity == 40 + 3 * 5
    assert limits.max_potions == 5  # SPEC: 4 with one belt, 5 with two
    assert carry_limits(rules=CarryRules(), strength=0, belt_level=1).max_potions == 4


def test_negative_strength_is_a_programming_error():
    with pytest.raises(ValueError):
        carry_limits(rules=CarryRules(), strength=-1, belt_level=0)


def test_a_third_weapon_is_refused_with_the_weapon_limit():
    violation = pickup_violation(carried=[SWORD, SWORD], candidate=SWORD, limits=LIMITS)
    assert violation is not None
    assert (violation.code, violation.limit, violation.current) == (WEAPON_LIMIT, 2, 2)
    assert pickup_violation(carried=[SWORD], candidate=SWORD, limits=LIMITS) is None


def test_a_torch_takes_a_weapon_slot():
    assert pickup_violation(carried=[SWORD, TORCH], candidate=SWORD, limits=LIMITS).code == WEAPON_LIMIT
    assert pickup_violation(carried=[SWORD, SWORD], candidate=TORCH, limits=LIMITS).code == WEAPON_LIMIT


def test_a_second_piece_for_the_same_armor_slot_is_refused_but_other_slots_are_free():
    violation = pickup_violation(carried=[HELMET], candidate=HELMET, limits=LIMITS)
    assert (violation.code, violation.limit, violation.current) == (ARMOR_SLOT_TAKEN, 1, 1)
    assert violation.details() == {"limit": 1, "current": 1, "slot": "helmet"}
    assert pickup_violation(carried=[HELMET], candidate=BOOTS, limits=LIMITS) is None


def test_a_fourth_potion_is_refused_unless_a_belt_raises_the_limit():
    three = [POTION, Carried("potion", "effect", 1), Carried("potion", "stat", 1)]
    violation = pickup_violation(carried=three, candidate=POTION, limits=LIMITS)
    assert (violation.code, violation.limit, violation.current) == (POTION_LIMIT, 3, 3)
    belt = carry_limits(rules=CarryRules(), strength=0, belt_level=1)
    assert pickup_violation(carried=three, candidate=POTION, limits=belt) is None


def test_weight_may_reach_the_capacity_but_not_exceed_it():
    load = [Carried("special", "gem", 39)]
    assert pickup_violation(carried=load, candidate=GEM, limits=LIMITS) is None
    violation = pickup_violation(carried=load, candidate=Carried("special", "gem", 2), limits=LIMITS)
    assert (violation.code, violation.limit, violation.current) == (WEIGHT_LIMIT, 40, 39)


def test_slot_rules_are_reported_before_weight():
    heavy = CarryLimits(max_weapons=2, max_potions=3, capacity=1)
    assert pickup_violation(carried=[SWORD, SWORD], candidate=SWORD, limits=heavy).code == WEAPON_LIMIT


def test_specials_and_amulets_have_no_count_limit():
    many = [GEM] * 20 + [AMULET] * 10
    assert pickup_violation(carried=many, candidate=AMULET, limits=LIMITS) is None


def test_equip_counts_only_equipped_items():
    worn = Carried("armor", "helmet", 3, equipped=True)
    assert equip_violation(carried=[worn], candidate=HELMET, limits=LIMITS).code == ARMOR_SLOT_TAKEN
    assert equip_violation(carried=[HELMET], candidate=HELMET, limits=LIMITS) is None
    in_hand = Carried("weapon", "sword", 5, equipped=True)
    one_slot = CarryLimits(max_weapons=1, max_potions=3, capacity=40)
    assert equip_violation(carried=[in_hand], candidate=TORCH, limits=one_slot).code == WEAPON_LIMIT
    assert equip_violation(carried=[SWORD], candidate=TORCH, limits=one_slot) is None


def test_equipping_a_potion_is_a_programming_error():
    with pytest.raises(ValueError):
        equip_violation(carried=[], candidate=POTION, limits=LIMITS)


def test_summary_counts_weapons_with_torches_potions_and_weight():
    summary = carry_summary(carried=[SWORD, TORCH, POTION, POTION, HELMET], limits=LIMITS)
    assert (summary.weapons, summary.potions, summary.weight) == (2, 2, 5 + 2 + 1 + 1 + 3)
    assert (summary.weapon_limit, summary.potion_limit, summary.capacity) == (2, 3, 40)


# --- invariants -------------------------------------------------------------------------------------

CATEGORIES = {
    "weapon": ["sword", "bow", "staff", "knife"],
    "torch": ["torch"],
    "armor": ["cuirass", "greaves", "helmet", "gloves", "boots"],
    "potion": ["healing", "effect", "stat"],
    "special": ["gem", "enchanted_stone"],
    "amulet": ["amulet"],
}
items = st.sampled_from(sorted(CATEGORIES)).flatmap(
    lambda category: st.builds(Carried, st.just(category), st.sampled_from(CATEGORIES[category]),
                               st.integers(0, 20), st.booleans())
)
rules = st.builds(CarryRules, st.integers(0, 4), st.integers(0, 5), st.integers(0, 2), st.integers(0, 80),
                  st.integers(0, 10))
limits = st.builds(lambda r, s, b: carry_limits(rules=r, strength=s, belt_level=b), rules, st.integers(0, 10),
                   st.integers(0, 2))


def _within(carried: list[Carried], limits: CarryLimits) -> bool:
    summary = carry_summary(carried=carried, limits=limits)
    armor = [c.sub_kind for c in carried if c.category == "armor"]
    return (summary.weapons <= limits.max_weapons and summary.potions <= limits.max_potions
            and summary.weight <= limits.capacity and len(armor) == len(set(armor)))


@given(limits=limits, offered=st.lists(items, max_size=40))
def test_taking_only_what_the_rules_allow_never_exceeds_any_limit(limits, offered):
    carried: list[Carried] = []
    for candidate in offered:
        if pickup_violation(carried=carried, candidate=candidate, limits=limits) is None:
            carried.append(candidate)
        assert _within(carried, limits)


@given(limits=limits, carried=st.lists(items, max_size=12), candidate=items)
def test_a_pickup_is_allowed_exactly_when_the_result_is_within_every_limit(limits, carried, candidate):
    if not _within(carried, limits):
        return  # the rules speak about reachable inventories
    allowed = pickup_violation(carried=carried, candidate=candidate, limits=limits) is None
    assert allowed == _within([*carried, candidate], limits)


@given(limits=limits, carried=st.lists(items, max_size=12), candidate=items)
def test_a_refusal_reports_a_current_value_that_is_at_the_limit_or_pushed_past_it(limits, carried, candidate):
    violation = pickup_violation(carried=carried, candidate=candidate, limits=limits)
    if violation is None:
        return
    added = candidate.weight if violation.code == WEIGHT_LIMIT else 1
    assert violation.current + added > violation.limit


@given(limits=limits, carried=st.lists(items, max_size=12), candidate=items)
def test_dropping_an_item_never_turns_an_allowed_pickup_into_a_refusal(limits, carried, candidate):
    if pickup_violation(carried=carried, candidate=candidate, limits=limits) is not None:
        return
    for index in range(len(carried)):
        fewer = carried[:index] + carried[index + 1:]
        assert pickup_violation(carried=fewer, candidate=candidate, limits=limits) is None
