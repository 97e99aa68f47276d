// The game page (/g/<id>, a seat link /g/<id>#seat=<token>): the snapshot and the
// WebSocket's messages applied in order, the status line, players, the computer's
// progress and the settings.  The move box and confirm step are moves.js's, the buttons
// actions.js's, the board, history and move list viewer.js's.

import { joinSeat } from "./account.js";
import { ActionsPanel } from "./actions.js";
import { GameAnalysis } from "./analysis.js";
import { ChatPanel } from "./chat.js";
import { ClockPanel } from "./clock.js";
import { ConditionalsPanel } from "./conditionals.js";
import { api, ApiError, codeText, errorText } from "./api.js";
import { label, localView, t, tn } from "./i18n.js";
import { MoveInput } from "./moves.js";
import { Notifier } from "./notify.js";
import { RatingsPanel } from "./ratings.js";
import { forgetGame, myGame, rememberGame, setSetting, settings } from "./store.js";
import { clear, el, sideMarker, toast } from "./ui.js";
import { Viewer } from "./viewer.js";
import { GameSocket } from "./ws.js";

export class GamePage {
  constructor(container, id) {
    this.id = id;
    this.closed = false;
    this.snap = null;
    this.presence = null;
    this.ai = null;
    this.legalPly = -1;
    this.queue = Promise.resolve(); // state updates run one after the other, in order
    const hash = location.hash || "";
    const seatMatch = hash.match(/[#&]seat=([^&]+)/);
    if (seatMatch) {
      const token = decodeURIComponent(seatMatch[1]);
      const old = myGame(id);
      rememberGame(id, { token, ...(old && old.token === token ? {} : { seat: null, invite: null }) });
      // the token must not stay in the address bar, where it could be shared by accident
      history.replaceState(null, "", location.pathname + location.search);
    }
    const entry = myGame(id);
    this.token = entry ? entry.token || null : null;
    this.build(container);
    this.load();
  }

  destroy() {
    this.closed = true;
    this.clock.destroy();
    this.notifier.destroy();
    this.analysis.destroy();
    if (this.socket) this.socket.close();
    this.viewer.destroy();
  }

  build(container) {
    this.viewer = new Viewer(null, { onSubmit: (notation) => this.moves.submit(notation) });
    this.moves = new MoveInput(this);
    this.panel = new ActionsPanel(this);
    this.ratings = new RatingsPanel(this);
    const v = this.viewer;
    this.root = el("div", { class: "game-page", "data-testid": "game-page" });
    v.host = this.root;
    this.connection = el("span", { class: "connection", "data-testid": "connection" }, t("connecting…"));
    this.aiBox = el("div", { class: "ai-thinking", "data-testid": "ai-thinking", hidden: true },
      el("span", {}, t("The computer is thinking")),
      this.aiBar = el("progress", { max: 1, value: 0, "aria-label": t("The computer's progress") }),
      this.aiBest = el("span", { class: "meta", "data-testid": "ai-best" }));
    this.players = el("div", { class: "players", "data-testid": "players" });
    this.rulesLink = el("a", { class: "rules-link", "data-internal": true, "data-testid": "rules-link",
      hidden: true });
    this.settingsBox = el("div", { class: "settings" });
    this.buildSettings();
    this.chat = new ChatPanel(this);
    this.conditionals = new ConditionalsPanel(this);
    this.notifier = new Notifier(this);
    this.settingsBox.append(this.notifier.controls);
    this.clock = new ClockPanel(this);
    this.analysis = new GameAnalysis(this); // "Analyse", hints, the computer review
    const boardColumn = el("div", { class: "board-column" },
      v.status, this.clock.root, this.aiBox, v.banner, v.boardHost, this.moves.confirmBar, this.moves.form,
      this.moves.error, v.historyBar);
    const side = el("aside", { class: "side-column" },
      el("section", { class: "panel" }, this.players, this.connection, this.ratings.root,
        el("p", {}, this.rulesLink)),
      el("section", { class: "panel" }, v.info),
      el("section", { class: "panel" }, el("h2", {}, t("Moves")), v.moveList),
      el("section", { class: "panel" }, this.panel.offers, this.panel.actions),
      this.conditionals.root,
      this.analysis.root,
      this.chat.root,
      el("section", { class: "panel" }, this.settingsBox));
    this.root.append(boardColumn, side);
    container.append(this.root);
  }

  buildSettings() {
    const s = settings();
    const check = (testid, label, value, fn) => {
      const input = el("input", { type: "checkbox", "data-testid": testid, checked: value });
      input.addEventListener("change", () => fn(input.checked));
      return el("label", { class: "check" }, input, ` ${label}`);
    };
    this.settingsBox.append(
      el("h2", {}, t("Settings")),
      check("toggle-confirm", t("Confirm each move before sending"), s.confirm, (on) => {
        setSetting("confirm", on);
        if (!on) this.moves.cancelPending();
      }),
      check("toggle-coordinates", t("Show coordinates"), s.coordinates, (on) => {
        setSetting("coordinates", on);
        this.viewer.render();
      }),
      check("toggle-flip", t("Turn the board round"), s.flip, (on) => {
        setSetting("flip", on);
        this.viewer.flipped = on;
        this.viewer.render();
      }),
    );
  }

  async load() {
    try {
      let snap;
      try {
        snap = await api.game(this.id, this.token);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 403 && this.token)) throw err;
        // a stored seat link that this game does not know: forget it, watch as a spectator
        this.token = null;
        forgetGame(this.id);
        toast(t("This seat link is not valid for this game: you are watching."), "error");
        snap = await api.game(this.id, null);
      }
      await this.enqueue(() => this.applySnapshot(snap));
    } catch (err) {
      if (this.closed) return;
      clear(this.viewer.boardHost);
      this.viewer.boardHost.append(el("p", { class: "error", "data-testid": "load-error" },
        err instanceof ApiError && err.status === 404 ? t("There is no such game.") : errorText(err)));
      return;
    }
    if (this.closed) return;
    this.socket = new GameSocket(this.id, this.token, {
      onMessage: (msg) => this.onMessage(msg),
      onState: (state) => {
        this.connection.textContent = { open: t("live"), connecting: t("connecting…"), closed: t("reconnecting…") }[state] || state;
        this.connection.dataset.state = state;
      },
    });
  }

