"""The paper labyrinth's events in words (SPEC 14 "Events speak"): the game master speaks English and Russian.

The engine (``paper_labyrinth/engine/rules.py``) answers each request with messages: a ``code`` and its public
``data``; it still writes the seed's Russian phrase beside them (its tests and the bot read it), but the
match stores only code and data (``mode._event_data``). This module renders an event when the log or a view
is read, in the request's language: English here (gettext message ids), Russian from the app's catalogue
(``paper_labyrinth/locale/ru/LC_MESSAGES/django.po``), which holds the seed's own phrases, so a Russian read
says word for word what the engine says (``tests/paper_labyrinth/test_event_texts.py`` checks it on played
games). Events stored before this read on: their stored Russian ``text`` is used only where an old event
lacks the data a sentence needs.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy

Data = Mapping[str, Any]

ARRIVALS: dict[str, Promise] = {
    "land": pgettext_lazy("paper arrival", "Came to Land"),
    "hospital": pgettext_lazy("paper arrival", "Came to the Hospital"),
    "arsenal": pgettext_lazy("paper arrival", "Came to the Arsenal"),
    "hole": pgettext_lazy("paper arrival", "Fell into a Hole"),
    "river": pgettext_lazy("paper arrival", "Fell into the River"),
    "mouth": pgettext_lazy("paper arrival", "Came to the Mouth"),
    "encephalitis": pgettext_lazy("paper arrival", "Came to Encephalitis"),
}
HEALTH: dict[str, Promise] = {
    "healthy": pgettext_lazy("paper health", "healthy"), "wounded": pgettext_lazy("paper health", "wounded"),
    "sick": pgettext_lazy("paper health", "sick with encephalitis"),
    "dead": pgettext_lazy("paper health", "dead"),
}
SLOT: dict[str, Promise] = {
    "treasure": pgettext_lazy("paper slot", "treasure"), "mine": pgettext_lazy("paper slot", "mine"),
    "corpse": pgettext_lazy("paper slot", "corpse"),
}
#: what a player finds on arriving, in the order the game master lists it
FOUND: dict[str, Promise] = {
    "treasures": pgettext_lazy("paper found", "treasure"), "bullets": pgettext_lazy("paper found", "bullets"),
    "grenades": pgettext_lazy("paper found", "grenades"), "mines": pgettext_lazy("paper found", "mines"),
    "corpses": pgettext_lazy("paper found", "corpses"),
}
ITEM: dict[str, Promise] = {
    "bullet": pgettext_lazy("paper item", "bullet"), "grenade": pgettext_lazy("paper item", "grenade"),
    "mine": pgettext_lazy("paper item", "mine"), "treasure": pgettext_lazy("paper item", "treasure"),
    "corpse": pgettext_lazy("paper item", "corpse"),
}
ITEM_TAKEN: dict[str, Promise] = {
    "bullet": pgettext_lazy("paper item taken", "a bullet"),
    "grenade": pgettext_lazy("paper item taken", "a grenade"),
    "mine": pgettext_lazy("paper item taken", "a mine"),
    "treasure": pgettext_lazy("paper item taken", "a treasure"),
    "corpse": pgettext_lazy("paper item taken", "a corpse"),
}
NOTHING_DOING: dict[str, Promise] = {
    "hurt_cannot_shoot": pgettext_lazy("paper nothing", "a wounded or sick player cannot shoot"),
    "no_bullets": pgettext_lazy("paper nothing", "no bullets"),
    "no_grenades": pgettext_lazy("paper nothing", "no grenades"),
    "hurt_cannot_throw": pgettext_lazy("paper nothing", "a wounded or sick player cannot throw this"),
    "hurt_cannot_arm": pgettext_lazy("paper nothing", "a wounded or sick player cannot arm a mine"),
    "no_mine": pgettext_lazy("paper nothing", "no mine"),
    "outside": pgettext_lazy("paper nothing", "you are outside the labyrinth"),
}
#: the ``reason`` of answers stored before they carried their ``problem`` code (the seed's words)
OLD_REASONS = {
    "раненый или больной не может стрелять": "hurt_cannot_shoot", "пуль нет": "no_bullets",
    "гранат нет": "no_grenades", "раненый или больной не может бросать это": "hurt_cannot_throw",
    "раненый или больной не может взводить мину": "hurt_cannot_arm", "мины нет": "no_mine",
    "ты вне лабиринта": "outside",
}
OLD_NOT_CARRIED = {"у тебя нет: " + word: item for item, word in (
    ("bullet", "пуля"), ("grenade", "граната"), ("mine", "мина"), ("treasure", "клад"), ("corpse", "труп"))}


class Unspeakable(Exception):
    """An old stored event lacks the data its sentence needs (its stored text is read instead)."""


def _word(words: Mapping[str, Promise], value: Any) -> str:
    if str(value) not in words:
        raise Unspeakable(value)
    return str(words[str(value)])


def _int(data: Data, key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise Unspeakable(key)
    return value


def _number(event: Data, key: str | None = None) -> int:
    """A player's number ("Игрок N": the place in the turn order); ``key``: a seat named in the data."""
    if key is None:
        return _int(event, "number")
    numbers = event.get("data", {}).get("numbers", {})
    if not isinstance(numbers, dict):
        raise Unspeakable(key)
    return _int(numbers, key)


