// A game's leaderboard (/leaderboard/<game>, ?variant=KEY or ?spec=SPEC): the best ratings
// of one pool, a game and its variant (GET /api/leaderboard/<game>, docs/web.md "Ratings").
// Provisional ratings are left out unless the box is ticked, as on lichess.

import { ApiError, errorText, request } from "./api.js";
import { label, specTitle, t } from "./i18n.js";
import { ratingText } from "./ratings.js";
import { clear, el } from "./ui.js";

export class LeaderboardPage {
  constructor(container, game) {
    this.game = game;
    const query = new URLSearchParams(location.search);
    this.variant = query.get("variant");
    this.spec = this.variant ? null : query.get("spec");
    this.provisional = query.get("provisional") === "true";
    this.closed = false;
    this.root = el("section", { class: "panel leaderboard", "data-testid": "leaderboard" });
    container.append(this.root);
    this.load();
  }

  destroy() {
    this.closed = true;
  }

  url() {
    const query = new URLSearchParams();
    if (this.variant) query.set("variant", this.variant);
    else if (this.spec) query.set("spec", this.spec);
    if (this.provisional) query.set("provisional", "true");
    const text = query.toString();
    return text ? `?${text}` : "";
  }

  async load() {
    let data;
    try {
      data = await request("GET", `/api/leaderboard/${encodeURIComponent(this.game)}${this.url()}`);
    } catch (err) {
      if (this.closed) return;
      clear(this.root);
      this.root.append(el("p", { class: "error", "data-testid": "leaderboard-error" },
        err instanceof ApiError && err.status === 404 ? t("There is no such game.") : errorText(err)));
      return;
    }
    if (!this.closed) this.render(data);
  }

  /** Show another pool or the provisional ratings: the address changes with it. */
  reload() {
    history.replaceState(null, "", `/leaderboard/${encodeURIComponent(this.game)}${this.url()}`);
    this.load();
  }

  playerName(row) {
    if (row.kind !== "ai") return row.username;
    const level = row.user.replace(/^ai-/, "");
    return t("computer, {level}", { level: label(`level.${level}`, level) });
  }

  render(data) {
    const root = clear(this.root);
    const title = label(`game.${data.game}.title`, data.title || data.game);
    document.title = t("Leaderboard: {game}", { game: title }) + " — Tablier";
    root.append(el("h1", {}, t("Leaderboard: {game}", { game: title })));

    const controls = el("div", { class: "row" });
    if (data.variants.length > 1) {
      const select = el("select", { id: "lb-variant", "data-testid": "leaderboard-variant" });
      for (const key of data.variants) {
        select.append(el("option", { value: key }, label(`game.${data.game}.variant.${key}`, key)));
      }
      if (!data.variant) {
        select.append(el("option", { value: "", title: data.pool },
          specTitle({ game: data.game, title: data.title, variant: null, changed: data.changed })));
      }
      select.value = data.variant;
      select.addEventListener("change", () => {
        this.variant = select.value || null;
        this.spec = this.variant ? null : data.pool;
        this.reload();
      });
      controls.append(el("label", { for: "lb-variant" }, t("Rules")), " ", select);
    }
    const box = el("input", { type: "checkbox", "data-testid": "leaderboard-provisional",
      checked: this.provisional });
    box.addEventListener("change", () => {
      this.provisional = box.checked;
      this.reload();
    });
    controls.append(el("label", { class: "check" }, box, " ", t("Show provisional ratings")));
    root.append(controls);

    if (!data.players.length) {
      root.append(el("p", { class: "hint", "data-testid": "leaderboard-empty" },
        this.provisional ? t("No rated game yet.") : t("No established rating yet: a rating is provisional (?) until its deviation is {rd} or less.", { rd: data.provisional_rd })));
      return;
    }
    const body = el("tbody");
    for (const row of data.players) {
      body.append(el("tr", { "data-testid": "leaderboard-row", "data-user": row.user },
        el("td", {}, String(row.rank)),
        el("td", {}, el("a", { href: `/@/${encodeURIComponent(row.username)}`, "data-internal": true },
          this.playerName(row))),
        el("td", { title: row.provisional ? t("provisional rating") : `± ${row.rd}` },
          ratingText(row.rating, row.provisional)),
        el("td", {}, String(row.games))));
    }
    root.append(el("table", { class: "ratings", "data-testid": "leaderboard-table" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("Player")),
        el("th", {}, t("Rating")), el("th", {}, t("Games played")))), body));
  }
}
