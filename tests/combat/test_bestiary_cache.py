"""The bestiary is kept by each process while the settings token stands (combat.selectors.bestiary_of_floor).

A battle's start read the floor's creatures every time (one statement and their templates built). The
bestiary is balancing data, edited in the admin: every change of a creature or of its effects replaces the
settings token in its own transaction (``backend.models.track_balancing_changes``, ``BalancingQuerySet``),
so a process serves its copy only to requests that read the token it was kept with, and an edit reaches
the next battle of every process at once, as an edit of a settings row does
(tests/backend/test_settings_coherence.py).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection

from backend.models import SettingsVersion, settings_token_forget, settings_token_seen
from combat import store
from combat.models import Battle, EffectTrigger, EnemyKind, EnemyKindEffect
from combat.selectors import bestiary_of_floor
from tests.backend.test_settings_coherence import _in_another_process
from tests.dungeons.run_helpers import (
    Party,
    bestiary,
    fix_seed,
    guild_party,
    layout,
    lobby,
    seed_where,
    small_dungeons,
)


def _token() -> int:
    return SettingsVersion.objects.get(pk=1).token


@pytest.fixture
def request_token() -> Iterator[Callable[[], None]]:
    """Act as an API request does: read the current token (with the account) before any rule."""
    def seen() -> None:
        settings_token_seen(_token())
    yield seen
    settings_token_forget()


def _read_now(floor: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    kinds = store.enemy_kinds(floor=floor)
    return (tuple(k.template() for k in kinds if not k.is_boss),
            tuple(k.template() for k in kinds if k.is_boss))


@pytest.mark.django_db
def test_a_floors_bestiary_is_read_once_while_the_token_stands(request_token: Callable[[], None],
                                                                django_assert_num_queries: Any) -> None:
    bestiary()
    request_token()
    with django_assert_num_queries(1):
        first = bestiary_of_floor(0)
    with django_assert_num_queries(0):
        assert bestiary_of_floor(0) is first
    assert first == _read_now(0) and [t.slug for t in first[0]] == ["test-rat"]
    with django_assert_num_queries(1):  # another floor is its own copy
        bestiary_of_floor(1)


@pytest.mark.django_db
def test_without_a_token_the_bestiary_is_read_each_time(django_assert_num_queries: Any) -> None:
    # (the admin, tasks, the balancing lab's scripts: nothing read the token first)
    bestiary()
    bestiary_of_floor(0)
    with django_assert_num_queries(1):
        bestiary_of_floor(0)


BOSS = "test-ogre"


def _rat() -> EnemyKind:
    return EnemyKind.objects.get(slug="test-rat")


def _change(how: str) -> None:
    """Change the bestiary one way an admin, a fixture or a script can."""
    rat = _rat()
    match how:
        case "a creature saved as it was":
            rat.save()
        case "a creature's numbers saved":
            rat.hp = 77
            rat.save()
        case "a creature created":
            EnemyKind.objects.create(name="Test Bat", slug="test-bat", hp=2, weapon_name="Wings",
                                     weapon_damage=1)
        case "creatures updated":
            EnemyKind.objects.filter(slug="test-rat").update(armor=3)
        case "creatures bulk-updated":
            rat.weight = 4
            EnemyKind.objects.bulk_update([rat], ["weight"])
        case "a creature deleted":
            EnemyKind.objects.filter(slug=BOSS).delete()
        case "an effect added":
            EnemyKindEffect.objects.create(enemy_kind=rat, name="bleeding", turns=2, magnitude=1, chance=1.0)
        case "an effect added through the creature":
            rat.effects.create(trigger=EffectTrigger.INNATE, name="vigor", magnitude=1)
        case "effects bulk-created":
            EnemyKindEffect.objects.bulk_create([EnemyKindEffect(enemy_kind=rat, name="bleeding", turns=1,
                                                                 magnitude=2, chance=0.5)])
        case "an effect deleted":
            rat.effects.all().delete()
        case _:
            raise AssertionError(how)


CHANGES = ["a creature saved as it was", "a creature's numbers saved", "a creature created",
           "creatures updated", "creatures bulk-updated", "a creature deleted", "an effect added",
           "an effect added through the creature", "effects bulk-created", "an effect deleted"]


@pytest.mark.django_db
@pytest.mark.parametrize("change", CHANGES)
def test_every_change_of_the_bestiary_replaces_the_token_and_the_next_read_sees_it(
    change: str, request_token: Callable[[], None]
) -> None:
    # given a copy of floor 0's bestiary kept with the current token
    bestiary()
    EnemyKindEffect.objects.create(enemy_kind=_rat(), name="burning", turns=3, magnitude=1, chance=0.5)
    request_token()
    kept = bestiary_of_floor(0)
    before = _token()
    # when the bestiary changes through the ORM
    _change(change)
    # then the token is another, and a request that reads it gets the bestiary as it now is
    assert _token() != before
    request_token()
    assert bestiary_of_floor(0) == _read_now(0)
    if change != "a creature saved as it was":  # the same creatures, but the token moved anyway
        assert bestiary_of_floor(0) != kept


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_creature_edited_by_another_process_fights_in_the_next_battle_here(monkeypatch: Any) -> None:
    # given this process has started a battle over the API (so it keeps floor 0's bestiary)
    small_dungeons(floors=1, rooms=5)
    bestiary(enemy_hp=5)

    def battle_start() -> Battle:
        players, _ = guild_party(1)
        fix_seed(monkeypatch, seed_where(lambda dungeon: layout(dungeon)[0][0] == "enemy", players=players))
        run = lobby(players)
        response = Party(players).post(players[0], f"runs/{run.pk}/start/")
        assert response.status_code == 200, response.json()
        return Battle.objects.get(run_id=run.pk)

    def enemy_hp(battle: Battle) -> list[int]:
        return [enemy["max_hp"] for enemy in battle.setup["enemies"]]

    assert enemy_hp(battle_start()) == [5]
    # when an admin elsewhere makes the rat tougher
    _in_another_process("from combat.models import EnemyKind\n"
                        "rat = EnemyKind.objects.get(slug='test-rat'); rat.hp = 9; rat.save()\n")
    # then the next battle here fights the new rat
    assert enemy_hp(battle_start()) == [9]
    assert connection.vendor == "postgresql"
