// Settings: language (saved to the profile), display name, Web Push on this device, which
// notifications come by e-mail, the apps allowed to use the account (views/apps.js), and
// logging out.

import { api, auth } from "../api.js";
import { h, patch, toast } from "../dom.js";
import { language, setLanguage, t } from "../i18n.js";
import { currentSubscription, pushSupported, serverKey, subscribe, unsubscribe } from "../push.js";
import { allowedApps, registeredApps } from "./apps.js";
import { answerOrSay, describeError, errorBox, field, showError } from "./forms.js";

// The channels a person reads; the others (webhooks) go under "Advanced".
const PERSONAL_CHANNELS = ["email", "webpush"];

export function mount(root, params, app) {
  // What the functions below share: the boxes they draw into.
  const my = {
    app,
    errors: errorBox(),
    pushBox: h("div", { class: "push", "aria-live": "polite" }),
    prefsBox: h("div", { class: "prefs" }),
  };
  const me = app.me || {};
  root.append(
    h(
      "section",
      { class: "panel narrow" },
      h("h1", null, t("settings.title")),
      my.errors.el,
      h(
        "div",
        { class: "field" },
        h("label", { for: "language" }, t("settings.language")),
        h(
          "select",
          { id: "language", onchange: (event) => setLanguage(event.target.value) },
          h("option", { value: "en", selected: language() === "en" }, "English"),
          h("option", { value: "da", selected: language() === "da" }, "Dansk"),
        ),
      ),
      h(
        "form",
        { onsubmit: (event) => saveProfile(my, event) },
        field({ name: "display_name", label: t("auth.display_name"), value: me.display_name || "", maxlength: 40, hint: t("auth.display_name_hint") }),
        h("button", { type: "submit" }, t("settings.save")),
      ),
      h("h2", null, t("settings.push")),
      my.pushBox,
      h("h2", null, t("settings.notifications")),
      my.prefsBox,
      h("h2", null, t("apps.title")),
      allowedApps(),
      registeredApps(),
      h("h2", null, t("settings.account")),
      h("p", { class: "muted" }, t("settings.signed_in_as", { name: me.username || "" })),
      h("button", { type: "button", class: "danger", onclick: () => logout(app) }, t("settings.logout")),
    ),
  );
  drawPush(my.pushBox);
  drawPrefs(my.prefsBox);
}

/** Web Push on this device: a switch, or why there is none. */
async function drawPush(pushBox) {
  if (!pushSupported()) {
    patch(pushBox, h("p", { class: "muted" }, t("settings.push_unsupported")));
    return;
  }
  let key = null;
  try {
    key = await serverKey();
  } catch (_) {
    key = null;
  }
  if (!key) {
    patch(pushBox, h("p", { class: "muted" }, t("settings.push_unavailable")));
    return;
  }
  const subscription = await currentSubscription().catch(() => null);
  const on = Boolean(subscription) && Notification.permission === "granted";
  patch(
    pushBox,
    h(
      "label",
      { class: "choice switch-row" },
      h("input", { type: "checkbox", checked: on, onchange: (event) => switchPush(pushBox, key, event) }),
      t("settings.push_toggle"),
    ),
  );
}

async function switchPush(pushBox, key, event) {
  const box = event.target;
  box.disabled = true;
  try {
    if (box.checked) {
      const result = await subscribe(key);
      if (!result.ok) toast(t("settings.push_denied"), { error: true });
    } else {
      await unsubscribe();
    }
  } catch (error) {
    toast(describeError(error).join(" "), { error: true });
  }
  drawPush(pushBox);
}

async function drawPrefs(prefsBox) {
  const prefs = await answerOrSay(prefsBox, api.get("notifications/preferences/"));
  if (!prefs) return;
  const channels = Object.entries(prefs.channels || {});
  // E-mail and push are a person's; any other channel (webhooks) is a program's: tucked away.
  const personal = channels.filter(([channel]) => PERSONAL_CHANNELS.includes(channel));
  const developer = channels.filter(([channel]) => !PERSONAL_CHANNELS.includes(channel));
  patch(
    prefsBox,
    ...personal.map(channelFieldset),
    developer.length
      ? h(
          "details",
          { key: "advanced", class: "advanced" },
          h("summary", null, t("settings.advanced")),
          h("p", { class: "muted" }, t("settings.advanced_hint")),
          developer.map(channelFieldset),
        )
      : null,
  );
}

/** One channel's kinds of notice, each a checkbox saved when changed. */
function channelFieldset([channel, kinds]) {
  return h(
    "fieldset",
    { key: channel, class: "field" },
    h("legend", null, t(`channel.${channel}`) === `channel.${channel}` ? channel : t(`channel.${channel}`)),
    Object.entries(kinds).map(([kind, on]) =>
      h(
        "label",
        { class: "choice", key: kind },
        h("input", {
          type: "checkbox",
          checked: on,
          onchange: async (event) => {
            try {
              await api.put("notifications/preferences/", { channels: { [channel]: { [kind]: event.target.checked } } });
              toast(t("settings.saved"));
            } catch (error) {
              event.target.checked = !event.target.checked;
              toast(describeError(error).join(" "), { error: true });
            }
          },
        }),
        t(`kind.${kind}`) === `kind.${kind}` ? kind : t(`kind.${kind}`),
      ),
    ),
  );
}

async function saveProfile(my, event) {
  event.preventDefault();
  my.errors.clear();
  const data = Object.fromEntries(new FormData(event.target));
  try {
    my.app.me = await api.patch("me/", { display_name: data.display_name.trim() });
    toast(t("settings.saved"));
  } catch (error) {
    showError(my.errors, error, event.target);
  }
}

async function logout(app) {
  try {
    await api.post("auth/logout/", {});
  } catch (_) {
    // the token is forgotten here either way
  }
  await unsubscribe().catch(() => {});
  auth.clear();
  app.me = null;
  app.navigate("/login", { replace: true });
}
