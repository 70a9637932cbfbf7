"""The loader: the saved admin data (the settings rows, the bestiary, the item catalog, the junk dealer's
tiers) read into the simulator's frozen values (``balance.engine.BalanceData``). A what-if is the same
values with a field changed (``balance.engine.what_if``)."""
from __future__ import annotations

from collections.abc import Sequence

from balance.engine import BalanceData, Held, ItemFacts, JunkTier
from combat.engine.encounters import EncounterRules
from combat.models import CombatSettings, EnemyKind
from dungeons.models import GenerationSettings, RunSettings
from npcs.models import JunkDealerTier, NpcSettings
from players import inventory
from players.models import CarrySettings, ItemCategory, ItemKind, PlayerSettings


def item_facts(kind: ItemKind) -> ItemFacts:
    """A catalog entry as the simulator reads it, with the engine values the catalog itself makes."""
    return ItemFacts(
        id=kind.pk, name=kind.name, category=kind.category, sub_kind=kind.sub_kind, weight=kind.weight,
        rarity=kind.rarity, is_basic=kind.is_basic, armor=kind.armor, heal=kind.heal, stat=kind.stat,
        stat_amount=kind.stat_amount, effect=kind.effect,
        weapon=kind.as_weapon() if kind.category == ItemCategory.WEAPON else None,
        potion=kind.as_potion(0) if kind.category == ItemCategory.POTION else None,
        effect_value=kind.effect_spec(),
    )


class CarryCheck:
    """The carry rules of players/inventory.py for a player without a potion belt (a new player's)."""

    def __init__(self, rules: inventory.CarryRules) -> None:
        self.rules = rules

    def __call__(self, carried: Sequence[Held], item: ItemFacts, strength: int) -> bool:
        limits = inventory.carry_limits(rules=self.rules, strength=max(0, strength), belt_level=0)
        held = [inventory.Carried(i.item_kind.category, i.item_kind.sub_kind, i.item_kind.weight, i.equipped)
                for i in carried]
        candidate = inventory.Carried(item.category, item.sub_kind, item.weight)
        return inventory.pickup_violation(carried=held, candidate=candidate, limits=limits) is None


def balance_data_load() -> BalanceData:
    """The admin's data as saved now."""
    combat = CombatSettings.load()
    tiers = JunkDealerTier.objects.prefetch_related("weapons").order_by("-min_rank")
    return BalanceData(
        run_rules=RunSettings.load().to_rules(),
        combat_rules=combat.to_rules(),
        encounter_rules=EncounterRules.from_settings(combat),
        generation=GenerationSettings.load().to_params(),
        bestiary=tuple(kind.template()
                       for kind in EnemyKind.objects.prefetch_related("effects").order_by("slug")),
        catalog=tuple(item_facts(kind) for kind in ItemKind.objects.order_by("pk")),
        junk_tiers=tuple(JunkTier(tier.min_rank, tuple(sorted(w.pk for w in tier.weapons.all())))
                         for tier in tiers),
        junk_offer_size=NpcSettings.load().junk_dealer_offer_base,
        starting_money=PlayerSettings.load().starting_money,
        carry=CarryCheck(CarrySettings.load().to_rules()),
    )
