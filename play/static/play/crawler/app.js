// The dungeon crawler's home (SPEC 16, issue 29): sign up or in, the player's page, and guilds: browse,
// found, apply, invitations, the leader's page, leaving, the disband vote. Every call goes through the
// typed client over the public API; what changes for this user arrives on GET me/stream/ (EventSource
// with a one-time ticket): `invitation`, `application_decided` and a run's `lobby_changed` notices re-read
// what they name, with no polling. Every refusal shows the API's own `message`; the page's words are in
// ./i18n.js.
import { ApiError, Client } from "../../client/deepdelve.js";
import { darknessPane } from "./darkness.js";
import { $, h } from "./dom.js";
import { initialLang, rememberLang, word } from "./i18n.js";
import { npcsPane } from "./npcs.js";
import { mountRun } from "./run.js";

/** @typedef {import("../../client/deepdelve.js").Schemas} Schemas */
/** @typedef {Schemas["MeOutput"]} Me */
/** @typedef {Schemas["GuildDetailOutput"]} GuildDetail */
/** @typedef {Schemas["GuildListItem"]} GuildItem */
/** @typedef {Schemas["ApplicationOutput"]} Application */
/** @typedef {Schemas["InvitationOutput"]} Invitation */
/** @typedef {Schemas["InventoryItemOutput"]} Item */
/** @typedef {Schemas["NoticeOutput"]} Notice */
/** @typedef {import("./i18n.js").Lang} Lang */


const state = {
  /** @type {Lang} */
  lang: initialLang(),
  tab: "player",
  /** @type {Me | null} */
  me: null,
  /** @type {GuildDetail | null} */
  guild: null,
  /** @type {string | null} */
  cursor: null,
  /** @type {EventSource | null} */
  stream: null,
  /** the last notice's seq seen: a new stream resumes after it */
  lastNotice: 0,
  /** @type {number | null} */
  reconnect: null,
};

/** fetch with the page's language: the API answers (errors, notices) in it. @type {typeof fetch} */
const localisedFetch = (input, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set("Accept-Language", state.lang);
  return fetch(input, { ...init, headers });
};
const api = new Client(document.body.dataset.apiRoot || "/api/v1/", { fetch: localisedFetch });

/** @param {string} key @param {Record<string, string | number>} [values] */
const t = (key, values) => word(state.lang, key, values);

// --- small DOM helpers -------------------------------------------------------------------------------

/** @param {string} key @param {() => Promise<unknown>} action @param {string} [cls] */
function button(key, action, cls = "") {
  const element = h("button", { type: "button", class: cls, "data-action": key }, t(key));
  element.addEventListener("click", () => { void run(action); });
  return element;
}

/** @param {string} text @param {"error" | "info"} [kind] @param {string} [code] */
function say(text, kind = "info", code = "") {
  const message = $("message");
  message.textContent = text;
  message.dataset.kind = kind;
  message.dataset.code = code;
}

/**
 * Runs one user action: its refusal's message is shown (the API's own, in the page's language).
 * @param {() => Promise<unknown>} action
 */
async function run(action) {
  document.body.dataset.busy = "1";
  try {
    await action();
  } catch (error) {
    if (error instanceof ApiError) {
      say(error.message, "error", error.code);
      if (error.status === 401 && !api.signedIn) show();
    } else {
      say(String(error), "error", "page_error");
    }
  } finally {
    document.body.dataset.busy = "0";
  }
}

// the run lobby, the run and its battles: a screen of their own (./run.js), in the "run" tab
const runScreen = mountRun({ api, lang: () => state.lang, run, say, pane: $("run") });

// --- screens -----------------------------------------------------------------------------------------

function translate() {
  document.documentElement.lang = state.lang;
  for (const element of document.querySelectorAll("[data-i18n]")) {
    if (element instanceof HTMLElement && element.dataset.i18n) element.textContent = t(element.dataset.i18n);
  }
}

/** Shows the signed-out form, or the home with the current tab. */
function show() {
  const signedIn = api.signedIn;
  $("auth").hidden = signedIn;
  $("home").hidden = !signedIn;
  $("who").hidden = !signedIn;
  document.body.dataset.screen = signedIn ? "home" : "auth";
  if (!signedIn) {
    closeStream();
    return;
  }
  $("who-name").textContent = api.me.username;
  $("who-id").textContent = String(api.me.id);
  for (const pane of document.querySelectorAll("[data-pane]")) {
    if (pane instanceof HTMLElement) pane.hidden = pane.dataset.pane !== state.tab;
  }
  for (const tab of document.querySelectorAll(".tab")) {
    if (tab instanceof HTMLElement) tab.setAttribute("aria-current", String(tab.dataset.tab === state.tab));
  }
  document.body.dataset.tab = state.tab;
}

