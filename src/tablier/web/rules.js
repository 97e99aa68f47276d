// A game's rules page (/rules/<game>): the rules the game declares, in the page's language,
// from GET /api/teaching/<game> (docs/web.md): title, introduction, a table of contents,
// the sections (a variant's marked with a badge and a frame), and each diagram drawn by the
// game's own board module, read-only, with its lit cells, arrows and crosses
// (board.drawDiagram, docs/web-client.md "Diagrams"), stepped through with ‹ ›.
//
// Printing: rules.css's print sheet hides the page's controls and lists every frame's
// caption under its diagram; each board shows its first frame while the page is printed.

import { errorText, request } from "./api.js";
import { label, language, localView, t } from "./i18n.js";
import { el, loadGameStylesheet, loadStylesheet } from "./ui.js";

/** The module and stylesheet of a game's board, loaded once per page. */
function loadBoard(game) {
  return Promise.all([
    import(`./games/${game}.js`),
    loadGameStylesheet(game),
  ]).then(([module]) => module);
}

/** One diagram: its board, caption and ‹ › buttons over its frames. */
class DiagramView {
  constructor(module, game, diagram, number) {
    this.game = game;
    this.frames = diagram.frames;
    this.index = 0;
    this.root = el("figure", { class: "diagram", "data-testid": `diagram-${number}` });
    this.boardHost = el("div", { class: "diagram-board", "data-testid": "diagram-board" });
    this.board = module.createBoard(this.boardHost, {});
    this.caption = el("figcaption", { class: "diagram-caption", "data-testid": "diagram-caption",
      "aria-live": "polite" });
    this.counter = el("span", { class: "diagram-counter", "data-testid": "diagram-counter" });
    this.prev = el("button", { type: "button", class: "small", "data-testid": "diagram-prev",
      "aria-label": t("Previous picture"), title: t("Previous picture"),
      onclick: () => this.go(this.index - 1) }, "‹");
    this.next = el("button", { type: "button", class: "small", "data-testid": "diagram-next",
      "aria-label": t("Next picture"), title: t("Next picture"),
      onclick: () => this.go(this.index + 1) }, "›");
    const controls = el("div", { class: "diagram-controls" }, this.prev, this.counter, this.next);
    controls.hidden = this.frames.length < 2;
    // for print: every frame's caption, numbered, with the move that leads to it
    const all = el("ol", { class: "diagram-all-captions", "data-testid": "diagram-all-captions" });
    for (const frame of this.frames) all.append(el("li", {}, this.frameText(frame)));
    this.root.append(this.boardHost, this.caption, controls, all);
    this.go(0);
  }

  frameText(frame) {
    return frame.move ? t("{move}: {caption}", { move: frame.move, caption: frame.caption })
      : frame.caption;
  }

  go(index) {
    this.index = Math.max(0, Math.min(this.frames.length - 1, index));
    const frame = this.frames[this.index];
    const view = localView(this.game, frame.view);
    if (typeof this.board.drawDiagram === "function") {
      this.board.drawDiagram(view, {
        highlights: frame.highlights, arrows: frame.arrows, marks: frame.marks,
        coordinates: true, flipped: false,
      });
    } else {
      // a board module without diagrams: its read-only drawing, the marks only in words
      this.board.render(view, { legal: null, last: null, coordinates: true, flipped: false });
    }
    this.caption.textContent = this.frameText(frame);
    this.caption.append(...this.markWords(frame));
    this.counter.textContent = t("{n} / {total}", { n: this.index + 1, total: this.frames.length });
    this.prev.disabled = this.index === 0;
    this.next.disabled = this.index === this.frames.length - 1;
    this.root.dataset.frame = String(this.index);
  }

  /** The marks in words, for a board that cannot draw them. */
  markWords(frame) {
    if (typeof this.board.drawDiagram === "function") return [];
    const words = [];
    if (frame.highlights.length) words.push(t("lit: {cells}", { cells: frame.highlights.join(", ") }));
    if (frame.arrows.length) {
      words.push(t("arrows: {arrows}", { arrows: frame.arrows.map(([a, b]) => `${a}→${b}`).join(", ") }));
    }
    if (frame.marks.length) words.push(t("crossed: {cells}", { cells: frame.marks.join(", ") }));
    return words.length ? [el("span", { class: "diagram-marks" }, ` (${words.join("; ")})`)] : [];
  }

  destroy() {
    if (this.board.destroy) this.board.destroy();
  }
}

