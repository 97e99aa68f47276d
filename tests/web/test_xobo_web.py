"""XoBo in a real browser: a short same-screen game by clicks with a reload in the middle,
stacking and distributing by clicks under voyna, typed notation and its errors.

The short game: North-South builds the column e1-e8 while East-West places scattered cubes
that never touch each other (a2, a4, a6, a8, c2, c4, c6, c8); e8 announces voyna
(d9/e9/f9 would win) and North-South wins with e9.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .web_helpers import (
    click_cell,
    create_game,
    expect_ply,
    height,
    move_texts,
    open_seat,
    set_confirm,
)

NS = ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]
EW = ["a2", "a4", "a6", "a8", "c2", "c4", "c6"]


def interleave(ns: list[str], ew: list[str]) -> list[str]:
    out = []
    for i, cell in enumerate(ns):
        out.append(cell)
        if i < len(ew):
            out.append(ew[i])
    return out


def test_xobo_short_game_by_clicks_with_reload(live_server, new_page, screenshot):
    page = new_page()
    # created from the lobby: XoBo, same screen
    page.goto(f"{live_server.url}/")
    page.select_option("[data-testid=new-game-game]", "xobo")
    expect(page.get_by_test_id("option-stack")).to_have_value("any")
    page.check("[data-testid=mode-local]")
    page.click("[data-testid=create-game]")
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]+$"))
    expect(page.locator("[data-cell='e5'].target")).to_have_count(1)
    # every empty cell is a target at the start, 81 of them, each with data-cell
    expect(page.locator(".xobo-board [data-cell]")).to_have_count(81)
    expect(page.locator(".xobo-board .target")).to_have_count(81)
    expect(page.get_by_test_id("common-reserve")).to_have_text("36")

    set_confirm(page, False)
    sequence = interleave(NS, EW)  # 15 moves, ends with North-South's e8
    first, rest = sequence[:6], sequence[6:]
    ply = 0
    for cell in first:
        click_cell(page, cell)
        ply += 1
        expect_ply(page, ply)
    assert move_texts(page) == first

    # reload in the middle: the game, the settings and the seat survive
    page.reload()
    expect_ply(page, 6)
    expect(page.get_by_test_id("toggle-confirm")).not_to_be_checked()
    assert height(page, "e3") == 1 and height(page, "a6") == 1
    expect(page.get_by_test_id("common-reserve")).to_have_text("30")
    for cell in rest:
        click_cell(page, cell)
        ply += 1
        expect_ply(page, ply)
    # North-South's e8 threatens d9, e9 and f9: voyna, shown on the board and in the panel
    assert move_texts(page)[-1] == "e8 (v)"
    expect(page.get_by_test_id("voyna-badge")).to_contain_text("VOYNA! North-South threatens")
    expect(page.get_by_test_id("board-voyna")).to_be_visible()
    expect(page.locator(".xobo-board .threat")).to_have_count(3)
    # the last move is highlighted
    expect(page.locator("[data-cell='e8'].last")).to_have_count(1)
    screenshot(page, "xobo-voyna")

    # East-West ignores the threat; North-South completes the column
    click_cell(page, "c8")
    expect_ply(page, 16)
    click_cell(page, "e9")
    expect_ply(page, 17)
    banner = page.get_by_test_id("result-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("1-0")
    expect(banner).to_contain_text("North-South wins")
    expect(banner).to_contain_text("connected their edges")
    expect(page.locator(".xobo-board .chain")).to_have_count(9)
    expect(page.locator(".xobo-board .target")).to_have_count(0)
    screenshot(page, "xobo-connection")


def test_xobo_stack_and_distribute_by_clicks(live_server, new_page, screenshot):
    made = create_game(live_server, "xobo", mode="local")
    page = new_page()
    open_seat(page, live_server, made["id"], made["tokens"]["both"])
    set_confirm(page, False)
    sequence = interleave(NS, EW)
    for ply, cell in enumerate(sequence, start=1):
        click_cell(page, cell)
        expect_ply(page, ply)

    # under voyna, East-West stacks the run e1-e3 onto e3: click e1, then the end e3
    page.locator("[data-cell='e1'].selectable").click()
    expect(page.locator("[data-cell='e1'].selected")).to_have_count(1)
    ends = {e.get_attribute("data-cell") for e in page.locator(".xobo-board .target").all()}
    assert "e3" in ends and "e4" in ends and "e2" not in ends and "a2" not in ends
    screenshot(page, "xobo-stack-selection")
    click_cell(page, "e3")
    expect_ply(page, 16)
    assert move_texts(page)[-1] == "e1->e3"
    assert height(page, "e3") == 3 and height(page, "e1") == 0 and height(page, "e2") == 0
    expect(page.locator("[data-cell='e3'] .height")).to_have_text("3")

    # North-South distributes the stack of e3 northwards (the only direction that captures)
    page.locator("[data-cell='e3'].selectable").click()
    targets = {e.get_attribute("data-cell") for e in page.locator(".xobo-board .target").all()}
    assert targets == {"e4"}
    expect(page.locator(".xobo-board .arrow")).to_have_count(1)
    click_cell(page, "e4")
    expect_ply(page, 17)
    assert move_texts(page)[-1] == "e3xe4"
    # e4, e5 and e6 held one cube each: captured, six cubes to North-South's reserve
    expect(page.get_by_test_id("reserve-0")).to_have_text("6")
    for cell in ("e3", "e4", "e5", "e6"):
        assert height(page, cell) == 0
    screenshot(page, "xobo-after-distribution")


def test_xobo_typed_moves_and_errors(live_server, new_page):
    made = create_game(live_server, "xobo", mode="local")
    page = new_page()
    open_seat(page, live_server, made["id"], made["tokens"]["both"])
    box = page.get_by_test_id("move-input")
    # the confirm step is on by default and also covers typed moves
    box.fill("e5")
    box.press("Enter")
    expect(page.get_by_test_id("pending-move")).to_have_text("e5")
    page.get_by_test_id("confirm-move").click()
    expect_ply(page, 1)
    expect(box).to_have_value("")
    # an occupied cell, a cell off the board, a stack without voyna: refused at once,
    # before the confirm step, with the reason inline and the text kept in the box
    error = page.get_by_test_id("move-error")
    for text in ("e5", "j5", "a1->c1"):
        box.fill(text)
        box.press("Enter")
        expect(error).to_contain_text(f"{text} is not a legal move in this position")
        expect(page.get_by_test_id("confirm-bar")).to_be_hidden()
        expect(box).to_have_value(text)
        expect(box).to_have_attribute("aria-invalid", "true")
    expect_ply(page, 1)
    # the legal moves that begin like the entry are suggested
    box.fill("d")
    box.press("Enter")
    expect(error).to_contain_text("Legal moves like it: d1, d2")
    # another spelling the engine reads (capitals, spaces) is played in the legal move's
    # own notation
    box.fill(" D 6 ")
    box.press("Enter")
    expect(page.get_by_test_id("pending-move")).to_have_text("d6")
    expect(error).to_be_empty()
    page.get_by_test_id("cancel-move").click()
    box.fill("")
    # the board works from the keyboard too: a highlighted cell takes the focus and Enter
    page.locator("[data-cell='d4'].target").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("pending-move")).to_have_text("d4")
    page.keyboard.press("Enter")  # the focus is on "Play it"
    expect_ply(page, 2)
