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