  // -- state updates --

  get you() {
    return this.snap ? this.snap.you : null;
  }

  get active() {
    return !!this.snap && this.snap.status === "active" && !this.viewer.result;
  }

  get liveView() {
    return this.viewer.views[this.viewer.lastPly] || (this.snap && this.snap.view);
  }

  isMyTurn() {
    const view = this.liveView;
    if (!this.active || !view || view.to_move === null || view.to_move === undefined) return false;
    if (this.you === "both") return true;
    if (this.you !== 0 && this.you !== 1) return false;
    const seat = this.snap.seats && this.snap.seats[view.to_move];
    return this.you === view.to_move && !(seat && seat.kind === "ai");
  }

  async applySnapshot(snap) {
    if (this.closed || !snap) return;
    const first = !this.snap;
    this.snap = snap;
    this.viewer.result = snap.result || null;
    if (snap.you !== undefined && snap.you !== null && this.token) {
      rememberGame(this.id, { seat: snap.you, game: snap.game, title: snap.title, mode: snap.mode });
    }
    if (snap.ai) {
      const thinking = !!snap.ai.thinking;
      this.ai = { thinking, progress: thinking && this.ai ? this.ai.progress : null };
    }
    if (first) {
      const title = label(`game.${snap.game}.title`, snap.title || snap.game);
      document.title = title + " — Tablier";
      this.rulesLink.href = `/rules/${encodeURIComponent(snap.game)}`;
      this.rulesLink.textContent = t("Rules of {game}", { game: title });
      this.rulesLink.hidden = false;
      joinSeat(this); // the seat's player: the account, or the guest's name
    }
    await this.viewer.ensureBoard(snap.game);
    if (this.viewer.lastPly !== snap.ply || first || this.historyStale(snap)) {
      await this.reloadHistory(snap);
    }
    this.refresh();
  }

