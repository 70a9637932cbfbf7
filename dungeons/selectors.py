"""Reads of the dungeons app: the generation parameters in force, stored dungeons, previews."""
from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from backend.api.pagination import Page
from backend.errors import NotFound, RuleViolation
from combat.models import CombatSettings
from combat.texts import event_text
from dungeons import generation
from dungeons.kinds import run_kind_hooks
from dungeons.models import Dungeon, GenerationSettings, MemberStatus, RoomKind, RunStatus
from dungeons.runs import store as run_store
from dungeons.runs.engine.values import STAT_NAMES, run_stats
from dungeons.runs.store import LootRow, MemberRow, RoomBattle, RoomRow, RunRow
from dungeons.runs.texts import entry_text
from players import inventory
from players.models import CarrySettings, Player


def generation_params_get() -> generation.GenerationParams:
    """The parameters the server generates with: the admin-edited row (created with defaults if missing)."""
    return GenerationSettings.load().to_params()


def dungeon_get(*, dungeon_id: int) -> Dungeon:
    return Dungeon.objects.prefetch_related("rooms").get(pk=dungeon_id)


def dungeon_preview(
    *,
    kind: str,
    party_size: int,
    rank: float,
    completed: float,
    same_guild: bool,
    seed: int,
    params: generation.GenerationParams | None = None,
    npc_kinds: Iterable[str] | None = None,
    version: int = generation.GENERATOR_VERSION,
) -> generation.Dungeon:
    """Generate without storing, exactly as ``dungeon_generate`` would for the same seed."""
    return generation.generate_dungeon(
        kind=kind,
        n=party_size,
        rank=rank,
        completed=completed,
        same_guild=same_guild,
        params=params or generation_params_get(),
        rng=random.Random(seed),
        npc_kinds=npc_kinds,
        version=version,
    )


def dungeon_replay(*, dungeon: Dungeon) -> generation.Dungeon:
    """Regenerate a stored dungeon from its seed, inputs and parameter snapshot.

    The engine runs the rules of ``dungeon.generator_version`` (old versions keep their code path),
    so a dungeon stored by an older generator replays unchanged; a version the engine no longer
    knows raises ValueError instead of silently returning a different dungeon.
    """
    if dungeon.generator_version not in generation.SUPPORTED_GENERATOR_VERSIONS:
        raise ValueError(
            f"dungeon {dungeon.pk} was made by generator v{dungeon.generator_version}, "
            f"this engine runs v{', v'.join(map(str, generation.SUPPORTED_GENERATOR_VERSIONS))}"
        )
    return dungeon_preview(
        kind=dungeon.kind,
        party_size=dungeon.party_size,
        rank=dungeon.rank,
        completed=dungeon.completed,
        same_guild=dungeon.same_guild,
        seed=dungeon.seed,
        params=generation.GenerationParams(**dungeon.params),
        npc_kinds=dungeon.npc_candidates,
        version=dungeon.generator_version,
    )


# --- runs ---------------------------------------------------------------------------------------


def run_list_mine(*, player: Player, cursor: str | None, page_size: int) -> Page:
    """The player's runs, newest first (not the lobbies they left)."""
    return run_store.runs_of_player(player_id=player.pk, cursor=cursor, page_size=page_size)


def run_list_lobbies(*, cursor: str | None, page_size: int) -> Page:
    """Open lobbies anyone may join, newest first."""
    return run_store.lobbies_open(cursor=cursor, page_size=page_size)


@dataclass(frozen=True)
class LootItemKindView:
    id: int
    name: str
    category: str
    weight: int


@dataclass(frozen=True)
class RunLootView:
    id: int
    item_kind: LootItemKindView
    taken_by: int | None


@dataclass(frozen=True)
class RunBattleRef:
    id: int
    outcome: str


@dataclass(frozen=True)
class RunRoomView:
    floor: int
    room: int
    kind: str
    cleared: bool
    seal: str | None
    battle: RunBattleRef | None
    loot: list[RunLootView]


@dataclass(frozen=True)
class RunFloorView:
    floor: int
    rooms: int
    visited: list[str]


@dataclass(frozen=True)
class RunNpcView:
    kind: str
    hp: int
    max_hp: int


@dataclass(frozen=True)
class RunMemberView:
    player: int
    username: str
    position: int
    status: str
    hp: int
    max_hp: int
    weapon_choice: str
    stat_boosts: dict[str, int]
    pending_effects: list[dict[str, Any]]
    kills: dict[str, int]
    money_lost: int
    items_lost: int


