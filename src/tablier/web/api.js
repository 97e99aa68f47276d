// REST calls to the Tablier server (docs/web.md).  Every error becomes an ApiError
// carrying the server's {"error": {"code", "message"}} so pages can show it inline.

import { t } from "./i18n.js";

/** An error answered by the server (or a network failure: code "network"). */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The CSRF token of the cookie `tablier_csrf` (docs/web.md, "CSRF"), or "". */
export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)tablier_csrf=([A-Za-z0-9_-]+)/);
  return match ? match[1] : "";
}

let csrfLoading = null;

/** The CSRF token, asking the server for its cookie first when the browser has none. */
async function ensureCsrf() {
  if (csrfToken()) return csrfToken();
  if (!csrfLoading) {
    csrfLoading = fetch("/api/account", { cache: "no-store" }).then((r) => r.json())
      .then((data) => csrfToken() || (data && data.csrf) || "")
      .catch(() => "")
      .finally(() => { csrfLoading = null; });
  }
  return csrfLoading;
}

/**
 * The ApiError of a response that is not ok: the code and message of its JSON error body
 * (docs/web.md), else its status.
 */
export async function responseError(response) {
  let code = `http_${response.status}`;
  let message = response.statusText || t("request failed");
  try {
    const data = await response.json();
    if (data && data.error) {
      code = data.error.code || code;
      message = data.error.message || message;
    } else if (data && data.detail) {
      message = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
    }
  } catch (_) {
    // not JSON: keep the status text
  }
  return new ApiError(response.status, code, message);
}

/**
 * Call `path` with `method`; `body` is sent as JSON, `token` as a Bearer header.  Every
 * POST, PUT, PATCH and DELETE carries the CSRF header (X-CSRF-Token), which the routes that
 * the login cookie authenticates check.
 * Resolves to the parsed JSON answer (or text when `text` is true).
 */
export async function request(method, path, { body, token, text = false } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (!["GET", "HEAD", "OPTIONS"].includes(method)) {
    const csrf = await ensureCsrf();
    if (csrf) headers["X-CSRF-Token"] = csrf;
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (err) {
    throw new ApiError(0, "network", t("cannot reach the server ({error})", { error: err.message || err }));
  }
  if (!response.ok) throw await responseError(response);
  if (text) return response.text();
  if (response.status === 204) return null;
  return response.json();
}

export const api = {
  catalog: () => request("GET", "/api/catalog"),
  createGame: (body) => request("POST", "/api/games", { body }),
  recentGames: (limit = 20) => request("GET", `/api/games?limit=${limit}&offset=0`),
  /** The snapshot; with `ply` (the latest position seen), not older than it. */
  game: (id, token, ply = null) =>
    request("GET", `/api/games/${encodeURIComponent(id)}` + (ply === null ? "" : `?ply=${ply}`),
      { token }),
  /** One page of a game's history: positions `from` … `from + limit` (docs/web.md). */
  history: (id, from = 0, limit = null, ply = null) =>
    request("GET", `/api/games/${encodeURIComponent(id)}/history?from=${from}` +
      (limit ? `&limit=${limit}` : "") + (ply === null ? "" : `&ply=${ply}`)),
  /** The legal decisions of position `ply` (or later: the answer says its `ply`). */
  legal: (id, token, ply = null) =>
    request("GET",
      `/api/games/${encodeURIComponent(id)}/legal` + (ply === null ? "" : `?ply=${ply}`),
      { token }),
  move: (id, token, ply, move) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/moves`, { token, body: { ply, move } }),
  resign: (id, token) => request("POST", `/api/games/${encodeURIComponent(id)}/resign`, { token }),
  offer: (id, token, kind, action) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/offers`, {
      token,
      body: { kind, action },
    }),
  takeback: (id, token) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/takeback`, { token }),
  rematch: (id, token) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/rematch`, { token }),
  record: (id, format = "text") =>
    request("GET", `/api/games/${encodeURIComponent(id)}/record?format=${format}`, {
      text: format === "text",
    }),
  parseRecord: (text) => request("POST", "/api/records/parse", { body: { text } }),
  /** Give a seat's name (a guest) or link it to the logged-in account. */
  join: (id, token, name) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/join`, { token, body: { name } }),
  account: () => request("GET", "/api/account"),
  signup: (username, password) =>
    request("POST", "/api/account/signup", { body: { username, password } }),
  login: (username, password) =>
    request("POST", "/api/account/login", { body: { username, password } }),
  logout: () => request("POST", "/api/account/logout"),
  /** Link the seats of `seats` ([{game, token}]) to the logged-in account. */
  claim: (seats) => request("POST", "/api/account/claim", { body: { seats } }),
  /** A fresh token for the logged-in account's seat of game `id`. */
  seatToken: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/seat`),
  player: (username, offset = 0, limit = 20) =>
    request("GET", `/api/players/${encodeURIComponent(username)}?limit=${limit}&offset=${offset}`),
};

/**
 * What the server's error codes of fixed meaning say, in the page's language (docs/web.md,
 * "Error codes").  The codes whose message carries the engine's or the validator's details
 * (bad_move, illegal_move, bad_record, bad_option, bad_spec, invalid_request, bad_input…) keep the
 * server's message.
 */
function codeTexts() {
  return {
    token_required: t("This needs your seat's link."),
    bad_authorization: t("This needs your seat's link."),
    not_your_seat: t("This link holds no seat in this game: you are watching."),
    not_your_turn: t("It is not your turn."),
    not_found: t("There is no such game."),
    stale_ply: t("The position changed meanwhile: look again."),
    conflict: t("The game changed meanwhile: try again."),
    not_allowed: t("This is not possible in this kind of game."),
    nothing_to_undo: t("There is no move to take back."),
    offer_pending: t("You have already made this offer."),
    no_offer: t("There is no offer to answer."),
    own_offer: t("You cannot accept your own offer."),
    game_not_over: t("A rematch needs a finished game."),
    game_over: t("The game is over."),
    body_too_large: t("This is too large to send."),
    record_too_long: t("This record is too long to review here."),
    ai_busy: t("The computer is busy with your other games: try again in a moment."),
    ai_unavailable: t("The computer player is off on this server."),
    analysis_busy: t("The computer is busy with your other analyses: try again in a moment."),
    analysis_failed: t("This analysis has ended: start it again."),
    too_many_moves: t("This game is too long to analyse here."),
    hints_not_allowed: t("Hints are only for unrated games against the computer."),
    rate_limited: t("Too many requests: wait a moment and try again."),
    bad_username: t("A username has 3 to 20 letters, digits, _ or -."),
    bad_password: t("A password has 8 to 256 characters."),
    username_taken: t("This username is taken."),
    bad_credentials: t("Wrong username or password."),
    login_required: t("Log in first."),
    csrf_failed: t("The page is out of date: reload it and try again."),
    not_your_game: t("Your account holds no seat in this game."),
    seat_taken: t("Another player's account holds this seat."),
    too_many_tokens: t("This seat has too many links already."),
    bad_clock: t("This clock gives no time: set minutes or an increment."),
    method_not_allowed: t("This is not possible here."),
    internal_error: t("The server met an error: try again later."),
  };
}

/** The text of the server's error `code` (REST or WebSocket), else its `message`. */
export function codeText(code, message) {
  return codeTexts()[code] || message || code || t("error");
}

/** The text to show for an error thrown by a call (the server's message when it has one). */
export function errorText(err) {
  if (!(err instanceof ApiError)) return String((err && err.message) || err);
  return codeText(err.code, err.message);
}
