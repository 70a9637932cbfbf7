"""Seed 003's text format for maps: parse_map and format_map (lossless), MapFormatError by line."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from labyrinth.engine.grid import (
    Armory,
    Cell,
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
)

MAX_SIDE = 1000
MAX_FIELDS = 100
CLASSES = ("Stun", "RubberRoom", "Teleport", "Armory", "Exit", "Key", "Sleep")


class MapFormatError(ValueError):
    """A map text that cannot be read: `line` (1-based) and `problem` say where and what."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem

    def __reduce__(self) -> tuple[type[MapFormatError], tuple[int, str]]:
        return (type(self), (self.line, self.problem))


_NUMBER = r"\s*([+-]?\d+)\s*"
_HEADER_ONE = re.compile(rf"^{_NUMBER}$")
_HEADER_TWO = re.compile(rf"^{_NUMBER}\s{_NUMBER}$")
_LEGEND = re.compile(r"^(\S)\s+([A-Za-z_]\w*)\s*\((.*)\)$")
_PAIR = re.compile(rf"^\s*\({_NUMBER},{_NUMBER}\)\s*$")
_SLEEP = re.compile(rf"^{_NUMBER},\s*\({_NUMBER},{_NUMBER},{_NUMBER}\)\s*$")


class _Lines:
    """The text's lines with their 1-based numbers; trailing whitespace is never significant."""

    def __init__(self, text: str) -> None:
        self.lines = [line.rstrip() for line in text.removeprefix("\ufeff").split("\n")]
        while self.lines and not self.lines[-1]:
            self.lines.pop()
        self.at = 0

    def next(self, what: str) -> tuple[int, str]:
        if self.at >= len(self.lines):
            raise MapFormatError(len(self.lines) + 1, f"the text ends where {what} was expected")
        self.at += 1
        return self.at, self.lines[self.at - 1]

    def skip_blank(self) -> None:
        while self.at < len(self.lines) and not self.lines[self.at]:
            self.at += 1

    def rest(self) -> Iterator[tuple[int, str]]:
        while self.at < len(self.lines):
            self.at += 1
            yield self.at, self.lines[self.at - 1]


def _size(line_no: int, text: str, what: str) -> tuple[int, int]:
    found = _HEADER_TWO.match(text)
    if not found:
        raise MapFormatError(line_no, f"expected {what} as 'R C' (rows and columns), found {text!r}")
    rows, cols = int(found[1]), int(found[2])
    for value, name in ((rows, "rows"), (cols, "columns")):
        if not 1 <= value <= MAX_SIDE:
            raise MapFormatError(line_no, f"{name} must be between 1 and {MAX_SIDE}, not {value}")
    return rows, cols


_RawField = tuple[list[list[bool]], list[list[bool]], list[list[str]]]


def _field(lines: _Lines, index: int, rows: int, cols: int,
           used: dict[str, list[tuple[Cell, int]]]) -> _RawField:
    width = 2 * cols - 1
    right: list[list[bool]] = []
    down: list[list[bool]] = []
    chars: list[list[str]] = []
    for r in range(rows):
        line_no, text = lines.next(f"row {r} of field {index}")
        if len(text) != width:
            raise MapFormatError(line_no, f"row {r} of field {index} must have 2*{cols}-1 = {width} "
                                          f"characters, found {len(text)}")
        row_chars = []
        for c in range(cols):
            ch = text[2 * c]
            if ch.isspace():
                raise MapFormatError(line_no, f"cell ({index}, {r}, {c}) at character {2 * c + 1} is "
                                              "blank: write '.' for an empty cell")
            row_chars.append(ch)
            if ch != ".":
                used.setdefault(ch, []).append(((index, r, c), line_no))
        walls = []
        for c in range(cols - 1):
            ch = text[2 * c + 1]
            if ch not in "| ":
                raise MapFormatError(line_no, f"character {2 * c + 2} between cells ({index}, {r}, {c}) "
                                              f"and ({index}, {r}, {c + 1}) must be '|' (wall) or ' ', "
                                              f"not {ch!r}")
            walls.append(ch == "|")
        right.append(walls)
        chars.append(row_chars)
        if r < rows - 1:
            line_no, text = lines.next(f"the wall line below row {r} of field {index}")
            if len(text) > width:
                raise MapFormatError(line_no, f"the wall line below row {r} of field {index} must have at "
                                              f"most 2*{cols}-1 = {width} characters, found {len(text)}")
            text = text.ljust(width)
            below = []
            for c in range(cols):
                ch = text[2 * c]
                if ch not in "_. ":
                    raise MapFormatError(line_no, f"character {2 * c + 1} under cell ({index}, {r}, {c}) "
                                                  f"must be '_' (wall), '.' or ' ', not {ch!r}")
                below.append(ch == "_")
            down.append(below)
    return right, down, chars


