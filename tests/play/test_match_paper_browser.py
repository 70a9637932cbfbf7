"""The paper labyrinth (seed 002) in the match shell (/play/matches/, play/static/play/matches/paper.js), in
Chromium: one page plays a classic game against the ``explorer`` bot to its end, choosing its start on its
sheet and composing a turn of a shot and a move; one page (390 px, in Russian) plays a quantum game against
a bot to its end. Each page is checked against the API (the same live server); the match seed is fixed,
so the map, the turn order and the bot's draws are the same in every run.

Set MATCH_SHELL_SCREENSHOTS=docs/img to refresh docs/img/match-paper.png and match-paper-390.png.
"""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
import requests

from matches import services as match_services
from tests.play.browser import NEEDS_CHROMIUM, Api, browser, serial_live_server  # noqa: F401 - fixtures
from tests.play.test_match_shell_browser import (
    PASSWORD,
    SHOTS,
    WAIT_S,
    match_id_of,
    new_page,
    shown_result,
    wait_until,
)

pytestmark = NEEDS_CHROMIUM
PLAY_S = 150.0
MARKS = {"start", "here"}


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    # the live server runs in this process: every match it starts draws its seed from here
    monkeypatch.setattr(match_services, "_SEED_SOURCE", random.Random(2002))


def open_paper_lobby(page, api: Api, variant: str, nstop: int) -> int:
    card = page.locator("[data-mode=labyrinth_paper]")
    card.locator("select[name=variant]").select_option(f'"{variant}"')
    card.locator("input[name=rows]").fill("3")
    card.locator("input[name=cols]").fill("3")
    card.locator("input[name=nstop]").fill(str(nstop))
    card.locator("button.open-lobby").click()
    match_id = match_id_of(page)
    page.select_option("#bot-level", "explorer")
    page.click("#add-bot")
    wait_until(lambda: page.locator("#players li").count() == 2, "two seats")
    seated = api.get(f"matches/{match_id}/")["players"]
    assert [p["bot"] for p in seated if p["bot"]] == ["explorer"]  # the bot chosen, whatever a read redrew
    page.click("#start")
    page.wait_for_selector("body[data-status=active]")
    return match_id


