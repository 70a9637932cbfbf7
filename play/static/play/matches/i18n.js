// The match shell's own words in English and Russian. Game texts (event `text`, mode titles, the help)
// come from the server in the request's language: the page sends the same language as Accept-Language.

/** @typedef {"en" | "ru"} Lang */

const EN = {
  title: "Matches", cellCaptureLink: "Cell capture page", language: "Language", signedInAs: "signed in as",
  signOut: "sign out", signIn: "Sign in", register: "Register", name: "Name", password: "Password",
  modes: "Modes", joinByCode: "Join by code", inviteCode: "Invite code", join: "Join", open: "Open",
  watchMatch: "Watch", myGames: "Lobbies and my games", refresh: "Refresh", noGames: "No lobby or game yet.",
  watch: "Watch", noWatch: "No public match to watch.", back: "← all games", liveBadge: "live",
  view: "What you know", actions: "Your moves", players: "Players", log: "Log", backToMatch: "← the match",
  asSeat: "As seat", previous: "Previous", next: "Next", stepEvents: "This step's events",
  playersRange: "{min}–{max} players", bots: "bots: {list}", noBots: "no bots", spectatorsYes: "can be watched",
  spectatorsNo: "no spectators", visibility: "Who may join", public: "anyone", guild: "my guild",
  private: "private (invite code)", openLobby: "Open a lobby", quickJoin: "Quick join", leaveQueue: "Leave the queue",
  settings: "Settings", noneValue: "none", yes: "yes", no: "no",
  start: "Start", leave: "Leave", resign: "Resign", rematch: "Rematch", joinRematch: "Join the rematch #{id}",
  replay: "Replay", addBot: "Add a bot", you: "you", host: "host", bot: "bot", out: "left",
  seat: "seat {n}", game: "{mode} #{id}", status_lobby: "lobby", status_active: "playing",
  status_finished: "finished", status_abandoned: "abandoned", status_cancelled: "cancelled",
  waitingPlayers: "Waiting for players: {n} seated ({min} to {max}).", hostStarts: "The host starts the game.",
  youStart: "Start when everyone is here.", yourTurn: "Your turn.", waitingFor: "Waiting for {name}.",
  botPlaying: "{name} is thinking…", secondsLeft: "{s} s left", spectating: "You are watching: read-only.",
  resultWon: "{names} won ({reason}).", resultNobody: "Nobody won ({reason}).", youWon: "You won!",
  lobbyOpened: "Lobby #{id} is open.", joined: "You took a seat in #{id}.", queued: "Queued in #{id}.",
  leftQueue: "You left the queue.", started: "The game has started.", resigned: "You resigned.",
  left: "You left the game.", botAdded: "A bot took a seat.", rematchOpened: "Rematch #{id} is open.",
  signedIn: "Signed in as {name}.", welcome: "Welcome, {name}.", signedOut: "Signed out.",
  noActions: "Nothing to do now.", step: "step {i} of {n}", stepStart: "The start",
  stepAction: "Turn {turn}: seat {seat}: {action}", timeout: "the time ran out", resignedStep: "resigned",
  inventory: "Inventory", ammo: "bullets", key: "key", turnsPlayed: "turns played", help: "Help",
  notebook: "Your notebook (you start at ●; walls you met are drawn, the field is {rows}×{cols})",
  notebookSheet: "sheet {n}", exitHere: "exit (needs the key)", choosingStarts: "Choose your start.",
  cmd_W: "Up (W)", cmd_A: "Left (A)", cmd_S: "Down (S)", cmd_D: "Right (D)", "cmd_X W": "Shoot up",
  "cmd_X A": "Shoot left", "cmd_X S": "Shoot down", "cmd_X D": "Shoot right", cmd_E: "Inventory (E)",
  "cmd_?": "Help (?)", publicView: "Public view",
  clickCell: "Your turn: click a highlighted cell of the board (or Tab to it and press Enter).",
  reason_won: "the last colour on the board", reason_exit_reached: "out of the labyrinth",
  reason_turn_limit: "the turn limit: a draw", reason_treasure_carried_out: "the treasure carried out",
  reason_death_limit: "too many deaths", reason_last_player: "the last player left", reason_resigned: "resigned",
  reason_abandoned: "abandoned", reason_new_game: "a new game ended it", reason_draw_nstop: "no change for too long: a draw",
  reason_draw_all_skip: "everyone skipped: a draw", reason_draw_treasure_out: "the treasure thrown out: a draw",
  reason_draw_treasure_on_source: "the treasure on a river's source: a draw",
  reason_draw_all_dead: "everyone killed: a draw", reason_draw_survivor_time: "the survivor ran out of time: a draw",
  // the paper labyrinth (paper.js)
  p_dir_UP: "up", p_dir_LEFT: "left", p_dir_DOWN: "down", p_dir_RIGHT: "right", p_dir_HERE: "into my cell",
  p_item_bullet: "bullet", p_item_grenade: "grenade", p_item_mine: "mine", p_item_treasure: "treasure",
  p_item_corpse: "corpse",
  p_do_move: "Move {dir}", p_do_downstream: "Swim downstream", p_do_cycle: "Go on through the hole",
  p_do_skip: "Skip", p_do_shoot: "Shoot {dir}", p_do_grenade: "Grenade {dir}", p_do_leave: "Leave a {item}",
  p_do_throw: "Throw a {item} {dir}", p_do_mine: "Mine {dir}", p_do_if: "If {cond}: {then}",
  p_kind_move: "move", p_kind_downstream: "downstream", p_kind_cycle: "hole's cycle", p_kind_skip: "skip",
  p_kind_shoot: "shoot", p_kind_grenade: "grenade", p_kind_leave: "leave an item", p_kind_throw: "throw an item",
  p_kind_mine: "place a mine", p_kind_if: "if… (a condition)",
  p_cond_wall: "a wall", p_cond_no_wall: "no wall", p_cond_land: "land", p_cond_hospital: "the hospital",
  p_cond_arsenal: "the arsenal", p_cond_hole: "a hole", p_cond_river: "the river", p_cond_mouth: "the mouth",
  p_cond_encephalitis: "encephalitis", p_cond_found_anything: "found anything",
  p_cond_found_treasure: "found a treasure", p_cond_found_bullets: "found bullets",
  p_cond_found_grenades: "found grenades", p_cond_found_mine: "found a mine", p_cond_found_corpse: "found a corpse",
  p_cond_scream: "a scream", p_cond_no_scream: "no scream",
  p_startAt: "Start at cell {n}", p_vis_normal: "normal", p_vis_dark: "dark (no answer)",
  p_vis_half_dark: "half-dark (wall or no wall)", p_reorderShort: "re-order", p_clock_timer: "Call the timer",
  p_clock_pause: "Take a pause",
  p_health: "health", p_health_healthy: "healthy", p_health_wounded: "wounded", p_health_sick: "sick",
  p_health_dead: "dead", p_immune: "immune", p_bullets: "bullets", p_grenades: "grenades", p_slot: "carrying",
  p_empty: "nothing", p_cureLeft: "moves left to a cure", p_reordersLeft: "re-orders left", p_where: "where",
  p_outside: "outside the labyrinth", p_eliminated: "out of the game", p_calm: "rounds without change",
  p_calmOf: "{n} of {of}",
  p_variant: "variant", p_variant_classic: "classic", p_variant_quantum: "quantum", p_phase: "phase",
  p_phase_choosing_starts: "choosing starts", p_phase_playing: "playing", p_phase_over: "over",
  p_startsChosen: "starts chosen", p_you: "you are", p_player: "player {n}",
  p_revealed: "The map, revealed after the end", p_treasure: "Treasure",
  p_carryTreasure: "You carry a treasure. Nobody is told whether it is the true one.",
  p_carryNone: "You carry no treasure.", p_answers: "Your turns and the game master's answers",
  p_opening: "The game master announced",
  p_sheet: "Your sheet of the map", p_hereKnown: "◆ is where your own answers put you.",
  p_chooseStart: "Choose your start: pick a cell of the sheet, then “Start here”.",
  p_hereUnknown: "Where you stand is unknown (a hole, a river or a dark turn): mark it with “I am here”.",
  p_letter_land: "L", p_letter_hospital: "H", p_letter_arsenal: "A", p_letter_hole: "O", p_letter_river: "R",
  p_letter_mouth: "M", p_letter_encephalitis: "E",
  p_cell_land: "land", p_cell_hospital: "hospital", p_cell_arsenal: "arsenal", p_cell_hole: "hole",
  p_cell_river: "river", p_cell_mouth: "mouth", p_cell_encephalitis: "encephalitis",
  p_cellName: "row {r}, column {c}", p_start: "your start", p_here: "you are here",
  p_treasureFound: "a treasure found", p_note: "note",
  p_markType: "Cell", p_unknown: "unknown", p_side_unknown: "?", p_side_wall: "wall", p_side_exit: "exit",
  p_side_open: "open", p_sideName_n: "above", p_sideName_e: "right", p_sideName_s: "below", p_sideName_w: "left",
  p_iAmHere: "I am here", p_startHere: "Start here", p_reorderHere: "Re-order to this cell",
  p_reorderCancel: "No re-order",
  p_quick: "One-step turns:", p_compose: "Compose a turn", p_stepKind: "Step", p_direction: "Direction",
  p_itemName: "Item", p_condition: "Condition", p_into: "Add to", p_intoTurn: "the turn",
  p_intoIf: "step {n}: if {cond}", p_add: "Add the step", p_remove: "remove",
  p_emptyTurn: "No step yet: a classic turn is one movement plus any shots, grenades, throws and mines.",
  p_visibility: "Answer", p_treasureChoice: "Treasure to keep", p_treasureTop: "the top one",
  p_treasureNone: "none", p_treasureK: "number {k} from the bottom", p_refill: "Take the arsenal's refill",
  p_reorderTo: "Re-order to cell {n} first.", p_send: "Send the turn", p_clear: "Clear",
  p_turnPreview: "The turn",
  p_quantumTurn: "A quantum turn is one step; its answer may be dark or half-dark.",
};


