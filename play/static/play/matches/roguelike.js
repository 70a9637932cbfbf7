// Seed 000's roguelike (`labyrinth_roguelike`) in the match shell (docs/play.md): the fog-of-war board, the
// player's state, and GO / SHOOT / BOMB / BUILD composed from `allowed_actions` (buttons and keys).
//
// The view never gives a position or a map (docs/roguelike.md, "Fog of war"): the board is the player's own
// notebook, folded from their own events (where they stepped, the sides and buildings they felt, the monsters
// they met, what they picked up) and the view's `here`, counted from where a sheet was begun. A portal or a
// respawn far from any known graveyard puts the player somewhere unknown: a new sheet begins. After the end,
// a drawn world's `revealed` map is shown as the server gives it.
import { t } from "./i18n.js";
import { button, definitions } from "./render.js";

/** @typedef {Record<string, any>} Json */
/** @typedef {"UP" | "LEFT" | "DOWN" | "RIGHT"} Dir */
/**
 * A cell of a sheet: the sides felt, the building (undefined: not felt), the monsters met, the loot picked up.
 * @typedef {{ sides: Partial<Record<Dir, string>>, building: string | null | undefined, monsters: string[],
 *   loot: string[] }} Note
 */
/**
 * A sheet: its floor (null: not known), its frame (sheets of one frame share rows and columns: a lift ride),
 * its cells by "row,col", the player's mark; `gone` once joined to another.
 * @typedef {{ floor: number | null, frame: number, cells: Map<string, Note>, at: [number, number],
 *   gone?: boolean }} Sheet
 */
/** @typedef {{ sheets: Sheet[], current: number }} Notebook */
/** @typedef {import("./render.js").ModeContext} Context */

/** @type {Dir[]} */
export const DIRS = ["UP", "LEFT", "DOWN", "RIGHT"];
/** @type {Record<Dir, [number, number]>} */
const DELTA = { UP: [-1, 0], LEFT: [0, -1], DOWN: [1, 0], RIGHT: [0, 1] };
/** @type {Record<Dir, Dir>} */
const OPPOSITE = { UP: "DOWN", DOWN: "UP", LEFT: "RIGHT", RIGHT: "LEFT" };
/** @type {Record<string, string>} */
const BUILDING_MARK = { graveyard: "✝", arsenal: "⚔", hospital: "✚", portal: "◎", mines: "✹", lift: "⇅" };
/** @type {Record<string, string>} */
const LOOT_MARK = { gold: "★", dragon_ring: "○", bag: "▣" };
/** @type {Record<Dir, string>} */
const ARROW = { UP: "↑", LEFT: "←", DOWN: "↓", RIGHT: "→" };
const YOU = "●";
const VERBS = ["go", "shoot", "bomb", "build"];
/** @type {Record<string, Dir>} */
const KEY_DIR = { ArrowUp: "UP", ArrowLeft: "LEFT", ArrowDown: "DOWN", ArrowRight: "RIGHT",
  w: "UP", a: "LEFT", s: "DOWN", d: "RIGHT" };
/** @type {Record<string, string>} */
const KEY_VERB = { g: "go", f: "shoot", b: "bomb", c: "build" };

/** @param {number} r @param {number} c */
const key = (r, c) => `${r},${c}`;

/** @returns {Note} */
const blank = () => ({ sides: {}, building: undefined, monsters: [], loot: [] });

/**
 * The player's notebook: their events folded over sheets (pure; docs/play.md). A step moves the mark, a
 * `cell` answer writes the building and the four sides, a bomb opens a side and cement closes it, a met
 * monster or a pickup is noted on the cell. A lift ride keeps the row and column, so the other floor's
 * sheet shares the frame; a portal (unless this portal was taken before) and a respawn (unless a graveyard
 * is known) begin a new sheet. Meeting a landmark another sheet holds (the graveyard, the one of the world;
 * the lift, the one of its floor) joins the sheet to that one. `here`, the view's cell, is written last;
 * `start`, the first view's cell, first (no event describes the cell a game starts on).
 * @param {Json[]} events @param {Json | null} here @param {Json | null} [start] @returns {Notebook}
 */
