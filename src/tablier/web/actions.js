// The game page's actions and offers: resign, draw and undo offers, takeback, rematch,
// the record's export and the links to share.  Drawn again from each snapshot.

import { api, errorText } from "./api.js";
import { t } from "./i18n.js";
import { navigate } from "./router.js";
import { myGame, rememberGame } from "./store.js";
import { ask, clear, copyText, download, el } from "./ui.js";

/**
 * The buttons of a game page.  `page` gives the game (id, token, snap, you, active,
 * presence, socket, viewer), showError() and resync().
 */
export class ActionsPanel {
  constructor(page) {
    this.page = page;
    this.offers = el("div", { class: "offers", "data-testid": "offers" });
    this.actions = el("div", { class: "actions", "data-testid": "actions" });
  }

  render() {
    const page = this.page;
    clear(this.actions);
    clear(this.offers);
    if (!page.snap) return;
    const snap = page.snap;
    const you = page.you;
    const seated = you === 0 || you === 1 || you === "both";
    const mode = snap.mode;
    const offers = snap.offers || {};
    const button = (testid, label, fn, title) =>
      el("button", { type: "button", "data-testid": testid, title: title || label, onclick: fn }, label);
    const act = (fn) => async () => {
      try {
        await fn();
        // the WebSocket brings the new snapshot; without it, ask for it
        if (!page.socket || !page.socket.open) await page.resync();
      } catch (err) {
        page.showError(errorText(err));
      }
    };
    const ply = page.viewer.lastPly;
    if (page.active && seated) {
      this.actions.append(button("resign", t("Resign"), async () => {
        if (await ask(t("Resign?"), t("The game ends and your opponent wins."), t("Resign"))) {
          await act(() => api.resign(page.id, page.token))();
        }
      }));
      if (mode === "online" && you !== "both") {
        const pending = (kind) => offers[kind] !== null && offers[kind] !== undefined;
        if (pending("draw") && offers.draw !== you) {
          this.offers.append(el("p", { "data-testid": "draw-offered" }, t("Your opponent offers a draw.")),
            button("accept-draw", t("Accept the draw"), act(() => api.offer(page.id, page.token, "draw", "accept"))),
            button("decline-draw", t("Decline"), act(() => api.offer(page.id, page.token, "draw", "decline"))));
        } else if (pending("draw")) {
          this.offers.append(el("p", { class: "meta", "data-testid": "draw-waiting" }, t("You offered a draw.")));
        } else {
          this.actions.append(button("offer-draw", t("Offer a draw"),
            act(() => api.offer(page.id, page.token, "draw", "offer"))));
        }
        if (pending("undo") && offers.undo !== you) {
          this.offers.append(el("p", { "data-testid": "undo-offered" }, t("Your opponent asks to take back their last move.")),
            button("accept-undo", t("Allow the undo"), act(() => api.offer(page.id, page.token, "undo", "accept"))),
            button("decline-undo", t("Refuse"), act(() => api.offer(page.id, page.token, "undo", "decline"))));
        } else if (pending("undo")) {
          this.offers.append(el("p", { class: "meta", "data-testid": "undo-waiting" }, t("Undo requested; waiting for the answer.")));
        } else if (ply > 0) {
          this.actions.append(button("undo-request", t("Ask to undo my last move"),
            act(() => api.offer(page.id, page.token, "undo", "offer"))));
        }
      }
    }
    const decidedOffBoard = snap.result && ["resignation", "agreement", "timeout"].includes(snap.result.reason);
    if (seated && (mode === "ai" || mode === "local") && ply > 0 && !decidedOffBoard) {
      this.actions.append(button("takeback", mode === "ai" ? t("Take back") : t("Undo the last move"),
        act(() => api.takeback(page.id, page.token)),
        mode === "ai" ? t("Take back your last move and the computer's reply") : t("Take back the last turn")));
    }
    if (!page.active && seated) {
      const label = snap.rematch ? t("Rematch (join)") : t("Rematch, colours swapped");
      this.actions.append(button("rematch", label, () => this.rematch()));
    }
    this.actions.append(button("export-record", t("Export the record"), () => this.exportRecord()));
    const entry = myGame(page.id);
    const opponent = you === 0 || you === 1 ? 1 - you : null;
    const opponentHere = opponent !== null && page.presence && page.presence.seats[opponent];
    if (entry && entry.invite && mode === "online" && page.active && ply === 0 && !opponentHere) {
      const field = el("input", { type: "text", readonly: true, value: entry.invite,
        class: "copy-field", "aria-label": t("Your opponent's link"), "data-testid": "invite-link" });
      field.addEventListener("focus", () => field.select());
      this.offers.append(el("div", { class: "invite", "data-testid": "invite-box" },
        el("p", {}, t("Send this link to your opponent (it gives them their seat):")), field));
    }
    if (entry && entry.invite && mode === "online") {
      this.actions.append(button("copy-seat-link", t("Copy the opponent's link"),
        () => copyText(entry.invite, t("Opponent's link"))));
    }
    this.actions.append(button("copy-spectator-link", t("Copy a link to watch"),
      () => copyText(`${location.origin}/g/${page.id}`, t("Spectator link"))));
    this.actions.append(el("a", { href: "/", "data-internal": true, class: "button-link" }, t("Lobby")));
  }

  async rematch() {
    const page = this.page;
    try {
      const made = await api.rematch(page.id, page.token);
      const tokens = made.tokens || {};
      const token = tokens.both || Object.values(tokens)[0];
      const entry = myGame(page.id) || {};
      rememberGame(made.id, { token, game: entry.game, title: entry.title, mode: entry.mode, invite: null });
      navigate(`/g/${made.id}`);
    } catch (err) {
      page.showError(errorText(err));
    }
  }

  async exportRecord() {
    const page = this.page;
    try {
      const text = await api.record(page.id, "text");
      download(`tablier-${page.snap.game}-${page.id}.txt`, text);
    } catch (err) {
      page.showError(errorText(err));
    }
  }
}
