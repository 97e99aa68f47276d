// What the browser remembers (localStorage): settings and "my games" with their seat tokens.
// Tokens are kept only here and sent as Bearer headers or in the WebSocket hello.

const SETTINGS_KEY = "tablier.settings";
const GAMES_KEY = "tablier.games";
const NAME_KEY = "tablier.name";
const DEFAULTS = { confirm: true, coordinates: true, theme: "auto", flip: false };

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch (_) {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (_) {
    // storage full or disabled: the page still works for this visit
  }
}

/** The per-game records kept under `key` (`{game: record}`); `{}` when missing or unreadable. */
export function perGameRecords(key) {
  const all = read(key, {});
  return all && typeof all === "object" && !Array.isArray(all) ? all : {};
}

/** Keep `record` as `game`'s under `key` (null forgets it). */
export function savePerGameRecord(key, game, record) {
  const all = perGameRecords(key);
  if (record) all[game] = record;
  else delete all[game];
  write(key, all);
}

/** The settings, defaults filled in. */
export function settings() {
  return { ...DEFAULTS, ...read(SETTINGS_KEY, {}) };
}

/** Change one setting and return them all. */
export function setSetting(name, value) {
  const all = settings();
  all[name] = value;
  write(SETTINGS_KEY, all);
  return all;
}

/** The name this guest chose (shown to opponents and spectators), or "". */
export function playerName() {
  const name = read(NAME_KEY, "");
  return typeof name === "string" ? name.slice(0, 40) : "";
}

/** Keep the guest's name (trimmed, at most 40 characters). */
export function setPlayerName(name) {
  const clean = String(name || "").replace(/\s+/g, " ").trim().slice(0, 40);
  write(NAME_KEY, clean);
  return clean;
}

/** The seats this browser holds, as `POST /api/account/claim` takes them: [{game, token}]. */
export function heldSeats() {
  return myGames().filter((g) => typeof g.token === "string" && g.token && g.seat !== "both")
    .map((g) => ({ game: g.id, token: g.token })).slice(0, 200);
}

/** My games, newest first: [{id, token, seat, game, title, mode, invite, created}]. */
export function myGames() {
  const list = read(GAMES_KEY, []);
  return Array.isArray(list) ? list.filter((g) => g && typeof g.id === "string") : [];
}

/** The stored entry of game `id`, or null. */
export function myGame(id) {
  return myGames().find((g) => g.id === id) || null;
}

/** Add or update the entry of game `id` (fields merged) and move it to the front. */
export function rememberGame(id, fields) {
  const list = myGames();
  const old = list.find((g) => g.id === id) || { id, created: new Date().toISOString() };
  const entry = { ...old, ...fields, id };
  write(GAMES_KEY, [entry, ...list.filter((g) => g.id !== id)].slice(0, 200));
  return entry;
}

/** Forget game `id` (its token too). */
export function forgetGame(id) {
  write(GAMES_KEY, myGames().filter((g) => g.id !== id));
}

/** Session storage for a record under review (survives a reload of /review). */
export function saveReview(data) {
  try {
    sessionStorage.setItem("tablier.review", JSON.stringify(data));
  } catch (_) {
    // too large for session storage: the review works until the page is left
  }
}

export function loadReview() {
  try {
    return JSON.parse(sessionStorage.getItem("tablier.review") || "null");
  } catch (_) {
    return null;
  }
}
