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
  notices: "Notices", openNotice: "Open #{id}", notice_your_turn: "Your turn in {mode} #{id}.",
  notice_match_started: "{mode} #{id} has started.", notice_match_ended: "{mode} #{id} is over.",
  notice_rematch_offered: "A rematch of #{of} is offered: {mode} #{id}.",
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
  notices: "Уведомления", openNotice: "Открыть #{id}", notice_your_turn: "Ваш ход в игре {mode} #{id}.",
  notice_match_started: "Игра {mode} #{id} началась.", notice_match_ended: "Игра {mode} #{id} окончена.",
  notice_rematch_offered: "Предложен реванш за #{of}: {mode} #{id}.",
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
