"""Writes about guilds: every membership rule of SPEC section 4, each in one transaction.

Locking discipline (keeps the rules true under concurrent requests on PostgreSQL and rules
out deadlocks between these services): lock the guild rows involved first, in ascending id
order, then the player row, then re-read whatever the rule is about (membership, application,
invitation) under those locks. A rule refusal raises before anything is written, or inside the
transaction, which rolls it back: a refusal changes nothing.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.backends.utils import CursorWrapper
from django.db.models import F
from django.utils import timezone

from backend.errors import NotAllowed, NotFound, RuleViolation
from backend.names import clean_name, name_key
from guilds.listcache import guild_list_changed
from guilds.models import (
    ActivityFold,
    Application,
    DisbandVote,
    Guild,
    GuildRules,
    Invitation,
    Membership,
    PersonRunDay,
    PersonRunPending,
    RequestStatus,
)
from guilds.signals import guild_created
from players.models import Player
from players.notices import NoticeKind, Told, notify
from players.services import player_lock

# --- locking and lookups --------------------------------------------------------------------

def _lock_guilds(*guild_ids: int) -> dict[int, Guild]:
    """Lock living guilds in ascending id order; a missing or disbanded one is a 404."""
    wanted = sorted(set(guild_ids))
    guilds = {
        g.pk: g
        for g in (Guild.objects.select_for_update().filter(pk__in=wanted, disbanded_at__isnull=True)
                  .order_by("pk"))
    }
    for guild_id in wanted:
        if guild_id not in guilds:
            raise NotFound("guild_not_found", "No such guild.", {"guild": guild_id})
    return guilds


def _current_membership(player_id: int) -> Membership | None:
    return Membership.objects.filter(player_id=player_id, left_at__isnull=True).first()


def _require_leader(guild: Guild, actor: Player) -> None:
    if guild.leader_id != actor.pk:
        raise NotAllowed("not_leader", "Only the guild leader may do this.", {"guild": guild.pk})


def _require_member(guild: Guild, player_id: int) -> Membership:
    membership = Membership.objects.filter(guild=guild, player_id=player_id, left_at__isnull=True).first()
    if membership is None:
        raise NotAllowed("not_member", "Only members of this guild may do this.", {"guild": guild.pk})
    return membership


def _retry_details(when: datetime, now: datetime) -> dict[str, object]:
    return {"retry_after": when.isoformat(),
            "retry_after_seconds": max(1, math.ceil((when - now).total_seconds()))}


# --- rules shared by joining paths ------------------------------------------------------------

def _check_can_join(*, rules: GuildRules, target: Guild, player: Player, source: Membership | None,
                    source_guild: Guild | None, now: datetime) -> None:
    """Every rule a join must satisfy; checked on applying/inviting and again on approval/acceptance."""
    if source is not None and source.guild_id == target.pk:
        raise RuleViolation("already_member", "The player is already a member of this guild.",
                            {"guild": target.pk, "player": player.pk})
    if target.members_count >= rules.max_members:
        raise RuleViolation("guild_full", "The guild is full.",
                            {"guild": target.pk, "max_members": rules.max_members})
    if source is None or source_guild is None:
        left = _recent_leave(rules=rules, player=player, target=target, now=now)
        if left is not None:
            _check_hop(rules=rules, player=player, left=left, now=now)
        return
    # A transfer: the player moves from the guild they are in to this one.
    if source_guild.leader_id == player.pk:
        raise RuleViolation("leader_must_hand_over", "A leader must hand over leadership before leaving.",
                            {"guild": source_guild.pk})
    if player.last_transfer_at is not None:
        allowed_from = player.last_transfer_at + timedelta(days=rules.transfer_cooldown_days)
        if now <= allowed_from:
            raise RuleViolation("transfer_cooldown", "Too soon after the player's last transfer.",
                                _retry_details(allowed_from, now))
    if source_guild.members_count <= rules.transfer_source_min_members:
        raise RuleViolation("source_guild_too_small",
                            "The guild being left must keep more members to allow a transfer.",
                            {"guild": source_guild.pk, "min_members": rules.transfer_source_min_members + 1})


def _recent_leave(*, rules: GuildRules, player: Player, target: Guild, now: datetime) -> Membership | None:
    """The membership a guildless player left of their own will within the hop window, if any.

    Joining then counts as a transfer from that guild (SPEC section 4). Only the latest stay
    counts: a kick or a disbanding after it frees the player. Rejoining the guild left is no
    transfer (no rule is dodged by coming back).
    """
    last = (Membership.objects.filter(player_id=player.pk, left_at__isnull=False)
            .order_by("-left_at", "-pk").first())
    if last is None or last.left_reason != Membership.LeftReason.LEFT or last.guild_id == target.pk:
        return None
    assert last.left_at is not None
    if now > last.left_at + timedelta(days=rules.leave_counts_as_transfer_days):
        return None
    return last


def _check_hop(*, rules: GuildRules, player: Player, left: Membership, now: datetime) -> None:
    """The transfer rules for a join soon after leaving, as they stood at the moment of leaving.

    Refused until the hop window has passed since leaving (then the join is no transfer), which
    is the ``retry_after`` of both refusals.
    """
    assert left.left_at is not None
    free_from = left.left_at + timedelta(days=rules.leave_counts_as_transfer_days)
    details = {"left_guild": left.guild_id, "left_at": left.left_at.isoformat(),
               **_retry_details(free_from, now)}
    if (player.last_transfer_at is not None
            and left.left_at <= player.last_transfer_at + timedelta(days=rules.transfer_cooldown_days)):
        raise RuleViolation("transfer_cooldown",
                            "You left your guild too soon after your last transfer; joining another now "
                            "counts as a transfer.", details)
    if left.members_at_leave is not None and left.members_at_leave <= rules.transfer_source_min_members:
        raise RuleViolation("source_guild_too_small",
                            "The guild you left was too small to allow a transfer; joining another now "
                            "counts as a transfer.",
                            {**details, "min_members": rules.transfer_source_min_members + 1})


def _remove_member(*, guild: Guild, membership: Membership, reason: str, now: datetime) -> None:
    """Close a membership, drop the member's disband vote, and disband if the rest all voted."""
    membership.left_at = now
    membership.left_reason = reason
    membership.members_at_leave = guild.members_count
    membership.save(update_fields=["left_at", "left_reason", "members_at_leave"])
    guild.members_count -= 1
    guild.save(update_fields=["members_count"])
    DisbandVote.objects.filter(guild=guild, player_id=membership.player_id).delete()
    if guild.members_count > 0:
        _disband_if_unanimous(guild, now)


