// Cell capture in the browser: sign in, lobbies, and a match read with ?since=N whenever its stream
// (EventSource with a one-time ticket) says it changed, or the user's notices say a player joined or left
// its lobby; its events are animated wave by wave on the board and written to the log beside it. The list
// of games comes on its own stream (`GET matches/stream/?mode=cell_capture`). While the streams are open
// nothing polls.
//
// Every call goes through the project's typed client (clients/typescript/client/, served at
// /static/client/); `tsc --checkJs` checks this file against the types generated from the schema.
import { ApiError, Client } from "../../client/deepdelve.js";
import { oneAtATime } from "../crawler/dom.js";
import { MatchStream } from "../matches/live.js";
import { Board, cssColour } from "./board.js";

/** @typedef {import("../../client/deepdelve.js").Schemas} Schemas */
/** @typedef {Schemas["MatchOutput"]} Match */
/** @typedef {Schemas["MatchListItem"]} Game */
/** @typedef {Schemas["MatchResult"]} MatchResult */
/** @typedef {[number, number]} Cell */
/** @typedef {Schemas["CellCaptureSettings"]} Settings  a cell capture match's settings (the page lists only those) */

/**
 * The mode's view as this page reads it (cell_capture/mode.py). The schema does not name it yet (a
 * match's `view` is an object of the mode); once the generated types have `CellCaptureView`, the page is
 * checked against that instead (`View` below), so a change of the mode's view breaks the check.
 * @typedef {object} DeclaredView
 * @property {number} width
 * @property {number} height
 * @property {number} round
 * @property {number | null} to_move  a seat
 * @property {number | null} winner  a seat
 * @property {Record<string, string>} colours  seat -> colour
 * @property {number[]} eliminated  seats
 * @property {{ x: number, y: number, seat: number, colour: string, level: number }[]} board
 */
/** @typedef {Schemas extends { CellCaptureView: infer V } ? V : DeclaredView} View */

/**
 * The events as the page reads them (declared here while the schema's events are plain objects): the
 * engine's (docs/cell-capture.md, "Events": `player` is a colour) and the match's own (matches/services.py:
 * player ids), each with its `seq`.
 * @typedef {{ seq: number, text?: string } & (
 *   | { kind: "placed", player: string, cell: Cell }
 *   | { kind: "upgraded", player: string, cell: Cell, level: number }
 *   | { kind: "exploded", player: string, pieces: [Cell, number][] }
 *   | { kind: "drops", player: string, landings: [Cell, number, number][] }
 *   | { kind: "captured", player: string, landings: [Cell, number, string, number, number][] }
 *   | { kind: "skipped" | "eliminated" | "won", player: string }
 *   | { kind: "match_started", order: number[] }
 *   | { kind: "match_over", result: MatchResult }
 *   | { kind: "match_abandoned", result: MatchResult }
 *   | { kind: "turn_timed_out", player: number })} MatchEvent
 */

/**
 * What the page draws from a view.
 * @typedef {object} Shown
 * @property {number} width
 * @property {number} height
 * @property {number} round
 * @property {[number, number, string, number][]} pieces  [x, y, colour, level]
 * @property {Map<number, string>} colourOfSeat  seat -> colour (a bot's seat has no player: keyed by seat)
 * @property {string | null | undefined} winner  a colour
 * @property {Set<string | undefined>} eliminated  colours
 */

const MODE = "cell_capture";
const STEP_MS = 280;
const LOG_LIMIT = 1500;

/** @param {string} id @returns {HTMLElement} */
const $ = (id) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
};
const api = new Client(document.body.dataset.apiRoot || "/api/v1/");
const board = new Board($("board"), (x, y) => play(x, y));

const state = {
  /** @type {string | null} */
  screen: null,
  /** @type {number | null} */
  matchId: null,
  since: 0,
  /** @type {Match | null} */
  match: null,
  loaded: false,
  busy: false,
  sending: false,
  /** @type {(() => void) | null} */
  wake: null,
  generation: 0,
};

// --- small helpers ------------------------------------------------------------------------------

