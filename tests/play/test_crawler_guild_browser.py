"""The leader's page, invitations, leaving and the disband vote on /play/, in Chromium, checked against the
API (SPEC 16, issue 29, the guild lines that tests/play/test_crawler_browser.py does not play).

Four players in pages of their own fill a guild by invitation (one invitation declined by keyboard alone,
arriving live on the invitee's `invitation` notice); the guild's activity and rank (made in the database
by the services that the runs and NPC rescues call) are shown as the API gives them, in the guild's page
and its row of the list; the leader (at 390 px) closes the guild and reopens it by keyboard alone, hands
the leadership over; a member who has been in the guild long enough leaves (his page in Russian), the new
leader kicks another and rejects his new application with a reason typed before a refresh (shown live on
his page), and the two left vote to disband, one withdrawing once, until the guild is gone.
No notice exists for a kick, a hand-over, a close, a leave, a vote or a declined invitation
(docs/live.md), so the other pages see those after **refresh**. The pages talk to a real uvicorn server
on the test's PostgreSQL database, as in test_crawler_browser.py.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import requests
from django.utils import timezone
from playwright.sync_api import expect

from guilds.models import Membership
from guilds.services import guild_activity_recompute_all, guild_person_runs_record, guild_rank_add
from tests.backend.live.servers import database_url_of_test, server_env, uvicorn
from tests.play.browser import NEEDS_CHROMIUM, Api, browser  # noqa: F401 - the fixture
from tests.play.test_crawler_browser import PASSWORD, WAIT_MS, register

pytestmark = [NEEDS_CHROMIUM, pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migrated_data")]

NAME = "Lamplighters"


def members_on(page: Any) -> list[int]:
    shown = page.eval_on_selector_all("#members li", "e => e.map(x => x.dataset.member)")
    return sorted(int(m) for m in shown)


def member_ids(guild: dict[str, Any]) -> list[int]:
    return sorted(m["player"] for m in guild["members"])


def tab_to(page: Any, selector: str, limit: int = 60) -> None:
    """Presses Tab until the element ``selector`` names has the focus (the keyboard alone reaches it)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement === document.querySelector(s)", selector):
            return
    raise AssertionError(f"{selector} is not reached by Tab within {limit} presses")


def refresh(page: Any) -> None:
    page.click("#refresh")
    page.wait_for_selector('body[data-busy="0"]')


def words(page: Any, lang: str, key: str) -> str:
    """The page's own word ``key`` in ``lang`` (its dictionary module, play/static/play/crawler/i18n.js)."""
    script = "([lang, key]) => import('/static/play/crawler/i18n.js').then(m => m.word(lang, key))"
    return str(page.evaluate(script, [lang, key]))


def refused(api: Api, method: str, path: str) -> str:
    """The API's refusal code for a call that must be refused (a refusal changes nothing)."""
    response = requests.request(method, f"{api.base}/api/v1/{path}", headers=api.headers, timeout=10)
    assert response.status_code >= 400, response.text
    return str(response.json()["error"]["code"])