def choose_start_by_keyboard(page) -> int:
    """Waits for the page's start choice, moves on the sheet with the arrow keys and starts there by Enter."""
    page.wait_for_selector("#p-start-here", timeout=WAIT_S * 1000)
    page.focus(".p-cell[data-index='0']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    cell = int(page.eval_on_selector(".p-cell.chosen", "e => e.dataset.index"))
    page.focus("#p-start-here")
    page.keyboard.press("Enter")
    wait_until(lambda: page.locator("#p-start-here").count() == 0, "the start sent")
    return cell


def my_turn(page) -> bool:
    return (page.get_attribute("body", "data-my-turn") == "1"
            and page.locator("#actions button.action:not([disabled])").count() > 0)


def play_to_the_end(page, pick) -> int:
    """On each of the page's turns clicks the quick move ``pick(i)`` chooses; returns the turns played."""
    played = 0
    deadline = time.monotonic() + PLAY_S
    while page.get_attribute("body", "data-status") == "active" and time.monotonic() < deadline:
        if my_turn(page):
            buttons = page.locator("#actions .p-quick button.action:not([disabled])")
            if buttons.count():
                turn = page.get_attribute("body", "data-turn")
                buttons.nth(pick(played, buttons.count())).click()
                played += 1
                wait_until(lambda turn=turn: page.get_attribute("body", "data-turn") != turn
                           or page.get_attribute("body", "data-status") != "active", "the turn answered")
        time.sleep(0.15)
    return played


def own_turns(events: list[dict], seat: int, number: int) -> list[list[str]]:
    """The texts of the game master's answers to each of the seat's requests (as the page lists them)."""
    turns: list[list[str]] = []
    mine = False
    for event in events:
        if event["kind"] == "request":
            mine = event["seat"] == seat
            if mine:
                turns.append([])
        elif event["kind"] == "gm" and mine and event["number"] == number and turns:
            turns[-1].append(event["text"])
    return turns


def sheet_marks(page, root: str) -> list[tuple[str, str, list[str]]]:
    """Each cell of a sheet: its outline index, its text and the marks its classes draw."""
    return [(cell[0], cell[1], sorted(c for c in cell[2] if c in MARKS or c[:5] in ("wall-", "exit-")))
            for cell in page.eval_on_selector_all(f"{root} .p-cell[data-index]", "cs => cs.map(c => "
                                                  "[c.dataset.index, c.textContent, [...c.classList]])")]


def check_page_against_api(page, api: Api, match_id: int, language: str) -> dict:
    match = api.get(f"matches/{match_id}/?since=0")
    view = match["view"]
    # the result the page shows is the API's
    result = shown_result(page)
    assert result == {key: match["result"][key] for key in ("winners", "winner_seats", "reason")}
    # the log holds the events' texts in the page's language, as the API gives them
    page_texts = page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)")
    assert "\n".join(e["text"] for e in match["events"]).split("\n") == page_texts
    # the answers to the player's own turns are the API's, turn by turn (the page lists the last eight)
    turns = own_turns(match["events"], match["seat"], view["number"])
    shown = page.eval_on_selector_all(".p-turns li span", "items => items.map(i => i.textContent)")
    assert shown == [" → " + (" · ".join(texts) or "—") for texts in turns[-8:]]
    # the status is the view's: bullets and grenades
    facts = dict(zip(page.eval_on_selector_all(".paper-view > dl.kv dt", "d => d.map(e => e.textContent)"),
                     page.eval_on_selector_all(".paper-view > dl.kv dd", "d => d.map(e => e.textContent)")))
    bullets, grenades = ("пули", "гранаты") if language == "ru" else ("bullets", "grenades")
    assert facts[bullets] == str(view["status"]["bullets"])
    assert facts[grenades] == str(view["status"]["grenades"])
    # the sheet draws no cell type its owner was not told: at most one per answer naming a cell
    told = sum(1 for e in match["events"] if e["kind"] == "gm" and e["number"] == view["number"]
               and e["code"] in ("start", "moved", "shallow", "drifted"))
    marked = page.eval_on_selector_all(".p-cell[data-index]", "cs => cs.filter(c => /\\S/.test("
                                       "c.textContent.replace(/[$*\\u00a0]/g, ''))).length")
    assert 1 <= marked <= told
    return match


