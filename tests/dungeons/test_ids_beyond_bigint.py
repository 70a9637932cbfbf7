"""An id in a URL beyond any row's id (PostgreSQL's bigint, SQLite's INTEGER) is a plain 404 on the
paths that run precompiled SQL (backend.sql): SQLite cannot even bind such a number, and the ORM's
lookups answer "no row" for it. Found by the API fuzzer on SQLite (a 500 at runs/{id}/drink/)."""
from __future__ import annotations

import pytest

from backend.sql import MAX_ROW_ID
from tests.factories import PlayerFactory, api_client

pytestmark = pytest.mark.django_db

HUGE = 2**91


@pytest.mark.parametrize("run_id", [MAX_ROW_ID + 1, HUGE])
def test_a_run_service_with_an_id_beyond_bigint_is_run_not_found(run_id: int) -> None:
    response = api_client(PlayerFactory()).post(f"/api/v1/runs/{run_id}/advance/", {"step": 0}, format="json")
    assert response.status_code == 404, response.content
    assert response.json()["error"]["code"] == "run_not_found"


@pytest.mark.parametrize("battle_id", [MAX_ROW_ID + 1, HUGE])
def test_a_battle_with_an_id_beyond_bigint_is_battle_not_found(battle_id: int) -> None:
    client = api_client(PlayerFactory())
    read = client.get(f"/api/v1/battles/{battle_id}/?since={HUGE}")
    act = client.post(f"/api/v1/battles/{battle_id}/actions/",
                      {"turn": 0, "action": {"kind": "skip"}}, format="json")
    for response in (read, act):
        assert response.status_code == 404, response.content
        assert response.json()["error"]["code"] == "battle_not_found"


def test_an_account_without_a_player_is_still_refused_first() -> None:
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient
    from rest_framework_simplejwt.tokens import RefreshToken

    user = get_user_model().objects.create_user(username="no-player", password="x" * 12)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {RefreshToken.for_user(user).access_token}")
    response = client.get(f"/api/v1/battles/{HUGE}/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "player_not_found"
