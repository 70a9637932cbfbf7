// Seed 002's paper labyrinth in the match shell (docs/play.md): the player's status and the game master's
// answers (their texts come from the API in the page's language), the treasure, the player's own sheet of
// the map (the outline they are given, marked by hand and, where the answers allow, from their own moves)
// and the turn: the start cell chosen on the sheet, a classic turn composed step by step (a movement,
// shots, grenades, throws, mines, conditions), a quantum turn's one step, the clock's timer and pause.
//
// Only what the seat's view and the public answers give is shown: the sheet's marks are the player's own
// notes and deductions from their own answers; the secret cells they chose (start, re-order) are kept in
// this tab (sessionStorage), as the server never says them back.
import { t } from "./i18n.js";
import { button, definitions, el } from "./render.js";

/** @typedef {Record<string, any>} Json */
/** @typedef {import("./render.js").ModeContext} Shell  what the shell lends a renderer */
/** @typedef {[number, number]} Cell */
/**
 * The player's notes of one match, kept in the tab: the start and re-order cells they sent (outline
 * indexes), where they said they stand ("I am here", after the event `after`), and their marks.
 * @typedef {{ start: number | null, reorders: number[], here: { after: number, cell: number }[],
 *   types: Record<string, string>, sides: Record<string, string>, notes: Record<string, string> }} Notes
 */

const DIRS = ["UP", "LEFT", "DOWN", "RIGHT"];
/** @type {Record<string, Cell>} */
const DELTA = { UP: [-1, 0], DOWN: [1, 0], LEFT: [0, -1], RIGHT: [0, 1] };
/** @type {Record<string, string>} */
const SIDE = { UP: "n", DOWN: "s", LEFT: "w", RIGHT: "e" };
/** @type {Record<string, [number, number, string]>} */
const ACROSS = { n: [-1, 0, "s"], s: [1, 0, "n"], w: [0, -1, "e"], e: [0, 1, "w"] };
const CELL_TYPES = ["land", "hospital", "arsenal", "hole", "river", "mouth", "encephalitis"];
const ITEMS = ["bullet", "grenade", "mine", "treasure", "corpse"];
const CONDITIONS = ["wall", "no_wall", "land", "hospital", "arsenal", "hole", "river", "mouth", "encephalitis",
  "found_anything", "found_treasure", "found_bullets", "found_grenades", "found_mine", "found_corpse", "scream",
  "no_scream"];
const STEP_KINDS = ["move", "downstream", "cycle", "skip", "shoot", "grenade", "leave", "throw", "mine", "if"];
const MAX_DEPTH = 4;
/** the answers after which the player no longer knows where they stand (a hole's cycle, a river's flow) */
const LOST = new Set(["cycle", "downstream", "drifted", "dark", "no_wall"]);
/** the answers that took the player out through the side they moved to */
const OUT = new Set(["exited", "crumbled", "won"]);
/** the public answers that say something of a treasure */
const TREASURE_NEWS = new Set(["crumbled", "won", "draw_treasure_out", "draw_treasure_source"]);

// --- the tab's memory ---------------------------------------------------------------------------------------

/** the events read so far, per match (the shell reads only what is new) @type {Map<number, Map<number, Json>>} */
const seen = new Map();
/**
 * the turn being composed, per match, and the sheet's chosen cell
 * @typedef {{ steps: Json[], target: string, kind: string, dir: string, aim: string, item: string,
 *   cond: string, visibility: string, treasure: string, refill: boolean, reorder: number | null }} Draft
 * @type {Map<number, Draft>}
 */
const drafts = new Map();
/** @type {Map<number, string>} */
const chosenCell = new Map();
/** the shell's redraw of the page (after a mark or a step changed) @type {() => void} */
let rerender = () => {};

/** @returns {Draft} */
function freshDraft() {
  return { steps: [], target: "", kind: "move", dir: "UP", aim: "UP", item: "bullet", cond: "found_treasure",
    visibility: "normal", treasure: "", refill: true, reorder: null };
}
/** @param {number} id */
function draftOf(id) {
  let draft = drafts.get(id);
  if (!draft) { draft = freshDraft(); drafts.set(id, draft); }
  return draft;
}

