// Players: the guest's name and the optional account (docs/web-client.md, "Players").
//
// The header shows "Log in" and "Sign up" for a guest, the username (a link to the profile
// page) and "Log out" for an account.  Logging in or signing up links the seats this
// browser holds to the account (POST /api/account/claim).  On a game page, the holder of a
// seat gives the seat their name (a guest's, kept in localStorage) or their account
// (POST /api/games/<id>/join); an account opening its game on another device gets a fresh
// token for its seat (POST /api/games/<id>/seat).

import { api, errorText } from "./api.js";
import { t, tn } from "./i18n.js";
import { heldSeats, playerName, rememberGame, setPlayerName } from "./store.js";
import { clear, el, toast } from "./ui.js";

let current = null; // {id, username, kind} or null (a guest)
let host = null;
let formBox = null;
let ready = null;
const listeners = new Set();

/** The logged-in user ({id, username, kind}) or null. */
export function currentUser() {
  return current;
}

/** Resolves once the server said who is logged in. */
export function accountReady() {
  return ready || Promise.resolve();
}

/** Call `fn(user)` whenever the user logs in or out. */
export function onAccountChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed(user) {
  current = user || null;
  render();
  for (const fn of listeners) fn(current);
}

/** Start the header's account part in `element` (and learn who is logged in). */
export function setupAccount(element) {
  host = element;
  formBox = el("div", { class: "account-form panel", "data-testid": "account-form", hidden: true });
  const header = document.querySelector("header.top");
  if (header) header.after(formBox);
  ready = api.account().then((data) => {
    current = (data && data.user) || null;
  }).catch(() => {
    current = null;
  }).finally(render);
  return ready;
}

function render() {
  if (!host) return;
  clear(host);
  if (current) {
    host.append(
      el("a", { href: `/@/${encodeURIComponent(current.username)}`, "data-internal": true,
        class: "account-name", "data-testid": "account-name" }, current.username),
      " ",
      el("button", { type: "button", class: "small", "data-testid": "logout", onclick: logout },
        t("Log out")),
    );
  } else {
    host.append(
      el("button", { type: "button", class: "small", "data-testid": "open-login",
        onclick: () => openForm("login") }, t("Log in")),
      " ",
      el("button", { type: "button", class: "small", "data-testid": "open-signup",
        onclick: () => openForm("signup") }, t("Sign up")),
    );
  }
}

function openForm(kind) {
  clear(formBox);
  const signup = kind === "signup";
  const error = el("p", { class: "error", role: "alert", "data-testid": "account-error" });
  const username = el("input", { id: "acc-username", name: "username", required: true,
    minlength: 3, maxlength: 20, pattern: "[A-Za-z0-9_\\-]{3,20}", autocomplete: "username",
    "data-testid": "account-username" });
  const password = el("input", { id: "acc-password", name: "password", type: "password",
    required: true, minlength: 8, maxlength: 256,
    autocomplete: signup ? "new-password" : "current-password", "data-testid": "account-password" });
  const submit = el("button", { type: "submit", class: "primary", "data-testid": "account-submit" },
    signup ? t("Sign up") : t("Log in"));
  const cancel = el("button", { type: "button", "data-testid": "account-cancel",
    onclick: () => { formBox.hidden = true; } }, t("Cancel"));
  const form = el("form", { class: "form", "data-testid": `${kind}-form` },
    el("h2", {}, signup ? t("Create an account") : t("Log in")),
    el("div", { class: "row" }, el("label", { for: "acc-username" }, t("Username")), username),
    el("div", { class: "row" }, el("label", { for: "acc-password" }, t("Password")), password),
    signup ? el("p", { class: "hint" },
      t("3 to 20 letters, digits, _ or -; a password of 8 to 256 characters. No account is needed to play.")) : "",
    error, el("div", { class: "row" }, submit, cancel));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      const call = signup ? api.signup : api.login;
      const data = await call(username.value.trim(), password.value);
      formBox.hidden = true;
      changed(data.user);
      await claimSeats();
    } catch (err) {
      error.textContent = errorText(err);
    } finally {
      submit.disabled = false;
    }
  });
  formBox.append(form);
  formBox.hidden = false;
  username.focus();
}

/** Link the seats this browser holds to the account just logged in. */
async function claimSeats() {
  const seats = heldSeats();
  if (!seats.length) return;
  try {
    const answer = await api.claim(seats);
    const n = (answer.claimed || []).length;
    if (n) toast(tn("{n} game linked to your account", "{n} games linked to your account", n));
  } catch (err) {
    toast(errorText(err), "error");
  }
}

async function logout() {
  try {
    await api.logout();
    changed(null);
  } catch (err) {
    toast(errorText(err), "error");
  }
}

// -- a seat's player on the game page ------------------------------------------------

/**
 * Give the seat held by `page` (a GamePage) its player: the account when logged in, else
 * the guest's name; a guest without a name is asked for one (under the players' list).
 */
export async function joinSeat(page) {
  await accountReady();
  const snap = page.snap;
  if (snap && !page.token && current && snap.mode !== "local") {
    await seatFromAccount(page, snap);
    return;
  }
  if (!snap || !page.token || snap.mode === "local" || (snap.you !== 0 && snap.you !== 1)) return;
  const seat = snap.you;
  const player = (snap.players || [])[seat] || {};
  const info = (snap.seats || [])[seat] || {};
  if (current) {
    if (player.user !== current.id) await send(page, "");
    return;
  }
  if (player.kind === "account") return;
  const name = playerName();
  if (name) {
    if (info.name !== name) await send(page, name);
    return;
  }
  if (info.name) return; // named at creation
  askName(page);
}

/**
 * On a device without the seat's link, an account that holds a seat of the game gets a
 * fresh token for it (POST /api/games/<id>/seat) and the page opens again with it.
 */
async function seatFromAccount(page, snap) {
  const mine = (snap.players || []).findIndex((p) => p && p.kind === "account" && p.user === current.id);
  const guard = `tablier.minted.${page.id}`;
  if (mine < 0 || sessionStorage.getItem(guard)) return;
  try {
    const made = await api.seatToken(page.id);
    sessionStorage.setItem(guard, "1");
    rememberGame(page.id, { token: made.token, seat: made.seat, game: snap.game, title: snap.title,
      mode: snap.mode });
    location.reload();
  } catch (err) {
    toast(errorText(err), "error");
  }
}

async function send(page, name) {
  try {
    const snap = await api.join(page.id, page.token, name);
    page.enqueue(() => page.applySnapshot(snap));
  } catch (err) {
    toast(errorText(err), "error");
  }
}

function askName(page) {
  const input = el("input", { id: "seat-name", maxlength: 40, autocomplete: "nickname",
    required: true, "data-testid": "seat-name" });
  const form = el("form", { class: "form seat-name", "data-testid": "seat-name-form" },
    el("label", { for: "seat-name" }, t("Your name (shown to your opponent)")), " ", input, " ",
    el("button", { type: "submit", class: "small", "data-testid": "seat-name-submit" }, t("OK")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = setPlayerName(input.value);
    if (!name) return;
    form.remove();
    await send(page, name);
  });
  page.players.after(form);
}
