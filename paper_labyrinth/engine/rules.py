"""Seed 002's rules (classic and quantum): the game master's answer to every request.

``new_game`` places the players; ``apply(state, seat, request, rng)`` plays a ``Turn`` or answers a
free query (``Status``, ``Repeat``) and returns ``Success`` (the new state and the game master's
messages, all public); ``timeout`` is the one-minute timer; ``whose_turn``, ``outcome`` and
``status`` read the state. A request malformed for the turn is answered ``Impossible`` (a value:
nothing changes); an action the player cannot afford or may not do here is answered publicly
("ничего не выйдет") and has no effect. The rules have no random outcome: ``rng`` is taken for the
API's sake and never drawn from. docs/paper-labyrinth.md lists the decisions on the seed's conflicts.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from gamekit.results import Impossible, Success
from labyrinth.engine.grid import Direction
from paper_labyrinth.engine.model import (
    CellType,
    Outer,
    PaperMap,
    Pos,
    Side,
    is_source,
    neighbour,
    side,
)
from paper_labyrinth.engine.movement import (
    StepKind,
    StepResult,
    cycle_move,
    downstream_move,
    enter,
)
from paper_labyrinth.engine.movement import step as movement_step
from paper_labyrinth.engine.requests import (
    ACTIONS,
    Action,
    Condition,
    Conditional,
    Cycle,
    Downstream,
    Grenade,
    Item,
    JSONValue,
    Message,
    Move,
    Options,
    PlaceMine,
    Repeat,
    Request,
    Result,
    Shoot,
    Skip,
    Status,
    Step,
    Throw,
    Turn,
    Visibility,
)
from paper_labyrinth.engine.state import (
    CARRY_MAX,
    SLOT_RANK,
    Corpse,
    GameState,
    Pile,
    Player,
    Slot,
    Tick,
)

MOVEMENT_TYPES = (Move, Downstream, Cycle)
ALWAYS_REPORTED = frozenset({
    "won", "last_survivor", "eliminated", "draw_nstop", "draw_all_skip", "draw_treasure_out",
    "draw_treasure_source", "draw_all_dead", "draw_survivor_time", "blast",
})
"""Codes reported even in a dark or half-dark turn: the end of the game, an elimination, and a mine
that a thrown corpse set off (everyone hears it)."""

CELL_PHRASE = {
    "land": "Пришел на Сушу",
    "hospital": "Пришел в Медсанбат",
    "arsenal": "Пришел в Арсенал",
    "hole": "Попал в Яму",
    "river": "Попал в Реку",
    "mouth": "Пришел в Устье",
    "encephalitis": "Пришел в Энцефалит",
}
ITEM_WORD = {Item.BULLET: "пулю", Item.GRENADE: "гранату", Item.MINE: "мину", Item.TREASURE: "клад",
             Item.CORPSE: "труп"}
ITEM_NOMINATIVE = {Item.BULLET: "пуля", Item.GRENADE: "граната", Item.MINE: "мина", Item.TREASURE: "клад",
                   Item.CORPSE: "труп"}

#: why an action cannot be done ("Ничего не выйдет: ..."), by the code its answer carries (``problem``)
NOTHING_DOING = {
    "hurt_cannot_shoot": "раненый или больной не может стрелять",
    "no_bullets": "пуль нет",
    "no_grenades": "гранат нет",
    "hurt_cannot_throw": "раненый или больной не может бросать это",
    "not_carried": "у тебя нет: ",
    "hurt_cannot_arm": "раненый или больной не может взводить мину",
    "no_mine": "мины нет",
    "outside": "ты вне лабиринта",
}

def _msg(seat: int, code: str, text: str, **data: JSONValue) -> Message:
    return Message(seat=seat, code=code, text=text, data=dict(data))


# --- the board as it is now ------------------------------------------------------------------------


def side_now(state: GameState, pos: Pos, direction: Direction) -> Side:
    """What lies on a side of a cell now (grenades change walls and exits)."""
    return side(state.map, pos, direction, state.walls, state.outer)


def players_on(state: GameState, pos: Pos) -> list[Player]:
    """The players in the game standing on ``pos`` (not outside)."""
    return [p for p in state.players if p.in_game and p.outside is None and p.pos == pos]


def cell_type(state: GameState, pos: Pos) -> CellType:
    return state.map.cells[pos]


# --- setting up ------------------------------------------------------------------------------------


def new_game(m: PaperMap, options: Options, players: int, starts: Sequence[Pos],
             rng: random.Random | None = None) -> GameState:
    """Place ``players`` (2-5) on their secret ``starts`` (cells of the outline; players may share a
    cell). Seats move in order 0, 1, ... (the host draws who sits where). The start placement has no
    arrival effect (no hole, drift, mine, tick or pickup): see docs, conflict 12."""
    if not 2 <= players <= 5:
        raise ValueError("seed 002 is for 2-5 players")
    if len(starts) != players:
        raise ValueError("one start cell per player")
    for pos in starts:
        if pos not in m.cells:
            raise ValueError(f"start {pos} is not a cell of the map")
    for name in ("starting_bullets", "starting_grenades"):
        if not 0 <= getattr(options, name) <= CARRY_MAX:
            raise ValueError(f"{name} must be 0-3")
    if options.starting_mines not in (0, 1):
        raise ValueError("starting_mines must be 0 or 1")
    for name in ("cure_time", "nstop", "shot_range", "last_survivor_turns"):
        value = getattr(options, name)
        if value is not None and value < 1:
            raise ValueError(f"{name} must be at least 1 (or None)")
    if options.reorders is not None and options.reorders < 0:
        raise ValueError("reorders must not be negative")
    nstop = options.nstop if options.nstop is not None else len(m.cells)
    reorders = options.reorders if options.reorders is not None else (
        players - 1 if options.variant == "classic" else 0)
    options = replace(options, nstop=nstop, reorders=reorders)
    piles: dict[Pos, Pile] = {}
    for pos in m.cells:
        pile = Pile(bullets=m.bullets.get(pos, 0), grenades=m.grenades.get(pos, 0), mines=m.mines.get(pos, 0),
                    treasures=list(m.treasures.get(pos, ())))
        if not pile.empty():
            piles[pos] = pile
    state = GameState(
        map=m, options=options,
        players=[Player(seat=i, pos=(starts[i][0], starts[i][1]), bullets=options.starting_bullets,
                        grenades=options.starting_grenades,
                        slot=Slot("mine") if options.starting_mines else None, reorders_left=reorders)
                 for i in range(players)],
        walls=set(m.walls), outer=dict(m.outer), piles=piles,
    )
    return state


def opening(state: GameState) -> list[Message]:
    """The game master's public announcement of each player's start cell type (C§6.2)."""
    return [_msg(p.seat, "start", f"Игрок {p.seat + 1}: {CELL_PHRASE[cell_type(state, p.pos).value]}",
                 cell=cell_type(state, p.pos).value) for p in state.players]


# --- reading the state -----------------------------------------------------------------------------


def whose_turn(state: GameState) -> int | None:
    """The seat to move, None when the game is over."""
    return None if state.result is not None else state.current


def outcome(state: GameState) -> Result | None:
    return state.result


def status(state: GameState, seat: int) -> dict[str, JSONValue]:
    """What a status query answers (C§6.4): the player's own health, inventory and counters."""
    p = state.players[seat]
    return {
        "health": p.health, "immune": p.immune, "bullets": p.bullets, "grenades": p.grenades,
        "slot": None if p.slot is None else p.slot.kind, "reorders_left": p.reorders_left,
        "may_reorder": p.may_reorder and p.reorders_left > 0 and state.current == seat,
        "cure_left": p.cure_left, "outside": p.outside is not None, "eliminated": p.eliminated,
        "calm_rounds": state.calm // max(1, len(state.in_game())), "nstop": state.options.nstop,
    }