/** @param {number} ms @returns {Promise<void>} */
function sleep(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    state.wake = () => { clearTimeout(timer); resolve(); };
  });
}

/** @param {string} text */
function say(text, kind = "info") {
  const line = $("message");
  line.textContent = text || "";
  line.dataset.kind = kind;
}

/** @param {unknown} error */
function fail(error) {
  if (error instanceof ApiError) {
    say(`${error.message} (${error.code})`, "error");
    if (error.status === 401) show("auth");
  } else {
    say(error instanceof Error ? error.message : String(error), "error");
  }
}

/** @param {string} screen */
function show(screen) {
  stream.close();
  if (screen === "auth") unwatchNotices();
  state.screen = screen;
  state.generation += 1;
  if (state.wake) state.wake();
  for (const id of ["auth", "lobbies", "match"]) $(id).hidden = id !== screen;
  $("who").hidden = !api.signedIn;
  $("who-name").textContent = api.signedIn ? api.me.username : "";
  document.body.dataset.screen = screen;
  if (screen === "lobbies") {
    history.replaceState(null, "", location.pathname);
    openGames();
  } else {
    closeGames();
  }
  if (screen === "match") {
    history.replaceState(null, "", `${location.pathname}#match-${state.matchId}`);
    const generation = state.generation;
    const id = state.matchId;
    read().then(() => {
      if (state.generation === generation && state.screen === "match" && id !== null) stream.open(id);
    });
  }
}

// --- signing in -----------------------------------------------------------------------------------

$("auth-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  const register = event.submitter instanceof HTMLButtonElement && event.submitter.name === "register";
  try {
    if (register) await api.register(form.username.value, form.password.value);
    else await api.signIn(form.username.value, form.password.value);
    form.password.value = "";
    say(register ? `Welcome, ${api.me.username}.` : `Signed in as ${api.me.username}.`);
    route();
  } catch (error) {
    fail(error);
  }
});

$("sign-out").addEventListener("click", () => {
  api.signOut();
  say("Signed out.");
  show("auth");
});

// --- lobbies --------------------------------------------------------------------------------------

$("open-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  try {
    const settings = { width: Number(form.width.value), height: Number(form.height.value) };
    /** @type {Schemas["MatchOpenInputRequest"]} */
    const body = { mode: MODE, settings, private: false };
    if (form.guild.value) body.guild = Number(form.guild.value);
    const match = await api.post("/api/v1/matches/", { body });
    say(`Lobby #${match.id} is open: wait for players, then start.`);
    openMatch(match.id);
  } catch (error) {
    fail(error);
  }
});

/** @type {import("../../client/deepdelve.js").Subscription | null} the list of games, live on its screen */
let games = null;

/** The list of games on its stream: sent when it opens and again whenever it changes (a lobby opened, a seat
 * taken or given up, a start, an end); `body[data-games]` says whether the stream is open. */
function openGames() {
  closeGames();
  if (!api.signedIn) return;
  games = api.subscribe("/api/v1/matches/stream/", {
    query: { mode: MODE, page_size: 50 }, kinds: ["matches"],
    onMessage: (_kind, data) => renderGames(/** @type {{ results: Game[] }} */ (data).results),
    onLive: (live) => { document.body.dataset.games = live ? "1" : "0"; },
  });
}

function closeGames() {
  if (games) games.close();
  games = null;
}

/** @param {Game[]} games */
function renderGames(games) {
  const body = $("game-list");
  body.replaceChildren();
  $("no-games").hidden = games.length > 0;
  for (const game of games) {
    const row = document.createElement("tr");
    row.dataset.match = String(game.id);
    const settings = /** @type {Settings} */ (game.settings);
    const size = settings ? `${settings.width}×${settings.height}` : "";
    for (const text of [`#${game.id}`, size, game.players, game.status]) {
      const cell = document.createElement("td");
      cell.textContent = String(text);
      row.append(cell);
    }
    const actions = document.createElement("td");
    const button = document.createElement("button");
    button.type = "button";
    const joinable = game.status === "lobby" && game.host !== api.me.id;
    button.textContent = joinable ? "Join" : "Open";
    button.className = joinable ? "join" : "open secondary";
    button.addEventListener("click", () => (joinable ? join(game.id) : openMatch(game.id)));
    actions.append(button);
    row.append(actions);
    body.append(row);
  }
}

