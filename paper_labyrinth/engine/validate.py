"""The seed's map rules: ``validate_paper_map(m, variant)`` -> errors (the mandatory rules of C§8 and
the structure rules of C§1.4, C§4.4-4.5) and warnings (the recommendations of C§8 / Q§8).

Each finding names its rule as the seed cites it: "C" for the classic code (Part Б), "Q" for the
quantum one (Part В), then the section ("C8.3", "Q1.4", "C4.5"); recommendations carry the letter of
their item in the seed's list ("C8.б", "Q8.в"). docs/paper-labyrinth-maps.md lists them all.
"""
from __future__ import annotations

from dataclasses import dataclass

from labyrinth.engine.grid import DIRECTIONS
from paper_labyrinth.engine.model import (
    CellType,
    Outer,
    PaperMap,
    Pos,
    Side,
    cells_of,
    direction_between,
    exits,
    neighbour,
    side,
    sources,
    step_pos,
    upstream,
)
from paper_labyrinth.engine.movement import RiverMode, default_river_mode, unreachable

MAX_PLAYERS = 5


@dataclass(frozen=True)
class Finding:
    """One broken rule (an error) or unfollowed recommendation (a warning): the seed's rule, the cells
    concerned (sorted; may be empty when the rule is about the whole map) and a sentence."""

    rule: str
    cells: tuple[Pos, ...]
    message: str

    def __str__(self) -> str:
        where = f" [{', '.join(f'({r},{c})' for r, c in self.cells)}]" if self.cells else ""
        return f"{self.rule}: {self.message}{where}"


@dataclass(frozen=True)
class ValidationResult:
    errors: tuple[Finding, ...]
    warnings: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        """No mandatory rule is broken (warnings allowed)."""
        return not self.errors

    def rules(self) -> tuple[str, ...]:
        """The rules of the errors, in order (for tests and summaries)."""
        return tuple(f.rule for f in self.errors)


def _cells(*groups: object) -> tuple[Pos, ...]:
    found: set[Pos] = set()
    for group in groups:
        if isinstance(group, tuple) and len(group) == 2 and all(isinstance(v, int) for v in group):
            found.add((group[0], group[1]))
        elif isinstance(group, (set, frozenset, list, tuple)):
            for item in group:
                found.update(_cells(item))
    return tuple(sorted(found))


