// Being told that it is your move (docs/web-client.md "Being told"): while it is your turn
// in a game with an opponent (a person or the computer), the tab's title starts with
// "● Your move" and the favicon is a disc of your side's colour; when it *becomes* your
// turn, a short sound plays (WebAudio, no file; the "Sound" setting turns it off) and, if
// the tab is hidden and the player asked for it, a browser notification appears.  The
// browser's permission is asked only when the player ticks "Notify me", never on load.

import { t } from "./i18n.js";
import { setSetting, settings } from "./store.js";
import { el } from "./ui.js";

/** The sides' colours (style.css's palette: Okabe–Ito orange and blue). */
const SIDE_COLOURS = ["#E69F00", "#0072B2"];

/** A favicon drawn on a canvas: a disc of `colour` with a white dot (a data: URL). */
export function turnFavicon(colour) {
  const canvas = document.createElement("canvas");
  canvas.width = 32;
  canvas.height = 32;
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.arc(16, 16, 15, 0, 2 * Math.PI);
  ctx.fill();
  ctx.fillStyle = "#ffffff";
  ctx.beginPath();
  ctx.arc(16, 16, 6, 0, 2 * Math.PI);
  ctx.fill();
  return canvas.toDataURL("image/png");
}

/** A short two-note chime (nothing happens where WebAudio is missing or not allowed). */
let audio = null;
export function chime() {
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return false;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime;
    [660, 880].forEach((frequency, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      const at = start + i * 0.12;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.3);
    });
    return true;
  } catch (_) {
    return false;
  }
}

function notificationsSupported() {
  return typeof window.Notification === "function";
}

export class Notifier {
  /** `page` is the GamePage: its `id`, `snap` and `you`. */
  constructor(page) {
    this.page = page;
    this.wasMyTurn = null; // null until the first update: no sound for the turn found on load
    this.prefixed = false;
    this.baseTitle = null;
    this.note = null;
    this.icon = document.querySelector("link[rel~='icon']");
    this.originalIcon = this.icon ? this.icon.getAttribute("href") : null;
    const s = settings();
    this.sound = el("input", { type: "checkbox", "data-testid": "toggle-sound", checked: s.sound !== false });
    this.sound.addEventListener("change", () => setSetting("sound", this.sound.checked));
    this.notify = el("input", { type: "checkbox", "data-testid": "toggle-notify",
      checked: !!s.notify && notificationsSupported() && window.Notification.permission === "granted" });
    this.notify.addEventListener("change", () => this.toggleNotify());
    this.controls = el("div", { class: "notify-settings" },
      el("label", { class: "check" }, this.sound, " ", t("Sound when it is your move")),
      el("label", { class: "check", hidden: !notificationsSupported() }, this.notify, " ",
        t("Notify me when it is my move (tab in the background)")));
    this.onVisible = () => {
      if (!document.hidden && this.note) {
        this.note.close && this.note.close();
        this.note = null;
      }
    };
    document.addEventListener("visibilitychange", this.onVisible);
  }

  /** Ask for the browser's permission (this runs on the player's click only). */
  async toggleNotify() {
    if (!this.notify.checked) {
      setSetting("notify", false);
      return;
    }
    let permission = window.Notification.permission;
    if (permission !== "granted") {
      try {
        permission = await window.Notification.requestPermission();
      } catch (_) {
        permission = "denied";
      }
    }
    const on = permission === "granted";
    this.notify.checked = on;
    setSetting("notify", on);
  }

  /** Whether this browser plays one side against an opponent (not both on one screen). */
  get seated() {
    const snap = this.page.snap;
    return !!snap && (snap.you === 0 || snap.you === 1);
  }

  /** Called on every change of the page: `myTurn` is whether this browser is to move. */
  update(myTurn) {
    const mine = !!myTurn && this.seated;
    this.setTitle(mine);
    this.setIcon(mine);
    if (mine && this.wasMyTurn === false) this.ring();
    this.wasMyTurn = mine;
  }

  setTitle(mine) {
    const prefix = "● " + t("Your move") + " – ";
    if (!this.prefixed || !document.title.startsWith(prefix)) this.baseTitle = document.title;
    document.title = mine ? prefix + this.baseTitle : this.baseTitle;
    this.prefixed = mine;
  }

  setIcon(mine) {
    if (!this.icon) return;
    if (mine) {
      const colour = SIDE_COLOURS[this.page.you] || SIDE_COLOURS[0];
      if (this.iconColour !== colour) {
        this.turnIcon = turnFavicon(colour);
        this.iconColour = colour;
      }
      if (this.turnIcon) this.icon.setAttribute("href", this.turnIcon);
    } else if (this.originalIcon !== null) {
      this.icon.setAttribute("href", this.originalIcon);
    }
    this.icon.dataset.yourMove = mine ? "1" : "0";
  }

  ring() {
    if (settings().sound !== false) chime();
    if (!document.hidden || !settings().notify || !notificationsSupported()) return;
    if (window.Notification.permission !== "granted") return;
    try {
      const title = this.baseTitle || document.title;
      this.note = new window.Notification(t("Your move"), {
        body: title,
        tag: `tablier-${this.page.id}`,
      });
      this.note.onclick = () => window.focus();
    } catch (_) {
      // some browsers allow notifications only from a service worker: the title says it
    }
  }

  destroy() {
    document.removeEventListener("visibilitychange", this.onVisible);
    this.setTitle(false);
    this.setIcon(false);
    if (this.note && this.note.close) this.note.close();
  }
}
