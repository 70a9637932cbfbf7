"""The worked cases 1-30 and 32 of seed 002's English summary (its section 7, not in the repository), one
test each: each test sets up its case's position and asserts the answer (docs/paper-labyrinth.md, "Tests").

Case 31 (the map validator) is tested with the maps (tests/paper_labyrinth/engine/test_map_*.py).
"""
from __future__ import annotations

from paper_labyrinth.engine.model import Outer
from paper_labyrinth.engine.requests import (
    Condition,
    Conditional,
    Cycle,
    Downstream,
    Grenade,
    Item,
    Move,
    PlaceMine,
    Reorder,
    Shoot,
    Skip,
    Status,
    Throw,
    Visibility,
)
from paper_labyrinth.engine.rules import apply, outcome, timeout, whose_turn
from paper_labyrinth.engine.state import Corpse, Slot
from tests.paper_labyrinth.engine.rules_boards import (
    DOWN,
    H1,
    H2,
    H3,
    HOLES,
    LEFT,
    R1,
    R2,
    RIGHT,
    RIVER,
    ROW4,
    UP,
    U,
    answered,
    board,
    carry,
    codes,
    ended,
    game,
    play,
    put,
    refusal,
    text,
)


def test_case_01_hole_cycle_moves_on_and_only_the_destination_counts() -> None:
    s = game(board(HOLES), [(0, 1), (1, 0)])
    put(s, H3, bullets=2, armed=1)
    put(s, H1, grenades=1)
    carry(s, 0, grenades=2)
    s2, msgs = play(s, 0, Move(DOWN))   # land (0,1) down into Я3
    p = s2.players[0]
    assert p.pos == H1
    assert p.health == "healthy"                 # the mine on Я3 did not go off
    assert s2.piles[H3].armed == 1 and s2.piles[H3].bullets == 2
    assert p.grenades == 3 and H1 not in s2.piles    # picked up Я1's grenade only
    assert codes(msgs)[:2] == ["moved", "found"] and "Яму" in msgs[0].text


def test_case_02_hole_wall_bump_stays_cycle_move_and_cycle_from_land() -> None:
    s = game(board(HOLES), [H2, H3, (1, 0)])
    s, msgs = play(s, 0, Move(UP))
    assert s.players[0].pos == H2 and codes(msgs) == ["wall"]
    s, msgs = play(s, 1, Cycle())
    assert s.players[1].pos == H1 and codes(msgs) == ["cycle"]
    s, msgs = play(s, 2, Cycle())                # from land: the game master says no, the turn is used
    assert s.players[2].pos == (1, 0) and codes(msgs) == ["no_hole"]
    assert whose_turn(s) == 0


def test_case_03_deep_river_drift_and_upstream_returns() -> None:
    s = game(board(RIVER), [(1, 0), R2])
    s, msgs = play(s, 0, Move(UP))
    assert s.players[0].pos == R2 and msgs[0].code == "drifted" and "снесло по течению" in msgs[0].text
    s, msgs = play(s, 1, Move(LEFT))             # upstream into R1: drifts back
    assert s.players[1].pos == R2 and msgs[0].text == "Попал в Реку, снесло по течению"


def test_case_04_with_the_flow_covers_two_cells_downstream_move_one() -> None:
    s = game(board(RIVER), [R1, R1, U])
    s, msgs = play(s, 0, Move(RIGHT))
    assert s.players[0].pos == U and "снесло в Устье" in msgs[0].text
    s, msgs = play(s, 1, Downstream())
    assert s.players[1].pos == R2 and msgs[0].code == "downstream"
    s, msgs = play(s, 2, Downstream())           # from the mouth: no current
    assert s.players[2].pos == U and codes(msgs) == ["no_river"]


def test_case_05_wall_bump_in_a_river_still_drifts() -> None:
    s = game(board(RIVER), [R1, (1, 2)])
    s, msgs = play(s, 0, Move(UP))
    assert s.players[0].pos == R2
    assert msgs[0].code == "wall" and msgs[0].text.startswith("Туда нельзя, стенка, снесло по течению")


def test_case_06_from_the_mouth_toward_the_inflow() -> None:
    s = game(board(RIVER), [U, (1, 2)])
    s, msgs = play(s, 0, Move(LEFT))
    assert s.players[0].pos == U and msgs[0].text == "Попал в Реку, снесло в Устье"
    q = game(board(RIVER), [U, (1, 2)], "quantum")
    q, msgs = play(q, 0, Move(LEFT))
    assert q.players[0].pos == U and codes(msgs) == ["inflow"] and msgs[0].text == "Нельзя, впадает река"
    assert whose_turn(q) == 1                    # the turn is used


