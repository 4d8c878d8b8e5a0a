// The consent screen of a third-party app's authorization request (docs/oauth.md): the browser
// arrives at /oauth/authorize with the app's query string; the server checks it (client,
// redirect URI, PKCE, scopes) and names the app; the player allows or denies, and the browser
// goes back to the app with a code, or with error=access_denied.

import { api } from "../api.js";
import { h, patch } from "../dom.js";
import { t } from "../i18n.js";
import { describeError, errorBox } from "./forms.js";

function host(uri) {
  try {
    return new URL(uri).host || uri;
  } catch (_) {
    return uri;
  }
}

export async function mount(root, params, app) {
  const query = location.search;
  const panel = h("section", { class: "panel narrow consent" }, h("p", { class: "boot" }, t("shell.loading")));
  root.append(panel);
  const errors = errorBox();
  let request;
  try {
    request = await api.get(`oauth/authorize/${query}`);
  } catch (error) {
    const back = error.details?.redirect_to;
    patch(
      panel,
      h("h1", null, t("oauth.invalid_title")),
      h("p", null, describeError(error).join(" ")),
      back ? h("a", { class: "button", href: back }, t("oauth.back_to_app")) : null,
    );
    return;
  }
  const answer = async (allow, button) => {
    for (const b of panel.querySelectorAll("button")) b.disabled = true;
    errors.clear();
    try {
      const { redirect_to: target } = await api.post(`oauth/authorize/${query}`, { allow });
      location.assign(target); // the app's own address: leave the client
    } catch (error) {
      errors.show(...describeError(error));
      for (const b of panel.querySelectorAll("button")) b.disabled = false;
      button.focus();
    }
  };
  const me = app.me || {};
  patch(
    panel,
    h("h1", null, t("oauth.title", { app: request.application })),
    request.owner ? h("p", { class: "muted" }, t("oauth.made_by", { owner: request.owner })) : null,
    h("p", null, t("oauth.wants")),
    h(
      "ul",
      { class: "scopes" },
      request.scopes.map((scope) => h("li", { key: scope.name }, t(`oauth.scope.${scope.name}`))),
    ),
    h("p", { class: "muted" }, t("oauth.signed_in_as", { name: me.display_name || me.username || "" })),
    h("p", { class: "muted" }, t("oauth.returns_to", { host: host(request.redirect_uri) })),
    errors.el,
    h(
      "div",
      { class: "inline actions-end" },
      h("button", { type: "button", onclick: (event) => answer(false, event.target) }, t("oauth.deny")),
      h("button", { type: "button", class: "primary", onclick: (event) => answer(true, event.target) }, t("oauth.allow")),
    ),
    h("p", { class: "hint" }, t("oauth.revoke_hint")),
  );
}
