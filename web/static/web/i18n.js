// Strings in English and Danish. The tables are JSON files next to this module (i18n/en.json,
// i18n/da.json), committed as they are served: there is nothing to compile.
//
// The language is, in this order: the signed-in player's profile (`language`), the one picked
// on this device, the browser's (navigator.languages). Switching saves it to the profile with
// PATCH /api/v1/me/, so notifications (rendered by the server) use it too.

const STORE = "uaw.lang";
const config = JSON.parse(document.getElementById("client-config").textContent);
export const LANGUAGES = config.languages;
const tables = {};
let current = "en";
const listeners = new Set();

export function language() {
  return current;
}

export function browserLanguage() {
  try {
    const stored = localStorage.getItem(STORE);
    if (LANGUAGES.includes(stored)) return stored;
  } catch (_) {
    // storage may be off; fall through
  }
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "nb" || base === "no") continue;
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

async function load(code) {
  if (!tables[code]) {
    const response = await fetch(config.i18n[code]);
    tables[code] = await response.json();
  }
  return tables[code];
}

export async function setLanguage(code, { remember = true } = {}) {
  if (!LANGUAGES.includes(code)) code = "en";
  await Promise.all([load("en"), load(code)]);
  current = code;
  document.documentElement.lang = code;
  if (remember) {
    try {
      localStorage.setItem(STORE, code);
    } catch (_) {
      // not remembered on this device; the profile still has it
    }
  }
  for (const fn of listeners) fn(code);
}

export function onLanguage(fn) {
  listeners.add(fn);
}

/** t("games.title"), t("table.cards", {count: 3}): plural forms are keys ending in _one/_other. */
export function t(key, vars = {}) {
  const table = tables[current] || {};
  const english = tables.en || {};
  let text;
  if (typeof vars.count === "number") {
    const form = new Intl.PluralRules(current).select(vars.count);
    text = table[`${key}_${form}`] ?? table[`${key}_other`] ?? english[`${key}_${form}`];
    text = text ?? english[`${key}_other`];
  }
  text = text ?? table[key] ?? english[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (match, name) => (name in vars ? String(vars[name]) : match));
}

const locale = () => (current === "da" ? "da-DK" : "en-GB");

/** "2 d 3 h", "5 min", "42 s": what is left of a turn. */
export function formatDuration(seconds) {
  seconds = Math.max(0, Math.floor(seconds));
  const d = Math.floor(seconds / 86400);
  const hrs = Math.floor((seconds % 86400) / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const sec = seconds % 60;
  if (d) return hrs ? t("time.dh", { d, h: hrs }) : t("time.d", { count: d });
  if (hrs) return min ? t("time.hm", { h: hrs, m: min }) : t("time.h", { count: hrs });
  if (min) return t("time.ms", { m: min, s: String(sec).padStart(2, "0") });
  return t("time.s", { s: sec });
}

export function formatDateTime(iso) {
  if (!iso) return "";
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(iso),
  );
}

/** "2, 3 and 4" ("2, 3 og 4"). */
export function formatList(items) {
  return new Intl.ListFormat(locale(), { style: "long", type: "conjunction" }).format(items);
}

export function formatNumber(n) {
  return new Intl.NumberFormat(locale()).format(n);
}

/** A change as a signed number: "+14", "-3", "0". */
export function formatSigned(n) {
  return new Intl.NumberFormat(locale(), { signDisplay: "exceptZero" }).format(n);
}