def _withdraw_other_requests(*, player_id: int, joined: Guild, now: datetime) -> None:
    (Application.objects.filter(player_id=player_id, status=RequestStatus.PENDING).exclude(guild=joined)
     .update(status=RequestStatus.WITHDRAWN, decided_at=now))
    Invitation.objects.filter(player_id=player_id, status=RequestStatus.PENDING).exclude(guild=joined).update(
        status=RequestStatus.DECLINED, decided_at=now)


@dataclass(frozen=True)
class _JoinContext:
    rules: GuildRules
    target: Guild
    player: Player
    source: Membership | None
    source_guild: Guild | None


def _lock_for_join(*, guild_id: int, player_id: int) -> _JoinContext:
    """Lock the target guild, the player's current guild (if any) and the player, in order."""
    seen = _current_membership(player_id)
    guild_ids = [guild_id] + ([seen.guild_id] if seen is not None else [])
    guilds = _lock_guilds(*guild_ids)
    player = player_lock(player_id)
    source = _current_membership(player_id)
    if (source.guild_id if source else None) != (seen.guild_id if seen else None):
        raise RuleViolation("concurrent_change", "The player's guild changed meanwhile; try again.")
    return _JoinContext(
        rules=GuildRules.load(), target=guilds[guild_id], player=player, source=source,
        source_guild=guilds.get(source.guild_id) if source else None,
    )


def _join(ctx: _JoinContext, now: datetime) -> Membership:
    _check_can_join(rules=ctx.rules, target=ctx.target, player=ctx.player, source=ctx.source,
                    source_guild=ctx.source_guild, now=now)
    if ctx.source is not None and ctx.source_guild is not None:
        _remove_member(guild=ctx.source_guild, membership=ctx.source,
                       reason=Membership.LeftReason.TRANSFERRED, now=now)
        ctx.player.last_transfer_at = now
        ctx.player.save(update_fields=["last_transfer_at"])
    elif _recent_leave(rules=ctx.rules, player=ctx.player, target=ctx.target, now=now) is not None:
        ctx.player.last_transfer_at = now  # a join soon after leaving is a transfer: its cooldown starts
        ctx.player.save(update_fields=["last_transfer_at"])
    membership = Membership.objects.create(guild=ctx.target, player=ctx.player, joined_at=now)
    ctx.target.members_count += 1
    ctx.target.save(update_fields=["members_count"])
    _withdraw_other_requests(player_id=ctx.player.pk, joined=ctx.target, now=now)
    return membership


# --- create and edit ----------------------------------------------------------------------------

