"""Access rules over the whole schema: a stranger never gets another player's objects, and no request
sets a protected field.

Visibility, for every operation with a path parameter (new routes join by themselves): a guildless
stranger sends schema-valid requests (a few per operation, from the run's ``FUZZ_SEED``) at the
objects of another player, Alice, and gets
- 404 for objects that are private: an inventory item, an invitation, an application she made,
  her run that is no longer a lobby, its battle and its loot, her started private match (the same 404 as
  for a missing id, so a stranger learns nothing, not even that the id exists);
- for guild routes, 403 ``not_leader`` or ``not_member`` (guilds are public: anyone may look a
  guild and its NPC roster up and apply, so refusing by role reveals nothing), or 404 when the
  guild has no such NPC;
- 2xx only on the public operations: a guild's page, applying to it, a catalog item (where a 409
  is about the caller, e.g. already applied);
- 400 if the body is refused before any lookup (it reveals nothing either).
A path parameter this file does not know is reported as a skip until it is classified here.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck, Phase, given, seed, settings
from rest_framework_simplejwt.tokens import RefreshToken

from guilds import services as guild_services
from guilds.models import Guild
from matches import services as match_services
from players.models import ItemKind, Player, PlayerSettings
from players.services import inventory_add
from tests.backend.test_fuzz_api import (
    FUZZ_SEED,
    OPERATIONS,
    run_reproducibly,
    wsgi_in_test_transaction,  # noqa: F401 - a fixture used here
)
from tests.dungeons.run_helpers import current_battle, started
from tests.factories import PlayerFactory, api_client, make_guild

# Path parameters naming objects a stranger may not see (404), and those naming public or per-guild
# things (a guild, a catalog entry, an NPC kind and its offers) that the guild check guards.
PRIVATE = {"item_id", "invitation_id", "application_id", "run_id", "battle_id", "loot_id", "match_id"}
PUBLIC = {"guild_id", "item_kind_id", "kind", "offer_id", "structure_id", "quest_id", "recipe_id", "buff_id"}
PUBLIC_OPERATIONS = {"GET /api/v1/guilds/{guild_id}/", "POST /api/v1/guilds/{guild_id}/applications/",
                     "GET /api/v1/guilds/{guild_id}/npcs/", "GET /api/v1/items/{item_kind_id}/"}
# Found by this test in code its owner may not change, each with what a stranger learns (xfail until
# fixed). Found and fixed so far: POST /runs/{id}/join/ answered a stranger 409 run_not_in_lobby
# with the run's status for a started run, where GET answered 404.
KNOWN_LEAKS: dict[str, str] = {}
GUILD_ROLE_CODES = {"not_leader", "not_member"}
CASES_PER_OPERATION = 4


@dataclass
class Owned:
    """Alice's objects, named by the path parameter that addresses them."""

    ids: dict[str, object]
    stranger_token: str


@pytest.fixture(scope="module")
def owned(django_db_setup, django_db_blocker) -> Iterator[Owned]:
    """Built once for the module in a transaction that is rolled back at the end (as the fuzz world)."""
    with django_db_blocker.unblock(), transaction.atomic(), pytest.MonkeyPatch.context() as monkeypatch:
        alice, applicant, invitee = PlayerFactory(), PlayerFactory(), PlayerFactory()
        guild = make_guild(leader=alice, members=2, joined_days_ago=30)
        application = guild_services.guild_application_create(player=applicant, guild_id=guild.pk)
        invitation = guild_services.guild_invitation_create(actor=alice, guild_id=guild.pk,
                                                            player_id=invitee.pk)
        potion = ItemKind.objects.filter(category="potion").order_by("pk")[0]
        item = inventory_add(player=alice, item_kind=potion)
        run = started([alice], monkeypatch,
                      predicate=lambda dungeon: str(dungeon.floors[0].rooms[0].kind) == "enemy")
        battle = current_battle(run)
        # private: a public match may be watched by anyone (SPEC 15 spectators), a private one by nobody
        match = match_services.match_open(player=alice, mode="cell_capture", settings={}, private=True)
        assert match.invite_code is not None
        match_services.match_join_by_code(player=applicant, code=match.invite_code)
        match_services.match_start(player=alice, match_id=match.pk)
        stranger = PlayerFactory()
        yield Owned(
            ids={"guild_id": guild.pk, "application_id": application.pk, "invitation_id": invitation.pk,
                 "item_id": item.pk, "run_id": run.pk, "battle_id": battle.pk, "loot_id": 1,
                 "item_kind_id": item.item_kind_id, "kind": "trader", "offer_id": 1, "structure_id": 1,
                 "quest_id": 1, "recipe_id": 1, "buff_id": 1, "match_id": match.pk},
            stranger_token=str(RefreshToken.for_user(stranger.user).access_token),
        )
        transaction.set_rollback(True)


