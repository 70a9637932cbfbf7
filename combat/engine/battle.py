"""Driving a battle: start it, act for the awaiting player, resolve enemy turns, replay it."""
from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace

from combat.engine import actions as A
from combat.engine import events as E
from combat.engine.ai import choose_target, valid_targets
from combat.engine.damage import round_half_up, roll_attack
from combat.engine.effects import ApplyOutcome, apply_effect, magnitude_of, tick_effects
from combat.engine.rules import CombatRules
from combat.engine.state import (
    ENGINE_VERSION,
    SUPPORTED_VERSIONS,
    BattleSetup,
    BattleState,
    Combatant,
    EffectSpec,
    Kind,
    Outcome,
    PotionKind,
)
from combat.engine.turn_order import turn_order

# Damage-over-time effects, resolved in this fixed order at the end of the carrier's turn.
DOT_EFFECTS: tuple[str, ...] = ("bleeding", "burning", "frostbite")


def haste_is_extra_turn(version: int) -> bool:
    """Version 2 on: haste gives its carrier a whole extra turn (effects tick for it); before, a
    second action inside the same turn."""
    return version >= 2


def one_flight_per_battle(version: int) -> bool:
    """Version 2 on: once a player has fled, nobody else may flee the same battle."""
    return version >= 2


def flight_taken(state: BattleState) -> bool:
    """Whether the battle's one flight is used (always False under the version 1 rules)."""
    return one_flight_per_battle(state.version) and any(c.fled for c in state.players)


def rng_for(seed: int, step: int) -> random.Random:
    """The random stream of one engine call: derived from the battle seed and the call number.

    A string seed is hashed with SHA-512 by random.Random, so the stream is the same in every
    process; the server never needs to store a generator state, only seed and step.
    """
    return random.Random(f"deepdelve-combat/{seed}/{step}")


class _Work:
    """A mutable scratch copy of the state for the length of one engine call."""

    def __init__(self, state: BattleState) -> None:
        self.state = state
        self.rules: CombatRules = state.rules
        self.combatants: dict[str, Combatant] = {c.id: c for c in state.combatants}
        self.round = state.round
        self.turn_index = state.turn_index
        self.turn_open = state.turn_open
        self.extra_actions_used = state.extra_actions_used
        self.outcome = state.outcome
        self.events: list[E.Event] = []

    def freeze(self) -> BattleState:
        return replace(
            self.state,
            combatants=tuple(self.combatants.values()),
            round=self.round,
            turn_index=self.turn_index,
            turn_open=self.turn_open,
            extra_actions_used=self.extra_actions_used,
            step=self.state.step + 1,
            outcome=self.outcome,
        )

    @property
    def over(self) -> bool:
        return self.outcome is not Outcome.ONGOING

    @property
    def current(self) -> Combatant:
        return self.combatants[self.state.order[self.turn_index]]

    def put(self, combatant: Combatant) -> None:
        self.combatants[combatant.id] = combatant

    def emit(self, event: E.Event) -> None:
        self.events.append(event)

    # --- effects ----------------------------------------------------------------------------

    def apply(self, target_id: str, spec: EffectSpec, *, permanent: bool = False) -> None:
        target = self.combatants[target_id]
        effects, result = apply_effect(
            target.effects,
            spec.name,
            turns=spec.turns,
            magnitude=spec.magnitude,
            permanent=permanent,
            magnitudes=self.rules.effect_magnitudes,
        )
        self.put(replace(target, effects=effects))
        other = result.other or ""
        if result.outcome in (ApplyOutcome.ADDED, ApplyOutcome.EXTENDED, ApplyOutcome.REPLACED):
            now = next(e for e in effects if e.name == spec.name)
            if result.outcome is ApplyOutcome.EXTENDED:
                self.emit(E.EffectExtended(target_id, spec.name, now.turns, now.magnitude, now.permanent))
            else:
                if result.outcome is ApplyOutcome.REPLACED:
                    self.emit(E.EffectReplaced(target_id, spec.name, other))
                self.emit(E.EffectApplied(target_id, spec.name, now.turns, now.magnitude, now.permanent))
        elif result.outcome is ApplyOutcome.CANCELLED:
            self.emit(E.EffectCancelled(target_id, spec.name, other))
        else:
            self.emit(E.EffectBlocked(target_id, spec.name, other))

    # --- hit points ---------------------------------------------------------------------------

    def damage(self, target_id: str, amount: int, source: str) -> None:
        target = self.combatants[target_id]
        hp = max(0, target.hp - amount)
        self.put(replace(target, hp=hp))
        self.emit(E.Damage(target_id, target.hp - hp, hp, source))
        if hp == 0:
            self.emit(E.Death(target_id))

    def heal(self, target_id: str, amount: int, source: str) -> None:
        target = self.combatants[target_id]
        hp = min(target.max_hp, target.hp + amount)
        self.put(replace(target, hp=hp))
        self.emit(E.Healed(target_id, hp - target.hp, hp, source))

    def check_over(self) -> None:
        if self.over:
            return
        everyone = self.combatants.values()
        if not any(c.in_battle for c in everyone if c.kind is Kind.ENEMY):
            self.outcome = Outcome.VICTORY
        elif not any(c.in_battle for c in everyone if c.kind is Kind.PLAYER):
            fled = any(c.fled for c in everyone if c.kind is Kind.PLAYER)
            self.outcome = Outcome.ESCAPED if fled else Outcome.DEFEAT
        else:
            return
        self.turn_open = False
        self.emit(E.BattleOver(self.outcome.value))


