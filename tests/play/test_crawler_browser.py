"""Three players in Chromium found and fill a guild on /play/, live through me/stream/, and the pages agree
with the API; one of them equips and drops an item on the player's page (SPEC 16, issue 29).

The pages talk to a real ASGI server (uvicorn over ``backend.asgi``, as ``dev.py serve`` runs it) on the
test's PostgreSQL database, so the user streams are held open as in production: the rejected applicant's
page shows the leader's reason when the notice arrives, with no polling and no reload. Debian's chromium
through Playwright's Python package (never ``playwright install``). Set CRAWLER_SCREENSHOTS=docs/img to
refresh docs/img/crawler-guild.png and crawler-player.png.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from players.models import ItemKind, Player
from players.services import inventory_add
from tests.backend.live.servers import database_url_of_test, server_env, uvicorn
from tests.play.browser import NEEDS_CHROMIUM, Api, browser  # noqa: F401 - the fixture

pytestmark = [NEEDS_CHROMIUM, pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("CRAWLER_SCREENSHOTS")
PASSWORD = "a long enough passphrase 42"
WAIT_MS = 30_000
REASON = "Come back with a torch"


def register(page: Any, base: str, username: str) -> int:
    page.goto(f"{base}/play/")
    page.fill("#auth-form [name=username]", username)
    page.fill("#auth-form [name=password]", PASSWORD)
    page.click("#auth-form [name=register]")
    page.wait_for_selector('body[data-screen="home"]')
    page.wait_for_selector('#live[data-live="1"]', timeout=WAIT_MS)  # the user's stream is open
    assert page.inner_text("#who-name") == username
    return int(page.inner_text("#who-id"))


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"crawler-{name}.png"), full_page=True)


def test_three_players_found_and_fill_a_guild_live_and_one_equips_and_drops_an_item(browser, tmp_path):  # noqa: F811
    with uvicorn(server_env(database_url_of_test()), tmp_path / "server.log") as base:
        # given three players, each registered in a page of their own; the leader's is 390 px wide
        pages, ids = {}, {}
        for name, width in (("lena", 390), ("mira", 1000), ("olek", 1000)):
            pages[name] = browser.new_context(viewport={"width": width, "height": 900}).new_page()
            ids[name] = register(pages[name], base, name)
        lena, mira, olek = pages["lena"], pages["mira"], pages["olek"]
        api = {name: Api(base, name, PASSWORD) for name in pages}

        # when lena founds a guild from the guild tab
        lena.click('.tab[data-tab="guild"]')
        lena.fill("#found-form [name=name]", "Torchbearers")
        lena.fill("#found-form [name=description]", "We light the way.")
        lena.click("#found-form button[type=submit]")
        lena.wait_for_selector("#my-guild:not([hidden])")
        # then the page shows the guild the API has, forming, with her as its leader
        guild_id = api["lena"].get("me/")["guild"]["id"]
        guild = api["lena"].get(f"guilds/{guild_id}/")
        assert guild["leader"] == ids["lena"] and guild["is_forming"]
        assert lena.inner_text("#guild-name") == guild["name"] == "Torchbearers"
        assert lena.locator("#leader").is_visible()

        # when mira and olek search for it (olek by keyboard alone) and apply
        for name in ("mira", "olek"):
            page = pages[name]
            page.click('.tab[data-tab="guilds"]')
            page.fill("#search-form [name=search]", "torch")
            page.select_option("#search-form [name=ordering]", "-members_count")
            if name == "olek":
                page.focus("#search-form [name=search]")
                page.keyboard.press("Enter")
            else:
                page.click("#search-form button[type=submit]")
            row = f'#guild-list tr[data-guild="{guild_id}"]'
            page.wait_for_selector(row)
            assert page.locator("#guild-list tr").count() == 1  # the search found exactly it
            if name == "olek":
                page.focus(f"{row} button[data-action=apply]")
                page.keyboard.press("Enter")
            else:
                page.click(f"{row} button[data-action=apply]")
            page.wait_for_selector('#my-applications li[data-status="pending"]')
        # then the list showed what the API lists for that search and ordering
        listed = api["olek"].get("guilds/?search=torch&ordering=-members_count")["results"]
        assert [g["id"] for g in listed] == [guild_id]

        # when the leader reads her applications, approves mira's and rejects olek's with a reason
        lena.click("#refresh")
        for name in ("mira", "olek"):
            lena.wait_for_selector(f'#applications li[data-player="{ids[name]}"]')
        lena.click(f'#applications li[data-player="{ids["mira"]}"] button[data-action=approve]')
        lena.wait_for_selector(f'#members li[data-member="{ids["mira"]}"]')
        # the applications are read again after the approval: type the reason into that list
        lena.wait_for_selector(f'#applications li[data-player="{ids["mira"]}"]', state="detached")
        olek_row = f'#applications li[data-player="{ids["olek"]}"]'
        lena.fill(f"{olek_row} input[name=reason]", REASON)
        lena.click(f"{olek_row} button[data-action=reject]")
        lena.wait_for_selector(olek_row, state="detached")

        # then mira's page learns live that she is in, and olek's page shows the reason live
        mira.wait_for_selector('#notices li[data-kind="application_decided"]', timeout=WAIT_MS)
        mira.wait_for_selector('body[data-in-guild="1"]', timeout=WAIT_MS)
        olek.wait_for_selector('#my-applications li[data-status="rejected"] .reason', timeout=WAIT_MS)
        assert REASON in olek.inner_text('#my-applications li[data-status="rejected"]')
        decided = api["olek"].get("me/applications/")
        assert [(a["status"], a["reject_reason"]) for a in decided] == [("rejected", REASON)]
        assert api["mira"].get("me/")["guild"]["id"] == guild_id

        # when the leader invites olek by his player id
        lena.fill("#invite-form [name=player]", str(ids["olek"]))
        lena.click("#invite-form button[type=submit]")
        # then the invitation reaches olek's page live, and he accepts it
        invitation = '#invitations li[data-invitation]'
        olek.wait_for_selector(invitation, state="attached", timeout=WAIT_MS)
        olek.wait_for_selector('#notices li[data-kind="invitation"]')
        olek.click('.tab[data-tab="guild"]')
        olek.click(f"{invitation} button[data-action=accept]")
        olek.wait_for_selector("#my-guild:not([hidden])")

        # then every page shows the guild the API has: three members, no longer forming
        guild = api["lena"].get(f"guilds/{guild_id}/")
        assert guild["members_count"] == 3 and not guild["is_forming"]
        lena.click("#refresh")
        lena.wait_for_selector(f'#members li[data-member="{ids["olek"]}"]')
        for page in (lena, olek):
            shown = sorted(int(m) for m in page.eval_on_selector_all("#members li",
                                                                     "e => e.map(x => x.dataset.member)"))
            assert shown == sorted(m["player"] for m in guild["members"])
            assert page.inner_text("#guild-count") == "3"
            assert page.inner_text("#guild-rank") == str(guild["rank"])

        # when the leader tries to leave, the API's refusal is shown as the API words it, and nothing changed
        lena.click("#leave")
        lena.wait_for_selector('#message[data-kind="error"]')
        refused = api["lena"].refusal(f"guilds/{guild_id}/leave/")
        assert refused["code"] in ("leader_must_hand_over", "leave_too_soon")
        assert lena.get_attribute("#message", "data-code") == refused["code"]
        assert lena.inner_text("#message") == refused["message"]
        assert api["lena"].get(f"guilds/{guild_id}/")["leader"] == ids["lena"]
        shot(lena, "guild")

        # when olek switches to Russian and tries to leave too soon, the page and the API speak Russian
        olek.click("#lang")
        assert olek.inner_text('.tab[data-tab="guild"]') == "Гильдия"
        missing = olek.evaluate("() => import('/static/play/crawler/i18n.js').then(m => m.missingWords())")
        assert missing == []  # every word of the page has both languages
        olek.click("#leave")
        olek.wait_for_selector('#message[data-code="leave_too_soon"]')
        refused = Api(base, "olek", PASSWORD, language="ru").refusal(f"guilds/{guild_id}/leave/")
        assert refused["code"] == "leave_too_soon"
        assert olek.inner_text("#message") == refused["message"]

        # given a sword in mira's pack (the catalog is admin data: this test's own row)
        sword = ItemKind.objects.create(name="Test Sword", category="weapon", sub_kind="sword", weight=3,
                                        price=10, damage=4)
        item = inventory_add(player=Player.objects.get(pk=ids["mira"]), item_kind=sword)
        # when mira opens her player page, equips the sword, then drops it
        mira.click('.tab[data-tab="player"]')
        mira.click("#refresh")
        row = f'#inventory li[data-item="{item.pk}"]'
        mira.wait_for_selector(f'{row}[data-equipped="0"]')
        me = api["mira"].get("me/")
        carry = me["carry"]
        assert mira.inner_text('[data-carry="weight"]') == f"{carry['weight']} / {carry['capacity']}"
        assert mira.inner_text('[data-carry="weapons"]') == f"{carry['weapons']} / {carry['weapon_limit']}"
        assert mira.inner_text("#money") == str(me["money"])
        assert mira.inner_text('[data-stat="strength"]') == str(me["stats"]["strength"])
        mira.click(f"{row} button[data-action=equip]")
        mira.wait_for_selector(f'{row}[data-equipped="1"]')
        assert [i["equipped"] for i in api["mira"].get("me/")["inventory"]] == [True]
        shot(mira, "player")
        mira.click(f"{row} button[data-action=drop]")
        mira.wait_for_selector(row, state="detached")
        # then the API has nothing in her pack either
        assert api["mira"].get("me/")["inventory"] == []
        assert mira.locator("#no-items").is_visible()
