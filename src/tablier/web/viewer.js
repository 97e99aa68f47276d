// The part shared by the game page and the review page: the game's board module and its
// stylesheet, the move list, history navigation (← → Home End), the info panel and the
// result banner.
//
// A live game's history is loaded page by page (GET /api/games/<id>/history?from=&limit=):
// the notations of every move and the latest position come with the snapshot, the views of
// the positions and moves before it are fetched a page at a time when they are shown, so a
// game of any length keeps its whole move list and navigation.

import { errorText } from "./api.js";
import { localView, reasonText, t } from "./i18n.js";
import { turnLines } from "./moves.js";
import { settings } from "./store.js";
import { choose, clear, el, loadGameStylesheet, sideMarker, toast } from "./ui.js";

// Decisions asked for in one page of history: the server's largest page (docs/web.md).  A
// server configured with smaller pages answers less, and the viewer then asks for its size.
let pageSize = 50;

export class Viewer {
  constructor(host, { onSubmit }) {
    this.host = host;
    this.onSubmit = onSubmit;
    this.views = [];
    this.moveViews = [];
    this.moves = [];
    this.viewPly = null; // null: follow the live position
    // views[i] and moveViews[i] may be missing (not loaded yet) when a loader is set
    this.loader = null; // (from, limit) => Promise of a history page
    this.generation = 0; // bumped when the history is replaced: older pages are dropped
    this.loading = new Map(); // "from:limit" -> Promise of the page's merge
    this.tried = new Set(); // plies whose loading was attempted in this generation
    this.board = null;
    this.boardGame = null;
    this.legal = null;
    this.result = null;
    this.flipped = settings().flip;

    this.status = el("div", { class: "status", "data-testid": "status", "aria-live": "polite" });
    this.banner = el("div", { class: "result-banner", "data-testid": "result-banner", role: "status", hidden: true });
    this.boardHost = el("div", { class: "board-host", "data-testid": "board" });
    this.historyBar = el("div", { class: "history-nav" });
    this.plyLabel = el("span", { class: "ply-label", "data-testid": "ply-label" });
    const navButton = (testid, label, title, fn) =>
      el("button", { type: "button", "data-testid": testid, title, "aria-label": title, onclick: fn }, label);
    this.historyBar.append(
      navButton("nav-first", "«", t("Start (Home)"), () => this.go(0)),
      navButton("nav-prev", "‹", t("Back one move (←)"), () => this.step(-1)),
      this.plyLabel,
      navButton("nav-next", "›", t("Forward one move (→)"), () => this.step(1)),
      navButton("nav-last", "»", t("Latest position (End)"), () => this.go(null)),
    );
    this.info = el("div", { class: "info", "data-testid": "info" });
    this.moveList = el("ol", { class: "move-list", "data-testid": "move-list" });
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    if (this.board && this.board.destroy) this.board.destroy();
    this.board = null;
  }

  key(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (document.querySelector(".dialog-backdrop")) return;
    const actions = {
      ArrowLeft: () => this.step(-1),
      ArrowRight: () => this.step(1),
      Home: () => this.go(0),
      End: () => this.go(null),
    };
    if (actions[event.key]) {
      event.preventDefault();
      actions[event.key]();
    }
  }

  async ensureBoard(game) {
    if (this.board && this.boardGame === game) return;
    if (this.board && this.board.destroy) this.board.destroy();
    clear(this.boardHost);
    let module;
    try {
      const name = encodeURIComponent(game);
      [module] = await Promise.all([import(`./games/${name}.js`), loadGameStylesheet(name)]);
    } catch (err) {
      this.boardHost.append(el("p", { class: "error" }, t("No board for {game}: {error}", { game, error: errorText(err) })));
      throw err;
    }
    this.board = module.createBoard(this.boardHost, {
      submit: (notation) => this.onSubmit && this.onSubmit(notation),
      choose,
    });
    this.boardGame = game;
  }

  get lastPly() {
    return this.views.length - 1;
  }

