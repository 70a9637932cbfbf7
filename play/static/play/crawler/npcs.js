// The guild's NPC services (SPEC 16, issue 29; docs/npcs.md): the guild's NPCs, and each kind's page:
// shops (buy), buyers (sell), the potion seller's belts, the warlock's buffs, the shaman's upgrades, the
// inquisitor's bounties, the carpenter's structures and the jeweler's recipes. Every read and write goes
// through the typed client; every refusal shows the API's own message (the home's `run`); the money and
// carry limits shown are the player's as the API gives them after each trade.
import { addWords } from "./i18n.js";

/** @typedef {import("../../client/deepdelve.js").Schemas} Schemas */
/** @typedef {import("../../client/deepdelve.js").Client} Client */
/** @typedef {Schemas["GuildNpcsOutput"]} GuildNpcs */
/** @typedef {Schemas["GuildNpcOutput"]} GuildNpc */
/** @typedef {Schemas["ItemKindOutput"]} Catalog */
/** @typedef {Schemas["MaterialOutput"]} Material */
/** @typedef {"armorer" | "battle_mage" | "bowyer" | "jeweler" | "potion_seller" | "weaponsmith"} Shop */
/** @typedef {"jeweler" | "potion_seller" | "trader"} Buyer */

/**
 * What the home gives a screen module: the client, its words, its message line and its helpers.
 * @typedef {object} Ui
 * @property {Client} api
 * @property {(key: string, values?: Record<string, string | number>) => string} t
 * @property {(text: string, kind?: "error" | "info", code?: string) => void} say
 * @property {(action: () => Promise<unknown>) => Promise<void>} run
 * @property {(tag: string, attrs?: Record<string, string>, ...children: (Node | string)[]) => HTMLElement} h
 * @property {(key: string, action: () => Promise<unknown>, cls?: string) => HTMLElement} button
 * @property {() => Schemas["MeOutput"] | null} me
 * @property {() => Promise<void>} loadMe  reads the player again (money, inventory, carry limits)
 * @property {(id: string) => HTMLElement} $  the page's element of that id (an error if it has none)
 */