/** @param {number} id */
const notesKey = (id) => `deepdelve-paper-${id}`;
/** @param {number} id @returns {Notes} */
export function notesOf(id) {
  /** @type {Notes} */
  const blank = { start: null, reorders: [], here: [], types: {}, sides: {}, notes: {} };
  try {
    return { ...blank, ...JSON.parse(sessionStorage.getItem(notesKey(id)) || "{}") };
  } catch {
    return blank;
  }
}
/** @param {number} id @param {Notes} notes */
function saveNotes(id, notes) { sessionStorage.setItem(notesKey(id), JSON.stringify(notes)); }

/** @param {Json} match @returns {Json[]} the match's events read so far, in order */
function eventsOf(match) {
  let known = seen.get(match.id);
  if (!known) { known = new Map(); seen.set(match.id, known); }
  for (const event of /** @type {Json[]} */ (match.events || [])) known.set(event.seq, event);
  return [...known.values()].sort((a, b) => a.seq - b.seq);
}

// --- words -------------------------------------------------------------------------------------------------

/** @param {string} dir */
const dirWord = (dir) => t(`p_dir_${dir}`);
/** @param {string} item */
const itemWord = (item) => t(`p_item_${item}`);

/** A step in words ("Shoot up", "If found a treasure: shoot down"). @param {Json} step @returns {string} */
export function stepLabel(step) {
  const what = step.do;
  if (what === "if") {
    return t("p_do_if", { cond: t(`p_cond_${step.condition}`),
      then: (/** @type {Json[]} */ (step.then || [])).map(stepLabel).join(", ") || "…" });
  }
  return t(`p_do_${what}`, { dir: step.direction ? dirWord(step.direction) : "",
    item: step.item ? itemWord(step.item) : "" });
}

/** An action of the mode in words (a start, a turn, the clock's). @param {Json} action @returns {string} */
export function paperActionLabel(action) {
  if (action.type === "start") return t("p_startAt", { n: Number(action.cell) + 1 });
  if (action.type === "turn") {
    const steps = (/** @type {Json[]} */ (action.steps || [])).map(stepLabel).join(", ");
    const extra = [];
    if (action.visibility && action.visibility !== "normal") extra.push(t(`p_vis_${action.visibility}`));
    if (action.reorder !== undefined || action.reorders) extra.push(t("p_reorderShort"));
    return extra.length ? `${steps} (${extra.join(", ")})` : steps;
  }
  if (action.type === "timer" || action.type === "pause") return t(`p_clock_${action.type}`);
  return JSON.stringify(action);
}

// --- the sheet: what the player's own answers tell of the map -----------------------------------------------

/** @param {boolean[][]} outline @returns {Cell[]} the outline's cells as start actions number them */
function cellsOf(outline) {
  /** @type {Cell[]} */
  const cells = [];
  outline.forEach((row, r) => row.forEach((inside, c) => { if (inside) cells.push([r, c]); }));
  return cells;
}
/** @param {Cell} cell */
const key = (cell) => `${cell[0]},${cell[1]}`;

/**
 * The marks the player's own answers allow, from their start (or a cell they said they stand on): the
 * cell types they arrived at, the walls they met, the exits they went out by, treasures they found, and
 * where they stand now (null once a hole, a river or a dark turn took them somewhere unknown).
 * @param {Json[]} events @param {Notes} notes @param {number} seat @param {number} number @param {Cell[]} cells
 */
