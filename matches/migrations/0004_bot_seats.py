"""Bots take seats (SPEC 15): a seat and a step may have no player; a bot's seat names its level and keeps
its notebook. Every existing row is a person's, which the check constraint accepts as it is."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0003_deadline_clock'),
        ('players', '0008_notices'),
    ]

    operations = [
        migrations.AddField(
            model_name='matchseat',
            name='bot',
            field=models.CharField(blank=True, default='', help_text="The bot's level (one of the mode's bots); blank for a person.", max_length=40),
        ),
        migrations.AddField(
            model_name='matchseat',
            name='bot_memory',
            field=models.JSONField(blank=True, help_text="A bot's notebook between its turns and the last event it has seen (null: none yet).", null=True),
        ),
        migrations.AlterField(
            model_name='matchaction',
            name='player',
            field=models.ForeignKey(blank=True, help_text="Null for a bot's step.", null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='players.player'),
        ),
        migrations.AlterField(
            model_name='matchseat',
            name='player',
            field=models.ForeignKey(blank=True, help_text="Null for a bot's seat.", null=True, on_delete=django.db.models.deletion.CASCADE, related_name='match_seats', to='players.player'),
        ),
        migrations.AddConstraint(
            model_name='matchseat',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('player__isnull', False), ('bot', '')), models.Q(('player__isnull', True), models.Q(('bot', ''), _negated=True)), _connector='OR'), name='match_seat_player_or_bot'),
        ),
    ]