# --- the turn cycle ---------------------------------------------------------------------------


def _carrier_turn_over(w: _Work, carrier_id: str) -> None:
    """End-of-turn effects for one carrier: regeneration and damage over time, then ticking."""
    carrier = w.combatants[carrier_id]
    if not carrier.in_battle:
        return
    regeneration = magnitude_of(carrier.effects, "regeneration")
    if regeneration > 0:
        boost = 1 + carrier.stats.metabolism * w.rules.metabolism_regen_per_point
        w.heal(carrier_id, round_half_up(regeneration * boost), "regeneration")
    for name in DOT_EFFECTS:
        amount = round_half_up(magnitude_of(w.combatants[carrier_id].effects, name))
        if amount > 0 and w.combatants[carrier_id].in_battle:
            w.damage(carrier_id, amount, name)
    carrier = w.combatants[carrier_id]
    if not carrier.in_battle:
        w.check_over()
        return
    effects, expired = tick_effects(carrier.effects)
    w.put(replace(carrier, effects=effects))
    for name in expired:
        w.emit(E.EffectExpired(carrier_id, name))


def _end_turn(w: _Work) -> None:
    actor = w.current
    # Version 2: a carrier of haste at the end of a regular turn gets one extra turn of its own,
    # after this turn's end-of-turn effects (so haste for 1 turn still gives the extra turn).
    hasted = haste_is_extra_turn(w.state.version) and actor.has("haste") and w.extra_actions_used == 0
    _carrier_turn_over(w, actor.id)
    w.emit(E.TurnEnded(actor.id))
    if w.over:
        return
    if hasted and w.combatants[actor.id].in_battle:
        w.extra_actions_used = 1
        w.turn_open = False  # _begin_turn starts the same slot's extra turn
        w.emit(E.ExtraTurn(actor.id))
        return
    _next_slot(w)


def _next_slot(w: _Work) -> None:
    w.turn_open = False
    w.extra_actions_used = 0
    w.turn_index += 1
    if w.turn_index < len(w.state.order):
        return
    w.turn_index = 0
    # The NPC companion takes no turns; its effects tick once per round instead.
    for combatant in list(w.combatants.values()):
        if combatant.kind is Kind.NPC:
            _carrier_turn_over(w, combatant.id)
    if w.over:
        return
    if w.round >= w.rules.max_rounds:
        w.outcome = Outcome.DRAW
        w.emit(E.BattleOver(w.outcome.value))
        return
    w.round += 1
    w.emit(E.RoundStarted(w.round))


