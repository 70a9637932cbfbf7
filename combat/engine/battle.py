"""Driving a battle: start it, act for the awaiting player, resolve enemy turns, replay it."""
from __future__ import annotations

import random
from collections.abc import Iterable

from combat.engine import actions as A
from combat.engine import events as E
from combat.engine.ai import choose_target, valid_targets
from combat.engine.damage import base_damage_from, roll_from, round_half_up
from combat.engine.effects import ApplyOutcome, EffectDict, apply_into, tick_into
from combat.engine.rules import CombatRules
from combat.engine.state import (
    ENGINE_VERSION,
    FISTS,
    SUPPORTED_VERSIONS,
    BattleSetup,
    BattleState,
    Combatant,
    EffectSpec,
    Kind,
    Outcome,
    Potion,
    PotionKind,
    Stats,
    Weapon,
)
from combat.engine.turn_order import turn_order
from combat.engine.values import unchecked
from gamekit.results import Impossible

# Enum members bound once: the hot loop compares with them by identity.
_PLAYER = Kind.PLAYER
_ENEMY = Kind.ENEMY
_NPC = Kind.NPC
_ONGOING = Outcome.ONGOING
_ADDED = ApplyOutcome.ADDED
_EXTENDED = ApplyOutcome.EXTENDED
_REPLACED = ApplyOutcome.REPLACED
_CANCELLED = ApplyOutcome.CANCELLED

# Damage-over-time effects, resolved in this fixed order at the end of the carrier's turn.
DOT_EFFECTS: tuple[str, ...] = ("bleeding", "burning", "frostbite")
_END_OF_TURN_EFFECTS = frozenset(("regeneration", *DOT_EFFECTS))


def haste_is_extra_turn(version: int) -> bool:
    """Version 2 on: haste gives its carrier a whole extra turn (effects tick for it); before, a
    second action inside the same turn."""
    return version >= 2


def one_flight_per_battle(version: int) -> bool:
    """Version 2 on: once a player has fled, nobody else may flee the same battle."""
    return version >= 2


def flight_taken(state: BattleState) -> bool:
    """Whether the battle's one flight is used (always False under the version 1 rules)."""
    if one_flight_per_battle(state.version):
        for c in state.combatants:
            if c.fled and c.kind is _PLAYER:
                return True
    return False


def rng_for(seed: int, step: int) -> random.Random:
    """The random stream of one engine call: derived from the battle seed and the call number.

    A string seed is hashed with SHA-512 by random.Random, so the stream is the same in every
    process; the server never needs to store a generator state, only seed and step.
    """
    return random.Random(f"deepdelve-combat/{seed}/{step}")


_NO_EFFECTS: EffectDict = {}  # read only: the effects of a creature that carries none


class _Fighter:
    """A combatant's mutable working copy inside one engine call, made when it first changes.

    It carries every field of its Combatant (copied in one step from the Combatant's __dict__),
    with the effects as a dict in the tuple's order (EffectDict), so lookups are one step. At the
    end of the call a changed fighter becomes a new Combatant once; an unchanged one gives back
    its Combatant (copy-on-write).
    """

    id: str
    kind: Kind
    hp: int
    max_hp: int
    stats: Stats
    weapons: tuple[Weapon, ...]
    active_weapon: int
    armor: int
    potions: tuple[Potion, ...]
    effects: EffectDict
    fled: bool
    source: Combatant
    changed: bool

    def __init__(self, combatant: Combatant) -> None:
        values = self.__dict__
        values.update(combatant.__dict__)
        effects = combatant.effects
        values["effects"] = {effect.name: effect for effect in effects} if effects else {}
        values["source"] = combatant
        values["changed"] = False

    def has(self, effect: str) -> bool:
        return effect in self.effects

    @property
    def in_battle(self) -> bool:
        return self.hp > 0 and not self.fled

    @property
    def weapon(self) -> Weapon:
        return self.weapons[self.active_weapon] if self.weapons else FISTS

    def frozen(self) -> Combatant:
        if not self.changed:
            return self.source
        # unchecked(Combatant, fields), building the new instance's __dict__ in place.
        new = object.__new__(Combatant)
        values = new.__dict__
        values.update(self.__dict__)
        del values["source"], values["changed"]
        values["effects"] = tuple(self.effects.values())
        return new


