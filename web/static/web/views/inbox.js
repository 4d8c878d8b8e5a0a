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

export function mount(root, params, app) {
  const list = h("div", { "aria-live": "polite", "aria-busy": "true" });
  let items = [];
  let more = false;
  let cursor = null;

  const open = async (item) => {
    if (!item.read_at) {
      api.post(`notifications/${item.id}/read/`, {}).catch(() => {});
    }
    app.navigate(localPath(item.url));
  };

  const draw = () => {
    list.setAttribute("aria-busy", "false");
    patch(
      list,
      items.length
        ? h(
            "ul",
            { class: "inbox" },
            items.map((item) =>
              h(
                "li",
                { key: item.id, class: item.read_at ? "read" : "unread" },
                h(
                  "a",
                  {
                    href: localPath(item.url),
                    onclick: (event) => {
                      event.preventDefault();
                      open(item);
                    },
                  },
                  h("span", { class: "note-title" }, item.read_at ? null : h("span", { class: "visually-hidden" }, `${t("inbox.unread")}: `), item.title),
                  h("span", { class: "note-body" }, item.body),
                  h("time", { datetime: item.created_at }, formatDateTime(item.created_at)),
                ),
              ),
            ),
          )
        : h("p", { class: "empty" }, t("inbox.empty")),
      more ? h("button", { type: "button", onclick: () => load(true) }, t("inbox.more")) : null,
    );
  };

  const load = async (older = false) => {
    try {
      const page = await api.get(`notifications/?limit=20${older && cursor ? `&before=${cursor}` : ""}`);
      items = older ? [...items, ...page.results] : page.results;
      more = page.has_more;
      cursor = page.next_before;
      draw();
    } catch (error) {
      toast(describeError(error).join(" "), { error: true });
    }
  };

  // The newest page again, on top of the pages shown (older ones loaded stay, once each).
  const refresh = async () => {
    const page = await api.get("notifications/?limit=20");
    const fresh = new Set(page.results.map((item) => item.id));
    const before = items.length;
    items = [...page.results, ...items.filter((item) => !fresh.has(item.id))];
    if (!before) {
      more = page.has_more;
      cursor = page.next_before;
    }
    draw();
    app.refreshUnread(); // the top bar's dot follows
  };
  // Events may come faster than the page is read: one read at a time, and one more after it.
  let reading = null;
  let again = false;
  const refreshSoon = () => {
    if (reading) {
      again = true;
      return;
    }
    reading = refresh()
      .catch(() => {}) // the next event or count tries again
      .finally(() => {
        reading = null;
        if (again) {
          again = false;
          refreshSoon();
        }
      });
  };
  let live = null;

  const readAll = async () => {
    try {
      const upTo = items.length ? Math.max(...items.map((i) => i.id)) : undefined;
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
    const newest = items.length ? Math.max(...items.map((item) => item.id)) : 0;
    live = new AccountLive({ after: newest, onEvent: refreshSoon });
    live.start();
  });
  window.addEventListener("unread-changed", refreshSoon);
  return () => {
    gone = true;
    if (live) live.stop();
    window.removeEventListener("unread-changed", refreshSoon);
  };
}
