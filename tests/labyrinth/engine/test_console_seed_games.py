"""Seed 003's example maps played to the end, and a random bot that never breaks an invariant."""
from __future__ import annotations

import json
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.engine import (
    DIRECTIONS,
    Armory,
    Direction,
    Exit,
    Field,
    Key,
    LabyrinthMap,
    RubberRoom,
    Sleep,
    Special,
    Stun,
    Teleport,
    generate_map,
    parse_map,
)
from labyrinth.engine.console import (
    MAX_AMMO,
    ConsoleGame,
    Event,
    HelpShown,
    InventoryShown,
    NoAmmo,
    WokeUp,
    Won,
    game_from_dict,
    game_to_dict,
    new_game,
    play,
)
from labyrinth.engine.examples import FIRST_EXAMPLE, SLEEP_EXAMPLE


def run(game: ConsoleGame, *commands: str) -> tuple[ConsoleGame, list[Event]]:
    every: list[Event] = []
    for command in commands:
        game, events = play(game, command)
        every.extend(events)
    return game, every


def test_the_seeds_first_example_two_players_race_to_the_exit() -> None:
    game = new_game(parse_map(FIRST_EXAMPLE), [(0, 0), (2, 2)], Random(0))
    script = [  # (who, command, every event of the call as (hearer, kind))
        (0, "s", [(0, "moved"), (0, "stunned")]),                  # (1, 0) is a Stun(2)
        (1, "w", [(1, "moved"), (0, "turn_skipped")]),             # into the LEFT rubber room (1, 2)
        (1, "W", [(1, "moved"), (0, "turn_skipped")]),             # the rubber room's lie
        (1, "a", [(1, "moved")]),                                  # let out leftwards to (1, 1)
        (0, "d", [(0, "moved")]),                                  # both on (1, 1)
        (1, "w", [(1, "moved"), (1, "stunned")]),                  # (0, 1) is a Stun(2) too
        (0, "w", [(0, "moved"), (0, "stunned"), (1, "turn_skipped"), (0, "turn_skipped"),
                  (1, "turn_skipped"), (0, "turn_skipped")]),
        (1, "d", [(1, "moved")]),                                  # onto the exit cell (0, 2)
        (0, "x w", [(0, "no_ammo")]),                              # free: still player 0's turn
        (0, "d", [(0, "moved")]),
        (1, "w", [(None, "won")]),                                 # Exit(UP): player 2 is out first
    ]
    for who, command, expected in script:
        assert game.awaiting == who, command
        game, events = play(game, command)
        assert [(e.player, e.kind) for e in events] == expected, command
    assert game.over and game.winner == 1


def test_the_seeds_first_example_armory_is_on_the_third_row() -> None:
    game = new_game(parse_map(FIRST_EXAMPLE), [(1, 0)], Random(0))  # a start does not stun
    game, events = run(game, "s")
    assert [e.kind for e in events] == ["moved", "armory"]
    assert game.players[0].cell == (0, 2, 0) and game.players[0].ammo == MAX_AMMO


def test_the_seeds_sleep_example_the_spirit_dreams_two_turns_then_wakes_on_the_sleep_cell() -> None:
    game = new_game(parse_map(SLEEP_EXAMPLE), [(1, 1)], Random(0))
    game, events = run(game, "a", "w", "d")
    assert [e.kind for e in events] == ["moved", "wall", "wall", "woke_up"]
    assert events[-1] == WokeUp(0, ammo=0, has_key=False)
    assert game.players[0].cell == (0, 1, 0)
    game, events = run(game, "w", "d", "w")
    assert events[-1] == Won(None, 0)


# --- the random bot ------------------------------------------------------------------------------

COMMANDS = ["w", "a", "s", "d", "x w", "x a", "x s", "x d", "e", "?"]


@st.composite
def maps(draw: st.DrawFn) -> LabyrinthMap:
    """Any small map (not only ones passing check): walls, every special, dreams leading deeper."""
    count = draw(st.integers(1, 3))
    sizes = [(draw(st.integers(1, 4)), draw(st.integers(1, 4))) for _ in range(count)]
    fields = []
    for index, (rows, cols) in enumerate(sizes):
        def special(row: int, col: int, rows: int = rows, cols: int = cols,
                    index: int = index) -> Special | None:
            options: list[st.SearchStrategy[Special | None]] = [
                st.none(), st.none(), st.none(),
                st.builds(Stun, st.integers(1, 3)),
                st.builds(RubberRoom, st.sampled_from(DIRECTIONS)),
                st.builds(Teleport, st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))),
                st.just(Armory()), st.just(Key()),
                st.builds(Exit, st.sampled_from(DIRECTIONS)),
            ]
            if index + 1 < count:
                deeper = st.integers(index + 1, count - 1).flatmap(
                    lambda f: st.tuples(st.just(f), st.integers(0, sizes[f][0] - 1),
                                        st.integers(0, sizes[f][1] - 1)))
                options.append(st.builds(Sleep, st.integers(1, 4), deeper))
            return draw(st.one_of(options))

        right = tuple(tuple(draw(st.booleans()) for _ in range(cols - 1)) for _ in range(rows))
        down = tuple(tuple(draw(st.booleans()) for _ in range(cols)) for _ in range(rows - 1))
        cells = tuple(tuple(special(r, c) for c in range(cols)) for r in range(rows))
        fields.append(Field(rows, cols, right, down, cells))
    return LabyrinthMap(tuple(fields))


