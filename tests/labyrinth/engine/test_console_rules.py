"""Seed 003's console game, rule by rule, on hand-made maps (labyrinth/engine/console.py)."""
from __future__ import annotations

from random import Random

import pytest

from labyrinth.engine import parse_map
from labyrinth.engine.console import (
    ArmoryVisited,
    ConsoleGame,
    Event,
    ExitLocked,
    HelpShown,
    HitWall,
    InventoryShown,
    KeyFound,
    Killed,
    Move,
    Moved,
    NoAmmo,
    NotYourTurn,
    ShotFired,
    ShowHelp,
    Stunned,
    Teleported,
    TurnSkipped,
    WokeUp,
    Won,
    act,
    command_text,
    describe,
    events_for,
    new_game,
    parse_command,
    pass_turn,
    play,
    random_start,
)


def game_on(text: str, *starts: tuple[int, int] | None, seed: int = 0) -> ConsoleGame:
    return new_game(parse_map(text), list(starts), Random(seed))


def run(game: ConsoleGame, *commands: str) -> tuple[ConsoleGame, list[Event]]:
    """Each command is typed by whoever is awaited; all the events, in order."""
    every: list[Event] = []
    for command in commands:
        game, events = play(game, command)
        every.extend(events)
    return game, every


def kinds(events: list[Event], player: int | None = None) -> list[str]:
    chosen = events if player is None else events_for(events, player)
    return [e.kind for e in chosen]


CORRIDOR = "1 4\n. . . E\nE Exit(RIGHT)\n"


# --- commands -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text, canonical", [
    ("w", "W"), ("A", "A"), (" s ", "S"), ("d\n", "D"), ("x w", "X W"), ("X d", "X D"), ("xa", "X A"),
    ("E", "E"), ("e", "E"), ("?", "?"),
])
def test_commands_are_case_insensitive(text: str, canonical: str) -> None:
    command = parse_command(text)
    assert command is not None
    assert command_text(command) == canonical


@pytest.mark.parametrize("text", ["", "q", "ww", "x", "x q", "go", "E E", "X W W"])
def test_unknown_commands_are_refused(text: str) -> None:
    assert parse_command(text) is None


def test_an_unknown_command_is_answered_with_the_help_and_costs_nothing() -> None:
    game = game_on(CORRIDOR, (0, 0), (0, 1))
    after, events = play(game, "jump")
    assert after == game
    assert isinstance(events[0], HelpShown) and "Unknown command" in events[0].text


# --- moving -------------------------------------------------------------------------------------


def test_a_single_player_walks_the_corridor_and_leaves_through_the_exit() -> None:
    game = game_on(CORRIDOR, (0, 0))
    game, events = run(game, "d", "D", "d")
    assert kinds(events) == ["moved", "moved", "moved"]
    assert game.players[0].cell == (0, 0, 3)
    game, events = play(game, "d")
    assert events == (Won(None, 0),)
    assert game.over and game.winner == 0 and game.awaiting is None
    with pytest.raises(NotYourTurn):
        play(game, "d")


def test_a_wall_stops_the_player_and_spends_the_turn() -> None:
    game = game_on("1 3\n.|. E\nE Exit(RIGHT)\n", (0, 0), (0, 2))
    game, events = play(game, "d")
    assert events == (HitWall(0),)
    assert game.players[0].cell == (0, 0, 0) and game.awaiting == 1


def test_the_outer_border_is_a_wall_and_the_exit_opens_only_its_own_side() -> None:
    game = game_on(CORRIDOR, (0, 3))
    game, events = run(game, "w", "s", "a")
    assert kinds(events) == ["wall", "wall", "moved"]
    game, events = run(game, "d", "w")
    assert kinds(events) == ["moved", "wall"]  # UP from the exit cell is a wall
    assert not game.over


