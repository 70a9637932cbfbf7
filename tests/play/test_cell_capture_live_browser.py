"""The cell capture page (/play/cell-capture/) in Chromium against a real ASGI server: live, not polled
(SPEC 13: a client never polls to learn that it is its turn).

uvicorn over ``backend.asgi`` on the test's PostgreSQL database, as the crawler's page tests, so the
streams stay open as in production. (The in-process server of tests/play/test_cell_capture_browser.py
answers a stream with what there is and closes it; the page then reads once and reopens it, which would
hide a page that waits for a message that never comes.) The page's requests are recorded: while its
streams are open it asks nothing, and what another player does reaches it through them: a join in the
lobby (the user's ``lobby_changed`` notice), a move (the match's stream), and a lobby opened or filled in the
list of games (``GET matches/stream/``).
"""
from __future__ import annotations

import time
from typing import Any

import pytest
import requests

from tests.backend.live.servers import database_url_of_test, server_env, uvicorn
from tests.play.browser import NEEDS_CHROMIUM, Api, browser  # noqa: F401 - the fixture
from tests.play.test_cell_capture_browser import PASSWORD, WAIT_MS, choose, match_as, register, wait_until

pytestmark = [NEEDS_CHROMIUM, pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.django_db(transaction=True)]

#: How long the page is watched with nothing happening: the old page polled the match every 0.9 s.
QUIET_S = 3.0


def alice_and_bob(browser: Any, base: str) -> tuple[Any, list[str], Api]:  # noqa: F811 - the fixture's name
    """alice signed up on the page, every request of it recorded; bob signed up through the API."""
    page = browser.new_context(viewport={"width": 1200, "height": 860}).new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    register(page, f"{base}/play/cell-capture/", "alice")
    made = requests.post(f"{base}/api/v1/auth/register/", json={"username": "bob", "password": PASSWORD},
                         timeout=10)
    assert made.status_code == 201, made.text
    return page, requested, Api(base, "bob", PASSWORD)


def reads_of(requested: list[str], match_id: int) -> int:
    """The page's reads of the match (``GET matches/{id}/``, any ``?since=``)."""
    return sum(1 for url in requested if f"/api/v1/matches/{match_id}/?" in url
               or url.endswith(f"/api/v1/matches/{match_id}/"))


def settled(page: Any, requested: list[str], match_id: int) -> int:
    """Waits until the page's reads of the match stop for a second; returns how many it made."""
    count = reads_of(requested, match_id)
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        page.wait_for_timeout(1000)
        now = reads_of(requested, match_id)
        if now == count:
            return count
        count = now
    raise AssertionError("the page kept reading the match")


