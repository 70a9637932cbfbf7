// The match shell: one page for every match mode over the public API (docs/play.md). Sign in, the modes
// and their settings, lobbies (public, guild, private), quick join, bots, the turn and its deadline, the
// allowed actions as buttons, the events log, resign, the result, rematch, spectating and replays.
//
// Live through the match's stream (EventSource with a one-time ticket): a stream message wakes one read
// of the match (`?since=`, in the page's language); the home's lists come on their own streams
// (`GET matches/stream/`). While a stream is open nothing polls. Every call goes
// through the typed client (clients/typescript/client/), checked by `tsc --checkJs` against the schema.
import { ApiError, Client } from "../../client/deepdelve.js";
import { lang, pickLang, saveLang, setLang, t } from "./i18n.js";
import { Board, cssColour } from "../cell-capture/board.js";
import { oneAtATime } from "../crawler/dom.js";
import { MatchStream } from "./live.js";
import { forgetNotices, watchNotices } from "./notices.js";
import { actionLabel, button, consoleView, el, keyValues, readable } from "./render.js";
import { paperActionLabel, paperActions, paperView } from "./paper.js";
import { roguelikeActions, roguelikeKey, roguelikeView } from "./roguelike.js";

/** @typedef {import("../../client/deepdelve.js").Schemas} Schemas */
/** @typedef {Schemas["MatchOutput"] & { spectator?: boolean }} Match */
/** @typedef {Schemas["MatchListItem"]} Game */
/** @typedef {Schemas["ModeOutput"]} Mode */
/** @typedef {Schemas["MatchSeatReplayOutput"]} SeatReplay */
/** @typedef {import("./render.js").Answered} Answered */
/** @typedef {{ seq: number, kind: string, text?: string }} MatchEvent */
/** @typedef {Record<string, any>} Json */
/** @typedef {import("./render.js").ModeContext} ModeContext */

/**
 * A mode's own renderer module, by mode: its view, its moves (in place of one button per allowed action;
 * only for a seated player), and, where it has them, its actions' labels (a replay's steps) and its keys.
 * Each is handed one ModeContext (render.js): the events, whether the page plays now, act and redraw.
 * @typedef {{ view: (view: Json, match: Json, context: ModeContext) => HTMLElement,
 *   actions: (match: Json, context: ModeContext) => HTMLElement, label?: (action: Json) => string,
 *   key?: (event: KeyboardEvent, actions: Json[], context: ModeContext) => boolean }} Renderer
 */
/** @type {Record<string, Renderer>} */
const RENDERERS = {
  labyrinth_paper: {
    view: (view, match, context) => paperView(view, match, context.live ? context : null),
    actions: (match, context) => paperActions(match, context),
    label: paperActionLabel,
  },
  labyrinth_roguelike: {
    view: (view, _match, context) => roguelikeView(view, context),
    actions: (match, context) => (match.allowed_actions.length ? roguelikeActions(match.allowed_actions, context)
      : el("p", { class: "hint" }, t("noActions"))),
    key: roguelikeKey,
  },
};

/** @param {string} id @returns {HTMLElement} */
const $ = (id) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
};

// Every call says the page's language, so event texts and mode titles come in it.
/** @type {typeof fetch} */
const speakingFetch = (input, init = {}) => fetch(input, {
  ...init, headers: { ...(/** @type {Record<string, string>} */ (init.headers || {})), "Accept-Language": lang() } });
const api = new Client(document.body.dataset.apiRoot || "/api/v1/", { fetch: speakingFetch });

const state = {
  screen: "",
  generation: 0,
  /** @type {Map<string, Mode>} */
  modes: new Map(),
  /** @type {number | null} */
  guild: null,
  /** @type {number | null} */
  matchId: null,
  /** @type {Match | null} */
  match: null,
  since: 0,
  /** the seqs of the events in the log @type {Set<number>} */
  logged: new Set(),
  /** @type {MatchEvent[]} the match's events read so far, oldest first (a mode's own renderer folds them) */
  events: [],
  sending: false,
  /** a read asked for that must redraw the page (any but a stream drop's) */
  redraw: false,
  /** @type {SeatReplay | null} */
  replay: null,
  replayStep: 0,
  /** @type {import("../../client/deepdelve.js").Subscription[]} the home's lists, live while it is shown */
  lists: [],
};

// --- messages, screens ----------------------------------------------------------------------------------

/** @param {string} text @param {string} [kind] */
function say(text, kind = "info") {
  $("message").textContent = text;
  $("message").dataset.kind = kind;
}