def test_horizontal_walls_from_the_wall_lines() -> None:
    text = "2 2\n. .\n_  \n. E\nE Exit(DOWN)\n"
    game = game_on(text, (0, 0))
    game, events = run(game, "s", "d", "s", "s")
    assert kinds(events) == ["wall", "moved", "moved", "won"]


def test_the_rubber_room_lies_that_the_player_moved_and_lets_them_out_only_its_way() -> None:
    game = game_on("1 3\n. R E\nR RubberRoom(RIGHT)\nE Exit(RIGHT)\n", (0, 0))
    game, events = play(game, "d")
    assert events == (Moved(0),)  # entering says nothing more
    game, events = run(game, "a", "w", "s")
    assert events == [Moved(0), Moved(0), Moved(0)]  # the lie: exactly a plain step's answer
    assert game.players[0].cell == (0, 0, 1)
    game, events = play(game, "d")
    assert game.players[0].cell == (0, 0, 2)


def test_a_rubber_rooms_own_direction_can_still_be_walled() -> None:
    game = game_on("1 3\n. R|E\nR RubberRoom(RIGHT)\nE Exit(RIGHT)\n", (0, 1))
    game, events = play(game, "d")
    assert events == (HitWall(0),)


def test_a_teleport_says_it_fired_but_not_where_and_does_not_chain() -> None:
    text = "1 5\n. T . U E\nT Teleport((0, 3))\nU Teleport((0, 0))\nE Exit(RIGHT)\n"
    game = game_on(text, (0, 0))
    game, events = play(game, "d")
    assert events == (Moved(0), Teleported(0))
    assert game.players[0].cell == (0, 0, 3)  # on the other teleport, which did not fire
    assert all("0, 3" not in describe(e) for e in events)


def test_a_teleport_lands_on_a_special_cell_and_that_cell_acts() -> None:
    game = game_on("1 4\n. T . A\nT Teleport((0, 3))\nA Armory()\n", (0, 0))
    game, events = play(game, "d")
    assert kinds(events) == ["moved", "teleported", "armory"]
    assert game.players[0].ammo == 3


# --- stuns --------------------------------------------------------------------------------------


def test_a_stun_skips_turns_and_says_how_many_at_the_start_of_each() -> None:
    game = game_on("1 4\n. S . E\nS Stun(2)\nE Exit(RIGHT)\n", (0, 0), (0, 3))
    game, events = play(game, "d")
    assert events == (Moved(0), Stunned(0, 2))
    game, events = play(game, "a")  # player 1 moves; player 0's first lost turn follows
    assert events == (Moved(1), TurnSkipped(0, remaining=1))
    assert game.awaiting == 1
    game, events = play(game, "d")
    assert events == (Moved(1), TurnSkipped(0, remaining=0))
    game, events = play(game, "a")
    assert game.awaiting == 0
    assert game.players[0].stun == 0


def test_a_single_stunned_player_loses_their_turns_in_one_go() -> None:
    game = game_on("1 3\n. S E\nS Stun(3)\nE Exit(RIGHT)\n", (0, 0))
    game, events = play(game, "d")
    assert kinds(events) == ["moved", "stunned", "turn_skipped", "turn_skipped", "turn_skipped"]
    assert game.awaiting == 0 and game.players[0].stun == 0


# --- the armory and shots ----------------------------------------------------------------------


SHOOTING_RANGE = "1 5\n. A . . .\nA Armory()\n"


def test_shooting_without_bullets_is_refused_and_the_turn_is_not_spent() -> None:
    game = game_on(SHOOTING_RANGE, (0, 0), (0, 4))
    after, events = play(game, "x d")
    assert events == (NoAmmo(0),)
    assert after == game and after.awaiting == 0


def test_the_armory_fills_the_ammo_to_three_at_most() -> None:
    game = game_on(SHOOTING_RANGE, (0, 0), (0, 4))
    game, events = play(game, "d")
    assert events == (Moved(0), ArmoryVisited(0, 3))
    assert game.players[0].ammo == 3


