"""The lobby's game cards in Chromium, in English and French.

Each game a card, the simplest first (the declared ``difficulty``): its initial position
drawn by its board module, its teaching summary in the page's language, its variants by
their plain names, and the ways in (the computer, a friend, the same screen, the tutorial,
the rules, the puzzles), each followed to its page.  An unknown page speaks the player's
language.  Screenshots: ``test-artifacts/screenshots/lobby-cards-<lang>.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tablier import games as registry
from tablier.server.i18n import gettext
from tablier.server.teaching import teaching_body


def ordered_games() -> list[str]:
    """The registered games, the smallest declared difficulty first."""
    names = registry.names()
    rank = [(registry.game_class(n).difficulty or 10**9, i, n) for i, n in enumerate(names)]
    return [n for _, _, n in sorted(rank)]


def summary(name: str, lang: str) -> str:
    import json

    built = teaching_body(registry.game_class(name), lang)
    assert built is not None
    return str(json.loads(built[0])["summary"])


def cards(page: Page):
    return page.get_by_test_id("game-card")


def card(page: Page, name: str):
    return page.locator(f"[data-testid=game-card][data-game='{name}']")


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-GB"), ("fr", "fr-FR")])
def test_each_game_has_a_card_in_the_players_language(
    live_server, new_page, screenshot, lang, locale
):
    page = new_page(locale=locale, extra_http_headers={"Accept-Language": lang})
    page.goto(f"{live_server.url}/")
    games = ordered_games()
    expect(cards(page)).to_have_count(len(games))
    assert cards(page).evaluate_all("(els) => els.map((e) => e.dataset.game)") == games
    for name in games:
        cls = registry.game_class(name)
        box = card(page, name)
        expect(box.get_by_test_id("card-board")).to_have_attribute("data-ready", "1")
        assert box.get_by_test_id("card-board").locator("svg, canvas").count() > 0
        expect(box.locator("h2")).to_have_text(gettext(lang, f"game.{name}.title"))
        if cls.teaching() is not None:
            expect(box.get_by_test_id("card-summary")).to_have_text(summary(name, lang))
            expect(box.get_by_test_id("card-learn")).to_have_attribute("href", f"/learn/{name}")
            expect(box.get_by_test_id("card-rules")).to_have_attribute("href", f"/rules/{name}")
        if len(cls.VARIANTS) > 1:
            options = box.get_by_test_id("card-variant").locator("option")
            expected = [gettext(lang, f"game.{name}.variant.{v.key}") for v in cls.VARIANTS]
            assert all(not text.startswith("game.") for text in expected), expected
            expect(options).to_have_text(expected)
        expect(box.get_by_test_id("card-play-ai")).to_have_text(gettext(lang, "Play the computer"))
        expect(box.get_by_test_id("card-play-online")).to_have_text(gettext(lang, "Play a friend"))
        expect(box.get_by_test_id("card-play-local")).to_have_text(gettext(lang, "Same screen"))
    if lang != "en":
        assert gettext(lang, "Play the computer") != "Play the computer"
    screenshot(page, f"lobby-cards-{lang}", full_page=True)


def test_the_cards_links_lead_to_their_pages(live_server, new_page):
    page = new_page()
    page.goto(f"{live_server.url}/")
    name = ordered_games()[0]
    box = card(page, name)
    box.get_by_test_id("card-learn").click()
    page.wait_for_url(re.compile(rf".*/learn/{name}$"))
    expect(page.get_by_test_id("learn-page")).to_be_visible()
    expect(page.get_by_test_id("learn-step-title")).not_to_be_empty()
    page.go_back()
    box.get_by_test_id("card-rules").click()
    page.wait_for_url(re.compile(rf".*/rules/{name}$"))
    expect(page.locator("h1")).not_to_be_empty()
    page.go_back()
    expect(box.get_by_test_id("card-puzzles")).to_be_visible()
    box.get_by_test_id("card-puzzles").click()
    page.wait_for_url(re.compile(rf".*/puzzles/{name}$"))
    expect(page.get_by_test_id("board")).to_have_attribute("data-ready", "1")
    page.go_back()
    box.get_by_test_id("card-options").click()
    expect(page.get_by_test_id("new-game-game")).to_have_value(name)


def test_a_card_starts_a_game_of_its_variant_against_the_computer(live_server, new_page):
    cls = next(
        registry.game_class(n) for n in ordered_games() if len(registry.game_class(n).VARIANTS) > 1
    )
    variant = cls.VARIANTS[1]
    page = new_page()
    page.goto(f"{live_server.url}/")
    box = card(page, cls.name)
    box.get_by_test_id("card-variant").select_option(variant.key)
    box.get_by_test_id("card-play-ai").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]+$"))
    expect(page.get_by_test_id("game-page")).to_be_visible()
    snap = live_server.api("GET", f"/api/games/{page.url.rsplit('/', 1)[1]}").json()
    assert snap["mode"] == "ai" and snap["ai"]["level"] == "easy", snap
    assert snap["spec"] == cls(**variant.options).spec, snap


def test_a_friend_gets_a_link(live_server, new_page):
    page = new_page()
    page.goto(f"{live_server.url}/")
    card(page, ordered_games()[0]).get_by_test_id("card-play-online").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]+$"))
    snap = live_server.api("GET", f"/api/games/{page.url.rsplit('/', 1)[1]}").json()
    assert snap["mode"] == "online", snap


def test_an_unknown_page_speaks_the_players_language(live_server, new_page):
    page = new_page(locale="ja-JP", extra_http_headers={"Accept-Language": "ja"})
    response = page.goto(f"{live_server.url}/nowhere/at/all")
    assert response is not None and response.status == 404
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert gettext("ja", "Page not found") != "Page not found"
    expect(page.locator("body")).to_contain_text(gettext("ja", "Page not found"))
    # inside the client, a path no page answers
    page.goto(f"{live_server.url}/")
    page.evaluate("() => { history.pushState(null, '', '/no/such/page'); }")
    page.evaluate("() => window.dispatchEvent(new PopStateEvent('popstate'))")
    expect(page.locator("main h1")).to_have_text(gettext("ja", "Not found"))


def test_the_cards_and_the_puzzles_page_fit_a_phone(live_server, new_page, screenshot):
    page = new_page(viewport={"width": 375, "height": 740}, color_scheme="dark")
    page.goto(f"{live_server.url}/")
    for name in ordered_games():
        expect(card(page, name).get_by_test_id("card-board")).to_have_attribute("data-ready", "1")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    screenshot(page, "lobby-cards-phone-dark")
    page.goto(f"{live_server.url}/puzzles/{ordered_games()[0]}")
    expect(page.get_by_test_id("board")).to_have_attribute("data-ready", "1")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    screenshot(page, "puzzles-phone-dark")
