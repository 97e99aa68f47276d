"""The tutorial page (/learn/<game>) in Chromium, played by clicks on the board alone.

- Every game that declares teaching: its whole tutorial completed as a player would, the
  first accepted move of each step played by clicking the board (the cells, and for
  Voldétour the tray's piece, its orientation and the anchor square), then the final link
  starting a game against the ``easy`` computer.  A game without a tutorial yet is skipped
  with a message.
- The page's mechanics, on the small lessons of ``learn_fixture.py`` (a server of their
  own): a wrong try puts the board back with the step's feedback, the hint lights up its
  cells, the solution is named, progress survives a reload and is reset, the lobby links
  to the page, and the page speaks French.

Screenshots: ``test-artifacts/screenshots/learn-<game>*.png`` (the games' tutorials),
``learn-test-<game>*.png`` and ``learn-xobo-*.png`` (the lessons of the tests).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tablier.core.teaching import Lesson, LessonStep
from tablier.games import game_class, names, parse_position
from tablier.server.i18n import gettext
from tablier.server.routers.learn import solution

from .conftest import LiveServer
from .learn_fixture import LESSONS

HERE = Path(__file__).resolve().parent


class FixtureServer(LiveServer):
    """``tablier serve`` whose games teach the lessons of ``learn_fixture.py``."""

    def command(self) -> list[str]:
        """Install the lessons in the server's process, then serve."""
        command = super().command()
        boot = (
            f"import sys; sys.path.insert(0, {str(HERE)!r}); "
            "import learn_fixture; learn_fixture.install(); "
            "from tablier.cli.main import main; main()"
        )
        return [command[0], "-c", boot, *command[3:]]


@pytest.fixture(scope="module")
def fixture_server():
    """A server of its own, teaching the lessons of the tests."""
    workdir = Path(tempfile.mkdtemp(prefix="tablier-learn-"))
    server = FixtureServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def decisions(step: LessonStep) -> list[dict[str, Any]]:
    """The move views of the first accepted moves that play each decision of ``step`` in
    turn (the step's solution)."""
    state = parse_position(step.position)
    path = solution(state, [step.accept, *step.then] if step.accept else [])
    assert path is not None, f"step {step.key}: its accepted moves cannot be played in turn"
    views = []
    for move in path:
        views.append(state.game.move_view(state, move))
        state = state.apply(move)
    return views


def board(page: Page):
    return page.get_by_test_id("board")


def wait_step(page: Page, key: str) -> None:
    """Wait until step ``key`` is drawn with its moves to choose from."""
    expect(board(page)).to_have_attribute("data-step", key)
    expect(board(page)).to_have_attribute("data-ready", "1")


def click_cell(page: Page, cell: str) -> None:
    board(page).locator(f"[data-cell='{cell}'].target").first.click()


def click_volo_flight(page: Page, view: dict[str, Any]) -> None:
    """Select the line (its first bird, then the other end), then the target whose preview
    covers the flight's landing cells, then the region kept when the flight divides."""
    line = view["from"]
    board(page).locator(f"[data-cell='{line[0]}']").click()
    if len(line) > 1:
        board(page).locator(f"[data-cell='{line[-1]}']").click()
    want = sorted(view["to"])
    targets = board(page).locator(".volo-sky .cell.target")
    for k in range(targets.count()):
        target = targets.nth(k)
        target.hover()
        ghost = board(page).locator(".volo-sky .cell.ghost")
        if sorted(ghost.evaluate_all("(els) => els.map((e) => e.dataset.cell)")) == want:
            target.click()
            break
    else:
        raise AssertionError(f"no target of {view['notation']} covers {want}")
    if view.get("keep"):  # the region kept: the choice naming its birds
        birds = "(" + " ".join(view["kept"]) + ")"
        page.get_by_test_id("dialog").locator("button", has_text=birds).click()


def click_voldetour_piece(page: Page, take: dict[str, Any], put: dict[str, Any]) -> None:
    """Take the piece from the tray, choose the put's orientation, click its anchor."""
    if take is not None:
        page.get_by_test_id(f"vd-take-{take['notation']}").click()
    orient = page.get_by_test_id(f"vd-orient-{put['orientation']}")
    if orient.count():
        orient.click()
    click_cell(page, put["anchor"])


