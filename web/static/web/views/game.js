// One game: the lobby while seats fill, the table while it runs, the results when it is over.
//
// This screen is the same for every game: it loads the view (GET games/{id}/), keeps it live,
// sends actions (`expected_version` and an Idempotency-Key, docs/api.md, "The game loop"),
// draws the lobby, the log's frame, the turn clock, the round and match results. The running
// table is drawn by the renderer of the game's kind (games/index.js): All Wild's today
// (games/uno_all_wild.js), or the fallback one for a kind this client does not know.

import { act, api, newKey, queue, sendQueued } from "../api.js";
import { h, patch, toast } from "../dom.js";
import { formatDuration, formatList, formatNumber, t } from "../i18n.js";
import { GameLive } from "../live.js";
import { OPTIONS } from "../options.js";
import { DEFAULT_KIND, gameName, kindOf, presetName, rendererFor, ruleName } from "../games/index.js";
import { botLevels, describeError, select } from "./forms.js";
import { blocked, protectButtons } from "./protect.js";
import { cardHelpGestures, gameHelp } from "../help.js";
import { describeCommon as commonWords, eventLines } from "./words.js";

const LOG_LIMIT = 60;
// The moves the table's news line keeps, and how long the table waits for "since you were away".
const NEWS_MOVES = 3;
const AWAY_WAIT_MS = 2000;
const NEWS_LINES = 3;
// My name's stand-in while a sentence is told to me (a character no name or string contains).
const YOU = "\u2063you\u2063";
const AWAY_LINES = 6;
// Events after which "You now hold N cards" is worth saying.
const HAND_CHANGES = new Set(["swap", "hands_passed", "draw"]);