def can_reorder(state: GameState, seat: int) -> bool:
    """Whether ``seat``'s request now may carry a ``Reorder`` (public: the announcement offered it)."""
    p = state.players[seat]
    return (state.result is None and state.current == seat and p.may_reorder and p.reorders_left > 0
            and state.options.variant == "classic")


_HEALTH_WORD = {"healthy": "здоров", "wounded": "ранен", "sick": "болен энцефалитом", "dead": "убит"}
_SLOT_WORD = {"treasure": "клад", "mine": "мина", "corpse": "труп"}


def has_effect(state: GameState, seat: int, step: Step) -> bool:
    """Whether a quantum action step would do something for ``seat`` now, rather than be answered "Ничего
    не выйдет" or "Пуль нет: ход пропущен": the item to throw, leave, blow up or arm is in the player's
    hands (or, for a healthy player, under their feet), the player may handle it, and is inside the
    labyrinth. Movements and skips always do. Read only; mirrors ``_Turn.throw``, ``grenade``,
    ``place_mine`` and ``shoot_quantum``. Hosts list only the actions that do (``allowed_actions``)."""
    if not isinstance(step, ACTIONS):
        return True
    p = state.players[seat]
    if p.outside is not None:
        return False
    healthy = p.health == "healthy"
    pile = state.piles.get(p.pos) or Pile()
    if isinstance(step, Shoot):
        return state.options.variant == "classic" or p.bullets > 0
    if isinstance(step, Grenade):
        return p.grenades > 0 or (healthy and pile.grenades > 0)
    if isinstance(step, PlaceMine):
        return healthy and ((p.slot is not None and p.slot.kind == "mine") or pile.mines > 0)
    item = step.item
    if item not in (Item.GRENADE, Item.BULLET) and not healthy:
        return False
    may_ammo = healthy or (state.options.variant != "classic" and p.health in ("wounded", "sick"))
    if (item is Item.GRENADE and p.grenades) or (item is Item.BULLET and p.bullets and may_ammo):
        return True
    if healthy and p.slot is not None and item.value == p.slot.kind:
        return True
    underfoot = {Item.GRENADE: pile.grenades, Item.BULLET: pile.bullets, Item.TREASURE: len(pile.treasures),
                 Item.MINE: pile.mines, Item.CORPSE: len(pile.corpses)}
    return healthy and underfoot[item] > 0


def _status_message(state: GameState, seat: int) -> Message:
    data = status(state, seat)
    p = state.players[seat]
    text = f"Игрок {seat + 1}: {_HEALTH_WORD[p.health]}, пуль: {p.bullets}, гранат: {p.grenades}"
    if p.slot is not None:
        text += f", {_SLOT_WORD[p.slot.kind]}"
    if p.cure_left is not None:
        text += f", на лечение осталось ходов: {p.cure_left}"
    return Message(seat=seat, code="status", text=text, data=data)


# --- validating a turn (public facts only) -----------------------------------------------------------


def check_turn(state: GameState, seat: int, turn: Turn) -> Impossible | None:
    """Why ``turn`` is refused for ``seat`` now (public facts only), or None: the refusal part of ``apply``,
    which calls it first; hosts use it to list the legal turns without applying them."""
    o = state.options
    if state.result is not None:
        return Impossible("game_over", "the game is over")
    if not 0 <= seat < len(state.players):
        return Impossible("bad_seat", "no such seat")
    if state.current != seat:
        return Impossible("not_your_turn", "it is another player's turn")
    if not turn.steps:
        return Impossible("empty_turn", "a turn needs a movement or a skip")
    if turn.visibility is Visibility.DARK and not o.allow_dark:
        return Impossible("dark_forbidden", "dark moves are off in this game (C§7.1)")
    if turn.visibility is Visibility.HALF_DARK and not o.allow_half_dark:
        return Impossible("half_dark_forbidden", "half-dark moves are off in this game (C§7.1)")
    if turn.treasure is not None and turn.treasure < 0:
        return Impossible("bad_treasure_choice",
                          "treasure: None, 0 or a position from the bottom (1, 2, ...)")
    if turn.reorder is not None:
        if not can_reorder(state, seat):
            return Impossible("reorder_not_allowed", "a re-order is offered only on the turn after a wound, "
                                                 "while re-orders are left (classic)")
        if turn.reorder.cell not in state.map.cells:
            return Impossible("reorder_off_map", "the re-ordered cell must be inside the outline")
    skips = [s for s in turn.steps if isinstance(s, Skip)]
    if skips and o.no_skip_or_repeat:
        return Impossible("skip_forbidden", "skipping is off in this game (C§7.7)")
    if o.no_skip_or_repeat and state.bumped.get(seat) == repr(turn.steps) and turn.reorder is None:
        return Impossible("repeat_forbidden", "the same request again into the wall it was told of (C§7.7)")
    refused = _check_actions(state, turn.steps, nested=False)
    if refused is not None:
        return refused
    if o.variant == "quantum":
        if len(turn.steps) != 1:
            return Impossible("one_action", "a quantum turn is exactly one action (Q§2.1)")
        return None
    if skips:
        if len(turn.steps) != 1:
            return Impossible("skip_not_alone", "a skip is the whole turn (C§6.6)")
        return None
    movements = [s for s in turn.steps if isinstance(s, MOVEMENT_TYPES)]
    if not movements:
        return Impossible("no_movement", "a turn has exactly one movement (C§2.1)")
    if len(movements) > 1:
        return Impossible("two_movements", "a turn has exactly one movement (C§2.1)")
    p = state.players[seat]
    if p.outside is not None and not isinstance(turn.steps[0], MOVEMENT_TYPES):
        return Impossible("outside_actions_first", "outside the labyrinth the turn starts with the movement")
    return None


