// Sign up (POST auth/signup/) and log in (POST auth/tokens/): both end with a bearer token
// for this device.

import { api, auth } from "../api.js";
import { h, toast } from "../dom.js";
import { language, setLanguage, t } from "../i18n.js";
import { field, errorBox, showError } from "./forms.js";

// Where to go once signed in (`?next=`): a path on this site, else "/games". The URL parser, not a
// prefix test, decides: it reads `/\host/` and `/<tab>/host/` (it drops tabs and newlines) as
// `//host/`, another site. The path must also start with one "/", then no "/" or "\".
function sameSitePath(raw, fallback = "/games") {
  if (!raw || !/^\/(?![/\\])/.test(raw)) return fallback;
  let url;
  try {
    url = new URL(raw, location.origin);
  } catch (_) {
    return fallback;
  }
  if (url.origin !== location.origin) return fallback;
  return url.pathname + url.search + url.hash;
}

function nextPath() {
  return sameSitePath(new URLSearchParams(location.search).get("next"));
}

function deviceName() {
  const ua = navigator.userAgentData?.platform || navigator.platform || "";
  return `${t("auth.device")}${ua ? ` (${ua})` : ""}`.slice(0, 60);
}

function timeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch (_) {
    return "UTC";
  }
}

async function finish(app, token) {
  auth.set(token);
  const me = await app.loadMe();
  if (me && me.language && me.language !== language()) await setLanguage(me.language);
  app.navigate(nextPath(), { replace: true });
}

/** A new account (POST auth/signup/), in the browser's time zone when the server knows it. */
async function signUp(app, data) {
  const body = {
    username: data.username.trim(),
    password: data.password,
    display_name: (data.display_name || "").trim(),
    language: language(),
    time_zone: timeZone(),
    token_name: deviceName(),
  };
  if (data.email) body.email = data.email.trim();
  let answer;
  try {
    answer = await api.post("auth/signup/", body);
  } catch (error) {
    if (error.code === "invalid_request" && error.details?.fields?.time_zone) {
      answer = await api.post("auth/signup/", { ...body, time_zone: "UTC" });
    } else throw error;
  }
  await finish(app, answer.token.token);
  toast(t("auth.welcome", { name: answer.user.display_name || answer.user.username }));
}

async function logIn(app, data) {
  const answer = await api.post("auth/tokens/", {
    username: data.username.trim(),
    password: data.password,
    name: deviceName(),
  });
  await finish(app, answer.token);
}

export function mount(root, params, app) {
  const signup = location.pathname.startsWith("/signup");
  const errors = errorBox();
  const query = location.search;

  const onSubmit = async (event) => {
    event.preventDefault();
    const form = event.target;
    const data = Object.fromEntries(new FormData(form));
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    errors.clear();
    try {
      await (signup ? signUp : logIn)(app, data);
    } catch (error) {
      showError(errors, error, form);
      button.disabled = false;
    }
  };

  const title = signup ? t("auth.signup_title") : t("auth.login_title");
  root.append(
    h(
      "section",
      { class: "panel narrow" },
      h("h1", null, title),
      h("p", { class: "muted" }, signup ? t("auth.signup_intro") : t("auth.login_intro")),
      errors.el,
      h(
        "form",
        { onsubmit: onSubmit, novalidate: true },
        field({ name: "username", label: t("auth.username"), autocomplete: "username", required: true, maxlength: 150 }),
        field({
          name: "password",
          type: "password",
          label: t("auth.password"),
          autocomplete: signup ? "new-password" : "current-password",
          required: true,
          hint: signup ? t("auth.password_hint") : null,
        }),
        signup ? field({ name: "display_name", label: t("auth.display_name"), maxlength: 40, hint: t("auth.display_name_hint") }) : null,
        signup ? field({ name: "email", type: "email", label: t("auth.email"), autocomplete: "email", hint: t("auth.email_hint") }) : null,
        h("button", { type: "submit", class: "primary wide" }, signup ? t("auth.signup") : t("auth.login")),
      ),
      // The other way in, a full-width target right under the form's button (it was a 19 px
      // high link in a sentence: about five seconds to find on a phone).
      h("p", { class: "switch", id: "switch-hint" }, signup ? t("auth.have_account") : t("auth.no_account")),
      h(
        "a",
        { href: (signup ? "/login" : "/signup") + query, "data-link": "", class: "button switch-button", "aria-describedby": "switch-hint" },
        signup ? t("auth.login") : t("auth.signup"),
      ),
    ),
  );
  const first = root.querySelector("input");
  if (first) setTimeout(() => first.focus(), 0);
}