/** @param {unknown} error */
function fail(error) {
  if (error instanceof ApiError) {
    say(`${error.message} (${error.code})`, "error");
    if (error.status === 401 && !api.signedIn) show("auth");
  } else {
    say(error instanceof Error ? error.message : String(error), "error");
  }
}

/** @param {string} screen */
function show(screen) {
  state.screen = screen;
  state.generation += 1;
  closeLists();
  if (screen !== "match") stream.close();
  for (const id of ["auth", "home", "match", "replay"]) $(id).hidden = id !== screen;
  $("who").hidden = !api.signedIn;
  $("who-name").textContent = api.signedIn ? api.me.username : "";
  document.body.dataset.screen = screen;
  if (screen === "home") {
    history.replaceState(null, "", location.pathname);
    void openHome(state.generation);
  }
}

$("lang").addEventListener("change", () => {
  const chosen = /** @type {HTMLSelectElement} */ ($("lang")).value === "ru" ? "ru" : "en";
  saveLang(chosen);
  setLang(chosen);
  route();
});

// --- signing in -----------------------------------------------------------------------------------------

$("auth-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  const register = event.submitter instanceof HTMLButtonElement && event.submitter.name === "register";
  try {
    if (register) await api.register(form.username.value, form.password.value);
    else await api.signIn(form.username.value, form.password.value);
    form.password.value = "";
    say(t(register ? "welcome" : "signedIn", { name: api.me.username }));
    route();
  } catch (error) {
    fail(error);
  }
});

$("sign-out").addEventListener("click", () => {
  closeNotices();
  api.signOut();
  say(t("signedOut"));
  show("auth");
});

// --- home: the modes, join by code, the lists -------------------------------------------------------------

async function loadModes() {
  const modes = await api.get("/api/v1/modes/");
  state.modes = new Map(modes.map((mode) => [mode.name, mode]));
  try {
    const me = await api.get("/api/v1/me/");
    state.guild = me.guild ? me.guild.id : null;
  } catch {
    state.guild = null;
  }
  renderModes();
}

function renderModes() {
  const root = $("modes");
  root.replaceChildren();
  for (const mode of state.modes.values()) root.append(modeCard(mode));
}

/** @param {Mode} mode */
function modeCard(mode) {
  const card = el("article", { class: "mode", "data-mode": mode.name });
  card.append(el("h3", {}, mode.title));
  const meta = [t("playersRange", { min: mode.min_players, max: mode.max_players }),
    mode.bots.length ? t("bots", { list: mode.bots.join(", ") }) : t("noBots"),
    t(mode.spectators ? "spectatorsYes" : "spectatorsNo")];
  card.append(el("p", { class: "hint" }, meta.join(" · ")));
  const form = el("form", { class: "mode-form" });
  const schema = /** @type {Json} */ (mode.settings);
  const properties = /** @type {Record<string, Json>} */ (schema.properties || {});
  const lobbySettings = /** @type {string[]} */ (schema.lobby_settings || Object.keys(properties));
  /** @type {(() => [string, unknown] | null)[]} */
  const readers = [];
  const fields = el("fieldset", { class: "settings" });
  fields.append(el("legend", {}, t("settings")));
  for (const name of lobbySettings) {
    const property = properties[name];
    if (!property) continue;
    const [field, read] = settingInput(name, property);
    fields.append(field);
    readers.push(read);
  }
  form.append(fields);
  const visibility = el("select", { name: "visibility" });
  for (const option of ["public", "guild", "private"]) {
    if (option === "guild" && state.guild === null) continue;
    visibility.append(el("option", { value: option }, t(option)));
  }
  const label = el("label");
  label.append(el("span", {}, t("visibility")), visibility);
  form.append(label);
  const settings = () => Object.fromEntries(/** @type {[string, unknown][]} */ (
    readers.map((read) => read()).filter(Boolean)));
  const buttons = el("div", { class: "buttons wrap" });
  buttons.append(el("button", { type: "submit", class: "open-lobby" }, t("openLobby")),
    button(t("quickJoin"), () => quickJoin(mode.name, settings()), { class: "secondary quick-join" }),
    button(t("leaveQueue"), () => leaveQueue(mode.name), { class: "secondary leave-queue" }));
  form.append(buttons);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    openLobby(mode.name, settings(), visibility.value);
  });
  card.append(form);
  return card;
}

/**
 * One setting's input from its JSON Schema; the reader gives [name, value] only when it differs from the
 * default (the server fills the rest with the admin's defaults).
 * @param {string} name @param {Json} property @returns {[HTMLElement, () => [string, unknown] | null]}
 */
