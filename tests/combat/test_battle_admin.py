"""Battle admin: battles with a readable log, their combatants and actions (keys and answers), read-only;
the action list searchable by idempotency key; the bestiary as a balancing table."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from combat.admin import action_text, event_sentence
from combat.models import Battle, BattleAction, BattleEvent
from dungeons.models import Run
from tests.dungeons.test_run_admin import played_run

BATTLES = "/admin/combat/battle/"
ACTIONS = "/admin/combat/battleaction/"
KINDS = "/admin/combat/enemykind/"


@pytest.fixture
def run(db: None) -> Run:
    return played_run()


@pytest.fixture
def battle(run: Run) -> Battle:
    return Battle.objects.filter(run=run, actions__player__isnull=False).distinct().order_by("pk").first()


@pytest.mark.parametrize("query", ["", "?state=ongoing", "?state=over", "?state=waiting", "?outcome=victory",
                                   "?floor=0", "?q=1"])
def test_the_battle_changelist_opens(admin_client: Client, battle: Battle, query: str) -> None:
    response = admin_client.get(BATTLES + query)
    assert response.status_code == 200


def test_the_battle_changelist_links_battles_and_their_run(
    admin_client: Client, run: Run, battle: Battle
) -> None:
    html = admin_client.get(BATTLES).content.decode()
    assert f"/admin/combat/battle/{battle.pk}/change/" in html
    assert f'href="/admin/dungeons/run/{run.pk}/change/"' in html


def test_the_battle_changelist_query_count_does_not_grow_per_row(admin_client: Client, run: Run) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert admin_client.get(BATTLES).status_code == 200
        return len(captured)

    few = queries()
    played_run(seed=7)
    assert Battle.objects.count() > 1
    assert queries() == few


def test_the_battle_page_shows_a_readable_log_and_combatants(admin_client: Client, battle: Battle) -> None:
    response = admin_client.get(f"{BATTLES}{battle.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    names = {c["id"]: c["name"] for c in battle.state["combatants"]}
    attack = BattleEvent.objects.filter(battle=battle, data__kind="attack").first()
    data = attack.data
    sentence = f"{names[data['actor']]} attacks {names[data['target']]} with {data['weapon']}"
    assert sentence.replace("'", "&#x27;") in html
    assert "<strong>Round 1</strong>" in html and "The battle starts; turn order:" in html
    for combatant in battle.state["combatants"]:
        assert f"{combatant['hp']} / {combatant['max_hp']}" in html
    assert f'href="/admin/dungeons/run/{battle.run_id}/change/"' in html


def test_the_battle_page_lists_actions_with_keys_and_answers(admin_client: Client, battle: Battle) -> None:
    html = admin_client.get(f"{BATTLES}{battle.pk}/change/").content.decode()
    action = BattleAction.objects.filter(battle=battle, player__isnull=False).order_by("step").first()
    assert action.idempotency_key in html
    response = action.response
    assert f"turn {response['turn']} &rarr; {response['next_turn']}, {len(response['events'])} events" in html


def test_battles_and_actions_are_read_only(admin_client: Client, battle: Battle) -> None:
    assert admin_client.get(f"{BATTLES}add/").status_code == 403
    assert admin_client.get(f"{BATTLES}{battle.pk}/delete/").status_code == 403
    assert admin_client.post(f"{BATTLES}{battle.pk}/change/", {"outcome": "victory"}).status_code == 403
    assert 'name="_save"' not in admin_client.get(f"{BATTLES}{battle.pk}/change/").content.decode()
    action = BattleAction.objects.filter(battle=battle).first()
    assert admin_client.get(f"{ACTIONS}add/").status_code == 403
    assert admin_client.get(f"{ACTIONS}{action.pk}/delete/").status_code == 403
    assert admin_client.post(f"{ACTIONS}{action.pk}/change/", {"step": 99}).status_code == 403


def test_an_action_is_found_by_its_idempotency_key(admin_client: Client, battle: Battle) -> None:
    action = BattleAction.objects.filter(battle=battle, player__isnull=False).order_by("step").first()
    html = admin_client.get(ACTIONS, {"q": action.idempotency_key}).content.decode()
    assert f"{ACTIONS}{action.pk}/change/" in html and "1 battle action" in html
    page = admin_client.get(f"{ACTIONS}{action.pk}/change/")
    assert page.status_code == 200 and action.idempotency_key.encode() in page.content


def test_a_number_finds_battles_and_actions_by_battle_or_run(admin_client: Client, run: Run,
                                                            battle: Battle) -> None:
    html = admin_client.get(BATTLES, {"q": str(run.pk)}).content.decode()
    for pk in Battle.objects.filter(run=run).values_list("pk", flat=True):
        assert f"{BATTLES}{pk}/change/" in html
    found = admin_client.get(BATTLES, {"q": str(battle.pk)}).content.decode()
    assert f"{BATTLES}{battle.pk}/change/" in found
    action = BattleAction.objects.filter(battle=battle).first()
    for term in (battle.pk, run.pk):
        assert f"{ACTIONS}{action.pk}/change/" in admin_client.get(ACTIONS, {"q": str(term)}).content.decode()


def test_the_action_changelist_opens_with_filters(admin_client: Client, battle: Battle) -> None:
    assert admin_client.get(ACTIONS).status_code == 200
    assert admin_client.get(ACTIONS, {"player__isempty": "1"}).status_code == 200


def test_events_of_unknown_shape_fall_back_to_their_fields() -> None:
    names = {"p1": "Ann", "e1": "Rat"}
    assert event_sentence({"kind": "attack", "actor": "p1", "target": "e1", "weapon": "Axe"}, names) == (
        "Ann attacks Rat with Axe")
    assert event_sentence({"kind": "effect_applied", "target": "e1", "effect": "burning", "turns": 2,
                           "magnitude": 3.0, "permanent": False}, names) == (
        "Rat gets burning (2 turns, magnitude 3)")
    assert event_sentence({"kind": "teleport", "actor": "p1"}, names) == "teleport: actor=Ann"
    assert event_sentence({"kind": "attack", "actor": "p1"}, names) == "attack: actor=Ann"
    assert action_text({"kind": "attack", "actor": "p1", "target": "e1"}, names) == "attack Rat"
    assert action_text({"kind": "timeout", "actor": "p1"}) == "timeout"


def test_the_bestiary_filters_by_floor_and_draw_and_shows_stats(admin_client: Client, db: None) -> None:
    from combat.models import EnemyKind

    deep = EnemyKind.objects.filter(min_floor__gt=0, is_boss=False).order_by("min_floor").first()
    shallow = EnemyKind.objects.filter(min_floor=0, max_floor__isnull=False, is_boss=False).first() or (
        EnemyKind.objects.filter(min_floor=0, is_boss=False).first())
    html = admin_client.get(KINDS, {"floor": "0"}).content.decode()
    assert shallow.name in html and deep.name not in html
    html = admin_client.get(KINDS, {"floor": str(deep.min_floor)}).content.decode()
    assert deep.name in html
    EnemyKind.objects.filter(pk=deep.pk).update(weight=0)
    assert deep.name in admin_client.get(KINDS, {"drawn": "no"}).content.decode()
    assert deep.name not in admin_client.get(KINDS, {"drawn": "yes"}).content.decode()
    assert "Stats (str/met/luck/att)" in admin_client.get(KINDS).content.decode()
