// The puzzles page (/puzzles/<game>): "find the win" on the game's real board.  The puzzles
// come from GET /api/puzzles (a set per variant that ships some: GET /api/puzzles/sets);
// every try is judged on the server by the engine and the solver
// (POST /api/puzzles/check), which answers the position to draw next, the defender's reply
// already played.  The board module is the one a game uses, interactive as in a game.
// What the player has done is kept in this browser (localStorage["tablier.puzzles"]): per
// game, a puzzle rating, the streak of puzzles solved in a row, the best streak and the
// puzzles seen.  See docs/web-client.md, "Puzzles".

import { ApiError, errorText, request } from "./api.js";
import { label, language, localView, t, tn } from "./i18n.js";
import { perGameRecords, savePerGameRecord, settings } from "./store.js";
import { choose, clear, el, loadGameStylesheet } from "./ui.js";

const STORE_KEY = "tablier.puzzles";

/** A player's first rating, before any puzzle: about a two-move win's. */
export const START_RATING = 1000;

/**
 * The new rating after a puzzle: an Elo update against the puzzle's own rating.
 * `solved` is 1 for a puzzle solved with no wrong move, no hint and no solution, else 0;
 * the expected score is 1 / (1 + 10^((puzzle − player) / 400)); the step K is 64 for the
 * first 10 puzzles (a new rating moves fast), then 32.  The result is rounded, never below 100.
 */
export function nextRating(player, puzzle, solved, count) {
  const expected = 1 / (1 + 10 ** ((puzzle - player) / 400));
  const k = count < 10 ? 64 : 32;
  return Math.max(100, Math.round(player + k * ((solved ? 1 : 0) - expected)));
}

/** The record of `game`: {rating, count, streak, best, seen: [puzzle ids]}. */
export function recordOf(game) {
  const entry = perGameRecords(STORE_KEY)[game] || {};
  const number = (v, d) => (Number.isFinite(v) ? v : d);
  return {
    rating: number(entry.rating, START_RATING),
    count: number(entry.count, 0),
    streak: number(entry.streak, 0),
    best: number(entry.best, 0),
    seen: Array.isArray(entry.seen) ? entry.seen.filter((id) => typeof id === "string") : [],
  };
}

function saveRecord(game, record) {
  savePerGameRecord(STORE_KEY, game, record);
}

/** The cells of the board named in `notation` (its words that are a [data-cell] there). */
function cellsIn(notation, host) {
  const cells = new Set([...host.querySelectorAll("[data-cell]")].map((n) => n.dataset.cell));
  return String(notation).split(/[^A-Za-z0-9]+/).filter((word) => cells.has(word));
}

const puzzleApi = {
  sets: (game) => request("GET", `/api/puzzles/sets?game=${encodeURIComponent(game)}`),
  list: (spec) => request("GET", `/api/puzzles?game=${encodeURIComponent(spec)}&limit=100`),
  check: (spec, id, moves, solve = false) =>
    request("POST", `/api/puzzles/check?lang=${encodeURIComponent(language())}`, {
      body: { game: spec, id, moves, solve },
    }),
};

export class PuzzlesPage {
  constructor(container, game) {
    this.game = decodeURIComponent(game);
    this.closed = false;
    this.board = null;
    this.sets = [];
    this.set = null; // the set shown: {variant, spec, count}
    this.puzzles = [];
    this.puzzle = null;
    this.moves = []; // the moves played so far (both sides')
    this.answer = null;
    this.busy = false;
    this.failed = false; // a wrong move, the hint or the solution: not solved cleanly
    this.scored = false;
    this.hintCells = [];
    this.record = recordOf(this.game);
    this.root = el("div", { class: "puzzles-page", "data-testid": "puzzles-page" });
    container.append(this.root);
    document.title = t("Puzzles") + " — Tablier";
    this.load();
  }

  destroy() {
    this.closed = true;
    if (this.observer) this.observer.disconnect();
    if (this.board && this.board.destroy) this.board.destroy();
    this.board = null;
  }

