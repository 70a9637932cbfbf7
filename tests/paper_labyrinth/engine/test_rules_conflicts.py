"""One test per decision on the 21 conflicts of seed 002 (its English summary's section 8, not in the
repository): docs/paper-labyrinth.md, "The 21 conflicts", states each decision and names its test."""
from __future__ import annotations

import pytest

from gamekit.results import Impossible
from paper_labyrinth.engine.requests import (
    Condition,
    Conditional,
    Downstream,
    Grenade,
    Item,
    Move,
    Options,
    PlaceMine,
    Reorder,
    Repeat,
    Shoot,
    Skip,
    Status,
    Throw,
    Turn,
    Visibility,
)
from paper_labyrinth.engine.rules import apply, new_game, opening, outcome, status
from paper_labyrinth.engine.state import Corpse, Slot, Tick
from tests.paper_labyrinth.engine.rules_boards import (
    DOWN,
    H1,
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
)

ROW5 = """\
 _ _ _ _ _
|С С С С С|
 _ _ _ _ _"""


def test_conflict_01_a_reorder_is_not_a_movement_and_a_skip_is_a_whole_turn() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3), (0, 3)])
    s, _ = play(s, 0, Shoot(RIGHT), Move(UP))
    refused = apply(s, 1, Turn(steps=(Shoot(LEFT),), reorder=Reorder((0, 0))))
    assert isinstance(refused, Impossible) and refused.code == "no_movement"  # a re-order is no movement
    s2, _ = play(s, 1, Move(UP), reorder=Reorder((0, 0)))
    assert s2.players[1].pos == (0, 0)
    assert refusal(s, 1, Skip(), Shoot(LEFT)).code == "skip_not_alone"


def test_conflict_02_auto_pickup_unless_the_request_leaves_the_treasure() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3)])
    put(s, (0, 1), treasures=[True])
    took, _ = play(s, 0, Move(RIGHT))
    assert took.players[0].slot == Slot("treasure", true=True)
    left, msgs = play(s, 0, Move(RIGHT), treasure=0)
    assert left.players[0].slot is None and left.piles[(0, 1)].treasures == [True] and "found" in codes(msgs)


def test_conflict_03_second_treasure_kept_unless_chosen_in_the_request_dark_keeps_old() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3)])
    carry(s, 0, slot=Slot("treasure", true=True))
    put(s, (0, 1), treasures=[False, False])
    keep, _ = play(s, 0, Move(RIGHT))
    assert keep.players[0].slot == Slot("treasure", true=True)
    swap, _ = play(s, 0, Move(RIGHT), treasure=1)       # the bottom one; the old one goes on top
    assert swap.players[0].slot == Slot("treasure", true=False)
    assert swap.piles[(0, 1)].treasures == [False, True]
    dark, _ = play(s, 0, Move(RIGHT), treasure=2, visibility=Visibility.DARK)
    assert dark.players[0].slot == Slot("treasure", true=True)


def test_conflict_04_wounded_keep_grenades_refill_grenades_but_pick_up_nothing() -> None:
    s = game(board("""\
 _ _ _
|С С А|
 _ _ _"""), [(0, 0), (0, 0)])
    carry(s, 0, health="wounded", bullets=0, grenades=1)
    put(s, (0, 1), grenades=2, bullets=1)
    s2, _ = play(s, 0, Move(RIGHT))
    assert s2.players[0].grenades == 1 and s2.piles[(0, 1)].grenades == 2   # loose items: healthy only
    s2.current = 0
    s3, _ = play(s2, 0, Grenade(UP), Move(RIGHT))       # may use grenades; the arsenal refills them
    assert (s3.players[0].bullets, s3.players[0].grenades) == (0, 3)
    q = game(board("""\
 _ _ _
|С С А|
 _ _ _"""), [(0, 0), (0, 0)], "quantum")
    carry(q, 0, health="wounded", bullets=0, grenades=1)
    put(q, (0, 1), grenades=2, bullets=1)
    q2, _ = play(q, 0, Move(RIGHT))                         # quantum: ammunition to anyone with < 3
    assert (q2.players[0].bullets, q2.players[0].grenades) == (1, 3)