function settingInput(name, property) {
  const branches = /** @type {Json[]} */ (property.anyOf || [property]);
  const nullable = branches.some((b) => b.type === "null");
  const main = branches.find((b) => b.type !== "null") || property;
  const fallback = property.default;
  const label = el("label", { title: property.description || "" });
  label.append(el("span", {}, name.replace(/_/g, " ")));
  /** @type {HTMLInputElement | HTMLSelectElement} */
  let input;
  /** @type {() => unknown} */
  let value;
  if (main.enum) {
    input = el("select", { name });
    for (const option of main.enum) input.append(el("option", { value: JSON.stringify(option) }, readable(option)));
    if (nullable) input.append(el("option", { value: "null" }, t("noneValue")));
    input.value = JSON.stringify(fallback ?? null);
    value = () => JSON.parse(input.value);
  } else if (main.type === "boolean") {
    input = el("input", { type: "checkbox", name });
    input.checked = Boolean(fallback);
    value = () => /** @type {HTMLInputElement} */ (input).checked;
  } else if (main.type === "integer" || main.type === "number") {
    input = el("input", { type: "number", name, inputmode: "numeric" });
    if (main.minimum !== undefined) input.setAttribute("min", String(main.minimum));
    if (main.maximum !== undefined) input.setAttribute("max", String(main.maximum));
    input.value = fallback === null || fallback === undefined ? "" : String(fallback);
    if (nullable) input.placeholder = t("noneValue");
    value = () => (input.value === "" ? null : Number(input.value));
  } else {
    input = el("input", { type: "text", name });
    input.value = fallback === undefined ? "" : JSON.stringify(fallback);
    value = () => (input.value === "" ? null : JSON.parse(input.value));
  }
  label.append(input);
  return [label, () => {
    const chosen = value();
    return JSON.stringify(chosen) === JSON.stringify(fallback ?? null) ? null : [name, chosen];
  }];
}

/** @param {string} mode @param {Record<string, unknown>} settings @param {string} visibility */
async function openLobby(mode, settings, visibility) {
  try {
    /** @type {Schemas["MatchOpenInputRequest"]} */
    const body = { mode, settings: /** @type {any} */ (settings), private: visibility === "private" };
    if (visibility === "guild" && state.guild !== null) body.guild = state.guild;
    const match = await api.post("/api/v1/matches/", { body });
    say(t("lobbyOpened", { id: match.id }));
    openMatch(match.id);
  } catch (error) {
    fail(error);
  }
}

/** @param {string} mode @param {Record<string, unknown>} settings */
async function quickJoin(mode, settings) {
  try {
    const match = await api.post("/api/v1/matches/queue/", { body: { mode, settings: /** @type {any} */ (settings) } });
    say(t("queued", { id: match.id }));
    openMatch(match.id);
  } catch (error) {
    fail(error);
  }
}

/** @param {string} mode */
async function leaveQueue(mode) {
  try {
    await api.delete("/api/v1/matches/queue/", { query: { mode } });
    say(t("leftQueue"));
  } catch (error) {
    fail(error);
  }
}

$("code-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  try {
    const match = await api.post("/api/v1/matches/join/", { body: { code: form.code.value } });
    form.code.value = "";
    say(t("joined", { id: match.id }));
    openMatch(match.id);
  } catch (error) {
    fail(error);
  }
});

// the streams open again, and each sends its list as it is now
$("refresh").addEventListener("click", () => { if (state.screen === "home") void openHome(state.generation); });

function closeLists() {
  for (const list of state.lists) list.close();
  state.lists = [];
  document.body.dataset.lists = "0";
}

/**
 * The home's two lists, live: `GET matches/stream/` sends a list when it opens and again whenever it changes
 * (a lobby opened, a seat taken or given up, a start, an end, or one of the user's notices), so nothing is
 * read on a timer. `body[data-lists]` counts the list streams open.
 * @param {number} generation
 */
async function openHome(generation) {
  try {
    if (!state.modes.size) await loadModes();
  } catch (error) {
    fail(error);
  }
  if (state.screen !== "home" || state.generation !== generation || !api.signedIn) return;
  closeLists();
  const watchable = [...state.modes.values()].some((mode) => mode.spectators);
  if (!watchable) {
    $("watch-list").replaceChildren();
    $("no-watch").hidden = false;
  }
  const lists = [{ watch: false, list: $("game-list"), empty: $("no-games") }];
  if (watchable) lists.push({ watch: true, list: $("watch-list"), empty: $("no-watch") });
  /** @type {Set<boolean>} */
  const live = new Set();
  for (const { watch, list, empty } of lists) {
    state.lists.push(api.subscribe("/api/v1/matches/stream/", {
      query: { page_size: 50, watchable: watch }, kinds: ["matches"],
      onMessage: (_kind, data) => renderGames(list, empty, /** @type {{ results: Game[] }} */ (data).results, watch),
      onLive: (open) => {
        if (open) live.add(watch);
        else live.delete(watch);
        document.body.dataset.lists = String(live.size);
      },
    }));
  }
}

