// Friends (/friends): challenges to answer, friends with their presence, players I follow,
// player search, and my presence and challenge settings (docs/social.md).
//
// Everything comes from the social API: GET challenges/, me/friends/, me/following/,
// me/social/, players/search/. A challenge is sent from a player's row (a friend, someone I
// follow, a search result) with the game picked in the row's own small form.

import { api } from "../api.js";
import { h, patch, toast, uid } from "../dom.js";
import { loadGames } from "../catalog.js";
import { formatDateTime, t } from "../i18n.js";
import { gameName } from "../games/names.js";
import { describeError, errorBox, select, showError } from "./forms.js";

function presenceText(presence) {
  if (presence.status === "online") return t("friends.online");
  if (presence.status === "hidden") return t("friends.hidden");
  if (!presence.last_seen_on) return t("friends.never_seen");
  const day = new Date(`${presence.last_seen_on}T12:00:00Z`).toLocaleDateString(document.documentElement.lang || undefined, {
    day: "numeric",
    month: "short",
    year: "numeric",
  });
  return t("friends.last_seen", { day });
}

export function mount(root, params, app) {
  // The screen's state, shared by the functions below: what the API said, the search, the
  // challenge form open (a username), and the elements they draw into.
  const my = {
    app,
    errors: errorBox(),
    body: h("div", { "aria-live": "polite", "aria-busy": "true" }),
    state: { challenges: [], friends: [], following: [], settings: null, results: null, query: "", games: [], open: null },
  };
  root.append(h("section", { class: "panel" }, h("h1", null, t("friends.title")), my.errors.el, my.body));
  loadGames().then((games) => {
    my.state.games = games;
    if (my.state.open) draw(my);
  });
  load(my);
  return () => {};
}

const fail = (error) => toast(describeError(error).join(" "), { error: true });

/** Does `work`, says `done` if given, and reads everything again; null when it failed. */
async function run(my, work, done) {
  try {
    const answer = await work();
    if (done) toast(done);
    await load(my);
    return answer;
  } catch (error) {
    fail(error);
    return null;
  }
}

const follow = (my, username) => run(my, () => api.post("me/following/", { username }), t("friends.followed"));
const unfollow = (my, username) => run(my, () => api.del(`me/following/${encodeURIComponent(username)}/`));
const answer = (my, challenge, verb) => run(my, () => api.post(`challenges/${challenge.id}/${verb}/`));
const saveSettings = (my, change) => run(my, () => api.patch("me/social/", change), t("friends.saved"));

async function accept(my, challenge) {
  try {
    const game = await api.post(`challenges/${challenge.id}/accept/`);
    my.app.navigate(`/games/${game.id}`);
  } catch (error) {
    fail(error);
    await load(my);
  }
}

async function sendChallenge(my, event, username) {
  event.preventDefault();
  const game = new FormData(event.target).get("game");
  my.state.open = null;
  await run(my, () => api.post("challenges/", { username, game }), t("friends.challenge_sent", { name: username }));
}

// A player's row: name, a line under it, and what I may do with them.
function personRow(my, person, line, { following, friend }) {
  const { state } = my;
  const open = state.open === person.username;
  return h(
    "li",
    { key: `p-${person.username}`, class: "friend" },
    h("div", { class: "friend-who" }, h("span", { class: "friend-name" }, person.name), line ? h("span", { class: "muted friend-line" }, line) : null),
    h(
      "div",
      { class: "friend-actions" },
      following
        ? h("button", { type: "button", onclick: () => unfollow(my, person.username), "aria-label": t("friends.unfollow_name", { name: person.name }) }, t("friends.unfollow"))
        : h("button", { type: "button", onclick: () => follow(my, person.username), "aria-label": t("friends.follow_name", { name: person.name }) }, t("friends.follow")),
      friend || state.results !== null
        ? h(
            "button",
            {
              type: "button",
              "aria-expanded": open ? "true" : "false",
              "aria-label": t("friends.challenge_name", { name: person.name }),
              onclick: () => {
                state.open = open ? null : person.username;
                draw(my);
              },
            },
            t("friends.challenge"),
          )
        : null,
    ),
    open
      ? h(
          "form",
          { class: "challenge-form", onsubmit: (e) => sendChallenge(my, e, person.username) },
          select("game", t("friends.challenge_game"), state.games.map((g) => [g.kind, gameName(g.kind, g.name)]), state.games[0]?.kind, { id: uid("challenge-game") }),
          h("button", { type: "submit", class: "primary" }, t("friends.challenge_send", { name: person.name })),
        )
      : null,
  );
}

