"""Combat selectors: rules from the admin row, the migrated bestiary, enemy combatants, seeded encounters."""
from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.engine import (
    AttackAction,
    BattleSetup,
    Combatant,
    CombatRules,
    EffectSpec,
    Kind,
    Outcome,
    Stats,
    Weapon,
    act,
    allowed_actions,
    start_battle,
)
from combat.models import CombatSettings, EnemyKind, EnemyKindEffect
from combat.selectors import (
    EncounterRules,
    NoEnemyForFloor,
    boss_escort_size,
    combat_rules_get,
    encounter_for_room,
    encounter_rules_get,
    encounter_size,
    enemy_combatant,
    enemy_kinds_for_floor,
)

RULES = EncounterRules(base=1, party_divisor=2, floor_divisor=2, maximum=6, boss_escort_party_divisor=2,
                       boss_hp_per_extra_player=0.5)


# --- rules ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_combat_rules_get_returns_the_engine_defaults_on_a_fresh_database() -> None:
    assert combat_rules_get() == CombatRules()


@pytest.mark.django_db
def test_combat_rules_get_carries_an_edited_value_into_the_frozen_rules() -> None:
    # given
    settings = CombatSettings.load()
    settings.crit_multiplier = 3.0
    settings.effect_magnitudes = {"burning": 5.0}
    settings.save()
    # when
    rules = combat_rules_get()
    # then
    assert rules.crit_multiplier == 3.0
    assert rules.effect_magnitudes["burning"] == 5.0
    assert rules.effect_magnitudes["vigor"] == CombatRules().effect_magnitudes["vigor"]  # left out: default
    assert rules.base_miss_chance == CombatRules().base_miss_chance


@pytest.mark.django_db
def test_combat_rules_get_creates_the_row_when_it_is_missing() -> None:
    CombatSettings.objects.all().delete()  # a queryset delete bypasses the singleton guard
    assert combat_rules_get() == CombatRules()
    assert CombatSettings.objects.count() == 1


@pytest.mark.django_db
def test_encounter_rules_get_reads_the_encounter_numbers() -> None:
    CombatSettings.objects.filter(pk=1).update(encounter_max=3, boss_hp_per_extra_player=0.25)
    rules = encounter_rules_get()
    assert (rules.maximum, rules.boss_hp_per_extra_player, rules.base) == (3, 0.25, 1)


# --- the migrated bestiary --------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("floor", range(6))
def test_the_starting_bestiary_has_ordinary_enemies_and_a_boss_for_every_floor(floor: int) -> None:
    kinds = enemy_kinds_for_floor(floor)
    assert any(not k.is_boss for k in kinds)
    assert any(k.is_boss for k in kinds)


@pytest.mark.django_db
def test_the_starting_bestiary_has_ordinary_enemies_bosses_and_on_hit_effects() -> None:
    assert EnemyKind.objects.filter(is_boss=False).count() >= 8
    assert EnemyKind.objects.filter(is_boss=True).count() >= 3
    assert EnemyKindEffect.objects.filter(trigger="on_hit").count() >= 5
    for effect in EnemyKindEffect.objects.all():
        effect.full_clean()  # every migrated row passes the admin's validation
    for kind in EnemyKind.objects.all():
        kind.full_clean()


@pytest.mark.django_db
def test_every_migrated_kind_converts_to_an_engine_combatant() -> None:
    for index, kind in enumerate(EnemyKind.objects.prefetch_related("effects")):
        combatant = enemy_combatant(kind, combatant_id=f"e{index}")
        assert combatant.hp == combatant.max_hp == kind.hp


# --- EnemyKind -> Combatant ----------------------------------------------------------------------


def _kind(slug: str, *, is_boss: bool = False, floors: tuple[int, int | None] = (0, None), weight: int = 10,
          hp: int = 10) -> EnemyKind:
    return EnemyKind.objects.create(
        name=slug.replace("-", " ").title(), slug=slug, is_boss=is_boss,
        min_floor=floors[0], max_floor=floors[1],
        weight=weight, hp=hp, weapon_name="Claws", weapon_damage=3,
    )


