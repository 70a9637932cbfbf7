"""The match shell (/play/matches/) in Chromium: quick join, and the user's notices from ``me/stream/``.

Two pages press quick join for cell capture and land in the same queue lobby, which the queue's fill
(``queue_fill_seconds``, set short in the mode's admin row) starts; a page shows the notices of another
match (its turn there, a rematch offered) with a link that opens it. Each page is checked against the API.
"""
from __future__ import annotations

import requests

from matches.services import mode_settings
from tests.play.browser import NEEDS_CHROMIUM, Api, browser, serial_live_server  # noqa: F401 - fixtures
from tests.play.test_match_shell_browser import PASSWORD, WAIT_S, match_id_of, new_page, wait_until

pytestmark = NEEDS_CHROMIUM


def quick_join(page, mode: str) -> int:
    card = page.locator(f"[data-mode={mode}]")
    card.locator("input[name=width]").fill("5")
    card.locator("input[name=height]").fill("5")
    card.locator("button.quick-join").click()
    return match_id_of(page)


def test_two_pages_quick_join_the_same_lobby_which_the_fill_starts(serial_live_server, browser):  # noqa: F811
    # given cell capture's queue filling 3 seconds after a queue lobby opens
    row = mode_settings("cell_capture")
    row.queue_fill_seconds = 3
    row.save()
    url = f"{serial_live_server}/play/matches/"
    alice, bob = new_page(browser, url, "alice"), new_page(browser, url, "bob")
    # when both press quick join for the same settings
    first = quick_join(alice, "cell_capture")
    second = quick_join(bob, "cell_capture")
    # then they land in the same lobby, which the API names as a queue lobby with both seated
    assert first == second
    apis = {name: Api(serial_live_server, name, PASSWORD) for name in ("alice", "bob")}
    lobby = apis["alice"].get(f"matches/{first}/")
    assert lobby["queue_fill_at"] is not None or lobby["status"] == "active"
    assert sorted(p["name"] for p in lobby["players"]) == ["alice", "bob"]
    # and once the fill time passes the match starts on both pages (no bot was needed: two is enough)
    for page in (alice, bob):
        page.wait_for_selector("body[data-status=active]", timeout=WAIT_S * 1000)
    match = apis["bob"].get(f"matches/{first}/")
    assert match["status"] == "active" and all(p["bot"] is None for p in match["players"])
    for page in (alice, bob):
        names = page.eval_on_selector_all("#players li", "items => items.map(i => i.textContent)")
        assert len(names) == 2 and any("alice" in n for n in names) and any("bob" in n for n in names)
        wait_until(lambda page=page: page.get_attribute("body", "data-turn") == str(match["turn"]),
                   "the API's turn on the page")
    awaited = {"alice": alice, "bob": bob}[next(p["name"] for p in match["players"]
                                                 if p["player"] == match["awaiting"])]
    assert awaited.get_attribute("body", "data-my-turn") == "1"


def test_one_page_quick_joins_and_the_fill_seats_a_bot(serial_live_server, browser):  # noqa: F811
    # given cell capture's queue filling 2 seconds after a queue lobby opens
    row = mode_settings("cell_capture")
    row.queue_fill_seconds = 2
    row.save()
    page = new_page(browser, f"{serial_live_server}/play/matches/", "solo")
    # when one page quick-joins and nobody else comes
    match_id = quick_join(page, "cell_capture")
    # then the fill seats the mode's bot and the match starts, on the page as in the API
    page.wait_for_selector("body[data-status=active]", timeout=WAIT_S * 1000)
    match = Api(serial_live_server, "solo", PASSWORD).get(f"matches/{match_id}/")
    assert match["status"] == "active"
    bots = [p for p in match["players"] if p["bot"]]
    assert len(bots) == 1
    wait_until(lambda: page.locator("#players li").count() == 2, "two seats on the page")
    assert any(bots[0]["name"] in text for text in page.eval_on_selector_all(
        "#players li", "items => items.map(i => i.textContent)"))


def _post(api: Api, path: str, body: dict | None = None) -> dict:
    reply = requests.post(f"{api.base}/api/v1/{path}", json=body or {}, headers=api.headers, timeout=10)
    assert reply.status_code in (200, 201), reply.text
    return reply.json()


def test_notices_of_other_matches_link_to_them(serial_live_server, browser):  # noqa: F811 - the fixtures
    # given alice on the shell, watching her match A against a bot
    url = f"{serial_live_server}/play/matches/"
    alice = new_page(browser, url, "alice")
    new_page(browser, url, "bob").context.close()  # bob registers (he plays through the API)
    apis = {name: Api(serial_live_server, name, PASSWORD) for name in ("alice", "bob")}
    small = {"mode": "cell_capture", "settings": {"width": 5, "height": 5}}
    first = _post(apis["alice"], "matches/", small)["id"]
    _post(apis["alice"], f"matches/{first}/bots/", {"level": "random"})
    _post(apis["alice"], f"matches/{first}/start/")
    alice.click(f"#game-list li[data-match='{first}'] button", timeout=WAIT_S * 1000)
    assert match_id_of(alice) == first
    alice.wait_for_selector("#notices[data-ready='1']", state="attached", timeout=WAIT_S * 1000)
    # when bob opens match B, she joins (through the API) and he starts it; the turn comes to her there
    second = _post(apis["bob"], "matches/", small)["id"]
    _post(apis["alice"], f"matches/{second}/join/")
    _post(apis["bob"], f"matches/{second}/start/")
    match = apis["bob"].get(f"matches/{second}/")
    if match["allowed_actions"]:  # bob moves first: his move passes the turn to her
        _post(apis["bob"], f"matches/{second}/actions/",
              {"turn": match["turn"], "action": match["allowed_actions"][0], "idempotency_key": "bob-1"})
    # then her page shows the API's notice of her turn in B (and of B's start), each with a link to B
    told = wait_until(lambda: [n for n in apis["alice"].get("me/notices/")["notices"]
                               if n["kind"] == "your_turn" and n["data"]["match"] == second],
                      "the API's notice")
    shown = alice.wait_for_selector(f"#notices:not([hidden]) li[data-kind=your_turn][data-match='{second}']",
                                    timeout=WAIT_S * 1000)
    assert shown.get_attribute("data-seq") == str(told[-1]["seq"])
    assert f"Your turn in Cell capture #{second}." in shown.inner_text()
    assert alice.locator(f"#notices li[data-kind=match_started][data-match='{second}']").count() == 1
    # the match on screen tells its own news: no notice of it
    assert alice.locator(f"#notices li[data-match='{first}']").count() == 0
    # when she follows the link, the page opens B, where it is her turn as the API says
    shown.query_selector("a.notice-link").click()
    assert match_id_of(alice) == second
    mine = apis["alice"].get(f"matches/{second}/")
    alice.wait_for_selector(f"body[data-turn='{mine['turn']}'][data-my-turn='1']", timeout=WAIT_S * 1000)
    # when she resigns B and bob opens its rematch
    _post(apis["alice"], f"matches/{second}/resign/")
    rematch = _post(apis["bob"], f"matches/{second}/rematch/")["id"]
    # then her page shows the offer, whose link opens the rematch's lobby
    offered = alice.wait_for_selector(f"#notices li[data-kind=rematch_offered][data-match='{rematch}']",
                                      timeout=WAIT_S * 1000)
    assert f"A rematch of #{second} is offered" in offered.inner_text()
    offered.query_selector("a.notice-link").click()
    assert match_id_of(alice) == rematch
    assert apis["alice"].get(f"matches/{rematch}/")["status"] == "lobby"
