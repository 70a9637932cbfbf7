// The crawler pages' two DOM helpers, shared by the home (./app.js) and the run screens (./run.js, ./battle.js).

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
