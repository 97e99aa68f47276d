"""Two ``tablier serve`` processes on one PostgreSQL database, a browser on one of them:
the moves made through the other's API reach the page within 100 ms.

The page (on process B, watching) records when each ``move`` message arrives on its
WebSocket and when the move list shows it (``performance.timeOrigin + performance.now()``,
the wall clock in ms); the test takes the time each REST call to process A returned.  The
median of a dozen moves must be under 100 ms both ways, the slowest under a second.  Needs
PostgreSQL (``TABLIER_TEST_POSTGRES_URL``, see tools/with-test-services.sh) and Chromium.

And the page's side of "reads after a move" (one process suffices): the legal moves are asked
for the ply shown, ``…/legal?ply=N``, and once more after a ``409 ply_ahead`` (what a process
answers when neither its copy nor the database has reached that ply yet).
"""

from __future__ import annotations

import statistics
import time

import pytest
from playwright.sync_api import expect

from server.conftest import postgres_url  # noqa: F401  (the fixture)
from server.servers import ServerProcess, start_all

from .web_helpers import create_game, expect_ply, move_texts, open_seat

#: Timestamps of the page's move messages and of the move list's growth.
RECORDER = """
window.__moves = {};
window.__shown = {};
const Socket = window.WebSocket;
window.WebSocket = class extends Socket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      try {
        const message = JSON.parse(event.data);
        if (message.type === "move") {
          window.__moves[message.ply] = performance.timeOrigin + performance.now();
        }
      } catch (_) {}
    });
  }
};
new MutationObserver(() => {
  const n = document.querySelectorAll("[data-testid=move-item]").length;
  if (n && !(n in window.__shown)) window.__shown[n] = performance.timeOrigin + performance.now();
}).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture
def pair(postgres_url, tmp_path):  # noqa: F811
    servers = [ServerProcess(name, postgres_url, tmp_path) for name in ("a", "b")]
    start_all(servers)
    try:
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()


def test_a_move_through_one_process_shows_in_a_browser_on_the_other(pair, new_page):
    a, b = pair
    created = a.api("POST", "/api/games", json={"game": "xobo", "mode": "local"}).json()
    gid, token = created["id"], created["tokens"]["both"]
    page = new_page()
    page.add_init_script(RECORDER)
    page.goto(f"{b.url}/g/{gid}")  # a spectator on process b
    expect(page.get_by_test_id("board").locator("svg").first).to_be_visible()
    time.sleep(0.3)  # the page's WebSocket has said hello
    sent: dict[int, float] = {}
    returned: dict[int, float] = {}
    played = []
    for ply in range(12):
        move = a.api("GET", f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
        sent[ply + 1] = time.time() * 1000
        r = a.api("POST", f"/api/games/{gid}/moves", token, json={"ply": ply, "move": move})
        returned[ply + 1] = time.time() * 1000
        assert r.status_code == 200, r.text
        played = r.json()["moves"]
        page.wait_for_function("n => n in window.__shown", arg=ply + 1)
        if r.json()["status"] != "active":
            break
    arrived = page.evaluate("window.__moves")
    shown = page.evaluate("window.__shown")
    # From the REST call's return (0 when the message came first) ...
    socket = [max(0.0, arrived[str(n)] - t) for n, t in returned.items()]
    screen = [max(0.0, shown[str(n)] - t) for n, t in returned.items()]
    # ... and, for the record, from the call's start (the commit on a included).
    whole = [shown[str(n)] - t for n, t in sent.items()]
    print(
        f"move on a -> browser on b, from the call's return: socket median "
        f"{statistics.median(socket):.1f} ms (max {max(socket):.1f}), move list median "
        f"{statistics.median(screen):.1f} ms (max {max(screen):.1f}); from the call's start "
        f"to the move list: median {statistics.median(whole):.1f} ms, over {len(sent)} moves"
    )
    assert move_texts(page) == played
    assert statistics.median(socket) < 100, socket
    assert statistics.median(screen) < 100, screen
    assert max(socket) < 1000 and max(screen) < 1000, (socket, screen)


def test_the_page_asks_for_the_legal_moves_of_its_ply_and_again_after_ply_ahead(
    live_server, new_page
):
    created = create_game(live_server, "xobo", mode="online")
    gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    page = new_page()
    asked: list[str] = []

    def legal(route) -> None:
        asked.append(route.request.url)
        if len(asked) == 1:  # the first answer: a process not there yet
            route.fulfill(
                status=409,
                content_type="application/json",
                body='{"error": {"code": "ply_ahead", "message": "not yet", "ply": 0}}',
            )
        else:
            route.continue_()

    page.route("**/api/games/*/legal*", legal)
    open_seat(page, live_server, gid, t1)
    move = live_server.api("GET", f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
    r = live_server.api("POST", f"/api/games/{gid}/moves", token=t0, json={"ply": 0, "move": move})
    assert r.status_code == 200, r.text
    expect_ply(page, 1)
    board = page.get_by_test_id("board")
    expect(board).to_have_attribute("data-ready", "1")
    expect(board.locator("[data-cell].target").first).to_be_visible()
    assert len(asked) == 2 and all(url.endswith("/legal?ply=1") for url in asked), asked
    expect(page.get_by_test_id("move-error")).to_have_text("")