export function track(events, notes, seat, number, cells) {
  /** @type {Record<string, string>} */
  const types = {};
  /** @type {Record<string, string>} */
  const sides = {};
  /** @type {Record<string, number>} */
  const treasures = {};
  const inside = new Set(cells.map(key));
  /** @type {Cell | null} */
  let at = notes.start !== null && cells[notes.start] ? cells[notes.start] : null;
  /** @type {string | null} */
  let dir = null;
  let back = false; // just came back in: the arrival that follows is on the cell they went out from
  let reorders = 0;
  /** @type {number | null} */
  let reorderTo = null;
  let here = 0;
  const placements = [...notes.here].sort((a, b) => a.after - b.after);
  for (const event of events) {
    while (here < placements.length && placements[here].after < event.seq) {
      at = cells[placements[here].cell] || null;
      here += 1;
    }
    if (event.kind === "request") {
      if (event.seat !== seat) continue;
      const request = /** @type {Json} */ (event.request || {});
      const movement = (/** @type {Json[]} */ (request.steps || [])).find(
        (s) => ["move", "downstream", "cycle"].includes(s.do));
      dir = movement ? (movement.do === "move" ? movement.direction : movement.do) : null;
      reorderTo = request.reorders ? (notes.reorders[reorders] ?? null) : null;
      back = false;
      if (request.reorders) reorders += 1;
      continue;
    }
    if (event.kind !== "gm" || event.number !== number) continue;
    const data = /** @type {Json} */ (event.data || {});
    const step = dir && !back ? DELTA[dir] : null;
    const next = at && step ? /** @type {Cell} */ ([at[0] + step[0], at[1] + step[1]]) : null;
    const code = String(event.code);
    if (code === "reentered") back = true;
    else if ((code === "start" || (back && code === "moved")) && at) {
      types[key(at)] = data.cell;
      if (code === "moved" && data.cell === "hole") at = null;
    } else if (back && LOST.has(code)) at = null;
    else if (code === "reordered") at = reorderTo === null ? null : cells[reorderTo] || null;
    else if (code === "moved" || code === "shallow") {
      if (next && inside.has(key(next))) {
        types[key(next)] = data.cell;
        at = data.cell === "hole" ? null : next; // a hole puts the player on the next hole of its cycle
      } else at = null;
    } else if (code === "drifted") {
      if (next && inside.has(key(next))) types[key(next)] = "river";
      at = null;
    } else if (code === "wall" && data.drift === false) {
      if (at && dir && SIDE[dir]) sides[`${key(at)},${SIDE[dir]}`] = "wall";
    } else if (code === "wall" || LOST.has(code)) at = null;
    else if (OUT.has(code)) {
      if (at && dir && SIDE[dir]) sides[`${key(at)},${SIDE[dir]}`] = "exit";
    } else if (code === "found" && at && data.treasures) treasures[key(at)] = data.treasures;
  }
  while (here < placements.length) { at = cells[placements[here].cell] || null; here += 1; }
  return { types, sides, treasures, at };
}

/** A side's mark, from either cell it belongs to. @param {Record<string, string>} sides @param {Cell} cell @param {string} side */
function sideMark(sides, cell, side) {
  const [dr, dc, back] = ACROSS[side];
  return sides[`${key(cell)},${side}`] || sides[`${cell[0] + dr},${cell[1] + dc},${back}`] || "";
}

// --- the view ------------------------------------------------------------------------------------------------

/** @param {Json | null} status @returns {[string, string][]} */
function statusRows(status) {
  if (!status) return [];
  /** @type {[string, string][]} */
  const rows = [[t("p_health"), t(`p_health_${status.health}`) + (status.immune ? `, ${t("p_immune")}` : "")],
    [t("p_bullets"), String(status.bullets)], [t("p_grenades"), String(status.grenades)],
    [t("p_slot"), status.slot ? itemWord(status.slot) : t("p_empty")]];
  if (status.cure_left !== null && status.cure_left !== undefined) rows.push([t("p_cureLeft"), String(status.cure_left)]);
  rows.push([t("p_reordersLeft"), String(status.reorders_left)]);
  if (status.outside) rows.push([t("p_where"), t("p_outside")]);
  if (status.eliminated) rows.push([t("p_where"), t("p_eliminated")]);
  rows.push([t("p_calm"), t("p_calmOf", { n: status.calm_rounds, of: status.nstop })]);
  return rows;
}

/**
 * The paper labyrinth's view. `match` is the shell's match (its id, seat, events: the sheet and the
 * answers), or a replay's step (its `replay`: the steps so far and the seat, whose sheet, turns and answers
 * up to that step are drawn, read-only).
 * @param {Json} view @param {Json} match @param {Shell | null} shell @returns {HTMLElement}
 */
export function paperView(view, match, shell) {
  if (shell) rerender = shell.redraw;
  const send = shell ? shell.act : null;
  const root = el("div", { class: "paper-view" });
  if (view.public) { // a spectator: the table's public facts, nobody's status, no map
    /** @type {[string, string][]} */
    const rows = [[t("p_variant"), t(`p_variant_${view.variant}`)], [t("p_phase"), t(`p_phase_${view.phase}`)],
      [t("p_startsChosen"), String(view.starts_chosen)], [t("turnsPlayed"), String(view.turns_played)]];
    root.append(definitions(rows));
    return root;
  }
  const live = Boolean(shell) && typeof match.id === "number" && match.seat !== null && match.seat !== undefined;
  /** @type {[string, string][]} */
  const head = [[t("p_variant"), t(`p_variant_${view.variant}`)], [t("p_you"), t("p_player", { n: view.number })],
    [t("p_phase"), t(`p_phase_${view.phase}`)], [t("turnsPlayed"), String(view.turns_played)]];
  root.append(definitions([...head, ...statusRows(view.status)]));
  const past = match.replay ? replayed(match.replay).events : [];
  root.append(treasureBox(view, live ? eventsOf(match) : past));
  if (live || match.replay) root.append(sheet(view, match, send));
  root.append(answers(view, live ? eventsOf(match) : past, match.replay ? match.replay.seat : match.seat));
  if (view.revealed) {
    const block = el("pre", { class: "map-text" });
    block.textContent = String(view.revealed.map);
    const details = el("details", { class: "p-revealed", open: "" });
    details.append(el("summary", {}, t("p_revealed")), block);
    root.append(details);
  }
  return root;
}

