"""Clocks in Chromium: a game with a clock from the lobby's form; two players in separate
browser contexts watch the running clock tick, warn when low, and run out; both see the
result "on time".  Screenshot: ``test-artifacts/screenshots/clocks-flag.png``.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from .web_helpers import open_seat


def clock_ms(page: Page, seat: int) -> int:
    return int(page.get_by_test_id(f"clock-{seat}").get_attribute("data-ms") or "-1")


def test_the_lobby_creates_a_game_with_a_clock(live_server, new_page):
    page = new_page()
    page.goto(f"{live_server.url}/")
    page.select_option("[data-testid=new-game-game]", "xobo")
    page.check("[data-testid=mode-online]")
    page.select_option("[data-testid=new-game-clock]", "live:180:2")
    page.click("[data-testid=create-game]")
    page.wait_for_url(re.compile(r".*/g/[^/#?]+"))
    expect(page.get_by_test_id("clocks")).to_be_visible()
    expect(page.get_by_test_id("clock-time-0")).to_have_text("3:00")
    expect(page.get_by_test_id("clock-time-1")).to_have_text("3:00")
    expect(page.get_by_test_id("clock-control")).to_have_text("3+2")
    # nothing runs before the first turn ends
    expect(page.locator("[data-testid^=clock-].running")).to_have_count(0)
    game_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    snap = live_server.api("GET", f"/api/games/{game_id}").json()
    assert snap["clock"]["control"] == {"kind": "live", "base": 180, "increment": 2}


def test_the_lobby_custom_clock_and_correspondence(live_server, new_page):
    page = new_page()
    page.goto(f"{live_server.url}/")
    page.select_option("[data-testid=new-game-game]", "xobo")
    page.check("[data-testid=mode-local]")
    page.select_option("[data-testid=new-game-clock]", "custom")
    page.fill("[data-testid=clock-minutes]", "2")
    page.fill("[data-testid=clock-increment]", "7")
    page.click("[data-testid=create-game]")
    page.wait_for_url(re.compile(r".*/g/[^/#?]+"))
    expect(page.get_by_test_id("clock-control")).to_have_text("2+7")
    expect(page.get_by_test_id("clock-time-0")).to_have_text("2:00")
    page.goto(f"{live_server.url}/")
    page.select_option("[data-testid=new-game-game]", "xobo")
    page.check("[data-testid=mode-local]")
    page.select_option("[data-testid=new-game-clock]", "corr:3")
    page.click("[data-testid=create-game]")
    page.wait_for_url(re.compile(r".*/g/[^/#?]+"))
    expect(page.get_by_test_id("clock-time-1")).to_have_text("3 d 0 h")


def test_two_players_see_the_clock_run_out(live_server, new_page, screenshot):
    created = live_server.api(
        "POST",
        "/api/games",
        json={
            "game": "xobo",
            "mode": "online",
            "names": ["Ann", "Bob"],
            "clock": {"kind": "live", "base": 6, "increment": 0},
        },
    ).json()
    game_id, tokens = created["id"], created["tokens"]
    ann = open_seat(new_page(), live_server, game_id, tokens["0"])
    bob = open_seat(new_page(), live_server, game_id, tokens["1"])
    for page in (ann, bob):
        expect(page.get_by_test_id("clock-time-0")).to_have_text("6.0")  # tenths under 10 s
        expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    move = live_server.api("GET", f"/api/games/{game_id}/legal").json()["moves"][0]["notation"]
    r = live_server.api(
        "POST", f"/api/games/{game_id}/moves", token=tokens["0"], json={"ply": 0, "move": move}
    )
    assert r.status_code == 200, r.text
    # Bob's clock runs, on both pages, and ticks down
    for page in (ann, bob):
        expect(page.get_by_test_id("clock-1")).to_have_class(re.compile(r"\brunning\b"))
    first = clock_ms(bob, 1)
    time.sleep(0.5)
    second = clock_ms(bob, 1)
    assert 0 < second < first <= 6000, (first, second)
    assert clock_ms(ann, 0) == 6000  # the other clock stands still
    # low time: under 10 s shown in tenths, and marked
    expect(bob.get_by_test_id("clock-time-1")).to_have_text(re.compile(r"^\d\.\d$"))
    expect(bob.get_by_test_id("clock-1")).to_have_class(re.compile(r"\blow\b"))
    expect(ann.get_by_test_id("clock-0")).not_to_have_class(re.compile(r"\blow\b"))
    # nobody moves: the server settles the flag, both pages show it
    for page in (ann, bob):
        banner = page.get_by_test_id("result-banner")
        expect(banner).to_be_visible(timeout=15_000)
        expect(page.get_by_test_id("result-reason")).to_contain_text("on time")
        expect(page.get_by_test_id("clock-time-1")).to_have_text("0.0")
        expect(page.locator("[data-testid^=clock-].running")).to_have_count(0)
    snap = live_server.api("GET", f"/api/games/{game_id}").json()
    assert snap["result"]["reason"] == "timeout" and snap["result"]["winner"] == 0
    screenshot(bob, "clocks-flag")
