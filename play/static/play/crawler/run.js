// The crawler's run screens (SPEC 16, issue 29): the run lobby (open or join, the party, the junk dealer's
// offer, the formation by drag or keyboard, start), the run (the dungeon drawn as it is revealed, each
// room's outcome, loot with carry limits, potions between rooms, escape where allowed, death with Charon's
// fee, completion with the rescued NPC), and the room's battle (./battle.js). The run protocol of
// docs/runs.md: `GET runs/{id}/?since=N` (events, `allowed_actions`, `awaiting`, `deadline`), read again
// whenever the run's stream (`GET runs/{id}/stream/`, the client's subscribe) says something happened: no
// polling while it is open. Every action is one of the run's `allowed_actions`, sent back unchanged.
import { h, oneAtATime } from "./dom.js";
import { runWord } from "./run-i18n.js";
import { mountBattle } from "./battle.js";

/** @typedef {import("../../client/deepdelve.js").Schemas} Schemas */
/** @typedef {import("../../client/deepdelve.js").Client} Client */
/** @typedef {import("../../client/deepdelve.js").Subscription} Subscription */
/** @typedef {Schemas["RunOutput"]} Run */
/** @typedef {Schemas["RunListItem"]} LobbyItem */
/** @typedef {Schemas["RunMemberOutput"]} Member */
/** @typedef {Schemas["RunActionOutput"]} RunAction */
/** @typedef {Schemas["OfferItemOutput"]} OfferItem */
/** @typedef {Schemas["MeOutput"]} Me */
/** @typedef {import("./i18n.js").Lang} Lang */
/**
 * A run event as the page uses it (every kind of RunEvent has these).
 * @typedef {{ seq: number, kind: string, text: string, origin?: string, rescued?: string | null }} Spoken
 */
/**
 * What the home gives the run screens.
 * @typedef {object} Context
 * @property {Client} api
 * @property {() => Lang} lang
 * @property {(action: () => Promise<unknown>) => Promise<void>} run  runs a user action, showing its refusal
 * @property {(text: string, kind?: "error" | "info", code?: string) => void} say
 * @property {HTMLElement} pane  the run tab's section
 */

/** Every `event:` a run stream sends (the run log's kinds, the battle events' kinds) and its `run` header. */
const STREAM_KINDS = [
  "run", "started", "entered", "battle", "battle_over", "trap", "treasure", "story_items", "sealed", "seal_opened",
  "npc_joined", "npc_died", "rested", "formation", "potion_drunk", "died", "escaped", "failed", "completed",
  "battle_started", "round_started", "turn_started", "extra_turn", "turn_skipped", "turn_ended", "attack", "miss",
  "critical", "damage", "healed", "curse_struck", "stat_raised", "weapon_switched", "effect_applied",
  "effect_extended", "effect_cancelled", "effect_replaced", "effect_blocked", "effect_expired", "death", "fled",
];
const OVER = ["completed", "failed", "escaped", "cancelled"];