@dataclass(frozen=True)
class RunView:
    """What a party member's client shows about a run; ``dungeons.serializers.RunOutput`` declares it."""

    id: int
    kind: str
    status: str
    host: int
    step: int
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    seed: int | None
    dungeon: int | None
    floors: list[RunFloorView]
    current_room: RunRoomView | None
    npc: RunNpcView | None
    members: list[RunMemberView]
    log: list[dict[str, Any]]
    is_member: bool
    darkness: dict[str, Any] | None
    events: list[dict[str, Any]]
    last_event: int
    awaiting: int | None
    deadline: datetime | None
    allowed_actions: list[dict[str, Any]]


#: ``run_payload``'s ``kind_view`` when the caller does not hold it.
_ASK_THE_KIND = object()


def run_events(*, run_id: int, log: list[dict[str, Any]], since: int, names: Mapping[str, str], count: int,
               held: tuple[list[dict[str, Any]], Mapping[int, Mapping[str, str]]] | None = None
               ) -> list[dict[str, Any]]:
    """The run's events after ``since`` in its one sequence (SPEC 13, numbered up to ``count``): its log's
    entries (``origin`` "run") and its battles' events (``origin`` "battle", with the battle and the event's
    number there), in the order they happened, each with its ``seq`` and its ``text`` in the active language
    (dungeons/runs/texts.py, ``names``: player id -> username; combat/texts.py, with each battle's names).

    The battles' events are read only when the numbers after ``since`` are not all the log's, and not at all
    when the caller ``held`` them (the events a step numbered, with their battles' names) and they fill the
    gap: an answer built from a step reads nothing."""
    entries = [{"seq": entry["seq"], "origin": "run", **entry, "text": entry_text(entry, names)}
               for entry in log if entry["seq"] > since]
    missing = count - since - len(entries)
    if missing <= 0:
        return entries
    if held is not None and sum(1 for event in held[0] if event["seq"] > since) == missing:
        found, battle_names = [event for event in held[0] if event["seq"] > since], held[1]
    else:
        found, battle_names = run_store.battle_events_of_run(run_id=run_id, since=since)
    spoken = [{**event, "text": event_text(event, battle_names.get(event["battle"], {}))} for event in found]
    return sorted([*entries, *spoken], key=lambda event: event["seq"])


def _next_room(run: RunRow, rooms: list[RoomRow]) -> tuple[int, int] | None:
    """The room after the party's, floor by floor (as ``store.next_position``), None after the last."""
    assert run.floor is not None and run.room is not None
    after = [(r.floor, r.index) for r in rooms if (r.floor, r.index) > (run.floor, run.room)]
    return min(after) if after else None


def run_allowed_actions(*, run: RunRow, member: MemberRow | None, room: RoomRow | None, rooms: list[RoomRow],
                        battle: RoomBattle | None, loot: list[LootRow], kind_view: Any
                        ) -> list[dict[str, Any]]:
    """What ``member`` can do now that would succeed, each in the shape its route takes back: ``advance`` and
    ``escape`` (``step``: POST runs/{id}/advance/ or escape/), ``drink`` (``potion``: POST runs/{id}/drink/),
    ``take_loot`` (``loot``: POST runs/{id}/loot/{loot}/take/); a run kind changes the list (a darkness run
    moves, ``move`` with ``step`` and ``direction``, instead of advancing). A battle's own actions are on the
    battle (``GET battles/{id}/``), none here while it is on. Reads what the member carries only when a
    potion or a pickup could be offered."""
    if member is None or room is None:
        return []
    inside = run.status == RunStatus.ACTIVE and member.status == MemberStatus.IN_DUNGEON
    finished = run.status == RunStatus.COMPLETED and member.status == MemberStatus.FINISHED
    fighting = battle is not None and battle.outcome == "ongoing"
    if not (inside or finished) or fighting:
        return []
    allowed: list[dict[str, Any]] = []
    if inside:
        last = run.room_cleared and _next_room(run, rooms) is None  # the last boss withdrew: only out
        if run.room_cleared and not last:
            allowed.append({"kind": "advance", "step": run.step})
        if room.kind in (RoomKind.TREASURE, RoomKind.REST) or last:
            allowed.append({"kind": "escape", "step": run.step})
    lying = [item for item in loot if item.taken_by_id is None]
    if inside or lying:
        carried = run_store.carried([member.player_id])[member.player_id]
        if inside:
            allowed += [{"kind": "drink", "potion": item.pk} for item in carried  # healing and stat potions
                        if item.item_kind.category == inventory.POTION
                        and item.item_kind.sub_kind != "effect"]
        if lying:
            stats = {name: getattr(member.player, name) for name in STAT_NAMES}
            strength = run_stats(stats, member.stat_boosts if inside else {})["strength"]
            limits = inventory.carry_limits(rules=CarrySettings.cached().to_rules(), strength=strength,
                                            belt_level=member.player.potion_belt_level)
            held = [inventory.Carried(category=i.item_kind.category, sub_kind=i.item_kind.sub_kind,
                                      weight=i.item_kind.weight, equipped=i.equipped) for i in carried]
            allowed += [{"kind": "take_loot", "loot": item.pk} for item in lying
                        if inventory.pickup_violation(
                            carried=held, limits=limits,
                            candidate=inventory.Carried(category=item.item_kind.category,
                                                        sub_kind=item.item_kind.sub_kind,
                                                        weight=item.item_kind.weight)) is None]
    return run_kind_hooks(run.kind).allowed_actions(run=run, kind_view=kind_view, allowed=allowed,
                                                    walking=inside and run.room_cleared)


