"""Named example maps of seed 002, valid for both variants (``validate_paper_map`` finds no error and
no warning), for tests and designers. Coordinates are (row, col), row 0 at the top.

SMALL_CLASSIC (4x5, the seed's usual size)::

    row 0:  Р1 > Р2 > У   С   Э          river R1 (0,0) -> R2 (0,1) -> mouth U (0,2); R1 is a source
    row 1:  Я1   С    А   С*  М          holes Я1 (1,0) -> Я2 (2,4) -> Я3 (3,0) -> Я1
    row 2: oС    М    Т | С   Я2         T (2,2): the true treasure; С* (1,3): a false treasure
    row 3:  Я3 | С    А   С   С          exits: open on the left of (2,0), closed below (3,3)
                          x
    inner walls: (1,1)-(2,1), (2,2)|(2,3), (2,3)-(3,3), (3,0)|(3,1)
    items: 2 bullets on (1,1), 1 grenade on (3,1), 1 (unarmed) mine on (2,3)

CUT_CORNERS (5x5 with its four corners cut off, 21 cells): an irregular outline with two river
systems (sources (0,1) and (0,3) merge in (0,2) and flow to the mouth (1,2); (1,4) -> (2,4) -> mouth
(2,3)), a hole cycle of 2, two Э cells, 2 arsenals, 2 hospitals, 3 exits (2 open), 1 true and 2 false
treasures (the stack on (2,2) holds a false one under the true one).
"""
from __future__ import annotations

from paper_labyrinth.engine.mapformat import parse_paper_map
from paper_labyrinth.engine.model import PaperMap, Pos

SMALL_CLASSIC_TEXT = """\
# SMALL_CLASSIC: seed 002's usual 4x5 map
map 4 5
#0 1 2 3 4
 _ _ _ _ _
|Р>Р>У С Э|  # 0

|Я С А С М|  # 1
   _
oС М С|С Я|  # 2
       _
|Я|С А С С|  # 3
 _ _ _ x _
holes (1,0) (2,4) (3,0)
treasure (1,3) false
treasure (2,2) true
bullets (1,1) 2
grenades (3,1) 1
mines (2,3) 1
"""

SMALL_CLASSIC: PaperMap = parse_paper_map(SMALL_CLASSIC_TEXT)
SMALL_R1: Pos = (0, 0)        # the source
SMALL_R2: Pos = (0, 1)
SMALL_MOUTH: Pos = (0, 2)
SMALL_HOLES: tuple[Pos, Pos, Pos] = ((1, 0), (2, 4), (3, 0))   # Я1, Я2, Я3
SMALL_ENCEPHALITIS: Pos = (0, 4)
SMALL_ARSENALS: tuple[Pos, Pos] = ((1, 2), (3, 2))
SMALL_HOSPITALS: tuple[Pos, Pos] = ((1, 4), (2, 1))
SMALL_TRUE_TREASURE: Pos = (2, 2)
SMALL_FALSE_TREASURE: Pos = (1, 3)
SMALL_OPEN_EXIT: Pos = (2, 0)     # its LEFT side
SMALL_CLOSED_EXIT: Pos = (3, 3)   # its DOWN side

CUT_CORNERS_TEXT = """\
# CUT_CORNERS: a 5x5 square with its corners cut off
map 5 5
#0 1 2 3 4
   _ _ _
 .|Р>Р<Р|.  # 0
 _   v   _
|Я С У С Р|  # 1
       _ v
oС М С У<Р|  # 2
     _
|Э|С А С Аx  # 3
 _       _
 .|Я Э М|.  # 4
   _ o _
holes (1,0) (4,1)
treasure (1,3) false
treasure (2,2) false true
bullets (3,3) 1
grenades (1,1) 2
mines (3,1) 1
"""

CUT_CORNERS: PaperMap = parse_paper_map(CUT_CORNERS_TEXT)
CUT_SOURCES: tuple[Pos, Pos, Pos] = ((0, 1), (0, 3), (1, 4))
CUT_MOUTHS: tuple[Pos, Pos] = ((1, 2), (2, 3))
CUT_TRUE_TREASURE: Pos = (2, 2)   # the stack (false, true): the true one on top

EXAMPLES: dict[str, PaperMap] = {"SMALL_CLASSIC": SMALL_CLASSIC, "CUT_CORNERS": CUT_CORNERS}
"""Every example by name."""