def test_conflict_05_the_tick_infects_after_a_full_round_arrivals_and_stayers() -> None:
    s = game(board("""\
 _ _ _
|С Э С|
 _ _ _"""), [(0, 0), (0, 2), (0, 2)])
    s, _ = play(s, 0, Move(RIGHT))                          # wakes the tick
    s, msgs = play(s, 1, Move(LEFT))                        # enters before the round is over: not yet
    assert s.players[1].health == "healthy" and codes(msgs) == ["moved"]
    s, _ = play(s, 2, Move(DOWN))
    s, _ = play(s, 0, Move(LEFT))                           # the waker leaves at once: healthy
    assert s.players[0].health == "healthy"
    s, msgs = play(s, 1, Move(UP))                          # a stayer on the now infectious cell
    assert s.players[1].health == "sick" and "infected" in codes(msgs)
    s, _ = play(s, 2, Move(LEFT))                           # a new arrival
    assert s.players[2].health == "sick"


def test_conflict_06_cure_time_counts_moves_that_change_the_cell() -> None:
    s = game(board(RIVER), [R2, (1, 2)], cure_time=3)
    carry(s, 0, health="sick", cure_left=3)
    s, _ = play(s, 0, Move(LEFT))                            # upstream: back on R2, not effective
    assert s.players[0].cure_left == 3
    s, _ = play(s, 1, Skip())
    s, _ = play(s, 0, Move(UP))                              # a wall bump in a river drifts: effective
    assert s.players[0].pos == U and s.players[0].cure_left == 2
    s, _ = play(s, 1, Move(UP))
    s, _ = play(s, 0, Move(RIGHT))                           # a plain bump: not effective
    assert s.players[0].cure_left == 2
    q = game(board(RIVER), [R2, (1, 2)], "quantum")
    assert q.options.cure_time is None                      # quantum: no timer by default


def test_conflict_07_grenade_reports_quantum_always_classic_only_the_count() -> None:
    m = board("""\
 _ _
|С|С|
 _ _""")
    s = game(m, [(0, 0), (0, 1)])
    _s2, msgs = play(s, 0, Grenade(RIGHT), Grenade(UP), Move(UP))
    assert [x.text for x in msgs[:2]] == ["Взорвал гранату; осталось гранат: 2",
                                          "Взорвал гранату; осталось гранат: 1"]
    q = game(m, [(0, 0), (0, 1)], "quantum")
    q2, msgs = play(q, 0, Grenade(RIGHT))
    assert msgs[0].data == {"result": "exploded", "grenades": 2}
    _q3, msgs = play(q2, 1, Grenade(UP))
    assert msgs[0].data["result"] == "not_exploded"
    opt = game(m, [(0, 0), (0, 1)], grenade_reports=True)
    _, msgs = play(opt, 0, Grenade(UP), Move(UP))
    assert msgs[0].text.startswith("Стенка не взорвалась")


def test_conflict_08_quantum_downstream_is_a_shallow_step_and_no_source_draw() -> None:
    q = game(board(RIVER), [R1, (1, 2)], "quantum")
    q2, msgs = play(q, 0, Downstream())
    assert q2.players[0].pos == R2 and msgs[0].text == "По реке"
    carry(q, 1, slot=Slot("treasure", true=True))
    q.current = 1
    q.players[1].pos = (1, 0)
    q3, _ = play(q, 1, Throw(Item.TREASURE, UP))            # onto the source: shallow rivers reach it
    assert outcome(q3) is None and q3.piles[R1].treasures == [True]


def test_conflict_09_two_shots_in_a_row_only_within_one_turn_fallen_do_not_stop_bullets() -> None:
    s = game(board(ROW5), [(0, 0), (0, 2), (0, 4)])
    s, _ = play(s, 0, Shoot(RIGHT), Shoot(RIGHT), Move(UP))
    assert s.players[1].health == "wounded"                  # the fallen one is passed over ...
    assert s.players[2].health == "wounded"                  # ... by the second bullet
    s, _ = play(s, 1, Move(UP))
    s, _ = play(s, 2, Move(UP))
    s, _ = play(s, 0, Shoot(RIGHT), Move(UP))                # a later turn: the second wound kills
    assert s.players[1].health == "dead"