def play_step(page: Page, game: str, step: LessonStep) -> None:
    """Play the step's solution by clicks, waiting for each answer."""
    moves = decisions(step)
    i = 0
    while i < len(moves):
        view = moves[i]
        kind = view.get("kind")
        last = i + 1 == len(moves)
        if game == "voldetour" and kind == "take" and not last:
            click_voldetour_piece(page, view, moves[i + 1])
            i += 2
        elif game == "voldetour" and kind == "take":  # the step asks for the take only
            placement = view["placements"][0]
            anchor = next(iter(placement["anchors"]))
            click_voldetour_piece(page, view, {**placement, "anchor": anchor})
            i += 1
        elif game == "voldetour" and kind == "put":
            click_voldetour_piece(page, None, view)
            i += 1
        elif game == "voldetour" and kind == "lord":
            page.get_by_test_id("vd-lord").click()
            click_cell(page, view["to"])
            i += 1
        elif kind in ("end", "pass"):
            page.get_by_test_id(f"{'vd' if game == 'voldetour' else game}-{kind}").click()
            i += 1
        elif game == "volo" and kind == "fly":
            click_volo_flight(page, view)
            i += 1
        elif kind in ("stack", "distribute"):
            board(page).locator(f"[data-cell='{view['from']}']").click()
            click_cell(page, view["to"])
            i += 1
        else:  # a placement: XoBo's cube, Volo's new bird
            click_cell(page, view["to"][0] if isinstance(view["to"], list) else view["to"])
            i += 1
        feedback = page.get_by_test_id("learn-feedback")
        kind_wanted = "success" if i >= len(moves) else "good"
        expect(feedback).to_have_attribute("data-kind", kind_wanted)
        if i < len(moves):
            expect(board(page)).to_have_attribute("data-ready", "1")


def complete_tutorial(
    page: Page, base: str, game: str, lesson: Lesson, screenshot, shots: str
) -> str:
    """Complete the tutorial of ``game`` by clicks; start the final game; its id."""
    page.goto(f"{base}/learn/{game}")
    steps = lesson.steps
    for n, step in enumerate(steps):
        wait_step(page, step.key)
        if step.accept:
            play_step(page, game, step)
        expect(page.get_by_test_id("learn-next")).to_be_visible()
        expect(page.locator(f"[data-testid=learn-step][data-step='{step.key}']")).to_have_attribute(
            "data-done", "1"
        )
        if n == 0:
            screenshot(page, f"{shots}-first-done")
        if n + 1 < len(steps):
            page.get_by_test_id("learn-next").click()
    expect(page.get_by_test_id("learn-progress")).to_have_attribute("value", str(len(steps)))
    final = page.get_by_test_id("learn-final")
    expect(final).to_be_visible()
    screenshot(page, f"{shots}-final")
    final.get_by_test_id("learn-play").click()
    page.wait_for_url(re.compile(r".*/g/[A-Za-z0-9_-]+$"))
    expect(page.get_by_test_id("game-page")).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def check_final_game(server, game_id: str, lesson: Lesson) -> None:
    snap = server.api("GET", f"/api/games/{game_id}").json()
    assert snap["mode"] == "ai" and snap["ai"]["level"] == "easy", snap
    name, _, options = lesson.final_game.partition(":")
    assert snap["game"] == name
    want = dict(part.split("=", 1) for part in options.split(",") if part)
    assert all(f"{k}={v}" in snap["spec"] for k, v in want.items()), (snap["spec"], want)


@pytest.mark.parametrize("game", sorted(names()))
def test_each_tutorial_is_completed_by_clicks(live_server, new_page, screenshot, game):
    taught = game_class(game).teaching()
    if taught is None:
        pytest.skip(f"{game} declares no teaching yet (Game.teaching)")
    page = new_page()
    game_id = complete_tutorial(
        page, live_server.url, game, taught.lesson, screenshot, f"learn-{game}"
    )
    check_final_game(live_server, game_id, taught.lesson)


@pytest.mark.parametrize("game", sorted(LESSONS))
def test_the_test_tutorials_are_completed_by_clicks(fixture_server, new_page, screenshot, game):
    page = new_page()
    game_id = complete_tutorial(
        page, fixture_server.url, game, LESSONS[game], screenshot, f"learn-test-{game}"
    )
    check_final_game(fixture_server, game_id, LESSONS[game])


def test_a_wrong_try_the_hint_and_the_solution(fixture_server, new_page, screenshot):
    page = new_page()
    page.goto(f"{fixture_server.url}/learn/xobo")
    wait_step(page, "place")
    expect(page.get_by_test_id("learn-task")).to_have_text("Play")
    click_cell(page, "a1")
    feedback = page.get_by_test_id("learn-feedback")
    expect(feedback).to_have_attribute("data-kind", "wrong")
    expect(feedback).to_have_text("Try again")  # the step's own text for a wrong move
    expect(board(page).locator("[data-cell='a1']")).to_have_attribute("data-height", "0")
    expect(board(page).locator("[data-cell].target")).to_have_count(81)  # try again
    expect(page.get_by_test_id("learn-next")).to_be_hidden()
    expect(page.locator("[data-testid=learn-step][data-step=place]")).to_have_attribute(
        "data-done", "0"
    )

    expect(board(page).locator(".hint-cell")).to_have_count(0)
    page.get_by_test_id("learn-hint").click()
    expect(page.get_by_test_id("learn-hint-text")).to_have_text("Hint")
    expect(board(page).locator(".hint-cell")).to_have_count(1)
    expect(board(page).locator("[data-cell='e5'].hint-cell")).to_have_count(1)
    expect(page.locator(".learn-hint-ring")).to_have_count(1)  # drawn over the board
    screenshot(page, "learn-xobo-hint")

    page.get_by_test_id("learn-solution").click()
    expect(feedback).to_have_attribute("data-kind", "solution")
    expect(feedback).to_contain_text("e5")
    expect(board(page).locator("[data-cell='e5']")).to_have_attribute("data-height", "0")
    click_cell(page, "e5")
    expect(feedback).to_have_attribute("data-kind", "success")
    expect(feedback).to_have_text("Well done!")
    expect(board(page).locator("[data-cell='e5']")).to_have_attribute("data-height", "1")


