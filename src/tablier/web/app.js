// Tablier's browser client: the lobby, the game page and the record review page.
// Plain ES modules, no build step.  The shell never looks inside a game's views: each
// game's board module (games/<name>.js) draws state_view dicts and turns clicks into
// notation (see docs/web-client.md).

import { api, ApiError } from "./api.js";
import {
  forgetGame,
  loadReview,
  myGame,
  myGames,
  rememberGame,
  saveReview,
  setSetting,
  settings,
} from "./store.js";
import { ask, choose, clear, copyText, download, el, sideMarker, toast } from "./ui.js";
import { GameSocket } from "./ws.js";

const app = document.getElementById("app");
let page = null; // the current page object ({destroy()})
let catalogCache = null;

// ---------------------------------------------------------------- theme and header --

/** Apply the theme setting: "auto" follows prefers-color-scheme, else "light"/"dark". */
function applyTheme() {
  const theme = settings().theme;
  document.documentElement.dataset.theme = theme;
  const button = document.querySelector("[data-testid=toggle-theme]");
  if (button) {
    const label = { auto: "Theme: auto", light: "Theme: light", dark: "Theme: dark" }[theme];
    button.textContent = label || "Theme";
    button.setAttribute("aria-label", `${label}; click to change`);
  }
}

function setupHeader() {
  const themeButton = document.querySelector("[data-testid=toggle-theme]");
  if (themeButton) {
    themeButton.addEventListener("click", () => {
      const order = ["auto", "dark", "light"];
      const next = order[(order.indexOf(settings().theme) + 1) % order.length];
      setSetting("theme", next);
      applyTheme();
    });
  }
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[data-internal]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(link.getAttribute("href"));
  });
  window.addEventListener("popstate", route);
}

/** Go to `path` inside the application without reloading. */
export function navigate(path) {
  history.pushState(null, "", path);
  route();
}

function route() {
  if (page && page.destroy) page.destroy();
  page = null;
  clear(app);
  const path = location.pathname;
  const match = path.match(/^\/g\/([A-Za-z0-9_-]+)\/?$/);
  if (match) {
    page = new GamePage(match[1]);
  } else if (path === "/review" || path === "/review/") {
    page = new ReviewPage();
  } else if (path === "/" || path === "/index.html" || path === "/static/index.html") {
    page = new LobbyPage();
  } else {
    app.append(
      el("section", { class: "panel" }, el("h1", {}, "Not found"),
        el("p", {}, el("a", { href: "/", "data-internal": true }, "Back to the lobby"))),
    );
  }
}

async function catalog() {
  if (!catalogCache) catalogCache = await api.catalog();
  return catalogCache;
}

function errorText(err) {
  return err instanceof ApiError ? err.message : String((err && err.message) || err);
}

// ------------------------------------------------------------------------- lobby --

class LobbyPage {
  constructor() {
    document.title = "Tablier";
    this.root = el("div", { class: "lobby" });
    app.append(this.root);
    this.newGame = el("section", { class: "panel new-game", "aria-labelledby": "new-game-h" });
    this.mine = el("section", { class: "panel my-games" });
    this.recent = el("section", { class: "panel recent-games" });
    this.records = el("section", { class: "panel open-record" });
    this.root.append(this.newGame, this.mine, this.recent, this.records);
    this.buildRecordForm();
    this.showMyGames();
    this.buildNewGame().catch((err) => {
      this.newGame.append(el("p", { class: "error" }, `Cannot load the games: ${errorText(err)}`));
    });
    this.showRecent();
  }

  destroy() {}