def test_case_07_quantum_shallow_river() -> None:
    q = game(board(RIVER), [R1, (1, 0)], "quantum")
    q, msgs = play(q, 0, Move(RIGHT))
    assert q.players[0].pos == R2 and msgs[0].text == "По реке"
    q, msgs = play(q, 1, Move(UP))               # from land into R1: drift
    assert q.players[1].pos == R2 and msgs[0].code == "drifted"
    q, msgs = play(q, 0, Move(LEFT))             # against the flow: no drift
    assert q.players[0].pos == R1 and msgs[0].text == "По реке"


GRENADES = """\
 _ x
|С|С|
 _ _"""


def test_case_08_grenade_destroys_an_inner_wall_once() -> None:
    s = game(board(GRENADES), [(0, 0), (0, 1)])
    s, _ = play(s, 0, Grenade(RIGHT), Move(RIGHT))
    assert s.walls == set() and s.players[0].grenades == 2 and s.players[0].pos == (0, 1)
    s, _ = play(s, 1, Skip())
    s, _ = play(s, 0, Grenade(LEFT), Move(LEFT))
    assert s.players[0].grenades == 1 and s.players[0].pos == (0, 0)


def test_case_09_outer_wall_survives_closed_exit_opens() -> None:
    s = game(board(GRENADES), [(0, 0), (0, 1)])
    s, _ = play(s, 0, Grenade(UP), Move(UP))
    assert s.players[0].grenades == 2 and s.players[0].pos == (0, 0)
    s, msgs = play(s, 1, Grenade(UP), Move(UP))
    assert s.outer[((0, 1), UP)] is Outer.OPEN_EXIT
    assert s.players[1].outside is UP and "exited" in codes(msgs)


def test_case_10_quantum_grenade_at_a_missing_wall() -> None:
    q = game(board(ROW4), [(0, 0), (0, 3)], "quantum")
    q, msgs = play(q, 0, Grenade(RIGHT))
    assert msgs[0].text == "Стенки не было; осталось гранат: 2" and msgs[0].data["result"] == "no_wall"


def test_case_11_shot_down_a_corridor_and_an_arsenal_stops_it() -> None:
    s = game(board("""\
 _ _ _
|С С С|
 _ _ _"""), [(0, 0), (0, 2)])
    s2, msgs = play(s, 0, Shoot(RIGHT), Move(LEFT))
    assert s2.players[1].health == "wounded" and s2.players[0].bullets == 2
    assert msgs[0].code == "shot" and msgs[0].data["scream"] is True and "Слышен вопль" in msgs[0].text
    a = game(board("""\
 _ _ _
|С А С|
 _ _ _"""), [(0, 0), (0, 2)])
    a2, msgs = play(a, 0, Shoot(RIGHT), Move(LEFT))
    assert a2.players[1].health == "healthy" and msgs[0].data["scream"] is False


def test_case_12_arsenal_and_hospital_as_targets_and_as_firing_places() -> None:
    s = game(board("""\
 _ _
|С А|
 _ _"""), [(0, 0), (0, 1)])
    s2, _ = play(s, 0, Shoot(RIGHT), Move(LEFT))
    assert s2.players[1].health == "wounded"
    h = game(board("""\
 _ _
|С М|
 _ _"""), [(0, 0), (0, 1)])
    h2, msgs = play(h, 0, Shoot(RIGHT), Move(LEFT))
    assert h2.players[1].health == "healthy" and msgs[0].data["scream"] is False
    h3, msgs = play(h2, 1, Shoot(LEFT), Move(RIGHT))   # from the hospital: forbidden, nothing spent
    assert codes(msgs)[0] == "forbidden_here" and h3.players[1].bullets == 3
    assert h3.players[0].health == "healthy"


def test_case_13_everyone_on_the_shooters_cell_is_wounded() -> None:
    s = game(board(ROW4), [(0, 1), (0, 1), (0, 1)])
    s, msgs = play(s, 0, Shoot(UP), Move(UP))
    assert [p.health for p in s.players] == ["healthy", "wounded", "wounded"]
    assert msgs[0].data["scream"] is True


