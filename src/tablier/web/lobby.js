// The lobby (/): a card per game (its board, what it is, the ways in), a new game (the
// form built from the catalog), my games, the server's recent games, and a record to open
// for review.

import { api, errorText, request } from "./api.js";
import { ChallengesPanel, gameTurns, yourTurnFirst } from "./challenges.js";
import { clockChooser } from "./clock.js";
import { hasLabel, label, language, t, tn } from "./i18n.js";
import { navigate } from "./router.js";
import { forgetGame, myGames, playerName, rememberGame, saveReview, setPlayerName } from "./store.js";
import { ask, clear, el, loadGameStylesheet } from "./ui.js";

let catalogCache = null;

async function catalog() {
  if (!catalogCache) catalogCache = await api.catalog();
  return catalogCache;
}

/** A game's title in the page's language (the label game.<game>.title). */
function gameTitle(game, fallback) {
  return label(`game.${game}.title`, fallback);
}

/** How a game is played, in words. */
function modeText(mode) {
  return { online: t("online"), ai: t("against the computer"), local: t("same screen") }[mode] || mode;
}

/**
 * The games in the order a newcomer meets them: the smallest declared `difficulty` first
 * (a game that declares none last), the catalog's order between equals.
 */
export function byDifficulty(games) {
  const rank = (g) => (g.difficulty > 0 ? g.difficulty : Infinity);
  return games.map((g, i) => [g, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1])
    .map(([g]) => g);
}

/** Create a game as the lobby does (`body` as POST /api/games takes it), remember its seat
 *  in this browser and open its page. */
export async function startGame(body) {
  const mine = body.seat || 0;
  if (body.mode !== "local" && Array.isArray(body.names) && !body.names[mine]) {
    body.names[mine] = playerName(); // the guest's name (an account's seat gets its username)
  }
  const made = await api.createGame(body);
  const tokens = made.tokens || {};
  const links = made.links || {};
  const mode = body.mode;
  const seat = body.seat || 0;
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
}

/**
 * Leave only the largest drawing of a board module's DOM in `host` (its board, without
 * the buttons, trays and second views a game page shows around it): every sibling of the
 * drawing and of its ancestors up to `host` is hidden.
 */
function keepLargestDrawing(host) {
  let best = null;
  let area = 0;
  for (const drawing of host.querySelectorAll("svg, canvas")) {
    const box = drawing.getBoundingClientRect();
    if (box.width * box.height > area) {
      area = box.width * box.height;
      best = drawing;
    }
  }
  for (let node = best; node && node !== host && node.parentElement; node = node.parentElement) {
    for (const sibling of node.parentElement.children) {
      if (sibling !== node) sibling.style.display = "none";
    }
  }
}

/** A game's status, in words. */
function statusText(status) {
  return { active: t("in progress"), finished: t("finished") }[status] || status;
}

export class LobbyPage {
  constructor(container) {
    document.title = "Tablier";
    this.root = el("div", { class: "lobby" });
    container.append(this.root);
    this.cards = el("section", { class: "game-cards", "aria-label": t("Games"),
      "data-testid": "game-cards" });
    this.challenges = el("section", { class: "panel challenges", "aria-labelledby": "challenges-h",
      "data-testid": "challenges-panel" });
    this.newGame = el("section", { class: "panel new-game", "aria-labelledby": "new-game-h" });
    this.mine = el("section", { class: "panel my-games" });
    this.recent = el("section", { class: "panel recent-games" });
    this.records = el("section", { class: "panel open-record" });
    this.root.append(this.cards, this.challenges, this.newGame, this.mine, this.recent, this.records);
    this.closed = false;
    this.boards = [];
    this.turns = {};
    this.buildRecordForm();
    this.showMyGames();
    gameTurns(myGames()).then((turns) => { // "your turn" games first (challenges.js)
      if (this.closed) return;
      this.turns = turns;
      this.showMyGames();
    });
    catalog().then((data) => {
      if (!this.closed) this.challengesPanel = new ChallengesPanel(this.challenges, byDifficulty(data.games || []));
    }).catch(() => {});
    this.buildCards().catch((err) => {
      this.cards.append(el("p", { class: "error" }, t("Cannot load the games: {error}", { error: errorText(err) })));
    });
    this.buildNewGame().catch((err) => {
      this.newGame.append(el("p", { class: "error" }, t("Cannot load the games: {error}", { error: errorText(err) })));
    });
    this.showRecent();
  }

  destroy() {
    this.closed = true;
    if (this.challengesPanel) this.challengesPanel.destroy();
    for (const board of this.boards) if (board.destroy) board.destroy();
    this.boards = [];
  }

