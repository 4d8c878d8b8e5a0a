// The lobby (/lobby): quick pairing, my seeks, public games waiting for players and other
// players' seeks (docs/social.md, "Quick pairing" and "The lobby").
//
// From the social API: GET lobby/ (public games with the host's rating, others' seeks), GET and
// POST seeks/, DELETE seeks/{id}/; a public game is joined with POST games/{id}/join/, another
// player's seek for two taken with POST seeks/{id}/take/ (a seek for more seats is answered by
// posting a seek like it: it fills by quick pairing). A seek
// that is matched at once opens its game; one that waits is listed under "My seeks", and the
// page asks again every 15 seconds, opening the game when a wave has matched it.

import { api } from "../api.js";
import { h, patch, toast, uid } from "../dom.js";
import { loadGames } from "../catalog.js";
import { formatDateTime, formatList, t } from "../i18n.js";
import { gameName, ruleName } from "../games/names.js";
import { describeError, errorBox, select, showError } from "./forms.js";

const REFRESH_MS = 15000;

function rulesText(options) {
  const on = Object.keys(options || {}).filter((name) => options[name]);
  return on.length ? formatList(on.map((name) => ruleName(name))) : t("pairing.no_rules");
}

function settingsLine(row) {
  return [gameName(row.game), t("pairing.seats", { count: row.seats }), row.rated ? t("pairing.rated") : t("pairing.casual"), rulesText(row.options)].join(" · ");
}

export function mount(root, params, app) {
  // The screen's state, shared by the functions below: the games offered, what the API said, the
  // game chosen in the seek form, my open seeks last seen (`known`), and whether the page is gone.
  const my = {
    app,
    errors: errorBox(),
    body: h("div", { "aria-live": "polite", "aria-busy": "true" }),
    state: { games: [], lobby: { games: [], seeks: [] }, mine: [], kind: "", chosen: null, known: new Set() },
    gone: false,
  };
  root.append(h("section", { class: "panel" }, h("h1", null, t("pairing.title")), my.errors.el, my.body));
  loadGames().then((games) => {
    if (my.gone) return;
    my.state.games = games;
    my.state.chosen = games[0];
    draw(my);
  });
  load(my);
  const timer = setInterval(() => load(my), REFRESH_MS);
  return () => {
    my.gone = true;
    clearInterval(timer);
  };
}

const fail = (error) => toast(describeError(error).join(" "), { error: true });

/** Posts a seek: opens its game when matched at once, else lists it under "My seeks". */
async function seek(my, request) {
  try {
    const posted = await api.post("seeks/", request);
    if (posted.status === "matched") {
      my.app.navigate(`/games/${posted.game_id}`);
      return;
    }
    toast(t("pairing.seeking"));
    await load(my);
  } catch (error) {
    fail(error);
  }
}

function submitSeek(my, event) {
  event.preventDefault();
  const data = new FormData(event.target);
  const game = my.state.chosen;
  const options = {};
  for (const rule of game.house_rules) if (data.get(`rule_${rule.name}`)) options[rule.name] = true;
  const request = { game: game.kind, seats: Number(data.get("seats")), rated: Boolean(data.get("rated")) && !Object.keys(options).length, options };
  for (const bound of ["min_rating", "max_rating"]) if (data.get(bound)) request[bound] = Number(data.get(bound));
  seek(my, request);
}

async function withdraw(my, row) {
  try {
    await api.del(`seeks/${row.id}/`);
    toast(t("pairing.withdrawn"));
  } catch (error) {
    fail(error);
  }
  await load(my);
}

// Joining a public game and taking a seek both answer with the game to open.
async function enter(my, path) {
  try {
    const game = await api.post(path);
    my.app.navigate(`/games/${game.id}`);
  } catch (error) {
    fail(error);
    await load(my);
  }
}
const take = (my, row) => enter(my, `seeks/${row.id}/take/`);
const join = (my, row) => enter(my, `games/${row.id}/join/`);

function ratingField(name) {
  const id = uid(name);
  return h("div", { class: "field" }, h("label", { for: id }, t(`pairing.${name}`)), h("input", { id, name, type: "number", min: 0, max: 10000, step: 50, inputmode: "numeric" }));
}

function seekForm(my) {
  const { state } = my;
  const game = state.chosen;
  const seats = [];
  for (let n = game.seats.min; n <= game.seats.max; n += 1) seats.push([n, String(n)]);
  return h(
    "form",
    { class: "seek-form", onsubmit: (event) => submitSeek(my, event), "aria-labelledby": "seek-title" },
    select("game", t("pairing.game"), state.games.map((g) => [g.kind, gameName(g.kind, g.name)]), game.kind, {
      id: "seek-game",
      onchange: (e) => {
        state.chosen = state.games.find((g) => g.kind === e.target.value) || state.games[0];
        draw(my);
      },
    }),
    select("seats", t("pairing.players"), seats, Math.min(Math.max(2, game.seats.min), game.seats.max), { id: "seek-seats" }),
    h("label", { class: "choice" }, h("input", { type: "checkbox", name: "rated", checked: true }), t("pairing.rated_choice")),
    game.house_rules.length
      ? h(
          "fieldset",
          { class: "seek-rules" },
          h("legend", null, t("pairing.house_rules")),
          game.house_rules.map((rule) => h("label", { class: "choice" }, h("input", { type: "checkbox", name: `rule_${rule.name}` }), ruleName(rule.name))),
        )
      : null,
    h("div", { class: "seek-range" }, ratingField("min_rating"), ratingField("max_rating")),
    h("p", { class: "hint" }, t("pairing.range_hint")),
    h("button", { type: "submit", class: "primary" }, t("pairing.seek")),
  );
}

