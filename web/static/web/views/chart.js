// A rating's history as a small line chart, drawn as SVG with the DOM (no chart library, no
// inline style: the page's Content-Security-Policy allows neither; the look is in css/pages.css).
//
// points: [{at, rating}], oldest first. The chart is an image to assistive technology, named by
// `label` and described by its first and last rating and its range.

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 120;
const PAD = { left: 40, right: 8, top: 10, bottom: 10 };

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) el.setAttribute(name, String(value));
  for (const child of children) if (child) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

/** The y range shown: the ratings' own, widened to at least 40 points so a flat line sits in the middle. */
function range(ratings) {
  let low = Math.min(...ratings);
  let high = Math.max(...ratings);
  if (high - low < 40) {
    const middle = (high + low) / 2;
    low = middle - 20;
    high = middle + 20;
  }
  return [Math.floor(low), Math.ceil(high)];
}

export function ratingChart(points, { label, description }) {
  const ratings = points.map((p) => p.rating);
  const [low, high] = range(ratings);
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (points.length > 1 ? (i * innerW) / (points.length - 1) : innerW / 2);
  const y = (r) => PAD.top + ((high - r) * innerH) / (high - low);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const last = points.length - 1;
  const id = `chart-desc-${Math.random().toString(36).slice(2, 8)}`;
  return svg(
    "svg",
    { class: "rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label, "aria-describedby": id },
    svg("desc", { id }, description),
    svg("line", { class: "chart-grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: y(high), y2: y(high) }),
    svg("line", { class: "chart-grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: y(low), y2: y(low) }),
    svg("text", { class: "chart-axis", x: PAD.left - 4, y: y(high) + 4, "text-anchor": "end" }, high),
    svg("text", { class: "chart-axis", x: PAD.left - 4, y: y(low) + 4, "text-anchor": "end" }, low),
    points.length > 1 ? svg("polyline", { class: "chart-line", points: line }) : null,
    last >= 0 ? svg("circle", { class: "chart-dot", cx: x(last), cy: y(points[last].rating), r: 3.5 }) : null,
  );
}
