"""Three players in Chromium play dungeon runs on /play/ (SPEC 16, issue 29): the run lobby (open, join, the
junk dealer's offer, the formation by keyboard and by drag, start), a run to its completion with the
rescued NPC (battles with effects, loot with a carry limit's refusal, a potion between rooms, the escape
offered where it is allowed), a run the party leaves from its treasure room, and a run to the party's death
through Charon; each page checked against the API.

The pages talk to a real uvicorn server on the test's PostgreSQL database (as test_crawler_browser.py), so
the run's stream is held open as in production: the other members' turns and moves reach every page live.
The runs are steered as the API tests steer them (tests/dungeons/run_helpers.py): balancing data (one floor
of five rooms, a test bestiary whose rat makes its victims bleed, run settings), and the lobby's seed, set in
the database between opening and starting (the seed is drawn when a lobby opens and read only when it
starts), chosen by ``seed_where`` exactly as the start will generate the dungeon. Set
CRAWLER_SCREENSHOTS=docs/img to refresh docs/img/crawler-run*.png and crawler-battle.png.
"""
from __future__ import annotations

from typing import Any

import pytest

from combat.models import EnemyKindEffect
from dungeons.models import Run
from players.models import ItemKind, Player
from players.services import inventory_add
from tests.backend.live.servers import database_url_of_test, server_env, uvicorn
from tests.dungeons.run_helpers import bestiary, layout, run_settings, seed_where, small_dungeons
from tests.play.browser import NEEDS_CHROMIUM, Api, browser  # noqa: F401 - the fixture
from tests.play.test_crawler_browser import PASSWORD, WAIT_MS, register, shot

