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

/**
 * Call `path` with `method`; `body` is sent as JSON, `token` as a Bearer header.
 * Resolves to the parsed JSON answer (or text when `text` is true).
 */
export async function request(method, path, { body, token, text = false } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
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
  if (!response.ok) {
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
    throw new ApiError(response.status, code, message);
  }
  if (text) return response.text();
  if (response.status === 204) return null;
  return response.json();
}

export const api = {
  catalog: () => request("GET", "/api/catalog"),
  createGame: (body) => request("POST", "/api/games", { body }),
  recentGames: (limit = 20) => request("GET", `/api/games?limit=${limit}&offset=0`),
  game: (id, token) => request("GET", `/api/games/${encodeURIComponent(id)}`, { token }),
  /** One page of a game's history: positions `from` … `from + limit` (docs/web.md). */
  history: (id, from = 0, limit = null) =>
    request("GET", `/api/games/${encodeURIComponent(id)}/history?from=${from}` +
      (limit ? `&limit=${limit}` : "")),
  legal: (id, token) => request("GET", `/api/games/${encodeURIComponent(id)}/legal`, { token }),
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
};

/**
 * What the server's error codes of fixed meaning say, in the page's language (docs/web.md,
 * "Error codes").  The codes whose message carries the engine's or the validator's details
 * (bad_move, illegal_move, bad_record, bad_option, invalid_request, bad_input…) keep the
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