class _Work:
    """The mutable scratch of one engine call: the combatants (each a Combatant until it first
    changes, then its _Fighter) and the turn counters."""

    __slots__ = (
        "cast",
        "checked_at",
        "departures",
        "events",
        "extra_actions_used",
        "fighters",
        "hasted_turns",
        "order",
        "outcome",
        "round",
        "rules",
        "state",
        "turn_index",
        "turn_open",
    )

    def __init__(self, state: BattleState) -> None:
        self.state = state
        self.rules: CombatRules = state.rules
        self.order = state.order
        self.hasted_turns = haste_is_extra_turn(state.version)
        # In the state's order, which freeze() keeps.
        self.cast: dict[str, Combatant | _Fighter] = {c.id: c for c in state.combatants}
        self.fighters: list[_Fighter] = []  # the working copies made so far (freeze's only work)
        self.round = state.round
        self.turn_index = state.turn_index
        self.turn_open = state.turn_open
        self.extra_actions_used = state.extra_actions_used
        self.outcome = state.outcome
        self.events: list[E.Event] = []
        # check_over rescans only after someone left the battle since its last "still on" (only a
        # departure can end a battle); the first check of every call always scans.
        self.departures = 0
        self.checked_at = -1

    def freeze(self) -> BattleState:
        state = self.state
        values = dict(state.__dict__)
        cast = self.cast
        for fighter in self.fighters:  # the rest of the cast are the state's own Combatants
            if fighter.changed:
                cast[fighter.id] = fighter.frozen()
            else:
                cast[fighter.id] = fighter.source
        values["combatants"] = tuple(cast.values())
        values["round"] = self.round
        values["turn_index"] = self.turn_index
        values["turn_open"] = self.turn_open
        values["extra_actions_used"] = self.extra_actions_used
        values["step"] = state.step + 1
        values["outcome"] = self.outcome
        return unchecked(BattleState, values)

    def fighter(self, combatant_id: str) -> _Fighter:
        """The working copy of a combatant, made now if it has none yet."""
        found = self.cast[combatant_id]
        if isinstance(found, _Fighter):
            return found
        made = self.cast[combatant_id] = _Fighter(found)
        self.fighters.append(made)
        return made

    @property
    def over(self) -> bool:
        return self.outcome is not _ONGOING

    @property
    def current(self) -> Combatant | _Fighter:
        return self.cast[self.order[self.turn_index]]

    # --- effects ----------------------------------------------------------------------------

    def apply(self, target: _Fighter, spec: EffectSpec, *, permanent: bool = False) -> None:
        name = spec.name
        effects = target.effects
        result = apply_into(
            effects,
            name,
            turns=spec.turns,
            magnitude=spec.magnitude,
            permanent=permanent,
            magnitudes=self.rules.effect_magnitudes,
        )
        outcome = result.outcome
        other = result.other or ""
        events = self.events
        if outcome is _ADDED or outcome is _EXTENDED or outcome is _REPLACED:
            target.changed = True
            now = effects[name]
            if outcome is _EXTENDED:
                events.append(E.EffectExtended(target.id, name, now.turns, now.magnitude, now.permanent))
            else:
                if outcome is _REPLACED:
                    events.append(E.EffectReplaced(target.id, name, other))
                events.append(E.EffectApplied(target.id, name, now.turns, now.magnitude, now.permanent))
        elif outcome is _CANCELLED:
            target.changed = True
            events.append(E.EffectCancelled(target.id, name, other))
        else:
            events.append(E.EffectBlocked(target.id, name, other))

    # --- hit points ---------------------------------------------------------------------------

    def damage(self, target: _Fighter, amount: int, source: str) -> None:
        before = target.hp
        hp = max(0, before - amount)
        target.hp = hp
        target.changed = True
        self.events.append(E.Damage(target.id, before - hp, hp, source))
        if hp == 0:
            self.departures += 1
            self.events.append(E.Death(target.id))

    def heal(self, target: _Fighter, amount: int, source: str) -> None:
        before = target.hp
        hp = min(target.max_hp, before + amount)
        target.hp = hp
        target.changed = True
        self.events.append(E.Healed(target.id, hp - before, hp, source))

    def check_over(self) -> None:
        if self.outcome is not _ONGOING or self.checked_at == self.departures:
            return
        self.checked_at = self.departures
        enemies_left = players_left = False
        for c in self.cast.values():
            if c.hp > 0 and not c.fled:
                if c.kind is _ENEMY:
                    enemies_left = True
                elif c.kind is _PLAYER:
                    players_left = True
        if not enemies_left:
            self.outcome = Outcome.VICTORY
        elif not players_left:
            fled = any(c.fled for c in self.cast.values() if c.kind is _PLAYER)
            self.outcome = Outcome.ESCAPED if fled else Outcome.DEFEAT
        else:
            return
        self.turn_open = False
        self.events.append(E.BattleOver(self.outcome.value))