def _numbers(event: Data, key: str) -> list[int]:
    numbers = event.get("data", {}).get("numbers", {})
    listed = numbers.get(key) if isinstance(numbers, dict) else None
    if not isinstance(listed, list):
        raise Unspeakable(key)
    return [int(n) for n in listed]


def _river(mouth: str, river: str, data: Data) -> str:
    return mouth if data.get("cell") == "mouth" else river


def _status(e: Data, d: Data) -> str:
    text = gettext("Player %(number)d: %(health)s, bullets: %(bullets)d, grenades: %(grenades)d") % {
        "number": _number(e), "health": _word(HEALTH, d.get("health")), "bullets": _int(d, "bullets"),
        "grenades": _int(d, "grenades")}
    if d.get("slot") is not None:
        text += ", " + _word(SLOT, d.get("slot"))
    if d.get("cure_left") is not None:
        text += gettext(", turns left to cure: %(turns)d") % {"turns": _int(d, "cure_left")}
    return text


def _died(e: Data, d: Data) -> str:
    cause = d.get("cause")
    if cause == "encephalitis":
        return gettext("You caught encephalitis and died (wounded)")
    if cause == "cure_time":
        return gettext("The time to cure ran out: the player died")
    raise Unspeakable("cause")


def _infected(e: Data, d: Data) -> str:
    if d.get("cure_left") is None:
        return gettext("You caught encephalitis")
    return gettext("You caught encephalitis, you have %(turns)d turns to cure it") % {
        "turns": _int(d, "cure_left")}


def _found(e: Data, d: Data) -> str:
    things = ", ".join(f"{_word(FOUND, key)}: {d[key]}" for key in FOUND if d.get(key))
    return gettext("Found %(things)s") % {"things": things}


def _wall(e: Data, d: Data) -> str:
    if "drift" not in d:  # a half-dark turn's answer: only whether the movement met a wall
        return gettext("Not possible, a wall")
    if not d["drift"]:
        return gettext("No way there, a wall")
    return _river(gettext("No way there, a wall, the current carried you, came to the Mouth"),
                  gettext("No way there, a wall, the current carried you, fell into the River"), d)


def _nothing(e: Data, d: Data) -> str:
    problem, item = d.get("problem"), d.get("item")
    if problem is None:  # stored before the code: the seed's words
        reason = str(d.get("reason"))
        problem = OLD_REASONS.get(reason)
        item = OLD_NOT_CARRIED.get(reason)
        problem = "not_carried" if item is not None else problem
    if problem == "not_carried":
        why = gettext("you have no %(item)s") % {"item": _word(ITEM, item)}
    else:
        why = _word(NOTHING_DOING, problem)
    return gettext("Nothing doing: %(why)s") % {"why": why}