  async load() {
    try {
      this.sets = await puzzleApi.sets(this.game);
      if (!this.sets.length) throw new ApiError(404, "not_found", "");
      await this.loadBoard();
    } catch (err) {
      if (this.closed) return;
      const missing = err instanceof ApiError && err.status === 404;
      this.root.append(el("section", { class: "panel" },
        el("h1", {}, t("Puzzles")),
        el("p", { class: "error", "data-testid": "puzzles-error" },
          missing ? t("There are no puzzles for this game.")
            : t("Cannot load the puzzles: {error}", { error: errorText(err) })),
        el("p", {}, el("a", { href: "/", "data-internal": true }, t("Back to the lobby")))));
      return;
    }
    if (this.closed) return;
    this.build();
    const wanted = new URLSearchParams(location.search).get("set");
    await this.chooseSet(this.sets.find((s) => s.variant === wanted) || this.sets[0]);
  }

  async loadBoard() {
    const name = encodeURIComponent(this.game);
    const [module] = await Promise.all([
      import(`./games/${name}.js`),
      loadGameStylesheet(name),
    ]);
    this.boardHost = el("div", { class: "board-host puzzle-board", "data-testid": "board" });
    this.board = module.createBoard(this.boardHost, {
      submit: (notation) => this.play([].concat(notation)),
      choose,
    });
    this.hintLayer = el("div", { class: "puzzle-hint-layer", "aria-hidden": "true" });
    this.boardWrap = el("div", { class: "puzzle-board-wrap" }, this.boardHost, this.hintLayer);
    // the hint's cells are marked again whenever the board draws itself anew
    this.observer = new MutationObserver(() => this.markHint());
    this.observer.observe(this.boardHost, { childList: true, subtree: true });
  }

  build() {
    const title = label(`game.${this.game}.title`, this.game);
    document.title = t("Puzzles: {game}", { game: title }) + " — Tablier";
    this.setSelect = el("select", { id: "puzzle-set", "data-testid": "puzzle-set" });
    for (const s of this.sets) {
      const name = s.variant ? label(`game.${this.game}.variant.${s.variant}`, s.variant) : title;
      this.setSelect.append(el("option", { value: s.spec }, `${name} (${s.count})`));
    }
    this.setSelect.addEventListener("change", () =>
      this.chooseSet(this.sets.find((s) => s.spec === this.setSelect.value)));
    this.rating = el("strong", { "data-testid": "puzzle-rating" });
    this.streak = el("strong", { "data-testid": "puzzle-streak" });
    this.best = el("strong", { "data-testid": "puzzle-best" });
    this.heading = el("h2", { "data-testid": "puzzle-title" });
    this.about = el("p", { class: "hint", "data-testid": "puzzle-about" });
    this.feedback = el("p", { class: "puzzle-feedback", role: "status", "aria-live": "polite",
      "data-testid": "puzzle-feedback" });
    this.hintText = el("p", { class: "puzzle-hint", "data-testid": "puzzle-hint-text", hidden: true });
    this.solutionText = el("p", { class: "puzzle-solution", "data-testid": "puzzle-solution-text",
      hidden: true });
    this.hintButton = el("button", { type: "button", "data-testid": "puzzle-hint",
      onclick: () => this.showHint() }, t("Hint"));
    this.solveButton = el("button", { type: "button", "data-testid": "puzzle-solution",
      onclick: () => this.showSolution() }, t("Show the solution"));
    this.retryButton = el("button", { type: "button", "data-testid": "puzzle-retry",
      onclick: () => this.start() }, t("Try again"));
    this.nextButton = el("button", { type: "button", class: "primary", "data-testid": "puzzle-next",
      onclick: () => this.next() }, t("Next puzzle"));
    const head = el("section", { class: "panel puzzles-head" },
      el("h1", {}, t("Puzzles: {game}", { game: title })),
      el("div", { class: "row" }, el("label", { for: "puzzle-set" }, t("Puzzle set")), this.setSelect),
      el("p", { class: "puzzle-score" },
        el("span", {}, t("Your puzzle rating"), " ", this.rating),
        el("span", {}, t("Streak"), " ", this.streak),
        el("span", {}, t("Best streak"), " ", this.best)),
      el("p", { class: "hint" }, t("Your rating and streak are kept in this browser."), " ",
        el("a", { href: `/rules/${encodeURIComponent(this.game)}`, "data-internal": true },
          t("Read the rules")), " · ",
        el("a", { href: `/learn/${encodeURIComponent(this.game)}`, "data-internal": true },
          t("Learn step by step"))));
    const panel = el("section", { class: "panel puzzle-panel" },
      this.heading, this.about, this.feedback, this.hintText, this.solutionText,
      el("div", { class: "actions puzzle-actions" },
        this.hintButton, this.solveButton, this.retryButton, this.nextButton));
    this.root.append(head, el("div", { class: "puzzles-body" },
      el("div", { class: "board-column" }, this.boardWrap), panel));
    this.renderScore();
  }