def test_conflict_10_bullet_stops_at_the_first_occupied_cell_hits_all_there_not_corpses() -> None:
    s = game(board(ROW5), [(0, 0), (0, 0), (0, 3), (0, 3), (0, 4)])
    put(s, (0, 1), corpses=[Corpse(seat=9)])
    s, _ = play(s, 0, Shoot(RIGHT), Move(UP))                # the co-located one stops it
    assert [p.health for p in s.players] == ["healthy", "wounded", "healthy", "healthy", "healthy"]
    s2 = game(board(ROW5), [(0, 0), (0, 3), (0, 3), (0, 4)])
    put(s2, (0, 1), corpses=[Corpse(seat=9)])
    s2, _ = play(s2, 0, Shoot(RIGHT), Move(UP))              # past the corpse; everyone on (0,3)
    assert [p.health for p in s2.players] == ["healthy", "wounded", "wounded", "healthy"]
    out = game(board(RIVER), [(1, 2), (1, 0)])
    out, _ = play(out, 0, Skip())
    out, _ = play(out, 1, Move(LEFT))                        # outside now
    out, msgs = play(out, 0, Shoot(LEFT), Move(UP))          # bullets do not leave the labyrinth
    assert msgs[0].data["scream"] is False and out.players[1].health == "healthy"


def test_conflict_11_leaving_without_a_treasure_means_coming_back_next_move() -> None:
    s = game(board(RIVER), [(1, 0), (1, 2)])
    s, msgs = play(s, 0, Move(LEFT))
    assert codes(msgs) == ["exited"] and s.players[0].outside is LEFT
    assert status(s, 0)["outside"] is True
    s, _ = play(s, 1, Move(UP))
    assert refusal(s, 0, Shoot(RIGHT), Move(RIGHT)).code == "outside_actions_first"
    back, msgs = play(s, 0, Move(RIGHT), Shoot(RIGHT))
    assert back.players[0].pos == (1, 0) and back.players[0].outside is None
    assert codes(msgs)[:2] == ["reentered", "moved"]
    gone, msgs = play(s, 0, Skip())
    assert gone.players[0].eliminated and "eliminated" in codes(msgs)


def test_conflict_12_start_cells_have_no_arrival_effect_and_may_be_shared() -> None:
    m = board(HOLES)
    s = game(m, [H1, H1])
    assert [p.pos for p in s.players] == [H1, H1]           # no hole teleport at the start
    assert [x.data["cell"] for x in opening(s)] == ["hole", "hole"]
    r = game(board(RIVER), [R1, (1, 0)])
    assert r.players[0].pos == R1                           # no drift at the start
    with pytest.raises(ValueError):
        new_game(m, Options(), 2, [(0, 0), (5, 5)])


def test_conflict_13_a_mine_in_ones_own_dark_move_loses_the_reorder() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3)])
    put(s, (0, 1), armed=1)
    dark, msgs = play(s, 0, Move(RIGHT), visibility=Visibility.DARK)
    assert dark.players[0].health == "wounded" and codes(msgs) == ["dark"]
    dark, msgs = play(dark, 1, Move(UP))
    assert "wounded" not in codes(msgs) and not status(dark, 0)["may_reorder"]
    lit, msgs = play(s, 0, Move(RIGHT))
    lit, msgs = play(lit, 1, Move(UP))
    assert msgs[-1].code == "wounded" and status(lit, 0)["may_reorder"]
    shot = game(board(ROW4), [(0, 0), (0, 3)])               # a dark shooter's victim is still told
    shot, msgs = play(shot, 0, Shoot(RIGHT), Move(UP), visibility=Visibility.DARK)
    assert codes(msgs) == ["dark", "wounded"]


def test_conflict_14_arrival_order_mine_then_infection() -> None:
    s = game(board("""\
 _ _ _
|С Э С|
 _ _ _"""), [(0, 0), (0, 2), (0, 2)])
    s.ticks[(0, 1)] = Tick(seat=1, woken_turn=0, infectious=True)
    put(s, (0, 1), armed=1)
    s, msgs = play(s, 0, Move(RIGHT))                        # wounded by the mine, then infected: dead
    assert s.players[0].health == "dead" and codes(msgs)[:3] == ["moved", "mine", "died"]


def test_conflict_15_no_drift_without_a_step_and_drifting_back_sets_off_no_mine() -> None:
    s = game(board(RIVER), [R2, (1, 2)])
    s, _ = play(s, 0, Skip())
    assert s.players[0].pos == R2
    s, _ = play(s, 1, Skip())
    assert ended(s).reason == "all_skip"                      # (everyone skipped: a draw)
    m = game(board(RIVER), [R2, (1, 2)])
    put(m, R2, armed=1)
    m, _ = play(m, 0, Move(LEFT))                            # into R1, drifted back onto R2
    assert m.players[0].pos == R2 and m.players[0].health == "healthy" and m.piles[R2].armed == 1


