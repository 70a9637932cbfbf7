"""PaperMapDesign moves to the paper_labyrinth app (its 0001 takes it over): it leaves this app's state
only. The table, its rows and its constraints stay as they are (the model keeps the table's name)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("labyrinth", "0006_designer_maps_fit_a_lobby"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="PaperMapDesign")],
            database_operations=[],
        ),
    ]