  renderScore() {
    this.rating.textContent = String(this.record.rating);
    this.streak.textContent = String(this.record.streak);
    this.best.textContent = String(this.record.best);
  }

  async chooseSet(set) {
    if (!set) return;
    this.set = set;
    this.setSelect.value = set.spec;
    try {
      this.puzzles = await puzzleApi.list(set.spec);
    } catch (err) {
      this.setFeedback(errorText(err), "error");
      return;
    }
    if (this.closed || this.set !== set) return;
    const wanted = new URLSearchParams(location.search).get("id");
    this.puzzle = this.puzzles.find((p) => p.id === wanted) || this.pick();
    await this.start();
  }

  /** The next puzzle: of those not seen yet, the one rated nearest the player's rating. */
  pick() {
    const seen = new Set(this.record.seen);
    let left = this.puzzles.filter((p) => !seen.has(p.id) && (!this.puzzle || p.id !== this.puzzle.id));
    if (!left.length) {
      // every puzzle of the set seen: start the round again
      const ids = new Set(this.puzzles.map((p) => p.id));
      this.record.seen = this.record.seen.filter((id) => !ids.has(id));
      left = this.puzzles.filter((p) => !this.puzzle || p.id !== this.puzzle.id);
      if (!left.length) left = this.puzzles;
    }
    let best = left[0];
    for (const p of left) {
      if (Math.abs(p.rating - this.record.rating) < Math.abs(best.rating - this.record.rating)) best = p;
    }
    return best;
  }

  /** Show the puzzle from its position (a new try: a retry does not undo a failure). */
  async start() {
    const puzzle = this.puzzle;
    this.moves = [];
    this.answer = null;
    this.hintCells = [];
    this.hintText.hidden = true;
    this.solutionText.hidden = true;
    this.boardHost.dataset.puzzle = puzzle.id;
    this.heading.textContent = t("Find the win");
    this.setFeedback("", "");
    this.nextButton.hidden = true;
    await this.ask([]);
    if (!this.answer) return;
    const side = (this.answer.view.players || [])[this.answer.view.to_move];
    const player = label(`game.${this.game}.player.${this.answer.view.to_move}`, side || "");
    const task = tn("{player} to play and win in {n} move.",
      "{player} to play and win within {n} moves, the replies included.", puzzle.depth, { player });
    this.about.textContent = task + " " + t("Puzzle rating: {rating}.", { rating: puzzle.rating });
  }

  async next() {
    this.puzzle = this.pick();
    this.failed = false;
    this.scored = false;
    await this.start();
  }

  /** Send the moves so far; draw the answer. */
  async ask(moves, solve = false) {
    const puzzle = this.puzzle;
    this.busy = true;
    this.boardHost.dataset.ready = "0";
    let answer;
    try {
      answer = await puzzleApi.check(this.set.spec, puzzle.id, moves, solve);
    } catch (err) {
      if (this.closed || puzzle !== this.puzzle) return null;
      this.boardHost.dataset.ready = "1";
      this.setFeedback(errorText(err), "error");
      return null;
    } finally {
      this.busy = false;
    }
    if (this.closed || puzzle !== this.puzzle) return null;
    this.answer = answer;
    this.moves = answer.moves || [];
    this.draw(answer.view, answer.done ? null : answer.legal, answer.last);
    this.boardHost.dataset.moves = String(this.moves.length);
    this.boardHost.dataset.ready = "1"; // drawn with the moves to choose from (tests wait on it)
    this.hintButton.hidden = answer.done;
    this.solveButton.hidden = answer.done;
    this.retryButton.hidden = answer.done || !this.moves.length;
    return answer;
  }

