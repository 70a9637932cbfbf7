"""Hosted matches: per-mode settings, the match row (lobby to end), its seats, its action and event log."""

from __future__ import annotations

from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from players.models import Player

#: The most matches of one mode a player may ever sit in at once (the admin's limit is at most this).
MAX_ACTIVE_LIMIT = 20


class MatchModeSettings(models.Model):
    """A mode's admin data: default settings of new lobbies (the mode validates them), turn deadline."""

    mode = models.CharField(max_length=40, unique=True, help_text="The registered mode's name.")
    defaults = models.JSONField(
        default=dict,
        blank=True,
        help_text="Default settings of new lobbies; a lobby's settings override keys.",
    )
    turn_deadline_seconds = models.PositiveIntegerField(
        default=60,
        validators=[MinValueValidator(1), MaxValueValidator(86400)],
        help_text="A player's turn is skipped when this many seconds pass without an action.",
    )
    queue_fill_seconds = models.PositiveIntegerField(
        default=30,
        validators=[MaxValueValidator(86400)],
        help_text="Quick join: this long after a queue lobby opens, its empty seats up to the mode's minimum "
        "fill with bots and the match starts (0: never).",
    )
    lobby_idle_seconds = models.PositiveIntegerField(
        default=900,
        validators=[MaxValueValidator(7 * 86400)],
        help_text="A lobby whose seats have not changed for this long is cancelled (0: never).",
    )
    max_active_per_player = models.PositiveSmallIntegerField(
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ACTIVE_LIMIT)],
        help_text="How many lobbies and running matches of this mode one player may sit in at once "
        "(a mode where a new game ends the old keeps one).",
    )

    spectators = models.BooleanField(
        default=False,
        help_text="Anyone who may see a started match of this mode (public, or of their own guild) may "
        "watch it: the public view and public events only, never a seat's private knowledge.",
    )
    spectator_delay_turns = models.PositiveIntegerField(
        default=0,
        validators=[MaxValueValidator(1000)],
        help_text="Spectators of a running match see it this many steps behind (0: live); after the end, "
        "everything public.",
    )

    class Meta:
        verbose_name = "match mode settings"
        verbose_name_plural = "match mode settings"
        ordering = ["mode"]

    def __str__(self) -> str:
        return self.mode


class MatchStatus(models.TextChoices):
    LOBBY = "lobby", "lobby"
    ACTIVE = "active", "active"
    FINISHED = "finished", "finished"
    ABANDONED = "abandoned", "abandoned"
    CANCELLED = "cancelled", "cancelled"


class Match(models.Model):
    """One hosted game, from lobby to end.

    ``turn`` is the number of the step the game waits for (1 after the start; every action or
    timeout takes one step); an action names it, and MatchAction's unique (match, turn) lets one
    action through per turn. ``awaiting`` is the seated player the game waits for and
    ``turn_started_at`` when their turn began, ``deadline_at`` when it times out (the mode decides
    from the game: ``matches.access.match_deadline``, stored so the clock finds the next one in an
    index). ``state`` is the mode's state JSON, ``seed`` the
    number every random draw derives from (``matches.modes.rng_for``).
    """

    mode = models.CharField(max_length=40, db_index=True)
    status = models.CharField(max_length=12, choices=MatchStatus.choices, default=MatchStatus.LOBBY)
    host = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="hosted_matches")
    guild = models.ForeignKey(
        "guilds.Guild",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="matches",
        help_text="Only this guild's members may join.",
    )
    settings = models.JSONField(
        default=dict, help_text="The complete settings (mode defaults + the lobby's)."
    )
    seed = models.BigIntegerField(null=True, blank=True)
    state = models.JSONField(null=True, blank=True)
    turn = models.PositiveIntegerField(default=0)
    awaiting = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_deadline_seconds = models.PositiveIntegerField(
        default=60, help_text="The mode's deadline at the start."
    )
    deadline_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the awaited turn times out (null: nobody awaited, or no deadline): kept by every "
        "step, read by the deadline clock (backend/deadlines.py).",
    )
    idle_steps = models.PositiveIntegerField(default=0, help_text="Timeouts since the last action.")
    absent_seats = models.JSONField(
        default=list,
        blank=True,
        help_text="Seats whose players left the started match: their turns time out at once.",
    )
    resigned_seats = models.JSONField(
        default=list,
        blank=True,
        help_text="Seats whose players resigned (lost at once): their turns time out at once, they win "
        "nothing.",
    )
    rematch = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_of",
        help_text="The lobby a player of this finished match opened as its rematch (at most one).",
    )
    reserved_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="A rematch lobby: until then only the players of the match it follows may join.",
    )
    event_count = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    private = models.BooleanField(default=False, help_text="In nobody's list; joined by its invite code.")
    invite_code = models.CharField(
        max_length=16, null=True, blank=True, unique=True,
        help_text="A private lobby's code (kept after its start, so an expired code is told apart).",
    )
    queued_at = models.DateTimeField(
        null=True, blank=True,
        help_text="Quick join: when the queue opened this lobby (null: not a queue lobby)."
    )
    seats_changed_at = models.DateTimeField(
        null=True, blank=True, help_text="The lobby's last seat change (its idle time counts from here)."
    )
    lobby_deadline_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="A lobby's next time (the queue's fill, or cancelled when idle), read by the deadline "
        "clock.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["status", "mode", "id"], name="match_status_mode_id"),
            # The deadline clock's earliest pending deadline: only the matches waiting for a timed turn.
            models.Index(fields=["deadline_at"], condition=Q(deadline_at__isnull=False),
                         name="match_deadline_pending"),
            # The deadline clock's lobbies: only those waiting for the queue's fill or their idle time.
            models.Index(fields=["lobby_deadline_at"], condition=Q(lobby_deadline_at__isnull=False),
                         name="match_lobby_deadline_pending"),
            # Quick join's choice: the oldest waiting queue lobby of a mode.
            models.Index(fields=["mode", "id"], condition=Q(status="lobby", queued_at__isnull=False),
                         name="match_queue_lobbies"),
        ]

    def __str__(self) -> str:
        return f"{self.mode} #{self.pk} ({self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED, MatchStatus.CANCELLED)