@transaction.atomic
def guild_create(*, player: Player, name: str, description: str = "") -> Guild:
    """A guildless player founds a guild and becomes its leader and first member."""
    now = timezone.now()
    player = player_lock(player.pk)
    current = _current_membership(player.pk)
    if current is not None:
        raise RuleViolation("already_in_guild", "Leave your guild before founding one.",
                            {"guild": current.guild_id})
    name = clean_name(name, min_length=3, max_length=64)
    if Guild.objects.filter(name_key=name_key(name), disbanded_at__isnull=True).exists():
        raise RuleViolation("name_taken", "A guild with that name exists.", {"name": name})
    try:
        with transaction.atomic():
            guild = Guild.objects.create(name=name, description=description, leader=player,
                                         members_count=1, created_at=now)
    except IntegrityError as exc:  # a concurrent create took the name first
        raise RuleViolation("name_taken", "A guild with that name exists.", {"name": name}) from exc
    Membership.objects.create(guild=guild, player=player, joined_at=now)
    _withdraw_other_requests(player_id=player.pk, joined=guild, now=now)
    guild_created.send(sender=Guild, guild=guild)  # in this transaction (e.g. the guild's own maze)
    return guild


@transaction.atomic
def guild_update(*, actor: Player, guild_id: int, description: str | None = None,
                 is_open: bool | None = None) -> Guild:
    """The leader edits the description or opens/closes the guild; closing rejects pending applications."""
    now = timezone.now()
    guild = _lock_guilds(guild_id)[guild_id]
    _require_leader(guild, actor)
    fields = []
    if description is not None:
        guild.description = description
        fields.append("description")
    if is_open is not None and is_open != guild.is_open:
        guild.is_open = is_open
        fields.append("is_open")
        if not is_open:
            guild.applications.filter(status=RequestStatus.PENDING).update(
                status=RequestStatus.REJECTED, decided_at=now)
    if fields:
        guild.save(update_fields=fields)
    return guild


# --- applications ----------------------------------------------------------------------------

@transaction.atomic
def guild_application_create(*, player: Player, guild_id: int) -> Application:
    now = timezone.now()
    ctx = _lock_for_join(guild_id=guild_id, player_id=player.pk)
    if not ctx.target.is_open:
        raise RuleViolation("guild_closed", "The guild is closed to applications.", {"guild": guild_id})
    _check_can_join(rules=ctx.rules, target=ctx.target, player=ctx.player, source=ctx.source,
                    source_guild=ctx.source_guild, now=now)
    pending = Application.objects.filter(guild_id=guild_id, player=ctx.player, status=RequestStatus.PENDING)
    if pending.exists():
        raise RuleViolation("application_pending", "You already applied to this guild.", {"guild": guild_id})
    return Application.objects.create(guild=ctx.target, player=ctx.player, created_at=now)


def _application_for_leader(*, actor: Player, guild_id: int, application_id: int) -> Application:
    """Lock the application of a guild that the actor leads (404 when it is not of that guild)."""
    guild = Guild.objects.filter(pk=guild_id, disbanded_at__isnull=True).first()
    if guild is None:
        raise NotFound("guild_not_found", "No such guild.", {"guild": guild_id})
    _require_leader(guild, actor)
    application = Application.objects.filter(pk=application_id, guild_id=guild_id).first()
    if application is None:
        raise NotFound("application_not_found", "No such application.", {"application": application_id})
    return application


def _require_pending(obj: Application | Invitation, kind: str) -> None:
    if obj.status != RequestStatus.PENDING:
        raise RuleViolation(f"{kind}_not_pending", f"This {kind} is already {obj.status}.",
                            {kind: obj.pk, "status": obj.status})


def _decide(request: Application | Invitation, status: str, now: datetime) -> None:
    request.status = status
    request.decided_at = now
    request.save(update_fields=["status", "decided_at"])


def _tell_decided(application: Application, guild: Guild) -> None:
    """``application_decided`` to the applicant: approved, or rejected with the leader's reason."""
    notify([Told(application.player_id, NoticeKind.APPLICATION_DECIDED,
                 {"guild": guild.pk, "name": guild.name, "application": application.pk,
                  "status": application.status, "reason": application.reject_reason})])


@transaction.atomic
def guild_application_approve(*, actor: Player, guild_id: int, application_id: int) -> Application:
    """Approve and join, re-checking every rule under the locks at this moment."""
    now = timezone.now()
    application = _application_for_leader(actor=actor, guild_id=guild_id, application_id=application_id)
    ctx = _lock_for_join(guild_id=guild_id, player_id=application.player_id)
    _require_leader(ctx.target, actor)  # leadership may have moved before we got the lock
    application = Application.objects.select_for_update().get(pk=application_id)
    _require_pending(application, "application")
    _join(ctx, now)
    _decide(application, RequestStatus.APPROVED, now)
    _tell_decided(application, ctx.target)
    return application


