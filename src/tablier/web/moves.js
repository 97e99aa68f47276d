// The game page's move input: the notation box, the check of a typed move against the
// legal moves, the confirm step ("Play e5?") and the sending of a move (or of several
// decisions of one action, e.g. Voldétour's take and put).

import { api, ApiError, errorText } from "./api.js";
import { t } from "./i18n.js";
import { settings } from "./store.js";
import { clear, el } from "./ui.js";

/** The text of a move with letter case, spaces and the various dash characters set aside. */
export function moveKey(text) {
  return String(text).normalize("NFC").toLowerCase()
    .replace(/[\u2010-\u2015\u2212]/g, "-").replace(/\s+/g, "");
}

/**
 * The move list's lines: one per turn, a turn being the decisions one player makes in a
 * row (one decision in most games; several where the engine splits a turn).  `moves`: the
 * notations of the game; `turnEnds`: the notation prefixes of the decisions that end a
 * turn, when the game's state view gives them (`turn_ends`), else null; `moverOf(i)`: the
 * player of decision i (0-based) when its position is loaded, else null.  Without
 * `turnEnds` a line ends where the player changes, or where that is not known.  A decision
 * that the next one of its line begins with (taking a piece, then the put that names it)
 * is folded into it.  → [{first, last, mover, items: [{ply, notation, folded}]}], plies
 * 1-based (decision i leads to position i + 1); `mover` null when not known.
 */
export function turnLines(moves, turnEnds, moverOf) {
  const ends = turnEnds && turnEnds.length ? turnEnds.map(moveKey) : null;
  const endsTurn = (i) => {
    if (ends) return ends.some((prefix) => moveKey(moves[i]).startsWith(prefix));
    const a = moverOf(i);
    const b = moverOf(i + 1);
    return a === null || a === undefined || a !== b;
  };
  const lines = [];
  let line = null;
  moves.forEach((notation, i) => {
    if (!line) {
      line = { first: i + 1, last: i + 1, mover: null, items: [] };
      lines.push(line);
    }
    line.items.push({ ply: i + 1, notation, folded: false });
    line.last = i + 1;
    if (endsTurn(i)) line = null;
  });
  for (const ln of lines) {
    ln.items.forEach((item, k) => {
      const next = ln.items[k + 1];
      item.folded = !!next && moveKey(next.notation).startsWith(moveKey(item.notation));
    });
  }
  // the players: from a loaded position; lines that end at turn ends alternate players
  let anchor = null;
  lines.forEach((ln, k) => {
    for (let i = ln.first - 1; i < ln.last && anchor === null; i++) {
      const p = moverOf(i);
      if (p === 0 || p === 1) anchor = { k, p };
    }
  });
  if (anchor === null && lines.length) {
    // the position after the last decision: its player's line is the last one, or the
    // next when the last decision ended a turn
    const p = moverOf(moves.length);
    if (p === 0 || p === 1) anchor = { k: line ? lines.length - 1 : lines.length, p };
  }
  if (anchor !== null && ends) {
    lines.forEach((ln, k) => {
      ln.mover = (anchor.p + Math.abs(k - anchor.k)) % 2;
    });
  } else {
    for (const ln of lines) {
      const p = moverOf(ln.first - 1);
      ln.mover = p === 0 || p === 1 ? p : null;
    }
  }
  return lines;
}

/**
 * Read a typed move against `legal` (the move views of the position): → {notation} (the
 * legal move's own notation, which is what is sent) or {error} (why it is refused).
 * Accepted: a legal move's notation, letter case, spaces and dashes aside; then whatever
 * the game's board module reads (`board.readMove(text, legal)` → a legal move view or
 * null: another spelling its engine accepts, such as XoBo's optional "(v)").
 */
export function readTyped(text, legal, board) {
  const exact = legal.find((m) => m.notation === text);
  if (exact) return { notation: exact.notation };
  const key = moveKey(text);
  const same = legal.filter((m) => moveKey(m.notation) === key);
  if (same.length === 1) return { notation: same[0].notation };
  const read = board && typeof board.readMove === "function" ? board.readMove(text, legal) : null;
  if (read && legal.includes(read)) return { notation: read.notation };
  if (!legal.length) return { error: t("There is no legal move in this position.") };
  // suggestions: the legal moves that continue what was typed, else that begin like it
  let like = legal.filter((m) => moveKey(m.notation).startsWith(key));
  if (!like.length && key.length >= 2) {
    like = legal.filter((m) => moveKey(m.notation).startsWith(key.slice(0, 2)));
  }
  const names = like.slice(0, 6).map((m) => m.notation);
  const more = like.length > names.length ? ", …" : "";
  const error = t("{move} is not a legal move in this position.", { move: text });
  if (!names.length) return { error };
  const hint = t("Legal moves like it: {moves}.", { moves: `${names.join(", ")}${more}` });
  return { error: `${error} ${hint}` };
}

/**
 * The move box, confirm bar and error line of a game page.  `page` gives the game (id,
 * token), its viewer, isMyTurn(), active, enqueue(), applySnapshot() and resync().
 */
