"""Chosen names cannot impersonate or hide (issue 11, item 8): guild names and usernames are cleaned
(NFKC, no control or format characters, a visible character required) and unique on a folded key."""
from __future__ import annotations

import unicodedata

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from hypothesis import given
from hypothesis import strategies as st

from backend.errors import InvalidInput
from backend.names import HIDDEN, clean_name, name_key
from guilds.models import Guild
from players.models import Player
from tests.dungeons.run_helpers import assert_error
from tests.factories import PlayerFactory, api_client, make_guild
from tests.players.test_auth import register

ZWSP, RLO, BOM = "\u200b", "\u202e", "\ufeff"


# --- the functions ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "clean"), [
    ("  Lantern  bearers ", "Lantern bearers"),
    (f"Lantern{ZWSP}bearers", "Lanternbearers"),
    (f"{RLO}Lanternbearers{BOM}", "Lanternbearers"),
    ("ＬＡＮＴＥＲＮ", "LANTERN"),  # fullwidth compatibility forms
    ("Deep\tDelvers\n", "Deep Delvers"),
    ("ﬁre", "fire"),  # the ligature
])
def test_clean_name_normalises_and_strips_what_hides(raw, clean) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize("raw", ["", "   ", ZWSP * 3, f"{RLO}{BOM}", "\x00\x01", "\u00a0\u2003"])
def test_a_name_without_a_visible_character_is_refused(raw) -> None:
    with pytest.raises(InvalidInput) as refused:
        clean_name(raw)
    assert refused.value.code == "invalid_name"


@pytest.mark.parametrize("look_alike", [
    "Lanternbearers", "lanternbearers", "LANTERNBEARERS", f"Lantern{ZWSP}bearers",
    "Lаnternbearers",  # Cyrillic а
    "Lanternbеarеrs",  # Cyrillic е
    "Lantеrnbеarеrs".replace("e", "е"),
    "Lanternbearers".replace("a", "α"),  # Greek alpha
    "ＬＡＮＴＥＲＮＢＥＡＲＥＲＳ", "Lanternbéarers", "LΑΝΤΕRΝΒΕΑRΕRS",  # Greek capitals
])
def test_look_alikes_share_one_key(look_alike) -> None:
    assert name_key(look_alike) == name_key("Lanternbearers") == "lanternbearers"


def test_different_names_keep_different_keys() -> None:
    keys = {name_key(n) for n in ["Lanternbearers", "Lantern bearers", "Lanternbearer", "Ironclad", "Ирина"]}
    assert len(keys) == 5


@given(st.text(max_size=40))
def test_a_clean_name_is_stable_and_keeps_no_hidden_character(raw) -> None:
    try:
        clean = clean_name(raw)
    except InvalidInput:
        return
    assert clean == clean_name(clean)
    assert not any(unicodedata.category(c) in HIDDEN for c in clean)
    assert clean == clean.strip() and "  " not in clean
    assert name_key(clean) == name_key(raw)
    assert name_key(name_key(clean)) == name_key(clean)


# --- through the API --------------------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db


@pytestmark_db
@pytest.mark.parametrize("copy", [f"Lantern{ZWSP}bearers", "Lаnternbearers", "ＬＡＮＴＥＲＮＢＥＡＲＥＲＳ",
                                  f"{RLO}Lanternbearers", "Lanternbéarers", " lanternbearers "])
def test_a_guild_name_cannot_be_copied_with_hidden_or_look_alike_characters(copy) -> None:
    make_guild(name="Lanternbearers")
    founder = PlayerFactory()
    response = api_client(founder).post("/api/v1/guilds/", {"name": copy}, format="json")
    assert_error(response, 409, "name_taken")
    assert Guild.objects.count() == 1


@pytestmark_db
def test_a_guild_name_is_stored_clean_and_must_show_something() -> None:
    client = api_client(PlayerFactory())
    assert_error(client.post("/api/v1/guilds/", {"name": ZWSP * 5}, format="json"), 400, "invalid_name")
    response = client.post("/api/v1/guilds/", {"name": f"a{ZWSP * 4}b"}, format="json")
    assert_error(response, 400, "invalid_name")
    created = client.post("/api/v1/guilds/", {"name": f"  Deep {RLO} Delvers "}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["name"] == "Deep Delvers"
    assert Guild.objects.get().name_key == "deep delvers"


@pytestmark_db
@pytest.mark.parametrize("copy", ["аyla", "ＡＹＬＡ", "AYLA", "aylа"])
def test_a_username_cannot_be_copied_with_a_look_alike(copy) -> None:
    from rest_framework.test import APIClient

    assert register(APIClient()).status_code == 201
    assert_error(register(APIClient(), username=copy), 409, "username_taken")
    assert Player.objects.count() == 1


@pytestmark_db
def test_a_username_is_stored_in_its_normal_form() -> None:
    from rest_framework.test import APIClient

    response = register(APIClient(), username="ａｙｌａ")
    assert response.status_code == 201, response.json()
    player = Player.objects.get()
    assert (player.user.username, player.display_name, player.name_key) == ("ayla", "ayla", "ayla")


# --- the migration ----------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_the_migration_backfills_keys_and_keeps_colliding_old_rows() -> None:
    executor = MigrationExecutor(connection)
    before = [("guilds", "0002_default_rules_and_schedule"),
              ("players", "0005_inventoryitem_acquired_in_run_fk")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    User, OldPlayer, OldGuild = (old.get_model("auth", "User"), old.get_model("players", "Player"),
                                 old.get_model("guilds", "Guild"))
    players = [OldPlayer.objects.create(user=User.objects.create(username=name), display_name=name)
               for name in ("ayla", "аyla", "Bram")]
    guilds = [OldGuild.objects.create(name=name, leader=players[0], created_at="2026-01-01T00:00Z")
              for name in ("Lanternbearers", "Lаnternbearers")]

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    keys = dict(Player.objects.values_list("pk", "name_key"))
    assert keys == {players[0].pk: "ayla", players[1].pk: f"ayla#{players[1].pk}", players[2].pk: "bram"}
    guild_keys = dict(Guild.objects.values_list("pk", "name_key"))
    assert guild_keys == {guilds[0].pk: "lanternbearers", guilds[1].pk: f"lanternbearers#{guilds[1].pk}"}