#: ``run_payload``'s ``kind_view`` when the caller does not hold it.
_ASK_THE_KIND = object()


def run_payload(
    *, run: RunRow, log: list[dict[str, Any]], player: Player, members: list[MemberRow], rooms: list[RoomRow],
    battle: RoomBattle | None, loot: list[LootRow], kind_view: Any = _ASK_THE_KIND, since: int = 0,
    held: tuple[list[dict[str, Any]], Mapping[int, Mapping[str, str]]] | None = None,
) -> RunView:
    """Everything a party member's client shows about a run (a stranger sees a lobby the same way), from
    what the caller holds: every member of the run in formation order, the dungeon's rooms in order
    (none for a lobby), the current room's battle and the loot lying in it.

    The layout ahead stays hidden: only rooms already entered show their kind. The seed is
    revealed once the run is over, so nobody can precompute the dungeon's draws. ``kind_view``: the run
    kind's own state if the caller holds it (e.g. a darkness move's), else the kind's hook reads it.
    ``since``: the events shown are those after it in the run's one sequence (``run_events``; ``held``: the
    battle events the caller's step numbered, with their battles' names). The run waits for someone
    (``awaiting``, ``deadline``) while its room's battle is on: the battle's turn as stored (a deadline that
    has passed is applied by the next read of or action in the battle).
    """
    visited: dict[int, list[str]] = {}
    room = None
    floors: list[RunFloorView] = []
    if run.dungeon_id is not None and run.floor is not None:
        assert run.room is not None
        per_floor: dict[int, int] = {}
        for r in rooms:
            per_floor[r.floor] = per_floor.get(r.floor, 0) + 1
            if (r.floor, r.index) <= (run.floor, run.room):
                visited.setdefault(r.floor, []).append(r.kind)
                if (r.floor, r.index) == (run.floor, run.room):
                    room = r
        floors = [RunFloorView(f, n, visited.get(f, [])) for f, n in sorted(per_floor.items())]
    current = None
    if room is not None:
        assert run.floor is not None and run.room is not None
        current = RunRoomView(
            floor=run.floor, room=run.room, kind=room.kind, cleared=run.room_cleared, seal=room.seal or None,
            battle=RunBattleRef(battle.id, battle.outcome) if battle else None,
            loot=[RunLootView(item.pk, LootItemKindView(item.item_kind.pk, item.item_kind.name,
                                                        item.item_kind.category, item.item_kind.weight),
                              item.taken_by_id) for item in loot],
        )
    if kind_view is _ASK_THE_KIND:
        kind_view = run_kind_hooks(run.kind).run_view(run=run, player=player)  # kinds.py
    awaiting, deadline = run_awaiting(battle)
    caller = next((m for m in members if m.player_id == player.pk and m.status != MemberStatus.LEFT), None)
    count = run_store.run_event_count(run, battle)
    return RunView(
        id=run.pk, kind=run.kind, status=run.status, host=run.host_id, step=run.step,
        created_at=run.created_at, started_at=run.started_at, ended_at=run.ended_at,
        seed=run.seed if run.is_over else None,
        dungeon=run.dungeon_id,
        floors=floors,
        current_room=current,
        npc=RunNpcView(run.npc_kind, run.npc_hp, run.npc_max_hp) if run.npc_kind else None,
        members=[
            RunMemberView(player=m.player_id, username=m.player.username, position=m.position,
                          status=m.status,
                          hp=m.hp, max_hp=m.max_hp, weapon_choice=m.weapon_choice, stat_boosts=m.stat_boosts,
                          pending_effects=m.pending_effects, kills=m.kills, money_lost=m.money_lost,
                          items_lost=m.items_lost)
            for m in members if m.status != MemberStatus.LEFT
        ],
        log=log,
        is_member=caller is not None,
        darkness=kind_view,
        events=run_events(run_id=run.pk, log=log, since=since, count=count, held=held,
                          names={str(m.player_id): m.player.username for m in members}),
        last_event=count,
        awaiting=awaiting,
        deadline=deadline,
        allowed_actions=run_allowed_actions(run=run, member=caller, room=room, rooms=rooms, battle=battle,
                                            loot=loot, kind_view=kind_view),
    )