export function mount(root, [gameId], app) {
  const screen = h("div", { class: "game-screen" });
  // A move tapped offline, waiting for the connection (api.js, `queue`): said above the table.
  const notice = h("div", { class: "queued-notice", role: "status" });
  const picker = h("dialog", { class: "sheet", "aria-labelledby": "picker-title" });
  const roundDialog = h("dialog", { class: "sheet", "aria-labelledby": "round-title" });
  // What each card does, the rules in short, the first-game walkthrough (help.js).
  const helpDialog = h("dialog", { class: "sheet help-sheet", "aria-labelledby": "help-title" });
  root.append(notice, screen, picker, roundDialog, helpDialog);

  let game = null;
  let failure = null;
  let busy = false;
  let log = [];
  let logLoaded = false;
  // What happened lately, said on the table (newsView): the last moves that arrived live.
  let news = [];
  // "Since you were away": the others' moves since my last one, read once when the game opens;
  // the table waits for it (at most AWAY_WAIT_MS) so the summary is in the first drawing, not a
  // box that appears and pushes the table down.
  let away = null;
  let awayState = "unchecked";
  let handKeys = null;
  let connection = "live";
  let botLevel = OPTIONS.default_bot_level;
  let queued = queue.get(gameId);
  let flushing = false;
  // The renderer of this game's kind, and its drawing of this game (made once it is loaded).
  let kind = null;
  let renderer = null;
  let view = null;
  const seenKey = `uaw.rounds.${gameId}`;

  // ---- data ------------------------------------------------------------------------------

  /** A view arrived: load its kind's renderer if this is the first (or the kind changed). */
  function show(next) {
    game = next;
    const wanted = kindOf(next);
    if (wanted !== kind) {
      kind = wanted;
      view = null;
      rendererFor(wanted).then((loaded) => {
        if (kind !== wanted || !screen.isConnected) return;
        renderer = loaded;
        view = renderer.create(context);
        render();
      });
    }
  }

  const live = new GameLive(gameId, {
    onView: (next) => {
      show(next);
      failure = null;
      render();
    },
    onMoves: (moves) => {
      const known = new Set(log.map((m) => m.version));
      const fresh = moves.filter((m) => !known.has(m.version));
      log = [...log, ...fresh].slice(-LOG_LIMIT);
      if (awayState === "done" && fresh.length) news = [...news, ...fresh].slice(-NEWS_MOVES);
      render();
    },
    onState: (state) => {
      if (state === "live") flushQueued();
      if (state === "offline" && !game) failure = true;
      if (state !== connection || failure) {
        connection = state;
        render();
      }
    },
  });

  async function loadLog(version) {
    if (logLoaded) return;
    logLoaded = true;
    try {
      const after = Math.max(0, version - 40);
      const page = await api.get(`games/${gameId}/events/?after=${after}&limit=50`);
      log = [...page.moves, ...log.filter((m) => m.version > page.next_after)].slice(-LOG_LIMIT);
      if (page.next_after > live.cursor) live.cursor = page.next_after;
      render();
    } catch (_) {
      logLoaded = false;
    }
  }

  /** Once, when the game is first shown running: the moves since my last one, from the log. */
  async function checkAway(version) {
    awayState = "loading";
    const timer = setTimeout(() => {
      if (awayState === "loading") {
        awayState = "done";
        render();
      }
    }, AWAY_WAIT_MS);
    try {
      const page = await api.get(`games/${gameId}/events/?after=${Math.max(0, version - 40)}&limit=50`);
      const me = mySeat();
      let last = -1;
      page.moves.forEach((m, i) => {
        if (m.seat === me) last = i;
      });
      const since = page.moves.slice(last + 1).filter((m) => m.seat !== me && typeof m.seat === "number");
      if (awayState === "loading" && since.length) away = page.moves.slice(last + 1);
      const known = new Set(page.moves.map((m) => m.version));
      log = [...page.moves, ...log.filter((m) => !known.has(m.version) && m.version > page.next_after)].slice(-LOG_LIMIT);
      logLoaded = true;
      if (page.next_after > live.cursor) live.cursor = page.next_after;
    } catch (_) {
      // No log (offline, a slow server): the table is drawn without the summary.
    }
    clearTimeout(timer);
    // The news box starts with the last moves, so the table never opens on an empty box.
    if (awayState === "loading") news = log.slice(-NEWS_MOVES);
    awayState = "done";
    render();
  }

  function mySeat() {
    const table = game?.table;
    if (table && typeof table.you === "number") return table.you;
    return typeof game?.your_seat === "number" ? game.your_seat : null;
  }

  function take(next) {
    show(next);
    live.seen(next);
    render();
  }

  // ---- offline: one move kept until the connection returns -----------------------------------

  function drawNotice() {
    patch(
      notice,
      ...(queued
        ? [
            h("p", null, t("offline.queued_notice")),
            h("button", { type: "button", class: "cancel-queued", onclick: cancelQueued }, t("offline.cancel_queued")),
          ]
        : []),
    );
  }

  /** Keep `action` with its key: sent as it is when the connection returns (flushQueued). */
  function enqueue(action, key) {
    queued = { action, expected_version: game.version, key, at: Date.now() };
    queue.put(gameId, queued);
    view?.actionDone?.();
    drawNotice();
    toast(t("offline.queued"));
  }

  function cancelQueued() {
    queue.drop(gameId);
    queued = null;
    drawNotice();
    toast(t("offline.cancelled"));
    screen.querySelector("h1")?.focus({ preventScroll: true });
  }

  /** Send the kept move (api.js, sendQueued: once, with its key and version) and say how it went. */
  async function flushQueued() {
    if (flushing || !queue.get(gameId)) return;
    flushing = true;
    try {
      const result = await sendQueued(gameId);
      if (!result) return; // still unreachable: kept for the next try
      queued = null;
      if (result.sent) {
        take(result.sent);
        toast(t("offline.sent"));
        return;
      }
      const error = result.refused;
      if (error.code === "version_conflict") toast(t("offline.stale"), { error: true });
      else toast(t("offline.refused", { reason: describeError(error).join(" ") }), { error: true });
      live.refresh().catch(() => {});
    } finally {
      flushing = false;
      if (screen.isConnected) {
        drawNotice();
        render();
      }
    }
  }

  /** One action of this player; `after` runs once the new view is drawn. */
  async function send(action, { after } = {}) {
    if (busy || !game) return;
    if (queued) {
      // The table on screen is the one before that move: a second move would be a guess.
      toast(t("offline.one_queued"), { error: true });
      return;
    }
    const key = newKey();
    if (navigator.onLine === false) {
      enqueue(action, key);
      return;
    }
    busy = true;
    render();
    try {
      const next = await act(game, action, key);
      view?.actionDone?.();
      take(next);
      if (after) after();
    } catch (error) {
      // Not answered even after the retries: it may have arrived, so keep it with the same key.
      if (error.code === "network") enqueue(action, key);
      else if (error.code === "version_conflict") toast(t("error.version_conflict"), { error: true });
      else toast(describeError(error).join(" "), { error: true });
      live.refresh().catch(() => {});
    } finally {
      busy = false;
      render();
      if (!screen.contains(document.activeElement)) {
        const selector = view?.focusAfterAction;
        const next = (selector && screen.querySelector(selector)) || screen.querySelector("h1");
        next?.focus({ preventScroll: true });
      }
    }
  }

  async function lobbyAction(path, { navigateTo, body = {}, method = "post", focus = null } = {}) {
    if (busy) return;
    busy = true;
    render();
    try {
      const url = `games/${gameId}/${path}`;
      const next = method === "del" ? await api.del(url) : await api.post(url, body);
      if (navigateTo) {
        navigateTo(next);
        return;
      }
      take(next);
    } catch (error) {
      toast(describeError(error).join(" "), { error: true });
    } finally {
      busy = false;
      if (screen.isConnected) render();
      // The button pressed may be gone (a removed bot): keep the keyboard in the same place.
      if (focus && screen.isConnected && !screen.contains(document.activeElement)) {
        screen.querySelector(focus)?.focus({ preventScroll: true });
      }
    }
  }

  // ---- helpers ---------------------------------------------------------------------------

  const player = (seat) => game.players.find((p) => p.seat === seat);
  // A bot's own seat (no person); a person's seat a bot plays for now is `taken_over`.
  const isBot = (p) => Boolean(p && p.bot_level && !p.taken_over);
  // While a sentence is told to me (newsView), my seat is "you".
  let youSeat = null;
  const nameOf = (seat) => (seat === youSeat && seat !== null ? YOU : (player(seat)?.name ?? t("table.seat_n", { n: seat + 1 })));

  /** "Bot · hard" on a bot's seat, "Bot plays" on a person's seat a bot took over. */
  function botTag(p) {
    if (!p || !p.bot_level) return "";
    return p.taken_over ? t("table.taken_over") : t("bot.pill", { level: t(`bot.level_${p.bot_level}`) });
  }

  // ---- the seat picker (a card's target, an opening choice, …) ------------------------------

  /** Ask for one of `seats`; `detail(seat)` is a short line under each name. Null: cancelled. */
  function pickSeat(title, seats, detail = () => "") {
    return new Promise((resolve) => {
      let chosen = null;
      picker.replaceChildren(
        h("h2", { id: "picker-title" }, title),
        h(
          "div",
          { class: "targets" },
          seats.map((seat) =>
            h(
              "button",
              {
                type: "button",
                class: "target",
                onclick: () => {
                  chosen = seat;
                  picker.close();
                },
              },
              h("span", { class: "target-name" }, nameOf(seat)),
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

  // ---- help: the sheet, a card's help, the first-game walkthrough (help.js) -------------------

  const help = gameHelp(helpDialog, () => ({ kind, help: (view && renderer?.help) || null, game }));
  const stopCardHelp = cardHelpGestures(screen, help.openCard);

  // ---- pieces a renderer puts on its table --------------------------------------------------

  /** The turn clock (filled in by tickTimer) and the connection's state, for the table's head. */
  const turnTimer = () => h("span", { class: "timer", id: "turn-timer", role: "timer", "aria-label": t("table.timer_label") }, "");
  const connectionState = () => h("span", { class: `conn conn-${connection}`, role: "status" }, connection === "live" ? "" : t(`conn.${connection}`));

  function leaveRow() {
    return h(
      "p",
      { class: "leave-row" },
      h(
        "button",
        {
          type: "button",
          class: "link danger",
          onclick: () => confirm(t("game.leave_confirm")) && lobbyAction("leave/"),
        },
        t("game.leave"),
      ),
    );
  }

  /**
   * What a renderer is given (games/index.js): the view as it is now, the ways to act, and the
   * shared pieces of the screen. Read `game`, `busy` and `connection` each time: they change.
   */
  const context = {
    get game() {
      return game;
    },
    get busy() {
      return busy;
    },
    get connection() {
      return connection;
    },
    screen,
    render: () => render(),
    send,
    lobbyAction,
    pickSeat,
    player,
    nameOf,
    isBot,
    botTag,
    turnTimer,
    connectionState,
    helpButton: () => help.button(),
    logView: () => logView(),
    newsView: () => newsView(),
    leaveRow,
  };

  // ---- rendering ---------------------------------------------------------------------------

  function render() {
    if (!screen.isConnected) return;
    if (!game) {
      // Offline with no copy kept on this device is not "not found".
      const missing = navigator.onLine === false ? t("offline.no_copy") : t("game.not_found");
      patch(
        screen,
        h("h1", { class: failure ? "" : "visually-hidden" }, failure ? missing : t("game.loading")),
        failure ? h("p", null, h("a", { href: "/games", "data-link": "" }, t("nav.back_games"))) : h("p", { class: "boot" }, t("game.loading")),
      );
      return;
    }
    if (game.status === "lobby") patch(screen, ...lobby());
    else if (game.table && game.status === "active") {
      if (awayState === "unchecked") checkAway(game.version);
      if (view && awayState === "done") {
        const before = handKeys;
        patch(screen, ...view.table(), playersPanel());
        markArrivals(before);
      }
      else patch(screen, h("h1", { class: "visually-hidden" }, t("game.loading")), h("p", { class: "boot" }, t("game.loading")));
    } else patch(screen, ...results());
    maybeShowRound();
    if (view && awayState === "done" && game.status === "active") help.maybeWalkthrough();
    tickTimer();
    if (view && game.status === "active") view.afterRender?.();
  }

  function settingsLine() {
    const parts = [
      presetName(game.preset),
      game.target_score ? t("game.target", { points: formatNumber(game.target_score) }) : t("game.one_round"),
      game.options?.speed_mode && game.speed_seconds
        ? t("game.speed_limit", { time: formatDuration(game.speed_seconds) })
        : t("game.turn_limit", { time: formatDuration(game.turn_seconds) }),
    ];
    // A game other than All Wild says which it is (All Wild's lobby reads as it always has).
    const gameKind = kindOf(game);
    if (gameKind !== DEFAULT_KIND) parts.unshift(gameName(gameKind));
    const rules = Object.entries(game.options || {}).filter(([, on]) => on).map(([rule]) => ruleName(rule));
    if (rules.length) parts.push(rules.join(", "));
    return parts.join(" · ");
  }

  function lobby() {
    const me = game.players.find((p) => p.you);
    const host = me && me.user_id === game.host_id;
    const freeSeats = [];
    for (let n = game.players.length; n < game.max_players; n += 1) freeSeats.push(n);
    const link = game.invite_code ? `${location.origin}/join/${game.invite_code}` : null;
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(link);
        toast(t("lobby.copied"));
      } catch (_) {
        screen.querySelector("#invite-link")?.select();
      }
    };
    const name = gameName(kindOf(game));
    const share = () => navigator.share({ title: name, text: t("lobby.share_text", { game: name }), url: link }).catch(() => {});
    return [
      h("h1", null, t("lobby.title")),
      h("p", { class: "muted" }, settingsLine()),
      h(
        "section",
        { class: "panel", "aria-labelledby": "players-title" },
        h("h2", { id: "players-title" }, t("lobby.players", { count: game.players.length, max: game.max_players })),
        h(
          "ul",
          { class: "players" },
          game.players.map((p) =>
            h(
              "li",
              { key: `p${p.seat_id}` },
              h("span", { class: "player-name" }, p.name),
              p.user_id !== null && p.user_id === game.host_id ? h("span", { class: "pill" }, t("lobby.host")) : null,
              p.you ? h("span", { class: "pill pill-turn" }, t("lobby.you")) : null,
              isBot(p) ? h("span", { class: "pill" }, t("bot.pill", { level: t(`bot.level_${p.bot_level}`) })) : null,
              host && isBot(p)
                ? h(
                    "button",
                    {
                      type: "button",
                      class: "remove-bot",
                      disabled: busy,
                      "aria-label": t("lobby.remove_bot_label", { name: p.name }),
                      onclick: () => lobbyAction(`bots/${p.seat_id}/`, { method: "del", focus: "#bot-level" }),
                    },
                    t("lobby.remove_bot"),
                  )
                : null,
            ),
          ),
          freeSeats.map((n) => h("li", { key: `free${n}`, class: "free" }, t("lobby.free_seat"))),
        ),
        host && freeSeats.length
          ? h(
              "form",
              {
                class: "inline add-bot",
                onsubmit: (event) => {
                  event.preventDefault();
                  const level = new FormData(event.target).get("level");
                  lobbyAction("bots/", { body: { level }, focus: "#bot-level" });
                },
              },
              select("level", t("newgame.bot_level"), botLevels(), botLevel, {
                id: "bot-level",
                onchange: (event) => {
                  botLevel = event.target.value;
                },
              }),
              h("button", { type: "submit", disabled: busy }, t("lobby.add_bot")),
            )
          : null,
        h("p", { class: "muted", "aria-live": "polite" }, host ? t("lobby.waiting_host") : t("lobby.waiting")),
      ),
      // Someone joined by the invite link I would rather not play with: report or block them here.
      playersPanel(),
      link
        ? h(
            "section",
            { class: "panel", "aria-labelledby": "invite-title" },
            h("h2", { id: "invite-title" }, t("lobby.invite")),
            h("label", { for: "invite-link" }, t("lobby.invite_hint")),
            h("input", { id: "invite-link", readonly: true, value: link, class: "invite-link", onclick: (e) => e.target.select() }),
            h(
              "div",
              { class: "inline" },
              h("button", { type: "button", onclick: copy }, t("lobby.copy")),
              "share" in navigator ? h("button", { type: "button", onclick: share }, t("lobby.share")) : null,
            ),
          )
        : null,
      h(
        "div",
        { class: "inline actions-end" },
        host
          ? h("button", { type: "button", class: "primary", disabled: busy || game.players.length < 2, onclick: () => lobbyAction("start/") }, t("lobby.start"))
          : null,
        h(
          "button",
          {
            type: "button",
            class: "danger",
            disabled: busy,
            onclick: () => confirm(t("lobby.leave_confirm")) && lobbyAction("leave/", { navigateTo: () => app.navigate("/games") }),
          },
          t("lobby.leave"),
        ),
      ),
    ];
  }

  // ---- the log ---------------------------------------------------------------------------

  /** Events every game has, in words (views/words.js). */
  const describeCommon = (event) => commonWords(event, nameOf);

  /** One event as a sentence: the game's renderer first, then the events all games share. */
  function describe(event) {
    return view?.describe(event) ?? describeCommon(event);
  }

  /** A move's events as sentences, one line per event (views/words.js). */
  function moveLines(move, describeOne = describe) {
    return eventLines(move.events, move.version, describeOne);
  }

  /** An event of someone else's move (or a draw forced on me) that changes my hand or my turn. */
  function touchesMe(event, me) {
    if (me === null) return false;
    if (event.type === "hands_passed") return true;
    return event.seat === me || event.target === me;
  }

  /** One event told to me: my seat is "you" ("Bob swapped hands with you."), and after a change
   * to my hand in the newest move, how many cards I hold now. */
  function personal(event, move, me) {
    let text;
    if (event.type === "skipped" && event.seat === me) text = t("news.you_skipped");
    else if (event.type === "loses_turn" && event.seat === me) text = t("news.you_lose_turns", { count: event.count ?? 1 });
    else {
      youSeat = me;
      try {
        text = describe(event);
      } finally {
        youSeat = null;
      }
      // "You" as the one who acts, "you" (Danish "dig") as the one it is done to.
      if (text) {
        text = text.startsWith(YOU) ? t("news.you") + text.slice(YOU.length) : text;
        text = text.split(YOU).join(t("news.you_object"));
      }
    }
    if (!text) return null;
    const hand = game?.table?.seats?.[me]?.hand_size ?? game?.table?.hand?.length;
    if (HAND_CHANGES.has(event.type) && move.version === game?.version && typeof hand === "number") {
      text = `${text} ${t("news.you_hold", { count: hand })}`;
    }
    return text;
  }

  /** Lines of moves for the table: mine only where something was done to me. */
  function newsLines(moves) {
    const me = mySeat();
    const lines = [];
    for (const move of moves) {
      // My own move is news only where it changed my hand without my choosing (a penalty, a swap).
      const own = move.seat === me;
      const told = (e) => !own || e.type === "swap" || e.type === "hands_passed" || (e.type === "draw" && e.reason !== "voluntary");
      const say = (e) => (!told(e) ? null : touchesMe(e, me) ? personal(e, move, me) : describe(e));
      for (const line of moveLines(move, say)) lines.push({ ...line, mine: touchesMe(line.event, me) });
    }
    return lines;
  }

  /** The news on the table (a fixed box: the newest lines last, what touches me marked), or the
   * summary of what happened since my last move until it is put away. */
  function newsView() {
    if (away) {
      const lines = newsLines(away);
      const shown = lines.slice(-AWAY_LINES);
      return h(
        "section",
        { class: "away", key: "away", "aria-labelledby": "away-title" },
        h("h2", { id: "away-title" }, t("news.away_title")),
        h("ul", null, shown.map((l) => h("li", { key: l.key, class: l.mine ? "mine" : "" }, l.text))),
        lines.length > shown.length ? h("p", { class: "muted" }, t("news.away_more", { count: lines.length - shown.length })) : null,
        h(
          "button",
          {
            type: "button",
            class: "away-ok",
            onclick: () => {
              away = null;
              render();
              screen.querySelector(".news")?.focus({ preventScroll: true });
            },
          },
          t("news.away_ok"),
        ),
      );
    }
    const lines = newsLines(news).slice(-NEWS_LINES);
    // What the box says, as a short hash: any change of its words draws all its lines anew.
    let said = 0;
    for (const ch of lines.map((l) => l.text).join("\n")) said = (said * 31 + ch.charCodeAt(0)) | 0;
    const newest = lines.length ? `${lines[lines.length - 1].key}.${(said >>> 0).toString(36)}` : "";
    const newestMove = newest.split("-")[0];
    return h(
      "div",
      { class: "news", key: "news", role: "status", tabindex: -1, "aria-label": t("news.label") },
      // Keyed by what the box says too: every update draws new lines, so the older ones moving up
      // inside the fixed box are not layout shifts; only the newest move's lines slide in.
      lines.length
        ? lines.map((l) => h("p", { key: `${l.key}@${newest}`, class: `${l.mine ? "mine" : ""} ${l.key.split("-")[0] === newestMove ? "fresh" : ""}` }, l.text))
        : h("p", { key: "none" }, t("news.none")),
    );
  }

  /** Cards that joined my hand since the last drawing arrive with a motion (style.css). */
  function markArrivals(before) {
    const items = [...screen.querySelectorAll(".hand > li")];
    // Picking cards (double down, mercy) shows each card where play shows groups: a new set of
    // keys, not cards that arrived.
    const picking = Boolean(screen.querySelector(".hand.picking"));
    const keys = new Set(items.map((li) => li.dataset.key));
    if (before && before.picking === picking) for (const li of items) if (!before.has(li.dataset.key)) li.classList.add("arrived");
    handKeys = Object.assign(keys, { picking });
  }

  function logView() {
    const lines = [];
    for (const move of log) {
      for (const line of moveLines(move)) lines.push(h("li", { key: line.key }, line.text));
    }
    lines.reverse();
    return h(
      "details",
      { class: "log", ontoggle: (e) => e.target.open && game && loadLog(game.version) },
      h("summary", null, t("log.title")),
      lines.length ? h("ol", { class: "log-lines", tabindex: 0, "aria-label": t("log.title") }, lines.slice(0, 80)) : h("p", { class: "muted" }, t("log.empty")),
    );
  }

  // ---- the other players: their screen, report, block (views/protect.js) --------------------

  function playersPanel() {
    // People only: a bot's seat has nobody to report or block (a seat a bot plays for still does).
    const others = game.players.filter((p) => !p.you && typeof p.user_id === "number" && !isBot(p));
    if (!others.length) return null;
    const loadBlocks = () => blocked().then(render, () => {});
    return h(
      "details",
      { key: "players-panel", class: "players-panel", ontoggle: (e) => e.target.open && loadBlocks() },
      h("summary", null, t("protect.players_title")),
      h(
        "ul",
        { class: "protect-list" },
        others.map((p) =>
          h("li", { key: `pp${p.user_id}` }, h("span", { class: "player-name" }, p.name), protectButtons(p, { gameId, onChange: render })),
        ),
      ),
    );
  }

  // ---- results -----------------------------------------------------------------------------

  function standings() {
    const rows = [...game.players].sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat);
    // Why three players share 2nd place (games/services/play.py, _record_standings).
    return [
      standingsTable(rows),
      tieGroups(rows).map((group) =>
        h(
          "p",
          { class: "standings-tie", key: `tie${group[0].place}` },
          t(group[0].left ? "results.tie_left" : "results.tie", {
            place: String(group[0].place),
            names: formatList(group.map((p) => p.name)),
            points: formatNumber(group[0].final_score ?? 0),
          }),
        ),
      ),
      h("p", { class: "hint standings-why" }, t("results.standings_why")),
    ];
  }

  /** Players who share a place: tied on the game's own standing (ratings rank them as one), or
   * who gave up at the same moment. */
  function tieGroups(rows) {
    const groups = [];
    for (const p of rows) {
      if (typeof p.place !== "number") continue;
      const last = groups[groups.length - 1];
      if (last && last[0].place === p.place) last.push(p);
      else groups.push([p]);
    }
    return groups.filter((g) => g.length > 1);
  }

  function standingsTable(rows) {
    return h(
      "table",
      { class: "scores" },
      h("caption", null, t("results.standings")),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("results.place")), h("th", { scope: "col" }, t("results.player")), h("th", { scope: "col" }, t("results.score")))),
      h(
        "tbody",
        null,
        rows.map((p) =>
          h("tr", { key: `r${p.user_id}-${p.seat}`, class: p.you ? "you" : "" }, h("td", null, p.place ?? "–"), h("th", { scope: "row" }, p.name, p.left ? ` (${t("table.left")})` : ""), h("td", null, formatNumber(p.final_score ?? 0))),
        ),
      ),
    );
  }

  /** "Round 2: Bob won 31 points.", or a drawn round (no winner: Gin Rummy's wall) said as one. */
  function roundLine(r) {
    if (typeof r.winner !== "number") return t("results.round_drawn", { round: r.round });
    return t("results.round_line", { round: r.round, name: nameOf(r.winner), points: formatNumber(r.points) });
  }

  function roundList(table) {
    if (!table || !Array.isArray(table.round_results) || !table.round_results.length) return null;
    return h(
      "section",
      { class: "panel", "aria-labelledby": "rounds-title" },
      h("h2", { id: "rounds-title" }, t("results.rounds")),
      h(
        "ol",
        { class: "rounds" },
        table.round_results.map((r) =>
          h("li", { key: `round${r.round}` }, roundLine(r)),
        ),
      ),
    );
  }

  function results() {
    const table = game.table;
    const me = game.players.find((p) => p.you);
    const winner = game.players.find((p) => p.place === 1);
    const title =
      game.status === "finished"
        ? me && me.place === 1
          ? t("results.you_won")
          : t("results.winner", { name: winner ? winner.name : "?" })
        : t(`status.${game.status}`);
    return [
      h("h1", null, t("results.title")),
      h("p", { class: "result-banner", role: "status" }, title),
      standings(),
      roundList(table),
      logView(),
      playersPanel(),
      h(
        "div",
        { class: "inline actions-end" },
        game.status === "finished"
          ? h(
              "button",
              {
                type: "button",
                class: "primary",
                disabled: busy,
                onclick: () => lobbyAction("rematch/", { navigateTo: (view) => app.navigate(`/games/${view.id}`) }),
              },
              t("results.rematch"),
            )
          : null,
        // Every move again, every hand shown (views/replay.js).
        game.status === "finished" ? h("a", { href: `/games/${gameId}/replay`, "data-link": "", class: "button replay-link" }, t("replay.open")) : null,
        h("a", { href: "/games", "data-link": "", class: "button" }, t("nav.back_games")),
      ),
    ];
  }

  /** A round's result: who won it and the scores now (a renderer may say more, `roundSummary`). */
  function roundSummary(r) {
    return [
      h("p", { class: "result-banner" }, roundLine(r)),
      h(
        "table",
        { class: "scores" },
        h("caption", null, t("results.scores_now")),
        h("thead", null, h("tr", null, h("th", { scope: "col" }, t("results.player")), h("th", { scope: "col" }, t("results.score")))),
        h(
          "tbody",
          null,
          (r.scores || []).map((score, seat) => h("tr", null, h("th", { scope: "row" }, nameOf(seat)), h("td", null, formatNumber(score)))),
        ),
      ),
    ];
  }

  function maybeShowRound() {
    const table = game.table;
    // Shown once the game's renderer is there (it may tell the round in its own words).
    if (!table || !view || game.status !== "active" || !Array.isArray(table.round_results)) return;
    const count = table.round_results.length;
    let seen = Number(localStorage.getItem(seenKey) || "0");
    if (count <= seen || roundDialog.open) return;
    const r = table.round_results[count - 1];
    localStorage.setItem(seenKey, String(count));
    seen = count;
    roundDialog.replaceChildren(
      h("h2", { id: "round-title" }, t("results.round_title", { round: r.round })),
      ...(view.roundSummary ? view.roundSummary(r) : roundSummary(r)),
      h("button", { type: "button", class: "primary wide", onclick: () => roundDialog.close() }, t("results.next_round")),
    );
    roundDialog.showModal();
    roundDialog.querySelector("button")?.focus();
  }

  // ---- the turn clock ------------------------------------------------------------------------

  function tickTimer() {
    const el = screen.querySelector("#turn-timer");
    if (!el || !game) return;
    if (!game.turn_deadline) {
      el.textContent = "";
      return;
    }
    // A bot's turn has a clock of a second or two: say whose move it is instead.
    const current = game.table && typeof game.table.current_seat === "number" ? player(game.table.current_seat) : null;
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

  const clock = setInterval(tickTimer, 250);
  drawNotice();
  live.start();
  // A finished game (or one opened from a notification) gets its recent log at once.
  (async () => {
    for (let i = 0; i < 50 && !game && screen.isConnected; i += 1) await new Promise((r) => setTimeout(r, 100));
    if (game && game.status !== "lobby") loadLog(game.version);
  })();
  render();

  return () => {
    clearInterval(clock);
    live.stop();
    if (picker.open) picker.close();
    if (roundDialog.open) roundDialog.close();
    if (helpDialog.open) helpDialog.close();
    stopCardHelp();
  };
}