/** @param {number} id */
async function join(id) {
  try {
    await api.post("/api/v1/matches/{match_id}/join/", { path: { match_id: id } });
    say(`You took a seat in #${id}.`);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) return fail(error);
    say(`${error.message} (${error.code})`, "error");
  }
  openMatch(id);
}

/** @param {number} id */
function openMatch(id) {
  state.matchId = id;
  state.since = 0;
  state.match = null;
  state.loaded = false;
  $("log").replaceChildren();
  $("winner").hidden = true;
  board.setup(0, 0);
  show("match");
}

$("back").addEventListener("click", () => { say(""); show("lobbies"); });

/** @type {[string, (id: number) => Promise<Match>, string][]} */
const MATCH_BUTTONS = [
  ["start", (id) => api.post("/api/v1/matches/{match_id}/start/", { path: { match_id: id } }),
    "The game has started."],
  ["leave", (id) => api.post("/api/v1/matches/{match_id}/leave/", { path: { match_id: id } }),
    "You left the game."],
];
for (const [id, call, done] of MATCH_BUTTONS) {
  $(id).addEventListener("click", async () => {
    if (state.matchId === null) return;
    try {
      await call(state.matchId);
      say(done);
      if (id === "leave") show("lobbies");
      else read();
    } catch (error) {
      fail(error);
    }
  });
}

// --- the match --------------------------------------------------------------------------------------

/** One read of the match: what is new since the last, played out on the board (one at a time: a read asked
 * for meanwhile, by a stream or one's own move, is done once after it: crawler/dom.js). */
const read = oneAtATime(async () => {
  const id = state.matchId;
  if (id === null || state.screen !== "match") return;
  try {
    const match = await api.get("/api/v1/matches/{match_id}/", { path: { match_id: id },
      query: { since: state.since } });
    if (state.matchId !== id || state.screen !== "match") return;
    await update(match);
  } catch (error) {
    fail(error);
    if (error instanceof ApiError && (error.status === 404 || error.status === 401) && api.signedIn) {
      show("lobbies");
    }
  }
});

/** The match's stream (../matches/live.js), `body[data-live]` saying whether it is open: a change it tells
 * wakes one read, and so does a drop (what the drop may have hidden). */
const stream = new MatchStream(api, {
  since: () => state.since,
  shown: () => state.match,
  onChange: () => { void read(); },
  onDrop: () => { if (state.screen === "match") void read(); },
  showLive: (live) => { document.body.dataset.live = live ? "1" : "0"; },
});

/** @type {import("../../client/deepdelve.js").Subscription | null} the user's notices while signed in */
let notices = null;

/** The user's notices: another player joining or leaving the lobby on screen (`lobby_changed`, which the
 * match's stream does not carry: no turn, status or deadline changes) wakes one read of it. Each time the
 * stream opens, the match on screen is read once (what came before the stream did). */
function watchNotices() {
  if (notices || !api.signedIn) return;
  notices = api.subscribe("/api/v1/me/stream/", {
    kinds: ["lobby_changed"],
    onLive: (live) => {
      document.body.dataset.notices = live ? "1" : "0";
      if (live && state.screen === "match") read();
    },
    onMessage: (_kind, data) => {
      const notice = /** @type {{ data?: { match?: unknown } }} */ (data);
      if (state.screen === "match" && notice.data && notice.data.match === state.matchId) read();
    },
  });
}

function unwatchNotices() {
  if (notices) notices.close();
  notices = null;
  document.body.dataset.notices = "0";
}

