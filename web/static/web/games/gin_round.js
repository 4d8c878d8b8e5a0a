// Gin Rummy's round end (games/gin_rummy.js; the rules: docs/gin_rummy.md): how the round ended
// in a line, each seat's layout (melds, cards laid off onto the other's melds, deadwood, the knock
// discard), the scores now, and the last round kept on the table under "Last round". All of it is
// drawn from a round result of the view (`table.round_results`, the `round_over` event).

import { h } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { cardName, cardSymbol, faceCard } from "./gin_cards.js";

const HOW = ["knock", "undercut", "gin", "big_gin", "wall"];

/** One seat's layout at the end of a round: melds, cards laid off (with the meld), deadwood. */
function seatLayout(nameOf, r, seat) {
  const layout = (r.layouts || {})[String(seat)] || { melds: [], layoffs: [], deadwood: [], count: 0 };
  const other = (r.layouts || {})[String(1 - seat)] || { melds: [] };
  const knocker = r.knocker === seat;
  const title = t(knocker ? "gin.layout_knocker" : "gin.layout_seat", { name: nameOf(seat) });
  return h(
    "section",
    { key: `lay${seat}`, class: "gin-layout", "aria-label": title },
    h("h3", null, title),
    h(
      "ul",
      { class: "gin-melds" },
      (layout.melds || []).map((meld) =>
        h("li", { key: meld.join(""), class: "gin-meld-row", "aria-label": t("gin.meld_label", { cards: meld.map(cardName).join(", ") }) }, meld.map((id) => faceCard(id, "small"))),
      ),
    ),
    (layout.layoffs || []).length
      ? h(
          "ul",
          { class: "gin-layoffs" },
          layout.layoffs.map((off) => {
            const onto = (other.melds || [])[off.meld] || [];
            const words = t("gin.layoff_label", { card: cardName(off.card), meld: onto.map(cardName).join(", ") });
            return h("li", { key: `lo${off.card}`, class: "gin-layoff", "aria-label": words }, faceCard(off.card, "small laid-off"), h("span", { "aria-hidden": "true" }, t("gin.laid_off", { meld: onto.map(cardSymbol).join(" ") })));
          }),
        )
      : null,
    h(
      "div",
      { class: "gin-dead-row" },
      h("span", { class: "gin-group-label" }, t("gin.deadwood_count", { count: formatNumber(layout.count ?? 0) })),
      h("span", { class: "gin-dead-cards" }, (layout.deadwood || []).map((id) => faceCard(id, "small"))),
    ),
    knocker && r.knock_discard
      ? h("p", { class: "gin-knock-discard" }, t("gin.knock_discard", { card: cardName(r.knock_discard) }))
      : null,
  );
}

/** The round's end in words: how it ended, the counts, the points. */
export function roundLine(nameOf, r) {
  const how = HOW.includes(r.how) ? r.how : "knock";
  if (typeof r.winner !== "number") return t("gin.result_wall", { round: r.round });
  return t(`gin.result_${how}`, {
    round: r.round,
    knocker: nameOf(r.knocker),
    winner: nameOf(r.winner),
    points: formatNumber(r.points),
    mine: formatNumber(r.knocker_count ?? 0),
    theirs: formatNumber(r.defender_count ?? 0),
  });
}

export function roundSummary(ctx, r) {
  const { nameOf } = ctx;
  const me = ctx.game.table ? ctx.game.table.you : 0;
  const bonuses = Array.isArray(r.bonuses) ? r.bonuses : null;
  return [
    h("p", { class: "result-banner gin-result" }, roundLine(nameOf, r)),
    h("div", { class: "gin-layouts" }, [me, 1 - me].map((seat) => seatLayout(nameOf, r, seat))),
    h(
      "table",
      { class: "scores" },
      h("caption", null, t("results.scores_now")),
      h(
        "thead",
        null,
        h("tr", null, h("th", { scope: "col" }, t("results.player")), h("th", { scope: "col" }, t("gin.rounds_won")), h("th", { scope: "col" }, t("results.score"))),
      ),
      h(
        "tbody",
        null,
        [0, 1].map((seat) =>
          h(
            "tr",
            { key: `rs${seat}` },
            h("th", { scope: "row" }, nameOf(seat)),
            h("td", null, formatNumber((r.rounds_won || [])[seat] ?? 0)),
            h("td", null, formatNumber((r.final_scores || r.scores || [])[seat] ?? 0)),
          ),
        ),
      ),
    ),
    bonuses ? h("p", { class: "gin-bonuses" }, t("gin.bonuses", { first: nameOf(0), a: formatNumber(bonuses[0]), second: nameOf(1), b: formatNumber(bonuses[1]) })) : null,
  ].filter(Boolean); // the round dialog appends these as they are: no "null" in it
}

/** The last round's layout stays on the table (closed) after its dialog is gone. */
export function lastRound(ctx, table) {
  const results = Array.isArray(table.round_results) ? table.round_results : [];
  if (!results.length) return null;
  const r = results[results.length - 1];
  return h(
    "details",
    { key: `last${r.round}`, class: "gin-last-round" },
    h("summary", null, t("gin.last_round", { round: r.round })),
    ...roundSummary(ctx, r),
  );
}
