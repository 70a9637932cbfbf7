"""Guilds and everything about belonging to one: memberships, applications, invitations,
disband votes, the person-run ledger behind activity, and the admin-editable guild rules."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from backend.models import SingletonSettings
from backend.names import name_key
from players.models import Player


class GuildRules(SingletonSettings):
    """Every guild limit of SPEC section 4, editable by designers in the admin."""

    min_members = models.PositiveSmallIntegerField(
        default=3, help_text="Below this size a guild is 'forming' (listed and working, flagged as forming)."
    )
    max_members = models.PositiveSmallIntegerField(
        default=10, help_text="No guild grows past this; a transfer needs the target below it."
    )
    transfer_cooldown_days = models.PositiveSmallIntegerField(
        default=7, help_text="A transfer needs more than this many days since the player's last transfer."
    )
    transfer_source_min_members = models.PositiveSmallIntegerField(
        default=3, help_text="A transfer needs the guild being left to have MORE than this many members."
    )
    leave_after_hours = models.PositiveSmallIntegerField(
        default=24, help_text="A member may leave only after being a member for more than this many hours."
    )
    leave_counts_as_transfer_days = models.PositiveSmallIntegerField(
        default=7,
        help_text="Joining a guild within this many days of leaving one counts as a transfer from the "
                  "guild left (cooldown and source size as of the moment of leaving); kicked and "
                  "disbanded are free.",
    )
    activity_window_days = models.PositiveSmallIntegerField(
        default=14,
        help_text="Activity averages person-runs over this many days (or the guild's age if younger)."
    )

    class Meta:
        verbose_name = "guild rules"
        verbose_name_plural = "guild rules"

    def __str__(self) -> str:
        return "Guild rules"


class Guild(models.Model):
    name = models.CharField(max_length=64)
    # backend.names.name_key(name), set on save: living guilds are unique on it (look-alike names collide).
    name_key = models.CharField(max_length=255, null=True, blank=True, editable=False)
    description = models.TextField(blank=True, default="", max_length=2000)
    leader = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="led_guilds")
    is_open = models.BooleanField(default=True)
    # Denormalised, maintained under the guild's row lock by the services; listing sorts on it.
    members_count = models.PositiveSmallIntegerField(default=0)
    # Activity lives in its own narrow table (GuildActivity, one row per guild, made with the guild):
    # the recompute rewrites it without touching this row and its indexes.
    rank = models.PositiveIntegerField(default=0, help_text="Sum of the rank points of the NPCs it rescued.")
    created_at = models.DateTimeField()
    disbanded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # Names are unique ignoring case among living guilds; a disbanded guild frees its name.
            models.UniqueConstraint(
                Lower("name"), condition=Q(disbanded_at__isnull=True), name="guild_name_ci_unique_alive"
            ),
            models.UniqueConstraint(fields=["name_key"], condition=Q(disbanded_at__isnull=True),
                                    name="guild_name_key_unique_alive"),
        ]
        indexes = [
            # Keyset pagination of the public list: one index per ordering, only listed guilds.
            models.Index(Lower("name"), "id", name="guild_list_name",
                         condition=Q(is_open=True, disbanded_at__isnull=True)),
            models.Index(fields=["members_count", "id"], name="guild_list_members",
                         condition=Q(is_open=True, disbanded_at__isnull=True)),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        # The admin's form cannot validate the key's constraint itself (the key is not a form field).
        taken = (Guild.objects.filter(name_key=name_key(self.name), disbanded_at__isnull=True)
                 .exclude(pk=self.pk))
        if self.disbanded_at is None and taken.exists():
            raise ValidationError({"name": "A living guild has this name or one that looks the same."})

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        adding = self._state.adding
        super().save(*args, **kwargs)
        if adding:  # every guild has its activity row from the start (0.0, never computed)
            GuildActivity.objects.bulk_create([GuildActivity(guild=self)], ignore_conflicts=True)

    def _activity_row(self) -> GuildActivity | None:
        try:
            return self.activity_row
        except GuildActivity.DoesNotExist:
            return None

    @property
    def activity(self) -> float:
        """Average person-runs per day as last computed: the current slot's ``GuildActivity`` value.

        The slot is read from an ``activity_slot`` annotation when the query made one
        (``guilds.selectors.guild_get``, the admin), else from ``ActivityFold`` (one query)."""
        row = self._activity_row()
        if row is None:
            return 0.0
        return row.activity(self.__dict__.get("activity_slot") or ActivityFold.current_slot())

    @property
    def activity_computed_at(self) -> datetime | None:
        row = self._activity_row()
        return row.computed_at if row is not None else None

    @property
    def is_disbanded(self) -> bool:
        return self.disbanded_at is not None


#: The two value slots of ``GuildActivity`` (``ActivityFold.slot`` says which one is current).
ACTIVITY_SLOTS = ("a", "b")


class GuildActivity(models.Model):
    """A guild's activity: average person-runs per day, recomputed by the beat tasks (see
    docs/guilds.md). A narrow table of its own: a recompute rewrites these small rows and their
    indexes instead of the wide guild row and its seven.

    Two value slots, ``a`` and ``b`` (``activity_*`` and its window sum ``runs_*``, each activity
    with its ``(activity, guild)`` index for the list's keyset ordering): ``ActivityFold.slot`` is
    the one read; the daily full recompute fills the other with the next UTC day's values, which
    the folds keep up to date, so the first fold of that day only switches slots."""

    guild = models.OneToOneField(Guild, on_delete=models.CASCADE, primary_key=True,
                                 related_name="activity_row")
    activity_a = models.FloatField(default=0.0)
    # Person-runs in the slot's activity window as of the last pass (activity = runs / divisor).
    runs_a = models.PositiveIntegerField(default=0, editable=False)
    activity_b = models.FloatField(default=0.0)
    runs_b = models.PositiveIntegerField(default=0, editable=False)
    # The time of the last pass that wrote this row (either slot); null: never computed.
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(activity_a__gte=0), name="guild_activity_a_not_negative"),
            models.CheckConstraint(condition=Q(activity_b__gte=0), name="guild_activity_b_not_negative"),
        ]
        # Keyset pagination of the list by the current slot's activity (ties on the guild id, both ways).
        indexes = [models.Index(fields=["activity_a", "guild"], name="guild_activity_list_a"),
                   models.Index(fields=["activity_b", "guild"], name="guild_activity_list_b")]
        verbose_name = "guild activity"
        verbose_name_plural = "guild activity"

    def __str__(self) -> str:
        return f"{self.guild_id}: {self.activity_a} / {self.activity_b}"

    def activity(self, slot: str) -> float:
        """The value of ``slot`` (``ActivityFold.slot`` names the current one)."""
        return self.activity_b if slot == "b" else self.activity_a


class Membership(models.Model):
    """A player's stay in a guild; ``left_at`` is null while it lasts. History is kept."""

    class LeftReason(models.TextChoices):
        LEFT = "left", "left"
        KICKED = "kicked", "kicked"
        TRANSFERRED = "transferred", "transferred"
        DISBANDED = "disbanded", "disbanded"

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField()
    left_at = models.DateTimeField(null=True, blank=True)
    left_reason = models.CharField(max_length=16, choices=LeftReason.choices, blank=True, default="")
    members_at_leave = models.PositiveSmallIntegerField(
        null=True, blank=True,
        help_text="Members the guild had just before this member left "
                  "(the source-size rule of a later join).",
    )

    class Meta:
        constraints = [
            # The database itself guarantees a player is in at most one guild at a time.
            models.UniqueConstraint(fields=["player"], condition=Q(left_at__isnull=True),
                                    name="membership_one_current_guild"),
        ]
        indexes = [models.Index(fields=["guild", "left_at"], name="membership_guild_current")]

    def __str__(self) -> str:
        return f"{self.player} in {self.guild}"


class RequestStatus(models.TextChoices):
    PENDING = "pending", "pending"
    APPROVED = "approved", "approved"
    ACCEPTED = "accepted", "accepted"
    REJECTED = "rejected", "rejected"
    DECLINED = "declined", "declined"
    WITHDRAWN = "withdrawn", "withdrawn"
    CANCELLED = "cancelled", "cancelled"


class JoinRequest(models.Model):
    """What applications and invitations share: a pending request about one player and one guild."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="%(class)ss")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="%(class)ss")
    status = models.CharField(max_length=16, choices=RequestStatus.choices, default=RequestStatus.PENDING)
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        constraints = [
            models.UniqueConstraint(fields=["guild", "player"], condition=Q(status="pending"),
                                    name="%(class)s_one_pending_per_guild"),
        ]
        indexes = [models.Index(fields=["player", "status"], name="%(class)s_player_status"),
                   models.Index(fields=["guild", "status"], name="%(class)s_guild_status")]


class Application(JoinRequest):
    """A player asks to join a guild; the leader approves or rejects (optionally with a reason)."""

    reject_reason = models.CharField(
        max_length=500, blank=True, default="",
        help_text="The leader's reason for a rejection, shown to the applicant.",
    )

    class Meta(JoinRequest.Meta):
        pass

    def __str__(self) -> str:
        return f"{self.player} -> {self.guild} ({self.status})"


class Invitation(JoinRequest):
    """The leader invites a player; the player accepts or declines."""

    invited_by = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta(JoinRequest.Meta):
        pass

    def __str__(self) -> str:
        return f"{self.guild} invites {self.player} ({self.status})"


class DisbandVote(models.Model):
    """A current member's vote to disband; it goes away when withdrawn or when they leave."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="disband_votes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="disband_votes")
    voted_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["guild", "player"], name="disband_vote_once")]

    def __str__(self) -> str:
        return f"{self.player} votes to disband {self.guild}"


