// Building and updating the page: h() makes elements, morph() updates a live subtree in place.
//
// Screens render their whole markup with h() every time their data changes; morph() then walks
// the old and new trees and changes only what differs. Elements keep their identity (a card in
// your hand is the same <button> before and after a move), so focus stays where it was and
// nothing that did not change moves. Children with a `key` are matched by key, the rest by
// position and tag.

const HANDLERS = ["onclick", "onsubmit", "oninput", "onchange", "onkeydown", "ontoggle"];

/** h("button", {class: "x", onclick: fn}, "text", child, [more]) */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === false || value === null || value === undefined) continue;
      if (name.startsWith("on") && typeof value === "function") {
        el[name] = value;
      } else if (name === "key") {
        el.dataset.key = String(value);
      } else if (name === "value" && (tag === "input" || tag === "select" || tag === "textarea")) {
        el.value = value;
        el.setAttribute("value", value);
      } else if (name === "checked" || name === "selected") {
        el[name] = Boolean(value);
        el.setAttribute(name, "");
      } else {
        el.setAttribute(name, value === true ? "" : String(value));
      }
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of `parent` by `children`, updating in place where possible. */
export function patch(parent, ...children) {
  const next = document.createElement(parent.tagName);
  append(next, children);
  morphChildren(parent, next);
}

function keyOf(node) {
  return node.nodeType === Node.ELEMENT_NODE ? node.dataset.key : undefined;
}

function morphNode(from, to) {
  if (from.nodeType === Node.TEXT_NODE) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return;
  }
  // An open <details> (the game log) stays open: its `open` attribute is the person's, not the data's.
  const keepOpen = from.tagName === "DETAILS" && !to.hasAttribute("data-controlled");
  for (const attr of [...from.attributes]) {
    if (keepOpen && attr.name === "open") continue;
    if (!to.hasAttribute(attr.name)) from.removeAttribute(attr.name);
  }
  for (const attr of [...to.attributes]) {
    if (from.getAttribute(attr.name) !== attr.value) from.setAttribute(attr.name, attr.value);
  }
  for (const name of HANDLERS) {
    if (from[name] !== to[name]) from[name] = to[name];
  }
  if (from.tagName === "INPUT" || from.tagName === "SELECT" || from.tagName === "TEXTAREA") {
    if (document.activeElement !== from && from.value !== to.value) from.value = to.value;
    if (from.checked !== to.checked) from.checked = to.checked;
  }
  if (from.tagName === "DETAILS") {
    // The open state belongs to the person, not to the data.
    if (!to.hasAttribute("data-controlled") && from.open !== to.open) {
      to.open = from.open;
      if (from.open) from.setAttribute("open", "");
    }
  }
  morphChildren(from, to);
}

function morphChildren(parent, next) {
  const old = [...parent.childNodes];
  const byKey = new Map();
  const unkeyed = [];
  for (const node of old) {
    const key = keyOf(node);
    if (key !== undefined) byKey.set(key, node);
    else unkeyed.push(node);
  }
  let position = 0;
  const result = [];
  for (const node of [...next.childNodes]) {
    const key = keyOf(node);
    let match = null;
    if (key !== undefined) {
      const candidate = byKey.get(key);
      if (candidate && candidate.nodeName === node.nodeName) {
        match = candidate;
        byKey.delete(key);
      }
    } else {
      const candidate = unkeyed[position];
      position += 1;
      if (candidate && candidate.nodeName === node.nodeName) match = candidate;
    }
    if (match) morphNode(match, node);
    result.push(match || node);
  }
  const keep = new Set(result);
  for (const node of old) if (!keep.has(node)) node.remove();
  // Nodes already in place are not touched (moving a node would drop its focus).
  let ref = parent.firstChild;
  for (const node of result) {
    if (node === ref) ref = ref.nextSibling;
    else parent.insertBefore(node, ref);
  }
}

/** Show a short message in the polite live region. */
let toastTimer = null;
export function toast(message, { error = false } = {}) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = message;
  el.classList.toggle("error", error);
  el.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), 3000);
}

/** A unique id for label/aria wiring. */
let counter = 0;
export function uid(prefix = "id") {
  counter += 1;
  return `${prefix}-${counter}`;
}