/** What the view says of the treasure, and the public answers about treasures. @param {Json} view @param {Json[]} events */
function treasureBox(view, events) {
  const box = el("section", { class: "p-treasure", "aria-label": t("p_treasure") });
  box.append(el("h4", {}, t("p_treasure")));
  const slot = view.status ? view.status.slot : null;
  box.append(el("p", { class: "p-carry" }, t(slot === "treasure" ? "p_carryTreasure" : "p_carryNone")));
  const news = events.filter((e) => e.kind === "gm" && (TREASURE_NEWS.has(e.code)
    || (e.code === "found" && e.data && e.data.treasures)
    || (["left", "thrown", "at_feet"].includes(e.code) && e.data && e.data.item === "treasure")));
  if (news.length) {
    const list = el("ul", { class: "p-news" });
    for (const e of news.slice(-6)) {
      list.append(el("li", {}, e.number ? `${t("p_player", { n: e.number })}: ${e.text}` : String(e.text)));
    }
    box.append(list);
  }
  return box;
}

/**
 * The game master's answers: to the player's own turns (read so far), else the view's last answers to each
 * seat; and the opening announcement.
 * @param {Json} view @param {Json[]} events @param {number | null | undefined} seat
 */
function answers(view, events, seat) {
  const box = el("section", { class: "p-answers" });
  box.append(el("h4", {}, t("p_answers")));
  /** @type {{ request: string, texts: string[] }[]} */
  const turns = [];
  let mine = false;
  for (const event of events) {
    if (event.kind === "request") {
      mine = event.seat === seat;
      if (mine) turns.push({ request: paperActionLabel(event.request || {}), texts: [] });
    } else if (event.kind === "gm" && mine && event.number === view.number && turns.length) {
      turns[turns.length - 1].texts.push(String(event.text));
    }
  }
  const list = el("ol", { class: "p-turns" });
  if (turns.length) {
    const from = Math.max(0, turns.length - 8);
    list.setAttribute("start", String(from + 1));
    for (const turn of turns.slice(from)) {
      const item = el("li");
      item.append(el("strong", {}, turn.request), el("span", {}, ` → ${turn.texts.join(" · ") || "—"}`));
      list.append(item);
    }
    box.append(list);
  } else {
    const last = /** @type {Record<string, Json[]>} */ (view.last_answers || {});
    for (const [who, said] of Object.entries(last)) {
      list.append(el("li", {}, `${t("seat", { n: who })}: ${said.map((a) => a.text).join(" · ")}`));
    }
    if (list.childElementCount) box.append(list);
  }
  if (Array.isArray(view.opening) && view.opening.length) {
    box.append(el("p", { class: "hint p-opening" }, `${t("p_opening")}: ${view.opening.map((a) => a.text).join(" · ")}`));
  }
  return box;
}

/**
 * A replay's events up to its step and the notes its seat's own actions give (the start and re-order cells
 * they sent): the sheet as the answers drew it then, without marks by hand.
 * @param {{ steps: Json[], seat: number }} replay @returns {{ events: Json[], notes: Notes }}
 */
function replayed(replay) {
  /** @type {Notes} */
  const notes = { start: null, reorders: [], here: [], types: {}, sides: {}, notes: {} };
  /** @type {Json[]} */
  const events = [];
  for (const step of replay.steps) {
    const action = step.seat === replay.seat ? step.action : null;
    if (action && action.type === "start") notes.start = action.cell;
    if (action && typeof action.reorder === "number") notes.reorders.push(action.reorder);
    events.push(...(step.events || []));
  }
  return { events, notes };
}

