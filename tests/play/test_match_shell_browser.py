"""The match shell (/play/matches/) in Chromium: a console labyrinth against a bot to its end, two pages of
cell capture joined by an invite code until one resigns, and a spectator who is shown no move.

Each page is checked against the API (the same live server). Set MATCH_SHELL_SCREENSHOTS=docs/img to
refresh docs/img/match-shell.png and match-shell-390.png (docs/play.md).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import requests

from tests.play.browser import NEEDS_CHROMIUM, Api, browser, serial_live_server  # noqa: F401 - fixtures

pytestmark = NEEDS_CHROMIUM

SHOTS = os.environ.get("MATCH_SHELL_SCREENSHOTS")
PASSWORD = "a long enough passphrase 42"
WAIT_S = 30.0


def wait_until(check, what: str, timeout: float = WAIT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def new_page(browser, url: str, username: str, width: int = 1100, locale: str = "en-US"):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    page = context.new_page()
    page.goto(url)
    page.fill("#auth-form [name=username]", username)
    page.fill("#auth-form [name=password]", PASSWORD)
    page.click("#auth-form [name=register]")
    page.wait_for_selector("#home:not([hidden]) .mode")
    return page


def match_id_of(page) -> int:
    page.wait_for_selector("#match:not([hidden])")
    return int(page.evaluate("location.hash").split("-")[1])


def shown_result(page) -> dict:
    page.wait_for_selector("#result:not([hidden])", timeout=WAIT_S * 1000)
    data = page.eval_on_selector("#result", "e => ({...e.dataset})")
    ids = lambda text: [int(x) for x in text.split(",") if x]  # noqa: E731
    return {"winners": ids(data["winners"]), "winner_seats": ids(data["winnerSeats"]),
            "reason": data["reason"]}


def play_first_action(page) -> bool:
    """On the page's turn, clicks the first allowed action (a board's cell, else a button); True if it did."""
    if page.get_attribute("body", "data-my-turn") != "1":
        return False
    buttons = page.locator("#view .cell.playable, #actions button.action:not([disabled])")
    if buttons.count() == 0:
        return False
    buttons.first.click()
    return True


def test_one_page_plays_the_console_labyrinth_against_a_bot_to_its_end(serial_live_server, browser):  # noqa: F811
    # given a player on the shell, who opens a small console labyrinth with a turn limit and seats a bot
    url = f"{serial_live_server}/play/matches/"
    page = new_page(browser, url, "ariadne")
    card = page.locator("[data-mode=labyrinth_console]")
    card.locator("input[name=rows]").fill("3")
    card.locator("input[name=cols]").fill("3")
    card.locator("input[name=max_turns]").fill("16")
    card.locator("button.open-lobby").click()
    match_id = match_id_of(page)
    page.select_option("#bot-level", "explorer")
    page.click("#add-bot")
    wait_until(lambda: page.locator('#players li').count() == 2, 'two seats')
    # when the host starts and answers every turn with the moves the page offers, in turn
    page.click("#start")
    page.wait_for_selector("body[data-status=active]")
    moves = ["cmd_D", "cmd_S", "cmd_A", "cmd_W"]
    labels = {"cmd_W": "Up (W)", "cmd_A": "Left (A)", "cmd_S": "Down (S)", "cmd_D": "Right (D)"}
    played = 0
    deadline = time.monotonic() + 120
    while page.get_attribute("body", "data-status") == "active" and time.monotonic() < deadline:
        if page.get_attribute("body", "data-my-turn") == "1":
            button = page.locator("#actions button.action", has_text=labels[moves[played % 4]])
            if button.count() and button.first.is_enabled():
                button.first.click()
                played += 1
        time.sleep(0.15)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / "match-shell.png"), full_page=True)
    # then the game ended, and the result the page shows is the API's
    api = Api(serial_live_server, "ariadne", PASSWORD)
    match = api.get(f"matches/{match_id}/")
    assert match["status"] == "finished"
    assert played > 0
    result = shown_result(page)
    assert result == {key: match["result"][key] for key in ("winners", "winner_seats", "reason")}
    # and the notebook was drawn from the answers; the log holds the events' texts the API gives
    assert page.locator(".notebook .nb-cell.visited").count() >= 1
    api_texts = [e["text"] for e in api.get(f"matches/{match_id}/?since=0")["events"]]
    page_texts = page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)")
    assert "\n".join(api_texts).split("\n") == page_texts
    # when the player steps through the replay as their seat, each step's events are the replay's
    page.click("#open-replay")
    page.wait_for_selector("#replay:not([hidden])")
    replay = api.get(f"matches/{match_id}/replay/?as_seat={match['seat']}")
    page.click("#replay-next")
    page.wait_for_selector("#replay[data-step='1']")
    shown = page.eval_on_selector_all("#replay-events li", "items => items.map(i => i.textContent)")
    assert shown == [e["text"] for e in replay["steps"][1]["events"]]


def test_two_pages_join_by_code_play_and_one_resigns(serial_live_server, browser):  # noqa: F811
    # given two players; alice opens a private cell capture lobby and bob joins by its code (at 390 px, in
    # Russian)
    url = f"{serial_live_server}/play/matches/"
    alice = new_page(browser, url, "alice")
    bob = new_page(browser, url, "bob", width=390, locale="ru-RU")
    assert bob.inner_text("h1") == "Матчи"  # the browser's language picks the shell's words
    card = alice.locator("[data-mode=cell_capture]")
    card.locator("input[name=width]").fill("5")
    card.locator("input[name=height]").fill("5")
    card.locator("select[name=visibility]").select_option("private")
    card.locator("button.open-lobby").click()
    match_id = match_id_of(alice)
    code = alice.wait_for_selector("#invite:not([hidden]) #invite-code").inner_text()
    assert code == Api(serial_live_server, "alice", PASSWORD).get(f"matches/{match_id}/")["invite_code"]
    bob.fill("#code-form [name=code]", code)
    bob.keyboard.press("Enter")
    assert match_id_of(bob) == match_id
    wait_until(lambda: alice.locator('#players li').count() == 2, 'two seats')
    # when alice starts and they play four moves between them
    alice.click("#start")
    for turn in range(1, 5):
        wait_until(lambda: play_first_action(alice) or play_first_action(bob), "a turn")
        wait_until(lambda turn=turn: alice.get_attribute("body", "data-turn") == bob.get_attribute(
            "body", "data-turn") == str(turn + 1), "both pages at the next turn")
    # and bob resigns with the keyboard alone
    bob.focus("#resign")
    bob.keyboard.press("Enter")
    # then alice sees the result live, and both pages show the API's result
    alice_result = shown_result(alice)
    match = Api(serial_live_server, "alice", PASSWORD).get(f"matches/{match_id}/")
    expected = {key: match["result"][key] for key in ("winners", "winner_seats", "reason")}
    assert expected["reason"] == "resigned"
    assert alice_result == expected
    assert shown_result(bob) == expected
    # and each page's log holds the events' texts in its own language, as the API gives them
    for page, name, language in ((alice, "alice", "en"), (bob, "bob", "ru")):
        headers = {**Api(serial_live_server, name, PASSWORD).headers, "Accept-Language": language}
        texts = requests.get(f"{serial_live_server}/api/v1/matches/{match_id}/?since=0", headers=headers,
                             timeout=10)
        expected_log = "\n".join(e["text"] for e in texts.json()["events"]).split("\n")
        wait_until(lambda page=page, expected_log=expected_log: page.eval_on_selector_all(
            "#log li", "items => items.map(i => i.textContent)") == expected_log, f"the {language} log")
    assert alice.inner_text("#log li:first-child") != bob.inner_text("#log li:first-child")
    if SHOTS:
        bob.screenshot(path=str(Path(SHOTS) / "match-shell-390.png"), full_page=True)
    # and bob's page fits 390 px: nothing is wider than the window
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_spectator_sees_the_public_view_and_no_move(serial_live_server, browser):  # noqa: F811
    url = f"{serial_live_server}/play/matches/"
    host = new_page(browser, url, "hostess")
    modes = {m["name"]: m for m in Api(serial_live_server, "hostess", PASSWORD).get("modes/")}
    if not modes["cell_capture"]["spectators"]:
        import pytest
        pytest.skip("the server hosts no spectators yet (the spectators branch adds them)")
    # given a public cell capture match of a player against a bot
    card = host.locator("[data-mode=cell_capture]")
    card.locator("input[name=width]").fill("5")
    card.locator("input[name=height]").fill("5")
    card.locator("button.open-lobby").click()
    match_id = match_id_of(host)
    host.select_option("#bot-level", "random")
    host.click("#add-bot")
    wait_until(lambda: host.locator('#players li').count() == 2, 'two seats')
    host.click("#start")
    host.wait_for_selector("body[data-status=active]")
    # when another player finds it in the watch list and opens it
    watcher = new_page(browser, url, "watcher")
    watcher.click(f"#watch-list li[data-match='{match_id}'] button")
    assert match_id_of(watcher) == match_id
    watcher.wait_for_selector("body[data-spectator='1'] #view dl")
    # then the page offers no move and no resign, as the API gives the spectator none
    api = Api(serial_live_server, "watcher", PASSWORD).get(f"matches/{match_id}/")
    assert api["allowed_actions"] == [] and api["seat"] is None
    assert watcher.locator("#actions button").count() == 0
    assert watcher.locator("#view .cell").count() == 25
    assert watcher.locator("#view .cell.playable").count() == 0
    assert watcher.locator("#resign").count() == 0
    assert watcher.locator("#view .hint").first.inner_text() == "Public view"
