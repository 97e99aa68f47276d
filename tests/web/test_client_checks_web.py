"""The browser client under its Content-Security-Policy, and typed moves read before the
confirm step (issue 12, points 1 and 5).

- Each game's page (and the lobby) is opened with a listener for ``securitypolicyviolation``
  events and console errors, the board is used a little (a selection, a hover, the confirm
  bar, a dialog), and no violation may be reported; the game's own stylesheet
  (``games/<name>.css``) must be applied.  A control injects a ``<style>`` element, which
  the policy must refuse: the listener does see violations.
- Typed moves in Volo and Voldétour spellings that the move list does not write (a region
  named by another of its birds, a put without its level, a Lord path), and wrong entries,
  refused at once with the text kept.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .web_helpers import create_game, expect_ply, open_seat

LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def _watched_page(new_page):
    """A page that records CSP violations (window.__csp) and console errors (.console)."""
    page = new_page()
    page.add_init_script(LISTEN)
    page.console_errors = []
    page.on("console", lambda msg: msg.type == "error" and page.console_errors.append(msg.text))
    return page


def _violations(page) -> list[str]:
    return page.evaluate("window.__csp") + page.console_errors


def _play(live_server, made: dict, moves: list[str]) -> None:
    """Play ``moves`` through the REST API with the same-screen token."""
    token = made["tokens"]["both"]
    for ply, move in enumerate(moves):
        response = live_server.api(
            "POST", f"/api/games/{made['id']}/moves", token=token, json={"ply": ply, "move": move}
        )
        assert response.status_code == 200, response.text


def _use_xobo(page) -> None:
    page.locator("[data-cell='e5'].target").hover()
    page.locator("[data-cell='e5'].target").click()
    expect(page.get_by_test_id("pending-move")).to_have_text("e5")


def _use_volo(page) -> None:
    page.locator(".volo-sky [data-cell='a3'].target").click()
    expect(page.get_by_test_id("pending-move")).to_have_text("a3")


def _use_voldetour(page) -> None:
    # turning the board round adds a half turn to the 3D view and turns the map
    iso = page.get_by_test_id("vd-iso")
    turned = (int(iso.get_attribute("data-rotation")) + 2) % 4
    page.get_by_test_id("toggle-flip").click()
    expect(iso).to_have_attribute("data-rotation", str(turned))
    page.click("[data-testid=vd-take-B112]")
    page.hover('.vd-map [data-cell="b3"]')
    page.click("[data-testid=vd-rotate-right]")
    page.click('.vd-map [data-cell="c3"].target')
    expect(page.get_by_test_id("pending-move")).to_contain_text("B112")


USE = {"xobo": _use_xobo, "volo": _use_volo, "voldetour": _use_voldetour}
OPTIONS = {"xobo": {}, "volo": {"board": "mini"}, "voldetour": {"pieces": "mini"}}


@pytest.mark.parametrize("game", ["xobo", "volo", "voldetour"])
def test_no_csp_violation_on_each_game_page(live_server, new_page, game):
    response = live_server.api("GET", "/")
    policy = response.headers["content-security-policy"]
    assert "style-src 'self';" in policy and "unsafe-inline" not in policy, policy
    made = create_game(live_server, game, mode="local", options=OPTIONS[game])
    page = _watched_page(new_page)
    open_seat(page, live_server, made["id"], made["tokens"]["both"])
    # the game's stylesheet is loaded with its board, and applied
    sheet = page.locator(f"link[data-sheet='game-{game}']")
    expect(sheet).to_have_count(1)
    assert (
        page.evaluate(
            "name => document.querySelector(`link[data-sheet='game-${name}']`).sheet"
            ".cssRules.length",
            game,
        )
        > 5
    )
    USE[game](page)
    page.get_by_test_id("cancel-move").click()
    page.get_by_test_id("resign").click()  # a dialog
    page.get_by_test_id("dialog-no").click()
    page.get_by_test_id("home").click()  # the lobby, then the game again (sheet not doubled)
    expect(page.get_by_test_id("new-game-form")).to_be_visible()
    page.go_back()
    expect(page.get_by_test_id("board").locator("svg").first).to_be_visible()
    expect(sheet).to_have_count(1)
    assert _violations(page) == []
    # control: an inline <style> is refused by the policy, and the listener reports it
    page.evaluate(
        "document.head.append(Object.assign(document.createElement('style'),"
        " {textContent: 'body { color: red }'}))"
    )
    page.wait_for_function("window.__csp.length > 0")
    assert "style-src" in page.evaluate("window.__csp")[0]


def test_volo_typed_moves_read_before_confirm(live_server, new_page):
    made = create_game(live_server, "volo", mode="local", options={"board": "mini"})
    _play(live_server, made, ["a3", "a2", "d3", "h8"])
    page = new_page()
    open_seat(page, live_server, made["id"], made["tokens"]["both"])
    box = page.get_by_test_id("move-input")
    error = page.get_by_test_id("move-error")
    # d3-b3 divides Blue: without the region it is refused, the two choices suggested
    box.fill("d3-b3")
    box.press("Enter")
    expect(error).to_contain_text("d3-b3 is not a legal move in this position")
    expect(error).to_contain_text("d3-b3/a2, d3-b3/f2")
    expect(page.get_by_test_id("confirm-bar")).to_be_hidden()
    expect(box).to_have_value("d3-b3")
    # the region named by another of its birds (h8 is in f2's region), with a long dash
    box.fill("D3–B3 / h8")
    box.press("Enter")
    expect(page.get_by_test_id("pending-move")).to_have_text("d3-b3/f2")
    expect(error).to_be_empty()
    page.get_by_test_id("confirm-move").click()
    expect_ply(page, 5)
    expect(box).to_have_value("")
    # a bird that is not Blue's at all: refused
    box.fill("zz9")
    box.press("Enter")
    expect(error).to_contain_text("zz9 is not a legal move in this position")
    expect_ply(page, 5)


def test_voldetour_typed_moves_read_before_confirm(live_server, new_page):
    made = create_game(live_server, "voldetour", mode="local", options={"pieces": "mini"})
    _play(live_server, made, ["B112", "B112@b3:1x2x1", "S"])
    page = new_page()
    open_seat(page, live_server, made["id"], made["tokens"]["both"])
    expect(page.get_by_test_id("vd-hand")).to_be_visible()
    box = page.get_by_test_id("move-input")
    error = page.get_by_test_id("move-error")
    # a put that is not legal (no such orientation): refused at once, the text kept
    box.fill("S@b3+1:q")
    box.press("Enter")
    expect(error).to_contain_text("S@b3+1:q is not a legal move in this position")
    expect(page.get_by_test_id("confirm-bar")).to_be_hidden()
    expect(box).to_have_value("S@b3+1:q")
    # the put without its level: the level the stair rests at is filled in
    box.fill("s@b3:s")
    box.press("Enter")
    expect(page.get_by_test_id("pending-move")).to_have_text("S@b3+1:s")
    page.get_by_test_id("confirm-move").click()
    expect_ply(page, 4)
    # the Lord written with the slope's square on its way: the listed path is played
    box.fill("Lb2-b3-b4")
    box.press("Enter")
    expect(page.get_by_test_id("pending-move")).to_have_text("Lb2-b4")
    page.get_by_test_id("confirm-move").click()
    expect_ply(page, 5)
    # White has nothing in hand: a put is refused, the takes suggested
    box.fill("B111@d5:1x1x1")
    box.press("Enter")
    expect(error).to_contain_text("is not a legal move in this position. Legal moves like it: B1")
    expect_ply(page, 5)


def test_xobo_typed_voyna_mark(live_server, new_page):
    # North-South's column e1-e7 and East-West's scattered cubes: e8 would announce voyna
    made = create_game(live_server, "xobo", mode="local")
    _play(
        live_server,
        made,
        ["e1", "a2", "e2", "a4", "e3", "a6", "e4", "a8", "e5", "c2", "e6", "c4", "e7", "c6"],
    )
    page = new_page()
    open_seat(page, live_server, made["id"], made["tokens"]["both"])
    box = page.get_by_test_id("move-input")
    error = page.get_by_test_id("move-error")
    # the mark announcing voyna on a move that announces nothing: refused, text kept
    box.fill("a9 (v)")
    box.press("Enter")
    expect(error).to_contain_text("a9 (v) is not a legal move in this position")
    expect(box).to_have_value("a9 (v)")
    # the mark may be left out: e8 is confirmed as the move list writes it
    box.fill("e8")
    box.press("Enter")
    expect(page.get_by_test_id("pending-move")).to_have_text("e8 (v)")
    page.get_by_test_id("confirm-move").click()
    expect_ply(page, 15)
    expect(page.get_by_test_id("voyna-badge")).to_be_visible()