# --- the turn cycle ---------------------------------------------------------------------------


def _carrier_turn_over(w: _Work, carrier_id: str) -> None:
    """End-of-turn effects for one carrier: regeneration and damage over time, then ticking."""
    found = w.cast[carrier_id]
    if found.hp <= 0 or found.fled:
        return
    # Only a counted duration or an end-of-turn effect changes anything (and needs the working
    # copy); permanent and until-the-end effects alone tick to themselves.
    for effect in found.effects.values() if isinstance(found, _Fighter) else found.effects:
        if effect.turns is not None or effect.name in _END_OF_TURN_EFFECTS:
            break
    else:
        return
    carrier = w.fighter(carrier_id)
    effects = carrier.effects
    regeneration = effects.get("regeneration")
    if regeneration is not None and regeneration.magnitude > 0:
        boost = 1 + carrier.stats.metabolism * w.rules.metabolism_regen_per_point
        w.heal(carrier, round_half_up(regeneration.magnitude * boost), "regeneration")
    for name in DOT_EFFECTS:
        dot = effects.get(name)
        if dot is None:
            continue  # an absent effect does round_half_up(0) = 0 damage: nothing
        amount = round_half_up(dot.magnitude)
        if amount > 0 and carrier.hp > 0 and not carrier.fled:
            w.damage(carrier, amount, name)
    if carrier.hp <= 0 or carrier.fled:
        w.check_over()
        return
    expired = tick_into(effects)
    carrier.changed = True
    for name in expired:
        w.events.append(E.EffectExpired(carrier_id, name))


def _end_turn(w: _Work) -> None:
    actor_id = w.order[w.turn_index]
    actor = w.cast[actor_id]
    hasted = False
    if actor.effects:  # (a creature without effects has nothing to tick)
        # Version 2: a carrier of haste at the end of a regular turn gets one extra turn of its
        # own, after this turn's end-of-turn effects (so haste for 1 turn still gives it).
        hasted = w.hasted_turns and w.extra_actions_used == 0 and actor.has("haste")
        _carrier_turn_over(w, actor_id)
    w.events.append(E.TurnEnded(actor_id))
    if w.outcome is not _ONGOING:
        return
    if hasted:
        actor = w.cast[actor_id]
        if actor.hp > 0 and not actor.fled:
            w.extra_actions_used = 1
            w.turn_open = False  # _advance starts the same slot's extra turn
            w.events.append(E.ExtraTurn(actor_id))
            return
    # _next_slot, its usual case inlined
    index = w.turn_index + 1
    if index < len(w.order):
        w.turn_open = False
        w.extra_actions_used = 0
        w.turn_index = index
        return
    _next_slot(w)


