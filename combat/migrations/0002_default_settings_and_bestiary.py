"""Load the default combat settings row and the starting bestiary (docs/combat.md explains the numbers)."""
from django.db import migrations

# Frozen here on purpose: a migration must not follow later changes of the code's defaults,
# and designers' later edits in the admin are never overwritten.
RULE_DEFAULTS = {
    "base_miss_chance": 0.10,
    "attentiveness_miss_reduction": 0.01,
    "min_miss_chance": 0.0,
    "max_miss_chance": 0.90,
    "base_crit_chance": 0.05,
    "luck_crit_per_point": 0.02,
    "max_crit_chance": 0.75,
    "crit_multiplier": 2.0,
    "strength_damage_per_point": 0.5,
    "fist_damage": 1,
    "armor_constant": 10.0,
    "min_damage": 1,
    "min_attack_multiplier": 0.0,
    "min_defense_multiplier": 0.1,
    "metabolism_regen_per_point": 0.1,
    "base_hp": 20,
    "hp_per_stamina": 5,
    "ai_focus_weakest_chance": 0.7,
    "max_rounds": 100,
    "effect_magnitudes": {
        "haste": 1.0, "stun": 1.0, "camouflage": 1.0, "provocation": 1.0, "curse": 0.1, "blessing": 1.0,
        "weakness": 0.25, "vigor": 0.25, "fragility": 0.25, "resilience": 0.25, "distraction": 0.15,
        "concentration": 0.1, "fear": 0.1, "fearlessness": 0.1, "regeneration": 2.0, "bleeding": 2.0,
        "burning": 3.0, "frostbite": 2.0,
    },
    "encounter_base": 1,
    "encounter_party_divisor": 2,
    "encounter_floor_divisor": 2,
    "encounter_max": 6,
    "boss_escort_party_divisor": 2,
    "boss_hp_per_extra_player": 0.5,
    "turn_deadline_seconds": 60,
}

# (name, slug, is_boss, floors (min, max or None = deeper too), weight, hp, armor,
#  (weapon name, kind, damage), stats, effects [(trigger, name, turns, magnitude, chance)], description)
# I reads as "innate" in the table below (a migration is history: its names stay as written).
H, I = "on_hit", "innate"  # noqa: E741
_Effect = tuple[str, str, int | None, float | None, float]
_Creature = tuple[str, str, bool, tuple[int, int | None], int, int, int, tuple[str, str, int], dict[str, int],
                  list[_Effect], str]
