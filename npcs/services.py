"""Writes of the npcs app: rescues, and every NPC service (buy, sell, belts, buffs, upgrades, bounties,
structures, crafts), each one transaction that completes whole or changes nothing.

Money moves only through ``_spend`` / ``_earn``: a conditional ``UPDATE ... SET money = money - x
WHERE money >= x`` whose row count says whether the player could pay, backed by the
``player_money_not_negative`` check constraint. Items enter only through
``players.services.inventory_add`` (carry limits, 409 naming the limit) and leave through
``inventory_remove``; a refusal anywhere rolls the whole operation back.

Locking: a guild row first (rescues, structures), then the player row, then the rows the rule is
about (stock counters, bought buffs, bounties) - the order guilds/services.py uses, so these services
cannot deadlock with the membership services. npc_rescue, warlock_buffs_claim and
bounty_progress_record are the dungeon runs' contract: their signatures do not change.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from backend.errors import InvalidInput, NotFound, RuleViolation
from combat.engine import EffectSpec
from dungeons.generation import NPC_KINDS
from dungeons.generation.rules import ALWAYS_RESCUABLE
from guilds.models import Guild
from guilds.services import guild_rank_add
from npcs import rules, selectors
from npcs.models import (
    BountyQuest,
    BountyStatus,
    GuildNpc,
    GuildStructure,
    MaterialLine,
    NpcKind,
    NpcRescue,
    NpcSettings,
    NpcTrade,
    OfferStockDay,
    PlayerBounty,
    PlayerBuff,
    ShopOffer,
    TradeAction,
    WarlockBuff,
)
from players.models import STAT_NAMES, InventoryItem, ItemKind, Player
from players.selectors import inventory_list
from players.services import inventory_add, inventory_remove, player_lock

# --- money, items, ledger ---------------------------------------------------------------------------------

#: Runs whose items are still at stake.


@dataclass(frozen=True)
class RunFacts:
    """What the runs tell the NPCs about a customer. NPCs sit below the runs (docs/architecture.md) and
    import nothing of them: the dungeons app registers these in its ``ready()`` (``run_facts_register``).

    ``membership(player_id)``: (run id, inside the dungeon?) of the run the player is active in, or None;
    ``items_at_stake(player_id)``: ids of the player's items picked up in a run that is not over.
    """

    membership: Callable[[int], tuple[int, bool] | None]
    items_at_stake: Callable[[int], set[int]]


_RUN_FACTS = RunFacts(membership=lambda player_id: None, items_at_stake=lambda player_id: set())


def run_facts_register(facts: RunFacts) -> None:
    """Called once by ``DungeonsConfig.ready()``: without runs, nobody is ever in one."""
    global _RUN_FACTS
    _RUN_FACTS = facts


def _lock_customer(player_id: int) -> Player:
    """Lock the acting player's row; NPCs serve between runs, never a player who is in a dungeon.

    Items picked up in a run are at stake until it ends (death takes them): selling, crafting or
    upgrading with them mid-run would dodge that, and shopping between rooms is not the design.
    A player in a lobby is refused too (``in_lobby``): the junk dealer's weapon is only lent until
    the run starts, and selling it before leaving the lobby was coins from nothing (issue 11).
    """
    player = player_lock(player_id)
    membership = _RUN_FACTS.membership(player_id)
    if membership is not None and membership[1]:
        raise RuleViolation("in_dungeon", "NPCs serve between runs: finish or leave the dungeon first.",
                            {"run": membership[0]})
    if membership is not None:
        raise RuleViolation("in_lobby", "NPCs serve between runs: leave the lobby or play the run first.",
                            {"run": membership[0]})
    return player


def _at_stake(player: Player) -> set[int]:
    """Ids of the player's items picked up in a run that is not over (a lobby or an active run).

    Such an item can still be taken back (a lobby's weapon on leaving, a run's items on death), so
    no NPC buys it or takes it as material until its run ends.
    """
    return _RUN_FACTS.items_at_stake(player.pk)


def _money(player_id: int) -> int:
    return Player.objects.values_list("money", flat=True).get(pk=player_id)


def _spend(*, player_id: int, coins: int) -> None:
    """Take ``coins`` from the player, or refuse with 409 ``not_enough_money`` and take nothing."""
    if coins == 0:
        return
    paid = Player.objects.filter(pk=player_id, money__gte=coins).update(money=F("money") - coins)
    if not paid:
        raise RuleViolation("not_enough_money", f"This costs {coins} coins.",
                            {"price": coins, "money": _money(player_id)})


def _earn(*, player_id: int, coins: int) -> None:
    if coins:
        Player.objects.filter(pk=player_id).update(money=F("money") + coins)


def _record(*, player_id: int, guild_id: int | None, npc: NpcKind, action: str, coins: int,
            item_kind: ItemKind | None = None, note: str = "") -> None:
    NpcTrade.objects.create(player_id=player_id, guild_id=guild_id, npc=npc, action=action, coins=coins,
                            item_kind=item_kind, note=note[:200], created_at=timezone.now())


def _take_materials(*, player: Player, lines: Iterable[MaterialLine]) -> None:
    """Consume what a recipe needs from the player's inventory (call holding the player lock).

    Refuses with 409 ``missing_materials`` listing every shortfall. Unequipped items go first,
    then the oldest, so a recipe never takes the sword in hand while a spare one is in the pack.
    """
    needs = {line.item_kind_id: line for line in lines}
    held: dict[int, list[InventoryItem]] = defaultdict(list)
    at_stake = _at_stake(player)
    for item in sorted(inventory_list(player=player), key=lambda i: (i.equipped, i.pk)):
        if item.pk not in at_stake:
            held[item.item_kind_id].append(item)
    missing = [{"item_kind": kind_id, "name": line.item_kind.name, "needed": line.quantity,
                "held": len(held[kind_id])}
               for kind_id, line in needs.items() if len(held[kind_id]) < line.quantity]
    if missing:
        raise RuleViolation("missing_materials", "You do not carry everything this needs.",
                            {"missing": missing})
    for kind_id, line in needs.items():
        for item in held[kind_id][: line.quantity]:
            inventory_remove(player=player, item_id=item.pk)


# --- rescue (the runs' contract) ----------------------------------------------------------------------------

@transaction.atomic
def npc_rescue(*, guild_id: int, kind: str, run_id: int | None = None) -> None:
    """The party brought an NPC of ``kind`` out alive: it now serves the guild, whose rank rises.

    Called inside the run's completion transaction. Peasants add one more each time; any other
    kind the guild already has adds nothing (no second NPC, no rank), which only happens when two
    runs found the same NPC before either completed. A second call for the same ``run_id`` is a
    no-op, so a retried completion cannot count a rescue twice.
    """
    if kind not in NPC_KINDS:
        raise InvalidInput("unknown_npc_kind", "No NPC of that kind can be rescued.", {"npc": kind})
    guild = Guild.objects.select_for_update().filter(pk=guild_id).first()
    if guild is None:
        raise NotFound("guild_not_found", "No such guild.", {"guild": guild_id})
    if run_id is not None and NpcRescue.objects.filter(run_id=run_id).exists():
        return
    npc = NpcKind.of(kind)
    owned = GuildNpc.objects.filter(guild=guild, kind=npc).first()
    if owned is not None and kind not in ALWAYS_RESCUABLE:
        return
    now, points = timezone.now(), npc.rank_points
    if owned is None:
        GuildNpc.objects.create(guild=guild, kind=npc, count=1, rank_points=points, first_rescued_at=now,
                                last_rescued_at=now)
    else:
        GuildNpc.objects.filter(pk=owned.pk).update(
            count=F("count") + 1, rank_points=F("rank_points") + points, last_rescued_at=now)
    NpcRescue.objects.create(guild=guild, kind=npc, run_id=run_id, rank_points=points, rescued_at=now)
    if points:
        guild_rank_add(guild_id=guild.pk, points=points)


# --- shops -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Purchase:
    item: InventoryItem
    price: int
    money: int  # the player's money afterwards


def _take_stock(*, guild_id: int, offer: ShopOffer) -> None:
    """Count one unit of a limited offer against the guild's stock of today, or refuse (409)."""
    assert offer.daily_stock is not None
    row, _ = OfferStockDay.objects.get_or_create(guild_id=guild_id, offer=offer, day=selectors.today())
    taken = OfferStockDay.objects.filter(pk=row.pk, sold__lt=offer.daily_stock).update(sold=F("sold") + 1)
    if not taken:
        raise RuleViolation("out_of_stock", f"The shop has sold all of today's {offer.item_kind}.",
                            {"offer": offer.pk, "daily_stock": offer.daily_stock})


