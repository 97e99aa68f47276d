// Finding an opponent from the lobby (docs/web-client.md, "Challenges"): the open
// challenges (accepted with one click), the form that posts one (open to anyone or to a
// named player), and the "your turn" state of the games this browser holds.
//
// A posted challenge's owner token is kept in this browser (localStorage
// "tablier.challenges"): it cancels the challenge and, once someone accepts it, it is this
// side's seat token in the new game.  While the lobby is open, each of the browser's own
// challenges is polled every 2 s (GET /api/challenges/<id>); when one is accepted, the game
// is remembered with that token and opened.

import { errorText, request } from "./api.js";
import { clockChooser, controlText } from "./clock.js";
import { label, t } from "./i18n.js";
import { navigate } from "./router.js";
import { perGameRecords, playerName, rememberGame, savePerGameRecord } from "./store.js";
import { clear, el } from "./ui.js";

const OWN_KEY = "tablier.challenges";
const POLL_MS = 2000;
const LIST_EVERY = 2; // the list is refreshed every other poll (4 s)
const PROVISIONAL_RD = 110;

/** A time control in words ("5+3", "3 days per move", "no clock"): clock.js's. */
export const clockText = controlText;

/** What the server's challenge error codes say (docs/web.md), else the usual text. */
function problemText(err) {
  const texts = {
    challenge_taken: t("Someone else accepted this challenge first."),
    challenge_closed: t("This challenge is no longer open."),
    own_challenge: t("You cannot accept your own challenge."),
    account_required: t("A rated game needs an account: log in first."),
    not_your_challenge: t("This challenge is for another player."),
    unknown_player: t("There is no player with this name."),
    bad_target: t("You cannot challenge yourself."),
    too_many_challenges: t("You have too many open challenges: cancel one first."),
  };
  return (err && texts[err.code]) || errorText(err);
}

/** A game's title in the page's language. */
function gameTitle(game, fallback) {
  return label(`game.${game}.title`, fallback);
}

/** The challenges this browser posted: {id: {owner_token, game, title}}. */
function ownChallenges() {
  return perGameRecords(OWN_KEY);
}

/**
 * The "your turn" state of games this browser holds (POST /api/turns, at most 50):
 * {id: {status, your_turn, ...}}; {} when the server cannot say.
 */
export async function gameTurns(games) {
  const asked = games.filter((g) => g && g.id).slice(0, 50)
    .map((g) => (g.token ? { id: g.id, token: g.token } : { id: g.id }));
  if (!asked.length) return {};
  try {
    const data = await request("POST", "/api/turns", { body: { games: asked } });
    const out = {};
    for (const g of (data && data.games) || []) out[g.id] = g;
    return out;
  } catch (_) {
    return {};
  }
}

/** `games` with those where it is this browser's turn first (the order kept otherwise). */
export function yourTurnFirst(games, turns) {
  const mine = (g) => (turns[g.id] && turns[g.id].your_turn ? 0 : 1);
  return games.map((g, i) => [g, i]).sort((a, b) => mine(a[0]) - mine(b[0]) || a[1] - b[1])
    .map(([g]) => g);
}

/** Open the game of an accepted challenge, remembering this side's seat and token. */
function enterGame(id, { game, title, seat, token }) {
  rememberGame(id, { game, title: title || game, mode: "online", seat, token });
  navigate(`/g/${id}`);
}

