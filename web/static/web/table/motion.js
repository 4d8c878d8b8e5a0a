// Cards move (issue 35, item 5): a card played travels from the hand (or the seat that played it)
// to the discard pile, a card drawn from the pile into the hand, and hands swapped or passed go
// from seat to seat. Each motion is short (MOTION_MS) and none runs under prefers-reduced-motion.
//
// The table is drawn anew from each view (dom.js morphs it in place), so the motions are "FLIP"
// ones: where things were is measured before a drawing (`before`), and after it the element that
// changed is moved back there by a transform and let go (`after`). A hand passing between two
// other seats has no element of its own: a card's back flies between the seats' boxes.

export const MOTION_MS = 250;

const reduced = () => Boolean(window.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
const box = (el) => (el ? el.getBoundingClientRect() : null);
const TOP = ".pile-area .card.big[data-key]";

/** Move `el` from the box `from` to where it is now. */
function arrive(el, from) {
  const to = el.getBoundingClientRect();
  if (!from || !to.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(0.5, Math.min(1.5, from.width / to.width));
  el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }], { duration: MOTION_MS, easing: "ease-out" });
}

/** A card's back flying from box `a` to box `b` (a hand passed between seats). */
function fly(a, b) {
  if (!a || !b) return;
  const ghost = document.createElement("div");
  ghost.className = "card back flying";
  ghost.setAttribute("aria-hidden", "true");
  Object.assign(ghost.style, { left: `${a.left + a.width / 2 - 20}px`, top: `${a.top + a.height / 2 - 28}px` });
  document.body.append(ghost);
  const dx = b.left + b.width / 2 - (a.left + a.width / 2);
  const dy = b.top + b.height / 2 - (a.top + a.height / 2);
  const motion = ghost.animate([{ transform: "none" }, { transform: `translate(${dx}px, ${dy}px)` }], { duration: MOTION_MS, easing: "ease-in-out" });
  motion.onfinish = () => ghost.remove();
  motion.oncancel = () => ghost.remove();
}

/** `state` is the table's (table/state.js): whose turn it was, my seat, the newest move. */
export function createMotion(screen, state) {
  let was = null;
  let tapped = null;
  // Where my finger or key played a card: the card's box before it left the hand.
  screen.addEventListener("click", (e) => {
    const card = e.target.closest?.(".hand button.card");
    if (card) tapped = box(card);
  }, true);

  function seatBox(seat, saved) {
    return seat === state.mySeat() ? saved.hand : saved.seats.get(`s${seat}`) ?? null;
  }

  /** Before a drawing of the running table: where the cards and the seats are. */
  function before() {
    const seats = new Map([...screen.querySelectorAll(".opponents .seat[data-key]")].map((el) => [el.dataset.key, box(el)]));
    was = {
      top: screen.querySelector(TOP)?.dataset.key ?? null,
      current: state.game?.table?.current_seat ?? null,
      pile: box(screen.querySelector(".draw-pile")),
      hand: box(screen.querySelector(".hand-area")),
      seats,
    };
  }

  /** The swaps and passes of the newest move, if it is the view's. */
  function exchanges() {
    const move = state.log[state.log.length - 1];
    if (!move || move.version !== state.game?.version) return [];
    return (move.events || []).filter((e) => e.type === "swap" || e.type === "hands_passed");
  }

  /** A 0's pass: every seat's hand to the next seat in the direction of play. */
  function passAround(direction, saved) {
    const n = state.game?.table?.seats?.length ?? 0;
    const step = direction === "clockwise" ? 1 : -1;
    for (let seat = 0; seat < n; seat += 1) fly(seatBox(seat, saved), seatBox((seat + step + n) % n, saved));
  }

  /** After the drawing: what changed moves from where it was. */
  function after() {
    const saved = was;
    was = null;
    const mine = tapped;
    tapped = null;
    if (!saved || reduced()) return;
    const top = screen.querySelector(TOP);
    if (top && saved.top !== null && top.dataset.key !== saved.top) {
      arrive(top, saved.current === state.mySeat() ? mine || saved.hand : seatBox(saved.current, saved));
    }
    const swaps = exchanges();
    const me = state.mySeat();
    const partner = swaps.map((e) => (e.seat === me ? e.target : e.target === me ? e.seat : null)).find((s) => s !== null && s !== undefined);
    const arrivedFrom = swaps.length ? seatBox(partner, saved) : saved.pile;
    for (const li of screen.querySelectorAll(".hand > li.arrived")) arrive(li.firstElementChild, arrivedFrom);
    for (const e of swaps) {
      if (e.type === "swap") fly(seatBox(e.seat, saved), seatBox(e.target, saved));
      else passAround(e.direction, saved);
    }
  }

  return { before, after };
}