def _begin_turn(w: _Work) -> None:
    actor = w.current
    if not actor.in_battle:
        _next_slot(w)
        return
    w.turn_open = True
    w.emit(E.TurnStarted(actor.id, w.round))
    if actor.has("stun"):
        w.emit(E.TurnSkipped(actor.id, "stunned"))
        _end_turn(w)


def _after_turn_action(w: _Work) -> None:
    """An attack used the turn's action: the turn ends (version 1: haste grants one more action)."""
    if w.over:
        return
    actor = w.current
    if haste_is_extra_turn(w.state.version):
        _end_turn(w)
        return
    if actor.in_battle and actor.has("haste") and w.extra_actions_used == 0:
        w.extra_actions_used += 1
        w.emit(E.ExtraTurn(actor.id))
        return
    _end_turn(w)


def _attack(w: _Work, attacker_id: str, target_id: str, rng: random.Random) -> None:
    attacker = w.combatants[attacker_id]
    target = w.combatants[target_id]
    w.emit(E.Attack(attacker_id, target_id, attacker.weapon.name))
    roll = roll_attack(attacker, target, w.rules, rng)
    if not roll.hit:
        w.emit(E.Miss(attacker_id, target_id))
        return
    if roll.critical:
        w.emit(E.Critical(attacker_id, target_id))
    w.damage(target_id, roll.damage, "attack")
    if roll.curse_kills:
        w.emit(E.CurseStruck(target_id))
        w.damage(target_id, w.combatants[target_id].hp, "curse")
    for spec in attacker.weapon.on_hit:
        if not w.combatants[target_id].in_battle:
            break
        if spec.chance >= 1.0 or rng.random() < spec.chance:
            w.apply(target_id, spec)
    w.check_over()


def _enemy_turn(w: _Work, rng: random.Random) -> None:
    actor = w.current
    target = choose_target(actor, w.combatants.values(), w.rules, rng)
    if target is None:  # unreachable while the battle is on; kept so the loop cannot spin
        _end_turn(w)
        return
    _attack(w, actor.id, target.id, rng)
    _after_turn_action(w)


def _advance(w: _Work, rng: random.Random) -> None:
    """Resolve turns until a player must act or the battle is over."""
    while not w.over:
        if not w.turn_open:
            _begin_turn(w)
            continue
        actor = w.current
        if actor.kind is Kind.PLAYER:
            return
        _enemy_turn(w, rng)


# --- public API -------------------------------------------------------------------------------


def _check_setup(setup: BattleSetup) -> None:
    everyone = list(setup.players) + list(setup.enemies) + ([setup.npc] if setup.npc else [])
    ids = [c.id for c in everyone]
    if len(ids) != len(set(ids)):
        raise ValueError("combatant ids must be unique")
    if not setup.players or not setup.enemies:
        raise ValueError("a battle needs at least one player and one enemy")
    if any(c.kind is not Kind.PLAYER for c in setup.players):
        raise ValueError("players must have kind 'player'")
    if any(c.kind is not Kind.ENEMY for c in setup.enemies):
        raise ValueError("enemies must have kind 'enemy'")
    if setup.npc is not None and setup.npc.kind is not Kind.NPC:
        raise ValueError("the companion must have kind 'npc'")
    if any(c.effects for c in everyone):
        raise ValueError("start combatants without effects; use amulets and starting_effects")
    if any(not c.in_battle for c in everyone):
        raise ValueError("every combatant starts alive and present")
    for combatant_id, _ in setup.starting_effects:
        if combatant_id not in ids:
            raise ValueError(f"starting effect for unknown combatant {combatant_id!r}")


