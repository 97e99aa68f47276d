// A rated game's panel on the game page: "Rated game" while it is played, and at its end
// each seat's rating change (snapshot keys `rated` and `rating_change`, docs/web.md,
// "Ratings").  A provisional rating is shown with a "?"; casual games show nothing.

import { t } from "./i18n.js";
import { clear, el, sideMarker } from "./ui.js";

/** A rating as shown: whole points, "?" when provisional. */
export function ratingText(value, provisional) {
  return `${Math.round(value)}${provisional ? "?" : ""}`;
}

/** A signed change: "+12", "−7", "±0". */
export function deltaText(delta) {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `−${-delta}`;
  return "±0";
}

export class RatingsPanel {
  /** `page` is the GamePage: its `snap` and `seatLabel(seat)`. */
  constructor(page) {
    this.page = page;
    this.root = el("div", { class: "ratings-panel", "data-testid": "ratings-panel", hidden: true });
  }

  update() {
    const snap = this.page.snap;
    const root = clear(this.root);
    root.hidden = !snap || !snap.rated;
    if (root.hidden) return;
    const board = el("a", { "data-internal": true, class: "meta", "data-testid": "leaderboard-link",
      href: `/leaderboard/${encodeURIComponent(snap.game)}?spec=${encodeURIComponent(snap.spec)}` },
    t("Leaderboard"));
    root.append(el("p", { "data-testid": "rated" }, el("strong", {}, t("Rated game")), " · ", board));
    const change = snap.rating_change;
    if (!change) {
      if (snap.status !== "active") root.append(el("p", { class: "meta" }, t("Updating the ratings…")));
      return;
    }
    const list = el("ul", { class: "rating-change", "data-testid": "rating-change" });
    change.forEach((seat, i) => {
      if (!seat) return;
      const sign = seat.delta > 0 ? "up" : seat.delta < 0 ? "down" : "same";
      list.append(el("li", { "data-testid": `rating-change-${i}`, "data-delta": String(seat.delta) },
        sideMarker(i, 12), " ", this.page.seatLabel(i), ": ",
        ratingText(seat.before, false), " → ",
        el("span", { title: seat.provisional ? t("provisional rating") : "" },
          ratingText(seat.after, seat.provisional)), " ",
        el("span", { class: `delta ${sign}` }, `(${deltaText(seat.delta)})`)));
    });
    root.append(list);
  }
}
