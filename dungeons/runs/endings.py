"""How members leave a run and how a run ends: death through Charon, escape with losses, completion.

Each works on the step (dungeons/runs/store.py: ``RunStep``): the member's and the run's new columns and
the log entries are recorded there and saved with the step; what the player carries and their money are
the players' rows, written here under the player's lock.
"""
from __future__ import annotations

from collections.abc import Sequence

from django.db.models import F
from django.utils import timezone

from dungeons import run_rules
from dungeons.kinds import run_kind_hooks
from dungeons.models import MemberStatus, RunStatus
from dungeons.run_log import Completed, Died, MemberEscaped, RunEscaped, RunFailed
from dungeons.runs.core import run_rules_get
from dungeons.runs.store import MemberRow, RunStep
from npcs.services import npc_rescue
from players.models import InventoryItem, Player
from players.services import player_lock


def die(step: RunStep, member: MemberRow) -> None:
    """Out of the run; Charon respawns the player for a tenth of their money and this run's items."""
    hooks = run_kind_hooks(step.run.kind)
    player = player_lock(member.player_id)
    hooks.member_leaving(step=step, member=member)  # e.g. the labyrinth takes its torch back
    fee = run_rules.charon_fee(money=player.money, rules=run_rules_get())
    lost, _ = InventoryItem.objects.filter(player=player, acquired_in_run_id=step.pk).delete()
    Player.objects.filter(pk=player.pk).update(money=F("money") - fee)
    step.change_member(member.player_id, status=MemberStatus.DEAD, active=False, hp=0, money_lost=fee,
                       items_lost=lost)
    step.log(Died(player=member.player_id, charon_fee=fee, items_lost=lost))
    hooks.member_left(step=step)  # e.g. the torch passes on


def escape(step: RunStep, member: MemberRow, *, purpose: str) -> None:
    """Out of the run alive, losing the loss fraction of everything carried (seeded choice)."""
    run = step.run
    hooks = run_kind_hooks(run.kind)
    player = player_lock(member.player_id)
    hooks.member_leaving(step=step, member=member)
    percent = run_rules.escape_loss_percent(luck=player.luck, attentiveness=player.attentiveness,
                                            rules=run_rules_get())
    carried = list(InventoryItem.objects.filter(player=player).order_by("pk").values_list("pk", flat=True))
    rng = run_rules.room_rng(run.seed, run.floor or 0, run.room or 0, f"{purpose}/{player.pk}")
    lost = run_rules.escape_losses(carried, percent=percent, rng=rng)
    InventoryItem.objects.filter(pk__in=lost).delete()
    step.change_member(member.player_id, status=MemberStatus.ESCAPED, active=False, items_lost=len(lost))
    step.log(MemberEscaped(player=member.player_id, loss_percent=percent, items_lost=len(lost)))
    hooks.member_left(step=step)


def end_if_party_gone(step: RunStep) -> None:
    """Nobody is left inside: the run failed, or ended by escape if someone got out alive."""
    if step.run.status != RunStatus.ACTIVE:
        return
    members = step.members()
    if any(m.status == MemberStatus.IN_DUNGEON for m in members):
        return
    run_kind_hooks(step.run.kind).run_ending(step=step)
    escaped = any(m.status == MemberStatus.ESCAPED for m in members)
    step.change(status=RunStatus.ESCAPED if escaped else RunStatus.FAILED, ended_at=timezone.now(),
                room_cleared=False)
    step.log(RunEscaped() if escaped else RunFailed())


def complete(step: RunStep, party: Sequence[MemberRow]) -> None:
    """The last boss fell: the members inside keep everything, count a completed dungeon, and an NPC
    with the party is rescued for its guild."""
    run = step.run
    # The rescue writes the guild row before any player row is touched here, the guild services'
    # order (guild, then player), so a completion never deadlocks with a kick or a leave; the kind's
    # end comes after it, as it may give items back (darkness: the weapons set aside).
    rescued = run.has_npc and run.guild_id is not None
    if rescued:
        assert run.guild_id is not None
        npc_rescue(guild_id=run.guild_id, kind=run.npc_kind, run_id=run.id)
    run_kind_hooks(run.kind).run_ending(step=step)
    for member in party:
        step.change_member(member.player_id, status=MemberStatus.FINISHED, active=False)
    Player.objects.filter(pk__in=[m.player_id for m in party]).update(
        completed_dungeons=F("completed_dungeons") + 1)
    step.change(status=RunStatus.COMPLETED, ended_at=timezone.now())
    step.log(Completed(party=[m.player_id for m in party], rescued=run.npc_kind if rescued else None))