def test_one_page_plays_a_classic_paper_game_against_a_bot_composing_a_turn(
        serial_live_server, browser, fixed_seed):  # noqa: F811
    # given a player on the shell who opens a 3x3 classic paper labyrinth (a draw after 4 calm rounds) and
    # seats the explorer bot
    page = new_page(browser, f"{serial_live_server}/play/matches/", "theseus")
    api = Api(serial_live_server, "theseus", PASSWORD)
    match_id = open_paper_lobby(page, api, "classic", nstop=4)
    # when the player chooses a start on the sheet with the keyboard
    start = choose_start_by_keyboard(page)
    wait_until(lambda: my_turn(page), "the player's first turn", timeout=WAIT_S)
    # and first composes a turn of two movements: the server refuses it, and the page says the API's refusal
    for direction in ("UP", "DOWN"):
        page.select_option("#pc-kind", "move")
        page.select_option("#pc-dir", direction)
        page.click("#pc-add")
    page.click("#pc-send")
    page.wait_for_selector("#message[data-kind=error]")
    turn = api.get(f"matches/{match_id}/")["turn"]
    two_moves = {"type": "turn", "steps": [{"do": "move", "direction": "UP"},
                                           {"do": "move", "direction": "DOWN"}]}
    refused = requests.post(f"{serial_live_server}/api/v1/matches/{match_id}/actions/", headers=api.headers,
                            json={"turn": turn, "action": two_moves}, timeout=10)
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert page.inner_text("#message") == f"{error['message']} ({error['code']})"
    assert page.locator("#pc-draft li").count() == 2  # the refused turn stays composed, to be mended
    page.click("#pc-clear")
    # and then composes a shot up and a move, and sends them as one turn (Enter)
    page.select_option("#pc-kind", "shoot")
    page.select_option("#pc-aim", "UP")
    page.focus("#pc-add")
    page.keyboard.press("Enter")
    page.select_option("#pc-kind", "move")
    page.select_option("#pc-dir", "LEFT")
    page.click("#pc-add")
    assert page.locator("#pc-draft li").count() == 2
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / "match-paper.png"), full_page=True)
    page.focus("#pc-send")
    page.keyboard.press("Enter")
    wait_until(lambda: page.locator(".p-turns li").count() >= 1, "the answers to the composed turn")
    # then the API heard exactly that turn, and the page shows the game master's answers to it
    match = api.get(f"matches/{match_id}/?since=0")
    requests_made = [e["request"] for e in match["events"]
                     if e["kind"] == "request" and e["seat"] == match["seat"]]
    assert requests_made[0] == {"type": "turn", "steps": [{"do": "shoot", "direction": "UP"},
                                                          {"do": "move", "direction": "LEFT"}]}
    first = own_turns(match["events"], match["seat"], match["view"]["number"])[0]
    assert first, "the game master answers every turn"
    assert page.inner_text(".p-turns li:first-child span") == " → " + " · ".join(first)
    # and the sheet's start is the cell chosen
    assert int(page.eval_on_selector(".p-cell.start", "e => e.dataset.index")) == start
    # when another player watches the match
    watcher = new_page(browser, f"{serial_live_server}/play/matches/", "watcher")
    watcher.click(f"#watch-list li[data-match='{match_id}'] button")
    assert match_id_of(watcher) == match_id
    watcher.wait_for_selector("body[data-spectator='1'] .paper-view dl")
    # then the watcher is shown the table's public facts only: no sheet, no status, no answers, no move
    public = Api(serial_live_server, "watcher", PASSWORD).get(f"matches/{match_id}/")
    assert public["seat"] is None and public["allowed_actions"] == [] and "outline" not in public["view"]
    shown = watcher.eval_on_selector_all(".paper-view dt", "d => d.map(e => e.textContent)")
    assert shown == ["variant", "phase", "starts chosen", "turns played"]
    assert watcher.locator(".p-sheet, .p-turns, .p-treasure, #actions button, #resign").count() == 0
    watcher.context.close()
    # when the player marks the first cell of their sheet by hand, with the keyboard: a hospital, a wall
    # above, a note
    page.focus(".p-cell[data-index='0']")
    page.keyboard.press("Enter")
    page.focus("#p-mark-type")
    page.select_option("#p-mark-type", "hospital")
    page.select_option("#p-mark-n", "wall")
    page.focus("#p-mark-note")
    page.keyboard.type("a cross")
    page.keyboard.press("Tab")
    # then the sheet shows the marks, and they are still there after a reload of the tab
    page.reload()
    first = page.wait_for_selector(".p-cell[data-index='0'].by-hand")
    assert first.inner_text().startswith("H") and first.inner_text().endswith("*")
    assert "wall-n" in first.get_attribute("class")
    page.click(".p-cell[data-index='0']")
    assert page.input_value("#p-mark-note") == "a cross"
    # and the player can take them off again
    page.select_option("#p-mark-type", index=0)
    page.select_option("#p-mark-n", index=0)
    page.focus("#p-mark-note")
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    page.keyboard.press("Tab")
    wait_until(lambda: page.locator(".p-cell.by-hand, .p-cell[data-index='0'].wall-n").count() == 0
               and "*" not in page.inner_text(".p-cell[data-index='0']"), "the marks taken off")
    # when the player plays on with one-step moves until the game ends
    order = ["RIGHT", "DOWN", "LEFT", "UP"]

    def pick(i: int, count: int) -> int:
        labels = page.eval_on_selector_all("#actions .p-quick button.action",
                                           "bs => bs.map(b => b.dataset.action)")
        wanted = f'"direction":"{order[i % 4]}"'
        return next((k for k, label in enumerate(labels) if wanted in label), 0)

    play_to_the_end(page, pick)
    # then the game ended, and the page agrees with the API
    wait_until(lambda: page.get_attribute("body", "data-status") == "finished", "the end", timeout=WAIT_S)
    check_page_against_api(page, api, match_id, "en")
    # and the replay's last step, as the player's seat, draws the sheet the live page drew from the answers
    live_sheet = sheet_marks(page, "#view")
    page.click("#open-replay")
    page.wait_for_selector("#replay:not([hidden]) #replay-view .p-sheet")
    seat = api.get(f"matches/{match_id}/")["seat"]
    steps = len(api.get(f"matches/{match_id}/replay/?as_seat={seat}")["steps"])
    for _ in range(steps - 1):
        page.focus("#replay-next")
        page.keyboard.press("Enter")
    page.wait_for_selector(f"#replay[data-step='{steps - 1}']")
    assert sheet_marks(page, "#replay-view") == live_sheet