def test_case_14_wound_drops_bullets_and_slot_second_wound_kills() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3)])
    carry(s, 1, slot=Slot("treasure", true=True), bullets=3, grenades=2)
    s, _ = play(s, 0, Shoot(RIGHT), Move(UP))
    p2 = s.players[1]
    assert p2.health == "wounded" and p2.slot is None and p2.bullets == 0 and p2.grenades == 2
    assert s.piles[(0, 3)].treasures == [True] and s.piles[(0, 3)].bullets == 3
    s, _ = play(s, 1, Move(UP))
    s, _ = play(s, 0, Shoot(RIGHT), Move(UP))
    assert s.players[1].health == "dead"
    pile = s.piles[(0, 3)]
    assert pile.grenades == 2 and pile.corpses == [Corpse(seat=1)] and pile.treasures == [True]


def test_case_15_catching_the_victims_bullets_but_not_killing_the_fallen() -> None:
    s = game(board(ROW4), [(0, 1), (0, 1)])
    carry(s, 0, bullets=1)
    s, msgs = play(s, 0, Shoot(LEFT), Shoot(LEFT), Shoot(LEFT), Shoot(LEFT), Move(UP))
    assert s.players[1].health == "wounded"          # fallen: not killed by the next shots
    assert s.players[0].bullets == 0 and s.piles.get((0, 1)) is None   # the three dropped bullets were fired
    assert [m.code for m in msgs][:4] == ["shot"] * 4
    assert msgs[0].data["fell"] == {"bullets": 3}


def test_case_16_reorders_n_minus_1_only_on_the_next_turn() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3), (0, 3), (0, 3)])
    assert [p.reorders_left for p in s.players] == [3, 3, 3, 3]
    s, msgs = play(s, 0, Shoot(RIGHT), Move(UP))     # wounds the three on (0,3)
    assert msgs[-1].code == "wounded" and msgs[-1].seat == 1 and msgs[-1].data["reorder"] is True
    s, msgs = play(s, 1, Move(UP), reorder=Reorder((0, 0)))
    assert s.players[1].pos == (0, 0) and s.players[1].reorders_left == 2
    assert "reordered" in codes(msgs) and all("(0" not in m.text for m in msgs)
    s, _ = play(s, 2, Move(UP))                       # declines: stays where wounded
    assert s.players[2].pos == (0, 3)
    s3 = s
    s3.players[3].reorders_left = 0                   # player 4 has none left
    s3.players[3].may_reorder = False
    assert refusal(s3, 3, Move(UP), reorder=Reorder((0, 0))).code == "reorder_not_allowed"
    s, _ = play(s3, 3, Move(UP))
    assert s.players[3].pos == (0, 3)
    s, _ = play(s, 0, Move(UP))
    refusal(s, 1, Move(UP), reorder=Reorder((0, 1)))  # not the turn after the wound any more


def test_case_17_quantum_range_one_and_into_the_own_cell() -> None:
    q = game(board(ROW4), [(0, 2), (0, 0)], "quantum")
    q, msgs = play(q, 0, Shoot(LEFT))
    assert q.players[1].health == "healthy" and q.players[0].bullets == 2 and msgs[0].data["wounded"] == []
    q = game(board(ROW4), [(0, 1), (0, 1), (0, 1), (0, 1)], "quantum")
    carry(q, 2, health="wounded")
    carry(q, 3, health="sick")
    q, msgs = play(q, 0, Shoot(None))
    # the sick victim's corpse makes the cell infectious (Q§5.6), and the shooter stays on it (Q§4.7)
    assert [p.health for p in q.players] == ["sick", "wounded", "dead", "dead"]
    assert msgs[0].data == {"wounded": [1], "killed": [2, 3], "bullets": 2}
    assert codes(msgs)[:2] == ["shot", "infected"]
    assert q.piles[(0, 1)].corpses[-1] == Corpse(seat=3, infectious=True)


def test_case_18_quantum_shot_without_bullets_is_a_skip_and_from_an_arsenal_misses() -> None:
    q = game(board("""\
 _ _
|А С|
 _ _"""), [(0, 0), (0, 1)], "quantum")
    q, msgs = play(q, 0, Shoot(RIGHT))
    assert q.players[1].health == "healthy" and msgs[0].data["bullets"] == 2   # spent (Q§5.5) ...
    assert q.players[0].bullets == 3 and msgs[1].code == "refilled"          # ... and replaced (Q§5.3)
    carry(q, 1, bullets=0)
    q, msgs = play(q, 1, Shoot(LEFT))
    assert codes(msgs)[0] == "no_bullets" and q.skips == 1