def test_the_reply_is_played_and_progress_survives_a_reload(fixture_server, new_page):
    page = new_page()
    page.goto(f"{fixture_server.url}/learn/xobo")
    wait_step(page, "place")
    click_cell(page, "e5")
    expect(page.get_by_test_id("learn-next")).to_be_visible()
    page.get_by_test_id("learn-next").click()
    wait_step(page, "read")
    expect(page.get_by_test_id("learn-solution")).to_be_hidden()
    page.get_by_test_id("learn-next").click()
    wait_step(page, "answered")
    click_cell(page, "f6")
    feedback = page.get_by_test_id("learn-feedback")
    expect(feedback).to_have_attribute("data-kind", "success")
    expect(feedback).to_contain_text("a1")  # the reply, named and drawn
    expect(board(page).locator("[data-cell='a1']")).to_have_attribute("data-height", "1")
    expect(page.get_by_test_id("learn-final")).to_be_visible()

    page.get_by_test_id("learn-step").nth(1).click()
    wait_step(page, "read")
    page.reload()
    wait_step(page, "read")  # resumed where it was left
    done = page.locator("[data-testid=learn-step][data-done='1']")
    expect(done).to_have_count(3)
    expect(page.get_by_test_id("learn-progress")).to_have_attribute("value", "3")

    page.get_by_test_id("learn-reset").click()
    page.get_by_test_id("dialog-yes").click()
    wait_step(page, "place")
    expect(done).to_have_count(0)
    page.reload()
    wait_step(page, "place")
    expect(done).to_have_count(0)


def test_the_lobby_links_to_the_tutorial(fixture_server, new_page):
    page = new_page()
    page.goto(f"{fixture_server.url}/")
    page.select_option("[data-testid=new-game-game]", "volo")
    page.get_by_test_id("learn-link").click()
    page.wait_for_url(re.compile(r".*/learn/volo$"))
    wait_step(page, "add")
    expect(page.locator("h1")).to_have_text("Tutorial")


def test_an_unknown_tutorial_says_so(fixture_server, new_page):
    page = new_page()
    response = page.goto(f"{fixture_server.url}/learn/nosuchgame")
    assert response is not None and response.status == 404
    page.goto(f"{fixture_server.url}/")
    page.evaluate("() => { history.pushState(null, '', '/learn/nosuchgame'); }")
    page.evaluate("() => window.dispatchEvent(new PopStateEvent('popstate'))")
    expect(page.get_by_test_id("learn-error")).to_be_visible()


@pytest.mark.parametrize(("lang", "locale"), [("fr", "fr-FR"), ("ja", "ja-JP")])
def test_the_page_speaks_the_players_language(fixture_server, new_page, screenshot, lang, locale):
    page = new_page(locale=locale, extra_http_headers={"Accept-Language": lang})
    page.goto(f"{fixture_server.url}/learn/xobo")
    wait_step(page, "place")
    for message in ("Hint", "Start again", "Try again", "Show the solution"):
        assert gettext(lang, message) != message, (lang, message)
    expect(page.get_by_test_id("learn-hint")).to_have_text(gettext(lang, "Hint"))
    expect(page.get_by_test_id("learn-reset")).to_have_text(gettext(lang, "Start again"))
    expect(page.get_by_test_id("learn-solution")).to_have_text(gettext(lang, "Show the solution"))
    expect(page.get_by_test_id("learn-task")).to_have_text(gettext(lang, "Play"))  # the lesson's
    click_cell(page, "a1")
    expect(page.get_by_test_id("learn-feedback")).to_have_text(gettext(lang, "Try again"))
    screenshot(page, f"learn-xobo-{lang}")


def test_the_page_fits_a_phone(fixture_server, new_page, screenshot):
    page = new_page(viewport={"width": 375, "height": 800}, color_scheme="dark")
    page.goto(f"{fixture_server.url}/learn/volo")
    wait_step(page, "add")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} px wide at 375 px"
    box = board(page).bounding_box()
    assert box is not None and box["width"] >= 300
    screenshot(page, "learn-volo-phone-dark", full_page=True)