  historyStale(snap) {
    const moves = snap.moves || [];
    const mine = this.viewer.moves;
    if (moves.length !== mine.length) return true;
    return moves.some((m, i) => m !== mine[i]);
  }

  /**
   * Start the history again from the snapshot (every move's notation, the current
   * position) and load its latest page, the whole history of a short game; older pages
   * are loaded when they are shown.
   */
  async reloadHistory(snap) {
    const v = this.viewer;
    v.resetHistory(snap.moves || [], snap.view, snap.last_move,
      (from, limit) => api.history(this.id, from, limit, snap.ply));
    try {
      await v.ensure(Math.max(0, v.lastPly - 1));
    } catch (err) {
      // the current position and the move list are known: only the older boards wait
      if (!this.closed) toast(t("Cannot load the history: {error}", { error: errorText(err) }), "error");
    }
  }

  /** Run `fn` after every earlier state update (WebSocket messages and REST answers). */
  enqueue(fn) {
    this.queue = this.queue.then(fn).catch((err) => toast(errorText(err), "error"));
    return this.queue;
  }

  onMessage(msg) {
    switch (msg.type) {
      case "snapshot":
        this.enqueue(() => this.applySnapshot(msg.game));
        break;
      case "move":
        this.enqueue(() => this.applyMove(msg));
        break;
      case "error":
        this.showError(codeText(msg.code, msg.message));
        break;
      case "chat":
      case "chat_history":
        this.chat.onMessage(msg);
        break;
      case "presence":
        this.presence = msg;
        this.renderPlayers();
        this.panel.render();
        break;
      case "ai":
        this.ai = { thinking: !!msg.thinking, progress: msg.progress || null };
        this.renderAi();
        break;
      default:
        break;
    }
  }

  async applyMove(msg) {
    if (!this.snap) return;
    const v = this.viewer;
    if (msg.ply <= v.lastPly) return; // already known (our own move's answer came first)
    if (msg.ply !== v.lastPly + 1) {
      await this.applySnapshot(await api.game(this.id, this.token, msg.ply));
      return;
    }
    v.push(msg.view, msg.last_move, msg.move);
    this.snap = {
      ...this.snap,
      ply: msg.ply,
      view: msg.view,
      last_move: msg.last_move,
      status: msg.status || this.snap.status,
      result: msg.result || null,
      moves: [...(this.snap.moves || []), msg.move],
      clock: msg.clock !== undefined ? msg.clock : this.snap.clock,
    };
    v.result = msg.result || null;
    if (this.moves.pending) this.moves.cancelPending();
    if (v.board) v.board.reset();
    this.refresh();
  }

  resync() {
    return this.enqueue(async () => this.applySnapshot(await api.game(this.id, this.token)));
  }

  /**
   * The legal moves of position `ply`.  The server answers a position at least as new (it
   * re-reads the game when its copy is older); a `409 ply_ahead` (its database not there
   * yet) or an older answer is asked again once.
   */
  async legalAt(ply) {
    try {
      const legal = await api.legal(this.id, this.token, ply);
      if (legal.ply >= ply) return legal;
    } catch (err) {
      if (err.code !== "ply_ahead") throw err;
    }
    return api.legal(this.id, this.token, ply);
  }

  async refresh() {
    this.renderStatus();
    this.renderPlayers();
    this.renderAi();
    this.panel.render();
    this.ratings.update();
    const myTurn = this.isMyTurn();
    this.clock.update();
    this.notifier.update(myTurn);
    this.chat.update();
    this.conditionals.update();
    this.analysis.update();
    this.root.classList.toggle("my-turn", myTurn);
    this.moves.setEnabled(myTurn);
    const ply = this.viewer.lastPly;
    const host = this.viewer.boardHost;
    if (myTurn && this.legalPly !== ply) {
      if (this.legalFetching === ply) return;
      this.legalFetching = ply;
      // the new position is drawn together with its legal moves (a few ms later), so that
      // a board on screen at your turn always has its targets; data-ready tells the tests
      this.viewer.legal = null;
      host.dataset.ready = "0";
      try {
        const legal = await this.legalAt(ply);
        if (this.closed || this.viewer.lastPly !== ply || legal.ply !== ply) return;
        this.legalPly = ply;
        this.viewer.legal = legal.moves || [];
      } catch (err) {
        this.showError(errorText(err));
      } finally {
        if (this.legalFetching === ply) this.legalFetching = null;
      }
    } else if (!myTurn) {
      this.viewer.legal = null;
      this.legalPly = -1;
    }
    this.viewer.render();
    host.dataset.ready = "1";
  }

