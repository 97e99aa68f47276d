"""Voldétour's 3D view as the main board, in a real browser (docs/web-client.md, "Voldétour
board"):

- a whole turn played by clicks in the 3D view alone (the tray for the piece and its
  orientation, the tops of the columns for its place, the Lord figure and its destination):
  ``B123@c2:1x2x3``, ``S@d2:w``, ``Lb2-c2``, the legal places and the Lord's reachable
  squares lit in 3D as on the map;
- the move list writes that turn as one line, ``B123@c2:1x2x3 · S@d2:w · Lb2-c2``, and
  keeps a button per decision for the history;
- while a Lord is on its tower the tray says what to do before the deadline, with the
  number of turns left; it is gone once the Lord is down;
- two Lords on neighbouring squares one behind the other (same level, or one level apart)
  are drawn apart at every rotation: their figures' boxes do not overlap;
- a read-only diagram (``drawDiagram``) with highlights, an arrow and a cross in 3D.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tablier.games import get

from .web_helpers import create_game, open_seat

MINI = "voldetour:pieces=mini,repetition=False,max_turns=none"


def _iso_targets(page) -> set[str]:
    return {e.get_attribute("data-square") for e in page.locator(".vd-iso .target").all()}


def _map_targets(page) -> set[str]:
    return {e.get_attribute("data-cell") for e in page.locator(".vd-map .vd-sq.target").all()}


def _lines(page) -> list[str]:
    return [
        " ".join(t.split()[1:])  # without the line's number
        for t in page.locator("[data-testid=move-line]").all_inner_texts()
    ]


def _wait_ply(page, count: int) -> None:
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=move-item]').length >= n", arg=count
    )


def _typed(page, texts: list[str], ply: int) -> None:
    """Play ``texts`` in the move box, the first being decision ``ply``."""
    for i, text in enumerate(texts):
        page.fill("[data-testid=move-input]", text)
        page.click("[data-testid=move-submit]")
        _wait_ply(page, ply + i)


def test_a_turn_by_clicks_in_3d_and_one_line_per_turn(live_server, new_page, screenshot):
    created = create_game(live_server, "voldetour", options={"pieces": "default"})
    page = new_page(viewport={"width": 1280, "height": 900})
    open_seat(page, live_server, created["id"], created["tokens"]["both"])
    page.wait_for_selector(".vd-iso .vd-floor[data-square]")
    page.uncheck("[data-testid=toggle-confirm]")

    # the 3D view is the main board: at least as large as the map
    iso = page.get_by_test_id("vd-iso").bounding_box()
    flat = page.get_by_test_id("vd-map").bounding_box()
    assert iso and flat and iso["width"] >= flat["width"] and iso["height"] >= flat["height"]

    # the deadline, in words, with the turns left
    deadline = page.get_by_test_id("vd-deadline")
    expect(deadline).to_contain_text("within 3 of your turns")
    expect(deadline).to_contain_text("turn 5")

    # a block: the tray for the piece and its orientation, the 3D view for its place
    page.click("[data-testid=vd-take-B123]")
    page.click("[data-testid=vd-orient-1x2x3]")
    lit = _iso_targets(page)
    assert "c2" in lit and lit == _map_targets(page)
    page.hover('.vd-iso [data-square="c2"].target')
    expect(page.get_by_test_id("vd-ghost")).to_have_count(6)  # 1 x 2 x 3 unit cells
    page.click('.vd-iso [data-square="c2"].target')
    _wait_ply(page, 2)
    # a stair rising west on d2
    page.click("[data-testid=vd-take-S]")
    page.click("[data-testid=vd-orient-w]")
    page.click('.vd-iso [data-square="d2"].target')
    _wait_ply(page, 4)
    # the Lord: its figure in 3D, then the top of the block at c2 (level 3, beside the tower)
    page.click(".vd-iso .vd-solids [data-lord='0']")
    reach = _iso_targets(page)
    assert "c2" in reach and reach == _map_targets(page)
    page.hover('.vd-iso .vd-top[data-square="c2"]')
    expect(page.locator(".vd-iso-overlay .vd-path.preview")).to_have_count(1)
    page.click('.vd-iso .vd-top[data-square="c2"]')
    _wait_ply(page, 5)

    # one line for Black's turn, a button per decision (the takes folded into their puts)
    assert _lines(page) == ["B123@c2:1x2x3 · S@d2:w · Lb2-c2"]
    expect(page.get_by_test_id("move-item")).to_have_count(5)
    expect(page.locator("[data-testid=move-item]:visible")).to_have_count(3)
    # White's deadline is its own (turn 6); a decision of White starts line 2
    expect(deadline).to_contain_text("turn 6")
    page.fill("[data-testid=move-input]", "B111")
    page.click("[data-testid=move-submit]")
    _wait_ply(page, 6)
    assert _lines(page)[1] == "B111"
    # the history goes decision by decision inside a line
    page.locator("[data-testid=move-item][data-ply='2']").click()
    expect(page.locator("[data-testid=move-line]").first).to_have_class(re.compile(r"\bcurrent\b"))
    screenshot(page, "voldetour-3d-turn")
    page.get_by_test_id("nav-last").click()

    # the heights on demand (button and key), remembered
    assert page.locator(".vd-iso .vd-height-num").count() == 0
    page.click("[data-testid=vd-heights]")
    assert page.locator('.vd-iso .vd-height-num[data-square="c2"]').text_content() == "3"
    assert page.locator('.vd-iso .vd-height-num[data-square="d2"]').text_content() == "0–1"
    page.locator("body").press("h")
    assert page.locator(".vd-iso .vd-height-num").count() == 0

    # on a phone the map, stacked under the 3D view, stays the smaller
    page.set_viewport_size({"width": 375, "height": 812})
    iso = page.get_by_test_id("vd-iso").bounding_box()
    flat = page.get_by_test_id("vd-map").bounding_box()
    assert iso and flat and iso["width"] >= flat["width"] and iso["height"] >= flat["height"]
    assert iso["x"] + iso["width"] <= 375


def test_the_deadline_text_goes_once_the_lord_is_down(live_server, new_page):
    created = create_game(live_server, "voldetour", options={"pieces": "mini"})
    page = new_page()
    open_seat(page, live_server, created["id"], created["tokens"]["both"])
    page.wait_for_selector(".vd-iso .vd-floor[data-square]")
    page.uncheck("[data-testid=toggle-confirm]")
    expect(page.get_by_test_id("vd-deadline")).to_contain_text("turn 5")
    # the mini set's example: a block laid flat, a stair down from the tower, the Lord down
    _typed(page, ["B112", "B112@b3:1x2x1", "S", "S@b3+1:s"], 1)
    page.click(".vd-iso .vd-solids [data-lord='0']")
    page.click('.vd-iso .vd-top[data-square="b4"].target')
    _wait_ply(page, 5)
    expect(page.get_by_test_id("vd-deadline")).to_contain_text("turn 6")  # White's
    _typed(page, ["B111", "B111@d5:1x1x1", "end"], 6)
    expect(page.get_by_test_id("vd-turn")).to_contain_text("Turn 3: Black")
    expect(page.get_by_test_id("vd-deadline")).to_have_count(0)  # Black's Lord is down
    _typed(page, ["B111", "B111@e2:1x1x1", "end"], 9)
    expect(page.get_by_test_id("vd-deadline")).to_contain_text("within 2 of your turns")
    _typed(page, ["S", "S@a1:n", "end"], 12)
    _typed(page, ["S", "S@f1:n", "end"], 15)
    # White's third turn: the last chance
    expect(page.get_by_test_id("vd-deadline")).to_contain_text("Last chance")


_DIAGRAM = """async ([view, diagram, rotations]) => {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/games/voldetour.css";
  const loaded = new Promise((ok) => link.addEventListener("load", ok));
  document.head.append(link);
  await loaded;
  const { createBoard } = await import("/static/games/voldetour.js");
  const host = document.createElement("div");
  host.id = "diagram-host";
  document.querySelector("main, body").prepend(host);
  const board = createBoard(host, {});
  const boxes = [];
  for (let r = 0; r < rotations; r++) {
    board.drawDiagram(view, diagram);
    const figures = [...host.querySelectorAll(".vd-iso .vd-solids .vd-lord-figure")];
    boxes.push(figures.map((f) => {
      const b = f.getBoundingClientRect();
      return [b.left, b.top, b.right, b.bottom];
    }));
    host.querySelector("[data-testid=vd-rotate-right]").click();
  }
  return boxes;
}"""


def _overlap(a: list[float], b: list[float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def test_lords_never_drawn_over_each_other_and_diagrams(live_server, new_page, screenshot):
    game = get("voldetour", pieces="mini")
    page = new_page()
    page.goto(f"{live_server.url}/")
    page.wait_for_selector("[data-testid=new-game-game]")
    # neighbours one behind the other, at the same level (c3, d4) and a level apart (c3, d2
    # on a block): each pair lines up on one of the diagonals, whatever the rotation
    for lords, extra in (("c3,d4", "-"), ("c3,d2", "B111@d2:1x1x1"), ("b3,c2", "-")):
        state = game.parse_position(f"{MINI} turn=7 lords={lords} black={extra} white=-")
        view = game.state_view(state)
        boxes = page.evaluate(_DIAGRAM, [view, {}, 4])
        for r, (a, b) in enumerate(boxes):
            assert _overlap(a, b) == 0, (lords, r, a, b)
        page.evaluate("document.getElementById('diagram-host').remove()")

    # a diagram: the Lord's way down, lit, with an arrow and a forbidden square crossed
    state = game.parse_position(f"{MINI} turn=1 lords=b2,e5 black=B112@b3:1x2x1,S@b3+1:s white=-")
    diagram = {"highlights": ["b3", "b4", "zz9"], "arrows": [["b2", "b4"]], "marks": ["c2"]}
    page.evaluate(_DIAGRAM, [game.state_view(state), diagram, 1])
    host = page.locator("#diagram-host")
    lit = {e.get_attribute("data-square") for e in host.locator(".diagram-highlight").all()}
    assert lit == {"b3", "b4"}  # an unknown label is left out
    arrow = host.locator(".diagram-arrow")
    expect(arrow).to_have_count(1)
    assert (arrow.get_attribute("data-from"), arrow.get_attribute("data-to")) == ("b2", "b4")
    expect(host.locator(".diagram-mark[data-cell='c2']")).to_have_count(1)
    # read-only: no tray, no target, nothing to focus, clicks do nothing
    expect(host.get_by_test_id("vd-take-B111")).to_have_count(0)
    assert host.locator(".target, [tabindex]").count() == 0
    host.locator('.vd-iso .vd-floor[data-square="d4"]').click(force=True)
    assert host.locator(".selected").count() == 0
    screenshot(page, "voldetour-diagram")


_TURN_LINES = """async ([moves, turnEnds, movers]) => {
  const { turnLines } = await import("/static/moves.js");
  const lines = turnLines(moves, turnEnds, (i) => (i in movers ? movers[i] : null));
  const shown = (it) => (it.folded ? `(${it.notation})` : it.notation);
  return lines.map((l) => [l.mover, l.items.map(shown)]);
}"""


def test_turn_lines_of_the_move_list(live_server, new_page):
    # moves.js's grouping, for every game: by the state view's turn ends, else by players
    page = new_page()
    page.goto(f"{live_server.url}/")
    page.wait_for_selector("[data-testid=new-game-game]")

    def lines(moves, ends, movers):
        return page.evaluate(_TURN_LINES, [moves, ends, {str(k): v for k, v in movers.items()}])

    turn = ["B111", "B111@c3:1x1x1", "S", "S@d4:n", "Lb2-b3", "Sc4", "S@e4:w", "END", "pass"]
    # only the position after the last decision is known: White (1) is to move, so the
    # "pass" was Black's, and the lines alternate back from it
    assert lines(turn, ["L", "end", "pass"], {9: 1}) == [
        [0, ["(B111)", "B111@c3:1x1x1", "(S)", "S@d4:n", "Lb2-b3"]],
        [1, ["Sc4", "S@e4:w", "END"]],  # a lifted stair is not the put's prefix: both shown
        [0, ["pass"]],
    ]
    # a turn still in progress is the last line, its player the one to move
    assert lines(turn[:3], ["L", "end", "pass"], {3: 0}) == [[0, ["(B111)", "B111@c3:1x1x1", "S"]]]
    # without turn ends: a line per player's run of decisions where the players are known
    assert lines(["e5", "d4", "c3", "b2"], None, {0: 0, 1: 0, 2: 1, 3: 0, 4: 1}) == [
        [0, ["e5", "d4"]],
        [1, ["c3"]],
        [0, ["b2"]],
    ]
    # and a line per decision where they are not
    assert lines(["e5", "d4"], None, {}) == [[None, ["e5"]], [None, ["d4"]]]