// The view of a cell capture match as the page needs it. The mode's view (cell_capture/mode.py):
// {width, height, round, to_move: seat, winner: seat, colours: {seat: colour}, eliminated: [seat],
//  board: [{x, y, seat, colour, level}]}; events carry the engine's colours.
/** @param {Match} match @returns {Shown | null} */
function readView(match) {
  const view = viewOf(match);
  if (!view) return null;
  /** @type {Map<number, string>} */
  const colourOfSeat = new Map();
  for (const [seat, colour] of Object.entries(view.colours || {})) colourOfSeat.set(Number(seat), colour);
  return {
    width: view.width,
    height: view.height,
    round: view.round,
    pieces: (view.board || []).map((p) => /** @type {[number, number, string, number]} */ (
      [p.x, p.y, p.colour, p.level])),
    colourOfSeat,
    winner: view.winner === null || view.winner === undefined ? null : colourOfSeat.get(view.winner),
    eliminated: new Set((view.eliminated || []).map((seat) => colourOfSeat.get(seat))),
  };
}

/** @param {Match | null} match @returns {View | null} */
function viewOf(match) {
  return match && match.view ? /** @type {View} */ (match.view) : null;
}

/** @param {Match} match @returns {MatchEvent[]} */
function eventsOf(match) {
  return /** @type {MatchEvent[]} */ (match.events || []);
}

/** @param {Match} match */
async function update(match) {
  const first = !state.loaded;
  const previous = state.match;
  state.match = match;
  const view = readView(match);
  const raw = viewOf(match);
  if (view && raw) {
    board.setup(view.width, view.height);
    for (const [seat, colour] of Object.entries(raw.colours || {})) {
      board.colours.set(colour, cssColour(colour, Number(seat)));
    }
  }
  const events = eventsOf(match);
  state.since = Math.max(state.since, match.last_event || 0);
  if (first || !view || !previous || !previous.view) {
    for (const event of events) logEvent(event);
  } else if (events.length) {
    // The head (whose turn, the winner) changes once the board has played the events out.
    state.busy = true;
    document.body.dataset.busy = "1";
    renderHead(previous, readView(previous));
    await animate(events);
  }
  if (view) board.draw(view.pieces);
  state.loaded = true;
  renderHead(match, view);
}

/** @param {Match} match @param {number | null | undefined} playerId */
function nameOf(match, playerId) {
  const seat = match.players.find((p) => p.player === playerId);
  return seat ? seat.name : `player ${playerId}`;
}

/** A seat's name: its player's, or its bot's. @param {Match} match @param {number | null | undefined} seat */
function nameOfSeat(match, seat) {
  const entry = match.players.find((p) => p.seat !== null && p.seat === seat);
  return entry ? entry.name : `seat ${seat}`;
}

/** @param {Match} match @param {Shown | null} view @param {string} colour */
function colourName(match, view, colour) {
  if (!view) return colour;
  for (const [seat, c] of view.colourOfSeat) if (c === colour) return nameOfSeat(match, seat);
  return colour;
}

/**
 * The seats in turn order: `order` names the players (null: a bot's seat), so a person's entry is their
 * seat and the nulls take the bots' seats in seat order (the mutual order of several bots is not in the
 * match's answer). Before the start: the seated, in joining order.
 * @param {Match} match @returns {{ seat: number | null, player: number | null }[]}
 */
function seatsInOrder(match) {
  const seated = match.players.filter((p) => p.seat !== null);
  if (!match.order.length || !seated.length) {
    return match.players.filter((p) => p.active).map((p) => ({ seat: p.seat, player: p.player }));
  }
  const bots = seated.filter((p) => p.player === null).map((p) => p.seat)
    .sort((a, b) => Number(a) - Number(b));
  return match.order.map((player) => {
    const entry = player === null ? null : seated.find((p) => p.player === player);
    return { seat: entry ? entry.seat : bots.shift() ?? null, player };
  });
}

