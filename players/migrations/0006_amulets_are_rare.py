"""Amulets are rare (SPEC section 6): found only, rarely, in treasure rooms, or from the jeweler.

The starting catalog had one uncommon amulet; treasure draws by rarity weight, so making every
amulet rare is what keeps them rare finds. Battle and boss loot never hold amulets (dungeons).
"""
from django.db import migrations


def amulets_rare(apps, schema_editor):
    ItemKind = apps.get_model("players", "ItemKind")
    ItemKind.objects.filter(category="amulet").update(rarity="rare")


class Migration(migrations.Migration):
    dependencies = [("players", "0005_inventoryitem_acquired_in_run_fk")]

    operations = [migrations.RunPython(amulets_rare, migrations.RunPython.noop)]
