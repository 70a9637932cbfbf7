"""Properties of the pure run rules (dungeons/run_rules.py) under hypothesis, plus the SPEC's numbers."""

from __future__ import annotations

import math
import random

from hypothesis import given
from hypothesis import strategies as st

from dungeons import run_rules
from dungeons.run_rules import RunRules

RULES = RunRules()
stat = st.integers(min_value=0, max_value=30)
seeds = st.integers(min_value=0, max_value=2**63 - 1)


@st.composite
def loss_rules(draw: st.DrawFn) -> RunRules:
    low = draw(st.integers(0, 100))
    return RunRules(
        escape_loss_start_percent=draw(st.integers(low, 100)),
        escape_loss_min_percent=low,
        escape_loss_per_upgrade=draw(st.integers(0, 20)),
    )


# --- escape ---------------------------------------------------------------------------------------


def test_escape_loss_percent_spec_numbers() -> None:
    assert run_rules.escape_loss_percent(luck=0, attentiveness=0, rules=RULES) == 80
    assert run_rules.escape_loss_percent(luck=1, attentiveness=0, rules=RULES) == 75
    assert run_rules.escape_loss_percent(luck=2, attentiveness=3, rules=RULES) == 55
    assert run_rules.escape_loss_percent(luck=4, attentiveness=4, rules=RULES) == 40
    assert run_rules.escape_loss_percent(luck=30, attentiveness=30, rules=RULES) == 40


@given(luck=stat, attentiveness=stat, rules=loss_rules())
def test_escape_loss_percent_stays_between_the_floor_and_the_start(
    luck: int, attentiveness: int, rules: RunRules
) -> None:
    percent = run_rules.escape_loss_percent(luck=luck, attentiveness=attentiveness, rules=rules)
    assert rules.escape_loss_min_percent <= percent <= rules.escape_loss_start_percent
    expected = rules.escape_loss_start_percent - rules.escape_loss_per_upgrade * (luck + attentiveness)
    assert percent == max(rules.escape_loss_min_percent, expected)


@given(luck=stat, attentiveness=stat)
def test_each_upgrade_of_luck_or_attentiveness_never_raises_the_loss(luck: int, attentiveness: int) -> None:
    percent = run_rules.escape_loss_percent(luck=luck, attentiveness=attentiveness, rules=RULES)
    assert run_rules.escape_loss_percent(luck=luck + 1, attentiveness=attentiveness, rules=RULES) <= percent
    assert run_rules.escape_loss_percent(luck=luck, attentiveness=attentiveness + 1, rules=RULES) <= percent
    # luck and attentiveness count the same
    assert run_rules.escape_loss_percent(luck=attentiveness, attentiveness=luck, rules=RULES) == percent


@given(carried=st.integers(0, 500), percent=st.integers(0, 100))
def test_escape_loss_count_is_the_percentage_rounded_half_up_within_what_is_carried(
    carried: int, percent: int
) -> None:
    count = run_rules.escape_loss_count(carried=carried, percent=percent)
    assert 0 <= count <= carried
    exact = carried * percent / 100
    assert abs(count - exact) <= 0.5
    assert count == math.floor(exact + 0.5)
    if percent == 100:
        assert count == carried
    if percent == 0 or carried == 0:
        assert count == 0


def test_escape_loss_count_examples() -> None:
    assert run_rules.escape_loss_count(carried=1, percent=80) == 1  # a lone item is lost at 80%
    assert run_rules.escape_loss_count(carried=1, percent=40) == 0
    assert run_rules.escape_loss_count(carried=1, percent=50) == 1  # half rounds up
    assert run_rules.escape_loss_count(carried=10, percent=65) == 7  # 6.5 -> 7
    assert run_rules.escape_loss_count(carried=4, percent=55) == 2  # 2.2 -> 2
    assert run_rules.escape_loss_count(carried=0, percent=80) == 0


@given(items=st.lists(st.integers(), max_size=40, unique=True), percent=st.integers(0, 100), seed=seeds)
def test_escape_losses_are_a_seeded_subset_of_the_right_size_in_the_given_order(
    items: list[int], percent: int, seed: int
) -> None:
    lost = run_rules.escape_losses(items, percent=percent, rng=random.Random(seed))
    assert set(lost) <= set(items)
    assert len(lost) == len(set(lost)) == run_rules.escape_loss_count(carried=len(items), percent=percent)
    assert lost == [item for item in items if item in set(lost)]  # the given order is kept
    assert (
        run_rules.escape_losses(items, percent=percent, rng=random.Random(seed)) == lost
    )  # same seed, same loss


def test_escape_losses_depend_on_the_seed() -> None:
    items = list(range(20))
    picks = {tuple(run_rules.escape_losses(items, percent=50, rng=random.Random(seed))) for seed in range(20)}
    assert len(picks) > 1


@given(money=st.integers(0, 10**15))
def test_charon_takes_ten_percent_rounded_down_and_never_more_than_there_is(money: int) -> None:
    fee = run_rules.charon_fee(money=money, rules=RULES)
    assert fee == money // 10
    assert 0 <= fee <= money
    assert money - fee >= 0
    assert fee * 10 <= money < (fee + 1) * 10


@given(money=st.integers(-1000, 10**9), percent=st.integers(0, 100))
def test_charon_fee_is_never_negative_and_within_the_money(money: int, percent: int) -> None:
    fee = run_rules.charon_fee(money=money, rules=RunRules(charon_fee_percent=percent))
    assert 0 <= fee <= max(0, money)