@transaction.atomic
def shop_buy(*, player: Player, guild_id: int, kind: str, offer_id: int) -> Purchase:
    """Buy one item from a shop NPC: pay (after the guild's discount), take today's stock, carry it."""
    npc = selectors.npc_for_member(player=player, guild_id=guild_id, kind=kind)
    offer = selectors.offer_get(npc=npc, offer_id=offer_id)
    discount = selectors.structure_bonus(guild_id=guild_id, effect=rules.SHOP_DISCOUNT)
    price = rules.shop_price(price=offer.price, discount_percent=discount)
    locked = _lock_customer(player.pk)
    _spend(player_id=locked.pk, coins=price)
    if offer.daily_stock is not None:
        _take_stock(guild_id=guild_id, offer=offer)
    item = inventory_add(player=locked, item_kind=offer.item_kind)
    _record(player_id=locked.pk, guild_id=guild_id, npc=npc, action=TradeAction.BUY, coins=-price,
            item_kind=offer.item_kind)
    return Purchase(item, price, _money(locked.pk))


@dataclass(frozen=True)
class Sale:
    item_id: int
    item_kind: ItemKind
    price: int
    money: int


@transaction.atomic
def npc_sell(*, player: Player, guild_id: int, kind: str, item_id: int) -> Sale:
    """Sell one carried item to a buying NPC (trader, potion seller, jeweler) at its quote."""
    npc = selectors.npc_for_member(player=player, guild_id=guild_id, kind=kind)
    locked = _lock_customer(player.pk)
    item = InventoryItem.objects.filter(pk=item_id, player=locked).select_related("item_kind").first()
    if item is None:  # another player's item is indistinguishable from a missing one
        raise NotFound("inventory_item_not_found", "You carry no such item.", {"item": item_id})
    if item.pk in _at_stake(locked):
        raise RuleViolation("item_at_stake", "That item belongs to a run that is not over yet.",
                            {"item": item_id, "run": item.acquired_in_run_id})
    price = selectors.quote_price(
        item=item, rates=selectors.buy_rates(npc=npc),
        bonus=selectors.structure_bonus(guild_id=guild_id, effect=rules.SALE_BONUS),
        discount=selectors.structure_bonus(guild_id=guild_id, effect=rules.SHOP_DISCOUNT))
    if price is None:
        raise RuleViolation("not_bought_here", f"The {npc} does not buy {item.item_kind.category} items.",
                            {"item": item_id, "category": item.item_kind.category})
    inventory_remove(player=locked, item_id=item.pk)
    _earn(player_id=locked.pk, coins=price)
    _record(player_id=locked.pk, guild_id=guild_id, npc=npc, action=TradeAction.SELL, coins=price,
            item_kind=item.item_kind)
    return Sale(item_id, item.item_kind, price, _money(locked.pk))


