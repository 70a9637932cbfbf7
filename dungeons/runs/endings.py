"""How members leave a run and how a run ends: death through Charon, escape with losses, completion."""
from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F
from django.utils import timezone

from backend.sql import rows_update
from dungeons import run_rules
from dungeons.kinds import run_kind_hooks
from dungeons.models import MemberStatus, Run, RunMember, RunStatus
from dungeons.run_log import Completed, Died, MemberEscaped, RunEscaped, RunFailed
from dungeons.runs.core import log, run_rules_get
from npcs.services import npc_rescue
from players.models import InventoryItem, Player
from players.services import player_lock


def die(run: Run, member: RunMember) -> None:
    """Out of the run; Charon respawns the player for a tenth of their money and this run's items."""
    hooks = run_kind_hooks(run.kind)
    player = player_lock(member.player_id)
    hooks.member_leaving(run=run, member=member)  # e.g. the labyrinth takes its torch back
    fee = run_rules.charon_fee(money=player.money, rules=run_rules_get())
    lost, _ = InventoryItem.objects.filter(player=player, acquired_in_run=run).delete()
    Player.objects.filter(pk=player.pk).update(money=F("money") - fee)
    member.status, member.active, member.hp = MemberStatus.DEAD, False, 0
    member.money_lost, member.items_lost = fee, lost
    member.save(update_fields=["status", "active", "hp", "money_lost", "items_lost"])
    log(run, Died(player=member.player_id, charon_fee=fee, items_lost=lost))
    hooks.member_left(run=run)  # e.g. the torch passes on


def escape(run: Run, member: RunMember, *, purpose: str) -> None:
    """Out of the run alive, losing the loss fraction of everything carried (seeded choice)."""
    hooks = run_kind_hooks(run.kind)
    player = player_lock(member.player_id)
    hooks.member_leaving(run=run, member=member)
    percent = run_rules.escape_loss_percent(luck=player.luck, attentiveness=player.attentiveness,
                                            rules=run_rules_get())
    carried = list(InventoryItem.objects.filter(player=player).order_by("pk").values_list("pk", flat=True))
    rng = run_rules.room_rng(run.seed, run.floor or 0, run.room or 0, f"{purpose}/{player.pk}")
    lost = run_rules.escape_losses(carried, percent=percent, rng=rng)
    InventoryItem.objects.filter(pk__in=lost).delete()
    member.status, member.active, member.items_lost = MemberStatus.ESCAPED, False, len(lost)
    member.save(update_fields=["status", "active", "items_lost"])
    log(run, MemberEscaped(player=member.player_id, loss_percent=percent, items_lost=len(lost)))
    hooks.member_left(run=run)


def end_if_party_gone(run: Run, members: Iterable[RunMember] | None = None) -> None:
    """Nobody is left inside: the run failed, or ended by escape if someone got out alive.

    ``members``: every member who was inside when the caller's step began, as it left them (they
    are then checked in memory); None reads the members' rows.
    """
    if run.status != RunStatus.ACTIVE:
        return
    if members is None:
        if run.members.filter(status=MemberStatus.IN_DUNGEON).exists():
            return
    elif any(m.status == MemberStatus.IN_DUNGEON for m in members):
        return
    run_kind_hooks(run.kind).run_ending(run=run)
    escaped = run.members.filter(status=MemberStatus.ESCAPED).exists()
    run.status = RunStatus.ESCAPED if escaped else RunStatus.FAILED
    run.ended_at, run.room_cleared = timezone.now(), False
    log(run, RunEscaped() if escaped else RunFailed())


def complete(run: Run, party: list[RunMember]) -> None:
    """The last boss fell: the members inside keep everything, count a completed dungeon, and an NPC
    with the party is rescued for its guild."""
    # The rescue writes the guild row before any player row is touched here, the guild services'
    # order (guild, then player), so a completion never deadlocks with a kick or a leave; the kind's
    # end comes after it, as it may give items back (darkness: the weapons set aside).
    rescued = run.has_npc and run.guild_id is not None
    if rescued:
        npc_rescue(guild_id=run.guild_id, kind=run.npc_kind, run_id=run.pk)
    run_kind_hooks(run.kind).run_ending(run=run)
    for member in party:
        member.status, member.active = MemberStatus.FINISHED, False
    rows_update(party, ["status", "active"])
    Player.objects.filter(pk__in=[m.player_id for m in party]).update(
        completed_dungeons=F("completed_dungeons") + 1)
    run.status, run.ended_at = RunStatus.COMPLETED, timezone.now()
    log(run, Completed(party=[m.player_id for m in party], rescued=run.npc_kind if rescued else None))
