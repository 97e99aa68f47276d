// The client-side router: which page object a path gets, and navigation without reload.
// A page is an object with an optional destroy(); it draws itself into the container it
// is given.  app.js registers the pages (this module knows none of them).

import { t } from "./i18n.js";
import { clear, el } from "./ui.js";

let container = null;
let routes = [];
let page = null; // the current page object

/**
 * Start routing into `root`: `table` is [[pattern (RegExp), (root, ...groups) => page]],
 * tried in order; a path that matches none gets the "Not found" page.
 */
export function startRouter(root, table) {
  container = root;
  routes = table;
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[data-internal]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(link.getAttribute("href"));
  });
  window.addEventListener("popstate", route);
  route();
}

/** Go to `path` inside the application without reloading. */
export function navigate(path) {
  history.pushState(null, "", path);
  route();
}

function route() {
  if (page && page.destroy) page.destroy();
  page = null;
  clear(container);
  const path = location.pathname;
  for (const [pattern, make] of routes) {
    const match = path.match(pattern);
    if (match) {
      page = make(container, ...match.slice(1));
      return;
    }
  }
  container.append(
    el("section", { class: "panel" }, el("h1", {}, t("Not found")),
      el("p", {}, el("a", { href: "/", "data-internal": true }, t("Back to the lobby")))),
  );
}