def test_a_shot_kills_the_first_player_in_line_who_returns_to_start_with_nothing_and_skips_a_turn() -> None:
    game = game_on(SHOOTING_RANGE, (0, 0), (0, 4))
    game, _ = run(game, "d", "a")  # 0 at the armory (3 bullets), 1 steps to (0, 3)
    game, events = play(game, "x d")
    assert events[:2] == (ShotFired(0, hit=True, ammo=2), Killed(1, in_dream=False))
    victim = game.players[1]
    assert victim.cell == (0, 0, 4) and victim.ammo == 0 and victim.stun == 0
    assert events[2] == TurnSkipped(1, remaining=0)  # the skipped turn comes at once
    assert game.awaiting == 0


def test_a_missed_shot_spends_the_bullet_and_the_turn() -> None:
    game = game_on(SHOOTING_RANGE, (0, 0), (0, 4))
    game, _ = run(game, "d", "a")
    game, events = play(game, "x a")
    assert events == (ShotFired(0, hit=False, ammo=2),)
    assert game.awaiting == 1


def test_walls_stop_bullets() -> None:
    game = game_on("1 4\n. A|. .\nA Armory()\n", (0, 0), (0, 2))
    game, _ = run(game, "d", "d")
    game, events = play(game, "x d")
    assert events == (ShotFired(0, hit=False, ammo=2),)


def test_the_shooter_only_learns_hit_or_miss_and_the_victim_only_that_they_died() -> None:
    game = game_on(SHOOTING_RANGE, (0, 0), (0, 4))
    game, _ = run(game, "d", "a")
    _, events = play(game, "x d")
    assert kinds(list(events), 0) == ["shot"]
    assert kinds(list(events), 1) == ["killed", "turn_skipped"]


def test_a_dead_player_loses_their_bullets() -> None:
    text = "1 5\nA . . . B\nA Armory()\nB Armory()\n"
    game = game_on(text, (0, 1), (0, 3))
    game, _ = run(game, "a", "d")  # both armed
    game, events = play(game, "x d")
    assert kinds(events) == ["shot", "killed", "turn_skipped"]
    assert game.players[1].ammo == 0 and game.players[1].cell == (0, 0, 3)


def test_one_bullet_kills_everyone_standing_in_the_first_occupied_cell() -> None:
    game = game_on(SHOOTING_RANGE, (0, 1), (0, 3), (0, 3))
    game, events = play(game, "x d")  # player 0 starts on the armory without bullets
    assert events == (NoAmmo(0),)
    game, _ = run(game, "a", "w", "w", "d", "w", "w")  # 0 leaves the armory and comes back: 3 bullets
    game, events = play(game, "x d")
    assert [e for e in events if isinstance(e, Killed)] == [Killed(1, False), Killed(2, False)]


# --- the key ------------------------------------------------------------------------------------


KEYED = "1 4\nK . . E\nK Key()\nE Exit(RIGHT)\n"


def test_without_the_key_the_exit_stays_locked() -> None:
    game = game_on(KEYED, (0, 3))
    game, events = play(game, "d")
    assert events == (ExitLocked(0),)
    assert not game.over


def test_with_the_key_the_player_leaves_and_wins() -> None:
    game = game_on(KEYED, (0, 1))
    game, events = play(game, "a")
    assert events == (Moved(0), KeyFound(0))
    assert game.keys_on_ground == ()
    game, events = run(game, "d", "d", "d", "d")
    assert kinds(events)[-1] == "won" and game.winner == 0


def test_a_shot_key_holder_drops_the_key_where_they_fell() -> None:
    text = "1 5\nK . A . E\nK Key()\nA Armory()\nE Exit(RIGHT)\n"
    game = game_on(text, (0, 1), (0, 3))
    game, _ = run(game, "a", "a")  # 0 takes the key; 1 reaches the armory
    game, events = run(game, "d", "x a")  # 0 steps to (0, 1); 1 shoots left
    assert Killed(0, in_dream=False) in events
    assert game.keys_on_ground == ((0, 0, 1),)
    assert game.players[0].keys == 0 and game.players[0].cell == (0, 0, 1)
    # the key lies on the dead player's own start, but only arriving on a cell picks a key up:
    # player 1 walks in first
    assert game.awaiting == 1
    game, events = play(game, "a")
    assert events == (Moved(1), KeyFound(1))


