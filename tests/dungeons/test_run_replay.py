"""GET runs/{id}/replay/ (SPEC 14): after its end, a run's members get its seeds, the rules it played by and
every step, and the whole run, battles included, rebuilds from that record alone through the pure engines
(dungeons/generation, dungeons/runs/engine, combat/engine) exactly as it was stored."""
from __future__ import annotations

import dataclasses
import random
from datetime import timedelta
from typing import Any

import pytest
import time_machine

from combat import engine
from combat.models import Battle, BattleEvent, CombatSettings
from dungeons import generation
from dungeons.models import DungeonRoom, Run, RunLoot
from dungeons.runs.engine import Inside, Place, RunRules, endings
from dungeons.runs.engine.battles import battle_seed, hp_carried
from dungeons.runs.engine.loot import loot_draw, victory_spoils
from dungeons.runs.engine.rooms import regenerate, rest, traps_spring
from dungeons.runs.engine.rules import treasure_coins, treasure_item_count
from players.models import InventoryItem, ItemKind
from tests.dungeons.run_helpers import (
    API,
    Party,
    assert_error,
    bestiary,
    combat_settings,
    guild_party,
    item_kind,
    run_settings,
    small_dungeons,
    started,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

LAYOUT = ["trap", "enemy", "treasure", "rest", "boss"]


@pytest.fixture(autouse=True)
def _steered() -> None:
    small_dungeons(rooms=5)
    run_settings(trap_damage_base=2, trap_damage_per_floor=0, trap_effect_chance=1.0, battle_loot_chance=1.0)


# --- the rebuild: the replay's record in, the run as the engines make it out ------------------------------


@dataclasses.dataclass
class Rebuilt:
    rooms: list[tuple[int, int, str]]
    battles: dict[int, engine.Success]
    members: dict[int, Inside]
    status: dict[int, str]
    outcomes: dict[tuple[int, int], Any]
    loot: dict[tuple[int, int], list[int]]
    run_status: str
    lost: dict[int, list[int]] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Entry:
    """A catalog entry as the replay recorded it (what a draw reads of it: its rarity)."""

    pk: int
    rarity: str


def _apply(members: dict[int, Inside], changes: Any) -> None:
    for change in changes:
        kept = {k: v for k, v in change.columns.items() if k in ("hp", "max_hp", "pending_effects")}
        members[change.player_id] = dataclasses.replace(members[change.player_id], **kept)


def rebuild(replay: dict[str, Any]) -> Rebuilt:
    """The run made again from its replay alone: the database is not read (each loot draw's pool is the
    catalog as the replay recorded it then, each escape's losses are chosen from what it recorded carried)."""
    rules = RunRules(**replay["rules"])
    shown = replay["dungeon"]
    dungeon = generation.generate_dungeon(
        kind=shown["kind"], n=shown["party_size"], rank=shown["rank"], completed=shown["completed"],
        same_guild=shown["same_guild"], params=generation.GenerationParams(**shown["params"]),
        rng=random.Random(shown["seed"]), npc_kinds=shown["npc_candidates"],
        version=shown["generator_version"])
    rooms = [(f, i, str(room.kind))
             for f, floor in enumerate(dungeon.floors) for i, room in enumerate(floor.rooms)]
    start, *moves = replay["steps"]
    assert start["kind"] == "start"
    order = [m["player"] for m in sorted(start["party"], key=lambda m: m["position"])]
    max_hp = {m["player"]: m["max_hp"] for m in replay["members"]}  # no stamina potion in these runs
    members = {m["player"]: Inside(m["player"], max_hp[m["player"]], max_hp[m["player"]], m["stats"])
               for m in start["party"]}
    status = dict.fromkeys(order, "in_dungeon")
    recorded = {(b["floor"], b["room"]): b for b in replay["battles"]}
    rebuilt = Rebuilt(rooms, {}, members, status, {}, {}, "active")
    catalog_reads, escapes = iter(replay["catalog_reads"]), iter(replay["escapes"])

    def pool(floor: int, index: int, purpose: str) -> list[Entry]:
        """The next draw's pool as recorded, which must be this draw's (the same room and stream)."""
        read = next(catalog_reads)
        assert (read["floor"], read["room"], read["purpose"]) == (floor, index, purpose), read
        return [Entry(item["id"], item["rarity"]) for item in read["items"]]

    def inside() -> list[Inside]:
        return [members[p] for p in order if status[p] == "in_dungeon"]

    def enter(floor: int, index: int, kind: str, last: bool) -> None:
        place = Place(replay["seed"], floor, index)
        if kind == "trap":
            sprung = traps_spring(place=place, party=inside(), rules=rules)
            _apply(members, sprung.changes)
            status.update(dict.fromkeys(sprung.fallen, "dead"))
            rebuilt.outcomes[(floor, index)] = {str(k): v for k, v in sprung.entry.hits.items()}
        elif kind == "treasure":
            count = treasure_item_count(attentiveness=[m.stat("attentiveness") for m in inside()],
                                        rng=place.stream("treasure"), rules=rules)
            purpose = "treasure-items"
            laid = loot_draw(pool(floor, index, purpose), count, place=place, purpose=purpose, rules=rules)
            rebuilt.loot[(floor, index)] = [kind.pk for kind in laid]
            rebuilt.outcomes[(floor, index)] = treasure_coins(floor=floor, rules=rules)
        elif kind == "rest":
            _apply(members, rest(party=inside(), rules=rules).changes)
        elif kind in ("enemy", "boss"):
            battle = recorded[(floor, index)]
            assert battle["seed"] == battle_seed(place)  # the battle's seed comes from the run's
            setup = engine.setup_from_dict(battle["setup"])
            # the battle took the party as the run brought it in: its HP and the trap's waiting effects
            assert {engine.combatant_player_id(c.id): c.hp for c in setup.players} == {
                m.player_id: m.hp for m in inside()}
            waiting = [(engine.player_combatant_id(m.player_id), e["name"])
                       for m in inside() for e in m.pending_effects]
            assert [(cid, spec.name) for cid, spec in setup.starting_effects] == waiting
            for m in inside():
                members[m.player_id] = dataclasses.replace(m, pending_effects=())
            result = engine.replay(setup, battle["seed"],
                                   [engine.action_from_dict(a["action"]) for a in battle["actions"]],
                                   version=battle["engine_version"])
            rebuilt.battles[battle["id"]] = result
            fallen = {engine.combatant_player_id(c.id) for c in result.state.players if c.hp == 0}
            status.update(dict.fromkeys(fallen & set(status), "dead"))
            assert result.state.over
            _apply(members, hp_carried(result.state, inside={m.player_id for m in inside()}))
            if result.state.outcome is engine.Outcome.VICTORY:
                spoils = victory_spoils(place=place, boss=kind == "boss", rules=rules)
                laid = [] if spoils is None else loot_draw(pool(floor, index, spoils.purpose), spoils.items,
                                                          place=place, purpose=spoils.purpose, rules=rules)
                rebuilt.loot[(floor, index)] = [kind.pk for kind in laid]
                if kind == "boss" and last:
                    status.update(dict.fromkeys([m.player_id for m in inside()], "finished"))
                    rebuilt.run_status = "completed"

    def escape(floor: int, index: int) -> None:
        """The party leaves: each member inside, in formation order, loses the seeded share of what they
        carried (as recorded at the escape)."""
        for member in inside():
            carried = next(escapes)
            assert (carried["floor"], carried["room"], carried["player"]) == (floor, index, member.player_id)
            gone = endings.escape(player_id=member.player_id, stats=member.stats, carried=carried["items"],
                                  place=Place(replay["seed"], floor, index), purpose=carried["purpose"],
                                  rules=rules)
            rebuilt.lost[member.player_id] = list(gone.lost)
            status[member.player_id] = "escaped"

    enter(*rooms[0], last=len(rooms) == 1)
    position = 0
    for move in moves:
        if rebuilt.run_status != "active" or not inside():
            break
        if move["kind"] == "escape":
            escape(*rooms[position][:2])
            continue
        assert move["kind"] == "advance", move  # these runs go on or leave
        position += 1
        _apply(members, regenerate(party=inside(), rules=rules))
        enter(*rooms[position], last=position == len(rooms) - 1)
    if not inside() and rebuilt.run_status == "active":
        rebuilt.run_status = "escaped" if "escaped" in status.values() else "failed"
    # every input recorded was read by the rebuild, none left over
    assert next(catalog_reads, None) is None and next(escapes, None) is None
    return rebuilt


def assert_rebuilt_as_stored(run_id: int, replay: dict[str, Any]) -> None:
    rebuilt = rebuild(replay)
    run = Run.objects.get(pk=run_id)
    # the same dungeon
    stored_rooms = DungeonRoom.objects.filter(dungeon_id=run.dungeon_id).order_by("floor", "index")
    assert rebuilt.rooms == [(r.floor, r.index, r.kind) for r in stored_rooms]
    # the same battles: every event, the final state and the outcome
    battles = Battle.objects.filter(run=run).order_by("pk")
    assert set(rebuilt.battles) == {b.pk for b in battles} and battles
    for battle in battles:
        result = rebuilt.battles[battle.pk]
        stored = list(BattleEvent.objects.filter(battle=battle).order_by("seq")
                      .values_list("data", flat=True))
        assert [event.to_dict() for event in result.events] == stored
        assert result.state.to_dict() == battle.state and result.state.outcome.value == battle.outcome
    # the same room outcomes and loot
    log = {(e["floor"], e["room"], e["kind"]): e for e in run.log}
    for (floor, room), outcome in rebuilt.outcomes.items():
        kind = rebuilt.rooms[[(f, i) for f, i, _ in rebuilt.rooms].index((floor, room))][2]
        if kind == "trap":
            assert log[(floor, room, "trap")]["hits"] == outcome
        elif kind == "treasure":
            assert log[(floor, room, "treasure")]["coins_each"] == outcome
    laid: dict[tuple[int, int], list[int]] = {}
    for loot in RunLoot.objects.filter(run=run).order_by("pk"):
        laid.setdefault((loot.floor, loot.room), []).append(loot.item_kind_id)
    assert {place: kinds for place, kinds in rebuilt.loot.items() if kinds} == laid
    # the same final state
    assert rebuilt.run_status == run.status
    for member in run.members.all():
        assert rebuilt.status[member.player_id] == member.status
        if member.status != "dead":
            assert rebuilt.members[member.player_id].hp == member.hp
    # the same losses of every member who escaped: what the rebuild chose is gone, the rest still carried
    for escaped in replay["escapes"]:
        lost = rebuilt.lost[escaped["player"]]
        assert len(lost) == run.members.get(player_id=escaped["player"]).items_lost
        kept = set(InventoryItem.objects.filter(pk__in=escaped["items"]).values_list("pk", flat=True))
        assert kept == set(escaped["items"]) - set(lost)


# --- playing runs through the API ---------------------------------------------------------------------------


def _go_on(party: Party, run_id: int) -> dict[str, Any]:
    """Advance while the run is on, fighting every battle to its end (the first with a timeout: time is
    moved past the turn's deadline, within the tokens' life)."""
    combat_settings(turn_deadline_seconds=30)
    timed_out = False
    for _ in range(20):
        view = party.run(run_id)
        if view["status"] != "active":
            return view
        room = view["current_room"]
        if room["battle"] and room["battle"]["outcome"] == "ongoing":
            battle_id = room["battle"]["id"]
            if not timed_out:  # a silent player's turn is skipped: the replay records the timeout
                battle = Battle.objects.get(pk=battle_id)
                deadline = CombatSettings.cached().turn_deadline_seconds + 1
                with time_machine.travel(battle.turn_started_at + timedelta(seconds=deadline), tick=False):
                    party.battle(battle_id)
                timed_out = True
            party.fight(battle_id)
            continue
        advance = next(a for a in view["allowed_actions"] if a["kind"] == "advance")
        assert party.post(party.players[0], f"runs/{run_id}/advance/", advance).status_code == 200
    raise AssertionError("the run did not end")


def _replay(party: Party, run_id: int) -> dict[str, Any]:
    response = party.client(party.players[0]).get(f"{API}/runs/{run_id}/replay/")
    assert response.status_code == 200, response.json()
    return response.json()


def test_a_completed_run_rebuilds_from_its_replay_alone_battles_included(monkeypatch: Any) -> None:
    # given a run played to its end through the API: a trap, a battle (a timeout in it), treasure, rest, boss
    bestiary(enemy_hp=4, enemy_damage=1, boss_hp=6)
    players, _ = guild_party(1)
    run = started(players, monkeypatch, LAYOUT)
    party = Party(players)
    assert _go_on(party, run.pk)["status"] == "completed", Run.objects.get(pk=run.pk).log
    # when its member reads the replay
    replay = _replay(party, run.pk)
    # then it names the seeds, the rules, every move and every battle's actions, a timeout among them
    assert replay["seed"] == Run.objects.get(pk=run.pk).seed and replay["rules"]["trap_effect_chance"] == 1.0
    assert [s["kind"] for s in replay["steps"]] == ["start"] + ["advance"] * 4
    assert all(s["player"] == players[0].pk and s["at"] for s in replay["steps"])
    assert any(a["timeout"] for b in replay["battles"] for a in b["actions"])
    assert [e["seq"] for e in replay["events"]] == list(range(1, replay["last_event"] + 1))
    assert replay["events"] == party.run(run.pk)["events"]
    # and the engines rebuild the very run that was stored
    assert_rebuilt_as_stored(run.pk, replay)


def test_a_run_ending_in_death_rebuilds_from_its_replay(monkeypatch: Any) -> None:
    # given a party of two wiped out by the first battle
    bestiary(enemy_hp=10_000, enemy_damage=40, boss_hp=10_000)
    players, _ = guild_party(2)
    run = started(players, monkeypatch, ["enemy", "trap", "treasure", "rest", "boss"])
    party = Party(players)
    assert _go_on(party, run.pk)["status"] == "failed"
    # when the replay is rebuilt, then it is the run as stored, deaths included
    replay = _replay(party, run.pk)
    assert {m["status"] for m in replay["members"]} == {"dead"}
    assert_rebuilt_as_stored(run.pk, replay)


def test_the_replay_waits_for_the_end_and_shows_nothing_to_strangers(monkeypatch: Any) -> None:
    # given a run still on
    bestiary(enemy_hp=4, enemy_damage=1, boss_hp=6)
    players, _ = guild_party(1)
    run = started(players, monkeypatch, LAYOUT)
    party = Party(players)
    stranger = PlayerFactory()
    strangers = Party([stranger])
    # then its member is told to wait, a stranger finds no such run, before and after the end
    assert_error(party.client(players[0]).get(f"{API}/runs/{run.pk}/replay/"), 409, "run_not_over")
    assert_error(strangers.client(stranger).get(f"{API}/runs/{run.pk}/replay/"), 404, "run_not_found")
    _go_on(party, run.pk)
    assert_error(strangers.client(stranger).get(f"{API}/runs/{run.pk}/replay/"), 404, "run_not_found")
    assert_error(party.client(players[0]).get(f"{API}/runs/{run.pk + 1000}/replay/"), 404, "run_not_found")


def test_the_replays_events_speak_the_requests_language(monkeypatch: Any) -> None:
    bestiary(enemy_hp=4, enemy_damage=1, boss_hp=6)
    players, _ = guild_party(1)
    run = started(players, monkeypatch, LAYOUT)
    party = Party(players)
    _go_on(party, run.pk)
    russian = party.client(players[0]).get(f"{API}/runs/{run.pk}/replay/", HTTP_ACCEPT_LANGUAGE="ru").json()
    english = _replay(party, run.pk)
    assert [e["kind"] for e in russian["events"]] == [e["kind"] for e in english["events"]]
    assert "Группа входит в комнату с ловушкой." in {e["text"] for e in russian["events"]}
    assert any(e["origin"] == "battle" for e in english["events"])


def test_a_run_rebuilds_exactly_after_the_item_catalog_changed(monkeypatch: Any) -> None:
    # given a run played to its end, whose treasure room and won battles drew loot from the catalog
    bestiary(enemy_hp=4, enemy_damage=1, boss_hp=6)
    players, _ = guild_party(1)
    run = started(players, monkeypatch, LAYOUT)
    party = Party(players)
    assert _go_on(party, run.pk)["status"] == "completed"
    reads = _replay(party, run.pk)["catalog_reads"]
    assert {r["purpose"] for r in reads} >= {"treasure-items", "boss-loot"}
    # when the catalog changes after the run: every rarity turns (common -> uncommon -> rare -> common)
    turned = {"common": "uncommon", "uncommon": "rare", "rare": "common"}
    for kind in ItemKind.objects.all():
        ItemKind.objects.filter(pk=kind.pk).update(rarity=turned.get(kind.rarity, kind.rarity))
    # then the replay still gives the catalog as each draw read it, not as it stands
    replay = _replay(party, run.pk)
    assert replay["catalog_reads"] == reads
    stood = {(item["id"], item["rarity"]) for read in reads for item in read["items"]}
    assert not stood & set(ItemKind.objects.values_list("pk", "rarity"))
    # and the run rebuilds from the replay alone exactly as stored
    assert_rebuilt_as_stored(run.pk, replay)


def test_an_escape_rebuilds_its_losses_from_the_replay(monkeypatch: Any) -> None:
    # given a party of two carrying ten items each, in a treasure room after a won battle
    bestiary(enemy_hp=4, enemy_damage=1, boss_hp=6)
    players, _ = guild_party(2)
    gem = item_kind("Pebble", "special", "gem")
    carried = {p.pk: [InventoryItem.objects.create(player=p, item_kind=gem).pk for _ in range(10)]
               for p in players}
    run = started(players, monkeypatch, ["enemy", "treasure", "trap", "rest", "boss"])
    party = Party(players)
    party.fight(party.run(run.pk)["current_room"]["battle"]["id"])
    view = party.run(run.pk)
    advance = next(a for a in view["allowed_actions"] if a["kind"] == "advance")
    assert party.post(players[0], f"runs/{run.pk}/advance/", advance).status_code == 200
    # when the party leaves
    step = party.run(run.pk)["step"]
    response = party.post(players[1], f"runs/{run.pk}/escape/", {"step": step})
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "escaped"
    # then the replay records what each member carried when leaving, where, and the stream of the losses
    replay = _replay(party, run.pk)
    assert [s["kind"] for s in replay["steps"]] == ["start", "advance", "escape"]
    assert [(e["player"], e["floor"], e["room"], e["purpose"]) for e in replay["escapes"]] == [
        (m["player"], 0, 1, "escape") for m in sorted(replay["members"], key=lambda m: m["position"])]
    for escaped in replay["escapes"]:
        assert set(carried[escaped["player"]]) <= set(escaped["items"])
    # and the rebuild from the replay alone chooses the very losses the run took
    assert_rebuilt_as_stored(run.pk, replay)
    assert all(len(lost) > 0 for lost in rebuild(replay).lost.values())
