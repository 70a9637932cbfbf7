"""The guild's NPC services and the Labyrinth of Darkness on /play/, in Chromium, checked against the API
(SPEC 16, issue 29, NPC and darkness part).

A member buys from the weaponsmith and sells to the trader (money and inventory checked through the API),
is refused a purchase with the API's own message, and opens every other kind's page, whose offer is the
API's. A party of two explores the darkness: a lobby, a refused start, moves (one by keyboard), the other
member's page following live on the run's stream, a camp that relights the torch, the escape, and the
guild's map afterwards. The pages talk to a real uvicorn server on the test's PostgreSQL database. The
economy's and the catalog's data migrations are loaded again for the test (``migrated_data``): the
shops, buffs, quests, structures, recipes and the torch are the defaults a new installation has. Set
CRAWLER_SCREENSHOTS=docs/img to refresh docs/img/crawler-npc*.png and crawler-darkness*.png.
"""
from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from npcs.services import npc_rescue
from players.models import Player
from tests.backend.live.servers import database_url_of_test, server_env, uvicorn
from tests.darkness.helpers import install_maze, only
from tests.dungeons.run_helpers import bestiary, combat_settings
from tests.factories import add_member, make_guild
from tests.play.browser import NEEDS_CHROMIUM, Api, browser  # noqa: F401 - the fixture
from tests.play.test_crawler_browser import PASSWORD, WAIT_MS, register, shot

