"""One whole run played in memory by bots: the run's rules (``dungeons/runs/engine``), the generator
(``dungeons/generation``) and the combat engine (``combat/engine``) composed in the order the run's
services compose them (``dungeons/runs/lobby.py``, ``rooms.py``, ``battles.py``, ``endings.py``), with
no rule of its own. Same data, party, policy and seed: the same run, draw for draw, as the server plays it
for the same party, choices and run seed (tests/balance/test_simulator_agrees_with_the_api.py).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from balance.engine.policies import MemberView, Policy
from balance.engine.values import BalanceData, Held, ItemFacts, PartySpec, PlayerSpec
from combat import engine
from combat.engine.encounters import drawable_on, encounter_draw
from dungeons.generation import NPC_KINDS, Dungeon, generate_dungeon
from dungeons.runs.engine import Inside, Place, battles, endings, loot, rooms, run_stats
from dungeons.runs.engine.lobby import junk_dealer_offer, party_inputs
from dungeons.runs.engine.log import Sealed
from dungeons.runs.engine.loot import (
    BATTLE_LOOT_CATEGORIES,
    LOOT_CATEGORIES,
    SEALED_REWARD_RARITIES,
    STORY_ITEM_SUB_KINDS,
)
from dungeons.runs.engine.values import COMPLETED, ESCAPED, FAILED, FINISHED, IN_DUNGEON, RUN_ESCAPED, boosted
from gamekit import Impossible

ENEMY, BOSS, TRAP, TREASURE, STORY, REST = "enemy", "boss", "trap", "treasure", "story", "rest"


@dataclass(frozen=True)
class RunResult:
    """What one simulated run came to."""

    status: str  # completed, failed or escaped
    floors: int
    rooms_entered: int
    battle_turns: int  # turn_started events: every creature's turns
    deaths: tuple[tuple[int, str], ...]  # (floor, room kind) of each member's death
    coins: int  # found by the party (treasure, bosses, sealed rooms)
    charon: int  # Charon's fees
    items: int  # items collected in the run and kept at its end
    npc_met: bool
    rescued: str | None
    completed_by: int  # members who finished
    #: every member as the run left them (what they carry, their money, their completed dungeons): the
    #: party of their next run
    members: tuple[PlayerSpec, ...] = ()


class _Member:
    """A member's working state during a simulated run (the run member's and the player's columns)."""

    __slots__ = ("boosts", "coins", "completed", "fee", "hp", "items", "max_hp", "money", "pending",
                 "player_id", "stats", "status")

    def __init__(self, player_id: int, stats: dict[str, int], money: int, items: list[Held],
                 completed: int = 0) -> None:
        self.player_id = player_id
        self.completed = completed
        self.stats = stats
        self.money = money
        self.items = items
        self.boosts: dict[str, int] = {}
        self.hp = self.max_hp = 0
        self.status = "joined"
        self.pending: list[dict[str, Any]] = []
        self.coins = self.fee = 0

    def run_stats(self) -> dict[str, int]:
        return run_stats(self.stats, self.boosts)

    def inside(self) -> Inside:
        return Inside(self.player_id, self.hp, self.max_hp, self.run_stats(), self.pending)

    def view(self) -> MemberView:
        return MemberView(self.player_id, self.hp, self.max_hp, self.run_stats(), tuple(self.items))

    def set(self, columns: Any) -> None:
        for name, value in columns.items():
            if name == "hp":
                self.hp = value
            elif name == "max_hp":
                self.max_hp = value
            elif name == "status":
                self.status = value
            elif name == "pending_effects":
                self.pending = list(value)
            elif name == "stat_boosts":
                self.boosts = dict(value)