def test_inventory_and_help_are_free() -> None:
    game = game_on(KEYED, (0, 1), (0, 2))
    game, _ = play(game, "a")
    game, _ = play(game, "d")
    after, events = play(game, "e")
    assert events == (InventoryShown(0, ammo=0, has_key=True),)
    assert after == game
    after, events = act(game, 0, ShowHelp())
    assert after == game and "X <W/A/S/D>" in describe(events[0])


def test_acting_out_of_turn_is_refused() -> None:
    game = game_on(CORRIDOR, (0, 0), (0, 1))
    with pytest.raises(NotYourTurn):
        act(game, 1, Move(parse_command("d").direction))  # type: ignore[union-attr]


# --- dreams -------------------------------------------------------------------------------------


DREAM = """2
1 3
. Z E
1 3
K . F
Z Sleep(2, (1, 0, 2))
E Exit(RIGHT)
K Key()
F Exit(RIGHT)
"""


def test_a_dream_is_not_announced_and_lasts_n_turns_then_restores_the_inventory() -> None:
    game = game_on(DREAM, (0, 0))
    game, events = play(game, "d")
    assert events == (Moved(0),)  # not told of the sleep
    me = game.players[0]
    assert me.cell == (1, 0, 2) and me.body == (0, 0, 1)
    game, events = play(game, "a")
    assert events == (Moved(0),)
    game, events = play(game, "a")
    assert events == (Moved(0), KeyFound(0), WokeUp(0, ammo=0, has_key=False))
    me = game.players[0]
    assert me.cell == (0, 0, 1) and me.keys == 0 and me.dreams == ()
    assert game.keys_on_ground == ((1, 0, 0),)  # the dream's key stays in the dream
    assert all("turn" not in describe(e) for e in events)


def test_a_dreams_exit_is_locked_without_a_key_when_the_map_has_one() -> None:
    game = game_on(DREAM.replace("Sleep(2,", "Sleep(9,"), (0, 0))
    game, events = run(game, "d", "d")
    assert events[-1] == ExitLocked(0)
    assert game.players[0].dreams != ()


def test_leaving_a_dreams_field_wakes_the_player_without_winning() -> None:
    text = "2\n1 3\nK Z E\n1 3\nK . F\nZ Sleep(9, (1, 0, 2))\nE Exit(RIGHT)\nK Key()\nF Exit(RIGHT)\n"
    game = game_on(text, (0, 0))
    assert game.players[0].keys == 1 and game.keys_on_ground == ((1, 0, 0),)  # started on the key
    game, events = run(game, "d", "d")
    assert events == [Moved(0), WokeUp(0, ammo=0, has_key=True)]
    assert not game.over and game.players[0].cell == (0, 0, 1)
    assert game.keys_on_ground == ((1, 0, 0),)
    game, events = run(game, "d", "d")
    assert events == [Moved(0), Won(None, 0)]


def test_a_key_found_in_a_dream_stays_in_the_dream_where_the_spirit_woke() -> None:
    text = "2\n1 3\nK Z E\n1 3\nK . F\nZ Sleep(2, (1, 0, 2))\nE Exit(RIGHT)\nK Key()\nF Exit(RIGHT)\n"
    game = game_on(text, (0, 2))
    game, events = run(game, "a", "a", "a")
    assert kinds(events) == ["moved", "moved", "moved", "key_found", "woke_up"]
    assert events[-1] == WokeUp(0, ammo=0, has_key=False)
    assert game.keys_on_ground == ((0, 0, 0), (1, 0, 0))


