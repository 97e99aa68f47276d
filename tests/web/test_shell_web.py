"""The web client's shell in a real browser, played with XoBo: an online game seen live by
the other seat and a spectator, seat links that cannot move for the other seat (in the page
and on the server), undo between people, resignation and its banner, rematch with colours
swapped, takeback against the AI, export and import of a record, reconnection after a
server restart, the phone layout, dark mode and the coordinates toggle."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .web_helpers import (
    click_cell,
    create_game,
    expect_ply,
    height,
    move_texts,
    no_seat_in_url,
    open_seat,
    play_clicks,
    set_confirm,
)

GAME_URL = re.compile(r".*/g/[A-Za-z0-9_-]+$")


def my_games(page) -> list[dict]:
    return page.evaluate("JSON.parse(localStorage.getItem('tablier.games') || '[]')")


def test_online_game_live_seats_undo_resign_rematch(live_server, new_page, screenshot):
    alice = new_page()
    alice.goto(f"{live_server.url}/")
    alice.select_option("[data-testid=new-game-game]", "xobo")
    alice.check("[data-testid=mode-online]")
    alice.select_option("[data-testid=new-game-seat]", "0")
    alice.fill("[data-testid=player-name]", "Alice <b>&")
    screenshot(alice, "lobby")
    alice.click("[data-testid=create-game]")
    alice.wait_for_url(GAME_URL)
    game_id = alice.url.rsplit("/", 1)[1]
    entry = my_games(alice)[0]
    assert entry["id"] == game_id and entry["seat"] == 0 and entry["token"]
    invite = entry["invite"]
    assert invite.endswith(f"/g/{game_id}#seat=" + invite.split("#seat=")[1])
    expect(alice.get_by_test_id("copy-seat-link")).to_be_visible()
    expect(alice.get_by_test_id("invite-link")).to_have_value(invite)
    # the name is shown as text, never as markup
    expect(alice.get_by_test_id("seat-0")).to_contain_text("Alice <b>&")

    bob = new_page()
    bob.goto(invite)
    expect(bob.get_by_test_id("seat-1")).to_contain_text("you")
    assert no_seat_in_url(bob), bob.url  # the token left the address bar
    bob_token = my_games(bob)[0]["token"]
    assert bob_token and bob_token != entry["token"]

    watcher = new_page()
    open_seat(watcher, live_server, game_id, None)
    expect(watcher.get_by_test_id("resign")).to_have_count(0)
    expect(watcher.locator(".xobo-board .target")).to_have_count(0)
    expect(alice.get_by_test_id("seat-1")).to_contain_text("online")
    expect(alice.get_by_test_id("invite-box")).to_have_count(0)  # Bob has come

    # Alice plays e5 through the confirm step (on by default); the others see it live
    expect(alice.get_by_test_id("your-turn")).to_be_visible()
    alice.locator("[data-cell='e5'].target").click()
    expect(alice.get_by_test_id("confirm-bar")).to_be_visible()
    expect(alice.get_by_test_id("pending-move")).to_have_text("e5")
    alice.get_by_test_id("confirm-move").click()
    for page in (alice, bob, watcher):
        expect_ply(page, 1)
        assert height(page, "e5") == 1
    expect(bob.get_by_test_id("your-turn")).to_be_visible()

    # Alice's link cannot move for Bob: the page offers nothing ...
    expect(alice.locator(".xobo-board .target")).to_have_count(0)
    expect(alice.get_by_test_id("move-input")).to_be_disabled()
    # ... and the server refuses a forged request with her token, none or a made-up one
    forged = live_server.api(
        "POST", f"/api/games/{game_id}/moves", token=entry["token"], json={"ply": 1, "move": "e4"}
    )
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "not_your_turn"
    anonymous = live_server.api(
        "POST", f"/api/games/{game_id}/moves", json={"ply": 1, "move": "e4"}
    )
    assert anonymous.status_code in (401, 403)
    made_up = live_server.api(
        "POST", f"/api/games/{game_id}/moves", token="x" * 32, json={"ply": 1, "move": "e4"}
    )
    assert made_up.status_code == 403
    assert live_server.api("GET", f"/api/games/{game_id}").json()["ply"] == 1

    # Bob plays e4, then asks to take it back; Alice allows it
    click_cell(bob, "e4", confirm=True)
    for page in (alice, bob, watcher):
        expect_ply(page, 2)
    bob.get_by_test_id("undo-request").click()
    expect(bob.get_by_test_id("undo-waiting")).to_be_visible()
    expect(alice.get_by_test_id("undo-offered")).to_be_visible()
    alice.get_by_test_id("accept-undo").click()
    for page in (alice, bob, watcher):
        expect_ply(page, 1)
        assert height(page, "e4") == 0
    expect(bob.get_by_test_id("your-turn")).to_be_visible()
    screenshot(watcher, "xobo-spectator")

    # a draw offer, declined
    alice.get_by_test_id("offer-draw").click()
    expect(alice.get_by_test_id("draw-waiting")).to_be_visible()
    expect(bob.get_by_test_id("draw-offered")).to_be_visible()
    bob.get_by_test_id("decline-draw").click()
    expect(alice.get_by_test_id("offer-draw")).to_be_visible()
    expect(bob.get_by_test_id("draw-offered")).to_have_count(0)

    # Bob resigns: everybody sees the banner with the reason
    bob.get_by_test_id("resign").click()
    bob.get_by_test_id("dialog-yes").click()
    for page in (alice, bob, watcher):
        banner = page.get_by_test_id("result-banner")
        expect(banner).to_contain_text("North-South wins")
        expect(banner).to_contain_text("East-West resigned")
    expect(watcher.get_by_test_id("rematch")).to_have_count(0)

    # rematch with colours swapped: Alice creates it and becomes East-West, Bob joins
    alice.get_by_test_id("rematch").click()
    alice.wait_for_url(lambda url: game_id not in url)
    new_id = alice.url.rsplit("/", 1)[1]
    expect(alice.get_by_test_id("seat-1")).to_contain_text("you")
    expect(bob.get_by_test_id("rematch")).to_contain_text("join")
    bob.get_by_test_id("rematch").click()
    bob.wait_for_url(f"**/g/{new_id}")
    expect(bob.get_by_test_id("seat-0")).to_contain_text("you")
    expect(bob.get_by_test_id("your-turn")).to_be_visible()
    click_cell(bob, "d4", confirm=True)
    expect_ply(alice, 1)


def test_a_foreign_seat_link_only_watches(live_server, new_page):
    made = create_game(live_server, "xobo", mode="online")
    other = create_game(live_server, "xobo", mode="online")
    page = new_page()
    # the token of another game's seat, in this game's link
    page.goto(f"{live_server.url}/g/{made['id']}#seat={other['tokens']['0']}")
    expect(page.get_by_test_id("toast")).to_contain_text("watching")
    expect(page.get_by_test_id("seat-0")).not_to_contain_text("you")
    expect(page.locator(".xobo-board .target")).to_have_count(0)
    expect(page.get_by_test_id("resign")).to_have_count(0)


def test_takeback_against_the_ai(live_server, new_page):
    page = new_page()
    page.goto(f"{live_server.url}/")
    page.select_option("[data-testid=new-game-game]", "xobo")
    page.check("[data-testid=mode-ai]")
    page.select_option("[data-testid=ai-level]", "easy")
    page.select_option("[data-testid=new-game-seat]", "0")
    page.click("[data-testid=create-game]")
    page.wait_for_url(GAME_URL)
    expect(page.get_by_test_id("seat-1")).to_contain_text("computer")
    set_confirm(page, False)
    click_cell(page, "e5")
    expect_ply(page, 2)  # the computer answered
    expect(page.get_by_test_id("your-turn")).to_be_visible()
    page.get_by_test_id("takeback").click()
    expect_ply(page, 0)
    assert height(page, "e5") == 0
    click_cell(page, "d4")
    expect_ply(page, 2)
    assert move_texts(page)[0] == "d4"
    # the lobby lists it under my games and recent games; my games' link reopens my seat
    game_id = page.url.rsplit("/", 1)[1]
    page.get_by_role("link", name="Lobby").click()
    mine = page.get_by_test_id("my-games").locator(f"a[href='/g/{game_id}']")
    expect(mine).to_have_count(1)
    expect(page.get_by_test_id("recent-games").locator(f"a[href='/g/{game_id}']")).to_have_count(1)
    mine.click()
    expect_ply(page, 2)
    expect(page.get_by_test_id("your-turn")).to_be_visible()


def test_ai_progress_bar(live_server, new_page):
    """The page draws the server's ``ai`` messages: a progress bar and the best move so far.

    The real AI answers too fast to watch in a test, so the messages are injected into the
    page's WebSocket (Playwright forwards everything else to the real server)."""
    made = create_game(live_server, "xobo", mode="ai", seat=0, ai_level="easy")
    page = new_page()
    sockets = []

    def relay(ws):
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r".*/ws/games/.*"), relay)
    open_seat(page, live_server, made["id"], made["tokens"]["0"])
    expect(page.get_by_test_id("connection")).to_have_text("live")
    expect(page.locator("[data-testid=board][data-ready='1']")).to_have_count(1)
    expect(page.get_by_test_id("seat-0")).to_contain_text("online")  # the hello was answered
    bar = page.get_by_test_id("ai-thinking")
    expect(bar).to_be_hidden()
    progress = {"fraction": 0.5, "simulations": 800, "best": "e5"}
    sockets[-1].send(json.dumps({"type": "ai", "thinking": True, "progress": progress}))
    expect(bar).to_be_visible()
    expect(page.get_by_test_id("ai-best")).to_have_text("best so far: e5")
    assert bar.locator("progress").evaluate("p => p.value") == 0.5
    sockets[-1].send(json.dumps({"type": "ai", "thinking": False, "progress": None}))
    expect(bar).to_be_hidden()


