"""The play site as two new players meet it, in one browser scenario (issue 14's test).

Ann and Bob sign up in two browser contexts; Ann posts a rated live challenge from the lobby
with the shortest clock the form offers (a quarter of a minute, no increment); Bob accepts it
with one click; each plays a move, then Ann's clock runs while they chat (script payloads
shown as text: no dialog, no element made, no JavaScript error, which ``new_page`` fails on);
Ann runs out of time; both see the result "on time" and the rating change, and the seats'
names lead to the profiles, where the new ratings are marked provisional.

Screenshots: ``test-artifacts/screenshots/play-site-*.png``.  The your-turn title and
notification are in ``test_notify_web.py``, a correspondence game with a conditional move in
``test_conditionals_web.py``.
"""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect

from .web_helpers import click_cell, expect_ply, set_confirm

GAME_URL = re.compile(r".*/g/([A-Za-z0-9_-]+)$")
PAYLOADS = ["<img src=x onerror=alert(1)>", "<script>alert(1)</script>"]


def sign_up(page: Page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/")
    page.get_by_test_id("open-signup").click()
    page.fill("[data-testid=account-username]", username)
    page.fill("[data-testid=account-password]", "correct horse battery")
    page.click("[data-testid=account-submit]")
    expect(page.get_by_test_id("account-name")).to_have_text(username)


def watch_dialogs(page: Page) -> list[str]:
    seen: list[str] = []

    def on_dialog(dialog) -> None:
        seen.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return seen


def say(page: Page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()


def test_two_accounts_play_a_rated_live_challenge(live_server, new_page, screenshot):
    suffix = secrets.token_hex(3)
    ann_name, bob_name = f"ann{suffix}", f"bob{suffix}"
    ann, bob = new_page(), new_page()
    dialogs = [watch_dialogs(ann), watch_dialogs(bob)]
    sign_up(ann, live_server.url, ann_name)
    sign_up(bob, live_server.url, bob_name)

    # Ann posts a rated live challenge: 15 s each, no increment, she moves first
    ann.goto(f"{live_server.url}/")
    ann.select_option("[data-testid=challenge-game]", "xobo")
    ann.select_option("[data-testid=challenge-clock]", "custom")
    ann.fill("[data-testid=challenge-clock-minutes]", "0.25")
    ann.fill("[data-testid=challenge-clock-increment]", "0")
    ann.select_option("[data-testid=challenge-colour]", "0")
    ann.check("[data-testid=challenge-rated]")
    ann.click("[data-testid=post-challenge]")
    mine = ann.locator("[data-testid=challenge][data-mine='1']")
    expect(mine).to_have_count(1)
    challenge_id = mine.get_attribute("data-id")
    posted = live_server.api("GET", f"/api/challenges/{challenge_id}").json()
    assert posted["clock"] == {"kind": "live", "base": 15, "increment": 0}
    assert posted["rated"] is True and posted["user"] == ann_name

    # Bob sees it in his lobby and accepts it with one click
    bob.goto(f"{live_server.url}/")
    theirs = bob.locator(f"[data-testid=challenge][data-id='{challenge_id}']")
    expect(theirs).to_contain_text("rated")
    expect(theirs).to_contain_text("15s+0")
    expect(theirs.get_by_test_id("challenger")).to_contain_text(ann_name)
    expect(theirs.get_by_test_id("challenger").locator("a")).to_have_attribute(
        "href", f"/@/{ann_name}"
    )
    screenshot(bob, "play-site-lobby")
    theirs.get_by_test_id("accept-challenge").click()
    bob.wait_for_url(GAME_URL)
    game_id = GAME_URL.match(bob.url).group(1)
    ann.wait_for_url(GAME_URL, timeout=10_000)  # her lobby's poll opens the game
    assert GAME_URL.match(ann.url).group(1) == game_id

    for page in (ann, bob):
        expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
        expect(page.get_by_test_id("ratings-panel").get_by_test_id("rated")).to_be_visible()
        expect(page.get_by_test_id("clock-control")).to_have_text("15s+0")
        # the names lead to the players' profiles
        expect(page.get_by_test_id("profile-link-0")).to_have_attribute("href", f"/@/{ann_name}")
        expect(page.get_by_test_id("profile-link-1")).to_have_attribute("href", f"/@/{bob_name}")
        set_confirm(page, False)

    # the first turn is not timed; Bob's move ends his, and then Ann's clock runs
    click_cell(ann, "e5")
    expect_ply(bob, 1)
    click_cell(bob, "a1")
    expect_ply(ann, 2)
    for page in (ann, bob):
        expect(page.get_by_test_id("clock-0")).to_have_class(re.compile(r"\brunning\b"))

    # they chat while it runs: the payloads are text on both sides
    for text in PAYLOADS:
        say(ann, text)
    say(bob, "good luck")
    for page in (ann, bob):
        expect(page.get_by_test_id("chat-text")).to_have_text([*PAYLOADS, "good luck"])
        expect(page.get_by_test_id("chat-messages").locator("img, script")).to_have_count(0)
    screenshot(ann, "play-site-chat")

    # Ann does not move: the server settles her flag; both see it, and the rating change
    for page in (ann, bob):
        expect(page.get_by_test_id("result-banner")).to_be_visible(timeout=25_000)
        expect(page.get_by_test_id("result-reason")).to_contain_text("on time")
        loser = page.get_by_test_id("rating-change-0")
        winner = page.get_by_test_id("rating-change-1")
        expect(loser).to_contain_text("1500 → 1338? (−162)")
        expect(winner).to_contain_text("1500 → 1662? (+162)")
        assert int(loser.get_attribute("data-delta")) == -162
    snap = live_server.api("GET", f"/api/games/{game_id}").json()
    assert snap["result"]["reason"] == "timeout" and snap["result"]["winner"] == 1
    screenshot(bob, "play-site-result")

    # the chat stays with the finished game: a visitor reads it as text too
    visitor = new_page()
    visitor_dialogs = watch_dialogs(visitor)
    visitor.goto(f"{live_server.url}/g/{game_id}")
    expect(visitor.get_by_test_id("chat-text")).to_have_text([*PAYLOADS, "good luck"])

    # Bob follows his name to his profile: the rating of XoBo, provisional
    bob.get_by_test_id("profile-link-1").click()
    expect(bob.get_by_test_id("profile-name")).to_have_text(bob_name)
    row = bob.get_by_test_id("rating-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("1662?")
    expect(row.locator("td[title='provisional rating']")).to_have_text("1662?")
    screenshot(bob, "play-site-profile")
    assert dialogs == [[], []] and visitor_dialogs == []
    for page in (ann, bob, visitor):
        assert page.evaluate("document.querySelectorAll('img[src=x]').length") == 0
