"""Give the demo world what every NPC page needs (idempotent, seeded): rescued NPCs, stock, items.

Runs after ``load_demo_data`` (``dev.py serve`` calls both): the first demo guild gets rescued NPCs of
several kinds (so each NPC page of issue 29 can be reached by play), the shops' offers are the economy's
data migration's (``npcs/migrations/0002_default_economy.py``), and each demo player with an empty
inventory gets a few catalog items picked by a seeded ``random.Random``, within the carry limits.
"""
from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from backend.errors import RuleViolation
from guilds.models import Guild
from npcs.models import GuildNpc, NpcKind
from npcs.services import npc_rescue
from players.models import InventoryItem, ItemKind, Player
from players.services import inventory_add

#: The demo guild and the NPCs it has rescued: a shop of each catalog part, a buyer, every service.
DEMO_GUILD = "Lanternbearers"
DEMO_NPCS = ("trader", "weaponsmith", "armorer", "potion_seller", "warlock", "shaman", "inquisitor",
             "carpenter", "jeweler", "peasant")
#: The demo players (load_demo_data's) who get items, and how many each.
DEMO_PLAYERS = ("ayla", "borin", "cassia", "dorn", "eris", "fenn", "gwyn", "hale", "ilse")
ITEMS_PER_PLAYER = 3
#: Demo players get at least this much money (a shop can be tried at once).
DEMO_MONEY = 500
DEFAULT_SEED = 29


class Command(BaseCommand):
    help = "Give the demo guild rescued NPCs and the demo players a few items and coins (once; seeded)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="Seed of the items picked.")

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        guild = Guild.objects.filter(name=DEMO_GUILD, disbanded_at__isnull=True).first()
        rescued = 0
        if guild is not None:
            owned = set(GuildNpc.objects.filter(guild=guild).values_list("kind__slug", flat=True))
            for kind in DEMO_NPCS:
                if kind not in owned:
                    NpcKind.of(kind)
                    npc_rescue(guild_id=guild.pk, kind=kind)
                    rescued += 1
        catalog = list(ItemKind.objects.filter(category__in=("weapon", "armor", "potion")).order_by("pk"))
        stocked = 0
        for name in DEMO_PLAYERS:
            player = Player.objects.filter(user__username=name).first()
            if player is None or InventoryItem.objects.filter(player=player).exists():
                continue
            # One stream per player: a player's picks do not depend on who else exists.
            rng = random.Random(f"{options['seed']}:{name}")
            stocked += self._give(player, rng.sample(catalog, len(catalog)))
            if player.money < DEMO_MONEY:
                Player.objects.filter(pk=player.pk).update(money=DEMO_MONEY)
        self.stdout.write(self.style.SUCCESS(
            f"Demo NPCs: {rescued} rescued; {stocked} demo players given items."))

    @staticmethod
    def _give(player: Player, shuffled: list[ItemKind]) -> int:
        """The first items of the shuffled catalog that the carry limits allow, up to ITEMS_PER_PLAYER."""
        given = 0
        for kind in shuffled:
            if given == ITEMS_PER_PLAYER:
                break
            try:
                with transaction.atomic():
                    inventory_add(player=player, item_kind=kind)
            except RuleViolation:
                continue  # a slot or the weight is taken: the next item
            given += 1
        return 1 if given else 0
