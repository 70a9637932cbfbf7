"""Two players play a whole game of cell capture in Chromium, by clicking, and the pages agree with the API.

Debian's chromium drives the page through Playwright's Python package (never `playwright
install`); the test is skipped, saying why, only when no chromium binary exists. Set
CELL_CAPTURE_SCREENSHOTS=docs/img to refresh the screenshots in docs/cell-capture.md.
"""
from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import requests
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.play.browser import NEEDS_CHROMIUM, Api, browser, serial_live_server  # noqa: F401 - fixtures

pytestmark = NEEDS_CHROMIUM

SHOTS = os.environ.get("CELL_CAPTURE_SCREENSHOTS")
PASSWORD = "a long enough passphrase 42"
WAIT_MS = 20_000
# Round 1: the first in turn order places on (3,3), the second on (4,4); then each upgrades its
# highest piece (ties: the lowest cell). On 5x5 this game takes 22 moves with captures and
# two-wave chains, and the win comes in the middle of a chain.
PLACES = [(3, 3), (4, 4)]


def match_as(api: Api, match_id: int) -> dict:
    return api.get(f"matches/{match_id}/")


#: Records what the page's Content-Security-Policy blocked (play/middleware.py): the game needs none of it.
CSP_WATCH = ("window.__blocked = []; document.addEventListener('securitypolicyviolation', "
             "e => window.__blocked.push(`${e.violatedDirective} ${e.blockedURI}`));")


def register(page, url: str, username: str) -> None:
    page.goto(url)
    page.fill("#auth-form [name=username]", username)
    page.fill("#auth-form [name=password]", PASSWORD)
    page.click("#auth-form [name=register]")
    page.wait_for_selector("#lobbies:not([hidden])")
    assert page.inner_text("#who-name") == username


