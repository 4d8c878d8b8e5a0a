// Settings: the apps a player allowed (each revocable at once) and the apps a player registered
// as a developer (docs/oauth.md). Drawn into the settings screen.

import { api } from "../api.js";
import { h, patch, toast } from "../dom.js";
import { t } from "../i18n.js";
import { answerOrSay, describeError, errorBox, field, showError } from "./forms.js";

function date(value) {
  return new Date(value).toLocaleDateString();
}

/** A list of apps, the allowed or the registered: each app's name over its `details` lines,
 * and its `action` (a button) beside them. */
function appList(apps, details, action = () => null) {
  return h(
    "ul",
    { class: "app-list" },
    apps.map((app) => h("li", { key: app.id }, h("div", null, h("strong", null, app.name), details(app)), action(app))),
  );
}

/** "Apps you allowed": name, what it may do, since when, and Revoke. */
export function allowedApps() {
  const box = h("div", { class: "apps", "aria-live": "polite" });
  async function draw() {
    const rows = await answerOrSay(box, api.get("me/oauth/authorizations/"));
    if (!rows) return;
    if (!rows.length) {
      patch(box, h("p", { class: "muted" }, t("apps.none_allowed")));
      return;
    }
    const details = (row) => [
      h("p", { class: "muted" }, row.scopes.map((s) => t(`oauth.scope.${s}`)).join(" · ")),
      h("p", { class: "hint" }, t("apps.allowed_since", { date: date(row.authorized_at) })),
    ];
    const revoke = (row) =>
      h(
        "button",
        {
          type: "button",
          class: "danger",
          "aria-label": t("apps.revoke_named", { app: row.name }),
          onclick: async (event) => {
            event.target.disabled = true;
            try {
              await api.del(`me/oauth/authorizations/${row.id}/`);
              toast(t("apps.revoked", { app: row.name }));
            } catch (error) {
              toast(describeError(error).join(" "), { error: true });
            }
            draw();
          },
        },
        t("apps.revoke"),
      );
    patch(box, appList(rows, details, revoke));
  }
  draw();
  return box;
}

/** "Your apps" (developers): register one, see its client id (and its secret, once). */
export function registeredApps() {
  // The boxes the list and the registration draw into.
  const my = { errors: errorBox(), list: h("div", { class: "apps" }), shown: h("div", { "aria-live": "polite" }) };
  drawRegistered(my.list);
  return h(
    "details",
    { class: "developer-apps" },
    h("summary", null, t("apps.developer")),
    h("p", { class: "muted" }, t("apps.developer_hint")),
    my.list,
    my.shown,
    my.errors.el,
    h(
      "form",
      { onsubmit: (event) => register(my, event), class: "register-app" },
      field({ name: "name", label: t("apps.name"), maxlength: 100, required: true }),
      h(
        "div",
        { class: "field" },
        h("label", { for: "redirect-uris" }, t("apps.redirect_uris")),
        h("textarea", { id: "redirect-uris", name: "redirect_uris", rows: 2, required: true, "aria-describedby": "redirect-uris-hint" }),
        h("p", { class: "hint", id: "redirect-uris-hint" }, t("apps.redirect_uris_hint")),
      ),
      h("label", { class: "choice" }, h("input", { type: "checkbox", name: "confidential" }), t("apps.confidential")),
      h("p", { class: "hint" }, t("apps.confidential_hint")),
      h("button", { type: "submit" }, t("apps.register")),
    ),
  );
}

/** My registered apps into `list`: name, client id, redirect URIs. */
async function drawRegistered(list) {
  const apps = await answerOrSay(list, api.get("me/oauth/apps/"));
  if (!apps) return;
  const details = (a) => [
    h("p", { class: "hint" }, `client_id: `, h("code", null, a.client_id)),
    h("p", { class: "hint" }, a.redirect_uris.join(" ")),
  ];
  patch(list, apps.length ? appList(apps, details) : null);
}

async function register(my, event) {
  event.preventDefault();
  my.errors.clear();
  const form = event.target;
  const data = new FormData(form);
  const body = {
    name: String(data.get("name") || "").trim(),
    redirect_uris: String(data.get("redirect_uris") || "")
      .split(/\s+/)
      .filter(Boolean),
    confidential: data.get("confidential") === "on",
  };
  try {
    const made = await api.post("me/oauth/apps/", body);
    form.reset();
    patch(
      my.shown,
      h(
        "div",
        { class: "panel registered" },
        h("p", null, t("apps.registered", { app: made.name })),
        h("p", null, "client_id: ", h("code", null, made.client_id)),
        made.client_secret ? h("p", null, "client_secret: ", h("code", null, made.client_secret)) : null,
        made.client_secret ? h("p", { class: "hint" }, t("apps.secret_once")) : null,
      ),
    );
    drawRegistered(my.list);
  } catch (error) {
    showError(my.errors, error, form);
  }
}
