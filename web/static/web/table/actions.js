// What the player can do at the table (docs/web-client.md, "The table's modules"): send a move
// (`expected_version` and a fresh Idempotency-Key, api.js `act`; docs/api.md, "The game loop"),
// keep one move tapped offline until the connection returns, the lobby's and the seat's own
// actions (start, leave, bots, reclaim, rematch), and the seat picker a card's target opens.
//
// `table` is the screen's hub (views/game.js): its `state`, `screen`, the renderer's `view`,
// `render()`, `take(view)` (a new view from an answer) and `live`.

import { act, api, newKey, queue, sendQueued } from "../api.js";
import { h, patch, toast } from "../dom.js";
import { t } from "../i18n.js";
import { describeError } from "../views/forms.js";

// Each function below takes the hub; `state`, `screen`, `notice`, `picker` and `gameId` are
// fixed when the screen is mounted, so reading them from it each time is the same as keeping them.

/** The table's actions, bound to `table` (what views/game.js keeps as `table.actions`). */
export function createActions(table) {
  return {
    send: (action, options) => send(table, action, options),
    lobbyAction: (path, options) => lobbyAction(table, path, options),
    pickSeat: (title, seats, detail) => pickSeat(table, title, seats, detail),
    flushQueued: () => flushQueued(table),
    drawNotice: () => drawNotice(table),
  };
}

// ---- offline: one move kept until the connection returns ---------------------------------

/** Which move waits, in words when the game has them (effects.js, sayAction). */
function queuedWords(table) {
  const { state } = table;
  const move = table.effects?.sayAction(state.queued.action);
  return move ? t("offline.queued_move", { move }) : t("offline.queued_notice");
}

function drawNotice(table) {
  const { state, notice } = table;
  patch(
    notice,
    ...(state.queued
      ? [
          h("p", null, queuedWords(table)),
          h("button", { type: "button", class: "cancel-queued", onclick: () => cancelQueued(table) }, t("offline.cancel_queued")),
        ]
      : []),
  );
}

/** Keep `action` with its key: sent as it is when the connection returns (flushQueued). */
function enqueue(table, action, key) {
  const { state, gameId } = table;
  state.queued = { action, expected_version: state.game.version, key, at: Date.now() };
  queue.put(gameId, state.queued);
  table.view?.actionDone?.();
  drawNotice(table);
  table.render(); // the table offers no second move beside the kept one
  toast(t("offline.queued"));
}

function cancelQueued(table) {
  const { state, screen, gameId } = table;
  queue.drop(gameId);
  state.queued = null;
  drawNotice(table);
  table.render();
  toast(t("offline.cancelled"));
  screen.querySelector("h1")?.focus({ preventScroll: true });
}

/** Send the kept move (api.js, sendQueued: once, with its key and version) and say how it went. */
async function flushQueued(table) {
  const { state, screen, gameId } = table;
  if (state.flushing || !queue.get(gameId)) return;
  state.flushing = true;
  try {
    const result = await sendQueued(gameId);
    if (!result) return; // still unreachable: kept for the next try
    state.queued = null;
    if (result.sent) {
      table.take(result.sent);
      toast(t("offline.sent"));
      return;
    }
    const error = result.refused;
    if (error.code === "version_conflict") toast(t("offline.stale"), { error: true });
    else toast(t("offline.refused", { reason: describeError(error).join(" ") }), { error: true });
    table.live.refresh().catch(() => {});
  } finally {
    state.flushing = false;
    if (screen.isConnected) {
      drawNotice(table);
      table.render();
    }
  }
}

// ---- moves ----------------------------------------------------------------------------------

/** One action of this player; `after` runs once the new view is drawn. */
async function send(table, action, { after } = {}) {
  const { state } = table;
  if (state.busy || !state.game) return;
  if (state.queued) {
    // The table on screen is the one before that move: a second move would be a guess.
    toast(t("offline.one_queued"), { error: true });
    return;
  }
  const key = newKey();
  if (navigator.onLine === false) {
    enqueue(table, action, key);
    return;
  }
  state.busy = true;
  table.render();
  try {
    const next = await act(state.game, action, key);
    table.view?.actionDone?.();
    table.take(next);
    if (after) after();
  } catch (error) {
    // Not answered even after the retries: it may have arrived, so keep it with the same key.
    if (error.code === "network") enqueue(table, action, key);
    else if (error.code === "version_conflict") toast(t("error.version_conflict"), { error: true });
    else toast(describeError(error).join(" "), { error: true });
    table.live.refresh().catch(() => {});
  } finally {
    state.busy = false;
    table.render();
    table.effects.focusAfterAction();
  }
}

/** An action on the game's seats (`games/{id}/<path>`): start, leave, bots, reclaim, rematch. */
async function lobbyAction(table, path, { navigateTo, body = {}, method = "post", focus = null } = {}) {
  const { state, screen, gameId } = table;
  if (state.busy) return;
  state.busy = true;
  table.render();
  try {
    const url = `games/${gameId}/${path}`;
    const next = method === "del" ? await api.del(url) : await api.post(url, body);
    if (navigateTo) {
      navigateTo(next);
      return;
    }
    table.take(next);
  } catch (error) {
    toast(describeError(error).join(" "), { error: true });
  } finally {
    state.busy = false;
    if (screen.isConnected) table.render();
    // The button pressed may be gone (a removed bot): keep the keyboard in the same place.
    if (focus && screen.isConnected && !screen.contains(document.activeElement)) {
      screen.querySelector(focus)?.focus({ preventScroll: true });
    }
  }
}

// ---- the seat picker (a card's target, an opening choice, …) -------------------------------

/** Ask for one of `seats`; `detail(seat)` is a short line under each name. Null: cancelled. */
function pickSeat(table, title, seats, detail = () => "") {
  const { state, picker } = table;
  return new Promise((resolve) => {
    let chosen = null;
    const choose = (seat) => () => {
      chosen = seat;
      picker.close();
    };
    picker.replaceChildren(
      h("h2", { id: "picker-title" }, title),
      h(
        "div",
        { class: "targets" },
        seats.map((seat) =>
          h(
            "button",
            { type: "button", class: "target", onclick: choose(seat) },
            h("span", { class: "target-name" }, state.nameOf(seat)),
            h("span", { class: "target-count" }, detail(seat)),
          ),
        ),
      ),
      h("button", { type: "button", class: "wide", onclick: () => picker.close() }, t("common.cancel")),
    );
    picker.onclose = () => resolve(chosen);
    picker.showModal();
    picker.querySelector("button.target")?.focus();
  });
}