def _next_slot(w: _Work) -> None:
    w.turn_open = False
    w.extra_actions_used = 0
    w.turn_index += 1
    if w.turn_index < len(w.order):
        return
    w.turn_index = 0
    # The NPC companion takes no turns; its effects tick once per round instead.
    for combatant in list(w.cast.values()):
        if combatant.kind is _NPC:
            _carrier_turn_over(w, combatant.id)
    if w.outcome is not _ONGOING:
        return
    if w.round >= w.rules.max_rounds:
        w.outcome = Outcome.DRAW
        w.events.append(E.BattleOver(w.outcome.value))
        return
    w.round += 1
    w.events.append(E.RoundStarted(w.round))


def _after_turn_action(w: _Work) -> None:
    """An attack used the turn's action: the turn ends (version 1: haste grants one more action)."""
    if w.outcome is not _ONGOING:
        return
    if w.hasted_turns:
        _end_turn(w)
        return
    actor = w.current
    if actor.hp > 0 and not actor.fled and actor.has("haste") and w.extra_actions_used == 0:
        w.extra_actions_used += 1
        w.events.append(E.ExtraTurn(actor.id))
        return
    _end_turn(w)


def _attack(w: _Work, attacker_id: str, target_id: str, rng: random.Random) -> None:
    cast = w.cast
    # The attack changes only the target: the attacker needs no working copy, only its effects by
    # name (a Combatant's tuple as a dict, read only).
    attacker = cast[attacker_id]
    carried = attacker.effects
    mine: EffectDict
    if isinstance(carried, dict):
        mine = carried
    elif carried:
        mine = {effect.name: effect for effect in carried}
    else:
        mine = _NO_EFFECTS
    target = cast[target_id]
    if not isinstance(target, _Fighter):
        target = cast[target_id] = _Fighter(target)
        w.fighters.append(target)
    weapons = attacker.weapons
    active = attacker.active_weapon
    weapon = weapons[active] if weapons else FISTS
    events = w.events
    events.append(E.Attack(attacker_id, target_id, weapon.name))
    rules = w.rules
    stats = attacker.stats
    roll = roll_from(rng, rules, stats, base_damage_from(rules, weapons, active, stats.strength),
                     mine, target.armor, target.effects, target.hp)
    if roll is None:
        events.append(E.Miss(attacker_id, target_id))
        return
    critical, damage, curse_kills = roll
    if critical:
        events.append(E.Critical(attacker_id, target_id))
    w.damage(target, damage, "attack")
    if curse_kills:
        events.append(E.CurseStruck(target_id))
        w.damage(target, target.hp, "curse")
    for spec in weapon.on_hit:
        if target.hp <= 0 or target.fled:
            break
        if spec.chance >= 1.0 or rng.random() < spec.chance:
            w.apply(target, spec)
    if w.checked_at != w.departures:  # (check_over has nothing to do otherwise)
        w.check_over()


def _advance(w: _Work, rng: random.Random) -> None:
    """Resolve turns until a player must act or the battle is over."""
    cast, order, events, rules = w.cast, w.order, w.events, w.rules
    while w.outcome is _ONGOING:
        actor = cast[order[w.turn_index]]
        if not w.turn_open:
            # The slot's turn begins (the dead and the fled have none).
            if actor.hp <= 0 or actor.fled:
                _next_slot(w)
                continue
            w.turn_open = True
            events.append(E.TurnStarted(actor.id, w.round))
            if actor.effects and actor.has("stun"):
                events.append(E.TurnSkipped(actor.id, "stunned"))
                _end_turn(w)
                continue
        if actor.kind is _PLAYER:
            return
        # A non-player's turn: the targeting AI picks, the attack uses the turn's action.
        target = choose_target(actor, cast.values(), rules, rng)
        if target is None:  # unreachable while the battle is on; kept so the loop cannot spin
            _end_turn(w)
            continue
        _attack(w, actor.id, target.id, rng)
        if w.outcome is _ONGOING:
            _after_turn_action(w)


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
    w.events.append(E.BattleStarted(order))
    # Amulets first: a permanent effect must be in place before anything it should block.
    for combatant in combatants:
        for spec in combatant.amulets:
            w.apply(w.fighter(combatant.id), spec, permanent=True)
    for combatant_id, spec in setup.starting_effects:
        w.apply(w.fighter(combatant_id), spec)
    w.events.append(E.RoundStarted(1))
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


