// The Labyrinth of Darkness (SPEC 16, issue 29; docs/darkness.md): the guild's explored map, a darkness
// lobby (open, join, a starting weapon, start), and the run: the map as the party reveals it, the torch,
// moves through the open passages the API lists, camps (relight, escape), the current room, its battle
// in a plain view, the members and the run's events. Live through GET runs/{id}/stream/ (the typed
// client's subscribe): any event or header message re-reads the run after the last event seen, so other
// members' moves appear with no polling. Every refusal shows the API's message (the home's `run`).
import { oneAtATime, replaceKeepingFocus } from "./dom.js";
import { addWords } from "./i18n.js";

/** @typedef {import("../../client/deepdelve.js").Schemas} Schemas */
/** @typedef {import("../../client/deepdelve.js").Subscription} Subscription */
/** @typedef {import("./npcs.js").Ui} Ui */
/** @typedef {Schemas["RunListItem"]} LobbyItem */
/** @typedef {Schemas["RunOutput"]} Run */
/** @typedef {Schemas["RunActionOutput"]} RunAction */
/** @typedef {Schemas["RunEvent"]} RunEvent */
/** @typedef {Schemas["DarknessRoomOutput"]} Room */
/** @typedef {Schemas["DarknessCellOutput"]} Cell */
/** @typedef {Schemas["BattleOutput"]} Battle */
/** @typedef {"UP" | "LEFT" | "DOWN" | "RIGHT"} Direction */

