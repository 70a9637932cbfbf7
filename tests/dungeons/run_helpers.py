"""Builders shared by the run and battle tests: small steerable dungeons, a test bestiary, parties,
lobbies started through the real services, and a client that plays battles over HTTP.

Every run is steered only through balancing data (GenerationSettings, RunSettings,
CombatSettings, the bestiary) and the run seed (``dungeons.services.new_seed`` is patched to a
fixed value). ``seed_where`` finds the first seed whose dungeon has a wanted layout by asking the
pure generator, exactly as ``run_start`` will, so a change of the generator moves the seed
instead of silently changing what a test covers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rest_framework.test import APIClient

from backend.models import SettingsVersion, settings_token_forget, settings_token_seen
from combat.models import Battle, CombatSettings, EnemyKind
from combat.selectors import bestiary_of_floor
from dungeons import services as dungeon_services
from dungeons.models import GenerationSettings, Run, RunSettings
from dungeons.runs import lobby as run_services
from dungeons.selectors import dungeon_preview, generation_params_get
from guilds.models import Guild
from guilds.selectors import player_current_guild
from npcs.selectors import guild_npc_kinds_unrescued
from players.models import ItemKind, Player
from tests.factories import PlayerFactory, add_member, api_client, make_guild

API = "/api/v1"


# --- balancing data ------------------------------------------------------------------------------


def small_dungeons(
    *, floors: int = 1, rooms: int = 5, c_opt: float | None = None, story_item_chance: float = 0.0
) -> GenerationSettings:
    """Every dungeon gets exactly ``floors`` floors of ``rooms`` rooms (boss last, rest before it)."""
    settings = GenerationSettings.load()
    settings.f_min = settings.f_max = floors
    settings.r_min = settings.r_max = rooms
    settings.story_item_chance = story_item_chance
    if c_opt is not None:
        settings.c_opt = c_opt
    settings.save()
    return settings


def run_settings(**numbers: Any) -> RunSettings:
    settings = RunSettings.load()
    for name, value in numbers.items():
        setattr(settings, name, value)
    settings.save()
    return settings


def combat_settings(**numbers: Any) -> CombatSettings:
    settings = CombatSettings.load()
    for name, value in numbers.items():
        setattr(settings, name, value)
    settings.save()
    return settings


@dataclass(frozen=True)
class Bestiary:
    enemy: EnemyKind
    boss: EnemyKind


def bestiary_kept(*floors: int) -> None:
    """This process keeps these floors' bestiary with the current settings token, as a server that has
    served a battle there since the last edit has (combat.selectors.bestiary_of_floor)."""
    settings_token_seen(SettingsVersion.objects.get(pk=1).token)
    try:
        for floor in floors:
            bestiary_of_floor(floor)
    finally:
        settings_token_forget()


def bestiary(
    *,
    enemy_hp: int = 4,
    enemy_damage: int = 1,
    boss_hp: int = 8,
    boss_damage: int = 1,
    enemy_strength: int = 0,
) -> Bestiary:
    """Take every migrated creature out of the draw and fight only these two (one ordinary, one boss).

    Rows are not deleted (other apps' data may point at them); weight 0 keeps them out of every
    encounter. One enemy per room (encounter_base 1, no party or floor terms) and no boss escort
    keep battles short and their numbers easy to reason about. The turn deadline is an hour so a
    slow, loaded machine never times a turn out in the middle of a test (the deadline tests set it).
    """
    EnemyKind.objects.update(weight=0)
    enemy, _ = EnemyKind.objects.update_or_create(
        slug="test-rat",
        defaults={
            "name": "Test Rat",
            "hp": enemy_hp,
            "weapon_name": "Teeth",
            "weapon_damage": enemy_damage,
            "strength": enemy_strength,
            "weight": 10,
        },
    )
    boss, _ = EnemyKind.objects.update_or_create(
        slug="test-ogre",
        defaults={
            "name": "Test Ogre",
            "is_boss": True,
            "hp": boss_hp,
            "weapon_name": "Club",
            "weapon_damage": boss_damage,
            "weight": 10,
        },
    )
    combat_settings(
        encounter_base=1,
        encounter_party_divisor=50,
        encounter_floor_divisor=50,
        boss_escort_party_divisor=50,
        boss_hp_per_extra_player=0.0,
        turn_deadline_seconds=3600,
    )
    return Bestiary(enemy, boss)


def item_kind(name: str, category: str, sub_kind: str, *, weight: int = 1, **fields: Any) -> ItemKind:
    return ItemKind.objects.create(
        name=name, category=category, sub_kind=sub_kind, weight=weight, price=fields.pop("price", 5), **fields
    )


# --- parties and lobbies ---------------------------------------------------------------------------


def guild_party(size: int, **stats: Any) -> tuple[list[Player], Guild]:
    """``size`` players in one new guild (the first leads it), each with ``stats`` set."""
    players = [PlayerFactory(**stats) for _ in range(size)]
    guild = make_guild(leader=players[0])
    for player in players[1:]:
        add_member(guild, player)
    return players, guild


def seed_where(
    predicate: Callable[[Any], bool], *, players: Sequence[Player], kind: str = "ordinary", limit: int = 5000
) -> int:
    """The first seed whose dungeon for this party satisfies ``predicate`` (a generation.Dungeon).

    Mirrors run_start: N, the mean guild rank, the mean completed count, one guild or not, and
    the guild's NPC candidates.
    """
    guilds = [player_current_guild(player=p) for p in players]
    guild_ids = {g.pk if g else None for g in guilds}
    common = guilds[0] if len(guild_ids) == 1 and guilds[0] is not None else None
    params = generation_params_get()
    npc_kinds = guild_npc_kinds_unrescued(guild_id=common.pk) if common else None
    rank = sum(g.rank if g else 0 for g in guilds) / len(players)
    completed = sum(p.completed_dungeons for p in players) / len(players)
    for seed in range(limit):
        dungeon = dungeon_preview(
            kind=kind,
            party_size=len(players),
            rank=rank,
            completed=completed,
            same_guild=common is not None,
            seed=seed,
            params=params,
            npc_kinds=npc_kinds,
        )
        if predicate(dungeon):
            return seed
    raise AssertionError("no seed gives the wanted layout; the generation settings cannot produce it")


def layout(dungeon: Any) -> list[list[str]]:
    """Room kinds floor by floor of a generation.Dungeon."""
    return [[str(room.kind) for room in floor.rooms] for floor in dungeon.floors]


def rooms_are(*kinds: str) -> Callable[[Any], bool]:
    """Predicate for a one-floor dungeon whose rooms are exactly ``kinds``."""
    return lambda dungeon: layout(dungeon) == [list(kinds)]


def fix_seed(monkeypatch: Any, seed: int) -> None:
    monkeypatch.setattr(dungeon_services, "new_seed", lambda: seed)


def lobby(players: Sequence[Player], *, kind: str = "ordinary", weapons: bool = False) -> Run:
    """A lobby opened by players[0] and joined by the others; with ``weapons`` each takes the first
    weapon the junk dealer offers, otherwise each refuses."""
    run = run_services.run_open(player=players[0], kind=kind)
    for player in players[1:]:
        run_services.run_join(player=player, run_id=run.pk)
    for player in players:
        offer = run_services.run_offer(player=player, run_id=run.pk) if weapons else []
        run_services.run_weapon_choose(
            player=player, run_id=run.pk, item_kind_id=offer[0].pk if offer else None
        )
    return run


def started(
    players: Sequence[Player],
    monkeypatch: Any,
    rooms: Sequence[str] | None = None,
    *,
    kind: str = "ordinary",
    weapons: bool = False,
    predicate: Callable[[Any], bool] | None = None,
) -> Run:
    """A started run whose one-floor dungeon has exactly ``rooms`` (or satisfies ``predicate``)."""
    predicate = predicate or rooms_are(*(rooms or ()))
    fix_seed(monkeypatch, seed_where(predicate, players=players, kind=kind))
    run = lobby(players, kind=kind, weapons=weapons)
    run_services.run_start(player=players[0], run_id=run.pk)
    run.refresh_from_db()
    return run


def current_battle(run: Run) -> Battle:
    return Battle.objects.get(run=run, floor=run.floor, room=run.room)


# --- HTTP ------------------------------------------------------------------------------------------


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """A JSON error body {"error": {code, message, details}} with this status and code."""
    assert response.status_code == status, (response.status_code, getattr(response, "data", response))
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "details"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


@dataclass
class Party:
    """Clients of a party over HTTP, one per player, with real JWTs."""

    players: list[Player]
    clients: dict[int, APIClient] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.clients = {p.pk: api_client(p) for p in self.players}

    def client(self, player: Player | int) -> APIClient:
        return self.clients[player if isinstance(player, int) else player.pk]

    def run(self, run_id: int, who: Player | int | None = None) -> dict[str, Any]:
        response = self.client(who or self.players[0]).get(f"{API}/runs/{run_id}/")
        assert response.status_code == 200, response.json()
        return response.json()

    def battle(self, battle_id: int, who: Player | int | None = None, since: int = 0) -> dict[str, Any]:
        response = self.client(who or self.players[0]).get(f"{API}/battles/{battle_id}/?since={since}")
        assert response.status_code == 200, response.json()
        return response.json()

    def post(self, who: Player | int, path: str, data: dict[str, Any] | None = None) -> Any:
        return self.client(who).post(f"{API}/{path}", data or {}, format="json")

    def act(self, who: Player | int, battle_id: int, turn: int, action: dict[str, Any], key: str = "") -> Any:
        return self.post(
            who, f"battles/{battle_id}/actions/", {"turn": turn, "action": action, "idempotency_key": key}
        )

    def fight(
        self,
        battle_id: int,
        choose: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        max_actions: int = 400,
    ) -> dict[str, Any]:
        """Play the battle to its end: whoever is awaited takes ``choose(battle)`` (default: attack the
        first allowed target). Every action must be accepted. Returns the final battle payload."""
        choose = choose or first_attack
        for _ in range(max_actions):
            battle = self.battle(battle_id)
            if battle["outcome"] != "ongoing":
                return battle
            awaiting = battle["awaiting"]
            assert awaiting in self.clients, battle
            mine = self.battle(battle_id, who=awaiting)
            response = self.act(awaiting, battle_id, mine["turn"], choose(mine))
            assert response.status_code == 200, response.json()
        raise AssertionError(f"battle {battle_id} did not end within {max_actions} actions")


def first_attack(battle: dict[str, Any]) -> dict[str, Any]:
    attack = next(a for a in battle["allowed_actions"] if a["kind"] == "attack")
    return {"kind": "attack", "target": attack["target"]}


def log_kinds(run: Run | dict[str, Any]) -> list[str]:
    entries = run.log if isinstance(run, Run) else run["log"]
    return [entry["kind"] for entry in entries]