/** @param {HTMLElement} list @param {HTMLElement} empty @param {Game[]} games @param {boolean} watch */
function renderGames(list, empty, games, watch) {
  list.replaceChildren();
  empty.hidden = games.length > 0;
  for (const game of games) {
    const item = el("li", { "data-match": String(game.id), "data-status": game.status });
    const mode = state.modes.get(game.mode);
    item.append(el("span", {}, `${t("game", { mode: mode ? mode.title : game.mode, id: game.id })} · `
      + `${game.players} · ${t(`status_${game.status}`)}`));
    const joinable = !watch && game.status === "lobby" && game.host !== api.me.id;
    item.append(button(t(watch ? "watchMatch" : joinable ? "join" : "open"),
      () => (joinable ? join(game.id) : openMatch(game.id)), { class: joinable ? "join" : "secondary open" }));
    list.append(item);
  }
}

/** @param {number} id */
async function join(id) {
  try {
    await api.post("/api/v1/matches/{match_id}/join/", { path: { match_id: id } });
    say(t("joined", { id }));
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) return fail(error);
    say(`${error.message} (${error.code})`, "error");
  }
  openMatch(id);
}

// --- the match --------------------------------------------------------------------------------------------

/** @param {number} id */
function openMatch(id) {
  state.matchId = id;
  state.match = null;
  state.since = 0;
  state.logged = new Set();
  state.events = [];
  $("log").replaceChildren();
  $("view").replaceChildren();
  $("actions").replaceChildren();
  $("result").hidden = true;
  forgetNotices($("notices"), id);
  show("match");
  history.replaceState(null, "", `${location.pathname}#match-${id}`);
  const generation = state.generation;
  read().then(() => { if (state.generation === generation) stream.open(id); });
}

/** The console labyrinth's answered commands, kept per match in this tab (the notebook). @param {number} id */
function answeredKey(id) { return `deepdelve-notebook-${id}`; }
/** @param {number} id @returns {Answered[]} */
function answeredOf(id) {
  try {
    return JSON.parse(sessionStorage.getItem(answeredKey(id)) || "[]");
  } catch {
    return [];
  }
}

/**
 * One read of the match: what is new since the last (one at a time: crawler/dom.js). A quiet read (after a
 * stream's drop, which a server that closes streams makes every second or so) redraws the page only if the
 * match changed, so forms being filled in are left alone.
 * @param {boolean} [quiet]
 */
function read(quiet = false) {
  if (!quiet) state.redraw = true;
  return readOnce();
}

const readOnce = oneAtATime(async () => {
  const redraw = state.redraw;
  state.redraw = false;
  const id = state.matchId;
  if (id === null || state.screen !== "match") return;
  try {
    const match = /** @type {Match} */ (await api.get("/api/v1/matches/{match_id}/", {
      path: { match_id: id }, query: { since: state.since } }));
    if (state.matchId !== id) return;
    for (const event of /** @type {MatchEvent[]} */ (/** @type {unknown} */ (match.events))) logEvent(event);
    state.since = Math.max(state.since, match.last_event || 0);
    const before = state.match;
    state.match = match;
    const same = (/** @type {Match} */ m) => JSON.stringify({ ...m, events: [] });
    if (redraw || !before || match.events.length || same(before) !== same(match)) render();
  } catch (error) {
    fail(error);
    if (error instanceof ApiError && error.status === 404 && api.signedIn) show("home");
  }
});

/** The match's stream (live.js), shown by the "live" badge: a change it tells wakes one read; after a drop
 * the match is read quietly. */
const stream = new MatchStream(api, {
  since: () => state.since,
  shown: () => state.match,
  onChange: () => { void read(); },
  onDrop: () => { if (state.screen === "match") void read(true); },
  showLive: (live) => { $("live").hidden = !live; },
});

/** @param {Match} match @param {number | null} seat */
function seatName(match, seat) {
  const player = match.players.find((p) => p.seat === seat);
  return player ? player.name : t("seat", { n: String(seat) });
}

/** @param {Match} match */
function isSpectator(match) {
  return Boolean(match.spectator) || (match.seat === null && match.status !== "lobby");
}

