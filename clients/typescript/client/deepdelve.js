// Deepdelve's API client: typed calls to every route of the schema, sign-in, idempotent turn actions.
//
// Plain ES module with JSDoc types, served as is (/static/client/deepdelve.js) and checked by `tsc
// --checkJs` against ../schema.d.ts, which openapi-typescript generates from the server's OpenAPI schema
// (docs/client.md). A route is named as the schema names it ("/api/v1/matches/{match_id}/"), so its
// path and query parameters, its JSON body and its answer are the schema's types.
//
// The wrapper adds what every caller would otherwise redo: the JWT session (kept in sessionStorage: one
// per tab) and one refresh of an expired access token; every error as an ApiError with the API's `code`;
// a fresh idempotency key per turn action, reused when that action is sent again; stale turns; a stream's
// subscription (a one-time ticket per connection, resumed after the last event after every drop).

/** @typedef {import("../schema").paths} Paths */
/** @typedef {import("../schema").components["schemas"]} Schemas */
/** @typedef {"get" | "put" | "post" | "patch" | "delete"} Method */

/**
 * The routes that answer a method.
 * @template {Method} M
 * @typedef {{ [P in keyof Paths]: Paths[P] extends { [K in M]: object } ? P : never }[keyof Paths]} RouteOf
 */

/**
 * The schema's operation of a route and a method.
 * @template {Method} M
 * @template {keyof Paths} P
 * @typedef {Paths[P] extends { [K in M]: infer O } ? O : never} Operation
 */

/** @typedef {200 | 201 | 202 | 204} SuccessStatus */

/**
 * The JSON body of an operation's success (its 2xx answer); undefined for an answer with no body.
 * @template O
 * @typedef {O extends { responses: infer R }
 *   ? { [S in keyof R & SuccessStatus]:
 *       R[S] extends { content: { "application/json": infer B } } ? B : undefined }[keyof R & SuccessStatus]
 *   : never} Success
 */

/**
 * What a call passes: `path` when the route has path parameters, `query` when it takes any, `body`
 * (the JSON request body) when it has one; `auth: false` for the routes that need no token.
 * @template O
 * @typedef {(O extends { parameters: { path: infer T } } ? { path: T } : { path?: undefined })
 *   & (O extends { parameters: { query?: infer Q } } ? { query?: Q } : { query?: undefined })
 *   & (O extends { requestBody: { content: { "application/json": infer B } } } ? { body: B }
 *     : O extends { requestBody?: { content: { "application/json": infer B } } } ? { body?: B }
 *     : { body?: undefined })
 *   & { auth?: boolean }} Init
 */

/**
 * A call's arguments after the route: the Init, which may be left out when nothing in it is required.
 * @template O
 * @typedef {{} extends Init<O> ? [init?: Init<O>] : [init: Init<O>]} InitArgs
 */

/**
 * An operation's JSON request body.
 * @template O
 * @typedef {O extends { requestBody: { content: { "application/json": infer B } } } ? B : never} Body
 */

/**
 * The routes of turn actions: their body names the turn and carries an idempotency key.
 * @typedef {{ [P in RouteOf<"post">]:
 *   Body<Operation<"post", P>> extends { turn: number, idempotency_key?: string } ? P : never
 * }[RouteOf<"post">]} TurnRoute
 */

/**
 * A turn action's body as its caller gives it: the wrapper adds the idempotency key.
 * @template {TurnRoute} P
 * @typedef {Omit<Body<Operation<"post", P>>, "idempotency_key">} TurnBody
 */

/**
 * The route of the object a turn action acts on (".../actions/" -> "..."), read again on a stale turn.
 * @template {string} P
 * @typedef {P extends `${infer Object}actions/` ? (Object extends RouteOf<"get"> ? Object : never) : never
 * } ObjectRoute
 */

/**
 * @typedef {object} Session  What signing in keeps (sessionStorage, per tab).
 * @property {string} access  the JWT access token
 * @property {string} refresh  the refresh token (rotated by every refresh)
 * @property {number} [id]  the player id every other route uses
 * @property {string} [username]
 */

/**
 * @typedef {object} Me  The signed-in player.
 * @property {number} id
 * @property {string} username
 */

/**
 * @typedef {object} Storage  Where the session is kept: sessionStorage, or anything with its three methods.
 * @property {(key: string) => string | null} getItem
 * @property {(key: string, value: string) => void} setItem
 * @property {(key: string) => void} removeItem
 */

