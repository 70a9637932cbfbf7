// What the match shell draws: a readable key/value rendering of any mode's view (the fallback), each
// allowed action's label, and the console labyrinth's notebook (docs/play.md).
import { t } from "./i18n.js";

/**
 * What the shell hands a mode's own renderer module (app.js's RENDERERS): the events the seat saw (oldest
 * first), whether the page plays now (a seated player's live match; false in a replay or for a spectator),
 * whether an action is being sent, how to play an action (true when it was taken, false when refused) and
 * how to redraw the match screen. `memory`: a sessionStorage key the renderer may keep its notes of this
 * match under (null in a replay); `first`: the seat's first view, when the shell has it (a replay's first step).
 * @typedef {{ events: Record<string, any>[], live: boolean, sending: boolean,
 *   act: (action: Record<string, any>) => Promise<boolean>, redraw: () => void, memory: string | null,
 *   first: Record<string, any> | null }} ModeContext
 */

/**
 * An element with attributes and a text (none when empty): the shell's and the renderers' one builder.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Record<string, string>} [props] @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, text = "") {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) element.setAttribute(name, value);
  if (text) element.textContent = text;
  return element;
}

/** A button that calls `onClick`. @param {string} text @param {() => unknown} onClick
 * @param {Record<string, string>} [props] @returns {HTMLButtonElement} */
export function button(text, onClick, props = {}) {
  const b = el("button", { type: "button", ...props }, text);
  b.addEventListener("click", () => { onClick(); });
  return b;
}

/**
 * A value in readable form: [x, y] as (x, y), an object as "key: value, ...", null as "none".
 * @param {unknown} value @returns {string}
 */
export function readable(value) {
  if (value === null || value === undefined) return t("noneValue");
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === "number")) return `(${value.join(", ")})`;
    return value.map(readable).join("; ");
  }
  if (typeof value === "object") {
    return Object.entries(/** @type {Record<string, unknown>} */ (value))
      .map(([k, v]) => `${k.replace(/_/g, " ")}: ${readable(v)}`).join(", ");
  }
  return String(value);
}

/** An allowed action's button label. @param {string} mode @param {Record<string, unknown>} action */
export function actionLabel(mode, action) {
  if (mode === "labyrinth_console" && typeof action.command === "string") {
    const key = `cmd_${action.command}`;
    const word = t(key);
    if (word !== key) return word;
  }
  return readable(action);
}

/**
 * The fallback: a definition list of the view's keys, nested for objects, lists of objects as lists.
 * @param {unknown} value @param {number} [depth] @returns {HTMLElement}
 */
export function keyValues(value, depth = 0) {
  if (value === null || typeof value !== "object" || depth > 3) {
    const span = document.createElement("span");
    span.textContent = readable(value);
    return span;
  }
  if (Array.isArray(value)) {
    const rows = gridRows(value);
    if (rows) {
      const block = document.createElement("div");
      block.className = "map-text";
      block.setAttribute("role", "img");
      block.textContent = rows.join("\n");
      return block;
    }
    if (!value.some((v) => v && typeof v === "object") || value.length === 0) {
      const span = document.createElement("span");
      span.textContent = value.length ? readable(value) : "—";
      return span;
    }
    const list = document.createElement("ol");
    list.className = "kv-list";
    for (const item of value.slice(0, 200)) {
      const li = document.createElement("li");
      li.textContent = readable(item);
      list.append(li);
    }
    return list;
  }
  const dl = document.createElement("dl");
  dl.className = "kv";
  for (const [key, item] of Object.entries(/** @type {Record<string, unknown>} */ (value))) {
    const dt = document.createElement("dt");
    dt.textContent = key.replace(/_/g, " ");
    const dd = document.createElement("dd");
    dd.append(keyValues(item, depth + 1));
    dl.append(dt, dd);
  }
  return dl;
}

/**
 * A picture's rows, when a value is one: a grid of booleans (█ and ·) or of one-letter cells, or equal
 * lines of text (a map's rows); null otherwise.
 * @param {unknown[]} value @returns {string[] | null}
 */
function gridRows(value) {
  if (value.length === 0) return null;
  if (value.every((row) => Array.isArray(row) && row.length > 0
    && row.every((cell) => typeof cell === "boolean" || (typeof cell === "string" && cell.length === 1)))) {
    return value.map((row) => /** @type {unknown[]} */ (row)
      .map((cell) => (cell === true ? "█" : cell === false ? "·" : String(cell))).join(""));
  }
  if (value.length > 1 && value.every((row) => typeof row === "string" && row.length > 1
    && row.length === String(value[0]).length)) {
    return value.map(String);
  }
  return null;
}

// --- the console labyrinth's notebook ------------------------------------------------------------------

/** @typedef {{ command: string, kinds: string[] }} Answered  a command of the player and the kinds it was answered with */
/** @typedef {{ visited: Set<string>, walls: Set<string>, exits: Set<string>, at: [number, number] }} Sheet */

/** @type {Record<string, [number, number, string]>} */
const STEPS = { W: [-1, 0, "n"], S: [1, 0, "s"], A: [0, -1, "w"], D: [0, 1, "e"] };
const NEW_SHEET = new Set(["teleported", "killed", "woke_up"]);