def check_invariants(before: ConsoleGame, after: ConsoleGame, events: tuple[Event, ...], text: str) -> None:
    m = after.map
    assert game_from_dict(m, json.loads(json.dumps(game_to_dict(after)))) == after
    key_cells = sum(isinstance(s, Key) for _, s in m.specials())
    assert len(after.keys_on_ground) + sum(p.keys for p in after.players) == key_cells
    for p in after.players:
        assert 0 <= p.ammo <= MAX_AMMO and p.stun >= 0
        assert m.contains(p.cell) and p.body[0] == 0 and p.start[0] == 0
        assert (p.cell[0] == 0) == (p.dreams == ())
        levels = [d.keys for d in p.dreams] + [p.keys]
        assert levels == sorted(levels)  # a dream never holds fewer keys than it was entered with
        for depth, dream in enumerate(p.dreams):
            assert dream.turns_left >= 1 and 0 <= dream.ammo <= MAX_AMMO
            assert isinstance(m.special(dream.wake_cell), Sleep)
            inner = p.dreams[depth + 1].wake_cell if depth + 1 < len(p.dreams) else p.cell
            assert inner[0] > dream.wake_cell[0]
    for e in events:
        assert (e.player is None) == isinstance(e, Won)
        assert e.player is None or 0 <= e.player < len(after.players)
    assert after.over == any(isinstance(e, Won) for e in events)
    if after.over:
        assert after.winner == before.awaiting
        winner = after.players[after.winner]  # type: ignore[index]
        exit_ = m.special(winner.cell)
        assert winner.cell[0] == 0 and isinstance(exit_, Exit)
        assert winner.keys > 0 or not m.key_required()
    else:
        assert after.awaiting is not None and after.players[after.awaiting].stun == 0
    if text:
        free = len(events) == 1 and isinstance(events[0], (InventoryShown, HelpShown, NoAmmo))
        assert free == (after == before), text


def bot_plays(game: ConsoleGame, commands: list[str]) -> None:
    """Whoever is awaited types the next command, until the list or the game ends."""
    for text in commands:
        if game.over:
            break
        after, events = play(game, text)
        check_invariants(game, after, events, text)
        game = after


@settings(max_examples=80)
@given(m=maps(), players=st.integers(1, 3), seed=st.integers(0, 2**16),
       commands=st.lists(st.sampled_from(COMMANDS), min_size=1, max_size=50))
def test_a_random_bot_never_breaks_an_invariant(m: LabyrinthMap, players: int, seed: int,
                                                commands: list[str]) -> None:
    game = new_game(m, [None] * players, Random(seed))
    check_invariants(game, game, (), "")
    bot_plays(game, commands)


@settings(max_examples=30)
@given(seed=st.integers(0, 2**16), rows=st.integers(2, 8), cols=st.integers(2, 8), players=st.integers(1, 4),
       commands=st.lists(st.sampled_from(COMMANDS), min_size=1, max_size=80))
def test_a_random_bot_on_generated_maps_never_breaks_an_invariant(seed: int, rows: int, cols: int,
                                                                 players: int, commands: list[str]) -> None:
    rng = Random(seed)
    bot_plays(new_game(generate_map(rows, cols, rng), [None] * players, rng), commands)


@settings(max_examples=50)
@given(seed=st.integers(0, 2**16), commands=st.lists(st.sampled_from(COMMANDS), max_size=40))
def test_the_same_commands_replay_to_the_same_game(seed: int, commands: list[str]) -> None:
    def replay() -> ConsoleGame:
        game = new_game(parse_map(FIRST_EXAMPLE), [None, None], Random(seed))
        for text in commands:
            if game.over:
                break
            game, _ = play(game, text)
        return game

    assert replay() == replay()


def test_directions_cover_wasd() -> None:
    assert [Direction.from_wasd(k) for k in "wasd"] == list(DIRECTIONS)