/** Reads everything the home shows (after sign-in, a notice, or "refresh"). */
async function loadAll() {
  await loadMe();
  await Promise.all([loadGuild(), loadGuildList(false), loadMyApplications(), loadInvitations()]);
}

async function loadMe() {
  const me = await api.get("/api/v1/me/");
  state.me = me;
  $("player-name").textContent = me.display_name || me.username;
  $("money").textContent = String(me.money);
  $("completed").textContent = String(me.completed_dungeons);
  $("belts").textContent = String(me.potion_belt_level);
  const stats = $("stats");
  stats.replaceChildren();
  for (const [name, value] of Object.entries(me.stats)) {
    stats.append(h("dt", {}, t(name)), h("dd", { "data-stat": name }, String(value)));
  }
  const carry = me.carry;
  $("carry").replaceChildren(
    h("dt", {}, t("weight")), h("dd", { "data-carry": "weight" }, `${carry.weight} / ${carry.capacity}`),
    h("dt", {}, t("weapons")), h("dd", { "data-carry": "weapons" }, `${carry.weapons} / ${carry.weapon_limit}`),
    h("dt", {}, t("potions")), h("dd", { "data-carry": "potions" }, `${carry.potions} / ${carry.potion_limit}`));
  const list = $("inventory");
  list.replaceChildren(...me.inventory.map(itemRow));
  $("no-items").hidden = me.inventory.length > 0;
  document.body.dataset.inGuild = me.guild ? "1" : "0";
}

/** @param {Item} item */
function itemRow(item) {
  const kind = item.item_kind;
  const canEquip = kind.category === "weapon" || kind.category === "armor" || kind.category === "torch";
  const row = h("li", { "data-item": String(item.id), "data-equipped": item.equipped ? "1" : "0" },
    h("span", { class: "grow" }, `${kind.name} `,
      h("small", {}, `${kind.category} · ${kind.sub_kind} · ${t("weight")} ${kind.weight}`),
      item.equipped ? h("span", { class: "badge" }, t("equipped")) : ""));
  if (canEquip) {
    row.append(item.equipped
      ? button("unequip", async () => {
        await api.post("/api/v1/me/inventory/{item_id}/unequip/", { path: { item_id: item.id } });
        say(t("done"));
        await loadMe();
      }, "secondary")
      : button("equip", async () => {
        await api.post("/api/v1/me/inventory/{item_id}/equip/", { path: { item_id: item.id } });
        say(t("done"));
        await loadMe();
      }));
  }
  row.append(button("drop", async () => {
    await api.delete("/api/v1/me/inventory/{item_id}/", { path: { item_id: item.id } });
    say(t("done"));
    await loadMe();
  }, "secondary"));
  return row;
}

async function loadGuild() {
  const ref = state.me ? state.me.guild : null;
  // a vote count belongs to the guild it was given for: not shown for another guild, nor for none
  if (!ref || (state.guild && state.guild.id !== ref.id)) $("votes").hidden = true;
  $("no-guild").hidden = Boolean(ref);
  $("my-guild").hidden = !ref;
  if (!ref) {
    state.guild = null;
    return;
  }
  const guild = await api.get("/api/v1/guilds/{guild_id}/", { path: { guild_id: ref.id } });
  state.guild = guild;
  const mine = api.me.id;
  const leading = guild.leader === mine;
  $("guild-name").textContent = guild.name;
  $("guild-description").textContent = guild.description;
  $("guild-rank").textContent = String(guild.rank);
  $("guild-activity").textContent = guild.activity.toFixed(2);
  $("guild-count").textContent = String(guild.members_count);
  $("guild-state").textContent = [guild.is_open ? t("open") : t("closed"), guild.is_forming ? t("forming") : ""]
    .filter(Boolean).join(", ");
  $("my-guild").dataset.guild = String(guild.id);
  $("my-guild").dataset.open = guild.is_open ? "1" : "0";
  $("members").replaceChildren(...guild.members.map((member) => {
    const row = h("li", { "data-member": String(member.player) },
      h("span", { class: "grow" }, `${member.username} (#${member.player}) `,
        member.is_leader ? h("span", { class: "badge" }, t("is_leader")) : "",
        h("small", {}, ` ${t("joined")} ${new Date(member.joined_at).toLocaleDateString(state.lang)}`)));
    if (leading && member.player !== mine) {
      row.append(
        button("hand_over", async () => {
          await api.post("/api/v1/guilds/{guild_id}/leader/", { path: { guild_id: guild.id },
            body: { player: member.player } });
          say(t("done"));
          await loadGuild();
        }, "secondary"),
        button("kick", async () => {
          await api.post("/api/v1/guilds/{guild_id}/kick/", { path: { guild_id: guild.id },
            body: { player: member.player } });
          say(t("done"));
          await loadGuild();
        }, "secondary"));
    }
    return row;
  }));
  $("leader").hidden = !leading;
  $("close").hidden = !guild.is_open;
  $("reopen").hidden = guild.is_open;
  if (leading) await loadApplications(guild.id);
}