/**
 * The streams (SSE): the routes whose answer is `text/event-stream`.
 * @typedef {"/api/v1/matches/{match_id}/stream/" | "/api/v1/runs/{run_id}/stream/" | "/api/v1/me/stream/"
 *   | "/api/v1/matches/stream/" | "/api/v1/runs/lobbies/stream/"} StreamRoute
 */

/**
 * @typedef {object} Subscription  An open subscription (`Client.subscribe`).
 * @property {() => void} close  ends it: the stream is closed and never reopened
 * @property {() => boolean} live  whether its stream is open now
 */

/** The schema's routes begin with this; the client's `apiRoot` stands in for it (a script prefix, a host). */
export const SCHEMA_PREFIX = "/api/v1/";
const SESSION_KEY = "deepdelve.session";
/** How often a request that is safe to repeat is sent again after a network failure or a 503. */
const RETRIES = 2;
/** The longest wait before such a retry, whatever `retry_after` says (the player is waiting). */
const MAX_RETRY_WAIT_MS = 5000;

/** An error answer of the API (`{"error": {code, message, details}}`), or a network failure (status 0). */
export class ApiError extends Error {
  /**
   * @param {number} status  the HTTP status; 0 when no answer came
   * @param {string} code  the API's machine code (`guild_full`, `stale_turn`, ...); `http_<status>` for an
   *   answer that was not the API's JSON error (a proxy's page), `network_error` for no answer
   * @param {string} message
   * @param {Record<string, unknown>} [details]
   */
  constructor(status, code, message, details = {}) {
    super(message || code);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/**
 * 409 `stale_turn`: the action named a turn that has passed, so it was not taken. The wrapper never sends
 * it again for the new turn by itself (it was chosen for a state that is gone); see `Client.act`.
 */
export class StaleTurnError extends ApiError {
  /** @param {ApiError} error */
  constructor(error) {
    super(error.status, error.code, error.message, error.details);
    this.name = "StaleTurnError";
    /** The turn the action named. @type {number | null} */
    this.turn = typeof error.details.turn === "number" ? error.details.turn : null;
    /** The object's turn now. @type {number | null} */
    this.currentTurn = typeof error.details.current_turn === "number" ? error.details.current_turn : null;
  }
}

/** A new idempotency key: one per action, kept for every retry of that action. */
export function newIdempotencyKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  // randomUUID needs a secure context (https or localhost); a page served over plain http elsewhere
  // still gets 128 random bits.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class Client {
  /**
   * @param {string} apiRoot  where the schema's "/api/v1/" is served ("/api/v1/", "https://host/x/api/v1/")
   * @param {{ storage?: Storage, fetch?: typeof fetch }} [options]  the session's storage (default
   *   sessionStorage) and the fetch to call (default the global one)
   */
  constructor(apiRoot, { storage = globalThis.sessionStorage, fetch = globalThis.fetch } = {}) {
    this.apiRoot = apiRoot.endsWith("/") ? apiRoot : `${apiRoot}/`;
    this.storage = storage;
    this.fetch = fetch.bind(globalThis);
    /** @type {Session | null} */
    this.session = readSession(storage);
    /** The refresh under way: concurrent 401s share it, as the old refresh token dies with the first use.
     * @type {Promise<boolean> | null} */
    this.refreshing = null;
  }

  get signedIn() { return Boolean(this.session && this.session.access); }

  /** The signed-in player; an ApiError `not_authenticated` when nobody is. @returns {Me} */
  get me() {
    const session = this.session;
    if (!session || session.id === undefined || session.username === undefined) {
      throw new ApiError(401, "not_authenticated", "Not signed in.");
    }
    return { id: session.id, username: session.username };
  }

  /** @param {Session | null} session */
  save(session) {
    this.session = session;
    if (session) this.storage.setItem(SESSION_KEY, JSON.stringify(session));
    else this.storage.removeItem(SESSION_KEY);
  }

  // --- the session ---------------------------------------------------------------------------------------

  /** Register a player and sign in as them. @param {string} username @param {string} password */
  async register(username, password) {
    const body = await this.post("/api/v1/auth/register/", { body: { username, password }, auth: false });
    this.save({ id: body.id, username: body.username, access: body.access, refresh: body.refresh });
    return this.me;
  }

  /** Sign in, then read the player's id and name. @param {string} username @param {string} password */
  async signIn(username, password) {
    const tokens = await this.post("/api/v1/auth/token/", { body: { username, password }, auth: false });
    this.save({ access: tokens.access, refresh: tokens.refresh });
    try {
      const me = await this.get("/api/v1/me/");
      const current = this.session || tokens; // the tokens, refreshed if that read needed it
      this.save({ access: current.access, refresh: current.refresh, id: me.id, username: me.username });
    } catch (error) {
      this.save(null); // half a session (tokens, no player) would only fail later
      throw error;
    }
    return this.me;
  }

  signOut() { this.save(null); }

  /**
   * Trade the refresh token for new tokens, once for all the calls waiting on it. False when the
   * server refuses it (expired, or already used): the session is over. A network failure is thrown.
   * @returns {Promise<boolean>}
   */
  refresh() {
    if (!this.refreshing) {
      this.refreshing = this.renew().finally(() => { this.refreshing = null; });
    }
    return this.refreshing;
  }

  /** @returns {Promise<boolean>} */
  async renew() {
    const session = this.session;
    if (!session || !session.refresh) return false;
    try {
      const tokens = await this.post("/api/v1/auth/token/refresh/", { body: { refresh: session.refresh },
        auth: false });
      // a sign-out (or another sign-in) while it ran wins
      if (this.session && this.session.refresh === session.refresh) {
        this.save({ ...this.session, access: tokens.access, refresh: tokens.refresh || session.refresh });
      }
      return Boolean(this.session);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 400 || error.status === 401)) return false;
      throw error;
    }
  }

  // --- any route of the schema ---------------------------------------------------------------------------

  /**
   * @template {RouteOf<"get">} P
   * @param {P} route  @param {InitArgs<Operation<"get", P>>} init
   * @returns {Promise<Success<Operation<"get", P>>>}
   */
  get(route, ...init) { return this.request("get", route, init[0]); }

  /**
   * @template {RouteOf<"post">} P
   * @param {P} route  @param {InitArgs<Operation<"post", P>>} init
   * @returns {Promise<Success<Operation<"post", P>>>}
   */
  post(route, ...init) { return this.request("post", route, init[0]); }

  /**
   * @template {RouteOf<"put">} P
   * @param {P} route  @param {InitArgs<Operation<"put", P>>} init
   * @returns {Promise<Success<Operation<"put", P>>>}
   */
  put(route, ...init) { return this.request("put", route, init[0]); }

  /**
   * @template {RouteOf<"patch">} P
   * @param {P} route  @param {InitArgs<Operation<"patch", P>>} init
   * @returns {Promise<Success<Operation<"patch", P>>>}
   */
  patch(route, ...init) { return this.request("patch", route, init[0]); }

  /**
   * @template {RouteOf<"delete">} P
   * @param {P} route  @param {InitArgs<Operation<"delete", P>>} init
   * @returns {Promise<Success<Operation<"delete", P>>>}
   */
  delete(route, ...init) { return this.request("delete", route, init[0]); }

  /**
   * One call. A 401 on a call with a token refreshes the tokens once and repeats the call; if the
   * refresh is refused, or the repeated call meets a 401 again, the session ends and the 401 is thrown.
   * GETs are repeated after a network failure or a 503 (`database_unavailable`), at most RETRIES times.
   * @param {Method} method  @param {string} route
   * @param {{ path?: unknown, query?: unknown, body?: unknown, auth?: boolean }} [init]
   * @param {{ retry?: boolean }} [options]  retry: repeat a write too (it carries an idempotency key)
   * @returns {Promise<any>}
   */
  async request(method, route, init = {}, { retry = method === "get" } = {}) {
    const url = this.url(route, init.path, init.query);
    const auth = init.auth !== false;
    let refreshed = false;
    for (let attempt = 0; ; attempt += 1) {
      const sentWith = auth && this.session ? this.session.access : null;
      let response;
      try {
        response = await this.fetch(url, {
          method: method.toUpperCase(),
          headers: headers(sentWith, init.body !== undefined),
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          credentials: "omit",
        });
      } catch (failure) {
        if (retry && attempt < RETRIES) {
          await sleep(500 * (attempt + 1));
          continue;
        }
        throw new ApiError(0, "network_error", `The server could not be reached (${String(failure)}).`);
      }
      if (response.status === 401 && auth) {
        if (!refreshed) {
          refreshed = true;
          // another call may have refreshed the tokens while this one was on its way
          if (this.session && this.session.access !== sentWith) continue;
          if (await this.refresh()) continue;
        }
        this.save(null); // refused with fresh tokens too, or no refresh: the session is over
      }
      const error = response.ok ? null : await errorOf(response);
      if (error && error.status === 503 && retry && attempt < RETRIES) {
        const seconds = Number(error.details.retry_after) || 1;
        await sleep(Math.min(MAX_RETRY_WAIT_MS, seconds * 1000));
        continue;
      }
      if (error) throw error;
      return readJson(response);
    }
  }

  /**
   * A route's URL: its path parameters filled in, its query appended (undefined and null values left out).
   * @param {string} route  @param {unknown} [path]  @param {unknown} [query]
   */
  url(route, path, query) {
    const relative = route.startsWith(SCHEMA_PREFIX) ? route.slice(SCHEMA_PREFIX.length)
      : route.replace(/^\//, "");
    const values = /** @type {Record<string, unknown>} */ (path || {});
    const filled = relative.replace(/\{([^}]+)\}/g, (_, name) => {
      if (values[name] === undefined || values[name] === null) throw new TypeError(`${route} needs ${name}`);
      return encodeURIComponent(String(values[name]));
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query || {})) {
      if (value !== undefined && value !== null) search.append(name, String(value));
    }
    const text = search.toString();
    return this.apiRoot + filled + (text ? `?${text}` : "");
  }

  // --- streams (SSE) ---------------------------------------------------------------------------------------

  /**
   * Subscribe to a stream (docs/api.md, "Live streams"): a one-time ticket (`POST streams/ticket/`), then
   * an EventSource on the stream with `?ticket=` and `?since=`, the last event id seen (or `since()`, the
   * caller's own mark, when that is later: e.g. the `last_event` of a REST read). Each message of the
   * named `kinds` goes to `onMessage(kind, data, id)` (`id`: the stream's last event number, SSE's
   * `lastEventId`: a header such as `match` or `run` has none of its own and repeats the one before it). A ticket opens one connection, so after every drop (a network error, a server that
   * ended the answer) a new ticket reopens the stream `retryMs` later, after the last event seen: nothing
   * is missed or sent twice; unless `done()` says there is nothing more to wait for (a stream ends by
   * itself after a match's or a run's end). `onLive(live)` is told each change. No polling: while the
   * stream is open nothing else is asked. `query`: the stream's own parameters (the match list's `mode`,
   * `watchable`, ...).
   *
   * @param {StreamRoute} route
   * @param {{ path?: Record<string, number>, query?: Record<string, string | number | boolean | undefined>,
   *   kinds: string[], since?: () => number | null | undefined,
   *   onMessage: (kind: string, data: unknown, id: number | null) => void,
   *   onLive?: (live: boolean) => void, retryMs?: number, done?: () => boolean }} options
   * @returns {Subscription}
   */
  subscribe(route, options) {
    const retryMs = options.retryMs ?? 2000;
    /** @type {EventSource | null} */
    let source = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    let timer = null;
    let closed = false;
    let lastId = 0;
    const setLive = (/** @type {boolean} */ live) => { if (options.onLive) options.onLive(live); };
    const later = (/** @type {number} */ ms) => {
      if (!closed && !(options.done && options.done())) timer = setTimeout(() => { timer = null; void open(); }, ms);
    };
    const open = async () => {
      let ticket;
      try {
        ({ ticket } = await this.request("post", "/api/v1/streams/ticket/", {}, { retry: true }));
      } catch {
        later(retryMs * 3);
        return;
      }
      if (closed) return;
      // a mark of 0 is a mark too (after nothing: everything): only with no mark at all does the stream
      // start at its live edge, where what came before the connection is not sent
      const mark = options.since ? options.since() : null;
      const since = mark === null || mark === undefined ? (lastId || undefined) : Math.max(lastId, mark);
      const stream = new EventSource(this.url(route, options.path, { ...options.query, ticket, since }));
      source = stream;
      stream.addEventListener("open", () => setLive(true));
      stream.addEventListener("error", () => {
        stream.close();
        if (source !== stream) return;
        source = null;
        setLive(false);
        later(retryMs);
      });
      for (const kind of options.kinds) {
        stream.addEventListener(kind, (event) => {
          const message = /** @type {MessageEvent} */ (event);
          const id = message.lastEventId && /^\d+$/.test(message.lastEventId) ? Number(message.lastEventId)
            : null;
          if (id !== null) lastId = Math.max(lastId, id);
          options.onMessage(kind, JSON.parse(String(message.data)), id);
        });
      }
    };
    void open();
    return {
      close: () => {
        closed = true;
        if (timer !== null) clearTimeout(timer);
        if (source) source.close();
        source = null;
        setLive(false);
      },
      live: () => source !== null && source.readyState === EventSource.OPEN,
    };
  }

  // --- turn actions (matches, battles) --------------------------------------------------------------------

  /**
   * One action for one turn (`POST matches/{id}/actions/`, `POST battles/{id}/actions/`), with a fresh
   * idempotency key. The very same request (same turn, same key) is sent again after a network failure,
   * a 503 or a token refresh: the server answers a key it has seen with the original answer (`replayed:
   * true`), so an action is never taken twice.
   *
   * A 409 `stale_turn` (the turn moved on: a deadline passed, another tab acted) is never resent by
   * itself, since the action was chosen for a state that is gone. Without `onStale` it is thrown as a
   * StaleTurnError. With `onStale`, the object is read again (its route without `actions/`, `?since=`
   * `since`) and `onStale(latest)` decides: it returns the body for the new turn (a new action, chosen
   * from `latest`: it gets a new key), or null to give up (the StaleTurnError is thrown). At most
   * RETRIES times.
   *
   * @template {TurnRoute} P
   * @param {P} route  e.g. "/api/v1/matches/{match_id}/actions/"
   * @param {Omit<Init<Operation<"post", P>>, "body" | "auth"> & { body: TurnBody<P>, since?: number,
   *   onStale?: (latest: Success<Operation<"get", ObjectRoute<P>>>) => TurnBody<P> | null }} init
   * @returns {Promise<Success<Operation<"post", P>>>}
   */
  async act(route, init) {
    let body = init.body;
    for (let attempt = 0; ; attempt += 1) {
      const sent = { ...body, idempotency_key: newIdempotencyKey() };
      try {
        return await this.request("post", route, { path: init.path, body: sent }, { retry: true });
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== "stale_turn") throw error;
        const stale = new StaleTurnError(error);
        if (!init.onStale || attempt >= RETRIES) throw stale;
        const objectRoute = route.replace(/actions\/$/, "");
        const query = { since: init.since };
        const latest = await this.request("get", objectRoute, { path: init.path, query });
        const next = init.onStale(latest);
        if (!next) throw stale;
        body = next;
      }
    }
  }
}

