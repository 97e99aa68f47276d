// The game's WebSocket: hello with the seat token as the first message, automatic
// reconnection with backoff (the hello is resent and the snapshot brings the page up to
// date), and a ping every 25 s so idle proxies keep the connection.

export class GameSocket {
  /**
   * `onMessage(msg)` gets every server message; `onState(state)` gets "connecting",
   * "open" or "closed" when the connection changes.
   */
  constructor(gameId, token, { onMessage, onState }) {
    this.gameId = gameId;
    this.token = token || null;
    this.onMessage = onMessage;
    this.onState = onState || (() => {});
    this.attempt = 0;
    this.closed = false;
    this.socket = null;
    this.timer = null;
    this.pinger = null;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/games/${encodeURIComponent(this.gameId)}`;
  }

  connect() {
    if (this.closed) return;
    this.onState("connecting");
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch (_) {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      socket.send(JSON.stringify({ type: "hello", token: this.token }));
      this.onState("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    socket.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      if (msg && typeof msg.type === "string") this.onMessage(msg);
    });
    socket.addEventListener("close", () => {
      clearInterval(this.pinger);
      if (this.socket === socket) this.socket = null;
      if (!this.closed) {
        this.onState("closed");
        this.retry();
      }
    });
    socket.addEventListener("error", () => {
      // "close" follows and schedules the reconnection
    });
  }

  retry() {
    if (this.closed) return;
    const delay = Math.min(8000, 250 * 1.6 ** this.attempt) * (0.8 + 0.4 * Math.random());
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Whether the socket is open now. */
  get open() {
    return !!this.socket && this.socket.readyState === WebSocket.OPEN;
  }

  /** Send a message if the socket is open; returns whether it was sent. */
  send(msg) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  /** Close for good (leaving the page). */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}
