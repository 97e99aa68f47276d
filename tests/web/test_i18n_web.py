"""The interface in each of its languages, in a real browser: the lobby, a game, a few moves.

Each browser sends its language (Playwright's ``locale``: ``Accept-Language`` and
``navigator.language``); the page must come in it, from the lobby's option labels to the
board's hints, the status line and the result banner:

- French: a same-screen XoBo created from the lobby, three cubes placed by clicks, a typed
  move refused, a resignation;
- Japanese: a same-screen Volo, three birds added by clicks, a resignation;
- English: a same-screen Voldétour, a block placed by clicks, then the language changed
  with the header's selector, kept by a reload and by a new visit without the cookie
  (localStorage brings it back).

Screenshots of the lobby and of each game page are saved, one per language.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .web_helpers import click_cell, expect_ply, set_confirm


def _start_local(page, base_url: str, game: str, options: dict[str, str] | None = None) -> None:
    page.select_option("[data-testid=new-game-game]", game)
    for name, value in (options or {}).items():
        page.select_option(f"[data-testid=option-{name}]", value)
    page.check("[data-testid=mode-local]")
    page.click("[data-testid=create-game]")
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]+$"))


def _option_label(page, name: str) -> str:
    return page.locator(f"label[for=ng-opt-{name}]").inner_text().strip()


def _choices(page, testid: str) -> list[str]:
    return [t.strip() for t in page.locator(f"[data-testid={testid}] option").all_inner_texts()]


def _resign(page) -> None:
    page.get_by_test_id("resign").click()
    page.get_by_test_id("dialog-yes").click()
    expect(page.get_by_test_id("result-banner")).to_be_visible()


def test_french_lobby_and_xobo_game(live_server, new_page, screenshot):
    page = new_page(locale="fr-FR")
    page.goto(f"{live_server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#new-game-h")).to_have_text("Nouvelle partie")
    expect(page.get_by_test_id("language")).to_have_value("fr")
    expect(page.get_by_test_id("toggle-theme")).to_have_text("Thème : auto")
    expect(page.get_by_test_id("create-game")).to_have_text("Commencer la partie")
    assert "facile" in _choices(page, "ai-level")
    page.select_option("[data-testid=new-game-game]", "xobo")
    assert _option_label(page, "stack") == "Empilement"
    assert _option_label(page, "voyna") == "Ce qui annonce la Voïna"
    assert _choices(page, "option-stack") == [
        "Trois ou plus (XoBo)",
        "Exactement trois (règles en dix points)",
    ]
    assert _choices(page, "new-game-seat")[0] == "Nord-Sud (commence)"
    screenshot(page, "i18n-fr-lobby")

    _start_local(page, live_server.url, "xobo")
    expect(page.get_by_test_id("turn")).to_have_text("Nord-Sud au trait")
    set_confirm(page, False)
    for ply, cell in enumerate(["e1", "a2", "e2"], start=1):
        click_cell(page, cell)
        expect_ply(page, ply)
    expect(page.get_by_test_id("turn")).to_have_text("Est-Ouest au trait")
    expect(page.get_by_test_id("info")).to_contain_text("Réserve commune")
    expect(page.get_by_test_id("info")).to_contain_text("Réserve de Nord-Sud")
    expect(page.get_by_test_id("ply-label")).to_have_text("coup 3 (dernier)")
    page.fill("[data-testid=move-input]", "zz9")
    page.press("[data-testid=move-input]", "Enter")
    expect(page.get_by_test_id("move-error")).to_contain_text(
        "zz9 n'est pas un coup légal dans cette position."
    )
    screenshot(page, "i18n-fr-xobo")
    _resign(page)  # on the same screen, the side to move resigns: East-West
    banner = page.get_by_test_id("result-banner")
    expect(banner).to_contain_text("Nord-Sud gagne")
    expect(banner).to_contain_text("Est-Ouest a abandonné")
    expect(page.get_by_test_id("status")).to_have_text("Partie terminée")


def test_japanese_lobby_and_volo_game(live_server, new_page, screenshot):
    page = new_page(locale="ja-JP")
    page.goto(f"{live_server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#new-game-h")).to_have_text("新しいゲーム")
    page.select_option("[data-testid=new-game-game]", "volo")
    assert _option_label(page, "board") == "空（盤）"
    assert _choices(page, "option-board") == ["スタンダード", "ミニ（日本語版）"]
    assert _choices(page, "option-edition")[1] == "2010年フランス版ルール"
    expect(page.get_by_test_id("option-supply")).to_have_attribute(
        "placeholder", "空に合わせる（60羽か50羽）"
    )
    screenshot(page, "i18n-ja-lobby")

    _start_local(page, live_server.url, "volo", {"board": "mini"})
    expect(page.get_by_test_id("turn")).to_have_text("黄の番")
    expect(page.get_by_test_id("volo-hint")).to_contain_text(
        "黄の番：印のあるマスをクリックして鳥を追加"
    )
    set_confirm(page, False)
    for ply in range(1, 4):
        page.locator(".volo-sky .cell.target").first.click()
        expect_ply(page, ply)
    expect(page.get_by_test_id("turn")).to_have_text("青の番")
    expect(page.get_by_test_id("volo-supply-0")).to_contain_text("手元")
    expect(page.get_by_test_id("move-submit")).to_have_text("指す")
    screenshot(page, "i18n-ja-volo")
    _resign(page)  # Blue, to move, resigns
    banner = page.get_by_test_id("result-banner")
    expect(banner).to_contain_text("黄の勝ち")
    expect(banner).to_contain_text("青が投了しました")


def test_english_voldetour_game_and_the_remembered_choice(live_server, new_page, screenshot):
    page = new_page(locale="en-GB")
    page.goto(f"{live_server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.select_option("[data-testid=new-game-game]", "voldetour")
    assert _option_label(page, "max_turns") == "Turn limit"
    assert _option_label(page, "repetition") == "Draw by repetition"
    assert _choices(page, "option-repetition") == ["On", "Off"]
    expect(page.get_by_test_id("option-repetition")).to_have_value("false")
    screenshot(page, "i18n-en-lobby")

    _start_local(page, live_server.url, "voldetour", {"pieces": "mini"})
    expect(page.get_by_test_id("vd-hint")).to_have_text("Your move: choose a piece.")
    page.click("[data-testid=vd-take-B112]")
    page.click("[data-testid=vd-orient-1x2x1]")
    expect(page.get_by_test_id("vd-hint")).to_contain_text("to place the block;")
    page.click('.vd-map [data-cell="b3"]')
    expect(page.get_by_test_id("pending-move")).to_have_text("B112, then B112@b3:1x2x1")
    page.get_by_test_id("confirm-move").click()
    expect_ply(page, 2)
    expect(page.get_by_test_id("vd-turn")).to_contain_text("Turn 1: Black")
    screenshot(page, "i18n-en-voldetour")

    # the header's selector: the page comes back in French, and stays so
    page.select_option("[data-testid=language]", "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_test_id("vd-turn")).to_contain_text("Tour 1 : Noir")
    expect(page.get_by_test_id("vd-hint")).to_have_text(
        "À vous : choisissez une pièce, ou finissez votre tour."
    )
    page.goto(f"{live_server.url}/nothing-here")  # a page the server writes: the cookie
    expect(page.locator("h1")).to_have_text("Page introuvable")
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/")  # no cookie: localStorage brings the choice back
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#new-game-h")).to_have_text("Nouvelle partie")
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies.get("tablier_lang") == "fr"