def test_export_and_import_a_record(live_server, new_page, screenshot, tmp_path):
    made = create_game(live_server, "xobo", mode="local", options={"stack": "three"})
    page = new_page(accept_downloads=True)
    open_seat(page, live_server, made["id"], made["tokens"]["both"])
    set_confirm(page, False)
    play_clicks(page, ["e5", "e4", "d5", "a1"], 0)
    with page.expect_download() as info:
        page.get_by_test_id("export-record").click()
    path = tmp_path / "record.txt"
    info.value.save_as(path)
    text = path.read_text()
    assert "xobo" in text and "a1" in text

    # history navigation on the live game: arrow keys, Home, End, a click in the move list
    page.locator("body").press("ArrowLeft")
    expect(page.get_by_test_id("ply-label")).to_contain_text("move 3 of 4")
    assert height(page, "a1") == 0
    page.locator("body").press("Home")
    assert height(page, "e5") == 0
    page.locator("[data-testid=move-item][data-ply='2']").click()
    assert height(page, "e4") == 1 and height(page, "d5") == 0
    expect(page.locator(".xobo-board .target")).to_have_count(0)  # no input in the past
    page.locator("body").press("End")
    expect(page.get_by_test_id("ply-label")).to_contain_text("latest")
    expect(page.locator("[data-cell='a1'].last")).to_have_count(1)

    # open the record from the lobby, as a file, and review it
    page.goto(f"{live_server.url}/")
    page.set_input_files("[data-testid=record-file]", str(path))
    expect(page.get_by_test_id("record-text")).to_have_value(re.compile("a1"))
    page.get_by_test_id("open-record").click()
    page.wait_for_url("**/review")
    expect(page.get_by_test_id("move-item")).to_have_count(4)
    assert height(page, "a1") == 1
    expect(page.get_by_test_id("record-spec")).to_contain_text("stack=three")  # the exact spec
    # and the game in words: the option changed from its default, as the lobby names it
    expect(page.get_by_test_id("record-spec")).to_contain_text("(Stacking: Exactly three")
    page.locator("body").press("ArrowLeft")
    page.locator("body").press("ArrowLeft")
    assert height(page, "d5") == 0 and height(page, "e4") == 1
    screenshot(page, "xobo-review")
    page.reload()  # the review survives a reload
    expect(page.get_by_test_id("move-item")).to_have_count(4)

    # a broken record is refused with the server's reason
    page.goto(f"{live_server.url}/")
    page.fill("[data-testid=record-text]", '[Game "xobo"]\n\n1. e5 e5')
    page.get_by_test_id("open-record").click()
    expect(page.get_by_test_id("record-error")).not_to_be_empty()


