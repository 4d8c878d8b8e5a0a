// The client's entry point: language, the signed-in player, the router and the top bar.
//
// Every screen is a module in views/ with `mount(root, params)`, which draws into <main> and
// returns a function that stops whatever it started (timers, live updates).

import { api, auth, offline, onSignedOut, queue, sendQueued } from "./api.js";
import { h, patch, toast } from "./dom.js";
import { browserLanguage, language, onLanguage, setLanguage, t } from "./i18n.js";
import { registerWorker } from "./push.js";
import { describeError } from "./views/forms.js";

const ROUTES = [
  [/^\/login$/, () => import("./views/auth.js"), "login", false],
  [/^\/signup$/, () => import("./views/auth.js"), "signup", false],
  [/^\/join\/([A-Za-z0-9_-]+)$/, () => import("./views/join.js"), "join", false],
  [/^\/games\/new$/, () => import("./views/newgame.js"), "newgame", true],
  [/^\/games\/([0-9a-f-]{36})$/, () => import("./views/game.js"), "game", true],
  [/^\/games\/([0-9a-f-]{36})\/replay$/, () => import("./views/replay.js"), "replay", true],
  [/^\/games\/([0-9a-f-]{36})\/watch$/, () => import("./views/watch.js"), "watch", true],
  [/^\/watch$/, () => import("./views/watching.js"), "watching", true],
  [/^\/games$/, () => import("./views/games.js"), "games", true],
  [/^\/notifications$/, () => import("./views/inbox.js"), "inbox", true],
  [/^\/settings$/, () => import("./views/settings.js"), "settings", true],
  [/^\/players\/(\d+)$/, () => import("./views/player.js"), "player", true],
  [/^\/players\/(\d+)\/profile$/, () => import("./views/profile.js"), "profile", true],
  [/^\/leaderboards$/, () => import("./views/leaderboard.js"), "leaderboard", true],
  [/^\/leaderboards\/([a-z_]+)$/, () => import("./views/leaderboard.js"), "leaderboard", true],
  [/^\/seasons$/, () => import("./views/seasons.js"), "seasons", true],
  [/^\/seasons\/([a-z_]+)$/, () => import("./views/seasons.js"), "seasons", true],
  [/^\/seasons\/([a-z_]+)\/(\d{4}-\d{2})$/, () => import("./views/seasons.js"), "seasons", true],
  [/^\/friends$/, () => import("./views/friends.js"), "friends", true],
  [/^\/lobby$/, () => import("./views/lobby.js"), "lobby", true],
  // An app's authorization request (docs/oauth.md): the consent screen.
  [/^\/oauth\/authorize$/, () => import("./views/oauth.js"), "oauth", true],
];

export const app = {
  me: null,
  unread: 0,
  // Games waiting for my move and lobbies I am invited to: the badge (it counts games, not
  // notifications).
  waiting: 0,
  invitations: 0,
  screen: null,
  navigate,
  refreshUnread,
  loadMe,
  drawTopbar,
};

let unmount = null;
let renderToken = 0;

function currentPath() {
  return location.pathname.replace(/\/+$/, "") || "/";
}

export function navigate(path, { replace = false } = {}) {
  const url = new URL(path, location.origin);
  if (url.origin !== location.origin) {
    location.href = path;
    return;
  }
  const target = url.pathname + url.search + url.hash;
  if (target !== location.pathname + location.search + location.hash) {
    if (replace) history.replaceState(null, "", target);
    else history.pushState(null, "", target);
  }
  route();
}

async function loadMe() {
  if (!auth.token) {
    app.me = null;
    return null;
  }
  try {
    app.me = await api.get("me/");
  } catch (error) {
    if (error.status === 401) app.me = null;
    else throw error;
  }
  return app.me;
}

async function refreshUnread() {
  if (!auth.token) return;
  try {
    const data = await api.get("notifications/unread-count/");
    // The open inbox reads its newest page again (views/inbox.js).
    if (data.unread !== app.unread) window.dispatchEvent(new CustomEvent("unread-changed"));
    app.unread = data.unread;
    setWaiting(data.games_waiting);
  } catch (_) {
    // the badge is not worth an error message
  }
  drawTopbar();
}

/** "14:32" today, "1 Dec, 14:32" before: when the state shown offline was the server's. */
function stateTime(date) {
  const locale = language() === "da" ? "da-DK" : "en-GB";
  const today = new Date().toDateString() === date.toDateString();
  const options = today ? { hour: "2-digit", minute: "2-digit" } : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  return new Intl.DateTimeFormat(locale, options).format(date);
}

