"""PaperMapDesign, moved here from the labyrinth app (labyrinth/0007 let it go): the model enters this
app's state on the table it always had, ``labyrinth_papermapdesign``, so no row is copied or touched.
Its content type follows it (the same row, relabelled), so admin permissions given to users and
groups and the admin's history keep pointing at the model."""

from django.db import IntegrityError, migrations, models, transaction

MODEL = "papermapdesign"


def relabel_content_type(apps, schema_editor, old_label: str, new_label: str) -> None:
    """The model's content type row takes the new app label (as Django's own RenameContentType does
    for a renamed model); a stale row already holding that label is left to remove_stale_contenttypes."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    try:
        with transaction.atomic(using=db):
            ContentType.objects.using(db).filter(app_label=old_label, model=MODEL).update(app_label=new_label)
    except IntegrityError:
        return
    ContentType.objects.clear_cache()


def forwards(apps, schema_editor):
    relabel_content_type(apps, schema_editor, "labyrinth", "paper_labyrinth")


def backwards(apps, schema_editor):
    relabel_content_type(apps, schema_editor, "paper_labyrinth", "labyrinth")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("labyrinth", "0007_paper_map_design_moves_to_paper_labyrinth"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="PaperMapDesign",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("name", models.CharField(max_length=100, unique=True)),
                        ("is_active", models.BooleanField(
                            default=True,
                            help_text="Offered to the hosted games (only while the map passes its checks).")),
                        ("rows", models.PositiveIntegerField(default=0, editable=False,
                                                             help_text="Of field 0 in a seed 003 map.")),
                        ("cols", models.PositiveIntegerField(default=0, editable=False,
                                                             help_text="Of field 0 in a seed 003 map.")),
                        ("cell_count", models.PositiveIntegerField(
                            default=0, editable=False,
                            help_text="Cells of the map (of all fields in a seed 003 map).")),
                        ("seed", models.BigIntegerField(blank=True, editable=False, null=True,
                                                        help_text="When generated.")),
                        ("generator_version", models.PositiveSmallIntegerField(blank=True, editable=False,
                                                                               null=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("text", models.TextField(
                            help_text="The paper map format: 'map R C', the picture, then holes, treasures "
                                      "and items (docs/paper-labyrinth-maps.md).")),
                        ("variant", models.CharField(
                            choices=[("classic", "classic"), ("quantum", "quantum")], default="classic",
                            help_text="The variant the map is validated for (quantum needs an open exit, "
                                      "classic forbids exits next to sources; rivers move differently).",
                            max_length=10)),
                        ("errors", models.JSONField(
                            blank=True, default=list, editable=False,
                            help_text="The broken map rules: {rule, cells, message}.")),
                        ("error_count", models.PositiveIntegerField(default=0, editable=False)),
                        ("warnings", models.JSONField(
                            blank=True, default=list, editable=False,
                            help_text="The recommendations not followed: {rule, cells, message}.")),
                        ("warning_count", models.PositiveIntegerField(default=0, editable=False)),
                        ("generator_players", models.PositiveSmallIntegerField(blank=True, editable=False,
                                                                               null=True)),
                    ],
                    options={
                        "verbose_name": "paper labyrinth map",
                        "db_table": "labyrinth_papermapdesign",
                        "ordering": ["name"],
                        "abstract": False,
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("error_count__gt", 0), ("is_active", True),
                                                   _negated=True),
                                name="labyrinth_active_paper_maps_are_valid"),
                            models.CheckConstraint(
                                condition=models.Q(("is_active", False), models.Q(("cols__lte", 12),
                                                                                  ("rows__lte", 12)),
                                                   _connector="OR"),
                                name="labyrinth_active_paper_maps_fit_a_lobby"),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(forwards, backwards),
    ]