pytestmark = [NEEDS_CHROMIUM, pytest.mark.postgres, pytest.mark.redis,
              pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migrated_data")]

NAMES = ("lena", "mira", "olek")
COMPLETION_ROOMS = ["enemy", "treasure", "story", "rest", "boss"]


def catalog() -> dict[str, ItemKind]:
    """The loot this test's runs can draw: common weapons only (every other catalog entry is made rare and
    rare loot is switched off), so a member who already carries two weapons is refused any of it. The
    potions are rare: given to the players, never drawn."""
    mine = {
        "blade": ItemKind.objects.create(name="Run Test Blade", category="weapon", sub_kind="sword", weight=2,
                                         price=5, damage=3),
        "axe": ItemKind.objects.create(name="Run Test Axe", category="weapon", sub_kind="axe", weight=3,
                                       price=5, damage=4),
        "healing": ItemKind.objects.create(name="Run Test Healing Draught", category="potion",
                                           sub_kind="healing", weight=1, price=5, heal=10, rarity="rare"),
        "vigor": ItemKind.objects.create(name="Run Test Vigor Tonic", category="potion", sub_kind="effect",
                                         weight=1, price=5, effect="vigor", effect_turns=3, rarity="rare"),
    }
    ItemKind.objects.exclude(pk__in=[kind.pk for kind in mine.values()]).update(rarity="rare")
    return mine


def wait_all(pages: dict[str, Any], selector: str) -> None:
    for page in pages.values():
        page.wait_for_selector(selector, state="attached", timeout=WAIT_MS)


def check_run(pages: dict[str, Any], api: Api, run_id: int) -> dict[str, Any]:
    """Every page shows the run as the API has it: the dungeon as revealed, the party's place, each member's
    HP and status, the step."""
    state = api.get(f"runs/{run_id}/")
    wait_all(pages, f'#run[data-step="{state["step"]}"]')
    here = state["current_room"]
    for page in pages.values():
        for floor in state["floors"]:
            shown = page.eval_on_selector_all(f'#dungeon [data-floor="{floor["floor"]}"] li',
                                              "e => e.map(x => x.dataset.kind)")
            assert shown == floor["visited"] + ["unknown"] * (floor["rooms"] - len(floor["visited"]))
        current = page.eval_on_selector_all('#dungeon li[data-current="1"]',
                                            "e => e.map(x => [Number(x.closest('[data-floor]')"
                                            ".dataset.floor), Number(x.dataset.room)])")
        assert current == [[here["floor"], here["room"]]]
        for member in state["members"]:
            row = f'#run-members li[data-member="{member["player"]}"]'
            assert page.get_attribute(row, "data-status") == member["status"]
            assert page.inner_text(f"{row} [data-hp]") == f'{member["hp"]} / {member["max_hp"]}'
    return state


def fight(pages: dict[str, Any], api: dict[str, Api], ids: dict[str, int], battle_id: int,
          drinker: str | None = None) -> dict[str, Any]:
    """Whoever the battle awaits attacks from their page (olek by keyboard; ``drinker`` first drinks an effect
    potion, once); after each turn the other pages show its events live, and the combatants as the API has
    them."""
    by_id = {player: name for name, player in ids.items()}
    drank = False
    for _ in range(200):
        battle = api["lena"].get(f"battles/{battle_id}/")
        wait_all(pages, f'#battle[data-battle="{battle_id}"][data-turn="{battle["turn"]}"]')
        for page in pages.values():  # the page shows the battle the API has
            for combatant in battle["combatants"]:
                row = f'#combatants li[data-combatant="{combatant["id"]}"]'
                assert page.inner_text(f"{row} [data-hp]") == f'{combatant["hp"]} / {combatant["max_hp"]}'
                effects = page.eval_on_selector_all(f"{row} li[data-effect]",
                                                    "e => e.map(x => [x.dataset.effect, x.dataset.turns])")
                assert effects == [[e["name"], "" if e["turns"] is None else str(e["turns"])]
                                   for e in combatant["effects"]]
            assert page.eval_on_selector_all("#battle-order li", "e => e.map(x => x.dataset.combatant)") == \
                battle["order"]
        if battle["outcome"] != "ongoing":
            return battle
        who = by_id[battle["awaiting"]]
        page = pages[who]
        # the turn's deadline is the API's (the page counts down to it)
        assert page.get_attribute("#battle-deadline", "data-deadline") == battle["deadline"]
        mine = api[who].get(f"battles/{battle_id}/")
        shown = page.eval_on_selector_all("#battle-actions button",
                                          "e => e.map(x => [x.dataset.kind, x.dataset.target"
                                          " || x.dataset.potion || x.dataset.slot || null])")
        assert shown == [[a["kind"], a.get("target") or a.get("potion") or
                          (str(a["slot"]) if "slot" in a else None)] for a in mine["allowed_actions"]]
        assert page.get_attribute("#battle-turn", "data-mine") == "1"
        if who == drinker and not drank and any(a["kind"] == "drink" for a in mine["allowed_actions"]):
            page.click('#battle-actions button[data-kind="drink"]')  # a free action: the turn goes on
            drank = True
            page.wait_for_selector(f'#battle:not([data-turn="{mine["turn"]}"])', timeout=WAIT_MS)
            page.wait_for_selector(f'#combatants li[data-combatant="p{ids[who]}"] li[data-effect="vigor"]',
                                   state="attached", timeout=WAIT_MS)
            page.wait_for_selector('#battle-actions button[data-kind="attack"]', timeout=WAIT_MS)
            shot(page, "battle")
        turn = page.get_attribute("#battle", "data-turn")
        if who == "olek":  # by keyboard alone
            page.focus('#battle-actions button[data-kind="attack"] >> nth=0')
            page.keyboard.press("Enter")
        else:
            page.click('#battle-actions button[data-kind="attack"] >> nth=0')
        # the page read its answer
        page.wait_for_selector(f'#battle:not([data-turn="{turn}"])', timeout=WAIT_MS)
        # the other members' pages receive the turn's events live, as the API numbers them
        after = api["lena"].get(f"battles/{battle_id}/")
        wait_all(pages, f'#battle-log li[data-seq="{after["last_event"]}"]')
    raise AssertionError("the battle did not end")


def open_lobby(pages: dict[str, Any], api: dict[str, Api], ids: dict[str, int], predicate: Any) -> int:
    """lena opens a lobby; its seed is set to one whose dungeon satisfies ``predicate``; the others join."""
    lena = pages["lena"]
    lena.select_option("#run-open-form [name=kind]", "ordinary")
    lena.click("#run-open-form button[type=submit]")
    lena.wait_for_selector('body[data-run-status="lobby"]', timeout=WAIT_MS)
    run_id = int(lena.get_attribute("#run", "data-run"))
    players = list(Player.objects.filter(pk__in=ids.values()))
    Run.objects.filter(pk=run_id).update(seed=seed_where(predicate, players=players))
    for name in ("mira", "olek"):
        page = pages[name]
        row = f'#run-lobbies li[data-run="{run_id}"]'
        page.wait_for_selector(row, timeout=WAIT_MS)  # no reload: the open lobbies come on their stream
        if name == "olek":  # by keyboard alone
            page.focus(f"{row} button[data-action=join]")
            page.keyboard.press("Enter")
        else:
            page.click(f"{row} button[data-action=join]")
        page.wait_for_selector('body[data-run-status="lobby"]', timeout=WAIT_MS)
    # the host's lobby lists both without a reload: each join is a lobby_changed notice on her stream
    for name in ("mira", "olek"):
        lena.wait_for_selector(f'#lobby-members li[data-member="{ids[name]}"]', timeout=WAIT_MS)
    listed = api["lena"].get(f"runs/{run_id}/")
    assert sorted(m["player"] for m in listed["members"]) == sorted(ids.values())
    return run_id


def refuse_and_start(pages: dict[str, Any]) -> None:
    """Every member goes with what they carry; lena starts; every page goes in."""
    for page in pages.values():
        page.wait_for_selector("#offer button[data-action=refuse]", timeout=WAIT_MS)
        page.click("#offer button[data-action=refuse]")
        page.wait_for_selector('#offer li[data-choice="refused"]', timeout=WAIT_MS)
    pages["lena"].click("#run-lobby button[data-action=start]")
    wait_all(pages, 'body[data-run-status]:not([data-run-status="lobby"]):not([data-run-status="none"])')


def back_to_lobbies(pages: dict[str, Any]) -> None:
    for page in pages.values():
        page.click("#run-end button[data-action=back]")
        page.wait_for_selector('body[data-run-status="none"]', timeout=WAIT_MS)


def test_a_party_plays_runs_to_completion_escape_and_death_in_the_browser(browser, tmp_path):  # noqa: F811
    small_dungeons(floors=1, rooms=5, c_opt=1.0)
    beasts = bestiary(enemy_hp=6, enemy_damage=1, boss_hp=10, boss_damage=1)
    EnemyKindEffect.objects.create(enemy_kind=beasts.enemy, trigger="on_hit", name="bleeding", turns=2,
                                   magnitude=1, chance=1.0)
    run_settings(npc_hp=500, battle_loot_chance=0.0, weight_rare=0, trap_effect_chance=0.0)
    items = catalog()
    with uvicorn(server_env(database_url_of_test()), tmp_path / "server.log") as base:
        # given three players, each in a page of their own (lena's is 390 px wide), in one guild
        pages, ids = {}, {}
        for name, width in zip(NAMES, (390, 1000, 1000), strict=True):
            pages[name] = browser.new_context(viewport={"width": width, "height": 900}).new_page()
            ids[name] = register(pages[name], base, name)
        lena, mira, olek = (pages[name] for name in NAMES)
        api = {name: Api(base, name, PASSWORD) for name in NAMES}
        lena.click('.tab[data-tab="guild"]')
        lena.fill("#found-form [name=name]", "Delvers")
        lena.click("#found-form button[type=submit]")
        lena.wait_for_selector("#my-guild:not([hidden])")
        guild_id = api["lena"].get("me/")["guild"]["id"]
        for name in ("mira", "olek"):
            pages[name].click('.tab[data-tab="guilds"]')
            pages[name].click("#search-form button[type=submit]")
            row = f'#guild-list tr[data-guild="{guild_id}"]'
            pages[name].wait_for_selector(row)
            pages[name].click(f"{row} button[data-action=apply]")
            pages[name].wait_for_selector('#my-applications li[data-status="pending"]')
        lena.click("#refresh")
        for name in ("mira", "olek"):
            lena.click(f'#applications li[data-player="{ids[name]}"] button[data-action=approve]')
            lena.wait_for_selector(f'#members li[data-member="{ids[name]}"]')
        assert api["lena"].get(f"guilds/{guild_id}/")["members_count"] == 3
        # seasoned delvers (an NPC is then all but certain to wait in a story room), with potions; olek
        # already carries two weapons, so he can pick up no weapon in the dungeon
        Player.objects.filter(pk__in=ids.values()).update(completed_dungeons=10, strength=4, stamina=6)
        inventory_add(player=Player.objects.get(pk=ids["mira"]), item_kind=items["healing"])
        olek_player = Player.objects.get(pk=ids["olek"])
        for kind in ("vigor", "blade", "axe"):
            inventory_add(player=olek_player, item_kind=items[kind])
        rank_before = api["lena"].get(f"guilds/{guild_id}/")["rank"]
        for page in pages.values():
            page.click('.tab[data-tab="run"]')
            page.wait_for_selector('body[data-run-status="none"]', timeout=WAIT_MS)
        missing = lena.evaluate("() => import('/static/play/crawler/run-i18n.js')"
                                ".then(m => m.missingRunWords())")
        assert missing == []

        # when lena opens a lobby and mira and olek join it (olek by keyboard)
        run_id = open_lobby(pages, api, ids,
                            lambda d: d.npc is not None and layout(d) == [COMPLETION_ROOMS])

        # then each sees the junk dealer's offer the API makes them; lena and mira take a weapon, olek refuses
        for name in NAMES:
            page = pages[name]
            offer = api[name].get(f"runs/{run_id}/offer/")
            page.wait_for_selector("#offer button[data-action=refuse]", timeout=WAIT_MS)
            shown = page.eval_on_selector_all("#offer li[data-item-kind]",
                                              "e => e.map(x => Number(x.dataset.itemKind))")
            assert shown == [item["id"] for item in offer]
            if name == "olek":
                page.click("#offer button[data-action=refuse]")
            else:
                page.click("#offer li[data-item-kind] >> nth=0 >> button[data-action=take_weapon]")
            page.wait_for_selector("#offer li[data-choice]", timeout=WAIT_MS)
        choices = {m["player"]: m["weapon_choice"] for m in api["lena"].get(f"runs/{run_id}/")["members"]}
        assert choices == {ids["lena"]: "taken", ids["mira"]: "taken", ids["olek"]: "refused"}

        # then lena's lobby shows the others' choices as they make them (their notices, no reload)
        for name, choice in choices.items():
            lena.wait_for_selector(f'#lobby-members li[data-member="{name}"][data-choice="{choice}"]',
                                   timeout=WAIT_MS)
        lena.wait_for_selector('body[data-busy="0"]')  # no later redraw undoes the keys

        # when lena puts olek in front by keyboard (Up twice) and mira behind him by drag, and saves
        lena.wait_for_selector(f'#formation li[data-player="{ids["olek"]}"]')
        lena.focus(f'#formation li[data-player="{ids["olek"]}"]')
        lena.keyboard.press("ArrowUp")
        lena.keyboard.press("ArrowUp")
        lena.drag_and_drop(f'#formation li[data-player="{ids["mira"]}"]',
                           f'#formation li[data-player="{ids["lena"]}"]')
        order = lena.eval_on_selector_all("#formation li", "e => e.map(x => Number(x.dataset.player))")
        assert order == [ids["olek"], ids["mira"], ids["lena"]]
        lena.click("#run-lobby button[data-action=formation]")
        lena.wait_for_function("() => !document.body.dataset.busy || document.body.dataset.busy === '0'")
        members = api["lena"].get(f"runs/{run_id}/")["members"]
        assert [m["player"] for m in sorted(members, key=lambda m: m["position"])] == order
        shot(lena, "run-lobby")

        # when lena starts the run, every page goes in live (the run stream's header)
        lena.click("#run-lobby button[data-action=start]")
        wait_all(pages, 'body[data-run-status="active"]')
        wait_all(pages, '#run-live[data-live="1"]')

        # then the party plays room by room; each page shows what the API has
        movers = iter(NAMES * 4)
        looted = drunk = rearranged = False
        for _ in range(12):
            state = check_run(pages, api["lena"], run_id)
            if state["status"] != "active":
                break
            room = state["current_room"]
            if room["battle"] and room["battle"]["outcome"] == "ongoing":
                fight(pages, api, ids, room["battle"]["id"], drinker="olek")
                continue
            if room["kind"] == "treasure" and not looted:
                looted = True
                # the escape is offered where it is allowed (a treasure room), as the API lists it
                for name in NAMES:
                    allowed = {a["kind"] for a in api[name].get(f"runs/{run_id}/")["allowed_actions"]}
                    assert "escape" in allowed
                    pages[name].wait_for_selector("#run-moves button[data-action=escape]")
                shot(lena, "run")
                loot = [item for item in room["loot"] if item["taken_by"] is None]
                assert loot, room
                # olek, carrying two weapons already, is refused: his page shows the API's own message
                olek.click(f'#run-loot li[data-loot="{loot[0]["id"]}"] button[data-action=take_loot]')
                olek.wait_for_selector('#message[data-kind="error"]')
                refused = api["olek"].refusal(f'runs/{run_id}/loot/{loot[0]["id"]}/take/')
                assert refused["code"] == "weapon_limit"
                assert olek.get_attribute("#message", "data-code") == refused["code"]
                assert olek.inner_text("#message") == refused["message"]
                # mira picks it up; her carry line is the API's
                mira.click(f'#run-loot li[data-loot="{loot[0]["id"]}"] button[data-action=take_loot]')
                mira.wait_for_selector(f'#run-loot li[data-loot="{loot[0]["id"]}"][data-taken="1"]')
                carry = api["mira"].get("me/")["carry"]
                assert f'weight {carry["weight"]} / {carry["capacity"]}' in mira.inner_text("#run-carry")
            if room["kind"] == "rest" and not rearranged:
                # a rest room lets the party change its formation: lena moves herself to the front with the
                # arrow buttons and saves; every page sees the change live
                rearranged = True
                for _ in range(2):
                    lena.click(f'#run-room #formation li[data-player="{ids["lena"]}"] button[data-move="up"]')
                lena.click("#run-room #formation-box button[data-action=formation]")
                wait_all(pages, '#run-log li[data-kind="formation"]')
                members = api["lena"].get(f"runs/{run_id}/")["members"]
                assert [m["player"] for m in sorted(members, key=lambda m: m["position"])] == \
                    [ids["lena"], ids["olek"], ids["mira"]]
            offered = api["mira"].get(f"runs/{run_id}/")["allowed_actions"]
            if not drunk and any(a["kind"] == "drink" for a in offered):
                # a potion between rooms: the entry reaches every page live
                drunk = True
                mira.click("#run-potions button[data-action=drink]")
                drink = '#run-log li[data-origin="run"][data-kind="potion_drunk"]'
                mira.wait_for_selector(drink, state="attached", timeout=WAIT_MS)
                events = api["mira"].get(f"runs/{run_id}/")["events"]
                seq = next(e["seq"] for e in events if e["kind"] == "potion_drunk" and e["origin"] == "run")
                wait_all(pages, f'{drink}[data-seq="{seq}"]')
            advance = next((a for a in state["allowed_actions"] if a["kind"] == "advance"), None)
            assert advance is not None, state
            mover = pages[next(movers)]
            mover.click("#run-moves button[data-action=advance]")
            wait_all(pages, f'#run[data-step="{advance["step"] + 1}"]')
        assert looted and drunk and rearranged

        # then the run is completed on every page, with the NPC the API says was rescued for the guild
        final = api["lena"].get(f"runs/{run_id}/")
        assert final["status"] == "completed"
        rescued = next(e["rescued"] for e in final["log"] if e["kind"] == "completed")
        assert rescued
        wait_all(pages, f'#run-end[data-status="completed"] #run-rescued[data-npc="{rescued}"]')
        assert api["lena"].get(f"guilds/{guild_id}/")["rank"] > rank_before
        shown = lena.eval_on_selector_all("#run-log li",
                                          "e => e.map(x => [Number(x.dataset.seq), x.textContent])")
        assert shown == [[e["seq"], e["text"]] for e in api["lena"].get(f"runs/{run_id}/?since=0")["events"]]
        shot(lena, "run-completed")

        # when the party sets out again and, in the first room (treasure), mira leads everyone out
        back_to_lobbies(pages)
        escape_id = open_lobby(pages, api, ids, lambda d: layout(d)[0][0] == "treasure")
        refuse_and_start(pages)
        mira.wait_for_selector("#run-moves button[data-action=escape]", timeout=WAIT_MS)
        mira.click("#run-moves button[data-action=escape]")
        # then the run ended by escape on every page, as the API has it, and nobody was rescued
        wait_all(pages, '#run-end[data-status="escaped"]')
        escaped = check_run(pages, api["lena"], escape_id)
        assert escaped["status"] == "escaped"
        assert {m["status"] for m in escaped["members"]} == {"escaped"}

        # given deadly rats and money to pay Charon with
        bestiary(enemy_hp=60, enemy_damage=500, boss_hp=60, boss_damage=500)
        Player.objects.filter(pk__in=ids.values()).update(money=100)
        back_to_lobbies(pages)
        # when the party opens, joins and starts a run whose first room holds the rats; olek reads in Russian
        death_id = open_lobby(pages, api, ids, lambda d: layout(d)[0][0] == "enemy")
        olek.click("#lang")
        refuse_and_start(pages)
        state = api["lena"].get(f"runs/{death_id}/")
        if state["status"] == "active":
            fight(pages, api, ids, state["current_room"]["battle"]["id"])

        # then the run failed on every page, and each dead member's Charon's fee is the API's
        final = api["lena"].get(f"runs/{death_id}/")
        assert final["status"] == "failed"
        wait_all(pages, '#run-end[data-status="failed"]')
        check_run(pages, api["lena"], death_id)
        for member in final["members"]:
            assert member["status"] == "dead" and member["money_lost"] == 10
            for page in pages.values():
                row = f'#run-members li[data-member="{member["player"]}"] [data-charon]'
                assert page.get_attribute(row, "data-charon") == "10"
        assert Player.objects.get(pk=ids["lena"]).money == 90
        # olek's page tells it in Russian, as the API does
        russian = Api(base, "olek", PASSWORD, language="ru").get(f"runs/{death_id}/?since=0")["events"]
        olek.wait_for_selector(f'#run-log li[data-seq="{russian[-1]["seq"]}"]', state="attached")
        assert olek.inner_text(f'#run-log li[data-seq="{russian[-1]["seq"]}"]') == russian[-1]["text"]
        assert olek.inner_text('.tab[data-tab="run"]') == "Поход"
        battle_id = final["current_room"]["battle"]["id"]
        spoken = Api(base, "olek", PASSWORD, language="ru").get(f"battles/{battle_id}/")["events"]
        olek.wait_for_selector(f'#battle-log li[data-seq="{spoken[-1]["seq"]}"]', state="attached")
        assert olek.inner_text(f'#battle-log li[data-seq="{spoken[-1]["seq"]}"]') == spoken[-1]["text"]
        assert olek.text_content("#run-end h3") == "Поход окончен: провален (погибла вся группа)."
        shot(lena, "run-death")
