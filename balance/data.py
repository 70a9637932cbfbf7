"""The loader: the saved admin data (the settings rows, the bestiary, the item catalog, the junk dealer's
tiers) read into the simulator's frozen values (``balance.engine.BalanceData``). A what-if is the same
values with a field changed: at the engine's level (``balance.engine.what_if``, the command's ``--what-if``)
or at the admin's (``FieldChange``: a field of a row as the admin edits it, validated by the model itself
and converted by the loader's own functions, never saved)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import models

from balance.engine import BalanceData, Held, ItemFacts, JunkTier
from combat.engine.encounters import EncounterRules
from combat.models import CombatSettings, EnemyKind, EnemyKindEffect
from dungeons.models import GenerationSettings, RunSettings
from npcs.models import JunkDealerTier, NpcSettings
from players import inventory
from players.models import CarrySettings, ItemCategory, ItemKind, PlayerSettings

M = TypeVar("M", bound=models.Model)


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


#: The models the loader reads, in the order a designer meets them; the singletons have one row.
SINGLETONS: tuple[type[models.Model], ...] = (RunSettings, CombatSettings, GenerationSettings, PlayerSettings,
                                              CarrySettings, NpcSettings)
ROWS: tuple[type[models.Model], ...] = (EnemyKind, EnemyKindEffect, ItemKind, JunkDealerTier)
#: Fields that name or describe a row rather than balance it.
NOT_BALANCING = frozenset({"id", "name", "slug", "description", "updated_at", "created_at"})


def balancing_fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    """The fields of ``model`` a what-if may change: its own editable columns that are numbers, switches
    or choices (not its names, texts, keys or timestamps)."""
    found = []
    for f in model._meta.get_fields():
        if not isinstance(f, models.Field) or f.is_relation or not f.editable or f.name in NOT_BALANCING:
            continue
        if isinstance(f, models.CharField | models.TextField) and not f.choices:
            continue
        found.append(f)
    return found


def _model_key(model: type[models.Model]) -> str:
    return model._meta.label_lower


MODELS: dict[str, type[models.Model]] = {_model_key(m): m for m in SINGLETONS + ROWS}


@dataclass(frozen=True)
class FieldChange:
    """A what-if as the admin names it: the row ``pk`` of ``model`` (``"dungeons.runsettings"``) with
    ``field`` set to ``value`` (the form's text). ``key`` is ``"<model>:<pk>:<field>"``."""

    model: str
    pk: int
    field: str
    value: str

    @property
    def key(self) -> str:
        return f"{self.model}:{self.pk}:{self.field}"

    @classmethod
    def parse(cls, key: str, value: str) -> FieldChange:
        model, pk, name = key.split(":")
        return cls(model, int(pk), name, value)

    def check(self) -> None:
        """Raise ``ValidationError`` unless the field exists, the value is one it takes (its own checks and
        its row's ``clean``) and the loader can read the changed row."""
        model = MODELS.get(self.model)
        if model is None or self.field not in {f.name for f in balancing_fields(model)}:
            raise ValidationError("unknown field %(key)s", params={"key": self.key}, code="unknown_field")
        balance_data_load(self)

    def apply(self, row: M) -> M:
        """The row itself, changed and validated if it is the one the change names (never saved)."""
        if _model_key(type(row)) != self.model or row.pk != self.pk:
            return row
        field = row._meta.get_field(self.field)
        assert isinstance(field, models.Field)
        text = self.value.strip()
        value = None if text == "" and field.null else field.to_python(text)
        setattr(row, field.attname, value)
        row.full_clean(validate_unique=False)
        return row


def _rows(change: FieldChange | None) -> Callable[[M], M]:
    return change.apply if change is not None else (lambda row: row)


def _junk_tier(tier: JunkDealerTier) -> JunkTier:
    return JunkTier(tier.min_rank, tuple(sorted(w.pk for w in tier.weapons.all())))


def balance_data_load(change: FieldChange | None = None) -> BalanceData:
    """The admin's data as saved now, or with one field changed (``change``; raises ``ValidationError``
    for a value its field or row refuses, never writes)."""
    edit = _rows(change)
    combat = edit(CombatSettings.load())
    tiers = JunkDealerTier.objects.prefetch_related("weapons")
    kinds = list(EnemyKind.objects.prefetch_related("effects").order_by("slug"))
    for kind in kinds:
        for effect in kind.effects.all():
            edit(effect)
    try:
        return BalanceData(
            run_rules=edit(RunSettings.load()).to_rules(),
            combat_rules=combat.to_rules(),
            encounter_rules=EncounterRules.from_settings(combat),
            generation=edit(GenerationSettings.load()).to_params(),
            bestiary=tuple(edit(kind).template() for kind in kinds),
            catalog=tuple(item_facts(edit(kind)) for kind in ItemKind.objects.order_by("pk")),
            junk_tiers=tuple(sorted((_junk_tier(edit(tier)) for tier in tiers), key=lambda t: -t.min_rank)),
            junk_offer_size=edit(NpcSettings.load()).junk_dealer_offer_base,
            starting_money=edit(PlayerSettings.load()).starting_money,
            carry=CarryCheck(edit(CarrySettings.load()).to_rules()),
        )
    except (TypeError, ValueError) as exc:  # an engine value refusing the changed number
        raise ValidationError(str(exc), code="invalid") from exc
