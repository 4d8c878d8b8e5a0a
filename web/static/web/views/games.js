// My games (GET games/): the ones waiting for my move first, least time left first, then the
// others' turns in the same order, with the time left on each turn,
// and above them the lobbies I am invited to (GET games/invitations/: rematches others opened),
// joined from here (POST games/{id}/join/): until then the game is not mine to open.

import { api } from "../api.js";
import { h, patch } from "../dom.js";
import { formatDuration, t } from "../i18n.js";
import { loadGames } from "../catalog.js";
import { DEFAULT_KIND, gameName, kindOf } from "../games/names.js";
import { errorBox, showError } from "./forms.js";

// The list reloads within a second of a change in any of my games, a new game with me in it or
// an invitation (app.js long-polls games/live/ and says "games-changed"); this slower poll only
// catches what that misses.
const REFRESH_MS = 60000;

function inviteCodeFrom(text) {
  const value = text.trim();
  const match = value.match(/\/join\/([A-Za-z0-9_-]+)/);
  return match ? match[1] : value;
}

function opponents(game) {
  const others = game.players.filter((p) => !p.you).map((p) => p.name);
  return others.length ? others.join(", ") : t("games.no_opponents");
}

function timeLeft(game) {
  if (!game.turn_deadline) return null;
  return (Date.parse(game.turn_deadline) - Date.now()) / 1000;
}

/** Most urgent first: the least time left on the turn, games without a clock after (the
 * server's order kept among equals: `Array.prototype.sort` is stable). */
function byTimeLeft(a, b) {
  const left = (game) => (game.turn_deadline ? Date.parse(game.turn_deadline) : Infinity);
  return left(a) - left(b);
}

function statusLine(game) {
  if (game.status === "lobby") {
    return t("games.lobby_seats", { count: game.players.length, max: game.max_players });
  }
  if (game.status === "active") return game.your_turn ? t("games.your_turn") : t("games.their_turn");
  if (game.status === "finished") {
    const me = game.players.find((p) => p.you);
    return me && me.place === 1 ? t("games.won") : t("games.finished");
  }
  return t(`status.${game.status}`);
}

/** A rated game changes its players' ratings at the match end (docs/ratings.md): said on its row
 * while it is open or running, so a player knows before joining or moving. */
function ratedBadge(game) {
  if (!game.rated || !["lobby", "active"].includes(game.status)) return null;
  return h("span", { class: "pill pill-rated" }, t("games.rated"));
}

function row(game) {
  const left = timeLeft(game);
  const urgent = left !== null && left < 3600;
  return h(
    "li",
    { key: game.id, class: `game-row ${game.your_turn ? "mine" : ""}` },
    h(
      "a",
      { href: `/games/${game.id}`, "data-link": "", class: "game-link" },
      h("span", { class: "game-title" }, t("games.against", { names: opponents(game) })),
      h(
        "span",
        { class: "game-meta" },
        h("span", { class: `pill ${game.your_turn ? "pill-turn" : ""}` }, statusLine(game)),
        // A game other than All Wild says which (its summary's `game`).
        kindOf(game) !== DEFAULT_KIND ? h("span", { class: "pill pill-game" }, gameName(kindOf(game))) : null,
        ratedBadge(game),
        game.status === "active" && game.players.some((p) => p.you && p.taken_over) ? h("span", { class: "pill" }, t("games.bot_plays")) : null,
        left !== null && game.status === "active"
          ? h(
              "span",
              { class: `time-left ${urgent ? "urgent" : ""}` },
              t("games.time_left", { time: formatDuration(left) }),
            )
          : null,
      ),
    ),
  );
}

function invitationRow(game, join, decline) {
  const hosts = game.players.map((p) => p.name);
  return h(
    "li",
    { key: game.id, class: "game-row invitation" },
    h(
      "div",
      { class: "game-link" },
      h("span", { class: "game-title" }, t("games.invited", { names: hosts.join(", ") })),
      h(
        "span",
        { class: "game-meta" },
        h("span", { class: "pill" }, t("games.lobby_seats", { count: game.players.length, max: game.max_players })),
        kindOf(game) !== DEFAULT_KIND ? h("span", { class: "pill pill-game" }, gameName(kindOf(game))) : null,
        ratedBadge(game),
      ),
      h(
        "span",
        { class: "invitation-actions" },
        h("button", { type: "button", class: "primary join-invitation", onclick: () => join(game) }, t("games.accept")),
        h("button", { type: "button", class: "decline-invitation", onclick: () => decline(game) }, t("games.decline")),
      ),
    ),
  );
}

