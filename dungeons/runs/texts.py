"""The run log's entries in words (SPEC 14 "Events speak"): one sentence per entry, in the active language.

The run's rules log typed entries (``dungeons/runs/engine/log.py``, pure: kind and fields, stored as JSON);
``GET runs/{id}/`` shows them as its ``events`` and this module says each one when it is read: English here
(gettext message ids), Russian from the app's catalogue (``dungeons/locale/ru/LC_MESSAGES/django.po``, in
seed 004's words: поход, комната, сокровищница, Харон). A stored entry is read back as its type
(``entry_from_json``: two shapes may share a kind) and rendered by that type's function; a run kind
built on dungeons registers its own types' functions (``register_text``, as darkness/texts.py does).
Players are named by the caller's ``names`` (player id -> username, from the members already read: no
query). An entry no type describes shows as the admin shows it (its kind and fields).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import pgettext_lazy as _pl

from dungeons.runs.engine.log import (
    BattleBegun,
    BattleOver,
    Completed,
    Died,
    Entered,
    Formation,
    LogEntry,
    MemberEscaped,
    Names,
    NpcDied,
    NpcJoined,
    PotionHealed,
    Rested,
    RunEscaped,
    RunFailed,
    Sealed,
    SealOpened,
    Started,
    StatPotionDrunk,
    StoryItems,
    Trap,
    Treasure,
    describe_json,
    entry_from_json,
)

E = TypeVar("E", bound=LogEntry)
Render = Callable[[Any, Names], str]

#: entry type -> its sentence (a run kind adds its own with ``register_text``)
TEXTS: dict[type[LogEntry], Render] = {}


def register_text(cls: type[E], render: Callable[[E, Names], str]) -> None:
    TEXTS[cls] = render


ROOM_KINDS: dict[str, Promise] = {
    "enemy": _pl("room", "a room with enemies"), "trap": _pl("room", "a room with a trap"),
    "treasure": _pl("room", "a treasure room"), "story": _pl("room", "a story room"),
    "rest": _pl("room", "a rest room"), "boss": _pl("room", "the boss's room"),
    "empty": _pl("room", "an empty room"),
}
BATTLE_OUTCOMES: dict[str, Promise] = {
    "victory": _pl("run battle", "victory"), "defeat": _pl("run battle", "defeat"),
    "escaped": _pl("run battle", "the party fled"), "draw": _pl("run battle", "a draw"),
}
STATS: dict[str, Promise] = {
    "strength": _pl("stat", "strength"), "stamina": _pl("stat", "stamina"),
    "metabolism": _pl("stat", "metabolism"), "luck": _pl("stat", "luck"),
    "attentiveness": _pl("stat", "attentiveness"),
}


def word(words: Mapping[str, Promise], value: Any) -> str:
    found = words.get(str(value))
    return str(value) if found is None else str(found)


def players_text(value: Any, names: Names) -> str:
    """A player id (or a list of them) as names; an id no member has as "player N" in the active language."""
    if isinstance(value, list):
        return ", ".join(players_text(v, names) for v in value) if value else pgettext("run", "nobody")
    return names.get(str(value)) or gettext("player %(id)s") % {"id": value}


def hp_list(hits: Any, names: Names) -> str:
    """``{player: hit}`` (a trap's hits) or ``{player: hp}`` (a rest's) as one clause."""
    if not isinstance(hits, dict):
        return str(hits)
    parts = []
    for pid, hit in hits.items():
        if isinstance(hit, dict):
            part = gettext("%(player)s -%(damage)s HP (now %(hp)s)") % {
                "player": players_text(pid, names), "damage": hit.get("damage", 0), "hp": hit.get("hp", "?")}
            if hit.get("effect"):
                part += f", {hit['effect']}"
        else:
            part = gettext("%(player)s %(hp)s HP") % {"player": players_text(pid, names), "hp": hit}
        parts.append(part)
    return "; ".join(parts)


def _items(count: int) -> str:
    return ngettext("%(count)d item", "%(count)d items", count) % {"count": count}


def _coins(count: int) -> str:
    return ngettext("%(count)d coin each", "%(count)d coins each", count) % {"count": count}


def _completed(e: Completed, names: Names) -> str:
    if e.rescued:
        return gettext("The run is completed by %(party)s; the %(npc)s is rescued.") % {
            "party": players_text(e.party, names), "npc": e.rescued}
    return gettext("The run is completed by %(party)s.") % {"party": players_text(e.party, names)}


for _cls, _render in {
    Started: lambda e, n: gettext("The run starts: %(party)s (R = %(rank)s, C = %(completed)s).") % {
        "party": players_text(e.party, n), "rank": f"{e.rank:g}", "completed": f"{e.completed:g}"},
    Entered: lambda e, n: gettext("The party enters %(room)s.") % {"room": word(ROOM_KINDS, e.room_kind)},
    BattleBegun: lambda e, n: gettext("Battle #%(battle)d against %(enemies)s.") % {
        "battle": e.battle, "enemies": ", ".join(map(str, e.enemies))},
    BattleOver: lambda e, n: gettext("Battle #%(battle)d is over: %(outcome)s.") % {
        "battle": e.battle, "outcome": word(BATTLE_OUTCOMES, e.outcome)},
    Trap: lambda e, n: gettext("A trap springs: %(hits)s.") % {"hits": hp_list(e.hits, n)},
    Treasure: lambda e, n: gettext("Treasure: %(items)s, %(coins)s.") % {
        "items": _items(len(e.items)), "coins": _coins(e.coins_each)},
    StoryItems: lambda e, n: gettext("Story items (%(story_item)s): %(items)s.") % {
        "story_item": e.story_item, "items": _items(len(e.items))},
    Sealed: lambda e, n: gettext(
        "A sealed story room stays shut: nobody carries %(seal)s found in this run.") % {"seal": e.seal},
    SealOpened: lambda e, n: gettext("The %(seal)s open a sealed story room: %(items)s, %(coins)s.") % {
        "seal": e.seal, "items": _items(len(e.items)), "coins": _coins(e.coins_each)},
    NpcJoined: lambda e, n: gettext("The %(npc)s joins the party.") % {"npc": e.npc},
    NpcDied: lambda e, n: gettext("The %(npc)s dies.") % {"npc": e.npc},
    Rested: lambda e, n: gettext("The party rests: %(hp)s.") % {"hp": hp_list(e.hp, n)},
    Formation: lambda e, n: gettext("New formation: %(players)s.") % {"players": players_text(e.players, n)},
    PotionHealed: lambda e, n: gettext(
        "%(player)s drinks a healing potion: +%(healed)d HP (%(hp)d/%(max_hp)d).") % {
        "player": players_text(e.player, n), "healed": e.healed, "hp": e.hp, "max_hp": e.max_hp},
    StatPotionDrunk: lambda e, n: gettext(
        "%(player)s drinks a stat potion: %(stat)s +%(amount)d for the run.") % {
        "player": players_text(e.player, n), "stat": word(STATS, e.stat), "amount": e.amount},
    Died: lambda e, n: gettext(
        "%(player)s dies; Charon takes %(fee)d coins, %(items)s of this run lost.") % {
        "player": players_text(e.player, n), "fee": e.charon_fee, "items": _items(e.items_lost)},
    MemberEscaped: lambda e, n: gettext("%(player)s escapes, losing %(items)s (%(loss)d%% loss).") % {
        "player": players_text(e.player, n), "items": _items(e.items_lost), "loss": e.loss_percent},
    RunEscaped: lambda e, n: gettext("The run ends: everyone left alive escaped."),
    RunFailed: lambda e, n: gettext("The run ends: the whole party fell."),
    Completed: _completed,
}.items():
    register_text(_cls, _render)


def entry_text(data: Mapping[str, Any], names: Names) -> str:
    """One stored entry's sentence in the active language."""
    entry = entry_from_json(data)
    render = None if entry is None else TEXTS.get(type(entry))
    if render is not None:
        try:
            return render(entry, names)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass
    return describe_json(data, names)


def spoken(entries: Iterable[Mapping[str, Any]], names: Names) -> list[dict[str, Any]]:
    """The entries as the API shows them: each one's stored JSON and its ``text`` in the active language."""
    return [{**entry, "text": entry_text(entry, names)} for entry in entries]