def test_review_of_a_resigned_game_pasted(live_server, new_page):
    made = create_game(live_server, "xobo", mode="local")
    token = made["tokens"]["both"]
    live_server.api(
        "POST", f"/api/games/{made['id']}/moves", token=token, json={"ply": 0, "move": "e5"}
    )
    live_server.api("POST", f"/api/games/{made['id']}/resign", token=token)
    text = live_server.api("GET", f"/api/games/{made['id']}/record").text
    page = new_page()
    page.goto(f"{live_server.url}/")
    page.fill("[data-testid=record-text]", text)
    page.get_by_test_id("open-record").click()
    page.wait_for_url("**/review")
    expect(page.get_by_test_id("move-item")).to_have_count(1)
    banner = page.get_by_test_id("result-banner")
    # the same-screen resignation is the side to move's: East-West, after e5
    expect(banner).to_contain_text("1-0")
    expect(banner).to_contain_text("North-South wins")
    expect(banner).to_contain_text("East-West resigned")


def test_reconnects_after_a_server_restart(live_server, new_page):
    made = create_game(live_server, "xobo", mode="online")
    alice, bob = new_page(), new_page()
    open_seat(alice, live_server, made["id"], made["tokens"]["0"])
    open_seat(bob, live_server, made["id"], made["tokens"]["1"])
    set_confirm(alice, False)
    click_cell(alice, "e5")
    expect_ply(bob, 1)
    live_server.restart()
    # both pages reconnect by themselves and keep receiving the moves
    expect(alice.get_by_test_id("connection")).to_have_text("live", timeout=15_000)
    expect(bob.get_by_test_id("connection")).to_have_text("live", timeout=15_000)
    set_confirm(bob, False)
    click_cell(bob, "e4")
    expect_ply(alice, 2)
    assert height(alice, "e4") == 1


