// Analysis where players are (docs/web-client.md, "Analysis"):
// - AnalysisPage (/analysis/<spec>?m=<move>&m=…&ply=<n>): the game's board (viewer.js's
//   board module) with a variation tree: a move played on the board adds a side line, the
//   tree's moves and ← → Home End move through it; the current position is analysed by the
//   server's AI workers (POST /api/analysis, one streamed answer: progress, then the result): an
//   evaluation bar, the top moves with visits and win estimates, the principal line and the
//   search's progress.
// - ReviewPanel: the computer review of a finished game or a record (POST /api/review or
//   /api/games/<id>/review, streamed likewise): the evaluation over the game as an SVG graph, and the
//   inaccuracies (?!), mistakes (?) and blunders (??), each with the better move.
// - GameAnalysis: the game page's part: the "Analyse" link (once the game is over, or on one
//   screen), hints against the computer (POST /api/games/<id>/hint), and the review once the
//   game is over.

import { ApiError, csrfToken, request, errorText, responseError } from "./api.js";
import { language, specTitle, t } from "./i18n.js";
import { navigate } from "./router.js";
import { clear, el, loadStylesheet, svg } from "./ui.js";
import { Viewer } from "./viewer.js";

function sheet() {
  return loadStylesheet(new URL("./analysis.css", import.meta.url).href, "analysis");
}

/** The address of the analysis board of `spec`'s game after `moves`, showing position `ply`. */
export function analysisHref(spec, moves, ply = null) {
  const query = new URLSearchParams();
  for (const move of moves || []) query.append("m", move);
  if (ply !== null && ply !== undefined && ply !== (moves || []).length) query.set("ply", String(ply));
  const text = query.toString();
  return `/analysis/${encodeURIComponent(spec)}${text ? `?${text}` : ""}`;
}

/** A win estimate as a percentage, written the page's language's way ("53,8 %" in French). */
function percent(value) {
  return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 1 }).format(value);
}

/** A count with the page's language's digit grouping ("32 824" in French). */
function count(n) {
  return new Intl.NumberFormat(language()).format(n);
}

function lost(err) {
  return new ApiError(0, "network", t("cannot reach the server ({error})", { error: (err && err.message) || err }));
}

/**
 * POST `body` to `path` and read its streamed answer (docs/web.md, "Analysis"): NDJSON lines,
 * `onProgress(line)` for each progress line, then the result (resolved) or an error line
 * (thrown as an ApiError with its code).  Resolves to null once `signal` aborts: the
 * connection closes and the server stops the search.
 */
export async function streamed(path, body, onProgress, signal) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (csrfToken()) headers["X-CSRF-Token"] = csrfToken();
  let response;
  try {
    response = await fetch(path, {
      method: "POST", headers, cache: "no-store", signal,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    if (signal && signal.aborted) return null;
    throw lost(err);
  }
  if (!response.ok) throw await responseError(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const text = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        if (!text) continue;
        const message = JSON.parse(text);
        if (message.type === "progress") onProgress(message);
        else if (message.type === "result") return message.result;
        else if (message.type === "error") throw new ApiError(response.status, message.code, message.message);
      }
    }
  } catch (err) {
    if (signal && signal.aborted) return null;
    if (err instanceof ApiError) throw err;
    throw lost(err);
  } finally {
    reader.cancel().catch(() => {});
  }
  if (signal && signal.aborted) return null;
  throw lost(new Error(t("request failed")));
}

function progressLine(progress) {
  return t("{n} simulations", { n: count(progress.simulations || 0) });
}

// -- the analysis board -----------------------------------------------------------------

class Node {
  constructor(parent, move) {
    this.parent = parent;
    this.move = move; // notation (null at the root)
    this.children = [];
    this.view = null;
    this.moveView = null;
    this.legal = null;
    this.analysis = null;
  }

  get path() {
    const moves = [];
    for (let n = this; n.parent; n = n.parent) moves.unshift(n.move);
    return moves;
  }

  get depth() {
    let d = 0;
    for (let n = this; n.parent; n = n.parent) d += 1;
    return d;
  }

  child(move) {
    return this.children.find((c) => c.move === move) || null;
  }
}

