"""Seed 003's two example maps, corrected as SPEC 9.1 says (tests, docs and the admin's data use them)."""
from __future__ import annotations

# As in the seed; its text puts the Armory at (3, 0), the map at (2, 0): the map wins.
FIRST_EXAMPLE = """3 3
.|S E
. . _
S . L
. . .
A R .
E Exit(UP)
S Stun(2)
A Armory()
R RubberRoom(RIGHT)
L RubberRoom(LEFT)
"""

# The seed's sleep example with its missing wall line restored and Exit(1) read as Exit(UP).
SLEEP_EXAMPLE = """2
2 2
. E
. .
Z .
1 1
.
E Exit(UP)
Z Sleep(2, (1, 0, 0))
"""

# The sleep example exactly as the seed writes it: refused (line 4 is read as a wall line).
SLEEP_EXAMPLE_AS_WRITTEN = "2\n2 2\n. E\nZ .\n1 1\n.\nE Exit(1)\nZ Sleep(2, (1, 0, 0))\n"