def test_case_19_slot_ranks_and_full_ammunition() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3)])
    carry(s, 0, slot=Slot("corpse", corpse=Corpse(seat=5)))
    put(s, (0, 1), mines=1)
    s, _ = play(s, 0, Move(RIGHT))
    assert s.players[0].slot == Slot("mine") and s.piles[(0, 1)].corpses == [Corpse(seat=5)]
    s, _ = play(s, 1, Skip())
    put(s, (0, 2), treasures=[False], bullets=2)
    s, _ = play(s, 0, Move(RIGHT))
    p = s.players[0]
    assert p.slot == Slot("treasure", true=False) and s.piles[(0, 2)].mines == 1
    assert p.bullets == 3 and s.piles[(0, 2)].bullets == 2


def test_case_20_the_conditional_request_of_c_6_5() -> None:
    s = game(board("""\
 _ _ _
|С Я Я|
 _ _ _
holes (0,1) (0,2)"""), [(0, 0), (0, 0)])
    s.players[1].pos = (0, 1)
    carry(s, 0, grenades=0)
    put(s, (0, 2), treasures=[False], bullets=2, corpses=[Corpse(seat=3)])
    s, msgs = play(s, 0, Move(RIGHT),
                   Conditional(Condition.FOUND_TREASURE, (Shoot(UP),)),
                   Conditional(Condition.FOUND_BULLETS, (Shoot(RIGHT),)),
                   Conditional(Condition.HOLE, (Throw(Item.GRENADE),)))
    shots = [m for m in msgs if m.code == "shot"]
    assert shots[0].text == "Воплей нет; у тебя 3 пуль и еще 1 под ногами"
    assert shots[1].text == "Воплей нет; у тебя 3 пуль"
    assert msgs[-1].code == "nothing_doing" and msgs[-1].text.startswith("Ничего не выйдет")
    assert s.players[0].slot == Slot("treasure", true=False)


def test_case_21_second_treasure_the_choice_and_the_dark_move() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3)])
    carry(s, 0, slot=Slot("treasure", true=False))
    put(s, (0, 1), treasures=[True])
    kept, msgs = play(s, 0, Move(RIGHT))
    assert kept.players[0].slot == Slot("treasure", true=False) and "found" in codes(msgs)
    took, _ = play(s, 0, Move(RIGHT), treasure=1)
    assert took.players[0].slot == Slot("treasure", true=True) and took.piles[(0, 1)].treasures == [False]
    dark, msgs = play(s, 0, Move(RIGHT), treasure=1, visibility=Visibility.DARK)
    assert dark.players[0].slot == Slot("treasure", true=False) and codes(msgs) == ["dark"]


def test_case_22_throw_at_a_wall_and_the_true_treasure_out_of_an_exit() -> None:
    s = game(board(RIVER), [(1, 0), (1, 2)])
    carry(s, 0, slot=Slot("corpse", corpse=Corpse(seat=4)))
    s2, msgs = play(s, 0, Throw(Item.CORPSE, DOWN), Move(RIGHT))
    assert msgs[0].text == "У твоих ног появился труп" and s2.piles[(1, 0)].corpses == [Corpse(seat=4)]
    carry(s, 0, slot=Slot("treasure", true=True))
    s3, msgs = play(s, 0, Throw(Item.TREASURE, LEFT), Move(RIGHT))
    assert ended(s3).kind == "draw"
    assert ended(s3).reason == "treasure_out" and "draw_treasure_out" in codes(msgs)
    assert whose_turn(s3) is None


def test_case_23_false_treasure_crumbles_true_one_wins() -> None:
    s = game(board(RIVER), [(1, 0), (1, 2)])
    carry(s, 0, slot=Slot("treasure", true=False))
    s, msgs = play(s, 0, Move(LEFT))
    assert codes(msgs) == ["crumbled"] and s.players[0].slot is None and s.players[0].outside is LEFT
    s, _ = play(s, 1, Move(UP))
    back, msgs = play(s, 0, Move(RIGHT))             # back in: the same cell
    assert back.players[0].outside is None and back.players[0].pos == (1, 0) and codes(msgs)[0] == "reentered"
    lost, msgs = play(s, 0, Move(UP))                 # not back at once: eliminated
    assert lost.players[0].eliminated and "eliminated" in codes(msgs)
    assert ended(lost).seat == 1
    w = game(board(RIVER), [(1, 0), (1, 2)])
    carry(w, 0, slot=Slot("treasure", true=True))
    w, msgs = play(w, 0, Move(LEFT))
    assert ended(w).kind == "win" and ended(w).seat == 0
    assert codes(msgs) == ["won"]