def _check_actions(state: GameState, steps: Sequence[Step], nested: bool) -> Impossible | None:
    o = state.options
    for step in steps:
        if isinstance(step, Conditional):
            if o.variant == "quantum" or not o.allow_conditional:
                return Impossible("conditional_forbidden", "conditional requests are off in this game")
            if not step.then:
                return Impossible("empty_condition", "a conditional needs at least one action")
            refused = _check_actions(state, step.then, nested=True)
            if refused is not None:
                return refused
        elif nested and isinstance(step, (*MOVEMENT_TYPES, Skip)):
            return Impossible("movement_in_condition",
                          "a conditional holds only shots, grenades, throws and mines")
        elif isinstance(step, Shoot) and step.direction is None and o.variant == "classic":
            return Impossible("own_cell_shot", "classic shots go left, right, up or down (C§2.1)")
        elif isinstance(step, Throw) and step.direction is not None and not o.allow_throw:
            return Impossible("throw_forbidden", "throwing is off in this game: leave items (C§7.1)")
        elif isinstance(step, PlaceMine) and step.direction is not None and not o.allow_adjacent_mines:
            return Impossible("adjacent_mine_forbidden", "mines only on the own cell in this game (C§7.1)")
    return None


# --- one turn -------------------------------------------------------------------------------------


@dataclass
class _Facts:
    """What the game master has determined so far in this turn (for conditional steps)."""

    moved: bool = False
    wall: bool = False
    cell: str | None = None
    found: dict[str, int] = field(default_factory=dict)
    scream: bool | None = None


