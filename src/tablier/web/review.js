// The review page (/review): a record read in the lobby (kept in sessionStorage, so a
// reload keeps it), with the board, move list, history and result of the viewer.

import { analysisHref, ReviewPanel } from "./analysis.js";
import { loadReview, setSetting, settings } from "./store.js";
import { specTitle, t } from "./i18n.js";
import { download, el } from "./ui.js";
import { navigate } from "./router.js";
import { Viewer } from "./viewer.js";

export class ReviewPage {
  constructor(container) {
    document.title = t("Review — Tablier");
    this.data = loadReview();
    this.viewer = new Viewer(null, { onSubmit: () => {} });
    const v = this.viewer;
    this.root = el("div", { class: "game-page review", "data-testid": "review-page" });
    v.host = this.root;
    container.append(this.root);
    if (!this.data || !Array.isArray(this.data.views) || !this.data.views.length) {
      this.root.append(el("section", { class: "panel" }, el("h1", {}, t("No record to review")),
        el("p", {}, el("a", { href: "/", "data-internal": true }, t("Open one from the lobby")))));
      return;
    }
    const headers = el("dl", { class: "headers", "data-testid": "record-headers" },
      el("dt", {}, t("Game")), el("dd", { "data-testid": "record-spec" }, specTitle(this.data), el("br"),
        el("code", { class: "meta" }, String(this.data.spec || this.data.game))));
    for (const [key, value] of Object.entries(this.data.headers || {})) {
      if (key === "Game") continue;
      headers.append(el("dt", {}, key), el("dd", {}, String(value)));
    }
    const coords = el("input", { type: "checkbox", "data-testid": "toggle-coordinates", checked: settings().coordinates });
    coords.addEventListener("change", () => {
      setSetting("coordinates", coords.checked);
      v.render();
    });
    const spec = this.data.spec || this.data.game;
    this.computer = new ReviewPanel({ spec, moves: this.data.moves, onGo: (ply) => v.go(ply) });
    const analyse = el("a", { href: "#", class: "button-link", "data-testid": "analyse-link",
      onclick: (event) => {
        event.preventDefault();
        navigate(analysisHref(spec, this.data.moves, v.shownPly));
      } }, t("Analyse"));
    this.root.append(
      el("div", { class: "board-column" }, v.status, v.banner, v.boardHost, v.historyBar),
      el("aside", { class: "side-column" },
        el("section", { class: "panel" }, el("h2", {}, t("Record")), headers),
        el("section", { class: "panel" }, v.info),
        el("section", { class: "panel" }, el("h2", {}, t("Moves")), v.moveList),
        this.computer.root,
        el("section", { class: "panel" }, analyse, " ",
          el("button", { type: "button", "data-testid": "export-record",
            onclick: () => download(`tablier-${this.data.game}-record.txt`, this.data.text || "") },
          t("Download the record")),
          el("label", { class: "check" }, coords, " ", t("Show coordinates")),
          el("a", { href: "/", "data-internal": true, class: "button-link" }, t("Lobby")))),
    );
    this.start();
  }

  async start() {
    const v = this.viewer;
    v.setHistory(this.data.views, this.data.move_views || [], this.data.moves);
    const last = this.data.views[this.data.views.length - 1];
    v.result = last && last.outcome ? last.outcome : null;
    const tags = this.data.headers || {};
    const winners = { "1-0": 0, "0-1": 1, "1/2-1/2": null };
    if (!v.result && tags.Result in winners) {
      // decided off the board (resignation, agreed draw): the record's tags say how
      v.result = { result: tags.Result, winner: winners[tags.Result], reason: tags.Reason || "",
        message: tags.Reason || "" };
    }
    v.status.textContent = t("Reviewing a record of {game}", { game: specTitle(this.data) });
    await v.ensureBoard(this.data.game);
    v.render();
  }

  destroy() {
    if (this.computer) this.computer.destroy();
    this.viewer.destroy();
  }
}