/**
 * The player's notebook, folded from their own commands and the game master's answers: where they went
 * from their start (0, 0), the walls they met, the exit they found locked. A teleport, a death or a
 * waking up puts them somewhere unknown: a new sheet begins.
 * @param {Answered[]} answered @returns {Sheet[]}
 */
export function notebook(answered) {
  /** @returns {Sheet} */
  const fresh = () => ({ visited: new Set(["0,0"]), walls: new Set(), exits: new Set(), at: [0, 0] });
  const sheets = [fresh()];
  for (const { command, kinds } of answered) {
    const sheet = sheets[sheets.length - 1];
    const step = STEPS[command.trim().toUpperCase()];
    if (step) {
      const [dr, dc, side] = step;
      const here = `${sheet.at[0]},${sheet.at[1]}`;
      if (kinds.includes("wall")) sheet.walls.add(`${here},${side}`);
      else if (kinds.includes("exit_locked")) sheet.exits.add(`${here},${side}`);
      else if (kinds.includes("moved")) {
        sheet.at = [sheet.at[0] + dr, sheet.at[1] + dc];
        sheet.visited.add(`${sheet.at[0]},${sheet.at[1]}`);
      }
    }
    if (kinds.some((kind) => NEW_SHEET.has(kind))) sheets.push(fresh());
  }
  return sheets;
}

/** @param {Sheet} sheet @returns {HTMLElement} */
export function drawSheet(sheet) {
  const cells = [...sheet.visited].map((key) => key.split(",").map(Number));
  const rows = cells.map(([r]) => r);
  const cols = cells.map(([, c]) => c);
  const [top, bottom] = [Math.min(...rows) - 1, Math.max(...rows) + 1];
  const [left, right] = [Math.min(...cols) - 1, Math.max(...cols) + 1];
  const grid = document.createElement("div");
  grid.className = "notebook";
  grid.style.setProperty("--cols", String(right - left + 1));
  grid.setAttribute("role", "img");
  for (let r = top; r <= bottom; r += 1) {
    for (let c = left; c <= right; c += 1) {
      const cell = document.createElement("span");
      const key = `${r},${c}`;
      cell.className = "nb-cell";
      if (sheet.visited.has(key)) cell.classList.add("visited");
      for (const side of ["n", "e", "s", "w"]) {
        if (sheet.walls.has(`${key},${side}`)) cell.classList.add(`wall-${side}`);
        if (sheet.exits.has(`${key},${side}`)) { cell.classList.add(`exit-${side}`); cell.title = t("exitHere"); }
      }
      if (r === 0 && c === 0) cell.textContent = "●";
      if (sheet.at[0] === r && sheet.at[1] === c) { cell.classList.add("here"); cell.textContent = "◆"; }
      grid.append(cell);
    }
  }
  return grid;
}

/** A definition list (`dl.kv`) of names and values. @param {[string, string][]} rows @returns {HTMLElement} */
export function definitions(rows) {
  const dl = document.createElement("dl");
  dl.className = "kv";
  for (const [name, value] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = name;
    const dd = document.createElement("dd");
    dd.textContent = value;
    dl.append(dt, dd);
  }
  return dl;
}

/**
 * The console labyrinth's view: the inventory, the turns, the notebook of the current sheet, the help.
 * @param {Record<string, any>} view @param {Answered[]} answered @returns {HTMLElement}
 */
export function consoleView(view, answered) {
  const root = document.createElement("div");
  root.className = "console-view";
  /** @type {[string, string][]} */
  const rows = [];
  if (view.inventory) {
    rows.push([t("ammo"), String(view.inventory.ammo)], [t("key"), readable(Boolean(view.inventory.key))]);
  }
  if (typeof view.turns_played === "number") rows.push([t("turnsPlayed"), String(view.turns_played)]);
  root.append(definitions(rows));
  if (view.public) return root; // a spectator's public view: nobody's notebook
  const sheets = notebook(answered);
  const caption = document.createElement("p");
  caption.className = "hint";
  const field = view.field || { rows: "?", cols: "?" };
  caption.textContent = t("notebook", { rows: field.rows, cols: field.cols })
    + (sheets.length > 1 ? ` · ${t("notebookSheet", { n: sheets.length })}` : "");
  root.append(caption, drawSheet(sheets[sheets.length - 1]));
  if (view.choosing_starts) {
    const line = document.createElement("p");
    line.textContent = t("choosingStarts");
    root.append(line);
  }
  if (view.help) {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = t("help");
    const text = document.createElement("p");
    text.className = "help";
    text.textContent = String(view.help);
    details.append(summary, text);
    root.append(details);
  }
  if (view.revealed) {
    // after the end: the map's text (its spaces kept, in a monospace block) and where everyone was
    const { map, ...rest } = view.revealed;
    if (typeof map === "string") {
      const block = document.createElement("pre");
      block.className = "map-text";
      block.textContent = map;
      root.append(block);
    }
    root.append(keyValues(rest));
  }
  return root;
}
