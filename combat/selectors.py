"""Reads of the combat app: the combat rules in force, the bestiary, seeded encounters for rooms,
a battle's view."""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q

from backend.models import balancing_cached
from combat import engine, store
from combat.engine import Combatant, CombatRules, encounters
from combat.engine.encounters import (  # noqa: F401 (the encounter rules' names, as this module gave them)
    EncounterRules,
    EnemyTemplate,
    NoEnemyForFloor,
    boss_escort_size,
    encounter_size,
)
from combat.models import Battle, CombatSettings, EnemyKind
from combat.store import EVENTS_PAGE, BattleRow
from combat.texts import names_of, spoken


def combat_rules_get() -> CombatRules:
    """The rules the server fights with: the admin-edited row (created with defaults if missing)."""
    return CombatSettings.load().to_rules()


def encounter_rules_get() -> EncounterRules:
    return EncounterRules.from_settings(CombatSettings.load())


def enemy_kinds_for_floor(floor: int, *, boss: bool | None = None) -> list[EnemyKind]:
    """Drawable kinds (weight > 0) whose floor range holds ``floor``, in slug order, effects prefetched.

    ``boss`` None returns both ordinary enemies and bosses; True or False only those.
    """
    kinds = EnemyKind.objects.filter(
        Q(min_floor__lte=floor) & (Q(max_floor__isnull=True) | Q(max_floor__gte=floor)), weight__gt=0
    )
    if boss is not None:
        kinds = kinds.filter(is_boss=boss)
    return list(kinds.prefetch_related("effects").order_by("slug"))


def enemy_combatant(
    kind: EnemyKind, *, combatant_id: str, name: str | None = None, hp: int | None = None
) -> Combatant:
    """An engine Combatant for one creature of ``kind`` at full health (``hp`` overrides its max HP)."""
    return kind.template().combatant(combatant_id=combatant_id, name=name, hp=hp)


def boss_hp(kind: EnemyKind, *, party_size: int, rules: EncounterRules) -> int:
    """A boss's max HP for a party (combat.engine.encounters.boss_hp of the kind's HP)."""
    return encounters.boss_hp(kind.hp, party_size=party_size, rules=rules)


def encounter_for_room(
    *, floor: int, is_boss: bool, party_size: int, rng: random.Random, slugs: dict[str, str] | None = None,
    rules: EncounterRules | None = None,
) -> list[Combatant]:
    """The enemies of an enemy or boss room on ``floor`` (0-based) for a party, drawn with ``rng``.

    Same bestiary, settings and seed give the same encounter. The floor's kinds with their effects are
    read in one statement (``store.enemy_kinds``), and an API request's process keeps them while the
    settings token is the one the request read (``bestiary_of_floor``): no statement then; the settings
    row is one more when the caller does not pass the ``rules`` it already read. Raises NoEnemyForFloor
    when the bestiary has a gap.
    """
    rules = rules or encounter_rules_get()
    ordinary, bosses = bestiary_of_floor(floor)
    return encounters.encounter_draw(ordinary=ordinary, bosses=bosses, floor=floor, is_boss=is_boss,
                                     party_size=party_size, rules=rules, rng=rng, slugs=slugs)


def bestiary_of_floor(floor: int) -> tuple[tuple[EnemyTemplate, ...], tuple[EnemyTemplate, ...]]:
    """The drawable kinds of ``floor`` as the engine draws them (ordinary, bosses; each in slug order), as
    ``enemy_kinds_for_floor(floor)`` reads them. Kept by the process under the settings token
    (``backend.models.balancing_cached``): every change of the bestiary replaces the token, so an edit in
    the admin reaches the next battle of every process."""
    def read() -> tuple[tuple[EnemyTemplate, ...], tuple[EnemyTemplate, ...]]:
        kinds = store.enemy_kinds(floor=floor)
        return (tuple(k.template() for k in kinds if not k.is_boss),
                tuple(k.template() for k in kinds if k.is_boss))
    return balancing_cached(("bestiary", floor), read)


def battle_events_since(*, battle: BattleRow | Battle, since: int,
                        limit: int = EVENTS_PAGE) -> list[dict[str, Any]]:
    """Events numbered after ``since``, oldest first, each with its ``seq`` (none read if there are none)."""
    if since >= battle.event_count:
        return []
    return store.events_since(battle_id=battle.id, since=since, limit=limit)


def battle_allowed_actions(*, battle: BattleRow | Battle, player_id: int) -> list[dict[str, Any]]:
    """The actions the player may take now (empty unless it is their turn)."""
    if battle.awaiting_id != player_id:
        return []
    state = engine.BattleState.from_dict(battle.state)
    return [{k: v for k, v in a.to_dict().items() if k != "actor"} for a in engine.allowed_actions(state)]


@dataclass(frozen=True)
class PotionView:
    id: str
    kind: str


@dataclass(frozen=True)
class CombatantView:
    id: str
    kind: str
    name: str
    hp: int
    max_hp: int
    is_boss: bool
    fled: bool
    weapons: list[str]
    active_weapon: int
    potions: list[PotionView]
    effects: list[dict[str, Any]]


@dataclass(frozen=True)
class BattleView:
    """What a player sees of a battle; ``combat.serializers.BattleOutput`` declares it."""

    id: int
    run: int
    floor: int
    room: int
    outcome: str
    round: int
    turn: int
    order: list[str]
    awaiting: int | None
    deadline: datetime | None
    combatants: list[CombatantView]
    allowed_actions: list[dict[str, Any]]
    events: list[dict[str, Any]]
    last_event: int


def battle_view(battle: BattleRow | Battle, *, player_id: int, since: int,
                events: list[dict[str, Any]] | None = None) -> BattleView:
    """What the player sees of a battle: its state, whose turn and until when, their actions, events since.

    Reads the stored state's JSON as it is (no engine state is built unless it is the player's turn). Each
    event gets its ``text`` in the active language (combat/texts.py), its combatants named from the state.
    ``events``: the events after ``since`` if the caller read them with the battle (one statement fewer).
    """
    state = battle.state
    deadline = None
    if battle.turn_started_at is not None and battle.awaiting_id is not None:
        seconds = CombatSettings.cached().turn_deadline_seconds
        deadline = battle.turn_started_at + timedelta(seconds=seconds)
    combatants = [
        CombatantView(id=c["id"], kind=c["kind"], name=c["name"], hp=c["hp"], max_hp=c["max_hp"],
                      is_boss=c["is_boss"], fled=c["fled"], weapons=[w["name"] for w in c["weapons"]],
                      active_weapon=c["active_weapon"],
                      potions=[PotionView(p["id"], p["kind"]) for p in c["potions"]], effects=c["effects"])
        for c in state["combatants"]
    ]
    return BattleView(
        id=battle.id, run=battle.run_id, floor=battle.floor, room=battle.room,
        outcome=battle.outcome, round=state["round"], turn=battle.step, order=state["order"],
        awaiting=battle.awaiting_id, deadline=deadline, combatants=combatants,
        allowed_actions=battle_allowed_actions(battle=battle, player_id=player_id),
        events=spoken(battle_events_since(battle=battle, since=since) if events is None else events,
                      names_of(state)),
        last_event=battle.event_count,
    )