@transaction.atomic
def guild_application_reject(*, actor: Player, guild_id: int, application_id: int,
                             reason: str = "") -> Application:
    """Reject a pending application, optionally with a reason the applicant sees."""
    now = timezone.now()
    _application_for_leader(actor=actor, guild_id=guild_id, application_id=application_id)
    guild = _lock_guilds(guild_id)[guild_id]
    _require_leader(guild, actor)
    application = Application.objects.select_for_update().get(pk=application_id)
    _require_pending(application, "application")
    application.reject_reason = reason.strip()
    application.save(update_fields=["reject_reason"])
    _decide(application, RequestStatus.REJECTED, now)
    _tell_decided(application, guild)
    return application


@transaction.atomic
def guild_application_withdraw(*, player: Player, guild_id: int, application_id: int) -> Application:
    application = (Application.objects.select_for_update()
                   .filter(pk=application_id, guild_id=guild_id, player=player).first())
    if application is None:
        raise NotFound("application_not_found", "No such application.", {"application": application_id})
    _require_pending(application, "application")
    _decide(application, RequestStatus.WITHDRAWN, timezone.now())
    return application


# --- invitations -----------------------------------------------------------------------------

@transaction.atomic
def guild_invitation_create(*, actor: Player, guild_id: int, player_id: int) -> Invitation:
    """The leader invites a player; closed guilds may still invite."""
    now = timezone.now()
    ctx = _lock_for_join(guild_id=guild_id, player_id=player_id)
    _require_leader(ctx.target, actor)
    _check_can_join(rules=ctx.rules, target=ctx.target, player=ctx.player, source=ctx.source,
                    source_guild=ctx.source_guild, now=now)
    pending = Invitation.objects.filter(guild_id=guild_id, player_id=player_id, status=RequestStatus.PENDING)
    if pending.exists():
        raise RuleViolation("invitation_pending", "This player already has a pending invitation.",
                            {"guild": guild_id, "player": player_id})
    invitation = Invitation.objects.create(guild=ctx.target, player=ctx.player, invited_by=actor,
                                           created_at=now)
    notify([Told(ctx.player.pk, NoticeKind.INVITATION,
                 {"guild": ctx.target.pk, "name": ctx.target.name, "invitation": invitation.pk})])
    return invitation


def _own_invitation(*, player: Player, invitation_id: int) -> Invitation:
    """Only the invitee sees an invitation: anyone else gets the same 404 as for a missing one."""
    invitation = Invitation.objects.filter(pk=invitation_id, player=player).first()
    if invitation is None:
        raise NotFound("invitation_not_found", "No such invitation.", {"invitation": invitation_id})
    return invitation


@transaction.atomic
def guild_invitation_accept(*, player: Player, invitation_id: int) -> Invitation:
    now = timezone.now()
    invitation = _own_invitation(player=player, invitation_id=invitation_id)
    _require_pending(invitation, "invitation")
    ctx = _lock_for_join(guild_id=invitation.guild_id, player_id=player.pk)
    invitation = Invitation.objects.select_for_update().get(pk=invitation_id)
    _require_pending(invitation, "invitation")
    _join(ctx, now)
    _decide(invitation, RequestStatus.ACCEPTED, now)
    return invitation


@transaction.atomic
def guild_invitation_decline(*, player: Player, invitation_id: int) -> Invitation:
    _own_invitation(player=player, invitation_id=invitation_id)
    invitation = Invitation.objects.select_for_update().get(pk=invitation_id)
    _require_pending(invitation, "invitation")
    _decide(invitation, RequestStatus.DECLINED, timezone.now())
    return invitation


# --- leadership, kick, leave -------------------------------------------------------------------

@transaction.atomic
def guild_leader_hand_over(*, actor: Player, guild_id: int, player_id: int) -> Guild:
    guild = _lock_guilds(guild_id)[guild_id]
    _require_leader(guild, actor)
    if player_id == actor.pk:
        raise RuleViolation("already_leader", "You already lead this guild.")
    if not Membership.objects.filter(guild=guild, player_id=player_id, left_at__isnull=True).exists():
        raise RuleViolation("not_member", "The new leader must be a member of the guild.",
                            {"player": player_id})
    guild.leader_id = player_id
    guild.save(update_fields=["leader"])
    return guild


@transaction.atomic
def guild_member_kick(*, actor: Player, guild_id: int, player_id: int) -> Guild:
    now = timezone.now()
    guild = _lock_guilds(guild_id)[guild_id]
    _require_leader(guild, actor)
    if player_id == actor.pk:
        raise RuleViolation("cannot_kick_self",
                            "A leader cannot kick themselves; leave or hand over instead.")
    membership = Membership.objects.filter(guild=guild, player_id=player_id, left_at__isnull=True).first()
    if membership is None:
        raise RuleViolation("not_member", "That player is not a member of the guild.", {"player": player_id})
    _remove_member(guild=guild, membership=membership, reason=Membership.LeftReason.KICKED, now=now)
    return guild


