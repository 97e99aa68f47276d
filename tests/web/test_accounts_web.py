"""Players in a real browser: a guest names themself and plays a game by link (each side
sees the other's name); two accounts sign up in two browsers, one's guest game is linked to
its account, and the profile page lists it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .web_helpers import click_cell, expect_ply, set_confirm

GAME_URL = re.compile(r".*/g/([A-Za-z0-9_-]+)$")


def _create_online(page, base_url: str, name: str | None = None) -> str:
    """Create a game between people from the lobby's form; the seat 1 link."""
    page.goto(f"{base_url}/")
    page.select_option("[data-testid=new-game-game]", "xobo")
    page.check("[data-testid=mode-online]")
    if name is not None:
        page.fill("[data-testid=player-name]", name)
    page.click("[data-testid=create-game]")
    page.wait_for_url(GAME_URL)
    expect(page.get_by_test_id("seat-0")).to_be_visible()
    return page.evaluate("() => JSON.parse(localStorage.getItem('tablier.games'))[0].invite")


def test_a_guest_names_themself_and_plays(live_server, new_page, screenshot):
    alice, bob = new_page(), new_page()
    invite = _create_online(alice, live_server.url, "Alice")
    assert "#seat=" in invite
    # the name is kept in the browser for the next games
    assert alice.evaluate("() => JSON.parse(localStorage.getItem('tablier.name'))") == "Alice"

    bob.goto(invite)
    form = bob.get_by_test_id("seat-name-form")
    expect(form).to_be_visible()
    expect(bob.get_by_test_id("seat-0")).to_contain_text("Alice")
    bob.fill("[data-testid=seat-name]", "Bob <script>alert(1)</script>")
    bob.click("[data-testid=seat-name-submit]")
    expect(form).to_have_count(0)
    expect(bob.get_by_test_id("seat-1")).to_contain_text("Bob <script>alert(1)</script>")
    expect(alice.get_by_test_id("seat-1")).to_contain_text("Bob <script>")
    screenshot(alice, "guest-names")

    for page in (alice, bob):
        set_confirm(page, False)
    click_cell(alice, "e5")
    expect_ply(bob, 1)
    click_cell(bob, "a1")
    expect_ply(alice, 2)

    # a spectator sees both names too
    spectator = new_page()
    spectator.goto(invite.split("#")[0])
    expect(spectator.get_by_test_id("seat-0")).to_contain_text("Alice")
    expect(spectator.get_by_test_id("seat-1")).to_contain_text("Bob")

    # Bob's name is remembered: his next game by link is named without asking
    invite2 = _create_online(alice, live_server.url)
    bob.goto(invite2)
    expect(alice.get_by_test_id("seat-1")).to_contain_text("Bob")
    expect(bob.get_by_test_id("seat-name-form")).to_have_count(0)


def _sign_up(page, base_url: str, username: str, password: str = "a long password") -> None:
    page.goto(f"{base_url}/")
    page.get_by_test_id("open-signup").click()
    page.fill("[data-testid=account-username]", username)
    page.fill("[data-testid=account-password]", password)
    page.click("[data-testid=account-submit]")
    expect(page.get_by_test_id("account-name")).to_have_text(username)


def test_two_accounts_sign_up_and_play(live_server, new_page, screenshot):
    suffix = str(abs(hash(live_server.url)) % 100000)
    ann_name, ben_name = f"ann{suffix}", f"ben{suffix}"
    ann, ben = new_page(), new_page()

    # Ann plays as a guest first, then signs up: the game is linked to her account
    invite = _create_online(ann, live_server.url, "guest Ann")
    _sign_up(ann, live_server.url, ann_name)
    expect(ann.get_by_test_id("toast")).to_contain_text("1")

    # a too short password is refused with the catalog's message
    ben.goto(f"{live_server.url}/")
    ben.get_by_test_id("open-signup").click()
    ben.fill("[data-testid=account-username]", ben_name)
    ben.fill("[data-testid=account-password]", "short")
    ben.evaluate("() => document.querySelector('[data-testid=signup-form]').noValidate = true")
    ben.click("[data-testid=account-submit]")
    expect(ben.get_by_test_id("account-error")).to_contain_text("8")
    ben.fill("[data-testid=account-password]", "a long password")
    ben.click("[data-testid=account-submit]")
    expect(ben.get_by_test_id("account-name")).to_have_text(ben_name)

    # Ben joins by the link: his seat is his account's
    ben.goto(invite)
    expect(ben.get_by_test_id("seat-1")).to_contain_text(ben_name)
    expect(ben.get_by_test_id("seat-0")).to_contain_text(ann_name)
    ann.get_by_test_id("my-game-link").first.click()
    expect(ann.get_by_test_id("seat-1")).to_contain_text(ben_name)
    for page in (ann, ben):
        set_confirm(page, False)
    click_cell(ann, "e5")
    expect_ply(ben, 1)

    # Ann on another device: logged in, the game's page gives her her seat back
    game_url = ben.url.split("#")[0]
    other_device = new_page()
    other_device.goto(f"{live_server.url}/")
    other_device.get_by_test_id("open-login").click()
    other_device.fill("[data-testid=account-username]", ann_name)
    other_device.fill("[data-testid=account-password]", "a long password")
    other_device.click("[data-testid=account-submit]")
    expect(other_device.get_by_test_id("account-name")).to_have_text(ann_name)
    other_device.goto(game_url)
    expect(other_device.get_by_test_id("seat-0")).to_contain_text("you")
    click_cell(ben, "a1")
    expect_ply(other_device, 2)
    set_confirm(other_device, False)
    other_device.locator("[data-cell].target").first.click()
    expect_ply(ben, 3)

    # the profile page lists the game; log out shows the log in button again
    ben.goto(f"{live_server.url}/@/{ann_name}")
    expect(ben.get_by_test_id("profile-name")).to_have_text(ann_name)
    expect(ben.get_by_test_id("profile-game")).to_have_count(1)
    expect(ben.get_by_test_id("profile-game")).to_contain_text(ben_name)
    screenshot(ben, "profile")
    ben.get_by_test_id("logout").click()
    expect(ben.get_by_test_id("open-login")).to_be_visible()
    ben.reload()
    expect(ben.get_by_test_id("open-login")).to_be_visible()

    # and logs in again
    ben.get_by_test_id("open-login").click()
    ben.fill("[data-testid=account-username]", ben_name.upper())
    ben.fill("[data-testid=account-password]", "a long password")
    ben.click("[data-testid=account-submit]")
    expect(ben.get_by_test_id("account-name")).to_have_text(ben_name)
