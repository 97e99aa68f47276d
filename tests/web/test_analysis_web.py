"""Analysis in a real browser: from a finished XoBo game, the analysis board opened at the
position before a blunder (evaluation bar, best moves, principal line), a side line added by
a click on the board and left again; the computer review on the game page marks the blunder
with the better move; a search's streamed progress shown while it runs, its stream aborted
when another search is asked."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from .web_helpers import create_game, expect_ply, open_seat

# The first player could win with e2 after these twelve decisions, plays the voyna h6
# instead, and the second player wins with a7 (as in tests/server/test_analysis.py).
GAME = ["i7", "d5", "c7", "c6", "f6", "f1", "b8", "g7", "f4", "c9", "f3", "e5", "h6 (v)", "a7"]


def _finished_game(live_server) -> dict:
    created = create_game(live_server, "xobo", mode="local")
    token = created["tokens"]["both"]
    for ply, move in enumerate(GAME):
        r = live_server.api(
            "POST",
            f"/api/games/{created['id']}/moves",
            token=token,
            json={"ply": ply, "move": move},
        )
        assert r.status_code == 200, r.text
    return created


def test_analysis_board_from_a_finished_game(live_server, new_page, screenshot):
    created = _finished_game(live_server)
    page = open_seat(new_page(), live_server, created["id"], created["tokens"]["both"])
    expect_ply(page, len(GAME))
    page.get_by_test_id("nav-prev").click()
    page.get_by_test_id("nav-prev").click()  # the position before h6 (v)
    page.get_by_test_id("analyse-link").click()
    page.wait_for_url(re.compile(r".*/analysis/xobo[^?]*\?.*ply=12"))
    expect(page.get_by_test_id("analysis-page")).to_be_visible()
    # the search finds the win in one: the bar is full for the first player
    first = page.get_by_test_id("top-move").first
    expect(first).to_contain_text("e2", timeout=20_000)
    expect(page.get_by_test_id("eval-bar")).to_have_attribute("data-eval", "1")
    expect(page.get_by_test_id("principal-line")).to_contain_text("e2")
    expect(page.get_by_test_id("analysis-simulations")).to_contain_text(re.compile(r"\d"))
    current = page.locator("[data-testid=tree-move][aria-current=step]")
    expect(current).to_have_text("e5")
    expect(page.get_by_test_id("tree-move")).to_have_count(len(GAME))
    screenshot(page, "analysis-board")
    # a side line: e2 played on the board instead of h6 (v)
    page.locator("[data-cell='e2'].target").click()
    expect(page.get_by_test_id("side-line")).to_have_count(1)
    expect(current).to_have_text("e2")
    expect(page.get_by_test_id("eval-text")).to_contain_text(re.compile(r"over|終|terminée"))
    page.get_by_test_id("tree-back").click()
    expect(current).to_have_text("e5")
    page.get_by_test_id("tree-forward").click()
    expect(current).to_have_text("h6 (v)")  # forward follows the main line
    page.keyboard.press("ArrowLeft")
    expect(current).to_have_text("e5")
    screenshot(page, "analysis-side-line")


def test_computer_review_on_the_game_page(live_server, new_page, screenshot):
    created = _finished_game(live_server)
    page = open_seat(new_page(), live_server, created["id"], created["tokens"]["both"])
    expect_ply(page, len(GAME))
    page.get_by_test_id("review-start").click()
    expect(page.get_by_test_id("eval-graph")).to_be_visible(timeout=60_000)
    blunder = page.locator("[data-testid=review-mark][data-mark='??']").filter(has_text="h6 (v)??")
    expect(blunder).to_have_count(1)
    expect(blunder).to_contain_text("e2")
    blunder.get_by_role("button").click()
    expect(page.get_by_test_id("ply-label")).to_contain_text("13")
    screenshot(page, "computer-review")


def test_hints_against_the_computer(live_server, new_page):
    created = create_game(live_server, "xobo", mode="ai", seat=0)
    page = open_seat(new_page(), live_server, created["id"], created["tokens"]["0"])
    button = page.get_by_test_id("hint-button")
    expect(button).to_be_enabled()
    expect(page.get_by_test_id("analyse-link")).to_be_hidden()  # no free hints while playing
    button.click()
    expect(page.get_by_test_id("hint-answer")).to_contain_text(re.compile(r"[a-i][1-9]"))
    expect(page.get_by_test_id("hint-count")).to_contain_text("1")
    online = create_game(live_server, "xobo", mode="online")
    page = open_seat(page, live_server, online["id"], online["tokens"]["0"])
    expect(page.get_by_test_id("hint-button")).to_be_hidden()


def test_review_page_of_a_record_has_the_computer_review_and_analyse(live_server, new_page):
    created = _finished_game(live_server)
    text = live_server.api("GET", f"/api/games/{created['id']}/record").text
    page = new_page()
    page.goto(f"{live_server.url}/")
    page.fill("[data-testid=record-text]", text)
    page.get_by_test_id("open-record").click()
    page.wait_for_url("**/review")
    page.get_by_test_id("review-start").click()
    blunder = page.locator("[data-testid=review-mark][data-mark='??']").filter(has_text="h6 (v)??")
    expect(blunder).to_contain_text("e2", timeout=60_000)  # the cached review of the game
    page.get_by_test_id("nav-first").click()
    page.get_by_test_id("analyse-link").click()
    page.wait_for_url(re.compile(r".*/analysis/xobo.*ply=0"))
    expect(page.get_by_test_id("tree-move")).to_have_count(len(GAME))
    expect(page.locator("[data-testid=tree-move][aria-current=step]")).to_have_count(0)
    expect(page.get_by_test_id("top-move").first).to_be_visible(timeout=20_000)


@pytest.mark.parametrize("spec", ["volo:board=mini", "voldetour"])
def test_analysis_board_of_every_game(live_server, new_page, screenshot, spec):
    page = new_page()
    page.goto(f"{live_server.url}/analysis/{quote(spec, safe='')}")
    expect(page.get_by_test_id("board")).to_be_visible()
    first = page.get_by_test_id("top-move").first
    expect(first).to_be_visible(timeout=20_000)
    move = first.get_by_role("button").inner_text()
    first.get_by_role("button").click()  # a best move played from the list adds it
    expect(page.get_by_test_id("tree-move")).to_have_count(1)
    expect(page.get_by_test_id("tree-move")).to_have_text(move)
    expect(page.get_by_test_id("eval-bar")).to_have_attribute("data-eval", re.compile(r"^[01]"))
    screenshot(page, f"analysis-{spec.split(':')[0]}")
    page.get_by_test_id("tree-back").click()
    expect(page.locator("[data-testid=tree-move][aria-current=step]")).to_have_count(0)


def test_the_analysis_streams_its_progress_and_a_new_one_aborts_it(live_server, new_page):
    """The progress of a search shows while it runs (the answer is streamed, not held back
    until the end); asking another search closes the first one's stream (the server stops
    its search when the connection closes)."""
    page = new_page()
    aborted = []
    page.on(
        "requestfailed",
        lambda r: aborted.append(r.failure) if r.url.endswith("/api/analysis") else None,
    )
    page.goto(f"{live_server.url}/analysis/volo")
    expect(page.get_by_test_id("board")).to_be_visible()
    page.get_by_test_id("analysis-seconds").select_option("10")
    simulations = page.get_by_test_id("analysis-simulations")
    expect(simulations).to_contain_text(re.compile(r"[1-9]"), timeout=20_000)
    expect(page.get_by_test_id("top-move")).to_have_count(0)  # 10 seconds: still running
    expect(page.get_by_test_id("eval-text")).to_contain_text(re.compile(r"\w"))
    before = len(aborted)
    page.get_by_test_id("analysis-seconds").select_option("1")
    expect(page.get_by_test_id("top-move").first).to_be_visible(timeout=20_000)
    assert len(aborted) > before, aborted  # the 10-second search's stream was closed