@transaction.atomic
def guild_leave(*, player: Player, guild_id: int) -> Guild:
    """Leave after the minimum stay; a leader hands over first, unless they are the last member."""
    now = timezone.now()
    guild = _lock_guilds(guild_id)[guild_id]
    membership = _require_member(guild, player.pk)
    rules = GuildRules.load()
    allowed_from = membership.joined_at + timedelta(hours=rules.leave_after_hours)
    if now <= allowed_from:
        raise RuleViolation("leave_too_soon", "You joined too recently to leave.",
                            _retry_details(allowed_from, now))
    if guild.leader_id == player.pk:
        if guild.members_count > 1:
            raise RuleViolation("leader_must_hand_over", "Hand leadership to another member before leaving.",
                                {"guild": guild.pk})
        _disband(guild, now)
        return guild
    _remove_member(guild=guild, membership=membership, reason=Membership.LeftReason.LEFT, now=now)
    return guild


# --- disbanding ------------------------------------------------------------------------------

@dataclass(frozen=True)
class DisbandState:
    guild_id: int
    votes: int
    members: int
    disbanded: bool


def _disband(guild: Guild, now: datetime) -> None:
    """Disband at once: members become guildless, applications rejected, invitations cancelled."""
    guild.memberships.filter(left_at__isnull=True).update(left_at=now,
                                                           left_reason=Membership.LeftReason.DISBANDED)
    pending = RequestStatus.PENDING
    guild.applications.filter(status=pending).update(status=RequestStatus.REJECTED, decided_at=now)
    guild.invitations.filter(status=pending).update(status=RequestStatus.CANCELLED, decided_at=now)
    guild.disband_votes.all().delete()
    guild.members_count = 0
    guild.disbanded_at = now
    guild.save(update_fields=["members_count", "disbanded_at"])


def _disband_if_unanimous(guild: Guild, now: datetime) -> bool:
    votes = guild.disband_votes.count()
    if votes > 0 and votes >= guild.members_count:
        _disband(guild, now)
        return True
    return False


@transaction.atomic
def guild_disband_vote(*, player: Player, guild_id: int) -> DisbandState:
    now = timezone.now()
    guild = _lock_guilds(guild_id)[guild_id]
    _require_member(guild, player.pk)
    if guild.disband_votes.filter(player=player).exists():
        raise RuleViolation("already_voted", "You already voted to disband this guild.")
    DisbandVote.objects.create(guild=guild, player=player, voted_at=now)
    votes, members = guild.disband_votes.count(), guild.members_count
    disbanded = _disband_if_unanimous(guild, now)
    return DisbandState(guild_id=guild.pk, votes=votes, members=members, disbanded=disbanded)


@transaction.atomic
def guild_disband_vote_withdraw(*, player: Player, guild_id: int) -> DisbandState:
    guild = _lock_guilds(guild_id)[guild_id]
    _require_member(guild, player.pk)
    deleted, _ = guild.disband_votes.filter(player=player).delete()
    if not deleted:
        raise RuleViolation("not_voted", "You have no disband vote to withdraw.")
    return DisbandState(guild_id=guild.pk, votes=guild.disband_votes.count(), members=guild.members_count,
                        disbanded=False)


# --- activity and rank -------------------------------------------------------------------------

def guild_person_runs_record(*, guild_id: int, at: datetime, count: int = 1) -> None:
    """Add person-runs started at ``at`` by members of the guild to its ledger (one row per UTC day).

    The dungeon runs call this once per started run with the number of party members who
    belonged to this guild at that moment. No savepoint, and one statement on PostgreSQL (two on SQLite;
    a run start pays them): the pending log row the next activity pass folds, and one upsert of the
    day's ledger row, safe under concurrency by the (guild, day) unique constraint (PostgreSQL and
    SQLite both speak ``ON CONFLICT ... DO UPDATE``). Inside the caller's transaction, or one of its own.
    """
    if count <= 0:
        return
    day = timezone.localdate(at, UTC) if timezone.is_aware(at) else at.date()
    table, pending = PersonRunDay._meta.db_table, PersonRunPending._meta.db_table
    with transaction.atomic(savepoint=False):
        connection = transaction.get_connection()
        params = [guild_id, connection.ops.adapt_datefield_value(day), count]
        log = f"INSERT INTO {pending} (guild_id, day, person_runs) VALUES (%s, %s, %s)"
        upsert = (f"INSERT INTO {table} (guild_id, day, person_runs) VALUES (%s, %s, %s) "
                  f"ON CONFLICT (guild_id, day) DO UPDATE SET person_runs = {table}.person_runs "
                  "+ excluded.person_runs")
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":  # both in one statement (a data-modifying WITH)
                cursor.execute(f"WITH logged AS ({log}) {upsert}", params + params)
            else:
                cursor.execute(log, params)
                cursor.execute(upsert, params)


