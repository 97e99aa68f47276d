"""Helpers for the browser tests: creating games through the API and driving the game page."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def create_game(
    live_server,
    game: str = "xobo",
    *,
    mode: str = "local",
    seat: int = 0,
    options: dict | None = None,
    ai_level: str = "easy",
    names: list[str] | None = None,
) -> dict:
    """Create a game through ``POST /api/games``; returns the server's answer."""
    body = {
        "game": game,
        "options": options or {},
        "mode": mode,
        "seat": seat,
        "names": names or ["", ""],
    }
    if mode == "ai":
        body["ai_level"] = ai_level
    response = live_server.api("POST", "/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def create_in_lobby(
    page: Page, base_url: str, game: str, options: dict[str, str], ready: str
) -> None:
    """Create a same-screen game from the lobby's form and wait for ``ready`` (a selector)."""
    page.goto(f"{base_url}/")
    page.select_option("[data-testid=new-game-game]", game)
    for name, value in options.items():
        page.select_option(f"[data-testid=option-{name}]", value)
    page.check("[data-testid=mode-local]")
    page.click("[data-testid=create-game]")
    page.wait_for_url(re.compile(r".*/g/[^/#?]+"))
    page.wait_for_selector(ready)


def open_seat(page: Page, live_server, game_id: str, token: str | None) -> Page:
    """Open the game page with a seat link (``#seat=<token>``) or as a spectator."""
    url = f"{live_server.url}/g/{game_id}" + (f"#seat={token}" if token else "")
    page.goto(url)
    expect(page.get_by_test_id("board").locator("svg").first).to_be_visible()
    return page


def set_confirm(page: Page, on: bool) -> None:
    """Switch the confirm step on or off in the page's settings."""
    box = page.get_by_test_id("toggle-confirm")
    if box.is_checked() != on:
        box.click()


def expect_ply(page: Page, ply: int) -> None:
    """Wait until the move list holds ``ply`` moves."""
    expect(page.get_by_test_id("move-item")).to_have_count(ply)


def click_cell(page: Page, cell: str, *, confirm: bool = False) -> None:
    """Click a highlighted cell (``.target``), then the confirm button when asked."""
    page.locator(f"[data-cell='{cell}'].target").click()
    if confirm:
        page.get_by_test_id("confirm-move").click()


def play_clicks(page: Page, cells: list[str], start_ply: int) -> int:
    """Place cubes on ``cells`` by clicks (confirm step off), one ply each; the new ply."""
    ply = start_ply
    for cell in cells:
        click_cell(page, cell)
        ply += 1
        expect_ply(page, ply)
    return ply


def move_texts(page: Page) -> list[str]:
    """The notations of the move list."""
    items = page.locator("[data-testid=move-item] .notation")
    return [t.strip() for t in items.all_text_contents()]


def height(page: Page, cell: str) -> int:
    """The cube count drawn on ``cell``."""
    return int(page.locator(f"[data-cell='{cell}']").get_attribute("data-height"))


def no_seat_in_url(page: Page) -> bool:
    """True when the address bar no longer shows the seat token."""
    return re.search(r"seat=", page.url) is None