/** The banner under the top bar while the screen shows a state kept for offline use. */
function drawOffline() {
  const banner = document.getElementById("offline-banner");
  if (!banner) return;
  const since = offline.since;
  banner.hidden = !since;
  banner.textContent = since ? t("offline.banner", { time: stateTime(since) }) : "";
}
offline.onChange(drawOffline);
function showAppBadge() {
  // An installed client shows it on its icon too.
  const count = app.waiting + app.invitations;
  if (navigator.setAppBadge) (count ? navigator.setAppBadge(count) : navigator.clearAppBadge()).catch(() => {});
}

function setWaiting(count) {
  if (typeof count !== "number" || count === app.waiting) return false;
  app.waiting = count;
  showAppBadge();
  return true;
}

// Only games/live/ counts invitations (notifications/unread-count/ counts games waiting).
function setInvitations(count) {
  if (typeof count !== "number" || count === app.invitations) return false;
  app.invitations = count;
  showAppBadge();
  return true;
}

// "My games" and the badge, live: a long-poll of games/live/ answers within a second of a move
// in any of my games (its stamp changed). Screens that list games listen for "games-changed".
// Only while the page is visible: a hidden page starts again, fresh, when it is shown.
const gamesLive = { stamp: "", controller: null };
const pause = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

function startGamesLive() {
  if (gamesLive.controller || !auth.token || document.visibilityState === "hidden") return;
  const controller = new AbortController();
  gamesLive.controller = controller;
  const { signal } = controller;
  (async () => {
    let failures = 0;
    while (!signal.aborted && auth.token) {
      try {
        const since = encodeURIComponent(gamesLive.stamp);
        const data = await api.get(`games/live/?since=${since}&wait=25`, { signal });
        failures = 0;
        // The first answer only sets the stamp: the screen loaded its list already.
        const changed = gamesLive.stamp !== "" && data.stamp !== gamesLive.stamp;
        gamesLive.stamp = data.stamp;
        const invitations = setInvitations(data.invitations);
        if (setWaiting(data.games_waiting) || invitations) drawTopbar();
        if (changed) {
          window.dispatchEvent(new CustomEvent("games-changed"));
          // An invitation or a game's end also brings a notice: the inbox dot follows.
          refreshUnread();
        }
      } catch (_) {
        if (signal.aborted) break;
        failures += 1;
        await pause(Math.min(30000, 1000 * 2 ** failures), signal);
      }
    }
  })().finally(() => {
    if (gamesLive.controller === controller) gamesLive.controller = null;
  });
}

function stopGamesLive() {
  if (gamesLive.controller) gamesLive.controller.abort();
  gamesLive.controller = null;
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") startGamesLive();
  else stopGamesLive();
});
window.addEventListener("online", () => {
  stopGamesLive();
  startGamesLive();
});

/** A top-bar link's content that a phone draws as an icon (the words stay for screen readers):
 * five links in words do not fit 360 px, in Danish not even 390 (css/base.css, "top bar"). */
function iconLink(name, words) {
  return [h("span", { class: `nav-icon nav-icon-${name}`, "aria-hidden": "true" }), h("span", { class: "nav-words" }, words)];
}

function drawTopbar() {
  const bar = document.getElementById("topbar");
  // Offline, who I am may not be known (never read on this device): the token says I am signed in.
  const signedIn = Boolean(app.me || auth.token);
  const here = currentPath();
  // The shell's link is written by the server in the browser's language: follow the chosen one.
  const skip = document.querySelector(".skip-link");
  if (skip && skip.textContent !== t("shell.skip")) skip.textContent = t("shell.skip");
  const badge = app.waiting + app.invitations;
  const link = (href, label, extra = {}) =>
    h("a", { href, "data-link": "", "aria-current": here === href ? "page" : false, ...extra }, label);
  patch(
    bar,
    h(
      "a",
      { class: "brand", href: signedIn ? "/games" : "/login", "data-link": "" },
      h("img", { src: JSON.parse(document.getElementById("client-config").textContent).icon, alt: "", width: 28, height: 28 }),
      h("span", null, "Uno All Wild"),
    ),
    signedIn
      ? h(
          "nav",
          { "aria-label": t("nav.label") },
          link("/games", [
            t("nav.games"),
            // The badge counts games waiting for my move and invitations to answer. The number
            // is drawn by CSS (data-count); the words are for screen readers.
            h("span", { class: badge ? "badge" : "badge badge-empty", "data-count": badge || "", "data-badge": "games" }),
            app.waiting ? h("span", { class: "visually-hidden" }, `, ${t("nav.games_waiting", { count: app.waiting })}`) : null,
            app.invitations ? h("span", { class: "visually-hidden" }, `, ${t("nav.invitations", { count: app.invitations })}`) : null,
          ]),
          link("/notifications", [
            t("nav.inbox"),
            // Unread notices: a dot, not a number (the number is the games waiting).
            h("span", { class: app.unread ? "dot" : "dot dot-empty", "aria-hidden": "true" }),
            app.unread ? h("span", { class: "visually-hidden" }, `, ${t("nav.inbox_unread", { count: app.unread })}`) : null,
          ]),
          link("/friends", t("nav.friends")),
          // One link to the rating boards: a game's leaderboard, which links to its seasons.
          // Current on every board page (a game's, a season's month), not only the one it opens.
          link("/leaderboards", iconLink("boards", t("nav.boards")), {
            "aria-current": /^\/(leaderboards|seasons)(\/|$)/.test(here) ? "page" : false,
          }),
          link("/settings", iconLink("settings", t("nav.settings"))),
        )
      : h(
          "nav",
          { "aria-label": t("nav.label") },
          h(
            "label",
            { class: "lang-pick" },
            h("span", { class: "visually-hidden" }, t("settings.language")),
            h(
              "select",
              { onchange: (e) => setLanguage(e.target.value), "aria-label": t("settings.language") },
              h("option", { value: "en", selected: language() === "en" }, "English"),
              h("option", { value: "da", selected: language() === "da" }, "Dansk"),
            ),
          ),
        ),
  );
}

