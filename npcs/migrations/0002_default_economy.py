"""Load the NPC kinds (1 rank point per rescue) and the starting economy: settings, shop offers, buy rates,
warlock buffs, stone values, bounty quests, structures and jeweler recipes (docs/npcs.md explains them).

Frozen here on purpose: later code changes must not change what this migration loads. Rows are added
only when missing (by their natural key), so a designer's edits in the admin are never overwritten;
items and creatures that a designer renamed or removed are skipped.
"""
from django.db import migrations

KINDS = [
    # (slug, name, rank points, description)
    ("junk_dealer", "Junk Dealer", 0,
     "Every guild's first friend: at the dungeon entrance he offers each member a pick of cheap weapons."),
    ("charon", "Charon", 0,
     "Someone called Charon. Brings the dead back to the lobby - for a tenth of their money."),
    ("trader", "Trader", 1, "Buys whatever you drag out of the dungeons, at a trader's price."),
    ("weaponsmith", "Weaponsmith", 1, "Sells cold steel: swords, clubs, maces, axes, knives and tomahawks."),
    ("armorer", "Armorer", 1, "Sells cuirasses, greaves, helmets, gloves and boots."),
    ("bowyer", "Bowyer", 1,
     "Sells bows and crossbows. The old design notes never found a name for this one."),
    ("battle_mage", "Battle Mage", 1, "Sells staves and spellbooks."),
    ("warlock", "Warlock", 1, "Sells buffs that hold through every battle of your next descent."),
    ("shaman", "Shaman", 1,
     "Raises your strength, stamina, metabolism, luck or attentiveness for enchanted stones."),
    ("peasant", "Peasant", 1, "Every freed peasant raises the guild's rank, and the story needs them."),
    ("potion_seller", "Potion Seller", 1,
     "Sells potions and the belts that hold more of them; pays more for potions than the trader."),
    ("inquisitor", "Inquisitor", 1, "Posts bounties on the creatures of the deep and pays for their heads."),
    ("carpenter", "Carpenter", 1, "Builds guild structures from carpenter's tools and dungeon materials."),
    ("jeweler", "Jeweler", 1, "Takes gems, makes amulets from them, and sells amulets of his own."),
]

SETTINGS = {
    "junk_dealer_offer_base": 3,
    "first_belt_price": 150,
    "second_belt_price": 400,
    "shaman_stones_base": 1,
    "shaman_stones_per_level": 1,
    "shaman_max_level": 20,
    "max_open_bounties": 3,
}

# Which catalog items each shop stocks: (category, sub-kinds); the junk dealer's basic weapons are
# not sold again. Offer price = the catalog price; rare items 2 a day per guild, the rest unlimited.
SHOPS = {
    "weaponsmith": ("weapon", ("sword", "club", "mace", "axe", "knife", "tomahawk")),
    "armorer": ("armor", ("cuirass", "greaves", "helmet", "gloves", "boots")),
    "bowyer": ("weapon", ("bow", "crossbow")),
    "battle_mage": ("weapon", ("staff", "spellbook")),
    "potion_seller": ("potion", ("healing", "effect", "stat")),
    "jeweler": ("amulet", ("amulet",)),
}
RARE_DAILY_STOCK = 2

BUY_RATES = [
    # (npc, category, sub-kind or "" for the whole category, percent of the catalog price)
    ("trader", "weapon", "", 50),
    ("trader", "armor", "", 50),
    ("trader", "potion", "", 40),
    ("trader", "special", "", 50),
    ("trader", "amulet", "", 50),
    ("trader", "torch", "", 30),
    ("potion_seller", "potion", "", 60),
    ("jeweler", "special", "gem", 70),
    ("jeweler", "amulet", "", 55),
]

BUFFS = [
    # (name, effect, turns (None = whole battle), magnitude (None = default), price, description)
    ("Raven's Eye", "concentration", None, 0.05, 60, "Your blows find their mark a little more often."),
    ("Pact of Courage", "fearlessness", None, 0.1, 70, "Fear slides off you; criticals come easier."),
    ("Dark Vigor", "vigor", None, 0.15, 80, "Borrowed strength: every blow hits harder."),
    ("Iron Hex", "resilience", None, 0.15, 80, "Your skin takes the sting out of every hit."),
    ("Ward against Curses", "blessing", None, None, 100, "No curse takes hold of you."),
    ("Blood Pact", "regeneration", None, 1.0, 120, "Wounds close as you fight."),
    ("Veil of Shadows", "camouflage", 1, None, 150,
     "For your first turn of each battle, enemies do not see you."),
]

STONES = [("Glowing Pebble", 1), ("Runestone", 3)]

QUESTS = [
    # (title, enemy slug, kills, reward)
    ("Rat catcher", "giant-rat", 10, 60),
    ("Web sweeper", "cave-spider", 8, 70),
    ("Cutthroats wanted", "goblin-cutthroat", 8, 80),
    ("Lay the dead to rest", "skeleton-warrior", 6, 100),
    ("Break the brutes", "orc-brute", 5, 150),
    ("Silence the cult", "dark-cultist", 5, 160),
    ("Douse the imps", "fire-imp", 4, 180),
    ("Ghoul hunt", "ghoul", 4, 200),
    ("Troll slayer", "cave-troll", 3, 250),
    ("Banish the wraiths", "wraith", 3, 260),
    ("The Warlord's head", "goblin-warlord", 1, 400),
    ("Slay the Ember Wyrm", "ember-wyrm", 1, 800),
]