class PersonRunDay(models.Model):
    """The activity ledger: person-runs started by a guild's members on one UTC day."""

    # No index of its own: the (guild, day) unique constraint's index leads with it (one index fewer
    # to maintain on every record).
    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="person_run_days", db_index=False)
    day = models.DateField()
    # Not indexed: a record's increment can be a HOT update.
    person_runs = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["guild", "day"], name="person_run_day_unique")]
        # The window's days (full recompute) are a range of days.
        indexes = [models.Index(fields=["day"], name="person_run_day_day")]
        verbose_name = "person-run day"

    def __str__(self) -> str:
        return f"{self.guild} {self.day}: {self.person_runs}"


class PersonRunPending(models.Model):
    """Person-runs recorded and not yet folded into activity: an append-only log that every record
    adds to (with its ledger increment, in one transaction) and every activity pass drains
    (``DELETE ... RETURNING``), so a fold reads the new person-runs without rewriting ledger rows."""

    guild = models.ForeignKey(Guild, on_delete=models.CASCADE, related_name="+", db_index=False)
    day = models.DateField()
    person_runs = models.PositiveIntegerField()

    class Meta:
        verbose_name = "person-runs not yet folded"
        verbose_name_plural = "person-runs not yet folded"

    def __str__(self) -> str:
        return f"{self.guild_id} {self.day}: +{self.person_runs}"


