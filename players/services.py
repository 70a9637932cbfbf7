"""Writes about players: registration, and the inventory (every pickup, purchase, equip and drop)."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction

from backend.errors import InvalidInput, NotFound, RuleViolation
from backend.names import clean_name, name_key
from players import inventory, selectors
from players.models import InventoryItem, ItemCategory, ItemKind, Player, PlayerSettings


@transaction.atomic
def player_register(*, username: str, password: str) -> Player:
    """Create a user and their character; usernames are cleaned (backend.names) and unique ignoring
    case and look-alike letters."""
    user_model = get_user_model()
    username = clean_name(username, max_length=150, field="username")
    key = name_key(username)
    if (user_model.objects.filter(username__iexact=username).exists()
            or Player.objects.filter(name_key=key).exists()):
        raise RuleViolation("username_taken", "That username is taken.", {"username": username})
    user = user_model(username=username)
    try:
        validate_password(password, user)
    except DjangoValidationError as exc:
        raise InvalidInput("weak_password", "The password is too weak.", {"password": exc.messages}) from exc
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:  # a concurrent registration won the same name
        raise RuleViolation("username_taken", "That username is taken.", {"username": username}) from exc
    try:
        with transaction.atomic():
            return Player.objects.create(
                user=user, display_name=username, name_key=key, money=PlayerSettings.load().starting_money
            )
    except IntegrityError as exc:  # a concurrent registration won a look-alike name
        raise RuleViolation("username_taken", "That username is taken.", {"username": username}) from exc


# --- inventory ------------------------------------------------------------------------------------
# Locking: every inventory write first locks the player's row (select_for_update), then reads the
# carried items under that lock, so two pickups for one player run one after the other and the
# second sees the first. Callers that also lock guild rows lock those first (guilds/services.py).

_CARRY_MESSAGES = {
    inventory.WEAPON_LIMIT: "No free weapon slot.",
    inventory.ARMOR_SLOT_TAKEN: "A piece of armor for that slot is already carried.",
    inventory.POTION_LIMIT: "No room for another potion.",
    inventory.WEIGHT_LIMIT: "Too heavy to carry.",
}


def player_lock(player_id: int) -> Player:
    """The player's row, locked for the caller's transaction (the one player lock of every app)."""
    try:
        return Player.objects.select_for_update().get(pk=player_id)
    except Player.DoesNotExist as exc:
        raise NotFound("player_not_found", "No such player.", {"player": player_id}) from exc


def _refuse(violation: inventory.CarryViolation, item_kind: ItemKind) -> RuleViolation:
    return RuleViolation(violation.code, _CARRY_MESSAGES[violation.code],
                         {**violation.details(), "item_kind": item_kind.pk})


def _locked_item(player: Player, item_id: int) -> tuple[InventoryItem, list[InventoryItem]]:
    """The player's item ``item_id`` and the rest of their inventory (call holding the player lock)."""
    items = selectors.inventory_list(player=player)
    for item in items:
        if item.pk == item_id:
            return item, [other for other in items if other.pk != item_id]
    # Another player's item is indistinguishable from a missing one.
    raise NotFound("inventory_item_not_found", "You carry no such item.", {"item": item_id})


def _check_equip(player: Player, item: InventoryItem, others: list[InventoryItem]) -> None:
    if not item.item_kind.is_equippable:
        raise RuleViolation("not_equippable", "Only weapons, torches and armor are equipped.",
                            {"item": item.pk, "category": item.item_kind.category})
    (candidate,) = selectors.carried([item])
    violation = inventory.equip_violation(carried=selectors.carried(others), candidate=candidate,
                                          limits=selectors.carry_limits(player=player))
    if violation is not None:
        raise _refuse(violation, item.item_kind)


def _check_not_run_torch(item: InventoryItem) -> None:
    """The Labyrinth of Darkness's torch (a torch acquired in a run) stays in its bearer's hand until
    that run ends, when the labyrinth takes it back (docs/darkness.md)."""
    if (item.item_kind.category == ItemCategory.TORCH and item.acquired_in_run_id is not None
            and InventoryItem.objects.filter(pk=item.pk, acquired_in_run__ended_at__isnull=True).exists()):
        raise RuleViolation("torch_in_use", "The labyrinth's torch stays in its bearer's hand until the run "
                            "ends.", {"item": item.pk, "run": item.acquired_in_run_id})


@transaction.atomic
def inventory_add(*, player: Player, item_kind: ItemKind, equip: bool = False,
                  acquired_in_run_id: int | None = None, over_capacity: bool = False,
                  strength: int | None = None) -> InventoryItem:
    """Give the player one item, if every carry limit allows it: the one way items enter an inventory.

    Shops and dungeon pickups call this inside their own transaction; a refusal (409 naming the
    limit, with ``limit`` and ``current`` in the details) rolls their whole operation back, so the
    item stays where it was and no money moves. ``equip`` also equips a weapon, torch or armor.
    ``over_capacity``: the weight limit is not applied (every slot rule is), only for what a player
    cannot refuse: the labyrinth's torch passed on to them when its bearer falls. ``strength``: the
    strength the weight limit uses, if not the permanent one (a pickup inside a run: the run's strength).
    """
    player = player_lock(player.pk)
    items = selectors.inventory_list(player=player)
    candidate = inventory.Carried(category=item_kind.category, sub_kind=item_kind.sub_kind,
                                  weight=item_kind.weight)
    violation = inventory.pickup_violation(carried=selectors.carried(items), candidate=candidate,
                                           limits=selectors.carry_limits(player=player, strength=strength))
    # Weight is the last rule checked, so a weight refusal means every slot rule held.
    if violation is not None and not (over_capacity and violation.code == inventory.WEIGHT_LIMIT):
        raise _refuse(violation, item_kind)
    item = InventoryItem(player=player, item_kind=item_kind, acquired_in_run_id=acquired_in_run_id)
    if equip:
        _check_equip(player, item, items)
        item.equipped = True
    item.save()
    return item


@transaction.atomic
def inventory_remove(*, player: Player, item_id: int) -> None:
    """Drop (or use up) one carried item; another player's item is a 404; the labyrinth's torch stays
    (409 ``torch_in_use``)."""
    player = player_lock(player.pk)
    item, _ = _locked_item(player, item_id)
    _check_not_run_torch(item)
    item.delete()


@transaction.atomic
def inventory_equip(*, player: Player, item_id: int) -> InventoryItem:
    """Wear armor or take a weapon/torch into battle; an equipped item stays equipped (no-op)."""
    player = player_lock(player.pk)
    item, others = _locked_item(player, item_id)
    if item.equipped:
        return item
    _check_equip(player, item, others)
    item.equipped = True
    item.save(update_fields=["equipped"])
    return item


@transaction.atomic
def inventory_unequip(*, player: Player, item_id: int) -> InventoryItem:
    """Take off armor or put a weapon away; it stays carried and still counts against the limits. The
    labyrinth's torch stays in hand (409 ``torch_in_use``)."""
    player = player_lock(player.pk)
    item, _ = _locked_item(player, item_id)
    if item.equipped:
        _check_not_run_torch(item)
        item.equipped = False
        item.save(update_fields=["equipped"])
    return item
