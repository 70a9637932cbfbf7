// The room's battle (SPEC 7, docs/combat.md): the turn order, the combatants with their HP, weapons and
// effects (stacks: one entry per effect, its strength and its duration in the carrier's turns, or until the
// end of the battle, or permanent), whose turn it is and when it times out, the caller's every action and
// target (`allowed_actions` of `GET battles/{id}/`, sent back through the client's `act`, which adds the
// idempotency key), and the battle's log. It is read again when the run's stream says something happened
// (./run.js), so the other members' turns arrive live.
import { h, replaceKeepingFocus } from "./dom.js";
import { runWord } from "./run-i18n.js";

/** @typedef {import("../../client/deepdelve.js").Schemas} Schemas */
/** @typedef {import("../../client/deepdelve.js").Client} Client */
/** @typedef {Schemas["BattleOutput"]} Battle */
/** @typedef {Schemas["CombatantOutput"]} Combatant */
/** @typedef {Schemas["AllowedActionOutput"]} Allowed */
/** @typedef {import("./i18n.js").Lang} Lang */
/** @typedef {{ seq: number, kind: string, text: string }} Spoken */

/**
 * @param {{ api: Client, lang: () => Lang, run: (action: () => Promise<unknown>) => Promise<void>,
 *   pane: HTMLElement, after: () => Promise<void> }} ctx  `after`: read the run again after an action
 */