async function route() {
  const token = ++renderToken;
  if (unmount) {
    try {
      unmount();
    } catch (_) {
      // a screen failing to clean up must not stop the next one
    }
    unmount = null;
  }
  const path = currentPath();
  const main = document.getElementById("main");
  if (path === "/") {
    navigate(auth.token ? "/games" : "/login", { replace: true });
    return;
  }
  const found = ROUTES.find(([pattern]) => pattern.test(path));
  if (!found) {
    navigate("/games", { replace: true });
    return;
  }
  const [pattern, load, name, needsAuth] = found;
  if (needsAuth && !auth.token) {
    navigate(`/login?next=${encodeURIComponent(path + location.search)}`, { replace: true });
    return;
  }
  const params = path.match(pattern).slice(1);
  const module = await load();
  if (token !== renderToken) return;
  app.screen = name;
  main.replaceChildren();
  drawTopbar();
  drawOffline();
  unmount = (await module.mount(main, params, app)) || null;
  if (token !== renderToken) return;
  // Move focus to the new screen's heading so screen readers announce it.
  const heading = main.querySelector("h1");
  if (heading) {
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
    document.title = `${heading.textContent} · Uno All Wild`;
  }
  refreshUnread();
  startGamesLive(); // after signing in; nothing when it runs already
}

document.addEventListener("click", (event) => {
  const anchor = event.target.closest("a[data-link]");
  if (!anchor || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(anchor.getAttribute("href"));
});
window.addEventListener("popstate", route);

onSignedOut(() => {
  app.me = null;
  toast(t("auth.signed_out"), { error: true });
  navigate(`/login?next=${encodeURIComponent(location.pathname)}`, { replace: true });
});

// A screen that changes language redraws; the chosen language goes to the profile.
let lastLanguage = null;
onLanguage(async (code) => {
  if (lastLanguage && lastLanguage !== code) {
    if (app.me && app.me.language !== code) {
      try {
        app.me = await api.patch("me/", { language: code });
      } catch (error) {
        toast(error.message, { error: true });
      }
    }
    route();
  }
  lastLanguage = code;
});

/**
 * Moves tapped offline in games that are not on screen (the open table sends its own): sent when
 * the connection returns or the client starts, and said how it went.
 */
async function sendQueuedMoves() {
  const open = app.screen === "game" ? currentPath().split("/")[2] : null;
  for (const gameId of Object.keys(queue.all())) {
    if (gameId === open) continue;
    const result = await sendQueued(gameId);
    // The screen on show (my games) reads the server again: the move changed whose turn it is.
    if (result) window.dispatchEvent(new CustomEvent("uaw:queued-sent", { detail: { gameId } }));
    if (result && result.sent) toast(t("offline.sent"));
    else if (result && result.refused) {
      const error = result.refused;
      const text = error.code === "version_conflict" ? t("offline.stale_elsewhere") : t("offline.refused", { reason: describeError(error).join(" ") });
      toast(text, { error: true });
    }
  }
}
window.addEventListener("online", () => sendQueuedMoves());

async function boot() {
  await setLanguage(browserLanguage(), { remember: false });
  try {
    await loadMe();
  } catch (_) {
    // offline at start: the screens show their own errors
  }
  if (app.me && app.me.language && app.me.language !== language()) {
    await setLanguage(app.me.language);
  }
  lastLanguage = language();
  registerWorker(app);
  setInterval(() => document.visibilityState === "visible" && refreshUnread(), 30000);
  startGamesLive();
  await route();
  if (auth.token) sendQueuedMoves();
}

boot();
