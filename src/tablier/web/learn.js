// The tutorial page (/learn/<game>): a game's lesson, one step at a time, on the game's real
// board.  The lesson comes from GET /api/teaching/<game> (its texts in the page's language);
// each move the player makes by clicks is judged by the engine on the server
// (POST /api/teaching/<game>/check), which answers the position to draw next.  The board
// module is the one a game uses, interactive as in a game: its submit(notation) is the
// player's try.  Progress is kept in this browser (localStorage["tablier.learn"]):
// completed steps, the step to resume at.  The last step leads to a short game against the
// `easy` computer, created as the lobby creates one.  See docs/web-client.md.

import { api, ApiError, errorText, request } from "./api.js";
import { label, language, localView, t, tn } from "./i18n.js";
import { navigate } from "./router.js";
import { perGameRecords, rememberGame, savePerGameRecord, settings } from "./store.js";
import { ask, choose, clear, el, loadGameStylesheet } from "./ui.js";

const PROGRESS_KEY = "tablier.learn";

/** The progress of `game`: {done: Set of step keys, at: step key or null}. */
export function progressOf(game) {
  const entry = perGameRecords(PROGRESS_KEY)[game] || {};
  const done = Array.isArray(entry.done) ? entry.done.filter((k) => typeof k === "string") : [];
  return { done: new Set(done), at: typeof entry.at === "string" ? entry.at : null };
}

/** Keep the progress of `game` (null forgets it). */
export function saveProgress(game, progress) {
  const record = progress ? { done: [...progress.done], at: progress.at } : null;
  savePerGameRecord(PROGRESS_KEY, game, record);
}

/** A game spec ("volo:board=mini,edition=current") → {game, options}. */
export function readSpec(spec) {
  const [name, rest] = String(spec).split(/:(.*)/s);
  const options = {};
  for (const part of (rest || "").split(",")) {
    const [key, value] = part.split(/=(.*)/s);
    if (key && value !== undefined) options[key.trim()] = value.trim();
  }
  return { game: name.trim(), options };
}

const teaching = {
  lesson: (game) =>
    request("GET", `/api/teaching/${encodeURIComponent(game)}?lang=${encodeURIComponent(language())}`),
  check: (game, step, moves, solve = false) =>
    request("POST", `/api/teaching/${encodeURIComponent(game)}/check?lang=${encodeURIComponent(language())}`, {
      body: { step, moves, solve },
    }),
};

export class LearnPage {
  constructor(container, game) {
    this.game = decodeURIComponent(game);
    this.closed = false;
    this.lesson = null;
    this.index = 0; // the step shown
    this.moves = []; // the decisions accepted so far in this step
    this.answer = null; // the server's last answer for this step
    this.busy = false;
    this.board = null;
    this.hintShown = false;
    this.progress = progressOf(this.game);
    this.root = el("div", { class: "learn-page", "data-testid": "learn-page" });
    container.append(this.root);
    document.title = t("Tutorial") + " — Tablier";
    this.load();
  }

  destroy() {
    this.closed = true;
    if (this.observer) this.observer.disconnect();
    if (this.resized) this.resized.disconnect();
    if (this.board && this.board.destroy) this.board.destroy();
    this.board = null;
  }

  async load() {
    let data;
    try {
      data = await teaching.lesson(this.game);
      await this.loadBoard();
    } catch (err) {
      if (this.closed) return;
      const missing = err instanceof ApiError && err.status === 404;
      this.root.append(el("section", { class: "panel" },
        el("p", { class: "error", "data-testid": "learn-error" },
          missing ? t("There is no tutorial for this game.")
            : t("Cannot load the tutorial: {error}", { error: errorText(err) })),
        el("p", {}, el("a", { href: "/", "data-internal": true }, t("Back to the lobby")))));
      return;
    }
    if (this.closed) return;
    this.lesson = data.lesson;
    const title = label(`game.${this.game}.title`, this.game);
    document.title = (this.lesson.title || title) + " — Tablier";
    this.build(title);
    const steps = this.lesson.steps || [];
    const at = steps.findIndex((s) => s.key === this.progress.at);
    this.show(at >= 0 ? at : 0);
  }

