"""Seed 002's game state: the map as it is now (walls, exits, items), the players, the counters.

``GameState`` is a plain value the rules copy before changing (``rules.apply`` never mutates its
argument). ``state_to_json`` / ``state_from_json`` are a lossless round trip (the host stores the
JSON in the match row); the JSON holds secrets (positions, the map) and is never shown to players.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from labyrinth.engine.grid import Direction
from paper_labyrinth.engine.model import CellType, Outer, PaperMap, Pos
from paper_labyrinth.engine.requests import JSONValue, Message, Options, Result

Health = Literal["healthy", "wounded", "sick", "dead"]
SlotKind = Literal["treasure", "mine", "corpse"]
SLOT_RANK: dict[str, int] = {"corpse": 1, "mine": 2, "treasure": 3}
"""C§5.1: corpse < mine < treasure; a lower item is swapped for a higher one, equal ranks are not."""
CARRY_MAX = 3
"""At most 3 bullets and 3 grenades (C§5.1)."""


@dataclass
class Corpse:
    """The body of player ``seat``; infectious when they died sick (C§5.6)."""

    seat: int
    infectious: bool = False


@dataclass
class Slot:
    """The one slot: a treasure (``true`` or false), an unarmed mine, or a corpse."""

    kind: SlotKind
    true: bool = False
    corpse: Corpse | None = None


@dataclass
class Pile:
    """What lies on one cell. ``treasures`` bottom -> top; ``armed`` mines are invisible."""

    bullets: int = 0
    grenades: int = 0
    mines: int = 0
    armed: int = 0
    treasures: list[bool] = field(default_factory=list)
    corpses: list[Corpse] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.bullets or self.grenades or self.mines or self.armed
                    or self.treasures or self.corpses)


@dataclass
class Player:
    """One seat. ``pos`` is the cell (for an outside player: the cell they left, ``outside`` the exit's
    direction; for a dead or eliminated player: where it ended). ``notice``: wounded since their last
    turn (announced when their turn comes); ``may_reorder``: that announcement offers a re-order."""

    seat: int
    pos: Pos
    health: Health = "healthy"
    immune: bool = False
    bullets: int = 3
    grenades: int = 3
    slot: Slot | None = None
    outside: Direction | None = None
    eliminated: bool = False
    cure_left: int | None = None
    reorders_left: int = 0
    notice: bool = False
    may_reorder: bool = False

    @property
    def in_game(self) -> bool:
        """Alive and not eliminated (still takes turns)."""
        return self.health != "dead" and not self.eliminated


@dataclass
class Tick:
    """An encephalitis cell whose tick is awake: woken in turn number ``woken_turn`` by ``seat``."""

    seat: int
    woken_turn: int
    infectious: bool = False


@dataclass
class GameState:
    """The whole game. ``turn`` counts the completed turns; ``current`` is the seat to move (None when
    over). ``calm`` counts turns since the last irreversible change (Nstop); ``skips`` consecutive
    skipped turns; ``last`` each seat's last turn answer (for ``Repeat``); ``bumped`` the steps (their
    repr) of a seat's last turn when it was answered "стенка" (the C§7.7 ban on repeating it)."""

    map: PaperMap
    options: Options
    players: list[Player]
    walls: set[frozenset[Pos]]
    outer: dict[tuple[Pos, Direction], Outer]
    piles: dict[Pos, Pile]
    ticks: dict[Pos, Tick] = field(default_factory=dict)
    turn: int = 0
    current: int | None = 0
    calm: int = 0
    skips: int = 0
    survivor_turns: int | None = None
    bumped: dict[int, str] = field(default_factory=dict)
    result: Result | None = None
    last: dict[int, list[Message]] = field(default_factory=dict)

    def pile(self, pos: Pos) -> Pile:
        """The pile on ``pos`` (created empty on demand)."""
        found = self.piles.get(pos)
        if found is None:
            found = self.piles[pos] = Pile()
        return found

    def copy(self) -> GameState:
        """A deep copy sharing only immutable parts: the (frozen, never changed) map and options, the
        positions, enums and frozensets, the result and the last answers' frozen messages (the rules
        replace a seat's answers, never change one). Written out rather than ``copy.deepcopy`` (each
        ``rules.apply`` copies; deepcopy walks every value); tests check that no mutable object is
        shared with the original."""
        return replace(
            self,
            players=[replace(p, slot=_slot_copy(p.slot)) for p in self.players],
            walls=set(self.walls),
            outer=dict(self.outer),
            piles={pos: replace(pile, treasures=list(pile.treasures),
                                corpses=[replace(c) for c in pile.corpses])
                   for pos, pile in self.piles.items()},
            ticks={pos: replace(tick) for pos, tick in self.ticks.items()},
            bumped=dict(self.bumped),
            last={seat: list(msgs) for seat, msgs in self.last.items()},
        )

    def in_game(self) -> list[Player]:
        return [p for p in self.players if p.in_game]