  /** A card per game, the simplest first. */
  async buildCards() {
    const data = await catalog();
    for (const game of byDifficulty(data.games || [])) {
      if (this.closed) return;
      this.cards.append(this.card(game));
    }
  }

  /**
   * One game's card: its initial position drawn small by its board module (read-only), what
   * it is in one sentence (its teaching summary), the variant to play (labels
   * game.<game>.variant.<key>, the first the default), and the ways in: a game against the
   * computer (easy), against a friend (a link to send), on this screen, its tutorial, rules
   * and puzzles.
   */
  card(game) {
    const name = game.name;
    const path = encodeURIComponent(name);
    const title = gameTitle(name, game.title);
    const picture = el("div", { class: "card-board", "data-testid": "card-board", "aria-hidden": "true" });
    const summary = el("p", { class: "card-summary", "data-testid": "card-summary" },
      hasLabel(`game.${name}.summary`) ? label(`game.${name}.summary`) : "");
    const variants = game.variants || [];
    const variant = el("select", { id: `card-variant-${name}`, "data-testid": "card-variant" });
    for (const v of variants) {
      variant.append(el("option", { value: v.key }, label(`game.${name}.variant.${v.key}`, v.key)));
    }
    const error = el("p", { class: "error", role: "alert", "data-testid": "card-error" });
    const play = (mode) => async (event) => {
      const button = event.currentTarget;
      error.textContent = "";
      const chosen = variants.find((v) => v.key === variant.value);
      const options = {};
      for (const [key, value] of Object.entries((chosen && chosen.options) || {})) options[key] = String(value);
      const body = { game: name, options, mode, seat: 0, names: ["", ""] };
      if (mode === "ai") body.ai_level = "easy";
      button.disabled = true;
      try {
        await startGame(body);
      } catch (err) {
        error.textContent = errorText(err);
      } finally {
        button.disabled = false;
      }
    };
    const link = (href, text, testid) => el("a", { href, "data-internal": true, "data-testid": testid,
      class: "card-link" }, text);
    const puzzles = link(`/puzzles/${path}`, t("Puzzles"), "card-puzzles");
    puzzles.hidden = true;
    const card = el("article", { class: "panel game-card", "data-testid": "game-card", "data-game": name,
      "aria-labelledby": `card-h-${name}` },
      picture,
      el("div", { class: "card-body" },
        el("h2", { id: `card-h-${name}` }, title),
        summary,
        variants.length > 1
          ? el("div", { class: "row card-variant" },
            el("label", { for: `card-variant-${name}` }, t("Rules")), variant)
          : null,
        el("div", { class: "actions card-play" },
          el("button", { type: "button", class: "primary", "data-testid": "card-play-ai",
            onclick: play("ai") }, t("Play the computer")),
          el("button", { type: "button", "data-testid": "card-play-online",
            title: t("You get a link to send to your friend"), onclick: play("online") },
          t("Play a friend")),
          el("button", { type: "button", "data-testid": "card-play-local", onclick: play("local") },
            t("Same screen"))),
        error,
        el("p", { class: "card-links" },
          game.teaching ? link(`/learn/${path}`, t("Learn"), "card-learn") : null,
          game.teaching ? link(`/rules/${path}`, t("Rules"), "card-rules") : null,
          puzzles,
          link(`/leaderboard/${path}`, t("Leaderboard"), "card-leaderboard"),
          el("a", { href: "#new-game-h", class: "card-link", "data-testid": "card-options",
            onclick: (event) => {
              event.preventDefault();
              const select = document.getElementById("ng-game");
              if (select) {
                select.value = name;
                select.dispatchEvent(new Event("change"));
                select.focus();
              }
            } }, t("More options")))));
    this.drawCard(game, picture);
    if (game.teaching) {
      request("GET", `/api/teaching/${path}?lang=${encodeURIComponent(language())}`)
        .then((data) => { if (data && data.summary) summary.textContent = data.summary; })
        .catch(() => {});
    }
    request("GET", `/api/puzzles/sets?game=${path}`)
      .then((sets) => { puzzles.hidden = !(sets && sets.length); })
      .catch(() => {});
    return card;
  }

  /** The game's initial position, drawn read-only by its board module. */
  async drawCard(game, host) {
    try {
      const name = encodeURIComponent(game.name);
      const [module] = await Promise.all([
        import(`./games/${name}.js`),
        loadGameStylesheet(name),
      ]);
      if (this.closed) return;
      const board = module.createBoard(host, {});
      this.boards.push(board);
      if (board.drawDiagram) board.drawDiagram(game.view, { coordinates: false });
      else board.render(game.view, { legal: null, coordinates: false });
      await new Promise((resolve) => requestAnimationFrame(resolve));
      keepLargestDrawing(host);
      host.dataset.ready = "1";
    } catch (err) {
      console.warn(`no picture of ${game.name}`, err);
    }
  }