  async loadBoard() {
    const name = encodeURIComponent(this.game);
    const [module] = await Promise.all([import(`./games/${name}.js`), loadGameStylesheet(name)]);
    this.boardHost = el("div", { class: "board-host learn-board", "data-testid": "board" });
    this.board = module.createBoard(this.boardHost, {
      submit: (notation) => this.play([].concat(notation)),
      choose,
    });
    // the hint's cells are marked again whenever the board draws itself anew
    // rings drawn over the board (boards paint later cells over an earlier cell's marks)
    this.hintLayer = el("div", { class: "learn-hint-layer", "aria-hidden": "true" });
    this.boardWrap = el("div", { class: "learn-board-wrap" }, this.boardHost, this.hintLayer);
    this.observer = new MutationObserver(() => this.markHint());
    this.observer.observe(this.boardHost, { childList: true, subtree: true });
    this.resized = new ResizeObserver(() => this.markHint());
    this.resized.observe(this.boardWrap);
  }

  build(title) {
    const lesson = this.lesson;
    const total = (lesson.steps || []).length;
    this.bar = el("progress", { max: total, value: 0, "data-testid": "learn-progress",
      "aria-label": t("Progress") });
    this.count = el("span", { class: "meta", "data-testid": "learn-count" });
    this.stepList = el("ol", { class: "learn-steps", "data-testid": "learn-steps" });
    const reset = el("button", { type: "button", class: "small", "data-testid": "learn-reset",
      onclick: () => this.reset() }, t("Start again"));
    const head = el("section", { class: "panel learn-head" },
      el("h1", {}, lesson.title || title),
      lesson.intro ? el("p", { class: "learn-intro" }, lesson.intro) : null,
      el("div", { class: "learn-progress" }, this.bar, this.count, reset),
      el("p", { class: "hint" }, t("Your progress is kept in this browser."),
        " ", el("a", { href: `/rules/${encodeURIComponent(this.game)}`, "data-testid": "learn-rules" },
          t("Read the rules"))));
    this.stepTitle = el("h2", { "data-testid": "learn-step-title" });
    this.stepText = el("div", { class: "learn-text", "data-testid": "learn-text" });
    this.task = el("p", { class: "learn-task", "data-testid": "learn-task" });
    this.feedback = el("p", { class: "learn-feedback", role: "status", "aria-live": "polite",
      "data-testid": "learn-feedback" });
    this.hintText = el("p", { class: "learn-hint", "data-testid": "learn-hint-text", hidden: true });
    this.hintButton = el("button", { type: "button", "data-testid": "learn-hint",
      onclick: () => this.showHint() }, t("Hint"));
    this.solveButton = el("button", { type: "button", "data-testid": "learn-solution",
      onclick: () => this.showSolution() }, t("Show the solution"));
    this.retryButton = el("button", { type: "button", "data-testid": "learn-retry",
      onclick: () => this.show(this.index) }, t("Try again"));
    this.prevButton = el("button", { type: "button", "data-testid": "learn-prev",
      onclick: () => this.show(this.index - 1) }, t("Previous step"));
    this.nextButton = el("button", { type: "button", class: "primary", "data-testid": "learn-next",
      onclick: () => this.next() }, t("Next"));
    this.final = el("section", { class: "panel learn-final", "data-testid": "learn-final", hidden: true });
    const panel = el("section", { class: "panel learn-panel" },
      this.stepTitle, this.stepText, this.task, this.feedback, this.hintText,
      el("div", { class: "actions learn-actions" },
        this.hintButton, this.solveButton, this.retryButton, this.prevButton, this.nextButton));
    this.root.append(head,
      el("div", { class: "learn-body" },
        el("nav", { class: "panel learn-nav", "aria-label": t("Steps") }, this.stepList),
        el("div", { class: "board-column" }, this.boardWrap),
        el("div", { class: "learn-side" }, panel, this.final)));
  }

  get step() {
    return (this.lesson.steps || [])[this.index];
  }