class _Turn:
    def __init__(self, state: GameState, seat: int, turn: Turn) -> None:
        self.s = state
        self.seat = seat
        self.p = state.players[seat]
        self.turn = turn
        self.o = state.options
        self.classic = self.o.variant == "classic"
        self.msgs: list[Message] = []
        self.facts = _Facts()
        self.changed = False
        self.skipped = False
        self.arrived = False
        self.refilled = False
        self.fallen: set[int] = set()
        self.wounded_self = False
        self.start = self.p.pos
        self.from_outside = False

    def say(self, code: str, text: str, **data: JSONValue) -> None:
        self.msgs.append(_msg(self.seat, code, text, **data))

    # --- items and health ---

    def reported_cell(self, p: Player, pos: Pos) -> str:
        kind = cell_type(self.s, pos)
        if kind is CellType.ENCEPHALITIS and (p.immune or (not self.classic and p.health == "sick")):
            return "land"
        return kind.value

    def drop_slot(self, p: Player, pos: Pos) -> None:
        slot, p.slot = p.slot, None
        if slot is not None:
            self.put(slot, pos)

    def put(self, slot: Slot, pos: Pos) -> None:
        """A slot item comes to lie on ``pos`` (a mine unarmed; a corpse in a hospital is cremated)."""
        pile = self.s.pile(pos)
        if slot.kind == "treasure":
            pile.treasures.append(slot.true)
        elif slot.kind == "mine":
            pile.mines += 1
        elif slot.corpse is not None and cell_type(self.s, pos) is not CellType.HOSPITAL:
            pile.corpses.append(slot.corpse)

    def hurt(self, victim: Player, cause: str) -> str:
        """A bullet or a mine hits ``victim``: "" (no effect), "wounded" or "killed"."""
        if cell_type(self.s, victim.pos) is CellType.HOSPITAL:
            return ""
        if victim.health == "healthy":
            victim.health = "wounded"
            if self.classic:
                self.s.pile(victim.pos).bullets += victim.bullets
                victim.bullets = 0
            self.drop_slot(victim, victim.pos)
            victim.notice = True
            victim.may_reorder = (self.classic and victim.reorders_left > 0
                                  and (cause != "mine" or self.o.mine_victims_reorder))
            if victim is self.p:
                self.wounded_self = True
            return "wounded"
        self.die(victim, infectious=victim.health == "sick")
        return "killed"

    def die(self, victim: Player, infectious: bool) -> None:
        pile = self.s.pile(victim.pos)
        pile.bullets += victim.bullets
        pile.grenades += victim.grenades
        victim.bullets = victim.grenades = 0
        self.drop_slot(victim, victim.pos)
        pile.corpses.append(Corpse(seat=victim.seat, infectious=infectious))
        victim.health = "dead"
        victim.cure_left = None
        victim.notice = victim is not self.p  # another's death is announced when their turn comes
        victim.may_reorder = False
        self.changed = True

    def infect(self, p: Player) -> None:
        if p.immune or p.health in ("sick", "dead"):
            return
        if p.health == "wounded":
            self.die(p, infectious=True)
            self.say("died", "Ты заразился энцефалитом и погиб (ранен)", cause="encephalitis")
            return
        p.health = "sick"
        pile = self.s.pile(p.pos)
        if self.classic:
            pile.bullets += p.bullets
            p.bullets = 0
        self.drop_slot(p, p.pos)
        p.cure_left = self.o.cure_time
        if self.o.cure_time is None:
            self.say("infected", "Ты заразился энцефалитом", cure_left=None)
        else:
            self.say("infected", f"Ты заразился энцефалитом, на лечение у тебя есть {self.o.cure_time} ходов",
                     cure_left=self.o.cure_time)

    def blast(self, pos: Pos) -> list[Player]:
        """An armed mine goes off on ``pos``: every player there is wounded; bullets and mines there
        (carried or lying) are destroyed; grenades, corpses and treasures survive (C§5.7)."""
        pile = self.s.pile(pos)
        pile.armed = pile.mines = pile.bullets = 0
        victims = players_on(self.s, pos)
        for q in victims:
            q.bullets = 0
            if q.slot is not None and q.slot.kind == "mine":
                q.slot = None
        for q in victims:
            self.hurt(q, "mine")
        return victims

    def can_carry_ammo(self, p: Player) -> bool:
        return p.health == "healthy" or (not self.classic and p.health in ("wounded", "sick"))

    def pickup(self, p: Player, pos: Pos) -> None:
        """Report what lies here and pick up what may be carried (C§5.1, §5.3, §5.8)."""
        pile = self.s.pile(pos)
        found = {"treasures": len(pile.treasures), "bullets": pile.bullets, "grenades": pile.grenades,
                 "mines": pile.mines, "corpses": len(pile.corpses)}
        self.facts.found = found
        if any(found.values()):
            words = [f"{k}: {v}" for k, v in (("клад", found["treasures"]), ("пули", found["bullets"]),
                                             ("гранаты", found["grenades"]), ("мины", found["mines"]),
                                             ("трупы", found["corpses"])) if v]
            self.say("found", "Нашел " + ", ".join(words), **found)
        if self.can_carry_ammo(p):
            take = min(CARRY_MAX - p.bullets, pile.bullets)
            p.bullets += take
            pile.bullets -= take
            take = min(CARRY_MAX - p.grenades, pile.grenades)
            p.grenades += take
            pile.grenades -= take
        if p.health != "healthy":
            return
        choice = self.turn.treasure
        offer: Slot | None = None
        if pile.treasures and choice != 0:
            offer = Slot("treasure")
        elif pile.mines:
            offer = Slot("mine")
        elif pile.corpses:
            offer = Slot("corpse")
        if offer is None:
            return
        held = p.slot
        if held is not None and held.kind == "treasure" and offer.kind == "treasure":
            if choice is None or self.turn.visibility is Visibility.DARK:
                return  # keep the old one (C§5.1, §6.7)
            index = min(choice, len(pile.treasures)) - 1
            p.slot = Slot("treasure", true=pile.treasures.pop(index))
            pile.treasures.append(held.true)
            return
        if held is not None and SLOT_RANK[held.kind] >= SLOT_RANK[offer.kind]:
            return
        if offer.kind == "treasure":
            index = len(pile.treasures) - 1 if choice is None else min(choice, len(pile.treasures)) - 1
            offer = Slot("treasure", true=pile.treasures.pop(index))
        elif offer.kind == "mine":
            pile.mines -= 1
        else:
            offer = Slot("corpse", corpse=pile.corpses.pop())
        p.slot = offer
        if held is not None:
            self.put(held, pos)

    def refill(self, p: Player) -> None:
        if not self.turn.refill:
            return
        if self.can_carry_ammo(p):
            p.bullets = max(p.bullets, CARRY_MAX)
        p.grenades = max(p.grenades, CARRY_MAX)
        self.refilled = True
        self.say("refilled", f"У тебя {p.bullets} пули, {p.grenades} гранаты", bullets=p.bullets,
                 grenades=p.grenades)

    def replace_spent(self) -> None:
        """In an arsenal, what the player has just spent, thrown or left is replaced at once (C§5.3,
        Q§5.3: "незамедлительно заменяются ... (или находится в оном)"); said only when it changed."""
        p = self.p
        if not p.in_game or p.outside is not None or cell_type(self.s, p.pos) is not CellType.ARSENAL:
            return
        if p.grenades < CARRY_MAX or (self.can_carry_ammo(p) and p.bullets < CARRY_MAX):
            self.refill(p)

    def infectious_here(self, pos: Pos) -> bool:
        tick = self.s.ticks.get(pos)
        if tick is not None and tick.infectious:
            return True
        return any(c.infectious for c in self.s.pile(pos).corpses)

    # --- arriving and staying ---

    def arrive(self, pos: Pos) -> None:
        """The arrival effects on the final cell (conflict 14's order): mine, heal or refill, tick or
        infection, cremation, then the report of what lies here and the pickup."""
        p = self.p
        self.arrived = True
        p.pos = pos
        kind = cell_type(self.s, pos)
        pile = self.s.pile(pos)
        if pile.armed and (pos != self.start or self.from_outside):
            self.blast(pos)
            self.say("mine", "Подорвался на мине")
        if p.health == "dead":
            return
        if kind is CellType.HOSPITAL:
            if p.health in ("wounded", "sick"):
                if p.health == "sick":
                    p.immune = True
                    self.changed = True
                p.health = "healthy"
                p.cure_left = None
                self.say("healed", "Вылечился")
            if p.slot is not None and p.slot.kind == "corpse":
                p.slot = None
                self.say("cremated", "Труп кремирован")
        elif kind is CellType.ARSENAL:
            self.refill(p)
        elif kind is CellType.ENCEPHALITIS and self.reported_cell(p, pos) == "encephalitis":
            tick = self.s.ticks.get(pos)
            if tick is None:
                self.s.ticks[pos] = Tick(seat=p.seat, woken_turn=self.s.turn)
                self.say("tick", "Разбудил Клеща")
        if self.infectious_here(pos):
            self.infect(p)
        if p.in_game:
            self.pickup(p, pos)

    def stay(self) -> None:
        """A turn that ended where it began, without arriving anywhere: a movement that left the player
        where they were, a skip, or a quantum action (a shot, a grenade, a throw, a mine). Staying in an
        arsenal refills (told once a turn); staying on an infectious cell infects, so the waker who does
        not leave on their first move is infected whatever that move was (C§4.7, Q§4.7)."""
        p = self.p
        if not p.in_game or p.outside is not None:
            return
        if (cell_type(self.s, p.pos) is CellType.ARSENAL and (self.facts.moved or self.skipped)
                and not self.refilled):
            self.refill(p)  # an action's replacement was told when it happened (``replace_spent``)
        if self.infectious_here(p.pos):
            self.infect(p)

    # --- the movement ---

    def movement(self, step: Move | Downstream | Cycle) -> None:
        """Where the movement ends is ``movement``'s (the validator's too), on the live board; the
        answers and the arrival are the rules'."""
        p = self.p
        self.facts.moved = True
        if p.outside is not None:
            self.reenter(step)
            return
        start = p.pos
        m = self.s.map
        if isinstance(step, Cycle):
            dest = cycle_move(m, start)
            if dest is None:
                self.facts.wall = True
                self.say("no_hole", "Нельзя: ты не в Яме")
                return
            self.say("cycle", "Ход по циклу, попал в Яму", cell="hole")
            self.facts.cell = "hole"
            self.arrive(dest)
            return
        if isinstance(step, Downstream):
            dest = downstream_move(m, start)
            if dest is None:
                self.facts.wall = True
                self.say("no_river", "Нельзя: ты не в Реке (из Устья течения нет)")
                return
            self.land_on_river_cell(dest, "downstream")
            return
        d = step.direction
        result = movement_step(m, start, d, self.o.river_mode, self.s.walls, self.s.outer)
        if result.kind is StepKind.EXIT:
            self.exit(d)
        elif result.kind is StepKind.WALL:
            self.facts.wall = True
            if result.drifted:
                dest = result.end
                self.say("wall", "Туда нельзя, стенка, снесло по течению" + self.drift_tail(dest), drift=True,
                         cell=cell_type(self.s, dest).value)
                self.facts.cell = cell_type(self.s, dest).value
                self.arrive(dest)
            else:
                self.say("wall", "Туда нельзя, стенка", drift=False)
        else:
            self.entered(result)

    def drift_tail(self, dest: Pos) -> str:
        return ", попал в Устье" if cell_type(self.s, dest) is CellType.MOUTH else ", попал в Реку"

    def land_on_river_cell(self, dest: Pos, how: str) -> None:
        """A downstream move (deep: "поплыл по течению"; shallow: "по реке")."""
        kind = cell_type(self.s, dest).value
        if self.o.river_mode == "shallow":
            self.say("shallow", "По реке в устье" if kind == "mouth" else "По реке", cell=kind)
        else:
            self.say(how, "Поплыл по течению" + self.drift_tail(dest), cell=kind)
        self.facts.cell = kind
        self.arrive(dest)

    def entered(self, result: StepResult) -> None:
        """The answer to stepping onto a cell (``movement.step`` or ``enter`` said what happened: refused
        from the mouth, along the flow, a hole, a drift, or plain), then the arrival where it ended."""
        if result.kind is StepKind.REFUSED:
            self.facts.wall = True
            self.say("inflow", "Нельзя, впадает река")
            return
        assert result.kind is StepKind.MOVED and result.entered is not None
        dest = result.end
        kind = cell_type(self.s, dest)
        if result.along_flow:
            self.say("shallow", "По реке в устье" if kind is CellType.MOUTH else "По реке", cell=kind.value)
            self.facts.cell = kind.value
        elif result.hole:
            self.say("moved", CELL_PHRASE["hole"], cell="hole")
            self.facts.cell = "hole"
        elif result.drifted:
            tail = ", снесло в Устье" if kind is CellType.MOUTH else ", снесло по течению"
            self.say("drifted", "Попал в Реку" + tail, cell=kind.value)
            self.facts.cell = kind.value
        else:
            reported = self.reported_cell(self.p, dest)
            self.say("moved", CELL_PHRASE[reported], cell=reported)
            self.facts.cell = reported
        self.arrive(dest)

    def exit(self, d: Direction) -> None:
        p = self.p
        p.outside = d
        slot = p.slot
        if slot is not None and slot.kind == "treasure" and slot.true:
            p.slot = None
            self.s.result = Result("win", p.seat, "treasure")
            self.say("won", f"Игрок {p.seat + 1} вынес из лабиринта истинный клад и победил!")
            return
        if slot is not None and slot.kind == "treasure":
            p.slot = None
            self.changed = True
            self.say("crumbled",
                     "Вышел из лабиринта, клад рассыпался в прах. Следующим ходом вернись в лабиринт")
            return
        self.say("exited", "Вышел из лабиринта. Следующим ходом вернись в лабиринт")

    def reenter(self, step: Move | Downstream | Cycle) -> None:
        p = self.p
        assert p.outside is not None
        if not isinstance(step, Move) or step.direction != p.outside.opposite:
            self.eliminate()
            return
        p.outside = None
        self.from_outside = True
        self.say("reentered", "Вернулся в лабиринт")
        self.entered(enter(self.s.map, p.pos, self.o.river_mode, came_from=None, crossed=Side.OPEN_EXIT))

    def eliminate(self) -> None:
        p = self.p
        p.eliminated = True
        p.bullets = p.grenades = 0
        p.slot = None
        self.changed = True
        self.say("eliminated", f"Игрок {p.seat + 1} не вернулся в лабиринт и выбыл из игры")

    # --- the actions ---

    def nothing(self, problem: str, **details: JSONValue) -> None:
        """The action cannot be done: the seed's answer "Ничего не выйдет: ..." (``reason``, its words) and
        ``problem``, the same as a code (``NOTHING_DOING``), with its details (the missing item)."""
        why = NOTHING_DOING[problem]
        if problem == "not_carried":
            why += ITEM_NOMINATIVE[Item(details["item"])]
        self.say("nothing_doing", f"Ничего не выйдет: {why}", reason=why, problem=problem, **details)

    def shoot(self, step: Shoot) -> None:
        if self.classic:
            self.shoot_classic(step)
        else:
            self.shoot_quantum(step)

    def shoot_classic(self, step: Shoot) -> None:
        p = self.p
        assert step.direction is not None
        if p.health != "healthy":
            self.nothing("hurt_cannot_shoot")
            return
        here = cell_type(self.s, p.pos)
        if here in (CellType.HOSPITAL, CellType.ARSENAL):
            self.say("forbidden_here", "Отсюда стрелять нельзя")
            return
        pile = self.s.pile(p.pos)
        if pile.bullets:  # the bullets underfoot first: the seed's answer in C§6.5
            pile.bullets -= 1
        elif p.bullets:
            p.bullets -= 1
        else:
            self.nothing("no_bullets")
            return
        before = (pile.bullets, pile.grenades, len(pile.treasures), pile.mines, len(pile.corpses))
        victims = [q for q in players_on(self.s, p.pos) if q is not p and q.seat not in self.fallen]
        if not victims:
            here_pos = p.pos
            steps = 0
            while self.o.shot_range is None or steps < self.o.shot_range:
                if side_now(self.s, here_pos, step.direction) is not Side.OPEN:
                    break
                nxt = neighbour(self.s.map, here_pos, step.direction)
                assert nxt is not None
                here_pos = nxt
                steps += 1
                kind = cell_type(self.s, here_pos)
                if kind is CellType.HOSPITAL:
                    break
                targets = [q for q in players_on(self.s, here_pos) if q.seat not in self.fallen]
                if targets:
                    victims = targets
                    break
                if kind is CellType.ARSENAL:
                    break
        hit = [q for q in victims if self.hurt(q, "bullet")]
        self.fallen.update(q.seat for q in hit)
        scream = bool(hit)
        self.facts.scream = scream or bool(self.facts.scream)
        after = (pile.bullets, pile.grenades, len(pile.treasures), pile.mines, len(pile.corpses))
        names = ("bullets", "grenades", "treasures", "mines", "corpses")
        fell = {k: a - b for k, a, b in zip(names, after, before) if a > b}
        text = "Слышен вопль" if scream else "Воплей нет"
        if fell:
            text += "; под ноги упало: " + ", ".join(f"{k} {v}" for k, v in fell.items())
        text += f"; у тебя {p.bullets} пуль"
        if pile.bullets:
            text += f" и еще {pile.bullets} под ногами"
        self.say("shot", text, scream=scream, fell=dict(fell), bullets=p.bullets, underfoot=pile.bullets)

    def shoot_quantum(self, step: Shoot) -> None:
        p = self.p
        if p.bullets == 0:
            self.skipped = True
            self.say("no_bullets", "Пуль нет: ход пропущен")
            return
        p.bullets -= 1
        victims: list[Player] = []
        if cell_type(self.s, p.pos) not in (CellType.HOSPITAL, CellType.ARSENAL):
            target: Pos | None = p.pos
            if step.direction is not None:
                target = (neighbour(self.s.map, p.pos, step.direction)
                          if side_now(self.s, p.pos, step.direction) is Side.OPEN else None)
            if target is not None:
                victims = [q for q in players_on(self.s, target) if q is not p]
        wounded: list[JSONValue] = []
        killed: list[JSONValue] = []
        for q in victims:
            result = self.hurt(q, "bullet")
            if result == "wounded":
                wounded.append(q.seat)
            elif result == "killed":
                killed.append(q.seat)
        self.facts.scream = bool(wounded or killed)
        parts = [f"ранен игрок {s + 1}" for s in wounded if isinstance(s, int)]
        parts += [f"убит игрок {s + 1}" for s in killed if isinstance(s, int)]
        text = ("Выстрел: " + ", ".join(parts)) if parts else "Выстрел: никого не задело"
        self.say("shot", text + f"; у тебя {p.bullets} пуль", wounded=wounded, killed=killed,
                 bullets=p.bullets)

    def grenade(self, step: Grenade) -> None:
        p = self.p
        pile = self.s.pile(p.pos)
        if p.grenades:
            p.grenades -= 1
        elif p.health == "healthy" and pile.grenades:
            pile.grenades -= 1
        else:
            self.nothing("no_grenades")
            return
        kind = side_now(self.s, p.pos, step.direction)
        if kind is Side.INNER_WALL:
            there = neighbour(self.s.map, p.pos, step.direction)
            assert there is not None
            self.s.walls.discard(frozenset((p.pos, there)))
            outcome_ = "exploded"
        elif kind is Side.CLOSED_EXIT:
            self.s.outer[(p.pos, step.direction)] = Outer.OPEN_EXIT
            outcome_ = "exploded"
        elif kind is Side.OUTER_WALL:
            outcome_ = "not_exploded"
        else:
            outcome_ = "no_wall"
        if outcome_ == "exploded":
            self.changed = True
        if self.o.grenade_reports:
            phrase = {"exploded": "Стенка взорвалась", "not_exploded": "Стенка не взорвалась",
                      "no_wall": "Стенки не было"}[outcome_]
            self.say("grenade", f"{phrase}; осталось гранат: {p.grenades}", result=outcome_,
                     grenades=p.grenades)
        else:
            self.say("grenade", f"Взорвал гранату; осталось гранат: {p.grenades}", grenades=p.grenades)

    def take_for_throw(self, item: Item) -> Slot | Item | None:
        """Take ``item`` from the player's hands, else (a healthy player) from under their feet: the
        slot item taken, or the ``Item`` for a bullet or a grenade, None when there is none."""
        p = self.p
        may_slot = p.health == "healthy"
        may_ammo = self.can_carry_ammo(p)
        if item is Item.GRENADE and p.grenades:
            p.grenades -= 1
            return Item.GRENADE
        if item is Item.BULLET and p.bullets and may_ammo:
            p.bullets -= 1
            return Item.BULLET
        if item.value == (p.slot.kind if p.slot else None) and may_slot:
            taken, p.slot = p.slot, None
            return taken
        if p.health != "healthy":
            return None
        pile = self.s.pile(p.pos)
        if item is Item.GRENADE and pile.grenades:
            pile.grenades -= 1
            return Item.GRENADE
        if item is Item.BULLET and pile.bullets:
            pile.bullets -= 1
            return Item.BULLET
        if item is Item.TREASURE and pile.treasures:
            return Slot("treasure", true=pile.treasures.pop())
        if item is Item.MINE and pile.mines:
            pile.mines -= 1
            return Slot("mine")
        if item is Item.CORPSE and pile.corpses:
            return Slot("corpse", corpse=pile.corpses.pop())
        return None

    def throw(self, step: Throw) -> None:
        p = self.p
        if step.item not in (Item.GRENADE, Item.BULLET) and p.health != "healthy":
            self.nothing("hurt_cannot_throw")
            return
        thing = self.take_for_throw(step.item)
        if thing is None:
            self.nothing("not_carried", item=step.item.value)
            return
        dest: Pos | None = p.pos
        at_feet = False
        if step.direction is not None:
            kind = side_now(self.s, p.pos, step.direction)
            if kind is Side.OPEN:
                dest = neighbour(self.s.map, p.pos, step.direction)
            elif kind is Side.OPEN_EXIT:
                dest = None
            else:
                at_feet = True
        if at_feet:
            self.say("at_feet", f"У твоих ног появился {ITEM_NOMINATIVE[step.item]}", item=step.item.value)
        elif step.direction is None:
            self.say("left", f"Оставил {ITEM_WORD[step.item]}", item=step.item.value)
        else:
            self.say("thrown", f"Бросил {ITEM_WORD[step.item]}", item=step.item.value)
        self.land(step.item, thing, dest)

    def land(self, item: Item, thing: Slot | Item, dest: Pos | None) -> None:
        if dest is None:  # out of the labyrinth: gone (C§5.2)
            if isinstance(thing, Slot) and thing.kind == "treasure":
                self.changed = True
                if thing.true:
                    self.s.result = Result("draw", None, "treasure_out")
                    self.say("draw_treasure_out", "Истинный клад выброшен из лабиринта: ничья!")
            return
        pile = self.s.pile(dest)
        if item is Item.BULLET:
            pile.bullets += 1
        elif item is Item.GRENADE:
            pile.grenades += 1
        elif isinstance(thing, Slot):
            self.put(thing, dest)
            if item is Item.CORPSE and pile.armed:
                victims = self.blast(dest)
                if self.p in victims:
                    self.say("mine", "Подорвался на мине")
                else:
                    self.say("blast", "Раздался взрыв")

    def place_mine(self, step: PlaceMine) -> None:
        p = self.p
        if p.health != "healthy":
            self.nothing("hurt_cannot_arm")
            return
        if p.slot is not None and p.slot.kind == "mine":
            p.slot = None
        elif self.s.pile(p.pos).mines:
            self.s.pile(p.pos).mines -= 1
        else:
            self.nothing("no_mine")
            return
        dest: Pos | None = p.pos
        if step.direction is not None:
            kind = side_now(self.s, p.pos, step.direction)
            if kind is Side.OPEN:
                dest = neighbour(self.s.map, p.pos, step.direction)
            elif kind is Side.OPEN_EXIT:
                dest = None
        self.say("mine_placed", "Мина установлена")
        if dest is None or cell_type(self.s, dest) in (CellType.HOSPITAL, CellType.ARSENAL):
            return  # neutralised (C§5.7)
        self.s.pile(dest).armed += 1

    def holds(self, c: Condition) -> bool:
        f = self.facts
        if c is Condition.WALL:
            return f.moved and f.wall
        if c is Condition.NO_WALL:
            return f.moved and not f.wall
        if c is Condition.SCREAM:
            return f.scream is True
        if c is Condition.NO_SCREAM:
            return f.scream is False
        if c is Condition.FOUND_ANYTHING:
            return any(f.found.values())
        found_key = {Condition.FOUND_TREASURE: "treasures", Condition.FOUND_BULLETS: "bullets",
                     Condition.FOUND_GRENADES: "grenades", Condition.FOUND_MINE: "mines",
                     Condition.FOUND_CORPSE: "corpses"}.get(c)
        if found_key is not None:
            return f.found.get(found_key, 0) > 0
        return f.cell == str(c.value)

    def do(self, step: Step) -> None:
        if self.s.result is not None or not self.p.in_game:
            return
        if self.p.outside is not None and not isinstance(step, (*MOVEMENT_TYPES, Skip)):
            self.nothing("outside")  # the actions after leaving the labyrinth
            return
        if isinstance(step, MOVEMENT_TYPES):
            self.movement(step)
        elif isinstance(step, Skip):
            self.skipped = True
            if self.p.outside is not None:
                self.eliminate()
            else:
                self.say("skipped", "Пропустил ход")
        elif isinstance(step, Conditional):
            met = self.holds(step.condition)
            self.say("condition", f"Условие «{step.condition.value}»: " + ("да" if met else "нет"),
                     condition=step.condition.value, met=met)
            if met:
                for inner in step.then:
                    self.do(inner)
        else:
            self.action(step)
            self.replace_spent()

    def action(self, step: Action) -> None:
        if isinstance(step, Shoot):
            self.shoot(step)
        elif isinstance(step, Grenade):
            self.grenade(step)
        elif isinstance(step, Throw):
            self.throw(step)
        else:
            self.place_mine(step)

    def run(self) -> list[Message]:
        p = self.p
        turn = self.turn
        p.notice = False
        offered = p.may_reorder
        p.may_reorder = False
        if turn.reorder is not None and offered:
            p.pos = turn.reorder.cell
            p.reorders_left -= 1
            self.start = p.pos
            self.say("reordered", "Перезаказ клетки принят")
        started_sick = p.health == "sick"
        if p.outside is not None and not isinstance(turn.steps[0], MOVEMENT_TYPES):
            self.eliminate()  # a quantum action (or a skip) outside: not back in at once
        for step in turn.steps:
            self.do(step)
        if not self.arrived:
            self.stay()
        if (started_sick and p.health == "sick" and p.cure_left is not None and self.arrived
                and p.pos != self.start):
            p.cure_left -= 1
            if p.cure_left <= 0:
                self.die(p, infectious=True)
                self.say("died", "Время на лечение истекло: игрок погиб", cause="cure_time")
        if self.wounded_self and turn.visibility is Visibility.DARK:
            p.notice = False  # a mine in one's own dark move: nobody tells, no re-order (conflict 13)
            p.may_reorder = False
        return self.msgs