  async buildNewGame() {
    const data = await catalog();
    const games = data.games || [];
    const levels = data.levels || [];
    const form = el("form", { class: "form", "data-testid": "new-game-form" });
    const gameSelect = el("select", { id: "ng-game", name: "game", "data-testid": "new-game-game" });
    for (const g of byDifficulty(games)) gameSelect.append(el("option", { value: g.name }, gameTitle(g.name, g.title)));
    const optionsBox = el("div", { class: "options", "data-testid": "new-game-options" });
    const seatSelect = el("select", { id: "ng-seat", "data-testid": "new-game-seat" });
    const levelSelect = el("select", { id: "ng-level", "data-testid": "ai-level" });
    for (const level of levels) levelSelect.append(el("option", { value: level }, label(`level.${level}`, level)));
    if (levels.includes("medium")) levelSelect.value = "medium";
    const nameInput = el("input", {
      id: "ng-name",
      type: "text",
      maxlength: 40,
      autocomplete: "nickname",
      placeholder: t("optional"),
      "data-testid": "player-name",
      value: playerName(),
    });
    const modes = [
      ["online", t("A person: send them a link")],
      ["ai", t("The computer")],
      ["local", t("Same screen (both sides here)")],
    ];
    const modeBox = el("fieldset", { class: "modes" }, el("legend", {}, t("Opponent")));
    for (const [value, label] of modes) {
      modeBox.append(
        el("label", { class: "radio" },
          el("input", { type: "radio", name: "mode", value, "data-testid": `mode-${value}`,
            checked: value === "online" }),
          ` ${label}`),
      );
    }
    const levelRow = el("div", { class: "row level-row" },
      el("label", { for: "ng-level" }, t("AI level")), levelSelect);
    const seatRow = el("div", { class: "row seat-row" },
      el("label", { for: "ng-seat" }, t("My side")), seatSelect);
    const nameRow = el("div", { class: "row" }, el("label", { for: "ng-name" }, t("My name")), nameInput);
    const error = el("p", { class: "error", role: "alert", "data-testid": "new-game-error" });
    const clockPick = clockChooser();
    const chatOff = el("input", { type: "checkbox", id: "ng-chat-off", "data-testid": "new-game-chat-off" });
    const chatRow = el("div", { class: "row chat-off-row" },
      el("label", { for: "ng-chat-off" }, t("Players' chat off")), chatOff);
    const submit = el("button", { type: "submit", class: "primary", "data-testid": "create-game" },
      t("Start the game"));
    const learnLink = el("a", { "data-internal": true, "data-testid": "learn-link" },
      t("New to this game? Learn it step by step"));
    const rulesLink = el("a", { "data-internal": true, "data-testid": "rules-link" });

    const fillGame = () => {
      const game = games.find((g) => g.name === gameSelect.value);
      clear(optionsBox);
      clear(seatSelect);
      if (!game) return;
      learnLink.setAttribute("href", `/learn/${encodeURIComponent(game.name)}`);
      rulesLink.setAttribute("href", `/rules/${encodeURIComponent(game.name)}`);
      rulesLink.textContent = t("Rules of {game}", { game: gameTitle(game.name, game.title) });
      for (const opt of game.options || []) {
        // the option in plain words: the labels game.<game>.option.<name>[.<value>|.help|.none]
        const id = `ng-opt-${opt.name}`;
        const key = `game.${game.name}.option.${opt.name}`;
        const noDefault = opt.default === null || opt.default === undefined;
        const valueText = (value) => label(`${key}.${String(value).toLowerCase()}`, String(value));
        let input;
        let choices = opt.choices && opt.choices.length ? opt.choices : null;
        if (!choices && typeof opt.default === "boolean") choices = [true, false];
        if (choices) {
          input = el("select", { id, "data-option": opt.name, "data-testid": `option-${opt.name}` });
          // no default of its own (it follows other options): the empty choice leaves it out
          if (noDefault) input.append(el("option", { value: "" }, label(`${key}.none`, "—")));
          for (const choice of choices) {
            input.append(el("option", { value: String(choice) }, valueText(choice)));
          }
          if (!noDefault) input.value = String(opt.default);
        } else {
          input = el("input", {
            id,
            type: "text",
            "data-option": opt.name,
            "data-testid": `option-${opt.name}`,
            placeholder: noDefault ? label(`${key}.none`, "") : false,
            value: noDefault ? "" : String(opt.default),
          });
        }
        const help = hasLabel(`${key}.help`) ? label(`${key}.help`) : opt.doc;
        optionsBox.append(
          el("div", { class: "row" }, el("label", { for: id, title: help || "" }, label(key, opt.name)), input),
          help ? el("p", { class: "hint" }, help) : null,
        );
      }
      (game.players || [t("First"), t("Second")]).forEach((name, seat) => {
        const side = label(`game.${game.name}.player.${seat}`, name);
        seatSelect.append(el("option", { value: String(seat) },
          seat === 0 ? t("{side} (moves first)", { side }) : side));
      });
    };
    const fillMode = () => {
      const mode = form.querySelector("input[name=mode]:checked").value;
      levelRow.hidden = mode !== "ai";
      seatRow.hidden = mode === "local";
      nameRow.hidden = mode === "local";
      chatRow.hidden = mode !== "online";
    };
    gameSelect.addEventListener("change", fillGame);
    modeBox.addEventListener("change", fillMode);
    form.append(
      el("div", { class: "row" }, el("label", { for: "ng-game" }, t("Game")), gameSelect),
      el("p", { class: "hint" }, learnLink, " · ", rulesLink),
      optionsBox, modeBox, clockPick.root, levelRow, seatRow, nameRow, chatRow, error, submit,
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
      if (mode !== "local") names[seat] = setPlayerName(nameInput.value);
      const body = { game: gameSelect.value, options, mode, seat, names };
      if (mode === "ai") body.ai_level = levelSelect.value;
      const clock = clockPick.value();
      if (clock) body.clock = clock;
      if (mode === "online" && chatOff.checked) body.chat_off = true;
      submit.disabled = true;
      try {
        await startGame(body);
      } catch (err) {
        error.textContent = errorText(err);
      } finally {
        submit.disabled = false;
      }
    });
    this.newGame.append(el("h2", { id: "new-game-h" }, t("New game")), form);
  }

  showMyGames() {
    clear(this.mine);
    this.mine.append(el("h2", {}, t("My games")));
    const list = yourTurnFirst(myGames(), this.turns || {});
    if (!list.length) {
      this.mine.append(el("p", { class: "hint" }, t("Games you create or join appear here.")));
      return;
    }
    const ul = el("ul", { class: "game-list", "data-testid": "my-games" });
    for (const g of list) {
      const side = g.seat === "both" ? t("both sides") : g.seat === undefined || g.seat === null
        ? "" : t("seat {n}", { n: Number(g.seat) + 1 });
      const when = g.created ? new Date(g.created).toLocaleString() : "";
      const turn = this.turns && this.turns[g.id] && this.turns[g.id].your_turn;
      ul.append(
        el("li", { "data-your-turn": turn ? "1" : "0" },
          turn ? el("span", { class: "badge your-turn", "data-testid": "your-turn" }, t("Your turn")) : null,
          turn ? " " : null,
          el("a", { href: `/g/${g.id}`, "data-internal": true, "data-testid": "my-game-link" },
            gameTitle(g.game, g.title || g.game || t("game"))),
          el("span", { class: "meta" }, ` ${[modeText(g.mode), side, when].filter(Boolean).join(" · ")} `),
          el("button", {
            type: "button",
            class: "small",
            "data-testid": "forget-game",
            title: t("Forget this game (and its seat link) on this device"),
            onclick: async () => {
              if (await ask(t("Forget this game?"),
                t("Its seat link is kept only in this browser: without it you cannot move in it again."),
                t("Forget"))) {
                forgetGame(g.id);
                this.showMyGames();
              }
            },
          }, t("Forget")),
        ),
      );
    }
    this.mine.append(ul);
  }

  async showRecent() {
    this.recent.append(el("h2", {}, t("Recent games")));
    try {
      const data = await api.recentGames(20);
      const games = (data && data.games) || [];
      if (!games.length) {
        this.recent.append(el("p", { class: "hint" }, t("No games yet.")));
        return;
      }
      const ul = el("ul", { class: "game-list", "data-testid": "recent-games" });
      for (const g of games) {
        const bits = [modeText(g.mode), statusText(g.status),
          g.ply !== undefined ? tn("{n} move", "{n} moves", g.ply) : null];
        if (g.result && g.result.result) bits.push(g.result.result);
        ul.append(el("li", {},
          el("a", { href: `/g/${g.id}`, "data-internal": true }, gameTitle(g.game, g.title || g.game || g.id)),
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
      t("Review"));
    button.addEventListener("click", async () => {
      error.textContent = "";
      if (!text.value.trim()) {
        error.textContent = t("Paste a record or choose a file first.");
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
      el("h2", {}, t("Open a record")),
      el("label", { for: "record-text" }, t("Paste a game record (text or JSON) or choose a file")),
      text, file, error, button,
    );
  }
}
