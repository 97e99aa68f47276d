// Small DOM helpers shared by the pages and the board modules.  User text (names,
// comments, records, server messages) is only ever inserted as text nodes: no innerHTML.
// No inline styles either (the Content-Security-Policy has no 'unsafe-inline' for styles):
// appearance comes from classes in style.css and games/<name>.css, `hidden` hides.

import { t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "style") {
      // an inline style attribute: the Content-Security-Policy would refuse it
      throw new TypeError(`no inline style on <${node.tagName}>: use a class in a stylesheet`);
    }
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else node.setAttribute(key, value === true ? "" : String(value));
  }
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: el("button", {class: "x", onclick: f, "data-testid": "t"}, "text"). */
export function el(tag, attrs, ...children) {
  return append(apply(document.createElement(tag), attrs), children);
}

/** An SVG element, attributes set as given. */
export function svg(tag, attrs, ...children) {
  return append(apply(document.createElementNS(SVG_NS, tag), attrs), children);
}

/** Remove every child of `node`. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/**
 * The marker of a side: seat 0 a filled disc (orange), seat 1 a ring with a dot (blue),
 * so that the two sides differ by shape as well as by colour.
 */
export function sideMarker(seat, size = 14) {
  const r = size / 2;
  const root = svg("svg", {
    class: `side-marker side-${seat}`,
    width: size,
    height: size,
    viewBox: `0 0 ${size} ${size}`,
    "aria-hidden": "true",
  });
  if (seat === 0) {
    root.append(svg("circle", { cx: r, cy: r, r: r - 1, class: "marker-fill" }));
  } else {
    root.append(
      svg("circle", { cx: r, cy: r, r: r - 2, class: "marker-ring" }),
      svg("circle", { cx: r, cy: r, r: r / 3, class: "marker-dot" }),
    );
  }
  return root;
}

let dialogOpen = null;

/** A modal dialog with `body` and buttons [{label, value, testid, primary}] → Promise<value>. */
export function dialog(title, body, buttons, { cancelValue = null } = {}) {
  if (dialogOpen) dialogOpen(cancelValue);
  return new Promise((resolve) => {
    const backdrop = el("div", { class: "dialog-backdrop" });
    const box = el("div", {
      class: "dialog",
      role: "dialog",
      "aria-modal": "true",
      "aria-label": title,
      "data-testid": "dialog",
    });
    const finish = (value) => {
      if (dialogOpen !== finish) return;
      dialogOpen = null;
      document.removeEventListener("keydown", onKey, true);
      backdrop.remove();
      resolve(value);
    };
    const onKey = (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        finish(cancelValue);
      }
    };
    dialogOpen = finish;
    const row = el("div", { class: "dialog-buttons" });
    buttons.forEach((b, i) => {
      row.append(
        el(
          "button",
          {
            type: "button",
            class: b.primary ? "primary" : "",
            "data-testid": b.testid || `dialog-button-${i}`,
            onclick: () => finish(b.value),
          },
          b.label,
        ),
      );
    });
    box.append(el("h2", {}, title), body || "", row);
    backdrop.append(box);
    backdrop.addEventListener("click", (event) => {
      if (event.target === backdrop) finish(cancelValue);
    });
    document.addEventListener("keydown", onKey, true);
    document.body.append(backdrop);
    const first = row.querySelector("button.primary") || row.querySelector("button");
    if (first) first.focus();
  });
}

/**
 * The choice dialog offered to board modules: `options` [{label, value}] → Promise of the
 * chosen value, or null when the user cancels (Escape, the Cancel button, a click outside).
 */
export function choose(title, options) {
  const buttons = options.map((o, i) => ({
    label: o.label,
    value: o.value,
    testid: `choice-${i}`,
    primary: i === 0,
  }));
  buttons.push({ label: t("Cancel"), value: null, testid: "choice-cancel" });
  return dialog(title, null, buttons);
}

/** Ask a yes/no question → Promise<boolean>. */
export async function ask(title, text, yes = t("Yes"), no = t("Cancel")) {
  const value = await dialog(title, text ? el("p", {}, text) : null, [
    { label: yes, value: true, testid: "dialog-yes", primary: true },
    { label: no, value: false, testid: "dialog-no" },
  ], { cancelValue: false });
  return value === true;
}

let toastTimer = null;

/** A short message at the bottom of the screen. */
export function toast(text, kind = "info") {
  let box = document.getElementById("toast");
  if (!box) {
    box = el("div", { id: "toast", role: "status", "aria-live": "polite", "data-testid": "toast" });
    document.body.append(box);
  }
  box.textContent = text;
  box.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), 4000);
}

/** Offer `text` as a file download named `filename`. */
export function download(filename, text, type = "text/plain") {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = el("a", { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Copy `text` to the clipboard (falls back to a prompt-like dialog showing it). */
export async function copyText(text, what = t("Link")) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("{what} copied", { what }));
  } catch (_) {
    const input = el("input", { value: text, readonly: true, class: "copy-field", "data-testid": "copy-field" });
    const shown = dialog(what, input, [{ label: t("Close"), value: null, primary: true }]);
    input.select();
    await shown;
  }
}

const sheets = new Map(); // href -> Promise, resolved once the sheet is applied

/**
 * Link the stylesheet `href` (same-origin: the Content-Security-Policy allows it) once, and
 * resolve when it is applied, so that what it styles is never drawn unstyled; a sheet that
 * fails to load is reported in the console (resolves false).  `name` marks the <link>
 * (`data-sheet`).
 */
export function loadStylesheet(href, name) {
  const url = new URL(href, document.baseURI).href;
  if (!sheets.has(url)) {
    sheets.set(url, new Promise((resolve) => {
      const link = el("link", { rel: "stylesheet", href: url, "data-sheet": name || url });
      link.addEventListener("load", () => resolve(true));
      link.addEventListener("error", () => {
        console.warn(`stylesheet ${url} did not load`);
        resolve(false);
      });
      document.head.append(link);
    }));
  }
  return sheets.get(url);
}

/** A board module's stylesheet `games/<name>.css` (`loadStylesheet`, marked `game-<name>`). */
export function loadGameStylesheet(name) {
  return loadStylesheet(new URL(`./games/${name}.css`, import.meta.url).href, `game-${name}`);
}
