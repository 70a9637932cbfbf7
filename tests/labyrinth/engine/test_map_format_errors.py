"""Every refusal of parse_map names the line and the problem."""
from __future__ import annotations

import pickle

import pytest

from labyrinth.engine import MapFormatError, parse_map

GOOD = "2 3\n.|S E\n. . .\n. . .\nS Stun(2)\nE Exit(UP)\n"


def refusal(text: str) -> MapFormatError:
    with pytest.raises(MapFormatError) as refused:
        parse_map(text)
    assert str(refused.value) == f"line {refused.value.line}: {refused.value.problem}"
    return refused.value


def test_the_good_text_is_accepted():
    assert parse_map(GOOD).special((0, 0, 2)) is not None


@pytest.mark.parametrize(("text", "line", "words"), [
    ("", 1, "the text ends where the map's size was expected"),
    ("3 x\n", 1, "expected 'R C'"),
    ("0 3\n", 1, "rows must be between 1 and 1000, not 0"),
    ("2 1001\n", 1, "columns must be between 1 and 1000"),
    ("0\n", 1, "the number of fields must be between 1 and 100"),
    ("2 3\n.|S\n", 2, "row 0 of field 0 must have 2*3-1 = 5 characters, found 3"),
    ("2 3\n.|S E .\n", 2, "found 7"),
    ("2 3\n.|  E\n", 2, "cell (0, 0, 1) at character 3 is blank"),
    ("2 3\n.-S E\n", 2, "character 2 between cells (0, 0, 0) and (0, 0, 1) must be '|' (wall) or ' '"),
    ("2 3\n.|S E\n. . . .\n", 3, "at most 2*3-1 = 5 characters, found 7"),
    ("2 3\n.|S E\n. x .\n", 3, "character 3 under cell (0, 0, 1) must be '_' (wall), '.' or ' ', not 'x'"),
    ("2 3\n.|S E\n. . .\n", 4, "the text ends where row 1 of field 0 was expected"),
    ("2 3\n.|S E\n. . .\n. . .\nE Exit(UP)\n", 2, "special character 'S' at (0, 0, 1) has no legend line"),
    ("2 3\n.|S E\n. . .\n. . .\nS Stun(2)\nE Exit(UP)\nS Stun(3)\n", 7, "'S' is already defined on line 5"),
    ("2 3\n.|S E\n. . .\n. . .\nS Stun(2)\nE Door(UP)\n", 6, "unknown class 'Door'"),
    ("2 3\n.|S E\n. . .\n. . .\nS Stun(2)\nE Exit(NORTH)\n", 6, "bad direction 'NORTH'"),
    ("2 3\n.|S E\n. . .\n. . .\nS Stun(2)\nE Exit(1)\n", 6, "bad direction '1'"),
    ("2 3\n.|S E\n. . .\n. . .\nS RubberRoom(up)\nE Exit(UP)\n", 5, "bad direction 'up'"),
    ("2 3\n.|S E\n. . .\n. . .\nS Stun(two)\nE Exit(UP)\n", 5, "bad number 'two'"),
    ("2 3\n.|S E\n. . .\n. . .\nS Stun(0)\nE Exit(UP)\n", 5, "bad number of turns 0"),
    ("2 3\n.|S E\n. . .\n. . .\nS Armory(3)\nE Exit(UP)\n", 5, "Armory() takes no arguments"),
    ("2 3\n.|S E\n. . .\n. . .\nS Teleport(1, 2)\nE Exit(UP)\n", 5, "bad destination '1, 2'"),
    ("2 3\n.|S E\n. . .\n. . .\nS Teleport((2, 0))\nE Exit(UP)\n", 5,
     "Teleport destination (2, 0) of 'S' (used at (0, 0, 1)) is off field 0 (2x3)"),
    ("2 3\n.|S E\n. . .\n. . .\nS Teleport((0, -1))\nE Exit(UP)\n", 5, "is off field 0"),
    ("2 3\n.|S E\n. . .\n. . .\nS Sleep(2, (1, 0, 0))\nE Exit(UP)\n", 5,
     "Sleep destination (1, 0, 0) of 'S' is off the map"),
    ("2 3\n.|S E\n. . .\n. . .\nS Sleep(2, (0, 0))\nE Exit(UP)\n", 5, "bad arguments"),
    ("2 3\n.|S E\n. . .\n. . .\nS Stun(2)\nE Exit(DOWN)\n", 2,
     "Exit(DOWN) at (0, 0, 2) does not open an outer side of field 0"),
    ("2 3\n.|S E\n. . .\n. . .\nS Stun(2)\nE Exit(UP)\nnonsense\n", 7, "expected a legend line"),
    ("2 3\n.|S E\n. . .\n. . .\nS Stun(2)\nE Exit(UP)\n. Key()\n", 7, "'.' is the empty cell"),
])
def test_bad_text_is_refused_at_its_line(text: str, line: int, words: str):
    refused = refusal(text)
    assert refused.line == line
    assert words in refused.problem