def _slot_copy(slot: Slot | None) -> Slot | None:
    if slot is None:
        return None
    return replace(slot, corpse=None if slot.corpse is None else replace(slot.corpse))


# --- JSON --------------------------------------------------------------------------------------------


def _pos(value: Any) -> Pos:
    return (int(value[0]), int(value[1]))


def map_to_json(m: PaperMap) -> dict[str, JSONValue]:
    """A PaperMap as JSON (lists of [row, col] keyed entries, sorted: equal maps give equal JSON)."""
    return {
        "rows": m.rows, "cols": m.cols,
        "cells": [[r, c, t.value] for (r, c), t in sorted(m.cells.items())],
        "walls": sorted(sorted(list(p) for p in w) for w in m.walls),
        "outer": sorted([[r, c, d.value, k.value] for ((r, c), d), k in m.outer.items()]),
        "holes": [[list(p) for p in cycle] for cycle in m.holes],
        "flow": sorted([[a[0], a[1], b[0], b[1]] for a, b in m.flow.items()]),
        "treasures": sorted([[r, c, list(stack)] for (r, c), stack in m.treasures.items()]),
        "bullets": sorted([[r, c, n] for (r, c), n in m.bullets.items()]),
        "grenades": sorted([[r, c, n] for (r, c), n in m.grenades.items()]),
        "mines": sorted([[r, c, n] for (r, c), n in m.mines.items()]),
    }


def map_from_json(data: dict[str, Any]) -> PaperMap:
    return PaperMap(
        rows=int(data["rows"]), cols=int(data["cols"]),
        cells={(int(r), int(c)): CellType(t) for r, c, t in data["cells"]},
        walls=frozenset(frozenset(_pos(p) for p in w) for w in data["walls"]),
        outer={((int(r), int(c)), Direction(d)): Outer(k) for r, c, d, k in data["outer"]},
        holes=tuple(tuple(_pos(p) for p in cycle) for cycle in data["holes"]),
        flow={(int(a), int(b)): (int(c), int(d)) for a, b, c, d in data["flow"]},
        treasures={(int(r), int(c)): tuple(bool(t) for t in stack) for r, c, stack in data["treasures"]},
        bullets={(int(r), int(c)): int(n) for r, c, n in data["bullets"]},
        grenades={(int(r), int(c)): int(n) for r, c, n in data["grenades"]},
        mines={(int(r), int(c)): int(n) for r, c, n in data["mines"]},
    )


def _corpse_json(c: Corpse) -> dict[str, JSONValue]:
    return {"seat": c.seat, "infectious": c.infectious}


def _corpse(data: dict[str, Any]) -> Corpse:
    return Corpse(seat=int(data["seat"]), infectious=bool(data["infectious"]))


def _options_json(o: Options) -> dict[str, JSONValue]:
    return dict(vars(o))