def test_the_leader_closes_hands_over_and_kicks_a_member_leaves_and_the_guild_votes_itself_away(
        browser, tmp_path):  # noqa: F811
    with uvicorn(server_env(database_url_of_test()), tmp_path / "server.log") as base:
        # given four players in pages of their own; the leader's is 390 px wide
        pages, ids = {}, {}
        for name, width in (("lena", 390), ("mira", 1000), ("olek", 1000), ("piotr", 1000)):
            pages[name] = browser.new_context(viewport={"width": width, "height": 900}).new_page()
            ids[name] = register(pages[name], base, name)
        lena, mira, olek, piotr = (pages[n] for n in ("lena", "mira", "olek", "piotr"))
        api = {name: Api(base, name, PASSWORD) for name in pages}
        lena.click('.tab[data-tab="guild"]')
        lena.fill("#found-form [name=name]", NAME)
        lena.click("#found-form button[type=submit]")
        lena.wait_for_selector("#my-guild:not([hidden])")
        guild_id = api["lena"].get("me/")["guild"]["id"]

        # when the leader invites the three by their ids, each invitation reaches its page live
        for name in ("mira", "piotr", "olek"):
            lena.fill("#invite-form [name=player]", str(ids[name]))
            lena.click("#invite-form button[type=submit]")
            lena.wait_for_function("() => document.querySelector('#invite-form [name=player]').value === ''")
        for name in ("mira", "piotr", "olek"):
            pages[name].wait_for_selector('#notices li[data-kind="invitation"]', timeout=WAIT_MS)
            pages[name].wait_for_selector("#invitations li[data-invitation]", state="attached")
        # and mira and piotr accept theirs
        for page in (mira, piotr):
            page.click('.tab[data-tab="guild"]')
            page.click("#invitations li[data-invitation] button[data-action=accept]")
            page.wait_for_selector("#my-guild:not([hidden])")

        # when olek, by keyboard alone, opens his guild tab and declines the invitation
        olek.evaluate("() => document.activeElement instanceof HTMLElement && document.activeElement.blur()")
        tab_to(olek, '.tab[data-tab="guild"]')
        olek.keyboard.press("Enter")
        tab_to(olek, "#invitations li[data-invitation] button[data-action=decline]")
        olek.keyboard.press("Enter")
        olek.wait_for_selector("#invitations li[data-invitation]", state="detached")
        # then the API has no pending invitation for him, he is in no guild, and the page says so
        assert api["olek"].get("invitations/") == []
        assert api["olek"].get("me/")["guild"] is None
        assert olek.locator("#no-invitations").is_visible()
        assert olek.inner_text("#message") == words(olek, "en", "done")

        # when the leader invites him again (nothing on her page tells of the refusal) and he accepts
        lena.fill("#invite-form [name=player]", str(ids["olek"]))
        lena.click("#invite-form button[type=submit]")
        olek.wait_for_selector("#invitations li[data-invitation]", timeout=WAIT_MS)
        olek.click("#invitations li[data-invitation] button[data-action=accept]")
        olek.wait_for_selector("#my-guild:not([hidden])")
        guild = api["lena"].get(f"guilds/{guild_id}/")
        assert member_ids(guild) == sorted(ids.values()) and guild["members_count"] == 4

        # given the guild's activity and rank as the runs and NPC rescues make them: 6 person-runs today
        # (the guild is a day old: 6.0 a day) and 3 rank points
        guild_person_runs_record(guild_id=guild_id, at=timezone.now(), count=6)
        guild_activity_recompute_all()
        guild_rank_add(guild_id=guild_id, points=3)
        # when the pages are refreshed, each shows the API's activity and rank, and the four members
        guild = api["mira"].get(f"guilds/{guild_id}/")
        assert (guild["activity"], guild["rank"]) == (6.0, 3)
        for page in pages.values():
            refresh(page)
            expect(page.locator("#guild-activity")).to_have_text(f"{guild['activity']:.2f}")
            expect(page.locator("#guild-rank")).to_have_text(str(guild["rank"]))
            expect(page.locator("#guild-count")).to_have_text("4")
            assert members_on(page) == member_ids(guild)
        # and the guild's row in the list shows the list's activity and rank
        listed = api["mira"].get("guilds/?search=lamp&ordering=-activity")["results"]
        mira.click('.tab[data-tab="guilds"]')
        mira.fill("#search-form [name=search]", "lamp")
        mira.select_option("#search-form [name=ordering]", "-activity")
        mira.click("#search-form button[type=submit]")
        row = f'#guild-list tr[data-guild="{guild_id}"]'
        mira.wait_for_selector(row)
        cells = mira.eval_on_selector_all(f"{row} td", "e => e.map(x => x.innerText.trim())")
        assert [g["id"] for g in listed] == [guild_id]
        assert cells[1:5] == ["lena", "4", f"{listed[0]['activity']:.2f}", str(listed[0]["rank"])]

        # when the leader closes the guild
        lena.click("#close")
        lena.wait_for_selector('#my-guild[data-open="0"]')
        # then the API has it closed and lists it no more, and so does the page's list after a search
        assert api["lena"].get(f"guilds/{guild_id}/")["is_open"] is False
        assert api["mira"].get("guilds/?search=lamp")["results"] == []
        mira.click("#search-form button[type=submit]")
        mira.wait_for_selector(row, state="detached")
        assert mira.locator("#no-guilds").is_visible()
        assert lena.inner_text("#guild-state") == words(lena, "en", "closed")
        # and a member's page shows it closed after refresh (no notice tells of it)
        piotr.click("#refresh")
        piotr.wait_for_selector('#my-guild[data-open="0"]')

        # when the leader reopens it by keyboard alone
        lena.evaluate("() => document.activeElement instanceof HTMLElement && document.activeElement.blur()")
        tab_to(lena, "#reopen")
        lena.keyboard.press("Enter")
        lena.wait_for_selector('#my-guild[data-open="1"]')
        # then the API has it open and listed again, and the page's list shows it
        assert api["lena"].get(f"guilds/{guild_id}/")["is_open"] is True
        assert [g["id"] for g in api["mira"].get("guilds/?search=lamp")["results"]] == [guild_id]
        mira.click("#search-form button[type=submit]")
        mira.wait_for_selector(row)

        # when the leader (390 px) makes mira the leader
        lena.click(f'#members li[data-member="{ids["mira"]}"] button[data-action=hand_over]')
        lena.wait_for_selector("#leader", state="hidden")
        # then the API names mira the leader; lena's page offers her no leader's controls any more
        assert api["lena"].get(f"guilds/{guild_id}/")["leader"] == ids["mira"]
        assert lena.locator("#members button[data-action=kick]").count() == 0
        assert lena.locator(f'#members li[data-member="{ids["mira"]}"] .badge').inner_text() == \
            words(lena, "en", "is_leader")
        # and mira's page, refreshed, is the leader's: a kick and a hand-over for each other member
        mira.click('.tab[data-tab="guild"]')
        refresh(mira)
        mira.wait_for_selector("#leader:not([hidden])")
        for name in ("lena", "olek", "piotr"):
            member = f'#members li[data-member="{ids[name]}"]'
            assert mira.locator(f"{member} button[data-action=kick]").is_visible()
            assert mira.locator(f"{member} button[data-action=hand_over]").is_visible()
        assert mira.locator(f'#members li[data-member="{ids["mira"]}"] button').count() == 0

        # given piotr has been a member for more than the rules' 24 hours
        Membership.objects.filter(player_id=ids["piotr"], left_at__isnull=True).update(
            joined_at=timezone.now() - timedelta(hours=25))
        # when piotr, his page in Russian, leaves the guild
        piotr.click("#lang")
        piotr.wait_for_selector('body[data-busy="0"]')
        assert piotr.inner_text("#leave") == words(piotr, "ru", "leave")
        piotr.click("#leave")
        piotr.wait_for_selector("#no-guild:not([hidden])")
        # then the page says so in Russian, the API has him guildless and the guild three strong
        assert piotr.inner_text("#message") == words(piotr, "ru", "left") == "Вы покинули гильдию."
        assert api["piotr"].get("me/")["guild"] is None
        guild = api["mira"].get(f"guilds/{guild_id}/")
        assert member_ids(guild) == sorted([ids["lena"], ids["mira"], ids["olek"]])
        refresh(mira)
        assert members_on(mira) == member_ids(guild)

        # when the new leader kicks olek
        mira.click(f'#members li[data-member="{ids["olek"]}"] button[data-action=kick]')
        mira.wait_for_selector(f'#members li[data-member="{ids["olek"]}"]', state="detached")
        # then the API has him out; his page shows him guildless after refresh (no notice tells of it)
        assert api["olek"].get("me/")["guild"] is None
        guild = api["mira"].get(f"guilds/{guild_id}/")
        assert member_ids(guild) == sorted([ids["lena"], ids["mira"]]) == members_on(mira)
        refresh(olek)
        olek.wait_for_selector('body[data-in-guild="0"]')
        assert olek.locator("#no-guild").is_visible()

        # when olek (kicked: free to join at once) applies again, and the leader, having typed a reason,
        # refreshes her page before rejecting him
        olek.click('.tab[data-tab="guilds"]')
        olek.fill("#search-form [name=search]", "lamp")
        olek.click("#search-form button[type=submit]")
        olek.click(f"{row} button[data-action=apply]")
        olek.wait_for_selector('#my-applications li[data-status="pending"]')
        refresh(mira)
        olek_row = f'#applications li[data-player="{ids["olek"]}"]'
        mira.fill(f"{olek_row} input[name=reason]", "Not after that")
        refresh(mira)
        mira.click(f"{olek_row} button[data-action=reject]")
        # then the reason typed survived the refresh: olek's page shows it live, as the API gives it
        olek.wait_for_selector('#my-applications li[data-status="rejected"] .reason', timeout=WAIT_MS)
        rejected = api["olek"].get("me/applications/")[0]
        assert (rejected["status"], rejected["reject_reason"]) == ("rejected", "Not after that")
        assert "Not after that" in olek.inner_text('#my-applications li[data-status="rejected"]')
        assert api["olek"].get("me/")["guild"] is None

        # when lena votes to disband, then withdraws her vote
        refresh(lena)
        lena.click("#vote")
        lena.wait_for_selector("#votes:not([hidden])")
        assert lena.inner_text("#votes") == "Disband votes: 1 of 2."
        assert refused(api["lena"], "POST", f"guilds/{guild_id}/disband-vote/") == "already_voted"
        lena.click("#unvote")
        lena.wait_for_selector('#votes:has-text("0 of 2")')
        # then the API has no vote of hers, and the guild stands
        assert refused(api["lena"], "DELETE", f"guilds/{guild_id}/disband-vote/") == "not_voted"
        assert api["lena"].get(f"guilds/{guild_id}/")["members_count"] == 2

        # when she votes again and mira votes too
        lena.click("#vote")
        lena.wait_for_selector('#votes:has-text("1 of 2")')
        mira.click("#vote")
        # then the last vote disbanded the guild: mira's page says so and shows her guildless
        mira.wait_for_selector("#no-guild:not([hidden])")
        assert mira.inner_text("#message") == words(mira, "en", "disbanded")
        assert mira.locator("#votes").is_hidden()
        for name in ("lena", "mira"):
            assert api[name].get("me/")["guild"] is None
        assert refused(api["mira"], "GET", f"guilds/{guild_id}/") == "guild_not_found"
        assert api["olek"].get("guilds/?search=lamp")["results"] == []
        # and lena's page, refreshed, shows her guildless too (no notice tells of a disbanding)
        refresh(lena)
        lena.wait_for_selector("#no-guild:not([hidden])")
        assert lena.locator("#votes").is_hidden()
