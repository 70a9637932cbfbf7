"""`manage.py labyrinth`: seed 003's command line (check, an interactive game through stdin, generate)."""
from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from labyrinth.engine import parse_map, unreachable_cells
from labyrinth.engine.examples import FIRST_EXAMPLE, SLEEP_EXAMPLE

ROOT = Path(__file__).resolve().parents[2]
CORRIDOR = "1 4\n. . . E\nE Exit(RIGHT)\n"
WALLED_IN = "1 3\n.|. E\nE Exit(RIGHT)\n"  # (0, 0) cannot reach the exit
BROKEN = "2 2\n. .\n. .\n. X\n"  # X has no legend line


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def labyrinth(*args: str, stdin: str | None = None) -> str:
    out = StringIO()
    extra = {} if stdin is None else {"stdin": StringIO(stdin)}
    call_command("labyrinth", *args, stdout=out, **extra)
    return out.getvalue()


# --- check --------------------------------------------------------------------------------------


def test_check_passes_a_map_whose_exit_is_reachable_from_every_cell(tmp_path: Path) -> None:
    path = write(tmp_path, "good.txt", FIRST_EXAMPLE)
    assert labyrinth("check", "--map", path) == f"{path}: OK, the exit can be reached from every cell\n"


def test_check_takes_several_maps_and_names_each_failure(tmp_path: Path) -> None:
    good = write(tmp_path, "good.txt", SLEEP_EXAMPLE)
    walled = write(tmp_path, "walled.txt", WALLED_IN)
    broken = write(tmp_path, "broken.txt", BROKEN)
    missing = str(tmp_path / "missing.txt")
    out = StringIO()
    with pytest.raises(CommandError, match="3 of 4 map"):
        call_command("labyrinth", "check", "--map", good, walled, broken, missing, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"{good}: OK, the exit can be reached from every cell"
    assert lines[1] == f"{walled}: FAILED, no way out from 1 cell(s): (0, 0)"
    assert lines[2].startswith(f"{broken}: line 4: ") and "X" in lines[2] and lines[2].endswith("(FAILED)")
    assert lines[3].startswith(f"{missing}: cannot read the map")


# --- generate -----------------------------------------------------------------------------------


def test_generate_writes_a_map_that_passes_check_and_the_seed_repeats_it(tmp_path: Path) -> None:
    first, second = str(tmp_path / "a.txt"), str(tmp_path / "b.txt")
    assert labyrinth("generate", "--size", "8", "8", "--out", first, "--seed", "7") == \
        f"wrote {first}: a 8x8 labyrinth, seed 7\n"
    labyrinth("generate", "--size", "8", "8", "--out", second, "--seed", "7")
    text = Path(first).read_text()
    assert text == Path(second).read_text()
    m = parse_map(text)
    assert (m.fields[0].rows, m.fields[0].cols) == (8, 8) and unreachable_cells(m) == []
    assert "OK" in labyrinth("check", "--map", first)


def test_generate_refuses_a_bad_size(tmp_path: Path) -> None:
    with pytest.raises(CommandError):
        labyrinth("generate", "--size", "0", "8", "--out", str(tmp_path / "x.txt"))


# --- game ---------------------------------------------------------------------------------------


def test_a_single_player_game_driven_through_stdin_to_a_win(tmp_path: Path) -> None:
    path = write(tmp_path, "m.txt", CORRIDOR)
    out = labyrinth("game", "--map", path, "--start_positions", "(0,0)", stdin="d\nE\nD\nq\nd\nd\n")
    assert out.splitlines() == [
        "The game begins: 1 player(s). Type ? for help.",
        "Player 1, your move:", "[player 1] You moved.",
        "Player 1, your move:", "[player 1] Inventory: 0 bullets, no key.",
        "Player 1, your move:", "[player 1] You moved.",
        "Player 1, your move:", "[player 1] Unknown command 'q'.",
        *[f"[player 1] {line}" for line in HELP_LINES],
        "Player 1, your move:", "[player 1] You moved.",
        "Player 1, your move:", "Player 1 found the way out and wins! The game is over.",
    ]


HELP_LINES = [
    "W / A / S / D - step up / left / down / right (one turn)",
    "X <W/A/S/D>  - shoot in that direction (one turn; a turn is spent only with a bullet)",
    "E            - your inventory (free)",
    "?            - this help (free)",
    "Commands are case-insensitive.",
]


def test_two_players_each_hear_their_own_answers_at_their_own_turn(tmp_path: Path) -> None:
    path = write(tmp_path, "m.txt", "1 5\n. A . . E\nA Armory()\nE Exit(RIGHT)\n")
    # player 1 arms and shoots player 2, who hears of it at their next (skipped) turn
    moves = "d\nd\nx d\nd\na\nd\nw\nd\nw\nd\n"
    out = labyrinth("game", "--map", path, "--players", "2", "--start_positions", "(0,0)", "(0,2)",
                    stdin=moves)
    lines = out.splitlines()
    shot = lines.index("[player 1] Bang! You hit someone. Bullets left: 2.")
    assert lines[shot + 1:shot + 3] == [
        "[player 2] You are stunned and skip this turn; 0 more to skip after it.",
        "Player 1, your move:",
    ]
    told = lines.index("[player 2] You were shot! You are back at your start with an empty inventory "
                       "and skip your next turn.")
    assert told > shot + 2 and lines[told + 1] == "Player 2, your move:"
    assert lines[-1] == "Player 1 found the way out and wins! The game is over."


def test_missing_start_positions_are_asked_for_with_the_field_size(tmp_path: Path) -> None:
    path = write(tmp_path, "m.txt", CORRIDOR)
    out = labyrinth("game", "--map", path, "--players", "2", "--start_positions", "(0,2)",
                    stdin="(5,5)\nhello\n(0, 3)\nd\nd\n")
    lines = out.splitlines()
    ask = "Player 2, your start position (row,col) on the 1x4 field (rows 0..0, cols 0..3):"
    assert lines[:5] == [ask, "(5, 5) is not on the 1x4 field", ask,
                         "bad start positions 'hello': write them as (row,col) (row,col) ...", ask]
    assert lines[-1] == "Player 2 found the way out and wins! The game is over."


def test_random_positions_fill_the_missing_starts_and_follow_the_seed(tmp_path: Path) -> None:
    path = write(tmp_path, "m.txt", FIRST_EXAMPLE)
    runs = [labyrinth("game", "--map", path, "--players", "3", "--start_positions", "(0,0)",
                      "--random_positions", "--seed", "5", stdin="e\n" * 1 + "d\n" * 12) for _ in range(2)]
    assert runs[0] == runs[1]
    assert "your start position" not in runs[0]


def test_input_ending_abandons_the_game(tmp_path: Path) -> None:
    path = write(tmp_path, "m.txt", CORRIDOR)
    out = labyrinth("game", "--map", path, "--random_positions", stdin="a\n")
    assert out.splitlines()[-1] == "Input ended: the game is abandoned."


@pytest.mark.parametrize("args, message", [
    (["--players", "0"], "at least 1"),
    (["--players", "1", "--start_positions", "(0,0)", "(0,1)"], "2 start positions for 1 player"),
    (["--start_positions", "(0,9)"], "not on the 1x4 field"),
    (["--start_positions", "zero"], "bad start positions"),
])
def test_bad_game_arguments_are_refused(tmp_path: Path, args: list[str], message: str) -> None:
    path = write(tmp_path, "m.txt", CORRIDOR)
    with pytest.raises(CommandError, match=message):
        labyrinth("game", "--map", path, *args, stdin="")


def test_a_bad_map_is_refused_with_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "m.txt", BROKEN)
    with pytest.raises(CommandError, match=r"line 4"):
        labyrinth("game", "--map", path, stdin="")


def test_the_real_command_line_with_the_seeds_arguments(tmp_path: Path) -> None:
    path = write(tmp_path, "m.txt", CORRIDOR)
    done = subprocess.run(
        [sys.executable, "manage.py", "labyrinth", "game", "--map", path, "--players", "2",
         "--start_positions", "(0,0)", "(0,2)", "--random_positions"],
        cwd=ROOT, input="d\nd\nd\nd\n", capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "Player 2 found the way out and wins! The game is over."