def start_battle(
    setup: BattleSetup, seed: int, *, rng: random.Random | None = None, version: int = ENGINE_VERSION
) -> A.Success:
    """Fix the turn order, apply amulets then starting effects, and run until a player acts.

    ``version`` picks the rules (SUPPORTED_VERSIONS); the state keeps it, so a battle plays to
    its end, and replays, under the rules it started with.
    """
    if version not in SUPPORTED_VERSIONS:
        raise ValueError(f"engine version {version!r} is not one of {SUPPORTED_VERSIONS}")
    _check_setup(setup)
    rng = rng if rng is not None else rng_for(seed, 0)
    order = turn_order([p.id for p in setup.players], [e.id for e in setup.enemies], rng)
    combatants = tuple(setup.players) + ((setup.npc,) if setup.npc else ()) + tuple(setup.enemies)
    state = BattleState(seed=seed, combatants=combatants, order=order, rules=setup.rules, version=version)
    w = _Work(state)
    w.emit(E.BattleStarted(order))
    # Amulets first: a permanent effect must be in place before anything it should block.
    for combatant in combatants:
        for spec in combatant.amulets:
            w.apply(combatant.id, spec, permanent=True)
    for combatant_id, spec in setup.starting_effects:
        w.apply(combatant_id, spec)
    w.emit(E.RoundStarted(1))
    _advance(w, rng)
    return A.Success(w.freeze(), tuple(w.events))


def resolve_enemy_turns(state: BattleState, *, rng: random.Random | None = None) -> A.Success:
    """Resolve every pending non-player turn (enemies, stunned players) until a player must act.

    start_battle and act already call this; it is public for a server that loaded a state
    saved mid-resolution (which the engine itself never produces).
    """
    rng = rng if rng is not None else rng_for(state.seed, state.step)
    w = _Work(state)
    _advance(w, rng)
    return A.Success(w.freeze(), tuple(w.events))


def allowed_actions(state: BattleState) -> tuple[A.Action, ...]:
    """Every action the awaiting player may take now (Timeout is the server's, not listed)."""
    actor_id = state.awaiting
    if actor_id is None:
        return ()
    actor = state.get(actor_id)
    found: list[A.Action] = [A.AttackAction(actor_id, t.id) for t in valid_targets(actor, state.combatants)]
    seen: set[str] = set()
    for potion in actor.potions:
        if potion.id not in seen:
            seen.add(potion.id)
            found.append(A.DrinkPotion(actor_id, potion.id))
    found.extend(
        A.SwitchWeapon(actor_id, slot) for slot in range(len(actor.weapons)) if slot != actor.active_weapon
    )
    found.append(A.Skip(actor_id))
    if not state.has_boss and not flight_taken(state):
        found.append(A.Flee(actor_id))
    return tuple(found)


def _refusal(state: BattleState, action: A.Action) -> A.Impossible | None:
    if state.over:
        return A.Impossible(A.BATTLE_OVER, f"the battle is over ({state.outcome.value})")
    if state.awaiting != action.actor:
        return A.Impossible(A.NOT_YOUR_TURN, f"it is not {action.actor}'s turn")
    actor = state.get(action.actor)
    if isinstance(action, A.AttackAction):
        target = state.find(action.target)
        if target is None:
            return A.Impossible(A.UNKNOWN_TARGET, f"no combatant {action.target}")
        if target.side is actor.side:
            return A.Impossible(A.NOT_AN_ENEMY, "attack an enemy")
        if not target.in_battle:
            return A.Impossible(A.TARGET_DOWN, f"{target.id} is out of the battle")
        targets = valid_targets(actor, state.combatants)
        if target not in targets:
            if any(t.has("provocation") for t in targets):
                return A.Impossible(A.MUST_TARGET_PROVOKER, "a provoking enemy must be attacked")
            return A.Impossible(A.TARGET_CAMOUFLAGED, f"{target.id} is camouflaged")
    elif isinstance(action, A.DrinkPotion):
        if not any(p.id == action.potion for p in actor.potions):
            return A.Impossible(A.NO_SUCH_POTION, f"no potion {action.potion}")
    elif isinstance(action, A.SwitchWeapon):
        if not 0 <= action.slot < len(actor.weapons):
            return A.Impossible(A.NO_SUCH_WEAPON, f"no weapon in slot {action.slot}")
        if action.slot == actor.active_weapon:
            return A.Impossible(A.WEAPON_IN_HAND, "that weapon is already in hand")
    elif isinstance(action, A.Flee):
        if state.has_boss:
            return A.Impossible(A.CANNOT_FLEE_BOSS, "nobody flees from a boss")
        if flight_taken(state):
            return A.Impossible(A.FLIGHT_ALREADY_TAKEN,
                                "one member of the party has fled this battle already")
    return None


