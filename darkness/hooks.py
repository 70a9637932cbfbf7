"""The Labyrinth of Darkness as a run kind: its hooks into the run services (dungeons/kinds.py) and
its receiver of guild creation (guilds/signals.py), connected in DarknessConfig.ready()."""
from __future__ import annotations

from typing import Any

from darkness import services
from darkness.models import DarknessRun
from darkness.selectors import darkness_allowed, darkness_state
from dungeons.kinds import RunKindHooks
from dungeons.runs import MemberRow, RunRow, RunStep
from guilds.models import Guild
from players.models import Player


class DarknessHooks(RunKindHooks):
    """A darkness run: the guild's own maze, moves by direction, a torch, leaving from a camp."""

    boss_completes_run = True  # the heart's boss ends the labyrinth
    own_row = (DarknessRun, ("maze",))  # the place, the torch and the path, read with every step

    def seat_check(self, *, step: RunStep, player: Player, opening: bool) -> None:
        services.darkness_seat_check(step=step, player=player, opening=opening)  # the host's guild only

    def unseated(self, *, step: RunStep, members: list[MemberRow]) -> list[MemberRow]:
        return services.darkness_unseated(step=step, members=members)  # who left the guild stays outside

    def start(self, *, step: RunStep, members: list[MemberRow]) -> bool:
        return services.darkness_run_start(step=step, members=members)

    def advance_check(self, *, step: RunStep) -> None:
        services.darkness_advance_refuse(step=step)

    def escape_check(self, *, step: RunStep) -> None:
        services.darkness_escape_check(step=step)

    def member_leaving(self, *, step: RunStep, member: MemberRow) -> None:
        services.torch_take_back(step=step, member=member)  # never among their losses

    def member_left(self, *, step: RunStep) -> None:
        services.torch_pass(step=step)  # the torch passes down the formation

    def run_ending(self, *, step: RunStep) -> None:
        services.torch_put_out(step=step)  # the labyrinth's torch stays in the labyrinth

    def run_view(self, *, run: RunRow, player: Player) -> dict[str, Any] | None:
        return darkness_state(run_id=run.pk, player=player)

    def allowed_actions(self, *, run: RunRow, kind_view: Any, allowed: list[dict[str, Any]],
                        walking: bool) -> list[dict[str, Any]]:
        return darkness_allowed(run=run, state=kind_view, allowed=allowed, walking=walking)


def on_guild_created(sender: type[Guild], *, guild: Guild, **kwargs: Any) -> None:
    """Every new guild gets its Labyrinth of Darkness in the creating transaction (SPEC 9.5)."""
    services.guild_maze_create(guild=guild)