/** @type {Record<keyof typeof EN, string>} */
const RU = {
  title: "Матчи", cellCaptureLink: "Страница захвата клеток", language: "Язык", signedInAs: "вы вошли как",
  signOut: "выйти", signIn: "Войти", register: "Зарегистрироваться", name: "Имя", password: "Пароль",
  modes: "Режимы", joinByCode: "Войти по коду", inviteCode: "Код приглашения", join: "Войти", open: "Открыть",
  watchMatch: "Смотреть", myGames: "Лобби и мои игры", refresh: "Обновить", noGames: "Пока нет ни лобби, ни игр.",
  watch: "Смотреть", noWatch: "Нет открытых матчей для просмотра.", back: "← все игры", liveBadge: "в эфире",
  view: "Что вы знаете", actions: "Ваши ходы", players: "Игроки", log: "Журнал", backToMatch: "← к матчу",
  asSeat: "Глазами места", previous: "Назад", next: "Вперёд", stepEvents: "События этого шага",
  playersRange: "игроков: {min}–{max}", bots: "боты: {list}", noBots: "без ботов", spectatorsYes: "можно смотреть",
  spectatorsNo: "без зрителей", visibility: "Кто может войти", public: "все", guild: "моя гильдия",
  private: "по коду приглашения", openLobby: "Открыть лобби", quickJoin: "Быстрая игра", leaveQueue: "Покинуть очередь",
  settings: "Настройки", noneValue: "нет", yes: "да", no: "нет",
  start: "Начать", leave: "Уйти", resign: "Сдаться", rematch: "Реванш", joinRematch: "Войти в реванш #{id}",
  replay: "Повтор", addBot: "Добавить бота", you: "вы", host: "хозяин", bot: "бот", out: "ушёл",
  seat: "место {n}", game: "{mode} #{id}", status_lobby: "лобби", status_active: "идёт игра",
  status_finished: "окончен", status_abandoned: "брошен", status_cancelled: "отменён",
  waitingPlayers: "Ждём игроков: сели {n} (от {min} до {max}).", hostStarts: "Игру начинает хозяин.",
  youStart: "Начните, когда все соберутся.", yourTurn: "Ваш ход.", waitingFor: "Ходит {name}.",
  botPlaying: "{name} думает…", secondsLeft: "осталось {s} с", spectating: "Вы зритель: только просмотр.",
  resultWon: "Победа: {names} ({reason}).", resultNobody: "Никто не победил ({reason}).", youWon: "Вы победили!",
  lobbyOpened: "Лобби #{id} открыто.", joined: "Вы сели в #{id}.", queued: "Вы в очереди: #{id}.",
  leftQueue: "Вы покинули очередь.", started: "Игра началась.", resigned: "Вы сдались.",
  left: "Вы вышли из игры.", botAdded: "Бот занял место.", rematchOpened: "Реванш #{id} открыт.",
  signedIn: "Вы вошли как {name}.", welcome: "Добро пожаловать, {name}.", signedOut: "Вы вышли.",
  noActions: "Сейчас ходить нечем.", step: "шаг {i} из {n}", stepStart: "Начало",
  stepAction: "Ход {turn}: место {seat}: {action}", timeout: "время вышло", resignedStep: "сдался",
  inventory: "Инвентарь", ammo: "патроны", key: "ключ", turnsPlayed: "сыграно ходов", help: "Справка",
  notebook: "Ваш блокнот (старт — ●; нарисованы встреченные стены, поле {rows}×{cols})",
  notebookSheet: "лист {n}", exitHere: "выход (нужен ключ)", choosingStarts: "Выберите старт.",
  cmd_W: "Вверх (W)", cmd_A: "Влево (A)", cmd_S: "Вниз (S)", cmd_D: "Вправо (D)", "cmd_X W": "Выстрел вверх",
  "cmd_X A": "Выстрел влево", "cmd_X S": "Выстрел вниз", "cmd_X D": "Выстрел вправо", cmd_E: "Инвентарь (E)",
  "cmd_?": "Справка (?)", publicView: "Открытая картина",
  clickCell: "Ваш ход: нажмите подсвеченную клетку поля (или перейдите к ней клавишей Tab и нажмите Enter).",
  reason_won: "последний цвет на поле", reason_exit_reached: "выход из лабиринта",
  reason_turn_limit: "предел ходов: ничья", reason_treasure_carried_out: "клад вынесен",
  reason_death_limit: "слишком много смертей", reason_last_player: "остался последний игрок", reason_resigned: "сдача",
  reason_abandoned: "игра брошена", reason_new_game: "начата новая игра", reason_draw_nstop: "долго без перемен: ничья",
  reason_draw_all_skip: "все пропустили ход: ничья", reason_draw_treasure_out: "клад выброшен: ничья",
  reason_draw_treasure_on_source: "клад на истоке реки: ничья",
  reason_draw_all_dead: "все убиты: ничья", reason_draw_survivor_time: "у выжившего вышло время: ничья",
  p_dir_UP: "вверх", p_dir_LEFT: "влево", p_dir_DOWN: "вниз", p_dir_RIGHT: "вправо", p_dir_HERE: "в свою клетку",
  p_item_bullet: "пуля", p_item_grenade: "граната", p_item_mine: "мина", p_item_treasure: "клад",
  p_item_corpse: "труп",
  p_do_move: "Ход {dir}", p_do_downstream: "Поплыть по течению", p_do_cycle: "Ход по циклу Ям",
  p_do_skip: "Пропуск хода", p_do_shoot: "Выстрел {dir}", p_do_grenade: "Граната {dir}", p_do_leave: "Оставить: {item}",
  p_do_throw: "Бросить: {item}, {dir}", p_do_mine: "Мина {dir}", p_do_if: "Если {cond}: {then}",
  p_kind_move: "ход", p_kind_downstream: "по течению", p_kind_cycle: "по циклу Ям", p_kind_skip: "пропуск",
  p_kind_shoot: "выстрел", p_kind_grenade: "граната", p_kind_leave: "оставить предмет", p_kind_throw: "бросить предмет",
  p_kind_mine: "установить мину", p_kind_if: "если… (условие)",
  p_cond_wall: "стенка", p_cond_no_wall: "стенки нет", p_cond_land: "суша", p_cond_hospital: "госпиталь",
  p_cond_arsenal: "арсенал", p_cond_hole: "яма", p_cond_river: "река", p_cond_mouth: "устье",
  p_cond_encephalitis: "энцефалит", p_cond_found_anything: "что-то нашел",
  p_cond_found_treasure: "нашел клад", p_cond_found_bullets: "нашел пули",
  p_cond_found_grenades: "нашел гранаты", p_cond_found_mine: "нашел мину", p_cond_found_corpse: "нашел труп",
  p_cond_scream: "слышен вопль", p_cond_no_scream: "воплей нет",
  p_startAt: "Старт в клетке {n}", p_vis_normal: "обычный", p_vis_dark: "втемную (без ответа)",
  p_vis_half_dark: "вполутьмах (стенка или нет)", p_reorderShort: "перезаказ", p_clock_timer: "Засечь минуту",
  p_clock_pause: "Взять паузу",
  p_health: "здоровье", p_health_healthy: "здоров", p_health_wounded: "ранен", p_health_sick: "болен",
  p_health_dead: "убит", p_immune: "иммунитет", p_bullets: "пули", p_grenades: "гранаты", p_slot: "в руках",
  p_empty: "ничего", p_cureLeft: "ходов до лечения", p_reordersLeft: "перезаказов осталось", p_where: "где",
  p_outside: "вне лабиринта", p_eliminated: "выбыл из игры", p_calm: "кругов без перемен",
  p_calmOf: "{n} из {of}",
  p_variant: "вариант", p_variant_classic: "классика", p_variant_quantum: "квантовый", p_phase: "фаза",
  p_phase_choosing_starts: "выбор стартов", p_phase_playing: "игра", p_phase_over: "окончена",
  p_startsChosen: "стартов выбрано", p_you: "вы", p_player: "игрок {n}",
  p_revealed: "Карта, открытая после конца", p_treasure: "Клад",
  p_carryTreasure: "У вас клад. Настоящий ли он, никому не сообщается.",
  p_carryNone: "Клада у вас нет.", p_answers: "Ваши ходы и ответы ведущего",
  p_opening: "Ведущий объявил",
  p_sheet: "Ваш листок с картой", p_hereKnown: "◆ — где вы по вашим собственным ответам.",
  p_chooseStart: "Выберите старт: клетку листка, затем «Старт здесь».",
  p_hereUnknown: "Где вы, неизвестно (яма, река или ход втемную): отметьте кнопкой «Я здесь».",
  p_letter_land: "С", p_letter_hospital: "Г", p_letter_arsenal: "А", p_letter_hole: "Я", p_letter_river: "Р",
  p_letter_mouth: "У", p_letter_encephalitis: "Э",
  p_cell_land: "суша", p_cell_hospital: "госпиталь", p_cell_arsenal: "арсенал", p_cell_hole: "яма",
  p_cell_river: "река", p_cell_mouth: "устье", p_cell_encephalitis: "энцефалит",
  p_cellName: "ряд {r}, столбец {c}", p_start: "ваш старт", p_here: "вы здесь",
  p_treasureFound: "найден клад", p_note: "заметка",
  p_markType: "Клетка", p_unknown: "неизвестно", p_side_unknown: "?", p_side_wall: "стенка", p_side_exit: "выход",
  p_side_open: "проход", p_sideName_n: "сверху", p_sideName_e: "справа", p_sideName_s: "снизу", p_sideName_w: "слева",
  p_iAmHere: "Я здесь", p_startHere: "Старт здесь", p_reorderHere: "Перезаказ в эту клетку",
  p_reorderCancel: "Без перезаказа",
  p_quick: "Ходы в один шаг:", p_compose: "Составить ход", p_stepKind: "Шаг", p_direction: "Направление",
  p_itemName: "Предмет", p_condition: "Условие", p_into: "Добавить в", p_intoTurn: "ход",
  p_intoIf: "шаг {n}: если {cond}", p_add: "Добавить шаг", p_remove: "убрать",
  p_emptyTurn: "Шагов пока нет: классический ход — одно перемещение и сколько угодно выстрелов, гранат, бросков и мин.",
  p_visibility: "Ответ", p_treasureChoice: "Какой клад оставить", p_treasureTop: "верхний",
  p_treasureNone: "никакой", p_treasureK: "{k}-й снизу", p_refill: "Пополниться в арсенале",
  p_reorderTo: "Сначала перезаказ в клетку {n}.", p_send: "Отправить ход", p_clear: "Очистить",
  p_turnPreview: "Ход",
  p_quantumTurn: "Квантовый ход — один шаг; ответ может быть втемную или вполутьмах.",
};


const WORDS = { en: EN, ru: RU };
const KEY = "deepdelve-lang";

/** The page's language: the one chosen with the switch, else the browser's (Russian or English). @returns {Lang} */
export function pickLang() {
  const chosen = globalThis.localStorage ? localStorage.getItem(KEY) : null;
  if (chosen === "en" || chosen === "ru") return chosen;
  return (navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
}

/** @param {Lang} lang */
export function saveLang(lang) { localStorage.setItem(KEY, lang); }

/** @type {Lang} */
let current = "en";

/** @param {Lang} lang */
export function setLang(lang) {
  current = lang;
  document.documentElement.lang = lang;
  for (const element of document.querySelectorAll("[data-t]")) {
    const key = /** @type {HTMLElement} */ (element).dataset.t || "";
    if (key in EN) element.textContent = t(/** @type {keyof typeof EN} */ (key));
  }
}

export function lang() { return current; }

/**
 * A word of the shell, `{name}` filled from params.
 * @param {string} key  @param {Record<string, string | number>} [params] @returns {string}
 */
export function t(key, params = {}) {
  const words = /** @type {Record<string, string>} */ (WORDS[current]);
  const text = words[key] ?? /** @type {Record<string, string>} */ (EN)[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}
