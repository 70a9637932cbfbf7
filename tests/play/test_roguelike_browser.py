"""The roguelike (seed 000) in the match shell (/play/matches/), in Chromium: one page plays a small labyrinth
to its victory with the keyboard alone, while another player's page (390 px, Russian) watches it; another
page (390 px, Russian) is carried through two floors, portals and deaths.

A page is given only the view and its own events (never a position); the test knows the world (the match's
stored state) and checks the page's notebook against it at every step: the cell marked as the player's is
the real cell, the cells drawn around it have the world's walls and buildings, and on the one-floor world
the known cells are exactly the cells stood on. The moves are mostly the roguelike's own ``explorer`` bot's,
picked from the API's view, typed as keys. Set MATCH_SHELL_SCREENSHOTS=docs/img to refresh
docs/img/match-roguelike.png (the first test) and match-roguelike-390.png (the second).
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from django.db import connection

from matches import services as match_services
from matches.models import Match, MatchModeSettings
from roguelike.engine.bots import explorer
from tests.play.browser import NEEDS_CHROMIUM, Api, browser, serial_live_server  # noqa: F401 - fixtures
from tests.play.test_match_shell_browser import (
    PASSWORD,
    SHOTS,
    match_id_of,
    new_page,
    shown_result,
    wait_until,
)

pytestmark = NEEDS_CHROMIUM

DELTA = {"UP": (-1, 0), "LEFT": (0, -1), "DOWN": (1, 0), "RIGHT": (0, 1)}
ARROWS = {"UP": "ArrowUp", "LEFT": "ArrowLeft", "DOWN": "ArrowDown", "RIGHT": "ArrowRight"}
WASD = {"UP": "w", "LEFT": "a", "DOWN": "s", "RIGHT": "d"}
#: a small world that ends soon: one floor of 3 x 4, no monster, mine nor portal; an arsenal and a hospital
SETTINGS = {"width": "4", "height": "3", "floors": "1", "dragon_count": "0", "archer_count": "0",
            "portal_count": "0", "mine_count": "0", "hospital_count": "1", "arsenal_count": "1"}


def world_walls(world: dict[str, Any], floor: int, cell: tuple[int, int]) -> dict[str, str]:
    """What the player feels of a cell of a world (``game_to_json``'s; an outer wall is a wall)."""
    walls, (r, c) = world["floors"][floor], cell
    rows, cols = world["rows"], world["cols"]
    sides = {
        "UP": r == 0 or walls["down"][r - 1][c] == "1",
        "DOWN": r == rows - 1 or walls["down"][r][c] == "1",
        "LEFT": c == 0 or walls["right"][r][c - 1] == "1",
        "RIGHT": c == cols - 1 or walls["right"][r][c] == "1",
    }
    felt = {d: "wall" if wall else "space" for d, wall in sides.items()}
    exit_cell, exit_side = world["exit"]
    if tuple(exit_cell) == (floor, r, c):
        felt[exit_side] = "exit"
    return felt


def check_sheet(page, match_id: int) -> tuple[int, int, int]:
    """Checks the page's current sheet against the world as the server holds it now (never given to the
    page): shifted so that the player's mark is on their real cell, every cell drawn lies in the labyrinth on
    the player's floor, with the building it has and the sides it has where the page knows them; the sheet's
    floor, when the page knows it, is the real one. Returns the real cell (floor, row, col)."""
    state = stored_state(match_id)
    world, (floor, r, c) = state["world"], state["player"]["cell"]
    buildings = {tuple(cell): building for cell, building in world["buildings"]}
    drawn = drawn_cells(page)
    here = [pos for pos, cell in drawn.items() if cell["here"]]
    assert len(here) == 1
    dr, dc = r - here[0][0], c - here[0][1]
    for (pr, pc), cell in drawn.items():
        real = (pr + dr, pc + dc)
        assert 0 <= real[0] < world["rows"] and 0 <= real[1] < world["cols"]
        felt = world_walls(world, floor, real)
        known = {d: side for d, side in cell["sides"].items() if side != "unknown"}
        assert known == {d: felt[d] for d in known}, (real, known, felt)
        assert cell["building"] == buildings.get((floor, *real))
    assert page.get_attribute("#rl-board", "data-floor") in ("", str(floor))
    return floor, r, c


def stored_state(match_id: int) -> dict[str, Any]:
    """The match's state as the server stores it, the connection closed after the read: without it a
    connection of the test's reads outlived the test on PostgreSQL (the test database "is being accessed by
    other users" at teardown; why teardown does not close it was not found)."""
    try:
        return dict(Match.objects.get(pk=match_id).state)
    finally:
        connection.close()


def drawn_cells(page) -> dict[tuple[int, int], dict[str, Any]]:
    """The current sheet's known cells as the page draws them: sheet position -> sides, building, marks."""
    cells = page.eval_on_selector_all("#rl-board .rl-cell.known", """items => items.map(i => ({
        r: Number(i.dataset.r), c: Number(i.dataset.c), here: i.classList.contains('here'),
        building: i.dataset.building || null, classes: [...i.classList]}))""")
    drawn = {}
    for cell in cells:
        sides = {}
        for d in DELTA:
            found = [c.split("-", 1)[1] for c in cell["classes"] if c.startswith(f"{d.lower()}-")]
            sides[d] = found[0]
        drawn[(cell["r"], cell["c"])] = {"sides": sides, "here": cell["here"], "building": cell["building"]}
    return drawn


def real_cell(match_id: int) -> tuple[int, int]:
    """Where the player really stands (the server's state, never given to the page): (row, col) on floor 0."""
    state = stored_state(match_id)
    floor, r, c = state["player"]["cell"]
    assert floor == 0
    return r, c


def test_a_page_plays_the_roguelike_to_victory_by_keys_and_a_watcher_sees_the_score_only(
        serial_live_server, browser, monkeypatch):  # noqa: F811
    # given a fixed match seed (the same world every run), spectators allowed for the roguelike by the admin,
    # and a player who opens a small labyrinth on the shell and starts it
    monkeypatch.setattr(match_services, "_SEED_SOURCE", random.Random(30))
    MatchModeSettings.objects.update_or_create(mode="labyrinth_roguelike", defaults={"spectators": True})
    connection.close()
    url = f"{serial_live_server}/play/matches/"
    page = new_page(browser, url, "theseus")
    card = page.locator("[data-mode=labyrinth_roguelike]")
    for name, value in SETTINGS.items():
        card.locator(f"input[name={name}]").fill(value)
    card.locator("button.open-lobby").click()
    match_id = match_id_of(page)
    page.click("#start")
    page.wait_for_selector("body[data-status=active] #rl-board")
    api = Api(serial_live_server, "theseus", PASSWORD)
    start = real_cell(match_id)
    # and another player who watches it at 390 px, in Russian
    watcher = new_page(browser, url, "ariadne", width=390, locale="ru-RU")
    watcher.click(f"#watch-list li[data-match='{match_id}'] button")
    assert match_id_of(watcher) == match_id
    watcher.wait_for_selector("body[data-spectator='1'] #view .rl-facts")

    # when the player plays by keys alone: a shot (F, then an arrow), in the arsenal Cement taken (Tab to its
    # button, Enter), a wall built with it (C, then the way) and bombed open again (B); every other move is
    # the one the explorer bot picks from the API's view (arrows and WASD)
    memory, rng, since, steps, stood_on = None, random.Random(7), 0, 0, {start}
    done: list[str] = []
    built = ""
    keys = [ARROWS, WASD]
    unheard: list[dict[str, Any]] = []  # the events since the explorer last chose
    match = api.get(f"matches/{match_id}/?since=0")
    while match["status"] == "active":
        assert steps < 200, "the explorer did not win a 3 x 4 labyrinth in 200 steps"
        # then before every move, the board is the world as the player learnt it: their cell is the real one
        # counted from the start, the known cells are those stood on, each drawn with the sides the world has
        turn = match["turn"]
        wait_until(lambda turn=turn: page.get_attribute("body", "data-turn") == str(turn), "the page at it")
        view = match["view"]
        drawn = drawn_cells(page)
        r, c = real_cell(match_id)
        here = [pos for pos, cell in drawn.items() if cell["here"]]
        assert here == [(r - start[0], c - start[1])]
        assert {(pr + start[0], pc + start[1]) for pr, pc in drawn} == stood_on
        assert drawn[here[0]]["sides"] == view["here"]["sides"]
        assert drawn[here[0]]["building"] == view["here"]["building"]
        check_sheet(page, match_id)
        assert page.get_attribute("#rl-board", "data-known") == str(len(stood_on))
        # and the player's numbers are the view's
        numbers = page.eval_on_selector_all("#view .rl-facts dd", "items => items.map(i => i.textContent)")
        health = f"{view['health']} / {view['max_health']}"
        assert numbers[:3] == [health, str(view["arrows"]), str(view["bombs"])]
        unheard += match["events"]
        allowed = match["allowed_actions"]
        take = {"type": "take", "item": "cement"}
        if steps == 1:
            way = next(a["direction"] for a in allowed if a["type"] == "shoot")
            page.keyboard.press("f")
            page.wait_for_selector("#rl-verb-shoot[aria-pressed=true]")
            page.keyboard.press(ARROWS[way])
            done.append("shoot")
        elif take in allowed and "take" not in done:
            page.focus(f"#actions button[data-action='{api_json(take)}']")
            page.keyboard.press("Enter")
            done.append("take")
        elif "cement" in view["items"] and not built:
            built = next(a["direction"] for a in allowed if a["type"] == "build")
            page.keyboard.press("c")
            page.wait_for_selector("#rl-verb-build[aria-pressed=true]")
            page.keyboard.press(WASD[built])
            done.append("build")
        elif built and "bomb" not in done:
            assert view["here"]["sides"][built] == "wall"
            page.keyboard.press("b")
            page.wait_for_selector("#rl-verb-bomb[aria-pressed=true]")
            page.keyboard.press(ARROWS[built])
            done.append("bomb")
        else:
            action, memory = explorer(view, allowed, memory, rng, unheard)
            unheard = []
            if action["type"] == "go":
                if steps % 5 == 0:
                    page.focus("#rl-dir-UP")  # the keys work wherever the focus is (not in a form field)
                page.keyboard.press(keys[steps % 2][action["direction"]])
            else:
                page.focus(f"#actions button[data-action='{api_json(action)}']")
                page.keyboard.press("Enter")
        steps += 1
        since = match["last_event"]
        wait_until(lambda turn=turn: api.get(f"matches/{match_id}/")["turn"] > turn, "the step played")
        match = api.get(f"matches/{match_id}/?since={since}")
        stood_on.add(real_cell(match_id))

    assert done == ["shoot", "take", "build", "bomb"]
    # then the game was won, and the page shows the API's result
    assert match["status"] == "finished" and match["view"]["won"]
    result = shown_result(page)
    assert result == {key: match["result"][key] for key in ("winners", "winner_seats", "reason")}
    assert result["reason"] == "treasure_carried_out"
    # and every wall the notebook drew is the world's, now revealed: every cell stood on, drawn as it is
    page.wait_for_selector(".rl-revealed .rl-board")
    world = match["view"]["revealed"]["world"]
    for (pr, pc), cell in drawn_cells(page).items():
        assert cell["sides"] == world_walls(world, 0, (pr + start[0], pc + start[1]))
    # and the revealed map draws the world's cells, the player's last cell marked
    assert page.locator(".rl-revealed .rl-cell").count() == world["rows"] * world["cols"]
    assert page.locator(".rl-revealed .rl-cell.here").count() == 1
    # and the log holds the events' texts the API gives
    texts = [e["text"] for e in api.get(f"matches/{match_id}/?since=0")["events"]]
    wait_until(lambda: page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)")
               == "\n".join(texts).split("\n"), "the log")
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "match-roguelike.png"), full_page=True)
    # and the replay's first step draws the notebook of that step: the start and the cell stepped to
    page.click("#open-replay")
    page.click("#replay-next")
    page.wait_for_selector("#replay[data-step='1'] #replay-view #rl-board")
    assert page.get_attribute("#replay-view #rl-board", "data-known") == "2"

    # and the watcher saw the score only: no board, no move, the public view's numbers
    watched = Api(serial_live_server, "ariadne", PASSWORD, language="ru").get(f"matches/{match_id}/")
    assert set(watched["view"]) == {"public", "turn", "deaths", "death_limit", "won", "lost"}
    wait_until(lambda: watcher.get_attribute("body", "data-status") == "finished", "the watcher sees the end")
    assert watcher.locator("#view .rl-cell").count() == 0
    assert watcher.locator("#actions button").count() == 0
    facts = watcher.eval_on_selector_all("#view .rl-facts dd", "items => items.map(i => i.textContent)")
    assert facts == [str(watched["view"]["turn"]), str(watched["view"]["deaths"])]
    assert watcher.evaluate("document.documentElement.scrollWidth") <= 390
    for each in (page, watcher):  # their streams end before the live server does
        each.context.close()


