"""The map validator: the summary's test case 31 (each rejection), the other mandatory rules of C§8,
C§4.4-4.5 and Q§1.4, and the recommendations as warnings."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine.grid import Direction
from paper_labyrinth.engine import CellType, Outer, parse_paper_map, validate_paper_map
from paper_labyrinth.engine.examples import CUT_CORNERS, EXAMPLES, SMALL_CLASSIC

BOTH = ["classic", "quantum"]
W = frozenset


def rules(m, variant="classic", **kw):
    result = validate_paper_map(m, variant, **kw)
    return {f.rule: f for f in result.errors}


def messages(m, rule, variant="classic"):
    """Every error of one rule: (cells, message)."""
    return [(f.cells, f.message) for f in validate_paper_map(m, variant).errors if f.rule == rule]


def warnings(m, variant="classic", **kw):
    return {f.rule: f for f in validate_paper_map(m, variant, **kw).warnings}


@pytest.mark.parametrize("variant", BOTH)
@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_examples_pass_with_no_warning(name, variant):
    result = validate_paper_map(EXAMPLES[name], variant, players=2)
    assert result.ok and result.errors == () and result.warnings == ()


# -- test case 31: each rejection ---------------------------------------------------------------------


@pytest.mark.parametrize("variant", BOTH)
def test_31_no_true_treasure(variant):
    m = replace(SMALL_CLASSIC, treasures={(1, 3): (False,), (2, 2): (False,)})
    found = rules(m, variant)
    assert set(found) == {variant[0].upper() + "8.3"}
    assert "exactly one true treasure" in found[variant[0].upper() + "8.3"].message


def test_31_two_true_treasures_named_with_their_cells():
    m = replace(SMALL_CLASSIC, treasures={(1, 3): (True,), (2, 2): (True,)})
    finding = rules(m)["C8.3"]
    assert finding.cells == ((1, 3), (2, 2)) and "has 2" in finding.message


def test_31_two_true_treasures_in_one_stack():
    m = replace(SMALL_CLASSIC, treasures={(2, 2): (True, True)})
    assert rules(m)["C8.3"].cells == ((2, 2),)


def test_31_the_true_treasure_not_on_land():
    m = replace(SMALL_CLASSIC, treasures={(1, 2): (True,)})  # (1, 2) is an arsenal
    finding = rules(m)["C8.3"]
    assert finding.cells == ((1, 2),) and "only be placed on land" in finding.message
    assert set(rules(m)) == {"C8.3"}


@pytest.mark.parametrize("variant", BOTH)
def test_31_fewer_than_two_exits(variant):
    m = replace(SMALL_CLASSIC, outer={((2, 0), Direction.LEFT): Outer.OPEN_EXIT})
    found = rules(m, variant)
    assert set(found) == {variant[0].upper() + "8.4"}
    assert found[variant[0].upper() + "8.4"].cells == ((2, 0),)


RIVER_CYCLE = parse_paper_map("""\
map 3 3
 _ _ _
|Р>Р С|
 ^ v
|Р<Р У|

|С А М|
 o _ x
