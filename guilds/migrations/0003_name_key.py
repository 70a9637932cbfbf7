"""Guild names unique on their folded key (backend.names.name_key) among living guilds; existing rows backfilled.

Two existing living guilds whose names fold to one key (e.g. a Cyrillic look-alike) both keep their
names; the later one's key gets ``#<id>`` appended so the constraint holds. Their next rename, or a
new guild, is checked against the real key.
"""
from django.db import migrations, models

from backend.names import name_key


def backfill(apps, schema_editor):
    Guild = apps.get_model("guilds", "Guild")
    taken = set()
    for guild in Guild.objects.order_by("pk").only("pk", "name", "disbanded_at").iterator():
        key = name_key(guild.name)
        if guild.disbanded_at is None:
            if key in taken:
                key = f"{key}#{guild.pk}"
            taken.add(key)
        Guild.objects.filter(pk=guild.pk).update(name_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ('guilds', '0002_default_rules_and_schedule'),
    ]

    operations = [
        migrations.AddField(
            model_name='guild',
            name='name_key',
            field=models.CharField(blank=True, editable=False, max_length=255, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='guild',
            constraint=models.UniqueConstraint(condition=models.Q(('disbanded_at__isnull', True)), fields=('name_key',), name='guild_name_key_unique_alive'),
        ),
    ]