export function notebook(events, here, start = null) {
  /** @param {number | null} floor @param {number} frame @param {[number, number]} at @returns {Sheet} */
  const sheet = (floor, frame, at) => ({ floor, frame, cells: new Map([[key(...at), blank()]]), at });
  const sheets = [sheet(null, 0, [0, 0])];
  let current = 0;
  /** @type {Map<string, [number, [number, number]]>} where a portal (sheet:r,c) led before */
  const portals = new Map();
  let frames = 1;
  const cur = () => sheets[current];
  /** @param {Sheet} s @param {[number, number]} at */
  const noteAt = (s, at) => {
    let note = s.cells.get(key(...at));
    if (!note) { note = blank(); s.cells.set(key(...at), note); }
    return note;
  };
  /** @param {Dir} dir @param {string} felt both faces of a side (walls are two-sided) */
  const setSide = (dir, felt) => {
    const s = cur();
    noteAt(s, s.at).sides[dir] = felt;
    const beyond = s.cells.get(key(s.at[0] + DELTA[dir][0], s.at[1] + DELTA[dir][1]));
    if (beyond && felt !== "exit") beyond.sides[OPPOSITE[dir]] = felt;
  };
  /** @param {Sheet} s */
  const begin = (s) => { sheets.push(s); current = sheets.length - 1; };
  /**
   * Where another sheet than `except` holds a landmark: the graveyard ("graveyard") or a floor's lift
   * ("lift:N"). @param {string} mark @param {number} except @returns {[number, [number, number]] | null}
   */
  const landmark = (mark, except) => {
    for (const [i, o] of sheets.entries()) {
      if (o.gone || i === except) continue;
      for (const [at, note] of o.cells) {
        if (landmarkOf(o, note) === mark) return [i, /** @type {[number, number]} */ (at.split(",").map(Number))];
      }
    }
    return null;
  };
  /** The current sheet joined to another one holding the landmark the player stands on, if any. */
  const settle = () => {
    const s = cur();
    const mark = landmarkOf(s, noteAt(s, s.at));
    const found = mark ? landmark(mark, current) : null;
    if (!found) return;
    const [target, at] = found;
    const [dr, dc] = [at[0] - s.at[0], at[1] - s.at[1]];
    /** @param {number[]} p @returns {[number, number]} */
    const shift = (p) => [p[0] + dr, p[1] + dc];
    const into = sheets[target];
    for (const [k, note] of s.cells) {
      const there = key(...shift(k.split(",").map(Number)));
      const old = into.cells.get(there);
      into.cells.set(there, old ? { sides: { ...old.sides, ...note.sides },
        building: note.building === undefined ? old.building : note.building,
        monsters: note.building === undefined ? old.monsters : note.monsters,
        loot: [...new Set([...old.loot, ...note.loot])] } : note);
    }
    into.at = shift(s.at);
    if (into.floor === null) into.floor = s.floor;
    for (const [from, [to, p]] of [...portals]) {
      const [fromSheet, fromAt] = from.split(":");
      const moved = Number(fromSheet) === current ? `${target}:${key(...shift(fromAt.split(",").map(Number)))}` : from;
      portals.delete(from);
      portals.set(moved, to === current ? [target, shift(p)] : [to, p]);
    }
    s.gone = true;
    current = target;
  };
  /** @param {Json} cell the view's `here` */
  const feel = (cell) => {
    const s = cur();
    const note = noteAt(s, s.at);
    note.building = cell.building;
    for (const d of DIRS) if (cell.sides && typeof cell.sides[d] === "string") setSide(d, cell.sides[d]);
    note.monsters = (cell.monsters || []).map((/** @type {Json} */ m) => monsterOf(m.kind, m.facing));
    if (cell.lift && s.floor === null) s.floor = Number(cell.lift.floor);
  };
  if (start) feel(start);
  for (const event of events) {
    const s = cur();
    const dir = /** @type {Dir} */ (event.direction);
    switch (event.kind) {
      case "moved":
        s.at = [s.at[0] + DELTA[dir][0], s.at[1] + DELTA[dir][1]];
        noteAt(s, s.at);
        break;
      case "cell": {
        const note = noteAt(s, s.at);
        note.building = event.building;
        note.monsters = []; // whoever is here is told again (discovered) after this answer
        for (const d of DIRS) if (typeof event[d] === "string") setSide(d, event[d]);
        settle();
        break;
      }
      case "teleported": {
        noteAt(s, s.at).building = "portal";
        const from = `${current}:${key(...s.at)}`;
        const known = portals.get(from);
        if (known) {
          current = known[0];
          cur().at = [...known[1]];
        } else {
          begin(sheet(null, frames, [0, 0]));
          frames += 1;
          portals.set(from, [current, [0, 0]]);
        }
        break;
      }
      case "respawned": {
        const found = landmark("graveyard", -1);
        if (found) { current = found[0]; cur().at = found[1]; } else { begin(sheet(null, frames, [0, 0])); frames += 1; }
        break;
      }
      case "lift_buttons":
        if (s.floor === null) s.floor = Number(event.floor);
        settle();
        break;
      case "lift_moved": {
        const floor = Number(event.floor);
        const same = sheets.findIndex((o) => o.frame === s.frame && o.floor === floor);
        if (same < 0) begin(sheet(floor, s.frame, [...s.at]));
        else { current = same; cur().at = [...s.at]; noteAt(cur(), cur().at); }
        break;
      }
      case "wall_destroyed": setSide(dir, "space"); break;
      case "wall_built": setSide(dir, "wall"); break;
      case "dragon_discovered": noteAt(s, s.at).monsters.push("dragon"); break;
      case "archer_discovered": noteAt(s, s.at).monsters.push(`archer:${event.facing}`); break;
      case "picked_up": noteAt(s, s.at).loot.push(String(event.loot)); break;
      default: break;
    }
  }
  if (here) { feel(here); settle(); }
  const kept = sheets.filter((o) => !o.gone);
  return { sheets: kept, current: kept.indexOf(cur()) };
}

