// Conditional moves (docs/web.md "Conditional moves"): in a game between people without a
// live clock (correspondence, or no clock), while it is the opponent's turn, a player writes
// lines "their move, my reply, their move, my reply…", one line per row, the decisions in
// notation separated by spaces; the server checks them from the current position and plays
// the replies when the opponent's moves match.  A turn of several decisions is several
// entries of the line.

import { ApiError, errorText, request } from "./api.js";
import { t, tn } from "./i18n.js";
import { el } from "./ui.js";

function conditionalErrorText(err) {
  if (!(err instanceof ApiError)) return errorText(err);
  const texts = {
    your_turn: t("It is your turn: play your move."),
    conflicting_conditionals: t("Two lines answer the same position differently: keep one."),
    conditionals_not_allowed: t("Conditional moves are for games between people without a live clock."),
  };
  return texts[err.code] || err.message || errorText(err);
}

/** The lines of a text: one per row, decisions separated by spaces or commas. */
export function readLines(text) {
  return String(text || "")
    .split(/\r?\n/)
    .map((row) => row.split(/[\s,]+/).filter(Boolean))
    .filter((line) => line.length);
}

export class ConditionalsPanel {
  /** `page` is the GamePage: its `id`, `token`, `snap`, `you`, `liveView`. */
  constructor(page) {
    this.page = page;
    this.loadedPly = null;
    this.lines = [];
    this.dirty = false;
    this.text = el("textarea", { rows: 4, spellcheck: "false", autocomplete: "off",
      "data-testid": "conditional-lines", "aria-label": t("Conditional moves") });
    this.text.addEventListener("input", () => {
      this.dirty = true;
    });
    this.save = el("button", { type: "button", "data-testid": "conditional-save" }, t("Save"));
    this.save.addEventListener("click", () => this.store());
    this.clearButton = el("button", { type: "button", "data-testid": "conditional-clear" }, t("Clear"));
    this.clearButton.addEventListener("click", () => this.drop());
    this.status = el("p", { class: "meta", "data-testid": "conditional-status" });
    this.error = el("p", { class: "error", "data-testid": "conditional-error", role: "alert", hidden: true });
    this.details = el("details", {},
      el("summary", { "data-testid": "conditionals-toggle" }, t("Conditional moves")),
      el("p", { class: "meta" },
        t("One line per row: their move, your reply, their move, your reply… (decisions separated by spaces). When their moves follow a line, the server plays your replies.")),
      this.text, el("div", { class: "buttons" }, this.save, this.clearButton), this.error);
    this.root = el("section", { class: "panel conditionals", "data-testid": "conditionals", hidden: true },
      this.details, this.status);
  }

  /** Whether conditional moves may be left in this game by this browser. */
  get allowed() {
    const snap = this.page.snap;
    if (!snap || snap.mode !== "online" || !(snap.you === 0 || snap.you === 1)) return false;
    if (snap.status !== "active") return false;
    const control = snap.clock ? snap.clock.control || snap.clock : null;
    return !control || control.kind === "correspondence";
  }

  get theirTurn() {
    const view = this.page.liveView;
    return !!view && view.to_move !== null && view.to_move !== undefined && view.to_move !== this.page.you;
  }

  /** Follow the page (called on each change): show, enable, reload at a new position. */
  update() {
    const shown = this.allowed;
    this.root.hidden = !shown;
    if (!shown) return;
    const editable = this.theirTurn;
    this.text.disabled = !editable;
    this.save.disabled = !editable;
    this.clearButton.disabled = !editable;
    const ply = this.page.snap.ply;
    if (this.loadedPly !== ply) {
      this.loadedPly = ply;
      this.dirty = false; // lines written for another position
      this.load();
    }
    this.renderStatus();
  }

  renderStatus() {
    const n = this.lines ? this.lines.length : 0;
    if (n) this.status.textContent = tn("{n} line waiting", "{n} lines waiting", n);
    else if (!this.theirTurn) this.status.textContent = t("On your turn, play your move.");
    else this.status.textContent = t("No conditional moves.");
  }

  path() {
    return `/api/games/${encodeURIComponent(this.page.id)}/conditionals`;
  }

  show(body) {
    const lines = (body && body.lines) || [];
    if (!this.dirty) this.text.value = lines.map((line) => line.join(" ")).join("\n");
    if (lines.length) this.details.open = true;
    this.lines = lines;
    this.renderStatus();
    this.showError("");
  }

  showError(text) {
    this.error.textContent = text || "";
    this.error.hidden = !text;
  }

  async load() {
    try {
      this.show(await request("GET", this.path(), { token: this.page.token }));
    } catch (err) {
      this.showError(conditionalErrorText(err));
    }
  }

  async store() {
    const lines = readLines(this.text.value);
    try {
      const body = await request("PUT", this.path(),
        { token: this.page.token, body: { ply: this.page.snap.ply, lines } });
      this.dirty = false;
      this.show(body);
    } catch (err) {
      this.showError(conditionalErrorText(err));
    }
  }

  async drop() {
    try {
      const body = await request("DELETE", this.path(), { token: this.page.token });
      this.dirty = false;
      this.show(body);
    } catch (err) {
      this.showError(conditionalErrorText(err));
    }
  }
}