def activity_divisor(*, created_at: datetime, today: date, window_days: int) -> int:
    """Days the activity average spans: the window, or the guild's age in UTC days if younger (>= 1)."""
    created_day = timezone.localdate(created_at, UTC)
    return max(1, min(window_days, (today - created_day).days + 1))


def _divisor_sql(*, today: date, window: int) -> tuple[str, list[datetime]]:
    """``CASE`` giving a guild's divisor (as a float) from ``guilds_guild.created_at`` on ``today``.

    Creation-time thresholds instead of date arithmetic: the same SQL on SQLite and PostgreSQL,
    and an IEEE division by a float8, as in Python.
    """
    midnight = datetime.combine(today, datetime.min.time(), tzinfo=UTC)
    # A guild created on day (today - k) has age k + 1 days; older than the window -> window.
    whens = " ".join(f"WHEN guilds_guild.created_at >= %s THEN {float(k + 1)!r}" for k in range(window - 1))
    sql = f"(CASE {whens} ELSE {float(window)!r} END)" if whens else f"({float(window)!r})"
    return sql, [midnight - timedelta(days=k) for k in range(window - 1)]


def _drained(cursor: CursorWrapper, today: date) -> tuple[str, list[Any], str, list[Any]]:
    """(WITH prefix, its params, source, its params): ``source`` names the pending person-runs of
    days up to ``today`` (``guild_id, day, person_runs``), which the pass using them also deletes.

    On PostgreSQL the deletion is a data-modifying CTE of the pass's one statement: the log rows it
    drains and the ledger it reads are of the same snapshot, so a run recorded meanwhile (its
    ledger increment and its log row commit together) is either in this pass or left for the next,
    never lost or counted twice. SQLite (one writer at a time) deletes in ``_drain_after``.
    """
    day = cursor.db.ops.adapt_datefield_value(today)
    if cursor.db.vendor == "postgresql":
        return (("WITH drained AS (DELETE FROM guilds_personrunpending WHERE day <= %s "
                 "RETURNING guild_id, day, person_runs) "), [day], "drained", [])
    return "", [], "(SELECT guild_id, day, person_runs FROM guilds_personrunpending WHERE day <= %s)", [day]


def _drain_after(cursor: CursorWrapper, today: date) -> None:
    if cursor.db.vendor != "postgresql":
        cursor.execute("DELETE FROM guilds_personrunpending WHERE day <= %s",
                       [cursor.db.ops.adapt_datefield_value(today)])


def _load_fold_state() -> ActivityFold:
    state, _ = ActivityFold.objects.select_for_update().get_or_create(pk=1)
    return state


def guild_activity_recompute_all(*, now: datetime | None = None) -> int:
    """Recompute every living guild's activity from its whole window and prepare the next UTC day's
    values; returns the guild rows written.

    activity = person-runs on the last ``window`` UTC days (today included) / divisor, where the
    divisor is the window or the guild's age in days if younger. Set-based: one aggregate over the
    window's ledger rows (and tomorrow's) grouped by guild, joined to the living guilds, writes the
    current slot's values and, into the other slot, those of tomorrow's window as far as recorded
    (only the rows where either changed or that were never computed), and drains the pending log.
    The daily run (23:40 UTC) corrects any drift of the folds and lets the first fold of the next
    day switch slots instead of rewriting most rows.
    """
    return _activity_pass(now=now or timezone.now(), full=True)


def guild_activity_fold(*, now: datetime | None = None) -> int:
    """The incremental recompute (every 10 minutes); returns the guild rows written.

    Drains the pending log and adds each guild's new person-runs (days in the window) to its
    window sums: one statement, writing only the guilds that got person-runs, into the current slot
    and, once the next day's slot was prepared, into that one too. The first fold of a new UTC day
    folds into the prepared slot and makes it current. Without one (no full recompute late the day
    before, a changed window setting, a gap of days, a clock that went back) it is the full
    recompute of the current slot.
    """
    return _activity_pass(now=now or timezone.now(), full=False)


def _other_slot(slot: str) -> str:
    return "b" if slot == "a" else "a"