def test_the_sleeping_body_can_be_shot_and_wakes_at_its_start() -> None:
    text = "2\n1 4\n. Z . A\n1 2\n. .\nZ Sleep(3, (1, 0, 0))\nA Armory()\n"
    game = game_on(text, (0, 0), (0, 2))
    game, _ = run(game, "d", "d")  # 0 sleeps; 1 arms at (0, 3)
    game, events = run(game, "d", "x a")
    assert Killed(0, in_dream=False) in events
    me = game.players[0]
    assert me.dreams == () and me.cell == (0, 0, 0) and me.ammo == 0


def test_dreaming_spirits_shoot_each_other_and_the_dead_one_wakes_with_its_real_inventory() -> None:
    text = "2\n1 3\nZ A Y\n1 3\n. B .\nZ Sleep(4, (1, 0, 0))\nY Sleep(4, (1, 0, 2))\nA Armory()\nB Armory()\n"
    game = game_on(text, (0, 1), (0, 1))
    game, _ = run(game, "a", "d")  # both asleep, no bullets
    game, _ = run(game, "d", "e")  # 0's spirit arms at (1, 0, 1)
    assert game.awaiting == 1
    game, _ = play(game, "w")  # 1 bumps the wall
    game, events = play(game, "x d")
    assert kinds(events) == ["shot", "killed", "woke_up"]
    assert events_for(events, 1) == [Killed(1, in_dream=True), WokeUp(1, ammo=0, has_key=False)]
    assert game.players[1].cell == (0, 0, 2) and game.players[1].stun == 0
    assert game.players[0].ammo == 2  # 0's spirit spent one


def test_waking_gives_back_the_bullets_spent_in_the_dream() -> None:
    text = "2\n1 3\nA Z .\n1 2\n. .\nZ Sleep(2, (1, 0, 0))\nA Armory()\n"
    game = game_on(text, (0, 1))
    game, _ = run(game, "a", "d")  # armed at (0, 0), then asleep on (0, 1)
    game, events = run(game, "x d", "x d")
    assert kinds(events) == ["shot", "shot", "woke_up"]
    assert events[-1] == WokeUp(0, ammo=3, has_key=False)
    assert game.players[0].ammo == 3


def test_random_starts_are_plain_cells_of_field_zero_and_follow_the_seed() -> None:
    m = parse_map(DREAM)
    assert {random_start(m, Random(s)) for s in range(30)} == {(0, 0, 0)}
    text = "2 3\n. . .\n. . .\n. S .\nS Stun(1)\n"
    firsts = [new_game(parse_map(text), [None, None], Random(s)).players for s in range(5)]
    again = [new_game(parse_map(text), [None, None], Random(s)).players for s in range(5)]
    assert firsts == again and len({p for ps in firsts for p in ps}) > 1
    assert all(p.cell != (0, 1, 1) for ps in firsts for p in ps)


def test_a_passed_turn_is_spent_doing_nothing_and_counts_in_a_dream() -> None:
    game = game_on(DREAM, (0, 0), (0, 0))
    game, _ = play(game, "d")  # player 0 falls asleep for 2 turns
    game, events = pass_turn(game, 1)
    assert events == () and game.awaiting == 0 and game.players[1].cell == (0, 0, 0)
    game, events = pass_turn(game, 0)
    game, events = pass_turn(game, 1)
    game, events = pass_turn(game, 0)
    assert events == (WokeUp(0, ammo=0, has_key=False),)
    with pytest.raises(NotYourTurn):
        pass_turn(game, 0)


NESTED = """3
1 2
. Z
1 2
. Y
1 2
. .
Z Sleep(2, (1, 0, 0))
Y Sleep(2, (2, 0, 0))
"""