/**
 * A cell's landmark, when it is one of a kind: the graveyard (one in the world), a lift on a known floor
 * (one per floor). @param {Sheet} sheet @param {Note} note @returns {string | null}
 */
function landmarkOf(sheet, note) {
  if (note.building === "graveyard") return "graveyard";
  return note.building === "lift" && sheet.floor !== null ? `lift:${sheet.floor}` : null;
}

/** @param {string} monster "dragon" or "archer:DIR" @returns {string} */
const monsterMark = (monster) => (monster === "dragon" ? "D"
  : `A${ARROW[/** @type {Dir} */ (monster.split(":")[1])] || ""}`);

/** A monster as a sheet notes it. @param {string} kind @param {string | null | undefined} facing */
const monsterOf = (kind, facing) => (kind === "archer" ? `archer:${facing}` : String(kind));

/**
 * One cell of a board: its sides as borders (a wall, the exit, known open, or not known), its marks.
 * @param {Partial<Record<Dir, string>>} sides @param {string[]} marks @param {string} title @returns {HTMLElement}
 */
function cellElement(sides, marks, title) {
  const cell = document.createElement("span");
  cell.className = "rl-cell";
  for (const d of DIRS) cell.classList.add(`${d.toLowerCase()}-${sides[d] || "unknown"}`);
  cell.textContent = marks.join("");
  if (title) cell.title = title;
  return cell;
}

/** @param {number} cols @param {string} label @returns {HTMLElement} */
function grid(cols, label) {
  const board = document.createElement("div");
  board.className = "rl-board";
  board.style.setProperty("--cols", String(cols));
  board.setAttribute("role", "img");
  board.setAttribute("aria-label", label);
  return board;
}

/**
 * The words of a cell's marks, for its title.
 * @param {string | null | undefined} building @param {string[]} monsters @param {string[]} loot
 */
function describe(building, monsters, loot) {
  return [building ? t(`rl_b_${building}`) : "", ...monsters.map((m) => t(`rl_m_${m.split(":")[0]}`)),
    ...loot.map((l) => t(`rl_l_${l}`))].filter(Boolean).join(", ");
}

/**
 * A sheet of the notebook: the cells stood on, their sides and marks; the player's cell (●) when it is the
 * current sheet. Each cell says its sheet position (data-r, data-c) for the tests.
 * @param {Sheet} sheet @param {boolean} current @param {boolean} showMe @returns {HTMLElement}
 */
export function drawSheet(sheet, current, showMe = true) {
  const at = [...sheet.cells.keys()].map((k) => k.split(",").map(Number));
  const [top, bottom] = [Math.min(...at.map((p) => p[0])), Math.max(...at.map((p) => p[0]))];
  const [left, right] = [Math.min(...at.map((p) => p[1])), Math.max(...at.map((p) => p[1]))];
  const board = grid(right - left + 1, t("rl_notebook"));
  if (current) board.classList.add("current");
  for (let r = top; r <= bottom; r += 1) {
    for (let c = left; c <= right; c += 1) {
      const note = sheet.cells.get(key(r, c));
      const me = current && showMe && sheet.at[0] === r && sheet.at[1] === c;
      const marks = note ? [BUILDING_MARK[note.building || ""] || "", ...note.monsters.map(monsterMark),
        ...note.loot.map((l) => LOOT_MARK[l] || "")].filter(Boolean) : [];
      if (me) marks.unshift(YOU);
      const cell = cellElement(note ? note.sides : {}, marks, note ? describe(note.building, note.monsters, note.loot) : "");
      if (note) {
        cell.classList.add("known");
        cell.dataset.r = String(r);
        cell.dataset.c = String(c);
        if (note.building) cell.dataset.building = note.building;
      }
      if (me) cell.classList.add("here");
      board.append(cell);
    }
  }
  return board;
}