addWords({
  tab_npcs: "NPCs", npc_title: "The guild's NPCs", npc_no_guild: "Join a guild to use its NPCs.",
  npc_overview: "Rank {rank}; the junk dealer offers {size} starting weapons.",
  npc_tier: "Starting weapons: {tier}.", npc_next_tier: "Next: {tier} at rank {rank}.",
  npc_structures: "Structures built", npc_none_built: "None yet.", npc_initial: "always with the guild",
  npc_count: "rescues: {count}", npc_no_page: "This NPC has no counter in the guild hall.",
  npc_junk_dealer_page: "Offers starting weapons in the run lobby.",
  npc_charon_page: "Brings a dead player back for a share of their money.",
  npc_shop: "For sale", npc_sell: "What they would pay for your items", npc_belts: "Potion belts",
  npc_buffs: "Buffs for your next run", npc_upgrades: "Stats for enchanted stones",
  npc_bounties: "Bounties", npc_structures_offer: "Structures to build", npc_recipes: "Amulets made to order",
  npc_buy: "Buy", npc_sell_button: "Sell", npc_build: "Build", npc_craft: "Craft", npc_raise: "Raise",
  npc_accept: "Take", npc_abandon: "Abandon", npc_buy_belt: "Buy the next belt",
  npc_price: "{price} coins", npc_list_price: "list {price}", npc_stock: "{left} of {stock} left today",
  npc_unlimited: "unlimited", npc_not_bought: "not bought here", npc_nothing: "Nothing here.",
  npc_belt_level: "Belts: {level} of {max}.", npc_belt_next: "The next belt costs {price} coins.",
  npc_belt_max: "You wear every belt.", npc_pending: "Bought, waiting for your next run",
  npc_turns: "{turns} turns", npc_whole_battle: "the whole battle", npc_stone_points: "Your stones are worth {points} points.",
  npc_level: "level {level}", npc_cost: "costs {cost} points", npc_max: "at the maximum ({max})",
  npc_bounty_rules: "At most {max} open at once; rewards +{bonus}% here.", npc_my_bounties: "My bounties",
  npc_kills: "{kills} × {enemy}", npc_reward: "reward {reward}", npc_progress: "{progress} of {kills}",
  npc_built_by: "built by {name}", npc_built: "built", npc_materials: "needs {materials}",
  npc_fee: "fee {fee} coins", npc_bought: "Bought {name} for {price} coins; you have {money}.",
  npc_sold: "Sold {name} for {price} coins; you have {money}.", npc_crafted: "Made {name} for {price} coins; you have {money}.",
  npc_raised: "{stat} is now {level}.", bounty_open: "open", bounty_completed: "completed", bounty_abandoned: "abandoned",
  npc_purse: "Your purse and pack", npc_junk_dealer: "Junk Dealer", npc_charon: "Charon", npc_trader: "Trader",
  npc_weaponsmith: "Weaponsmith", npc_armorer: "Armorer", npc_bowyer: "Bowyer", npc_battle_mage: "Battle Mage",
  npc_warlock: "Warlock", npc_shaman: "Shaman", npc_peasant: "Peasants", npc_potion_seller: "Potion Seller",
  npc_inquisitor: "Inquisitor", npc_carpenter: "Carpenter", npc_jeweler: "Jeweler", cat_weapon: "weapon",
  cat_armor: "armor", cat_potion: "potion", cat_special: "special", cat_amulet: "amulet", cat_torch: "torch",
}, {
  tab_npcs: "НИПы", npc_title: "НИПы гильдии", npc_no_guild: "Вступите в гильдию, чтобы пользоваться её НИПами.",
  npc_overview: "Ранг {rank}; барахольщик предлагает {size} стартовых оружия.",
  npc_tier: "Стартовое оружие: {tier}.", npc_next_tier: "Дальше: {tier} с ранга {rank}.",
  npc_structures: "Построенные сооружения", npc_none_built: "Пока нет.", npc_initial: "всегда при гильдии",
  npc_count: "спасений: {count}", npc_no_page: "У этого НИПа нет прилавка в гильдии.",
  npc_junk_dealer_page: "Предлагает стартовое оружие в лобби похода.",
  npc_charon_page: "Возвращает погибшего игрока за долю его денег.",
  npc_shop: "В продаже", npc_sell: "Сколько дадут за ваши вещи", npc_belts: "Пояса для зелий",
  npc_buffs: "Усиления на следующий поход", npc_upgrades: "Характеристики за зачарованные камни",
  npc_bounties: "Заказы на существ", npc_structures_offer: "Сооружения", npc_recipes: "Амулеты на заказ",
  npc_buy: "Купить", npc_sell_button: "Продать", npc_build: "Построить", npc_craft: "Изготовить",
  npc_raise: "Поднять", npc_accept: "Взять", npc_abandon: "Отказаться", npc_buy_belt: "Купить следующий пояс",
  npc_price: "{price} монет", npc_list_price: "по прейскуранту {price}", npc_stock: "осталось {left} из {stock} на сегодня",
  npc_unlimited: "без ограничений", npc_not_bought: "здесь не покупают", npc_nothing: "Здесь пусто.",
  npc_belt_level: "Поясов: {level} из {max}.", npc_belt_next: "Следующий пояс стоит {price} монет.",
  npc_belt_max: "У вас все пояса.", npc_pending: "Куплено, ждёт следующего похода",
  npc_turns: "ходов: {turns}", npc_whole_battle: "весь бой", npc_stone_points: "Ваши камни стоят {points} очков.",
  npc_level: "уровень {level}", npc_cost: "стоит {cost} очков", npc_max: "максимум ({max})",
  npc_bounty_rules: "Не больше {max} открытых сразу; награды здесь +{bonus}%.", npc_my_bounties: "Мои заказы",
  npc_kills: "{kills} × {enemy}", npc_reward: "награда {reward}", npc_progress: "{progress} из {kills}",
  npc_built_by: "построил(а) {name}", npc_built: "построено", npc_materials: "нужно: {materials}",
  npc_fee: "плата {fee} монет", npc_bought: "Куплено: {name} за {price} монет; у вас {money}.",
  npc_sold: "Продано: {name} за {price} монет; у вас {money}.", npc_crafted: "Изготовлено: {name} за {price} монет; у вас {money}.",
  npc_raised: "{stat} теперь {level}.", bounty_open: "открыт", bounty_completed: "выполнен", bounty_abandoned: "отменён",
  npc_purse: "Кошелёк и поклажа", npc_junk_dealer: "Барахольщик", npc_charon: "Харон", npc_trader: "Торговец",
  npc_weaponsmith: "Оружейник", npc_armorer: "Бронник", npc_bowyer: "Мастер луков", npc_battle_mage: "Боевой чародей",
  npc_warlock: "Чернокнижник", npc_shaman: "Шаман", npc_peasant: "Крестьяне", npc_potion_seller: "Продавец зелий",
  npc_inquisitor: "Инквизитор", npc_carpenter: "Плотник", npc_jeweler: "Ювелир", cat_weapon: "оружие",
  cat_armor: "броня", cat_potion: "зелье", cat_special: "особое", cat_amulet: "амулет", cat_torch: "факел",
});