class MatchSeat(models.Model):
    """A player, or a bot, at a match. ``seat`` (0..n-1, in joining order) is given at the start.

    ``active`` is true from joining until leaving or the match's end. ``slot`` numbers a player's active
    seats of one mode (0 .. the mode's ``max_active_per_player`` - 1); the partial unique index on
    (player, mode, slot) WHERE active makes the limit a database fact under concurrent joins. A bot's seat
    (SPEC 15) has no player and names the bot's level in ``bot`` (blank for people); its notebook
    between turns is ``bot_memory`` (docs/matches.md, "Bots").
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="match_seats", null=True, blank=True,
        help_text="Null for a bot's seat.",
    )
    bot = models.CharField(max_length=40, blank=True, default="",
                           help_text="The bot's level (one of the mode's bots); blank for a person.")
    bot_memory = models.JSONField(
        null=True, blank=True,
        help_text="A bot's notebook between its turns and the last event it has seen (null: none yet).",
    )
    mode = models.CharField(max_length=40)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    active = models.BooleanField(default=True)
    slot = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Which of the player's active seats of the mode this is."
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="match_seat_once"),
            models.UniqueConstraint(
                fields=["player", "mode", "slot"], condition=Q(active=True), name="match_seat_active_slot"
            ),
            models.CheckConstraint(
                condition=Q(active=False) | Q(player__isnull=True)  # a bot's seat counts against nobody
                | Q(slot__isnull=False, slot__lt=MAX_ACTIVE_LIMIT),
                name="match_seat_active_has_slot",
            ),
            models.CheckConstraint(
                condition=(Q(player__isnull=False) & Q(bot="")) | (Q(player__isnull=True) & ~Q(bot="")),
                name="match_seat_player_or_bot",
            ),
        ]

    def __str__(self) -> str:
        who = f"bot {self.bot}" if self.bot else str(self.player)
        return f"{who} at {self.match_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)


class MatchAction(models.Model):
    """One step of a match: a player's action, a bot's (``player`` null), or a timeout (``action`` null),
    with the answer given."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    turn = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", null=True, blank=True,
                               help_text="Null for a bot's step.")
    action = models.JSONField(null=True, blank=True, help_text="Null for a timeout.")
    idempotency_key = models.CharField(max_length=64, blank=True, default="")
    response = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "turn"]
        constraints = [
            models.UniqueConstraint(fields=["match", "turn"], name="match_action_one_per_turn"),
            models.UniqueConstraint(
                fields=["match", "player", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="match_action_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} turn {self.turn}"

    @property
    def is_timeout(self) -> bool:
        return self.action is None


class MatchEvent(models.Model):
    """One event of a match's log; ``seats`` null means public, else the seats that may see it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    turn = models.PositiveIntegerField()
    seats = models.JSONField(null=True, blank=True)
    data = models.JSONField()

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="match_event_seq_unique")]

    def __str__(self) -> str:
        return f"{self.match_id} #{self.seq}"

    def visible_to(self, seat: int | None) -> bool:
        seats: Any = self.seats
        return seats is None or (seat is not None and seat in seats)