def allowed(key: str, params: set[str], status: int, code: str | None) -> bool:
    if key in PUBLIC_OPERATIONS:
        return status < 500  # anyone may do it; a 409 is about the caller (e.g. already applied)
    if 200 <= status < 300:
        return False
    if status in (400, 404):
        return True
    return status == 403 and "guild_id" in params and code in GUILD_ROLE_CODES


OBJECT_OPERATIONS = [
    pytest.param(key, marks=[pytest.mark.xfail(reason=KNOWN_LEAKS[key], strict=False)]
                 if key in KNOWN_LEAKS else [])
    for key, op in OPERATIONS.items() if len(op.path_parameters)
]


@pytest.mark.usefixtures("wsgi_in_test_transaction")
@pytest.mark.parametrize("key", OBJECT_OPERATIONS)
def test_a_stranger_gets_404_or_a_role_refusal_never_the_object(key: str, owned: Owned) -> None:
    operation = OPERATIONS[key]
    params = {p.name for p in operation.path_parameters}
    unknown = params - PRIVATE - PUBLIC
    if unknown:
        pytest.skip(f"no visibility rule for {sorted(unknown)}: classify it in {__name__}")
    path_parameters = {name: owned.ids[name] for name in params}
    strategy = operation.as_strategy(path_parameters=path_parameters,
                                     headers={"Authorization": f"Bearer {owned.stranger_token}"})
    seen: list[tuple[int, str | None]] = []

    @seed(FUZZ_SEED)
    @settings(max_examples=CASES_PER_OPERATION, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def probe(case: schemathesis.Case) -> None:
        response = case.call()
        is_json = response.headers.get("content-type", [""])[0].startswith("application/json")
        body = response.json() if is_json else {}
        code = body.get("error", {}).get("code") if isinstance(body, dict) else None
        seen.append((response.status_code, code))
        assert allowed(key, params, response.status_code, code), (
            f"{key} as a stranger with {path_parameters}: {response.status_code} {response.text[:300]}")
        if params & PRIVATE and response.status_code != 400:
            assert response.status_code == 404 or code in GUILD_ROLE_CODES, response.text[:300]

    run_reproducibly(probe, key)
    assert seen


# --- protected fields ---------------------------------------------------------------------------------

@pytest.mark.django_db
def test_patching_a_guild_changes_only_what_the_leader_may_edit() -> None:
    # given
    guild = make_guild(members=2, joined_days_ago=30)
    other = PlayerFactory()
    protected = ("rank", "activity_row__activity_a", "activity_row__activity_b", "leader_id", "members_count",
                 "name", "created_at")
    before = Guild.objects.values(*protected).get(pk=guild.pk)

    # when: the leader sends every protected field along with an allowed edit
    response = api_client(guild.leader).patch(f"/api/v1/guilds/{guild.pk}/", {
        "description": "we delve", "rank": 999, "activity": 5.0, "leader": other.pk, "members_count": 9,
        "name": "Renamed", "created_at": "2000-01-01T00:00:00Z", "disbanded_at": "2000-01-01T00:00:00Z",
    }, format="json")

    # then: the description changed, nothing protected did
    assert response.status_code == 200
    guild.refresh_from_db()
    assert guild.description == "we delve" and guild.disbanded_at is None
    assert Guild.objects.values(*protected).get(pk=guild.pk) == before


@pytest.mark.django_db
def test_registering_with_money_stats_or_staff_in_the_body_sets_none_of_them() -> None:
    response = api_client().post("/api/v1/auth/register/", {
        "username": "greedy", "password": "deep-delve-2026", "money": 10**9, "strength": 50, "luck": 50,
        "completed_dungeons": 99, "potion_belt_level": 2, "is_staff": True, "is_superuser": True,
        "stats": {"strength": 50},
    }, format="json")
    assert response.status_code == 201
    player = Player.objects.select_related("user").get(pk=response.json()["id"])
    assert player.money == PlayerSettings.load().starting_money
    assert (player.strength, player.luck, player.completed_dungeons, player.potion_belt_level) == (0, 0, 0, 0)
    assert not (player.user.is_staff or player.user.is_superuser)


@pytest.mark.django_db
def test_founding_a_guild_ignores_forged_rank_activity_leader_and_size() -> None:
    founder, other = PlayerFactory(), PlayerFactory()
    response = api_client(founder).post("/api/v1/guilds/", {
        "name": "Forgers", "rank": 50, "activity": 9.5, "leader": other.pk, "members_count": 10,
        "is_open": False,
    }, format="json")
    assert response.status_code == 201
    guild = Guild.objects.get(pk=response.json()["id"])
    assert (guild.rank, guild.activity, guild.leader_id, guild.members_count, guild.is_open) == (
        0, 0.0, founder.pk, 1, True)

