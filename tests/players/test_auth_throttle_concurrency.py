"""The login throttles hold under concurrent requests: exactly the limit gets through (issue 24, item 8).

DRF's throttles read a key's history, append and write it back, so concurrent requests counted as one:
30 wrong passwords at once for one username let 23 through a limit of 20 on PostgreSQL and Redis.
Each test sends its 30 requests at once (a barrier) against the real Redis cache and PostgreSQL.
"""
from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine
from django.db import connections
from rest_framework.test import APIClient

from backend.api.throttling import UsernameRateThrottle

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

TOKEN = "/api/v1/auth/token/"
LIMIT = 20  # THROTTLE_AUTH (per address, a minute) and THROTTLE_AUTH_USERNAME (per username, an hour)
AT_ONCE = 30


def _all_at_once(send: Callable[[int], int]) -> list[int]:
    """``send(i)`` for i in range(AT_ONCE), each in its own thread, released together; their statuses."""
    barrier, statuses = threading.Barrier(AT_ONCE), [0] * AT_ONCE

    def run(i: int) -> None:
        barrier.wait()
        try:
            statuses[i] = send(i)
        finally:
            connections.close_all()  # back to the pool: 30 threads share its 20 connections

    threads = [threading.Thread(target=run, args=(i,)) for i in range(AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return sorted(statuses)


def test_concurrent_wrong_passwords_for_one_username_let_exactly_the_limit_through(django_user_model) -> None:
    # given an account, and 30 guesses at its password from 30 addresses (so only the username's limit counts)
    django_user_model.objects.create_user("ayla", password="lantern-in-the-deep")

    def guess(i: int) -> int:
        return APIClient().post(TOKEN, {"username": "ayla", "password": f"guess {i}"}, format="json",
                                REMOTE_ADDR=f"10.24.0.{i + 1}").status_code

    # when they arrive at once
    statuses = _all_at_once(guess)
    # then exactly the limit is checked, the rest is refused
    assert statuses == [401] * LIMIT + [429] * (AT_ONCE - LIMIT)


def test_concurrent_logins_from_one_address_over_http_let_exactly_the_limit_through(live_server: Any) -> None:
    # given 30 logins as 30 usernames from one client address, through a real threaded server
    def login(i: int) -> int:
        body = json.dumps({"username": f"nobody{i}", "password": "x"}).encode()
        request = urllib.request.Request(f"{live_server.url}{TOKEN}", method="POST", data=body,
                                         headers={"Content-Type": "application/json"})
        for _ in range(20):
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    return int(response.status)
            except urllib.error.HTTPError as error:
                return int(error.code)
            except (ConnectionError, urllib.error.URLError):
                # the test server's short listen queue overflowed: the request never reached it, so it is
                # sent again (as a browser would)
                time.sleep(0.05)
        raise AssertionError("the test server never took the request")

    # when they arrive at once, then exactly the per-address limit gets an answer
    assert _all_at_once(login) == [401] * LIMIT + [429] * (AT_ONCE - LIMIT)


# Half an hour into the limit's window of an hour: within the first 3 minutes of a window the wait is
# longer than the rate's duration (this window's 20 requests fade from the next one only after 3 minutes
# of it), and the test failed when the clock's hour had just turned.
@time_machine.travel(datetime(2030, 3, 20, 12, 30, tzinfo=UTC), tick=False)
def test_a_refused_request_says_how_long_to_wait(django_user_model) -> None:
    # given one username's limit used up
    guess = {"username": "borin", "password": "x"}
    for i in range(LIMIT):
        APIClient().post(TOKEN, guess, format="json", REMOTE_ADDR=f"10.25.0.{i}")
    # when one more comes
    response = APIClient().post(TOKEN, guess, format="json", REMOTE_ADDR="10.26.0.1")
    # then it waits at most the rate's duration (an hour), and says so in seconds
    assert response.status_code == 429
    wait = int(response["Retry-After"])
    assert 0 < wait <= UsernameRateThrottle().duration
    assert response.json()["error"]["details"]["retry_after"] == wait + 1
