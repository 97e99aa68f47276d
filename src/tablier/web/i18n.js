// The interface's language: the messages of the server's catalogs (GET /api/i18n/<lang>,
// docs/i18n.md), loaded once before the first page is drawn.
//
// Every text a player reads goes through t("English text", {name: value}) or
// tn("one {n} …", "{n} …s", n): the English text is the message id that Babel extracts.
// label(key, fallback) looks up a message named by a key built at run time (a game's
// option, side or result reason: "game.<game>.option.<name>"), which the catalogs spell out
// in every language.  The choice made in the header is kept in a cookie (the server reads it
// for the pages it writes) and in localStorage.

const COOKIE = "tablier_lang";
const STORAGE_KEY = "tablier.lang";

let current = "en";
let messages = {};
let languages = { en: "English" };
let plurals = null;

function fill(text, values) {
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
}

/** `message` (English) in the page's language, `{name}` filled from `values`. */
export function t(message, values) {
  const text = messages[message];
  return fill(typeof text === "string" && text ? text : message, values);
}

/** The singular or plural message for `n` (filled with {n} and `values`). */
export function tn(singular, plural, n, values) {
  const all = { n, ...(values || {}) };
  const forms = messages[singular];
  if (forms && typeof forms === "object") {
    const category = plurals ? plurals.select(n) : "other";
    const text = forms[category] || forms.other;
    if (text) return fill(text, all);
  }
  return fill(n === 1 ? singular : plural, all);
}

/** Whether the catalog has a message named `key`. */
export function hasLabel(key) {
  return typeof messages[key] === "string" && messages[key] !== "";
}

/** The message named `key` (a label), or `fallback` when the catalog has none. */
export function label(key, fallback, values) {
  return hasLabel(key) ? fill(messages[key], values) : fill(String(fallback ?? key), values);
}

/** The page's language ("en", "fr", "ja"). */
export function language() {
  return current;
}

/** The languages the server offers: {code: name in that language}. */
export function languageNames() {
  return { ...languages };
}

function readCookie() {
  const match = document.cookie.match(/(?:^|;\s*)tablier_lang=([A-Za-z-]+)/);
  return match ? match[1] : null;
}

function stored() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch (_) {
    return null;
  }
}

/** Remember `lang` as the chosen language (cookie and localStorage). */
export function rememberLanguage(lang) {
  document.cookie = `${COOKIE}=${encodeURIComponent(lang)}; path=/; max-age=31536000; samesite=lax`;
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch (_) {
    // storage disabled: the cookie remembers it
  }
}

/** Choose `lang` and draw the page again in it (a reload: every text is redrawn). */
export function switchLanguage(lang) {
  rememberLanguage(lang);
  location.reload();
}

/**
 * Load the messages: the language is the one chosen before (cookie, or localStorage when
 * the cookie is gone), else the one the server negotiated for this page (<html lang>).
 */
export async function loadLanguage() {
  const page = document.documentElement.lang || "en";
  let wanted = readCookie() || stored() || page;
  if (wanted !== readCookie() && stored()) rememberLanguage(wanted); // the cookie comes back
  let data = null;
  for (const lang of [wanted, page, "en"]) {
    try {
      const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`, { cache: "no-cache" });
      if (response.ok) {
        data = await response.json();
        wanted = lang;
        break;
      }
    } catch (_) {
      break; // the server cannot be reached: English, as written in the code
    }
  }
  if (data) {
    current = data.lang || wanted;
    messages = data.messages || {};
    languages = data.languages || languages;
  }
  try {
    plurals = new Intl.PluralRules(current);
  } catch (_) {
    plurals = null;
  }
  document.documentElement.lang = current;
  // the page's own texts (the server translated them already, except in /static/index.html)
  for (const node of document.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.textContent.split(/\s+/).filter(Boolean).join(" "));
  }
}

/**
 * A position's view with its sides named in the page's language (the labels
 * game.<game>.player.<seat>): what the board module, the info panel and the banner show.
 */
export function localView(game, view) {
  if (!view || !Array.isArray(view.players)) return view;
  const players = view.players.map((name, seat) => label(`game.${game}.player.${seat}`, name));
  return { ...view, players };
}

/**
 * A game's name with its rules in the page's language, from what the server says of a spec
 * (`{game, title, variant, changed}`, docs/web.md): the title (label game.<game>.title), and
 * in brackets when options were changed the variant's label (game.<game>.variant.<key>) if a
 * variant is exactly them, else each changed option and its value in words
 * (game.<game>.option.<name> and .<value>), as the lobby's form names them.
 */
export function specTitle(info) {
  const game = info.game;
  const title = label(`game.${game}.title`, info.title || game);
  const changed = Object.entries(info.changed || {});
  if (!changed.length) return title;
  if (info.variant) {
    return t("{game} ({options})", { game: title, options: label(`game.${game}.variant.${info.variant}`, info.variant) });
  }
  const words = changed.map(([name, value]) => {
    const key = `game.${game}.option.${name}`;
    return t("{option}: {value}", { option: label(key, name), value: label(`${key}.${String(value).toLowerCase()}`, value) });
  });
  let options = words[0];
  for (const item of words.slice(1)) options = t("{list}, {item}", { list: options, item });
  return t("{game} ({options})", { game: title, options });
}

/**
 * Why a game ended, in the page's language: the label game.<game>.reason.<reason> (or
 * reason.<reason> for the server's own), with {winner} and {loser} filled from `players`;
 * the engine's message when no label has it.
 */
export function reasonText(game, result, players = []) {
  const reason = result.reason || "";
  const fallback = result.message || reason;
  const w = result.winner;
  const values = w === 0 || w === 1 ? { winner: players[w] || "", loser: players[1 - w] || "" } : {};
  return label(`game.${game}.reason.${reason}`, label(`reason.${reason}`, fallback, values), values);
}