export class AnalysisPage {
  constructor(container, spec) {
    this.spec = decodeURIComponent(spec);
    this.closed = false;
    this.controller = null; // aborts the current node's analysis (its stream)
    this.seconds = 3;
    document.title = t("Analysis — Tablier");
    const query = new URLSearchParams(location.search);
    this.mainline = query.getAll("m");
    const ply = Number(query.get("ply"));
    this.startPly = Number.isInteger(ply) && query.has("ply") ? ply : this.mainline.length;
    this.root = new Node(null, null);
    this.current = this.root;
    this.viewer = new Viewer(null, { onSubmit: (notation) => this.play(notation) });
    this.viewer.key = (event) => this.key(event); // the tree's keys, not the viewer's history
    const v = this.viewer;
    this.page = el("div", { class: "game-page analysis-page", "data-testid": "analysis-page" });
    v.host = this.page;
    this.bar = el("div", { class: "eval-bar", "data-testid": "eval-bar", title: t("Evaluation") },
      this.barFill = el("div", { class: "eval-fill" }));
    this.evalText = el("span", { class: "eval-text", "data-testid": "eval-text" });
    this.progress = el("progress", { max: 1, value: 0, "data-testid": "analysis-progress",
      "aria-label": t("The computer's progress") });
    this.progressText = el("span", { class: "meta", "data-testid": "analysis-simulations" });
    this.topMoves = el("table", { class: "top-moves", "data-testid": "top-moves" });
    this.line = el("p", { class: "pv", "data-testid": "principal-line" });
    this.tree = el("div", { class: "variation-tree", "data-testid": "variation-tree" });
    this.secondsBox = el("select", { "data-testid": "analysis-seconds", "aria-label": t("Thinking time") },
      ...[1, 3, 10].map((s) => el("option", { value: String(s), selected: s === this.seconds },
        t("{n} s", { n: s }))));
    this.secondsBox.addEventListener("change", () => {
      this.seconds = Number(this.secondsBox.value) || 3;
      this.current.analysis = null;
      this.analyse();
    });
    const nav = (testid, label, title, fn) =>
      el("button", { type: "button", "data-testid": testid, title, "aria-label": title, onclick: fn }, label);
    const navBar = el("div", { class: "history-nav" },
      nav("tree-first", "«", t("Start (Home)"), () => this.goto(this.root)),
      nav("tree-back", "‹", t("Back one move (←)"), () => this.back()),
      nav("tree-forward", "›", t("Forward one move (→)"), () => this.forward()),
      nav("tree-last", "»", t("End of the line (End)"), () => this.toEnd()));
    this.page.append(
      el("div", { class: "board-column" }, v.status,
        el("div", { class: "analysis-board" }, this.bar, v.boardHost), navBar),
      el("aside", { class: "side-column" },
        el("section", { class: "panel" }, el("h1", {}, t("Analysis")),
          el("p", { class: "eval-line" }, this.evalText),
          el("div", { class: "analysis-progress" }, this.progress, this.progressText),
          el("label", {}, t("Thinking time"), " ", this.secondsBox)),
        el("section", { class: "panel" }, el("h2", {}, t("Best moves")), this.topMoves,
          el("h3", {}, t("Principal line")), this.line),
        el("section", { class: "panel" }, el("h2", {}, t("Moves")), this.tree),
        el("section", { class: "panel" }, v.info)),
    );
    container.append(this.page);
    this.start();
  }

  destroy() {
    this.closed = true;
    this.stopJob();
    this.viewer.destroy();
  }

  async start() {
    await sheet();
    try {
      const line = await this.loadLine(this.mainline);
      this.game = line.game;
      await this.viewer.ensureBoard(line.game);
      this.viewer.status.textContent = t("Analysis of {game}", { game: specTitle(line) });
      let node = this.root;
      for (let i = 0; i < Math.min(this.startPly, line.moves.length); i++) node = node.child(line.moves[i]);
      this.goto(node || this.root);
    } catch (err) {
      this.viewer.status.textContent = errorText(err);
    }
  }

  /** Fetch the views of `moves` and hang them in the tree; answers the server's line. */
  async loadLine(moves) {
    const line = await request("POST", "/api/analysis/line", { body: { spec: this.spec, moves } });
    this.spec = line.spec;
    let node = this.root;
    node.view = line.views[0];
    line.moves.forEach((move, i) => {
      let next = node.child(move);
      if (!next) {
        next = new Node(node, move);
        node.children.push(next);
      }
      next.view = line.views[i + 1];
      next.moveView = line.move_views[i];
      node = next;
    });
    node.legal = line.legal;
    return line;
  }

