// The crawler pages' DOM helpers and their one-read-at-a-time rule, shared by the home (./app.js) and its
// screens (./run.js, ./battle.js, ./npcs.js, ./darkness.js).

/** The element with this id; a page without it is a bug. @param {string} id @returns {HTMLElement} */
export const $ = (id) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
};

/**
 * A new element with attributes and children.
 * @param {string} tag @param {Record<string, string>} [attrs]
 * @param {(Node | string)[]} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/**
 * Replaces a box's children, keeping the keyboard's place: when the focus was on one of its old children, it
 * goes to the new child with the same tag and data attributes (a live read that redraws a player's actions
 * does not throw away the button they were about to press).
 * @param {HTMLElement} box @param {(Node | string)[]} children
 */
export function replaceKeepingFocus(box, children) {
  const focused = document.activeElement;
  const key = (/** @type {Element} */ element) => element instanceof HTMLElement
    ? `${element.tagName} ${JSON.stringify(Object.entries(element.dataset).sort())}` : "";
  const was = focused instanceof HTMLElement && focused !== box && box.contains(focused) ? key(focused) : null;
  box.replaceChildren(...children);
  if (was === null) return;
  const same = [...box.querySelectorAll("*")].find((element) => key(element) === was);
  if (same instanceof HTMLElement) same.focus();
}

/**
 * `work` one call at a time: a call made while it runs asks for one more run after it (any number of such
 * calls make one), so reads of a screen never overlap and the news that came meanwhile is read.
 * @param {() => Promise<unknown>} work @returns {() => Promise<void>}
 */
export function oneAtATime(work) {
  let running = false;
  let again = false;
  return async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await work();
      } while (again);
    } finally {
      running = false;
    }
  };
}
