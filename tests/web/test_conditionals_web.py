"""A correspondence game with a conditional move, in a real browser: the second player
leaves two lines while it is the first player's turn; the first player's move follows one
of them and the server plays the reply at once."""

from __future__ import annotations

from playwright.sync_api import expect

import tablier.games

from .web_helpers import expect_ply, move_texts, open_seat


def legal(moves: list[str]) -> list[str]:
    game = tablier.games.get("xobo")
    state = game.initial_state()
    for text in moves:
        state = state.apply(game.parse_move(state, text))
    return [game.move_text(state, m) for m in state.legal_moves()]


def test_correspondence_conditional_move(live_server, new_page, screenshot):
    body = {
        "game": "xobo",
        "mode": "online",
        "names": ["Ann", "Bob"],
        "clock": {"kind": "correspondence", "days": 3},
    }
    r = live_server.api("POST", "/api/games", json=body)
    assert r.status_code == 201, r.text
    created = r.json()
    gid, t0 = created["id"], created["tokens"]["0"]
    ann = open_seat(new_page(), live_server, gid, t0)
    bob = open_seat(new_page(), live_server, gid, created["tokens"]["1"])
    # Ann is to move: her panel says to play; Bob writes his lines
    expect(ann.get_by_test_id("conditional-status")).to_have_text("On your turn, play your move.")
    a, b = legal([])[:2]
    reply = legal([a])[3]
    bob.get_by_test_id("conditionals-toggle").click()
    lines = bob.get_by_test_id("conditional-lines")
    lines.fill(f"{a} zz99")
    bob.get_by_test_id("conditional-save").click()
    expect(bob.get_by_test_id("conditional-error")).to_contain_text("line 1, decision 2")
    lines.fill(f"{a} {reply}\n{b}, {a}")
    bob.get_by_test_id("conditional-save").click()
    expect(bob.get_by_test_id("conditional-status")).to_have_text("2 lines waiting")
    expect(bob.get_by_test_id("conditional-error")).to_be_hidden()
    screenshot(bob, "conditionals-set")
    # lines of the opponent stay hidden: Ann's panel shows none
    assert ann.get_by_test_id("conditional-lines").input_value() == ""

    # Ann plays the line's move by typing it: Bob's reply comes back at once
    ann.get_by_test_id("toggle-confirm").uncheck()
    ann.get_by_test_id("move-input").fill(a)
    ann.get_by_test_id("move-input").press("Enter")
    expect_ply(ann, 2)
    expect_ply(bob, 2)
    assert move_texts(bob)[:2] == [a, reply]
    # the line is used up: Ann is to move again, Bob has nothing left waiting
    expect(bob.get_by_test_id("conditional-status")).to_have_text("No conditional moves.")
    expect(bob.get_by_test_id("your-turn")).to_have_count(0)
    expect(ann.get_by_test_id("your-turn")).to_have_count(1)
    expect(bob.get_by_test_id("conditional-lines")).to_have_value("")