# The awaiting player and their valid targets in the last state asked about: allowed_actions and
# act's refusal check on the same state (the usual request) compute them once. The entry holds
# the state itself, so an identity match is always that very (immutable) state; it is replaced
# whole, never changed in place. The targets are computed when first needed (None until then).
_last_awaiting: tuple[BattleState, Combatant | None, tuple[Combatant, ...] | None] | None = None


def _awaiting(state: BattleState) -> Combatant | None:
    global _last_awaiting
    last = _last_awaiting
    if last is not None and last[0] is state:
        return last[1]
    actor = state.awaiting_player
    _last_awaiting = (state, actor, None)
    return actor


def _awaiting_targets(state: BattleState, actor: Combatant) -> tuple[Combatant, ...]:
    global _last_awaiting
    last = _last_awaiting
    if last is not None and last[0] is state and last[1] is actor and last[2] is not None:
        return last[2]
    targets = valid_targets(actor, state.combatants)
    _last_awaiting = (state, actor, targets)
    return targets


def _flight_possible(state: BattleState) -> bool:
    """Neither a boss (state.has_boss) nor the battle's one flight taken (flight_taken): one pass."""
    one_flight = one_flight_per_battle(state.version)
    for c in state.combatants:
        if c.kind is _ENEMY:
            if c.is_boss:
                return False
        elif one_flight and c.fled and c.kind is _PLAYER:
            return False
    return True


# The actions allowed_actions lists, by (kind, actor, target or potion or ""): actions are immutable
# values, so the same one serves every state that allows it (a player is offered the same few
# actions turn after turn). Emptied when it grows past _ACTION_MEMO_SIZE.
_action_memo: dict[tuple[str, str, str], A.Action] = {}
_ACTION_MEMO_SIZE = 4096


def _remember(action: A.Action, other: str = "") -> A.Action:
    """Keep a newly made action under (kind, actor, target or potion) and return it."""
    if len(_action_memo) >= _ACTION_MEMO_SIZE:
        _action_memo.clear()
    _action_memo[action.kind, action.actor, other] = action
    return action


def allowed_actions(state: BattleState) -> tuple[A.Action, ...]:
    """Every action the awaiting player may take now (Timeout is the server's, not listed)."""
    actor = _awaiting(state)
    if actor is None:
        return ()
    actor_id = actor.id
    memo = _action_memo.get
    found: list[A.Action] = [
        memo(("attack", actor_id, t.id)) or _remember(A.AttackAction(actor_id, t.id), t.id)
        for t in _awaiting_targets(state, actor)
    ]
    potions = actor.potions
    if potions:
        seen: set[str] = set()
        for potion in potions:
            potion_id = potion.id
            if potion_id not in seen:
                seen.add(potion_id)
                found.append(memo(("drink", actor_id, potion_id))
                             or _remember(A.DrinkPotion(actor_id, potion_id), potion_id))
    if len(actor.weapons) > 1:
        found.extend(
            A.SwitchWeapon(actor_id, slot)
            for slot in range(len(actor.weapons))
            if slot != actor.active_weapon
        )
    found.append(memo(("skip", actor_id, "")) or _remember(A.Skip(actor_id)))
    if _flight_possible(state):
        found.append(memo(("flee", actor_id, "")) or _remember(A.Flee(actor_id)))
    return tuple(found)