def _direction(line_no: int, text: str) -> Direction:
    try:
        return Direction(text.strip())
    except ValueError:
        raise MapFormatError(line_no, f"bad direction {text.strip()!r}: UP, LEFT, DOWN or RIGHT") from None


def _turns(line_no: int, text: str) -> int:
    turns = int(text)
    if turns < 1:
        raise MapFormatError(line_no, f"bad number of turns {turns}: at least 1")
    return turns


def _special(line_no: int, name: str, args: str) -> Special:
    if name not in CLASSES:
        raise MapFormatError(line_no, f"unknown class {name!r}: one of {', '.join(CLASSES)}")
    if name in ("Armory", "Key"):
        if args.strip():
            raise MapFormatError(line_no, f"{name}() takes no arguments, found {args!r}")
        return Armory() if name == "Armory" else Key()
    if name == "Stun":
        found = _HEADER_ONE.match(args)
        if not found:
            raise MapFormatError(line_no, f"bad number {args!r}: Stun(turns) takes a whole number")
        return Stun(_turns(line_no, found[1]))
    if name == "RubberRoom":
        return RubberRoom(_direction(line_no, args))
    if name == "Exit":
        return Exit(_direction(line_no, args))
    if name == "Teleport":
        found = _PAIR.match(args)
        if not found:
            raise MapFormatError(line_no, f"bad destination {args!r}: Teleport((row, col))")
        return Teleport((int(found[1]), int(found[2])))
    found = _SLEEP.match(args)
    if not found:
        raise MapFormatError(line_no, f"bad arguments {args!r}: Sleep(turns, (field, row, col))")
    return Sleep(_turns(line_no, found[1]), (int(found[2]), int(found[3]), int(found[4])))


def parse_map(text: str) -> LabyrinthMap:
    """Read seed 003's format (one field, or the sleep bonus's several); MapFormatError on bad text."""
    lines = _Lines(text)
    lines.skip_blank()
    line_no, header = lines.next("the map's size")
    sizes: list[tuple[int, int]] = []
    if _HEADER_TWO.match(header):
        count = 1
        first: tuple[int, int] | None = _size(line_no, header, "the field's size")
    elif (found := _HEADER_ONE.match(header)) is not None:
        count = int(found[1])
        if not 1 <= count <= MAX_FIELDS:
            raise MapFormatError(line_no, f"the number of fields must be between 1 and {MAX_FIELDS}, "
                                          f"not {count}")
        first = None
    else:
        raise MapFormatError(line_no, f"expected 'R C' (rows and columns) or the number of fields, "
                                      f"found {header!r}")
    used: dict[str, list[tuple[Cell, int]]] = {}
    raw = []
    for index in range(count):
        if first is not None:
            rows, cols = first
        else:
            size_no, size_text = lines.next(f"the size of field {index}")
            rows, cols = _size(size_no, size_text, f"the size of field {index}")
        sizes.append((rows, cols))
        raw.append(_field(lines, index, rows, cols, used))

    legend: dict[str, tuple[Special, int]] = {}
    for line_no, legend_line in lines.rest():
        if not legend_line:
            continue
        found = _LEGEND.match(legend_line.strip())
        if not found:
            raise MapFormatError(line_no,
                                 f"expected a legend line '<char> Class(arguments)', found {legend_line!r}")
        ch, name, args = found[1], found[2], found[3]
        if ch == ".":
            raise MapFormatError(line_no, "'.' is the empty cell and cannot be a special cell")
        if ch in legend:
            raise MapFormatError(line_no, f"{ch!r} is already defined on line {legend[ch][1]}")
        legend[ch] = (_special(line_no, name, args), line_no)

    for ch, places in sorted(used.items(), key=lambda item: item[1][0][1]):
        if ch not in legend:
            cell, line_no = places[0]
            raise MapFormatError(line_no, f"special character {ch!r} at {cell} has no legend line")
    _check_places(used, legend, sizes)

    fields = []
    for (rows, cols), (right, down, chars) in zip(sizes, raw):
        cells = tuple(tuple(None if ch == "." else legend[ch][0] for ch in line) for line in chars)
        fields.append(Field(rows, cols, tuple(map(tuple, right)), tuple(map(tuple, down)), cells))
    return LabyrinthMap(tuple(fields))


