"""Seed 000's Labyrinth roguelike hosted as match mode ``labyrinth_roguelike`` (SPEC 9.3).

A single-player game: seat 0 is always awaited until the game is won or lost. The state is the
whole game (map included, the engine's frozen ``Game``) and stays on the server; one phase, the
play; the player's view is the engine's fog of war
(their own state and the cell they stand on), and every event is private to seat 0. Actions are
the engine's JSON (``{"type": "go", "direction": "UP"}``, ``{"type": "take", "item": "armor"}``,
``{"type": "lift", "floor": 2}``, ...): a malformed one is a 400 ``bad_action``, one the rules
refuse a 409 with the engine's code (``wall``, ``no_arrows``, ``no_cement``, ...): both are the
engine's ``Impossible`` values, handed on with the action in their details.

The world comes from ``settings.seed`` when given (the same seed gives the same labyrinth: the
seed's daily challenge), otherwise from a number drawn from the match's creation rng. A chosen seed
is public (lobby settings) and the engine is open, so its world is built from an HMAC of the seed
under the server's key (``chosen_world_seed``): the same on this server, not computable elsewhere,
and never revealed after the end (anyone may play that seed again). A drawn world may be.
The game waits for its player as long as it takes (no deadline) and ``leave/`` keeps it (the
seed: leaving and coming back goes on from the same place); opening a lobby of this mode ends
the player's active one (the seed's ``/new_game``).
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from django.conf import settings as django_settings
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy

from gamekit.pictures import LegendEntry
from gamekit.results import Success
from matches.modes import (
    DIRECTION,
    FLAG,
    JSON,
    TEXT,
    WHOLE,
    Event,
    ModeAdapter,
    Moved,
    Outcome,
    Phase,
    array,
    choice,
    events,
    integer,
    nullable,
    row,
    shape,
)
from roguelike.engine import (
    Game,
    GenerationError,
    Impossible,
    Settings,
    SettingsError,
    SpawnLocation,
    action_from_json,
    action_to_json,
    game_from_json,
    game_to_json,
    generate,
    legal_actions,
    play,
    settings_from_json,
    view,
)
from roguelike.engine.bots import BOTS
from roguelike.engine.model import (
    MAXIMUMS,
    MINIMUMS,
    NULLABLE,
    SEED_LIMIT,
    UNBOUNDED_LIMIT,
    Building,
    Item,
    Loot,
    MonsterKind,
    Side,
)
from roguelike.picture import board_svg, legend
from roguelike.texts import event_text

PLAYER = 0
ONLY_PLAYER = frozenset({PLAYER})
#: what a lobby may choose (the seed's per-game choices: the seed, the size, the counts); the rest
#: are the mode's defaults, edited by designers in the admin
LOBBY_SETTINGS = frozenset({"seed", "width", "height", "floors", "dragon_count", "archer_count",
                            "portal_count", "mine_count", "hospital_count", "arsenal_count"})
#: the seed's 26 parameters (section 12) with the engine's bounds (``settings_from_json`` checks them, and
#: that the buildings fit); a null size or floor count is drawn, a null seed draws the world
SETTINGS_SCHEMA: dict[str, JSON] = {
    "seed": integer(0, SEED_LIMIT, nullable=True,
                    description="The same seed gives the same labyrinth on this server; null: drawn."),
    **{name: integer(low, MAXIMUMS.get(name, UNBOUNDED_LIMIT), nullable=name in NULLABLE)
       for name, low in MINIMUMS.items()},
    "spawn_location": choice(*(where.value for where in SpawnLocation)),
}
#: the HMAC's purpose: a key derived for this use only, never the bare SECRET_KEY
WORLD_KEY_SALT = "deepdelve.labyrinth_roguelike.chosen_world_seed"


def chosen_world_seed(seed: int) -> int:
    """The world seed (0..SEED_LIMIT) of a lobby's chosen ``seed``: an HMAC-SHA256 of it under
    ``ROGUELIKE_SEED_KEY`` (by default a key derived from SECRET_KEY), so a public seed names a world
    that only this server can build."""
    key = django_settings.ROGUELIKE_SEED_KEY or django_settings.SECRET_KEY
    digest = salted_hmac(WORLD_KEY_SALT, str(seed), secret=key, algorithm="sha256").digest()
    return int.from_bytes(digest[:8], "big") % (SEED_LIMIT + 1)


#: the details of an outcome (``outcome``)
DETAILS: dict[str, JSON] = {"turns": WHOLE, "deaths": WHOLE}
_CELL = array(WHOLE, length=3)
_ITEM: JSON = {"enum": [i.value for i in Item]}
_BUILDING: JSON = {"enum": [b.value for b in Building]}
_LOOT: JSON = {"enum": [loot.value for loot in Loot]}
_MONSTER: JSON = {"enum": [k.value for k in MonsterKind]}
#: what the player feels of a side (an outer wall feels like any wall)
_FELT: JSON = {"enum": [side.value for side in Side if side is not Side.OUTER_WALL]}
_SIDES = {direction: _FELT for direction in DIRECTION["enum"]}
#: the world under ``revealed`` (``roguelike.engine.model.game_to_json``): each floor's walls as rows of
#: "0"/"1" (a wall right of / below each cell), buildings and the exit as [cell, what], cells as [floor, row,
#: col]
_WORLD = shape({
    "rows": WHOLE, "cols": WHOLE,
    "floors": array(shape({"right": array(TEXT), "down": array(TEXT)})),
    "buildings": array(row(_CELL, _BUILDING)), "portals": array(_CELL),
    "exit": row(_CELL, DIRECTION), "graveyard": _CELL,
})
#: the view (``roguelike.engine.rules.view``): the player's own state and cell, never the map; after the end
#: the world under ``revealed`` (``RoguelikeMode.revealed``)
VIEW_SCHEMA = shape(
    {name: WHOLE for name in ("health", "max_health", "arrows", "bombs", "slots", "rings", "bags", "deaths",
                              "death_limit", "turn")}
    | {"items": array(_ITEM), "gold": FLAG, "won": FLAG, "lost": FLAG,
       "here": shape(
           {"building": nullable(_BUILDING), "sides": shape(_SIDES),
            "monsters": array(shape({"kind": _MONSTER}, {"facing": DIRECTION}))},
           {"arsenal": array(_ITEM), "lift": shape({"floor": WHOLE, "floors": WHOLE})},
       )},
    {"revealed": shape({
        "world": _WORLD,
        "monsters": array(shape({"id": WHOLE, "kind": _MONSTER, "cell": _CELL, "health": WHOLE,
                                 "facing": nullable(DIRECTION)})),
        "ground": array(row(_CELL, _LOOT)), "player_cell": _CELL})},
)
ACTION_SCHEMA: JSON = {"oneOf": [
    shape({"type": {"enum": ["go", "shoot", "bomb", "build"]}, "direction": DIRECTION}),
    shape({"type": {"enum": ["take"]}, "item": _ITEM}),
    shape({"type": {"enum": ["lift"]}, "floor": WHOLE}, description="Floors count from 0."),
    shape({"type": {"enum": ["wait"]}}),
]}
_NONE = shape({})
_SOURCE: JSON = {"enum": ["dragon", "archer", "mines"]}
_WAY = shape({"direction": DIRECTION})
#: the engine's events (``roguelike.engine.rules``: what the player learns, never a coordinate), by kind, each
#: spoken by roguelike/texts.py; floors count from 0
EVENT_DATA: dict[str, JSON] = {
    "moved": _WAY, "arrow_hit_wall": _WAY, "wall_destroyed": _WAY, "bomb_no_effect": _WAY, "wall_built": _WAY,
    "cell": shape({"building": nullable(_BUILDING), **_SIDES}),
    "teleported": _NONE, "exit_needs_gold": _NONE, "monster_killed": _NONE, "mine_exploded": _NONE,
    "dragon_discovered": _NONE, "victory": _NONE, "waited": _NONE,
    "lift_moved": shape({"floor": WHOLE}), "lift_buttons": shape({"floor": WHOLE, "floors": WHOLE}),
    "monster_hit": shape({"damage": WHOLE}),
    "item_taken": shape({"item": _ITEM}),
    "rearmed": shape({"arrows": WHOLE, "bombs": WHOLE}),
    "arsenal_stock": shape({"items": array(_ITEM)}), "items_lost": shape({"items": array(_ITEM)}),
    "healed": shape({"health": WHOLE}), "respawned": shape({"health": WHOLE}),
    "mine_detected": shape({"source": _SOURCE}), "armor_absorbed": shape({"source": _SOURCE}),
    "damage": shape({"source": _SOURCE, "damage": WHOLE, "health": WHOLE}),
    "picked_up": shape({"loot": _LOOT}),
    "archer_discovered": shape({"facing": DIRECTION}),
    "died": shape({"deaths": WHOLE}), "defeat": shape({"deaths": WHOLE, "death_limit": WHOLE}),
}
EVENT_SCHEMA = events(EVENT_DATA, details=DETAILS)
#: a spectator's view (``public_view``): the score of the game, nothing of the world or the player's cell
PUBLIC_VIEW_SCHEMA = shape({"turn": WHOLE, "deaths": WHOLE, "death_limit": WHOLE, "won": FLAG, "lost": FLAG})


class RoguelikePlay(Phase[Game]):
    """The only player's turns until the game is won or lost; every event is theirs alone."""

    def awaiting(self, state: Game) -> int | None:
        return None if state.over else PLAYER

    def legal_actions(self, state: Game, seat: int) -> list[JSON]:
        return [action_to_json(a) for a in legal_actions(state)] if seat == PLAYER else []

    def check_action(self, state: Game, action: Mapping[str, Any]) -> Impossible | None:
        parsed = action_from_json(action)
        return parsed if isinstance(parsed, Impossible) else None

    def apply(self, state: Game, seat: int, action: Mapping[str, Any], rng: random.Random) -> Moved[Game]:
        parsed = action_from_json(action)
        if isinstance(parsed, Impossible):
            return parsed
        result = play(state, parsed)
        if isinstance(result, Impossible):
            return dataclasses.replace(result, details={"action": dict(action)})
        return Success(result.state, tuple(Event(e.to_json(), ONLY_PLAYER) for e in result.events))

    def timeout(self, state: Game, seat: int, rng: random.Random) -> Success[Game, Event]:
        """Nothing happens in the labyrinth (the seed has no skipped turn). Without a deadline it is
        reached no more; it stays for the replays of games that timed out before."""
        return Success(state)

    def view(self, state: Game, seat: int) -> JSON:
        return view(state)