/**
 * After the end, a drawn world (`view.revealed`): each floor with its walls, the exit, buildings, portals,
 * the monsters and loot left, and the player's last cell.
 * @param {Json} revealed @returns {HTMLElement}
 */
function drawRevealed(revealed) {
  const root = document.createElement("div");
  root.className = "rl-revealed";
  const world = revealed.world;
  /** @type {Map<string, string[]>} marks by "floor,row,col" */
  const marks = new Map();
  /** @type {Map<string, string[]>} */
  const words = new Map();
  /** @param {number[]} cell @param {string} mark @param {string} word */
  const add = (cell, mark, word) => {
    const k = cell.join(",");
    marks.set(k, [...(marks.get(k) || []), mark]);
    words.set(k, [...(words.get(k) || []), word]);
  };
  for (const [cell, building] of world.buildings) add(cell, BUILDING_MARK[building] || "?", t(`rl_b_${building}`));
  for (const monster of revealed.monsters) {
    add(monster.cell, monsterMark(monsterOf(monster.kind, monster.facing)), t(`rl_m_${monster.kind}`));
  }
  for (const [cell, loot] of revealed.ground) add(cell, LOOT_MARK[loot] || "?", t(`rl_l_${loot}`));
  const [exitCell, exitSide] = world.exit;
  world.floors.forEach((/** @type {Json} */ floor, /** @type {number} */ f) => {
    const caption = document.createElement("p");
    caption.className = "hint";
    caption.textContent = t("rl_revealedFloor", { n: f + 1 });
    const board = grid(world.cols, caption.textContent);
    board.classList.add("revealed");
    for (let r = 0; r < world.rows; r += 1) {
      for (let c = 0; c < world.cols; c += 1) {
        /** @type {Partial<Record<Dir, string>>} */
        const sides = {
          UP: r === 0 || floor.down[r - 1][c] === "1" ? "wall" : "space",
          DOWN: r === world.rows - 1 || floor.down[r][c] === "1" ? "wall" : "space",
          LEFT: c === 0 || floor.right[r][c - 1] === "1" ? "wall" : "space",
          RIGHT: c === world.cols - 1 || floor.right[r][c] === "1" ? "wall" : "space",
        };
        if (exitCell[0] === f && exitCell[1] === r && exitCell[2] === c) sides[/** @type {Dir} */ (exitSide)] = "exit";
        const k = [f, r, c].join(",");
        const here = revealed.player_cell.join(",") === k;
        const cell = cellElement(sides, [...(here ? [YOU] : []), ...(marks.get(k) || [])], (words.get(k) || []).join(", "));
        if (here) cell.classList.add("here");
        board.append(cell);
      }
    }
    root.append(caption, board);
  });
  return root;
}

/** @param {[string, string][]} rows @returns {HTMLElement} */
function facts(rows) {
  const dl = definitions(rows);
  dl.classList.add("rl-facts");
  return dl;
}

/** Whether the legend and the other sheets are unfolded, kept from one drawing to the next. */
const unfolded = { legend: true, others: false };

/**
 * A <details> that keeps its unfolding between drawings. @param {"legend" | "others"} name @param {string} title
 * @returns {HTMLDetailsElement}
 */
function folding(name, title) {
  const details = document.createElement("details");
  details.open = unfolded[name];
  details.addEventListener("toggle", () => { unfolded[name] = details.open; });
  const summary = document.createElement("summary");
  summary.textContent = title;
  details.append(summary);
  return details;
}

