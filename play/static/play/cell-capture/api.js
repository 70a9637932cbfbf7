// The public REST API with JWT: sign in or register, then every call carries the access token;
// an expired one is refreshed once with the refresh token. Tokens live in sessionStorage (per tab).

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || `http_${status}`;
    this.details = details || {};
  }
}

const KEY = "deepdelve.session";

function newKey() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;
}

export class Api {
  constructor(root, storage = window.sessionStorage) {
    this.root = root;
    this.storage = storage;
    this.session = JSON.parse(storage.getItem(KEY) || "null");
  }

  get signedIn() { return Boolean(this.session && this.session.access); }
  get me() { return this.session; }

  save(session) {
    this.session = session;
    if (session) this.storage.setItem(KEY, JSON.stringify(session));
    else this.storage.removeItem(KEY);
  }

  async register(username, password) {
    const body = await this.call("POST", "auth/register/", { username, password }, { auth: false });
    this.save({ id: body.id, username: body.username, access: body.access, refresh: body.refresh });
  }

  async signIn(username, password) {
    const tokens = await this.call("POST", "auth/token/", { username, password }, { auth: false });
    this.save({ access: tokens.access, refresh: tokens.refresh });
    const me = await this.call("GET", "me/");
    this.save({ ...this.session, id: me.id, username: me.username });
  }

  signOut() { this.save(null); }

  async refresh() {
    if (!this.session || !this.session.refresh) return false;
    try {
      const tokens = await this.call("POST", "auth/token/refresh/", { refresh: this.session.refresh },
        { auth: false });
      this.save({ ...this.session, access: tokens.access, refresh: tokens.refresh || this.session.refresh });
      return true;
    } catch (error) {
      return false;
    }
  }

  async call(method, path, body, { auth = true, retry = true } = {}) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (auth && this.session) headers.Authorization = `Bearer ${this.session.access}`;
    const response = await fetch(this.root + path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit",
    });
    if (response.status === 401 && auth && retry && await this.refresh()) {
      return this.call(method, path, body, { auth, retry: false });
    }
    const text = await response.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (error) { data = null; }
    if (!response.ok) {
      if (response.status === 401 && auth) this.save(null);
      const failure = (data && data.error) || {};
      const message = failure.message || (data && data.detail) || firstFieldError(data)
        || response.statusText;
      throw new ApiError(response.status, failure.code, message, failure.details);
    }
    return data;
  }

  // --- hosted matches (SPEC section 12) ---
  listMatches(mode) { return this.call("GET", `matches/?mode=${encodeURIComponent(mode)}&page_size=50`); }
  openMatch(mode, settings, guild) {
    const body = { mode, settings };
    if (guild) body.guild = guild;
    return this.call("POST", "matches/", body);
  }
  match(id, since) { return this.call("GET", `matches/${id}/?since=${since || 0}`); }
  join(id) { return this.call("POST", `matches/${id}/join/`); }
  leave(id) { return this.call("POST", `matches/${id}/leave/`); }
  start(id) { return this.call("POST", `matches/${id}/start/`); }
  act(id, turn, action) {
    return this.call("POST", `matches/${id}/actions/`, { turn, action, idempotency_key: newKey() });
  }
}

function firstFieldError(data) {
  if (!data || typeof data !== "object") return "";
  const details = data.error && data.error.details ? data.error.details : data;
  for (const [field, value] of Object.entries(details)) {
    if (Array.isArray(value) && value.length) return `${field}: ${value[0]}`;
  }
  return "";
}