def test_a_sleep_back_to_field_0_is_refused():
    text = "2\n1 2\nZ E\n1 1\nY\nE Exit(UP)\nZ Sleep(2, (1, 0, 0))\nY Sleep(1, (0, 0, 1))\n"
    refused = refusal(text)
    assert (refused.line, "leads back to field 0, the real field" in refused.problem) == (8, True)


def test_sleep_links_forming_a_cycle_between_dream_fields_are_refused():
    text = ("3\n1 2\nZ E\n1 1\nY\n1 1\nX\nE Exit(UP)\nZ Sleep(2, (1, 0, 0))\n"
            "Y Sleep(1, (2, 0, 0))\nX Sleep(1, (1, 0, 0))\n")
    refused = refusal(text)
    assert refused.line == 11
    assert "sleep links form a cycle between fields 1 -> 2 -> 1" in refused.problem


def test_a_sleep_to_its_own_field_is_a_cycle():
    text = "2\n1 2\nZ E\n1 2\nY .\nE Exit(UP)\nZ Sleep(2, (1, 0, 0))\nY Sleep(1, (1, 0, 1))\n"
    assert "cycle between fields 1 -> 1" in refusal(text).problem


def test_a_dream_inside_a_dream_is_accepted():
    text = ("3\n1 2\nZ E\n1 1\nY\n1 1\n.\nE Exit(UP)\nZ Sleep(2, (1, 0, 0))\nY Sleep(1, (2, 0, 0))\n")
    assert len(parse_map(text).fields) == 3


def test_a_teleport_on_a_dream_field_is_checked_against_that_field():
    text = "2\n1 3\nZ E T\n1 1\nT\nE Exit(UP)\nZ Sleep(2, (1, 0, 0))\nT Teleport((0, 2))\n"
    refused = refusal(text)
    assert refused.line == 8 and "(used at (1, 0, 0)) is off field 1 (1x1)" in refused.problem


def test_trailing_spaces_windows_line_ends_blank_legend_lines_and_a_bom_are_accepted():
    text = "\ufeff2 3\r\n.|S E  \r\n. . \r\n. . .\r\n\r\nS Stun(2)\r\n\r\nE Exit(UP)\r\n\r\n"
    assert parse_map(text) == parse_map(GOOD)


def test_a_wall_line_of_spaces_may_be_empty():
    assert parse_map("2 1\n.\n\nE\nE Exit(DOWN)\n").fields[0].down == ((False,),)


def test_an_unused_legend_line_is_accepted_and_dropped():
    assert parse_map(GOOD + "K Key()\n") == parse_map(GOOD)


def test_the_error_survives_pickling():
    error = refusal("2 3\n.|S\n")
    again = pickle.loads(pickle.dumps(error))
    assert (again.line, again.problem, str(again)) == (error.line, error.problem, str(error))