def test_case_24_mine_blast_wounds_everyone_and_destroys_bullets_and_mines() -> None:
    s = game(board(ROW4), [(0, 0), (0, 1), (0, 1)])
    carry(s, 1, slot=Slot("treasure", true=True))
    put(s, (0, 1), armed=1, mines=1, bullets=2, grenades=1, corpses=[Corpse(seat=7)])
    s, msgs = play(s, 0, Move(RIGHT))
    assert [p.health for p in s.players] == ["wounded", "wounded", "wounded"]
    pile = s.piles[(0, 1)]
    assert pile.bullets == 0 and pile.mines == 0 and pile.armed == 0
    assert pile.treasures == [True] and pile.grenades == 1 and pile.corpses == [Corpse(seat=7)]
    assert all(p.bullets == 0 for p in s.players)
    assert "mine" in codes(msgs)
    placer = game(board(ROW4), [(0, 0), (0, 3)], starting_mines=1)
    placer, _ = play(placer, 0, PlaceMine(None), Move(UP))   # places it and stays (bumps)
    assert placer.players[0].health == "healthy" and placer.piles[(0, 0)].armed == 1


def test_case_25_mines_neutralised_through_a_wall_and_set_off_by_a_corpse() -> None:
    s = game(board("""\
 _ _ _
|А С|С|
 _ _ _"""), [(0, 1), (0, 2)], starting_mines=1)
    a, msgs = play(s, 0, PlaceMine(LEFT), Move(UP))
    assert a.piles.get((0, 0)) is None and codes(msgs)[0] == "mine_placed"
    w, msgs = play(s, 0, PlaceMine(RIGHT), Move(UP))         # through the wall: lands on the own cell
    assert w.piles[(0, 1)].armed == 1 and msgs[0].text == "Мина установлена"
    c = game(board(ROW4), [(0, 0), (0, 1)])
    put(c, (0, 1), armed=1)
    carry(c, 0, slot=Slot("corpse", corpse=Corpse(seat=9)))
    c, msgs = play(c, 0, Throw(Item.CORPSE, RIGHT), Move(UP))
    assert c.players[1].health == "wounded" and c.piles[(0, 1)].armed == 0 and "blast" in codes(msgs)


def test_case_26_hospital_cremates_and_heals_arsenal_refills() -> None:
    s = game(board("""\
 _ _ _
|М С А|
 _ _ _"""), [(0, 1), (0, 1)])
    carry(s, 0, slot=Slot("corpse", corpse=Corpse(seat=3)))
    carry(s, 1, health="wounded", bullets=0)
    h, msgs = play(s, 0, Move(LEFT))
    assert h.players[0].slot is None and "cremated" in codes(msgs) and h.piles.get((0, 0)) is None
    s.current = 1
    h, msgs = play(s, 1, Move(LEFT))
    assert h.players[1].health == "healthy" and "healed" in codes(msgs) and msgs[1].text == "Вылечился"
    carry(s, 0, slot=None, bullets=1, grenades=0)
    s.current = 0
    a, msgs = play(s, 0, Move(RIGHT))
    assert (a.players[0].bullets, a.players[0].grenades) == (3, 3)
    assert msgs[0].text == "Пришел в Арсенал" and msgs[1].text == "У тебя 3 пули, 3 гранаты"


ENC = """\
 _ _ _
|С Э С|
 _ _ _"""


def test_case_27_the_tick_waker_must_leave_at_once() -> None:
    s = game(board(ENC), [(0, 0), (0, 2)])
    s, msgs = play(s, 0, Move(RIGHT))
    assert msgs[0].text == "Пришел в Энцефалит" and msgs[1].text == "Разбудил Клеща"
    s, _ = play(s, 1, Move(DOWN))
    left, _ = play(s, 0, Move(LEFT))
    assert left.players[0].health == "healthy"
    carry(s, 0, slot=Slot("mine"), bullets=3, grenades=2)
    stayed, msgs = play(s, 0, Move(UP))               # bumps: stays on the infectious cell
    p = stayed.players[0]
    assert p.health == "sick" and p.bullets == 0 and p.slot is None and p.grenades == 2
    assert stayed.piles[(0, 1)].mines == 1 and stayed.piles[(0, 1)].bullets == 3
    assert msgs[-1].text == "Ты заразился энцефалитом, на лечение у тебя есть 5 ходов"
    carry(s, 0, health="wounded", slot=None)
    died, _ = play(s, 0, Move(UP))
    assert died.players[0].health == "dead"
    assert died.piles[(0, 1)].corpses == [Corpse(seat=0, infectious=True)]


