// The game's chat (docs/web.md "Chat"): the room this browser reads and writes in — the
// players' room for a seat of a game between people, the spectators' room for everyone
// else, both once the game is over — and, for a player, "mute the opponent" and "players'
// chat off".  Messages come from the WebSocket (`chat_history` after each hello, then
// `chat`) and are sent over REST.  Every text from the server (names, messages) is put in
// the page as text (textContent), never as HTML.

import { ApiError, errorText, request } from "./api.js";
import { t } from "./i18n.js";
import * as store from "./store.js";
import { clear, el } from "./ui.js";

/** The longest message the server keeps (characters). */
export const MAX_TEXT = 300;

/** The most messages kept on the page. */
const KEEP = 200;

function chatErrorText(err) {
  const texts = {
    chat_off: t("The players' chat is turned off in this game."),
    chat_too_long: t("A message has at most {n} characters.", { n: MAX_TEXT }),
    chat_empty: t("The message is empty."),
    rate_limited: t("You are sending messages too fast: wait a little."),
  };
  return (err instanceof ApiError && texts[err.code]) || errorText(err);
}

export class ChatPanel {
  /** `page` is the GamePage: its `id`, `token`, `snap` and `you`. */
  constructor(page) {
    this.page = page;
    this.messages = [];
    this.room = null;
    this.rooms = [];
    this.list = el("ol", { class: "chat-messages", "data-testid": "chat-messages",
      "aria-live": "polite", "aria-label": t("Messages") });
    this.roomLabel = el("p", { class: "meta", "data-testid": "chat-room" });
    this.input = el("input", { type: "text", maxlength: MAX_TEXT, autocomplete: "off",
      "data-testid": "chat-input", "aria-label": t("Your message") });
    this.sendButton = el("button", { type: "submit", "data-testid": "chat-send" }, t("Send"));
    this.form = el("form", { class: "chat-form" }, this.input, this.sendButton);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    this.error = el("p", { class: "error", "data-testid": "chat-error", role: "alert", hidden: true });
    this.mute = el("input", { type: "checkbox", "data-testid": "chat-mute" });
    this.mute.addEventListener("change", () => this.change({ mute: this.mute.checked }));
    this.off = el("input", { type: "checkbox", "data-testid": "chat-off" });
    this.off.addEventListener("change", () => this.change({ chat_off: this.off.checked }));
    this.controls = el("div", { class: "chat-controls", hidden: true },
      el("label", { class: "check" }, this.mute, " ", t("Mute the opponent")),
      el("label", { class: "check" }, this.off, " ", t("Players' chat off")));
    this.root = el("section", { class: "panel chat", "data-testid": "chat" },
      el("h2", {}, t("Chat")), this.roomLabel, this.list, this.form, this.error, this.controls);
  }

  /** Whether this browser holds a seat of a game between people (the players' room). */
  get player() {
    const snap = this.page.snap;
    return !!snap && snap.mode === "online" && (snap.you === 0 || snap.you === 1);
  }

  /** A `chat_history` or `chat` message of the WebSocket. */
  onMessage(msg) {
    if (msg.type === "chat_history") {
      this.room = msg.room;
      this.rooms = Array.isArray(msg.rooms) ? msg.rooms : [];
      this.messages = Array.isArray(msg.messages) ? msg.messages.slice(-KEEP) : [];
      this.renderMessages();
      this.update();
    } else if (msg.type === "chat" && msg.message) {
      if (this.messages.some((m) => m.id === msg.message.id)) return;
      this.messages.push(msg.message);
      if (this.messages.length > KEEP) this.messages.shift();
      this.list.append(this.item(msg.message));
      this.list.scrollTop = this.list.scrollHeight;
    }
  }

  /** Follow the snapshot: the game's status, `chat_off` and `muted`. */
  update() {
    const snap = this.page.snap;
    if (!snap) return;
    const player = this.player;
    const off = !!snap.chat_off && player;
    const both = this.rooms.length > 1;
    let label = player ? t("Players' chat") : t("Spectators' chat");
    if (both) label = t("Players' and spectators' chat");
    if (off) label = t("The players' chat is turned off.");
    this.roomLabel.textContent = label;
    this.input.disabled = off;
    this.sendButton.disabled = off;
    this.input.placeholder = player ? t("Say something to your opponent") : t("Say something to the other spectators");
    this.controls.hidden = !player;
    if (player) {
      this.mute.checked = !!(snap.muted && snap.muted[snap.you]);
      this.off.checked = !!snap.chat_off;
    }
    this.root.classList.toggle("both-rooms", both);
    if (snap.status !== "active" && this.rooms.length === 1 && !this.reloading) this.reload();
  }

  /** Read the messages again (the game ended: both rooms can be read now). */
  async reload() {
    this.reloading = true;
    try {
      const body = await request("GET", `/api/games/${encodeURIComponent(this.page.id)}/chat`,
        { token: this.page.token });
      this.onMessage({ type: "chat_history", ...body });
    } catch (err) {
      this.showError(chatErrorText(err));
    }
  }

  renderMessages() {
    clear(this.list);
    for (const message of this.messages) this.list.append(this.item(message));
    this.list.scrollTop = this.list.scrollHeight;
  }

  item(message) {
    let who = message.name || "";
    if (!who) who = message.room === "players" ? t("Player") : t("Spectator");
    const li = el("li", { class: `chat-message room-${message.room === "players" ? "players" : "spectators"}`,
      "data-testid": "chat-message" });
    if (message.room === "players" && (message.seat === 0 || message.seat === 1)) {
      li.classList.add(`seat-${message.seat}`);
    }
    const name = el("span", { class: "chat-name" });
    name.textContent = who;
    const text = el("span", { class: "chat-text", "data-testid": "chat-text" });
    text.textContent = message.text;
    li.append(name, ": ", text);
    if (message.room === "spectators" && this.rooms.length > 1) {
      li.append(" ", el("span", { class: "meta" }, t("(spectator)")));
    }
    return li;
  }

  showError(text) {
    this.error.textContent = text || "";
    this.error.hidden = !text;
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    const body = { text };
    if (!this.player && typeof store.playerName === "function" && store.playerName()) {
      body.name = store.playerName();
    }
    this.sendButton.disabled = true;
    this.input.value = ""; // at once: the player may type the next one meanwhile
    try {
      const answer = await request("POST", `/api/games/${encodeURIComponent(this.page.id)}/chat`,
        { token: this.page.token, body });
      this.showError("");
      if (answer && answer.message) this.onMessage({ type: "chat", message: answer.message });
    } catch (err) {
      if (!this.input.value) this.input.value = text; // refused: the text comes back
      this.showError(chatErrorText(err));
    } finally {
      this.update();
    }
  }

  async change(body) {
    try {
      const snap = await request("POST", `/api/games/${encodeURIComponent(this.page.id)}/chat/settings`,
        { token: this.page.token, body });
      this.showError("");
      // the WebSocket brings the snapshot, in order with the other player's changes; the
      // answer's copy could arrive after a newer one, so it is used only without a socket
      const socket = this.page.socket;
      if (!(socket && socket.open)) this.page.enqueue(() => this.page.applySnapshot(snap));
    } catch (err) {
      this.showError(chatErrorText(err));
      this.update();
    }
  }
}