@dataclass
class _Run:
    data: BalanceData
    policy: Policy
    seed: int
    one_guild: bool
    members: list[_Member]
    dungeon: Dungeon
    next_item: int
    floor: int = 0
    room: int = 0
    status: str = "active"
    cleared: bool = False
    npc_kind: str = ""
    npc_hp: int = 0
    npc_max_hp: int = 0
    battles: int = 0
    rooms_entered: int = 0
    turns: int = 0
    deaths: list[tuple[int, str]] = field(default_factory=list)
    loot: list[tuple[int, ItemFacts]] = field(default_factory=list)  # lying in the current room
    next_loot: int = 1
    rescued: str | None = None

    # --- where the party stands ---

    def place(self) -> Place:
        return Place(self.seed, self.floor, self.room)

    def room_kind(self) -> str:
        return str(self.dungeon.floors[self.floor].rooms[self.room].kind.value)

    def next_position(self) -> tuple[int, int] | None:
        if self.room + 1 < len(self.dungeon.floors[self.floor].rooms):
            return self.floor, self.room + 1
        if self.floor + 1 < len(self.dungeon.floors):
            return self.floor + 1, 0
        return None

    def party(self) -> list[_Member]:
        return [m for m in self.members if m.status == IN_DUNGEON]

    def member(self, player_id: int) -> _Member:
        return next(m for m in self.members if m.player_id == player_id)

    def pool(self, categories: Sequence[str], rarities: Sequence[str] | None = None) -> list[ItemFacts]:
        return [i for i in self.data.catalog
                if i.category in categories and (rarities is None or i.rarity in rarities)]

    def give(self, member: _Member, kind: ItemFacts, *, equip: bool = False) -> None:
        member.items.append(Held(self.next_item, kind, equip, of_run=True))
        self.next_item += 1

    def lay(self, kinds: Sequence[ItemFacts]) -> None:
        for kind in kinds:
            self.loot.append((self.next_loot, kind))
            self.next_loot += 1

    def pay(self, party: Sequence[_Member], coins: int) -> None:
        for m in party:
            m.money += coins
            m.coins += coins

    # --- endings (dungeons/runs/endings.py) ---

    def die(self, member: _Member) -> None:
        lost = [i for i in member.items if i.of_run]
        gone = endings.death(player_id=member.player_id, money=member.money, items_of_run=len(lost),
                             rules=self.data.run_rules)
        member.items = [i for i in member.items if not i.of_run]
        member.money -= gone.fee
        member.fee += gone.fee
        member.set(gone.change.columns)
        self.deaths.append((self.floor, self.room_kind()))

    def escape(self, member: _Member, purpose: str) -> None:
        gone = endings.escape(player_id=member.player_id, stats=member.run_stats(), carried=member.items,
                              place=self.place(), purpose=purpose, rules=self.data.run_rules)
        lost = {i.pk for i in gone.lost}
        member.items = [i for i in member.items if i.pk not in lost]
        member.set(gone.change.columns)

    def end_if_party_gone(self) -> None:
        if self.status != "active":
            return
        end = endings.party_gone([m.status for m in self.members])
        if end is not None:
            self.status, self.cleared = end.status, False

    def complete(self, party: Sequence[_Member]) -> None:
        done = endings.completion(party=[m.player_id for m in party], npc_kind=self.npc_kind,
                                  npc_alive=bool(self.npc_kind) and self.npc_hp > 0, one_guild=self.one_guild)
        self.rescued = done.rescued
        for change in done.changes:
            self.member(change.player_id).set(change.columns)
        self.status = done.end.status

    # --- rooms (dungeons/runs/rooms.py) ---

    def enter(self) -> None:
        rules = self.data.run_rules
        self.cleared = False
        self.loot = []
        self.rooms_entered += 1
        party = self.party()
        room = self.dungeon.floors[self.floor].rooms[self.room]
        kind = room.kind.value
        if kind in (ENEMY, BOSS):
            self.battle(party, is_boss=kind == BOSS)
            return
        place = self.place()
        if kind == TRAP:
            sprung = rooms.traps_spring(place=place, party=[m.inside() for m in party], rules=rules)
            for change in sprung.changes:
                self.member(change.player_id).set(change.columns)
            for player_id in sprung.fallen:
                fallen = self.member(player_id)
                if fallen.hp == 0:
                    self.die(fallen)
            self.end_if_party_gone()
        elif kind == TREASURE:
            found = rooms.treasure_find(place=place, party=[m.inside() for m in party],
                                        pool=self.pool(LOOT_CATEGORIES), rules=rules)
            self.lay(found.items)
            self.pay(party, found.coins_each)
        elif kind == STORY and room.seal:
            sub_kind = STORY_ITEM_SUB_KINDS[room.seal]
            keys = sorted((i.pk, m.player_id) for m in party for i in m.items
                          if i.of_run and i.item_kind.sub_kind == sub_kind)
            key = keys[0][1] if keys else None
            pool = [] if key is None else self.pool(BATTLE_LOOT_CATEGORIES, SEALED_REWARD_RARITIES)
            opened = rooms.seal_open(place=place, seal=room.seal, key_holder=key, pool=pool, rules=rules)
            if not isinstance(opened, Sealed):
                self.lay(opened.items)
                self.pay(party, opened.coins_each)
        elif kind == STORY and room.npc_kind:
            joins = rooms.npc_joins(npc_kind=room.npc_kind, rules=rules)
            self.npc_kind = joins.run["npc_kind"]
            self.npc_hp, self.npc_max_hp = joins.run["npc_hp"], joins.run["npc_max_hp"]
        elif kind == STORY:
            sub_kind = STORY_ITEM_SUB_KINDS[room.story_item or ""]
            pool = [i for i in self.data.catalog if i.sub_kind == sub_kind]
            self.lay(loot.story_items_draw(pool, place=place, rules=rules))
        elif kind == REST:
            rested = rooms.rest(party=[m.inside() for m in party], rules=rules)
            for change in rested.changes:
                self.member(change.player_id).set(change.columns)
        if self.status == "active":
            self.cleared = True

    # --- battles (dungeons/runs/battles.py) ---

    def battle(self, party: list[_Member], *, is_boss: bool) -> None:
        data, place = self.data, self.place()
        players = tuple(battles.player_combatant(player_id=m.player_id, name=str(m.player_id), hp=m.hp,
                                                 max_hp=m.max_hp, stats=m.run_stats(), items=m.items)
                        for m in party)
        kinds = drawable_on(data.bestiary, place.floor)
        slugs: dict[str, str] = {}
        enemies = encounter_draw(ordinary=[k for k in kinds if not k.is_boss],
                                 bosses=[k for k in kinds if k.is_boss],
                                 floor=place.floor, is_boss=is_boss, party_size=len(party),
                                 rules=data.encounter_rules, rng=place.stream("encounter"), slugs=slugs)
        npc = None
        if self.npc_kind and self.npc_hp > 0:
            npc = engine.Combatant(id=engine.NPC_ID, kind=engine.Kind.NPC, name=self.npc_kind, hp=self.npc_hp,
                                   max_hp=self.npc_max_hp)
        starting = [effect for m in party for effect in battles.starting_effects(m.player_id, m.pending, ())]
        for m in party:
            m.pending = []
        setup = engine.BattleSetup(players=players, enemies=tuple(enemies), npc=npc,
                                   starting_effects=tuple(starting), rules=data.combat_rules)
        self.battles += 1
        battle_id = self.battles
        result: engine.ActionResult = engine.start_battle(setup, battles.battle_seed(place))
        room_kind = BOSS if is_boss else ENEMY
        while True:
            assert isinstance(result, engine.Success)
            state = result.state
            self.turns += sum(1 for e in result.events if e.kind == "turn_started")
            self.carry(state, result.events, slugs, battle_id)
            if state.over:
                return
            actor = state.awaiting_player
            assert actor is not None
            result = engine.act(state, self.policy.battle(actor, state, room_kind))
            if isinstance(result, Impossible):
                raise TypeError(f"the policy {self.policy.name} chose an impossible action: {result.reason}")

    def carry(self, state: engine.BattleState, events: Sequence[engine.Event], slugs: dict[str, str],
              battle_id: int) -> None:
        """A battle step's consequences for the run (``dungeons.runs.battles._carry``)."""
        if not state.over and not any(isinstance(e, battles.RUN_RELEVANT_EVENTS) for e in events):
            return
        inside_ids = {m.player_id for m in self.party()}
        found = battles.step_consequences(events, inside=inside_ids, enemy_kinds=slugs)
        for happened in found.happened:
            if isinstance(happened, battles.PotionGone):
                member = self.member(happened.player_id)
                member.items = [i for i in member.items if str(i.pk) != happened.potion]
            elif isinstance(happened, battles.StatBoost):
                member = self.member(happened.player_id)
                member.boosts = boosted(member.boosts, happened.stat, happened.amount)
            elif isinstance(happened, battles.NpcFell):
                self.npc_hp = 0
            else:
                member = self.member(happened.player_id)
                if member.status == IN_DUNGEON:
                    if isinstance(happened, battles.MemberFell):
                        self.die(member)
                    else:
                        self.escape(member, f"flee/{battle_id}")
        if state.over:
            self.battle_over(state, inside_ids)
        self.end_if_party_gone()

    def battle_over(self, state: engine.BattleState, inside_ids: set[int]) -> None:
        still = {m.player_id for m in self.party() if m.player_id in inside_ids}
        for change in battles.hp_carried(state, inside=still):
            self.member(change.player_id).set(change.columns)
        npc = state.npc
        if npc is not None and self.npc_kind:
            self.npc_hp = npc.hp
        if state.outcome not in (engine.Outcome.VICTORY, engine.Outcome.DRAW):
            return
        self.cleared = True
        if state.outcome is engine.Outcome.VICTORY:
            party = self.party()
            spoils = loot.victory_spoils(place=self.place(), boss=state.has_boss, rules=self.data.run_rules)
            if spoils is not None:
                self.lay(loot.loot_draw(self.pool(BATTLE_LOOT_CATEGORIES), spoils.items, place=self.place(),
                                        purpose=spoils.purpose, rules=self.data.run_rules))
                self.pay(party, spoils.coins)
            if state.has_boss and self.next_position() is None:
                self.complete(party)

    # --- the party's choices between rooms ---

    def choose(self) -> bool:
        """The policy's moves in a cleared room: loot, potions, formation; then on (True) or out (False)."""
        policy, data = self.policy, self.data
        party = self.party()
        for member in party:
            for loot_id, kind in list(self.loot):
                if policy.take(member.view(), kind) and data.carry(member.items, kind,
                                                                   member.run_stats()["strength"]):
                    self.loot.remove((loot_id, kind))
                    self.give(member, kind, equip=policy.equips and equips_on_pickup(member.items, kind))
            while (potion := policy.drink(member.view())) is not None:
                kind = potion.item_kind
                facts = rooms.PotionFacts(item_id=potion.pk, item_kind=kind.id, sub_kind=kind.sub_kind,
                                          heal=kind.heal, stat=kind.stat, stat_amount=kind.stat_amount,
                                          effect=kind.effect)
                drunk = rooms.potion_drink(player_id=member.player_id, hp=member.hp, max_hp=member.max_hp,
                                           stat_boosts=member.boosts, potion=facts,
                                           hp_per_stamina=data.combat_rules.hp_per_stamina)
                if isinstance(drunk, Impossible):
                    break
                member.set(drunk.change.columns)
                member.items = [i for i in member.items if i.pk != potion.pk]
        if self.room_kind() == REST:
            order = policy.formation([m.view() for m in party])
            if order != [m.player_id for m in party]:
                self._reorder(order)
        stranded = self.next_position() is None
        if stranded or (self.room_kind() in (TREASURE, REST) and policy.leave([m.view() for m in party],
                                                                               self.room_kind())):
            for member in self.party():
                self.escape(member, "escape")
            self.end_if_party_gone()
            return False
        return True

    def _reorder(self, order: list[int]) -> None:
        inside = {m.player_id: m for m in self.members if m.status == IN_DUNGEON}
        others = [m for m in self.members if m.status != IN_DUNGEON]
        # the formation names the party present; the others keep their places behind
        self.members = [inside[pid] for pid in order] + others

    def advance(self) -> None:
        regenerated = rooms.regenerate(party=[m.inside() for m in self.party()], rules=self.data.run_rules)
        for change in regenerated:
            self.member(change.player_id).set(change.columns)
        position = self.next_position()
        assert position is not None
        self.floor, self.room = position
        self.enter()