function render() {
  const match = state.match;
  if (!match) return;
  // The buttons are drawn anew: the one that had the keyboard's focus gets it back (same id or action).
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const focusId = focused && focused.id;
  const focusAction = focused && focused.dataset.action;
  const mode = state.modes.get(match.mode);
  const me = api.signedIn ? api.me.id : null;
  const seated = match.players.some((p) => p.player === me && p.active);
  $("match-title").textContent = t("game", { mode: mode ? mode.title : match.mode, id: match.id });
  $("match-status").textContent = t(`status_${match.status}`);
  document.body.dataset.status = match.status;
  document.body.dataset.turn = String(match.turn);
  document.body.dataset.spectator = isSpectator(match) ? "1" : "0";
  $("invite").hidden = !match.invite_code;
  $("invite-code").textContent = match.invite_code || "";
  renderTurnLine();
  renderResult(match);
  renderControls(match, mode, seated);
  renderPlayers(match);
  renderView(match, $("view"), answeredOf(match.id));
  renderActions(match);
  if (focused && !focused.isConnected) {
    const again = focusId ? document.getElementById(focusId)
      : [...document.querySelectorAll("#actions button.action")].find(
        (b) => b instanceof HTMLElement && b.dataset.action === focusAction);
    if (again instanceof HTMLElement) again.focus();
  }
}

function renderTurnLine() {
  const match = state.match;
  if (!match) return;
  const me = api.me.id;
  let line = "";
  if (match.status === "lobby") {
    const n = match.players.filter((p) => p.active).length;
    line = `${t("waitingPlayers", { n, min: match.min_players, max: match.max_players })} `
      + t(match.host === me ? "youStart" : "hostStarts");
  } else if (match.status === "active") {
    if (match.awaiting === me && match.allowed_actions.length) line = t("yourTurn");
    else if (match.awaiting === null && match.awaiting_seat !== null) {
      line = t("botPlaying", { name: seatName(match, match.awaiting_seat) });
    } else line = t("waitingFor", { name: seatName(match, match.awaiting_seat) });
    if (match.deadline) {
      const left = Math.max(0, Math.round((new Date(match.deadline).getTime() - Date.now()) / 1000));
      line += ` · ${t("secondsLeft", { s: left })}`;
    }
  }
  if (isSpectator(match)) line = `${t("spectating")} ${line}`;
  $("turn-line").textContent = line;
  document.body.dataset.myTurn = match.status === "active" && match.awaiting === me ? "1" : "0";
}

/** @param {Match} match */
function renderResult(match) {
  const box = $("result");
  const result = match.result;
  if (!result) { box.hidden = true; return; }
  const names = result.winner_seats.map((seat) => seatName(match, seat));
  const reasonKey = `reason_${result.reason}`;
  const reason = t(reasonKey) === reasonKey ? result.reason : t(reasonKey); // a mode's new code: as it is
  box.textContent = result.winners.includes(api.me.id) ? `${t("youWon")} ${t("resultWon", {
    names: names.join(", "), reason })}`
    : names.length ? t("resultWon", { names: names.join(", "), reason }) : t("resultNobody", { reason });
  box.dataset.winners = result.winners.join(",");
  box.dataset.winnerSeats = result.winner_seats.join(",");
  box.dataset.reason = result.reason;
  box.hidden = false;
}

/** @param {Match} match @param {Mode | undefined} mode @param {boolean} seated */
function renderControls(match, mode, seated) {
  const root = $("controls");
  const before = document.getElementById("bot-level"); // drawn anew on every read: its choice is kept
  const chosenBot = before instanceof HTMLSelectElement ? before.value : "";
  root.replaceChildren();
  const me = api.me.id;
  const id = match.id;
  const path = { match_id: id };
  /** @param {string} key @param {() => Promise<unknown>} call @param {string} done @param {string} name */
  const control = (key, call, done, name, className = "") => {
    const b = button(t(key), async () => {
      try {
        await call();
        if (done) say(t(done));
        await read();
      } catch (error) {
        fail(error);
      }
    }, className ? { class: className } : {});
    b.id = name;
    root.append(b);
  };
  if (match.status === "lobby") {
    if (match.host === me) {
      control("start", () => api.post("/api/v1/matches/{match_id}/start/", { path }), "started", "start");
      if (mode && mode.bots.length) {
        const level = el("select", { id: "bot-level", "aria-label": t("addBot") });
        for (const name of mode.bots) level.append(el("option", { value: name }, name));
        if (mode.bots.includes(chosenBot)) level.value = chosenBot; // the bot chosen before this read
        root.append(level);
        control("addBot", () => api.post("/api/v1/matches/{match_id}/bots/", { path,
          body: { level: level.value } }), "botAdded", "add-bot", "secondary");
      }
    }
    if (seated) {
      control("leave", async () => {
        await api.post("/api/v1/matches/{match_id}/leave/", { path });
        show("home");
      }, "left", "leave", "secondary");
    } else {
      control("join", () => api.post("/api/v1/matches/{match_id}/join/", { path }), "", "join");
    }
  }
  if (match.status === "active" && match.seat !== null && !isSpectator(match)) {
    control("resign", () => api.post("/api/v1/matches/{match_id}/resign/", { path }), "resigned", "resign",
      "danger");
  }
  if (["finished", "abandoned"].includes(match.status) && match.seat !== null) {
    if (match.rematch) {
      const rematch = match.rematch;
      const b = button(t("joinRematch", { id: rematch }), () => join(rematch));
      b.id = "join-rematch";
      root.append(b);
    } else {
      control("rematch", async () => {
        try {
          const lobby = await api.post("/api/v1/matches/{match_id}/rematch/", { path });
          say(t("rematchOpened", { id: lobby.id }));
          openMatch(lobby.id);
        } catch (error) {
          if (!(error instanceof ApiError && error.code === "rematch_exists")) throw error;
          join(Number(error.details.rematch));
        }
      }, "", "rematch");
    }
    const b = button(t("replay"), () => openReplay(id, match.seat === null ? 0 : match.seat), { class: "secondary" });
    b.id = "open-replay";
    root.append(b);
  }
}