def test_case_28_cure_in_time_immunity_and_the_infectious_corpse() -> None:
    m = board("""\
 _ _ _ _
|С Э С М|
 _ _ _ _""")
    s = game(m, [(0, 2), (0, 0)], cure_time=2)
    carry(s, 0, health="sick", cure_left=2)
    cured, msgs = play(s, 0, Move(RIGHT))
    p = cured.players[0]
    assert p.health == "healthy" and p.immune and "healed" in codes(msgs)
    cured, _ = play(cured, 1, Move(UP))
    cured, msgs = play(cured, 0, Move(LEFT))
    cured, _ = play(cured, 1, Move(UP))
    cured, msgs = play(cured, 0, Move(LEFT))           # the Э cell is land for the immune
    assert cured.players[0].pos == (0, 1)
    assert msgs[0].text == "Пришел на Сушу" and msgs[0].data["cell"] == "land"
    late = game(m, [(0, 2), (0, 0), (0, 3)], cure_time=1)
    carry(late, 0, health="sick", cure_left=1)
    late, msgs = play(late, 0, Move(LEFT))           # one effective move, not in a hospital: dead
    assert late.players[0].health == "dead" and "died" in codes(msgs)
    assert late.piles[(0, 1)].corpses == [Corpse(seat=0, infectious=True)]
    late, msgs = play(late, 1, Move(RIGHT))            # the corpse lies on Э: the next healthy arrival
    assert late.players[1].health == "sick" and "infected" in codes(msgs)


def test_case_29_movements_actions_all_skip_and_nstop() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3)], nstop=2)
    for steps, code in (((Shoot(RIGHT),), "no_movement"), ((Move(UP), Move(DOWN)), "two_movements"),
                        ((), "empty_turn")):
        assert refusal(s, 0, *steps).code == code
    q = game(board(ROW4), [(0, 0), (0, 3)], "quantum")
    assert refusal(q, 0, Move(RIGHT), Shoot(LEFT)).code == "one_action"
    k, _ = play(s, 0, Skip())
    k, msgs = play(k, 1, Skip())
    assert ended(k).reason == "all_skip" and "draw_all_skip" in codes(msgs)
    n = s
    for _ in range(3):
        n, msgs = play(n, n.current or 0, Move(UP))
        assert outcome(n) is None
    n, msgs = play(n, 1, Move(UP))                    # 2 rounds of 2 players, nothing irreversible
    assert ended(n).reason == "nstop" and "draw_nstop" in codes(msgs)


def test_case_30_dark_and_half_dark_moves() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3)])
    d, msgs = play(s, 0, Move(UP), visibility=Visibility.DARK)
    assert codes(msgs) == ["dark"] and d.players[0].pos == (0, 0)
    h, msgs = play(s, 0, Move(UP), visibility=Visibility.HALF_DARK)
    assert [(m.code, m.text) for m in msgs] == [("wall", "Нельзя, стенка")]
    h, msgs = play(s, 0, Move(RIGHT), visibility=Visibility.HALF_DARK)
    assert [(m.code, m.text) for m in msgs] == [("no_wall", "Стенки нет")] and h.players[0].pos == (0, 1)
    q = game(board(ROW4), [(0, 0), (0, 3)], "quantum")
    q, msgs = play(q, 0, Grenade(RIGHT), visibility=Visibility.HALF_DARK)   # no movement: nothing to say
    assert codes(msgs) == ["dark"] and q.players[0].grenades == 2


def test_case_32_true_treasure_onto_a_source_and_the_timeout() -> None:
    s = game(board(RIVER), [(1, 0), (1, 2)])
    carry(s, 0, slot=Slot("treasure", true=True))
    s2, msgs = play(s, 0, Throw(Item.TREASURE, UP), Move(RIGHT))
    assert ended(s2).reason == "treasure_on_source"
    assert "draw_treasure_source" in codes(msgs)
    t, msgs = timeout(s, 0)
    assert t.players[0].health == "dead" and codes(msgs)[0] == "timeout"
    pile = t.piles[(1, 0)]
    assert pile.treasures == [True] and pile.bullets == 3 and pile.grenades == 3
    assert pile.corpses == [Corpse(seat=0)]
    assert ended(t).kind == "win" and ended(t).seat == 1
    assert text(msgs)
    assert answered(apply(t, 0, Status()))[1][0].data["health"] == "dead"