BESTIARY: list[_Creature] = [
    ("Giant Rat", "giant-rat", False, (0, 1), 12, 8, 0, ("Filthy Teeth", "natural", 2), {},
     [(H, "bleeding", 1, 1.0, 0.2)], "A dog-sized rat. Weak alone, a nuisance in packs."),
    ("Goblin Cutthroat", "goblin-cutthroat", False, (0, 2), 10, 11, 1, ("Rusty Knife", "melee", 3),
     {"luck": 1},
     [], "Sneaky and greedy; its rusty knife finds gaps in armor."),
    ("Cave Spider", "cave-spider", False, (0, 2), 8, 9, 0, ("Venomous Fangs", "natural", 2),
     {"attentiveness": 3},
     [(H, "weakness", 2, 0.2, 0.3)], "Its venom saps the strength of whatever it bites."),
    ("Skeleton Warrior", "skeleton-warrior", False, (1, 3), 10, 16, 3, ("Notched Sword", "melee", 4), {},
     [], "Bones held together by old magic and older grudges; blows glance off its ribs."),
    ("Orc Brute", "orc-brute", False, (2, 4), 10, 24, 2, ("Spiked Club", "melee", 5), {"strength": 2},
     [(H, "stun", 1, None, 0.1)], "Hits like a falling door; now and then it leaves you seeing stars."),
    ("Dark Cultist", "dark-cultist", False, (2, 5), 6, 16, 1, ("Ritual Dagger", "magic", 4), {"luck": 2},
     [(H, "curse", 3, 0.05, 0.2)], "Mutters as it stabs; those it marks may drop dead from any wound."),
    ("Fire Imp", "fire-imp", False, (3, 5), 8, 18, 2, ("Ember Claws", "natural", 5), {"attentiveness": 4},
     [(H, "burning", 2, 2.0, 0.3)], "Quick and hard to miss; its claws leave burning wounds."),
    ("Ghoul", "ghoul", False, (3, None), 8, 28, 3, ("Rotten Claws", "natural", 6), {"metabolism": 2},
     [(H, "fragility", 2, 0.2, 0.2), (I, "regeneration", None, 1.0, 1.0)],
     "Its wounds knit shut as it feeds; its claws leave flesh soft and tearing."),
    ("Cave Troll", "cave-troll", False, (4, None), 6, 40, 4, ("Boulder Fist", "natural", 7), {"strength": 2},
     [(I, "regeneration", None, 2.0, 1.0)], "Huge, slow and regenerating: burn it down fast or not at all."),
    ("Wraith", "wraith", False, (5, None), 6, 30, 5, ("Grave Touch", "magic", 7), {"luck": 3},
     [(H, "frostbite", 2, 2.0, 0.3), (H, "fear", 2, 0.15, 0.2)],
     "A cold that finds the bones, and a dread that follows."),
    # bosses: a boss's HP also grows with the party (CombatSettings.boss_hp_per_extra_player)
    ("Goblin Warlord", "goblin-warlord", True, (0, 1), 10, 24, 1, ("Serrated Cleaver", "melee", 4),
     {"luck": 2},
     [(H, "bleeding", 2, 1.0, 0.25)], "Leader of the upper tunnels' goblins; fights dirty and bleeds you."),
    ("Ogre Chieftain", "ogre-chieftain", True, (1, 3), 10, 48, 3, ("Great Maul", "melee", 6), {"strength": 2},
     [(H, "stun", 1, None, 0.15), (I, "fearlessness", None, 0.1, 1.0)],
     "Swings a maul the size of a door and fears nothing."),
    ("Bone Priest", "bone-priest", True, (2, 4), 10, 44, 3, ("Staff of Bones", "magic", 6),
     {"luck": 2, "attentiveness": 3},
     [(H, "curse", 3, 0.08, 0.25), (H, "weakness", 2, 0.25, 0.25), (I, "resilience", None, 0.15, 1.0)],
     "A necromancer wrapped in warding bones; its curses kill the unblessed."),
    ("Ember Wyrm", "ember-wyrm", True, (4, None), 10, 80, 6, ("Molten Jaws", "natural", 9),
     {"strength": 2, "luck": 2},
     [(H, "burning", 3, 3.0, 0.35), (I, "resilience", None, 0.2, 1.0), (I, "fearlessness", None, 0.1, 1.0)],
     "The deep's old tyrant: scales like shields and a bite that sets you alight."),
]


def load_defaults(apps, schema_editor):
    CombatSettings = apps.get_model("combat", "CombatSettings")
    EnemyKind = apps.get_model("combat", "EnemyKind")
    EnemyKindEffect = apps.get_model("combat", "EnemyKindEffect")
    CombatSettings.objects.update_or_create(pk=1, defaults=RULE_DEFAULTS)
    for row in BESTIARY:
        name, slug, is_boss, (lo, hi), weight, hp, armor, weapon, stats, effects, text = row
        w_name, w_kind, w_damage = weapon
        kind, created = EnemyKind.objects.get_or_create(
            slug=slug,
            defaults=dict(
                name=name, is_boss=is_boss, min_floor=lo, max_floor=hi, weight=weight, hp=hp, armor=armor,
                weapon_name=w_name, weapon_kind=w_kind, weapon_damage=w_damage, description=text, **stats,
            ),
        )
        if created:
            EnemyKindEffect.objects.bulk_create(
                EnemyKindEffect(
                    enemy_kind=kind, trigger=trigger, name=effect, turns=turns, magnitude=magnitude,
                    chance=chance,
                )
                for trigger, effect, turns, magnitude, chance in effects
            )


def unload_bestiary(apps, schema_editor):
    EnemyKind = apps.get_model("combat", "EnemyKind")
    EnemyKind.objects.filter(slug__in=[row[1] for row in BESTIARY]).delete()


class Migration(migrations.Migration):
    dependencies = [("combat", "0001_initial")]

    operations = [migrations.RunPython(load_defaults, unload_bestiary)]