/**
 * The player's sheet: the outline, each cell a button (arrow keys move between them); the chosen cell's
 * marks are edited below it. Marks made by hand win over the ones drawn from the answers. In a replay
 * (`match.replay`) the sheet is drawn from the seat's steps so far, read-only.
 * @param {Json} view @param {Json} match @param {Shell["act"] | null} send
 */
function sheet(view, match, send) {
  const id = /** @type {number} */ (match.id);
  const outline = /** @type {boolean[][]} */ (view.outline || []);
  const cells = cellsOf(outline);
  const past = match.replay ? replayed(match.replay) : null;
  const notes = past ? past.notes : notesOf(id);
  const seat = past ? match.replay.seat : match.seat;
  const auto = track(past ? past.events : eventsOf(match), notes, seat, view.number, cells);
  const box = el("section", { class: "p-sheet-box" });
  box.append(el("h4", {}, t("p_sheet")));
  const where = auto.at ? t("p_hereKnown") : t(view.phase === "choosing_starts" ? "p_chooseStart" : "p_hereUnknown");
  box.append(el("p", { class: "hint" }, where));
  const chosen = past ? "" : chosenCell.get(id) || (auto.at ? key(auto.at) : cells.length ? key(cells[0]) : "");
  const grid = el("div", { class: "p-sheet", role: "group", "aria-label": t("p_sheet") });
  grid.style.setProperty("--cols", String(outline.length ? outline[0].length : 1));
  const start = notes.start !== null && cells[notes.start] ? key(cells[notes.start]) : "";
  const indexOf = new Map(cells.map((cell, i) => [key(cell), i]));
  outline.forEach((row, r) => row.forEach((inside, c) => {
    if (!inside) { grid.append(el("span", { class: "p-cell p-void" })); return; }
    const k = `${r},${c}`;
    const type = notes.types[k] || auto.types[k] || "";
    const mark = (type ? t(`p_letter_${type}`) : "") + (auto.treasures[k] ? "$" : "")
      + (notes.notes[k] ? "*" : "");
    const props = { class: "p-cell", "data-cell": k, "data-index": String(indexOf.get(k)) };
    const cell = past ? el("span", props, mark || "\u00a0")
      : button(mark || "\u00a0", () => { chosenCell.set(id, k); rerender(); }, { ...props, id: `p-cell-${r}-${c}` });
    const spoken = [t("p_cellName", { r: r + 1, c: c + 1 }), type ? t(`p_cell_${type}`) : "", notes.notes[k] || ""];
    if (k === start) { cell.classList.add("start"); spoken.push(t("p_start")); }
    if (auto.at && key(auto.at) === k) { cell.classList.add("here"); spoken.push(t("p_here")); }
    if (k === chosen) cell.classList.add("chosen");
    if (notes.types[k]) cell.classList.add("by-hand");
    for (const side of ["n", "e", "s", "w"]) {
      const value = sideMark(notes.sides, [r, c], side) || sideMark(auto.sides, [r, c], side);
      if (value === "wall" || value === "exit") cell.classList.add(`${value}-${side}`);
    }
    cell.setAttribute("aria-label", spoken.filter(Boolean).join(", "));
    if (!past) cell.setAttribute("aria-pressed", k === chosen ? "true" : "false");
    grid.append(cell);
  }));
  grid.addEventListener("keydown", (event) => {
    const step = { ArrowUp: DELTA.UP, ArrowDown: DELTA.DOWN, ArrowLeft: DELTA.LEFT, ArrowRight: DELTA.RIGHT }[event.key];
    const target = /** @type {HTMLElement} */ (event.target);
    if (!step || !target.dataset.cell) return;
    event.preventDefault();
    const [r, c] = target.dataset.cell.split(",").map(Number);
    for (let i = 1; i < 13; i += 1) {
      const next = document.getElementById(`p-cell-${r + step[0] * i}-${c + step[1] * i}`);
      if (next) { chosenCell.set(id, next.dataset.cell || ""); next.focus(); rerender(); return; }
    }
  });
  box.append(grid, legend());
  if (chosen && !past) box.append(editor(view, match, send, notes, chosen, indexOf.get(chosen) ?? -1));
  return box;
}

function legend() {
  const text = CELL_TYPES.map((type) => `${t(`p_letter_${type}`)} ${t(`p_cell_${type}`)}`).join(" · ");
  return el("p", { class: "hint p-legend" }, `${text} · $ ${t("p_treasureFound")} · * ${t("p_note")} · ● ${t("p_start")} · ◆ ${t("p_here")}`);
}

