// The user's notices in the match shell: `GET me/stream/` through the typed client's subscribe()
// (docs/live.md lists the kinds). A notice about a match other than the one on screen (your turn there, it
// started or ended, a rematch offered) shows as a line with a link that opens that match; newest first. A
// player joining or leaving the lobby on screen (`lobby_changed`) has the page read it: the match's own
// stream announces no join (its status, turn, awaiting player, deadline and result stay as they were).
import { t } from "./i18n.js";

/** @typedef {import("../../client/deepdelve.js").Client} Client */
/** @typedef {import("../../client/deepdelve.js").Subscription} Subscription */
/** @typedef {{ match?: number, mode?: string, rematch_of?: number }} About */

/** The kinds the shell shows: the match notices (a battle's `your_turn` names no match and is left out). */
export const NOTICE_KINDS = ["your_turn", "match_started", "match_ended", "rematch_offered"];
/** The kinds about the match on screen that its own stream does not carry: the page reads it again. */
const ON_SCREEN_KINDS = ["lobby_changed"];
const SHOWN = 6;

/**
 * The user's last notice so far (`GET me/notices/`, page after page): the stream starts after it, so a
 * notice told while the stream reconnects is still shown, and none from before the page opened.
 * @param {Client} api @returns {Promise<number>}
 */
async function lastNotice(api) {
  let since = 0;
  for (let page = 0; page < 50; page += 1) {
    const answer = await api.get("/api/v1/me/notices/", { query: { since } });
    since = answer.last;
    if (!answer.more) break;
  }
  return since;
}

/**
 * Opens the subscription after the notices so far (`panel.dataset.ready` is then "1"); `page` says where
 * to write (`panel` holds `list`), a mode's title, which match is on screen, how to open one and how to read
 * the one on screen again (`changed`).
 * @param {Client} api
 * @param {{ panel: HTMLElement, list: HTMLElement, modeTitle: (mode: string) => string,
 *   current: () => number | null, open: (id: number) => void, changed: () => void }} page
 * @returns {Promise<Subscription>}
 */
export async function watchNotices(api, page) {
  const mark = await lastNotice(api);
  page.panel.dataset.ready = "1";
  return api.subscribe("/api/v1/me/stream/", {
    kinds: [...NOTICE_KINDS, ...ON_SCREEN_KINDS],
    since: () => mark,
    onLive: (live) => { page.panel.dataset.live = live ? "1" : "0"; },
    onMessage: (kind, data) => {
      const notice = /** @type {{ seq: number, data: About }} */ (data);
      const about = notice.data || {};
      if (typeof about.match !== "number") return;
      if (about.match === page.current()) {
        if (ON_SCREEN_KINDS.includes(kind)) page.changed();
        return;
      }
      if (!NOTICE_KINDS.includes(kind)) return;
      const id = about.match;
      const item = document.createElement("li");
      item.dataset.kind = kind;
      item.dataset.match = String(id);
      item.dataset.seq = String(notice.seq);
      const mode = page.modeTitle(about.mode || "");
      item.append(t(`notice_${kind}`, { id, mode, of: about.rematch_of ?? "" }), " ");
      const link = document.createElement("a");
      link.href = `#match-${id}`;
      link.className = "notice-link";
      link.textContent = t("openNotice", { id });
      link.addEventListener("click", (event) => {
        event.preventDefault();
        item.remove();
        page.panel.hidden = page.list.childElementCount === 0;
        page.open(id);
      });
      item.append(link);
      page.list.prepend(item);
      while (page.list.childElementCount > SHOWN) page.list.lastElementChild?.remove();
      page.panel.hidden = false;
    },
  });
}

/** Drops the notices about match `id` (it is opened: it tells its own news). @param {HTMLElement} panel
 * @param {number} id */
export function forgetNotices(panel, id) {
  for (const item of panel.querySelectorAll(`li[data-match="${id}"]`)) item.remove();
  panel.hidden = panel.querySelector("li") === null;
}