export class ChallengesPanel {
  /**
   * The lobby's challenges in `section`; `games` is the catalog's list (in the lobby's
   * order).
   */
  constructor(section, games) {
    this.section = section;
    this.games = games;
    this.closed = false;
    this.ticks = 0;
    this.list = el("ul", { class: "game-list challenge-list", "data-testid": "challenges" });
    this.empty = el("p", { class: "hint", "data-testid": "no-challenges" },
      t("No open challenges: post one below."));
    this.error = el("p", { class: "error", role: "alert", "data-testid": "challenge-error" });
    section.append(el("h2", { id: "challenges-h" }, t("Open challenges")), this.list, this.empty,
      this.error, this.buildForm());
    this.refresh();
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  destroy() {
    this.closed = true;
    clearInterval(this.timer);
  }

  async poll() {
    if (this.closed) return;
    await this.checkOwn();
    this.ticks += 1;
    if (this.ticks % LIST_EVERY === 0) await this.refresh();
  }

  /** Look at each of this browser's challenges: open its game once it is accepted. */
  async checkOwn() {
    for (const [id, own] of Object.entries(ownChallenges()).slice(0, 20)) {
      if (this.closed) return;
      let data;
      try {
        data = await request("GET", `/api/challenges/${encodeURIComponent(id)}`,
          { token: own.owner_token });
      } catch (err) {
        if (err.status === 404) savePerGameRecord(OWN_KEY, id, null);
        continue;
      }
      if (data.status === "accepted" && data.game_id) {
        savePerGameRecord(OWN_KEY, id, null);
        this.destroy();
        enterGame(data.game_id, { game: data.game, title: data.title, seat: data.seat,
          token: own.owner_token });
        return;
      }
      if (data.status !== "open" && data.status !== "accepted") savePerGameRecord(OWN_KEY, id, null);
    }
  }

  async refresh() {
    try {
      const data = await request("GET", "/api/challenges?limit=50");
      if (!this.closed) this.show((data && data.challenges) || []);
    } catch (err) {
      this.error.textContent = problemText(err);
    }
  }

  show(challenges) {
    clear(this.list);
    const own = ownChallenges();
    this.empty.hidden = challenges.length > 0;
    for (const c of challenges) this.list.append(this.row(c, c.mine || !!own[c.id], own[c.id]));
  }

  /** One challenge: what it is, who posted it, and its button (accept, cancel, decline). */
  row(c, mine, own) {
    const variant = c.variant ? label(`game.${c.game}.variant.${c.variant}`, c.variant) : null;
    let who = c.name || t("Anonymous");
    if (c.rating) who += ` (${c.rating.value}${c.rating.rd >= PROVISIONAL_RD ? "?" : ""})`;
    const bits = [variant, clockText(c.clock), c.rated ? t("rated") : t("casual")];
    if (c.target) bits.push(t("for {player}", { player: c.target }));
    const buttons = el("span", { class: "actions" });
    const act = (text, testid, fn, primary = false) => {
      const button = el("button", { type: "button", class: primary ? "small primary" : "small",
        "data-testid": testid }, text);
      button.addEventListener("click", async () => {
        button.disabled = true;
        this.error.textContent = "";
        try {
          await fn();
        } catch (err) {
          this.error.textContent = problemText(err);
          this.refresh();
        } finally {
          button.disabled = false;
        }
      });
      buttons.append(button);
    };
    const path = `/api/challenges/${encodeURIComponent(c.id)}`;
    if (mine) {
      act(t("Cancel"), "cancel-challenge", async () => {
        await request("POST", `${path}/cancel`, { token: own && own.owner_token });
        savePerGameRecord(OWN_KEY, c.id, null);
        this.refresh();
      });
    } else {
      act(t("Accept"), "accept-challenge", async () => {
        const made = await request("POST", `${path}/accept`, { body: { name: playerName() } });
        this.destroy();
        enterGame(made.id, { game: c.game, title: c.title, seat: made.seat,
          token: made.tokens[String(made.seat)] });
      }, true);
      if (c.target) {
        act(t("Decline"), "decline-challenge", async () => {
          await request("POST", `${path}/decline`);
          this.refresh();
        });
      }
    }
    return el("li", { "data-testid": "challenge", "data-id": c.id, "data-mine": mine ? "1" : "0" },
      el("strong", {}, gameTitle(c.game, c.title || c.game)),
      el("span", { class: "meta" }, ` ${bits.filter(Boolean).join(" · ")} · `),
      el("span", { class: "challenger", "data-testid": "challenger" }, c.user
        ? el("a", { href: `/@/${encodeURIComponent(c.user)}`, "data-internal": true }, who) : who),
      " ", buttons);
  }

  /** The form that posts a challenge: game, variant, clock, rated, side, opponent. */
  buildForm() {
    const form = el("form", { class: "form challenge-form", "data-testid": "challenge-form" });
    const gameSelect = el("select", { id: "ch-game", "data-testid": "challenge-game" });
    for (const g of this.games) gameSelect.append(el("option", { value: g.name }, gameTitle(g.name, g.title)));
    const variantSelect = el("select", { id: "ch-variant", "data-testid": "challenge-variant" });
    const variantRow = el("div", { class: "row" },
      el("label", { for: "ch-variant" }, t("Rules")), variantSelect);
    const clockPick = clockChooser("ch-clock", "challenge-clock", "live:300:3");
    const colourSelect = el("select", { id: "ch-colour", "data-testid": "challenge-colour" });
    const rated = el("input", { type: "checkbox", id: "ch-rated", "data-testid": "challenge-rated" });
    const target = el("input", { type: "text", id: "ch-target", maxlength: 40, placeholder: t("anyone"),
      autocomplete: "off", "data-testid": "challenge-target" });
    const submit = el("button", { type: "submit", class: "primary", "data-testid": "post-challenge" },
      t("Post the challenge"));
    const fillGame = () => {
      const game = this.games.find((g) => g.name === gameSelect.value);
      clear(variantSelect);
      clear(colourSelect);
      if (!game) return;
      for (const v of game.variants || []) {
        variantSelect.append(el("option", { value: v.key }, label(`game.${game.name}.variant.${v.key}`, v.key)));
      }
      variantRow.hidden = (game.variants || []).length < 2;
      colourSelect.append(el("option", { value: "random" }, t("Random")));
      (game.players || [t("First"), t("Second")]).forEach((name, seat) => {
        colourSelect.append(el("option", { value: String(seat) },
          label(`game.${game.name}.player.${seat}`, name)));
      });
    };
    gameSelect.addEventListener("change", fillGame);
    fillGame();
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      this.error.textContent = "";
      const game = this.games.find((g) => g.name === gameSelect.value);
      const variant = ((game && game.variants) || []).find((v) => v.key === variantSelect.value);
      const options = {};
      for (const [key, value] of Object.entries((variant && variant.options) || {})) options[key] = String(value);
      const body = { game: gameSelect.value, options, clock: clockPick.value(),
        rated: rated.checked, colour: colourSelect.value, name: playerName() };
      if (target.value.trim()) body.target = target.value.trim();
      submit.disabled = true;
      try {
        const made = await request("POST", "/api/challenges", { body });
        savePerGameRecord(OWN_KEY, made.challenge.id, { owner_token: made.owner_token,
          game: made.challenge.game, title: made.challenge.title });
        target.value = "";
        await this.refresh();
      } catch (err) {
        this.error.textContent = problemText(err);
      } finally {
        submit.disabled = false;
      }
    });
    form.append(
      el("h3", {}, t("Post a challenge")),
      el("div", { class: "row" }, el("label", { for: "ch-game" }, t("Game")), gameSelect),
      variantRow,
      clockPick.root,
      el("div", { class: "row" }, el("label", { for: "ch-colour" }, t("My side")), colourSelect),
      el("div", { class: "row" }, el("label", { for: "ch-rated" }, t("Rated")), rated),
      el("div", { class: "row" }, el("label", { for: "ch-target" }, t("Opponent")), target),
      submit,
    );
    return form;
  }
}