STRUCTURES = [
    # (slug, name, effect, amount, coins, materials [(item, quantity)], description)
    ("junk-stall", "Junk Dealer's Stall", "junk_dealer_offer", 2, 50, [("Carpenter's Tools", 1)],
     "A proper stall: the junk dealer lays out two more weapons at the entrance."),
    ("spirit-totem", "Spirit Totem", "shaman_discount", 1, 100,
     [("Carpenter's Tools", 1), ("Glowing Pebble", 2)],
     "The shaman's rites need one stone point less per upgrade."),
    ("warehouse", "Warehouse", "sale_bonus", 10, 150, [("Carpenter's Tools", 2)],
     "Room to store goods: the guild's buyers pay 10% more."),
    ("trophy-hall", "Trophy Hall", "bounty_bonus", 25, 150,
     [("Master Carpenter's Kit", 1), ("Carpenter's Tools", 1)],
     "Heads on the wall: the inquisitor's bounties pay 25% more."),
    ("guild-market", "Guild Market", "shop_discount", 10, 200,
     [("Master Carpenter's Kit", 1), ("Carpenter's Tools", 2)],
     "Merchants compete for the guild's coin: 10% off at every NPC."),
]

RECIPES = [
    # (amulet, fee, gems [(item, quantity)])
    ("Amulet of the Fearless", 60, [("Rough Ruby", 1)]),
    ("Amulet of Vigor", 80, [("Rough Ruby", 2)]),
    ("Amulet of Warding", 80, [("Sapphire", 1)]),
    ("Amulet of Blessing", 100, [("Sapphire", 2)]),
    ("Amulet of Mending", 120, [("Flawless Diamond", 1)]),
]


def load(apps, schema_editor):
    NpcKind = apps.get_model("npcs", "NpcKind")
    NpcSettings = apps.get_model("npcs", "NpcSettings")
    ItemKind = apps.get_model("players", "ItemKind")
    EnemyKind = apps.get_model("combat", "EnemyKind")

    NpcSettings.objects.get_or_create(pk=1, defaults=SETTINGS)
    kinds = {}
    for slug, name, points, description in KINDS:
        kinds[slug], _ = NpcKind.objects.get_or_create(
            slug=slug, defaults={"name": name, "rank_points": points, "description": description})
    items = {item.name: item for item in ItemKind.objects.all()}

    ShopOffer = apps.get_model("npcs", "ShopOffer")
    for npc, (category, sub_kinds) in SHOPS.items():
        for item in sorted(items.values(), key=lambda i: (i.price, i.name)):
            if item.category == category and item.sub_kind in sub_kinds and not item.is_basic:
                ShopOffer.objects.get_or_create(npc=kinds[npc], item_kind=item, defaults={
                    "price": item.price, "daily_stock": RARE_DAILY_STOCK if item.rarity == "rare" else None})

    BuyRate = apps.get_model("npcs", "BuyRate")
    for npc, category, sub_kind, rate in BUY_RATES:
        BuyRate.objects.get_or_create(npc=kinds[npc], category=category, sub_kind=sub_kind,
                                      defaults={"rate_percent": rate})

    WarlockBuff = apps.get_model("npcs", "WarlockBuff")
    for name, effect, turns, magnitude, price, description in BUFFS:
        WarlockBuff.objects.get_or_create(name=name, defaults={
            "effect": effect, "turns": turns, "magnitude": magnitude, "price": price,
            "description": description})

    StoneValue = apps.get_model("npcs", "StoneValue")
    for name, points in STONES:
        if name in items:
            StoneValue.objects.get_or_create(item_kind=items[name], defaults={"points": points})

    BountyQuest = apps.get_model("npcs", "BountyQuest")
    enemies = {enemy.slug: enemy for enemy in EnemyKind.objects.all()}
    for title, slug, kills, reward in QUESTS:
        if slug in enemies and not BountyQuest.objects.filter(title=title).exists():
            BountyQuest.objects.create(title=title, enemy_kind=enemies[slug], kills=kills, reward=reward)

    Structure = apps.get_model("npcs", "Structure")
    StructureMaterial = apps.get_model("npcs", "StructureMaterial")
    for slug, name, effect, amount, coins, materials, description in STRUCTURES:
        if not all(item in items for item, _ in materials):
            continue
        structure, created = Structure.objects.get_or_create(slug=slug, defaults={
            "name": name, "effect": effect, "amount": amount, "coins": coins, "description": description})
        if created:
            for item, quantity in materials:
                StructureMaterial.objects.create(structure=structure, item_kind=items[item],
                                                 quantity=quantity)

    JewelerRecipe = apps.get_model("npcs", "JewelerRecipe")
    JewelerMaterial = apps.get_model("npcs", "JewelerMaterial")
    for amulet, fee, gems in RECIPES:
        if amulet not in items or not all(gem in items for gem, _ in gems):
            continue
        recipe, created = JewelerRecipe.objects.get_or_create(amulet=items[amulet], defaults={"fee": fee})
        if created:
            for gem, quantity in gems:
                JewelerMaterial.objects.create(recipe=recipe, item_kind=items[gem], quantity=quantity)


class Migration(migrations.Migration):
    dependencies = [
        ("npcs", "0001_npc_economy"),
        ("players", "0004_starting_catalog"),
        ("combat", "0002_default_settings_and_bestiary"),
    ]

    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