@pytest.mark.django_db
def test_an_enemy_kind_becomes_a_combatant_with_its_weapon_stats_effects_and_id() -> None:
    # given
    kind = EnemyKind.objects.create(
        name="Test Basilisk", slug="test-basilisk", is_boss=True, hp=33, armor=4, weapon_name="Stone Gaze",
        weapon_kind="magic", weapon_damage=7, strength=1, stamina=2, metabolism=3, luck=4, attentiveness=5,
    )
    EnemyKindEffect.objects.create(enemy_kind=kind, name="stun", turns=1, chance=0.2)
    EnemyKindEffect.objects.create(enemy_kind=kind, name="fragility", turns=None, magnitude=0.3, chance=0.5)
    EnemyKindEffect.objects.create(enemy_kind=kind, trigger="innate", name="resilience", magnitude=0.1)
    # when
    combatant = enemy_combatant(kind, combatant_id="e7")
    # then
    assert combatant == Combatant(
        id="e7", kind=Kind.ENEMY, name="Test Basilisk", hp=33, max_hp=33,
        stats=Stats(strength=1, stamina=2, metabolism=3, luck=4, attentiveness=5),
        weapons=(Weapon("Stone Gaze", 7, "magic", (EffectSpec("stun", 1, None, 0.2),
                                                    EffectSpec("fragility", None, 0.3, 0.5))),),
        armor=4, amulets=(EffectSpec("resilience", None, 0.1, 1.0),), is_boss=True,
    )


@pytest.mark.django_db
def test_enemy_kinds_for_floor_respects_floor_ranges_and_skips_weight_zero() -> None:
    EnemyKind.objects.all().delete()
    _kind("test-shallow", floors=(0, 1))
    _kind("test-deep", floors=(2, None))
    _kind("test-retired", floors=(0, None), weight=0)
    _kind("test-boss", is_boss=True, floors=(1, 1))
    assert [k.slug for k in enemy_kinds_for_floor(0)] == ["test-shallow"]
    assert [k.slug for k in enemy_kinds_for_floor(1)] == ["test-boss", "test-shallow"]
    assert [k.slug for k in enemy_kinds_for_floor(1, boss=False)] == ["test-shallow"]
    assert [k.slug for k in enemy_kinds_for_floor(9)] == ["test-deep"]


# --- encounters ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("floor", "party", "expected"),
    [(0, 1, 1), (0, 2, 2), (0, 4, 3), (1, 4, 3), (2, 1, 2), (3, 3, 3), (5, 4, 5), (9, 10, 6)],
)
def test_encounter_size_is_base_plus_party_half_plus_floor_half_capped(
    floor: int, party: int, expected: int
) -> None:
    assert encounter_size(floor=floor, party_size=party, rules=RULES) == expected


@given(floor=st.integers(0, 50), party=st.integers(1, 50))
def test_encounter_size_stays_within_one_and_the_maximum(floor: int, party: int) -> None:
    assert 1 <= encounter_size(floor=floor, party_size=party, rules=RULES) <= RULES.maximum


@pytest.mark.django_db
@pytest.mark.parametrize("floor", range(6))
@pytest.mark.parametrize("party", [1, 2, 3, 4])
def test_an_ordinary_room_holds_the_counted_enemies_of_its_floor(floor: int, party: int) -> None:
    rng = random.Random(floor * 10 + party)
    enemies = encounter_for_room(floor=floor, is_boss=False, party_size=party, rng=rng)
    assert len(enemies) == encounter_size(floor=floor, party_size=party, rules=encounter_rules_get())
    kinds = {k.name: k for k in EnemyKind.objects.all()}
    for enemy in enemies:
        kind = kinds[enemy.name.rstrip("0123456789").rstrip()]
        assert not enemy.is_boss and not kind.is_boss and kind.appears_on(floor)
        assert enemy.kind is Kind.ENEMY
    assert [e.id for e in enemies] == [f"e{i}" for i in range(1, len(enemies) + 1)]