export function mount(root, params, app) {
  // What the functions below share: the list's box, and the games and invitations last read
  // (games is null until the first answer), and how many reads were started.
  const my = {
    app,
    errors: errorBox(),
    list: h("div", { class: "game-lists", "aria-live": "polite", "aria-busy": "true" }),
    games: null,
    invitations: [],
    reads: 0,
  };
  const load = () => loadMyGames(my);
  root.append(page(my));
  load();
  // The clock on each row ticks without asking the server.
  const tick = setInterval(() => draw(my), 1000);
  const poll = setInterval(() => document.visibilityState === "visible" && load(), REFRESH_MS);
  const onVisible = () => document.visibilityState === "visible" && load();
  document.addEventListener("visibilitychange", onVisible);
  // Back online, or a move made offline was sent (app.js): the server's list replaces the one
  // kept for offline use (and its banner).
  window.addEventListener("online", load);
  window.addEventListener("uaw:queued-sent", load);
  window.addEventListener("games-changed", load);
  return () => {
    clearInterval(tick);
    clearInterval(poll);
    document.removeEventListener("visibilitychange", onVisible);
    window.removeEventListener("online", load);
    window.removeEventListener("uaw:queued-sent", load);
    window.removeEventListener("games-changed", load);
  };
}

/** The screen: its title and links, the lists, and the invite code form. */
function page(my) {
  return h(
    "section",
    { class: "panel" },
    h("div", { class: "title-row" },
      h("h1", null, t("games.title")),
      h("a", { href: "/games/new", "data-link": "", class: "button primary" }, t("games.new")),
    ),
    h(
      "p",
      { class: "vs-computer" },
      h("a", { href: "/games/new?vs=computer", "data-link": "" }, t("games.vs_computer")),
      h("a", { href: "/lobby", "data-link": "" }, t("games.lobby")),
      h("a", { href: "/watch", "data-link": "" }, t("watch.title")),
    ),
    my.errors.el,
    my.list,
    h(
      "form",
      { class: "join-code", onsubmit: (event) => joinByCode(my.app, event) },
      h("label", { for: "join-code" }, t("games.join_label")),
      h("div", { class: "inline" },
        h("input", { id: "join-code", name: "code", autocomplete: "off", placeholder: t("games.join_placeholder") }),
        h("button", { type: "submit" }, t("games.join")),
      ),
    ),
  );
}

async function join(my, game) {
  try {
    await api.post(`games/${game.id}/join/`);
    my.app.navigate(`/games/${game.id}`);
  } catch (error) {
    showError(my.errors, error);
    loadMyGames(my);
  }
}

async function decline(my, game) {
  try {
    await api.post(`games/${game.id}/decline/`);
    my.invitations = my.invitations.filter((g) => g.id !== game.id);
    draw(my);
  } catch (error) {
    showError(my.errors, error);
  }
  loadMyGames(my);
}

function draw(my) {
  const { games } = my;
  if (!games) return;
  my.list.setAttribute("aria-busy", "false");
  const groups = [
    // Sorted by urgency: my turn first, the least time left first (the others' turns too:
    // the soonest to come back to me first).
    ["mine", t("games.group_turn"), games.filter((g) => g.status === "active" && g.your_turn).sort(byTimeLeft)],
    ["waiting", t("games.group_waiting"), games.filter((g) => g.status === "active" && !g.your_turn).sort(byTimeLeft)],
    ["lobby", t("games.group_lobby"), games.filter((g) => g.status === "lobby")],
    ["done", t("games.group_done"), games.filter((g) => !["active", "lobby"].includes(g.status))],
  ];
  const invitation = (g) => invitationRow(g, (game) => join(my, game), (game) => decline(my, game));
  const sections = [["invited", t("games.group_invited"), my.invitations, invitation]]
    .concat(groups.map((group) => [...group, row]))
    .filter(([, , items]) => items.length)
    .map(([key, title, items, drawRow]) =>
      h("section", { key, class: "group", "aria-labelledby": `group-${key}` },
        h("h2", { id: `group-${key}` }, title),
        h("ul", { class: "games" }, items.map(drawRow)),
      ),
    );
  patch(my.list, sections.length ? sections : h("p", { class: "empty" }, t("games.none")));
}

async function loadMyGames(my) {
  // Reads overlap (back online and a queued move sent fire together) and may answer out of
  // order: only the latest one started is drawn, so an older answer never brings back a turn
  // that has since passed.
  const read = ++my.reads;
  try {
    // Invitations are extra: without them (offline, an older server) the list still shows.
    const [mine, invited] = await Promise.all([api.get("games/"), api.get("games/invitations/").catch(() => [])]);
    if (read !== my.reads) return;
    my.games = mine;
    my.invitations = Array.isArray(invited) ? invited : [];
    // The server's names of other games (the rows redraw every second).
    if (mine.some((g) => kindOf(g) !== DEFAULT_KIND)) loadGames();
    my.errors.clear();
    draw(my);
  } catch (error) {
    if (read === my.reads) showError(my.errors, error);
  }
}

function joinByCode(app, event) {
  event.preventDefault();
  const code = inviteCodeFrom(new FormData(event.target).get("code") || "");
  if (code) app.navigate(`/join/${encodeURIComponent(code)}`);
}