/** The chosen cell's marks, "I am here", and on a start or re-order turn the cell's use. */
/** @param {Json} view @param {Json} match @param {Shell["act"] | null} send @param {Notes} notes @param {string} k @param {number} index */
function editor(view, match, send, notes, k, index) {
  const id = /** @type {number} */ (match.id);
  const [r, c] = k.split(",").map(Number);
  const box = el("div", { class: "p-editor" });
  box.append(el("p", { class: "p-editing" }, t("p_cellName", { r: r + 1, c: c + 1 })));
  const change = (/** @type {(n: Notes) => void} */ apply) => { const n = notesOf(id); apply(n); saveNotes(id, n); rerender(); };
  const type = el("select", { id: "p-mark-type", "aria-label": t("p_markType") });
  type.append(el("option", { value: "" }, t("p_unknown")));
  for (const name of CELL_TYPES) type.append(el("option", { value: name }, `${t(`p_letter_${name}`)} ${t(`p_cell_${name}`)}`));
  type.value = notes.types[k] || "";
  type.addEventListener("change", () => change((n) => { if (type.value) n.types[k] = type.value; else delete n.types[k]; }));
  const typeLabel = el("label");
  typeLabel.append(el("span", {}, t("p_markType")), type);
  box.append(typeLabel);
  for (const side of ["n", "e", "s", "w"]) {
    const select = el("select", { id: `p-mark-${side}` });
    for (const value of ["", "wall", "exit", "open"]) select.append(el("option", { value }, t(`p_side_${value || "unknown"}`)));
    select.value = notes.sides[`${k},${side}`] || "";
    select.addEventListener("change", () => change((n) => {
      const [dr, dc, back] = ACROSS[side];
      delete n.sides[`${r + dr},${c + dc},${back}`];
      if (select.value) n.sides[`${k},${side}`] = select.value; else delete n.sides[`${k},${side}`];
    }));
    const label = el("label");
    label.append(el("span", {}, t(`p_sideName_${side}`)), select);
    box.append(label);
  }
  const note = el("input", { id: "p-mark-note", type: "text", maxlength: "80" });
  note.value = notes.notes[k] || "";
  // saved as it is typed (a read may redraw the page meanwhile: the new field shows it), drawn on change
  const keep = (/** @type {Notes} */ n) => { if (note.value.trim()) n.notes[k] = note.value; else delete n.notes[k]; };
  note.addEventListener("input", () => { const n = notesOf(id); keep(n); saveNotes(id, n); });
  note.addEventListener("focus", () => note.setSelectionRange(note.value.length, note.value.length));
  note.addEventListener("change", () => change(keep));
  const noteLabel = el("label");
  noteLabel.append(el("span", {}, t("p_note")), note);
  box.append(noteLabel);
  const buttons = el("div", { class: "buttons wrap" });
  buttons.append(button(t("p_iAmHere"), () => change((n) => {
    const after = Math.max(0, ...eventsOf(match).map((e) => Number(e.seq)));
    n.here.push({ after, cell: index });
  }), { id: "p-here", class: "secondary" }));
  const actions = /** @type {Json[]} */ (match.allowed_actions || []);
  const startHere = actions.find((a) => a.type === "start" && a.cell === index);
  if (startHere && send) {
    buttons.append(button(t("p_startHere"), async () => {
      if (await send(startHere)) change((n) => { n.start = index; });
    }, { id: "p-start-here" }));
  }
  const draft = draftOf(id);
  if (view.status && view.status.may_reorder && view.variant === "classic") {
    buttons.append(button(t(draft.reorder === index ? "p_reorderCancel" : "p_reorderHere"), () => {
      draft.reorder = draft.reorder === index ? null : index;
      rerender();
    }, { id: "p-reorder-here", class: "secondary" }));
  }
  box.append(buttons);
  return box;
}

// --- the moves ---------------------------------------------------------------------------------------------

/**
 * The moves of a seated player in place of one button per allowed action: the start (on the sheet), the
 * clock's, a quantum turn's one step (each allowed action), a classic turn's quick moves and composer.
 * @param {Json} match @param {Shell} shell @returns {HTMLElement}
 */