def test_the_page_asks_nothing_while_its_streams_are_open_and_hears_a_join_and_a_move(browser, tmp_path):  # noqa: F811
    with uvicorn(server_env(database_url_of_test()), tmp_path / "server.log") as base:
        # given alice on the page, whose requests are recorded, and bob through the API
        page, requested, bob = alice_and_bob(browser, base)
        alice = Api(base, "alice", PASSWORD)
        # and alice's 5x5 lobby, open on her page with its streams
        page.fill("#open-form [name=width]", "5")
        page.fill("#open-form [name=height]", "5")
        page.click("#open-form button[type=submit]")
        page.wait_for_selector("body[data-status=lobby][data-live='1'][data-notices='1']", timeout=WAIT_MS)
        match_id = int(page.url.rsplit("#match-", 1)[1])
        before = settled(page, requested, match_id)

        # when nothing happens for a while, then the page reads nothing
        page.wait_for_timeout(QUIET_S * 1000)
        assert reads_of(requested, match_id) == before, "the page polled the match while its stream was open"

        # when bob joins through the API, then alice's page hears it (her notice) and offers the start
        joined = requests.post(f"{base}/api/v1/matches/{match_id}/join/", headers=bob.headers, timeout=10)
        assert joined.status_code == 200, joined.text
        page.wait_for_selector("#start:not([disabled])", timeout=WAIT_MS)
        page.click("#start")
        page.wait_for_selector("body[data-status=active]", timeout=WAIT_MS)
        match = match_as(alice, match_id)
        bob_id = next(p["player"] for p in match["players"] if p["name"] == "bob")
        if match["awaiting"] != bob_id:  # alice moves first: by a click on her page
            x, y = choose(match)
            page.wait_for_selector(f'body[data-turn="{match["turn"]}"][data-my-turn="1"][data-busy="0"]',
                                   timeout=WAIT_MS)
            page.click(f'#board .cell[data-cell="{x},{y}"]')
            page.wait_for_selector(f'body[data-turn="{match["turn"] + 1}"][data-busy="0"]', timeout=WAIT_MS)
            match = match_as(alice, match_id)
        assert match["awaiting"] == bob_id
        before = settled(page, requested, match_id)
        page.wait_for_timeout(QUIET_S * 1000)
        assert reads_of(requested, match_id) == before, "the page polled the match while its stream was open"

        # when bob moves through the API, then alice's page shows the move and that it is her turn
        x, y = choose(match)
        action = next(a for a in match_as(bob, match_id)["allowed_actions"] if a["cell"] == [x, y])
        moved = requests.post(f"{base}/api/v1/matches/{match_id}/actions/", headers=bob.headers, timeout=10,
                              json={"turn": match["turn"], "action": action})
        assert moved.status_code == 200, moved.text
        page.wait_for_selector(f'body[data-turn="{match["turn"] + 1}"][data-my-turn="1"][data-busy="0"]',
                               timeout=WAIT_MS)
        assert page.locator(f'#board .cell[data-cell="{x},{y}"][data-owner]').count() == 1
        # and it did so by reading the match once or twice (the stream's message, a drop), not by polling
        assert reads_of(requested, match_id) - before <= 2
        page.context.close()


def list_reads(requested: list[str]) -> int:
    """The page's reads of the list of games over REST (``GET matches/``, any query)."""
    return sum(1 for url in requested if "/api/v1/matches/?" in url or url.endswith("/api/v1/matches/"))


def test_the_list_of_games_is_pushed_a_lobby_opened_and_filled_elsewhere_appears_unasked(browser, tmp_path):  # noqa: F811
    with uvicorn(server_env(database_url_of_test()), tmp_path / "server.log") as base:
        # given alice on the list of games, her requests recorded, its stream open; bob through the API
        page, requested, bob = alice_and_bob(browser, base)
        page.wait_for_selector("body[data-games='1']", timeout=WAIT_MS)
        # when nothing happens for a while, then the page reads no list
        page.wait_for_timeout(QUIET_S * 1000)
        assert list_reads(requested) == 0, "the page polled the list of games while its stream was open"

        # when bob opens a 5x5 lobby through the API
        opened = requests.post(f"{base}/api/v1/matches/", headers=bob.headers, timeout=10,
                               json={"mode": "cell_capture", "settings": {"width": 5, "height": 5}})
        assert opened.status_code == 201, opened.text
        match_id = opened.json()["id"]
        # then it appears in alice's list with its one player
        row = f'#game-list tr[data-match="{match_id}"]'
        page.wait_for_selector(row, timeout=WAIT_MS)
        assert page.inner_text(f"{row} td:nth-child(3)") == "1"
        # when bob seats a bot, then the list shows two players
        added = requests.post(f"{base}/api/v1/matches/{match_id}/bots/", headers=bob.headers, timeout=10,
                              json={"level": "random"})
        assert added.status_code == 200, added.text
        wait_until(lambda: page.inner_text(f"{row} td:nth-child(3)") == "2", "the bot's seat in the list")
        # and all of it came on the stream: the page never read the list
        assert list_reads(requested) == 0
        page.context.close()