  renderProgress() {
    const steps = this.lesson.steps || [];
    const done = steps.filter((s) => this.progress.done.has(s.key)).length;
    this.bar.value = done;
    this.count.textContent = tn("{n} step of {total} done", "{n} steps of {total} done", done,
      { total: steps.length });
    clear(this.stepList);
    steps.forEach((s, i) => {
      const finished = this.progress.done.has(s.key);
      this.stepList.append(el("li", { class: i === this.index ? "current" : "" },
        el("button", {
          type: "button",
          class: `learn-step${finished ? " done" : ""}`,
          "data-testid": "learn-step",
          "data-step": s.key,
          "data-done": finished ? "1" : "0",
          "aria-current": i === this.index ? "step" : false,
          onclick: () => this.show(i),
        }, el("span", { class: "tick", "aria-hidden": "true" }, finished ? "✓" : String(i + 1)),
        " ", s.title,
        finished ? el("span", { class: "visually-hidden" }, " " + t("(done)")) : null)));
    });
  }

  /** Show step `index` from its position (a new try). */
  async show(index) {
    const steps = this.lesson.steps || [];
    if (index < 0 || index >= steps.length) return;
    this.index = index;
    this.moves = [];
    this.answer = null;
    this.hintShown = false;
    this.progress.at = steps[index].key;
    saveProgress(this.game, this.progress);
    const step = this.step;
    this.stepTitle.textContent = t("Step {n} of {total}: {title}",
      { n: index + 1, total: steps.length, title: step.title });
    clear(this.stepText);
    for (const paragraph of String(step.text || "").split(/\n\s*\n/)) {
      if (paragraph.trim()) this.stepText.append(el("p", {}, paragraph.trim()));
    }
    this.task.textContent = step.task || "";
    this.task.hidden = !step.task;
    this.setFeedback("", "");
    this.hintText.hidden = true;
    this.hintButton.hidden = !step.hint && !(step.hint_cells || []).length;
    this.final.hidden = true;
    this.prevButton.disabled = index === 0;
    this.boardHost.dataset.step = step.key;
    this.renderProgress();
    this.draw(step.view, null, null);
    await this.ask([]);
  }

  /** Send the moves of this step so far (or ask for the solution); draw the answer. */
  async ask(moves, solve = false) {
    const step = this.step;
    const index = this.index;
    this.busy = true;
    this.boardHost.dataset.ready = "0";
    let answer;
    try {
      answer = await teaching.check(this.game, step.key, moves, solve);
    } catch (err) {
      if (this.closed || index !== this.index) return null;
      this.boardHost.dataset.ready = "1";
      this.setFeedback(errorText(err), "error");
      this.draw(this.answer ? this.answer.view : step.view, this.answer && this.answer.legal, null);
      return null;
    } finally {
      this.busy = false;
    }
    if (this.closed || index !== this.index) return null;
    this.answer = answer;
    const waiting = !answer.done;
    this.draw(answer.view, waiting ? answer.legal : null, answer.last);
    this.boardHost.dataset.ready = "1"; // drawn with the moves to choose from (tests wait on it)
    this.solveButton.hidden = answer.done || step.decisions === 0;
    this.retryButton.hidden = step.decisions === 0;
    this.nextButton.hidden = !answer.done;
    this.nextButton.textContent = index + 1 < (this.lesson.steps || []).length ? t("Next") : t("Finish");
    if (answer.done) this.complete();
    return answer;
  }

  /** The player's try: `notation` (one decision or several) played on the board. */
  async play(notation) {
    if (this.busy || !this.answer || this.answer.done) {
      if (this.board) this.board.reset();
      return;
    }
    const tried = [...this.moves, ...notation];
    const answer = await this.ask(tried);
    if (!answer) return;
    if (!answer.ok) {
      this.moves = [];
      this.setFeedback(answer.message || t("That is not the move this step asks for: try again."), "wrong");
      return;
    }
    this.moves = tried;
    if (answer.done) {
      const said = answer.message || t("Well done!");
      const reply = answer.reply ? t("The answer: {move}.", { move: answer.reply }) : "";
      this.setFeedback(reply ? said + " " + reply : said, "success");
      this.nextButton.focus(); // Enter goes on
    } else {
      this.setFeedback(t("Good. Go on: this step is not over yet."), "good");
    }
  }