@pytest.mark.django_db
@pytest.mark.parametrize("floor", range(6))
@pytest.mark.parametrize("party", [1, 2, 4])
def test_a_boss_room_holds_one_boss_of_its_floor_first_then_the_escort(floor: int, party: int) -> None:
    rng = random.Random(floor + 100 * party)
    enemies = encounter_for_room(floor=floor, is_boss=True, party_size=party, rng=rng)
    boss, *escort = enemies
    kind = EnemyKind.objects.get(name=boss.name)
    assert boss.is_boss and kind.is_boss and kind.appears_on(floor)
    assert boss.max_hp == round(kind.hp * (1 + 0.5 * (party - 1)))
    assert len(escort) == boss_escort_size(party_size=party, rules=encounter_rules_get()) == party // 2
    assert not any(e.is_boss for e in escort)


@pytest.mark.django_db
def test_an_encounter_is_the_same_for_the_same_seed_and_varies_across_seeds() -> None:
    def draw(seed: int) -> list[Combatant]:
        return encounter_for_room(floor=3, is_boss=False, party_size=4, rng=random.Random(seed))

    assert draw(42) == draw(42)
    assert len({tuple(e.name for e in draw(seed)) for seed in range(30)}) > 1


@pytest.mark.django_db
def test_weights_steer_the_draw() -> None:
    EnemyKind.objects.all().delete()
    _kind("test-common", weight=99)
    _kind("test-rare", weight=1)
    names = [e.name for seed in range(50)
             for e in encounter_for_room(floor=0, is_boss=False, party_size=1, rng=random.Random(seed))]
    assert names.count("Test Common") > 40


@pytest.mark.django_db
def test_repeated_kinds_get_numbered_names_and_distinct_ids() -> None:
    EnemyKind.objects.all().delete()
    _kind("test-rat")
    enemies = encounter_for_room(floor=4, is_boss=False, party_size=4, rng=random.Random(1))
    assert [e.name for e in enemies] == [f"Test Rat {i}" for i in range(1, 6)]
    assert len({e.id for e in enemies}) == 5


@pytest.mark.django_db
def test_a_floor_the_bestiary_does_not_cover_raises_a_clear_error() -> None:
    EnemyKind.objects.all().delete()
    _kind("test-shallow", floors=(0, 0))
    with pytest.raises(NoEnemyForFloor, match="floor 3"):
        encounter_for_room(floor=3, is_boss=False, party_size=1, rng=random.Random(1))
    with pytest.raises(NoEnemyForFloor, match="no boss"):
        encounter_for_room(floor=0, is_boss=True, party_size=1, rng=random.Random(1))


@pytest.mark.django_db
def test_an_encounter_costs_two_queries(django_assert_max_num_queries) -> None:
    # the settings row, the floor's kinds with their effects (combat/store.py: one statement)
    with django_assert_max_num_queries(2):
        encounter_for_room(floor=4, is_boss=True, party_size=4, rng=random.Random(3))


# --- an encounter fights in the engine --------------------------------------------------------------


def _player(index: int, rules: CombatRules) -> Combatant:
    hp = rules.max_hp_for(1)
    return Combatant(id=f"p{index}", kind=Kind.PLAYER, name=f"Player {index}", hp=hp, max_hp=hp,
                     stats=Stats(stamina=1), weapons=(Weapon("Arming Sword", 6),), armor=3)


@pytest.mark.django_db
@pytest.mark.parametrize(("floor", "is_boss"), [(0, False), (2, False), (1, True), (5, True)])
def test_a_battle_against_an_encounter_runs_to_its_end(floor: int, is_boss: bool) -> None:
    # given
    rules = combat_rules_get()
    enemies = encounter_for_room(floor=floor, is_boss=is_boss, party_size=3, rng=random.Random(floor))
    players = tuple(_player(i, rules) for i in range(3))
    setup = BattleSetup(players=players, enemies=tuple(enemies), rules=rules)
    # when: every player attacks the first target it may
    state = start_battle(setup, seed=floor).state
    steps = 0
    while not state.over:
        attack = next(a for a in allowed_actions(state) if isinstance(a, AttackAction))
        state = act(state, attack).state
        steps += 1
        assert steps < 2000
    # then
    assert state.outcome in {Outcome.VICTORY, Outcome.DEFEAT, Outcome.DRAW}
    enemies_down = all(c.hp == 0 for c in state.enemies)
    assert enemies_down or all(c.hp == 0 for c in state.players) or state.round >= rules.max_rounds