export class RulesPage {
  constructor(container, game) {
    this.game = game;
    this.diagrams = [];
    this.destroyed = false;
    this.root = el("article", { class: "rules-page", "data-testid": "rules-page", "aria-busy": "true" });
    // printed, every diagram shows its first frame (its captions are all listed under it)
    this.shown = null;
    this.beforePrint = () => {
      this.shown = this.diagrams.map((d) => d.index);
      for (const d of this.diagrams) d.go(0);
    };
    this.afterPrint = () => {
      if (this.shown) this.diagrams.forEach((d, i) => d.go(this.shown[i]));
      this.shown = null;
    };
    window.addEventListener("beforeprint", this.beforePrint);
    window.addEventListener("afterprint", this.afterPrint);
    container.append(this.root);
    document.title = label(`game.${game}.title`, game) + " — Tablier";
    this.load().catch((err) => {
      if (this.destroyed) return;
      this.root.removeAttribute("aria-busy");
      this.root.append(el("p", { class: "error", "data-testid": "rules-error" },
        t("Cannot load the rules: {error}", { error: errorText(err) })));
    });
  }

  async load() {
    const path = `/api/teaching/${encodeURIComponent(this.game)}?lang=${encodeURIComponent(language())}`;
    const [doc, module] = await Promise.all([
      request("GET", path),
      loadBoard(this.game),
      loadStylesheet(new URL("./rules.css", import.meta.url).href, "rules"),
    ]);
    if (this.destroyed) return;
    this.draw(doc, module);
    this.root.removeAttribute("aria-busy");
    const anchor = decodeURIComponent(location.hash.slice(1));
    if (anchor) this.scrollTo(anchor);
  }

  scrollTo(key) {
    const target = this.root.querySelector(`[data-section="${CSS.escape(key)}"]`);
    if (target) target.scrollIntoView();
  }

  draw(doc, module) {
    const rules = doc.rules;
    const title = label(`game.${this.game}.title`, this.game);
    document.title = rules.title + " — Tablier";
    const tools = el("nav", { class: "rules-tools", "aria-label": t("Rules page") },
      el("a", { href: "/", "data-internal": true, "data-testid": "rules-lobby" }, t("Back to the lobby")),
      el("a", { href: `/learn/${encodeURIComponent(this.game)}`, "data-internal": true,
        "data-testid": "rules-learn" }, t("Learn {game} step by step", { game: title })),
      el("button", { type: "button", class: "small", "data-testid": "rules-print",
        onclick: () => window.print() }, t("Print")));
    const head = el("header", { class: "rules-head" }, el("h1", {}, rules.title));
    for (const paragraph of rules.intro) head.append(el("p", { class: "rules-intro" }, paragraph));
    const toc = el("ol", {});
    for (const section of rules.sections) {
      const link = el("a", { href: `#${section.key}`, onclick: (event) => {
        // in-page: no route change (the router would redraw the page on popstate)
        event.preventDefault();
        history.replaceState(null, "", `#${section.key}`);
        this.scrollTo(section.key);
      } }, section.title);
      const item = el("li", {}, link);
      if (section.variant) item.append(" ", el("span", { class: "variant-badge small" }, section.variant));
      toc.append(item);
    }
    const contents = el("nav", { class: "rules-toc panel", "data-testid": "rules-toc",
      "aria-labelledby": "rules-toc-h" }, el("h2", { id: "rules-toc-h" }, t("Contents")), toc);
    this.root.append(tools, head, contents);
    let number = 0;
    for (const section of rules.sections) {
      const box = el("section", { class: "rules-section", id: section.key, "data-section": section.key,
        "data-testid": `section-${section.key}` });
      if (section.variant) {
        box.classList.add("variant");
        box.append(el("p", { class: "variant-badge", "data-testid": "variant-badge" },
          t("Variant: {name}", { name: section.variant })));
      }
      box.append(el("h2", {}, section.title));
      for (const paragraph of section.paragraphs) box.append(el("p", {}, paragraph));
      for (const diagram of section.diagrams) {
        const view = new DiagramView(module, this.game, diagram, number++);
        this.diagrams.push(view);
        box.append(view.root);
      }
      if (section.source) box.append(el("p", { class: "rules-source" }, t("Source: {source}", { source: section.source })));
      this.root.append(box);
    }
  }

  destroy() {
    this.destroyed = true;
    window.removeEventListener("beforeprint", this.beforePrint);
    window.removeEventListener("afterprint", this.afterPrint);
    for (const diagram of this.diagrams) diagram.destroy();
  }
}