/** @param {Match} match */
function renderPlayers(match) {
  const list = $("players");
  list.replaceChildren();
  const players = [...match.players].sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99));
  for (const p of players) {
    const tags = [];
    if (p.seat !== null) tags.push(t("seat", { n: p.seat }));
    if (p.player !== null && p.player === api.me.id) tags.push(t("you"));
    if (p.player !== null && p.player === match.host) tags.push(t("host"));
    if (p.bot) tags.push(`${t("bot")}: ${p.bot}`);
    if (!p.active && match.status === "lobby") tags.push(t("out"));
    const item = el("li", {}, `${p.name} (${tags.join(", ")})`);
    item.classList.toggle("to-move", match.status === "active" && match.awaiting_seat === p.seat);
    list.append(item);
  }
}

/**
 * What a mode's own renderer is handed: the events (the match's read so far, or a replay's up to its step),
 * whether the page plays now, and how to act and redraw the moves.
 * @param {Json[]} events @param {boolean} live @param {Json | null} [first] a replay's first view
 * @returns {ModeContext}
 */
function modeContext(events, live, first = null) {
  const memory = !first && state.match ? `deepdelve-${state.match.mode}-${state.match.id}` : null;
  return { events, live, sending: state.sending, act, redraw: render, memory, first };
}

/**
 * A mode's view: the console labyrinth's own renderer, a mode's module of RENDERERS, the key/value
 * fallback for the others; `events`: what a mode's module folds (the match's events by default).
 * @param {{ mode: string, view: unknown, allowed_actions?: unknown[], id?: number, replay?: unknown }} match
 * @param {HTMLElement} root @param {Answered[]} answered @param {Json[]} [events]
 * @param {Json | null} [first] a replay's first view
 */
function renderView(match, root, answered, events = state.events, first = null) {
  root.replaceChildren();
  const view = /** @type {Json | null} */ (match.view);
  if (!view) return;
  if (view.public) root.append(el("p", { class: "hint" }, t("publicView")));
  const own = RENDERERS[match.mode];
  const playing = "id" in match && match === state.match && !isSpectator(state.match);
  if (own) root.append(own.view(view, match, modeContext(events, playing, first)));
  else if (match.mode === "labyrinth_console") root.append(consoleView(view, answered));
  else if (match.mode === "cell_capture" && Array.isArray(view.board)) cellCaptureView(view, root, match);
  else root.append(keyValues(view));
}

/** Each view's cell capture board, kept between reads (its buttons keep the focus). @type {Map<HTMLElement, Board>} */
const boards = new Map();

/**
 * Cell capture: its board (the cell capture page's, board.js), the cells of the allowed actions
 * clickable on one's turn; the rest of the view as keys and values.
 * @param {Json} view @param {HTMLElement} root @param {{ allowed_actions?: unknown[], id?: number }} match
 */