def _refusal(state: BattleState, action: A.Action) -> Impossible | None:
    if state.outcome is not _ONGOING:
        return Impossible(A.BATTLE_OVER, f"the battle is over ({state.outcome.value})")
    actor = _awaiting(state)
    if actor is None or actor.id != action.actor:
        return Impossible(A.NOT_YOUR_TURN, f"it is not {action.actor}'s turn")
    if isinstance(action, A.AttackAction):
        targets = _awaiting_targets(state, actor)
        wanted = action.target
        for t in targets:
            if t.id == wanted:
                return None  # a valid target passes every check below
        target = state.find(wanted)
        if target is None:
            return Impossible(A.UNKNOWN_TARGET, f"no combatant {wanted}")
        if (target.kind is _ENEMY) is (actor.kind is _ENEMY):  # the same side (Combatant.side)
            return Impossible(A.NOT_AN_ENEMY, "attack an enemy")
        if target.hp <= 0 or target.fled:
            return Impossible(A.TARGET_DOWN, f"{target.id} is out of the battle")
        if any(t.has("provocation") for t in targets):
            return Impossible(A.MUST_TARGET_PROVOKER, "a provoking enemy must be attacked")
        return Impossible(A.TARGET_CAMOUFLAGED, f"{target.id} is camouflaged")
    elif isinstance(action, A.DrinkPotion):
        if not any(p.id == action.potion for p in actor.potions):
            return Impossible(A.NO_SUCH_POTION, f"no potion {action.potion}")
    elif isinstance(action, A.SwitchWeapon):
        if not 0 <= action.slot < len(actor.weapons):
            return Impossible(A.NO_SUCH_WEAPON, f"no weapon in slot {action.slot}")
        if action.slot == actor.active_weapon:
            return Impossible(A.WEAPON_IN_HAND, "that weapon is already in hand")
    elif isinstance(action, A.Flee):
        if state.has_boss:
            return Impossible(A.CANNOT_FLEE_BOSS, "nobody flees from a boss")
        if flight_taken(state):
            return Impossible(A.FLIGHT_ALREADY_TAKEN,
                                "one member of the party has fled this battle already")
    return None


def _drink(w: _Work, actor_id: str, potion_id: str) -> None:
    actor = w.fighter(actor_id)
    index = next(i for i, p in enumerate(actor.potions) if p.id == potion_id)
    potion = actor.potions[index]
    actor.potions = actor.potions[:index] + actor.potions[index + 1 :]
    actor.changed = True
    w.events.append(E.PotionDrunk(actor_id, potion.id, potion.kind.value))
    if potion.kind is PotionKind.HEALING:
        w.heal(actor, potion.heal, "potion")
    elif potion.kind is PotionKind.EFFECT:
        assert potion.effect is not None
        w.apply(actor, potion.effect)
    else:
        assert potion.stat is not None
        stats = actor.stats.raised(potion.stat, potion.amount)
        extra_hp = potion.amount * w.rules.hp_per_stamina if potion.stat == "stamina" else 0
        actor.stats = stats
        actor.max_hp += extra_hp
        actor.hp += extra_hp
        w.events.append(E.StatRaised(actor_id, potion.stat, potion.amount, getattr(stats, potion.stat)))


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
        actor = w.fighter(actor_id)
        actor.active_weapon = action.slot
        actor.changed = True
        w.events.append(E.WeaponSwitched(actor_id, actor.weapons[action.slot].name, action.slot))
    elif isinstance(action, A.Flee):
        actor = w.fighter(actor_id)
        actor.fled = True
        w.departures += 1
        actor.changed = True
        w.events.append(E.Fled(actor_id))
        w.check_over()
        if not w.over:
            _next_slot(w)
    elif isinstance(action, (A.Skip, A.Timeout)):
        # Skipping or timing out gives up the whole turn, haste's extra action included.
        w.events.append(E.TurnSkipped(actor_id, action.kind))
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
        if isinstance(step, Impossible):
            # A refused action in a stored record is a bad value, not a value of the wrong type.
            raise ValueError(f"recorded action {action!r} is impossible here: {step.reason}")  # noqa: TRY004
        state = step.state
        events.extend(step.events)
    return A.Success(state, tuple(events))

