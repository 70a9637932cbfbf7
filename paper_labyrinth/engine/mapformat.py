"""The designers' text format of seed 002's maps: ``parse_paper_map`` and ``format_paper_map``.

The format (docs/paper-labyrinth-maps.md has a full example)::

    # comment lines start with '#'
    map 4 5                  <- rows and columns of the bounding box
    #0 1 2 3 4               <- (a comment: the formatter's column ruler)
     _ _ _ o _               <- 2R+1 picture lines: the sides above row 0 ...
    |Я С А С Я|  # 0         <- ... row 0: a cell letter at odd positions, a side between them ...
                             <- ... the sides between rows 0 and 1, and so on; the last line is
    ...                         the sides below the last row.
    holes (0,0) (0,4) (3,0)  <- one hole cycle per line, in order: entering the i-th leads to the next
    treasure (2,2) true      <- a treasure stack, bottom to top (true = the true treasure)
    treasure (3,3) false
    bullets (1,1) 2          <- loose items: bullets, grenades, mines (map mines are unarmed)

Cells: С Суша (land), М Медсанбат (hospital), А Арсенал (arsenal), Я Яма (hole), Р Река (river),
У Устье (mouth), Э Энцефалит (encephalitis), written in Cyrillic; the Latin look-alikes C M A P Y
(and lower case) are read as the same letters; '.' is a position outside the outline.
Sides: ' ' open; '|' (vertical) or '_' / '-' (horizontal) a wall; an outer side is a wall, 'o' an
open exit or 'x' a closed exit; '>' '<' (vertical sides) and 'v' '^' (horizontal sides) are river
flow arrows, from the river cell to its downstream neighbour (no wall can cross a flow, C§4.5).
Corners (even line, even position) are ' ', '+' or '.'; sides outside the outline ' ' or '.'.
A picture line may end with '  # comment'.
"""
from __future__ import annotations

import re

from labyrinth.engine.grid import DIRECTIONS, Direction
from paper_labyrinth.engine.model import (
    CellType,
    Outer,
    PaperMap,
    Pos,
    direction_between,
    neighbour,
    step_pos,
)

MAX_SIDE = 40

LETTERS: dict[CellType, str] = {
    CellType.LAND: "С", CellType.HOSPITAL: "М", CellType.ARSENAL: "А", CellType.HOLE: "Я",
    CellType.RIVER: "Р", CellType.MOUTH: "У", CellType.ENCEPHALITIS: "Э",
}
"""The letter of each cell type (Cyrillic, the seed's letters)."""

_READ: dict[str, CellType] = {}
for _kind, _letter in LETTERS.items():
    _READ[_letter] = _kind
    _READ[_letter.lower()] = _kind
for _latin, _cyrillic in (("C", "С"), ("M", "М"), ("A", "А"), ("P", "Р"), ("Y", "У")):
    _READ[_latin] = _READ[_cyrillic]
    _READ[_latin.lower()] = _READ[_cyrillic]

OUTSIDE = "."
_WALL_V = "|"
_WALL_H = "_-"
_EXITS = {"o": Outer.OPEN_EXIT, "x": Outer.CLOSED_EXIT}
_EXIT_CHAR = {Outer.OPEN_EXIT: "o", Outer.CLOSED_EXIT: "x"}
_CORNERS = " +."
_ARROW = {Direction.RIGHT: ">", Direction.LEFT: "<", Direction.DOWN: "v", Direction.UP: "^"}

_HEADER = re.compile(r"^map\s+(\d+)\s+(\d+)$", re.IGNORECASE)
_POS = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
_ITEM = re.compile(r"^(bullets|grenades|mines)\s+(\(.*?\))\s+(\d+)$", re.IGNORECASE)
_TREASURE = re.compile(r"^treasure\s+(\(.*?\))((?:\s+\w+)*)$", re.IGNORECASE)
_HOLES = re.compile(r"^holes((?:\s+\(.*?\))*)$", re.IGNORECASE)
_TRAILING_COMMENT = re.compile(r"^\s+#.*$|^$")