/** The leader's pending applications. @param {number} guildId */
async function loadApplications(guildId) {
  const applications = await api.get("/api/v1/guilds/{guild_id}/applications/", { path: { guild_id: guildId } });
  // a reason the leader is typing survives the list being read again (after approving another, say)
  /** @type {Map<string, string>} */
  const typed = new Map();
  for (const input of $("applications").querySelectorAll("li[data-application] input[name=reason]")) {
    const row = input.closest("li");
    if (input instanceof HTMLInputElement && row) typed.set(row.dataset.application || "", input.value);
  }
  $("applications").replaceChildren(...applications.map((application) => {
    const reason = /** @type {HTMLInputElement} */ (h("input", { name: "reason", maxlength: "500",
      "aria-label": t("reason"), placeholder: t("reason") }));
    reason.value = typed.get(String(application.id)) || "";
    const ids = { guild_id: guildId, application_id: application.id };
    return h("li", { "data-application": String(application.id), "data-player": String(application.player) },
      h("span", { class: "grow" }, `${application.username} (#${application.player})`),
      button("approve", async () => {
        await api.post("/api/v1/guilds/{guild_id}/applications/{application_id}/approve/", { path: ids });
        say(t("done"));
        await loadGuild();
      }),
      reason,
      button("reject", async () => {
        await api.post("/api/v1/guilds/{guild_id}/applications/{application_id}/reject/",
          { path: ids, body: { reason: reason.value } });
        say(t("done"));
        await loadGuild();
      }, "secondary"));
  }));
  $("no-applications").hidden = applications.length > 0;
}

/** @param {boolean} more  the next page after the current cursor, else the first page */
async function loadGuildList(more) {
  const form = /** @type {HTMLFormElement} */ ($("search-form"));
  const data = new FormData(form);
  const ordering = /** @type {"name" | "-name" | "members_count" | "-members_count" | "activity" | "-activity"} */ (
    String(data.get("ordering") || "name"));
  const search = String(data.get("search") || "");
  const page = await api.get("/api/v1/guilds/", { query: { ordering, search: search || undefined,
    cursor: more && state.cursor ? state.cursor : undefined } });
  state.cursor = page.next;
  const rows = page.results.map(guildRow);
  const body = $("guild-list");
  if (more) body.append(...rows);
  else body.replaceChildren(...rows);
  $("no-guilds").hidden = body.children.length > 0;
  $("more").hidden = !page.next;
}

/** @param {GuildItem} guild */
function guildRow(guild) {
  const apply = state.me && state.me.guild && state.me.guild.id === guild.id ? ""
    : button("apply", async () => {
      await api.post("/api/v1/guilds/{guild_id}/applications/", { path: { guild_id: guild.id } });
      say(t("applied"));
      await loadMyApplications();
    });
  return h("tr", { "data-guild": String(guild.id) },
    h("td", {}, guild.name, guild.is_forming ? h("span", { class: "badge" }, t("forming")) : ""),
    h("td", {}, guild.leader_username), h("td", {}, String(guild.members_count)),
    h("td", {}, guild.activity.toFixed(2)), h("td", {}, String(guild.rank)), h("td", {}, apply));
}

async function loadMyApplications() {
  const applications = await api.get("/api/v1/me/applications/");
  $("my-applications").replaceChildren(...applications.map((application) => h("li",
    { "data-application": String(application.id), "data-status": application.status },
    h("span", { class: "grow" }, `#${application.guild} · `, h("strong", {}, t(application.status)),
      application.reject_reason
        ? h("span", { class: "reason" }, ` · ${t("reason_shown", { reason: application.reject_reason })}`) : ""),
    application.status === "pending" ? button("withdrawn", async () => {
      await api.post("/api/v1/guilds/{guild_id}/applications/{application_id}/withdraw/",
        { path: { guild_id: application.guild, application_id: application.id } });
      await loadMyApplications();
    }, "secondary") : "")));
  $("no-my-applications").hidden = applications.length > 0;
}

