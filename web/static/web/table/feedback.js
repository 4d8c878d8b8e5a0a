// Optional sounds and haptics (issue 35, item 5): a short tone and a tap of vibration when the
// turn comes to me, a tick when a card lands on the pile. Both off by default; each a setting of
// this device, kept in localStorage as the client's other settings are (`uaw.sounds`,
// `uaw.haptics`), switched on the table itself, beside leaving the game.
//
// The tones are made with the Web Audio API (no sound files to load or cache); a browser without
// it, or without `navigator.vibrate`, simply stays quiet.

import { h } from "../dom.js";
import { t } from "../i18n.js";

const KEYS = { sounds: "uaw.sounds", haptics: "uaw.haptics" };
// Each cue: its tones (Hz) one after another, and a vibration pattern (ms).
const CUES = { turn: { tones: [660, 880], buzz: [40] }, play: { tones: [440], buzz: [15] } };
const TONE_S = 0.09;

export const isOn = (what) => localStorage.getItem(KEYS[what]) === "on";

let audio = null;

function tones(list) {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio ||= new Context();
  list.forEach((hz, i) => {
    const start = audio.currentTime + i * TONE_S;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.12, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + TONE_S);
    osc.connect(gain).connect(audio.destination);
    osc.start(start);
    osc.stop(start + TONE_S);
  });
}

/** Play cue `name` as the settings allow. */
export function cue(name) {
  const c = CUES[name];
  if (isOn("sounds")) tones(c.tones);
  if (isOn("haptics")) navigator.vibrate?.(c.buzz);
}

/** `state`: the table's; `render()` draws the toggles again after a change. */
export function createFeedback(state, render) {
  let wasMine = null;
  let top = null;

  /** After every drawing of the running table: a cue for the turn coming, a card played. */
  function afterDraw(screen) {
    const mine = Boolean(state.game?.your_turn);
    const nowTop = screen.querySelector(".pile-area .card.big[data-key]")?.dataset.key ?? null;
    if (mine && wasMine === false) cue("turn");
    else if (top !== null && nowTop !== top) cue("play");
    wasMine = mine;
    top = nowTop;
  }

  /** The two switches, as buttons that say whether they are on. */
  function toggles() {
    const flip = (what) => () => {
      localStorage.setItem(KEYS[what], isOn(what) ? "off" : "on");
      if (isOn(what)) cue("play"); // hear (or feel) what was switched on
      render();
    };
    const one = (what) =>
      h("button", { type: "button", class: `link feedback-${what}`, "aria-pressed": String(isOn(what)), onclick: flip(what) }, t(`table.${what}`));
    return h("div", { class: "feedback-row", role: "group", "aria-label": t("table.feedback") }, one("sounds"), one("haptics"));
  }

  return { afterDraw, toggles };
}
