// Where the screen looks when my turn comes (issue 35, item 1): the prompt and my hand in sight
// together, so a player with a big hand never scrolls between the question and the cards.
//
// Only when the turn becomes mine (not at every drawing: the person's own scrolling is left
// alone), and by the smallest scroll that shows both; when both cannot fit, the prompt goes to
// the top, under the sticky top bar.

const MARGIN = 8;

/** The smallest scroll that shows `top`..`bottom` between `from` and `to` (viewport pixels). */
export function scrollNeeded(top, bottom, from, to) {
  const least = bottom - to;
  const most = top - from;
  if (least > most) return most; // too tall: its top goes to the top
  return Math.min(Math.max(0, least), most);
}

/** Called after every drawing of the running table: `screen` is the table's element. */
export function createTurnView(screen) {
  let wasMine = false;
  return function afterDraw() {
    const prompt = screen.querySelector(".prompt.mine");
    const mine = Boolean(prompt);
    if (mine && !wasMine) {
      const hand = screen.querySelector(".hand-area") || prompt;
      const bar = document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0;
      const top = (screen.querySelector(".stack-banner") || prompt).getBoundingClientRect().top;
      const by = scrollNeeded(top, hand.getBoundingClientRect().bottom, bar + MARGIN, window.innerHeight - MARGIN);
      if (by) window.scrollBy({ top: by, behavior: "instant" });
    }
    wasMine = mine;
  };
}
