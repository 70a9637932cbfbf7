"""Default tiers of the junk dealer's starting weapons (docs/npcs.md): better weapons as a guild's
rank rises. Tier 0 is the catalog's basic weapons, so offers below rank 3 are what they were."""
from django.db import migrations

# (name, min_rank, weapons by catalog name); rank 3 is R_opt, "substantial progress" (SPEC section 5)
TIERS = [
    ("Scrap", 0, None),  # None: every basic weapon of the catalog
    ("Serviceable", 3, ["Iron Mace", "Light Crossbow", "Tomahawk", "Spiked Club", "Arming Sword",
                        "Balanced Knives"]),
    ("Fine", 6, ["Battle Axe", "Flanged Mace", "Longbow", "War Tomahawk", "Staff of Embers", "Tome of Frost"]),
]


def load(apps, schema_editor):
    ItemKind = apps.get_model("players", "ItemKind")
    JunkDealerTier = apps.get_model("npcs", "JunkDealerTier")
    for name, min_rank, weapons in TIERS:
        tier, _ = JunkDealerTier.objects.get_or_create(min_rank=min_rank, defaults={"name": name})
        kinds = ItemKind.objects.filter(category="weapon")
        kinds = kinds.filter(is_basic=True) if weapons is None else kinds.filter(name__in=weapons)
        tier.weapons.add(*kinds)


def unload(apps, schema_editor):
    apps.get_model("npcs", "JunkDealerTier").objects.filter(min_rank__in=[t[1] for t in TIERS]).delete()


class Migration(migrations.Migration):
    dependencies = [("npcs", "0004_junk_dealer_tiers"), ("players", "0006_amulets_are_rare")]

    operations = [migrations.RunPython(load, unload)]