  /** The player's try: `notation` (one decision or several) played on the board. */
  async play(notation) {
    if (this.busy || !this.answer || this.answer.done) {
      if (this.board) this.board.reset();
      return;
    }
    this.hintCells = [];
    this.markHint();
    const answer = await this.ask([...this.moves, ...notation]);
    if (!answer) return;
    if (!answer.ok) {
      this.fail();
      this.setFeedback(answer.message || t("That move does not win: try again."), "wrong");
      return;
    }
    if (answer.done) {
      this.finish();
      return;
    }
    const said = answer.message || t("Good move: keep going.");
    const reply = answer.reply ? " " + t("The reply: {move}.", { move: answer.reply }) : "";
    this.setFeedback(said + reply, "good");
  }

  /** A wrong move, the hint or the solution: the puzzle counts as not solved (once). */
  fail() {
    if (this.failed) return;
    this.failed = true;
    this.score(false);
  }

  finish() {
    const clean = !this.failed;
    if (clean) this.score(true);
    this.setFeedback(clean ? t("Solved! Your streak goes on.") : t("Solved, with help: the streak starts again."),
      "success");
    this.heading.textContent = t("Solved!");
    this.nextButton.hidden = false;
    this.nextButton.focus();
  }

  /** Count the puzzle once: the rating, the streak, the puzzles seen. */
  score(solved) {
    if (this.scored) return;
    this.scored = true;
    const r = this.record;
    r.rating = nextRating(r.rating, this.puzzle.rating, solved, r.count);
    r.count += 1;
    r.streak = solved ? r.streak + 1 : 0;
    r.best = Math.max(r.best, r.streak);
    if (!r.seen.includes(this.puzzle.id)) r.seen.push(this.puzzle.id);
    saveRecord(this.game, r);
    this.renderScore();
  }

  /** The hint: the cells of the next winning move (the first the solution's move names),
   *  or its first letters when it names none. */
  showHint() {
    const move = this.puzzle.solution[this.moves.length];
    if (!move) return;
    this.fail();
    const cells = cellsIn(move, this.boardHost);
    this.hintCells = cells.slice(0, 1);
    this.hintText.textContent = cells.length ? t("Look at {cell}.", { cell: cells[0] })
      : t("The move starts with “{start}”.", { start: move.slice(0, 1) });
    this.hintText.hidden = false;
    this.markHint();
  }

  async showSolution() {
    this.fail();
    const answer = await this.ask([], true);
    if (!answer) return;
    const then = t(", then ");
    const moves = (answer.solution || []).join(then);
    this.solutionText.textContent = t("The solution: {moves}. Play it on the board to go on.", { moves });
    this.solutionText.hidden = false;
    this.setFeedback("", "");
  }

  /** Ring the hint's cells: the class hint-cell on their elements, a ring over each. */
  markHint() {
    if (!this.boardHost) return;
    const cells = new Set(this.hintCells);
    const lit = [];
    for (const node of this.boardHost.querySelectorAll("[data-cell]")) {
      const on = cells.has(node.dataset.cell);
      if (node.classList.contains("hint-cell") !== on) node.classList.toggle("hint-cell", on);
      if (on) lit.push(node);
    }
    clear(this.hintLayer);
    const origin = this.boardWrap.getBoundingClientRect();
    for (const node of lit) {
      const box = node.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      const ring = el("div", { class: "puzzle-hint-ring" });
      ring.style.left = `${box.left - origin.left}px`;
      ring.style.top = `${box.top - origin.top}px`;
      ring.style.width = `${box.width}px`;
      ring.style.height = `${box.height}px`;
      this.hintLayer.append(ring);
    }
  }

  setFeedback(text, kind) {
    this.feedback.textContent = text;
    this.feedback.dataset.kind = kind;
  }

  /** Draw `view` on the board: `legal` its moves to choose from (null: look only). */
  draw(view, legal, last) {
    if (!this.board || !view) return;
    const s = settings();
    this.board.reset();
    this.board.render(localView(this.game, view), {
      legal: legal && legal.length ? legal : null,
      last: last || null,
      coordinates: s.coordinates,
      flipped: s.flip,
    });
    this.markHint();
  }
}