/** @param {Match} match @param {Shown | null} view */
function renderHead(match, view) {
  const me = api.me.id;
  const seated = match.players.some((p) => p.player === me && p.active);
  const settings = /** @type {Settings} */ (match.settings);
  $("match-title").textContent = `Game #${match.id} · ${settings.width}×${settings.height}`;
  $("match-status").textContent = match.status;
  document.body.dataset.status = match.status;
  document.body.dataset.turn = String(match.turn);
  const start = /** @type {HTMLButtonElement} */ ($("start"));
  start.hidden = !(match.status === "lobby" && match.host === me);
  start.disabled = match.players.filter((p) => p.active).length < match.min_players;
  $("leave").hidden = !(seated && ["lobby", "active"].includes(match.status));

  const myTurn = match.status === "active" && match.awaiting === me && match.allowed_actions.length > 0;
  document.body.dataset.myTurn = myTurn ? "1" : "0";
  let line = "";
  if (match.status === "lobby") {
    const n = match.players.filter((p) => p.active).length;
    line = `Waiting for players: ${n} seated (${match.min_players} to ${match.max_players}). `;
    line += match.host === me ? "Start when everyone is here." : "The host starts the game.";
    if (!seated) line += " You are not seated.";
  } else if (match.status === "active" && view) {
    const placing = view.round === 1;
    if (myTurn) {
      line = `Round ${view.round}: your turn. ` +
        (placing ? "Click an empty cell to place your piece." : "Click one of your pieces to upgrade it.");
    } else {
      line = `Round ${view.round}: waiting for ${nameOfSeat(match, match.awaiting_seat)}.`;
    }
    if (match.deadline) {
      const left = Math.max(0, Math.round((new Date(match.deadline).getTime() - Date.now()) / 1000));
      line += ` (${left} s left on this turn)`;
    }
  } else if (match.status !== "active") {
    line = `This game is ${match.status}.`;
  }
  $("turn-line").textContent = line;

  if (view && view.winner) {
    const winner = $("winner");
    winner.textContent = `${colourName(match, view, view.winner)} wins!`;
    winner.dataset.colour = view.winner;
    winner.hidden = false;
  }

  const myColour = view && match.seat !== null ? view.colourOfSeat.get(match.seat) : null;
  /** @type {Set<string>} */
  const playable = new Set();
  for (const action of state.busy ? [] : match.allowed_actions) {
    const cell = actionCell(action);
    if (cell) playable.add(`${cell[0]},${cell[1]}`);
  }
  board.mark(playable, myColour, myTurn && !state.busy);
  renderPlayers(match, view);
}

/** @param {Match} match @param {Shown | null} view */
function renderPlayers(match, view) {
  const list = $("players");
  list.replaceChildren();
  /** @type {Map<string, number>} */
  const counts = new Map();
  if (view) for (const [, , colour] of view.pieces) counts.set(colour, (counts.get(colour) || 0) + 1);
  for (const { seat, player: id } of seatsInOrder(match)) {
    const item = document.createElement("li");
    const colour = view && seat !== null ? view.colourOfSeat.get(seat) : undefined;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    if (colour) swatch.style.setProperty("--colour", board.colours.get(colour) || "#888");
    item.append(swatch);
    const name = document.createElement("span");
    name.textContent = (seat !== null ? nameOfSeat(match, seat) : nameOf(match, id))
      + (id !== null && id === api.me.id ? " (you)" : "")
      + (id === match.host ? " · host" : "");
    item.append(name);
    if (colour) {
      const extra = document.createElement("small");
      const out = Boolean(view && view.eliminated.has(colour));
      extra.textContent = out ? " out" : ` ${counts.get(colour) || 0} pieces`;
      item.append(extra);
      item.classList.toggle("out", out);
    }
    const toMove = match.status === "active" && seat !== null && match.awaiting_seat === seat;
    item.classList.toggle("to-move", toMove);
    item.dataset.player = String(id);
    if (seat !== null) item.dataset.seat = String(seat);
    if (colour) item.dataset.colour = colour;
    list.append(item);
  }
}

// An allowed action's cell: {cell: [x, y]} or {x, y}.
/** @param {Record<string, unknown>} action @returns {Cell | null} */
function actionCell(action) {
  if (Array.isArray(action.cell)) return /** @type {Cell} */ (action.cell);
  const { x, y } = action;
  if (typeof x === "number" && typeof y === "number" && Number.isInteger(x) && Number.isInteger(y)) {
    return [x, y];
  }
  return null;
}

