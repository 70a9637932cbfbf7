"""The Labyrinth of Darkness as a run kind: its hooks into the run services (dungeons/kinds.py) and
its receiver of guild creation (guilds/signals.py), connected in DarknessConfig.ready()."""
from __future__ import annotations

from typing import Any

from darkness import services
from darkness.selectors import darkness_state
from dungeons.kinds import RunKindHooks
from dungeons.models import Run, RunMember
from guilds.models import Guild
from players.models import Player


class DarknessHooks(RunKindHooks):
    """A darkness run: the guild's own maze, moves by direction, a torch, leaving from a camp."""

    boss_completes_run = True  # the heart's boss ends the labyrinth

    def seat_check(self, *, run: Run, player: Player) -> None:
        services.darkness_seat_check(run=run, player=player)  # the host's guild only

    def unseated(self, *, run: Run, members: list[RunMember]) -> list[RunMember]:
        return services.darkness_unseated(run=run, members=members)  # who left the guild stays outside

    def start(self, *, run: Run, members: list[RunMember]) -> Run | None:
        return services.darkness_run_start(run=run, members=members)

    def advance_check(self, *, run: Run) -> None:
        services.darkness_advance_refuse(run=run)

    def escape_check(self, *, run: Run) -> None:
        services.darkness_escape_check(run=run)

    def member_leaving(self, *, run: Run, member: RunMember) -> None:
        services.torch_take_back(run=run, member=member)  # never among their losses

    def member_left(self, *, run: Run) -> None:
        services.torch_pass(run=run)  # the torch passes down the formation

    def run_ending(self, *, run: Run) -> None:
        services.torch_put_out(run=run)  # the labyrinth's torch stays in the labyrinth

    def run_view(self, *, run: Run, player: Player) -> dict[str, Any] | None:
        return darkness_state(run_id=run.pk, player=player)


def on_guild_created(sender: type[Guild], *, guild: Guild, **kwargs: Any) -> None:
    """Every new guild gets its Labyrinth of Darkness in the creating transaction (SPEC 9.5)."""
    services.guild_maze_create(guild=guild)