# --- potion seller's belts --------------------------------------------------------------------------------

@transaction.atomic
def belt_buy(*, player: Player, guild_id: int) -> selectors.BeltState:
    """Buy the next potion belt: level 0 -> 1 -> 2 raises the potion limit to 4, then 5."""
    npc = selectors.npc_for_member(player=player, guild_id=guild_id, kind="potion_seller")
    locked = _lock_customer(player.pk)
    level = locked.potion_belt_level
    if level >= selectors.MAX_BELT_LEVEL:
        raise RuleViolation("belt_max_level", "You already wear both belts.", {"level": level})
    discount = selectors.structure_bonus(guild_id=guild_id, effect=rules.SHOP_DISCOUNT)
    price = rules.shop_price(price=NpcSettings.load().belt_price(level + 1), discount_percent=discount)
    _spend(player_id=locked.pk, coins=price)
    Player.objects.filter(pk=locked.pk).update(potion_belt_level=level + 1)
    _record(player_id=locked.pk, guild_id=guild_id, npc=npc, action=TradeAction.BELT, coins=-price,
            note=f"belt {level + 1}")
    locked.refresh_from_db()
    return selectors.belt_state(player=locked, guild_id=guild_id)


# --- warlock ------------------------------------------------------------------------------------------------

@transaction.atomic
def warlock_buff_buy(*, player: Player, guild_id: int, buff_id: int) -> PlayerBuff:
    """Buy a buff for the next run; one pending copy of each buff at a time (409 ``buff_already_bought``)."""
    npc = selectors.npc_for_member(player=player, guild_id=guild_id, kind="warlock")
    buff = WarlockBuff.objects.filter(pk=buff_id, is_active=True).first()
    if buff is None:
        raise NotFound("buff_not_found", "The warlock sells no such buff.", {"buff": buff_id})
    locked = _lock_customer(player.pk)
    if PlayerBuff.objects.filter(player=locked, buff=buff, claimed_run_id__isnull=True).exists():
        raise RuleViolation("buff_already_bought", "That buff already waits for your next run.",
                            {"buff": buff_id})
    discount = selectors.structure_bonus(guild_id=guild_id, effect=rules.SHOP_DISCOUNT)
    price = rules.shop_price(price=buff.price, discount_percent=discount)
    _spend(player_id=locked.pk, coins=price)
    bought = PlayerBuff.objects.create(player=locked, buff=buff, guild_id=guild_id, effect=buff.effect,
                                       turns=buff.turns, magnitude=buff.magnitude, price_paid=price,
                                       bought_at=timezone.now())
    _record(player_id=locked.pk, guild_id=guild_id, npc=npc, action=TradeAction.BUFF, coins=-price,
            note=buff.name)
    return bought


