// A player's page (/@/<username>): results, ratings per game and variant, and games,
// newest first, a page at a time (GET /api/players/<username>, docs/web.md).

import { api, ApiError, errorText } from "./api.js";
import { label, t, tn } from "./i18n.js";
import { clear, el } from "./ui.js";

const PAGE = 20;

export class ProfilePage {
  constructor(container, username) {
    this.username = username;
    this.offset = 0;
    this.closed = false;
    this.root = el("section", { class: "panel profile", "data-testid": "profile" });
    container.append(this.root);
    this.load();
  }

  destroy() {
    this.closed = true;
  }

  async load() {
    let data;
    try {
      data = await api.player(this.username, this.offset, PAGE);
    } catch (err) {
      if (this.closed) return;
      clear(this.root);
      this.root.append(el("p", { class: "error", "data-testid": "profile-error" },
        err instanceof ApiError && err.status === 404 ? t("There is no such player.") : errorText(err)));
      return;
    }
    if (!this.closed) this.render(data);
  }

  displayName(user) {
    if (user.kind !== "ai") return user.username;
    const level = user.id.replace(/^ai-/, "");
    return t("computer, {level}", { level: label(`level.${level}`, level) });
  }

  render(data) {
    const root = clear(this.root);
    const user = data.user;
    document.title = this.displayName(user) + " — Tablier";
    root.append(el("h1", { "data-testid": "profile-name" }, this.displayName(user)));
    if (user.kind === "ai") root.append(el("p", { class: "meta" }, user.username));
    const r = data.results || {};
    root.append(el("p", { "data-testid": "profile-results" },
      tn("{n} game", "{n} games", r.total || 0), " · ",
      t("{wins} won, {losses} lost, {draws} drawn, {playing} in play",
        { wins: r.wins || 0, losses: r.losses || 0, draws: r.draws || 0, playing: r.playing || 0 })));

    root.append(el("h2", {}, t("Ratings")));
    if (!data.ratings || !data.ratings.length) {
      root.append(el("p", { class: "hint", "data-testid": "no-ratings" }, t("No rated game yet.")));
    } else {
      const body = el("tbody");
      for (const rating of data.ratings) {
        const title = label(`game.${rating.game}.title`, rating.title || rating.game);
        const value = Math.round(rating.rating) + (rating.provisional ? "?" : "");
        const variant = rating.variant
          ? label(`game.${rating.game}.variant.${rating.variant}`, rating.variant) : null;
        body.append(el("tr", { "data-testid": "rating-row" },
          el("td", {}, title, variant
            ? el("span", { class: "meta", "data-testid": "rating-variant" }, " ", variant)
            : rating.pool !== rating.game ? el("span", { class: "meta" }, ` ${rating.pool}`) : ""),
          el("td", { title: rating.provisional ? t("provisional rating") : "" }, value),
          el("td", {}, String(rating.games))));
      }
      root.append(el("table", { class: "ratings", "data-testid": "ratings" },
        el("thead", {}, el("tr", {}, el("th", {}, t("Game")), el("th", {}, t("Rating")),
          el("th", {}, t("Games played")))), body));
    }

    root.append(el("h2", {}, t("Game history")));
    if (!data.games.length) {
      root.append(el("p", { class: "hint" }, t("No game yet.")));
    } else {
      const list = el("ul", { class: "game-list", "data-testid": "profile-games" });
      for (const g of data.games) list.append(this.gameItem(g));
      root.append(list);
    }
    const pager = el("div", { class: "row pager" });
    if (this.offset > 0) {
      pager.append(el("button", { type: "button", class: "small", "data-testid": "profile-newer",
        onclick: () => { this.offset = Math.max(0, this.offset - PAGE); this.load(); } }, t("Newer games")));
    }
    if (data.next !== null && data.next !== undefined) {
      pager.append(el("button", { type: "button", class: "small", "data-testid": "profile-older",
        onclick: () => { this.offset = data.next; this.load(); } }, t("Older games")));
    }
    root.append(pager);
  }

  gameItem(g) {
    const players = g.players || [];
    const other = players[1 - g.seat] || {};
    let opponent = other.name || t("a guest");
    if (other.kind === "ai") {
      const level = (g.ai && g.ai.level) || "";
      opponent = t("computer, {level}", { level: label(`level.${level}`, level) });
    }
    const outcome = { win: t("won"), loss: t("lost"), draw: t("drawn") }[g.outcome] || t("in play");
    const title = label(`game.${g.game}.title`, g.title || g.game);
    const when = g.updated ? new Date(g.updated).toLocaleDateString() : "";
    return el("li", { "data-testid": "profile-game" },
      el("a", { href: `/g/${encodeURIComponent(g.id)}`, "data-internal": true },
        t("{game} against {opponent}", { game: title, opponent })),
      " · ", el("span", { "data-testid": "profile-outcome" }, outcome),
      " ", el("span", { class: "meta" }, when));
  }
}