def _shot(e: Data, d: Data) -> str:
    if "scream" in d:  # classic: a scream or none, what fell at the feet, the bullets left
        text = gettext("A scream is heard") if d["scream"] else gettext("No scream")
        fell = d.get("fell") or {}
        if fell:
            things = ", ".join(f"{k} {v}" for k, v in fell.items())
            text += gettext("; fell at your feet: %(things)s") % {"things": things}
        text += gettext("; you have %(bullets)d bullets") % {"bullets": _int(d, "bullets")}
        if d.get("underfoot"):
            text += gettext(" and %(underfoot)d more at your feet") % {"underfoot": _int(d, "underfoot")}
        return text
    hits = [gettext("player %(number)d wounded") % {"number": n} for n in _numbers(e, "wounded")]
    hits += [gettext("player %(number)d killed") % {"number": n} for n in _numbers(e, "killed")]
    text = gettext("Shot: %(hits)s") % {"hits": ", ".join(hits)} if hits else gettext("Shot: nobody was hit")
    return text + gettext("; you have %(bullets)d bullets") % {"bullets": _int(d, "bullets")}


def _grenade(e: Data, d: Data) -> str:
    left = {"grenades": _int(d, "grenades")}
    result = d.get("result")
    if result == "exploded":
        return gettext("The wall blew up; grenades left: %(grenades)d") % left
    if result == "not_exploded":
        return gettext("The wall did not blow up; grenades left: %(grenades)d") % left
    if result == "no_wall":
        return gettext("There was no wall; grenades left: %(grenades)d") % left
    return gettext("Blew up a grenade; grenades left: %(grenades)d") % left


def _condition(e: Data, d: Data) -> str:
    met = {"condition": d.get("condition")}
    return (gettext("Condition «%(condition)s»: yes") if d.get("met")
            else gettext("Condition «%(condition)s»: no")) % met


def _wounded(e: Data, d: Data) -> str:
    if d.get("reorder"):
        return gettext("Player %(number)d is wounded. A new cell may be requested") % {"number": _number(e)}
    return gettext("Player %(number)d is wounded") % {"number": _number(e)}