  async play(notation) {
    const known = this.current.child(notation);
    if (known) {
      this.goto(known);
      return;
    }
    try {
      await this.loadLine([...this.current.path, notation]);
    } catch (err) {
      this.viewer.status.textContent = errorText(err);
      return;
    }
    const added = this.current.child(notation);
    if (added) this.goto(added);
  }

  async goto(node) {
    this.current = node;
    if (!node.legal) {
      try {
        await this.loadLine(node.path);
      } catch (err) {
        this.viewer.status.textContent = errorText(err);
      }
      if (this.current !== node) return;
    }
    const views = [];
    const moveViews = [];
    const path = [];
    for (let n = node; n; n = n.parent) {
      views.unshift(n.view);
      if (n.parent) {
        moveViews.unshift(n.moveView);
        path.unshift(n.move);
      }
    }
    const v = this.viewer;
    v.setHistory(views, moveViews, path);
    v.viewPly = null;
    v.legal = node.legal || [];
    if (v.board) v.board.reset();
    v.render();
    this.renderTree();
    this.analyse();
  }

  back() {
    if (this.current.parent) this.goto(this.current.parent);
  }

  forward() {
    if (this.current.children.length) this.goto(this.current.children[0]);
  }

  toEnd() {
    let node = this.current;
    while (node.children.length) node = node.children[0];
    this.goto(node);
  }

  key(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    const actions = {
      ArrowLeft: () => this.back(),
      ArrowRight: () => this.forward(),
      Home: () => this.goto(this.root),
      End: () => this.toEnd(),
    };
    if (actions[event.key]) {
      event.preventDefault();
      actions[event.key]();
    }
  }

  stopJob() {
    if (this.controller) this.controller.abort();
    this.controller = null;
  }

  async analyse() {
    this.stopJob();
    const node = this.current;
    if (node.analysis) {
      this.showAnalysis(node.analysis, null);
      return;
    }
    this.showAnalysis(null, null);
    const controller = new AbortController();
    this.controller = controller;
    const gone = () => this.closed || this.current !== node || controller.signal.aborted;
    try {
      const result = await streamed("/api/analysis",
        { spec: this.spec, moves: node.path, seconds: this.seconds },
        (progress) => { if (!gone()) this.showAnalysis(null, progress); }, controller.signal);
      if (result === null || gone()) return;
      node.analysis = result;
      this.showAnalysis(result, null);
    } catch (err) {
      if (!gone()) this.progressText.textContent = errorText(err);
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }

  /** Shows `result` (an analysis) or, while it runs, `progress` (a progress line). */
  showAnalysis(result, progress) {
    const running = !!progress;
    this.progress.value = progress ? progress.fraction || 0 : result ? 1 : 0;
    this.progressText.textContent = progress ? progressLine(progress) : result
      ? t("{n} simulations", { n: count(result.simulations) }) : t("Thinking…");
    this.page.classList.toggle("analysing", !!running);
    clear(this.topMoves);
    clear(this.line);
    const value = result ? result.eval : 0.5;
    this.barFill.style.height = `${100 * value}%`;
    this.bar.dataset.eval = result ? String(value) : "";
    if (!result) {
      this.evalText.textContent = running && progress.best
        ? t("Best so far: {move}", { move: progress.best }) : t("Thinking…");
      return;
    }
    if (result.over) {
      this.evalText.textContent = t("The game is over.");
      return;
    }
    this.evalText.textContent = t("First player: {p}", { p: percent(value) });
    this.topMoves.append(el("tr", {}, el("th", {}, t("Move")), el("th", {}, t("Visits")),
      el("th", {}, t("Win"))));
    for (const stat of result.moves) {
      const win = stat.proven === "win" ? t("wins") : stat.proven === "loss" ? t("loses") : percent(stat.win);
      this.topMoves.append(el("tr", { "data-testid": "top-move" },
        el("td", {}, el("button", { type: "button", class: "link", onclick: () => this.play(stat.move) },
          stat.move)),
        el("td", {}, count(stat.visits)), el("td", {}, win)));
    }
    result.line.forEach((move, i) => {
      if (i) this.line.append(" ");
      this.line.append(el("span", { class: "pv-move" }, move));
    });
  }

  renderTree() {
    clear(this.tree);
    const button = (node) => el("button", {
      type: "button",
      class: "tree-move",
      "data-testid": "tree-move",
      "data-depth": node.depth,
      "aria-current": node === this.current ? "step" : false,
      onclick: () => this.goto(node),
    }, node.move);
    // the main line of `node`'s first children, side lines in brackets after their move
    const line = (start, host) => {
      let node = start;
      while (node) {
        host.append(button(node));
        const parent = node.parent;
        if (parent.children[0] === node) {
          for (const side of parent.children.slice(1)) {
            const box = el("span", { class: "side-line", "data-testid": "side-line" }, "(");
            line(side, box);
            box.append(")");
            host.append(box);
          }
        }
        node = node.children[0] || null;
      }
    };
    const top = el("div", { class: "main-line" });
    for (const first of this.root.children.slice(0, 1)) line(first, top);
    for (const side of this.root.children.slice(1)) {
      const box = el("span", { class: "side-line", "data-testid": "side-line" }, "(");
      line(side, box);
      box.append(")");
      top.append(box);
    }
    this.tree.append(top);
  }
}

// -- the computer review -------------------------------------------------------------------

const MARK_NAMES = () => ({ "?!": t("Inaccuracy"), "?": t("Mistake"), "??": t("Blunder") });
const MARK_CLASSES = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };

