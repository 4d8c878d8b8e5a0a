// The screen's layout (docs/web-client.md, "The table's modules"): which page a game is on
// (loading, the lobby, the running table drawn by its game's renderer, the results), the pieces a
// renderer puts on its table (the turn clock, the connection, the log, the leave button), the
// players panel (report, block), and the turn clock's ticking.
//
// `table` is the screen's hub (views/game.js).

import { h, patch } from "../dom.js";
import { formatDuration, t } from "../i18n.js";
import { blocked, protectButtons } from "../views/protect.js";
import { createLobby } from "./lobby.js";
import { resultsView } from "./results.js";
import { createSpectate } from "./spectate.js";
import { isBot } from "./state.js";
import { createFeedback } from "./feedback.js";
import { createMotion } from "./motion.js";
import { createNextGame } from "./next_game.js";
import { createTurnView } from "./turn_view.js";

// The most lines the log shows.
const LOG_LINES = 80;

/** The screen's layout, bound to `table` (what views/game.js keeps as `table.layout`). Its parts
 * (the lobby, the turn view, the next game, motion, feedback, spectators) are made here once and
 * kept in `page` with the hub and `render`, which each function below is given. */
export function createLayout(table) {
  const { state, screen } = table;
  const render = () => drawPage(page);
  const page = {
    table,
    render,
    lobbyView: createLobby(table),
    turnView: createTurnView(screen),
    nextGame: createNextGame(table),
    motion: createMotion(screen, state),
    feedback: createFeedback(state, () => render()),
    spectate: createSpectate(table),
  };
  return {
    render,
    tickTimer: () => tickTimer(table),
    turnTimer,
    connectionState: () => connectionState(state),
    leaveRow: () => leaveRow(page),
    logView: () => logView(table),
    nextGameButton: page.nextGame.button,
  };
}

// ---- pieces a renderer puts on its table (plugin.js) ------------------------------------

/** The turn clock (filled in by tickTimer) and the connection's state, for the table's head. */
const turnTimer = () => h("span", { class: "timer", id: "turn-timer", role: "timer", "aria-label": t("table.timer_label") }, "");
const connectionState = (state) => h("span", { class: `conn conn-${state.connection}`, role: "status" }, state.connection === "live" ? "" : t(`conn.${state.connection}`));

function leaveRow({ table, feedback }) {
  const leave = () => confirm(t("game.leave_confirm")) && table.actions.lobbyAction("leave/");
  return h("div", { class: "leave-row" }, feedback.toggles(), h("button", { type: "button", class: "link danger", onclick: leave }, t("game.leave")));
}

function logView(table) {
  const { state } = table;
  const lines = [];
  for (const move of state.log) {
    for (const line of table.effects.moveLines(move)) lines.push(h("li", { key: line.key }, line.text));
  }
  lines.reverse();
  const opened = (e) => e.target.open && state.game && state.loadLog(state.game.version, table.live);
  return h(
    "details",
    { class: "log", ontoggle: opened },
    h("summary", null, t("log.title")),
    lines.length ? h("ol", { class: "log-lines", tabindex: 0, "aria-label": t("log.title") }, lines.slice(0, LOG_LINES)) : h("p", { class: "muted" }, t("log.empty")),
  );
}

// ---- the other players: their screen, report, block (views/protect.js) --------------------

function playersPanel({ table, render }) {
  const { state, gameId } = table;
  // People only: a bot's seat has nobody to report or block (a seat a bot plays for still does).
  const others = state.game.players.filter((p) => !p.you && typeof p.user_id === "number" && !isBot(p));
  if (!others.length) return null;
  const loadBlocks = () => blocked().then(render, () => {});
  return h(
    "details",
    { key: "players-panel", class: "players-panel", ontoggle: (e) => e.target.open && loadBlocks() },
    h("summary", null, t("protect.players_title")),
    h(
      "ul",
      { class: "protect-list" },
      others.map((p) => h("li", { key: `pp${p.user_id}` }, h("span", { class: "player-name" }, p.name), protectButtons(p, { gameId, onChange: render }))),
    ),
  );
}

// ---- rendering ---------------------------------------------------------------------------

function loading(state) {
  // Offline with no copy kept on this device is not "not found".
  const missing = navigator.onLine === false ? t("offline.no_copy") : t("game.not_found");
  const failed = state.failure;
  return [
    h("h1", { class: failed ? "" : "visually-hidden" }, failed ? missing : t("game.loading")),
    failed ? h("p", null, h("a", { href: "/games", "data-link": "" }, t("nav.back_games"))) : h("p", { class: "boot" }, t("game.loading")),
  ];
}

/** The running table: its renderer's drawing once "since you were away" is read. */
function running(page) {
  const { table, motion, spectate, feedback, turnView } = page;
  const { state, screen } = table;
  if (state.awayState === "unchecked") state.checkAway(state.game.version, table.live);
  if (!table.view || state.awayState !== "done") {
    patch(screen, h("h1", { class: "visually-hidden" }, t("game.loading")), h("p", { class: "boot" }, t("game.loading")));
    return;
  }
  motion.before();
  patch(screen, ...table.view.table(), spectate.watchers(), playersPanel(page));
  table.effects.markArrivals();
  motion.after();
  feedback.afterDraw(screen);
  table.effects.fitNews();
  turnView();
}

function drawPage(page) {
  const { table, lobbyView, nextGame } = page;
  const { state, screen } = table;
  if (!screen.isConnected) return;
  const game = state.game;
  if (!game) {
    patch(screen, ...loading(state));
    return;
  }
  if (game.status === "lobby") patch(screen, ...lobbyView({ playersPanel: () => playersPanel(page) }));
  else if (game.table && game.status === "active") running(page);
  else patch(screen, ...resultsView(table, { logView: () => logView(table), playersPanel: () => playersPanel(page), nextGame: nextGame.button }));
  table.effects.maybeShowRound();
  nextGame.update();
  // The kept move's words need the view (whose seat is mine): said again once it is here.
  if (state.queued) table.actions.drawNotice();
  const drawn = table.view && game.status === "active";
  if (drawn && state.awayState === "done") table.help.maybeWalkthrough();
  tickTimer(table);
  if (drawn) table.view.afterRender?.();
}

// ---- the turn clock ------------------------------------------------------------------------

function tickTimer({ state, screen }) {
  const el = screen.querySelector("#turn-timer");
  const game = state.game;
  if (!el || !game) return;
  if (!game.turn_deadline) {
    el.textContent = "";
    return;
  }
  // A bot's turn has a clock of a second or two: say whose move it is instead.
  const current = game.table && typeof game.table.current_seat === "number" ? state.player(game.table.current_seat) : null;
  if (current && current.bot_level) {
    el.textContent = t("table.bot_turn");
    el.classList.remove("urgent");
    return;
  }
  const left = (Date.parse(game.turn_deadline) - Date.now()) / 1000;
  const speed = Boolean(game.options?.speed_mode);
  // Speed mode: whole seconds, rounded up (5, 4, … 1), and a bar that empties.
  const text = t("table.timer", { time: formatDuration(speed ? Math.ceil(left) : left) });
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("urgent", left < (speed ? 3 : 60));
  const bar = screen.querySelector(".speed-bar span");
  if (bar) {
    const share = Math.max(0, Math.min(1, left / (game.speed_seconds || 5)));
    bar.style.transform = `scaleX(${share.toFixed(3)})`;
  }
}