/** @param {Context} ctx */
export function mountRun(ctx) {
  const { api, pane } = ctx;
  /** @param {string} key @param {Record<string, string | number>} [values] */
  const t = (key, values) => runWord(ctx.lang(), key, values);

  const state = {
    /** @type {number | null} */
    runId: null,
    /** @type {Run | null} */
    run: null,
    /** @type {Me | null} */
    me: null,
    lastEvent: 0,
    /** @type {Set<number>} */
    shown: new Set(),
    /** @type {Subscription | null} */
    stream: null,
    /** the open lobbies, live while they are shown (`GET runs/lobbies/stream/`) */
    /** @type {Subscription | null} */
    lobbies: null,
    /** the formation being arranged (player ids, first in front) */
    /** @type {number[]} */
    formation: [],
    /** the user moved someone and has not saved yet: a read keeps their order */
    arranging: false,
  };

  // --- the pane's parts ----------------------------------------------------------------------------------

  /** @param {string} key @param {string} [tag] */
  const label = (key, tag = "h3") => h(tag, { "data-run-i18n": key }, t(key));
  /** A button of the run screens. @param {string} action @param {string} text @param {() => Promise<unknown>} then */
  const act = (action, text, then, cls = "") => {
    const element = h("button", { type: "button", class: cls, "data-action": action }, text);
    element.addEventListener("click", () => { void ctx.run(then); });
    return element;
  };

  const live = h("span", { id: "run-live", class: "badge", "data-live": "0" }, t("run_offline"));
  const reloadButton = h("button", { type: "button", id: "run-reload", class: "link", "data-run-i18n": "reload" },
    t("reload"));
  reloadButton.addEventListener("click", () => { void ctx.run(show); });

  const lobbies = h("ul", { id: "run-lobbies", class: "rows" });
  const noLobbies = h("p", { id: "run-no-lobbies", class: "hint", "data-run-i18n": "no_lobbies" }, t("no_lobbies"));
  const kindSelect = h("select", { name: "kind" });
  const openForm = /** @type {HTMLFormElement} */ (h("form", { id: "run-open-form" },
    h("label", {}, h("span", { "data-run-i18n": "kind" }, t("kind")), kindSelect),
    h("button", { type: "submit", "data-run-i18n": "open_button" }, t("open_button"))));
  const browse = h("div", { id: "run-browse" }, label("open_run"), openForm, label("lobbies"), lobbies, noLobbies);

  const party = h("ul", { id: "lobby-members", class: "rows" });
  const offer = h("ul", { id: "offer", class: "rows" });
  const formation = h("ol", { id: "formation", class: "rows formation" });
  const saveFormation = act("formation", t("save_formation"), async () => {
    if (!state.run) return;
    await api.put("/api/v1/runs/{run_id}/formation/", { path: { run_id: state.run.id },
      body: { players: state.formation } });
    state.arranging = false;
    await read();
  }, "secondary");
  saveFormation.dataset.runI18n = "save_formation";
  // the formation is arranged in the lobby and in a rest room: the box moves to where it is offered
  const formationBox = h("div", { id: "formation-box" }, label("formation"), h("p", { class: "hint",
    "data-run-i18n": "formation_hint" }, t("formation_hint")), formation, h("div", { class: "buttons" },
    saveFormation));
  const lobbyButtons = h("div", { class: "buttons" });
  const lobby = h("div", { id: "run-lobby", hidden: "" }, label("lobby", "h2"), label("party"), party,
    label("offer"), offer, formationBox, lobbyButtons);

  const dungeon = h("div", { id: "dungeon", class: "dungeon" });
  const members = h("ul", { id: "run-members", class: "rows" });
  const npc = h("p", { id: "run-npc", hidden: "" });
  const room = h("div", { id: "run-room" });
  const battlePane = h("div", { id: "battle", hidden: "" });
  const log = h("ol", { id: "run-log", class: "log", "aria-live": "polite" });
  const end = h("div", { id: "run-end", class: "end", hidden: "" });
  const inside = h("div", { id: "run-inside", hidden: "" }, end, label("dungeon"), dungeon, label("members"),
    members, npc, label("room"), room, battlePane, label("log"), log);

  pane.replaceChildren(h("div", { class: "pane-head" }, label("run_title", "h2"), live, reloadButton), browse,
    lobby, inside);

  const battle = mountBattle({ api: ctx.api, lang: ctx.lang, run: ctx.run, pane: battlePane,
    after: () => read() });

  openForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const kind = /** @type {"ordinary" | "frenzy"} */ (String(new FormData(openForm).get("kind") || "ordinary"));
    void ctx.run(async () => {
      const opened = await api.post("/api/v1/runs/", { body: { kind } });
      await enter(opened.id);
    });
  });

  // --- which screen --------------------------------------------------------------------------------------

  /** The tab opened (or refreshed): the caller's current run if any, else the open lobbies. */
  async function show() {
    if (state.runId === null) {
      const mine = await api.get("/api/v1/runs/");
      const current = mine.results.find((run) => run.status === "lobby" || run.status === "active");
      if (current) {
        await enter(current.id);
        return;
      }
      await showBrowse();
      return;
    }
    await read();
  }

  async function showBrowse() {
    stopStream();
    state.runId = null;
    state.run = null;
    battle.clear();
    document.body.dataset.runStatus = "none";
    browse.hidden = false;
    lobby.hidden = true;
    inside.hidden = true;
    kindSelect.replaceChildren(...["ordinary", "frenzy"].map((kind) => h("option", { value: kind }, t(kind))));
    // the open lobbies come on their stream: when it opens and whenever one opens, starts or is cancelled
    state.lobbies = api.subscribe("/api/v1/runs/lobbies/stream/", {
      kinds: ["lobbies"],
      onMessage: (_kind, data) => drawLobbies(/** @type {{ results: LobbyItem[] }} */ (data).results),
    });
  }

  /** The open lobbies, each to join. @param {LobbyItem[]} items */
  function drawLobbies(items) {
    lobbies.replaceChildren(...items.map((item) => h("li", { "data-run": String(item.id) },
      h("span", { class: "grow" }, `#${item.id} · ${t(item.kind)} · ${t("host")}: ${item.host_username}`),
      act("join", t("join"), async () => {
        await api.post("/api/v1/runs/{run_id}/join/", { path: { run_id: item.id } });
        await enter(item.id);
      }))));
    noLobbies.hidden = items.length > 0;
  }

  /** Shows a run from its beginning and follows it live. @param {number} runId */
  async function enter(runId) {
    stopStream();
    state.runId = runId;
    state.run = null;
    state.lastEvent = 0;
    state.shown = new Set();
    state.formation = [];
    state.arranging = false;
    log.replaceChildren();
    battle.clear();
    await read();
    startStream(runId);
  }

  // --- reading the run -----------------------------------------------------------------------------------

  /** Reads what is new of the run (and its battle) and draws it; one read at a time, repeated if asked meanwhile. */
  const read = oneAtATime(async () => {
    /** @type {number | null} */
    const runId = state.runId;
    if (runId === null) return;
    const run = await api.get("/api/v1/runs/{run_id}/", { path: { run_id: runId },
      query: { since: state.lastEvent } });
    if (state.runId !== runId) return; // another run was entered meanwhile (it asked for a read)
    state.run = run;
    for (const event of run.events) addEvent(/** @type {Spoken} */ (/** @type {unknown} */ (event)));
    state.lastEvent = Math.max(state.lastEvent, run.last_event);
    // what the caller carries (the carry line, the potions' names): only where loot lies or a potion is offered
    const room = run.current_room;
    if ((room && room.loot.length) || run.allowed_actions.some((a) => a.kind === "drink" || a.kind === "take_loot")) {
      state.me = await api.get("/api/v1/me/");
    }
    await draw(run);
  });

  /** One event in the run's log, once. @param {Spoken} event */
  function addEvent(event) {
    if (state.shown.has(event.seq)) return;
    state.shown.add(event.seq);
    state.lastEvent = Math.max(state.lastEvent, event.seq);
    log.append(h("li", { "data-seq": String(event.seq), "data-kind": event.kind,
      "data-origin": event.origin || "run" }, event.text));
    log.scrollTop = log.scrollHeight;
  }

  /** @param {Run} run */
  async function draw(run) {
    document.body.dataset.runStatus = run.status;
    pane.dataset.run = String(run.id);
    pane.dataset.step = String(run.step);
    pane.dataset.lastEvent = String(state.lastEvent);
    browse.hidden = true;
    lobby.hidden = run.status !== "lobby";
    inside.hidden = run.status === "lobby";
    if (run.status === "lobby") {
      await drawLobby(run);
      return;
    }
    drawDungeon(run);
    drawMembers(run);
    drawRoom(run);
    drawEnd(run);
    const current = run.current_room;
    if (current && current.battle) await battle.load(current.battle.id);
    else battle.clear();
  }

  // --- the lobby -----------------------------------------------------------------------------------------

  /** @param {Run} run */
  async function drawLobby(run) {
    const mine = api.me.id;
    const ordered = [...run.members].sort((a, b) => a.position - b.position);
    party.replaceChildren(...ordered.map((member) => h("li", { "data-member": String(member.player),
      "data-choice": member.weapon_choice },
    h("span", { class: "grow" }, member.username, member.player === run.host ? h("span", { class: "badge" }, t("host"))
      : ""), h("small", {}, t(member.weapon_choice)))));
    lobby.insertBefore(formationBox, lobbyButtons);
    drawFormation(run);
    const me = run.members.find((member) => member.player === mine);
    offer.replaceChildren();
    if (me && me.weapon_choice === "pending") {
      const items = await api.get("/api/v1/runs/{run_id}/offer/", { path: { run_id: run.id } });
      offer.append(...items.map((item) => h("li", { "data-item-kind": String(item.id) },
        h("span", { class: "grow" }, `${item.name} `, h("small", {}, `${item.sub_kind} · ${item.damage} · ${item.weight}`)),
        act("take_weapon", t("take_weapon"), () => chooseWeapon(run.id, item.id)))));
      if (!items.length) offer.append(h("li", { class: "hint" }, t("no_offer")));
      offer.append(h("li", {}, act("refuse", t("refuse"), () => chooseWeapon(run.id, null), "secondary")));
    } else if (me) {
      offer.append(h("li", { class: "hint", "data-choice": me.weapon_choice }, t(me.weapon_choice)));
    }
    lobbyButtons.replaceChildren(
      ...(run.host === mine ? [act("start", t("start"), async () => {
        await api.post("/api/v1/runs/{run_id}/start/", { path: { run_id: run.id } });
        await read();
      })] : []),
      act("leave", t("leave_lobby"), async () => {
        await api.post("/api/v1/runs/{run_id}/leave/", { path: { run_id: run.id } });
        await showBrowse();
      }, "secondary"));
  }

  /** @param {number} runId @param {number | null} itemKind */
  async function chooseWeapon(runId, itemKind) {
    await api.post("/api/v1/runs/{run_id}/weapon/", { path: { run_id: runId }, body: { item_kind: itemKind } });
    await read();
  }

  /** The formation as a list: drag a name, or Up / Down on it, or its arrow buttons. @param {Run} run */
  function drawFormation(run) {
    const names = new Map(run.members.map((member) => [member.player, member.username]));
    const ids = [...run.members].sort((a, b) => a.position - b.position).map((member) => member.player);
    // the server's order, unless the user is arranging one (and the party is still the same)
    if (!state.arranging || state.formation.length !== ids.length || !ids.every((id) => state.formation.includes(id))) {
      state.formation = ids;
      state.arranging = false;
    }
    /** @param {number} from @param {number} to */
    const move = (from, to) => {
      if (to < 0 || to >= state.formation.length || from === to) return;
      const [player] = state.formation.splice(from, 1);
      state.formation.splice(to, 0, player);
      state.arranging = true;
      drawFormation(run);
      const moved = formation.querySelector(`li[data-player="${player}"]`);
      if (moved instanceof HTMLElement) moved.focus();
    };
    formation.replaceChildren(...state.formation.map((player, index) => {
      const up = h("button", { type: "button", class: "secondary", "data-move": "up", "aria-label": t("up") }, "↑");
      const down = h("button", { type: "button", class: "secondary", "data-move": "down", "aria-label": t("down") }, "↓");
      up.addEventListener("click", () => move(index, index - 1));
      down.addEventListener("click", () => move(index, index + 1));
      const row = h("li", { "data-player": String(player), draggable: "true", tabindex: "0" },
        h("span", { class: "grow" }, names.get(player) || `#${player}`), up, down);
      row.addEventListener("keydown", (event) => {
        if (event.target !== row) return;
        if (event.key === "ArrowUp") move(index, index - 1);
        else if (event.key === "ArrowDown") move(index, index + 1);
        else return;
        event.preventDefault();
      });
      row.addEventListener("dragstart", (event) => {
        if (event.dataTransfer) event.dataTransfer.setData("text/plain", String(index));
      });
      row.addEventListener("dragover", (event) => event.preventDefault());
      row.addEventListener("drop", (event) => {
        event.preventDefault();
        const from = Number(event.dataTransfer ? event.dataTransfer.getData("text/plain") : NaN);
        if (Number.isInteger(from)) move(from, index);
      });
      return row;
    }));
  }

  // --- inside the dungeon --------------------------------------------------------------------------------

  /** Floors and rooms as far as they are revealed: the kinds entered, the rest unknown, the party's place. @param {Run} run */
  function drawDungeon(run) {
    const here = run.current_room;
    dungeon.replaceChildren(...run.floors.map((floor) => h("div", { class: "floor", "data-floor": String(floor.floor) },
      h("span", { class: "floor-name" }, t("floor", { floor: floor.floor + 1 })),
      h("ol", { class: "rooms" }, ...Array.from({ length: floor.rooms }, (_, index) => {
        const kind = floor.visited[index];
        const current = Boolean(here && here.floor === floor.floor && here.room === index);
        return h("li", { "data-room": String(index), "data-kind": kind || "unknown", "data-current": current ? "1" : "0",
          title: current ? t("here") : (kind ? t(kind) : t("room_unknown")) }, kind ? t(kind) : "?");
      })))));
  }

  /** @param {Run} run */
  function drawMembers(run) {
    members.replaceChildren(...[...run.members].sort((a, b) => a.position - b.position).map((member) => {
      const kills = Object.values(member.kills).reduce((sum, n) => sum + n, 0);
      const row = h("li", { "data-member": String(member.player), "data-status": member.status },
        h("span", { class: "grow" }, member.username, " ", h("small", {}, t(member.status))),
        h("span", { "data-hp": "" }, `${member.hp} / ${member.max_hp}`),
        h("small", {}, `${t("kills")} ${kills}`));
      for (const effect of member.pending_effects) {
        row.append(h("span", { class: "effect", "data-pending": effect.name },
          `${t(`effect_${effect.name}`)} (${t("effects_next")})`));
      }
      if (member.status === "dead") {
        row.append(h("span", { class: "reason", "data-charon": String(member.money_lost) },
          t("charon", { name: member.username, money: member.money_lost, items: member.items_lost })));
      }
      return row;
    }));
    npc.hidden = !run.npc;
    if (run.npc) {
      npc.dataset.npc = run.npc.kind;
      npc.textContent = `${t("npc")}: ${t(`npc_${run.npc.kind}`)} · ${t("hp")} ${run.npc.hp} / ${run.npc.max_hp}`;
    }
  }

  /** The room's outcome, its loot with the carry limits, potions, and the moves the run allows. @param {Run} run */
  function drawRoom(run) {
    const current = run.current_room;
    room.replaceChildren();
    if (!current) return;
    const allowed = run.allowed_actions;
    room.dataset.kind = current.kind;
    room.dataset.cleared = current.cleared ? "1" : "0";
    room.append(h("p", {}, h("strong", {}, t(current.kind)), ` · ${current.cleared ? t("cleared") : t("not_cleared")}`));
    const names = new Map(run.members.map((member) => [member.player, member.username]));
    if (current.loot.length || allowed.some((a) => a.kind === "take_loot")) {
      room.append(h("h4", {}, t("loot")));
      const me = state.me;
      if (me) {
        const c = me.carry;
        room.append(h("p", { class: "hint", id: "run-carry" }, t("carry", { weight: c.weight, capacity: c.capacity,
          weapons: c.weapons, weapon_limit: c.weapon_limit, potions: c.potions, potion_limit: c.potion_limit })));
      }
      room.append(h("ul", { id: "run-loot", class: "rows" }, ...current.loot.map((loot) => {
        const takeable = allowed.some((a) => a.kind === "take_loot" && a.loot === loot.id);
        return h("li", { "data-loot": String(loot.id), "data-taken": loot.taken_by === null ? "0" : "1",
          "data-allowed": takeable ? "1" : "0" },
        h("span", { class: "grow" }, `${loot.item_kind.name} `,
          h("small", {}, `${loot.item_kind.category} · ${loot.item_kind.weight}`)),
        loot.taken_by === null
          ? act("take_loot", t("take"), async () => {
            await api.post("/api/v1/runs/{run_id}/loot/{loot_id}/take/", { path: { run_id: run.id, loot_id: loot.id } });
            await read();
          })
          : h("small", {}, t("taken_by", { name: names.get(loot.taken_by) || `#${loot.taken_by}` })));
      })));
    }
    const drinks = allowed.filter((a) => a.kind === "drink");
    if (drinks.length) {
      const inventory = new Map((state.me ? state.me.inventory : []).map((item) => [item.id, item.item_kind.name]));
      room.append(h("h4", {}, t("potions")), h("div", { id: "run-potions", class: "buttons" }, ...drinks.map((action) => {
        const potion = Number(action.potion);
        const button = act("drink", `${t("drink")}: ${inventory.get(potion) || `#${potion}`}`, async () => {
          await api.post("/api/v1/runs/{run_id}/drink/", { path: { run_id: run.id }, body: { potion } });
          await read();
        }, "secondary");
        button.dataset.potion = String(potion);
        return button;
      })));
    }
    const mine = run.members.find((member) => member.player === api.me.id);
    if (current.kind === "rest" && run.status === "active" && mine && mine.status === "in_dungeon") {
      room.append(formationBox);  // a rest room lets the party change its formation
      drawFormation(run);
    }
    const moves = h("div", { class: "buttons", id: "run-moves" });
    for (const action of allowed) {
      const step = Number(action.step);
      if (action.kind === "advance") {
        moves.append(act("advance", t("advance"), async () => {
          await api.post("/api/v1/runs/{run_id}/advance/", { path: { run_id: run.id }, body: { step } });
          await read();
        }));
      } else if (action.kind === "escape") {
        moves.append(act("escape", t("escape"), async () => {
          await api.post("/api/v1/runs/{run_id}/escape/", { path: { run_id: run.id }, body: { step } });
          await read();
        }, "secondary"));
      }
    }
    room.append(moves);
  }

  /** The end of the run: how it ended, the rescued NPC, Charon's fees. @param {Run} run */
  function drawEnd(run) {
    const over = OVER.includes(run.status);
    end.hidden = !over;
    if (!over) return;
    end.dataset.status = run.status;
    const completed = /** @type {Spoken | undefined} */ (/** @type {unknown} */ (
      run.log.find((entry) => entry.kind === "completed")));
    const rescued = completed && completed.rescued ? completed.rescued : null;
    end.replaceChildren(h("h3", {}, t("ended", { status: t(run.status) })));
    if (run.status === "completed") {
      end.append(h("p", { id: "run-rescued", "data-npc": rescued || "" },
        rescued ? t("rescued", { npc: t(`npc_${rescued}`) }) : t("no_rescue")));
    }
    end.append(act("back", t("back"), showBrowse, "secondary"));
  }

  // --- live ----------------------------------------------------------------------------------------------

  /** @param {number} runId */
  function startStream(runId) {
    stopStream();
    state.stream = api.subscribe("/api/v1/runs/{run_id}/stream/", {
      path: { run_id: runId },
      kinds: STREAM_KINDS,
      since: () => state.lastEvent,
      // a message says something happened; its words are read with the run (an EventSource cannot send the
      // page's Accept-Language, so the stream's own `text` may be in another language than the page's)
      onMessage: () => {
        if (state.runId === runId) void ctx.run(read);
      },
      onLive: (on) => {
        live.dataset.live = on ? "1" : "0";
        live.textContent = t(on ? "run_live" : "run_offline");
      },
      done: () => Boolean(state.run && OVER.includes(state.run.status)),
    });
  }

  /** Stops following: the run's stream, and the open lobbies' stream. */
  function stopStream() {
    if (state.stream) state.stream.close();
    if (state.lobbies) state.lobbies.close();
    state.stream = null;
    state.lobbies = null;
  }

  /** The language changed: every word is drawn again. */
  async function translate() {
    for (const element of [...pane.querySelectorAll("[data-run-i18n]"), ...formationBox.querySelectorAll("[data-run-i18n]")]) {
      if (element instanceof HTMLElement && element.dataset.runI18n) element.textContent = t(element.dataset.runI18n);
    }
    live.textContent = t(live.dataset.live === "1" ? "run_live" : "run_offline");
    if (state.runId === null) {
      if (!browse.hidden) await showBrowse();
      return;
    }
    // the events' texts come from the server in the new language: read them all again
    state.lastEvent = 0;
    state.shown = new Set();
    log.replaceChildren();
    battle.clear();
    await read();
  }

  /** Signed out: nothing more is followed. */
  function stop() {
    stopStream();
    state.runId = null;
    state.run = null;
  }

  /**
   * The user's notices said the lobby of `runId` changed (a member joined, left, chose a weapon, or set the
   * formation): not a step of the run, so its stream is silent; the run on screen is read again.
   * @param {number} runId
   */
  async function changed(runId) {
    if (state.runId === runId) await read();
  }

  return { show, translate, stop, changed };
}