/** @param {number} x @param {number} y */
async function play(x, y) {
  const match = state.match;
  if (!match || state.busy || state.sending) return;
  const action = match.allowed_actions.find((a) => {
    const cell = actionCell(a);
    return cell && cell[0] === x && cell[1] === y;
  });
  if (!action) return;
  state.sending = true;
  board.mark(new Set(), null, false);
  try {
    await api.act("/api/v1/matches/{match_id}/actions/", { path: { match_id: match.id },
      body: { turn: match.turn, action } });
    say("");
  } catch (error) {
    fail(error);
  } finally {
    state.sending = false;
    read();
  }
}

// --- events: the log and the animation ------------------------------------------------------------

// The match machinery's own events (matches/services.py) have no text of their own.
/** @param {MatchEvent} event */
function eventText(event) {
  if (event.text) return event.text;
  const match = state.match;
  /** @param {number[] | undefined} ids */
  const names = (ids) => (ids || []).map((id) => (match ? nameOf(match, id) : `player ${id}`)).join(", ");
  switch (event.kind) {
    case "match_started": return `The game starts. Turn order: ${match
      ? seatsInOrder(match).map(({ seat, player }) => (seat !== null ? nameOfSeat(match, seat)
        : nameOf(match, player))).join(", ")
      : names(event.order)}.`;
    case "match_over": return `Game over: ${names(event.result.winners) || "nobody"} won.`;
    case "match_abandoned": return "The game was abandoned.";
    case "turn_timed_out": return `${names([event.player])} let the turn's time run out.`;
    default: return event.kind;
  }
}

/** @param {MatchEvent} event */
function logEvent(event) {
  const log = $("log");
  const text = eventText(event);
  for (const line of String(text).split("\n")) {
    const item = document.createElement("li");
    item.className = `ev-${event.kind}`;
    item.dataset.seq = String(event.seq);
    item.textContent = line;
    log.append(item);
  }
  while (log.firstElementChild && log.childElementCount > LOG_LIMIT) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** @param {MatchEvent[]} events */
async function animate(events) {
  state.busy = true;
  document.body.dataset.busy = "1";
  const waves = events.filter((e) => e.kind === "exploded").length;
  const step = Math.max(25, Math.min(STEP_MS, Math.floor(5000 / Math.max(1, waves * 2))));
  try {
    for (const event of events) {
      logEvent(event);
      switch (event.kind) {
        case "placed":
        case "upgraded": {
          const [x, y] = event.cell;
          board.set(x, y, { colour: event.player, level: event.kind === "placed" ? 1 : event.level });
          board.flash(x, y, "pop");
          await sleep(step);
          break;
        }
        case "exploded":
          document.body.dataset.waves = String(Number(document.body.dataset.waves || 0) + 1);
          for (const [[x, y]] of event.pieces) {
            board.flash(x, y, "boom");
            board.set(x, y, null);
          }
          await sleep(step);
          break;
        case "drops":
        case "captured":
          for (const landing of event.landings) {
            const [[x, y]] = landing;
            board.set(x, y, { colour: event.player, level: Number(landing[landing.length - 1]) });
            board.flash(x, y, event.kind === "captured" ? "captured" : "land");
          }
          await sleep(step);
          break;
        default:
          break;
      }
    }
  } finally {
    state.busy = false;
    document.body.dataset.busy = "0";
  }
}

// --- start --------------------------------------------------------------------------------------------

function route() {
  if (!api.signedIn) return show("auth");
  watchNotices();
  const found = /^#match-(\d+)$/.exec(location.hash);
  if (found) return openMatch(Number(found[1]));
  return show("lobbies");
}

document.body.dataset.busy = "0";
setInterval(() => {
  if (state.screen === "match" && state.match && !state.busy) renderHead(state.match, readView(state.match));
}, 1000);
route();
