// The game clocks (docs/web-client.md, "Clocks"): both seats' time, the running one ticking,
// a warning when time is low; and the time-control chooser of the lobby's new-game form.
//
// The server is the only clock: every snapshot and move message carries `clock` ({control,
// left: [ms, ms] at the server's now_ms, running: seat|null, deadline_ms}).  The page only
// counts down from the last one.  Latency: the smallest difference seen between a message's
// arrival (Date.now()) and its now_ms is taken as the offset between the two clocks, so the
// countdown runs on the server's time less the quickest delivery seen (a slow message does
// not make the clock jump back up).

import { t } from "./i18n.js";
import { el, sideMarker } from "./ui.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The presets of the chooser: [value, control or null] ("custom" adds its own). */
export const CLOCK_PRESETS = [
  ["none", null],
  ["live:180:2", { kind: "live", base: 180, increment: 2 }],
  ["live:300:3", { kind: "live", base: 300, increment: 3 }],
  ["live:600:5", { kind: "live", base: 600, increment: 5 }],
  ["live:900:10", { kind: "live", base: 900, increment: 10 }],
  ["corr:1", { kind: "correspondence", days: 1 }],
  ["corr:3", { kind: "correspondence", days: 3 }],
  ["corr:7", { kind: "correspondence", days: 7 }],
];

/** A time control in words: "5+3" (minutes + seconds per move), "3 days per move". */
export function controlText(control) {
  if (!control) return t("no clock");
  if (control.kind === "correspondence") {
    return control.days === 1 ? t("1 day per move") : t("{n} days per move", { n: control.days });
  }
  const minutes = control.base / 60;
  let base = Number.isInteger(minutes) ? String(minutes) : minutes.toFixed(1);
  if (control.base > 0 && control.base < 60) base = `${control.base}s`; // under a minute: in seconds
  return `${base}+${control.increment || 0}`;
}

/**
 * A clock's time as players read it: h:mm:ss, m:ss, or seconds and tenths under 10 s
 * (live); days and hours, hours and minutes, then m:ss (correspondence).
 */
