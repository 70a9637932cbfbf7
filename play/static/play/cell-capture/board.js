// The board: one button per cell in a CSS grid, (0,0) bottom left; a piece is a coloured circle
// with one dot per level (seed 001 section 7.1: top, right, bottom, left).

/** @typedef {{ colour: string, level: number }} Piece */

const DOTS = ["d-top", "d-right", "d-bottom", "d-left"];
const PALETTE = ["#d62828", "#1d4ed8", "#15803d", "#d97706", "#7c3aed", "#0e7490", "#db2777", "#4d7c0f",
  "#92400e", "#334155"];

// The mode's colour names, in shades that read well on the board (any other CSS colour is used as is).
/** @type {Record<string, string>} */
const SHADES = { red: "#d62828", blue: "#1d4ed8", green: "#15803d", orange: "#ea8c00", purple: "#7c3aed",
  teal: "#0f9b9b", pink: "#db2777", brown: "#92400e", olive: "#6b7a1f", navy: "#1e3a8a" };

/** @param {string} colour @param {number} index @returns {string} */
export function cssColour(colour, index) {
  if (SHADES[colour]) return SHADES[colour];
  if (globalThis.CSS && CSS.supports && CSS.supports("color", colour)) return colour;
  return PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length];
}

export class Board {
  /** @param {HTMLElement} root @param {(x: number, y: number) => void} onPlay */
  constructor(root, onPlay) {
    this.root = root;
    this.onPlay = onPlay;
    this.width = 0;
    this.height = 0;
    /** @type {Map<string, HTMLButtonElement>} */
    this.cells = new Map();
    /** @type {Map<string, string>} */
    this.colours = new Map(); // engine colour -> CSS colour
    root.addEventListener("click", (event) => {
      const cell = event.target instanceof Element ? event.target.closest("button.cell") : null;
      if (cell instanceof HTMLElement && cell.classList.contains("playable")) {
        this.onPlay(Number(cell.dataset.x), Number(cell.dataset.y));
      }
    });
  }

  /** @param {number} width @param {number} height */
  setup(width, height) {
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this.root.replaceChildren();
    this.cells.clear();
    this.root.style.setProperty("--cols", String(width));
    this.root.style.setProperty("--rows", String(height));
    const size = Math.max(14, Math.min(56, Math.floor(560 / Math.max(width, height))));
    this.root.style.setProperty("--cell", `${size}px`);
    for (let y = height - 1; y >= 0; y -= 1) {
      for (let x = 0; x < width; x += 1) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "cell";
        button.dataset.x = String(x);
        button.dataset.y = String(y);
        button.dataset.cell = `${x},${y}`;
        button.setAttribute("aria-label", `(${x},${y}) empty`);
        this.root.append(button);
        this.cells.set(`${x},${y}`, button);
      }
    }
  }

  /** @param {number} x @param {number} y */
  cell(x, y) { return this.cells.get(`${x},${y}`); }

  /** @param {number} x @param {number} y @returns {Piece | null} */
  piece(x, y) {
    const cell = this.cell(x, y);
    if (!cell || !cell.dataset.owner) return null;
    return { colour: cell.dataset.owner, level: Number(cell.dataset.level) };
  }

  /** @param {number} x @param {number} y @param {Piece | null} piece */
  set(x, y, piece) {
    const cell = this.cell(x, y);
    if (!cell) return;
    cell.replaceChildren();
    cell.classList.remove("critical", "charged");
    if (!piece) {
      delete cell.dataset.owner;
      delete cell.dataset.level;
      cell.setAttribute("aria-label", `(${x},${y}) empty`);
      cell.title = "";
      return;
    }
    const { colour, level } = piece;
    cell.dataset.owner = colour;
    cell.dataset.level = String(level);
    const disc = document.createElement("span");
    disc.className = "piece";
    disc.style.setProperty("--colour", this.colours.get(colour) || "#888");
    for (let i = 0; i < Math.min(level, 4); i += 1) {
      const dot = document.createElement("i");
      dot.className = `dot ${DOTS[i]}`;
      disc.append(dot);
    }
    if (level > 4) {
      const more = document.createElement("b");
      more.textContent = String(level);
      disc.append(more);
    }
    cell.append(disc);
    if (level === 3) cell.classList.add("critical");
    if (level >= 4) cell.classList.add("charged");
    const label = `${colour}_${level}_(${x},${y})`;
    cell.setAttribute("aria-label", label + (level === 3 ? ", explodes when upgraded" : ""));
    cell.title = level === 3 ? `${label}: explodes when upgraded` : label;
  }

  // Draw a whole board: pieces is [[x, y, colour, level], ...].
  /** @param {[number, number, string, number][]} pieces */
  draw(pieces) {
    const seen = new Set();
    for (const [x, y, colour, level] of pieces) {
      seen.add(`${x},${y}`);
      const now = this.piece(x, y);
      if (!now || now.colour !== colour || now.level !== level) this.set(x, y, { colour, level });
    }
    for (const [key, cell] of this.cells) {
      if (!seen.has(key) && cell.dataset.owner) {
        this.set(Number(cell.dataset.x), Number(cell.dataset.y), null);
      }
    }
  }

  // Cells one may click now (the caller's allowed actions); `mine` marks own pieces on one's turn.
  /** @param {Set<string>} playable @param {string | null | undefined} myColour @param {boolean} myTurn */
  mark(playable, myColour, myTurn) {
    this.root.classList.toggle("my-turn", myTurn);
    for (const [key, cell] of this.cells) {
      const can = playable.has(key);
      cell.classList.toggle("playable", can);
      cell.classList.toggle("mine", myTurn && cell.dataset.owner === myColour);
      cell.setAttribute("aria-disabled", can ? "false" : "true");
    }
  }

  /** @param {number} x @param {number} y @param {string} kind */
  flash(x, y, kind) {
    const cell = this.cell(x, y);
    if (!cell) return;
    cell.classList.remove(kind);
    void cell.offsetWidth; // restart the animation
    cell.classList.add(kind);
    cell.addEventListener("animationend", () => cell.classList.remove(kind), { once: true });
  }
}