def test_one_page_plays_a_quantum_paper_game_at_390_px_in_russian(serial_live_server, browser, fixed_seed):  # noqa: F811
    # given a player (390 px wide, a Russian browser) who opens a 3x3 quantum paper labyrinth against the
    # explorer bot
    page = new_page(browser, f"{serial_live_server}/play/matches/", "ariadna", width=390, locale="ru-RU")
    api = Api(serial_live_server, "ariadna", PASSWORD, language="ru")
    match_id = open_paper_lobby(page, api, "quantum", nstop=3)
    choose_start_by_keyboard(page)
    # when the player composes a dark quantum turn: one step, whose answer is not told
    wait_until(lambda: my_turn(page), "the player's first turn", timeout=WAIT_S)
    labels = page.eval_on_selector_all("#actions .p-quick button.action", "bs => bs.map(b => b.textContent)")
    assert "Ход вверх" in labels
    assert "if" not in page.eval_on_selector_all("#pc-kind option", "os => os.map(o => o.value)")
    page.select_option("#pc-kind", "move")
    page.select_option("#pc-dir", "DOWN")
    page.click("#pc-add")
    assert page.is_disabled("#pc-add")  # a quantum turn is one step
    page.select_option("#pc-visibility", "dark")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the sheet and the composer fit
    page.focus("#pc-send")
    page.keyboard.press("Enter")
    wait_until(lambda: page.locator(".p-turns li").count() >= 1, "the answer to the dark turn")
    # then the API heard that turn, answered it "dark", and the sheet no longer says where the player is
    match = api.get(f"matches/{match_id}/?since=0")
    heard = [e for e in match["events"] if e["kind"] == "request" and e["seat"] == match["seat"]]
    assert heard[0]["request"] == {"type": "turn", "steps": [{"do": "move", "direction": "DOWN"}],
                                   "visibility": "dark"}
    assert [e["code"] for e in match["events"] if e["kind"] == "gm" and e["seq"] > heard[0]["seq"]
            and e["number"] == match["view"]["number"]][:1] == ["dark"]
    assert page.locator(".p-cell.here").count() == 0
    # and then plays each quantum turn from the page's buttons, moves first, until the game ends
    played = play_to_the_end(page, lambda i, count: i % min(4, count))
    assert played > 0
    # then the game ended, and the page agrees with the API, in Russian
    wait_until(lambda: page.get_attribute("body", "data-status") == "finished", "the end", timeout=WAIT_S)
    check_page_against_api(page, api, match_id, "ru")
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "match-paper-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