class _Checker:
    def __init__(self, m: PaperMap, variant: str, river_mode: RiverMode, players: int | None) -> None:
        self.m = m
        self.variant = variant
        self.p = "C" if variant == "classic" else "Q"
        self.river_mode = river_mode
        self.players = players
        self.errors: list[Finding] = []
        self.warnings: list[Finding] = []

    def error(self, section: str, cells: object, message: str) -> None:
        self.errors.append(Finding(self.p + section, _cells(cells), message))

    def warn(self, section: str, cells: object, message: str) -> None:
        self.warnings.append(Finding(self.p + section, _cells(cells), message))

    # -- structure: what the model can hold but a map cannot be ------------------------------------
    def structure(self) -> bool:
        m = self.m
        ok = True
        if m.rows < 1 or m.cols < 1 or not m.cells:
            self.error("8.1", (), f"the map needs at least one cell (a {m.rows}x{m.cols} box, "
                                  f"{len(m.cells)} cells)")
            return False
        outside = [p for p in m.cells if not (0 <= p[0] < m.rows and 0 <= p[1] < m.cols)]
        if outside:
            self.error("8.1", outside, f"cells outside the {m.rows}x{m.cols} bounding box")
            ok = False
        untyped = [p for p, t in m.cells.items() if not isinstance(t, CellType)]
        if untyped:
            self.error("8.1", untyped, "every cell has exactly one of the seven types")
            ok = False
        for wall in sorted(m.walls, key=sorted):
            pair = sorted(wall)
            if len(pair) != 2 or any(q not in m.cells for q in pair) \
                    or direction_between(pair[0], pair[1]) is None:
                self.error("1.4", [q for q in pair if q in m.cells],
                           f"an inner wall lies between two neighbouring cells, not {pair}")
                ok = False
        for (pos, d), kind in sorted(m.outer.items(), key=lambda item: (item[0][0], item[0][1].value)):
            if pos not in m.cells or neighbour(m, pos, d) is not None:
                self.error("1.4", [pos] if pos in m.cells else [],
                           f"{kind.value} on ({pos}, {d.value}), which is not an outer side of the outline")
                ok = False
        items: list[tuple[str, dict[Pos, int]]] = [
            ("bullets", dict(m.bullets)), ("grenades", dict(m.grenades)), ("mines", dict(m.mines))]
        for what, counts in items:
            off = [p for p in counts if p not in m.cells]
            if off:
                self.error("1.4", (), f"{what} off the outline at {sorted(off)}")
                ok = False
            negative = [p for p, n in counts.items() if n < 0]
            if negative:
                self.error("1.4", [p for p in negative if p in m.cells], f"a negative count of {what}")
                ok = False
        off = [p for p in m.treasures if p not in m.cells]
        if off:
            self.error("1.4", (), f"treasures off the outline at {sorted(off)}")
            ok = False
        return ok

    # -- C8.2, C8.3 ---------------------------------------------------------------------------------
    def kinds(self) -> None:
        missing = [name for kind, name in ((CellType.ARSENAL, "arsenal"), (CellType.HOSPITAL, "hospital"),
                                           (CellType.LAND, "land cell")) if not cells_of(self.m, kind)]
        if missing:
            self.error("8.2", (), f"the map needs at least one arsenal, hospital and land cell; it has no "
                                  f"{', no '.join(missing)}")

    def treasure(self) -> None:
        true = [p for p, stack in self.m.treasures.items() for t in stack if t]
        if len(true) != 1:
            self.error("8.3", true, f"exactly one true treasure is required, the map has {len(true)}")
        bad = [p for p in true if self.m.cells.get(p) is not CellType.LAND]
        if bad:
            self.error("8.3", bad, "the true treasure may only be placed on land")

    # -- C8.4, Q1.4 ---------------------------------------------------------------------------------
    def exits(self) -> None:
        found = exits(self.m)
        cells = [pos for pos, _ in found]
        if len(found) < 2:
            self.error("8.4", cells, f"the map needs at least 2 exits, it has {len(found)}")
        opened = [pos for (pos, _), kind in found.items() if kind is Outer.OPEN_EXIT]
        if self.variant == "quantum" and not opened:
            self.errors.append(Finding("Q1.4", _cells(cells),
                                       "the quantum game needs at least one open exit"))
        elif self.variant == "classic" and not opened and found:
            self.warn("8.4", cells, "no exit is open at the start (the seed: often at least one is)")
        if self.variant == "classic":
            near = [pos for pos in cells if pos in sources(self.m)]
            if near:
                self.error("8.4", near,
                           "an exit may not be next to a source (a river cell no river flows into)")

    # -- C4.4 ---------------------------------------------------------------------------------------
    def holes(self) -> None:
        m = self.m
        seen: dict[Pos, int] = {}
        for k, cycle in enumerate(m.holes):
            if len(cycle) < 2:
                self.error("4.4", cycle, f"hole cycle {k + 1} has {len(cycle)} hole(s); a cycle needs N > 1")
            not_holes = [p for p in cycle if m.cells.get(p) is not CellType.HOLE]
            if not_holes:
                self.error("4.4", not_holes, f"hole cycle {k + 1} lists cells that are not holes")
            for p in cycle:
                seen[p] = seen.get(p, 0) + 1
        twice = [p for p, n in seen.items() if n > 1]
        if twice:
            self.error("4.4", twice, "a hole belongs to exactly one cycle, once")
        lonely = [p for p in cells_of(m, CellType.HOLE) if p not in seen]
        if lonely:
            self.error("4.4", lonely, "every hole belongs to a hole cycle")

    # -- C4.5 ---------------------------------------------------------------------------------------
    def rivers(self) -> None:
        m = self.m
        rivers = set(cells_of(m, CellType.RIVER))
        mouths = set(cells_of(m, CellType.MOUTH))
        no_flow = sorted(p for p in rivers if p not in m.flow)
        if no_flow:
            self.error("4.5", no_flow, "every river cell flows to a neighbouring cell")
        from_mouth = sorted(p for p in m.flow if p in mouths)
        if from_mouth:
            self.error("4.5", [*from_mouth, *(m.flow[p] for p in from_mouth)],
                       "nothing flows out of a mouth: two mouths in one system, or a mouth in mid-river")
        other = sorted(p for p in m.flow if p not in rivers and p not in mouths)
        if other:
            self.error("4.5", other, "only river cells have a flow")
        for src, dst in sorted(m.flow.items()):
            if src not in rivers:
                continue
            if direction_between(src, dst) is None or dst not in m.cells:
                self.error("4.5", [src], f"the flow {src} -> {dst} must go to a neighbouring cell")
            elif dst not in rivers and dst not in mouths:
                self.error("4.5", [src, dst], "a river flows into a river cell or the mouth of its system")
            elif frozenset((src, dst)) in m.walls:
                self.error("4.5", [src, dst], "no wall may lie across a river flow")
        # cycles: follow the flow from every river cell
        in_cycle: set[Pos] = set()
        for start in sorted(rivers):
            path: list[Pos] = []
            here: Pos | None = start
            while here is not None and here in rivers and here not in path and here not in in_cycle:
                path.append(here)
                here = m.flow.get(here)
            if here is not None and here in path:
                in_cycle.update(path[path.index(here):])
        if in_cycle:
            self.error("4.5", in_cycle, "a river may not flow in a cycle: the flow always ends at a mouth")
        # systems: the cells linked by the flow
        parent: dict[Pos, Pos] = {p: p for p in rivers | mouths}

        def root(p: Pos) -> Pos:
            while parent[p] != p:
                parent[p] = parent[parent[p]]
                p = parent[p]
            return p

        for src, dst in m.flow.items():
            if src in parent and dst in parent:
                parent[root(src)] = root(dst)
        systems: dict[Pos, list[Pos]] = {}
        for p in parent:
            systems.setdefault(root(p), []).append(p)
        for members in systems.values():
            system_mouths = [p for p in members if p in mouths]
            if len(system_mouths) > 1:
                self.error("4.5", members,
                           f"a river system has exactly one mouth, this one has {len(system_mouths)}")
            if not system_mouths and not (set(members) & in_cycle):
                self.error("4.5", members, "a river system ends at a mouth")
            if len(members) == 1 and members[0] in mouths:
                self.error("4.5", members, "a mouth needs at least one river flowing into it")

    # -- C8.5 ---------------------------------------------------------------------------------------
    def reachability(self) -> None:
        exempt = frozenset(sources(self.m)) if self.river_mode == "deep" else frozenset()
        for target, starts in sorted(unreachable(self.m, self.variant, self.river_mode, exempt).items()):
            shown = ", ".join(f"({r},{c})" for r, c in starts[:6]) + (", ..." if len(starts) > 6 else "")
            self.error("8.5", [target], f"cell ({target[0]},{target[1]}) cannot be reached without grenades "
                                        f"from {len(starts)} cell(s): {shown}")

    # -- recommendations ----------------------------------------------------------------------------
    def recommendations(self) -> None:
        m = self.m
        classic = self.variant == "classic"
        # C8.а / Q8.а: at least 2 arsenals and 2 hospitals
        arsenals, hospitals = cells_of(m, CellType.ARSENAL), cells_of(m, CellType.HOSPITAL)
        if len(arsenals) < 2 or len(hospitals) < 2:
            self.warn("8.а", (), f"at least 2 arsenals and 2 hospitals are recommended "
                                 f"(the map has {len(arsenals)} and {len(hospitals)})")
        # C8.б: no hospital next to an arsenal (classic only)
        if classic:
            pairs = [(h, a) for h in hospitals for a in arsenals if direction_between(h, a) is not None]
            if pairs:
                self.warn("8.б", pairs, "a hospital should not be next to an arsenal")
        # C8.в / Q8.б: 1..N false treasures
        false = sum(1 for stack in m.treasures.values() for t in stack if not t)
        most = self.players if self.players is not None else MAX_PLAYERS
        if not 1 <= false <= most:
            who = f"the {self.players} players" if self.players is not None \
                else f"at most {MAX_PLAYERS} players"
            self.warn("8.в" if classic else "8.б", (),
                      f"1 to N false treasures are recommended (N: {who}); the map has {false}")
        # C8.г / Q8.г: no strong attractors: a mouth with one way out, mouths side by side
        for mouth in cells_of(m, CellType.MOUTH):
            ways = [d for d in DIRECTIONS if side(m, mouth, d) is Side.OPEN
                    and m.flow.get(step_pos(mouth, d)) != mouth]
            if len(ways) <= 1:
                self.warn("8.г", [mouth, *upstream(m, mouth)],
                          f"the mouth ({mouth[0]},{mouth[1]}) has {len(ways)} way(s) out: "
                          "easy to get in, hard to get out")
        mouths = cells_of(m, CellType.MOUTH)
        for i, a in enumerate(mouths):
            for b in mouths[i + 1:]:
                if direction_between(a, b) is not None:
                    self.warn("8.г", [a, b], "two mouths side by side make a strong attractor")
        # C8.д / Q8.д: rivers, holes (and encephalitis) along the outer wall
        inner = [p for p, t in m.cells.items() if t in (CellType.RIVER, CellType.HOLE, CellType.ENCEPHALITIS)
                 and all(neighbour(m, p, d) is not None for d in DIRECTIONS)]
        if inner:
            self.warn("8.д", inner,
                      "rivers, holes and encephalitis cells are recommended along the outer wall")
        # C8.е / Q8.в: no treasure next to an exit
        exit_cells = {pos for pos, _ in exits(m)}
        near = [p for p, stack in m.treasures.items() if stack and p in exit_cells]
        if near:
            self.warn("8.е" if classic else "8.в", near,
                      "a treasure (especially the true one) should not be next to an exit")
        # deep rivers: items on a source are lost for good (C4.6)
        if self.river_mode == "deep":
            lost = [p for p in sources(m) if m.treasures.get(p) or m.bullets.get(p) or m.grenades.get(p)
                    or m.mines.get(p)]
            if lost:
                self.warn("4.6", lost,
                          "items on a source can never be picked up (nobody can stand on a source)")
        # Q5.7: the game master scatters mines on land and arsenal cells
        if not classic:
            odd = [p for p, n in m.mines.items()
                   if n and m.cells.get(p) not in (CellType.LAND, CellType.ARSENAL)]
            if odd:
                self.warn("5.7", odd, "in the quantum game mines lie on land and arsenal cells")


def validate_paper_map(m: PaperMap, variant: str = "classic", *, river_mode: RiverMode | None = None,
                       players: int | None = None) -> ValidationResult:
    """Check ``m`` against the seed's mandatory map rules for ``variant`` ("classic" or "quantum").

    ``river_mode`` (default: the variant's, deep for classic and shallow for quantum) sets how rivers
    move players for the reachability rule C§8.5 (with deep rivers, sources are exempt). ``players``
    (2-5) sharpens the false-treasure recommendation (default: up to 5)."""
    mode = river_mode or default_river_mode(variant)
    checker = _Checker(m, variant, mode, players)
    if checker.structure():
        checker.kinds()
        checker.treasure()
        checker.exits()
        before = len(checker.errors)
        checker.holes()
        checker.rivers()
        if len(checker.errors) == before:
            checker.reachability()  # only with well-formed holes and rivers: movement follows them
        checker.recommendations()
    return ValidationResult(tuple(checker.errors), tuple(checker.warnings))
