// A match on screen, kept live by its stream (`GET matches/{id}/stream/`; docs/play.md, "Live, and the
// decisions"): the match shell and the cell capture page both watch their match this way. The stream goes
// through the typed client's subscribe() (a ticket per connection, resumed after the last event read): a
// `match` header message that shows a change wakes the page's read of the match; a drop is told to the page
// (which reads once: the drop may have hidden something) and the subscription reopens by itself. It ends
// with the match. Nothing polls while it is open.

/** @typedef {import("../../client/deepdelve.js").Client} Client */
/** @typedef {import("../../client/deepdelve.js").Subscription} Subscription */
/** @typedef {import("../../client/deepdelve.js").Schemas["MatchOutput"]} Match */
/**
 * What a `match` header message carries: what changed since the last one.
 * @typedef {{ turn: number, status: string, awaiting: number | null, deadline: string | null,
 *   result: unknown }} Header
 */

/** A match in these is over: its stream ends with it, and a drop is not reopened. */
const ENDED = ["finished", "abandoned", "cancelled"];
/** How long after a stream's drop its subscription asks a new ticket and reopens it. */
const RECONNECT_MS = 1200;

/**
 * The one match stream a page holds; opening another closes it. The page says: `shown()`, the match as it
 * last read it (null: not yet); `since()`, the last event it read; `onChange()`, called when a header shows
 * something the shown match does not; `onDrop()`, when the stream drops (it reopens by itself); `showLive`,
 * told when it opens and drops.
 * @typedef {{ since: () => number, shown: () => Match | null, onChange: () => void, onDrop: () => void,
 *   showLive: (live: boolean) => void }} Watcher
 */
export class MatchStream {
  /** @param {Client} api @param {Watcher} page */
  constructor(api, page) {
    this.api = api;
    this.page = page;
    /** @type {Subscription | null} */
    this.subscription = null;
  }

  /** Watches match `id` in place of any other. @param {number} id */
  open(id) {
    this.close();
    const page = this.page;
    const subscription = this.api.subscribe("/api/v1/matches/{match_id}/stream/", {
      path: { match_id: id },
      kinds: ["match"],
      since: page.since,
      retryMs: RECONNECT_MS,
      done: () => {
        const match = page.shown();
        return Boolean(match && match.id === id && ENDED.includes(match.status));
      },
      onLive: (live) => {
        if (this.subscription !== subscription) return;
        page.showLive(live);
        if (!live) page.onDrop();
      },
      onMessage: (_kind, data) => {
        const head = /** @type {Header} */ (data);
        const match = page.shown();
        if (!match || head.turn !== match.turn || head.status !== match.status || head.awaiting !== match.awaiting
          || head.deadline !== match.deadline || JSON.stringify(head.result) !== JSON.stringify(match.result)) {
          page.onChange();
        }
      },
    });
    this.subscription = subscription;
  }

  close() {
    const subscription = this.subscription;
    this.subscription = null;
    if (subscription) subscription.close();
    this.page.showLive(false);
  }
}