export function paperActions(match, shell) {
  rerender = shell.redraw;
  const root = el("div", { class: "p-moves" });
  const view = /** @type {Json} */ (match.view || {});
  const actions = /** @type {Json[]} */ (match.allowed_actions || []);
  const turns = actions.filter((a) => a.type === "turn");
  const others = actions.filter((a) => a.type !== "turn" && a.type !== "start");
  if (actions.some((a) => a.type === "start")) root.append(el("p", { class: "hint" }, t("p_chooseStart")));
  const row = el("div", { class: "buttons wrap p-quick" });
  for (const action of [...turns, ...others]) {
    const b = button(paperActionLabel(action), () => shell.act(action), { class: "action" });
    b.dataset.action = JSON.stringify(action);
    b.disabled = shell.sending;
    row.append(b);
  }
  if (row.childElementCount) {
    if (turns.length && view.variant === "classic") root.append(el("p", { class: "hint" }, t("p_quick")));
    root.append(row);
  }
  if (turns.length) root.append(composer(match, shell, view.variant === "quantum"));
  if (!actions.length) root.append(el("p", { class: "hint" }, t("noActions")));
  return root;
}

/** @param {Json[]} steps @param {string} path @returns {Json[]} the step list a target path names */
function listAt(steps, path) {
  let list = steps;
  for (const i of path ? path.split(".").map(Number) : []) list = list[i] && list[i].then ? list[i].then : list;
  return list;
}
/** @param {Json[]} steps @param {string} prefix @param {number} depth @returns {[string, Json, number][]} each condition's path */
function conditions(steps, prefix = "", depth = 1) {
  /** @type {[string, Json, number][]} */
  const found = [];
  steps.forEach((step, i) => {
    if (step.do !== "if") return;
    const path = prefix ? `${prefix}.${i}` : String(i);
    found.push([path, step, depth], ...conditions(step.then, path, depth + 1));
  });
  return found;
}
/** @param {Json[]} steps @returns {boolean} whether a condition has no step yet */
const emptyCondition = (steps) => steps.some((s) => s.do === "if" && (!s.then.length || emptyCondition(s.then)));

/**
 * A turn composed step by step (classic: a movement and any actions, conditions; quantum: one step), with
 * the turn's options.
 * @param {Json} match @param {{ act: Shell["act"], sending: boolean }} shell @param {boolean} quantum
 */