class PaperMapFormatError(ValueError):
    """A map text that cannot be read: ``line`` (1-based) and ``problem`` say where and what."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem

    def __reduce__(self) -> tuple[type[PaperMapFormatError], tuple[int, str]]:
        return (type(self), (self.line, self.problem))


def _strip_comment(text: str) -> str:
    at = text.find("#")
    return (text if at < 0 else text[:at]).strip()


def _one_pos(line_no: int, text: str, cells: dict[Pos, CellType], what: str) -> Pos:
    found = _POS.fullmatch(text.strip())
    if not found:
        raise PaperMapFormatError(line_no, f"bad cell {text.strip()!r} for {what}: write (row, col)")
    pos = (int(found[1]), int(found[2]))
    if pos not in cells:
        raise PaperMapFormatError(line_no, f"{what}: cell {pos} is not on the map's outline")
    return pos


def _picture(lines: list[str], first: int, rows: int, cols: int
             ) -> tuple[dict[Pos, CellType], set[frozenset[Pos]], dict[tuple[Pos, Direction], Outer],
                        dict[Pos, Pos]]:
    """Read the 2R+1 picture lines starting at index ``first`` of ``lines``."""
    width = 2 * cols + 1
    grid: list[str] = []
    for k in range(2 * rows + 1):
        at = first + k
        line_no = at + 1
        what = f"row {k // 2}" if k % 2 else f"the side line above row {k // 2}" if k < 2 * rows \
            else f"the side line below row {rows - 1}"
        if at >= len(lines):
            raise PaperMapFormatError(line_no, f"the text ends where {what} of the picture was expected "
                                               f"(the picture has 2*{rows}+1 = {2 * rows + 1} lines)")
        text = lines[at]
        if len(text) > width and not _TRAILING_COMMENT.match(text[width:]):
            raise PaperMapFormatError(line_no, f"{what} must have at most 2*{cols}+1 = {width} characters "
                                               f"(then optionally '  # comment'), found {len(text)}")
        grid.append(text[:width].ljust(width))

    cells: dict[Pos, CellType] = {}
    for r in range(rows):
        for c in range(cols):
            ch = grid[2 * r + 1][2 * c + 1]
            if ch == OUTSIDE:
                continue
            if ch not in _READ:
                raise PaperMapFormatError(first + 2 * r + 2,
                                          f"character {2 * c + 2} (cell ({r}, {c})) must be a cell letter "
                                          f"(С М А Я Р У Э) or '.' (outside the outline), not {ch!r}")
            cells[(r, c)] = _READ[ch]

    walls: set[frozenset[Pos]] = set()
    outer: dict[tuple[Pos, Direction], Outer] = {}
    flow: dict[Pos, Pos] = {}
    for k, text in enumerate(grid):
        line_no = first + k + 1
        for x, ch in enumerate(text):
            if k % 2 == 0 and x % 2 == 0:
                if ch not in _CORNERS:
                    raise PaperMapFormatError(line_no, f"character {x + 1} is a corner: ' ', '+' or '.', "
                                                       f"not {ch!r}")
                continue
            if k % 2 == 1 and x % 2 == 1:
                continue  # a cell
            if k % 2 == 1:  # a vertical side between (r, x//2 - 1) and (r, x//2)
                r = k // 2
                a, b = (r, x // 2 - 1), (r, x // 2)
                walls_chars, arrows = _WALL_V, {">": (a, b), "<": (b, a)}
            else:  # a horizontal side between (k//2 - 1, c) and (k//2, c)
                c = x // 2
                a, b = (k // 2 - 1, c), (k // 2, c)
                walls_chars, arrows = _WALL_H, {"v": (a, b), "^": (b, a)}
            _side(line_no, x, ch, a, b, cells, walls_chars, arrows, walls, outer, flow)
    return cells, walls, outer, flow


def _side(line_no: int, x: int, ch: str, a: Pos, b: Pos, cells: dict[Pos, CellType], wall_chars: str,
          arrows: dict[str, tuple[Pos, Pos]], walls: set[frozenset[Pos]],
          outer: dict[tuple[Pos, Direction], Outer], flow: dict[Pos, Pos]) -> None:
    where = f"character {x + 1} (the side between {a} and {b})"
    a_in, b_in = a in cells, b in cells
    if not a_in and not b_in:
        if ch not in " .":
            raise PaperMapFormatError(line_no, f"{where} lies outside the outline: leave it blank, "
                                               f"not {ch!r}")
        return
    if a_in and b_in:
        if ch == " ":
            return
        if ch in wall_chars:
            walls.add(frozenset((a, b)))
            return
        if ch in arrows:
            src, dst = arrows[ch]
            if src in flow:
                raise PaperMapFormatError(line_no, f"{where}: river cell {src} already flows to {flow[src]}; "
                                                   "branches may merge but not split (C§4.5)")
            flow[src] = dst
            return
        allowed = f"' ', {' or '.join(repr(w) for w in wall_chars)} or a flow arrow {' '.join(arrows)}"
        raise PaperMapFormatError(line_no, f"{where} is an inner side: {allowed}, not {ch!r}")
    inside = a if a_in else b
    d = DIRECTIONS[[step_pos(inside, d) for d in DIRECTIONS].index(b if a_in else a)]
    if ch in wall_chars:
        return
    if ch in _EXITS:
        outer[(inside, d)] = _EXITS[ch]
        return
    raise PaperMapFormatError(line_no, f"{where} is an outer side of cell {inside}: "
                                       f"{' or '.join(repr(w) for w in wall_chars)} (wall), 'o' (open exit) "
                                       f"or 'x' (closed exit), not {ch!r}")


def parse_paper_map(text: str) -> PaperMap:
    """Read the text format; ``PaperMapFormatError`` names the line and the problem of bad text."""
    lines = [line.rstrip() for line in text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")]
    if len(lines) > 1 and not lines[-1]:
        lines.pop()  # the final newline ends the last line, it does not start another
    at = 0
    while at < len(lines) and (not lines[at].strip() or lines[at].lstrip().startswith("#")):
        at += 1
    if at >= len(lines):
        raise PaperMapFormatError(max(len(lines), 1), "the text has no 'map R C' line")
    header = _HEADER.match(_strip_comment(lines[at]))
    if not header:
        raise PaperMapFormatError(at + 1, f"expected 'map R C' (rows and columns), "
                                          f"found {lines[at].strip()!r}")
    rows, cols = int(header[1]), int(header[2])
    for value, name in ((rows, "rows"), (cols, "columns")):
        if not 1 <= value <= MAX_SIDE:
            raise PaperMapFormatError(at + 1, f"{name} must be between 1 and {MAX_SIDE}, not {value}")
    at += 1
    while at < len(lines) and lines[at].lstrip().startswith("#"):
        at += 1  # the ruler and other comments between the header and the picture
    cells, walls, outer, flow = _picture(lines, at, rows, cols)
    if not cells:
        raise PaperMapFormatError(at + 2, "the outline has no cell (every cell is '.')")

    holes: list[tuple[Pos, ...]] = []
    treasures: dict[Pos, tuple[bool, ...]] = {}
    items: dict[str, dict[Pos, int]] = {"bullets": {}, "grenades": {}, "mines": {}}
    for index in range(at + 2 * rows + 1, len(lines)):
        line_no = index + 1
        body = _strip_comment(lines[index])
        if not body:
            continue
        if found := _HOLES.match(body):
            cycle = tuple(_one_pos(line_no, p, cells, "a hole cycle")
                          for p in re.findall(r"\(.*?\)", found[1]))
            if not cycle:
                raise PaperMapFormatError(line_no, "a 'holes' line lists the cycle's cells: "
                                                   "holes (r,c) (r,c) ...")
            holes.append(cycle)
        elif found := _TREASURE.match(body):
            pos = _one_pos(line_no, found[1], cells, "a treasure")
            if pos in treasures:
                raise PaperMapFormatError(line_no, f"cell {pos} has two 'treasure' lines: "
                                                   "write its whole stack on one line, bottom to top")
            stack = []
            for word in found[2].split():
                if word.lower() not in ("true", "false"):
                    raise PaperMapFormatError(line_no, f"a treasure is 'true' or 'false', not {word!r}")
                stack.append(word.lower() == "true")
            treasures[pos] = tuple(stack)
        elif found := _ITEM.match(body):
            kind = found[1].lower()
            pos = _one_pos(line_no, found[2], cells, kind)
            if pos in items[kind]:
                raise PaperMapFormatError(line_no, f"cell {pos} has two '{kind}' lines: "
                                                   "write one with the count")
            items[kind][pos] = int(found[3])
        else:
            raise PaperMapFormatError(line_no, f"expected 'holes ...', 'treasure (r,c) true|false ...', "
                                               f"'bullets|grenades|mines (r,c) N' or a '#' comment, "
                                               f"found {body!r}")
    return PaperMap(rows=rows, cols=cols, cells=cells, walls=frozenset(walls), outer=outer,
                    holes=tuple(holes), flow=flow, treasures=treasures, bullets=items["bullets"],
                    grenades=items["grenades"], mines=items["mines"])


def _fmt(pos: Pos) -> str:
    return f"({pos[0]},{pos[1]})"


def format_paper_map(m: PaperMap) -> str:
    """The text of a map; ``parse_paper_map(format_paper_map(m)) == m``. ValueError for a map the
    format cannot express: cells outside the bounding box, walls not between neighbouring cells,
    a flow to a non-neighbour, across a wall or both ways across one side, exits on inner sides,
    outer sides listed as ``Outer.WALL``, items off the outline or negative counts."""
    rows, cols = m.rows, m.cols
    if not 1 <= rows <= MAX_SIDE or not 1 <= cols <= MAX_SIDE:
        raise ValueError(f"the bounding box {rows}x{cols} must be between 1x1 and {MAX_SIDE}x{MAX_SIDE}")
    if not m.cells:
        raise ValueError("the map has no cell")
    for pos in m.cells:
        if not (0 <= pos[0] < rows and 0 <= pos[1] < cols):
            raise ValueError(f"cell {pos} lies outside the {rows}x{cols} bounding box")
    for wall in m.walls:
        pair = sorted(wall)
        if len(pair) != 2 or any(p not in m.cells for p in pair) or \
                abs(pair[0][0] - pair[1][0]) + abs(pair[0][1] - pair[1][1]) != 1:
            raise ValueError(f"wall {pair} is not between two neighbouring cells of the outline")
    for (pos, d), kind in m.outer.items():
        if pos not in m.cells or neighbour(m, pos, d) is not None:
            raise ValueError(f"({pos}, {d.value}) is not an outer side of the outline")
        if kind is Outer.WALL:
            raise ValueError(f"({pos}, {d.value}) is listed as Outer.WALL: leave plain outer walls out")
    arrows: dict[frozenset[Pos], str] = {}
    for src, dst in m.flow.items():
        towards = direction_between(src, dst)
        if src not in m.cells or dst not in m.cells or towards is None:
            raise ValueError(f"the flow {src} -> {dst} is not between two neighbouring cells of the outline")
        key = frozenset((src, dst))
        if key in m.walls:
            raise ValueError(f"the flow {src} -> {dst} crosses a wall: the format cannot show both")
        if key in arrows:
            raise ValueError(f"the flow between {src} and {dst} goes both ways: the format cannot show it")
        arrows[key] = _ARROW[towards]
    for what, positions in (("hole", [p for cycle in m.holes for p in cycle]),
                            ("treasure", list(m.treasures)), ("bullets", list(m.bullets)),
                            ("grenades", list(m.grenades)), ("mines", list(m.mines))):
        for pos in positions:
            if pos not in m.cells:
                raise ValueError(f"{what} at {pos}: not on the outline")
    for what, counts in (("bullets", m.bullets), ("grenades", m.grenades), ("mines", m.mines)):
        for pos, n in counts.items():
            if n < 0:
                raise ValueError(f"{what} at {pos}: a negative count {n}")

    def side_char(a: Pos, b: Pos, d: Direction, wall: str) -> str:
        """The character of the side between a and b = a + d (either may be off the outline)."""
        if a in m.cells and b in m.cells:
            key = frozenset((a, b))
            return arrows.get(key) or (wall if key in m.walls else " ")
        if a in m.cells:
            return _EXIT_CHAR.get(m.outer.get((a, d), Outer.WALL), wall)
        if b in m.cells:
            return _EXIT_CHAR.get(m.outer.get((b, d.opposite), Outer.WALL), wall)
        return " "

    out = [f"map {rows} {cols}", "#" + " ".join(str(c % 10) for c in range(cols))]
    for r in range(rows + 1):
        line = [" "]
        for c in range(cols):
            line.append(side_char((r - 1, c), (r, c), Direction.DOWN, "_"))
            line.append(" ")
        out.append("".join(line).rstrip())
        if r == rows:
            break
        line = []
        for c in range(cols):
            line.append(side_char((r, c - 1), (r, c), Direction.RIGHT, "|"))
            cell_type = m.cells.get((r, c))
            line.append(OUTSIDE if cell_type is None else LETTERS[cell_type])
        line.append(side_char((r, cols - 1), (r, cols), Direction.RIGHT, "|"))
        out.append("".join(line) + f"  # {r}")
    for cycle in m.holes:
        out.append("holes " + " ".join(_fmt(p) for p in cycle))
    for pos in sorted(m.treasures):
        out.append(" ".join([f"treasure {_fmt(pos)}", *("true" if t else "false" for t in m.treasures[pos])]))
    for what, counts in (("bullets", m.bullets), ("grenades", m.grenades), ("mines", m.mines)):
        for pos in sorted(counts):
            out.append(f"{what} {_fmt(pos)} {counts[pos]}")
    return "\n".join(out) + "\n"
