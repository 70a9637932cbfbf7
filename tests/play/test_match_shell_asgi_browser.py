"""The match shell (/play/matches/) in Chromium against a real ASGI server: a host's lobby hears a join.

uvicorn over ``backend.asgi`` on the test's PostgreSQL database, as the crawler's page tests, so the streams
stay open as in production. A join changes none of what the match's stream announces (status, turn,
awaiting, deadline, result); the host hears it from the user's notices (``lobby_changed``). The in-process
server of the shell's other tests answers a stream with what there is and closes it, and the page reads the
match after each drop, which hid a lobby that never heard its joins.
"""
from __future__ import annotations

import pytest
import requests

from tests.backend.live.servers import database_url_of_test, server_env, uvicorn
from tests.play.browser import NEEDS_CHROMIUM, Api, browser  # noqa: F401 - the fixture
from tests.play.test_match_shell_browser import PASSWORD, WAIT_S, match_id_of, new_page, wait_until

pytestmark = [NEEDS_CHROMIUM, pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.django_db(transaction=True)]


def test_a_hosts_lobby_shows_a_player_who_joins_and_the_one_who_leaves(browser, tmp_path):  # noqa: F811
    with uvicorn(server_env(database_url_of_test()), tmp_path / "server.log") as base:
        # given alice's cell capture lobby open on the shell, its stream and her notices live
        alice = new_page(browser, f"{base}/play/matches/", "alice")
        card = alice.locator("[data-mode=cell_capture]")
        card.locator("input[name=width]").fill("5")
        card.locator("input[name=height]").fill("5")
        card.locator("button.open-lobby").click()
        match_id = match_id_of(alice)
        alice.wait_for_selector("#live:not([hidden])", timeout=WAIT_S * 1000)
        alice.wait_for_selector("#notices[data-live='1']", state="attached", timeout=WAIT_S * 1000)
        assert alice.locator("#players li").count() == 1
        made = requests.post(f"{base}/api/v1/auth/register/", json={"username": "bob", "password": PASSWORD},
                             timeout=10)
        assert made.status_code == 201, made.text
        bob = Api(base, "bob", PASSWORD)
        # when bob joins through the API, then her page lists him
        joined = requests.post(f"{base}/api/v1/matches/{match_id}/join/", headers=bob.headers, timeout=10)
        assert joined.status_code == 200, joined.text
        wait_until(lambda: alice.locator("#players li").count() == 2, "bob listed on her page")
        assert "bob" in alice.inner_text("#players")
        # and when he leaves, then it lists her alone again
        left = requests.post(f"{base}/api/v1/matches/{match_id}/leave/", headers=bob.headers, timeout=10)
        assert left.status_code == 200, left.text
        wait_until(lambda: alice.locator("#players li").count() == 1, "her page listing her alone")
        alice.context.close()