/** The legend of the boards' marks and sides. @returns {HTMLElement} */
function legend() {
  const details = folding("legend", t("rl_legend"));
  details.className = "rl-legend";
  const list = document.createElement("ul");
  /** @type {[string, string][]} */
  const rows = [[YOU, t("rl_you")], ...Object.entries(BUILDING_MARK).map(([b, m]) => /** @type {[string, string]} */ (
    [m, t(`rl_b_${b}`)])), ["D", t("rl_m_dragon")], [`A${ARROW.UP}`, t("rl_m_archer")],
  ...Object.entries(LOOT_MARK).map(([l, m]) => /** @type {[string, string]} */ ([m, t(`rl_l_${l}`)]))];
  for (const [mark, word] of rows) {
    const li = document.createElement("li");
    const b = document.createElement("b");
    b.textContent = mark;
    li.append(b, word);
    list.append(li);
  }
  for (const side of ["wall", "exit", "space", "unknown"]) {
    const li = document.createElement("li");
    const sample = document.createElement("span");
    sample.className = `rl-sample up-${side}`;
    li.append(sample, t(`rl_side_${side}`));
    list.append(li);
  }
  details.append(list);
  return details;
}

/**
 * The roguelike's view: the player's state, the cell they stand on, the notebook's sheets (the current one
 * first), the legend; after the end a drawn world. A spectator's public view is the score only.
 * @param {Json} view @param {Context} context @returns {HTMLElement}
 */
export function roguelikeView(view, context) {
  const root = document.createElement("div");
  root.className = "rl-view";
  if (view.public) {
    root.append(facts([[t("rl_turn"), String(view.turn)], [t("rl_deaths"), deathsText(view)]]));
    return root;
  }
  const book = notebook(context.events, view.here || null, startCell(view, context));
  const sheet = book.sheets[book.current];
  const here = view.here || {};
  const floors = here.lift ? here.lift.floors : null;
  /** @type {[string, string][]} */
  const rows = [
    [t("rl_health"), `${view.health} / ${view.max_health}`],
    [t("rl_arrows"), String(view.arrows)], [t("rl_bombs"), String(view.bombs)],
    [t("rl_items"), `${items(view.items)} (${t("rl_slots", { n: view.slots })})`],
    [t("rl_gold"), view.gold ? t("yes") : t("no")],
    [t("rl_rings_bags"), `${view.rings} / ${view.bags}`],
    [t("rl_deaths"), deathsText(view)], [t("rl_turn"), String(view.turn)],
    [t("rl_floor"), sheet.floor === null ? t("rl_floorUnknown")
      : (floors ? t("rl_floorOf", { n: sheet.floor + 1, of: floors }) : String(sheet.floor + 1))],
    [t("rl_here"), [describe(here.building, (here.monsters || []).map((/** @type {Json} */ m) => String(m.kind)), [])
      || t("rl_nothing"), ...(here.arsenal ? [t("rl_stock", { items: items(here.arsenal) })] : [])].join("; ")],
  ];
  root.append(facts(rows));
  const caption = document.createElement("p");
  caption.className = "hint";
  caption.textContent = t("rl_notebookCaption") + (book.sheets.length > 1
    ? ` · ${t("rl_sheetOf", { n: book.current + 1, of: book.sheets.length })}` : "");
  const board = drawSheet(sheet, true);
  board.id = "rl-board";
  board.dataset.sheet = String(book.current);
  board.dataset.known = String(sheet.cells.size);
  board.dataset.at = sheet.at.join(",");
  board.dataset.floor = sheet.floor === null ? "" : String(sheet.floor);
  root.append(caption, board);
  const others = book.sheets.filter((_, i) => i !== book.current);
  if (others.length) {
    const details = folding("others", t("rl_otherSheets", { n: others.length }));
    details.append(...others.map((s) => drawSheet(s, false)));
    root.append(details);
  }
  root.append(legend());
  if (view.revealed) {
    const title = document.createElement("h4");
    title.textContent = t("rl_revealed");
    root.append(title, drawRevealed(view.revealed));
  }
  return root;
}

/**
 * The cell the game started on: the first view's (a replay's first step), or the one this tab kept when it
 * saw the game at turn 0 (nothing at the start takes a player elsewhere without a turn); null when neither is
 * known (that cell's sides not felt from a neighbour then stay unknown).
 * @param {Json} view @param {Context} context @returns {Json | null}
 */
function startCell(view, context) {
  if (context.first) return context.first.here || null;
  if (!context.memory) return null;
  const stored = `${context.memory}-start`;
  try {
    if (view.turn === 0 && view.here) { // no step yet: the player stands where the game began
      sessionStorage.setItem(stored, JSON.stringify(view.here));
      return view.here;
    }
    return JSON.parse(sessionStorage.getItem(stored) || "null");
  } catch {
    return null;
  }
}

