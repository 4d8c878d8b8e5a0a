// The invite link's page, /join/<code>: sign up or log in first, then join (POST games/join/).

import { api, auth } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { errorBox, showError } from "./forms.js";

export function mount(root, [code], app) {
  const errors = errorBox();
  const here = encodeURIComponent(location.pathname);

  const join = async (event) => {
    const button = event.target;
    button.disabled = true;
    errors.clear();
    try {
      const game = await api.post("games/join/", { invite_code: code });
      app.navigate(`/games/${game.id}`, { replace: true });
    } catch (error) {
      showError(errors, error);
      button.disabled = false;
    }
  };

  root.append(
    h(
      "section",
      { class: "panel narrow" },
      h("h1", null, t("join.title")),
      h("p", null, t("join.intro")),
      errors.el,
      auth.token
        ? h("button", { type: "button", class: "primary wide", onclick: join }, t("join.join"))
        : h(
            "div",
            { class: "stack" },
            h("p", null, t("join.sign_in_first")),
            h("a", { href: `/signup?next=${here}`, "data-link": "", class: "button primary wide" }, t("auth.signup")),
            h("a", { href: `/login?next=${here}`, "data-link": "", class: "button wide" }, t("auth.login")),
          ),
      h("p", null, h("a", { href: "/games", "data-link": "" }, t("nav.back_games"))),
    ),
  );
}