export class ReviewPanel {
  /**
   * `source`: {spec, moves} (a record) or {gameId}; `onGo(ply)` shows a position;
   * `moves` are the notations (for the list).
   */
  constructor({ spec, moves, gameId, onGo }) {
    this.spec = spec;
    this.moves = moves || [];
    this.gameId = gameId || null;
    this.onGo = onGo;
    this.closed = false;
    this.controller = null; // aborts the review's stream
    this.button = el("button", { type: "button", "data-testid": "review-start", onclick: () => this.start() },
      t("Computer review"));
    this.progress = el("progress", { max: 1, value: 0, hidden: true, "data-testid": "review-progress" });
    this.body = el("div", { class: "computer-review", "data-testid": "computer-review" });
    this.root = el("section", { class: "panel", "data-testid": "review-panel" },
      el("h2", {}, t("Computer review")), this.button, this.progress, this.body);
    sheet();
  }

  destroy() {
    this.closed = true;
    if (this.controller) this.controller.abort(); // the server stops the review
  }

  async start() {
    this.button.disabled = true;
    this.progress.hidden = false;
    clear(this.body);
    this.controller = new AbortController();
    try {
      const path = this.gameId ? `/api/games/${encodeURIComponent(this.gameId)}/review` : "/api/review";
      const body = this.gameId ? undefined : { spec: this.spec, moves: this.moves };
      const review = await streamed(path, body, (progress) => {
        this.progress.value = progress.fraction || 0;
      }, this.controller.signal);
      if (review === null || this.closed) return;
      this.show(review);
    } catch (err) {
      this.body.append(el("p", { class: "error" }, errorText(err)));
      this.button.disabled = false;
    } finally {
      this.progress.hidden = true;
    }
  }

  show(review) {
    clear(this.body);
    this.button.hidden = true;
    this.body.append(this.graph(review));
    const names = MARK_NAMES();
    const list = el("ul", { class: "review-marks", "data-testid": "review-marks" });
    for (const mark of review.marks) {
      const moveNumber = mark.ply + 1;
      list.append(el("li", { "data-testid": "review-mark", "data-mark": mark.mark },
        el("button", { type: "button", class: "link", onclick: () => this.onGo && this.onGo(mark.ply + 1) },
          `${moveNumber}. ${mark.move}${mark.mark}`),
        " ", el("span", { class: `mark ${MARK_CLASSES[mark.mark]}` }, names[mark.mark] || mark.mark),
        " — ", t("better: {move}", { move: mark.better })));
    }
    if (!review.marks.length) list.append(el("li", { class: "hint" }, t("No mistakes found.")));
    this.body.append(list);
  }