/** The services' route segments (npcs.rules.SERVICES) that have a page here, in the order shown. */
const SERVICE_TITLES = /** @type {const} */ ({
  shop: "npc_shop", sell: "npc_sell", belts: "npc_belts", buffs: "npc_buffs", upgrades: "npc_upgrades",
  bounties: "npc_bounties", structures: "npc_structures_offer", recipes: "npc_recipes",
});

/** @param {Ui} ui */
export function npcsPane(ui) {
  const { api, t, h, button, $ } = ui;
  /** @type {{ guild: number | null, npcs: GuildNpcs | null, kind: string | null }} */
  const state = { guild: null, npcs: null, kind: null };

  /** @param {Material[]} materials */
  const materialsText = (materials) => materials.map((m) => `${m.quantity} × ${m.item_kind.name}`).join(", ");
  /** @param {Catalog} kind */
  const catalogLine = (kind) => [categoryName(kind.category), kind.sub_kind, `${t("weight")} ${kind.weight}`,
    kind.damage ? `⚔ ${kind.damage}` : "", kind.armor ? `🛡 ${kind.armor}` : "", kind.heal ? `♥ ${kind.heal}` : "",
    kind.effect ? kind.effect : ""].filter(Boolean).join(" · ");
  /** The kind's name in the page's language; the admin's own name for a kind the page does not know.
   * @param {GuildNpc} npc */
  const npcName = (npc) => (t(`npc_${npc.kind}`) === `npc_${npc.kind}` ? npc.name : t(`npc_${npc.kind}`));
  /** @param {string} category */
  const categoryName = (category) => (t(`cat_${category}`) === `cat_${category}` ? category : t(`cat_${category}`));
  /** @param {number} price @param {number} list */
  const priceText = (price, list) => t("npc_price", { price }) + (price !== list ? ` (${t("npc_list_price", { price: list })})` : "");

  /** The player's money and carry limits as the API last gave them. */
  function showPurse() {
    const me = ui.me();
    if (!me) return;
    const carry = me.carry;
    $("npc-purse").replaceChildren(
      h("dt", {}, t("money")), h("dd", { "data-purse": "money" }, String(me.money)),
      h("dt", {}, t("weight")), h("dd", { "data-purse": "weight" }, `${carry.weight} / ${carry.capacity}`),
      h("dt", {}, t("weapons")), h("dd", { "data-purse": "weapons" }, `${carry.weapons} / ${carry.weapon_limit}`),
      h("dt", {}, t("potions")), h("dd", { "data-purse": "potions" }, `${carry.potions} / ${carry.potion_limit}`));
  }

  /** After a trade: the player again (money, pack), then the open page. @param {string} message */
  async function traded(message) {
    ui.say(message);
    await ui.loadMe();
    showPurse();
    await showKind();
  }

  /** Reads the guild's NPCs and shows the list (and the page chosen before, if the guild still has it). */
  async function open() {
    await ui.loadMe();
    const me = ui.me();
    const guild = me && me.guild ? me.guild.id : null;
    state.guild = guild;
    $("npc-none").hidden = guild !== null;
    $("npc-hall").hidden = guild === null;
    if (guild === null) return;
    showPurse();
    const npcs = await api.get("/api/v1/guilds/{guild_id}/npcs/", { path: { guild_id: guild } });
    state.npcs = npcs;
    $("npc-overview").textContent = [t("npc_overview", { rank: npcs.rank, size: npcs.junk_dealer_offer_size }),
      npcs.junk_dealer_tier ? t("npc_tier", { tier: npcs.junk_dealer_tier.name }) : "",
      npcs.junk_dealer_next_tier
        ? t("npc_next_tier", { tier: npcs.junk_dealer_next_tier.name, rank: npcs.junk_dealer_next_tier.min_rank }) : "",
    ].filter(Boolean).join(" ");
    $("npc-built").replaceChildren(...(npcs.structures.length ? npcs.structures.map((s) => h("li",
      { "data-built": s.slug }, h("span", { class: "grow" }, s.name),
      h("small", {}, s.built_by ? t("npc_built_by", { name: s.built_by.display_name }) : t("npc_built"))))
      : [h("li", { class: "hint" }, t("npc_none_built"))]));
    $("npc-list").replaceChildren(...npcs.npcs.map((npc) => {
      const choose = h("button", { type: "button", class: "secondary", "data-npc": npc.kind,
        "aria-pressed": String(npc.kind === state.kind) }, npcName(npc),
      npc.repeatable && npc.count > 1 ? ` ×${npc.count}` : "");
      choose.addEventListener("click", () => { void ui.run(() => choosePage(npc.kind)); });
      return choose;
    }));
    if (state.kind && !npcs.npcs.some((npc) => npc.kind === state.kind)) state.kind = null;
    await showKind();
  }

  /** @param {string} kind */
  async function choosePage(kind) {
    state.kind = kind;
    for (const element of $("npc-list").querySelectorAll("[data-npc]")) {
      if (element instanceof HTMLElement) element.setAttribute("aria-pressed", String(element.dataset.npc === kind));
    }
    await showKind();
    const heading = document.querySelector("#npc-page h3");
    if (heading instanceof HTMLElement) heading.focus();
  }

  /** Draws the chosen NPC's page: each of its services read from the API. */
  async function showKind() {
    const page = $("npc-page");
    const npc = state.npcs && state.kind ? state.npcs.npcs.find((n) => n.kind === state.kind) : null;
    if (!npc || state.guild === null) {
      page.replaceChildren();
      page.hidden = true;
      return;
    }
    const guild = state.guild;
    const parts = [h("h3", { tabindex: "-1" }, npcName(npc)), h("p", { class: "hint" }, npc.description),
      h("p", { class: "hint" }, npc.initial ? t("npc_initial") : t("npc_count", { count: npc.count }))];
    const services = npc.services.filter((service) => service in SERVICE_TITLES);
    if (!services.length) {
      const own = `npc_${npc.kind}_page`;
      parts.push(h("p", {}, t(own) === own ? t("npc_no_page") : t(own)));
    }
    for (const service of services) {
      const title = SERVICE_TITLES[/** @type {keyof typeof SERVICE_TITLES} */ (service)];
      const section = h("section", { "data-service": service }, h("h4", {}, t(title)));
      section.append(...await serviceParts(service, npc, guild));
      parts.push(section);
    }
    page.replaceChildren(...parts);
    page.dataset.npc = npc.kind;
    page.hidden = false;
  }

  /** @param {HTMLElement[]} rows */
  const list = (rows) => rows.length ? h("ul", { class: "rows" }, ...rows) : h("p", { class: "hint" }, t("npc_nothing"));

  /**
   * @param {string} service @param {GuildNpc} npc @param {number} guildId
   * @returns {Promise<HTMLElement[]>}
   */
  async function serviceParts(service, npc, guildId) {
    if (service === "shop") {
      const kind = /** @type {Shop} */ (npc.kind);
      const path = { guild_id: guildId, kind };
      const offers = await api.get("/api/v1/guilds/{guild_id}/npcs/{kind}/offers/", { path });
      return [list(offers.map((offer) => h("li", { "data-offer": String(offer.id) },
        h("span", { class: "grow" }, `${offer.item_kind.name} `, h("small", {}, catalogLine(offer.item_kind))),
        h("span", { "data-price": String(offer.price) }, priceText(offer.price, offer.list_price)),
        h("small", {}, offer.daily_stock === null || offer.stock_left === null ? t("npc_unlimited")
          : t("npc_stock", { left: offer.stock_left, stock: offer.daily_stock })),
        button("npc_buy", async () => {
          const bought = await api.post("/api/v1/guilds/{guild_id}/npcs/{kind}/offers/{offer_id}/buy/",
            { path: { ...path, offer_id: offer.id } });
          await traded(t("npc_bought", { name: bought.item.item_kind.name, price: bought.price, money: bought.money }));
        }))))];
    }
    if (service === "sell") {
      const kind = /** @type {Buyer} */ (npc.kind);
      const path = { guild_id: guildId, kind };
      const quotes = await api.get("/api/v1/guilds/{guild_id}/npcs/{kind}/quotes/", { path });
      return [list(quotes.map((quote) => h("li", { "data-item": String(quote.item.id) },
        h("span", { class: "grow" }, `${quote.item.item_kind.name} `,
          h("small", {}, `${categoryName(quote.item.item_kind.category)} · ${quote.item.item_kind.sub_kind}`),
          quote.item.equipped ? h("span", { class: "badge" }, t("equipped")) : ""),
        h("span", { "data-quote": quote.price === null ? "" : String(quote.price) },
          quote.price === null ? t("npc_not_bought") : t("npc_price", { price: quote.price })),
        quote.price === null ? "" : button("npc_sell_button", async () => {
          const sold = await api.post("/api/v1/guilds/{guild_id}/npcs/{kind}/sell/",
            { path, body: { item: quote.item.id } });
          await traded(t("npc_sold", { name: sold.item_kind.name, price: sold.price, money: sold.money }));
        }, "secondary"))))];
    }
    const path = { guild_id: guildId };
    if (service === "belts") {
      const belts = await api.get("/api/v1/guilds/{guild_id}/npcs/potion_seller/belts/", { path });
      return [h("p", { "data-belts": String(belts.level) }, t("npc_belt_level", { level: belts.level, max: belts.max_level }),
        " ", belts.next_price === null ? t("npc_belt_max") : t("npc_belt_next", { price: belts.next_price })),
      belts.next_price === null ? h("span") : button("npc_buy_belt", async () => {
        const after = await api.post("/api/v1/guilds/{guild_id}/npcs/potion_seller/belts/buy/", { path });
        await traded(t("npc_belt_level", { level: after.level, max: after.max_level }));
      })];
    }
    if (service === "buffs") {
      const board = await api.get("/api/v1/guilds/{guild_id}/npcs/warlock/buffs/", { path });
      /** @param {number | null} turns */
      const lasting = (turns) => turns === null ? t("npc_whole_battle") : t("npc_turns", { turns });
      return [list(board.offers.map((buff) => h("li", { "data-buff": String(buff.id) },
        h("span", { class: "grow" }, `${buff.name} `, h("small", {}, `${buff.effect} · ${lasting(buff.turns)}`),
          h("br"), h("small", {}, buff.description)),
        h("span", { "data-price": String(buff.price) }, priceText(buff.price, buff.list_price)),
        button("npc_buy", async () => {
          const bought = await api.post("/api/v1/guilds/{guild_id}/npcs/warlock/buffs/{buff_id}/buy/",
            { path: { ...path, buff_id: buff.id } });
          await traded(t("npc_bought", { name: bought.buff.name, price: bought.buff.price_paid, money: bought.money }));
        })))),
      h("h4", {}, t("npc_pending")),
      list(board.pending.map((buff) => h("li", { "data-pending": String(buff.buff) },
        h("span", { class: "grow" }, buff.name), h("small", {}, `${buff.effect} · ${lasting(buff.turns)}`))))];
    }
    if (service === "upgrades") {
      const board = await api.get("/api/v1/guilds/{guild_id}/npcs/shaman/upgrades/", { path });
      return [h("p", { "data-stone-points": String(board.stone_points) }, t("npc_stone_points", { points: board.stone_points })),
        list(board.stats.map((row) => h("li", { "data-stat": row.stat },
          h("span", { class: "grow" }, t(row.stat), " ", h("small", {}, t("npc_level", { level: row.level }))),
          h("span", { "data-cost": row.cost === null ? "" : String(row.cost) },
            row.cost === null ? t("npc_max", { max: board.max_level }) : t("npc_cost", { cost: row.cost })),
          button("npc_raise", async () => {
            const raised = await api.post("/api/v1/guilds/{guild_id}/npcs/shaman/upgrades/",
              { path, body: { stat: row.stat } });
            await traded(t("npc_raised", { stat: t(raised.stat), level: raised.level }));
          }))))];
    }
    if (service === "bounties") {
      const board = await api.get("/api/v1/guilds/{guild_id}/npcs/inquisitor/bounties/", { path });
      return [h("p", { class: "hint" }, t("npc_bounty_rules", { max: board.max_open, bonus: board.bonus_percent })),
        list(board.quests.map((quest) => h("li", { "data-quest": String(quest.id) },
          h("span", { class: "grow" }, `${quest.title} `,
            h("small", {}, t("npc_kills", { kills: quest.kills, enemy: quest.enemy_kind.name }))),
          h("span", { "data-reward": String(quest.reward) }, t("npc_reward", { reward: quest.reward })),
          button("npc_accept", async () => {
            await api.post("/api/v1/guilds/{guild_id}/npcs/inquisitor/bounties/{quest_id}/accept/",
              { path: { ...path, quest_id: quest.id } });
            await traded(t("done"));
          })))),
        h("h4", {}, t("npc_my_bounties")),
        list(board.mine.map((bounty) => h("li", { "data-bounty": String(bounty.id), "data-status": bounty.status },
          h("span", { class: "grow" }, `${bounty.title} `,
            h("small", {}, t("npc_progress", { progress: bounty.progress, kills: bounty.kills_required }))),
          h("small", {}, t(`bounty_${bounty.status}`)),
          bounty.status === "open" ? button("npc_abandon", async () => {
            await api.post("/api/v1/guilds/{guild_id}/npcs/inquisitor/bounties/{quest_id}/abandon/",
              { path: { ...path, quest_id: bounty.quest } });
            await traded(t("done"));
          }, "secondary") : "")))];
    }
    if (service === "structures") {
      const structures = await api.get("/api/v1/guilds/{guild_id}/npcs/carpenter/structures/", { path });
      return [list(structures.map((structure) => h("li", { "data-structure": String(structure.id),
        "data-built": structure.built_at ? "1" : "0" },
      h("span", { class: "grow" }, `${structure.name} `, h("small", {}, structure.effect_description), h("br"),
        h("small", {}, t("npc_materials", { materials: materialsText(structure.materials) }))),
      h("span", { "data-price": String(structure.coins) }, t("npc_price", { price: structure.coins })),
      structure.built_at ? h("span", { class: "badge" }, structure.built_by
        ? t("npc_built_by", { name: structure.built_by.display_name }) : t("npc_built"))
        : button("npc_build", async () => {
          await api.post("/api/v1/guilds/{guild_id}/npcs/carpenter/structures/{structure_id}/build/",
            { path: { ...path, structure_id: structure.id } });
          await traded(t("done"));
          await open();
        }))))];
    }
    // recipes
    const recipes = await api.get("/api/v1/guilds/{guild_id}/npcs/jeweler/recipes/", { path });
    return [list(recipes.map((recipe) => h("li", { "data-recipe": String(recipe.id) },
      h("span", { class: "grow" }, `${recipe.amulet.name} `, h("small", {}, catalogLine(recipe.amulet)), h("br"),
        h("small", {}, t("npc_materials", { materials: materialsText(recipe.materials) }))),
      h("span", { "data-price": String(recipe.fee) }, t("npc_fee", { fee: recipe.fee })),
      button("npc_craft", async () => {
        const made = await api.post("/api/v1/guilds/{guild_id}/npcs/jeweler/recipes/{recipe_id}/craft/",
          { path: { ...path, recipe_id: recipe.id } });
        await traded(t("npc_crafted", { name: made.item.item_kind.name, price: made.price, money: made.money }));
      }))))];
  }

  return { open, close: () => undefined };
}
