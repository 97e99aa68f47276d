"""Ratings in a real browser: a rated game's panel shows each side's rating change when it
ends (pushed over the WebSocket), and the leaderboard page lists the two players."""

from __future__ import annotations

import secrets

import httpx
from playwright.sync_api import expect

from .web_helpers import open_seat


def account(live_server, name: str) -> tuple[httpx.Client, dict[str, str]]:
    """A signed-up account's client (its cookies) and the CSRF header it sends."""
    client = httpx.Client(base_url=live_server.url, timeout=30)
    csrf = {"X-CSRF-Token": client.get("/api/account").json()["csrf"]}
    body = {"username": name, "password": "correct horse battery"}
    r = client.post("/api/account/signup", json=body, headers=csrf)
    assert r.status_code == 201, r.text
    return client, csrf


def test_the_rating_change_and_the_leaderboard(live_server, new_page, screenshot):
    suffix = secrets.token_hex(3)
    ann_name, bob_name = f"ann{suffix}", f"bob{suffix}"
    ann, ann_csrf = account(live_server, ann_name)
    bob, bob_csrf = account(live_server, bob_name)
    try:
        body = {"game": "xobo", "rated": True, "colour": "0"}
        r = ann.post("/api/challenges", json=body, headers=ann_csrf)
        assert r.status_code == 201, r.text
        r = bob.post(f"/api/challenges/{r.json()['challenge']['id']}/accept", headers=bob_csrf)
        assert r.status_code == 200, r.text
        accepted = r.json()
        gid, seat = accepted["id"], accepted["seat"]
        token = accepted["tokens"][str(seat)]

        page = open_seat(new_page(), live_server, gid, token)
        panel = page.get_by_test_id("ratings-panel")
        expect(panel.get_by_test_id("rated")).to_be_visible()
        expect(page.get_by_test_id("rating-change")).to_have_count(0)
        watcher = open_seat(new_page(), live_server, gid, None)

        r = bob.post(f"/api/games/{gid}/resign", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        for p in (page, watcher):
            loser = p.get_by_test_id(f"rating-change-{seat}")
            winner = p.get_by_test_id(f"rating-change-{1 - seat}")
            expect(loser).to_contain_text("1500 → 1338? (−162)")
            expect(winner).to_contain_text("1500 → 1662? (+162)")
            assert int(loser.get_attribute("data-delta")) == -162
        screenshot(page, "ratings-game-over")

        # the leaderboard: nobody established yet; with the provisional ratings, both
        page.get_by_test_id("leaderboard-link").click()
        expect(page.get_by_test_id("leaderboard")).to_be_visible()
        expect(page.get_by_test_id("leaderboard-empty")).to_be_visible()
        page.get_by_test_id("leaderboard-provisional").check()
        rows = page.get_by_test_id("leaderboard-row")
        expect(rows.filter(has_text=ann_name)).to_contain_text("1662?")
        expect(rows.filter(has_text=bob_name)).to_contain_text("1338?")
        assert "provisional=true" in page.url
        screenshot(page, "ratings-leaderboard")
    finally:
        ann.close()
        bob.close()
