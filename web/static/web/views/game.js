// One game: the lobby while seats fill, the table while it runs, the results when it is over.
//
// Everything comes from the game view (GET games/{id}/) and its `table.legal_actions`: a card is
// playable exactly when an action for it is listed, and the buttons send those actions back with
// `expected_version` and an Idempotency-Key (docs/api.md, "The game loop").
//
// House rules (docs/rules.md): a stack owed is shown with its total, who must answer, the
// stackable cards and "Take N cards" (take_stack); double down and mercy are listed as templates
// (`choose`: count cards out of `from`, maybe targets): the hand switches into a mode where the
// player picks that many cards and confirms (play_pair, mercy); under blind play the hand is
// face down (its size only) and "Play top card" sends play_top, a target is picked after the
// reveal (choose_target); speed mode's short clock counts down in seconds.

import { act, api } from "../api.js";
import { h, patch, toast } from "../dom.js";
import { formatDuration, formatNumber, t } from "../i18n.js";
import { GameLive } from "../live.js";
import { SYMBOLS, cardName } from "../cards.js";
import { OPTIONS } from "../options.js";
import { botLevels, describeError, select } from "./forms.js";

const LOG_LIMIT = 60;
const cardType = (id) => String(id).replace(/-\d+$/, "");

export function mount(root, [gameId], app) {
  const screen = h("div", { class: "game-screen" });
  const picker = h("dialog", { class: "sheet", "aria-labelledby": "picker-title" });
  const roundDialog = h("dialog", { class: "sheet", "aria-labelledby": "round-title" });
  root.append(screen, picker, roundDialog);

  let game = null;
  let failure = null;
  let busy = false;
  let unoArmed = false;
  // Picking cards for a template: null, "pair" (double down) or "mercy"; the ids picked, in order.
  let mode = null;
  let picked = [];
  let handOrder = [];
  let log = [];
  let logLoaded = false;
  let connection = "live";
  let botLevel = OPTIONS.default_bot_level;
  const seenKey = `uaw.rounds.${gameId}`;

  // ---- data ------------------------------------------------------------------------------

  const live = new GameLive(gameId, {
    onView: (view) => {
      game = view;
      failure = null;
      render();
    },
    onMoves: (moves) => {
      log = [...log, ...moves].slice(-LOG_LIMIT);
      render();
    },
    onState: (state) => {
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

  function take(view) {
    game = view;
    live.seen(view);
    render();
  }

  async function send(action, { after } = {}) {
    if (busy || !game) return;
    busy = true;
    render();
    try {
      const view = await act(game, action);
      unoArmed = false;
      mode = null;
      picked = [];
      take(view);
      if (after) after();
    } catch (error) {
      if (error.code === "version_conflict") toast(t("error.version_conflict"), { error: true });
      else toast(describeError(error).join(" "), { error: true });
      live.refresh().catch(() => {});
    } finally {
      busy = false;
      render();
      if (!screen.contains(document.activeElement)) {
        const next = screen.querySelector(".hand button:not([disabled])") || screen.querySelector("h1");
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
      const view = method === "del" ? await api.del(url) : await api.post(url, body);
      if (navigateTo) {
        navigateTo(view);
        return;
      }
      take(view);
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
  const nameOf = (seat) => player(seat)?.name ?? t("table.seat_n", { n: seat + 1 });

  function orderHand(hand) {
    const ids = hand.map((c) => c.id);
    const kept = handOrder.filter((id) => ids.includes(id));
    // Cards that arrived go at the end, so the cards already shown never move.
    handOrder = [...kept, ...ids.filter((id) => !kept.includes(id))];
    const byId = new Map(hand.map((c) => [c.id, c]));
    return handOrder.map((id) => byId.get(id));
  }

  function nextSeat(table) {
    const n = table.seats.length;
    const step = table.direction === "clockwise" ? 1 : -1;
    for (let i = 1; i <= n; i += 1) {
      const seat = (((table.current_seat + step * i) % n) + n) % n;
      if (table.seats[seat].active) return seat;
    }
    return null;
  }

  function aroundMe(table) {
    const n = table.seats.length;
    const order = [];
    for (let i = 1; i < n; i += 1) order.push(table.seats[(table.you + i) % n]);
    return order;
  }

  // ---- target picker (Targeted Draw 2, Force Swap, opening choice) ---------------------------

  function pickTarget(title, seats) {
    return new Promise((resolve) => {
      let chosen = null;
      const table = game.table;
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
              h("span", { class: "target-count" }, t("table.cards", { count: table.seats[seat].hand_size })),
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

  async function playCard(card, actions, type) {
    const targets = actions.filter((a) => a.target !== undefined).map((a) => a.target);
    const base = type === "play_drawn" ? { type } : { type, card: card.id };
    if (unoArmed) base.uno = true;
    if (targets.length) {
      const title = card.type === "force_swap" ? t("table.pick_swap") : t("table.pick_draw2");
      const target = await pickTarget(title, targets);
      if (target === null) return;
      await send({ ...base, target });
    } else {
      await send(base);
    }
  }

  /** Double down: the two cards picked, each with its own target when the pair needs them. */
  async function playPair(template, cards) {
    const action = { type: "play_pair", cards };
    const pick = template.choose;
    if (pick.targets) {
      const swap = cardType(cards[0]) === "force_swap";
      const targets = [];
      for (let n = 1; n <= pick.targets; n += 1) {
        const target = await pickTarget(t(swap ? "table.pick_pair_swap" : "table.pick_pair_draw2", { n }), pick.target_from);
        if (target === null) return;
        targets.push(target);
      }
      action.targets = targets;
    }
    if (unoArmed) action.uno = true;
    await send(action);
  }

  /** Blind play: a revealed card that needs a target opens the picker at once. */
  async function chooseOpenTarget() {
    const table = game && game.table;
    if (!table || table.phase !== "choose") return;
    const choice = table.pending_choice;
    const targets = table.legal_actions.filter((a) => a.type === "choose_target").map((a) => a.target);
    if (!choice || choice.seat !== table.you || !targets.length) return;
    // The picker covers the table: its title says what was revealed.
    const title = choice.effect === "force_swap" ? t("table.prompt_blind_swap") : t("table.prompt_blind_draw2");
    const target = await pickTarget(title, targets);
    if (target !== null) await send({ type: "choose_target", target });
  }

  function togglePick(id, template) {
    const count = template.choose.count;
    if (picked.includes(id)) picked = picked.filter((p) => p !== id);
    else if (mode === "pair") {
      // A card of another type starts a new pair.
      const same = picked.filter((p) => template.choose.from.includes(p));
      picked = [...same, id].slice(-count);
    } else if (picked.length < count) picked = [...picked, id];
    render();
  }

  function setMode(next) {
    mode = next;
    picked = [];
    render();
    // Entering a mode: to the first card that may be picked; leaving it: back to the tools.
    const to = next ? screen.querySelector(".hand button[aria-pressed]:not([aria-disabled='true'])") : screen.querySelector(".hand-tools button");
    to?.focus({ preventScroll: true });
  }

  // ---- rendering ---------------------------------------------------------------------------

  function render() {
    if (!screen.isConnected) return;
    if (!game) {
      patch(
        screen,
        h("h1", { class: failure ? "" : "visually-hidden" }, failure ? t("game.not_found") : t("game.loading")),
        failure ? h("p", null, h("a", { href: "/games", "data-link": "" }, t("nav.back_games"))) : h("p", { class: "boot" }, t("game.loading")),
      );
      return;
    }
    if (game.status === "lobby") patch(screen, ...lobby());
    else if (game.table && game.status === "active") patch(screen, ...tableView());
    else patch(screen, ...results());
    maybeShowRound();
    tickTimer();
    // A card just drawn may be past the right edge of the hand: bring it into view.
    screen.querySelector(".hand button.drawn")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  function settingsLine() {
    const parts = [
      t(`preset.${game.preset}`),
      game.target_score ? t("game.target", { points: formatNumber(game.target_score) }) : t("game.one_round"),
      game.options?.speed_mode && game.speed_seconds
        ? t("game.speed_limit", { time: formatDuration(game.speed_seconds) })
        : t("game.turn_limit", { time: formatDuration(game.turn_seconds) }),
    ];
    const rules = Object.entries(game.options || {}).filter(([, on]) => on).map(([rule]) => t(`rule.${rule}`));
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
    const share = () => navigator.share({ title: "Uno All Wild", text: t("lobby.share_text"), url: link }).catch(() => {});
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

  function prompt(table, legal, myTurn) {
    if (mode === "pair") return t("table.prompt_pair", { n: picked.length });
    if (mode === "mercy") return t("table.prompt_mercy", { n: picked.length });
    const blind = Boolean(table.hand_hidden);
    if (table.phase === "choose") {
      const choice = table.pending_choice;
      if (choice && choice.seat === table.you) {
        const swap = choice.effect === "force_swap";
        if (choice.reason === "blind") return swap ? t("table.prompt_blind_swap") : t("table.prompt_blind_draw2");
        return swap ? t("table.prompt_choose_swap") : t("table.prompt_choose_draw2");
      }
      return t("table.prompt_they_choose", { name: nameOf(table.current_seat) });
    }
    if (table.stack) {
      const count = table.stack.total;
      if (table.stack.seat === table.you) return t("table.prompt_stack", { count });
      return t("table.prompt_stack_wait", { name: nameOf(table.stack.seat), count });
    }
    if (myTurn && table.phase === "drawn" && blind) return t("table.prompt_blind_drawn");
    if (myTurn && table.phase === "drawn" && table.drawn_card) {
      return t("table.prompt_drawn", { card: cardName(table.drawn_card.type) });
    }
    if (myTurn && blind) return t("table.prompt_blind");
    if (myTurn) {
      return legal.some((a) => a.type === "draw") ? t("table.prompt_play_or_draw") : t("table.prompt_play");
    }
    return t("table.prompt_wait", { name: nameOf(table.current_seat) });
  }

  /** "Bot · hard" on a bot's seat, "Bot plays" on a person's seat a bot took over. */
  function botTag(p) {
    if (!p || !p.bot_level) return "";
    return p.taken_over ? t("table.taken_over") : t("bot.pill", { level: t(`bot.level_${p.bot_level}`) });
  }

  function tableView() {
    const table = game.table;
    const options = game.options || table.options || {};
    const legal = busy ? [] : table.legal_actions;
    const myTurn = table.current_seat === table.you;
    const next = nextSeat(table);
    const blind = Boolean(table.hand_hidden);
    const mine = table.seats[table.you];
    const hand = blind ? [] : orderHand(table.hand || []);
    const catchable = new Set(legal.filter((a) => a.type === "catch").map((a) => a.target));
    const canDraw = legal.some((a) => a.type === "draw");
    const drawn = table.phase === "drawn" && myTurn ? table.drawn_card : null;
    const playDrawn = legal.filter((a) => a.type === "play_drawn");
    const canPass = legal.some((a) => a.type === "pass");
    const canUno = legal.some((a) => a.type === "uno");
    const canTake = legal.some((a) => a.type === "take_stack");
    const canPlayTop = legal.some((a) => a.type === "play_top");
    // Templates (docs/api.md, "Actions"): one per pair type held, one for mercy.
    const pairs = legal.filter((a) => a.type === "play_pair" && a.choose);
    const mercy = legal.find((a) => a.type === "mercy") || null;
    // A mode ends when its template is gone (the turn passed, the hand dropped below 15); while
    // a request is on its way (busy) the listed actions are hidden, the mode stays.
    if (!busy) {
      if (mode === "pair" && !pairs.length) mode = null;
      if (mode === "mercy" && !(mercy && mercy.choose)) mode = null;
      if (!mode) picked = [];
    }
    const pairOf = (id) => pairs.find((a) => a.choose.from.includes(id)) || null;
    const pickedPair = picked.length ? pairOf(picked[0]) : null;
    if (mode === "pair" && picked.some((id) => pairOf(id) !== pickedPair)) picked = [];
    if (mode === "mercy" && mercy?.choose) picked = picked.filter((id) => mercy.choose.from.includes(id));
    const size = mine.hand_size;
    const canArm =
      myTurn &&
      ((size === 2 && (legal.some((a) => a.type === "play" || a.type === "play_top") || playDrawn.length > 0)) ||
        (size === 3 && pairs.length > 0));
    const chooseTargets = legal.filter((a) => a.type === "choose_target").map((a) => a.target);
    const promptText = prompt(table, legal, myTurn);
    const stack = table.stack;
    const takenOver = Boolean(game.players.find((p) => p.you)?.taken_over);

    const unoButton = canUno
      ? h("button", { type: "button", class: "uno-button ready", onclick: () => send({ type: "uno" }) }, t("table.uno"))
      : h(
          "button",
          {
            type: "button",
            class: `uno-button ${unoArmed ? "armed" : ""}`,
            "aria-pressed": canArm ? String(unoArmed) : false,
            "aria-describedby": "uno-hint",
            disabled: !canArm,
            onclick: () => {
              unoArmed = !unoArmed;
              render();
            },
          },
          t("table.uno"),
        );
    const unoHint = canUno
      ? t("table.uno_now")
      : canArm
        ? unoArmed
          ? t("table.uno_armed")
          : size === 3
            ? t("table.uno_arm_pair")
            : t("table.uno_arm")
        : mine.uno
          ? t("table.uno_said")
          : "";

    /** A card of my hand: playable exactly when a `play` of it (or `play_drawn`) is listed. */
    function handCard(card) {
      const isDrawn = drawn && drawn.id === card.id;
      const actions = isDrawn ? playDrawn : legal.filter((a) => a.type === "play" && a.card === card.id);
      const playable = actions.length > 0;
      const label = playable
        ? t(actions.some((a) => a.target !== undefined) ? "table.play_card_target" : "table.play_card", { card: cardName(card.type) })
        : cardName(card.type);
      return h(
        "li",
        { key: card.id },
        h(
          "button",
          {
            type: "button",
            class: `card card-${card.type} ${isDrawn ? "drawn" : ""}`,
            "data-symbol": SYMBOLS[card.type],
            "aria-label": isDrawn ? `${label} (${t("table.just_drawn")})` : label,
            "aria-disabled": playable ? false : "true",
            onclick: () => playable && playCard(card, actions, isDrawn ? "play_drawn" : "play"),
          },
          h("span", { class: "card-name" }, cardName(card.type)),
        ),
      );
    }

    /** A card while picking: a toggle (aria-pressed) if the template offers it. */
    function pickableCard(card) {
      const chosen = picked.includes(card.id);
      let template = null;
      if (mode === "pair") template = pairOf(card.id);
      else if (mercy?.choose?.from.includes(card.id)) template = mercy;
      const full = mode === "mercy" && picked.length >= 5;
      const usable = chosen || (template && !busy && !(full && !chosen));
      const name = cardName(card.type);
      return h(
        "li",
        { key: card.id },
        h(
          "button",
          {
            type: "button",
            class: `card card-${card.type} ${chosen ? "picked" : ""}`,
            "data-symbol": SYMBOLS[card.type],
            "aria-label": t(mode === "pair" ? "table.pick_card_pair" : "table.pick_card_mercy", { card: name }),
            "aria-pressed": String(chosen),
            "aria-disabled": usable ? false : "true",
            onclick: () => usable && togglePick(card.id, template || mercy),
          },
          h("span", { class: "card-name" }, name),
        ),
      );
    }

    /** Double down and mercy: a row of fixed height between the buttons and the hand. */
    function handTools() {
      const buttons = [];
      if (mode) {
        const template = mode === "pair" ? pickedPair : mercy;
        const ready = Boolean(template) && !busy && picked.length === template.choose.count;
        buttons.push(
          h(
            "button",
            {
              type: "button",
              class: "primary confirm-pick",
              "aria-disabled": ready ? false : "true",
              onclick: () => {
                if (!ready) return;
                if (mode === "pair") playPair(template, [...picked]);
                else send({ type: "mercy", cards: [...picked] });
              },
            },
            mode === "pair" ? t("table.pair_confirm") : t("table.mercy_confirm", { n: picked.length }),
          ),
          h("button", { type: "button", class: "cancel-pick", onclick: () => setMode(null) }, t("common.cancel")),
        );
      } else {
        if (options.double_down && !blind) {
          buttons.push(
            h(
              "button",
              {
                type: "button",
                class: "pair-mode",
                "aria-disabled": pairs.length ? false : "true",
                onclick: () => pairs.length && setMode("pair"),
              },
              t("table.pair_mode"),
            ),
          );
        }
        if (options.mercy) {
          const ready = Boolean(mercy);
          buttons.push(
            h(
              "button",
              {
                type: "button",
                class: "mercy-mode",
                "aria-disabled": ready ? false : "true",
                onclick: () => {
                  if (!ready) return;
                  // Blind play: no choice, the top five go.
                  if (mercy.choose) setMode("mercy");
                  else send({ type: "mercy" });
                },
              },
              blind ? t("table.mercy_blind") : t("table.mercy_mode"),
            ),
          );
        }
      }
      return h("div", { class: "hand-tools" }, buttons);
    }

    return [
      h(
        "div",
        { class: "table-head" },
        h("h1", { class: "visually-hidden" }, t("table.title")),
        h("span", { class: "round" }, t("table.round", { round: table.round })),
        h(
          "span",
          { class: "direction", title: t(`table.${table.direction}`) },
          h("span", { "aria-hidden": "true", class: `dir-icon ${table.direction}` }, table.direction === "clockwise" ? "↻" : "↺"),
          h("span", { class: "visually-hidden" }, t(`table.${table.direction}`)),
        ),
        h("span", { class: "timer", id: "turn-timer", role: "timer", "aria-label": t("table.timer_label") }, ""),
        h("span", { class: `conn conn-${connection}`, role: "status" }, connection === "live" ? "" : t(`conn.${connection}`)),
      ),
      options.speed_mode ? h("div", { class: "speed-bar", "aria-hidden": "true" }, h("span", null)) : null,
      h(
        "ul",
        { class: "opponents", "aria-label": t("table.opponents") },
        aroundMe(table).map((s) => {
          const p = player(s.seat);
          const current = s.seat === table.current_seat;
          const isNext = s.seat === next && !current;
          const flags = [];
          if (!s.active) flags.push(t("table.left"));
          else if (stack && stack.seat === s.seat) flags.push(t("table.owes", { count: stack.total }));
          else if (current) flags.push(t("table.their_turn"));
          else if (isNext) flags.push(t("table.next"));
          return h(
            "li",
            { key: `s${s.seat}`, class: `seat ${current ? "current" : ""} ${isNext ? "next" : ""} ${s.active ? "" : "gone"}` },
            h("span", { class: "seat-name" }, p ? p.name : nameOf(s.seat)),
            h("span", { class: "seat-cards" }, t("table.cards", { count: s.hand_size })),
            h("span", { class: "seat-flags" }, flags.join(" · ")),
            h(
              "span",
              { class: "seat-score" },
              h("span", { class: "points" }, t("table.points", { points: formatNumber(s.score) })),
              h("span", { class: "seat-bot" }, botTag(p)),
            ),
            s.uno ? h("span", { class: "uno-badge" }, t("table.uno_badge")) : null,
            catchable.has(s.seat)
              ? h(
                  "button",
                  {
                    type: "button",
                    class: "catch-button",
                    "aria-label": t("table.catch_label", { name: nameOf(s.seat) }),
                    onclick: () => send({ type: "catch", target: s.seat }),
                  },
                  t("table.catch"),
                )
              : null,
          );
        }),
      ),
      h(
        "div",
        { class: "pile-area" },
        h(
          "button",
          {
            type: "button",
            class: "draw-pile",
            disabled: !canDraw,
            "data-count": table.draw_size,
            "aria-label": canDraw
              ? t("table.draw_label", { count: table.draw_size })
              : t("table.pile_label", { count: table.draw_size }),
            onclick: () => send({ type: "draw" }),
          },
          h("span", { class: "pile-label", key: canDraw ? "draw" : "pile" }, canDraw ? t("table.draw") : t("table.draw_pile")),
        ),
        table.discard_top
          ? h(
              "div",
              {
                key: table.discard_top.id,
                class: `card big card-${table.discard_top.type}`,
                "data-symbol": SYMBOLS[table.discard_top.type],
                role: "img",
                "aria-label": t("table.discard_label", { card: cardName(table.discard_top.type) }),
              },
              h("span", { class: "card-name", "aria-hidden": "true" }, cardName(table.discard_top.type)),
            )
          : h("div", { class: "card big empty", role: "img", "aria-label": t("table.no_discard") }),
        // Stacking: a fixed slot beside the discard pile, filled while a stack is owed.
        options.stacking
          ? h(
              "div",
              { class: `stack-slot ${stack ? "owed" : ""}` },
              stack ? h("span", { class: "stack-total", key: `st${stack.total}` }, `+${stack.total}`) : null,
              stack ? h("span", { class: "stack-word" }, t("table.stack_word")) : null,
            )
          : null,
      ),
      takenOver
        ? h(
            "div",
            { class: "prompt taken-over", role: "status" },
            h("p", { id: "prompt-text", key: "taken-over" }, t("table.bot_plays_for_you")),
            h("button", { type: "button", class: "reclaim", disabled: busy, onclick: () => lobbyAction("reclaim/", { focus: ".hand button" }) }, t("table.reclaim")),
          )
        : h(
            "div",
            { class: `prompt ${myTurn ? "mine" : ""}`, "aria-live": "polite" },
            // A new message is a new element (keyed by its text): nothing on screen moves.
            h("p", { id: "prompt-text", key: promptText }, promptText),
          ),
      h(
        "div",
        { class: "actions" },
        unoButton,
        chooseTargets.length
          ? h(
              "button",
              {
                type: "button",
                class: "primary",
                onclick: async () => {
                  const choice = table.pending_choice;
                  const title = choice && choice.effect === "force_swap" ? t("table.pick_swap") : t("table.pick_draw2");
                  const target = await pickTarget(title, chooseTargets);
                  if (target !== null) send({ type: "choose_target", target });
                },
              },
              t("table.choose"),
            )
          : blind && !playDrawn.length
            ? h(
                "button",
                {
                  type: "button",
                  class: "primary",
                  disabled: !canPlayTop,
                  onclick: () => send(unoArmed ? { type: "play_top", uno: true } : { type: "play_top" }, { after: chooseOpenTarget }),
                },
                t("table.play_top"),
              )
            : h(
                "button",
                {
                  type: "button",
                  class: "primary",
                  disabled: !playDrawn.length,
                  onclick: () =>
                    blind
                      ? send(unoArmed ? { type: "play_drawn", uno: true } : { type: "play_drawn" }, { after: chooseOpenTarget })
                      : playCard(drawn, playDrawn, "play_drawn"),
                },
                t("table.play_drawn"),
              ),
        canTake
          ? h("button", { type: "button", class: "take-stack", onclick: () => send({ type: "take_stack" }) }, t("table.take_stack", { count: stack.total }))
          : h("button", { type: "button", disabled: !canPass, onclick: () => send({ type: "pass" }) }, t("table.pass")),
        h("p", { class: "uno-hint", id: "uno-hint" }, unoHint),
      ),
      // Present for the whole game when a rule needs it (double down has no pairs under blind play).
      (options.double_down && !options.blind_play) || options.mercy ? handTools() : null,
      h(
        "section",
        { class: "hand-area", "aria-labelledby": "hand-title" },
        h("h2", { id: "hand-title", class: "hand-title" }, blind ? t("table.hand_hidden", { count: size }) : t("table.hand", { count: hand.length })),
        blind
          ? // Face down: the backs only (the heading says how many), in the same fixed row.
            h(
              "ul",
              { class: "hand hand-hidden", "aria-hidden": "true" },
              Array.from({ length: size }, (_, i) => h("li", { key: `back${i}` }, h("div", { class: "card back" }))),
            )
          : h("ul", { class: `hand ${mode ? `picking picking-${mode}` : ""}` }, hand.map((card) => (mode ? pickableCard(card) : handCard(card)))),
      ),
      logView(),
      h(
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
      ),
    ];
  }

  // ---- the log ---------------------------------------------------------------------------

  function describe(event) {
    const n = (seat) => nameOf(seat);
    const card = (id) => cardName(cardType(id));
    switch (event.type) {
      case "round_started":
        return t("log.round_started", { round: event.round, dealer: n(event.dealer), card: card(event.card) });
      case "opening_effect":
        return t("log.opening_effect", { card: card(event.card), name: n(event.seat) });
      case "play":
        return event.target !== undefined
          ? t("log.play_target", { name: n(event.seat), card: card(event.card), target: n(event.target) })
          : t("log.play", { name: n(event.seat), card: card(event.card) });
      case "draw": {
        const key = `log.draw_${event.reason}`;
        let text = t(key, { name: n(event.seat), count: event.count });
        if (text === key) text = t("log.draw_voluntary", { name: n(event.seat), count: event.count });
        if (Array.isArray(event.cards) && event.cards.length) text += ` (${event.cards.map(card).join(", ")})`;
        return text;
      }
      case "reshuffled":
        return t("log.reshuffled");
      case "loses_turn":
        return t("log.loses_turn", { name: n(event.seat), count: event.count });
      case "skipped":
        return t("log.skipped", { name: n(event.seat) });
      case "direction":
        return t("log.direction", { direction: t(`table.${event.direction}`) });
      case "swap":
        return t("log.swap", { name: n(event.seat), target: n(event.target) });
      case "hands_passed":
        return t("log.hands_passed", { direction: t(`table.${event.direction}`) });
      case "fizzled":
        return t("log.fizzled", { name: n(event.seat), card: cardName(event.card_type) });
      case "no_effect":
        return t("log.no_effect", { name: n(event.seat), card: cardName(event.card_type) });
      case "target_chosen":
        return t("log.target_chosen", { name: n(event.seat), target: n(event.target) });
      case "uno":
        return t("log.uno", { name: n(event.seat) });
      case "caught":
        return t("log.caught", { name: n(event.seat), target: n(event.target) });
      case "pass":
        return t("log.pass", { name: n(event.seat) });
      case "timeout":
        return t("log.timeout", { name: n(event.seat) });
      case "left":
        return t("log.left", { name: n(event.seat) });
      case "round_over":
        return t("log.round_over", { name: n(event.winner), round: event.round, points: formatNumber(event.points) });
      case "match_over":
        return t("log.match_over", { name: n(event.winner) });
      case "bot_took_over":
        return t("log.bot_took_over", { name: n(event.seat) });
      case "seat_reclaimed":
        return t("log.seat_reclaimed", { name: n(event.seat) });
      // House rules
      case "stacked":
        return t("log.stacked", { name: n(event.seat), count: event.total });
      case "stack_cancelled":
        return t("log.stack_cancelled", { name: n(event.seat), count: event.total });
      case "not_stackable":
        return t("log.not_stackable", { name: n(event.seat), card: cardName(event.card_type || cardType(event.card)) });
      case "play_pair": {
        const kind = cardName(event.card_type || cardType(event.cards[0]));
        const targets = event.targets || [];
        return targets.length === 2
          ? t("log.play_pair_targets", { name: n(event.seat), card: kind, first: n(targets[0]), second: n(targets[1]) })
          : t("log.play_pair", { name: n(event.seat), card: kind });
      }
      case "mercy":
        return t("log.mercy", { name: n(event.seat), cards: (event.cards || []).map(card).join(", ") });
      default:
        return null;
    }
  }

  function logView() {
    const lines = [];
    for (const move of log) {
      move.events.forEach((event, i) => {
        const text = describe(event);
        if (text) lines.push(h("li", { key: `${move.version}-${i}` }, text));
      });
    }
    lines.reverse();
    return h(
      "details",
      { class: "log", ontoggle: (e) => e.target.open && game && loadLog(game.version) },
      h("summary", null, t("log.title")),
      lines.length ? h("ol", { class: "log-lines", tabindex: 0, "aria-label": t("log.title") }, lines.slice(0, 80)) : h("p", { class: "muted" }, t("log.empty")),
    );
  }

  // ---- results -----------------------------------------------------------------------------

  function standings() {
    const rows = [...game.players].sort((a, b) => (a.place ?? 99) - (b.place ?? 99));
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

  function roundList(table) {
    if (!table || !table.round_results.length) return null;
    return h(
      "section",
      { class: "panel", "aria-labelledby": "rounds-title" },
      h("h2", { id: "rounds-title" }, t("results.rounds")),
      h(
        "ol",
        { class: "rounds" },
        table.round_results.map((r) =>
          h("li", { key: `round${r.round}` }, t("results.round_line", { round: r.round, name: nameOf(r.winner), points: formatNumber(r.points) })),
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
        h("a", { href: "/games", "data-link": "", class: "button" }, t("nav.back_games")),
      ),
    ];
  }

  function maybeShowRound() {
    const table = game.table;
    if (!table || game.status !== "active") return;
    const count = table.round_results.length;
    let seen = Number(localStorage.getItem(seenKey) || "0");
    if (count <= seen || roundDialog.open) return;
    const r = table.round_results[count - 1];
    localStorage.setItem(seenKey, String(count));
    seen = count;
    const hands = Object.entries(r.hands || {});
    roundDialog.replaceChildren(
      h("h2", { id: "round-title" }, t("results.round_title", { round: r.round })),
      h("p", { class: "result-banner" }, t("results.round_line", { round: r.round, name: nameOf(r.winner), points: formatNumber(r.points) })),
      h(
        "table",
        { class: "scores" },
        h("caption", null, t("results.scores_now")),
        h("thead", null, h("tr", null, h("th", { scope: "col" }, t("results.player")), h("th", { scope: "col" }, t("results.cards_left")), h("th", { scope: "col" }, t("results.score")))),
        h(
          "tbody",
          null,
          r.scores.map((score, seat) => {
            const left = hands.find(([s]) => Number(s) === seat);
            return h("tr", null, h("th", { scope: "row" }, nameOf(seat)), h("td", null, left ? left[1].length : 0), h("td", null, formatNumber(score)));
          }),
        ),
      ),
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
    const current = game.table ? player(game.table.current_seat) : null;
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
  };
}
