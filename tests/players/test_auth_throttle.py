"""The login throttle cannot be dodged: forwarded headers count only as configured, and each
username has its own limit whatever the address (issue 11, item 3)."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

from tests.dungeons.run_helpers import assert_error

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
PER_ADDRESS = 20  # THROTTLE_AUTH's default: 20/minute
PER_USERNAME = 20  # THROTTLE_AUTH_USERNAME's default: 20/hour


def _login(username: str, *, remote: str = "198.51.100.7", forwarded: str | None = None) -> int:
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    response = APIClient().post(TOKEN, {"username": username, "password": "guess"}, format="json", **extra)
    return response.status_code


def test_a_forged_x_forwarded_for_is_not_a_new_client() -> None:
    statuses = [_login(f"nobody{i}", forwarded=f"203.0.113.{i}") for i in range(PER_ADDRESS + 3)]
    assert statuses == [401] * PER_ADDRESS + [429] * 3


def test_with_one_trusted_proxy_the_address_it_saw_is_the_client() -> None:
    trusted = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    with override_settings(REST_FRAMEWORK=trusted):
        # the proxy appends the real peer: a client's forged entries to the left do not matter
        first = [_login(f"a{i}", remote="10.0.0.1", forwarded=f"6.6.6.{i}, 192.0.2.1")
                 for i in range(PER_ADDRESS + 1)]
        other = _login("b", remote="10.0.0.1", forwarded="192.0.2.2")
    assert first == [401] * PER_ADDRESS + [429]
    assert other == 401


def test_one_username_is_limited_whatever_the_address(django_user_model) -> None:
    django_user_model.objects.create_user("ayla", password="lantern-in-the-deep")
    spread = [_login(name, remote=f"10.1.{i // 250}.{i % 250}")
              for i, name in enumerate(["ayla", "AYLA", " ａｙｌａ "] * 7)][: PER_USERNAME + 1]
    assert spread == [401] * PER_USERNAME + [429]
    # even the right password waits: the account is not guessable faster than the limit
    right = APIClient().post(TOKEN, {"username": "ayla", "password": "lantern-in-the-deep"}, format="json",
                             REMOTE_ADDR="10.9.9.9")
    assert_error(right, 429, "throttled")
    # another username from the same addresses is unaffected
    assert _login("someone-else", remote="10.1.0.0") == 401