  async buildNewGame() {
    const data = await catalog();
    const games = data.games || [];
    const levels = data.levels || [];
    const form = el("form", { class: "form", "data-testid": "new-game-form" });
    const gameSelect = el("select", { id: "ng-game", name: "game", "data-testid": "new-game-game" });
    for (const g of games) gameSelect.append(el("option", { value: g.name }, g.title || g.name));
    const optionsBox = el("div", { class: "options", "data-testid": "new-game-options" });
    const seatSelect = el("select", { id: "ng-seat", "data-testid": "new-game-seat" });
    const levelSelect = el("select", { id: "ng-level", "data-testid": "ai-level" });
    for (const level of levels) levelSelect.append(el("option", { value: level }, level));
    if (levels.includes("medium")) levelSelect.value = "medium";
    const nameInput = el("input", {
      id: "ng-name",
      type: "text",
      maxlength: 40,
      autocomplete: "nickname",
      placeholder: "optional",
      "data-testid": "player-name",
    });
    const modes = [
      ["online", "A person: send them a link"],
      ["ai", "The computer"],
      ["local", "Same screen (both sides here)"],
    ];
    const modeBox = el("fieldset", { class: "modes" }, el("legend", {}, "Opponent"));
    for (const [value, label] of modes) {
      modeBox.append(
        el("label", { class: "radio" },
          el("input", { type: "radio", name: "mode", value, "data-testid": `mode-${value}`,
            checked: value === "online" }),
          ` ${label}`),
      );
    }
    const levelRow = el("div", { class: "row level-row" },
      el("label", { for: "ng-level" }, "AI level"), levelSelect);
    const seatRow = el("div", { class: "row seat-row" },
      el("label", { for: "ng-seat" }, "My side"), seatSelect);
    const nameRow = el("div", { class: "row" }, el("label", { for: "ng-name" }, "My name"), nameInput);
    const error = el("p", { class: "error", role: "alert", "data-testid": "new-game-error" });
    const submit = el("button", { type: "submit", class: "primary", "data-testid": "create-game" },
      "Start the game");

    const fillGame = () => {
      const game = games.find((g) => g.name === gameSelect.value);
      clear(optionsBox);
      clear(seatSelect);
      if (!game) return;
      for (const opt of game.options || []) {
        const id = `ng-opt-${opt.name}`;
        let input;
        if (opt.choices && opt.choices.length) {
          input = el("select", { id, "data-option": opt.name, "data-testid": `option-${opt.name}` });
          for (const choice of opt.choices) {
            input.append(el("option", { value: String(choice) }, String(choice)));
          }
          if (opt.default !== null && opt.default !== undefined) input.value = String(opt.default);
        } else {
          input = el("input", {
            id,
            type: "text",
            "data-option": opt.name,
            "data-testid": `option-${opt.name}`,
            value: opt.default === null || opt.default === undefined ? "" : String(opt.default),
          });
        }
        optionsBox.append(
          el("div", { class: "row" }, el("label", { for: id, title: opt.doc || "" }, opt.name), input),
          opt.doc ? el("p", { class: "hint" }, opt.doc) : null,
        );
      }
      (game.players || ["First", "Second"]).forEach((name, seat) => {
        seatSelect.append(el("option", { value: String(seat) }, `${name}${seat === 0 ? " (moves first)" : ""}`));
      });
    };
    const fillMode = () => {
      const mode = form.querySelector("input[name=mode]:checked").value;
      levelRow.hidden = mode !== "ai";
      seatRow.hidden = mode === "local";
      nameRow.hidden = mode === "local";
    };
    gameSelect.addEventListener("change", fillGame);
    modeBox.addEventListener("change", fillMode);
    form.append(
      el("div", { class: "row" }, el("label", { for: "ng-game" }, "Game"), gameSelect),
      optionsBox, modeBox, levelRow, seatRow, nameRow, error, submit,
    );
    fillGame();
    fillMode();
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      error.textContent = "";
      const mode = form.querySelector("input[name=mode]:checked").value;
      const seat = Number(seatSelect.value || 0);
      const options = {};
      for (const input of optionsBox.querySelectorAll("[data-option]")) {
        if (input.value !== "") options[input.dataset.option] = input.value;
      }
      const names = ["", ""];
      if (mode !== "local") names[seat] = nameInput.value.trim().slice(0, 40);
      const body = { game: gameSelect.value, options, mode, seat, names };
      if (mode === "ai") body.ai_level = levelSelect.value;
      submit.disabled = true;
      try {
        const made = await api.createGame(body);
        const tokens = made.tokens || {};
        const links = made.links || {};
        const entry = {
          game: body.game,
          title: (made.game && made.game.title) || body.game,
          mode,
          seat: mode === "local" ? "both" : seat,
          token: mode === "local" ? tokens.both : tokens[String(seat)],
        };
        if (mode === "online") entry.invite = links[String(1 - seat)] || null;
        rememberGame(made.id, entry);
        navigate(`/g/${made.id}`);
      } catch (err) {
        error.textContent = errorText(err);
      } finally {
        submit.disabled = false;
      }
    });
    this.newGame.append(el("h2", { id: "new-game-h" }, "New game"), form);
  }

  showMyGames() {
    clear(this.mine);
    this.mine.append(el("h2", {}, "My games"));
    const list = myGames();
    if (!list.length) {
      this.mine.append(el("p", { class: "hint" }, "Games you create or join appear here."));
      return;
    }
    const ul = el("ul", { class: "game-list", "data-testid": "my-games" });
    for (const g of list) {
      const side = g.seat === "both" ? "both sides" : g.seat === undefined || g.seat === null
        ? "" : `seat ${Number(g.seat) + 1}`;
      const when = g.created ? new Date(g.created).toLocaleString() : "";
      ul.append(
        el("li", {},
          el("a", { href: `/g/${g.id}`, "data-internal": true, "data-testid": "my-game-link" },
            `${g.title || g.game || "game"}`),
          el("span", { class: "meta" }, ` ${[g.mode, side, when].filter(Boolean).join(" · ")} `),
          el("button", {
            type: "button",
            class: "small",
            "data-testid": "forget-game",
            title: "Forget this game (and its seat link) on this device",
            onclick: async () => {
              if (await ask("Forget this game?",
                "Its seat link is kept only in this browser: without it you cannot move in it again.",
                "Forget")) {
                forgetGame(g.id);
                this.showMyGames();
              }
            },
          }, "Forget"),
        ),
      );
    }
    this.mine.append(ul);
  }

  async showRecent() {
    this.recent.append(el("h2", {}, "Recent games"));
    try {
      const data = await api.recentGames(20);
      const games = (data && data.games) || [];
      if (!games.length) {
        this.recent.append(el("p", { class: "hint" }, "No games yet."));
        return;
      }
      const ul = el("ul", { class: "game-list", "data-testid": "recent-games" });
      for (const g of games) {
        const bits = [g.mode, g.status, g.ply !== undefined ? `${g.ply} move${g.ply === 1 ? "" : "s"}` : null];
        if (g.result && g.result.result) bits.push(g.result.result);
        ul.append(el("li", {},
          el("a", { href: `/g/${g.id}`, "data-internal": true }, g.title || g.game || g.id),
          el("span", { class: "meta" }, ` ${bits.filter(Boolean).join(" · ")}`)));
      }
      this.recent.append(ul);
    } catch (err) {
      this.recent.append(el("p", { class: "error" }, errorText(err)));
    }
  }

  buildRecordForm() {
    const text = el("textarea", {
      id: "record-text",
      rows: 5,
      placeholder: "[Game \"xobo\"]\n1. e5 ; a4->c4 …",
      "data-testid": "record-text",
      spellcheck: "false",
    });
    const file = el("input", { type: "file", accept: ".txt,.json,text/plain,application/json",
      "data-testid": "record-file", id: "record-file" });
    const error = el("p", { class: "error", role: "alert", "data-testid": "record-error" });
    file.addEventListener("change", async () => {
      const f = file.files && file.files[0];
      if (f) text.value = await f.text();
    });
    const button = el("button", { type: "button", class: "primary", "data-testid": "open-record" },
      "Review");
    button.addEventListener("click", async () => {
      error.textContent = "";
      if (!text.value.trim()) {
        error.textContent = "Paste a record or choose a file first.";
        return;
      }
      try {
        const data = await api.parseRecord(text.value);
        saveReview({ ...data, text: text.value });
        navigate("/review");
      } catch (err) {
        error.textContent = errorText(err);
      }
    });
    this.records.append(
      el("h2", {}, "Open a record"),
      el("label", { for: "record-text" }, "Paste a game record (text or JSON) or choose a file"),
      text, file, error, button,
    );
  }
}