export class MoveInput {
  constructor(page) {
    this.page = page;
    this.pending = null; // {notation, typed, ply} while the confirm step waits
    this.sending = false;
    this.confirmBar = el("div", { class: "confirm-bar", "data-testid": "confirm-bar", hidden: true });
    this.input = el("input", {
      type: "text",
      id: "move-input",
      autocomplete: "off",
      spellcheck: "false",
      maxlength: 60,
      placeholder: t("type a move"),
      "aria-label": t("Move in notation"),
      "aria-describedby": "move-error",
      "data-testid": "move-input",
    });
    this.error = el("div", { class: "move-error", id: "move-error", role: "alert",
      "data-testid": "move-error" });
    this.form = el("form", { class: "move-form", "data-testid": "move-form" },
      this.input, el("button", { type: "submit", "data-testid": "move-submit" }, t("Play")));
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (text) this.submit(text, { typed: true });
    });
    this.input.addEventListener("input", () => this.input.removeAttribute("aria-invalid"));
  }

  /** Enable the box only when the player may move. */
  setEnabled(on) {
    this.input.disabled = !on;
    this.form.querySelector("button").disabled = !on;
  }

  showError(text) {
    this.error.textContent = text;
  }

  /** A move from the board (notation, or a list of decisions) or typed in the box. */
  async submit(notation, { typed = false } = {}) {
    const page = this.page;
    const viewer = page.viewer;
    this.error.textContent = "";
    if (!viewer.live) {
      viewer.go(null);
      this.showError(t("You were looking at an earlier position: here is the current one."));
      return;
    }
    if (!page.isMyTurn()) {
      this.showError(page.active ? t("It is not your turn.") : t("The game is over."));
      if (viewer.board) viewer.board.reset();
      return;
    }
    if (typed) {
      // checked before the confirm step: a wrong entry is refused at once, its text kept
      const ply = viewer.lastPly;
      const legal = await this.legalNow();
      if (viewer.lastPly !== ply || !page.isMyTurn()) {
        this.showError(t("The position changed while your move was being checked: look again."));
        return;
      }
      if (legal) {
        const read = readTyped(notation, legal, viewer.board);
        if (read.error) {
          this.showError(read.error);
          this.input.setAttribute("aria-invalid", "true");
          this.input.focus();
          return;
        }
        notation = read.notation;
      }
    }
    if (settings().confirm) {
      this.askConfirm(notation, typed);
    } else {
      await this.send(notation, typed);
    }
  }

  /** The legal moves of the position shown (fetched when the viewer has none yet). */
  async legalNow() {
    const page = this.page;
    const viewer = page.viewer;
    if (viewer.legal) return viewer.legal;
    try {
      const legal = await api.legal(page.id, page.token);
      return legal.ply === viewer.lastPly ? legal.moves || [] : null;
    } catch (_) {
      return null; // the server checks the move when it is sent
    }
  }

  askConfirm(notation, typed) {
    const viewer = this.page.viewer;
    this.pending = { notation, typed, ply: viewer.lastPly };
    clear(this.confirmBar);
    const yes = el("button", { type: "button", class: "primary", "data-testid": "confirm-move",
      onclick: () => {
        const p = this.pending;
        this.cancelPending(false);
        if (p && p.ply === viewer.lastPly) this.send(p.notation, p.typed);
      } }, t("Play it"));
    const no = el("button", { type: "button", "data-testid": "cancel-move",
      onclick: () => this.cancelPending() }, t("Cancel"));
    // "Play {move}?" with the move in bold: the sentence is split around its placeholder
    const [before, after] = t("Play {move}?").split("{move}");
    this.confirmBar.append(
      el("span", {}, before || ""),
      el("strong", { "data-testid": "pending-move" }, [].concat(notation).join(t(", then "))),
      el("span", {}, after || ""),
      yes, no,
    );
    this.confirmBar.hidden = false;
    yes.focus();
  }

  /** Drop the move waiting in the confirm step (and the board's selection). */
  cancelPending(resetBoard = true) {
    const board = this.page.viewer.board;
    this.pending = null;
    this.confirmBar.hidden = true;
    clear(this.confirmBar);
    if (resetBoard && board) board.reset();
  }

  async send(notation, typed) {
    // `notation` is one decision, or several decisions of the same player in a row (a board
    // may ask for a whole action at once, e.g. Voldetour's take and put): they are sent in
    // order, each at the ply the previous one reached, under one confirm step.
    if (this.sending) return;
    const page = this.page;
    const viewer = page.viewer;
    this.sending = true;
    let ply = viewer.lastPly;
    try {
      let snap = null;
      for (const one of [].concat(notation)) {
        snap = await api.move(page.id, page.token, ply, one);
        ply = snap.ply;
      }
      if (typed) this.input.value = "";
      this.error.textContent = "";
      await page.enqueue(() => {
        if (snap && snap.ply >= viewer.lastPly) return page.applySnapshot(snap);
        return null;
      });
    } catch (err) {
      this.showError(errorText(err));
      if (err instanceof ApiError && (err.code === "stale_ply" || err.status === 409)) page.resync();
      if (viewer.board) viewer.board.reset();
      viewer.render();
    } finally {
      this.sending = false;
    }
  }
}