def page_board(page) -> dict:
    return page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#board .cell[data-owner]')]
        .map(c => [c.dataset.cell, [c.dataset.owner, Number(c.dataset.level),
                   c.querySelectorAll('.dot').length, c.classList.contains('critical')]]))""")


def api_board(match: dict) -> dict:
    return {f"{p['x']},{p['y']}": [p["colour"], p["level"]] for p in match["view"]["board"]}


def wait_until(check, what: str, timeout: float = WAIT_MS / 1000):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def shot(page, name: str) -> bool:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"cell-capture-{name}.png"), full_page=True)
    return True


def choose(match: dict) -> tuple[int, int]:
    view = match["view"]
    if view["round"] == 1:
        return PLACES[match["order"].index(match["awaiting"])]
    mine = sorted((p["x"], p["y"], p["level"]) for p in view["board"] if p["seat"] == view["to_move"])
    x, y, _ = max(mine, key=lambda p: p[2])
    return x, y


def test_two_players_play_a_whole_game_by_clicking(serial_live_server, browser):  # noqa: F811 - the fixtures
    url = f"{serial_live_server}/play/cell-capture/"
    pages = {}
    for name in ("alice", "bob"):
        context = browser.new_context(viewport={"width": 1200, "height": 860})
        context.add_init_script(CSP_WATCH)
        pages[name] = context.new_page()
        register(pages[name], url, name)
    alice, bob = pages["alice"], pages["bob"]
    # bob signs out, fails to sign in with a wrong password, then signs in
    bob.click("#sign-out")
    bob.wait_for_selector("#auth:not([hidden])")
    bob.fill("#auth-form [name=username]", "bob")
    bob.fill("#auth-form [name=password]", "not the password")
    bob.click("#auth-form [name=sign-in]")
    bob.wait_for_selector('#message[data-kind="error"]')
    assert bob.locator("#auth").is_visible()
    bob.fill("#auth-form [name=password]", PASSWORD)
    bob.click("#auth-form [name=sign-in]")
    bob.wait_for_selector("#lobbies:not([hidden])")
    assert bob.inner_text("#who-name") == "bob"
    api = {name: Api(serial_live_server, name, PASSWORD) for name in pages}

    # alice opens a 5x5 lobby; bob finds it in his list and joins; alice starts
    alice.fill("#open-form [name=width]", "5")
    alice.fill("#open-form [name=height]", "5")
    alice.click("#open-form button[type=submit]")
    alice.wait_for_selector("body[data-status=lobby]")
    match_id = int(alice.url.rsplit("#match-", 1)[1])
    bob.click(f'#game-list tr[data-match="{match_id}"] button.join', timeout=WAIT_MS)
    bob.wait_for_selector("body[data-status=lobby]")
    alice.wait_for_selector("#start:not([disabled])", timeout=WAIT_MS)
    alice.click("#start")
    ids = {p["player"]: p["name"] for p in match_as(api["alice"], match_id)["players"]}
    names = {player: name for player, name in ids.items()}

    moves = 0
    saw_critical = saw_explosion = False
    shots_taken: dict[str, bool] = {}
    while True:
        match = match_as(api["alice"], match_id)
        if match["status"] != "active":
            break
        assert moves < 60, "the game should have ended"
        mover = names[match["awaiting"]]
        page = pages[mover]
        mine = match_as(api[mover], match_id)
        # the page shows the same turn, says it is the mover's, and highlights exactly the allowed cells
        page.wait_for_selector(f'body[data-turn="{match["turn"]}"][data-my-turn="1"][data-busy="0"]',
                               timeout=WAIT_MS)
        playable = set(page.eval_on_selector_all("#board .cell.playable",
                                                 "cs => cs.map(c => c.dataset.cell)"))
        assert playable == {f"{a['cell'][0]},{a['cell'][1]}" for a in mine["allowed_actions"]}
        shown = page_board(page)
        assert {cell: v[:2] for cell, v in shown.items()} == api_board(match)
        for cell, (_, level, dots, critical) in shown.items():
            assert dots == min(level, 4) and critical == (level == 3), cell
        saw_critical |= any(v[3] for v in shown.values())
        if match["view"]["round"] > 1:
            assert page.eval_on_selector_all("#board .cell.mine", "cs => cs.length") == \
                sum(1 for p in match["view"]["board"] if p["seat"] == mine["seat"])
        x, y = choose(match)
        if moves >= 8 and not shots_taken.get("your-turn") and any(v[3] for v in shown.values()):
            shots_taken["your-turn"] = shot(page, "your-turn")
        page.click(f'#board .cell[data-cell="{x},{y}"]')
        moves += 1
        after = wait_until(
            lambda turn=match["turn"]: (m := match_as(api["alice"], match_id))["turn"] > turn and m,
            "the move to be applied")
        if any(e["kind"] == "exploded" for e in after["events"] if e["seq"] > match["last_event"]):
            saw_explosion = True
            other = pages["bob" if mover == "alice" else "alice"]
            if SHOTS and moves > 12 and after["status"] == "active" and not shots_taken.get("explosion"):
                with contextlib.suppress(PlaywrightTimeout):  # a picture, not a check: it may be over
                    other.wait_for_selector("#board .cell.boom", timeout=3000)
                    shots_taken["explosion"] = shot(other, "explosion")
        # both pages animate every wave of every chain, as the API reports them
        waves = sum(1 for e in after["events"] if e["kind"] == "exploded")
        for each in pages.values():
            each.wait_for_selector(f'body[data-waves="{waves}"]' if waves else "body:not([data-waves])",
                                   timeout=WAIT_MS)

    final = match_as(api["alice"], match_id)
    assert final["status"] == "finished"
    winner = names[final["result"]["winners"][0]]
    events = final["events"]
    assert [e["kind"] for e in events[-2:]] == ["won", "match_over"]
    players = {p["player"]: p["name"] for p in final["players"]}
    machine_lines = {
        "match_started": f"The game starts. Turn order: {', '.join(players[i] for i in final['order'])}.",
        "match_over": f"Game over: {winner} won.",
    }
    assert saw_critical and saw_explosion and moves > 10
    for name, page in pages.items():
        page.wait_for_selector("#winner:not([hidden])", timeout=WAIT_MS)
        assert page.inner_text("#winner") == f"{winner} wins!"
        page.wait_for_selector('body[data-busy="0"][data-status="finished"]', timeout=WAIT_MS)
        assert {c: v[:2] for c, v in page_board(page).items()} == api_board(final)
        log = page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)")
        texts = [e.get("text") or machine_lines[e["kind"]] for e in events]
        assert log == [line for text in texts for line in text.split("\n")]
        assert page.locator("#board .cell.playable").count() == 0
        assert page.evaluate("window.__blocked") == [], name  # the policy was in force and blocked nothing
    shot(alice, "won")
    for page in pages.values():
        page.context.close()


def test_a_bot_seat_is_listed_with_its_colour(serial_live_server, browser):  # noqa: F811 - the fixtures
    # given alice's 5x5 lobby on the page, where (through the API, as the page offers no bots) she seats a bot
    url = f"{serial_live_server}/play/cell-capture/"
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    register(page, url, "alice")
    api = Api(serial_live_server, "alice", PASSWORD)
    page.fill("#open-form [name=width]", "5")
    page.fill("#open-form [name=height]", "5")
    page.click("#open-form button[type=submit]")
    page.wait_for_selector("body[data-status=lobby]")
    match_id = int(page.url.rsplit("#match-", 1)[1])
    added = requests.post(f"{serial_live_server}/api/v1/matches/{match_id}/bots/", json={"level": "random"},
                          headers=api.headers, timeout=10)
    assert added.status_code == 200, added.text
    # when she starts the game, and both have placed a piece (she clicks on her turn; the bot plays at once)
    page.click("#start:not([disabled])", timeout=WAIT_MS)
    page.wait_for_selector("body[data-status=active]")

    def both_placed():
        match = match_as(api, match_id)
        if len(match["view"]["board"]) >= 2:
            return match
        if page.locator("body[data-my-turn='1'][data-busy='0'] #board .cell.playable").count():
            page.locator("#board .cell.playable").first.click()
            wait_until(lambda: match_as(api, match_id)["turn"] > match["turn"], "her move")
        return None

    match = wait_until(both_placed, "a piece of each seat")
    page.wait_for_selector(f'body[data-turn="{match["turn"]}"][data-busy="0"]', timeout=WAIT_MS)
    # then every seat, the bot's too, is listed with the colour the API gives it, the board's colour
    listed = page.eval_on_selector_all("#players li", """items => items.map(i => [
        i.dataset.seat, i.dataset.colour, i.querySelector('.swatch').style.getPropertyValue('--colour'),
        i.textContent])""")
    colours = match["view"]["colours"]
    assert sorted((int(seat), colour) for seat, colour, _css, _text in listed) == \
        sorted((int(seat), colour) for seat, colour in colours.items())
    bot = next(p for p in match["players"] if p["bot"])
    bot_row = next(row for row in listed if int(row[0]) == bot["seat"])
    assert bot_row[2] and bot["name"] in bot_row[3]
    discs = page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#board .cell[data-owner]')]
        .map(c => [c.dataset.owner, c.querySelector('.piece').style.getPropertyValue('--colour')]))""")
    for _seat, colour, css, _text in listed:
        if colour in discs:
            assert css == discs[colour]
    assert page.evaluate("window.__blocked") == []