  get shownPly() {
    return this.viewPly === null ? this.lastPly : this.viewPly;
  }

  get live() {
    return this.viewPly === null || this.viewPly === this.lastPly;
  }

  step(delta) {
    this.go(Math.max(0, Math.min(this.lastPly, this.shownPly + delta)));
  }

  go(ply) {
    if (ply !== null && ply >= this.lastPly) ply = null;
    if (ply === this.viewPly) return;
    this.viewPly = ply;
    if (this.board) this.board.reset();
    this.render();
  }

  /** Replace the whole history (every view known). */
  setHistory(views, moveViews, moves) {
    this.dropPages(null);
    this.views = views.slice();
    this.moveViews = moveViews.slice();
    this.moves = moves ? moves.slice() : moveViews.map((m) => m.notation);
    if (this.viewPly !== null && this.viewPly >= this.lastPly) this.viewPly = null;
  }

  /**
   * Replace the history by one known only at its end: the notations of every move,
   * the latest position's `view` and the last move's `lastMove`.  The other views are
   * loaded with `loader(from, limit)` (a history page) when they are shown.
   */
  resetHistory(moves, view, lastMove, loader) {
    this.dropPages(loader);
    const total = moves.length;
    this.moves = moves.slice();
    this.views = new Array(total + 1);
    this.moveViews = new Array(total);
    this.views[total] = view;
    if (total && lastMove) this.moveViews[total - 1] = lastMove;
    if (this.viewPly !== null && this.viewPly >= this.lastPly) this.viewPly = null;
  }

  dropPages(loader) {
    this.loader = loader;
    this.generation += 1;
    this.loading = new Map();
    this.tried = new Set();
  }

  /** Whether position `ply` can be drawn: its view and the move that led to it. */
  has(ply) {
    return !!this.views[ply] && (ply === 0 || !!this.moveViews[ply - 1]);
  }

  /**
   * Load the pages that position `ply` needs; resolves to whether it can be drawn.  The
   * page asked for ends at the first position loaded after `ply` (so that stepping back
   * loads contiguous pages), or starts just before `ply` when that is too far.
   */
  async ensure(ply) {
    for (let attempt = 0; attempt < 3 && !this.has(ply) && this.loader; attempt++) {
      let next = ply;
      while (next < this.lastPly && !this.views[next]) next += 1;
      const from = next - pageSize <= ply - 1 ? Math.max(0, next - pageSize) : Math.max(0, ply - 1);
      const asked = pageSize;
      const page = await this.fetchPage(from, asked);
      if (!page) return false; // the game changed meanwhile, or the history was replaced
      if (page.limit < asked) pageSize = Math.max(1, page.limit); // a server with smaller pages
      else if (!this.has(ply)) break;
    }
    return this.has(ply);
  }

  fetchPage(from, limit) {
    const key = `${from}:${limit}`;
    if (!this.loading.has(key)) {
      const generation = this.generation;
      const loading = this.loading;
      const promise = this.loader(from, limit).then(
        (page) => (generation === this.generation && this.merge(page) ? page : null),
      );
      const forget = () => loading.delete(key);
      promise.then(forget, forget);
      loading.set(key, promise);
    }
    return this.loading.get(key);
  }

  /**
   * Take a page's views, after checking its moves against the notations known: a page
   * of another line (a takeback on the server since) is dropped.
   */
  merge(page) {
    const from = Number(page.from) || 0;
    const moves = page.moves || [];
    const views = page.views || [];
    for (let i = 0; i < moves.length && from + i < this.moves.length; i++) {
      if (!moves[i] || moves[i].notation !== this.moves[from + i]) return false;
    }
    views.forEach((view, i) => {
      if (from + i <= this.lastPly && !this.views[from + i]) this.views[from + i] = view;
    });
    moves.forEach((move, i) => {
      if (from + i < this.moves.length && !this.moveViews[from + i]) this.moveViews[from + i] = move;
    });
    return true;
  }