function challengeRow(my, c) {
  const other = c.incoming ? c.challenger : c.challenged;
  return h(
    "li",
    { key: `c-${c.id}`, class: "friend" },
    h(
      "div",
      { class: "friend-who" },
      h("span", { class: "friend-name" }, c.incoming ? t("friends.challenge_from", { name: other.name }) : t("friends.challenge_to", { name: other.name })),
      h("span", { class: "muted friend-line" }, `${gameName(c.game)} · ${t("friends.expires", { when: formatDateTime(c.expires_at) })}`),
    ),
    h(
      "div",
      { class: "friend-actions" },
      c.incoming ? h("button", { type: "button", class: "primary", onclick: () => accept(my, c) }, t("friends.accept")) : null,
      h("button", { type: "button", onclick: () => answer(my, c, "decline") }, c.incoming ? t("friends.decline") : t("friends.withdraw")),
    ),
  );
}

async function search(my, event) {
  event.preventDefault();
  const { state } = my;
  const q = new FormData(event.target).get("q").trim();
  state.query = q;
  if (!q) {
    state.results = null;
    draw(my);
    return;
  }
  try {
    state.results = await api.get(`players/search/?q=${encodeURIComponent(q)}`);
    draw(my);
  } catch (error) {
    fail(error);
  }
}

function draw(my) {
  const { state, body } = my;
  body.setAttribute("aria-busy", "false");
  const followed = new Set(state.following.map((f) => f.player.username));
  const friendNames = new Set(state.friends.map((f) => f.player.username));
  const waiting = state.following.filter((f) => !f.friend);
  patch(
    body,
    state.challenges.length ? h("h2", { id: "challenges-title" }, t("friends.challenges")) : null,
    state.challenges.length ? h("ul", { class: "friends", "aria-labelledby": "challenges-title" }, state.challenges.map((c) => challengeRow(my, c))) : null,
    h("h2", { id: "friends-title" }, t("friends.friends")),
    state.friends.length
      ? h(
          "ul",
          { class: "friends", "aria-labelledby": "friends-title" },
          state.friends.map((f) => personRow(my, f.player, presenceText(f.presence), { following: true, friend: true })),
        )
      : h("p", { class: "muted" }, t("friends.none")),
    waiting.length ? h("h2", { id: "following-title" }, t("friends.following")) : null,
    waiting.length
      ? h("ul", { class: "friends", "aria-labelledby": "following-title" }, waiting.map((f) => personRow(my, f.player, t("friends.not_following_back"), { following: true, friend: false })))
      : null,
    h("h2", { id: "search-title" }, t("friends.find")),
    h(
      "form",
      { class: "search-form", role: "search", "aria-labelledby": "search-title", onsubmit: (event) => search(my, event) },
      h("label", { for: "friend-search", class: "visually-hidden" }, t("friends.search_label")),
      h("input", { id: "friend-search", name: "q", type: "search", value: state.query, placeholder: t("friends.search_placeholder"), autocomplete: "off", maxlength: 80 }),
      h("button", { type: "submit" }, t("friends.search")),
    ),
    state.results === null
      ? null
      : state.results.length
        ? h(
            "ul",
            { class: "friends", "aria-label": t("friends.results") },
            state.results.map((r) => personRow(my, r.player, null, { following: followed.has(r.player.username), friend: friendNames.has(r.player.username) })),
          )
        : h("p", { class: "muted" }, t("friends.no_results")),
    state.settings ? socialSettings(my) : null,
  );
}

/** My presence and who may challenge me, folded under the lists. */
function socialSettings(my) {
  const { settings } = my.state;
  return h(
    "details",
    { class: "social-settings" },
    h("summary", null, t("friends.settings")),
    h(
      "label",
      { class: "choice" },
      h("input", {
        id: "hide-presence",
        type: "checkbox",
        checked: settings.hide_presence,
        onchange: (e) => saveSettings(my, { hide_presence: e.target.checked }),
      }),
      t("friends.hide_presence"),
    ),
    select(
      "challenges_from",
      t("friends.challenges_from"),
      ["everyone", "friends", "nobody"].map((v) => [v, t(`friends.from_${v}`)]),
      settings.challenges_from,
      { id: "challenges-from", onchange: (e) => saveSettings(my, { challenges_from: e.target.value }) },
    ),
  );
}

async function load(my) {
  try {
    const [challenges, friends, following, settings] = await Promise.all([
      api.get("challenges/"),
      api.get("me/friends/"),
      api.get("me/following/"),
      api.get("me/social/"),
    ]);
    Object.assign(my.state, { challenges, friends, following, settings });
    my.errors.clear();
    draw(my);
  } catch (error) {
    showError(my.errors, error);
  }
}