/** Arsenal items in words. @param {string[] | undefined} list */
function items(list) {
  return (list || []).map((i) => t(`rl_i_${i}`)).join(", ") || "—";
}

/** @param {Json} view */
function deathsText(view) {
  return view.death_limit ? `${view.deaths} / ${view.death_limit}` : String(view.deaths);
}

/** The verb the direction buttons and keys play: GO unless the player chose another. */
let verb = "go";

/** @param {Json[]} actions @param {string} type @param {string} direction */
const findAction = (actions, type, direction) => actions.find((a) => a.type === type && a.direction === direction);

/**
 * The roguelike's moves: the verbs (GO, SHOOT, BOMB, BUILD: those with an allowed direction), the four
 * directions of the chosen verb, an arsenal's items, the lift's floors, and waiting when nothing else
 * takes a turn. Keys: arrows or WASD play the verb's direction; G, F, B, C choose the verb.
 * @param {Json[]} actions @param {Context} context @returns {HTMLElement}
 */
export function roguelikeActions(actions, context) {
  const root = document.createElement("div");
  root.className = "rl-actions";
  const usable = VERBS.filter((v) => actions.some((a) => a.type === v));
  if (!usable.includes(verb)) verb = usable[0] || "go";
  const verbs = document.createElement("div");
  verbs.className = "buttons wrap rl-verbs";
  verbs.setAttribute("role", "group");
  verbs.setAttribute("aria-label", t("rl_verb"));
  for (const v of VERBS) {
    const b = button(t(`rl_v_${v}`), () => { verb = v; context.redraw(); });
    b.id = `rl-verb-${v}`;
    b.className = "secondary rl-verb";
    b.setAttribute("aria-pressed", String(v === verb));
    b.disabled = context.sending || !usable.includes(v);
    verbs.append(b);
  }
  const pad = document.createElement("div");
  pad.className = "rl-pad";
  pad.setAttribute("role", "group");
  pad.setAttribute("aria-label", t(`rl_v_${verb}`));
  for (const d of DIRS) {
    const action = findAction(actions, verb, d);
    const b = button(`${ARROW[d]}`, () => { if (action) play(action, context); });
    b.id = `rl-dir-${d}`;
    b.className = `action rl-dir rl-dir-${d.toLowerCase()}`;
    b.title = `${t(`rl_do_${verb}`)} ${t(`rl_dir_${d}`)}`;
    b.setAttribute("aria-label", b.title);
    b.disabled = context.sending || !action;
    pad.append(b);
  }
  const hint = document.createElement("p");
  hint.className = "hint";
  hint.textContent = t("rl_keys");
  root.append(verbs, pad, hint);
  const extra = document.createElement("div");
  extra.className = "buttons wrap";
  for (const action of actions) {
    if (VERBS.includes(action.type)) continue;
    const label = action.type === "take" ? t("rl_take", { item: t(`rl_i_${action.item}`) })
      : action.type === "lift" ? t("rl_lift", { n: Number(action.floor) + 1 }) : t("rl_wait");
    const b = button(label, () => play(action, context));
    b.className = "action";
    b.dataset.action = JSON.stringify(action);
    b.disabled = context.sending;
    extra.append(b);
  }
  if (extra.childElementCount) root.append(extra);
  return root;
}

/** @param {Json} action @param {Context} context */
function play(action, context) {
  if (action.type !== "go") verb = "go"; // a shot, a bomb or cement once; then walking again
  context.act(action);
}

/**
 * A key on the match screen: a verb's letter chooses it, an arrow or WASD plays the verb that way when it is
 * allowed; true when the key was the roguelike's (the page then does nothing else with it).
 * @param {KeyboardEvent} event @param {Json[]} actions @param {Context} context @returns {boolean}
 */
export function roguelikeKey(event, actions, context) {
  if (event.ctrlKey || event.altKey || event.metaKey || !context.live || !actions.length) return false;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement
    || target instanceof HTMLTextAreaElement) return false;
  const name = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (name in KEY_VERB) {
    if (!actions.some((a) => a.type === KEY_VERB[name])) return false;
    verb = KEY_VERB[name];
    context.redraw();
    return true;
  }
  if (name === "Escape" && verb !== "go") { verb = "go"; context.redraw(); return true; }
  const dir = KEY_DIR[name];
  if (!dir) return false;
  const action = findAction(actions, verb, dir);
  if (action && !context.sending) play(action, context);
  return true; // an arrow never scrolls the page under the board, allowed or not
}
