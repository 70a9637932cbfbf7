"""Input and output shapes of the player endpoints."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from rest_framework import serializers

from players.models import STAT_NAMES, ItemCategory, ItemSubKind, Notice, NoticeKind, Rarity
from players.notices import notice_text


class RegisterInput(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)


class RegisterOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The player id that every other route uses.")
    username = serializers.CharField()
    access = serializers.CharField()
    refresh = serializers.CharField()


class GuildRef(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class Stats(serializers.Serializer[Any]):
    strength = serializers.IntegerField()
    stamina = serializers.IntegerField()
    metabolism = serializers.IntegerField()
    luck = serializers.IntegerField()
    attentiveness = serializers.IntegerField()


assert tuple(Stats().fields) == STAT_NAMES


class ItemKindRef(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    category = serializers.ChoiceField(choices=ItemCategory.choices)
    sub_kind = serializers.ChoiceField(choices=ItemSubKind.choices)
    weight = serializers.IntegerField()


class InventoryItemOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The carried item's id (one row per item).")
    item_kind = ItemKindRef()
    equipped = serializers.BooleanField(help_text="Armor worn, or a weapon/torch taken into battle.")
    acquired_in_run = serializers.IntegerField(
        source="acquired_in_run_id", allow_null=True,
        help_text="The run it was picked up in (lost on death there); null = kept.",
    )
    acquired_at = serializers.DateTimeField(source="created_at")


class CarryOutput(serializers.Serializer[Any]):
    weight = serializers.IntegerField(help_text="Total weight carried.")
    capacity = serializers.IntegerField(
        help_text="Weight limit: capacity_base + capacity_per_strength x strength."
    )
    weapons = serializers.IntegerField(help_text="Weapons and torches carried.")
    weapon_limit = serializers.IntegerField()
    potions = serializers.IntegerField()
    potion_limit = serializers.IntegerField(help_text="3, plus one per potion belt level by default.")


class InventoryOutput(serializers.Serializer[Any]):
    inventory = InventoryItemOutput(many=True)
    carry = CarryOutput()


class ItemKindListQuery(serializers.Serializer[Any]):
    category = serializers.ChoiceField(choices=ItemCategory.choices, required=False, default="")
    sub_kind = serializers.ChoiceField(choices=ItemSubKind.choices, required=False, default="")


class ItemKindOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    category = serializers.ChoiceField(choices=ItemCategory.choices)
    sub_kind = serializers.ChoiceField(choices=ItemSubKind.choices)
    weapon_class = serializers.CharField(help_text="Weapons: melee, ranged, magic or throwing; else empty.")
    weight = serializers.IntegerField()
    price = serializers.IntegerField(help_text="Base price in coins.")
    rarity = serializers.ChoiceField(choices=Rarity.choices)
    is_basic = serializers.BooleanField(help_text="Offered by the junk dealer.")
    damage = serializers.IntegerField(help_text="Weapons: damage of a hit.")
    armor = serializers.IntegerField(help_text="Armor: armor points while worn.")
    heal = serializers.IntegerField(help_text="Healing potions: HP restored.")
    effect = serializers.CharField(
        help_text="Effect potions, amulets, on-hit weapons: the effect; else empty."
    )
    effect_turns = serializers.IntegerField(allow_null=True, help_text="null = until the end of the battle.")
    effect_magnitude = serializers.FloatField(allow_null=True, help_text="null = the engine's default.")
    effect_chance = serializers.FloatField(help_text="Weapons: chance per hit.")
    stat = serializers.CharField(help_text="Stat potions: the stat raised for the run; else empty.")
    stat_amount = serializers.IntegerField()
    torch_moves = serializers.IntegerField(help_text="Torches: moves before burning out.")


class MeOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    display_name = serializers.CharField()
    guild = GuildRef(allow_null=True)
    money = serializers.IntegerField()
    stats = Stats()
    completed_dungeons = serializers.IntegerField()
    potion_belt_level = serializers.IntegerField(help_text="Potion belts owned (0-2).")
    inventory = InventoryItemOutput(many=True, source="carried_items")
    carry = CarryOutput(source="carry_summary")


#: The largest notice number a client may name (a bigint).
MAX_NOTICE_SEQ = 2**63 - 1


class NoticesQuery(serializers.Serializer[Any]):
    since = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_NOTICE_SEQ,
                                     help_text="Return the notices numbered after this one.")


class NoticeOutput(serializers.Serializer[Any]):
    """One notice: a REST read's entry, and the ``data`` of its message on ``GET me/stream/``."""

    seq = serializers.IntegerField(help_text="The user's own sequence: gap-free, in commit order.")
    kind = serializers.ChoiceField(choices=NoticeKind.choices)
    created = serializers.DateTimeField()
    text = serializers.SerializerMethodField(help_text="The notice in the request's language.")

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # ``data`` is added here: as a class attribute it would hide ``Serializer.data`` from the types.
        fields = super().get_fields()
        fields["data"] = serializers.DictField(
            help_text="What it is about, by id: {match, mode, ...}, {run, battle, turn}, {guild, name, ...}.")
        return fields

    def get_text(self, notice: Notice) -> str:
        return notice_text(notice.kind, notice.data)


class NoticesOutput(serializers.Serializer[Any]):
    notices = NoticeOutput(many=True, help_text="The caller's notices after ?since=, oldest first.")
    last = serializers.IntegerField(help_text="The last notice's seq (the one asked after when none): "
                                              "pass as ?since= next time.")
    more = serializers.BooleanField(help_text="More notices wait after this page: ask again at once.")