def test_phone_layout_dark_mode_and_coordinates(live_server, new_page, screenshot):
    made = create_game(live_server, "xobo", mode="local")
    phone = new_page(
        viewport={"width": 375, "height": 812},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    open_seat(phone, live_server, made["id"], made["tokens"]["both"])
    set_confirm(phone, False)
    phone.locator("[data-cell='e5'].target").tap()
    expect_ply(phone, 1)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} px wide on a 375-px phone"
    box = phone.get_by_test_id("board").bounding_box()
    assert box["width"] <= 375 and box["width"] >= 300
    phone.evaluate("window.scrollTo(0, 0)")
    screenshot(phone, "xobo-phone-375")

    dark = new_page(color_scheme="dark")
    open_seat(dark, live_server, made["id"], made["tokens"]["both"])
    background = dark.evaluate("getComputedStyle(document.body).backgroundColor")
    assert _luminance(background) < 0.2, background
    screenshot(dark, "xobo-dark")
    # the theme button overrides the system: auto -> dark -> light
    dark.get_by_test_id("toggle-theme").click()
    dark.get_by_test_id("toggle-theme").click()
    expect(dark.get_by_test_id("toggle-theme")).to_have_text("Theme: light")
    background = dark.evaluate("getComputedStyle(document.body).backgroundColor")
    assert _luminance(background) > 0.8, background

    # coordinates can be hidden (and the choice is remembered)
    assert dark.locator(".xobo-board .coord").count() == 36
    dark.get_by_test_id("toggle-coordinates").click()
    expect(dark.locator(".xobo-board .coord")).to_have_count(0)
    dark.reload()
    expect(dark.get_by_test_id("move-item")).to_have_count(1)
    expect(dark.locator(".xobo-board .coord")).to_have_count(0)
    settings = json.loads(dark.evaluate("localStorage.getItem('tablier.settings')"))
    assert settings["coordinates"] is False and settings["theme"] == "light"


def _luminance(css_colour: str) -> float:
    """The mean of the RGB channels of ``rgb(r, g, b)``, from 0 to 1."""
    r, g, b = (int(x) for x in re.findall(r"\d+", css_colour)[:3])
    return (r + g + b) / 765