treasure (2,0) true
""")


def test_31_a_river_cycle():
    assert (
        ((0, 0), (0, 1), (1, 0), (1, 1)),
        "a river may not flow in a cycle: the flow always ends at a mouth",
    ) in messages(RIVER_CYCLE, "C4.5")


def test_31_a_wall_across_a_flow():
    m = replace(SMALL_CLASSIC, walls=SMALL_CLASSIC.walls | {W(((0, 0), (0, 1)))})
    finding = rules(m)["C4.5"]
    assert finding.cells == ((0, 0), (0, 1)) and "no wall may lie across a river flow" in finding.message
    assert set(rules(m)) == {"C4.5"}


def test_31_two_mouths_in_one_system():
    m = replace(
        SMALL_CLASSIC,
        cells={**SMALL_CLASSIC.cells, (0, 3): CellType.MOUTH},
        flow={**SMALL_CLASSIC.flow, (0, 2): (0, 3)},
    )
    messages = [f.message for f in validate_paper_map(m).errors if f.rule == "C4.5"]
    assert any("two mouths in one system" in text for text in messages)
    assert any("exactly one mouth, this one has 2" in text for text in messages)


@pytest.mark.parametrize("variant", BOTH)
def test_31_a_hole_cycle_of_one(variant):
    m = replace(SMALL_CLASSIC, holes=(((1, 0),), ((2, 4), (3, 0))))
    finding = rules(m, variant)[variant[0].upper() + "4.4"]
    assert finding.cells == ((1, 0),) and "N > 1" in finding.message


@pytest.mark.parametrize("variant", BOTH)
def test_31_a_cell_unreachable_without_grenades(variant):
    walled = SMALL_CLASSIC.walls | {W(((3, 4), (2, 4))), W(((3, 4), (3, 3)))}  # land fully walled in
    found = rules(replace(SMALL_CLASSIC, walls=walled), variant)
    assert set(found) == {variant[0].upper() + "8.5"}
    errors = [f for f in validate_paper_map(replace(SMALL_CLASSIC, walls=walled), variant).errors]
    assert ((3, 4),) in [f.cells for f in errors]  # nobody gets in ...
    assert any(f.cells != ((3, 4),) and "from 1 cell(s): (3,4)" in f.message for f in errors)  # ... nor out


def test_31_classic_an_exit_next_to_a_source():
    m = replace(SMALL_CLASSIC, outer={**SMALL_CLASSIC.outer, ((0, 0), Direction.UP): Outer.OPEN_EXIT})
    finding = rules(m)["C8.4"]
    assert finding.cells == ((0, 0),) and "source" in finding.message
    assert rules(m, "quantum") == {}  # the quantum code drops the rule


# -- the other mandatory rules ------------------------------------------------------------------------


def test_every_kind_needed_at_least_once():
    m = replace(
        SMALL_CLASSIC,
        cells={
            p: (CellType.LAND if t in (CellType.ARSENAL, CellType.HOSPITAL) else t)
            for p, t in SMALL_CLASSIC.cells.items()
        },
    )
    finding = rules(m)["C8.2"]
    assert "no arsenal, no hospital" in finding.message


@pytest.mark.parametrize("variant", BOTH)
def test_an_open_exit_at_the_start(variant):
    m = replace(SMALL_CLASSIC, outer={key: Outer.CLOSED_EXIT for key in SMALL_CLASSIC.outer})
    if variant == "quantum":
        assert set(rules(m, variant)) == {"Q1.4"}
    else:
        assert rules(m, variant) == {}
        assert "C8.4" in warnings(m, variant)  # "often" a rule in the classic game


def test_holes_only_on_hole_cells_and_each_in_exactly_one_cycle():
    not_a_hole = replace(SMALL_CLASSIC, holes=(((1, 0), (2, 4), (3, 0), (1, 1)),))
    assert rules(not_a_hole)["C4.4"].cells == ((1, 1),)
    twice = replace(SMALL_CLASSIC, holes=(((1, 0), (2, 4), (3, 0)), ((2, 4), (3, 0))))
    assert "exactly one cycle" in rules(twice)["C4.4"].message
    lonely = replace(SMALL_CLASSIC, holes=(((1, 0), (2, 4)),))
    finding = rules(lonely)["C4.4"]
    assert finding.cells == ((3, 0),) and "belongs to a hole cycle" in finding.message


def test_river_structure():
    no_flow = replace(
        SMALL_CLASSIC, flow={(0, 1): (0, 2)}, cells={**SMALL_CLASSIC.cells, (0, 0): CellType.RIVER}
    )
    assert rules(no_flow)["C4.5"].cells == ((0, 0),)
    far = replace(SMALL_CLASSIC, flow={(0, 0): (0, 2), (0, 1): (0, 2)})
    assert "neighbouring cell" in rules(far)["C4.5"].message
    into_land = replace(SMALL_CLASSIC, flow={(0, 0): (1, 0), (0, 1): (0, 2)})
    assert (((0, 0), (1, 0)), "a river flows into a river cell or the mouth of its system") in messages(
        into_land, "C4.5"
    )
    from_land = replace(SMALL_CLASSIC, flow={**SMALL_CLASSIC.flow, (1, 1): (0, 1)})
    assert "only river cells have a flow" in rules(from_land)["C4.5"].message
    lone_mouth = replace(SMALL_CLASSIC, cells={**SMALL_CLASSIC.cells, (3, 4): CellType.MOUTH})
    assert rules(lone_mouth)["C4.5"].cells == ((3, 4),)


def test_branches_may_merge():
    assert rules(CUT_CORNERS) == {}
    assert len([p for p, q in CUT_CORNERS.flow.items() if q == (0, 2)]) == 2


def test_a_mouth_closed_in_by_inflowing_rivers_and_walls_is_unreachable_to_leave():
    m = parse_paper_map("""\