def run_awaiting(battle: RoomBattle | None) -> tuple[int | None, datetime | None]:
    """Whom the run waits for and until when: the awaited player of its room's battle while it is on, and
    that turn's deadline (its start plus the combat settings' seconds), else (None, None)."""
    if battle is None or battle.outcome != "ongoing" or battle.awaiting_id is None:
        return None, None
    if battle.turn_started_at is None:
        return battle.awaiting_id, None
    seconds = CombatSettings.cached().turn_deadline_seconds
    return battle.awaiting_id, battle.turn_started_at + timedelta(seconds=seconds)


def _sees(run: RunRow, members: Iterable[MemberRow], player_id: int) -> bool:
    """Whether the player is a member of the run: in it (or was, and fell or got out), or still in its lobby
    or left the lobby before it started (who left a lobby is no member of the run it became)."""
    return any(m.player_id == player_id and (run.started_at is None or m.status != MemberStatus.LEFT)
               for m in members)


def _room_battle(run: RunRow) -> RoomBattle | None:
    """The battle of the party's room, if the run is inside its dungeon and the room has one."""
    if run.dungeon_id is None or run.floor is None or run.room is None:
        return None
    return run_store.room_contents(run_id=run.id, floor=run.floor, room=run.room)[0]


def run_stream_read(*, run_id: int, player_id: int, since: int | None) -> dict[str, Any]:
    """What a member's stream of the run shows after ``since`` in the run's one sequence (None: from now on):
    the events as ``GET runs/{id}/?since=N`` shows them (``run_events``, each with its ``text`` in the active
    language), the last number the read covered, and the run's header: ``id``, ``step``, ``status``,
    ``awaiting``, ``deadline`` (SPEC 13: the stream sends it whenever one of them changes).
    404 ``run_not_found`` unless the player is a member of the run (``_sees``; a lobby's stranger too)."""
    found = run_store.run_read(run_id)
    if found is None:
        raise NotFound("run_not_found", "No such run.", {"run": run_id})
    run, log = found
    members = run_store.members_load(run.id)
    if not _sees(run, members, player_id):
        raise NotFound("run_not_found", "No such run.", {"run": run_id})
    battle = _room_battle(run)
    count = run_store.run_event_count(run, battle)
    after = count if since is None else since
    events = run_events(run_id=run.pk, log=log, since=after, count=count,
                        names={str(m.player_id): m.player.username for m in members}) if after < count else []
    awaiting, deadline = run_awaiting(battle)
    header = {"id": run.pk, "step": run.step, "status": run.status, "awaiting": awaiting,
              "deadline": deadline}
    return {"events": events, "last_event": max(after, count), "header": header,
            "battle": None if battle is None else battle.id}


def run_news(*, run_id: int, since: int) -> float | None:
    """For a long-poll of the run after event ``since`` (``backend.live.wait_for``): None when there is
    something to answer with now (an event after ``since``, the run over or gone, its battle's awaited turn
    past its deadline), else the seconds until that deadline (``math.inf``: none; only a step can change
    the answer)."""
    found = run_store.run_read(run_id)
    if found is None:
        return None
    run = found[0]
    battle = _room_battle(run)
    if run_store.run_event_count(run, battle) > since or run.is_over:
        return None
    deadline = run_awaiting(battle)[1]
    if deadline is None:
        return math.inf
    left = (deadline - timezone.now()).total_seconds()
    return None if left <= 0 else left


def run_view(*, run_id: int, player: Player, since: int = 0) -> RunView:
    """The run view (``run_payload``) of a run the player may see: any open lobby, or a run they are (or
    were) in; otherwise 404.

    Who left a lobby is no member of the run it became (docs/runs.md): once a run has started, a
    ``left`` membership shows nothing. A lobby that was cancelled before starting stays visible.
    """
    found = run_store.run_read(run_id)
    if found is None:
        raise NotFound("run_not_found", "No such run.", {"run": run_id})
    run, log = found
    members = run_store.members_load(run.id)
    if not (run.status == RunStatus.LOBBY or _sees(run, members, player.pk)):
        raise NotFound("run_not_found", "No such run.", {"run": run_id})
    rooms: list[RoomRow] = []
    battle: RoomBattle | None = None
    loot: list[LootRow] = []
    if run.dungeon_id is not None and run.floor is not None and run.room is not None:
        rooms = run_store.rooms_of(run.dungeon_id)
        if any((r.floor, r.index) == (run.floor, run.room) for r in rooms):
            battle, loot = run_store.room_contents(run_id=run.id, floor=run.floor, room=run.room)
    return run_payload(run=run, log=log, player=player, members=members, rooms=rooms, battle=battle,
                       loot=loot, since=since)