@transaction.atomic
def warlock_buffs_claim(*, player_id: int, run_id: int) -> list[EffectSpec]:
    """Consume the player's bought warlock buffs for this run; they apply at the start of every battle.

    Called when the run starts. Every pending buff is marked as used by ``run_id``; a second call for
    the same run returns the same buffs again (a retried start), another run gets none of them.
    """
    return warlock_buffs_claim_party(player_ids=[player_id], run_id=run_id)[player_id]


#: The party's buffs claimed for a run or pending (a fixed read, locking: warlock_buffs_claim_party).
_BUFFS = ('SELECT "id", "player_id", "effect", "turns", "magnitude", "claimed_run_id" FROM "npcs_playerbuff" '
          'WHERE ("claimed_run_id" = %s OR "claimed_run_id" IS NULL) AND "player_id" IN ({players}) '
          'ORDER BY "bought_at" ASC, "id" ASC')


def warlock_buffs_claim_party(*, player_ids: list[int], run_id: int) -> dict[int, list[EffectSpec]]:
    """``warlock_buffs_claim`` for a whole party in a fixed number of statements, whatever its size.

    Call inside the run start's transaction (the pending buffs are locked until it ends).
    """
    # One read (locking) of each member's buffs already claimed for this run and of their pending ones:
    # a member who holds the former (a start retried in the same run) keeps them and claims nothing.
    claimed: dict[int, list[tuple[int, EffectSpec]]] = {player_id: [] for player_id in player_ids}
    pending: dict[int, list[tuple[int, EffectSpec]]] = {player_id: [] for player_id in player_ids}
    connection = transaction.get_connection()
    with connection.cursor() as cursor:
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        players = ", ".join(["%s"] * len(player_ids))
        cursor.execute(_BUFFS.format(players=players) + lock, [run_id, *player_ids])
        for pk, player_id, effect, turns, magnitude, claimed_run_id in cursor.fetchall():
            buff = (pk, EffectSpec(effect, turns=turns, magnitude=magnitude))  # PlayerBuff.spec
            (pending if claimed_run_id is None else claimed)[player_id].append(buff)
    fresh = [(player_id, buff) for player_id, buffs in claimed.items() if not buffs
             for buff in pending[player_id]]
    if fresh:
        PlayerBuff.objects.filter(pk__in=[pk for _, (pk, _) in fresh]).update(claimed_run_id=run_id,
                                                                              claimed_at=timezone.now())
        for player_id, buff in fresh:
            claimed[player_id].append(buff)
    return {player_id: [spec for _, spec in buffs] for player_id, buffs in claimed.items()}


