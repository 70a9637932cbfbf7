"""Seed 000's Labyrinth roguelike (SPEC 9.3): a pure engine on the labyrinth grid model.

``generate(settings, world_seed)`` builds a game; ``legal_actions``, ``play`` (one turn: the
action, the cell's effects, the monsters' attacks) and ``view`` (the fog of war) play it;
``game_to_json`` / ``game_from_json`` store it.
"""
from gamekit.results import Impossible, Success
from roguelike.engine.generate import GenerationError, generate, gold_cell, playable, reachable
from roguelike.engine.model import (
    ARSENAL_ITEMS,
    GENERATOR_VERSION,
    Building,
    Game,
    Item,
    Loot,
    Monster,
    MonsterKind,
    Player,
    Settings,
    SettingsError,
    Side,
    SpawnLocation,
    World,
    game_from_json,
    game_to_json,
    settings_from_json,
)
from roguelike.engine.rules import (
    Action,
    Bomb,
    Build,
    Event,
    Go,
    Ride,
    Shoot,
    Take,
    Wait,
    action_from_json,
    action_to_json,
    check,
    legal_actions,
    play,
    view,
)

__all__ = [
    "ARSENAL_ITEMS", "GENERATOR_VERSION", "Action", "Bomb", "Build", "Building", "Event",
    "Game", "GenerationError", "Go", "Impossible", "Item", "Loot", "Monster", "MonsterKind",
    "Player", "Ride", "Settings", "SettingsError", "Shoot", "Side", "SpawnLocation", "Success", "Take",
    "Wait", "World",
    "action_from_json", "action_to_json", "check", "game_from_json", "game_to_json", "generate", "gold_cell",
    "legal_actions", "play",
    "playable", "reachable", "settings_from_json", "view",
]
