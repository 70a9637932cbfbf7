"""Run admin: runs drawn on their dungeon with party, loot, battles and log; read-only; run settings."""
from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from combat.models import Battle
from combat.selectors import battle_allowed_actions
from dungeons.admin import _ROOM_RECT
from dungeons.charts import dungeon_svg
from dungeons.generation import generate_dungeon
from dungeons.models import MemberStatus, Run, RunLoot, RunMember, RunSettings, RunStatus
from dungeons.run_log import describe_json as run_log_entry
from dungeons.runs import lobby as services
from dungeons.runs import rooms
from dungeons.runs.battles import battle_act
from players.models import InventoryItem, ItemKind, Player
from tests.dungeons.run_helpers import bestiary, combat_settings, guild_party, layout, small_dungeons, started
from tests.factories import PlayerFactory, make_guild

RUNS = "/admin/dungeons/run/"
SETTINGS = "/admin/dungeons/runsettings/"


def played_run(*, seed: int = 20_261_121, actions: int = 40) -> Run:
    """A party of three (a guild leader and two guildless players) plays a seeded run through the
    services: weapons taken, started, battles fought by attacking, rooms advanced, until the run
    ends or ``actions`` moves were made. Some loot is guaranteed to lie in the first room."""
    guild = make_guild()
    host = guild.leader
    others = [PlayerFactory(), PlayerFactory()]
    run = services.run_open(player=host, kind="ordinary")
    Run.objects.filter(pk=run.pk).update(seed=seed)
    for player in others:
        services.run_join(player=player, run_id=run.pk)
    for player in [host, *others]:
        offer = services.run_offer(player=player, run_id=run.pk)
        services.run_weapon_choose(player=player, run_id=run.pk, item_kind_id=offer[0].pk if offer else None)
    services.run_start(player=host, run_id=run.pk)
    RunLoot.objects.create(run=run, floor=0, room=0, item_kind=ItemKind.objects.order_by("pk").first())
    for number in range(actions):
        run.refresh_from_db()
        if run.status != RunStatus.ACTIVE:
            break
        battle = Battle.objects.filter(run=run, floor=run.floor, room=run.room).first()
        if battle is not None and not battle.is_over:
            player = Player.objects.get(pk=battle.awaiting_id)
            allowed = battle_allowed_actions(battle=battle, player_id=player.pk)
            action = next((a for a in allowed if a["kind"] == "attack"), allowed[0])
            battle_act(player=player, battle_id=battle.pk, turn=battle.step, action=action,
                       idempotency_key=f"admin-test-{number}")
        elif run.room_cleared:
            mover = run.members.filter(status=MemberStatus.IN_DUNGEON).first()
            rooms.run_advance(player=mover.player, run_id=run.pk, step=run.step)
    run.refresh_from_db()
    return run


@pytest.fixture
def run(db: None) -> Run:
    return played_run()


@pytest.fixture
def lobby(db: None) -> Run:
    host, guest = PlayerFactory(), PlayerFactory()
    lobby = services.run_open(player=host, kind="frenzy")
    services.run_join(player=guest, run_id=lobby.pk)
    offer = services.run_offer(player=guest, run_id=lobby.pk)
    services.run_weapon_choose(player=guest, run_id=lobby.pk, item_kind_id=offer[0].pk)
    return lobby


@pytest.mark.parametrize("query", ["", "?state=open", "?state=over", "?state=stale_lobby",
                                   "?status__exact=active", "?kind__exact=frenzy", "?q=player"])
def test_the_run_changelist_opens(admin_client: Client, run: Run, lobby: Run, query: str) -> None:
    response = admin_client.get(RUNS + query)
    assert response.status_code == 200


def test_the_run_changelist_shows_party_size_and_position(admin_client: Client, run: Run, lobby: Run) -> None:
    html = admin_client.get(RUNS).content.decode()
    assert f'href="/admin/dungeons/run/{run.pk}/change/' in html
    assert '<td class="field-party">3</td>' in html and '<td class="field-party">2</td>' in html


def test_runs_are_found_by_a_member_name(admin_client: Client, run: Run, lobby: Run) -> None:
    guest = RunMember.objects.filter(run=run, position=2).select_related("player").get().player
    html = admin_client.get(RUNS, {"q": guest.display_name}).content.decode()
    assert f"{RUNS}{run.pk}/change/" in html and f"{RUNS}{lobby.pk}/change/" not in html


def test_a_number_finds_a_run_by_id_or_seed(admin_client: Client, run: Run, lobby: Run) -> None:
    for term in (run.pk, run.seed):
        html = admin_client.get(RUNS, {"q": str(term)}).content.decode()
        assert f"{RUNS}{run.pk}/change/" in html and f"{RUNS}{lobby.pk}/change/" not in html


def test_the_run_changelist_query_count_does_not_grow_per_row(admin_client: Client, run: Run) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert admin_client.get(RUNS).status_code == 200
        return len(captured)

    few = queries()
    for _ in range(5):
        services.run_open(player=PlayerFactory(), kind="ordinary")
    assert queries() == few


