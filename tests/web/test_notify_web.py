"""Being told it is your move, in a real browser: the tab's title and favicon, the sound
(and its setting), and a notification when the tab is hidden — asked for on a click only.

The page's visibility is emulated (``document.hidden`` made settable, then a
``visibilitychange`` event), the Notification API and WebAudio are replaced by stubs that
record their calls, installed before the page's scripts run (``add_init_script``); the
notifications permission is granted to the context as well.
"""

from __future__ import annotations

from playwright.sync_api import expect

import tablier.games

from .web_helpers import create_game, expect_ply, open_seat

STUBS = """
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get() { return window.__hidden; } });
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get() { return window.__hidden ? "hidden" : "visible"; } });
window.__notes = [];
window.__asked = 0;
class FakeNotification {
  constructor(title, options) { window.__notes.push({ title, ...(options || {}) }); }
  close() {}
  static requestPermission() {
    window.__asked += 1; FakeNotification.permission = "granted";
    localStorage.setItem("test.granted", "1");  // kept by the browser, as a real grant is
    return Promise.resolve("granted");
  }
}
FakeNotification.permission = localStorage.getItem("test.granted") ? "granted" : "default";
window.Notification = FakeNotification;
window.__tones = 0;
class FakeAudio {
  constructor() { this.currentTime = 0; this.state = "running"; this.destination = {}; }
  createOscillator() {
    window.__tones += 1;
    return { frequency: {}, connect: (x) => x, start() {}, stop() {} };
  }
  createGain() {
    const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return { gain: param, connect: (x) => x };
  }
  resume() {}
}
window.AudioContext = FakeAudio;
"""


def hide(page, hidden: bool) -> None:
    page.evaluate(
        "(h) => { window.__hidden = h; document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


def first_legal(moves: list[str]) -> str:
    game = tablier.games.get("xobo")
    state = game.initial_state()
    for text in moves:
        state = state.apply(game.parse_move(state, text))
    return game.move_text(state, next(iter(state.legal_moves())))


def test_your_move_title_favicon_sound_and_notification(live_server, new_page, screenshot):
    created = create_game(live_server, "xobo", mode="online", names=["Ann", "Bob"])
    gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    page = new_page()
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.add_init_script(STUBS)
    bob = open_seat(page, live_server, gid, t1)
    icon = bob.locator("link[rel~='icon']")
    expect(bob).not_to_have_title("● Your move", timeout=1000)
    assert not bob.title().startswith("●")
    expect(icon).to_have_attribute("href", "data:,")
    assert bob.evaluate("window.__asked") == 0  # never asked on load

    # asked on the click only
    bob.get_by_test_id("toggle-notify").check()
    expect(bob.get_by_test_id("toggle-notify")).to_be_checked()
    assert bob.evaluate("window.__asked") == 1

    # the tab goes to the background; the opponent moves
    hide(bob, True)
    moves = [first_legal([])]
    live_server.api("POST", f"/api/games/{gid}/moves", token=t0, json={"ply": 0, "move": moves[0]})
    expect_ply(bob, 1)
    bob.wait_for_function("document.title.startsWith('● Your move – ')")
    assert bob.title().endswith("Tablier")
    assert (icon.get_attribute("href") or "").startswith("data:image/png;base64,")
    expect(icon).to_have_attribute("data-your-move", "1")
    notes = bob.evaluate("window.__notes")
    assert len(notes) == 1 and notes[0]["title"] == "Your move"
    assert notes[0]["tag"] == f"tablier-{gid}"
    assert bob.evaluate("window.__tones") == 2  # the two notes of the chime

    # Bob comes back and moves: the title and favicon are back to normal
    hide(bob, False)
    moves.append(first_legal(moves))
    live_server.api("POST", f"/api/games/{gid}/moves", token=t1, json={"ply": 1, "move": moves[1]})
    expect_ply(bob, 2)
    bob.wait_for_function("!document.title.startsWith('●')")
    expect(icon).to_have_attribute("href", "data:,")

    # visible tab: the title and sound, but no notification
    moves.append(first_legal(moves))
    live_server.api("POST", f"/api/games/{gid}/moves", token=t0, json={"ply": 2, "move": moves[2]})
    expect_ply(bob, 3)
    bob.wait_for_function("document.title.startsWith('● Your move')")
    assert len(bob.evaluate("window.__notes")) == 1
    assert bob.evaluate("window.__tones") == 4
    screenshot(bob, "notify-your-move")

    # the sound turned off (and remembered): no chime on the next turn
    bob.get_by_test_id("toggle-sound").uncheck()
    bob.reload()
    expect_ply(bob, 3)
    expect(bob.get_by_test_id("toggle-sound")).not_to_be_checked()
    moves.append(first_legal(moves))
    live_server.api("POST", f"/api/games/{gid}/moves", token=t1, json={"ply": 3, "move": moves[3]})
    expect_ply(bob, 4)
    moves.append(first_legal(moves))
    hide(bob, True)
    live_server.api("POST", f"/api/games/{gid}/moves", token=t0, json={"ply": 4, "move": moves[4]})
    expect_ply(bob, 5)
    bob.wait_for_function("document.title.startsWith('● Your move')")
    assert bob.evaluate("window.__tones") == 0
    assert len(bob.evaluate("window.__notes")) == 1  # a new page: the notification again
