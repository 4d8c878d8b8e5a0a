// Form pieces shared by the screens: labelled fields and the error box.

import { h, patch, uid } from "../dom.js";
import { t } from "../i18n.js";
import { OPTIONS } from "../options.js";

/** A labelled input; `hint` is tied to it with aria-describedby. */
export function field({ name, label, type = "text", hint = null, value = "", ...rest }) {
  const id = uid(name);
  const hintId = hint ? `${id}-hint` : null;
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h("input", { id, name, type, value, "aria-describedby": hintId, ...rest }),
    hint ? h("p", { class: "hint", id: hintId }, hint) : null,
  );
}

/** A labelled select of [value, text] options; `attrs` go on the select (an `id` too). */
export function select(name, label, options, value, attrs = {}) {
  const id = attrs.id || uid(name);
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h("select", { id, name, ...attrs }, options.map(([v, text]) => h("option", { value: v, selected: String(v) === String(value) }, text))),
  );
}

/** The bot levels as [value, label] pairs, easiest first. */
export function botLevels() {
  return OPTIONS.bot_levels.map((level) => [level, t(`bot.level_${level}`)]);
}

export function errorBox() {
  const el = h("div", { class: "error-box", role: "alert", hidden: true });
  return {
    el,
    clear() {
      el.hidden = true;
      el.replaceChildren();
    },
    show(...lines) {
      el.replaceChildren(...lines.map((line) => h("p", null, line)));
      el.hidden = false;
    },
  };
}

/** An API error as sentences for a person, with the fields it names marked invalid. */
export function describeError(error) {
  const known = t(`error.${error.code}`);
  const lines = [known !== `error.${error.code}` ? known : error.message || t("error.generic")];
  if (error.code === "weak_password" && error.details?.messages) {
    lines.push(...error.details.messages);
  }
  if (error.code === "invalid_request" && error.details?.fields) {
    for (const [name, problems] of Object.entries(error.details.fields)) {
      const text = Array.isArray(problems) ? problems.join(" ") : JSON.stringify(problems);
      lines.push(`${t(`field.${name}`) !== `field.${name}` ? t(`field.${name}`) : name}: ${text}`);
    }
  }
  if (error.code === "throttled" && error.retryAfter) {
    lines.push(t("error.retry_after", { count: Number(error.retryAfter) }));
  }
  return lines;
}

/** What `request` (an API call) answered; if it was refused, its words drawn into `box` as a
 * muted line instead, and null. */
export async function answerOrSay(box, request) {
  try {
    return await request;
  } catch (error) {
    patch(box, h("p", { class: "muted" }, describeError(error).join(" ")));
    return null;
  }
}

export function showError(box, error, form = null) {
  box.show(...describeError(error));
  if (form) {
    for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
    const fields = error.details?.fields || {};
    for (const name of Object.keys(fields)) {
      const input = form.querySelector(`[name="${name}"]`);
      if (input) input.setAttribute("aria-invalid", "true");
    }
    if (error.code === "username_taken") form.querySelector("[name=username]")?.setAttribute("aria-invalid", "true");
  }
}