function mySeekRow(my, row) {
  return h(
    "li",
    { key: `m-${row.id}`, class: "friend" },
    h(
      "div",
      { class: "friend-who" },
      h("span", { class: "friend-name" }, settingsLine(row)),
      h("span", { class: "muted friend-line" }, row.status === "matched" ? t("pairing.matched") : t("pairing.waiting_since", { when: formatDateTime(row.created_at) })),
    ),
    h(
      "div",
      { class: "friend-actions" },
      row.status === "matched"
        ? h("a", { class: "button primary", href: `/games/${row.game_id}`, "data-link": "" }, t("pairing.open_game"))
        : h("button", { type: "button", onclick: () => withdraw(my, row) }, t("pairing.withdraw")),
    ),
  );
}

function gameRow(my, row) {
  return h(
    "li",
    { key: `g-${row.id}`, class: "friend" },
    h(
      "div",
      { class: "friend-who" },
      h("span", { class: "friend-name" }, t("pairing.hosted_by", { name: row.host, rating: row.host_rating }), row.rated ? h("span", { class: "pill pill-rated" }, t("games.rated")) : null),
      h("span", { class: "muted friend-line" }, `${settingsLine(row)} · ${t("pairing.taken", { players: row.players, seats: row.seats })}`),
    ),
    h("div", { class: "friend-actions" }, h("button", { type: "button", class: "primary", onclick: () => join(my, row), "aria-label": t("pairing.join_name", { name: row.host }) }, t("pairing.join"))),
  );
}

function otherSeekRow(my, row) {
  return h(
    "li",
    { key: `s-${row.id}`, class: "friend" },
    h(
      "div",
      { class: "friend-who" },
      h("span", { class: "friend-name" }, t("pairing.seeker", { name: row.player.name, rating: row.rating })),
      h("span", { class: "muted friend-line" }, settingsLine(row)),
    ),
    h(
      "div",
      { class: "friend-actions" },
      row.seats === 2
        ? h("button", { type: "button", class: "primary", onclick: () => take(my, row), "aria-label": t("pairing.take_name", { name: row.player.name }) }, t("pairing.play"))
        : h(
            "button",
            { type: "button", onclick: () => seek(my, { game: row.game, seats: row.seats, rated: row.rated, options: row.options }), "aria-label": t("pairing.play_name", { name: row.player.name }) },
            t("pairing.play"),
          ),
    ),
  );
}

function draw(my) {
  const { state, body } = my;
  body.setAttribute("aria-busy", "false");
  const kinds = [["", t("pairing.all_games")], ...state.games.map((g) => [g.kind, gameName(g.kind, g.name)])];
  patch(
    body,
    h("h2", { id: "seek-title" }, t("pairing.quick")),
    h("p", { class: "muted" }, t("pairing.quick_intro")),
    state.chosen ? seekForm(my) : null,
    state.mine.length ? h("h2", { id: "mine-title" }, t("pairing.mine")) : null,
    state.mine.length ? h("ul", { class: "friends", "aria-labelledby": "mine-title" }, state.mine.map((row) => mySeekRow(my, row))) : null,
    h("h2", { id: "open-title" }, t("pairing.open_games")),
    select("kind", t("pairing.show"), kinds, state.kind, {
      id: "lobby-kind",
      onchange: (e) => {
        state.kind = e.target.value;
        load(my);
      },
    }),
    state.lobby.games.length
      ? h("ul", { class: "friends", "aria-labelledby": "open-title" }, state.lobby.games.map((row) => gameRow(my, row)))
      : h("p", { class: "muted" }, t("pairing.no_games")),
    h("h2", { id: "seekers-title" }, t("pairing.seekers")),
    state.lobby.seeks.length
      ? h("ul", { class: "friends", "aria-labelledby": "seekers-title" }, state.lobby.seeks.map((row) => otherSeekRow(my, row)))
      : h("p", { class: "muted" }, t("pairing.no_seekers")),
  );
}

async function load(my) {
  const { state } = my;
  try {
    const query = state.kind ? `?game=${encodeURIComponent(state.kind)}` : "";
    const [lobby, mine] = await Promise.all([api.get(`lobby/${query}`), api.get("seeks/")]);
    if (my.gone) return;
    // A seek of mine matched by a wave since the last look: its game is ready.
    const fresh = mine.find((s) => s.status === "matched" && state.known.has(s.id));
    state.known = new Set(mine.filter((s) => s.status === "open").map((s) => s.id));
    Object.assign(state, { lobby, mine });
    my.errors.clear();
    draw(my);
    if (fresh) toast(t("pairing.matched_toast"));
  } catch (error) {
    showError(my.errors, error);
  }
}