def test_conflict_16_nstop_counts_rounds_of_the_players_still_in_and_a_crumbled_treasure_resets() -> None:
    s = game(board(RIVER), [(1, 0), (1, 2)], nstop=1)
    carry(s, 0, slot=Slot("treasure", true=False))
    s, _ = play(s, 0, Move(LEFT))                            # crumbles: irreversible
    assert s.calm == 0
    s, _ = play(s, 1, Move(DOWN))
    s, _ = play(s, 0, Move(RIGHT))
    assert ended(s).reason == "nstop"


def test_conflict_17_only_arrivals_pick_up_dropped_items() -> None:
    s = game(board(ROW4), [(0, 0), (0, 1), (0, 1)])
    s, _ = play(s, 0, Shoot(RIGHT), Move(UP))                # wounds both on (0,1): 6 bullets drop
    assert s.piles[(0, 1)].bullets == 6
    s, _ = play(s, 1, Move(UP))
    s, _ = play(s, 2, Move(UP))
    s, _ = play(s, 0, Move(RIGHT))                           # the first arriving healthy player
    assert s.players[0].bullets == 3 and s.piles[(0, 1)].bullets == 5   # it had 2 after its shot


def test_conflict_18_status_answers_the_askers_own_counts() -> None:
    s = game(board(ROW4), [(0, 0), (0, 3)])
    s, _ = play(s, 0, Shoot(RIGHT), Move(UP))
    _, msgs = answered(apply(s, 0, Status()))
    assert msgs[0].seat == 0 and msgs[0].data["bullets"] == 2 and msgs[0].data["grenades"] == 3
    _, msgs = answered(apply(s, 1, Status()))
    assert msgs[0].data["health"] == "wounded" and msgs[0].data["bullets"] == 0
    _, msgs = answered(apply(s, 1, Repeat(0)))
    assert msgs[0].code == "repeat" and [m.code for m in msgs[1:]] == ["shot", "wall"]


def test_conflict_19_upstream_and_with_the_flow_read_alike_armed_mines_are_never_found() -> None:
    a = game(board(RIVER), [(1, 1), R2])
    a, up = play(a, 0, Move(UP))                             # land into R2: drift to U
    b = game(board(RIVER), [R1, R2])
    b, down = play(b, 0, Move(RIGHT))                        # with the flow: 2 cells, same words
    assert up[0].text == down[0].text == "Попал в Реку, снесло в Устье"
    c = game(board(ROW4), [(0, 0), (0, 3)], "quantum")
    put(c, (0, 1), armed=1, mines=1, grenades=1)
    c, msgs = play(c, 0, Move(RIGHT))                        # the armed mine goes off, never "found"
    assert codes(msgs) == ["moved", "mine", "found"]
    assert msgs[2].data == {"treasures": 0, "bullets": 0, "grenades": 1, "mines": 0, "corpses": 0}


def test_conflict_20_quantum_hospital_protects_its_occupants() -> None:
    q = game(board("""\
 _ _
|С М|
 _ _"""), [(0, 0), (0, 1)], "quantum")
    q, msgs = play(q, 0, Shoot(RIGHT))
    assert q.players[1].health == "healthy" and msgs[0].data["wounded"] == [] and q.players[0].bullets == 2


def test_conflict_21_unaffordable_or_forbidden_actions_are_answered_not_refused() -> None:
    s = game(board("""\
 _ _
|М С|
 _ _"""), [(0, 0), (0, 1)], starting_mines=0)
    carry(s, 0, grenades=0)
    s2, msgs = play(s, 0, Grenade(RIGHT), Shoot(RIGHT), PlaceMine(None), Throw(Item.TREASURE), Move(UP))
    assert codes(msgs)[:4] == ["nothing_doing", "forbidden_here", "nothing_doing", "nothing_doing"]
    assert s2.players[0].bullets == 3 and s2.players[1].health == "healthy"
    assert s2.current == 1                                   # the turn was played
    q = game(board("""\
 _ _
|А С|
 _ _"""), [(0, 0), (0, 1)], "quantum")
    q2, msgs = play(q, 0, Shoot(RIGHT))                      # quantum: the bullet is spent, no hit
    assert msgs[0].data["bullets"] == 2 and q2.players[1].health == "healthy"
    assert q2.players[0].bullets == 3                        # (then replaced: it is an arsenal, Q§5.3)
    refusal(s, 0, Conditional(Condition.SCREAM, (Move(UP),)), Move(UP))  # shape errors: refused, no change
    assert s.players[0].grenades == 0 and s.current == 0
