// The words of the run and battle screens (./run.js, ./battle.js) in English and Russian, apart from the
// home's dictionary (./i18n.js) so that each screen keeps its own words. What happens in a run (its
// events' `text`) and every refusal come from the server, in the language the page asks for.

/** @typedef {import("./i18n.js").Lang} Lang */

/** @type {Record<string, string>} */
const EN = {
  run_title: "Dungeon run", lobbies: "Open lobbies", no_lobbies: "No open lobby: open one.", open_run: "Open a run",
  kind: "Kind", ordinary: "ordinary", frenzy: "frenzy", darkness: "darkness", open_button: "Open", join: "Join",
  host: "host", reload: "refresh", lobby: "Lobby", party: "Party", offer: "The junk dealer's offer",
  no_offer: "The junk dealer has nothing for you.", take_weapon: "Take", refuse: "Go with what I carry",
  taken: "took a weapon", pending: "choosing", refused: "own weapon", formation: "Formation",
  formation_hint: "First in front. Drag a name, or focus it and press Up / Down, or use its arrow buttons.",
  up: "Move up", down: "Move down", save_formation: "Save the formation", start: "Start the run",
  leave_lobby: "Leave the lobby", dungeon: "Dungeon", floor: "Floor {floor}", room_unknown: "not yet seen",
  here: "the party is here", members: "Members", hp: "HP", status: "Status", effects_next: "next battle",
  kills: "kills", npc: "Companion", room: "Room", cleared: "done", not_cleared: "not done",
  loot: "Loot", no_loot: "Nothing lies here.", take: "Pick up", taken_by: "taken by {name}",
  carry: "You carry: weight {weight} / {capacity}, weapons {weapons} / {weapon_limit}, potions {potions} / {potion_limit}",
  potions: "Potions between rooms", drink: "Drink", advance: "Go on to the next room", escape: "Leave the dungeon",
  log: "What happened", ended: "The run is over: {status}.", rescued: "Rescued for the guild: {npc}.",
  no_rescue: "No one was rescued.", charon: "{name} died: Charon took {money} coins; {items} items lost.",
  back: "Back to the lobbies", run_live: "run live", run_offline: "run offline",
  lobby_status: "lobby", active: "in the dungeon", completed: "completed", failed: "failed (the whole party fell)",
  escaped: "escaped", cancelled: "cancelled", joined: "joined", in_dungeon: "inside", dead: "dead",
  finished: "finished", left: "left",
  battle: "Battle", round: "Round {round}", turn_order: "Turn order", your_turn: "Your turn.",
  waiting_for: "Waiting for {name}.", deadline: "Turn ends in {seconds} s", battle_log: "Battle log",
  attack: "Attack {target}", drink_potion: "Drink {potion}", switch_weapon: "Take {weapon}", skip: "Skip the turn",
  flee: "Flee", until_end: "until the end", turns: "{turns} turns", permanent: "permanent",
  fled: "fled", is_down: "down", outcome: "Outcome: {outcome}", ongoing: "ongoing", victory: "victory",
  defeat: "defeat", draw: "draw", enemy: "enemy", boss: "boss", trap: "trap", treasure: "treasure",
  story: "story", rest: "rest", empty: "empty",
  // effects (docs/combat.md), as the server's texts name them
  effect_haste: "haste", effect_stun: "stun", effect_camouflage: "camouflage", effect_provocation: "provocation", effect_curse: "curse", effect_blessing: "blessing", effect_weakness: "weakness", effect_vigor: "vigor", effect_fragility: "fragility",
  effect_resilience: "resilience", effect_distraction: "distraction", effect_concentration: "concentration", effect_fear: "fear", effect_fearlessness: "fearlessness", effect_regeneration: "regeneration", effect_bleeding: "bleeding", effect_burning: "burning", effect_frostbite: "frostbite",
  healing: "healing", effect: "effect", stat: "stat",
  // the NPC kinds (npcs.md)
  npc_trader: "trader", npc_weaponsmith: "weaponsmith", npc_armorer: "armorer", npc_bowyer: "bowyer", npc_battle_mage: "battle mage", npc_warlock: "warlock",
  npc_shaman: "shaman", npc_peasant: "peasant", npc_potion_seller: "potion seller", npc_inquisitor: "inquisitor", npc_carpenter: "carpenter", npc_jeweler: "jeweler",
};