  complete() {
    const step = this.step;
    if (!this.progress.done.has(step.key)) {
      this.progress.done.add(step.key);
      saveProgress(this.game, this.progress);
    }
    if (step.decisions === 0) this.setFeedback("", "");
    this.renderProgress();
    if (this.index + 1 === (this.lesson.steps || []).length) this.showFinal();
  }

  next() {
    const steps = this.lesson.steps || [];
    if (this.index + 1 < steps.length) {
      this.show(this.index + 1);
      return;
    }
    this.showFinal();
    if (this.final.scrollIntoView) this.final.scrollIntoView({ block: "nearest" });
    const play = this.final.querySelector("[data-testid=learn-play]");
    if (play) play.focus();
  }

  showHint() {
    const step = this.step;
    this.hintShown = true;
    this.hintText.textContent = step.hint || "";
    this.hintText.hidden = !step.hint;
    this.markHint();
  }

  /**
   * Light up the hint's cells: the class hint-cell on every element of the board with that
   * data-cell, and a ring drawn over each in a layer of its own.
   */
  markHint() {
    if (!this.boardHost || !this.lesson) return;
    const cells = this.hintShown ? new Set(this.step.hint_cells || []) : new Set();
    const lit = [];
    for (const node of this.boardHost.querySelectorAll("[data-cell]")) {
      const on = cells.has(node.dataset.cell);
      if (node.classList.contains("hint-cell") !== on) node.classList.toggle("hint-cell", on);
      if (on) lit.push(node);
    }
    clear(this.hintLayer);
    if (!lit.length) return;
    const origin = this.boardWrap.getBoundingClientRect();
    for (const node of lit) {
      const box = node.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      const ring = el("div", { class: "learn-hint-ring" });
      ring.style.left = `${box.left - origin.left}px`;
      ring.style.top = `${box.top - origin.top}px`;
      ring.style.width = `${box.width}px`;
      ring.style.height = `${box.height}px`;
      this.hintLayer.append(ring);
    }
  }

  async showSolution() {
    this.moves = [];
    const answer = await this.ask([], true);
    if (!answer) return;
    const moves = (answer.solution || []).join(t(", then "));
    this.setFeedback(t("The solution: {moves}. Play it on the board to go on.", { moves }), "solution");
  }

  showFinal() {
    const lesson = this.lesson;
    clear(this.final);
    const spec = readSpec(lesson.final_game || this.game);
    const error = el("p", { class: "error", role: "alert", "data-testid": "learn-final-error" });
    const start = el("button", { type: "button", class: "primary", "data-testid": "learn-play",
      onclick: async () => {
        start.disabled = true;
        error.textContent = "";
        try {
          await this.startGame(spec);
        } catch (err) {
          error.textContent = errorText(err);
          start.disabled = false;
        }
      } }, t("Play a game against the computer"));
    this.final.append(
      el("h2", {}, t("Now play a game")),
      lesson.final_text ? el("p", {}, lesson.final_text) : null,
      el("p", { class: "hint" }, t("The computer plays at its easiest level.")),
      error, start);
    this.final.hidden = false;
  }

  /** A game against the `easy` computer, made as the lobby makes one, then its page. */
  async startGame(spec) {
    const made = await api.createGame({
      game: spec.game, options: spec.options, mode: "ai", seat: 0, ai_level: "easy", names: ["", ""],
    });
    rememberGame(made.id, {
      game: spec.game,
      title: (made.game && made.game.title) || spec.game,
      mode: "ai",
      seat: 0,
      token: (made.tokens || {})["0"],
    });
    navigate(`/g/${made.id}`);
  }

  async reset() {
    if (!(await ask(t("Start the tutorial again?"),
      t("The steps you have done are forgotten on this device."), t("Start again")))) return;
    this.progress = { done: new Set(), at: null };
    saveProgress(this.game, null);
    this.show(0);
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
      legal: legal || null,
      last: last || null,
      coordinates: s.coordinates,
      flipped: s.flip,
    });
    this.markHint();
  }
}
