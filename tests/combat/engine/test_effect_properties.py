"""Hypothesis invariants of the effect stacking rules over random application sequences."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from combat.engine import EFFECTS, OPPOSITES, REPLACES, EffectBook

applications = st.lists(
    st.one_of(
        st.tuples(
            st.just("apply"),
            st.sampled_from(EFFECTS),
            st.one_of(st.none(), st.integers(min_value=1, max_value=6)),
            st.one_of(st.none(), st.floats(min_value=0, max_value=5, allow_nan=False)),
            st.booleans(),
        ),
        st.tuples(st.just("tick"), st.just(""), st.none(), st.none(), st.just(False)),
    ),
    max_size=60,
)


@given(applications)
def test_random_applications_keep_every_stacking_invariant(
    steps: list[tuple[str, str, int | None, float | None, bool]]
) -> None:
    book = EffectBook()
    for op, name, turns, magnitude, permanent in steps:
        permanents_before = {n for n, e in book.active().items() if e.permanent}
        if op == "apply":
            book.apply(name, turns=turns, magnitude=magnitude, permanent=permanent)
        else:
            book.end_turn()
        active = book.active()
        # a permanent effect never disappears
        assert permanents_before <= {n for n, e in active.items() if e.permanent}
        for effect_name, effect in active.items():
            assert effect.name == effect_name
            # never both effects of an opposite pair
            assert OPPOSITES.get(effect_name) not in active
            # durations never negative (nor zero: an effect at 0 turns has expired)
            assert effect.turns is None or effect.turns >= 1
            assert effect.magnitude >= 0
            if effect.permanent:
                assert effect.turns is None
        # never a replaced effect beside its replacement
        for replacer, replaced in REPLACES.items():
            assert not (replacer in active and replaced in active)


@given(applications)
def test_applying_an_effect_never_leaves_two_entries_of_it(
    steps: list[tuple[str, str, int | None, float | None, bool]]
) -> None:
    book = EffectBook()
    for op, name, turns, magnitude, permanent in steps:
        if op == "apply":
            book.apply(name, turns=turns, magnitude=magnitude, permanent=permanent)
        else:
            book.end_turn()
        names = [e.name for e in book.snapshot()]
        assert len(names) == len(set(names))


@given(st.sampled_from(EFFECTS), st.integers(1, 6), st.integers(1, 6))
def test_merging_is_the_longer_duration(name: str, first: int, second: int) -> None:
    book = EffectBook()
    book.apply(name, turns=first)
    assert book.apply(name, turns=second) == "extended"
    assert book.active()[name].turns == max(first, second)