def test_the_run_page_draws_the_dungeon_with_the_party_way_and_links_battles(
    admin_client: Client, run: Run
) -> None:
    response = admin_client.get(f"{RUNS}{run.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'aria-label="dungeon layout"' in html
    rooms = run.dungeon.rooms.count()
    reached = run.dungeon.rooms.filter(floor__lt=run.floor).count() + run.room + 1
    assert html.count('fill-opacity="0.7"') == rooms - reached  # the rooms ahead are faded
    assert html.count('stroke="#27ae60"') == 1  # the party's room is framed
    for battle in Battle.objects.filter(run=run):
        assert f'href="/admin/combat/battle/{battle.pk}/change/"' in html


def test_the_run_page_shows_party_loot_battles_and_a_readable_log(admin_client: Client, run: Run) -> None:
    html = admin_client.get(f"{RUNS}{run.pk}/change/").content.decode()
    for member in run.members.select_related("player"):
        assert member.player.display_name in html
        assert f"{member.hp} / {member.max_hp}" in html
    killer = run.members.exclude(kills={}).first()
    assert killer is not None and f"{sum(killer.kills.values())}: " in html
    loot = RunLoot.objects.filter(run=run).select_related("item_kind").first()
    assert loot.item_kind.name in html
    assert "The run starts:" in html and "The party enters a enemy room" in html and "Battle #" in html
    assert Battle.objects.filter(run=run).exists() and 'id="battles-group"' in html


def test_a_dead_member_is_marked_on_the_drawing_and_in_the_log(admin_client: Client,
                                                                monkeypatch: Any) -> None:
    # given a party of one HP each whose first room is a trap: every member dies at the start
    small_dungeons(floors=1, rooms=5)
    bestiary()
    combat_settings(base_hp=1, hp_per_stamina=0)
    players, _ = guild_party(3)
    run = started(players, monkeypatch, predicate=lambda dungeon: layout(dungeon)[0][0] == "trap")
    died = [e for e in run.log if e["kind"] == "died"]
    assert len(died) == 3 and run.status == RunStatus.FAILED, run.log
    # then the run's page marks the dead and says what Charon took
    html = admin_client.get(f"{RUNS}{run.pk}/change/").content.decode()
    assert "&#8224;" in html and "Charon takes" in html


def test_a_lobby_page_opens_before_the_dungeon_exists(admin_client: Client, lobby: Run) -> None:
    response = admin_client.get(f"{RUNS}{lobby.pk}/change/")
    assert response.status_code == 200
    assert b"The dungeon is generated when the run starts." in response.content


def test_runs_are_read_only(admin_client: Client, run: Run) -> None:
    assert admin_client.get(f"{RUNS}add/").status_code == 403
    assert admin_client.get(f"{RUNS}{run.pk}/delete/").status_code == 403
    page = admin_client.get(f"{RUNS}{run.pk}/change/").content.decode()
    assert 'name="_save"' not in page
    response = admin_client.post(f"{RUNS}{run.pk}/change/", {"status": "completed"})
    assert response.status_code == 403
    run.refresh_from_db()
    assert run.status != RunStatus.COMPLETED


def test_cancelling_lobbies_sends_every_member_out_through_the_service(
    admin_client: Client, run: Run, lobby: Run
) -> None:
    status_before = run.status
    response = admin_client.post(RUNS, {"action": "cancel_lobbies", "_selected_action": [lobby.pk, run.pk]},
                                 follow=True)
    html = response.content.decode()
    assert "1 lobbies cancelled." in html and "1 runs were not lobbies" in html
    lobby.refresh_from_db()
    run.refresh_from_db()
    assert lobby.status == RunStatus.CANCELLED and run.status == status_before
    assert not RunMember.objects.filter(run=lobby, active=True).exists()
    assert not InventoryItem.objects.filter(acquired_in_run=lobby).exists()  # the starting weapon went back


def test_the_run_settings_open_as_one_row_and_save(admin_client: Client) -> None:
    assert admin_client.get(SETTINGS).status_code == 302
    page = admin_client.get(f"{SETTINGS}1/change/")
    assert page.status_code == 200
    assert b"Escape: loss" in page.content and b"Loot rarity weights" in page.content
    settings = RunSettings.load()
    data = {f.name: getattr(settings, f.name) for f in RunSettings._meta.concrete_fields if f.name != "id"}
    data["max_party_size"] = 8
    assert admin_client.post(f"{SETTINGS}1/change/", data).status_code == 302
    assert RunSettings.load().max_party_size == 8
    assert admin_client.get(f"{SETTINGS}add/").status_code == 403
    assert admin_client.get(f"{SETTINGS}1/delete/").status_code == 403


def test_log_entries_of_unknown_shape_fall_back_to_their_fields() -> None:
    assert run_log_entry({"kind": "portal", "colour": "blue"}, {}) == "portal: colour=blue"
    assert run_log_entry({"kind": "died"}, {}) == "died"  # a known kind missing its fields
    assert run_log_entry({"kind": "died", "player": 7, "charon_fee": 3, "items_lost": 1}, {"7": "Ann"}) == (
        "Ann dies; Charon takes 3 coins, 1 items of this run are lost")


def test_the_drawing_marks_every_room_it_draws() -> None:
    # The marks are placed on the rectangles the charts module draws; if its markup changes, this fails.

    dungeon = generate_dungeon(kind="ordinary", n=4, rank=0, completed=0, same_guild=False,
                               rng=random.Random(3))
    found = {(int(m["floor"]), int(m["room"])) for m in _ROOM_RECT.finditer(dungeon_svg(dungeon))}
    assert found == {(f, i) for f, i, _ in dungeon.rooms()}
    assert re.search(r"floor 0, room 0", dungeon_svg(dungeon))


def test_a_number_finds_a_stored_dungeon_by_id_or_seed(admin_client: Client, run: Run) -> None:
    url = "/admin/dungeons/dungeon/"
    for term in (run.dungeon_id, run.dungeon.seed):
        html = admin_client.get(url, {"q": str(term)}).content.decode()
        assert f"{url}{run.dungeon_id}/change/" in html
    assert admin_client.get(url, {"q": "peasant"}).status_code == 200
