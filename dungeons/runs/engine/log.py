"""The run log's entries as typed values: each kind is a frozen dataclass that knows its JSON and its
sentence, so the run's rules return values (``Trap(hits)``), the services log them (``step.log(entry)``)
and the admin reads them back (``entry_from_json``) instead of matching strings.

A stored entry is ``{"kind", "floor", "room", **fields}`` (docs/runs.md lists them). Two shapes may
share a kind (a member's ``escaped`` names the player, the run's own ``escaped`` names nobody): the
one whose fields the JSON holds is chosen. Run kinds built on dungeons register their own entries
(darkness/log_entries.py) with ``register``.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

Names = Mapping[str, str]
E = TypeVar("E", bound="LogEntry")

__all__ = [
    "ENTRY_TYPES",
    "BattleBegun",
    "BattleOver",
    "Completed",
    "Died",
    "Entered",
    "Formation",
    "LogEntry",
    "MemberEscaped",
    "Names",
    "NpcDied",
    "NpcJoined",
    "PotionHealed",
    "Rested",
    "RunEscaped",
    "RunFailed",
    "SealOpened",
    "Sealed",
    "Started",
    "StatPotionDrunk",
    "StoryItems",
    "Trap",
    "Treasure",
    "describe_json",
    "entry_from_json",
    "hp_list",
    "register",
    "who",
]

#: kind -> the entry types of that kind, in registration order
ENTRY_TYPES: dict[str, list[type[LogEntry]]] = {}


def register(cls: type[E]) -> type[E]:
    ENTRY_TYPES.setdefault(cls.kind, []).append(cls)
    return cls


def who(value: Any, names: Names) -> str:
    """A player id (or a list of them) as names."""
    if isinstance(value, list):
        return ", ".join(names.get(str(v), f"player {v}") for v in value)
    return names.get(str(value), f"player {value}")


def hp_list(hits: Any, names: Names) -> str:
    """``{player: hit}`` (a trap's hits, or a rest's HP) as one line."""
    if not isinstance(hits, dict):
        return str(hits)
    parts = []
    for pid, hit in hits.items():
        if isinstance(hit, dict):
            text = f"{who(pid, names)} -{hit.get('damage', 0)} HP (now {hit.get('hp', '?')})"
            if hit.get("effect"):
                text += f", {hit['effect']}"
        else:
            text = f"{who(pid, names)} {hit} HP"
        parts.append(text)
    return "; ".join(parts)


@dataclass(frozen=True)
class LogEntry:
    """One thing that happened in a run, where the party stood."""

    kind: ClassVar[str] = ""

    def fields(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def to_json(self, *, floor: int | None, room: int | None) -> dict[str, Any]:
        return {"kind": self.kind, "floor": floor, "room": room, **self.fields()}

    def describe(self, names: Names) -> str:
        """The entry as a sentence for the admin (``names``: player id -> name)."""
        details = ", ".join(f"{k}={v}" for k, v in self.fields().items())
        return f"{self.kind}: {details}" if details else self.kind


def entry_from_json(data: Mapping[str, Any]) -> LogEntry | None:
    """The typed entry a stored JSON entry is, or None for a kind or shape no type describes (its place in
    the run's one sequence, ``seq``, is the run's, not the entry's)."""
    present = set(data) - {"kind", "floor", "room", "seq"}
    for cls in ENTRY_TYPES.get(str(data.get("kind", "")), []):
        names = [f.name for f in dataclasses.fields(cls)]
        required = {f.name for f in dataclasses.fields(cls)
                    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
        if required <= present <= set(names):
            try:
                return cls(**{name: data[name] for name in names if name in data})
            except TypeError:
                return None
    return None


def describe_json(data: Mapping[str, Any], names: Names) -> str:
    """A stored entry as a sentence; one no type describes (or describes badly) shows its fields."""
    entry = entry_from_json(data)
    if entry is not None:
        try:
            return entry.describe(names)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass
    kind = str(data.get("kind", "?"))
    details = ", ".join(f"{k}={v}" for k, v in data.items() if k not in ("kind", "floor", "room", "seq"))
    return f"{kind}: {details}" if details else kind


# --- the ordinary run's entries ---------------------------------------------------------------------


@register
@dataclass(frozen=True)
class Started(LogEntry):
    kind: ClassVar[str] = "started"
    party: list[int]
    rank: float
    completed: float

    def describe(self, names: Names) -> str:
        return f"The run starts: {who(self.party, names)} (R = {self.rank:g}, C = {self.completed:g})"


@register
@dataclass(frozen=True)
class Entered(LogEntry):
    kind: ClassVar[str] = "entered"
    room_kind: str

    def describe(self, names: Names) -> str:
        return f"The party enters a {self.room_kind} room"


@register
@dataclass(frozen=True)
class BattleBegun(LogEntry):
    kind: ClassVar[str] = "battle"
    battle: int
    enemies: list[str]

    def describe(self, names: Names) -> str:
        return f"Battle #{self.battle} against {', '.join(map(str, self.enemies))}"


@register
@dataclass(frozen=True)
class BattleOver(LogEntry):
    kind: ClassVar[str] = "battle_over"
    battle: int
    outcome: str

    def describe(self, names: Names) -> str:
        return f"Battle #{self.battle} is over: {self.outcome}"


@register
@dataclass(frozen=True)
class Trap(LogEntry):
    kind: ClassVar[str] = "trap"
    hits: dict[Any, dict[str, Any]]

    def describe(self, names: Names) -> str:
        return f"A trap springs: {hp_list(self.hits, names)}"


@register
@dataclass(frozen=True)
class Treasure(LogEntry):
    kind: ClassVar[str] = "treasure"
    items: list[int]
    coins_each: int

    def describe(self, names: Names) -> str:
        return f"Treasure: {len(self.items)} items, {self.coins_each} coins each"


@register
@dataclass(frozen=True)
class StoryItems(LogEntry):
    kind: ClassVar[str] = "story_items"
    story_item: str
    items: list[int]

    def describe(self, names: Names) -> str:
        return f"Story items ({self.story_item}): {len(self.items)} items"


@register
@dataclass(frozen=True)
class Sealed(LogEntry):
    kind: ClassVar[str] = "sealed"
    seal: str

    def describe(self, names: Names) -> str:
        return f"A sealed story room stays shut: nobody carries {self.seal} found in this run"


@register
@dataclass(frozen=True)
class SealOpened(LogEntry):
    kind: ClassVar[str] = "seal_opened"
    seal: str
    opened_by: int
    items: list[int]
    coins_each: int

    def describe(self, names: Names) -> str:
        return (f"The {self.seal} open a sealed story room: {len(self.items)} items, "
                f"{self.coins_each} coins each")


@register
@dataclass(frozen=True)
class NpcJoined(LogEntry):
    kind: ClassVar[str] = "npc_joined"
    npc: str

    def describe(self, names: Names) -> str:
        return f"The {self.npc} joins the party"


@register
@dataclass(frozen=True)
class NpcDied(LogEntry):
    kind: ClassVar[str] = "npc_died"
    npc: str

    def describe(self, names: Names) -> str:
        return f"The {self.npc} dies"


@register
@dataclass(frozen=True)
class Rested(LogEntry):
    kind: ClassVar[str] = "rested"
    hp: dict[Any, int]

    def describe(self, names: Names) -> str:
        return f"The party rests: {hp_list(self.hp, names)}"


@register
@dataclass(frozen=True)
class Formation(LogEntry):
    kind: ClassVar[str] = "formation"
    players: list[int]

    def describe(self, names: Names) -> str:
        return f"New formation: {who(self.players, names)}"


@register
@dataclass(frozen=True)
class PotionHealed(LogEntry):
    """A healing potion drunk between rooms."""

    kind: ClassVar[str] = "potion_drunk"
    player: int
    potion: str
    item_kind: int
    hp: int
    max_hp: int
    healed: int

    def describe(self, names: Names) -> str:
        return (f"{who(self.player, names)} drinks a healing potion: +{self.healed} HP "
                f"({self.hp}/{self.max_hp})")


@register
@dataclass(frozen=True)
class StatPotionDrunk(LogEntry):
    """A stat potion drunk between rooms (it lasts for the rest of the run)."""

    kind: ClassVar[str] = "potion_drunk"
    player: int
    potion: str
    item_kind: int
    hp: int
    max_hp: int
    stat: str
    amount: int

    def describe(self, names: Names) -> str:
        return f"{who(self.player, names)} drinks a stat potion: {self.stat} +{self.amount} for the run"


@register
@dataclass(frozen=True)
class Died(LogEntry):
    kind: ClassVar[str] = "died"
    player: int
    charon_fee: int
    items_lost: int

    def describe(self, names: Names) -> str:
        return (f"{who(self.player, names)} dies; Charon takes {self.charon_fee} coins, "
                f"{self.items_lost} items of this run are lost")


@register
@dataclass(frozen=True)
class MemberEscaped(LogEntry):
    kind: ClassVar[str] = "escaped"
    player: int
    loss_percent: int
    items_lost: int

    def describe(self, names: Names) -> str:
        return (f"{who(self.player, names)} escapes, losing {self.items_lost} items "
                f"({self.loss_percent}% loss)")


@register
@dataclass(frozen=True)
class RunEscaped(LogEntry):
    """The run ended: nobody is left inside and someone got out alive."""

    kind: ClassVar[str] = "escaped"

    def describe(self, names: Names) -> str:
        return "The run ends: everyone left alive escaped"


@register
@dataclass(frozen=True)
class RunFailed(LogEntry):
    kind: ClassVar[str] = "failed"

    def describe(self, names: Names) -> str:
        return "The run ends: the whole party fell"


@register
@dataclass(frozen=True)
class Completed(LogEntry):
    kind: ClassVar[str] = "completed"
    party: list[int]
    rescued: str | None

    def describe(self, names: Names) -> str:
        rescued = f"; the {self.rescued} is rescued" if self.rescued else ""
        return f"The run is completed by {who(self.party, names)}{rescued}"
