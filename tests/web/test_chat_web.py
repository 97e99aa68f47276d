"""The chat in a real browser: two players in separate contexts and a spectator; script
payloads shown as text (no dialog, no script run, no JavaScript error); the rooms apart;
mute and "players' chat off"."""

from __future__ import annotations

from playwright.sync_api import expect

from .web_helpers import create_game, open_seat

PAYLOADS = [
    '<img src=x onerror="window.__xss = 1; alert(1)">',
    "<script>window.__xss = 2; alert(2)</script>",
    "<b>bold</b> & &amp; \"quotes\" 'single'",
]


def say(page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()


def chat_texts(page) -> list[str]:
    return page.get_by_test_id("chat-text").all_text_contents()


def watch_dialogs(page) -> list[str]:
    seen: list[str] = []

    def on_dialog(dialog) -> None:
        seen.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return seen


def test_players_chat_with_script_payloads(live_server, new_page, screenshot):
    created = create_game(live_server, "xobo", mode="online", names=["Ann", "Bob"])
    gid = created["id"]
    ann = open_seat(new_page(), live_server, gid, created["tokens"]["0"])
    bob = open_seat(new_page(), live_server, gid, created["tokens"]["1"])
    watcher = open_seat(new_page(), live_server, gid, None)
    dialogs = [watch_dialogs(p) for p in (ann, bob, watcher)]
    expect(bob.get_by_test_id("chat-room")).to_have_text("Players' chat")
    expect(watcher.get_by_test_id("chat-room")).to_have_text("Spectators' chat")

    for text in PAYLOADS:
        say(ann, text)
    expect(bob.get_by_test_id("chat-text")).to_have_count(len(PAYLOADS))
    assert chat_texts(bob) == PAYLOADS
    assert chat_texts(ann) == PAYLOADS
    for page in (ann, bob):
        messages = page.get_by_test_id("chat-messages")
        expect(messages.locator("img, script, b")).to_have_count(0)
        assert page.evaluate("window.__xss") is None
    expect(bob.get_by_test_id("chat-message").first).to_contain_text("Ann")

    # the spectators' room is apart: neither side reads the other's while the game runs
    say(watcher, "<i>go Ann</i>")
    expect(watcher.get_by_test_id("chat-text")).to_have_text(["<i>go Ann</i>"])
    say(bob, "thanks")
    expect(ann.get_by_test_id("chat-text")).to_have_count(len(PAYLOADS) + 1)
    expect(watcher.get_by_test_id("chat-text")).to_have_count(1)
    assert "<i>go Ann</i>" not in chat_texts(ann)
    screenshot(bob, "chat-players")

    # mute: Bob stops getting Ann's messages; unmuted, the next one arrives
    bob.get_by_test_id("chat-mute").check()
    expect(ann.get_by_test_id("chat-mute")).not_to_be_checked()
    say(ann, "are you there?")
    expect(ann.get_by_test_id("chat-text").last).to_have_text("are you there?")
    bob.get_by_test_id("chat-mute").uncheck()
    expect(bob.get_by_test_id("chat-mute")).not_to_be_checked()
    say(ann, "hello again")
    expect(bob.get_by_test_id("chat-text").last).to_have_text("hello again")
    assert "are you there?" not in chat_texts(bob)

    # players' chat off: either player's switch closes the room for both
    ann.get_by_test_id("chat-off").check()
    expect(bob.get_by_test_id("chat-input")).to_be_disabled()
    expect(bob.get_by_test_id("chat-off")).to_be_checked()
    expect(watcher.get_by_test_id("chat-input")).to_be_enabled()
    bob.get_by_test_id("chat-off").uncheck()
    expect(ann.get_by_test_id("chat-input")).to_be_enabled()

    # after the game everyone reads both rooms (the finished game's page is its review)
    live_server.api("POST", f"/api/games/{gid}/resign", token=created["tokens"]["0"])
    expect(watcher.get_by_test_id("chat-text")).to_contain_text(["<i>go Ann</i>", "hello again"])
    expect(bob.get_by_test_id("chat-text")).to_contain_text(["<i>go Ann</i>", "hello again"])
    review = open_seat(new_page(), live_server, gid, None)
    expect(review.get_by_test_id("chat-text")).to_have_count(len(PAYLOADS) + 4)
    assert review.evaluate("window.__xss") is None
    assert dialogs == [[], [], []]
    screenshot(review, "chat-review")
