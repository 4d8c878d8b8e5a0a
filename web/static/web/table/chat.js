// The players' chat at the table (docs/social.md, "Chat"): read with `GET games/{id}/chat/`,
// then kept current by the game's own stream (live.js asks it for `chat_after=` the cursor and
// hands its `chat` events here), written with `POST games/{id}/chat/`.
//
// Every message is text: h() makes text nodes, never markup. On a phone the open chat is a panel
// at the top of the screen (css/pages.css, `.chat-panel`), over the other seats, never over the hand;
// closed, it is one line with the count of unread messages. Someone else's message has Report
// (`POST chat/messages/{id}/report/`) and Mute (`POST me/chat/mutes/`); the panel's switch turns
// the chat off for me (`PATCH me/chat/`).
//
// `table` is the screen's hub (views/game.js). A spectator (views/watch.js) gets the spectators'
// channel (`{ channel: "spectators" }`, `?channel=spectators`, carried by the watch stream): its
// box follows the watch screen and its open panel stays in the page's flow (`.chat-inline`),
// under the players and the discard pile rather than over them.

import { api } from "../api.js";
import { h, patch, toast } from "../dom.js";
import { t } from "../i18n.js";
import { describeError } from "../views/forms.js";

const MAX_LENGTH = 500;

/** One channel's chat box, put beside `table.screen`. Everything the functions below share is in
 * `chat`: the hub, the channel and its box, and the messages with the box's state. */
export function createChat(table, { channel = "players" } = {}) {
  const spectators = channel === "spectators";
  const title = spectators ? t("chat.spectators_title") : t("chat.title");
  const box = h("section", { class: spectators ? "chat chat-inline" : "chat", "aria-label": title });
  if (spectators) table.screen.after(box);
  else table.screen.before(box);
  const path = `games/${table.gameId}/chat/`;
  const chat = {
    table,
    channel,
    spectators,
    title,
    box,
    path,
    messages: new Map(),
    cursor: null,
    enabled: true,
    open: false,
    unread: 0,
    closed: false,
  };
  load(chat);
  return { take: (data) => take(chat, data), after: () => after(chat), render: () => render(chat), stop: () => box.remove() };
}

/** The stream's cursor: null until the first page is read (then the stream carries the chat). */
const after = (chat) => (chat.closed ? null : chat.cursor);

function take(chat, { messages, next_after: next }) {
  for (const m of messages) {
    if (m.deletes) chat.messages.delete(m.deletes);
    else if (!chat.messages.has(m.id)) {
      chat.messages.set(m.id, m);
      if (!chat.open && !m.mine) chat.unread += 1;
    }
  }
  if (typeof next === "number" && (chat.cursor === null || next > chat.cursor)) chat.cursor = next;
  render(chat);
}

async function load(chat) {
  const { table, spectators, path } = chat;
  try {
    const page = await api.get(spectators ? `${path}?channel=spectators` : path);
    chat.enabled = page.enabled;
    chat.messages.clear();
    take(chat, { ...page, messages: page.messages });
    chat.unread = 0;
    table.live.restart(); // from now on the stream carries the chat too
  } catch {
    chat.closed = true; // not a channel of mine here: no chat
    render(chat);
  }
}

async function send(chat, event) {
  const { path, channel } = chat;
  event.preventDefault();
  const input = event.target.elements.text;
  const text = input.value.trim();
  if (!text) return;
  try {
    const message = await api.post(path, { text, channel });
    input.value = "";
    take(chat, { messages: [message] });
    if (message.filtered) toast(t("chat.filtered"), { error: true });
  } catch (error) {
    toast(describeError(error), { error: true });
  }
}

async function run(work, done) {
  try {
    await work();
    if (done) toast(done);
  } catch (error) {
    toast(describeError(error), { error: true });
  }
}

const report = (chat, m) => confirm(t("chat.report_confirm", { name: m.author })) && run(() => api.post(`chat/messages/${m.id}/report/`, {}), t("chat.reported"));
const mute = (chat, m) =>
  confirm(t("chat.mute_confirm", { name: m.author })) &&
  run(async () => {
    await api.post("me/chat/mutes/", { username: m.author_username });
    for (const [id, other] of chat.messages) if (other.author_username === m.author_username) chat.messages.delete(id);
    render(chat);
  }, t("chat.muted", { name: m.author }));
const toggle = (chat) =>
  run(async () => {
    chat.enabled = (await api.patch("me/chat/", { enabled: !chat.enabled })).enabled;
    await load(chat);
  });

function line(chat, m) {
  const tools = m.mine
    ? m.filtered && h("span", { class: "chat-note" }, t("chat.hidden_from_others"))
    : [
        h("button", { type: "button", class: "link", onclick: () => report(chat, m), "aria-label": t("chat.report_label", { name: m.author }) }, t("chat.report")),
        h("button", { type: "button", class: "link", onclick: () => mute(chat, m), "aria-label": t("chat.mute_label", { name: m.author }) }, t("chat.mute")),
      ];
  return h("li", { key: m.id, class: m.mine ? "mine" : null }, h("strong", null, m.mine ? t("chat.me") : m.author), ": ", h("span", { class: "chat-text" }, m.text), " ", tools);
}

function panel(chat) {
  const { title, spectators } = chat;
  const lines = [...chat.messages.values()].map((m) => line(chat, m));
  return h(
    "div",
    { class: "chat-panel", id: "chat-panel" },
    h(
      "div",
      { class: "chat-head" },
      h("h2", null, title),
      h("button", { type: "button", class: "link", onclick: () => toggle(chat) }, chat.enabled ? t("chat.turn_off") : t("chat.turn_on")),
      h("button", { type: "button", class: "chat-close", onclick: () => setOpen(chat, false), "aria-label": t("chat.close") }, "×"),
    ),
    !chat.enabled
      ? h("p", { class: "muted" }, t("chat.off"))
      : [
          lines.length ? h("ol", { class: "chat-lines", tabindex: 0, "aria-live": "polite" }, lines) : h("p", { class: "muted" }, t("chat.empty")),
          h(
            "form",
            { class: "chat-form", onsubmit: (event) => send(chat, event) },
            h("input", { name: "text", maxlength: MAX_LENGTH, autocomplete: "off", "aria-label": spectators ? t("chat.spectators_message_label") : t("chat.message_label"), placeholder: t("chat.placeholder") }),
            h("button", { type: "submit" }, t("chat.send")),
          ),
        ],
  );
}

function setOpen(chat, open) {
  const { box } = chat;
  chat.open = open;
  if (open) chat.unread = 0;
  render(chat);
  const lines = box.querySelector(".chat-lines");
  if (lines) lines.scrollTop = lines.scrollHeight;
  if (open) box.querySelector(".chat-form input")?.focus();
}

function render(chat) {
  const { box, spectators, title } = chat;
  if (chat.closed || chat.cursor === null) return patch(box);
  const label = chat.unread ? t("chat.open_unread", { count: chat.unread }) : spectators ? title : t("chat.open");
  patch(box, h("button", { type: "button", class: "chat-toggle", "aria-expanded": String(chat.open), "aria-controls": "chat-panel", onclick: () => setOpen(chat, !chat.open) }, label), chat.open ? panel(chat) : null);
}

