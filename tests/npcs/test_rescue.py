"""Rescue to rank: a rescued NPC joins its guild and adds its rank points; peasants count every time;
the generation candidates and the guild's NPC list follow."""
from __future__ import annotations

import pytest

from backend.errors import InvalidInput, NotFound
from dungeons.generation import NPC_KINDS
from guilds.models import Guild
from npcs.models import GuildNpc, NpcKind, NpcRescue
from npcs.selectors import guild_npc_kinds_unrescued
from npcs.services import npc_rescue
from tests.factories import PlayerFactory, api_client, make_guild
from tests.npcs.helpers import API, assert_error

pytestmark = pytest.mark.django_db


def _rank(guild: Guild) -> int:
    return Guild.objects.values_list("rank", flat=True).get(pk=guild.pk)


def test_a_rescue_adds_the_npc_and_its_rank_points() -> None:
    # given: a guild, and a designer who made the shaman worth 3 points
    guild = make_guild()
    NpcKind.objects.filter(slug="shaman").update(rank_points=3)

    # when
    npc_rescue(guild_id=guild.pk, kind="shaman", run_id=41)

    # then
    owned = GuildNpc.objects.get(guild=guild)
    assert (owned.kind.slug, owned.count, owned.rank_points) == ("shaman", 1, 3)
    assert _rank(guild) == 3
    assert list(NpcRescue.objects.filter(guild=guild).values_list("kind__slug", "run_id", "rank_points")) == [
        ("shaman", 41, 3)]


def test_peasants_rescued_twice_count_twice() -> None:
    guild = make_guild()
    npc_rescue(guild_id=guild.pk, kind="peasant", run_id=1)
    npc_rescue(guild_id=guild.pk, kind="peasant", run_id=2)
    peasants = GuildNpc.objects.get(guild=guild, kind__slug="peasant")
    assert (peasants.count, peasants.rank_points) == (2, 2)
    assert _rank(guild) == 2
    assert NpcRescue.objects.filter(guild=guild).count() == 2


def test_every_kind_rescued_once_gives_one_point_each_by_default() -> None:
    guild = make_guild()
    for run_id, kind in enumerate(NPC_KINDS, start=100):
        npc_rescue(guild_id=guild.pk, kind=kind, run_id=run_id)
    assert _rank(guild) == len(NPC_KINDS) == 12
    assert guild_npc_kinds_unrescued(guild_id=guild.pk) == ["peasant"]


def test_a_second_rescue_of_an_owned_npc_adds_nothing() -> None:
    # two runs of one guild found the trader before either completed; the second completes later
    guild = make_guild()
    npc_rescue(guild_id=guild.pk, kind="trader", run_id=1)
    npc_rescue(guild_id=guild.pk, kind="trader", run_id=2)
    assert GuildNpc.objects.get(guild=guild).count == 1
    assert _rank(guild) == 1
    assert NpcRescue.objects.filter(guild=guild).count() == 1


def test_the_same_run_rescues_only_once_even_if_completion_is_retried() -> None:
    guild = make_guild()
    npc_rescue(guild_id=guild.pk, kind="peasant", run_id=7)
    npc_rescue(guild_id=guild.pk, kind="peasant", run_id=7)
    assert GuildNpc.objects.get(guild=guild).count == 1
    assert _rank(guild) == 1


def test_rescues_of_one_guild_do_not_touch_another() -> None:
    ours, theirs = make_guild(), make_guild()
    npc_rescue(guild_id=ours.pk, kind="jeweler")
    assert _rank(theirs) == 0
    assert "jeweler" in guild_npc_kinds_unrescued(guild_id=theirs.pk)
    assert "jeweler" not in guild_npc_kinds_unrescued(guild_id=ours.pk)


def test_unknown_or_initial_kinds_and_missing_guilds_are_refused() -> None:
    guild = make_guild()
    for kind in ("junk_dealer", "charon", "dragon"):
        with pytest.raises(InvalidInput) as info:
            npc_rescue(guild_id=guild.pk, kind=kind)
        assert info.value.code == "unknown_npc_kind"
    with pytest.raises(NotFound):
        npc_rescue(guild_id=guild.pk + 1000, kind="trader")
    assert _rank(guild) == 0 and not GuildNpc.objects.exists()


def test_unrescued_kinds_keep_the_generators_order_and_always_offer_peasants() -> None:
    guild = make_guild()
    assert guild_npc_kinds_unrescued(guild_id=guild.pk) == list(NPC_KINDS)
    npc_rescue(guild_id=guild.pk, kind="peasant")
    npc_rescue(guild_id=guild.pk, kind="bowyer")
    assert guild_npc_kinds_unrescued(guild_id=guild.pk) == [k for k in NPC_KINDS if k != "bowyer"]


# --- GET /guilds/{id}/npcs/ ----------------------------------------------------------------------------

def test_the_npc_list_shows_the_initial_npcs_then_the_rescued_ones() -> None:
    # given: a guild that rescued two peasants and a carpenter
    guild = make_guild()
    for run_id, kind in enumerate(["peasant", "carpenter", "peasant"]):
        npc_rescue(guild_id=guild.pk, kind=kind, run_id=run_id)

    # when: any player (not only members) looks
    response = api_client(PlayerFactory()).get(f"{API}/guilds/{guild.pk}/npcs/")

    # then
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["guild"] == guild.pk and body["rank"] == 3 and body["junk_dealer_offer_size"] == 3
    rows = [(n["kind"], n["count"], n["rank_points"], n["initial"]) for n in body["npcs"]]
    assert rows == [("junk_dealer", 1, 0, True), ("charon", 1, 0, True), ("peasant", 2, 2, False),
                    ("carpenter", 1, 1, False)]
    carpenter = body["npcs"][3]
    assert carpenter["services"] == ["structures"] and carpenter["name"] == "Carpenter"
    assert carpenter["first_rescued_at"] is not None and body["npcs"][0]["first_rescued_at"] is None
    assert body["npcs"][2]["repeatable"] is True and carpenter["repeatable"] is False
    assert body["structures"] == []


def test_the_npc_list_of_a_missing_or_disbanded_guild_is_a_404() -> None:
    client = api_client(PlayerFactory())
    assert_error(client.get(f"{API}/guilds/999999/npcs/"), 404, "guild_not_found")
    guild = make_guild()
    Guild.objects.filter(pk=guild.pk).update(disbanded_at=guild.created_at)
    assert_error(client.get(f"{API}/guilds/{guild.pk}/npcs/"), 404, "guild_not_found")


def test_the_npc_list_needs_a_login() -> None:
    guild = make_guild()
    assert_error(api_client().get(f"{API}/guilds/{guild.pk}/npcs/"), 401, "not_authenticated")