# --- the game master's filter and the turn's end -----------------------------------------------------


def _visible(msgs: list[Message], seat: int, visibility: Visibility, moved: bool) -> list[Message]:
    """What the game master says of a turn: everything, only "Есть" (dark, or half-dark without a
    movement), or only the wall / no wall of the movement (half-dark)."""
    if visibility is Visibility.NORMAL:
        return msgs
    kept = [m for m in msgs if m.code in ALWAYS_REPORTED]
    if visibility is Visibility.DARK or not moved:
        return [_msg(seat, "dark", "Есть: ход втемную, результат не сообщать")] + kept
    wall = any(m.code in ("wall", "inflow", "no_hole", "no_river") for m in msgs)
    head = _msg(seat, "wall" if wall else "no_wall", "Нельзя, стенка" if wall else "Стенки нет")
    return [head] + kept


def _true_treasure_on_source(state: GameState) -> bool:
    if state.options.river_mode != "deep":
        return False
    return any(any(pile.treasures) and is_source(state.map, pos) for pos, pile in state.piles.items())


def _end_checks(state: GameState) -> list[Message]:
    """Draws and the last survivor, checked after every turn (C§3.5, §3.6, §4.6, §5.2, §6.6)."""
    if state.result is not None:
        return []
    alive = state.in_game()
    if not alive:
        state.result = Result("draw", None, "all_dead")
        return [_msg(-1, "draw_all_dead", "Погибли все: ничья")]
    if len(alive) == 1 and len(state.players) > 1:
        last = alive[0]
        limit = state.options.last_survivor_turns
        if limit is None:
            state.result = Result("win", last.seat, "last_survivor")
            return [_msg(last.seat, "last_survivor", f"Игрок {last.seat + 1} остался один и победил")]
        if state.survivor_turns is None:
            state.survivor_turns = limit
        elif state.survivor_turns <= 0:
            state.result = Result("draw", None, "survivor_time")
            return [_msg(last.seat, "draw_survivor_time", "Последний игрок не вынес клад вовремя: ничья")]
    if _true_treasure_on_source(state):
        state.result = Result("draw", None, "treasure_on_source")
        return [_msg(-1, "draw_treasure_source", "Истинный клад недоступен: ничья")]
    if state.skips >= len(alive):
        state.result = Result("draw", None, "all_skip")
        return [_msg(-1, "draw_all_skip", "Все игроки пропустили ход: ничья")]
    nstop = state.options.nstop if state.options.nstop is not None else len(state.map.cells)
    if state.calm >= nstop * len(alive):
        state.result = Result("draw", None, "nstop")
        return [_msg(-1, "draw_nstop", f"{nstop} кругов без изменений: ничья", nstop=nstop)]
    return []