def equips_on_pickup(items: Sequence[Held], kind: ItemFacts) -> bool:
    """Whether a picked-up item goes into a hand or on the body: armor (the carry rules keep one per slot),
    a weapon while fewer than two are in hand."""
    if kind.category == "armor":
        return True
    if kind.category == "weapon":
        return sum(1 for i in items if i.equipped and i.item_kind.category == "weapon") < 2
    return False


def start(data: BalanceData, party: PartySpec, policy: Policy, seed: int, *, kind: str = "ordinary") -> _Run:
    """The lobby and the start (``dungeons/runs/lobby.py``): the junk dealer's offer and each member's
    choice, the dungeon generated from the party's N, R, C, HP, the first room entered."""
    members = []
    next_item = 1
    for spec in party.members:
        items = []
        for item_id, equipped in spec.items:
            items.append(Held(next_item, data.item(item_id), equipped))
            next_item += 1
        money = data.starting_money if spec.money is None else spec.money
        members.append(_Member(spec.player_id, {**spec.stat_map()}, money, items, spec.completed))
    inputs = party_inputs(guilds=[1 if party.guild else None] * len(members),
                          ranks=[party.guild_rank if party.guild else None] * len(members),
                          completed=[spec.completed for spec in party.members])
    npc_kinds = [k for k in NPC_KINDS if k not in party.rescued] if party.guild and party.rescued else None
    dungeon = generate_dungeon(kind, inputs.n, inputs.rank, inputs.completed, inputs.guild is not None,
                               params=data.generation, rng=random.Random(seed), npc_kinds=npc_kinds)
    run = _Run(data, policy, seed, party.guild, members, dungeon, next_item)
    rank = party.guild_rank if party.guild else 0
    tiers = [[data.item(i) for i in tier.weapons]
             for tier in sorted(data.junk_tiers, key=lambda t: -t.min_rank) if tier.min_rank <= max(0, rank)]
    if not tiers:  # no tier defined: the catalog's basic weapons
        tiers = [[i for i in data.catalog if i.category == "weapon" and i.is_basic]]
    for member in members:
        offer = junk_dealer_offer(tiers, size=data.junk_offer_size, seed=seed, player_id=member.player_id)
        chosen = policy.weapon(offer)
        # taken only if it fits and a hand is free (the server refuses it otherwise: the bot refuses instead)
        if chosen is not None and data.carry(member.items, chosen, member.stats.get("strength", 0)) and \
                equips_on_pickup(member.items, chosen):
            run.give(member, chosen, equip=True)
    for member in members:
        member.hp = member.max_hp = data.combat_rules.max_hp_for(member.stats.get("stamina", 0))
        member.status = IN_DUNGEON
    run.enter()
    return run