map 3 3
 _ _ _
|Р>У<Р|
   _
|С А М|

|С С С|
 o _ x
treasure (2,1) true
""")
    finding = next(f for f in validate_paper_map(m).errors if f.rule == "C8.5")
    assert "(0,1)" in finding.message  # from the mouth, every step drifts back


def test_quantum_a_source_flowing_straight_into_its_mouth_is_unreachable():
    m = parse_paper_map("""\
map 3 3
 _ _ _
|Р>У С|

|С А М|

|С С С|
 o _ x
treasure (2,1) true
""")
    assert rules(m, "classic") == {}  # a deep-river source is exempt (C§8.5)
    assert set(rules(m, "quantum")) == {"Q8.5"}
    assert rules(m, "quantum")["Q8.5"].cells == ((0, 0),)
    assert rules(m, "quantum", river_mode="deep") == {}  # quantum with deep rivers (Q§7.4)


def test_structure_errors():
    bad_wall = replace(SMALL_CLASSIC, walls=SMALL_CLASSIC.walls | {W(((0, 0), (2, 2)))})
    assert "C1.4" in rules(bad_wall)
    inner_exit = replace(
        SMALL_CLASSIC, outer={**SMALL_CLASSIC.outer, ((1, 1), Direction.UP): Outer.OPEN_EXIT}
    )
    assert rules(inner_exit)["C1.4"].cells == ((1, 1),)
    off = replace(SMALL_CLASSIC, cells={**SMALL_CLASSIC.cells, (7, 7): CellType.LAND})
    assert rules(off)["C8.1"].cells == ((7, 7),)
    assert "C1.4" in rules(replace(SMALL_CLASSIC, bullets={(0, 0): -2}))
    assert "C1.4" in rules(replace(SMALL_CLASSIC, treasures={**SMALL_CLASSIC.treasures, (9, 9): (False,)}))
    assert rules(replace(SMALL_CLASSIC, cells={}))["C8.1"]


def test_findings_print_rule_message_and_cells():
    m = replace(SMALL_CLASSIC, treasures={(1, 2): (True,)})
    assert (
        str(validate_paper_map(m).errors[0]) == "C8.3: the true treasure may only be placed on land [(1,2)]"
    )


def test_unknown_variant():
    with pytest.raises(ValueError, match="classic or quantum"):
        validate_paper_map(SMALL_CLASSIC, "paper")


# -- recommendations (warnings) -------------------------------------------------------------------


def test_warning_two_arsenals_and_two_hospitals():
    m = replace(SMALL_CLASSIC, cells={**SMALL_CLASSIC.cells, (3, 2): CellType.LAND})
    assert "C8.а" in warnings(m) and "Q8.а" in warnings(m, "quantum")
    assert validate_paper_map(m).ok


def test_warning_hospital_next_to_arsenal_classic_only():
    m = replace(SMALL_CLASSIC, cells={**SMALL_CLASSIC.cells, (3, 1): CellType.HOSPITAL})
    assert warnings(m)["C8.б"].cells == ((3, 1), (3, 2))
    assert set(warnings(m, "quantum")) == set()


@pytest.mark.parametrize(
    ("stacks", "players", "warned"),
    [
        ({(2, 2): (True,)}, 3, True),  # no false treasure
        ({(2, 2): (True,), (1, 3): (False, False, False)}, 2, True),  # more false ones than players
        ({(2, 2): (True,), (1, 3): (False, False, False)}, 3, False),
        ({(2, 2): (True,), (1, 3): (False,) * 6}, None, True),  # more than 5 with no player count
    ],
)
def test_warning_false_treasures(stacks, players, warned):
    m = replace(SMALL_CLASSIC, treasures=stacks)
    assert ("C8.в" in warnings(m, players=players)) is warned
    assert ("Q8.б" in warnings(m, "quantum", players=players)) is warned


def test_warning_attractors():
    one_way = replace(SMALL_CLASSIC, walls=SMALL_CLASSIC.walls | {W(((0, 2), (1, 2)))})
    assert warnings(one_way)["C8.г"].cells == ((0, 1), (0, 2))
    side_by_side = parse_paper_map("""\