# --- shaman ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Upgrade:
    stat: str
    level: int  # the new level
    stone_points: int  # what the consumed stones were worth
    stones_used: int


@transaction.atomic
def shaman_upgrade(*, player: Player, guild_id: int, stat: str) -> Upgrade:
    """Raise one stat by a level for enchanted stones worth the rising cost (npcs.rules.shaman_cost)."""
    if stat not in STAT_NAMES:
        raise InvalidInput("unknown_stat", "No such stat.", {"stat": stat, "stats": list(STAT_NAMES)})
    npc = selectors.npc_for_member(player=player, guild_id=guild_id, kind="shaman")
    locked = _lock_customer(player.pk)
    settings = NpcSettings.load()
    level = getattr(locked, stat)
    if level >= settings.shaman_max_level:
        raise RuleViolation("stat_max_level", f"The shaman cannot raise {stat} any further.",
                            {"stat": stat, "level": level, "max_level": settings.shaman_max_level})
    cost = selectors.upgrade_cost(level=level, guild_id=guild_id, settings=settings)
    at_stake = _at_stake(locked)
    stones = selectors.stones_of([i for i in inventory_list(player=locked) if i.pk not in at_stake])
    chosen = rules.choose_stones(stones, cost)
    if chosen is None:
        raise RuleViolation("not_enough_stones",
                            f"Raising {stat} needs enchanted stones worth {cost} points.",
                            {"stat": stat, "cost": cost, "points": rules.stones_points(stones)})
    value = dict(stones)
    for stone_id in chosen:
        inventory_remove(player=locked, item_id=stone_id)
    Player.objects.filter(pk=locked.pk).update(**{stat: F(stat) + 1})
    points = sum(value[stone_id] for stone_id in chosen)
    _record(player_id=locked.pk, guild_id=guild_id, npc=npc, action=TradeAction.UPGRADE, coins=0,
            note=f"{stat} {level} -> {level + 1} for {len(chosen)} stones ({points} points)")
    return Upgrade(stat, level + 1, points, len(chosen))


# --- inquisitor -------------------------------------------------------------------------------------------

@transaction.atomic
def bounty_accept(*, player: Player, guild_id: int, quest_id: int) -> PlayerBounty:
    """Take a bounty quest; kills count from now on (409 when taken already or too many are open)."""
    selectors.npc_for_member(player=player, guild_id=guild_id, kind="inquisitor")
    quest = BountyQuest.objects.filter(pk=quest_id, is_active=True).select_related("enemy_kind").first()
    if quest is None:
        raise NotFound("quest_not_found", "The inquisitor offers no such bounty.", {"quest": quest_id})
    locked = _lock_customer(player.pk)
    open_bounties = PlayerBounty.objects.filter(player=locked, status=BountyStatus.OPEN)
    if open_bounties.filter(quest=quest).exists():
        raise RuleViolation("bounty_already_taken", "You already hunt this bounty.", {"quest": quest_id})
    limit = NpcSettings.load().max_open_bounties
    if open_bounties.count() >= limit:
        raise RuleViolation("too_many_bounties", "Finish or abandon a bounty first.", {"limit": limit})
    return PlayerBounty.objects.create(
        player=locked, quest=quest, guild_id=guild_id, enemy_slug=quest.enemy_kind.slug,
        kills_required=quest.kills, reward=quest.reward, accepted_at=timezone.now())


@transaction.atomic
def bounty_abandon(*, player: Player, guild_id: int, quest_id: int) -> PlayerBounty:
    selectors.npc_for_member(player=player, guild_id=guild_id, kind="inquisitor")
    locked = _lock_customer(player.pk)
    bounty = PlayerBounty.objects.filter(player=locked, quest_id=quest_id, status=BountyStatus.OPEN).first()
    if bounty is None:
        raise NotFound("bounty_not_found", "You hunt no such bounty.", {"quest": quest_id})
    bounty.status, bounty.finished_at = BountyStatus.ABANDONED, timezone.now()
    bounty.save(update_fields=["status", "finished_at"])
    return bounty