async function loadInvitations() {
  const invitations = await api.get("/api/v1/invitations/");
  const pending = invitations.filter((invitation) => invitation.status === "pending");
  $("invitations").replaceChildren(...pending.map((invitation) => h("li",
    { "data-invitation": String(invitation.id) },
    h("span", { class: "grow" }, `${invitation.guild_name} (#${invitation.guild})`),
    button("accept", async () => {
      await api.post("/api/v1/invitations/{invitation_id}/accept/", { path: { invitation_id: invitation.id } });
      say(t("done"));
      await loadAll();
    }),
    button("decline", async () => {
      await api.post("/api/v1/invitations/{invitation_id}/decline/", { path: { invitation_id: invitation.id } });
      say(t("done"));
      await loadInvitations();
    }, "secondary"))));
  $("no-invitations").hidden = pending.length > 0;
}

/** @param {Schemas["DisbandStateOutput"]} vote */
function showVotes(vote) {
  const votes = $("votes");
  votes.hidden = false;
  votes.textContent = vote.disbanded ? t("disbanded") : t("votes", { votes: vote.votes, members: vote.members });
}

// --- live: the user's stream -------------------------------------------------------------------------

function closeStream() {
  if (state.stream) state.stream.close();
  state.stream = null;
  if (state.reconnect !== null) clearTimeout(state.reconnect);
  state.reconnect = null;
  setLive(false);
}

/** @param {boolean} live */
function setLive(live) {
  const badge = $("live");
  badge.dataset.live = live ? "1" : "0";
  badge.textContent = t(live ? "live" : "offline");
}

/** Opens GET me/stream/ with a one-time ticket, resuming after the last notice seen. */
async function openStream() {
  closeStream();
  if (!api.signedIn) return;
  const ticket = await api.post("/api/v1/streams/ticket/");
  // since=0 is a mark too (everything after nothing): with no mark the stream would start at its live
  // edge, and a notice told while the stream reconnects would never arrive
  const url = api.url("/api/v1/me/stream/", undefined, { ticket: ticket.ticket, since: state.lastNotice });
  const stream = new EventSource(url);
  state.stream = stream;
  stream.onopen = () => setLive(true);
  stream.onerror = () => {
    // a ticket opens one stream only: a new one is needed to reconnect
    if (state.stream !== stream) return;
    stream.close();
    setLive(false);
    state.reconnect = window.setTimeout(() => { void run(openStream); }, 2000);
  };
  for (const kind of ["invitation", "application_decided", "lobby_changed"]) {
    stream.addEventListener(kind, (event) => { void run(() => onNotice(/** @type {MessageEvent} */ (event))); });
  }
}

/** @param {MessageEvent} event */
async function onNotice(event) {
  /** @type {Notice} */
  const notice = JSON.parse(String(event.data));
  if (notice.seq <= state.lastNotice) return; // shown already (a stream resumed after it)
  state.lastNotice = notice.seq;
  $("notices").prepend(h("li", { "data-kind": notice.kind, "data-seq": String(notice.seq) }, notice.text));
  if (notice.kind === "lobby_changed") await lobbyChanged(notice.data);
  else if (notice.kind === "invitation") await loadInvitations();
  else await Promise.all([loadMe().then(loadGuild), loadMyApplications()]);
}

/**
 * A run lobby on screen changed (a member joined, left, chose a weapon, set the formation): the run tab or
 * the darkness tab that shows it reads it again. A match lobby's notice is only listed.
 * @param {Notice["data"]} data
 */
async function lobbyChanged(data) {
  if (typeof data.run !== "number") return;
  await Promise.all([runScreen.changed(data.run), darkness.changed(data.run)]);
}

// --- wiring ------------------------------------------------------------------------------------------

/**
 * The tabs whose screens are modules of their own (./run.js, ./npcs.js, ./darkness.js): each reads when
 * shown (`open`), stops when the user signs out (`close`) and, when the language changes, draws its words
 * again (`translate`; a screen without it is opened again).
 * @type {Record<string, { open: () => Promise<void>, close: () => void, translate?: () => Promise<void> }>}
 */
const panes = {};
const ui = { api, t, say, run, h, button, $, me: () => state.me, loadMe };
panes.run = { open: runScreen.show, close: runScreen.stop, translate: runScreen.translate };
panes.npcs = npcsPane(ui);
const darkness = darknessPane(ui);
panes.darkness = darkness;

