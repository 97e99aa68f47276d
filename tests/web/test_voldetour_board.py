"""Voldétour's board in a real browser: a short same-screen game on the mini set, by clicks.

The game (docs/web-client.md, "Voldétour board"), mini set (6 x 6, towers b2 and e5, two
levels high):

- Black chooses the 1×1×2 block, lays it flat along the column (orientation 1x2x1) and
  clicks b3: the board sends the take ``B112`` and the put ``B112@b3:1x2x1`` (b3 and b4 at
  height 1) as one action, through one confirm step;
- Black's stair, turned to rise south, on b3 (on the block, level 1): ``S@b3+1:s``, a slope
  from b4 (height 1) up to the tower (height 2);
- Black clicks its Lord, then b4, the only square it can reach: ``Lb2-b4`` (down the slope)
  ends Black's turn;
- White types the take of the 1×1×1 block; the page is reloaded before its put: the block
  is still in hand, and White places it on d5 by clicks, then ends the turn with the button;
- Black types a move in the notation box (its stair from the reserve) and places it.

The 3D view is turned with its buttons and with the keyboard; screenshots of the mini and
the default sets, at two rotations, and of a phone in dark mode are saved.
"""

from __future__ import annotations

from playwright.sync_api import expect

from .web_helpers import create_game, create_in_lobby, move_texts, open_seat


def _create_local_game(page, base_url: str, pieces: str) -> None:
    """Create a same-screen Voldétour game from the lobby and wait for its board."""
    create_in_lobby(page, base_url, "voldetour", {"pieces": pieces}, ".vd-map [data-cell]")


def _played(page, notation: str | list[str], count: int, *, confirm: bool = True) -> None:
    """Pass the confirm step for ``notation`` (one decision or several in a row) and wait
    until the last of them is move ``count``."""
    played = [notation] if isinstance(notation, str) else list(notation)
    if confirm:
        expect(page.get_by_test_id("pending-move")).to_have_text(", then ".join(played))
        page.get_by_test_id("confirm-move").click()
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=move-item]').length >= n", arg=count
    )
    assert move_texts(page)[count - len(played) : count] == played


def _targets(page) -> set[str]:
    return {e.get_attribute("data-cell") for e in page.locator(".vd-map .vd-sq.target").all()}


def _click(page, cell: str) -> None:
    page.click(f'.vd-map [data-cell="{cell}"]')


def _column(page, cell: str) -> str:
    return page.get_attribute(f'.vd-map [data-cell="{cell}"]', "aria-label") or ""


def test_voldetour_mini_game_by_clicks(live_server, new_page, screenshot):
    page = new_page()
    _create_local_game(page, live_server.url, "mini")
    assert page.locator(".vd-map .vd-sq").count() == 36
    assert "tower" in _column(page, "b2") and "Lord" in _column(page, "b2")
    # nothing is highlighted before a piece or the Lord is chosen
    assert _targets(page) == set()

    # Black: the 1x1x2 block, laid along the column, on b3
    page.click("[data-testid=vd-take-B112]")
    assert page.locator("[data-testid=vd-take-B112].selected").count() == 1
    page.click("[data-testid=vd-orient-1x2x1]")
    targets = _targets(page)
    assert "b3" in targets and "b2" not in targets and "a6" not in targets  # a6+a7: off board
    page.hover('.vd-map [data-cell="b3"]')
    expect(page.get_by_test_id("vd-ghost")).to_have_count(2)  # two unit cells previewed in 3D
    _click(page, "b3")
    _played(page, ["B112", "B112@b3:1x2x1"], 2)  # the take and its put, confirmed once
    assert "height 1" in _column(page, "b3") and "height 1" in _column(page, "b4")
    assert page.locator('.vd-map .vd-sq.last[data-cell="b4"]').count() == 1

    # Black: a stair rising south, on the block at b3
    page.click("[data-testid=vd-take-S]")
    page.click("[data-testid=vd-orient-n]")
    page.keyboard.press("o")  # next orientation: e
    assert page.locator("[data-testid=vd-orient-e].selected").count() == 1
    page.click("[data-testid=vd-orient-s]")
    assert "b3" in _targets(page)
    _click(page, "b3")
    _played(page, ["S", "S@b3+1:s"], 4)
    assert "slope from level 1, rises south" in _column(page, "b3")
    assert page.locator(".vd-iso [data-piece='b:S@b3+1:s']").count() == 1

    # Black's Lord: down the slope to b4, which ends the turn
    _click(page, "b2")
    assert page.locator('.vd-map .vd-sq.selected[data-cell="b2"]').count() == 1
    assert _targets(page) == {"b4"}
    _click(page, "b4")
    _played(page, "Lb2-b4", 5)
    assert "Black's Lord" in _column(page, "b4")
    expect(page.get_by_test_id("vd-turn")).to_contain_text("Turn 2: White")
    assert page.locator(".vd-map polyline.vd-path").count() == 1  # the last Lord path

    # White types the take of the 1x1x1 block; reload with the block in hand
    page.fill("[data-testid=move-input]", "B111")
    page.click("[data-testid=move-submit]")
    _played(page, "B111", 6)
    page.reload()
    page.wait_for_selector(".vd-map [data-cell]")
    expect(page.get_by_test_id("vd-hand")).to_be_visible()
    assert len(move_texts(page)) == 6
    assert "d5" in _targets(page)  # the block in hand: its squares are highlighted at once
    _click(page, "d5")
    _played(page, "B111@d5:1x1x1", 7)
    assert "height 1" in _column(page, "d5")
    page.click("[data-testid=vd-end]")
    _played(page, "end", 8)
    expect(page.get_by_test_id("vd-turn")).to_contain_text("Turn 3: Black")

    # a move typed in notation, then its put by clicks
    page.fill("[data-testid=move-input]", "S")
    page.click("[data-testid=move-submit]")
    _played(page, "S", 9)
    page.click("[data-testid=vd-orient-e]")
    _click(page, "c4")
    _played(page, "S@c4:e", 10)

    # turn the 3D view: buttons and keys
    assert page.get_attribute("[data-testid=vd-iso]", "data-rotation") == "0"
    screenshot(page, "voldetour-mini")
    page.click("[data-testid=vd-rotate-right]")
    assert page.get_attribute("[data-testid=vd-iso]", "data-rotation") == "1"
    screenshot(page, "voldetour-mini-rotated")
    page.locator("body").press("[")
    assert page.get_attribute("[data-testid=vd-iso]", "data-rotation") == "0"
    page.locator("body").press("]")
    page.locator("body").press("]")
    assert page.get_attribute("[data-testid=vd-iso]", "data-rotation") == "2"
    # the rotation is remembered across a reload
    page.reload()
    page.wait_for_selector(".vd-map [data-cell]")
    assert page.get_attribute("[data-testid=vd-iso]", "data-rotation") == "2"
    page.click("[data-testid=vd-rotate-left]")
    page.click("[data-testid=vd-rotate-left]")