function cellCaptureView(view, root, match) {
  const { board: pieces, colours, ...rest } = view;
  root.append(keyValues(rest));
  let board = boards.get(root);
  if (!board) {
    const element = el("div", { class: "board cc-board", role: "grid", "aria-label": "board" });
    board = new Board(element, (x, y) => {
      const found = (/** @type {Json[]} */ (state.match ? state.match.allowed_actions : []))
        .find((a) => Array.isArray(a.cell) && a.cell[0] === x && a.cell[1] === y);
      if (found) act(found);
    });
    boards.set(root, board);
  }
  board.setup(view.width, view.height);
  for (const [seat, colour] of Object.entries(/** @type {Record<string, string>} */ (colours || {}))) {
    board.colours.set(colour, cssColour(colour, Number(seat)));
  }
  board.draw((/** @type {Json[]} */ (pieces)).map((p) => /** @type {[number, number, string, number]} */ (
    [p.x, p.y, p.colour, p.level])));
  const live = "id" in match && match === state.match && !isSpectator(state.match);
  const playable = new Set(live && !state.sending ? (/** @type {Json[]} */ (match.allowed_actions || []))
    .filter((a) => Array.isArray(a.cell)).map((a) => `${a.cell[0]},${a.cell[1]}`) : []);
  const mine = colours && view.to_move !== null && view.to_move !== undefined ? colours[String(view.to_move)] : null;
  board.mark(playable, mine, playable.size > 0);
  root.append(board.root);
}

/** @param {Match} match */
function renderActions(match) {
  const root = $("actions");
  root.replaceChildren();
  const actions = /** @type {Json[]} */ (isSpectator(match) ? [] : match.allowed_actions);
  if (match.mode === "cell_capture" && actions.length && actions.every((a) => Array.isArray(a.cell))) {
    root.append(el("p", { class: "hint" }, t("clickCell"))); // the board's cells are the buttons
    return;
  }
  const own = RENDERERS[match.mode];
  if (own && !isSpectator(match)) {
    root.append(own.actions(match, modeContext(state.events, true)));
    return;
  }
  if (!actions.length) {
    root.append(el("p", { class: "hint" }, t("noActions")));
    return;
  }
  for (const action of actions) {
    const b = button(actionLabel(match.mode, action), () => act(action), { class: "action" });
    b.dataset.action = JSON.stringify(action);
    b.disabled = state.sending;
    root.append(b);
  }
}

/** @param {Json} action @returns {Promise<boolean>} whether the action was taken (false: refused) */
async function act(action) {
  const match = state.match;
  if (!match || state.sending) return false;
  let taken = false;
  state.sending = true;
  renderActions(match);
  try {
    const answer = await api.act("/api/v1/matches/{match_id}/actions/", { path: { match_id: match.id },
      body: { turn: match.turn, action: /** @type {any} */ (action) } });
    if (match.mode === "labyrinth_console" && typeof action.command === "string") {
      const answered = answeredOf(match.id);
      answered.push({ command: action.command,
        kinds: (/** @type {Json[]} */ (answer.events || [])).map((e) => String(e.kind)) });
      sessionStorage.setItem(answeredKey(match.id), JSON.stringify(answered));
    }
    say("");
    taken = true;
  } catch (error) {
    fail(error);
  } finally {
    state.sending = false;
  }
  await read();
  return taken;
}