// --------------------------------------------------------------- the board viewer --

/**
 * The part shared by the game page and the review page: the board module, the move list,
 * history navigation (← → Home End), the info panel and the result banner.
 */
class Viewer {
  constructor(host, { onSubmit }) {
    this.host = host;
    this.onSubmit = onSubmit;
    this.views = [];
    this.moveViews = [];
    this.moves = [];
    this.viewPly = null; // null: follow the live position
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
      navButton("nav-first", "«", "Start (Home)", () => this.go(0)),
      navButton("nav-prev", "‹", "Back one move (←)", () => this.step(-1)),
      this.plyLabel,
      navButton("nav-next", "›", "Forward one move (→)", () => this.step(1)),
      navButton("nav-last", "»", "Latest position (End)", () => this.go(null)),
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
      module = await import(`./games/${encodeURIComponent(game)}.js`);
    } catch (err) {
      this.boardHost.append(el("p", { class: "error" }, `No board for ${game}: ${errorText(err)}`));
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

  /** Replace the whole history. */
  setHistory(views, moveViews, moves) {
    this.views = views.slice();
    this.moveViews = moveViews.slice();
    this.moves = moves ? moves.slice() : moveViews.map((m) => m.notation);
    if (this.viewPly !== null && this.viewPly >= this.lastPly) this.viewPly = null;
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
    if (this.board) {
      this.board.render(view, {
        legal: this.live ? this.legal : null,
        last,
        coordinates: s.coordinates,
        flipped: this.flipped,
      });
      clear(this.info);
      const panel = this.board.info ? this.board.info(view) : null;
      if (panel) this.info.append(panel);
    }
    this.plyLabel.textContent = this.live
      ? `move ${this.lastPly} (latest)`
      : `move ${ply} of ${this.lastPly}`;
    this.host.classList.toggle("viewing-history", !this.live);
    this.renderMoveList();
    this.renderBanner();
  }

  renderMoveList() {
    clear(this.moveList);
    const shown = this.shownPly;
    this.moves.forEach((notation, i) => {
      const mover = this.views[i] ? this.views[i].to_move : null;
      const item = el("li", { class: i + 1 === shown ? "current" : "" },
        el("button", {
          type: "button",
          class: "move",
          "data-ply": i + 1,
          "data-testid": "move-item",
          "aria-current": i + 1 === shown ? "step" : false,
          onclick: () => this.go(i + 1),
        },
        el("span", { class: "num" }, `${i + 1}.`),
        mover === 0 || mover === 1 ? sideMarker(mover, 10) : null,
        el("span", { class: "notation" }, notation)));
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
    const players = (this.views[this.lastPly] || {}).players || [];
    const winner = result.winner === 0 || result.winner === 1 ? players[result.winner] : null;
    this.banner.append(
      el("strong", { class: "result" }, result.result || ""),
      " ",
      el("span", { class: "headline" }, winner ? `${winner} wins` : "Draw"),
      el("span", { class: "reason", "data-testid": "result-reason" },
        ` — ${result.message || result.reason || ""}`),
    );
  }
}

// ------------------------------------------------------------------ the game page --

class GamePage {
  constructor(id) {
    this.id = id;
    this.closed = false;
    this.snap = null;
    this.presence = null;
    this.ai = null;
    this.pending = null;
    this.sending = false;
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
    this.build();
    this.load();
  }

  destroy() {
    this.closed = true;
    if (this.socket) this.socket.close();
    this.viewer.destroy();
  }

  build() {
    this.viewer = new Viewer(null, { onSubmit: (notation) => this.submit(notation) });
    const v = this.viewer;
    this.root = el("div", { class: "game-page", "data-testid": "game-page" });
    v.host = this.root;
    this.connection = el("span", { class: "connection", "data-testid": "connection" }, "connecting…");
    this.aiBox = el("div", { class: "ai-thinking", "data-testid": "ai-thinking", hidden: true },
      el("span", {}, "The computer is thinking"),
      this.aiBar = el("progress", { max: 1, value: 0, "aria-label": "The computer's progress" }),
      this.aiBest = el("span", { class: "meta", "data-testid": "ai-best" }));
    this.confirmBar = el("div", { class: "confirm-bar", "data-testid": "confirm-bar", hidden: true });
    this.moveInput = el("input", {
      type: "text",
      id: "move-input",
      autocomplete: "off",
      spellcheck: "false",
      maxlength: 60,
      placeholder: "type a move",
      "aria-label": "Move in notation",
      "data-testid": "move-input",
    });
    this.moveError = el("div", { class: "move-error", role: "alert", "data-testid": "move-error" });
    const form = el("form", { class: "move-form", "data-testid": "move-form" },
      this.moveInput, el("button", { type: "submit", "data-testid": "move-submit" }, "Play"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.moveInput.value.trim();
      if (text) this.submit(text, { typed: true });
    });
    this.form = form;
    this.players = el("div", { class: "players", "data-testid": "players" });
    this.offers = el("div", { class: "offers", "data-testid": "offers" });
    this.actions = el("div", { class: "actions", "data-testid": "actions" });
    this.settingsBox = el("div", { class: "settings" });
    this.buildSettings();
    const boardColumn = el("div", { class: "board-column" },
      v.status, this.aiBox, v.banner, v.boardHost, this.confirmBar, form, this.moveError,
      v.historyBar);
    const side = el("aside", { class: "side-column" },
      el("section", { class: "panel" }, this.players, this.connection),
      el("section", { class: "panel" }, v.info),
      el("section", { class: "panel" }, el("h2", {}, "Moves"), v.moveList),
      el("section", { class: "panel" }, this.offers, this.actions),
      el("section", { class: "panel" }, this.settingsBox));
    this.root.append(boardColumn, side);
    app.append(this.root);
  }

  buildSettings() {
    const s = settings();
    const check = (testid, label, value, fn) => {
      const input = el("input", { type: "checkbox", "data-testid": testid, checked: value });
      input.addEventListener("change", () => fn(input.checked));
      return el("label", { class: "check" }, input, ` ${label}`);
    };
    this.settingsBox.append(
      el("h2", {}, "Settings"),
      check("toggle-confirm", "Confirm each move before sending", s.confirm, (on) => {
        setSetting("confirm", on);
        if (!on) this.cancelPending();
      }),
      check("toggle-coordinates", "Show coordinates", s.coordinates, (on) => {
        setSetting("coordinates", on);
        this.viewer.render();
      }),
      check("toggle-flip", "Turn the board round", s.flip, (on) => {
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
        toast("This seat link is not valid for this game: you are watching.", "error");
        snap = await api.game(this.id, null);
      }
      await this.enqueue(() => this.applySnapshot(snap));
    } catch (err) {
      if (this.closed) return;
      clear(this.viewer.boardHost);
      this.viewer.boardHost.append(el("p", { class: "error", "data-testid": "load-error" },
        err instanceof ApiError && err.status === 404 ? "There is no such game." : errorText(err)));
      return;
    }
    if (this.closed) return;
    this.socket = new GameSocket(this.id, this.token, {
      onMessage: (msg) => this.onMessage(msg),
      onState: (state) => {
        this.connection.textContent = { open: "live", connecting: "connecting…", closed: "reconnecting…" }[state] || state;
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
    if (first) document.title = `${snap.title || snap.game} — Tablier`;
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

  async reloadHistory(snap) {
    try {
      const h = await api.history(this.id);
      if (this.closed) return;
      this.viewer.setHistory(h.views, h.moves, snap.moves);
    } catch (err) {
      // fall back on the current position alone
      this.viewer.setHistory([snap.view], [], []);
      toast(`Cannot load the history: ${errorText(err)}`, "error");
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
        this.showError(msg.message || msg.code || "error");
        break;
      case "presence":
        this.presence = msg;
        this.renderPlayers();
        this.renderActions();
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
      await this.applySnapshot(await api.game(this.id, this.token));
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
    };
    v.result = msg.result || null;
    if (this.pending) this.cancelPending();
    if (v.board) v.board.reset();
    this.refresh();
  }

  resync() {
    return this.enqueue(async () => this.applySnapshot(await api.game(this.id, this.token)));
  }

  async refresh() {
    this.renderStatus();
    this.renderPlayers();
    this.renderAi();
    this.renderActions();
    const myTurn = this.isMyTurn();
    this.root.classList.toggle("my-turn", myTurn);
    this.moveInput.disabled = !myTurn;
    this.form.querySelector("button").disabled = !myTurn;
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
        const legal = await api.legal(this.id, this.token);
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

  // -- moves --

  async submit(notation, { typed = false } = {}) {
    this.moveError.textContent = "";
    if (!this.viewer.live) {
      this.viewer.go(null);
      this.showError("You were looking at an earlier position: here is the current one.");
      return;
    }
    if (!this.isMyTurn()) {
      this.showError(this.active ? "It is not your turn." : "The game is over.");
      if (this.viewer.board) this.viewer.board.reset();
      return;
    }
    if (settings().confirm) {
      this.askConfirm(notation, typed);
    } else {
      await this.send(notation, typed);
    }
  }

  askConfirm(notation, typed) {
    this.pending = { notation, typed, ply: this.viewer.lastPly };
    clear(this.confirmBar);
    const yes = el("button", { type: "button", class: "primary", "data-testid": "confirm-move",
      onclick: () => {
        const p = this.pending;
        this.cancelPending(false);
        if (p && p.ply === this.viewer.lastPly) this.send(p.notation, p.typed);
      } }, "Play it");
    const no = el("button", { type: "button", "data-testid": "cancel-move",
      onclick: () => this.cancelPending() }, "Cancel");
    this.confirmBar.append(
      el("span", {}, "Play "),
      el("strong", { "data-testid": "pending-move" }, [].concat(notation).join(", then ")),
      el("span", {}, "?"),
      yes, no,
    );
    this.confirmBar.hidden = false;
    yes.focus();
  }

  cancelPending(resetBoard = true) {
    this.pending = null;
    this.confirmBar.hidden = true;
    clear(this.confirmBar);
    if (resetBoard && this.viewer.board) this.viewer.board.reset();
  }

  async send(notation, typed) {
    // `notation` is one decision, or several decisions of the same player in a row (a board
    // may ask for a whole action at once, e.g. Voldetour's take and put): they are sent in
    // order, each at the ply the previous one reached, under one confirm step.
    if (this.sending) return;
    this.sending = true;
    let ply = this.viewer.lastPly;
    try {
      let snap = null;
      for (const one of [].concat(notation)) {
        snap = await api.move(this.id, this.token, ply, one);
        ply = snap.ply;
      }
      if (typed) this.moveInput.value = "";
      this.moveError.textContent = "";
      await this.enqueue(() => {
        if (snap && snap.ply >= this.viewer.lastPly) return this.applySnapshot(snap);
        return null;
      });
    } catch (err) {
      this.showError(errorText(err));
      if (err instanceof ApiError && (err.code === "stale_ply" || err.status === 409)) this.resync();
      if (this.viewer.board) this.viewer.board.reset();
      this.viewer.render();
    } finally {
      this.sending = false;
    }
  }

  showError(text) {
    this.moveError.textContent = text;
  }

  // -- rendering --

  seatLabel(seat) {
    const view = this.liveView || {};
    const side = (view.players || [])[seat] || `Seat ${seat + 1}`;
    const info = this.snap && this.snap.seats ? this.snap.seats[seat] : null;
    let who = info && info.name ? info.name : "";
    if (info && info.kind === "ai") who = `computer${this.snap.ai && this.snap.ai.level ? `, ${this.snap.ai.level}` : ""}`;
    if (this.you === seat) who = who ? `${who}, you` : "you";
    return who ? `${side} (${who})` : side;
  }

  renderStatus() {
    const s = this.viewer.status;
    clear(s);
    const view = this.liveView;
    if (!view) return;
    if (!this.active) {
      s.append(el("span", {}, "Game over"));
      return;
    }
    const seat = view.to_move;
    s.append(sideMarker(seat, 14), " ", el("span", { "data-testid": "turn" }, `${this.seatLabel(seat)} to move`));
    if (this.isMyTurn()) s.append(el("strong", { class: "your-turn", "data-testid": "your-turn" }, " — your turn"));
    if (!this.viewer.live) s.append(el("em", { class: "history-note" }, " (you are looking at an earlier position)"));
  }

  renderPlayers() {
    clear(this.players);
    if (!this.snap) return;
    const online = this.presence ? this.presence.seats : (this.snap.seats || []).map((x) => x.online);
    [0, 1].forEach((seat) => {
      const info = (this.snap.seats || [])[seat] || {};
      const here = info.kind === "ai" || (online && online[seat]);
      this.players.append(
        el("div", { class: `seat seat-${seat}`, "data-testid": `seat-${seat}` },
          sideMarker(seat, 16), " ", this.seatLabel(seat), " ",
          el("span", { class: `presence ${here ? "on" : "off"}`, title: here ? "connected" : "not connected" },
            here ? "● online" : "○ away")),
      );
    });
    if (this.presence && this.presence.spectators) {
      this.players.append(el("div", { class: "meta" }, `${this.presence.spectators} watching`));
    }
  }

  renderAi() {
    const thinking = !!(this.ai && this.ai.thinking) && this.active;
    this.aiBox.hidden = !thinking;
    const fraction = this.ai && this.ai.progress ? Number(this.ai.progress.fraction) || 0 : 0;
    this.aiBar.value = Math.max(0, Math.min(1, fraction));
    const best = this.ai && this.ai.progress ? this.ai.progress.best : null;
    this.aiBest.textContent = thinking && best ? `best so far: ${best}` : "";
  }

  renderActions() {
    clear(this.actions);
    clear(this.offers);
    if (!this.snap) return;
    const snap = this.snap;
    const you = this.you;
    const seated = you === 0 || you === 1 || you === "both";
    const mode = snap.mode;
    const offers = snap.offers || {};
    const button = (testid, label, fn, title) =>
      el("button", { type: "button", "data-testid": testid, title: title || label, onclick: fn }, label);
    const act = (fn) => async () => {
      try {
        await fn();
        // the WebSocket brings the new snapshot; without it, ask for it
        if (!this.socket || !this.socket.open) await this.resync();
      } catch (err) {
        this.showError(errorText(err));
      }
    };
    const ply = this.viewer.lastPly;
    if (this.active && seated) {
      this.actions.append(button("resign", "Resign", async () => {
        if (await ask("Resign?", "The game ends and your opponent wins.", "Resign")) {
          await act(() => api.resign(this.id, this.token))();
        }
      }));
      if (mode === "online" && you !== "both") {
        const pending = (kind) => offers[kind] !== null && offers[kind] !== undefined;
        if (pending("draw") && offers.draw !== you) {
          this.offers.append(el("p", { "data-testid": "draw-offered" }, "Your opponent offers a draw."),
            button("accept-draw", "Accept the draw", act(() => api.offer(this.id, this.token, "draw", "accept"))),
            button("decline-draw", "Decline", act(() => api.offer(this.id, this.token, "draw", "decline"))));
        } else if (pending("draw")) {
          this.offers.append(el("p", { class: "meta", "data-testid": "draw-waiting" }, "You offered a draw."));
        } else {
          this.actions.append(button("offer-draw", "Offer a draw",
            act(() => api.offer(this.id, this.token, "draw", "offer"))));
        }
        if (pending("undo") && offers.undo !== you) {
          this.offers.append(el("p", { "data-testid": "undo-offered" }, "Your opponent asks to take back their last move."),
            button("accept-undo", "Allow the undo", act(() => api.offer(this.id, this.token, "undo", "accept"))),
            button("decline-undo", "Refuse", act(() => api.offer(this.id, this.token, "undo", "decline"))));
        } else if (pending("undo")) {
          this.offers.append(el("p", { class: "meta", "data-testid": "undo-waiting" }, "Undo requested; waiting for the answer."));
        } else if (ply > 0) {
          this.actions.append(button("undo-request", "Ask to undo my last move",
            act(() => api.offer(this.id, this.token, "undo", "offer"))));
        }
      }
    }
    const decidedOffBoard = snap.result && ["resignation", "agreement"].includes(snap.result.reason);
    if (seated && (mode === "ai" || mode === "local") && ply > 0 && !decidedOffBoard) {
      this.actions.append(button("takeback", mode === "ai" ? "Take back" : "Undo the last move",
        act(() => api.takeback(this.id, this.token)),
        mode === "ai" ? "Take back your last move and the computer's reply" : "Take back the last turn"));
    }
    if (!this.active && seated) {
      const label = snap.rematch ? "Rematch (join)" : "Rematch, colours swapped";
      this.actions.append(button("rematch", label, () => this.rematch()));
    }
    this.actions.append(button("export-record", "Export the record", () => this.exportRecord()));
    const entry = myGame(this.id);
    const opponent = you === 0 || you === 1 ? 1 - you : null;
    const opponentHere = opponent !== null && this.presence && this.presence.seats[opponent];
    if (entry && entry.invite && mode === "online" && this.active && ply === 0 && !opponentHere) {
      const field = el("input", { type: "text", readonly: true, value: entry.invite,
        class: "copy-field", "aria-label": "Your opponent's link", "data-testid": "invite-link" });
      field.addEventListener("focus", () => field.select());
      this.offers.append(el("div", { class: "invite", "data-testid": "invite-box" },
        el("p", {}, "Send this link to your opponent (it gives them their seat):"), field));
    }
    if (entry && entry.invite && mode === "online") {
      this.actions.append(button("copy-seat-link", "Copy the opponent's link",
        () => copyText(entry.invite, "Opponent's link")));
    }
    this.actions.append(button("copy-spectator-link", "Copy a link to watch",
      () => copyText(`${location.origin}/g/${this.id}`, "Spectator link")));
    this.actions.append(el("a", { href: "/", "data-internal": true, class: "button-link" }, "Lobby"));
  }

  async rematch() {
    try {
      const made = await api.rematch(this.id, this.token);
      const tokens = made.tokens || {};
      const token = tokens.both || Object.values(tokens)[0];
      const entry = myGame(this.id) || {};
      rememberGame(made.id, { token, game: entry.game, title: entry.title, mode: entry.mode, invite: null });
      navigate(`/g/${made.id}`);
    } catch (err) {
      this.showError(errorText(err));
    }
  }

  async exportRecord() {
    try {
      const text = await api.record(this.id, "text");
      download(`tablier-${this.snap.game}-${this.id}.txt`, text);
    } catch (err) {
      this.showError(errorText(err));
    }
  }
}

// ---------------------------------------------------------------- record review --

class ReviewPage {
  constructor() {
    document.title = "Review — Tablier";
    this.data = loadReview();
    this.viewer = new Viewer(null, { onSubmit: () => {} });
    const v = this.viewer;
    this.root = el("div", { class: "game-page review", "data-testid": "review-page" });
    v.host = this.root;
    app.append(this.root);
    if (!this.data || !Array.isArray(this.data.views) || !this.data.views.length) {
      this.root.append(el("section", { class: "panel" }, el("h1", {}, "No record to review"),
        el("p", {}, el("a", { href: "/", "data-internal": true }, "Open one from the lobby"))));
      return;
    }
    const headers = el("dl", { class: "headers", "data-testid": "record-headers" },
      el("dt", {}, "Game"), el("dd", { "data-testid": "record-spec" }, String(this.data.spec || this.data.game)));
    for (const [key, value] of Object.entries(this.data.headers || {})) {
      if (key === "Game") continue;
      headers.append(el("dt", {}, key), el("dd", {}, String(value)));
    }
    const coords = el("input", { type: "checkbox", "data-testid": "toggle-coordinates", checked: settings().coordinates });
    coords.addEventListener("change", () => {
      setSetting("coordinates", coords.checked);
      v.render();
    });
    this.root.append(
      el("div", { class: "board-column" }, v.status, v.banner, v.boardHost, v.historyBar),
      el("aside", { class: "side-column" },
        el("section", { class: "panel" }, el("h2", {}, "Record"), headers),
        el("section", { class: "panel" }, v.info),
        el("section", { class: "panel" }, el("h2", {}, "Moves"), v.moveList),
        el("section", { class: "panel" },
          el("button", { type: "button", "data-testid": "export-record",
            onclick: () => download(`tablier-${this.data.game}-record.txt`, this.data.text || "") },
          "Download the record"),
          el("label", { class: "check" }, coords, " Show coordinates"),
          el("a", { href: "/", "data-internal": true, class: "button-link" }, "Lobby"))),
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
    v.status.textContent = `Reviewing a record of ${this.data.spec || this.data.game}`;
    await v.ensureBoard(this.data.game);
    v.render();
  }

  destroy() {
    this.viewer.destroy();
  }
}

// ----------------------------------------------------------------------- start --

applyTheme();
setupHeader();
route();