/** Everything the home shows, and the open tab's own screen (`again`: its words, after a language change). */
async function reloadAll(again = false) {
  await loadAll();
  const pane = panes[state.tab];
  if (pane) await (again && pane.translate ? pane.translate() : pane.open());
}

/** @param {string} tab */
function switchTab(tab) {
  state.tab = tab;
  show();
  const pane = panes[tab];
  if (pane && api.signedIn) void run(pane.open);
}

async function enter() {
  show();
  await loadAll();
  // the notices so far, so the stream starts after them
  const notices = await api.get("/api/v1/me/notices/");
  state.lastNotice = notices.last;
  await openStream();
}

function wire() {
  const auth = /** @type {HTMLFormElement} */ ($("auth-form"));
  auth.addEventListener("submit", (event) => {
    event.preventDefault();
    const submitter = /** @type {SubmitEvent} */ (event).submitter;
    const data = new FormData(auth);
    const username = String(data.get("username")), password = String(data.get("password"));
    void run(async () => {
      if (submitter instanceof HTMLButtonElement && submitter.value === "register") {
        await api.register(username, password);
      } else {
        await api.signIn(username, password);
      }
      say("");
      await enter();
    });
  });
  $("sign-out").addEventListener("click", () => {
    api.signOut();
    closeStream();
    for (const pane of Object.values(panes)) pane.close();
    say(t("signed_out"));
    show();
  });
  $("lang").addEventListener("click", () => {
    state.lang = state.lang === "en" ? "ru" : "en";
    rememberLang(state.lang);
    translate();
    setLive(Boolean(state.stream && state.stream.readyState === EventSource.OPEN));
    if (api.signedIn) void run(() => reloadAll(true));
  });
  for (const tab of document.querySelectorAll(".tab")) {
    if (tab instanceof HTMLElement) tab.addEventListener("click", () => switchTab(tab.dataset.tab || "player"));
  }
  $("refresh").addEventListener("click", () => { void run(() => reloadAll()); });
  const found = /** @type {HTMLFormElement} */ ($("found-form"));
  found.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(found);
    void run(async () => {
      await api.post("/api/v1/guilds/", { body: { name: String(data.get("name")),
        description: String(data.get("description") || "") } });
      found.reset();
      say(t("founded"));
      await loadAll();
    });
  });
  const search = /** @type {HTMLFormElement} */ ($("search-form"));
  search.addEventListener("submit", (event) => {
    event.preventDefault();
    void run(() => loadGuildList(false));
  });
  $("more").addEventListener("click", () => { void run(() => loadGuildList(true)); });
  const invite = /** @type {HTMLFormElement} */ ($("invite-form"));
  invite.addEventListener("submit", (event) => {
    event.preventDefault();
    const guild = state.guild;
    if (!guild) return;
    const player = Number(new FormData(invite).get("player"));
    void run(async () => {
      await api.post("/api/v1/guilds/{guild_id}/invitations/", { path: { guild_id: guild.id }, body: { player } });
      invite.reset();
      say(t("invited"));
    });
  });
  /** @param {string} id @param {(guildId: number) => Promise<unknown>} action */
  const onGuild = (id, action) => $(id).addEventListener("click", () => {
    const guild = state.guild;
    if (guild) void run(() => action(guild.id));
  });
  onGuild("leave", async (guildId) => {
    await api.post("/api/v1/guilds/{guild_id}/leave/", { path: { guild_id: guildId } });
    say(t("left"));
    await loadAll();
  });
  onGuild("vote", async (guildId) => {
    const vote = await api.post("/api/v1/guilds/{guild_id}/disband-vote/", { path: { guild_id: guildId } });
    showVotes(vote);
    // the last vote disbands the guild: its pane (and the count in it) goes, so say it at the top
    if (vote.disbanded) say(t("disbanded"));
    await loadAll();
  });
  onGuild("unvote", async (guildId) => {
    showVotes(await api.delete("/api/v1/guilds/{guild_id}/disband-vote/", { path: { guild_id: guildId } }));
  });
  onGuild("close", async (guildId) => {
    await api.patch("/api/v1/guilds/{guild_id}/", { path: { guild_id: guildId }, body: { is_open: false } });
    await loadGuild();
  });
  onGuild("reopen", async (guildId) => {
    await api.patch("/api/v1/guilds/{guild_id}/", { path: { guild_id: guildId }, body: { is_open: true } });
    await loadGuild();
  });
}

wire();
translate();
setLive(false);
if (api.signedIn) void run(enter);
else show();