def _advance(state: GameState, after: int) -> list[Message]:
    """Pass the turn to the next seat in the game; announce wounds and deaths as turns reach them."""
    msgs: list[Message] = []
    n = len(state.players)
    for k in range(1, n + 1):
        q = state.players[(after + k) % n]
        if not q.in_game:
            if q.notice and q.health == "dead":
                msgs.append(_msg(q.seat, "killed", f"Игрок {q.seat + 1} убит"))
            q.notice = False
            continue
        if state.result is not None:
            continue  # the game is over: only the deaths are still announced
        state.current = q.seat
        for tick in state.ticks.values():
            if not tick.infectious and state.turn - tick.woken_turn >= len(state.in_game()):
                tick.infectious = True
        if q.notice and q.health == "wounded":
            if q.may_reorder and q.reorders_left > 0:
                msgs.append(_msg(q.seat, "wounded", f"Игрок {q.seat + 1} ранен. Можно заказать новую клетку",
                                 reorder=True))
            else:
                q.may_reorder = False
                msgs.append(_msg(q.seat, "wounded", f"Игрок {q.seat + 1} ранен", reorder=False))
        return msgs
    state.current = None
    return msgs


def _finish(state: GameState, seat: int, msgs: list[Message], changed: bool, skipped: bool,
            visibility: Visibility, moved: bool = False, steps: tuple[Step, ...] | None = None
            ) -> list[Message]:
    state.turn += 1
    state.calm = 0 if changed else state.calm + 1
    state.skips = state.skips + 1 if skipped else 0
    if state.survivor_turns is not None and state.players[seat].in_game:
        state.survivor_turns -= 1
    shown = _visible(msgs, seat, visibility, moved)
    state.last[seat] = list(shown)
    state.bumped.pop(seat, None)
    if steps is not None and any(m.code in ("wall", "inflow", "no_river", "no_hole") for m in shown):
        state.bumped[seat] = repr(steps)
    shown = shown + _end_checks(state)
    shown += _advance(state, seat)
    if state.result is not None:
        state.current = None
    for pos in [pos for pos, pile in state.piles.items() if pile.empty()]:
        del state.piles[pos]
    return shown


