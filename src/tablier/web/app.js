// Tablier's browser client: the entry point.  Plain ES modules, no build step.  The shell
// never looks inside a game's views: each game's board module (games/<name>.js) draws
// state_view dicts and turns clicks into notation (see docs/web-client.md).
//
// Modules: router.js (paths → pages), lobby.js, game-page.js (with moves.js: the move
// box and the confirm step; actions.js: resign, offers, rematch…), review.js, viewer.js
// (the board, history and move list both game and review pages show), rules.js (a game's
// rules page), learn.js (a game's tutorial), puzzles.js (a game's puzzles), profile.js (a
// player's page), leaderboard.js (a game's best ratings); account.js is the header's log in /
// sign up and the guest's name.

import { setupAccount } from "./account.js";
import { AnalysisPage } from "./analysis.js";
import { GamePage } from "./game-page.js";
import { language, languageNames, loadLanguage, switchLanguage, t } from "./i18n.js";
import { LeaderboardPage } from "./leaderboard.js";
import { LearnPage } from "./learn.js";
import { LobbyPage } from "./lobby.js";
import { ProfilePage } from "./profile.js";
import { PuzzlesPage } from "./puzzles.js";
import { ReviewPage } from "./review.js";
import { RulesPage } from "./rules.js";
import { startRouter } from "./router.js";
import { setSetting, settings } from "./store.js";

/** Apply the theme setting: "auto" follows prefers-color-scheme, else "light"/"dark". */
function applyTheme() {
  const theme = settings().theme;
  document.documentElement.dataset.theme = theme;
  const button = document.querySelector("[data-testid=toggle-theme]");
  if (button) {
    const label = { auto: t("Theme: auto"), light: t("Theme: light"), dark: t("Theme: dark") }[theme];
    button.textContent = label || t("Theme");
    button.setAttribute("aria-label", t("{theme}; click to change", { theme: label }));
  }
}

/** The language selector of the header: the languages the server offers, the page's chosen. */
function setupLanguage() {
  const select = document.querySelector("[data-testid=language]");
  if (!select) return;
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(languageNames())) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    select.append(option);
  }
  select.value = language();
  select.addEventListener("change", () => switchLanguage(select.value));
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
}

await loadLanguage();
applyTheme();
setupLanguage();
setupHeader();
setupAccount(document.querySelector("[data-testid=account]"));
startRouter(document.getElementById("app"), [
  [/^\/g\/([A-Za-z0-9_-]+)\/?$/, (root, id) => new GamePage(root, id)],
  [/^\/review\/?$/, (root) => new ReviewPage(root)],
  [/^\/analysis\/([^/]+)\/?$/, (root, spec) => new AnalysisPage(root, spec)],
  [/^\/rules\/([A-Za-z0-9_-]+)\/?$/, (root, game) => new RulesPage(root, game)],
  [/^\/learn\/([A-Za-z0-9_-]+)\/?$/, (root, game) => new LearnPage(root, game)],
  [/^\/puzzles\/([A-Za-z0-9_-]+)\/?$/, (root, game) => new PuzzlesPage(root, game)],
  [/^\/@\/([A-Za-z0-9_-]+)\/?$/, (root, username) => new ProfilePage(root, username)],
  [/^\/leaderboard\/([A-Za-z0-9_-]+)\/?$/, (root, game) => new LeaderboardPage(root, game)],
  [/^\/(index\.html|static\/index\.html)?$/, (root) => new LobbyPage(root)],
]);