#: the game master's answers, by ``code``: (the event, its ``data``) -> the sentence
GM: dict[str, Callable[[Data, Data], str]] = {
    "start": lambda e, d: gettext("Player %(number)d: %(arrival)s") % {
        "number": _number(e), "arrival": _word(ARRIVALS, d.get("cell"))},
    "status": _status,
    "died": _died,
    "infected": _infected,
    "found": _found,
    "refilled": lambda e, d: gettext("You have %(bullets)d bullets, %(grenades)d grenades") % {
        "bullets": _int(d, "bullets"), "grenades": _int(d, "grenades")},
    "mine": lambda e, d: gettext("Blown up by a mine"),
    "healed": lambda e, d: gettext("Cured"),
    "cremated": lambda e, d: gettext("The corpse is cremated"),
    "tick": lambda e, d: gettext("Woke the Tick"),
    "no_hole": lambda e, d: gettext("Not possible: you are not in a Hole"),
    "cycle": lambda e, d: gettext("A move along the cycle, fell into a Hole"),
    "no_river": lambda e, d: gettext(
        "Not possible: you are not in the River (no current flows from the Mouth)"),
    "wall": _wall,
    "no_wall": lambda e, d: gettext("No wall"),
    "shallow": lambda e, d: _river(gettext("Along the river to the mouth"), gettext("Along the river"), d),
    "downstream": lambda e, d: _river(gettext("Swam with the current, came to the Mouth"),
                                      gettext("Swam with the current, fell into the River"), d),
    "drifted": lambda e, d: _river(gettext("Fell into the River, carried into the Mouth"),
                                   gettext("Fell into the River, carried downstream"), d),
    "inflow": lambda e, d: gettext("Not possible, a river flows in"),
    "moved": lambda e, d: _word(ARRIVALS, d.get("cell")),
    "won": lambda e, d: gettext(
        "Player %(number)d carried the true treasure out of the labyrinth and won!") % {"number": _number(e)},
    "crumbled": lambda e, d: gettext(
        "Left the labyrinth, the treasure crumbled to dust. Come back into the labyrinth next turn"),
    "exited": lambda e, d: gettext("Left the labyrinth. Come back into the labyrinth next turn"),
    "reentered": lambda e, d: gettext("Came back into the labyrinth"),
    "eliminated": lambda e, d: gettext(
        "Player %(number)d did not come back into the labyrinth and is out of the game") % {
        "number": _number(e)},
    "nothing_doing": _nothing,
    "forbidden_here": lambda e, d: gettext("You cannot shoot from here"),
    "shot": _shot,
    "no_bullets": lambda e, d: gettext("No bullets: turn skipped"),
    "grenade": _grenade,
    "at_feet": lambda e, d: gettext("A %(item)s appeared at your feet") % {
        "item": _word(ITEM, d.get("item"))},
    "left": lambda e, d: gettext("Left %(item)s") % {"item": _word(ITEM_TAKEN, d.get("item"))},
    "thrown": lambda e, d: gettext("Threw %(item)s") % {"item": _word(ITEM_TAKEN, d.get("item"))},
    "draw_treasure_out": lambda e, d: gettext("The true treasure was thrown out of the labyrinth: a draw!"),
    "blast": lambda e, d: gettext("An explosion was heard"),
    "mine_placed": lambda e, d: gettext("The mine is set"),
    "skipped": lambda e, d: gettext("Skipped the turn"),
    "condition": _condition,
    "reordered": lambda e, d: gettext("The new cell is accepted"),
    "dark": lambda e, d: gettext("Done: a dark move, the result is not told"),
    "draw_all_dead": lambda e, d: gettext("Everybody died: a draw"),
    "last_survivor": lambda e, d: gettext("Player %(number)d is the only one left and won") % {
        "number": _number(e)},
    "draw_survivor_time": lambda e, d: gettext(
        "The last player did not carry the treasure out in time: a draw"),
    "draw_treasure_source": lambda e, d: gettext("The true treasure cannot be reached: a draw"),
    "draw_all_skip": lambda e, d: gettext("Every player skipped the turn: a draw"),
    "draw_nstop": lambda e, d: gettext("%(rounds)d rounds without a change: a draw") % {
        "rounds": _int(d, "nstop")},
    "killed": lambda e, d: gettext("Player %(number)d is killed") % {"number": _number(e)},
    "wounded": _wounded,
    "timeout": lambda e, d: gettext("Player %(number)d did not name a move within a minute and lost") % {
        "number": _number(e)},
    "repeat": lambda e, d: gettext("Player %(number)d's last turn:") % {"number": _number(e, "of")},
}


def _timer(e: Data) -> str:
    if e.get("by_number") is None:
        return gettext("The game master started the timer: Player %(number)d has a minute to move.") % {
            "number": _number(e)}
    return gettext("Player %(by)d called the timer: Player %(number)d has a minute to move.") % {
        "by": _int(e, "by_number"), "number": _number(e)}


#: the mode's own events (the starts, a request heard, the clock), by ``kind``
EVENTS: dict[str, Callable[[Data], str]] = {
    "start_chosen": lambda e: gettext("Player %(number)d has chosen a start cell.") % {"number": _number(e)},
    "game_started": lambda e: gettext("Everybody has chosen a cell: the game begins."),
    "request": lambda e: gettext("Player %(number)d makes a move.") % {"number": _number(e)},
    "timer_started": _timer,
    "pause_taken": lambda e: gettext("Player %(number)d took a 5-minute pause to think over the move.") % {
        "number": _number(e)},
    "pause_over": lambda e: gettext("Player %(number)d's pause is over: a minute to move.") % {
        "number": _number(e)},
}


def event_text(event: Data) -> str:
    """One paper event's sentence (an event of the log, or an answer in a view) in the active language."""
    try:
        if event.get("kind") == "gm":
            data = event.get("data")
            render = GM.get(str(event.get("code")))
            if render is not None and isinstance(data, Mapping):
                return render(event, data)
        else:
            speak = EVENTS.get(str(event.get("kind")))
            if speak is not None:
                return speak(event)
    except Unspeakable:
        pass
    text = event.get("text")  # an old event without the data its sentence needs: what it stored
    return text if isinstance(text, str) else ""


def spoken(event: Data) -> dict[str, Any]:
    """The event with its ``text`` in the active language."""
    return {**event, "text": event_text(event)}
