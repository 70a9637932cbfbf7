"""Sealed story rooms over HTTP: a story item found on an earlier floor of the run opens a sealed
story room on a later floor, which then holds its reward (admin data); without it the room stays
shut and the party walks on."""

from __future__ import annotations

from typing import Any

import pytest

from dungeons.generation import GENERATOR_VERSION
from dungeons.models import Run
from dungeons.runs.core import STORY_ITEM_SUB_KINDS
from players.models import InventoryItem, ItemKind, Player
from tests.dungeons.run_helpers import Party, bestiary, run_settings, small_dungeons, started
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _steered() -> None:
    small_dungeons(floors=2, rooms=5, story_item_chance=1.0)
    from dungeons.models import GenerationSettings

    GenerationSettings.objects.update(sealed_room_chance=1.0)
    bestiary(enemy_hp=2, enemy_damage=1, boss_hp=2)
    run_settings(trap_damage_base=0, trap_damage_per_floor=0, trap_effect_chance=0.0, sealed_reward_items=3,
                 sealed_reward_coins_base=20, sealed_reward_coins_per_floor=5, treasure_coins_base=0,
                 treasure_coins_per_floor=0, boss_coins=0)


def _story_then_sealed(d: Any) -> bool:
    """Floor 0 starts with a story-item room; floor 1 holds the sealed room for that item."""
    first = d.floors[0].rooms[0]
    return first.story_item is not None and any(r.seal == first.story_item for r in d.floors[1].rooms)


def _walk_to_the_seal(party: Party, player: Player, run: Run) -> dict[str, Any]:
    """Advance (fighting every battle) until the party stands in the sealed room; its run payload."""
    for _ in range(20):
        state = party.run(run.pk)
        room = state["current_room"]
        if room["seal"] is not None:
            return state
        if room["battle"] and room["battle"]["outcome"] == "ongoing":
            assert party.fight(room["battle"]["id"])["outcome"] == "victory"
        response = party.post(player, f"runs/{run.pk}/advance/", {"step": party.run(run.pk)["step"]})
        assert response.status_code == 200, response.json()
    raise AssertionError("never reached the sealed room")


def _coins(player: Player) -> int:
    return Player.objects.values_list("money", flat=True).get(pk=player.pk)


def test_a_story_item_found_earlier_opens_the_sealed_room_and_its_reward(monkeypatch) -> None:
    hero = PlayerFactory(strength=10, stamina=10)
    run = started([hero], monkeypatch, predicate=_story_then_sealed)
    party = Party([hero])
    # the story room on floor 0 holds story items; the hero takes one
    room = party.run(run.pk)["current_room"]
    assert room["kind"] == "story" and room["seal"] is None and room["loot"]
    assert party.post(hero, f"runs/{run.pk}/loot/{room['loot'][0]['id']}/take/").status_code == 200
    seal = next(e for e in Run.objects.get(pk=run.pk).log if e["kind"] == "story_items")["story_item"]
    money = _coins(hero)

    state = _walk_to_the_seal(party, hero, run)

    room = state["current_room"]
    assert (room["kind"], room["seal"], room["cleared"], room["floor"]) == ("story", seal, True, 1)
    opened = state["log"][-1]
    assert opened["kind"] == "seal_opened" and opened["seal"] == seal and opened["opened_by"] == hero.pk
    assert opened["coins_each"] == 20 + 5 * 1 and _coins(hero) == money + 25
    assert len(room["loot"]) == 3 and [loot["id"] for loot in room["loot"]] == opened["items"]
    rewards = ItemKind.objects.filter(pk__in=[loot["item_kind"]["id"] for loot in room["loot"]])
    assert set(rewards.values_list("rarity", flat=True)) <= {"uncommon", "rare"}
    assert set(rewards.values_list("category", flat=True)) <= {"weapon", "armor", "potion"}
    # the key item is shown, not spent
    assert InventoryItem.objects.filter(player=hero, acquired_in_run=run,
                                        item_kind__sub_kind=STORY_ITEM_SUB_KINDS[seal]).count() == 1


def test_without_the_story_item_the_sealed_room_stays_shut_and_the_party_walks_on(monkeypatch) -> None:
    # given: a hero who leaves the story items lying, but owns one of that kind from an earlier run
    hero = PlayerFactory(strength=10, stamina=10)
    run = started([hero], monkeypatch, predicate=_story_then_sealed)
    party = Party([hero])
    seal = next(e for e in Run.objects.get(pk=run.pk).log if e["kind"] == "story_items")["story_item"]
    old = ItemKind.objects.filter(sub_kind=STORY_ITEM_SUB_KINDS[seal]).first()
    InventoryItem.objects.create(player=hero, item_kind=old)  # not found in this run: no key
    money = _coins(hero)

    state = _walk_to_the_seal(party, hero, run)

    room = state["current_room"]
    assert room["seal"] == seal and room["cleared"] and room["loot"] == []
    assert {k: v for k, v in state["log"][-1].items() if k != "seq"} == {
        "kind": "sealed", "floor": 1, "room": room["room"], "seal": seal}
    assert _coins(hero) == money
    response = party.post(hero, f"runs/{run.pk}/advance/", {"step": state["step"]})
    assert response.status_code == 200, response.json()


def test_the_dungeon_stores_the_seal_and_its_generator_version(monkeypatch) -> None:
    hero = PlayerFactory()
    run = started([hero], monkeypatch, predicate=_story_then_sealed)
    dungeon = Run.objects.get(pk=run.pk).dungeon
    assert dungeon.generator_version == GENERATOR_VERSION
    seals = list(dungeon.rooms.exclude(seal="").values_list("floor", "kind", "seal"))
    assert len(seals) >= 1 and all(floor >= 1 and kind == "story" for floor, kind, _ in seals)


def test_a_dungeon_stored_by_generator_version_1_replays_with_the_version_1_rules() -> None:
    from dungeons.selectors import dungeon_replay
    from dungeons.services import dungeon_generate

    stored = dungeon_generate(kind="ordinary", party_size=2, rank=0.0, completed=40.0, same_guild=False,
                              seed=0)
    fresh = dungeon_replay(dungeon=stored)
    assert fresh.generator_version == GENERATOR_VERSION
    assert [(f, i, r.kind, r.story_item or "", r.seal or "") for f, i, r in fresh.rooms()] == list(
        stored.rooms.values_list("floor", "index", "kind", "story_item", "seal"))
    assert any(r.seal for _, _, r in fresh.rooms())  # this seed has sealed rooms under the current version

    type(stored).objects.filter(pk=stored.pk).update(generator_version=1)
    stored.refresh_from_db()
    old = dungeon_replay(dungeon=stored)

    assert old.generator_version == 1 and not any(r.seal for _, _, r in old.rooms())
    assert [f.kinds for f in old.floors] != [f.kinds for f in fresh.floors]
    type(stored).objects.filter(pk=stored.pk).update(generator_version=9)
    stored.refresh_from_db()
    with pytest.raises(ValueError):
        dungeon_replay(dungeon=stored)