def _setup_names(setup: Mapping[str, Any]) -> dict[str, str]:
    """Combatant id -> name, from a battle's stored setup (its state names them the same)."""
    fighters = [*setup.get("players", ()), *setup.get("enemies", ())]
    if setup.get("npc"):
        fighters.append(setup["npc"])
    return {str(c["id"]): str(c["name"]) for c in fighters}


def run_replay(*, run_id: int, player: Player) -> dict[str, Any]:
    """Everything that decided a finished run, enough to replay it exactly (SPEC 14, as a match's replay):
    the run's seed and the rules it played by (recorded at its start), the dungeon's seed and generation
    inputs, every move of the party (who did what, when; the start's party with its stats), every battle
    with its seed, setup and actions (timeouts included), the loot and who took it, the catalog's entries each
    loot draw read and what each escaping member carried, and the run's events in
    its one sequence, each with its sentence in the request's language.

    Only for those who may read the run (``run_view``'s rule: else 404 ``run_not_found``), after its end
    (else 409 ``run_not_over``)."""
    found = run_store.run_read(run_id)
    if found is None:
        raise NotFound("run_not_found", "No such run.", {"run": run_id})
    members = run_store.members_load(run_id)
    started = found[0].started_at is not None
    if not any(m.player_id == player.pk and (not started or m.status != MemberStatus.LEFT) for m in members):
        raise NotFound("run_not_found", "No such run.", {"run": run_id})
    if not found[0].is_over:
        raise RuleViolation("run_not_over", "The replay is available after the run's end.",
                            {"status": found[0].status})
    run, log, rooms, battles, loot = run_store.run_replay_read(run_id)
    dungeon = None if run.dungeon_id is None else Dungeon.objects.get(pk=run.dungeon_id)
    names = {str(m.player_id): m.player.username for m in members}
    recorded = run.actions or []  # the party's moves, and what steps read (``RunStep.record``)
    held_events = [event for battle in battles for event in battle.events]
    held_names = {battle.id: _setup_names(battle.setup) for battle in battles}
    return {
        "id": run.id, "kind": run.kind, "status": run.status, "seed": run.seed,
        "started_at": run.started_at, "ended_at": run.ended_at,
        "rules": run.rules,
        "dungeon": None if dungeon is None else {
            "id": dungeon.pk, "kind": dungeon.kind, "seed": dungeon.seed,
            "generator_version": dungeon.generator_version, "party_size": dungeon.party_size,
            "rank": dungeon.rank, "completed": dungeon.completed, "same_guild": dungeon.same_guild,
            "params": dungeon.params, "npc_candidates": dungeon.npc_candidates,
            "rooms": [{"floor": r.floor, "room": r.index, "kind": r.kind, "npc_kind": r.npc_kind,
                       "story_item": r.story_item, "seal": r.seal} for r in rooms],
        },
        "members": [{"player": m.player_id, "username": m.player.username, "position": m.position,
                     "status": m.status, "hp": m.hp, "max_hp": m.max_hp, "weapon_choice": m.weapon_choice,
                     "stat_boosts": m.stat_boosts, "pending_effects": m.pending_effects, "kills": m.kills,
                     "money_lost": m.money_lost, "items_lost": m.items_lost}
                    for m in members if m.status != MemberStatus.LEFT],
        "steps": [entry for entry in recorded if "read" not in entry],
        "catalog_reads": [entry for entry in recorded if entry.get("read") == "catalog"],
        "escapes": [entry for entry in recorded if entry.get("read") == "carried"],
        "battles": [{"id": b.id, "floor": b.floor, "room": b.room, "seed": b.seed,
                     "engine_version": b.engine_version, "setup": b.setup, "outcome": b.outcome,
                     "created_at": b.created_at, "ended_at": b.ended_at, "actions": b.actions}
                    for b in battles],
        "loot": [{"id": loot_id, "floor": floor, "room": room, "item_kind": kind, "taken_by": taker}
                 for loot_id, floor, room, kind, taker in loot],
        "events": run_events(run_id=run.id, log=log, since=0, names=names, count=run.event_seq,
                             held=(held_events, held_names)),
        "last_event": run.event_seq,
    }