# --- the API ---------------------------------------------------------------------------------------


def apply(state: GameState, seat: int, request: Request,
          rng: random.Random | None = None) -> Success[GameState, Message] | Impossible:
    """Answer ``seat``'s request: Success(the new state, the messages), or Impossible when the request is
    malformed for this turn (nothing changed). A ``Turn`` must be the seat's turn and well formed for the
    variant; ``Status`` and ``Repeat`` are free at any time and change nothing."""
    if not 0 <= seat < len(state.players):
        return Impossible("bad_seat", "no such seat")
    if isinstance(request, Status):
        return Success(state, (_status_message(state, seat),))
    if isinstance(request, Repeat):
        if not 0 <= request.seat < len(state.players):
            return Impossible("bad_seat", "no such seat to repeat")
        head = _msg(seat, "repeat", f"Последний ход игрока {request.seat + 1}:", of=request.seat)
        return Success(state, (head, *state.last.get(request.seat, [])))
    refused = check_turn(state, seat, request)
    if refused is not None:
        return refused
    new = state.copy()
    turn = _Turn(new, seat, request)
    msgs = turn.run()
    shown = _finish(new, seat, msgs, turn.changed, turn.skipped, request.visibility, turn.facts.moved,
                    request.steps)
    return Success(new, tuple(shown))


def timeout(state: GameState, seat: int) -> tuple[GameState, list[Message]]:
    """The one-minute timer ran out for ``seat`` (C§9): the player loses; their corpse and property
    stay on their cell (outside the labyrinth they simply vanish)."""
    if state.result is not None or state.current != seat:  # a caller's mistake, not a refusal
        raise ValueError(f"seat {seat} is not the player to move")
    new = state.copy()
    turn = _Turn(new, seat, Turn(steps=(Skip(),)))
    p = new.players[seat]
    if p.outside is not None:
        p.eliminated = True
        p.bullets = p.grenades = 0
        p.slot = None
        turn.changed = True
    else:
        turn.die(p, infectious=p.health == "sick")
    p.notice = False
    turn.say("timeout", f"Игрок {seat + 1} не назвал ход за минуту и проиграл")
    shown = _finish(new, seat, turn.msgs, True, False, Visibility.NORMAL)
    return new, shown
