"""Lobbies (SPEC 15): quick join's queue lobbies, private lobbies with an invite code, idle lobbies, and a
limit of active seats per player and mode in place of one.

The one-active-match-per-mode index becomes a numbered slot: a player's active seats of a mode are slots
0 .. limit - 1, unique among the active ones. Every seat active today is its player's only active seat of
its mode (the old index), so it takes slot 0.
"""

import django.core.validators
from django.db import migrations, models


def active_seats_take_slot_zero(apps, schema_editor):
    MatchSeat = apps.get_model("matches", "MatchSeat")
    MatchSeat.objects.filter(active=True, player__isnull=False).update(slot=0)


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0005_rematch'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='matchseat',
            name='match_seat_one_active_per_mode',
        ),
        migrations.AddField(
            model_name='match',
            name='invite_code',
            field=models.CharField(blank=True, help_text="A private lobby's code (kept after its start, so an expired code is told apart).", max_length=16, null=True, unique=True),
        ),
        migrations.AddField(
            model_name='match',
            name='lobby_deadline_at',
            field=models.DateTimeField(blank=True, help_text="A lobby's next time (the queue's fill, or cancelled when idle), read by the deadline clock.", null=True),
        ),
        migrations.AddField(
            model_name='match',
            name='private',
            field=models.BooleanField(default=False, help_text="In nobody's list; joined by its invite code."),
        ),
        migrations.AddField(
            model_name='match',
            name='queued_at',
            field=models.DateTimeField(blank=True, help_text='Quick join: when the queue opened this lobby (null: not a queue lobby).', null=True),
        ),
        migrations.AddField(
            model_name='match',
            name='seats_changed_at',
            field=models.DateTimeField(blank=True, help_text="The lobby's last seat change (its idle time counts from here).", null=True),
        ),
        migrations.AddField(
            model_name='matchmodesettings',
            name='lobby_idle_seconds',
            field=models.PositiveIntegerField(default=900, help_text='A lobby whose seats have not changed for this long is cancelled (0: never).', validators=[django.core.validators.MaxValueValidator(604800)]),
        ),
        migrations.AddField(
            model_name='matchmodesettings',
            name='max_active_per_player',
            field=models.PositiveSmallIntegerField(default=3, help_text='How many lobbies and running matches of this mode one player may sit in at once (a mode where a new game ends the old keeps one).', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(20)]),
        ),
        migrations.AddField(
            model_name='matchmodesettings',
            name='queue_fill_seconds',
            field=models.PositiveIntegerField(default=30, help_text="Quick join: this long after a queue lobby opens, its empty seats up to the mode's minimum fill with bots and the match starts (0: never).", validators=[django.core.validators.MaxValueValidator(86400)]),
        ),
        migrations.AddField(
            model_name='matchseat',
            name='slot',
            field=models.PositiveSmallIntegerField(blank=True, help_text="Which of the player's active seats of the mode this is.", null=True),
        ),
        migrations.RunPython(active_seats_take_slot_zero, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(condition=models.Q(('lobby_deadline_at__isnull', False)), fields=['lobby_deadline_at'], name='match_lobby_deadline_pending'),
        ),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(condition=models.Q(('queued_at__isnull', False), ('status', 'lobby')), fields=['mode', 'id'], name='match_queue_lobbies'),
        ),
        migrations.AddConstraint(
            model_name='matchseat',
            constraint=models.UniqueConstraint(condition=models.Q(('active', True)), fields=('player', 'mode', 'slot'), name='match_seat_active_slot'),
        ),
        migrations.AddConstraint(
            model_name='matchseat',
            constraint=models.CheckConstraint(condition=models.Q(('active', False), ('player__isnull', True), models.Q(('slot__isnull', False), ('slot__lt', 20)), _connector='OR'), name='match_seat_active_has_slot'),
        ),
    ]