  /** Load what position `ply` needs, then draw again (once per ply and history). */
  load(ply) {
    if (this.tried.has(ply)) return;
    this.tried.add(ply);
    this.ensure(ply).then(
      (ok) => {
        if (ok) this.render();
      },
      (err) => {
        this.tried.delete(ply); // tried again when shown again
        toast(t("Cannot load the history: {error}", { error: errorText(err) }), "error");
      },
    );
  }

  /** Add one move at the end (a live game). */
  push(view, moveView, notation) {
    this.views.push(view);
    this.moveViews.push(moveView);
    this.moves.push(notation || (moveView && moveView.notation) || "?");
  }

  render() {
    if (!this.views.length) return;
    const ply = this.shownPly;
    const view = this.views[ply];
    const last = ply > 0 ? this.moveViews[ply - 1] || null : null;
    const s = settings();
    if (!this.has(ply) && this.loader) this.load(ply);
    this.boardHost.classList.toggle("loading", !view);
    if (this.board && view) {
      const shown = localView(this.boardGame, view);
      this.board.render(shown, {
        legal: this.live ? this.legal : null,
        last,
        coordinates: s.coordinates,
        flipped: this.flipped,
      });
      clear(this.info);
      const panel = this.board.info ? this.board.info(shown) : null;
      if (panel) this.info.append(panel);
    }
    this.plyLabel.textContent = this.live
      ? t("move {ply} (latest)", { ply: this.lastPly })
      : view
        ? t("move {ply} of {last}", { ply, last: this.lastPly })
        : t("move {ply} of {last} (loading…)", { ply, last: this.lastPly });
    this.host.classList.toggle("viewing-history", !this.live);
    this.renderMoveList();
    this.renderBanner();
  }

  renderMoveList() {
    // one line per turn (moves.js turnLines): a one-decision line is one button; a longer
    // one is its number, its player and a button per decision (a decision folded into the
    // next is hidden: its position is still reached by the history keys)
    clear(this.moveList);
    const shown = this.shownPly;
    const latest = this.views[this.lastPly] || this.views.find((v) => v) || {};
    const moverOf = (i) => (this.views[i] ? this.views[i].to_move : null);
    const lines = turnLines(this.moves, latest.turn_ends || null, moverOf);
    const moveButton = (item, ...content) => el("button", {
      type: "button",
      class: "move",
      "data-ply": item.ply,
      "data-testid": "move-item",
      "aria-current": item.ply === shown ? "step" : false,
      hidden: item.folded,
      onclick: () => this.go(item.ply),
    }, ...content, el("span", { class: "notation" }, item.notation));
    lines.forEach((line, k) => {
      const current = line.first <= shown && shown <= line.last;
      const marker = line.mover === 0 || line.mover === 1 ? sideMarker(line.mover, 10) : null;
      const num = el("span", { class: "num" }, `${k + 1}.`);
      const item = el("li", { class: current ? "current" : "", "data-testid": "move-line" });
      if (line.items.length === 1) {
        item.append(moveButton(line.items[0], num, marker));
      } else {
        item.classList.add("turn-line");
        item.append(num, marker);
        line.items.forEach((one, i) => {
          if (i && !line.items[i - 1].folded) item.append(el("span", { class: "sep" }, " · "));
          item.append(moveButton(one));
        });
      }
      this.moveList.append(item);
    });
    const current = this.moveList.querySelector("li.current");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  }

  renderBanner() {
    const result = this.result;
    clear(this.banner);
    this.banner.hidden = !result;
    if (!result) return;
    const players = localView(this.boardGame, this.views[this.lastPly] || {}).players || [];
    const winner = result.winner === 0 || result.winner === 1 ? players[result.winner] : null;
    this.banner.append(
      el("strong", { class: "result" }, result.result || ""),
      " ",
      el("span", { class: "headline" }, winner ? t("{player} wins", { player: winner }) : t("Draw")),
      el("span", { class: "reason", "data-testid": "result-reason" },
        ` — ${reasonText(this.boardGame, result, players)}`),
    );
  }
}