def state_to_json(state: GameState) -> dict[str, JSONValue]:
    """The whole state as JSON (secret: the host stores it, never shows it)."""
    players: list[JSONValue] = []
    for p in state.players:
        slot: JSONValue = None
        if p.slot is not None:
            slot = {"kind": p.slot.kind, "true": p.slot.true,
                    "corpse": None if p.slot.corpse is None else _corpse_json(p.slot.corpse)}
        players.append({
            "seat": p.seat, "pos": list(p.pos), "health": p.health, "immune": p.immune,
            "bullets": p.bullets, "grenades": p.grenades, "slot": slot,
            "outside": None if p.outside is None else p.outside.value, "eliminated": p.eliminated,
            "cure_left": p.cure_left, "reorders_left": p.reorders_left, "notice": p.notice,
            "may_reorder": p.may_reorder,
        })
    piles = [
        [r, c, {"bullets": pl.bullets, "grenades": pl.grenades, "mines": pl.mines, "armed": pl.armed,
                "treasures": list(pl.treasures), "corpses": [_corpse_json(x) for x in pl.corpses]}]
        for (r, c), pl in sorted(state.piles.items()) if not pl.empty()
    ]
    result: JSONValue = None
    if state.result is not None:
        result = {"kind": state.result.kind, "seat": state.result.seat, "reason": state.result.reason}
    return {
        "map": map_to_json(state.map),
        "options": _options_json(state.options),
        "players": players,
        "walls": sorted(sorted(list(p) for p in w) for w in state.walls),
        "outer": sorted([[r, c, d.value, k.value] for ((r, c), d), k in state.outer.items()]),
        "piles": piles,
        "ticks": sorted([[r, c, t.seat, t.woken_turn, t.infectious] for (r, c), t in state.ticks.items()]),
        "turn": state.turn, "current": state.current, "calm": state.calm, "skips": state.skips,
        "survivor_turns": state.survivor_turns, "result": result,
        "bumped": {str(seat): steps for seat, steps in sorted(state.bumped.items())},
        "last": {str(seat): [m.to_json() for m in msgs] for seat, msgs in sorted(state.last.items())},
    }


def state_from_json(data: dict[str, Any], *, game_map: PaperMap | None = None) -> GameState:
    """The inverse of ``state_to_json``: ``state_from_json(state_to_json(s)) == s``. ``game_map``: the
    map ``data["map"]`` holds, already parsed by the caller (it is used as it is, not checked; a host
    passes it only when ``data["map"] == map_to_json(game_map)``); None parses ``data["map"]``."""
    players = []
    for p in data["players"]:
        slot = None
        if p["slot"] is not None:
            s = p["slot"]
            slot = Slot(kind=s["kind"], true=bool(s["true"]),
                        corpse=None if s["corpse"] is None else _corpse(s["corpse"]))
        players.append(Player(
            seat=int(p["seat"]), pos=_pos(p["pos"]), health=p["health"], immune=bool(p["immune"]),
            bullets=int(p["bullets"]), grenades=int(p["grenades"]), slot=slot,
            outside=None if p["outside"] is None else Direction(p["outside"]),
            eliminated=bool(p["eliminated"]), cure_left=p["cure_left"],
            reorders_left=int(p["reorders_left"]), notice=bool(p["notice"]),
            may_reorder=bool(p["may_reorder"]),
        ))
    piles = {
        (int(r), int(c)): Pile(bullets=int(pl["bullets"]), grenades=int(pl["grenades"]),
                               mines=int(pl["mines"]), armed=int(pl["armed"]),
                               treasures=[bool(t) for t in pl["treasures"]],
                               corpses=[_corpse(x) for x in pl["corpses"]])
        for r, c, pl in data["piles"]
    }
    result = None
    if data["result"] is not None:
        res = data["result"]
        result = Result(kind=res["kind"], seat=res["seat"], reason=res["reason"])
    m = map_from_json(data["map"]) if game_map is None else game_map
    # walls and outer sides no grenade has changed are the map's (both JSON lists are sorted alike)
    walls = (set(m.walls) if data["walls"] == data["map"]["walls"]
             else {frozenset(_pos(p) for p in w) for w in data["walls"]})
    outer = (dict(m.outer) if data["outer"] == data["map"]["outer"]
             else {((int(r), int(c)), Direction(d)): Outer(k) for r, c, d, k in data["outer"]})
    return GameState(
        map=m,
        options=Options(**data["options"]),
        players=players,
        walls=walls,
        outer=outer,
        piles=piles,
        ticks={(int(r), int(c)): Tick(seat=int(s), woken_turn=int(t), infectious=bool(i))
               for r, c, s, t, i in data["ticks"]},
        turn=int(data["turn"]), current=data["current"], calm=int(data["calm"]), skips=int(data["skips"]),
        survivor_turns=data["survivor_turns"], result=result,
        bumped={int(seat): str(steps) for seat, steps in data.get("bumped", {}).items()},
        last={int(seat): [Message(seat=int(m["seat"]), code=m["code"], text=m["text"], data=m["data"])
                          for m in msgs] for seat, msgs in data["last"].items()},
    )
