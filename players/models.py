"""The player's character: one per user, with money and the five permanent stats."""
from __future__ import annotations

from django.conf import settings
from django.db import models

from backend.models import SingletonSettings

STAT_NAMES = ("strength", "stamina", "metabolism", "luck", "attentiveness")


class PlayerSettings(SingletonSettings):
    """Balancing numbers for new characters (admin-editable)."""

    starting_money = models.PositiveIntegerField(default=100, help_text="Coins a new player starts with.")

    class Meta:
        verbose_name = "player settings"
        verbose_name_plural = "player settings"

    def __str__(self) -> str:
        return "Player settings"


class Player(models.Model):
    """The game character of an authenticated user.

    Stats are upgrade levels starting at 0; only the shaman raises them. Money is whole coins
    and never negative: services spend it with a conditional update, and the check
    constraint below makes any bug that tries otherwise fail loudly instead of corrupting.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player")
    display_name = models.CharField(max_length=150)
    money = models.BigIntegerField(default=0)
    strength = models.PositiveSmallIntegerField(default=0)
    stamina = models.PositiveSmallIntegerField(default=0)
    metabolism = models.PositiveSmallIntegerField(default=0)
    luck = models.PositiveSmallIntegerField(default=0)
    attentiveness = models.PositiveSmallIntegerField(default=0)
    completed_dungeons = models.PositiveIntegerField(default=0)
    last_transfer_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player last moved from one guild to another."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(money__gte=0), name="player_money_not_negative"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def stats(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in STAT_NAMES}
