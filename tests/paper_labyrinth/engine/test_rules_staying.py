"""A turn that ends on the cell it began on (seed 002): the infectious cell (Q§4.7) and the arsenal
(C§5.3, Q§5.3) act on the player whatever the turn was, and an arsenal replaces what is spent at once."""
from __future__ import annotations

import pytest

from paper_labyrinth.engine.requests import Grenade, Item, Move, PlaceMine, Shoot, Skip, Step, Throw
from paper_labyrinth.engine.state import Slot, Tick
from tests.paper_labyrinth.engine.rules_boards import DOWN, LEFT, RIGHT, UP, board, carry, codes, game, play

ENC = """\
 _ _ _
|С Э С|
 _ _ _"""
ARSENAL = """\
 _ _ _
|А С С|
 _ _ _"""

QUANTUM_ACTIONS = [Shoot(UP), Shoot(None), Grenade(UP), Throw(Item.BULLET, RIGHT), Throw(Item.GRENADE, None),
                   PlaceMine(None)]
ACTION_IDS = ["shot", "shot here", "grenade", "throw", "leave", "mine"]


@pytest.mark.parametrize("action", QUANTUM_ACTIONS, ids=ACTION_IDS)
def test_quantum_player_who_stays_on_an_infectious_cell_is_infected_whatever_the_action(action: Step) -> None:
    """Q§4.7: "Оказавшийся здесь здоровый игрок становится больным" and Q§2.1: a turn is one of a
    move, a shot, a grenade, a mine or a throw. A shot, a grenade, a throw or a mine leaves the
    player on the infectious cell, so they are infected as after a bump or a skip."""
    s = game(board(ENC), [(0, 1), (0, 2)], "quantum")
    s.ticks[(0, 1)] = Tick(seat=1, woken_turn=0, infectious=True)
    carry(s, 0, slot=Slot("mine"))
    s, msgs = play(s, 0, action)
    p = s.players[0]
    assert p.health == "sick" and msgs[-1].code == "infected" and msgs[-1].text == "Ты заразился энцефалитом"
    assert p.slot is None                                # a sick player carries no slot item (Q§4.7)


@pytest.mark.parametrize("action", QUANTUM_ACTIONS, ids=ACTION_IDS)
def test_quantum_waker_who_does_not_leave_on_the_first_move_is_infected(action: Step) -> None:
    """Q§4.7: "разбудивший энцефалитного клеща игрок должен немедленно (первым же ходом) покинуть
    опасную клетку" — the waker whose next turn is a shot, a grenade, a throw or a mine has not left."""
    s = game(board(ENC), [(0, 0), (0, 2)], "quantum")
    carry(s, 0, slot=Slot("mine"))
    s, msgs = play(s, 0, Move(RIGHT))
    assert codes(msgs) == ["moved", "tick"]
    s, _ = play(s, 1, Move(DOWN))
    stayed, msgs = play(s, 0, action)
    assert stayed.players[0].health == "sick" and "infected" in codes(msgs)
    left, msgs = play(s, 0, Move(LEFT))                  # leaving at once keeps the waker healthy
    assert left.players[0].health == "healthy" and "infected" not in codes(msgs)


def test_quantum_immune_or_sick_player_staying_on_an_infectious_cell_is_not_affected() -> None:
    """Q§4.7: "На больного ни клещ, ни заразный труп никакого действия не оказывают"; the immune
    hear "Попал на Сушу" there."""
    s = game(board(ENC), [(0, 1), (0, 1)], "quantum")
    s.ticks[(0, 1)] = Tick(seat=1, woken_turn=0, infectious=True)
    carry(s, 0, immune=True)
    carry(s, 1, health="sick")
    s, msgs = play(s, 0, Grenade(UP))
    assert s.players[0].health == "healthy" and "infected" not in codes(msgs)
    s, msgs = play(s, 1, Grenade(UP))
    assert s.players[1].health == "sick" and "infected" not in codes(msgs)