def test_voldetour_default_set_and_phone(live_server, new_page, screenshot):
    page = new_page()
    _create_local_game(page, live_server.url, "default")
    assert page.locator(".vd-map .vd-sq").count() == 100
    page.uncheck("[data-testid=toggle-confirm]")
    # a tall block standing next to Black's tower, then a stair beside it
    page.click("[data-testid=vd-take-B123]")
    page.click("[data-testid=vd-orient-1x2x3]")
    _click(page, "c2")
    _played(page, ["B123", "B123@c2:1x2x3"], 2, confirm=False)
    page.click("[data-testid=vd-take-S]")
    page.click("[data-testid=vd-orient-w]")
    _click(page, "d2")
    _played(page, ["S", "S@d2:w"], 4, confirm=False)
    _click(page, "b2")
    _click(page, "c2")
    _played(page, "Lb2-c2", 5, confirm=False)
    page.click("[data-testid=vd-take-B113]")
    page.click("[data-testid=vd-orient-3x1x1]")
    # by the keyboard: the target squares are focusable, focus previews, Enter plays
    page.focus('.vd-map [data-cell="f8"].target')
    expect(page.get_by_test_id("vd-ghost")).to_have_count(3)
    page.keyboard.press("Enter")
    _played(page, ["B113", "B113@f8:3x1x1"], 7, confirm=False)
    screenshot(page, "voldetour-default")
    page.click("[data-testid=vd-rotate-right]")
    screenshot(page, "voldetour-default-rotated")
    page.click("[data-testid=vd-rotate-left]")

    # a game on a phone, in dark mode: the seat's link, a piece chosen, then no coordinates
    created = create_game(live_server, "voldetour", options={"pieces": "default"})
    phone = new_page(viewport={"width": 375, "height": 812}, color_scheme="dark")
    open_seat(phone, live_server, created["id"], created["tokens"]["both"])
    phone.wait_for_selector(".vd-map [data-cell]")
    phone.click("[data-testid=vd-take-B122]")
    phone.click("[data-testid=vd-orient-2x1x2]")
    phone.click('.vd-map [data-cell="c3"].target')
    expect(phone.get_by_test_id("pending-move")).to_have_text("B122, then B122@c3:2x1x2")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    for testid in ("vd-iso", "vd-map", "vd-tray"):
        box = phone.get_by_test_id(testid).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    assert phone.locator(".vd-map .vd-coord").count() > 0
    phone.evaluate("window.scrollTo(0, 0)")
    screenshot(phone, "voldetour-default-phone-dark", full_page=True)
    phone.get_by_test_id("cancel-move").click()
    phone.uncheck("[data-testid=toggle-coordinates]")
    phone.wait_for_function("document.querySelectorAll('.vd-board .vd-coord').length === 0")
