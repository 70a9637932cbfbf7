import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """acquired_in_run becomes a foreign key to the run (it held no real run ids before runs existed)."""

    dependencies = [
        ('dungeons', '0003_runs'),
        ('players', '0004_starting_catalog'),
    ]

    operations = [
        migrations.RemoveField(model_name="inventoryitem", name="acquired_in_run"),
        migrations.AddField(
            model_name="inventoryitem",
            name="acquired_in_run",
            field=models.ForeignKey(
                blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+",
                to="dungeons.run",
                help_text="The dungeon run the item was picked up in (lost on death in that run); empty = kept.",
            ),
        ),
    ]