def _drink(w: _Work, actor_id: str, potion_id: str) -> None:
    actor = w.combatants[actor_id]
    index = next(i for i, p in enumerate(actor.potions) if p.id == potion_id)
    potion = actor.potions[index]
    w.put(replace(actor, potions=actor.potions[:index] + actor.potions[index + 1 :]))
    w.emit(E.PotionDrunk(actor_id, potion.id, potion.kind.value))
    if potion.kind is PotionKind.HEALING:
        w.heal(actor_id, potion.heal, "potion")
    elif potion.kind is PotionKind.EFFECT:
        assert potion.effect is not None
        w.apply(actor_id, potion.effect)
    else:
        assert potion.stat is not None
        actor = w.combatants[actor_id]
        stats = actor.stats.raised(potion.stat, potion.amount)
        extra_hp = potion.amount * w.rules.hp_per_stamina if potion.stat == "stamina" else 0
        w.put(replace(actor, stats=stats, max_hp=actor.max_hp + extra_hp, hp=actor.hp + extra_hp))
        w.emit(E.StatRaised(actor_id, potion.stat, potion.amount, getattr(stats, potion.stat)))


def act(state: BattleState, action: A.Action, *, rng: random.Random | None = None) -> A.ActionResult:
    """Apply the awaiting player's action, then resolve turns until a player must act again.

    A refused action returns Impossible and changes nothing (state.step included), so the
    server can persist only successes. Without rng the call's stream comes from rng_for.
    """
    refusal = _refusal(state, action)
    if refusal is not None:
        return refusal
    rng = rng if rng is not None else rng_for(state.seed, state.step)
    w = _Work(state)
    actor_id = action.actor
    if isinstance(action, A.AttackAction):
        _attack(w, actor_id, action.target, rng)
        _after_turn_action(w)
    elif isinstance(action, A.DrinkPotion):
        _drink(w, actor_id, action.potion)
    elif isinstance(action, A.SwitchWeapon):
        actor = w.combatants[actor_id]
        w.put(replace(actor, active_weapon=action.slot))
        w.emit(E.WeaponSwitched(actor_id, actor.weapons[action.slot].name, action.slot))
    elif isinstance(action, A.Flee):
        w.put(replace(w.combatants[actor_id], fled=True))
        w.emit(E.Fled(actor_id))
        w.check_over()
        if not w.over:
            _next_slot(w)
    elif isinstance(action, (A.Skip, A.Timeout)):
        # Skipping or timing out gives up the whole turn, haste's extra action included.
        w.emit(E.TurnSkipped(actor_id, action.kind))
        _end_turn(w)
    else:
        raise TypeError(f"unknown action {action!r}")
    _advance(w, rng)
    return A.Success(w.freeze(), tuple(w.events))


def replay(
    setup: BattleSetup, seed: int, actions: Iterable[A.Action], *, version: int = ENGINE_VERSION
) -> A.Success:
    """Rebuild a battle from its setup, seed, rules version and the player actions that succeeded."""
    result = start_battle(setup, seed, version=version)
    state = result.state
    events = list(result.events)
    for action in actions:
        step = act(state, action)
        if isinstance(step, A.Impossible):
            raise ValueError(f"recorded action {action!r} is impossible here: {step.reason}")
        state = step.state
        events.extend(step.events)
    return A.Success(state, tuple(events))

