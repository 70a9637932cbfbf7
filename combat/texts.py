"""A battle's events in words (SPEC 14 "Events speak"): one sentence per event, in the active language.

The engine (``combat/engine/events.py``) gives each event as its ``kind`` and fields, and the battle log
stores them so; this module renders them when a battle or an action's answer is read (``spoken``): English
here (gettext message ids), Russian from the app's catalogue (``combat/locale/ru/LC_MESSAGES/django.po``,
in seed 004's words: проворность, оглушение, проклятие, ...). Combatants are named by their names in the
battle's state (the caller passes them: no query), an unknown id by itself. A read renders each event with
a few gettext calls and no serializer, so a page of 500 events stays cheap (docs/runs.md, the cost notes).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import pgettext_lazy as _pl

Data = Mapping[str, Any]
Names = Mapping[str, str]

#: seed 004's effects (combat/engine/effects.py)
EFFECTS: dict[str, Promise] = {
    "haste": _pl("effect", "haste"), "stun": _pl("effect", "stun"), "camouflage": _pl("effect", "camouflage"),
    "provocation": _pl("effect", "provocation"), "curse": _pl("effect", "curse"),
    "blessing": _pl("effect", "blessing"), "weakness": _pl("effect", "weakness"),
    "vigor": _pl("effect", "vigor"),
    "fragility": _pl("effect", "fragility"), "resilience": _pl("effect", "resilience"),
    "distraction": _pl("effect", "distraction"), "concentration": _pl("effect", "concentration"),
    "fear": _pl("effect", "fear"), "fearlessness": _pl("effect", "fearlessness"),
    "regeneration": _pl("effect", "regeneration"), "bleeding": _pl("effect", "bleeding"),
    "burning": _pl("effect", "burning"), "frostbite": _pl("effect", "frostbite"),
}
STATS: dict[str, Promise] = {
    "strength": _pl("stat", "strength"), "stamina": _pl("stat", "stamina"),
    "metabolism": _pl("stat", "metabolism"), "luck": _pl("stat", "luck"),
    "attentiveness": _pl("stat", "attentiveness"),
}
POTIONS: dict[str, Promise] = {
    "healing": _pl("potion", "a healing potion"), "effect": _pl("potion", "an effect potion"),
    "stat": _pl("potion", "a stat potion"),
}
OUTCOMES: dict[str, Promise] = {
    "victory": _pl("battle outcome", "victory: every enemy is dead"),
    "defeat": _pl("battle outcome", "defeat: the whole party fell"),
    "escaped": _pl("battle outcome", "the party fled"),
    "draw": _pl("battle outcome", "a draw: the rounds ran out"),
}


def _word(words: Mapping[str, Promise], value: Any) -> str:
    found = words.get(str(value))
    return str(value) if found is None else str(found)


def _turns(data: Data) -> str:
    if data.get("permanent"):
        return pgettext("effect duration", "for good")
    turns = data.get("turns")
    if not isinstance(turns, int):
        return pgettext("effect duration", "for the battle")
    return ngettext("for %(turns)d turn", "for %(turns)d turns", turns) % {"turns": turns}


def _skipped(data: Data, names: Names) -> str:
    actor, reason = _name(names, data.get("actor")), data.get("reason")
    if reason == "stunned":
        return gettext("%(actor)s is stunned and loses the turn.") % {"actor": actor}
    if reason == "timeout":
        return gettext("%(actor)s's time ran out: the turn is skipped.") % {"actor": actor}
    return gettext("%(actor)s skips the turn.") % {"actor": actor}


def _damage(data: Data, names: Names) -> str:
    values = _amount(data, names)
    source = data.get("source")
    if source == "attack":
        return gettext("%(target)s takes %(amount)d damage (%(hp)d HP left).") % values
    return gettext("%(target)s takes %(amount)d damage from %(source)s (%(hp)d HP left).") % {
        **values, "source": _word(EFFECTS, source)}


def _healed(data: Data, names: Names) -> str:
    values = _amount(data, names)
    if data.get("source") == "potion":
        return gettext("%(target)s drinks and heals %(amount)d HP (%(hp)d HP now).") % values
    return gettext("%(target)s heals %(amount)d HP by %(source)s (%(hp)d HP now).") % {
        **values, "source": _word(EFFECTS, data.get("source"))}


def _amount(data: Data, names: Names) -> dict[str, Any]:
    return {"target": _name(names, data.get("target")), "amount": data.get("amount", 0),
            "hp": data.get("hp", 0)}


def _effect(data: Data, names: Names) -> dict[str, Any]:
    return {"target": _name(names, data.get("target")), "effect": _word(EFFECTS, data.get("effect"))}


def _name(names: Names, combatant: Any) -> str:
    return names.get(str(combatant), str(combatant))


TEXTS: dict[str, Callable[[Data, Names], str]] = {
    "battle_started": lambda d, n: gettext("The battle begins; the turn order: %(order)s.") % {
        "order": ", ".join(_name(n, c) for c in d.get("order", ()))},
    "round_started": lambda d, n: gettext("Round %(round)d begins.") % {"round": d.get("round", 0)},
    "turn_started": lambda d, n: gettext("%(actor)s's turn.") % {"actor": _name(n, d.get("actor"))},
    "extra_turn": lambda d, n: gettext("Haste: %(actor)s acts again.") % {"actor": _name(n, d.get("actor"))},
    "turn_skipped": _skipped,
    "turn_ended": lambda d, n: gettext("%(actor)s's turn ends.") % {"actor": _name(n, d.get("actor"))},
    "attack": lambda d, n: gettext("%(actor)s attacks %(target)s with %(weapon)s.") % {
        "actor": _name(n, d.get("actor")), "target": _name(n, d.get("target")), "weapon": d.get("weapon")},
    "miss": lambda d, n: gettext("%(actor)s misses %(target)s.") % {
        "actor": _name(n, d.get("actor")), "target": _name(n, d.get("target"))},
    "critical": lambda d, n: gettext("A critical hit by %(actor)s on %(target)s!") % {
        "actor": _name(n, d.get("actor")), "target": _name(n, d.get("target"))},
    "damage": _damage,
    "healed": _healed,
    "curse_struck": lambda d, n: gettext("The curse strikes: the blow kills %(target)s outright!") % {
        "target": _name(n, d.get("target"))},
    "potion_drunk": lambda d, n: gettext("%(actor)s drinks %(potion)s.") % {
        "actor": _name(n, d.get("actor")), "potion": _word(POTIONS, d.get("potion_kind"))},
    "stat_raised": lambda d, n: gettext(
        "%(actor)s's %(stat)s rises by %(amount)d to %(value)d for the rest of the run.") % {
        "actor": _name(n, d.get("actor")), "stat": _word(STATS, d.get("stat")), "amount": d.get("amount", 0),
        "value": d.get("value", 0)},
    "weapon_switched": lambda d, n: gettext("%(actor)s switches to %(weapon)s.") % {
        "actor": _name(n, d.get("actor")), "weapon": d.get("weapon")},
    "effect_applied": lambda d, n: gettext("%(target)s is under %(effect)s %(turns)s.") % {
        **_effect(d, n), "turns": _turns(d)},
    "effect_extended": lambda d, n: gettext("%(target)s stays under %(effect)s longer: %(turns)s.") % {
        **_effect(d, n), "turns": _turns(d)},
    "effect_cancelled": lambda d, n: gettext("On %(target)s, %(effect)s and %(opposite)s cancel out.") % {
        **_effect(d, n), "opposite": _word(EFFECTS, d.get("opposite"))},
    "effect_replaced": lambda d, n: gettext("On %(target)s, %(effect)s replaces %(replaced)s.") % {
        **_effect(d, n), "replaced": _word(EFFECTS, d.get("replaced"))},
    "effect_blocked": lambda d, n: gettext("%(target)s is kept from %(effect)s by %(by)s.") % {
        **_effect(d, n), "by": _word(EFFECTS, d.get("by"))},
    "effect_expired": lambda d, n: gettext("%(target)s is no longer under %(effect)s.") % _effect(d, n),
    "death": lambda d, n: gettext("%(target)s dies.") % {"target": _name(n, d.get("target"))},
    "fled": lambda d, n: gettext("%(actor)s flees the battle.") % {"actor": _name(n, d.get("actor"))},
    "battle_over": lambda d, n: gettext("The battle is over: %(outcome)s.") % {
        "outcome": _word(OUTCOMES, d.get("outcome"))},
}


def names_of(state: Mapping[str, Any]) -> dict[str, str]:
    """Combatant id -> name, from a battle's stored state."""
    return {c["id"]: c["name"] for c in state.get("combatants", ())}


def event_text(data: Data, names: Names) -> str:
    """One battle event's sentence in the active language (an unknown kind: its kind)."""
    render = TEXTS.get(str(data.get("kind")))
    return render(data, names) if render is not None else str(data.get("kind", ""))


def spoken(events: Iterable[Data], names: Names) -> list[dict[str, Any]]:
    """The events as the API shows them: each one's stored JSON and its ``text`` in the active language."""
    return [{**event, "text": event_text(event, names)} for event in events]
