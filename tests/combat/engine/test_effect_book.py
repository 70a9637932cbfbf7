"""EffectBook: every apply outcome, the SPEC example sequence and the stacking edge cases."""
from __future__ import annotations

import pytest

from combat.engine import ActiveEffect, ApplyOutcome, EffectBook
from combat.engine.effects import (
    DEFAULT_MAGNITUDES,
    EFFECTS,
    OPPOSITES,
    REPLACES,
    EffectTableError,
    validate_tables,
)


def test_spec_example_sequence_gives_the_documented_outcomes() -> None:
    book = EffectBook()
    assert book.apply("vigor", turns=3, magnitude=0.25) == "added"
    assert book.apply("vigor", turns=1, magnitude=0.5) == "extended"
    assert book.active()["vigor"] == ActiveEffect("vigor", 3, 0.5, False)
    assert book.apply("weakness", turns=5, magnitude=0.2) == "cancelled"
    assert book.active() == {}
    assert book.apply("blessing", permanent=True) == "added"
    assert book.apply("curse", turns=2) == "blocked"
    assert book.active() == {"blessing": ActiveEffect("blessing", None, 1.0, True)}
    book.end_turn()
    assert book.active() == {"blessing": ActiveEffect("blessing", None, 1.0, True)}


def test_outcomes_are_plain_strings() -> None:
    assert {o.value for o in ApplyOutcome} == {"added", "extended", "cancelled", "replaced", "blocked"}
    assert ApplyOutcome("added") is ApplyOutcome.ADDED and str(ApplyOutcome.BLOCKED) == "blocked"
    assert isinstance(ApplyOutcome.ADDED, str)


def test_new_effect_is_added_with_default_magnitude() -> None:
    book = EffectBook()
    assert book.apply("bleeding", turns=2) == ApplyOutcome.ADDED
    assert book.active()["bleeding"] == ActiveEffect("bleeding", 2, DEFAULT_MAGNITUDES["bleeding"], False)


def test_turns_none_means_until_battle_end_and_never_ticks() -> None:
    book = EffectBook()
    book.apply("vigor")
    for _ in range(50):
        book.end_turn()
    assert book.active()["vigor"].turns is None


def test_same_effect_keeps_the_longer_duration_and_larger_magnitude() -> None:
    book = EffectBook()
    book.apply("fear", turns=1, magnitude=0.3)
    assert book.apply("fear", turns=4, magnitude=0.1) == "extended"
    assert book.active()["fear"] == ActiveEffect("fear", 4, 0.3, False)


def test_until_battle_end_outlasts_any_count_when_merging() -> None:
    book = EffectBook()
    book.apply("vigor", turns=None, magnitude=0.1)
    book.apply("vigor", turns=99, magnitude=0.2)
    assert book.active()["vigor"] == ActiveEffect("vigor", None, 0.2, False)
    book.apply("weakness", turns=1)  # still cancels: opposites ignore durations
    assert "vigor" not in book


def test_same_effect_as_a_permanent_one_stays_permanent_and_takes_larger_magnitude() -> None:
    book = EffectBook()
    book.apply("resilience", permanent=True, magnitude=0.1)
    assert book.apply("resilience", turns=2, magnitude=0.4) == "extended"
    assert book.active()["resilience"] == ActiveEffect("resilience", None, 0.4, True)


def test_permanent_application_makes_a_timed_effect_permanent() -> None:
    book = EffectBook()
    book.apply("vigor", turns=2, magnitude=0.5)
    assert book.apply("vigor", permanent=True, magnitude=0.1) == "extended"
    assert book.active()["vigor"] == ActiveEffect("vigor", None, 0.5, True)


def test_permanent_ignores_a_given_turn_count() -> None:
    book = EffectBook()
    book.apply("concentration", turns=3, permanent=True)
    assert book.active()["concentration"].turns is None


def test_opposites_cancel_both_whatever_their_strength() -> None:
    book = EffectBook()
    book.apply("regeneration", turns=9, magnitude=10)
    assert book.apply("bleeding", turns=1, magnitude=0.5) == "cancelled"
    assert book.active() == {}


def test_permanent_effect_blocks_its_opposite() -> None:
    book = EffectBook()
    book.apply("fearlessness", permanent=True)
    assert book.apply("fear", turns=3) == "blocked"
    assert set(book.active()) == {"fearlessness"}
    assert book.last is not None and book.last.other == "fearlessness"


def test_permanent_opposite_of_a_permanent_is_blocked() -> None:
    book = EffectBook()
    book.apply("burning", permanent=True)
    assert book.apply("frostbite", permanent=True) == "blocked"
    assert set(book.active()) == {"burning"}