def _check_places(used: dict[str, list[tuple[Cell, int]]], legend: dict[str, tuple[Special, int]],
                  sizes: list[tuple[int, int]]) -> None:
    """Destinations on the map, exits on an outer side, sleep links acyclic and never back to field 0."""
    links: dict[int, dict[int, int]] = {}
    for ch, places in used.items():
        special, legend_no = legend[ch]
        for (f, r, c), line_no in places:
            rows, cols = sizes[f]
            if isinstance(special, Exit):
                dr, dc = special.direction.delta
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    raise MapFormatError(line_no, f"Exit({special.direction.value}) at {(f, r, c)} does not "
                                                  f"open an outer side of field {f}")
            elif isinstance(special, Teleport):
                tr, tc = special.destination
                if not (0 <= tr < rows and 0 <= tc < cols):
                    raise MapFormatError(legend_no, f"Teleport destination {special.destination} of {ch!r} "
                                                    f"(used at {(f, r, c)}) is off field {f} ({rows}x{cols})")
            elif isinstance(special, Sleep):
                tf, tr, tc = special.destination
                if not 0 <= tf < len(sizes) or not (0 <= tr < sizes[tf][0] and 0 <= tc < sizes[tf][1]):
                    raise MapFormatError(legend_no, f"Sleep destination {special.destination} of {ch!r} is "
                                                    "off the map")
                if tf == 0:
                    raise MapFormatError(legend_no, f"Sleep destination {special.destination} of {ch!r} "
                                                    "leads back to field 0, the real field")
                links.setdefault(f, {}).setdefault(tf, legend_no)
    cycle = _cycle(links)
    if cycle is not None:
        path, line_no = cycle
        raise MapFormatError(line_no, "sleep links form a cycle between fields "
                                      + " -> ".join(map(str, path)))


def _cycle(links: dict[int, dict[int, int]]) -> tuple[list[int], int] | None:
    """A cycle of sleep links between fields with the legend line of its closing link, or None."""
    state: dict[int, int] = {}  # 1: on the current path, 2: done

    def visit(node: int, path: list[int]) -> tuple[list[int], int] | None:
        state[node] = 1
        path.append(node)
        for target, line_no in sorted(links.get(node, {}).items()):
            if state.get(target) == 1:
                return path[path.index(target):] + [target], line_no
            if target not in state:
                found = visit(target, path)
                if found is not None:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(links):
        if start not in state:
            found = visit(start, [])
            if found is not None:
                return found
    return None


_PREFERRED: dict[type, str] = {Stun: "S", RubberRoom: "R", Teleport: "T", Armory: "A", Exit: "E",
                               Key: "K", Sleep: "Z"}


def _letters() -> Iterator[str]:
    """Letters for special cells: ASCII first, then any other single letter or digit of Unicode."""
    yield from "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    for code in range(0xC0, 0x110000):
        ch = chr(code)
        if unicodedata.category(ch) in ("Lu", "Ll", "Lo", "Nd") and not ch.isspace():
            yield ch


def describe_special(special: Special) -> str:
    """The legend class of a special, as the format writes it: `Stun(2)`, `Teleport((0, 2))` ..."""
    if isinstance(special, Stun):
        return f"Stun({special.turns})"
    if isinstance(special, RubberRoom):
        return f"RubberRoom({special.direction.value})"
    if isinstance(special, Teleport):
        return f"Teleport(({special.destination[0]}, {special.destination[1]}))"
    if isinstance(special, Armory):
        return "Armory()"
    if isinstance(special, Exit):
        return f"Exit({special.direction.value})"
    if isinstance(special, Key):
        return "Key()"
    f, r, c = special.destination
    return f"Sleep({special.turns}, ({f}, {r}, {c}))"


def format_map(m: LabyrinthMap) -> str:
    """The map in seed 003's format: one letter per distinct special, '.' under cells with no wall."""
    letters: dict[Special, str] = {}
    taken: set[str] = set()
    pool = _letters()
    for _, special in m.specials():
        if special in letters:
            continue
        letter = _PREFERRED[type(special)]
        while letter in taken:
            letter = next(pool)
        letters[special] = letter
        taken.add(letter)
    out = [] if len(m.fields) == 1 else [str(len(m.fields))]
    for fld in m.fields:
        out.append(f"{fld.rows} {fld.cols}")
        for r in range(fld.rows):
            row = []
            for c in range(fld.cols):
                here = fld.cells[r][c]
                row.append("." if here is None else letters[here])
                if c < fld.cols - 1:
                    row.append("|" if fld.right[r][c] else " ")
            out.append("".join(row))
            if r < fld.rows - 1:
                out.append(" ".join("_" if wall else "." for wall in fld.down[r]))
    out.extend(f"{letter} {describe_special(special)}" for special, letter in letters.items())
    return "\n".join(out) + "\n"