function composer(match, shell, quantum) {
  const id = /** @type {number} */ (match.id);
  const draft = draftOf(id);
  const kinds = quantum ? STEP_KINDS.filter((k) => k !== "if") : STEP_KINDS;
  if (!kinds.includes(draft.kind)) draft.kind = "move";
  const form = el("form", { class: "p-composer", "aria-label": t("p_compose") });
  form.append(el("h4", {}, t("p_compose")));
  if (quantum) form.append(el("p", { class: "hint" }, t("p_quantumTurn")));
  /** @param {string} name @param {string} label @param {[string, string][]} options @param {keyof Draft} field */
  const pick = (name, label, options, field) => {
    const select = el("select", { id: `pc-${name}`, name });
    for (const [value, text] of options) select.append(el("option", { value }, text));
    select.value = String(draft[field]);
    select.addEventListener("change", () => { /** @type {Json} */ (draft)[field] = select.value; if (name === "kind") rerender(); });
    const wrap = el("label");
    wrap.append(el("span", {}, label), select);
    return wrap;
  };
  const row = el("div", { class: "p-row" });
  row.append(pick("kind", t("p_stepKind"), kinds.map((k) => [k, t(`p_kind_${k}`)]), "kind"));
  const kind = draft.kind;
  if (kind === "move" || kind === "grenade" || kind === "throw") {
    row.append(pick("dir", t("p_direction"), DIRS.map((d) => [d, dirWord(d)]), "dir"));
  }
  if (kind === "shoot" || kind === "mine") {
    row.append(pick("aim", t("p_direction"), [...DIRS, "HERE"].map((d) => [d, dirWord(d)]), "aim"));
  }
  if (kind === "leave" || kind === "throw") row.append(pick("item", t("p_itemName"), ITEMS.map((i) => [i, itemWord(i)]), "item"));
  if (kind === "if") row.append(pick("cond", t("p_condition"), CONDITIONS.map((c) => [c, t(`p_cond_${c}`)]), "cond"));
  const targets = conditions(draft.steps).filter(([, , depth]) => depth <= MAX_DEPTH);
  if (targets.length) {
    /** @type {[string, string][]} */
    const options = [["", t("p_intoTurn")], ...targets.map(([path, step]) => /** @type {[string, string]} */ (
      [path, t("p_intoIf", { cond: t(`p_cond_${step.condition}`), n: path.split(".").map((i) => Number(i) + 1).join(".") })]))];
    if (!options.some(([value]) => value === draft.target)) draft.target = "";
    row.append(pick("target", t("p_into"), options, "target"));
  }
  const add = el("button", { type: "submit", id: "pc-add", class: "secondary" }, t("p_add"));
  add.disabled = quantum && draft.steps.length > 0;
  row.append(add);
  form.append(row);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (add.disabled) return;
    /** @type {Json} */
    const step = { do: kind };
    if (kind === "move" || kind === "grenade" || kind === "throw") step.direction = draft.dir;
    if (kind === "shoot" || kind === "mine") step.direction = draft.aim;
    if (kind === "leave" || kind === "throw") step.item = draft.item;
    if (kind === "if") { step.condition = draft.cond; step.then = []; }
    const into = listAt(draft.steps, draft.target);
    into.push(step);
    if (kind === "if") draft.target = draft.target ? `${draft.target}.${into.length - 1}` : String(into.length - 1);
    rerender();
  });
  // the turn so far, each step with its removal
  const list = el("ol", { class: "p-draft", id: "pc-draft" });
  /** @param {Json[]} steps @param {HTMLElement} into @param {string} prefix */
  const draw = (steps, into, prefix) => steps.forEach((step, i) => {
    const path = prefix ? `${prefix}.${i}` : String(i);
    const item = el("li", { "data-step": path });
    item.append(el("span", {}, step.do === "if" ? t("p_do_if", { cond: t(`p_cond_${step.condition}`), then: "" }) : stepLabel(step)));
    item.append(button("✕", () => {
      const parent = listAt(draft.steps, prefix);
      parent.splice(i, 1);
      draft.target = "";
      rerender();
    }, { id: `pc-rm-${path}`, class: "link", "aria-label": `${t("p_remove")}: ${stepLabel(step)}` }));
    if (step.do === "if") {
      const inner = el("ol");
      draw(step.then, inner, path);
      item.append(inner);
    }
    into.append(item);
  });
  draw(draft.steps, list, "");
  form.append(draft.steps.length ? list : el("p", { class: "hint", id: "pc-draft" }, t("p_emptyTurn")));
  // the turn's options
  const options = el("div", { class: "p-row" });
  options.append(pick("visibility", t("p_visibility"), ["normal", "dark", "half_dark"].map((v) => [v, t(`p_vis_${v}`)]), "visibility"));
  options.append(pick("treasure", t("p_treasureChoice"), [["", t("p_treasureTop")], ["0", t("p_treasureNone")],
    ...[1, 2, 3, 4, 5].map((n) => /** @type {[string, string]} */ ([String(n), t("p_treasureK", { k: n })]))], "treasure"));
  const refill = el("input", { type: "checkbox", id: "pc-refill" });
  refill.checked = draft.refill;
  refill.addEventListener("change", () => { draft.refill = refill.checked; });
  const refillLabel = el("label", { class: "p-check" });
  refillLabel.append(refill, el("span", {}, t("p_refill")));
  options.append(refillLabel);
  form.append(options);
  if (draft.reorder !== null) form.append(el("p", { class: "hint" }, t("p_reorderTo", { n: draft.reorder + 1 })));
  const send = button(t("p_send"), async () => {
    /** @type {Json} */
    const action = { type: "turn", steps: draft.steps };
    if (draft.visibility !== "normal") action.visibility = draft.visibility;
    if (draft.treasure !== "") action.treasure = Number(draft.treasure);
    if (!draft.refill) action.refill = false;
    const reorder = draft.reorder;
    if (reorder !== null) action.reorder = reorder;
    if (await shell.act(action)) {
      if (reorder !== null) { const n = notesOf(id); n.reorders.push(reorder); saveNotes(id, n); }
      drafts.set(id, freshDraft());
      rerender();
    }
  }, { id: "pc-send" });
  send.disabled = shell.sending || !draft.steps.length || emptyCondition(draft.steps)
    || (quantum && draft.steps.length !== 1);
  const clear = button(t("p_clear"), () => { drafts.set(id, freshDraft()); rerender(); }, { id: "pc-clear", class: "secondary" });
  const buttons = el("div", { class: "buttons wrap" });
  buttons.append(send, clear);
  form.append(buttons);
  if (draft.steps.length) {
    form.append(el("p", { class: "hint", id: "pc-preview" }, `${t("p_turnPreview")}: ${paperActionLabel({ type: "turn", steps: draft.steps })}`));
  }
  return form;
}