export function formatTime(ms, kind = "live") {
  const left = Math.max(0, ms);
  if (kind === "correspondence" && left >= DAY) {
    return t("{d} d {h} h", { d: Math.floor(left / DAY), h: Math.floor((left % DAY) / HOUR) });
  }
  if (kind === "correspondence" && left >= HOUR) {
    return t("{h} h {m} min", { h: Math.floor(left / HOUR), m: Math.floor((left % HOUR) / MINUTE) });
  }
  if (left < 10 * SECOND) return (Math.floor(left / 100) / 10).toFixed(1);
  const whole = Math.floor(left / SECOND);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/**
 * Whether `ms` is little enough to warn: live, under a tenth of the base time but at most
 * 20 s (at least 5 s: an increment-only clock); correspondence, under a tenth of a turn.
 */
export function isLow(ms, control) {
  if (!control) return false;
  if (control.kind === "correspondence") return ms < control.days * DAY / 10;
  const limit = Math.max(5 * SECOND, Math.min(20 * SECOND, control.base * 100));
  return ms < limit;
}

/** The two clocks of a game page (`page`: GamePage: its snap, seatLabel(), resync()). */
export class ClockPanel {
  constructor(page) {
    this.page = page;
    this.offset = null; // Date.now() - server now, smallest seen
    this.base = null; // {left, running, at: server ms of `left`}
    this.frame = 0;
    this.resyncedFor = null;
    this.faces = [0, 1].map((seat) => {
      const time = el("span", { class: "clock-time", "data-testid": `clock-time-${seat}` });
      const who = el("span", { class: "clock-who" });
      const face = el("div", { class: `clock seat-${seat}`, role: "timer", "data-testid": `clock-${seat}` },
        sideMarker(seat, 12), " ", who, " ", time);
      return { face, time, who };
    });
    this.control = el("div", { class: "meta clock-control", "data-testid": "clock-control" });
    this.root = el("div", { class: "clocks", "data-testid": "clocks", hidden: true },
      this.faces[0].face, this.faces[1].face, this.control);
    this.tick = this.tick.bind(this);
  }

  destroy() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  /** Take the clock of the page's snapshot (or `clock`, from a message) and draw it. */
  update(clock) {
    const c = clock !== undefined ? clock : this.page.snap && this.page.snap.clock;
    if (!c) {
      this.base = null;
      this.root.hidden = true;
      this.destroy();
      return;
    }
    if (typeof c.now_ms === "number") {
      const seen = Date.now() - c.now_ms;
      if (this.offset === null || seen < this.offset) this.offset = seen;
    }
    this.base = { control: c.control, left: c.left || [0, 0], running: c.running,
      at: typeof c.now_ms === "number" ? c.now_ms : this.serverNow() };
    this.root.hidden = false;
    this.control.textContent = controlText(c.control);
    this.faces.forEach((f, seat) => { f.who.textContent = this.page.seatLabel(seat); });
    this.render();
  }

  serverNow() {
    return Date.now() - (this.offset || 0);
  }

  /** Each seat's time now (the running one counted down from the last message). */
  left() {
    const b = this.base;
    if (!b) return null;
    const left = [...b.left];
    const running = this.running();
    if (running !== null) left[running] = Math.max(0, left[running] - (this.serverNow() - b.at));
    return left;
  }

  running() {
    const b = this.base;
    const active = this.page.snap && this.page.snap.status === "active" && !this.page.viewer.result;
    return b && active && (b.running === 0 || b.running === 1) ? b.running : null;
  }

  render() {
    const left = this.left();
    if (!left) return;
    const running = this.running();
    const kind = this.base.control ? this.base.control.kind : "live";
    this.faces.forEach((f, seat) => {
      const text = formatTime(left[seat], kind);
      if (f.time.textContent !== text) f.time.textContent = text;
      f.face.dataset.ms = String(Math.round(left[seat]));
      f.face.classList.toggle("running", running === seat);
      f.face.classList.toggle("low", isLow(left[seat], this.base.control));
      f.face.classList.toggle("flagged", left[seat] <= 0);
    });
    if (running !== null && left[running] <= 0) this.askForResult();
    if (running !== null && !this.frame) this.frame = requestAnimationFrame(this.tick);
  }

  tick() {
    this.frame = 0;
    if (!this.page.closed) this.render();
  }

  /** The running clock shows 0: the server settles the flag; ask once if no word comes. */
  askForResult() {
    const key = `${this.page.snap && this.page.snap.ply}:${this.base.at}`;
    if (this.resyncedFor === key) return;
    this.resyncedFor = key;
    setTimeout(() => {
      if (!this.page.closed && this.running() !== null) this.page.resync();
    }, 1500);
  }
}

/**
 * The time-control chooser of a form (the new-game form, the challenge form): a select of
 * the presets and "custom" (minutes, by quarters as on lichess, and increment).  `value()`
 * is the clock POST /api/games and POST /api/challenges take, or null.
 */
export function clockChooser(id = "ng-clock", testid = "new-game-clock", initial = "none") {
  const select = el("select", { id, "data-testid": testid });
  for (const [value, control] of CLOCK_PRESETS) select.append(el("option", { value }, controlText(control)));
  select.append(el("option", { value: "custom" }, t("Custom…")));
  select.value = initial;
  // the custom inputs: clock-minutes, clock-increment in the new-game form, else after `testid`
  const sub = testid === "new-game-clock" ? "clock" : testid;
  const minutes = el("input", { type: "number", min: 0, max: 180, step: 0.25, value: 5,
    "data-testid": `${sub}-minutes`, "aria-label": t("Minutes per player") });
  const increment = el("input", { type: "number", min: 0, max: 180, step: 1, value: 3,
    "data-testid": `${sub}-increment`, "aria-label": t("Seconds added per move") });
  const custom = el("span", { class: "clock-custom", hidden: true },
    minutes, " ", t("min"), " + ", increment, " ", t("s per move"));
  const showCustom = () => { custom.hidden = select.value !== "custom"; };
  select.addEventListener("change", showCustom);
  showCustom();
  const root = el("div", { class: "row clock-row" },
    el("label", { for: id }, t("Clock")), select, custom);
  return {
    root,
    select,
    value() {
      if (select.value === "custom") {
        const base = Math.round(Number(minutes.value) * 60) || 0;
        return { kind: "live", base, increment: Math.round(Number(increment.value)) || 0 };
      }
      const preset = CLOCK_PRESETS.find(([value]) => value === select.value);
      return preset ? preset[1] : null;
    },
  };
}
