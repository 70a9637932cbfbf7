"""Usernames unique on their folded key (backend.names.name_key); existing players backfilled.

Existing users whose names fold to one key keep their names; the later one's key gets ``#<id>``.
"""
from django.db import migrations, models

from backend.names import name_key


def backfill(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    taken = set()
    for player in Player.objects.select_related("user").order_by("pk").iterator():
        key = name_key(player.user.username)
        if key in taken:
            key = f"{key}#{player.pk}"
        taken.add(key)
        Player.objects.filter(pk=player.pk).update(name_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ('players', '0005_inventoryitem_acquired_in_run_fk'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='name_key',
            field=models.CharField(blank=True, editable=False, max_length=255, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='player',
            name='name_key',
            field=models.CharField(blank=True, editable=False, max_length=255, null=True, unique=True),
        ),
    ]
