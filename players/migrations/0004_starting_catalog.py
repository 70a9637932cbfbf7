"""Load the default carry settings row and the starting item catalog (docs/items.md explains the numbers)."""
from typing import Any

from django.db import migrations

# (name, category, sub_kind, weight, price, rarity, is_basic, stats); the numbers are a designer's
# starting point, frozen here so that later catalog edits in the admin are never overwritten.
W, A, P, S, M, T = "weapon", "armor", "potion", "special", "amulet", "torch"
C, U, R = "common", "uncommon", "rare"

CATALOG: list[tuple[str, str, str, int, int, str, bool, dict[str, Any]]] = [
    # weapons: damage is the engine's weapon damage W; some carry an on-hit effect with a chance
    ("Rusty Sword", W, "sword", 5, 15, C, True, {"damage": 4}),
    ("Arming Sword", W, "sword", 6, 60, U, False, {"damage": 6}),
    ("Knight's Longsword", W, "sword", 8, 180, R, False,
     {"damage": 9, "effect": "bleeding", "effect_turns": 2, "effect_chance": 0.2}),
    ("Cudgel", W, "club", 5, 8, C, True, {"damage": 3}),
    ("Spiked Club", W, "club", 7, 40, U, False,
     {"damage": 5, "effect": "bleeding", "effect_turns": 2, "effect_chance": 0.15}),
    ("Iron Mace", W, "mace", 7, 25, C, False, {"damage": 5}),
    ("Flanged Mace", W, "mace", 8, 90, U, False,
     {"damage": 6, "effect": "stun", "effect_turns": 1, "effect_chance": 0.1}),
    ("Hatchet", W, "axe", 6, 18, C, True, {"damage": 4}),
    ("Battle Axe", W, "axe", 10, 120, U, False, {"damage": 8}),
    ("Executioner's Axe", W, "axe", 12, 260, R, False,
     {"damage": 11, "effect": "bleeding", "effect_turns": 3, "effect_chance": 0.3}),
    ("Short Bow", W, "bow", 3, 20, C, True, {"damage": 3}),
    ("Longbow", W, "bow", 4, 90, U, False, {"damage": 6}),
    ("Light Crossbow", W, "crossbow", 6, 70, C, False, {"damage": 6}),
    ("Heavy Crossbow", W, "crossbow", 9, 200, R, False, {"damage": 9}),
    ("Apprentice Staff", W, "staff", 4, 22, C, True, {"damage": 3}),
    ("Staff of Embers", W, "staff", 5, 150, U, False,
     {"damage": 5, "effect": "burning", "effect_turns": 2, "effect_chance": 0.25}),
    ("Tome of Frost", W, "spellbook", 3, 160, U, False,
     {"damage": 4, "effect": "frostbite", "effect_turns": 2, "effect_chance": 0.3}),
    ("Grimoire of Dread", W, "spellbook", 3, 280, R, False,
     {"damage": 6, "effect": "fear", "effect_turns": 2, "effect_chance": 0.3}),
    ("Throwing Knives", W, "knife", 2, 15, C, True, {"damage": 3}),
    ("Balanced Knives", W, "knife", 2, 70, U, False,
     {"damage": 5, "effect": "bleeding", "effect_turns": 2, "effect_chance": 0.2}),
    ("Tomahawk", W, "tomahawk", 3, 30, C, False, {"damage": 5}),
    ("War Tomahawk", W, "tomahawk", 4, 110, U, False, {"damage": 7}),
    # armor: points while worn (10 points halve a hit)
    ("Leather Jerkin", A, "cuirass", 8, 30, C, False, {"armor": 2}),
    ("Chainmail Hauberk", A, "cuirass", 14, 120, U, False, {"armor": 4}),
    ("Plate Cuirass", A, "cuirass", 18, 300, R, False, {"armor": 6}),
    ("Leather Leggings", A, "greaves", 4, 18, C, False, {"armor": 1}),
    ("Chain Greaves", A, "greaves", 7, 70, U, False, {"armor": 2}),
    ("Plate Greaves", A, "greaves", 10, 180, R, False, {"armor": 3}),
    ("Leather Cap", A, "helmet", 2, 12, C, False, {"armor": 1}),
    ("Iron Helm", A, "helmet", 5, 60, U, False, {"armor": 2}),
    ("Great Helm", A, "helmet", 7, 160, R, False, {"armor": 3}),
    ("Padded Gloves", A, "gloves", 1, 10, C, False, {"armor": 1}),
    ("Chain Gauntlets", A, "gloves", 3, 55, U, False, {"armor": 2}),
    ("Worn Boots", A, "boots", 2, 10, C, False, {"armor": 1}),
    ("Iron-shod Boots", A, "boots", 5, 75, U, False, {"armor": 2}),
    # potions: weight 1 each
    ("Minor Healing Potion", P, "healing", 1, 15, C, True, {"heal": 8}),
    ("Healing Potion", P, "healing", 1, 35, U, False, {"heal": 15}),
    ("Greater Healing Potion", P, "healing", 1, 80, R, False, {"heal": 25}),
    ("Potion of Vigor", P, "effect", 1, 40, C, False,
     {"effect": "vigor", "effect_turns": 3, "effect_magnitude": 0.25}),
    ("Potion of Stoneskin", P, "effect", 1, 40, C, False,
     {"effect": "resilience", "effect_turns": 3, "effect_magnitude": 0.25}),
    ("Potion of Focus", P, "effect", 1, 35, C, False,
     {"effect": "concentration", "effect_turns": 3, "effect_magnitude": 0.1}),
    ("Draught of Courage", P, "effect", 1, 45, U, False,
     {"effect": "fearlessness", "effect_turns": 3, "effect_magnitude": 0.15}),
    ("Regeneration Draught", P, "effect", 1, 50, U, False,
     {"effect": "regeneration", "effect_turns": 4, "effect_magnitude": 2.0}),
    ("Blessed Water", P, "effect", 1, 60, U, False, {"effect": "blessing"}),
    ("Potion of Haste", P, "effect", 1, 90, R, False, {"effect": "haste", "effect_turns": 2}),
    ("Shadow Tonic", P, "effect", 1, 100, R, False, {"effect": "camouflage", "effect_turns": 2}),
    ("Ox Draught", P, "stat", 1, 60, U, False, {"stat": "strength", "stat_amount": 1}),
    ("Troll Blood", P, "stat", 1, 60, U, False, {"stat": "stamina", "stat_amount": 1}),
    ("Tonic of Appetite", P, "stat", 1, 50, U, False, {"stat": "metabolism", "stat_amount": 1}),
    ("Fox Draught", P, "stat", 1, 70, U, False, {"stat": "luck", "stat_amount": 1}),
    ("Owl Draught", P, "stat", 1, 70, U, False, {"stat": "attentiveness", "stat_amount": 1}),
    # special (story) items: materials for the carpenter, the jeweler and the shaman
    ("Carpenter's Tools", S, "carpenters_tools", 6, 50, U, False, {}),
    ("Master Carpenter's Kit", S, "carpenters_tools", 9, 120, R, False, {}),
    ("Rough Ruby", S, "gem", 1, 80, U, False, {}),
    ("Sapphire", S, "gem", 1, 120, U, False, {}),
    ("Flawless Diamond", S, "gem", 1, 300, R, False, {}),
    ("Glowing Pebble", S, "enchanted_stone", 2, 60, U, False, {}),
    ("Runestone", S, "enchanted_stone", 3, 150, R, False, {}),
    # amulets: a permanent effect in every battle while carried
    ("Amulet of the Fearless", M, "amulet", 1, 300, U, False,
     {"effect": "fearlessness", "effect_magnitude": 0.05}),
    ("Amulet of Vigor", M, "amulet", 1, 350, R, False, {"effect": "vigor", "effect_magnitude": 0.1}),
    ("Amulet of Warding", M, "amulet", 1, 350, R, False, {"effect": "resilience", "effect_magnitude": 0.1}),
    ("Amulet of Blessing", M, "amulet", 1, 400, R, False, {"effect": "blessing"}),
    ("Amulet of Mending", M, "amulet", 1, 450, R, False, {"effect": "regeneration", "effect_magnitude": 1.0}),
    # torches (Labyrinth of Darkness): moves before burning out; carried in a weapon slot
    ("Pitch Torch", T, "torch", 2, 5, C, False, {"torch_moves": 30}),
    ("Tallow Torch", T, "torch", 2, 12, C, False, {"torch_moves": 50}),
    ("Everburning Brand", T, "torch", 3, 200, R, False, {"torch_moves": 120}),
]


def load_catalog(apps, schema_editor):
    apps.get_model("players", "CarrySettings").objects.get_or_create(pk=1)
    item_kind = apps.get_model("players", "ItemKind")
    for name, category, sub_kind, weight, price, rarity, is_basic, stats in CATALOG:
        item_kind.objects.get_or_create(name=name, defaults={
            "category": category, "sub_kind": sub_kind, "weight": weight, "price": price,
            "rarity": rarity, "is_basic": is_basic, **stats,
        })


def unload_catalog(apps, schema_editor):
    apps.get_model("players", "ItemKind").objects.filter(name__in=[row[0] for row in CATALOG]).delete()


class Migration(migrations.Migration):
    dependencies = [("players", "0003_items_inventory_carry")]
    operations = [migrations.RunPython(load_catalog, unload_catalog)]