addWords({
  tab_darkness: "Labyrinth", dk_title: "The Labyrinth of Darkness", dk_no_guild: "The labyrinth is a guild's: join one first.",
  dk_known: "The guild knows {explored} of {rooms} rooms ({rows} × {cols}, {sections} sections).",
  dk_open: "Open a darkness lobby", dk_lobbies: "Darkness lobbies", dk_no_lobbies: "No open darkness lobby.",
  dk_join: "Join", dk_host: "host {name}", dk_refresh: "Refresh", dk_lobby: "Lobby of run {run}",
  dk_weapon: "Starting weapon", dk_no_weapon: "none", dk_take_weapon: "Choose", dk_start: "Start",
  dk_leave: "Leave the lobby", dk_chosen: "chose: {choice}", dk_torch: "Torch", dk_torch_left: "{left} of {length}",
  dk_bearer: "carried by {name}", dk_position: "Position", dk_place: "row {row}, column {col}, section {section}",
  dk_room: "Room", dk_cleared: "cleared", dk_not_cleared: "not cleared", dk_step: "Step", dk_status: "Run",
  dk_moves: "Moves", dk_escape: "Leave the labyrinth", dk_drink: "Drink {name}", dk_take: "Take {name}",
  dk_members: "The party", dk_events: "What happened", dk_back: "Back to the labyrinth",
  dk_battle: "Battle {battle}: {outcome}", dk_your_turn: "Your turn.", dk_waiting: "Waiting for {name}.",
  dk_no_moves: "No move now.", dk_map_label: "The map: {explored} rooms known; the party at row {row}, column {col}.",
  dk_guild_map_label: "The guild's map: {explored} rooms known.",
  UP: "↑ up", LEFT: "← left", DOWN: "↓ down", RIGHT: "→ right",
  place_entrance: "entrance", place_camp: "camp", place_heart: "heart", place_teleport: "teleport",
  place_rubber: "rubber room", place_stun: "stun cell", place_room: "room",
  run_lobby: "lobby", run_active: "under way", run_completed: "completed", run_failed: "failed",
  run_escaped: "escaped", run_cancelled: "cancelled",
  member_joined: "in the lobby", member_in_dungeon: "inside", member_dead: "dead", member_escaped: "escaped",
  member_finished: "finished", member_left: "left", choice_pending: "not yet", choice_taken: "a weapon",
  choice_refused: "none", room_enemy: "enemies", room_trap: "a trap", room_treasure: "a treasure",
  room_story: "a story room", room_rest: "a rest room", room_boss: "the boss", room_empty: "empty",
  outcome_ongoing: "under way", outcome_victory: "won", outcome_defeat: "lost", outcome_escaped: "fled",
  outcome_draw: "a draw", act_attack: "attack", act_drink: "drink", act_switch_weapon: "switch to weapon",
  act_skip: "skip the turn", act_flee: "flee", dk_go_first: "Go first and carry the torch",
}, {
  tab_darkness: "Лабиринт", dk_title: "Лабиринт Тьмы", dk_no_guild: "Лабиринт принадлежит гильдии: сначала вступите в неё.",
  dk_known: "Гильдия знает {explored} из {rooms} комнат ({rows} × {cols}, секций: {sections}).",
  dk_open: "Открыть лобби Лабиринта", dk_lobbies: "Лобби Лабиринта", dk_no_lobbies: "Открытых лобби Лабиринта нет.",
  dk_join: "Войти", dk_host: "хозяин {name}", dk_refresh: "Обновить", dk_lobby: "Лобби похода {run}",
  dk_weapon: "Стартовое оружие", dk_no_weapon: "без оружия", dk_take_weapon: "Выбрать", dk_start: "Начать",
  dk_leave: "Покинуть лобби", dk_chosen: "выбор: {choice}", dk_torch: "Факел", dk_torch_left: "{left} из {length}",
  dk_bearer: "несёт {name}", dk_position: "Место", dk_place: "ряд {row}, столбец {col}, секция {section}",
  dk_room: "Комната", dk_cleared: "пройдена", dk_not_cleared: "не пройдена", dk_step: "Шаг", dk_status: "Поход",
  dk_moves: "Ходы", dk_escape: "Покинуть лабиринт", dk_drink: "Выпить: {name}", dk_take: "Взять: {name}",
  dk_members: "Отряд", dk_events: "Что произошло", dk_back: "К лабиринту",
  dk_battle: "Бой {battle}: {outcome}", dk_your_turn: "Ваш ход.", dk_waiting: "Ждём: {name}.",
  dk_no_moves: "Сейчас ходить нельзя.", dk_map_label: "Карта: известно комнат {explored}; отряд в ряду {row}, столбце {col}.",
  dk_guild_map_label: "Карта гильдии: известно комнат {explored}.",
  UP: "↑ вверх", LEFT: "← влево", DOWN: "↓ вниз", RIGHT: "→ вправо",
  place_entrance: "вход", place_camp: "лагерь", place_heart: "сердце", place_teleport: "телепорт",
  place_rubber: "резиновая комната", place_stun: "оглушающая клетка", place_room: "комната",
  run_lobby: "лобби", run_active: "идёт", run_completed: "пройден", run_failed: "провален",
  run_escaped: "отступили", run_cancelled: "отменён",
  member_joined: "в лобби", member_in_dungeon: "внутри", member_dead: "погиб(ла)", member_escaped: "вышел(ла)",
  member_finished: "дошёл(ла)", member_left: "ушёл(ла)", choice_pending: "ещё нет", choice_taken: "оружие",
  choice_refused: "без оружия", room_enemy: "враги", room_trap: "ловушка", room_treasure: "сокровищница",
  room_story: "сюжетная комната", room_rest: "комната отдыха", room_boss: "босс", room_empty: "пусто",
  outcome_ongoing: "идёт", outcome_victory: "победа", outcome_defeat: "поражение", outcome_escaped: "бегство",
  outcome_draw: "ничья", act_attack: "атаковать", act_drink: "выпить", act_switch_weapon: "сменить оружие на",
  act_skip: "пропустить ход", act_flee: "бежать", dk_go_first: "Идти первым и нести факел",
});

/** Every kind of the run stream's events (the schema's RunEvent kinds) and its header message `run`. */
const STREAM_KINDS = ["run", "attack", "battle", "battle_over", "battle_started", "completed", "critical",
  "curse_struck", "damage", "death", "died", "effect_applied", "effect_blocked", "effect_cancelled",
  "effect_expired", "effect_extended", "effect_replaced", "entered", "entered_again", "escaped", "extra_turn",
  "failed", "fled", "formation", "healed", "miss", "moved", "npc_died", "npc_joined", "potion_drunk", "rested",
  "round_started", "seal_opened", "sealed", "started", "stat_raised", "story_items", "torch_out",
  "torch_relit", "torch_taken", "trap", "treasure", "turn_ended", "turn_skipped", "turn_started",
  "turned_away", "weapon_switched"];
