// The crawler page's own words in English and Russian. What the API says (errors, notices) comes in the
// language of the Accept-Language header the page sends, from the server's gettext catalogues.

/** @typedef {"en" | "ru"} Lang */

/** @type {Record<string, string>} */
const EN = {
  other_language: "Русский", signed_in_as: "signed in as", player_id: "player id", sign_out: "sign out",
  sign_in_title: "Sign in or register", name: "Name", password: "Password", sign_in: "Sign in",
  register: "Register", tab_player: "Player", tab_guild: "Guild", tab_guilds: "Guilds", tab_run: "Run",
  refresh: "refresh",
  live: "live", offline: "offline", money: "Money", completed: "Dungeons completed", belts: "Potion belts",
  stats: "Stats", carry: "Carry limits", inventory: "Inventory", no_items: "You carry nothing.",
  no_guild: "You are in no guild: found one, or apply to one in the list.", found: "Found a guild",
  guild_name: "Guild name", description: "Description", found_button: "Found", invitations: "Invitations",
  no_invitations: "No invitations.", rank: "Rank", activity: "Activity", members: "Members", state: "State",
  leave: "Leave the guild", vote: "Vote to disband", unvote: "Withdraw my vote", leader_page: "The leader's page",
  close: "Close the guild", reopen: "Reopen the guild", applications: "Applications",
  no_applications: "No pending applications.", invite: "Invite a player", invite_button: "Invite",
  browse: "Guilds to join", search: "Search", ordering: "Order by", by_name: "name, A to Z",
  by_name_desc: "name, Z to A", by_members_desc: "most members", by_members: "fewest members",
  by_activity_desc: "most active", by_activity: "least active", search_button: "Search", guild: "Guild",
  leader: "Leader", no_guilds: "No guild matches.", more: "More", my_applications: "My applications",
  no_my_applications: "No applications.", notices: "Notices", strength: "Strength", stamina: "Stamina",
  metabolism: "Metabolism", luck: "Luck", attentiveness: "Attentiveness", weight: "Weight",
  weapons: "Weapons", potions: "Potions", equip: "Equip", unequip: "Take off", drop: "Drop",
  equipped: "equipped", apply: "Apply", accept: "Accept", decline: "Decline", approve: "Approve",
  reject: "Reject", reason: "Reason", kick: "Kick", hand_over: "Make leader", is_leader: "leader",
  forming: "forming", open: "open", closed: "closed", pending: "pending", approved: "approved",
  rejected: "rejected", withdrawn: "withdrawn", declined: "declined", cancelled: "cancelled",
  votes: "Disband votes: {votes} of {members}.", disbanded: "The guild was disbanded.",
  founded: "Guild founded.", applied: "Application sent.", done: "Done.", invited: "Invitation sent.",
  left: "You left the guild.", from: "from", joined: "joined", reason_shown: "reason: {reason}",
  confirm_drop: "Drop this item?", signed_out: "Signed out.",
};

/** @type {Record<string, string>} */
const RU = {
  other_language: "English", signed_in_as: "вы вошли как", player_id: "id игрока", sign_out: "выйти",
  sign_in_title: "Вход или регистрация", name: "Имя", password: "Пароль", sign_in: "Войти",
  register: "Зарегистрироваться", tab_player: "Персонаж", tab_guild: "Гильдия", tab_guilds: "Гильдии", tab_run: "Поход",
  refresh: "обновить", live: "на связи", offline: "нет связи", money: "Деньги",
  completed: "Пройдено подземелий", belts: "Пояса для зелий", stats: "Характеристики",
  carry: "Пределы переноски", inventory: "Инвентарь", no_items: "Вы ничего не несёте.",
  no_guild: "Вы не в гильдии: основайте свою или подайте заявку в гильдию из списка.",
  found: "Основать гильдию", guild_name: "Название гильдии", description: "Описание", found_button: "Основать",
  invitations: "Приглашения", no_invitations: "Приглашений нет.", rank: "Ранг", activity: "Активность",
  members: "Участники", state: "Состояние", leave: "Покинуть гильдию", vote: "Голосовать за роспуск",
  unvote: "Отозвать голос", leader_page: "Страница лидера", close: "Закрыть гильдию",
  reopen: "Открыть гильдию", applications: "Заявки", no_applications: "Заявок нет.",
  invite: "Пригласить игрока", invite_button: "Пригласить", browse: "Гильдии для вступления",
  search: "Поиск", ordering: "Порядок", by_name: "название, А-Я", by_name_desc: "название, Я-А",
  by_members_desc: "больше участников", by_members: "меньше участников", by_activity_desc: "самые активные",
  by_activity: "наименее активные", search_button: "Найти", guild: "Гильдия", leader: "Лидер",
  no_guilds: "Подходящих гильдий нет.", more: "Ещё", my_applications: "Мои заявки",
  no_my_applications: "Заявок нет.", notices: "Уведомления", strength: "Сила", stamina: "Выносливость",
  metabolism: "Метаболизм", luck: "Удача", attentiveness: "Внимательность", weight: "Вес",
  weapons: "Оружие", potions: "Зелья", equip: "Надеть", unequip: "Снять", drop: "Выбросить",
  equipped: "надето", apply: "Подать заявку", accept: "Принять", decline: "Отклонить", approve: "Одобрить",
  reject: "Отказать", reason: "Причина", kick: "Исключить", hand_over: "Сделать лидером", is_leader: "лидер",
  forming: "формируется", open: "открыта", closed: "закрыта", pending: "ожидает", approved: "одобрена",
  rejected: "отклонена", withdrawn: "отозвана", declined: "отклонено", cancelled: "отменено",
  votes: "Голосов за роспуск: {votes} из {members}.", disbanded: "Гильдия распущена.",
  founded: "Гильдия основана.", applied: "Заявка отправлена.", done: "Готово.", invited: "Приглашение отправлено.",
  left: "Вы покинули гильдию.", from: "от", joined: "вступил(а)", reason_shown: "причина: {reason}",
  confirm_drop: "Выбросить этот предмет?", signed_out: "Вы вышли.",
};

const WORDS = { en: EN, ru: RU };
const LANG_KEY = "deepdelve.lang";

/** The language chosen before (this browser), else the browser's own. @returns {Lang} */
export function initialLang() {
  const stored = globalThis.localStorage ? localStorage.getItem(LANG_KEY) : null;
  if (stored === "en" || stored === "ru") return stored;
  return (navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
}

/** @param {Lang} lang */
export function rememberLang(lang) {
  if (globalThis.localStorage) localStorage.setItem(LANG_KEY, lang);
}

/**
 * A word of the page in `lang`, with `{name}` placeholders filled; the key itself if the word is missing.
 * @param {Lang} lang @param {string} key @param {Record<string, string | number>} [values]
 */
export function word(lang, key, values = {}) {
  const text = WORDS[lang][key] ?? EN[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/**
 * Adds a screen module's own words (its keys in both languages) to the page's dictionary.
 * @param {Record<string, string>} en @param {Record<string, string>} ru
 */
export function addWords(en, ru) {
  Object.assign(EN, en);
  Object.assign(RU, ru);
}

/** Every key has both languages (the test reads this). @returns {string[]} */
export function missingWords() {
  return Object.keys(EN).filter((key) => !(key in RU)).concat(Object.keys(RU).filter((key) => !(key in EN)));
}