def test_classic_grenades_spent_in_an_arsenal_are_replaced_at_once() -> None:
    """C§5.3: "Израсходованные пули и гранаты незамедлительно заменяются новыми, если игрок попадает в
    Арсенал (или находится в оном)". In an arsenal every grenade blown is replaced before the next
    action, so four grenades go off and the player walks out with three."""
    s = game(board(ARSENAL), [(0, 0), (0, 2)])
    s, msgs = play(s, 0, Grenade(UP), Grenade(UP), Grenade(LEFT), Grenade(DOWN), Move(RIGHT))
    assert codes(msgs).count("grenade") == 4 and "nothing_doing" not in codes(msgs)
    assert codes(msgs).count("refilled") == 4 and msgs[1].text == "У тебя 3 пули, 3 гранаты"
    assert s.players[0].pos == (0, 1) and s.players[0].grenades == 3


def test_classic_ammunition_thrown_or_left_in_an_arsenal_is_replaced_at_once() -> None:
    """C§4.3: the arsenal "Содержит бесконечный запас пуль и гранат" and keeps the player's kit full
    while they are in it (C§5.3), so what they throw or leave there is replaced too."""
    s = game(board(ARSENAL), [(0, 0), (0, 2)])
    s, _ = play(s, 0, Throw(Item.BULLET, RIGHT), Throw(Item.GRENADE, None), Move(RIGHT))
    assert (s.players[0].bullets, s.players[0].grenades) == (3, 3)
    assert s.piles[(0, 0)].grenades == 1 and s.players[0].pos == (0, 1)
    assert s.piles[(0, 1)].bullets == 1                  # a full kit: the thrown bullet stays there


@pytest.mark.parametrize("action", [Shoot(RIGHT), Shoot(None), Grenade(UP), Throw(Item.BULLET, RIGHT)],
                         ids=["shot", "shot here", "grenade", "throw"])
def test_quantum_ammunition_spent_in_an_arsenal_is_replaced_at_once(action: Step) -> None:
    """Q§5.3: "Израсходованные пули и гранаты незамедлительно заменяются новыми, если игрок попадает в
    Арсенал (или находится в оном)"; a shot from an arsenal still misses and spends its bullet
    (Q§5.5), which is then replaced."""
    s = game(board(ARSENAL), [(0, 0), (0, 1)], "quantum")
    s, msgs = play(s, 0, action)
    assert (s.players[0].bullets, s.players[0].grenades) == (3, 3) and msgs[-1].code == "refilled"
    assert s.players[1].health == "healthy"


def test_a_declined_refill_leaves_spent_ammunition_spent() -> None:
    """C§4.3: the arsenal tops the player up "если только он сам не попросил ведущего об ином"."""
    s = game(board(ARSENAL), [(0, 0), (0, 2)])
    s, msgs = play(s, 0, Grenade(UP), Move(RIGHT), refill=False)
    assert s.players[0].grenades == 2 and "refilled" not in codes(msgs)
    q = game(board(ARSENAL), [(0, 0), (0, 1)], "quantum")
    q, msgs = play(q, 0, Grenade(UP), refill=False)
    assert q.players[0].grenades == 2 and "refilled" not in codes(msgs)


def test_staying_in_an_arsenal_after_spending_is_announced_once() -> None:
    """C§5.3 with the stay rule: a grenade replaced at once, then a bump in the arsenal, tells the
    kit once (the replacement), not twice."""
    s = game(board(ARSENAL), [(0, 0), (0, 2)])
    s, msgs = play(s, 0, Grenade(UP), Move(UP))
    assert codes(msgs) == ["grenade", "refilled", "wall"] and s.players[0].grenades == 3
    skip = game(board(ARSENAL), [(0, 0), (0, 2)])
    carry(skip, 0, bullets=1)
    skip, msgs = play(skip, 0, Skip())                   # a plain stay still tells the kit
    assert codes(msgs) == ["skipped", "refilled"] and skip.players[0].bullets == 3