map 3 4
 _ _ _ _
|Р>У У<Р|

|С А М С|

|М С С А|
 o _ _ x
treasure (1,1) false
treasure (2,2) true
""")
    assert any(
        f.rule == "C8.г" and f.cells == ((0, 1), (0, 2)) for f in validate_paper_map(side_by_side).warnings
    )


def test_warning_rivers_holes_and_encephalitis_along_the_outer_wall():
    m = replace(SMALL_CLASSIC, cells={**SMALL_CLASSIC.cells, (1, 1): CellType.ENCEPHALITIS})
    assert warnings(m)["C8.д"].cells == ((1, 1),)


def test_warning_treasure_next_to_an_exit():
    m = replace(SMALL_CLASSIC, treasures={(2, 2): (True,), (2, 0): (False,)})
    assert warnings(m)["C8.е"].cells == ((2, 0),)
    assert warnings(m, "quantum")["Q8.в"].cells == ((2, 0),)


def test_warning_items_on_a_deep_source_are_lost():
    m = replace(SMALL_CLASSIC, bullets={(0, 0): 1})
    assert warnings(m)["C4.6"].cells == ((0, 0),)
    assert "Q4.6" not in warnings(m, "quantum")


def test_warning_quantum_mines_on_land_and_arsenals():
    m = replace(SMALL_CLASSIC, mines={(1, 4): 1})  # a hospital
    assert warnings(m, "quantum")["Q5.7"].cells == ((1, 4),)
    assert "C5.7" not in warnings(m)


# -- properties ---------------------------------------------------------------------------------


@settings(max_examples=60)
@given(st.integers(0, 10**6), st.sampled_from(BOTH))
def test_the_validator_never_crashes_on_damaged_maps(seed, variant):
    """Random damage to a valid map: the validator answers (no exception) and names cells on the map."""
    rnd = random.Random(seed)
    m = SMALL_CLASSIC
    cells = dict(m.cells)
    for p in rnd.sample(sorted(cells), 3):
        cells[p] = rnd.choice(list(CellType))
    walls = set(m.walls)
    for _ in range(rnd.randint(0, 6)):
        a = rnd.choice(sorted(cells))
        b = (a[0] + rnd.choice((0, 1)), a[1] + rnd.choice((0, 1)))
        if b in cells and b != a:
            walls.add(W((a, b)))
    damaged = replace(m, cells=cells, walls=frozenset(walls))
    result = validate_paper_map(damaged, variant)
    for finding in result.errors + result.warnings:
        assert all(p in damaged.cells for p in finding.cells)
        assert finding.rule[0] == variant[0].upper()