/** @type {Record<string, string>} */
const RU = {
  run_title: "Поход в подземелье", lobbies: "Открытые лобби", no_lobbies: "Открытых лобби нет: откройте своё.",
  open_run: "Открыть поход", kind: "Вид", ordinary: "обычный", frenzy: "безумие", darkness: "тьма",
  open_button: "Открыть", join: "Присоединиться", host: "хозяин", reload: "обновить", lobby: "Лобби",
  party: "Группа", offer: "Предложение барахольщика", no_offer: "Барахольщику нечего вам предложить.",
  take_weapon: "Взять", refuse: "Идти со своим", taken: "взял(а) оружие", pending: "выбирает", refused: "своё оружие",
  formation: "Построение",
  formation_hint: "Первый впереди. Перетащите имя, или выберите его и нажмите Вверх / Вниз, или кнопки-стрелки.",
  up: "Выше", down: "Ниже", save_formation: "Сохранить построение", start: "Начать поход",
  leave_lobby: "Покинуть лобби", dungeon: "Подземелье", floor: "Этаж {floor}", room_unknown: "ещё не видно",
  here: "группа здесь", members: "Участники", hp: "ОЗ", status: "Состояние", effects_next: "в следующем бою",
  kills: "убито", npc: "Спутник", room: "Комната", cleared: "пройдена", not_cleared: "не пройдена",
  loot: "Добыча", no_loot: "Здесь ничего не лежит.", take: "Подобрать", taken_by: "подобрал(а) {name}",
  carry: "Вы несёте: вес {weight} / {capacity}, оружие {weapons} / {weapon_limit}, зелья {potions} / {potion_limit}",
  potions: "Зелья между комнатами", drink: "Выпить", advance: "Идти в следующую комнату",
  escape: "Покинуть подземелье", log: "Что произошло", ended: "Поход окончен: {status}.",
  rescued: "Спасён для гильдии: {npc}.", no_rescue: "Никто не спасён.",
  charon: "{name} погиб(ла): Харон взял {money} монет; потеряно предметов: {items}.",
  back: "К списку лобби", run_live: "поход на связи", run_offline: "поход без связи", lobby_status: "лобби",
  active: "в подземелье", completed: "пройден", failed: "провален (погибла вся группа)", escaped: "побег",
  cancelled: "отменён", joined: "в лобби", in_dungeon: "внутри", dead: "погиб(ла)", finished: "прошёл(ла)",
  left: "ушёл(ла)",
  battle: "Бой", round: "Раунд {round}", turn_order: "Порядок ходов", your_turn: "Ваш ход.",
  waiting_for: "Ждём: {name}.", deadline: "Ход закончится через {seconds} с", battle_log: "Журнал боя",
  attack: "Атаковать: {target}", drink_potion: "Выпить: {potion}", switch_weapon: "Взять: {weapon}",
  skip: "Пропустить ход", flee: "Бежать", until_end: "до конца боя", turns: "ходов: {turns}",
  permanent: "постоянно", fled: "сбежал(а)", is_down: "повержен(а)", outcome: "Итог: {outcome}",
  ongoing: "идёт", victory: "победа", defeat: "поражение", draw: "ничья", enemy: "враги", boss: "босс",
  trap: "ловушка", treasure: "сокровищница", story: "сюжетная", rest: "отдых", empty: "пустая",
  effect_haste: "проворность", effect_stun: "оглушение", effect_camouflage: "маскировка", effect_provocation: "провокация", effect_curse: "проклятие", effect_blessing: "благословение", effect_weakness: "слабость", effect_vigor: "бодрость", effect_fragility: "хрупкость",
  effect_resilience: "стойкость", effect_distraction: "рассеянность", effect_concentration: "концентрация", effect_fear: "страх", effect_fearlessness: "бесстрашие", effect_regeneration: "регенерация", effect_bleeding: "кровотечение", effect_burning: "горение", effect_frostbite: "обморожение",
  healing: "лечебное", effect: "эффект", stat: "характеристика",
  npc_trader: "торговец", npc_weaponsmith: "оружейник", npc_armorer: "бронник", npc_bowyer: "лучник", npc_battle_mage: "боевой маг", npc_warlock: "колдун",
  npc_shaman: "шаман", npc_peasant: "крестьянин", npc_potion_seller: "продавец зелий", npc_inquisitor: "инквизитор", npc_carpenter: "плотник", npc_jeweler: "ювелир",
};

const WORDS = { en: EN, ru: RU };

/**
 * A word of the run screens in `lang`, `{name}` placeholders filled; the key itself if it is missing.
 * @param {Lang} lang @param {string} key @param {Record<string, string | number>} [values]
 */
export function runWord(lang, key, values = {}) {
  const text = WORDS[lang][key] ?? EN[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** Every key has both languages (the browser test reads this). @returns {string[]} */
export function missingRunWords() {
  return Object.keys(EN).filter((key) => !(key in RU)).concat(Object.keys(RU).filter((key) => !(key in EN)));
}
