"""A turn that ends on the cell it began on (seed 002): the infectious cell (Q§4.7) acts on the player
whatever the turn was."""
from __future__ import annotations

import pytest

from labyrinth.engine.paper.requests import Grenade, Item, Move, PlaceMine, Shoot, Step, Throw
from labyrinth.engine.paper.state import Slot, Tick

from tests.labyrinth.paper.rules_boards import DOWN, LEFT, RIGHT, UP, board, carry, codes, game, play

ENC = """\
 _ _ _
|С Э С|
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
