"""The generated dungeon as plain frozen values: Dungeon, Floor, Room."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from dungeons.generation.params import GenerationParams
from dungeons.generation.rules import RoomKind


@dataclass(frozen=True, slots=True)
class Room:
    """One room. A ``story`` room holds the NPC (``npc_kind``), a ``story_item``, or is sealed: it
    opens only for a party carrying the story item named by ``seal`` (found on an earlier floor)."""

    kind: RoomKind
    npc_kind: str | None = None
    story_item: str | None = None
    seal: str | None = None


@dataclass(frozen=True, slots=True)
class Floor:
    index: int
    rooms: tuple[Room, ...]

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(str(room.kind) for room in self.rooms)


@dataclass(frozen=True, slots=True)
class Dungeon:
    """A generated dungeon with the inputs that made it, so it can be regenerated and compared.

    ``npc`` is ``(floor, room)`` of the story room holding the NPC, or None; ``npc_kind`` names it.
    ``npc_chance`` is the chance the dungeon had of holding one (0 for mixed-guild parties).
    """

    kind: str
    n: int
    rank: float
    completed: float
    same_guild: bool
    params: GenerationParams
    floors: tuple[Floor, ...]
    npc: tuple[int, int] | None
    npc_kind: str | None
    npc_chance: float
    generator_version: int

    def room(self, floor: int, index: int) -> Room:
        return self.floors[floor].rooms[index]

    def rooms(self) -> Iterator[tuple[int, int, Room]]:
        """Every room as ``(floor, index, room)`` in the order the party passes them."""
        for floor in self.floors:
            for index, room in enumerate(floor.rooms):
                yield floor.index, index, room

    @property
    def room_total(self) -> int:
        return sum(len(floor.rooms) for floor in self.floors)
