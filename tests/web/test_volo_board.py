"""Volo's board in a real browser: a short same-screen game on the mini board, by clicks.

The game (docs/web-client.md, "Volo board"): Orange adds a3, Blue a2 (next to Orange's
b2 and a3), Orange d3, Blue h8; Orange flies d3-b3, which shuts Blue's a2 in, so Orange
chooses the region to keep (the rest of Blue's birds: a2 is removed); the page is
reloaded; Blue e9, Orange d4, Blue h10 typed in the move box, and Orange flies the line
a3-b3 two cells along its row (a3:b3-c3) by clicking a3, b3, then d3.
"""

from __future__ import annotations

from .web_helpers import create_in_lobby


def _create_local_game(page, base_url: str, board: str) -> None:
    """Create a same-screen Volo game from the lobby and wait for its board."""
    create_in_lobby(page, base_url, "volo", {"board": board}, ".volo-sky [data-cell]")


def _moves(page) -> list[str]:
    return [t.strip() for t in page.locator("[data-testid=move-item]").all_inner_texts()]


def _confirm(page, notation: str, count: int) -> None:
    """Pass the shell's confirm step (when on) and wait for the move to be played."""
    page.wait_for_function(
        """n => {
            const bar = document.querySelector('[data-testid=confirm-bar]');
            return (bar && !bar.hidden)
                || document.querySelectorAll('[data-testid=move-item]').length >= n;
        }""",
        arg=count,
    )
    if page.locator("[data-testid=confirm-bar]").is_visible():
        assert page.inner_text("[data-testid=pending-move]").strip() == notation
        page.click("[data-testid=confirm-move]")
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=move-item]').length >= n", arg=count
    )
    assert notation in _moves(page)[count - 1]


def _click(page, *cells: str) -> None:
    for cell in cells:
        page.click(f'.volo-sky [data-cell="{cell}"]')


def _ready(page, cell: str, kind: str) -> None:
    """Wait until the board offers ``cell`` as a ``target`` or ``movable`` (legal moves in)."""
    page.wait_for_selector(f'.volo-sky .cell.{kind}[data-cell="{cell}"]')


def _add(page, cell: str, count: int) -> None:
    """Add a bird on ``cell`` by a click; it becomes move number ``count``."""
    _ready(page, cell, "target")
    _click(page, cell)
    _confirm(page, cell, count)


def _targets(page) -> set[str]:
    return {e.get_attribute("data-cell") for e in page.locator(".volo-sky .cell.target").all()}


def _bird(page, cell: str) -> str | None:
    return page.get_attribute(f'.volo-sky [data-cell="{cell}"]', "data-bird")


def test_volo_mini_game_by_clicks(live_server, new_page, screenshot):
    page = new_page()
    _create_local_game(page, live_server.url, "mini")
    # at the start every cell where Orange may add a bird is a target; no bird can fly
    assert "a3" in _targets(page) and "b2" not in _targets(page)
    assert page.locator(".volo-sky .hole").count() == 7
    assert page.locator(".volo-sky .cell").count() == 84

    for count, cell in enumerate(("a3", "a2", "d3", "h8"), start=1):
        _add(page, cell, count)
        assert page.locator(f'.volo-sky .cell.last-to[data-cell="{cell}"]').count() == 1
    assert _bird(page, "a2") == "blue" and _bird(page, "d3") == "orange"

    # a flight: select d3, see its destinations, pick b3; it divides Blue: choose the region
    _ready(page, "d3", "movable")
    _click(page, "d3")
    assert page.locator('.volo-sky .cell.selected[data-cell="d3"]').count() == 1
    assert _targets(page) == {"b1", "c2", "b3", "c3"}
    _click(page, "b3")
    choice = page.locator("[data-testid^=choice-]", has_text="f2 b6 h8 j10")
    choice.wait_for()
    # the choice that leaves Blue one flock (keeping a2 alone) is offered last
    assert "wins" not in page.inner_text("[data-testid=choice-0]")
    assert "wins" in page.inner_text("[data-testid=choice-1]")
    # the board numbers the two regions while the dialog asks
    assert page.locator(".volo-sky .cell.region").count() == 5
    screenshot(page, "volo-mini-region-choice")
    choice.click()
    _confirm(page, "d3-b3/f2", 5)
    assert _bird(page, "a2") is None and _bird(page, "b3") == "orange"
    assert "supply 46" in page.inner_text("[data-testid=volo-supply-1]")

    # reload in the middle: the position and the last move come back
    page.reload()
    page.wait_for_selector('.volo-sky .cell.last-to[data-cell="b3"]')
    assert page.locator('.volo-sky .cell.last-from[data-cell="d3"]').count() == 1
    assert page.locator('.volo-sky .cell.last-removed[data-cell="a2"]').count() == 1
    assert _bird(page, "a2") is None and _bird(page, "b3") == "orange"
    assert len(_moves(page)) == 5

    for count, cell in ((6, "e9"), (7, "d4")):
        _add(page, cell, count)
    # a move typed in notation
    _ready(page, "h10", "target")
    page.fill("[data-testid=move-input]", "h10")
    page.click("[data-testid=move-submit]")
    _confirm(page, "h10", 8)

    # a line flies: a3 then b3 selects the line; d3 is where its leading bird (b3) lands
    _ready(page, "a3", "movable")
    _click(page, "a3")
    assert _targets(page) == set()  # a3 alone cannot fly
    _click(page, "b3")
    assert page.locator(".volo-sky .cell.selected").count() == 2
    assert _targets(page) == {"c3", "d3"}
    _click(page, "d3")
    _confirm(page, "a3:b3-c3", 9)
    assert _bird(page, "a3") is None and _bird(page, "c3") == "orange"
    assert _bird(page, "d3") == "orange"
    lit = {e.get_attribute("data-cell") for e in page.locator(".volo-sky .cell.last-to").all()}
    assert lit == {"c3", "d3"}
    screenshot(page, "volo-mini")


def test_volo_standard_board_on_a_phone(live_server, new_page, screenshot):
    page = new_page(viewport={"width": 375, "height": 812}, color_scheme="dark")
    _create_local_game(page, live_server.url, "standard")
    assert page.locator(".volo-sky .cell").count() == 120
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    box = page.locator("svg.volo-sky").bounding_box()
    assert box is not None and box["width"] <= 375
    _add(page, "g5", 1)
    assert page.locator('.volo-sky .cell.last-to[data-cell="g5"]').count() == 1
    assert page.locator(".volo-sky .coord").count() > 0
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "volo-standard-phone-dark")
    # coordinates can be hidden
    page.uncheck("[data-testid=toggle-coordinates]")
    page.wait_for_function("document.querySelectorAll('.volo-sky .coord').length === 0")
    page.check("[data-testid=toggle-coordinates]")

    # the board can be turned round: b2 (Orange's nest near row 1) goes to the top
    def y(cell: str) -> float:
        return page.locator(f'.volo-sky [data-cell="{cell}"]').bounding_box()["y"]

    assert y("b2") > y("g12")
    page.check("[data-testid=toggle-flip]")
    page.wait_for_function(
        """() => {
            const at = (c) => document.querySelector(`.volo-sky [data-cell="${c}"]`)
                .getBoundingClientRect().y;
            return at("b2") < at("g12");
        }"""
    )
    page.uncheck("[data-testid=toggle-flip]")
    page.set_viewport_size({"width": 1200, "height": 900})
    page.emulate_media(color_scheme="light")
    screenshot(page, "volo-standard")