@transaction.atomic
def bounty_progress_record(*, player_id: int, kills: Mapping[str, int]) -> None:
    """Count the player's kills (EnemyKind slug -> count) towards their open bounty quests.

    Called with one battle's kills, inside the battle's transaction. A bounty that reaches its
    count is complete and its reward (plus the bonus of the structures of the guild whose
    inquisitor gave it) is paid at once.
    """
    if any(count < 0 for count in kills.values()):
        raise ValueError("kill counts are never negative")
    counted = {slug: count for slug, count in kills.items() if count}
    if not counted:
        return
    bounties = list(PlayerBounty.objects.select_for_update()
                    .filter(player_id=player_id, status=BountyStatus.OPEN, enemy_slug__in=counted)
                    .order_by("pk"))
    if not bounties:
        return
    inquisitor = NpcKind.of("inquisitor")
    now = timezone.now()
    for bounty in bounties:
        bounty.progress = rules.bounty_progress(progress=bounty.progress, kills=counted[bounty.enemy_slug],
                                                required=bounty.kills_required)
        if bounty.progress >= bounty.kills_required:
            bonus = selectors.structure_bonus(guild_id=bounty.guild_id, effect=rules.BOUNTY_BONUS)
            bounty.reward_paid = rules.with_bonus(amount=bounty.reward, bonus_percent=bonus)
            bounty.status, bounty.finished_at = BountyStatus.COMPLETED, now
            _earn(player_id=player_id, coins=bounty.reward_paid)
            _record(player_id=player_id, guild_id=bounty.guild_id, npc=inquisitor, action=TradeAction.BOUNTY,
                    coins=bounty.reward_paid, note=f"bounty {bounty.quest_id} complete")
        bounty.save(update_fields=["progress", "status", "finished_at", "reward_paid"])


# --- carpenter --------------------------------------------------------------------------------------------

@transaction.atomic
def structure_build(*, player: Player, guild_id: int, structure_id: int) -> GuildStructure:
    """Build a structure for the whole guild from the builder's materials and coins (once per guild)."""
    npc = selectors.npc_for_member(player=player, guild_id=guild_id, kind="carpenter")
    structure = selectors.structure_get(structure_id=structure_id)
    Guild.objects.select_for_update().filter(pk=guild_id).first()  # one build of the guild at a time
    if GuildStructure.objects.filter(guild_id=guild_id, structure=structure).exists():
        raise RuleViolation("structure_already_built", f"The guild already has the {structure}.",
                            {"structure": structure_id})
    locked = _lock_customer(player.pk)
    _take_materials(player=locked, lines=structure.materials.select_related("item_kind"))
    _spend(player_id=locked.pk, coins=structure.coins)
    built = GuildStructure.objects.create(guild_id=guild_id, structure=structure, built_by=locked,
                                          built_at=timezone.now())
    _record(player_id=locked.pk, guild_id=guild_id, npc=npc, action=TradeAction.BUILD, coins=-structure.coins,
            note=structure.name)
    return built


# --- jeweler ----------------------------------------------------------------------------------------------

@transaction.atomic
def jeweler_craft(*, player: Player, guild_id: int, recipe_id: int) -> Purchase:
    """Have the jeweler make an amulet: the recipe's gems and fee in, the amulet into the inventory."""
    npc = selectors.npc_for_member(player=player, guild_id=guild_id, kind="jeweler")
    recipe = selectors.recipe_get(recipe_id=recipe_id)
    locked = _lock_customer(player.pk)
    _take_materials(player=locked, lines=recipe.materials.select_related("item_kind"))
    discount = selectors.structure_bonus(guild_id=guild_id, effect=rules.SHOP_DISCOUNT)
    fee = rules.shop_price(price=recipe.fee, discount_percent=discount)
    _spend(player_id=locked.pk, coins=fee)
    item = inventory_add(player=locked, item_kind=recipe.amulet)
    _record(player_id=locked.pk, guild_id=guild_id, npc=npc, action=TradeAction.CRAFT, coins=-fee,
            item_kind=recipe.amulet)
    return Purchase(item, fee, _money(locked.pk))
