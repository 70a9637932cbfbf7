"""Seed 000's rules, sections 3-9 and 14, on hand-made worlds (3x3 open floors unless walls are named)."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine.grid import has_wall
from roguelike.engine import (
    Action,
    Bomb,
    Build,
    Building,
    Game,
    Go,
    Impossible,
    Item,
    Loot,
    Ride,
    Settings,
    Shoot,
    Side,
    Success,
    Take,
    Wait,
    generate,
    legal_actions,
    play,
)
from tests.roguelike.engine.worlds import D, L, R, U, archer, dragon, game, world


def turn(g: Game, action: Action) -> tuple[Game, list[dict[str, Any]]]:
    result = play(g, action)
    assert isinstance(result, Success), result
    return result.state, [e.to_json() for e in result.events]


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events]


def refused(g: Game, action: Action) -> str:
    result = play(g, action)
    assert isinstance(result, Impossible)
    assert action not in legal_actions(g)
    return result.code


# --- 3.1 GO ----------------------------------------------------------------------------------


def test_go_moves_one_cell_and_tells_the_cell_felt() -> None:
    g, events = turn(game(), Go(R))
    assert g.player.cell == (0, 1, 2) and g.turn == 1
    cell = next(e for e in events if e["kind"] == "cell")
    assert cell["RIGHT"] == "wall" and cell["LEFT"] == "space" and cell["building"] is None


def test_go_through_a_wall_or_off_the_labyrinth_is_refused_and_spends_no_turn() -> None:
    g = game(world(walls=[((0, 1, 1), U)]))
    assert refused(g, Go(U)) == "wall"
    assert refused(game(at=(0, 2, 2)), Go(D)) == "wall"


def test_walls_are_two_sided() -> None:
    w = world(walls=[((0, 1, 1), R)])
    assert refused(game(w, at=(0, 1, 2)), Go(L)) == "wall"
    assert refused(game(w, at=(0, 1, 1)), Go(R)) == "wall"


def test_going_out_of_the_exit_without_gold_changes_nothing() -> None:
    """Seed 3.1: "Вход на Выход без Золота: ничего не происходит, игрок остаётся на клетке" — the
    player is told and stays; no turn passes, so the dragon next door does not breathe (8.1)."""
    before = game(world(exit=((0, 0, 0), U)), at=(0, 0, 0), monsters=[dragon((0, 0, 1))])
    g, events = turn(before, Go(U))
    assert events == [{"kind": "exit_needs_gold"}]
    assert g == before and g.turn == 0 and g.player.health == 5 and not g.won


def test_going_out_of_the_exit_with_gold_wins_before_any_monster_acts() -> None:
    g = game(world(exit=((0, 0, 0), U)), at=(0, 0, 0), monsters=[dragon((0, 0, 0))], gold=True)
    g, events = turn(g, Go(U))
    assert g.won and g.over and kinds(events) == ["victory"] and g.player.health == 5
    assert legal_actions(g) == [] and refused(g, Go(U)) == "game_over"


# --- 3.2 SHOOT -------------------------------------------------------------------------------


def test_an_arrow_flies_straight_and_hits_only_the_first_monster() -> None:
    g = game(world(1, 5), at=(0, 0, 0), monsters=[archer((0, 0, 3), U, ident=1), dragon((0, 0, 2), ident=0)])
    g, events = turn(g, Shoot(R))
    assert g.player.arrows == 4
    assert [m.health for m in sorted(g.monsters, key=lambda m: m.ident)] == [4, 5]
    assert events[0] == {"kind": "monster_hit", "damage": 1}


def test_an_arrow_that_hits_a_monster_does_not_name_it_nor_its_loot() -> None:
    """Seed 13.2: "игрок узнаёт о драконе, когда входит на его клетку или получает урон от огненного
    дыхания"; "о лучнике, когда входит на его клетку". An arrow's hit two cells away says only that
    it hit and killed; the ring is learned of on entering its cell."""
    g = game(world(1, 4), at=(0, 0, 0), monsters=[dragon((0, 0, 2), health=2), archer((0, 0, 3), U)])
    g, events = turn(g, Shoot(R))
    g, events2 = turn(g, Shoot(R))
    assert events[0] == {"kind": "monster_hit", "damage": 1}
    assert events2[:2] == [{"kind": "monster_hit", "damage": 1}, {"kind": "monster_killed"}]
    g, _ = turn(g, Go(R))
    g, events3 = turn(g, Go(R))
    assert {"kind": "picked_up", "loot": "dragon_ring"} in events3


def test_an_arrow_stops_at_a_wall() -> None:
    g = game(world(1, 5, walls=[((0, 0, 1), R)]), at=(0, 0, 0), monsters=[dragon((0, 0, 3))])
    g, events = turn(g, Shoot(R))
    assert g.monsters[0].health == 5 and events[0]["kind"] == "arrow_hit_wall"


def test_an_arrow_does_not_hit_a_monster_on_the_shooters_own_cell() -> None:
    g = game(world(1, 3), at=(0, 0, 0), monsters=[archer((0, 0, 0), U)])
    g, events = turn(g, Shoot(R))
    assert g.monsters[0].health == 5 and events[0]["kind"] == "arrow_hit_wall"


def test_arrows_pass_portals_without_teleporting() -> None:
    g = game(world(1, 5, portals=[(0, 0, 1), (0, 0, 4)]), at=(0, 0, 0), monsters=[dragon((0, 0, 2))])
    g, _ = turn(g, Shoot(R))
    assert g.monsters[0].health == 4


def test_the_doublegun_multiplies_the_arrow_damage() -> None:
    g = game(world(1, 5), at=(0, 0, 0), monsters=[dragon((0, 0, 4))], items=[Item.DOUBLEGUN],
             settings=Settings(arrow_damage=2, doublegun_multiplier=3))
    g, events = turn(g, Shoot(R))
    assert g.monsters == () and events[0]["damage"] == 6


def test_without_arrows_shooting_is_refused() -> None:
    assert refused(game(arrows=0), Shoot(R)) == "no_arrows"


def test_a_killed_dragon_drops_a_ring_and_an_archer_a_bag() -> None:
    g = game(world(1, 5), at=(0, 0, 0),
             monsters=[dragon((0, 0, 3), health=1), archer((0, 0, 4), U, health=1)])
    g, events = turn(g, Shoot(R))
    g, events2 = turn(g, Shoot(R))
    assert g.monsters == ()
    assert set(g.ground) == {((0, 0, 3), Loot.DRAGON_RING), ((0, 0, 4), Loot.BAG)}
    assert events[1] == events2[1] == {"kind": "monster_killed"}   # the kind is not told at a distance


# --- 3.3 BOMB and 3.4 BUILD ------------------------------------------------------------------


def test_a_bomb_destroys_an_inner_wall_on_both_sides() -> None:
    g = game(world(walls=[((0, 1, 1), R)]))
    g, events = turn(g, Bomb(R))
    assert g.player.bombs == 1 and events[0]["kind"] == "wall_destroyed"
    assert not has_wall(g.world.maze, (0, 1, 2), L)
    g, _ = turn(g, Go(R))
    assert g.player.cell == (0, 1, 2)


@pytest.mark.parametrize("at, direction", [((0, 2, 2), D), ((0, 0, 0), U), ((0, 1, 1), R)],
                         ids=["outer wall", "exit", "passage"])
def test_a_bomb_on_an_outer_wall_the_exit_or_a_passage_does_nothing_but_is_spent(at: Any,
                                                                                  direction: Any) -> None:
    g = game(world(exit=((0, 0, 0), U)), at=at)
    after, events = turn(g, Bomb(direction))
    assert after.player.bombs == 1 and events[0]["kind"] == "bomb_no_effect"
    assert after.world.maze == g.world.maze


def test_without_bombs_bombing_is_refused() -> None:
    assert refused(game(bombs=0), Bomb(R)) == "no_bombs"


def test_cement_builds_a_wall_on_a_passage_and_goes_back_to_the_arsenal() -> None:
    g = game(items=[Item.CEMENT], stock=[Item.ARMOR])
    g, events = turn(g, Build(R))
    assert has_wall(g.world.maze, (0, 1, 1), R) and has_wall(g.world.maze, (0, 1, 2), L)
    assert g.player.items == () and sorted(i.value for i in g.stock) == ["armor", "cement"]
    assert events[0] == {"kind": "wall_built", "direction": "RIGHT"}


def test_building_needs_cement_a_passage_and_never_walls_the_exit() -> None:
    assert refused(game(), Build(R)) == "no_cement"
    assert refused(game(world(walls=[((0, 1, 1), R)]), items=[Item.CEMENT]), Build(R)) == "not_a_passage"
    assert refused(game(at=(0, 0, 0), items=[Item.CEMENT]), Build(U)) == "exit_not_buildable"
    assert refused(game(at=(0, 2, 2), items=[Item.CEMENT]), Build(D)) == "not_a_passage"


# --- 4 items ---------------------------------------------------------------------------------


def test_gold_a_ring_and_bags_are_picked_up_on_entering() -> None:
    here = (0, 1, 2)
    g = game(ground=[(here, Loot.GOLD), (here, Loot.DRAGON_RING), (here, Loot.BAG), (here, Loot.BAG)],
             health=3)
    g, events = turn(g, Go(R))
    p = g.player
    assert p.gold and p.rings == 1 and p.max_health == 6 and p.health == 4 and p.bags == 2 and p.slots == 3
    assert g.ground == () and kinds(events).count("picked_up") == 4


def test_the_arsenal_item_choice_takes_a_slot_and_stops_at_the_slots() -> None:
    g = game(world(buildings={(0, 1, 1): Building.ARSENAL}))
    assert {a for a in legal_actions(g) if isinstance(a, Take)} == {Take(i) for i in Item}
    g, events = turn(g, Take(Item.ARMOR))
    assert g.player.items == (Item.ARMOR,) and Item.ARMOR not in g.stock
    assert events[0] == {"kind": "item_taken", "item": "armor"}
    assert refused(g, Take(Item.CEMENT)) == "no_free_slot"
    assert refused(game(), Take(Item.ARMOR)) == "not_in_arsenal"


def test_several_copies_of_an_item_can_be_taken_with_free_slots() -> None:
    g = game(world(buildings={(0, 1, 1): Building.ARSENAL}), stock=[Item.ARMOR, Item.ARMOR], slots=2)
    g, _ = turn(g, Take(Item.ARMOR))
    g, _ = turn(g, Take(Item.ARMOR))
    assert g.player.items == (Item.ARMOR, Item.ARMOR) and g.stock == ()
    assert refused(game(world(buildings={(0, 1, 1): Building.ARSENAL}), stock=[], slots=2),
                   Take(Item.ARMOR)) == "item_not_in_arsenal"


def test_armor_absorbs_one_source_and_the_rest_hits() -> None:
    g = game(monsters=[dragon((0, 1, 2), ident=0), dragon((0, 0, 1), ident=1)],
             items=[Item.ARMOR, Item.DOUBLEGUN],
             slots=2, stock=[])
    g, events = turn(g, Shoot(D))
    assert kinds(events)[1:] == ["armor_absorbed", "damage", "items_lost"]
    assert g.player.health == 4 and g.player.items == ()
    assert sorted(i.value for i in g.stock) == ["armor", "doublegun"]


def test_an_unprotected_hit_drops_every_arsenal_item_but_never_the_gold() -> None:
    g = game(monsters=[dragon((0, 1, 2))], items=[Item.MINE_DETECTOR, Item.CEMENT], slots=2, gold=True,
             stock=[])
    g, events = turn(g, Shoot(U))
    assert g.player.gold and g.player.items == ()
    assert events[-1] == {"kind": "items_lost", "items": ["mine_detector", "cement"]}
    assert sorted(i.value for i in g.stock) == ["cement", "mine_detector"]


def test_items_lost_are_in_the_arsenal_again() -> None:
    g = game(world(buildings={(0, 1, 1): Building.ARSENAL}), stock=[], items=[Item.ARMOR],
             monsters=[dragon((0, 1, 2)), dragon((0, 1, 0), ident=2)])
    g, _ = turn(g, Shoot(U))
    assert Take(Item.ARMOR) in legal_actions(g)


# --- 5 buildings -----------------------------------------------------------------------------


def test_the_arsenal_refills_arrows_and_bombs_on_entering() -> None:
    g = game(world(buildings={(0, 1, 2): Building.ARSENAL}), arrows=1, bombs=0)
    g, events = turn(g, Go(R))
    assert (g.player.arrows, g.player.bombs) == (5, 2)
    assert {"kind": "rearmed", "arrows": 5, "bombs": 2} in events
    assert {"kind": "arsenal_stock", "items": ["armor", "cement", "doublegun", "mine_detector"]} in events


def test_the_hospital_heals_to_the_maximum() -> None:
    g = game(world(buildings={(0, 1, 2): Building.HOSPITAL}), health=1, max_health=7)
    g, _ = turn(g, Go(R))
    assert g.player.health == 7


def test_portals_form_a_ring_across_floors_without_chains() -> None:
    ring = [(0, 1, 2), (1, 0, 0), (2, 2, 2)]
    w = world(floors=3, portals=ring, graveyard=(0, 2, 0))
    g, events = turn(game(w), Go(R))
    assert g.player.cell == (1, 0, 0) and "teleported" in kinds(events)
    g, _ = turn(g, Go(R))
    g, _ = turn(g, Go(L))
    assert g.player.cell == (2, 2, 2)
    g, _ = turn(g, Go(L))
    g, _ = turn(g, Go(R))
    assert g.player.cell == (0, 1, 2)


def test_a_portal_arrival_picks_up_what_lies_there() -> None:
    w = world(portals=[(0, 1, 2), (0, 2, 2)])
    g, _ = turn(game(w, ground=[((0, 2, 2), Loot.GOLD)]), Go(R))
    assert g.player.cell == (0, 2, 2) and g.player.gold


def test_mines_hurt_every_time_unless_a_mine_detector_is_carried() -> None:
    w = world(buildings={(0, 1, 2): Building.MINES})
    g, events = turn(game(w, settings=Settings(mine_damage=2)), Go(R))
    assert g.player.health == 3 and "mine_exploded" in kinds(events)
    g, _ = turn(g, Go(L))
    g, _ = turn(g, Go(R))
    assert g.player.health == 1
    g, events = turn(game(w, items=[Item.MINE_DETECTOR, Item.ARMOR], slots=2), Go(R))
    assert g.player.health == 5 and g.player.items == (Item.MINE_DETECTOR, Item.ARMOR)
    assert "mine_detected" in kinds(events)


def test_mines_without_a_detector_are_stopped_by_armor() -> None:
    g, events = turn(game(world(buildings={(0, 1, 2): Building.MINES}), items=[Item.ARMOR]), Go(R))
    assert g.player.health == 5 and g.player.items == () and "armor_absorbed" in kinds(events)


def test_the_lift_offers_every_other_floor_and_keeps_the_column() -> None:
    shaft = {(f, 1, 2): Building.LIFT for f in range(3)}
    g, events = turn(game(world(floors=3, buildings=shaft)), Go(R))
    assert {"kind": "lift_buttons", "floor": 0, "floors": 3} in events
    assert [a for a in legal_actions(g) if isinstance(a, Ride)] == [Ride(1), Ride(2)]
    g, _ = turn(g, Ride(2))
    assert g.player.cell == (2, 1, 2)
    assert refused(g, Ride(2)) == "same_floor" and refused(g, Ride(3)) == "no_such_floor"
    assert refused(game(), Ride(1)) == "not_in_lift"


def test_death_respawns_at_the_graveyard_with_the_parameters_share_of_health_and_the_gold() -> None:
    w = world(graveyard=(0, 2, 2))
    g = game(w, monsters=[dragon((0, 1, 2))], health=1, max_health=6, gold=True, rings=1,
             settings=Settings(respawn_health_percent=50))
    g, events = turn(g, Shoot(U))
    assert g.player.cell == (0, 2, 2) and g.player.health == 3 and g.player.gold and g.player.rings == 1
    assert g.player.deaths == 1 and not g.over
    assert kinds(events)[1:4] == ["damage", "died", "respawned"]


def test_respawn_health_is_at_least_one() -> None:
    g = game(monsters=[dragon((0, 1, 2))], health=1, max_health=1,
             settings=Settings(respawn_health_percent=1))
    g, _ = turn(g, Shoot(U))
    assert g.player.health == 1


# --- 6 monsters ------------------------------------------------------------------------------


def test_dragon_fire_reaches_its_cell_and_the_four_neighbours_but_not_through_walls_or_further() -> None:
    w = world(5, 5, walls=[((0, 2, 2), L)], exit=((0, 0, 0), U))
    fire = {(0, 2, 2), (0, 1, 2), (0, 3, 2), (0, 2, 3)}
    for r in range(5):
        for c in range(5):
            g, _ = turn(game(w, at=(0, r, c), monsters=[dragon((0, 2, 2))]), Shoot(U))
            assert (g.player.health == 4) == ((0, r, c) in fire), (r, c)


def test_entering_a_dragons_cell_burns_and_discovers_it() -> None:
    g, events = turn(game(world(1, 3), at=(0, 0, 0), monsters=[dragon((0, 0, 2))]), Go(R))
    assert g.player.health == 4
    g, events = turn(g, Go(R))
    assert "dragon_discovered" in kinds(events) and g.player.health == 3


def test_an_archer_shoots_its_direction_any_distance_until_a_wall() -> None:
    w = world(1, 6, walls=[((0, 0, 4), R)])
    for col, hit in [(1, True), (4, True), (0, False), (5, False)]:
        g, _ = turn(game(w, at=(0, 0, col), monsters=[archer((0, 0, 0), R)], arrows=5), Shoot(U))
        assert (g.player.health == 4) == hit, col


def test_an_archer_is_discovered_with_its_direction_on_its_cell() -> None:
    _g, events = turn(game(world(1, 3), at=(0, 0, 0), monsters=[archer((0, 0, 1), D)]), Go(R))
    assert {"kind": "archer_discovered", "facing": "DOWN"} in events


def test_monsters_never_hurt_each_other_and_every_source_hits() -> None:
    g = game(world(1, 4), at=(0, 0, 3), monsters=[archer((0, 0, 0), R, ident=1), dragon((0, 0, 2), ident=0)],
             settings=Settings(dragon_damage=2, archer_damage=1))
    g, events = turn(g, Bomb(D))
    assert [m.health for m in g.monsters] == [5, 5]
    assert g.player.health == 2
    assert [e["source"] for e in events if e["kind"] == "damage"] == ["dragon", "archer"]


def test_once_dead_the_rest_of_the_attacks_miss() -> None:
    g = game(world(1, 4, graveyard=(0, 0, 1)), at=(0, 0, 3), health=1,
             monsters=[archer((0, 0, 0), R, ident=1), dragon((0, 0, 3), ident=0)])
    g, events = turn(g, Bomb(D))
    assert g.player.cell == (0, 0, 1) and kinds(events).count("damage") == 1 and g.player.health == 4


# --- 8 and 9: the turn, victory and defeat ---------------------------------------------------


@pytest.mark.parametrize("action", [Go(R), Shoot(L), Bomb(U), Build(L)])
def test_every_action_that_takes_a_turn_ends_with_the_monsters_attacking(action: Action) -> None:
    w = world(buildings={(0, 1, 1): Building.ARSENAL})
    g, events = turn(game(w, monsters=[dragon((0, 1, 2))], items=[Item.CEMENT]), action)
    assert "damage" in kinds(events) and g.player.health == 4 and g.turn == 1


def test_choosing_an_arsenal_item_takes_no_turn_and_the_monsters_do_not_act() -> None:
    """Seed 8.1: a turn is "Выбор действия (GO / SHOOT / BOMB / BUILD)", then the monsters' phase;
    an item is chosen "в здании Арсенала через кнопки интерфейса" (4.2, 4.3), which is no such
    action. So the dragon next door does not breathe and the turn counter stays."""
    w = world(buildings={(0, 1, 1): Building.ARSENAL})
    g = game(w, monsters=[dragon((0, 1, 2))], slots=2)
    g, events = turn(g, Take(Item.ARMOR))
    g, events2 = turn(g, Take(Item.DOUBLEGUN))
    assert events == [{"kind": "item_taken", "item": "armor"}]
    assert events2 == [{"kind": "item_taken", "item": "doublegun"}]
    assert g.player.health == 5 and g.player.items == (Item.ARMOR, Item.DOUBLEGUN) and g.turn == 0
    g, events = turn(g, Shoot(L))                          # the next real turn: the dragon breathes
    assert "armor_absorbed" in kinds(events) and g.turn == 1


def test_riding_the_lift_takes_no_turn_and_the_monsters_do_not_act() -> None:
    """Seed 5.5: "Перемещение между этажами мгновенное", and 8.1's turn is GO / SHOOT / BOMB / BUILD:
    a ride is answered at once (the new floor's lift cell, its buttons, what lies there), with no
    monster phase, even with dragons by the shaft on both floors."""
    shaft = {(f, 1, 1): Building.LIFT for f in range(2)}
    g = game(world(floors=2, buildings=shaft), monsters=[dragon((0, 1, 2)), dragon((1, 0, 1), ident=2)],
             ground=[((1, 1, 1), Loot.GOLD)])
    g, events = turn(g, Ride(1))
    assert g.player.cell == (1, 1, 1) and g.player.gold and g.player.health == 5 and g.turn == 0
    assert kinds(events) == ["lift_moved", "cell", "lift_buttons", "picked_up"]
    g, events = turn(g, Shoot(D))                          # the next real turn: the dragon breathes
    assert kinds(events) == ["arrow_hit_wall", "damage"] and g.turn == 1


def test_wait_is_offered_when_no_action_that_takes_a_turn_is_left() -> None:
    """Seed 8.2: a turn cannot be skipped; but walled in (one's own cement), out of arrows and bombs,
    with only arsenal buttons or a goldless exit left, no action takes a turn (8.1, 3.1): WAIT lets the
    monsters act, which may end the soft lock (9.2) by a respawn."""
    walls = [((0, 1, 1), d) for d in (U, L, D, R)]
    w = world(walls=walls, buildings={(0, 1, 1): Building.ARSENAL}, graveyard=(0, 2, 2))
    g = game(w, arrows=0, bombs=0, health=1, monsters=[dragon((0, 1, 1))])
    assert set(legal_actions(g)) == {*(Take(item) for item in Item), Wait()}
    g, events = turn(g, Wait())
    assert kinds(events) == ["waited", "damage", "died", "respawned", "cell"] and g.turn == 1
    gate = [((0, 0, 0), D), ((0, 0, 0), R)]                # the corner: outer walls up (the exit) and left
    g = game(world(walls=gate, exit=((0, 0, 0), U)), at=(0, 0, 0), arrows=0, bombs=0)
    assert legal_actions(g) == [Go(U), Wait()]
    assert refused(game(), Wait()) == "must_act"


def test_the_death_limit_makes_defeat_possible() -> None:
    g = game(monsters=[dragon((0, 1, 2))], health=1, settings=Settings(death_limit=2), deaths=1)
    g, events = turn(g, Shoot(U))
    assert g.lost and g.over and kinds(events)[-1] == "defeat" and legal_actions(g) == []


def test_with_no_death_limit_the_player_always_respawns() -> None:
    g = game(monsters=[dragon((0, 1, 2))], health=1, deaths=99)
    g, _ = turn(g, Shoot(U))
    assert not g.over and g.player.deaths == 100


def test_a_mine_death_picks_up_nothing_and_the_monsters_aim_at_the_graveyard() -> None:
    w = world(buildings={(0, 1, 2): Building.MINES}, graveyard=(0, 0, 0))
    g = game(w, health=1, ground=[((0, 1, 2), Loot.GOLD)], monsters=[dragon((0, 2, 2))])
    g, events = turn(g, Go(R))
    assert g.player.cell == (0, 0, 0) and not g.player.gold and g.player.health == 4
    assert "damage" not in kinds(events)[kinds(events).index("respawned"):]


MONSTER_WORDS = {"dragon", "archer", "dragon_ring", "bag"}
TOLD_OF_MONSTERS = {"dragon_discovered", "archer_discovered", "damage", "armor_absorbed", "picked_up"}
"""The events that may name a monster or its loot: on its cell, by its attack, or what lies underfoot."""


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), floors=st.integers(1, 3),
       picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=150))
def test_only_turn_actions_let_the_monsters_act_and_no_event_names_a_monster_from_afar(
        seed: int, floors: int, picks: list[int]) -> None:
    """Seed 8.1 (a turn is GO / SHOOT / BOMB / BUILD, then the monsters), 3.1 (the exit without the
    gold: nothing happens) and 13.2 (a monster is learned of on its cell or by its attack), over
    random legal play on generated worlds."""
    g = generate(Settings(floors=floors, dragon_count=3, archer_count=3, arsenal_count=1), seed)
    for pick in picks:
        actions = legal_actions(g)
        if not actions:
            break
        action = actions[pick % len(actions)]
        here = g.world.side(g.player.cell, action.direction) if isinstance(action, Go) else None
        takes_a_turn = isinstance(action, (Shoot, Bomb, Build, Wait)) or (
            isinstance(action, Go) and (g.player.gold or here is not Side.EXIT))
        before, (g, events) = g, turn(g, action)
        assert g.turn == before.turn + takes_a_turn, action
        if not takes_a_turn:
            assert not {"damage", "armor_absorbed"} & set(kinds(events)) and g.monsters == before.monsters
        for e in events:
            if e["kind"] not in TOLD_OF_MONSTERS:
                assert not MONSTER_WORDS & {v for v in e.values() if isinstance(v, str)}, e