def api_json(action: dict[str, Any]) -> str:
    """An action as the page writes it in a button's data-action (JSON.stringify: no spaces)."""
    import json

    return json.dumps(action, separators=(",", ":"))


def test_a_page_keeps_its_notebook_true_through_floors_portals_and_deaths(serial_live_server, browser,  # noqa: F811
                                                                          monkeypatch):
    # given a player (at 390 px, in Russian) in a labyrinth of two floors of 4 x 4 with a lift, two portals,
    # a dragon and mines, on a fixed match seed
    monkeypatch.setattr(match_services, "_SEED_SOURCE", random.Random(28))
    url = f"{serial_live_server}/play/matches/"
    page = new_page(browser, url, "icarus", width=390, locale="ru-RU")
    card = page.locator("[data-mode=labyrinth_roguelike]")
    for name, value in {"width": "4", "height": "4", "floors": "2", "dragon_count": "1", "portal_count": "2",
                        "mine_count": "1", "hospital_count": "1", "arsenal_count": "1"}.items():
        card.locator(f"input[name={name}]").fill(value)
    card.locator("button.open-lobby").click()
    match_id = match_id_of(page)
    page.click("#start")
    page.wait_for_selector("body[data-status=active] #rl-board")
    api = Api(serial_live_server, "icarus", PASSWORD, language="ru")
    # when the explorer's moves are typed for up to 60 steps, and the page rides the lift the first time in it
    memory, rng, since, kinds = None, random.Random(3), 0, set()
    unheard: list[dict[str, Any]] = []
    match = api.get(f"matches/{match_id}/?since=0")
    floors = set()
    for step in range(60):
        if match["status"] != "active":
            break
        turn = match["turn"]
        wait_until(lambda turn=turn: page.get_attribute("body", "data-turn") == str(turn), "the page at it")
        # then after every step, the current sheet is true to the world, wherever the player was carried
        floors.add(check_sheet(page, match_id)[0])
        unheard += match["events"]
        kinds |= {e["kind"] for e in match["events"]}
        rides = [a for a in match["allowed_actions"] if a["type"] == "lift"]
        if rides and "lift_moved" not in kinds:  # the first time in the lift, the page rides it
            action = rides[0]
        else:
            action, memory = explorer(match["view"], match["allowed_actions"], memory, rng, unheard)
            unheard = []
        if action["type"] == "go":
            page.keyboard.press(ARROWS[action["direction"]] if step % 2 else WASD[action["direction"]])
        else:
            page.focus(f"#actions button[data-action='{api_json(action)}']")
            page.keyboard.press("Enter")
        since = match["last_event"]
        wait_until(lambda turn=turn: api.get(f"matches/{match_id}/")["turn"] > turn, "the step played")
        match = api.get(f"matches/{match_id}/?since={since}")
    # and the game took the player the ways a notebook must follow: a portal, a death, the lift, both floors
    kinds |= {e["kind"] for e in match["events"]}
    assert {"teleported", "respawned", "lift_moved", "victory"} <= kinds
    assert floors == {0, 1}
    assert page.locator("#view details summary", has_text="Другие листы").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "match-roguelike-390.png"), full_page=True)