/** @param {MatchEvent} event */
function logEvent(event) {
  if (state.logged.has(event.seq)) return;
  state.logged.add(event.seq);
  state.events.push(event);
  const log = $("log");
  for (const line of String(event.text || event.kind).split("\n")) {
    const item = el("li", { class: `ev-${event.kind}`, "data-seq": String(event.seq) }, line);
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

// A mode's own keys (the roguelike's arrows and WASD) on the match screen, where the page may play.
document.addEventListener("keydown", (event) => {
  const match = state.match;
  const own = match && RENDERERS[match.mode];
  if (!match || !own || !own.key || state.screen !== "match" || isSpectator(match)) return;
  if (own.key(event, /** @type {Json[]} */ (match.allowed_actions), modeContext(state.events, true))) event.preventDefault();
});

$("back").addEventListener("click", () => { say(""); show("home"); });

// --- replays ----------------------------------------------------------------------------------------------

/** @param {number} id @param {number} seat */
async function openReplay(id, seat) {
  try {
    if (!state.match || state.match.id !== id) {
      state.match = /** @type {Match} */ (await api.get("/api/v1/matches/{match_id}/", { path: { match_id: id } }));
      state.matchId = id;
    }
    const replay = /** @type {SeatReplay} */ (/** @type {unknown} */ (await api.get(
      "/api/v1/matches/{match_id}/replay/", { path: { match_id: id }, query: { as_seat: seat } })));
    state.replay = replay;
    state.replayStep = 0;
    show("replay");
    history.replaceState(null, "", `${location.pathname}#replay-${id}-${seat}`);
    const select = /** @type {HTMLSelectElement} */ ($("replay-seat"));
    select.replaceChildren();
    for (const p of state.match.players.filter((q) => q.seat !== null)) {
      select.append(el("option", { value: String(p.seat) }, `${t("seat", { n: String(p.seat) })}: ${p.name}`));
    }
    select.value = String(seat);
    renderReplay();
  } catch (error) {
    fail(error);
  }
}

function renderReplay() {
  const replay = state.replay;
  const match = state.match;
  if (!replay || !match) return;
  const steps = replay.steps;
  const i = state.replayStep;
  const step = /** @type {Json} */ (steps[i]);
  const mode = state.modes.get(match.mode);
  $("replay-title").textContent = `${t("replay")}: ${t("game", { mode: mode ? mode.title : match.mode,
    id: match.id })}`;
  $("replay-step").textContent = t("step", { i: i + 1, n: steps.length });
  /** @type {HTMLButtonElement} */ ($("replay-prev")).disabled = i === 0;
  /** @type {HTMLButtonElement} */ ($("replay-next")).disabled = i >= steps.length - 1;
  let action = t("stepStart");
  if (step.turn > 0) {
    const what = step.resigned ? t("resignedStep") : step.timeout ? t("timeout")
      : step.action ? (RENDERERS[match.mode]?.label?.(step.action) ?? actionLabel(match.mode, step.action)) : "—";
    action = t("stepAction", { turn: step.turn, seat: seatName(match, step.seat), action: what });
  }
  $("replay-action").textContent = action;
  $("replay").dataset.step = String(i);
  const events = $("replay-events");
  events.replaceChildren();
  for (const event of /** @type {MatchEvent[]} */ (step.events || [])) {
    events.append(el("li", { class: `ev-${event.kind}` }, String(event.text || event.kind)));
  }
  // The notebook of the seat watched: its own commands up to this step and what they were answered.
  /** @type {Answered[]} */
  const answered = [];
  for (const s of /** @type {Json[]} */ (steps.slice(1, i + 1))) {
    if (s.seat === replay.as_seat && s.action && typeof s.action.command === "string") {
      answered.push({ command: s.action.command, kinds: (s.events || []).map((/** @type {Json} */ e) => e.kind) });
    }
  }
  const seen = /** @type {Json[]} */ (steps.slice(0, i + 1)).flatMap((s) => s.events || []);
  renderView({ mode: match.mode, view: step.view, replay: { steps: steps.slice(0, i + 1), seat: replay.as_seat } },
    $("replay-view"), answered, seen, /** @type {Json} */ (steps[0]).view);
}

$("replay-prev").addEventListener("click", () => { state.replayStep = Math.max(0, state.replayStep - 1); renderReplay(); });
$("replay-next").addEventListener("click", () => {
  if (state.replay) state.replayStep = Math.min(state.replay.steps.length - 1, state.replayStep + 1);
  renderReplay();
});
$("replay-seat").addEventListener("change", () => {
  if (state.matchId !== null) openReplay(state.matchId, Number(/** @type {HTMLSelectElement} */ ($("replay-seat")).value));
});
$("replay-back").addEventListener("click", () => { if (state.matchId !== null) openMatch(state.matchId); });

// --- start ------------------------------------------------------------------------------------------------

/** The user's notices (notices.js): one subscription while signed in.
 * @type {Promise<import("../../client/deepdelve.js").Subscription | null> | null} */
let notices = null;
function closeNotices() {
  if (notices) void notices.then((subscription) => subscription && subscription.close());
  notices = null;
  $("notice-list").replaceChildren();
  $("notices").hidden = true;
  delete $("notices").dataset.ready;
}

async function route() {
  if (!api.signedIn) return show("auth");
  notices ??= watchNotices(api, {
    panel: $("notices"), list: $("notice-list"), open: openMatch,
    modeTitle: (mode) => state.modes.get(mode)?.title ?? mode,
    current: () => (state.screen === "match" ? state.matchId : null),
    changed: () => { void read(true); },
  }).catch((error) => { fail(error); notices = null; return null; });
  if (!state.modes.size) {
    try {
      await loadModes();
    } catch (error) {
      fail(error);
    }
  } else renderModes();
  const replay = /^#replay-(\d+)-(\d+)$/.exec(location.hash);
  if (replay) return openReplay(Number(replay[1]), Number(replay[2]));
  const found = /^#match-(\d+)$/.exec(location.hash);
  if (found) return openMatch(Number(found[1]));
  return show("home");
}

setInterval(() => { if (state.screen === "match") renderTurnLine(); }, 1000); // the deadline's countdown only
const chosen = pickLang();
/** @type {HTMLSelectElement} */ ($("lang")).value = chosen;
setLang(chosen);
route();