  // -- rendering --

  seatLabel(seat) {
    const view = localView(this.snap && this.snap.game, this.liveView || {});
    const side = (view.players || [])[seat] || t("Seat {n}", { n: seat + 1 });
    const info = this.snap && this.snap.seats ? this.snap.seats[seat] : null;
    let who = info && info.name ? info.name : "";
    if (info && info.kind === "ai") {
      const level = this.snap.ai && this.snap.ai.level;
      who = level ? t("computer, {level}", { level: label(`level.${level}`, level) }) : t("computer");
    }
    if (this.you === seat) who = who ? t("{who}, you", { who }) : t("you");
    return who ? t("{side} ({who})", { side, who }) : side;
  }

  renderStatus() {
    const s = this.viewer.status;
    clear(s);
    const view = this.liveView;
    if (!view) return;
    if (!this.active) {
      // an unstarted game between people expires (docs/web.md, Challenges: Expiry)
      const over = this.snap && this.snap.status === "aborted"
        ? t("Aborted: the game did not start in time") : t("Game over");
      s.append(el("span", { "data-testid": "game-over" }, over));
      return;
    }
    const seat = view.to_move;
    s.append(sideMarker(seat, 14), " ", el("span", { "data-testid": "turn" }, t("{side} to move", { side: this.seatLabel(seat) })));
    if (this.isMyTurn()) s.append(el("strong", { class: "your-turn", "data-testid": "your-turn" }, " — " + t("your turn")));
    if (!this.viewer.live) s.append(el("em", { class: "history-note" }, " " + t("(you are looking at an earlier position)")));
  }

  renderPlayers() {
    clear(this.players);
    if (!this.snap) return;
    const online = this.presence ? this.presence.seats : (this.snap.seats || []).map((x) => x.online);
    [0, 1].forEach((seat) => {
      const info = (this.snap.seats || [])[seat] || {};
      const here = info.kind === "ai" || (online && online[seat]);
      // an account's or an AI level's seat links to its profile (/@/<username>)
      const player = (this.snap.players || [])[seat];
      const name = player && player.username
        ? el("a", { href: `/@/${encodeURIComponent(player.username)}`, "data-internal": true,
          class: "profile-link", "data-testid": `profile-link-${seat}` }, this.seatLabel(seat))
        : this.seatLabel(seat);
      this.players.append(
        el("div", { class: `seat seat-${seat}`, "data-testid": `seat-${seat}` },
          sideMarker(seat, 16), " ", name, " ",
          el("span", { class: `presence ${here ? "on" : "off"}`, title: here ? t("connected") : t("not connected") },
            here ? "● " + t("online") : "○ " + t("away"))),
      );
    });
    if (this.presence && this.presence.spectators) {
      this.players.append(el("div", { class: "meta" }, tn("{n} watching", "{n} watching", this.presence.spectators)));
    }
  }

  renderAi() {
    const thinking = !!(this.ai && this.ai.thinking) && this.active;
    this.aiBox.hidden = !thinking;
    const fraction = this.ai && this.ai.progress ? Number(this.ai.progress.fraction) || 0 : 0;
    this.aiBar.value = Math.max(0, Math.min(1, fraction));
    const best = this.ai && this.ai.progress ? this.ai.progress.best : null;
    this.aiBest.textContent = thinking && best ? t("best so far: {move}", { move: best }) : "";
  }

  showError(text) {
    this.moves.showError(text);
  }
}