/** @param {Storage} storage @returns {Session | null} */
function readSession(storage) {
  try {
    const session = JSON.parse(storage.getItem(SESSION_KEY) || "null");
    return session && typeof session.access === "string" ? session : null;
  } catch {
    return null; // a damaged entry is no session
  }
}

/** @param {string | null} access @param {boolean} json */
function headers(access, json) {
  /** @type {Record<string, string>} */
  const result = { Accept: "application/json" };
  if (json) result["Content-Type"] = "application/json";
  if (access) result.Authorization = `Bearer ${access}`;
  return result;
}

/** @param {Response} response */
async function readJson(response) {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(response.status, "malformed_response", "The server's answer was not JSON.");
  }
}

/**
 * The ApiError of an error answer: the API's `{"error": {...}}`, or `http_<status>` for anything else.
 * @param {Response} response @returns {Promise<ApiError>}
 */
async function errorOf(response) {
  /** @type {unknown} */
  let data = null;
  try {
    data = JSON.parse(await response.text());
  } catch {
    data = null;
  }
  const failure = data && typeof data === "object" && "error" in data ? data.error : null;
  if (failure && typeof failure === "object" && "code" in failure && typeof failure.code === "string") {
    const message = "message" in failure && typeof failure.message === "string" ? failure.message : "";
    const details = "details" in failure && failure.details && typeof failure.details === "object"
      ? /** @type {Record<string, unknown>} */ (failure.details) : {};
    return new ApiError(response.status, failure.code, message, details);
  }
  const status = response.status;
  return new ApiError(status, `http_${status}`, response.statusText || `HTTP ${status}`);
}
