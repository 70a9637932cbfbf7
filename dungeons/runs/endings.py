"""How members leave a run and how a run ends: death through Charon, escape with losses, completion.

The rules are the run engine's (dungeons/runs/engine/endings.py); here they meet the rows. Each works on
the step (dungeons/runs/store.py: ``RunStep``): the member's and the run's new columns and the log
entries are recorded there and saved with the step; what the player carries and their money are the
players' rows, written through the run's store under the player's lock.
"""
from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from dungeons.kinds import run_kind_hooks
from dungeons.models import RunStatus
from dungeons.runs import store
from dungeons.runs.core import apply_rules, run_rules_get, run_stats_of
from dungeons.runs.engine import Place, endings
from dungeons.runs.store import MemberRow, RunStep
from npcs.services import npc_rescue
from players.services import player_lock


def die(step: RunStep, member: MemberRow) -> None:
    """Out of the run; Charon respawns the player for a tenth of their money and this run's items."""
    hooks = run_kind_hooks(step.run.kind)
    player = player_lock(member.player_id)
    hooks.member_leaving(step=step, member=member)  # e.g. the labyrinth takes its torch back
    rules = run_rules_get(step.run)
    lost = store.items_of_run_delete(player_id=player.pk, run_id=step.pk)
    gone = endings.death(player_id=member.player_id, money=player.money, items_of_run=lost, rules=rules)
    store.money_take(player_id=player.pk, coins=gone.fee)
    apply_rules(step, [gone.change], gone.entry)
    hooks.member_left(step=step)  # e.g. the torch passes on


def escape(step: RunStep, member: MemberRow, *, purpose: str) -> None:
    """Out of the run alive, losing the loss fraction of everything carried (seeded choice)."""
    run = step.run
    hooks = run_kind_hooks(run.kind)
    player = player_lock(member.player_id)
    hooks.member_leaving(step=step, member=member)
    rules = run_rules_get(step.run)
    stats = run_stats_of(member, player)  # stat potions drunk in the run count (luck, attentiveness)
    carried = store.carried_ids(player_id=player.pk)
    step.record("carried", player=player.pk, purpose=purpose, items=carried)  # what the losses are drawn from
    gone = endings.escape(player_id=player.pk, stats=stats, carried=carried,
                          place=Place(run.seed, run.floor or 0, run.room or 0), purpose=purpose, rules=rules)
    store.items_delete(gone.lost)
    apply_rules(step, [gone.change], gone.entry)
    hooks.member_left(step=step)


def end_if_party_gone(step: RunStep) -> None:
    """Nobody is left inside: the run failed, or ended by escape if someone got out alive."""
    if step.run.status != RunStatus.ACTIVE:
        return
    end = endings.party_gone([m.status for m in step.members()])
    if end is None:
        return
    run_kind_hooks(step.run.kind).run_ending(step=step)
    step.change(status=end.status, ended_at=timezone.now(), room_cleared=False)
    step.log(end.entry)


def complete(step: RunStep, party: Sequence[MemberRow]) -> None:
    """The last boss fell: the members inside keep everything, count a completed dungeon, and an NPC
    with the party is rescued for its guild."""
    run = step.run
    done = endings.completion(party=[m.player_id for m in party], npc_kind=run.npc_kind,
                              npc_alive=run.has_npc, one_guild=run.guild_id is not None)
    # The rescue writes the guild row before any player row is touched here, the guild services'
    # order (guild, then player), so a completion never deadlocks with a kick or a leave; the kind's
    # end comes after it, as it may give items back (darkness: the weapons set aside).
    if done.rescued:
        assert run.guild_id is not None
        npc_rescue(guild_id=run.guild_id, kind=done.rescued, run_id=run.id)
    run_kind_hooks(run.kind).run_ending(step=step)
    apply_rules(step, done.changes)
    store.completed_count_raise([m.player_id for m in party])
    step.change(status=done.end.status, ended_at=timezone.now())
    step.log(done.end.entry)
