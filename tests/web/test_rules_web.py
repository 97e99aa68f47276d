"""The rules pages in Chromium: /rules/<game> in English, French and Japanese.

For each game, in each language: the page is in that language (its title and sections are the
API's), the table of contents lists every section, a variant section carries its badge, a
diagram with several frames steps forward and back with ‹ › (its caption follows), the
board modules that draw diagrams show the frame's lit cells, arrows and crosses, and a
screenshot of the whole page is saved as ``test-artifacts/rules-<game>-<lang>.png``.

The server here gives a small fake teaching (``tests/core/teachfake.py``) to every game that
declares none yet, so that the page is tested on every board module; a game's own teaching
is used as soon as it has one.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

import tablier.games

from .conftest import ROOT, LiveServer

ARTIFACTS = ROOT / "test-artifacts"
TESTS = Path(__file__).resolve().parents[1]
GAMES = tablier.games.names()  # every registered game: its own teaching, or the fake one
LANGS = ["en", "fr", "ja"]


#: Whether a game's board module has drawDiagram (docs/web-client.md, "Diagrams").
DRAWS_DIAGRAMS = """async (game) => {
  const module = await import(`/static/games/${game}.js`);
  const board = module.createBoard(document.createElement("div"), {});
  const draws = typeof board.drawDiagram === "function";
  if (board.destroy) board.destroy();
  return draws;
}"""


class TaughtServer(LiveServer):
    """``tablier serve`` with the fake teaching given to the games that have none."""

    def command(self) -> list[str]:
        command = super().command()
        start = (
            f"import sys; sys.path.insert(0, {str(TESTS)!r}); "
            "from core.teachfake import install; install(); "
            "from tablier.cli.main import main; main()"
        )
        return [command[0], "-c", start, *command[3:]]


@pytest.fixture(scope="module")
def taught_server():
    workdir = Path(tempfile.mkdtemp(prefix="tablier-rules-"))
    server = TaughtServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def first_stepped(doc: dict) -> tuple[int, dict] | None:
    """The first diagram (its number on the page) with more than one frame."""
    number = 0
    for section in doc["rules"]["sections"]:
        for diagram in section["diagrams"]:
            if len(diagram["frames"]) > 1:
                return number, diagram
            number += 1
    return None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_rules_page(taught_server, new_page, game, lang):
    doc = httpx.get(f"{taught_server.url}/api/teaching/{game}?lang={lang}", timeout=30).json()
    page = new_page(locale=lang, extra_http_headers={"Accept-Language": lang})
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if m.type == "error" else None)
    page.goto(f"{taught_server.url}/rules/{game}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    rules_page = page.get_by_test_id("rules-page")
    expect(rules_page).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("h1")).to_have_text(doc["rules"]["title"])
    sections = doc["rules"]["sections"]
    expect(page.locator("[data-testid=rules-toc] li")).to_have_count(len(sections))
    for section in sections:
        box = page.get_by_test_id(f"section-{section['key']}")
        expect(box.locator("h2")).to_have_text(section["title"])
        badge = box.get_by_test_id("variant-badge")
        expect(badge).to_have_count(1 if section["variant"] else 0)
        if section["variant"]:
            expect(box).to_have_class("rules-section variant")
            expect(badge).to_contain_text(section["variant"])
    expect(page.get_by_test_id("rules-learn")).to_have_attribute("href", f"/learn/{game}")

    found = first_stepped(doc)
    assert found is not None, f"{game}: no diagram to step through"
    number, diagram = found
    figure = page.get_by_test_id(f"diagram-{number}")
    caption = figure.get_by_test_id("diagram-caption")
    frames = diagram["frames"]
    expect(caption).to_contain_text(frames[0]["caption"])
    expect(figure.get_by_test_id("diagram-prev")).to_be_disabled()
    # a board module with drawDiagram draws the marks; without it, the caption lists them
    draws_marks = page.evaluate(DRAWS_DIAGRAMS, game)
    exact = game in ("volo", "xobo")  # one shape per mark; others may draw one per view
    board = figure.get_by_test_id("diagram-board")
    for index, frame in enumerate(frames):
        if index:
            figure.get_by_test_id("diagram-next").click()
        expect(figure).to_have_attribute("data-frame", str(index))
        expect(caption).to_contain_text(frame["caption"])
        if frame["move"]:
            expect(caption).to_contain_text(frame["move"])
        expect(figure.get_by_test_id("diagram-counter")).to_have_text(
            f"{index + 1} / {len(frames)}"
        )
        if not draws_marks:
            for cell in frame["highlights"] + frame["marks"]:
                expect(caption).to_contain_text(cell)
            continue
        if exact:
            expect(board.locator(".diagram-highlight")).to_have_count(len(frame["highlights"]))
            expect(board.locator(".diagram-arrow")).to_have_count(len(frame["arrows"]))
            expect(board.locator(".diagram-mark")).to_have_count(len(frame["marks"]))
        for cell in frame["highlights"]:
            expect(board.locator(f"[data-cell='{cell}'].highlighted").first).to_be_attached()
        for a, b in frame["arrows"]:
            arrow = board.locator(f".diagram-arrow[data-from='{a}'][data-to='{b}']")
            expect(arrow.first).to_be_attached()
        for cell in frame["marks"]:
            expect(board.locator(f".diagram-mark[data-cell='{cell}']").first).to_be_attached()
    expect(figure.get_by_test_id("diagram-next")).to_be_disabled()
    figure.get_by_test_id("diagram-prev").click()
    expect(figure).to_have_attribute("data-frame", str(len(frames) - 2))
    expect(caption).to_contain_text(frames[-2]["caption"])
    # nothing on a diagram can be played
    expect(figure.locator(".target")).to_have_count(0)

    # print: the controls go, every caption of every frame is listed
    page.emulate_media(media="print")
    expect(page.locator(".rules-tools")).to_be_hidden()
    expect(figure.get_by_test_id("diagram-all-captions").locator("li")).to_have_count(len(frames))
    expect(figure.get_by_test_id("diagram-all-captions")).to_be_visible()
    # printed, every board shows its first frame; afterwards the reader's frame comes back
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    expect(figure).to_have_attribute("data-frame", "0")
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    expect(figure).to_have_attribute("data-frame", str(len(frames) - 2))
    page.emulate_media(media="screen")
    page.locator("[data-testid=diagram-0]").scroll_into_view_if_needed()

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"rules-{game}-{lang}.png"), full_page=True)
    assert not [v for v in violations if "Content Security Policy" in v], violations
    assert not violations, violations


def test_rules_are_linked_from_the_game_page(taught_server, new_page):
    created = taught_server.api("POST", "/api/games", json={"game": "volo", "mode": "local"}).json()
    page = new_page()
    page.goto(f"{taught_server.url}/g/{created['id']}")
    link = page.get_by_test_id("rules-link")
    expect(link).to_have_attribute("href", "/rules/volo")
    link.click()
    expect(page.get_by_test_id("rules-page")).not_to_have_attribute("aria-busy", "true")
    expect(page.get_by_test_id("rules-toc")).to_be_visible()


def test_an_unknown_game_has_no_rules_page(taught_server, new_page):
    page = new_page(locale="fr", extra_http_headers={"Accept-Language": "fr"})
    response = page.goto(f"{taught_server.url}/rules/nosuchgame")
    assert response is not None and response.status == 404
    expect(page.locator("body")).to_contain_text("Page introuvable")


def test_rules_are_linked_from_the_lobby(taught_server, new_page):
    page = new_page(locale="fr", extra_http_headers={"Accept-Language": "fr"})
    page.goto(f"{taught_server.url}/")
    for game in GAMES:
        page.select_option("[data-testid=new-game-game]", game)
        link = page.locator("[data-testid=new-game-form] [data-testid=rules-link]")
        expect(link).to_have_attribute("href", f"/rules/{game}")
        expect(link).to_contain_text("Règles de")
    link.click()
    expect(page.get_by_test_id("rules-page")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