class ActivityFold(models.Model):
    """The one row saying which activity slot is current and up to when the slots were computed
    (see docs/guilds.md).

    ``day`` is the UTC day of the last pass, ``window_days`` the window it used, ``slot`` the
    ``GuildActivity`` slot readers use: every living guild's ``runs_<slot>`` equals its ledger's
    person-runs on the window ending at ``day`` less those still in ``PersonRunPending``.
    ``next_day`` (``day`` + 1, or null) says the other slot holds the same for the window ending
    the next day (prepared by the daily full recompute): the first fold of that day folds into it
    and makes it current.
    """

    day = models.DateField(null=True, blank=True)
    window_days = models.PositiveSmallIntegerField(null=True, blank=True)
    slot = models.CharField(max_length=1, default="a", choices=[(s, s) for s in ACTIVITY_SLOTS])
    next_day = models.DateField(null=True, blank=True,
                                help_text="The day the other slot was prepared for (null: not prepared).")
    computed_at = models.DateTimeField(null=True, blank=True)
    full_at = models.DateTimeField(null=True, blank=True, help_text="The last full recompute.")

    class Meta:
        verbose_name = "activity fold state"

    def __str__(self) -> str:
        return f"activity folded up to {self.day} (slot {self.slot})"

    @classmethod
    def current_slot(cls) -> str:
        """The ``GuildActivity`` slot readers use now (one query; ``a`` before any pass)."""
        return cls.objects.filter(pk=1).values_list("slot", flat=True).first() or "a"


class GuildListGeneration(models.Model):
    """One row whose ``value`` grows by one after every committed change of what the public guild
    list shows; cached list pages name the value they were rendered at (``guilds/listcache.py``)."""

    value = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = "guild list generation"

    def __str__(self) -> str:
        return f"guild list generation {self.value}"