def test_a_dream_inside_a_dream_has_its_own_count_and_the_outer_one_waits() -> None:
    game = game_on(NESTED, (0, 0))
    game, events = run(game, "d")  # asleep: spirit on (1, 0, 0), 2 turns
    game, events = run(game, "d")  # 1st turn of dream 1: onto Y, asleep again on (2, 0, 0)
    me = game.players[0]
    assert me.cell == (2, 0, 0) and [d.turns_left for d in me.dreams] == [1, 2]
    game, events = run(game, "d", "a")  # dream 2's two turns; dream 1 waits
    assert events[-1] == WokeUp(0, ammo=0, has_key=False)
    assert game.players[0].cell == (1, 0, 1) and [d.turns_left for d in game.players[0].dreams] == [1]
    game, events = run(game, "a")  # dream 1's last turn
    assert events == [Moved(0), WokeUp(0, ammo=0, has_key=False)]
    assert game.players[0].cell == (0, 0, 1) and game.players[0].dreams == ()


def test_a_teleport_landing_on_a_sleep_cell_starts_no_dream() -> None:
    text = "2\n1 3\n. T Z\n1 1\n.\nT Teleport((0, 2))\nZ Sleep(2, (1, 0, 0))\n"
    game = game_on(text, (0, 0))
    game, events = play(game, "d")
    assert events == (Moved(0), Teleported(0))
    assert game.players[0].cell == (0, 0, 2) and game.players[0].dreams == ()


def test_bullets_fly_through_rubber_rooms() -> None:
    text = "1 4\nA R . E\nA Armory()\nR RubberRoom(LEFT)\nE Exit(RIGHT)\n"
    game = game_on(text, (0, 2), (0, 3))
    game, _ = run(game, "a", "w")  # 0 into the rubber room, 1 bumps the wall
    game, _ = run(game, "a", "w")  # 0 leaves it by its own way, onto the armory
    game, events = play(game, "x d")
    assert kinds(events) == ["shot", "killed", "turn_skipped"]  # across the rubber room to (0, 3)


def test_a_bullet_leaving_through_an_exits_opening_is_lost() -> None:
    game = game_on("1 2\nA E\nA Armory()\nE Exit(RIGHT)\n", (0, 1), (0, 1))
    game, _ = run(game, "a", "w")  # 0 arms; 1 stays on the exit cell
    game, events = run(game, "d", "w", "x d")  # 0 onto the exit cell too, shoots out through it
    assert events[-1] == ShotFired(0, hit=False, ammo=2)


def test_death_replaces_a_stun_with_one_skipped_turn() -> None:
    text = "1 4\nA . S .\nA Armory()\nS Stun(3)\n"
    game = game_on(text, (0, 1), (0, 3))
    game, _ = run(game, "a", "a")  # 0 arms; 1 is stunned for 3 on (0, 2)
    game, events = play(game, "x d")
    assert Killed(1, in_dream=False) in events
    assert [e for e in events if isinstance(e, TurnSkipped)] == [TurnSkipped(1, remaining=0)]
    assert game.awaiting == 0 and game.players[1].stun == 0 and game.players[1].cell == (0, 0, 3)


def test_a_body_shot_deep_in_dreams_drops_each_dreams_keys_there_and_its_own_on_the_sleep_cell() -> None:
    text = "2\n1 4\nK Z . A\n1 2\n. L\nK Key()\nL Key()\nZ Sleep(5, (1, 0, 0))\nA Armory()\n"
    game = game_on(text, (0, 0), (0, 2))
    assert game.players[0].keys == 1  # started on the key
    game, _ = run(game, "d", "d")  # 0 sleeps on (0, 1) with the key; 1 arms on (0, 3)
    game, _ = run(game, "d", "w")  # 0's spirit takes the dream's key; 1 bumps the wall
    assert game.players[0].keys == 2
    game, _ = run(game, "a", "x a")  # 1 shoots the sleeping body on (0, 1)
    assert game.keys_on_ground == ((0, 0, 1), (1, 0, 0))  # the spirit had walked back to (1, 0, 0)
    assert game.players[0].keys == 0 and game.players[0].cell == (0, 0, 0)
