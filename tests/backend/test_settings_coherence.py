"""An admin's edit of a settings row applies in every process at once (issue 24, item 7).

The rules were enforced from a per-process copy trusted for 10 seconds (``SingletonSettings.cached``):
after an edit, two server instances enforced different party sizes, Charon's fees and forming flags.
Now a copy is served only while the settings token read with the request's account is the one it was
read with, and every change of a settings row replaces the token in its own transaction.

The two-instance test edits the rows from another process (as the admin on another machine would) and
reads them through this one, right after, with no time passing for a copy to expire.
"""
from __future__ import annotations

import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction

from backend.models import SettingsVersion, _token_seen, settings_token_forget, settings_token_seen
from combat.models import Battle
from dungeons.models import RunSettings
from guilds.models import GuildRules
from npcs.models import NpcSettings
from tests.dungeons.run_helpers import (
    API,
    Party,
    assert_error,
    bestiary,
    current_battle,
    guild_party,
    item_kind,
    layout,
    lobby,
    small_dungeons,
    started,
)
from tests.factories import PlayerFactory, add_member, api_client, make_guild

ROOT = Path(__file__).resolve().parents[2]


def _in_another_process(code: str) -> None:
    """Run ``code`` (Django set up, on this test's database) in a Python process of its own."""
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "backend.settings", "DATABASE_URL": url}
    subprocess.run([sys.executable, "-c", f"import django; django.setup()\n{code}"], cwd=ROOT, check=True,
                   env=env, capture_output=True, timeout=120)


def _is_forming(client: Any, guild_id: int) -> bool:
    results = client.get(f"{API}/guilds/").json()["results"]
    return next(item["is_forming"] for item in results if item["id"] == guild_id)


def _turn_seconds(party: Party, battle_id: int) -> float:
    """The awaited turn's length as a poll shows it: its deadline less its start."""
    deadline = datetime.fromisoformat(party.battle(battle_id)["deadline"])
    return (deadline - Battle.objects.get(pk=battle_id).turn_started_at).total_seconds()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_edit_made_by_another_process_is_enforced_here_at_once(monkeypatch: Any) -> None:
    # given this process has read and kept every rule below: a lobby of two at a party limit of two,
    # a guild of two below a minimum of three, the junk dealer's offer of three, a 60 s turn
    small_dungeons(floors=1, rooms=5)
    bestiary()
    for name in ("Test club", "Test mace", "Test axe"):  # the offer's weapons, whatever an earlier flush left
        item_kind(name, "weapon", "club", is_basic=True, damage=2)
    host, other = PlayerFactory(), PlayerFactory()
    third = PlayerFactory()
    guild = make_guild(leader=host)
    add_member(guild, other)
    rules = RunSettings.load()
    rules.max_party_size = 2
    rules.save()
    run = lobby([host, other])
    fighters, _ = guild_party(1)
    first_room_is_enemy = lambda dungeon: layout(dungeon)[0][0] == "enemy"  # noqa: E731
    battle_id = current_battle(started(fighters, monkeypatch, predicate=first_room_is_enemy)).pk
    party, client = Party([host, other, third]), api_client(host)
    assert_error(party.post(third, f"runs/{run.pk}/join/"), 409, "party_full")
    assert _is_forming(client, guild.pk) is True
    assert len(client.get(f"{API}/runs/{run.pk}/offer/").json()) == 3
    assert _turn_seconds(Party(fighters), battle_id) == 3600  # the bestiary's hour
    # when an admin elsewhere raises the party limit, lowers the minimum and the offer, lengthens the turn
    _in_another_process(
        "from combat.models import CombatSettings\nfrom dungeons.models import RunSettings\n"
        "from guilds.models import GuildRules\nfrom npcs.models import NpcSettings\n"
        "for model, field, value in [(RunSettings, 'max_party_size', 3), (GuildRules, 'min_members', 2),\n"
        "                            (NpcSettings, 'junk_dealer_offer_base', 2),\n"
        "                            (CombatSettings, 'turn_deadline_seconds', 600)]:\n"
        "    row = model.load(); setattr(row, field, value); row.save()\n")
    # then the very next requests here apply the new values, each of them
    after = {"join": party.post(third, f"runs/{run.pk}/join/").status_code,
             "is_forming": _is_forming(client, guild.pk),
             "offer": len(client.get(f"{API}/runs/{run.pk}/offer/").json()),
             "turn_seconds": _turn_seconds(Party(fighters), battle_id)}
    assert after == {"join": 200, "is_forming": False, "offer": 2, "turn_seconds": 600}


@pytest.mark.django_db
def test_a_kept_copy_is_served_without_a_statement_while_the_token_stands(
    django_assert_num_queries: Any
) -> None:
    # given a request that read the current token, and a copy kept with it
    settings_token_seen(SettingsVersion.objects.get(pk=1).token)
    try:
        first = RunSettings.cached()
        # when the rules are read again, then no statement is made
        with django_assert_num_queries(0):
            assert RunSettings.cached() is first
    finally:
        settings_token_forget()


@pytest.mark.django_db
def test_without_a_token_the_row_is_read_each_time(django_assert_num_queries: Any) -> None:
    # (the admin, tasks, scripts: nothing read the token first)
    RunSettings.cached()
    with django_assert_num_queries(1):
        RunSettings.cached()


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["save", "update"])
def test_every_change_through_the_orm_replaces_the_token(how: str) -> None:
    before = SettingsVersion.objects.get(pk=1).token
    if how == "save":
        rules = GuildRules.load()
        rules.min_members = 5
        rules.save()
    else:
        NpcSettings.objects.filter(pk=1).update(junk_dealer_offer_base=4)
    assert SettingsVersion.objects.get(pk=1).token != before


@pytest.mark.django_db(transaction=True)
def test_a_copy_read_inside_a_rolled_back_edit_is_never_served() -> None:
    # given an edit that a copy is read in, then rolled back
    committed = SettingsVersion.objects.get(pk=1).token
    with pytest.raises(RuntimeError), transaction.atomic():
        rules = RunSettings.load()
        rules.max_party_size = 7
        rules.save()
        assert RunSettings.cached().max_party_size == 7  # kept with the edit's token, which never commits
        raise RuntimeError("the edit fails")
    # when a request reads the committed token
    settings_token_seen(SettingsVersion.objects.get(pk=1).token)
    try:
        # then the rolled-back copy does not match it
        assert SettingsVersion.objects.get(pk=1).token == committed
        assert RunSettings.cached().max_party_size == RunSettings.load().max_party_size != 7
    finally:
        settings_token_forget()


@pytest.mark.django_db
def test_a_request_starts_with_no_token_of_an_earlier_one() -> None:
    # a token left by one request must not vouch for a copy in the next (e.g. an admin page, no JWT)
    client = api_client(PlayerFactory())
    assert client.get(f"{API}/me/").status_code == 200
    assert _token_seen.get() is None  # request_finished forgot it