  /** The first player's win probability over the game: a line, the marks as dots. */
  graph(review) {
    const evals = review.evals;
    const w = 300;
    const h = 100;
    const x = (i) => (evals.length > 1 ? (i * w) / (evals.length - 1) : 0);
    const y = (v) => h - v * h;
    const points = evals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const root = svg("svg", { class: "eval-graph", "data-testid": "eval-graph", viewBox: `0 0 ${w} ${h}`,
      role: "img", "aria-label": t("Evaluation over the game") });
    root.append(
      svg("rect", { x: 0, y: 0, width: w, height: h, class: "eval-graph-bg" }),
      svg("polygon", { points: `0,${h} ${points} ${x(evals.length - 1).toFixed(1)},${h}`, class: "eval-graph-area" }),
      svg("line", { x1: 0, y1: h / 2, x2: w, y2: h / 2, class: "eval-graph-mid" }),
      svg("polyline", { points, class: "eval-graph-line" }),
    );
    for (const mark of review.marks) {
      const i = mark.ply + 1;
      const dot = svg("circle", { cx: x(i), cy: y(evals[i]), r: 3.5,
        class: `eval-graph-mark ${MARK_CLASSES[mark.mark]}` });
      dot.addEventListener("click", () => this.onGo && this.onGo(i));
      root.append(dot);
    }
    root.addEventListener("click", (event) => {
      if (event.target.tagName === "circle" || !this.onGo) return;
      const box = root.getBoundingClientRect();
      const ply = Math.round(((event.clientX - box.left) / box.width) * (evals.length - 1));
      this.onGo(Math.max(0, Math.min(evals.length - 1, ply)));
    });
    return root;
  }
}

// -- the game page's part --------------------------------------------------------------------

export class GameAnalysis {
  constructor(page) {
    this.page = page;
    this.review = null;
    this.link = el("a", { class: "button-link", "data-testid": "analyse-link", href: "#",
      onclick: (event) => {
        event.preventDefault();
        navigate(this.href());
      } }, t("Analyse"));
    this.hintButton = el("button", { type: "button", "data-testid": "hint-button", hidden: true,
      onclick: () => this.hint() }, t("Hint"));
    this.hintText = el("p", { class: "hint-answer", "data-testid": "hint-answer", hidden: true });
    this.hintCount = el("p", { class: "meta", "data-testid": "hint-count", hidden: true });
    this.reviewHost = el("div");
    this.root = el("section", { class: "panel", "data-testid": "analysis-panel" },
      el("div", { class: "buttons" }, this.link, this.hintButton), this.hintText, this.hintCount,
      this.reviewHost);
  }

  href() {
    const snap = this.page.snap || {};
    return analysisHref(snap.spec || snap.game, this.page.viewer.moves, this.page.viewer.shownPly);
  }

  /** Hints: a seat in a game against the computer, not rated, on its own turn. */
  hintsAllowed() {
    const snap = this.page.snap;
    return !!snap && !!snap.ai && !snap.rated && (snap.you === 0 || snap.you === 1) && snap.ai.seat !== snap.you;
  }

  update() {
    const snap = this.page.snap;
    if (!snap) return;
    // while a game is played the board would be an uncounted hint (as on lichess): the link
    // comes with the end, except on one screen
    this.link.hidden = snap.status === "active" && snap.mode !== "local";
    const allowed = this.hintsAllowed();
    this.hintButton.hidden = !allowed || snap.status !== "active";
    this.hintButton.disabled = !this.page.isMyTurn();
    const hints = snap.hints || [0, 0];
    const mine = allowed ? hints[snap.you] : 0;
    this.hintCount.hidden = !allowed || !(hints[0] || hints[1]);
    this.hintCount.textContent = t("Hints asked: {n}", { n: mine });
    if (this.hintPly !== undefined && this.hintPly !== snap.ply) this.hintText.hidden = true;
    if (snap.status !== "active" && !this.review) {
      this.review = new ReviewPanel({ gameId: this.page.id, onGo: (ply) => this.page.viewer.go(ply) });
      this.reviewHost.append(this.review.root);
    }
  }

  async hint() {
    this.hintButton.disabled = true;
    this.hintText.hidden = false;
    this.hintText.textContent = t("Thinking…");
    try {
      const answer = await request("POST", `/api/games/${encodeURIComponent(this.page.id)}/hint`,
        { token: this.page.token });
      this.hintPly = answer.ply;
      this.hintText.textContent = answer.move
        ? t("Hint: {move} (win {p})", { move: answer.move, p: percent(answer.win) }) : t("No hint here.");
      if (this.page.snap) this.page.snap = { ...this.page.snap, hints: answer.hints };
      this.update();
    } catch (err) {
      this.hintText.textContent = errorText(err);
    } finally {
      this.hintButton.disabled = !this.page.isMyTurn();
    }
  }

  destroy() {
    if (this.review) this.review.destroy();
  }
}