@transaction.atomic
def _activity_pass(*, now: datetime, full: bool) -> int:
    window = GuildRules.load().activity_window_days
    today = timezone.localdate(now, UTC)
    tomorrow = today + timedelta(days=1)
    _serialize_recomputes()
    state = _load_fold_state()
    current, other = state.slot, _other_slot(state.slot)
    same_window = state.window_days == window
    with transaction.get_connection().cursor() as cursor:
        if cursor.db.vendor == "postgresql":
            # No JIT for these short statements (its compile time dominated), room to hash 100k groups.
            cursor.execute("SET LOCAL jit = off; SET LOCAL work_mem = '64MB'")
        if not full and same_window and state.day == today:
            # The same day: fold into the current slot, and into the next day's once prepared.
            prepared = state.next_day == tomorrow
            written = _fold(cursor, now=now, window=window, today=today,
                            slots={current: today, **({other: tomorrow} if prepared else {})})
        elif not full and same_window and state.next_day == today:
            # The day's first pass, prepared the day before: fold into that slot and switch to it.
            written = _fold(cursor, now=now, window=window, today=today, slots={other: today})
            state.slot, state.next_day = other, None
        else:
            prepare = other if full else None  # a fallback pass only makes today's values
            written = _recompute_all(cursor, now=now, today=today, window=window, slot=current,
                                     prepare=prepare)
            state.full_at, state.next_day = now, tomorrow if prepare else None
    state.day, state.window_days, state.computed_at = today, window, now
    state.save()
    guild_list_changed()  # activity is listed, and written in SQL (no model signal)
    return written


def _recompute_all(cursor: CursorWrapper, *, now: datetime, today: date, window: int, slot: str,
                   prepare: str | None) -> int:
    """Today's values into ``slot``; with ``prepare``, tomorrow's window as recorded so far into that
    slot: the ledger's person-runs of tomorrow's window less those still pending (tomorrow's, which
    this pass does not drain), so the folds until tomorrow and its first fold complete it."""
    ops = cursor.db.ops
    day = ops.adapt_datefield_value
    first_day = today - timedelta(days=window - 1)
    tomorrow = today + timedelta(days=1)
    # A living guild without its activity row (one inserted by raw SQL, not Guild.save) gets one.
    cursor.execute("""
        INSERT INTO guilds_guildactivity (guild_id, activity_a, runs_a, activity_b, runs_b, computed_at)
        SELECT guilds_guild.id, 0.0, 0, 0.0, 0, NULL FROM guilds_guild
        WHERE guilds_guild.disbanded_at IS NULL AND NOT EXISTS (
            SELECT 1 FROM guilds_guildactivity a WHERE a.guild_id = guilds_guild.id)""")
    with_drained, with_params, _, _ = _drained(cursor, today)
    divisor, divisor_params = _divisor_sql(today=today, window=window)
    divisor_params = [ops.adapt_datetimefield_value(t) for t in divisor_params]
    sets = [f"activity_{slot} = v.activity, runs_{slot} = v.runs"]
    changed = [f"guilds_guildactivity.activity_{slot} <> v.activity",
               f"guilds_guildactivity.runs_{slot} <> v.runs"]
    columns = [("COALESCE(s.runs, 0) AS runs, "
                f"CAST(COALESCE(s.runs, 0) AS DOUBLE PRECISION) / {divisor} AS activity")]
    params: list[Any] = list(divisor_params)
    if prepare is None:
        sums, sum_params, last_day, pending, pending_params = "SUM(person_runs) AS runs", [], today, "", []
    else:
        sums = ("SUM(CASE WHEN day <= %s THEN person_runs ELSE 0 END) AS runs, "
                "SUM(CASE WHEN day >= %s THEN person_runs ELSE 0 END) AS runs_next")
        sum_params, last_day = [day(today), day(first_day + timedelta(days=1))], tomorrow
        # Tomorrow's person-runs still pending (the next passes fold them in); on PostgreSQL the
        # drained CTE takes days up to today only, and both read the statement's one snapshot.
        pending = ("LEFT JOIN (SELECT guild_id, SUM(person_runs) AS runs FROM guilds_personrunpending "
                   "WHERE day = %s GROUP BY guild_id) AS p ON p.guild_id = guilds_guild.id")
        pending_params = [day(tomorrow)]
        next_divisor, next_params = _divisor_sql(today=tomorrow, window=window)
        runs_next = "COALESCE(s.runs_next, 0) - COALESCE(p.runs, 0)"
        columns.append(f"{runs_next} AS runs_next, CAST({runs_next} AS DOUBLE PRECISION) / {next_divisor} "
                       "AS activity_next")
        params += [ops.adapt_datetimefield_value(t) for t in next_params]
        sets.append(f"activity_{prepare} = v.activity_next, runs_{prepare} = v.runs_next")
        changed += [f"guilds_guildactivity.activity_{prepare} <> v.activity_next",
                    f"guilds_guildactivity.runs_{prepare} <> v.runs_next"]
    cursor.execute(with_drained + f"""
        UPDATE guilds_guildactivity SET {", ".join(sets)}, computed_at = %s
        FROM (SELECT guilds_guild.id AS id, {", ".join(columns)}
              FROM guilds_guild LEFT JOIN (SELECT guild_id, {sums} FROM guilds_personrunday
                                           WHERE day >= %s AND day <= %s GROUP BY guild_id) AS s
                   ON s.guild_id = guilds_guild.id {pending}
              WHERE guilds_guild.disbanded_at IS NULL) AS v
        WHERE guilds_guildactivity.guild_id = v.id AND ({" OR ".join(changed)}
            OR guilds_guildactivity.computed_at IS NULL)""",
                   [*with_params, ops.adapt_datetimefield_value(now), *params, *sum_params,
                    day(first_day), day(last_day), *pending_params])
    written: int = cursor.rowcount
    _drain_after(cursor, today)
    return written