/** @type {Direction[]} */
const DIRECTIONS = ["UP", "LEFT", "DOWN", "RIGHT"];
const KEYS = /** @type {Record<string, Direction>} */ ({ ArrowUp: "UP", ArrowLeft: "LEFT", ArrowDown: "DOWN",
  ArrowRight: "RIGHT" });
const LETTERS = /** @type {Record<string, string>} */ ({ entrance: "E", camp: "C", heart: "H", teleport: "T",
  rubber: "R", stun: "S", room: "" });
/** Pixels of one room in the drawing (its viewBox; the drawing scales to the page's width). */
const CELL = 40;
const SVG = "http://www.w3.org/2000/svg";

/** @param {Run} run */
const over = (run) => run.status !== "lobby" && run.status !== "active";

/** @param {Ui} ui */
export function darknessPane(ui) {
  const { api, t, h, $ } = ui;
  /** A button whose success clears the message line: an earlier refusal no longer holds.
   * @param {string} key @param {() => Promise<unknown>} action @param {string} [cls] */
  const button = (key, action, cls) => ui.button(key, async () => {
    await action();
    ui.say("");
  }, cls);
  /** Runs an action of a hand-made control, as `button` does. @param {() => Promise<unknown>} action */
  const act = (action) => ui.run(async () => {
    await action();
    ui.say("");
  });
  const state = {
    /** @type {number | null} */
    guild: null,
    /** @type {Run | null} */
    run: null,
    /** the run shown (a lobby, a run under way or just ended); null: the guild's map */
    /** @type {number | null} */
    runId: null,
    /** the last event of the run shown: reads and the stream resume after it */
    last: 0,
    /** @type {Subscription | null} */
    stream: null,
    /** the open lobbies, live while the hall is shown (`GET runs/lobbies/stream/`) */
    /** @type {Subscription | null} */
    lobbies: null,
  };

  /** @param {number | null} player */
  const nameOf = (player) => {
    const member = state.run ? state.run.members.find((m) => m.player === player) : null;
    return member ? member.username : `#${player}`;
  };

  /** The reads of the run, one after the other. @type {Promise<void>} */
  let reads = Promise.resolve();

  function stop() {
    if (state.stream) state.stream.close();
    if (state.lobbies) state.lobbies.close();
    state.stream = null;
    state.lobbies = null;
  }

  /** Shows the labyrinth: the current darkness run of the player, else the guild's map and lobbies. */
  async function open() {
    const me = ui.me();
    state.guild = me && me.guild ? me.guild.id : null;
    $("dk-none").hidden = state.guild !== null;
    $("dk-hall").hidden = state.guild === null;
    if (state.guild === null) {
      stop();
      return;
    }
    // read whole again: the log in the page's language (a tab opened, the language switched, refresh)
    const runs = await api.get("/api/v1/runs/");
    const current = runs.results.find((r) => r.kind === "darkness" && (r.status === "lobby" || r.status === "active"));
    if (current) await follow(current.id, true);
    else if (state.runId !== null) await read(state.runId, true); // a run that just ended stays until "back"
    else await showHall();
  }

  /** No run: the guild's map, and the darkness lobbies to join or a new one to open. */
  async function showHall() {
    stop();
    state.run = null;
    state.runId = null;
    state.last = 0;
    const guild = state.guild;
    if (guild === null) return;
    $("dk-hall").dataset.view = "hall";
    const maze = await api.get("/api/v1/guilds/{guild_id}/labyrinth/", { path: { guild_id: guild } });
    $("dk-summary").textContent = t("dk_known", { explored: maze.explored, rooms: maze.rows * maze.cols,
      rows: maze.rows, cols: maze.cols, sections: maze.sections });
    $("dk-map").replaceChildren(drawMaze(maze, null, [], t("dk_guild_map_label", { explored: maze.explored })));
    $("dk-map").dataset.explored = String(maze.explored);
    const lobbies = h("div", { id: "dk-lobbies" });
    $("dk-controls").replaceChildren(
      h("div", { class: "buttons" }, button("dk_open", async () => {
        const run = await api.post("/api/v1/runs/", { body: { kind: "darkness" } });
        await follow(run.id);
      }), button("dk_refresh", showHall, "secondary")),
      h("h3", {}, t("dk_lobbies")), lobbies);
    // the open lobbies come on their stream: when it opens and whenever one opens, starts or is cancelled
    state.lobbies = api.subscribe("/api/v1/runs/lobbies/stream/", {
      kinds: ["lobbies"],
      onMessage: (_kind, data) => drawLobbies(lobbies, /** @type {{ results: LobbyItem[] }} */ (data).results),
    });
    $("dk-status").replaceChildren();
    $("dk-members").replaceChildren();
    $("dk-battle").replaceChildren();
    $("dk-log").replaceChildren();
    $("dk-run-part").hidden = true;
  }

  /** The darkness lobbies of the open lobbies' list, each to join. @param {HTMLElement} box @param {LobbyItem[]} all */
  function drawLobbies(box, all) {
    const darkness = all.filter((lobby) => lobby.kind === "darkness");
    box.replaceChildren(darkness.length ? h("ul", { class: "rows" }, ...darkness.map((lobby) => h("li",
      { "data-lobby": String(lobby.id) },
      h("span", { class: "grow" }, `#${lobby.id} · ${t("dk_host", { name: lobby.host_username })}`),
      button("dk_join", async () => {
        await api.post("/api/v1/runs/{run_id}/join/", { path: { run_id: lobby.id } });
        await follow(lobby.id);
      }))))
      : h("p", { class: "hint" }, t("dk_no_lobbies")));
  }

  /**
   * Follows a run: reads it (whole for a new one, or when `whole`), then lives on its stream.
   * @param {number} runId @param {boolean} [whole]
   */
  async function follow(runId, whole = false) {
    const another = state.runId !== runId;
    if (another) {
      stop();
      state.run = null;
      state.runId = runId;
    }
    await read(runId, whole || another);
    const run = state.run;
    if (state.stream || !run || over(run)) return;
    // something happened in the run: one read after the last event shown (reads never overlap)
    const news = oneAtATime(() => read(runId));
    state.stream = api.subscribe("/api/v1/runs/{run_id}/stream/", {
      path: { run_id: runId }, kinds: STREAM_KINDS, since: () => state.last,
      onMessage: () => { void ui.run(news); },
      onLive: (live) => { $("dk-hall").dataset.live = live ? "1" : "0"; },
      done: () => Boolean(state.run && over(state.run)),
    });
  }


  /**
   * Reads the run after the last event shown (`whole`: from the start, the log drawn again). Reads are
   * chained, one after the other, so a read started before the log was cleared cannot add to it after.
   * @param {number} runId @param {boolean} [whole]
   */
  function read(runId, whole = false) {
    const next = reads.catch(() => undefined).then(async () => {
      if (state.runId !== runId) return;
      if (whole) {
        state.last = 0;
        $("dk-log").replaceChildren();
      }
      const run = await api.get("/api/v1/runs/{run_id}/", { path: { run_id: runId }, query: { since: state.last } });
      await absorb(run);
    });
    reads = next;
    return next;
  }

  /** A run view (a read's or an action's answer): its new events go to the log, the rest is drawn. @param {Run} run */
  async function absorb(run) {
    // another run's late answer, or an answer older than what is shown (an action's came first)
    if (state.runId !== run.id || run.last_event < state.last) return;
    const fresh = run.events.filter((event) => event.seq > state.last);
    $("dk-log").prepend(...fresh.reverse().map((event) => h("li", { "data-seq": String(event.seq),
      "data-kind": event.kind, value: String(event.seq) }, event.text)));
    state.last = Math.max(state.last, run.last_event);
    state.run = run;
    render(run);
    if (over(run)) stop();
    await showBattle(run);
  }

  /** @param {Run} run */
  function render(run) {
    const hall = $("dk-hall");
    hall.dataset.view = "run";
    hall.dataset.run = String(run.id);
    hall.dataset.status = run.status;
    hall.dataset.step = String(run.step);
    $("dk-run-part").hidden = false;
    const dark = run.darkness;
    const facts = [h("dt", {}, t("dk_status")), h("dd", { "data-fact": "status" }, `#${run.id} · ${t(`run_${run.status}`)}`),
      h("dt", {}, t("dk_step")), h("dd", { "data-fact": "step" }, String(run.step))];
    if (dark) {
      facts.push(h("dt", {}, t("dk_torch")), h("dd", { "data-fact": "torch", "data-left": String(dark.torch.left) },
        t("dk_torch_left", { left: dark.torch.left, length: dark.torch.length }),
        dark.torch.bearer === null ? "" : ` · ${t("dk_bearer", { name: nameOf(dark.torch.bearer) })}`),
      h("dt", {}, t("dk_position")), h("dd", { "data-fact": "position", "data-row": String(dark.position.row),
        "data-col": String(dark.position.col), "data-kind": dark.position.kind },
      `${t(`place_${dark.position.kind}`)} · ${t("dk_place", { row: dark.position.row, col: dark.position.col,
        section: dark.position.section + 1 })}`));
      $("dk-summary").textContent = t("dk_known", { explored: dark.explored, rooms: dark.rows * dark.cols,
        rows: dark.rows, cols: dark.cols, sections: dark.sections });
      $("dk-map").replaceChildren(drawMaze(dark, dark.position, dark.path,
        t("dk_map_label", { explored: dark.explored, row: dark.position.row, col: dark.position.col })));
      $("dk-map").dataset.explored = String(dark.explored);
    }
    const room = run.current_room;
    if (room) {
      facts.push(h("dt", {}, t("dk_room")), h("dd", { "data-fact": "room", "data-cleared": room.cleared ? "1" : "0" },
        `${t(`room_${room.kind}`)} · ${t(room.cleared ? "dk_cleared" : "dk_not_cleared")}`));
    }
    $("dk-status").replaceChildren(...facts);
    $("dk-members").replaceChildren(...run.members.map((member) => h("li", { "data-member": String(member.player),
      "data-status": member.status },
    h("span", { class: "grow" }, member.username,
      dark && dark.torch.bearer === member.player ? h("span", { class: "badge torch" }, t("dk_torch")) : ""),
    h("small", {}, `${member.hp} / ${member.max_hp} · ${t(`member_${member.status}`)}`),
    run.status === "lobby" ? h("small", {}, ` · ${t("dk_chosen", { choice: t(`choice_${member.weapon_choice}`) })}`) : "")));
    $("dk-controls").replaceChildren(...controls(run));
    if (run.status === "lobby") void ui.run(() => showOffer(run));
  }

  /** What the player can do now: the lobby's buttons, or the run's allowed actions. @param {Run} run */
  function controls(run) {
    const path = { run_id: run.id };
    if (run.status === "lobby") {
      const me = ui.me();
      const parts = [h("h3", {}, t("dk_lobby", { run: run.id })), h("div", { id: "dk-offer" })];
      const buttons = h("div", { class: "buttons" });
      if (me && run.host === me.id) {
        buttons.append(button("dk_start", async () => {
          await absorb(await api.post("/api/v1/runs/{run_id}/start/", { path }));
          await follow(run.id);
        }));
      }
      const order = [...run.members].sort((a, b) => a.position - b.position).map((m) => m.player);
      if (me && order.length > 1 && order[0] !== me.id && order.includes(me.id)) {
        // the first in formation carries the torch (docs/darkness.md): a member may step up to take it
        buttons.append(button("dk_go_first", async () => {
          const players = [me.id, ...order.filter((player) => player !== me.id)];
          await absorb(await api.put("/api/v1/runs/{run_id}/formation/", { path, body: { players } }));
        }, "secondary"));
      }
      buttons.append(button("dk_refresh", () => read(run.id), "secondary"), button("dk_leave", async () => {
        await api.post("/api/v1/runs/{run_id}/leave/", { path });
        await showHall();
      }, "secondary"));
      parts.push(buttons);
      return parts;
    }
    if (over(run)) return [h("div", { class: "buttons" }, button("dk_back", showHall))];
    /** @param {RunAction} action */
    const send = async (action) => {
      if (action.kind === "move" && action.direction && action.step !== undefined) {
        await absorb(await api.post("/api/v1/runs/{run_id}/move/", { path,
          body: { step: action.step, direction: action.direction } }));
      } else if (action.kind === "escape" && action.step !== undefined) {
        await absorb(await api.post("/api/v1/runs/{run_id}/escape/", { path, body: { step: action.step } }));
      } else if (action.kind === "drink" && action.potion !== undefined) {
        await absorb(await api.post("/api/v1/runs/{run_id}/drink/", { path, body: { potion: action.potion } }));
      } else if (action.kind === "take_loot" && action.loot !== undefined) {
        await absorb(await api.post("/api/v1/runs/{run_id}/loot/{loot_id}/take/", { path: { ...path, loot_id: action.loot } }));
      }
      await ui.loadMe();
    };
    const moves = new Map(run.allowed_actions.filter((a) => a.kind === "move").map((a) => [a.direction, a]));
    const pad = h("div", { class: "pad", role: "group", "aria-label": t("dk_moves") }, ...DIRECTIONS.map((direction) => {
      const action = moves.get(direction);
      const element = h("button", { type: "button", "data-move": direction, class: `dir-${direction.toLowerCase()}` },
        t(direction));
      if (action) element.addEventListener("click", () => { void act(() => send(action)); });
      else element.setAttribute("disabled", "");
      return element;
    }));
    const inventory = ui.me() ? ui.me()?.inventory ?? [] : [];
    const loot = run.current_room ? run.current_room.loot : [];
    const others = run.allowed_actions.filter((a) => a.kind !== "move").map((action) => {
      const label = action.kind === "escape" ? t("dk_escape")
        : action.kind === "drink" ? t("dk_drink", { name: inventory.find((i) => i.id === action.potion)?.item_kind.name ?? `#${action.potion}` })
          : t("dk_take", { name: loot.find((l) => l.id === action.loot)?.item_kind.name ?? `#${action.loot}` });
      const element = h("button", { type: "button", class: "secondary", "data-run-action": action.kind }, label);
      element.addEventListener("click", () => { void act(() => send(action)); });
      return element;
    });
    return [h("h3", {}, t("dk_moves")), moves.size ? pad : h("p", { class: "hint" }, t("dk_no_moves")),
      h("div", { class: "buttons" }, ...others)];
  }

  /** The lobby's weapon offer (the junk dealer's), to choose one or none. @param {Run} run */
  async function showOffer(run) {
    const me = ui.me();
    const mine = me ? run.members.find((m) => m.player === me.id) : null;
    if (!mine || mine.weapon_choice !== "pending") return;
    const offer = await api.get("/api/v1/runs/{run_id}/offer/", { path: { run_id: run.id } });
    const select = /** @type {HTMLSelectElement} */ (h("select", { name: "weapon", "aria-label": t("dk_weapon") },
      h("option", { value: "" }, t("dk_no_weapon")),
      ...offer.map((item) => h("option", { value: String(item.id) }, `${item.name} (⚔ ${item.damage}, ${t("weight")} ${item.weight})`))));
    const slot = document.getElementById("dk-offer");
    if (!slot) return;
    slot.replaceChildren(h("div", { class: "buttons" }, h("label", {}, t("dk_weapon"), select),
      button("dk_take_weapon", async () => {
        await api.post("/api/v1/runs/{run_id}/weapon/", { path: { run_id: run.id },
          body: { item_kind: select.value ? Number(select.value) : null } });
        await read(run.id);
      })));
  }

  /** The current room's battle, plainly: the combatants, whose turn, and the caller's actions. @param {Run} run */
  async function showBattle(run) {
    const ref = run.current_room ? run.current_room.battle : null;
    const slot = $("dk-battle");
    if (!ref || ref.outcome !== "ongoing") {
      slot.replaceChildren(ref ? h("p", { "data-battle": String(ref.id) }, t("dk_battle", { battle: ref.id, outcome: t(`outcome_${ref.outcome}`) })) : "");
      return;
    }
    const battle = await api.get("/api/v1/battles/{battle_id}/", { path: { battle_id: ref.id } });
    const me = ui.me();
    const names = new Map(battle.combatants.map((c) => [c.id, c.name]));
    replaceKeepingFocus(slot, [h("h3", { "data-battle": String(battle.id) }, t("dk_battle", { battle: battle.id, outcome: t(`outcome_${battle.outcome}`) })),
      h("ul", { class: "rows" }, ...battle.combatants.map((c) => h("li", { "data-combatant": c.id },
        h("span", { class: "grow" }, c.name), h("small", {}, `${c.hp} / ${c.max_hp}`)))),
      h("p", {}, me && battle.awaiting === me.id ? t("dk_your_turn") : t("dk_waiting", { name: nameOf(battle.awaiting) })),
      h("div", { class: "buttons" }, ...battle.allowed_actions.map((action) => {
        const label = [t(`act_${action.kind}`), action.target ? names.get(action.target) ?? action.target : "", action.potion ?? "",
          action.slot === undefined ? "" : String(action.slot)].filter(Boolean).join(" ");
        const element = h("button", { type: "button", class: "secondary", "data-battle-action": action.kind,
          "data-target": action.target ?? "", "data-potion": action.potion ?? "",
          "data-slot": action.slot === undefined ? "" : String(action.slot) }, label);
        element.addEventListener("click", () => {
          void act(async () => {
            const body = /** @type {any} */ ({ turn: battle.turn, action });
            await api.act("/api/v1/battles/{battle_id}/actions/", { path: { battle_id: battle.id }, body });
            await read(run.id);
          });
        });
        return element;
      }))]);
  }

  /**
   * The map: every known room with its walls and its kind's letter; unknown rooms grey; the path and the
   * party's place on a run. @param {{ rows: number, cols: number, sections: number, rooms: Room[] }} maze
   * @param {Cell | null} at @param {Cell[]} path @param {string} label
   */
  function drawMaze(maze, at, path, label) {
    /** @param {string} tag @param {Record<string, string | number>} attrs */
    const el = (tag, attrs) => {
      const element = document.createElementNS(SVG, tag);
      for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
      return element;
    };
    const svg = el("svg", { viewBox: `-2 -2 ${maze.cols * CELL + 4} ${maze.rows * CELL + 4}`, role: "img",
      "aria-label": label, class: "maze-svg" });
    const known = new Set(maze.rooms.map((room) => `${room.row},${room.col}`));
    for (let row = 0; row < maze.rows; row += 1) {
      for (let col = 0; col < maze.cols; col += 1) {
        if (!known.has(`${row},${col}`)) svg.append(el("rect", { x: col * CELL, y: row * CELL, width: CELL, height: CELL, class: "unknown" }));
      }
    }
    for (const room of maze.rooms) {
      const x = room.col * CELL, y = room.row * CELL;
      const cell = el("rect", { x, y, width: CELL, height: CELL, class: `known section-${room.section % 4} kind-${room.kind}`,
        "data-room": `${room.row},${room.col}` });
      const title = el("title", {});
      title.textContent = `${t(`place_${room.kind}`)} (${room.row}, ${room.col})`;
      cell.append(title);
      svg.append(cell);
      if (LETTERS[room.kind]) {
        const letter = el("text", { x: x + CELL / 2, y: y + CELL / 2 + 5, class: "letter" });
        letter.textContent = LETTERS[room.kind];
        svg.append(letter);
      }
      const sides = /** @type {[Direction, number, number, number, number][]} */ ([["UP", x, y, x + CELL, y],
        ["DOWN", x, y + CELL, x + CELL, y + CELL], ["LEFT", x, y, x, y + CELL], ["RIGHT", x + CELL, y, x + CELL, y + CELL]]);
      for (const [side, x1, y1, x2, y2] of sides) {
        if (room.walls[side]) svg.append(el("line", { x1, y1, x2, y2, class: "wall" }));
      }
    }
    if (path.length > 1) {
      svg.append(el("polyline", { class: "path",
        points: path.map((p) => `${p.col * CELL + CELL / 2},${p.row * CELL + CELL / 2}`).join(" ") }));
    }
    if (at) svg.append(el("circle", { cx: at.col * CELL + CELL / 2, cy: at.row * CELL + CELL / 2, r: CELL / 4, class: "party" }));
    return svg;
  }

  /** Arrow keys on the map move the party when that move is offered. @param {KeyboardEvent} event */
  function onKey(event) {
    const direction = KEYS[event.key];
    if (!direction) return;
    const target = document.querySelector(`#dk-controls button[data-move="${direction}"]:not([disabled])`);
    if (target instanceof HTMLButtonElement) {
      event.preventDefault();
      target.click();
    }
  }
  $("dk-map").addEventListener("keydown", onKey);

  /** The user's notices said the lobby of `runId` changed: the run shown is read again. @param {number} runId */
  async function changed(runId) {
    if (state.runId === runId) await read(runId);
  }

  return { open, close: stop, changed };
}
