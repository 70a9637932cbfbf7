"""The roguelike's events in words (SPEC 14 "Events speak"): one sentence per event, in the active language.

The engine (``roguelike/engine/rules.py``) says what happened as a value, an event ``kind`` and its
data (section 13: what the player learns, never a coordinate); this module, at the edge, renders it when
the log is read: English here (gettext message ids), Russian from the app's catalogue
(``roguelike/locale/ru/LC_MESSAGES/django.po``, in the seed's own words: Арсенал, Золото, "Победа!").
Nothing is stored as text, so the same log reads in each request's language.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext
from django.utils.translation import pgettext_lazy as _pl

Data = Mapping[str, Any]

#: the words of the events' values (the engine's enum values)
DIRECTIONS: dict[str, Promise] = {
    "UP": _pl("roguelike", "up"), "LEFT": _pl("roguelike", "left"),
    "DOWN": _pl("roguelike", "down"), "RIGHT": _pl("roguelike", "right"),
}
BUILDINGS: dict[str, Promise] = {
    "arsenal": _pl("roguelike", "an Arsenal"), "hospital": _pl("roguelike", "a Hospital"),
    "portal": _pl("roguelike", "a Portal"), "mines": _pl("roguelike", "Mines"),
    "lift": _pl("roguelike", "a Lift"), "graveyard": _pl("roguelike", "the Graveyard"),
}
ITEMS: dict[str, Promise] = {
    "armor": _pl("roguelike", "Armor"), "doublegun": _pl("roguelike", "DoubleGun"),
    "mine_detector": _pl("roguelike", "MineDetector"), "cement": _pl("roguelike", "Cement"),
}
LOOT: dict[str, Promise] = {
    "gold": _pl("roguelike", "the Gold"), "dragon_ring": _pl("roguelike", "a DragonRing"),
    "bag": _pl("roguelike", "a Bag"),
}
SOURCES: dict[str, Promise] = {
    "dragon": _pl("roguelike", "a dragon's fire"), "archer": _pl("roguelike", "an archer's arrow"),
    "mines": _pl("roguelike", "the mines"),
}


def _word(words: Mapping[str, Promise], value: Any) -> str:
    return str(words.get(str(value), value))


def _words(words: Mapping[str, Promise], values: Any) -> str:
    listed = [_word(words, v) for v in values] if isinstance(values, list | tuple) else []
    return ", ".join(listed) if listed else pgettext("roguelike", "nothing")


def _sides(data: Data, felt: str) -> list[str]:
    return [_word(DIRECTIONS, d) for d in DIRECTIONS if data.get(d) == felt]


def _cell(data: Data) -> str:
    passages = _sides(data, "space") + [
        gettext("the Exit %(direction)s") % {"direction": d} for d in _sides(data, "exit")]
    listed = ", ".join(passages) if passages else pgettext("roguelike", "none")
    building = data.get("building")
    if building:
        return gettext("You are in %(building)s; passages: %(passages)s.") % {
            "building": _word(BUILDINGS, building), "passages": listed}
    return gettext("You are in an empty cell; passages: %(passages)s.") % {"passages": listed}


def _direction(data: Data, key: str = "direction") -> str:
    return _word(DIRECTIONS, data.get(key))


def _floor(data: Data, key: str = "floor") -> int:
    """Floors count from 0 in the API; people count from 1."""
    value = data.get(key)
    return value + 1 if isinstance(value, int) else 0


TEXTS: dict[str, Callable[[Data], str]] = {
    "moved": lambda d: gettext("You go %(direction)s.") % {
        "direction": _direction(d)},
    "cell": _cell,
    "teleported": lambda d: gettext("The Portal carries you to the next portal."),
    "lift_moved": lambda d: gettext("The Lift takes you to floor %(floor)d.") % {"floor": _floor(d)},
    "exit_needs_gold": lambda d: gettext("This is the Exit, but you have no Gold: nothing happens."),
    "monster_hit": lambda d: gettext("Your arrow hits a monster for %(damage)d damage.") % {
        "damage": d.get("damage", 0)},
    "monster_killed": lambda d: gettext("The monster is killed."),
    "arrow_hit_wall": lambda d: gettext("Your arrow flies %(direction)s and hits a wall.") % {
        "direction": _direction(d)},
    "wall_destroyed": lambda d: gettext("The bomb destroys the wall %(direction)s.") % {
        "direction": _direction(d)},
    "bomb_no_effect": lambda d: gettext("The bomb goes off %(direction)s with no effect.") % {
        "direction": _direction(d)},
    "wall_built": lambda d: gettext("You build a wall %(direction)s with the Cement.") % {
        "direction": _direction(d)},
    "item_taken": lambda d: gettext("You take from the Arsenal: %(item)s.") % {
        "item": _word(ITEMS, d.get("item"))},
    "rearmed": lambda d: gettext(
        "The Arsenal restores your arrows and bombs: %(arrows)d arrows, %(bombs)d bombs."
    ) % {"arrows": d.get("arrows", 0), "bombs": d.get("bombs", 0)},
    "arsenal_stock": lambda d: gettext("In the Arsenal: %(items)s.") % {
        "items": _words(ITEMS, d.get("items"))},
    "healed": lambda d: gettext("The Hospital restores your health to %(health)d.") % {
        "health": d.get("health", 0)},
    "mine_exploded": lambda d: gettext("A mine explodes under your feet."),
    "mine_detected": lambda d: gettext("Your MineDetector protects you from the mines."),
    "lift_buttons": lambda d: gettext("A Lift: you are on floor %(floor)d of %(floors)d; choose a floor.") % {
        "floor": _floor(d), "floors": d.get("floors", 0)},
    "picked_up": lambda d: gettext("You pick up %(loot)s.") % {"loot": _word(LOOT, d.get("loot"))},
    "dragon_discovered": lambda d: gettext("A Dragon is here!"),
    "archer_discovered": lambda d: gettext("An Archer is here; it shoots %(direction)s.") % {
        "direction": _direction(d, "facing")},
    "armor_absorbed": lambda d: gettext("Your Armor absorbs the blow of %(source)s and is destroyed.") % {
        "source": _word(SOURCES, d.get("source"))},
    "damage": lambda d: gettext(
        "You are hit by %(source)s: %(damage)d damage, %(health)d health left."
    ) % {"source": _word(SOURCES, d.get("source")), "damage": d.get("damage", 0),
         "health": d.get("health", 0)},
    "items_lost": lambda d: gettext("Your items fall back to the Arsenal: %(items)s.") % {
        "items": _words(ITEMS, d.get("items"))},
    "died": lambda d: gettext("You died (deaths: %(deaths)d).") % {"deaths": d.get("deaths", 0)},
    "respawned": lambda d: gettext("You come back to life at the Graveyard with %(health)d health.") % {
        "health": d.get("health", 0)},
    "defeat": lambda d: gettext("Defeat: %(deaths)d deaths of %(limit)d allowed.") % {
        "deaths": d.get("deaths", 0), "limit": d.get("death_limit", 0)},
    "victory": lambda d: gettext("Victory! You carried the Gold out of the labyrinth."),
    "waited": lambda d: gettext("You wait."),
}


def event_text(data: Data) -> str:
    """One roguelike event's sentence in the active language (an unknown kind: its stored text, if any)."""
    render = TEXTS.get(str(data.get("kind")))
    if render is not None:
        return render(data)
    text = data.get("text")
    return text if isinstance(text, str) else ""


def kinds() -> Sequence[str]:
    """Every kind this module speaks (the tests check the engine emits no other)."""
    return sorted(TEXTS)