def test_permanent_effect_removes_a_timed_opposite_instead_of_cancelling() -> None:
    # A permanent effect cannot be removed during battle, so the timed opposite goes alone.
    book = EffectBook()
    book.apply("weakness", turns=3)
    assert book.apply("vigor", permanent=True) == "replaced"
    assert set(book.active()) == {"vigor"}
    assert book.active()["vigor"].permanent


def test_stun_replaces_haste() -> None:
    book = EffectBook()
    book.apply("haste", turns=3)
    assert book.apply("stun", turns=1) == "replaced"
    assert set(book.active()) == {"stun"}
    assert book.last is not None and book.last.other == "haste"


def test_haste_is_blocked_while_stunned() -> None:
    book = EffectBook()
    book.apply("stun", turns=1)
    assert book.apply("haste", turns=5) == "blocked"
    assert set(book.active()) == {"stun"}


def test_provocation_replaces_camouflage_and_camouflage_is_then_blocked() -> None:
    book = EffectBook()
    book.apply("camouflage", turns=2)
    assert book.apply("provocation", turns=2) == "replaced"
    assert book.apply("camouflage", turns=2) == "blocked"
    assert set(book.active()) == {"provocation"}


def test_blessing_removes_curse_and_blocks_it() -> None:
    book = EffectBook()
    book.apply("curse", turns=4, magnitude=0.5)
    assert book.apply("blessing", turns=1) == "replaced"
    assert book.apply("curse", turns=4) == "blocked"
    assert set(book.active()) == {"blessing"}


def test_replacing_effect_is_blocked_by_a_permanent_replaced_effect() -> None:
    # A permanent haste (amulet) cannot be replaced, so stun has nowhere to go.
    book = EffectBook()
    book.apply("haste", permanent=True)
    assert book.apply("stun", turns=2) == "blocked"
    assert set(book.active()) == {"haste"}


def test_permanent_replaced_effect_is_blocked_by_a_present_replacer() -> None:
    book = EffectBook()
    book.apply("provocation", turns=1)
    assert book.apply("camouflage", permanent=True) == "blocked"
    assert set(book.active()) == {"provocation"}


def test_permanent_replacer_replaces_a_timed_replaced_effect() -> None:
    book = EffectBook()
    book.apply("curse", turns=3)
    assert book.apply("blessing", permanent=True) == "replaced"
    assert book.active() == {"blessing": ActiveEffect("blessing", None, 1.0, True)}


def test_end_turn_ticks_durations_and_reports_expiry() -> None:
    book = EffectBook()
    book.apply("vigor", turns=2)
    book.apply("stun", turns=1)
    assert book.end_turn() == ("stun",)
    assert book.active()["vigor"].turns == 1
    assert book.end_turn() == ("vigor",)
    assert book.active() == {}


def test_different_effects_coexist_without_limit() -> None:
    book = EffectBook()
    for name in (
        "haste",
        "camouflage",
        "curse",
        "vigor",
        "resilience",
        "concentration",
        "fear",
        "regeneration",
        "burning",
    ):
        assert book.apply(name, turns=2) == "added"
    assert len(book.active()) == 9


@pytest.mark.parametrize(
    ("name", "turns", "magnitude"),
    [
        ("nonsense", 1, None),
        ("vigor", 0, None),
        ("vigor", -1, None),
        ("vigor", 1, -0.5),
        ("vigor", 1, float("nan")),
    ],
)
def test_invalid_arguments_are_programming_errors(name: str, turns: int, magnitude: float | None) -> None:
    with pytest.raises(ValueError):
        EffectBook().apply(name, turns=turns, magnitude=magnitude)


def test_shipped_tables_cover_all_eighteen_effects() -> None:
    assert len(EFFECTS) == 18
    assert set(OPPOSITES) | set(REPLACES) | set(REPLACES.values()) == set(EFFECTS)


def test_table_check_rejects_asymmetric_opposites() -> None:
    with pytest.raises(EffectTableError, match="symmetric"):
        validate_tables(EFFECTS, {"weakness": "vigor"}, {}, DEFAULT_MAGNITUDES)


def test_table_check_rejects_replacement_cycles() -> None:
    with pytest.raises(EffectTableError, match="cycle"):
        validate_tables(EFFECTS, {}, {"stun": "haste", "haste": "stun"}, DEFAULT_MAGNITUDES)


def test_table_check_rejects_an_effect_both_opposite_and_replacement() -> None:
    with pytest.raises(EffectTableError, match="both"):
        validate_tables(
            EFFECTS, {"weakness": "vigor", "vigor": "weakness"}, {"stun": "vigor"}, DEFAULT_MAGNITUDES
        )


def test_table_check_rejects_missing_default_magnitudes() -> None:
    with pytest.raises(EffectTableError, match="magnitude"):
        validate_tables(EFFECTS, OPPOSITES, REPLACES, {"vigor": 0.1})