def _fold(cursor: CursorWrapper, *, now: datetime, window: int, today: date, slots: dict[str, date]) -> int:
    """Drain the pending person-runs of days up to ``today`` and add them to the window sums of
    ``slots`` (slot -> the day whose window it holds): each slot counts those of its window's days
    (late ones of days that left it, drained too, never count; future-dated ones wait in the log
    for their day) and re-divides by the guild's divisor on its day, from the guild's creation time
    (a guild created since the last full pass has none stored). Only the guilds that got
    person-runs are read and written. A guild disbanded since then gets none (it has no members)."""
    ops = cursor.db.ops
    if cursor.db.vendor == "postgresql":
        # A few thousand guilds of 100,000: probe both tables' primary keys. The planner, misled by
        # the log's statistics (of whatever it held when last analysed), would hash every row of
        # both (measured: ~50 ms instead of ~105 ms for 2,800 guilds).
        cursor.execute("SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off")
    with_drained, with_params, drained, drained_params = _drained(cursor, today)
    sets: list[str] = []
    columns: list[str] = []
    params: list[Any] = []
    for slot, day in slots.items():
        divisor, divisor_params = _divisor_sql(today=day, window=window)
        # In SET, guilds_guildactivity's columns are the row's values before this update.
        runs = f"guilds_guildactivity.runs_{slot} + v.delta_{slot}"
        sets.append(f"runs_{slot} = {runs}, "
                    f"activity_{slot} = CAST({runs} AS DOUBLE PRECISION) / v.divisor_{slot}")
        columns.append(f"SUM(CASE WHEN d.day >= %s THEN d.person_runs ELSE 0 END) AS delta_{slot}, "
                       f"{divisor} AS divisor_{slot}")
        params += [ops.adapt_datefield_value(day - timedelta(days=window - 1)),
                   *[ops.adapt_datetimefield_value(t) for t in divisor_params]]
    first_day = min(slots.values()) - timedelta(days=window - 1)
    cursor.execute(with_drained + f"""
        UPDATE guilds_guildactivity SET {", ".join(sets)}, computed_at = %s
        FROM (SELECT d.guild_id AS id, {", ".join(columns)}
              FROM {drained} AS d JOIN guilds_guild ON guilds_guild.id = d.guild_id
              WHERE d.day >= %s GROUP BY d.guild_id, guilds_guild.created_at) AS v
        WHERE guilds_guildactivity.guild_id = v.id""",
                   [*with_params, ops.adapt_datetimefield_value(now), *params, *drained_params,
                    ops.adapt_datefield_value(first_day)])
    written: int = cursor.rowcount
    _drain_after(cursor, today)
    return written


# Any fixed 64-bit number naming "the activity recompute" among PostgreSQL advisory locks.
ACTIVITY_RECOMPUTE_LOCK = 0x6465_6570_6163_7431


def _serialize_recomputes() -> None:
    """Two recomputes at once (two beats, a manual run) queue up instead of fighting over rows.

    A transaction-scoped advisory lock on PostgreSQL; the second run waits and then writes the
    same values. SQLite serialises writers by itself.
    """
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ACTIVITY_RECOMPUTE_LOCK])


@transaction.atomic
def guild_rank_add(*, guild_id: int, points: int) -> Guild:
    """Raise a guild's rank (an NPC rescue adds its rank points)."""
    updated = Guild.objects.filter(pk=guild_id).update(rank=F("rank") + points)
    if not updated:
        raise NotFound("guild_not_found", "No such guild.", {"guild": guild_id})
    guild_list_changed()  # an UPDATE, not a save: no model signal
    return Guild.objects.get(pk=guild_id)