def test_charon_fee_examples() -> None:
    assert [run_rules.charon_fee(money=m, rules=RULES) for m in (0, 9, 10, 19, 1244, 999)] == [
        0,
        0,
        1,
        1,
        124,
        99,
    ]


# --- traps ----------------------------------------------------------------------------------------


@st.composite
def trap_rules(draw: st.DrawFn) -> RunRules:
    return RunRules(
        trap_damage_base=draw(st.integers(0, 200)),
        trap_damage_per_floor=draw(st.integers(0, 50)),
        trap_mitigation_per_attentiveness=draw(st.floats(0, 1)),
        trap_mitigation_max=draw(st.floats(0, 1)),
        trap_effect=draw(st.sampled_from(["", "bleeding", "burning", "weakness"])),
        trap_effect_chance=draw(st.floats(0, 1)),
    )


@given(floor=st.integers(0, 20), attentiveness=stat, seed=seeds, rules=trap_rules())
def test_trap_damage_is_mitigated_within_bounds(
    floor: int, attentiveness: int, seed: int, rules: RunRules
) -> None:
    hit = run_rules.trap_spring(
        floor=floor, attentiveness=attentiveness, rng=random.Random(seed), rules=rules
    )
    raw = rules.trap_damage_base + rules.trap_damage_per_floor * floor
    most_avoided = raw * rules.trap_mitigation_max
    assert 0 <= hit.damage <= raw
    assert hit.damage >= math.floor(raw - most_avoided)  # mitigation never passes its cap
    assert hit.effect in (None, rules.trap_effect or None)
    if not rules.trap_effect or rules.trap_effect_chance == 0:
        assert hit.effect is None
    # the same seed springs the same trap
    assert (
        run_rules.trap_spring(floor=floor, attentiveness=attentiveness, rng=random.Random(seed), rules=rules)
        == hit
    )


@given(floor=st.integers(0, 20), attentiveness=st.integers(0, 29), seed=seeds)
def test_more_attentiveness_never_means_more_trap_damage(floor: int, attentiveness: int, seed: int) -> None:
    less = run_rules.trap_spring(
        floor=floor, attentiveness=attentiveness, rng=random.Random(seed), rules=RULES
    )
    more = run_rules.trap_spring(
        floor=floor, attentiveness=attentiveness + 1, rng=random.Random(seed), rules=RULES
    )
    assert more.damage <= less.damage


def test_trap_damage_examples() -> None:
    rng = random.Random(1)
    assert run_rules.trap_spring(floor=0, attentiveness=0, rng=rng, rules=RULES).damage == 4
    assert run_rules.trap_spring(floor=3, attentiveness=0, rng=rng, rules=RULES).damage == 10
    assert run_rules.trap_spring(floor=3, attentiveness=5, rng=rng, rules=RULES).damage == 5
    assert (
        run_rules.trap_spring(floor=3, attentiveness=30, rng=rng, rules=RULES).damage == 3
    )  # 75% cap: 2.5 -> 3


# --- offers and draws -----------------------------------------------------------------------------


@given(pool=st.lists(st.integers(), max_size=30, unique=True), size=st.integers(-2, 40), seed=seeds)
def test_the_junk_offer_is_distinct_weapons_from_the_pool(pool: list[int], size: int, seed: int) -> None:
    offer = run_rules.junk_offer(pool, size=size, rng=random.Random(seed))
    assert len(offer) == len(set(offer)) == min(max(0, size), len(pool))
    assert set(offer) <= set(pool)
    assert run_rules.junk_offer(pool, size=size, rng=random.Random(seed)) == offer


@given(seed=seeds, floor=st.integers(0, 10), room=st.integers(0, 10))
def test_room_streams_are_reproducible_and_separate_per_purpose(seed: int, floor: int, room: int) -> None:
    a = run_rules.room_rng(seed, floor, room, "treasure").random()
    assert run_rules.room_rng(seed, floor, room, "treasure").random() == a
    assert run_rules.room_rng(seed, floor, room, "trap/1").random() != a


@given(attentiveness=st.lists(stat, max_size=8), seed=seeds)
def test_treasure_holds_the_base_plus_at_most_one_item_per_member(
    attentiveness: list[int], seed: int
) -> None:
    count = run_rules.treasure_item_count(attentiveness=attentiveness, rng=random.Random(seed), rules=RULES)
    assert RULES.treasure_items_base <= count <= RULES.treasure_items_base + len(attentiveness)
    if all(points == 0 for points in attentiveness):
        assert count == RULES.treasure_items_base
    if all(points >= 10 for points in attentiveness):  # 10 x 10% = certain
        assert count == RULES.treasure_items_base + len(attentiveness)


@given(metabolism=stat)
def test_healing_grows_with_metabolism(metabolism: int) -> None:
    assert run_rules.rest_heal(metabolism=metabolism, rules=RULES) == 10 + 3 * metabolism
    assert run_rules.room_regen(metabolism=metabolism, rules=RULES) == metabolism


@given(k=st.integers(-3, 20), seed=seeds)
def test_weighted_pick_draws_only_items_with_weight(k: int, seed: int) -> None:
    items, weights = ["common", "never", "rare"], [70, 0, 5]
    picked = run_rules.weighted_pick(items, weights, random.Random(seed), k)
    assert len(picked) == max(0, k)
    assert "never" not in picked
    assert run_rules.weighted_pick(items, [0, 0, 0], random.Random(seed), k) == []