pytestmark = [NEEDS_CHROMIUM, pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migrated_data")]

#: Every rescuable kind with a service, and the peasant (no counter, only rank).
KINDS = ("trader", "weaponsmith", "armorer", "bowyer", "battle_mage", "warlock", "shaman", "peasant",
         "potion_seller", "inquisitor", "carpenter", "jeweler")


def ids_on(page: Any, selector: str, attribute: str) -> list[str]:
    return list(page.eval_on_selector_all(selector, f"e => e.map(x => x.getAttribute('{attribute}'))"))


def open_npc(page: Any, kind: str) -> None:
    page.click(f'#npc-list button[data-npc="{kind}"]')
    page.wait_for_selector(f'#npc-page[data-npc="{kind}"]')


def test_a_member_buys_and_sells_is_refused_and_sees_every_npcs_offer(browser, tmp_path):  # noqa: F811
    with uvicorn(server_env(database_url_of_test()), tmp_path / "server.log") as base:
        # given a member of a guild that rescued every kind, with 1000 coins and nothing in the pack
        page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        me_id = register(page, base, "nadia")
        player = Player.objects.get(pk=me_id)
        guild = make_guild(leader=player, name="Lamplighters")
        for kind in KINDS:
            npc_rescue(guild_id=guild.pk, kind=kind)
        Player.objects.filter(pk=me_id).update(money=1000)
        api = Api(base, "nadia", PASSWORD)
        npcs = f"guilds/{guild.pk}/npcs/"

        # when she opens the NPCs tab
        page.click("#refresh")
        page.wait_for_selector('body[data-in-guild="1"]')
        page.click('.tab[data-tab="npcs"]')
        page.wait_for_selector('#npc-list button[data-npc="weaponsmith"]')
        # then it lists the guild's NPCs as the API does, with her money and carry limits
        listed = api.get(npcs)
        assert ids_on(page, "#npc-list button", "data-npc") == [n["kind"] for n in listed["npcs"]]
        assert page.inner_text('[data-purse="money"]') == "1000"
        carry = api.get("me/")["carry"]
        assert page.inner_text('[data-purse="weight"]') == f"{carry['weight']} / {carry['capacity']}"

        # when she opens the weaponsmith and buys the first offer
        open_npc(page, "weaponsmith")
        offers = api.get(f"{npcs}weaponsmith/offers/")
        assert offers, "the economy's default offers are there"
        assert ids_on(page, "#npc-page li[data-offer]", "data-offer") == [str(o["id"]) for o in offers]
        first = offers[0]
        price = page.get_attribute(f'li[data-offer="{first["id"]}"] [data-price]', "data-price")
        assert price == str(first["price"])
        page.click(f'li[data-offer="{first["id"]}"] button[data-action=npc_buy]')
        # then the API took the price and put the item in her pack, and the page shows both
        expect(page.locator('[data-purse="money"]')).to_have_text(str(1000 - first["price"]), timeout=WAIT_MS)
        me = api.get("me/")
        assert me["money"] == 1000 - first["price"]
        assert [i["item_kind"]["id"] for i in me["inventory"]] == [first["item_kind"]["id"]]
        carry = me["carry"]
        assert page.inner_text('[data-purse="weight"]') == f"{carry['weight']} / {carry['capacity']}"
        assert page.get_attribute("#message", "data-kind") == "info"
        shot(page, "npc-shop")

        # when she sells that item to the trader at the quoted price, by keyboard alone
        page.focus('#npc-list button[data-npc="trader"]')
        page.keyboard.press("Enter")
        page.wait_for_selector('#npc-page[data-npc="trader"]')
        item = me["inventory"][0]
        quote = next(q for q in api.get(f"{npcs}trader/quotes/") if q["item"]["id"] == item["id"])
        assert quote["price"] is not None
        row = f'#npc-page li[data-item="{item["id"]}"]'
        assert page.get_attribute(f"{row} [data-quote]", "data-quote") == str(quote["price"])
        page.focus(f"{row} button[data-action=npc_sell_button]")
        page.keyboard.press("Enter")
        page.wait_for_selector(row, state="detached")
        # then the API paid the quote and the item is gone
        after = api.get("me/")
        assert after["money"] == me["money"] + quote["price"]
        assert after["inventory"] == []
        expect(page.locator('[data-purse="money"]')).to_have_text(str(after["money"]))

        # when she has no money left and tries to buy again, the API's refusal is shown as it words it
        Player.objects.filter(pk=me_id).update(money=0)
        page.click('.tab[data-tab="npcs"]')  # reads again
        expect(page.locator('[data-purse="money"]')).to_have_text("0", timeout=WAIT_MS)
        open_npc(page, "weaponsmith")
        page.click(f'li[data-offer="{first["id"]}"] button[data-action=npc_buy]')
        page.wait_for_selector('#message[data-kind="error"]')
        refused = api.refusal(f"{npcs}weaponsmith/offers/{first['id']}/buy/")
        assert refused["code"] == "not_enough_money"
        assert page.get_attribute("#message", "data-code") == refused["code"]
        assert page.inner_text("#message") == refused["message"]
        assert api.get("me/")["inventory"] == []  # nothing changed
        Player.objects.filter(pk=me_id).update(money=1000)

        # when she opens every other kind's page, each shows the API's offer
        for kind in ("armorer", "bowyer", "battle_mage", "potion_seller", "jeweler"):
            open_npc(page, kind)
            shown = ids_on(page, f'#npc-page[data-npc="{kind}"] [data-service=shop] li', "data-offer")
            assert shown == [str(o["id"]) for o in api.get(f"{npcs}{kind}/offers/")], kind
        open_npc(page, "potion_seller")
        belts = api.get(f"{npcs}potion_seller/belts/")
        assert page.get_attribute("[data-service=belts] [data-belts]", "data-belts") == str(belts["level"])
        assert page.locator("[data-service=belts] button[data-action=npc_buy_belt]").count() == (
            1 if belts["next_price"] is not None else 0)
        assert page.locator("[data-service=sell]").count() == 1
        open_npc(page, "warlock")
        board = api.get(f"{npcs}warlock/buffs/")
        assert board["offers"]
        assert ids_on(page, "#npc-page li[data-buff]", "data-buff") == [str(b["id"]) for b in board["offers"]]
        assert [page.get_attribute(f'li[data-buff="{b["id"]}"] [data-price]', "data-price")
                for b in board["offers"]] == [str(b["price"]) for b in board["offers"]]
        open_npc(page, "shaman")
        upgrades = api.get(f"{npcs}shaman/upgrades/")
        assert page.get_attribute("[data-stone-points]", "data-stone-points") == str(upgrades["stone_points"])
        assert [(page.get_attribute(f'#npc-page li[data-stat="{s["stat"]}"] [data-cost]', "data-cost"))
                for s in upgrades["stats"]] == ["" if s["cost"] is None else str(s["cost"])
                                                for s in upgrades["stats"]]
        open_npc(page, "inquisitor")
        bounties = api.get(f"{npcs}inquisitor/bounties/")
        assert bounties["quests"]
        assert ids_on(page, "#npc-page li[data-quest]", "data-quest") == [str(q["id"])
                                                                          for q in bounties["quests"]]
        open_npc(page, "carpenter")
        structures = api.get(f"{npcs}carpenter/structures/")
        assert structures
        shown = ids_on(page, "#npc-page li[data-structure]", "data-structure")
        assert shown == [str(s["id"]) for s in structures]
        open_npc(page, "jeweler")
        recipes = api.get(f"{npcs}jeweler/recipes/")
        assert recipes
        assert ids_on(page, "#npc-page li[data-recipe]", "data-recipe") == [str(r["id"]) for r in recipes]
        open_npc(page, "peasant")
        assert page.locator("#npc-page [data-service]").count() == 0

        # when she takes a bounty and the carpenter refuses a structure for want of materials
        open_npc(page, "inquisitor")
        quest = bounties["quests"][0]
        page.click(f'li[data-quest="{quest["id"]}"] button[data-action=npc_accept]')
        page.wait_for_selector('#npc-page li[data-bounty][data-status="open"]')
        assert [b["quest"] for b in api.get(f"{npcs}inquisitor/bounties/")["mine"]] == [quest["id"]]
        open_npc(page, "carpenter")
        structure = structures[0]
        page.click(f'li[data-structure="{structure["id"]}"] button[data-action=npc_build]')
        page.wait_for_selector('#message[data-code="missing_materials"]')
        refused = api.refusal(f"{npcs}carpenter/structures/{structure['id']}/build/")
        assert page.inner_text("#message") == refused["message"]

        # when the page speaks Russian at 390 px, the shop's words and the API's answers are Russian
        page.set_viewport_size({"width": 390, "height": 900})
        page.click("#lang")
        expect(page.locator('.tab[data-tab="npcs"]')).to_have_text("НИПы")
        open_npc(page, "weaponsmith")
        assert "Купить" in page.inner_text("#npc-page")
        missing = page.evaluate("() => import('/static/play/crawler/i18n.js').then(m => m.missingWords())")
        assert missing == []
        shot(page, "npc-ru")


def test_a_party_explores_the_darkness_live_to_a_camp_and_leaves(browser, tmp_path):  # noqa: F811
    with uvicorn(server_env(database_url_of_test()), tmp_path / "server.log") as base:
        # given two members of a guild whose maze is a corridor with a camp four moves from the entrance,
        # every ordinary room empty; one page at 390 px
        pages, ids = {}, {}
        for name, width in (("orla", 1000), ("piet", 390)):
            pages[name] = browser.new_context(viewport={"width": width, "height": 900}).new_page()
            ids[name] = register(pages[name], base, name)
        orla, piet = pages["orla"], pages["piet"]
        guild = make_guild(leader=Player.objects.get(pk=ids["orla"]), name="Wick and Flint")
        add_member(guild, Player.objects.get(pk=ids["piet"]))
        install_maze(guild)
        only("empty")
        api = {name: Api(base, name, PASSWORD) for name in pages}

        # when orla opens the labyrinth, the guild's map is the API's (nothing explored yet)
        for page in (orla, piet):
            page.click("#refresh")
            page.wait_for_selector('body[data-in-guild="1"]')
            page.click('.tab[data-tab="darkness"]')
            page.wait_for_selector('#dk-hall[data-view="hall"]')
        maze = api["orla"].get(f"guilds/{guild.pk}/labyrinth/")
        assert orla.get_attribute("#dk-map", "data-explored") == str(maze["explored"]) == "0"
        assert orla.locator("#dk-map rect.unknown").count() == maze["rows"] * maze["cols"]

        # when orla opens a darkness lobby and piet joins it from his list (by keyboard)
        orla.click("#dk-controls button[data-action=dk_open]")
        orla.wait_for_selector('#dk-hall[data-status="lobby"]')
        run_id = int(orla.get_attribute("#dk-hall", "data-run"))
        # (no refresh: the open lobbies come on their stream)
        piet.wait_for_selector(f'li[data-lobby="{run_id}"] button[data-action=dk_join]')
        piet.focus(f'li[data-lobby="{run_id}"] button[data-action=dk_join]')
        piet.keyboard.press("Enter")
        piet.wait_for_selector('#dk-hall[data-status="lobby"]')
        # and piet steps up to go first, so that he will carry the torch
        piet.click("#dk-controls button[data-action=dk_go_first]")
        piet.wait_for_selector("#dk-controls button[data-action=dk_go_first]", state="detached")
        lobby = api["piet"].get(f"runs/{run_id}/")
        assert [m["player"] for m in sorted(lobby["members"], key=lambda m: m["position"])] == [ids["piet"],
                                                                                               ids["orla"]]
        # and orla's lobby shows him without a refresh (his joining is a lobby_changed notice on her stream)
        orla.wait_for_selector(f'#dk-members li[data-member="{ids["piet"]}"]')
        # and orla starts before piet chose a weapon: the API's refusal is shown
        orla.click("#dk-controls button[data-action=dk_start]")
        orla.wait_for_selector('#message[data-kind="error"]')
        refused = api["orla"].refusal(f"runs/{run_id}/start/")
        assert orla.get_attribute("#message", "data-code") == refused["code"]
        assert orla.inner_text("#message") == refused["message"]
        # when both go without a starting weapon and orla starts
        for page in (orla, piet):
            page.wait_for_selector("#dk-offer select[name=weapon]")
            page.select_option("#dk-offer select[name=weapon]", "")
            page.click("#dk-offer button[data-action=dk_take_weapon]")
            page.wait_for_selector("#dk-offer select", state="detached")
        orla.click("#dk-controls button[data-action=dk_start]")
        # then both pages show the run under way: piet's learns it on the run's stream, with no reload
        for page in (orla, piet):
            page.wait_for_selector('#dk-hall[data-status="active"]', timeout=WAIT_MS)
        run = api["orla"].get(f"runs/{run_id}/")
        assert run["darkness"]["torch"]["bearer"] == ids["piet"]  # the first in formation carries it
        assert "piet" in orla.inner_text('[data-fact="torch"]')

        # when orla walks RIGHT, DOWN, LEFT and piet DOWN by the arrow key on the map: the camp
        steps = [(orla, "RIGHT"), (orla, "DOWN"), (orla, "LEFT"), (piet, "DOWN")]
        for mover, direction in steps:
            step = run["step"]
            if mover is piet:
                piet.focus("#dk-map")
                piet.keyboard.press("ArrowDown")
            else:
                mover.click(f'#dk-controls button[data-move="{direction}"]')
            # then both pages (the other one live) show the API's place, torch and step
            mover.wait_for_selector(f'#dk-hall:not([data-step="{step}"])', timeout=WAIT_MS)
            run = api["orla"].get(f"runs/{run_id}/")
            dark = run["darkness"]
            for page in (orla, piet):
                page.wait_for_selector(f'#dk-hall[data-step="{run["step"]}"]', timeout=WAIT_MS)
                position = page.locator('[data-fact="position"]')
                assert position.get_attribute("data-row") == str(dark["position"]["row"])
                assert position.get_attribute("data-col") == str(dark["position"]["col"])
                assert page.get_attribute('[data-fact="torch"]', "data-left") == str(dark["torch"]["left"])
                assert page.get_attribute("#dk-map", "data-explored") == str(dark["explored"])
                offered = sorted(a["direction"] for a in run["allowed_actions"] if a["kind"] == "move")
                enabled = sorted(ids_on(page, '#dk-controls button[data-move]:not([disabled])', "data-move"))
                assert enabled == offered
            if mover is orla and direction == "RIGHT":
                shot(orla, "darkness")
        # then the party stands in the camp with the torch relit, and the escape is offered
        assert dark["position"]["kind"] == "camp"
        assert dark["torch"]["left"] == dark["torch"]["length"]
        assert any(a["kind"] == "escape" for a in run["allowed_actions"])
        assert piet.locator("#dk-log li").count() == len(api["piet"].get(f"runs/{run_id}/")["events"])
        piet.click("#lang")
        piet.wait_for_selector('#dk-hall[data-status="active"]')
        expect(piet.locator('.tab[data-tab="darkness"]')).to_have_text("Лабиринт")
        piet.wait_for_selector('#dk-log li[data-kind="moved"]')
        russian = Api(base, "piet", PASSWORD, language="ru")
        ru_texts = [e["text"] for e in russian.get(f"runs/{run_id}/")["events"]]
        piet.wait_for_function("n => document.querySelectorAll('#dk-log li').length === n", arg=len(ru_texts))
        assert piet.locator("#dk-log li").first.inner_text() == ru_texts[-1]
        shot(piet, "darkness-ru")

        # when orla leads the party out from the camp
        orla.click('#dk-controls button[data-run-action="escape"]')
        # then both pages show the run over, and the guild's map keeps what the party saw
        for page in (orla, piet):
            page.wait_for_selector('#dk-hall[data-status="escaped"]', timeout=WAIT_MS)
        assert api["orla"].get(f"runs/{run_id}/")["status"] == "escaped"
        orla.click("#dk-controls button[data-action=dk_back]")
        orla.wait_for_selector('#dk-hall[data-view="hall"]')
        maze = api["orla"].get(f"guilds/{guild.pk}/labyrinth/")
        assert maze["explored"] == 5
        assert orla.get_attribute("#dk-map", "data-explored") == "5"
        assert orla.locator("#dk-map rect.known").count() == 5



def test_a_battle_in_the_darkness_is_fought_from_the_plain_battle_view(browser, tmp_path):  # noqa: F811
    with uvicorn(server_env(database_url_of_test()), tmp_path / "server.log") as base:
        # given a lone member whose maze's rooms all hold one sturdy, weak creature, and blows that never miss
        page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        me_id = register(page, base, "quinn")
        guild = make_guild(leader=Player.objects.get(pk=me_id), name="Ember Watch")
        install_maze(guild)
        only("enemy")
        bestiary(enemy_hp=50, enemy_damage=1)
        combat_settings(base_miss_chance=0.0, min_miss_chance=0.0)
        api = Api(base, "quinn", PASSWORD)

        # when she opens a lobby, takes the junk dealer's first weapon, starts and moves into the next room
        page.click("#refresh")
        page.wait_for_selector('body[data-in-guild="1"]')
        page.click('.tab[data-tab="darkness"]')
        page.click("#dk-controls button[data-action=dk_open]")
        page.wait_for_selector("#dk-offer select[name=weapon]")
        page.select_option("#dk-offer select[name=weapon]", index=1)
        page.click("#dk-offer button[data-action=dk_take_weapon]")
        page.wait_for_selector("#dk-offer select", state="detached")
        page.click("#dk-controls button[data-action=dk_start]")
        page.wait_for_selector('#dk-hall[data-status="active"]', timeout=WAIT_MS)
        run_id = int(page.get_attribute("#dk-hall", "data-run"))
        page.click('#dk-controls button[data-move="RIGHT"]')
        # then the room's battle is shown as the API has it: its combatants and their HP, and no move offered
        page.wait_for_selector("#dk-battle h3[data-battle]", timeout=WAIT_MS)
        battle_id = api.get(f"runs/{run_id}/")["current_room"]["battle"]["id"]
        battle = api.get(f"battles/{battle_id}/")
        assert page.get_attribute("#dk-battle h3", "data-battle") == str(battle_id)
        shown = {c: page.inner_text(f'#dk-battle li[data-combatant="{c}"] small')
                 for c in ids_on(page, "#dk-battle li[data-combatant]", "data-combatant")}
        assert shown == {c["id"]: f"{c['hp']} / {c['max_hp']}" for c in battle["combatants"]}
        assert page.locator("#dk-controls button[data-move]:not([disabled])").count() == 0
        assert battle["awaiting"] == me_id  # a lone player's turn comes round at once
        offered = sorted(a["kind"] for a in battle["allowed_actions"])
        assert sorted(ids_on(page, "#dk-battle button[data-battle-action]", "data-battle-action")) == offered
        shot(page, "darkness-battle")

        # when she attacks the creature from the plain view
        blows = page.locator('#dk-log li[data-kind="attack"]').count()  # the creature may have struck first
        page.click('#dk-battle button[data-battle-action="attack"] >> nth=0')
        # then the battle moved on: her blow is in the log, and the creature's HP is the API's
        page.wait_for_function("n => document.querySelectorAll('#dk-log li[data-kind=attack]').length > n",
                               arg=blows, timeout=WAIT_MS)
        after = api.get(f"battles/{battle_id}/")
        assert after["turn"] > battle["turn"]
        enemy = next(c for c in after["combatants"] if c["kind"] != "player")
        expect(page.locator(f'#dk-battle li[data-combatant="{enemy["id"]}"] small')).to_have_text(
            f"{enemy['hp']} / {enemy['max_hp']}", timeout=WAIT_MS)
        assert enemy["hp"] < enemy["max_hp"]