def simulate_run(data: BalanceData, party: PartySpec, policy: Policy, seed: int, *,
                 kind: str = "ordinary") -> RunResult:
    """Play one whole run: the lobby, every room in order with the policy's choices, to its end."""
    run = start(data, party, policy, seed, kind=kind)
    while run.status == "active":
        if not run.choose():
            break
        run.advance()
    return result_of(run)


def result_of(run: _Run) -> RunResult:
    status = {COMPLETED: COMPLETED, FAILED: FAILED, RUN_ESCAPED: ESCAPED}.get(run.status, run.status)
    kept = sum(1 for m in run.members if m.status in (FINISHED, ESCAPED) for i in m.items if i.of_run)
    return RunResult(
        status=status, floors=len(run.dungeon.floors), rooms_entered=run.rooms_entered,
        battle_turns=run.turns, deaths=tuple(run.deaths), coins=sum(m.coins for m in run.members),
        charon=sum(m.fee for m in run.members),
        items=kept, npc_met=bool(run.npc_kind), rescued=run.rescued,
        completed_by=sum(1 for m in run.members if m.status == FINISHED),
        members=tuple(PlayerSpec(m.player_id, tuple(sorted(m.stats.items())), m.money,
                                 tuple((i.item_kind.id, i.equipped) for i in m.items),
                                 m.completed + (m.status == FINISHED))
                      for m in sorted(run.members, key=lambda m: m.player_id)),
    )