class RoguelikeMode(ModeAdapter[Game]):
    name = "labyrinth_roguelike"
    title = gettext_lazy("Labyrinth roguelike")
    min_players = 1
    max_players = 1
    #: nobody else waits for the only player, and the seed's game goes on from the same place whenever
    #: they come back (the admin's seconds do not apply), so idling never ends it
    turn_deadline = False
    settings_schema = SETTINGS_SCHEMA
    lobby_settings = LOBBY_SETTINGS
    new_game_ends_old = True
    leave_keeps_game = True
    view_schema = VIEW_SCHEMA
    action_schema = ACTION_SCHEMA
    event_schema = EVENT_SCHEMA
    outcome_details = DETAILS
    phases = (RoguelikePlay(),)
    bot_policies = BOTS
    #: a single player's game, off by default (the admin may allow it): its every event is the player's
    #: own, so a spectator sees only the score (``public_view``)
    spectators = False
    public_view_schema = PUBLIC_VIEW_SCHEMA
    reasons = {
        "treasure_carried_out": "The player left through the exit with gold: a win.",
        "death_limit": "The player died as many times as the death limit allows: a loss.",
    }

    def default_settings(self) -> JSON:
        return Settings().to_json()

    def validate_settings(self, settings: Mapping[str, Any]) -> JSON | Impossible:
        try:
            return settings_from_json(settings).to_json()
        except SettingsError as exc:
            return Impossible("bad_setting", str(exc), {"setting": exc.name, "problem": exc.problem},
                              kind="input")

    def create(self, *, settings: Mapping[str, Any], seats: int, rng: random.Random) -> Game | Impossible:
        parsed = settings_from_json(settings)
        world_seed = rng.randrange(SEED_LIMIT) if parsed.seed is None else chosen_world_seed(parsed.seed)
        try:
            return generate(parsed, world_seed)
        except GenerationError as exc:  # settings that fit, but no playable draw: rare, refused at the start
            return Impossible("world_not_generated", "No playable labyrinth was found for these settings; "
                              "change the size or the counts.", {"problem": str(exc)})

    def turn_order(self, state: Game) -> tuple[int, ...]:
        return (PLAYER,)

    def may_reveal(self, settings: Mapping[str, Any], state: Game) -> bool:
        """A world drawn for this match only; never a chosen seed's, which others may still play."""
        return settings.get("seed") is None

    def revealed(self, state: Game) -> JSON:
        """The world the player explored blind (floors, buildings, portals, the exit), the monsters and the
        loot on the ground at the end, and the player's cell."""
        data = game_to_json(state)
        player = data["player"]
        assert isinstance(player, dict)
        return {"world": data["world"], "monsters": data["monsters"], "ground": data["ground"],
                "player_cell": player["cell"]}

    def public_view(self, state: Game) -> JSON:
        """The score: turns, deaths and the death limit, won or lost; never the world, the cell or the bag."""
        return {"turn": state.turn, "deaths": state.player.deaths, "death_limit": state.settings.death_limit,
                "won": state.won, "lost": state.lost}

    def outcome(self, state: Game) -> Outcome | None:
        details = {"turns": state.turn, "deaths": state.player.deaths}
        if state.won:
            return Outcome((PLAYER,), "treasure_carried_out", details)
        if state.lost:
            return Outcome((), "death_limit", details)
        return None

    def state_to_json(self, state: Game) -> JSON:
        return game_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> Game:
        return game_from_json(data)

    def event_text(self, data: Mapping[str, Any]) -> str:
        """The event in the request's language (roguelike/texts.py): the engine says kind and data only."""
        return event_text(data)

    def picture(self, state: Game) -> str:
        """The floors side by side: walls, exit, buildings, portals, ground, monsters, player (picture.py)."""
        return board_svg(state)

    def picture_legend(self) -> list[LegendEntry]:
        return legend()
