// The notification inbox (GET notifications/): newest first, tap one to open its game. Live while
// open: the account event stream (live.js, AccountLive) says when a notification arrives, and the
// newest page is read again and put on top of what is shown; so does a new unread count read by
// the top bar (app.js, "unread-changed"), which catches what a server without the stream sends.

import { api } from "../api.js";
import { h, patch, toast } from "../dom.js";
import { formatDateTime, t } from "../i18n.js";
import { AccountLive } from "../live.js";
import { describeError } from "./forms.js";

function localPath(url) {
  try {
    const parsed = new URL(url, location.origin);
    return parsed.pathname + parsed.search;
  } catch (_) {
    return "/games";
  }
}

const newestId = (items) => (items.length ? Math.max(...items.map((item) => item.id)) : 0);

/** Open a notification's page, marking it read on the way (not waited for). */
function openNote(app, item) {
  if (!item.read_at) {
    api.post(`notifications/${item.id}/read/`, {}).catch(() => {});
  }
  app.navigate(localPath(item.url));
}

function noteRow(app, item) {
  const onclick = (event) => {
    event.preventDefault();
    openNote(app, item);
  };
  return h(
    "li",
    { key: item.id, class: item.read_at ? "read" : "unread" },
    h(
      "a",
      { href: localPath(item.url), onclick },
      h("span", { class: "note-title" }, item.read_at ? null : h("span", { class: "visually-hidden" }, `${t("inbox.unread")}: `), item.title),
      h("span", { class: "note-body" }, item.body),
      h("time", { datetime: item.created_at }, formatDateTime(item.created_at)),
    ),
  );
}

/** `run` (async) when called, one at a time: calls that come while it runs make one more run after it. */
function oneAtATime(run) {
  let running = null;
  let again = false;
  const call = () => {
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch(() => {}) // the next call tries again
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          call();
        }
      });
  };
  return call;
}

export function mount(root, params, app) {
  const list = h("div", { "aria-live": "polite", "aria-busy": "true" });
  // The notices shown, newest first, and where the next older page starts.
  const inbox = { items: [], more: false, cursor: null };

  const draw = () => {
    list.setAttribute("aria-busy", "false");
    patch(
      list,
      inbox.items.length ? h("ul", { class: "inbox" }, inbox.items.map((item) => noteRow(app, item))) : h("p", { class: "empty" }, t("inbox.empty")),
      inbox.more ? h("button", { type: "button", onclick: () => load(true) }, t("inbox.more")) : null,
    );
  };

  const load = async (older = false) => {
    try {
      const page = await api.get(`notifications/?limit=20${older && inbox.cursor ? `&before=${inbox.cursor}` : ""}`);
      inbox.items = older ? [...inbox.items, ...page.results] : page.results;
      inbox.more = page.has_more;
      inbox.cursor = page.next_before;
      draw();
    } catch (error) {
      toast(describeError(error).join(" "), { error: true });
    }
  };

  // The newest page again, on top of the pages shown (older ones loaded stay, once each).
  // Events may come faster than the page is read: one read at a time, and one more after it.
  const refreshSoon = oneAtATime(async () => {
    const page = await api.get("notifications/?limit=20");
    const fresh = new Set(page.results.map((item) => item.id));
    const before = inbox.items.length;
    inbox.items = [...page.results, ...inbox.items.filter((item) => !fresh.has(item.id))];
    if (!before) {
      inbox.more = page.has_more;
      inbox.cursor = page.next_before;
    }
    draw();
    app.refreshUnread(); // the top bar's dot follows
  });
  let live = null;

  const readAll = async () => {
    try {
      const upTo = newestId(inbox.items);
      await api.post("notifications/read-all/", upTo ? { up_to: upTo } : {});
      await load();
      app.refreshUnread();
    } catch (error) {
      toast(describeError(error).join(" "), { error: true });
    }
  };

  root.append(
    h(
      "section",
      { class: "panel" },
      h("div", { class: "title-row" }, h("h1", null, t("inbox.title")), h("button", { type: "button", onclick: readAll }, t("inbox.read_all"))),
      list,
    ),
  );
  let gone = false;
  load().then(() => {
    if (gone) return;
    // From the newest id shown (an empty inbox: from the start, which holds only events that
    // are never notices): nothing that arrived while the page was read is missed.
    live = new AccountLive({ after: newestId(inbox.items), onEvent: refreshSoon });
    live.start();
  });
  window.addEventListener("unread-changed", refreshSoon);
  return () => {
    gone = true;
    if (live) live.stop();
    window.removeEventListener("unread-changed", refreshSoon);
  };
}
