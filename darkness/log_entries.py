"""The run-log entries of a Labyrinth of Darkness run (registered with dungeons.run_log)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dungeons.run_log import LogEntry, Names, register, who


@register
@dataclass(frozen=True)
class DarknessStarted(LogEntry):
    kind: ClassVar[str] = "started"
    party: list[int]
    rank: float
    maze: int

    def describe(self, names: Names) -> str:
        return (
            f"The party enters the guild's labyrinth (maze #{self.maze}): "
            f"{who(self.party, names)} (R = {self.rank:g})"
        )


@register
@dataclass(frozen=True)
class TorchTaken(LogEntry):
    kind: ClassVar[str] = "torch_taken"
    player: int | None
    set_aside: int | None = None  # the inventory item the bearer set aside to free a weapon slot

    def describe(self, names: Names) -> str:
        if self.player is None:
            return "Nobody can carry the torch: it burns unborne"
        aside = f", setting weapon #{self.set_aside} aside" if self.set_aside else ""
        return f"{who(self.player, names)} carries the torch{aside}"


@register
@dataclass(frozen=True)
class TorchRelit(LogEntry):
    kind: ClassVar[str] = "torch_relit"
    torch: int

    def describe(self, names: Names) -> str:
        return f"The torch is relit at a camp: {self.torch} moves"


@register
@dataclass(frozen=True)
class EnteredAgain(LogEntry):
    kind: ClassVar[str] = "entered_again"

    def describe(self, names: Names) -> str:
        return "The party enters a room it has been in before"


@register
@dataclass(frozen=True)
class TorchOut(LogEntry):
    kind: ClassVar[str] = "torch_out"

    def describe(self, names: Names) -> str:
        return "The torch burns out: the party is lost in the dark"


@register
@dataclass(frozen=True)
class Moved(LogEntry):
    kind: ClassVar[str] = "moved"
    direction: str
    outcome: str
    burn: int
    torch: int

    def describe(self, names: Names) -> str:
        return f"The party moves {self.direction}: {self.outcome} (torch -{self.burn}, {self.torch} left)"


@register
@dataclass(frozen=True)
class TurnedAway(LogEntry):
    """Members of the lobby who were no longer of its guild when the run started: they stayed outside."""

    kind: ClassVar[str] = "turned_away"
    players: list[int]

    def describe(self, names: Names) -> str:
        return f"{who(self.players, names)} no longer belong to the guild and stay outside"