export function mountBattle(ctx) {
  const { api, pane } = ctx;
  /** @param {string} key @param {Record<string, string | number>} [values] */
  const t = (key, values) => runWord(ctx.lang(), key, values);
  const state = {
    /** @type {number | null} */
    battleId: null,
    /** @type {Battle | null} */
    battle: null,
    lastEvent: 0,
    /** @type {ReturnType<typeof setInterval> | null} */
    clock: null,
  };

  const head = h("p", { id: "battle-head" });
  const turn = h("p", { id: "battle-turn", "aria-live": "polite" });
  const clock = h("p", { id: "battle-deadline", class: "hint" });
  const order = h("ol", { id: "battle-order", class: "order" });
  const combatants = h("ul", { id: "combatants", class: "rows" });
  const actions = h("div", { id: "battle-actions", class: "buttons" });
  const log = h("ol", { id: "battle-log", class: "log" });
  const titles = ["battle", "turn_order", "battle_log"].map((key) => h(key === "battle" ? "h3" : "h4",
    { "data-run-i18n": key }, t(key)));
  pane.replaceChildren(titles[0], head, turn, clock, actions, titles[1], order, combatants, titles[2], log);

  /** Reads the battle's news (all of it for a new battle) and draws it. @param {number} battleId */
  async function load(battleId) {
    if (state.battleId !== battleId) {
      clear();
      state.battleId = battleId;
    }
    if (state.battle && state.battle.outcome !== "ongoing" && state.battle.id === battleId) return;
    const battle = await api.get("/api/v1/battles/{battle_id}/", { path: { battle_id: battleId },
      query: { since: state.lastEvent } });
    if (state.battleId !== battleId) return;
    state.battle = battle;
    for (const event of battle.events) {
      const spoken = /** @type {Spoken} */ (/** @type {unknown} */ (event));
      if (spoken.seq <= state.lastEvent) continue;
      log.append(h("li", { "data-seq": String(spoken.seq), "data-kind": spoken.kind }, spoken.text));
    }
    state.lastEvent = Math.max(state.lastEvent, battle.last_event);
    log.scrollTop = log.scrollHeight;
    draw(battle);
  }

  /** @param {Battle} battle */
  function draw(battle) {
    pane.hidden = false;
    pane.dataset.battle = String(battle.id);
    pane.dataset.turn = String(battle.turn);
    pane.dataset.outcome = battle.outcome;
    pane.dataset.awaiting = battle.awaiting === null ? "" : String(battle.awaiting);
    const byId = new Map(battle.combatants.map((c) => [c.id, c]));
    const awaited = battle.awaiting === null ? null : `p${battle.awaiting}`;
    head.textContent = `${t("round", { round: battle.round })} · ${t("outcome", { outcome: t(battle.outcome) })}`;
    const mine = battle.awaiting !== null && battle.awaiting === api.me.id;
    turn.textContent = battle.outcome !== "ongoing" ? ""
      : mine ? t("your_turn") : t("waiting_for", { name: awaited && byId.get(awaited) ? String(byId.get(awaited)?.name) : "" });
    turn.dataset.mine = mine ? "1" : "0";
    order.replaceChildren(...battle.order.map((id) => {
      const c = byId.get(id);
      return h("li", { "data-combatant": id, "data-current": id === awaited ? "1" : "0",
        "data-out": c && (c.hp <= 0 || c.fled) ? "1" : "0" }, c ? c.name : id);
    }));
    combatants.replaceChildren(...battle.combatants.map((c) => combatantRow(c, battle.awaiting)));
    drawActions(battle, byId);
    tick(battle);
  }

  /** @param {Combatant} c @param {number | null} awaiting */
  function combatantRow(c, awaiting) {
    const state = c.fled ? t("fled") : c.hp <= 0 ? t("is_down") : "";
    const row = h("li", { "data-combatant": c.id, "data-kind": c.kind, "data-current": awaiting !== null
      && c.id === `p${awaiting}` ? "1" : "0" },
    h("span", { class: "grow" }, c.name, " ", h("small", {}, c.is_boss ? t("boss") : t(c.kind)),
      state ? h("small", {}, ` · ${state}`) : ""),
    h("span", { "data-hp": "" }, `${c.hp} / ${c.max_hp}`));
    if (c.weapons.length) {
      row.append(h("small", { class: "weapons" }, c.weapons.map((w, i) => (i === c.active_weapon ? `[${w}]` : w))
        .join(" ")));
    }
    const effects = h("ul", { class: "effects" }, ...c.effects.map((effect) => h("li", {
      "data-effect": effect.name, "data-turns": effect.turns === null ? "" : String(effect.turns),
      "data-permanent": effect.permanent ? "1" : "0", "data-magnitude": String(effect.magnitude),
    }, `${t(`effect_${effect.name}`)} ${effect.magnitude} · `
      + (effect.permanent ? t("permanent") : effect.turns === null ? t("until_end") : t("turns", { turns: effect.turns })))));
    if (c.effects.length) row.append(effects);
    return row;
  }

  /** The caller's actions, one button each. @param {Battle} battle @param {Map<string, Combatant>} byId */
  function drawActions(battle, byId) {
    const me = byId.get(`p${api.me.id}`);
    replaceKeepingFocus(actions, battle.allowed_actions.map((allowed) => {
      const text = actionText(allowed, byId, me);
      const button = h("button", { type: "button", "data-kind": allowed.kind,
        class: allowed.kind === "attack" ? "" : "secondary" }, text);
      if (allowed.target !== undefined) button.dataset.target = allowed.target;
      if (allowed.potion !== undefined) button.dataset.potion = allowed.potion;
      if (allowed.slot !== undefined) button.dataset.slot = String(allowed.slot);
      button.addEventListener("click", () => { void ctx.run(() => send(battle, allowed)); });
      return button;
    }));
  }

  /** @param {Allowed} allowed @param {Map<string, Combatant>} byId @param {Combatant | undefined} me */
  function actionText(allowed, byId, me) {
    switch (allowed.kind) {
      case "attack": {
        const target = allowed.target ? byId.get(allowed.target) : undefined;
        return t("attack", { target: target ? `${target.name} (${target.hp})` : String(allowed.target) });
      }
      case "drink": {
        const potion = me ? me.potions.find((p) => p.id === allowed.potion) : undefined;
        return t("drink_potion", { potion: potion ? t(potion.kind) : String(allowed.potion) });
      }
      case "switch_weapon":
        return t("switch_weapon", { weapon: me && allowed.slot !== undefined ? me.weapons[allowed.slot] || "" : "" });
      default:
        return t(allowed.kind);
    }
  }

  /** One action for the turn shown; then the run and the battle are read again.
   * @param {Battle} battle @param {Allowed} allowed */
  async function send(battle, allowed) {
    /** @type {Schemas["ActionBodyRequest"]} */
    const action = { kind: /** @type {Schemas["BattleActionKindEnum"]} */ (allowed.kind) };
    if (allowed.target !== undefined) action.target = allowed.target;
    if (allowed.potion !== undefined) action.potion = allowed.potion;
    if (allowed.slot !== undefined) action.slot = allowed.slot;
    await api.act("/api/v1/battles/{battle_id}/actions/", { path: { battle_id: battle.id },
      body: { turn: battle.turn, action } });
    await ctx.after();
  }

  /** The deadline's countdown (a clock on the page only: nothing is asked of the server). @param {Battle} battle */
  function tick(battle) {
    if (state.clock !== null) clearInterval(state.clock);
    state.clock = null;
    const deadline = battle.deadline && battle.outcome === "ongoing" ? Date.parse(battle.deadline) : null;
    clock.hidden = deadline === null;
    if (deadline === null) return;
    clock.dataset.deadline = String(battle.deadline);
    const show = () => {
      clock.textContent = t("deadline", { seconds: Math.max(0, Math.round((deadline - Date.now()) / 1000)) });
    };
    show();
    state.clock = setInterval(show, 1000);
  }

  /** No battle in this room (or another run): the panel is emptied and hidden. */
  function clear() {
    if (state.clock !== null) clearInterval(state.clock);
    state.clock = null;
    state.battleId = null;
    state.battle = null;
    state.lastEvent = 0;
    log.replaceChildren();
    pane.hidden = true;
  }

  return { load, clear };
}
