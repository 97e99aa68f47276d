"""Challenges in a real browser: one player posts an open challenge from the lobby, another
accepts it with one click, both land in the game and move; the lobby lists the games where
it is your turn first."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .web_helpers import click_cell, expect_ply, set_confirm

GAME_URL = re.compile(r".*/g/([A-Za-z0-9_-]+)$")


def test_open_challenge_accepted_with_one_click(live_server, new_page, screenshot):
    ann, bob = new_page(), new_page()
    ann.goto(f"{live_server.url}/")
    ann.select_option("[data-testid=challenge-game]", "xobo")
    ann.select_option("[data-testid=challenge-clock]", "none")
    ann.select_option("[data-testid=challenge-colour]", "0")
    ann.click("[data-testid=post-challenge]")
    mine = ann.locator("[data-testid=challenge][data-mine='1']")
    expect(mine).to_have_count(1)
    expect(mine.get_by_test_id("cancel-challenge")).to_be_visible()
    challenge_id = mine.get_attribute("data-id")

    bob.goto(f"{live_server.url}/")
    theirs = bob.locator(f"[data-testid=challenge][data-id='{challenge_id}']")
    expect(theirs).to_contain_text("casual")
    expect(theirs.get_by_test_id("cancel-challenge")).to_have_count(0)
    screenshot(bob, "challenge-lobby")
    theirs.get_by_test_id("accept-challenge").click()
    bob.wait_for_url(GAME_URL)
    game_id = GAME_URL.match(bob.url).group(1)
    # The poster's lobby learns of it by its poll and opens the same game, seat 0.
    ann.wait_for_url(GAME_URL, timeout=10_000)
    assert GAME_URL.match(ann.url).group(1) == game_id

    for page in (ann, bob):
        set_confirm(page, False)
    click_cell(ann, "e5")
    expect_ply(ann, 1)
    expect_ply(bob, 1)
    click_cell(bob, "a1")
    expect_ply(bob, 2)
    expect_ply(ann, 2)

    # Another game of Ann's, newer but not her turn (she is seat 1, seat 0 moves first)...
    ann.goto(f"{live_server.url}/")
    ann.select_option("[data-testid=new-game-game]", "xobo")
    ann.select_option("[data-testid=new-game-seat]", "1")
    ann.click("[data-testid=create-game]")
    ann.wait_for_url(GAME_URL)
    other_id = GAME_URL.match(ann.url).group(1)
    assert other_id != game_id
    # ...comes after the challenge's game, where it is her move.
    ann.goto(f"{live_server.url}/")
    first = ann.locator("[data-testid=my-games] li").first
    expect(first.get_by_test_id("your-turn")).to_be_visible()
    expect(first.get_by_test_id("my-game-link")).to_have_attribute("href", f"/g/{game_id}")
    later = ann.locator(f"[data-testid=my-games] li:has(a[href='/g/{other_id}'])")
    expect(later).to_have_attribute("data-your-turn", "0")
    screenshot(ann, "challenge-your-turn-first")


def test_cancel_own_challenge(live_server, new_page):
    ann = new_page()
    ann.goto(f"{live_server.url}/")
    ann.select_option("[data-testid=challenge-game]", "xobo")
    ann.click("[data-testid=post-challenge]")
    mine = ann.locator("[data-testid=challenge][data-mine='1']")
    expect(mine).to_have_count(1)
    challenge_id = mine.get_attribute("data-id")
    mine.get_by_test_id("cancel-challenge").click()
    expect(ann.locator(f"[data-testid=challenge][data-id='{challenge_id}']")).to_have_count(0)
    answer = live_server.api("GET", f"/api/challenges/{challenge_id}").json()
    assert answer["status"] == "cancelled"
