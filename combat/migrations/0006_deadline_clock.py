"""The deadline clock's index: the battles waiting for a player's turn, by when the turn began (a partial
index: finished battles are not in it, so the clock's query stays cheap however many there are)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("combat", "0005_balance_first_dungeon_bestiary"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="battle",
            index=models.Index(
                condition=models.Q(("awaiting__isnull", False), ("outcome", "ongoing"), ("turn_started_at__isnull", False)),
                fields=["turn_started_at"],
                name="battle_turn_awaited",
            ),
        ),
    ]
