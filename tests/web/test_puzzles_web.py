"""The puzzles page (/puzzles/<game>) in Chromium, solved by clicks on the board alone.

- Every game that ships puzzles: one of its puzzles solved as a player would, the
  attacker's moves of the API's solution clicked on the board, the defender's replies
  played by the server in between.
- A wrong try: the feedback, the board back where it was, the streak at 0; the puzzle then
  solved "with help".
- A clean solve raises the streak and the rating, which survive a reload.
- The hint rings a cell of the first move; the solution is named.

Screenshots: ``test-artifacts/screenshots/puzzles-<game>*.png``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tablier import games as registry
from tablier.ai import puzzles as lib
from tablier.server.i18n import gettext

from .test_learn_web import click_cell, click_voldetour_piece, click_volo_flight


def _sets() -> list[tuple[str, str, str]]:
    """(game, variant, spec) of the first set of every game that ships puzzles."""
    out = []
    for name in registry.names():
        cls = registry.game_class(name)
        for variant in cls.VARIANTS or ():
            game = cls(**variant.options)
            if lib.load_shipped(game):
                out.append((name, variant.key, game.spec))
                break
    return out


SETS = _sets()


def board(page: Page):
    return page.get_by_test_id("board")


def puzzle_of(spec: str, depth: int | None = None) -> lib.Puzzle:
    """The first puzzle of ``spec`` (of ``depth`` when given, else the deepest up to 3)."""
    every = lib.load_shipped(registry.from_spec(spec))
    if depth is not None:
        return next(p for p in every if p.depth == depth)
    return max((p for p in every if p.depth <= 3), key=lambda p: p.depth)


def open_puzzle(page: Page, base: str, game: str, variant: str, puzzle: lib.Puzzle) -> None:
    page.goto(f"{base}/puzzles/{game}?set={variant}&id={puzzle.id}")
    expect(board(page)).to_have_attribute("data-puzzle", puzzle.id)
    expect(board(page)).to_have_attribute("data-ready", "1")


def turns(puzzle: lib.Puzzle) -> list[tuple[int, list[dict[str, Any]]]]:
    """The attacker's runs of decisions in the solution: (moves played before the run,
    the move views of the run)."""
    state = puzzle.state()
    rules = state.game
    attacker = state.to_move
    out: list[tuple[int, list[dict[str, Any]]]] = []
    for index, text in enumerate(puzzle.solution):
        move = rules.parse_move(state, text)
        if state.to_move == attacker:
            if out and out[-1][0] + len(out[-1][1]) == index:
                out[-1][1].append(rules.move_view(state, move))
            else:
                out.append((index, [rules.move_view(state, move)]))
        state = state.apply(move)
    return out


def click_decisions(page: Page, game: str, views: list[dict[str, Any]], before: int) -> None:
    """Play the decisions ``views`` by clicks, waiting for each answer (``before`` moves were
    played before the first)."""
    i = 0
    while i < len(views):
        view = views[i]
        kind = view.get("kind")
        if game == "voldetour" and kind == "take" and i + 1 < len(views):
            click_voldetour_piece(page, view, views[i + 1])
            i += 2
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
        page.wait_for_function(
            "(n) => { const b = document.querySelector('[data-testid=board]');"
            " return b.dataset.ready === '1' && b.dataset.moves !== String(n); }",
            arg=before,
        )
        before = int(board(page).get_attribute("data-moves") or 0)


def solve(page: Page, game: str, puzzle: lib.Puzzle) -> None:
    """Click the attacker's moves of the solution; the server replies in between."""
    for before, views in turns(puzzle):
        expect(board(page)).to_have_attribute("data-moves", str(before))
        click_decisions(page, game, views, before)
    expect(page.get_by_test_id("puzzle-feedback")).to_have_attribute("data-kind", "success")
    expect(page.get_by_test_id("puzzle-next")).to_be_visible()


@pytest.mark.skipif(not SETS, reason="no game ships puzzles")
@pytest.mark.parametrize(("game", "variant", "spec"), SETS, ids=[s[0] for s in SETS])
def test_a_puzzle_of_each_game_is_solved_by_clicks(
    live_server, new_page, screenshot, game, variant, spec
):
    page = new_page()
    puzzle = puzzle_of(spec)
    open_puzzle(page, live_server.url, game, variant, puzzle)
    expect(page.get_by_test_id("puzzle-streak")).to_have_text("0")
    screenshot(page, f"puzzles-{game}")
    solve(page, game, puzzle)
    expect(page.get_by_test_id("puzzle-streak")).to_have_text("1")
    screenshot(page, f"puzzles-{game}-solved")


def _xobo_wrong_try(puzzles: list[lib.Puzzle]) -> tuple[lib.Puzzle, str]:
    """A puzzle of one decision and a cell where placing a cube is legal but loses it."""
    for puzzle in puzzles:
        state = puzzle.state()
        rules = state.game
        for move in state.legal_moves():
            view = rules.move_view(state, move)
            if (
                puzzle.depth == 1
                and view["kind"] == "place"
                and view["notation"] != puzzle.solution[0]
            ):
                return puzzle, view["to"]
    raise AssertionError("no XoBo puzzle of one decision with a wrong placement")


def test_a_wrong_try_then_the_solve_and_the_streak_after_a_reload(live_server, new_page):
    spec = registry.from_spec("xobo").spec
    if not lib.load_shipped(registry.from_spec(spec)):
        pytest.skip("XoBo ships no puzzles yet")
    page = new_page()
    every = lib.load_shipped(registry.from_spec(spec))
    puzzle, wrong = _xobo_wrong_try(every)
    open_puzzle(page, live_server.url, "xobo", "xobo", puzzle)
    click_cell(page, wrong)
    feedback = page.get_by_test_id("puzzle-feedback")
    expect(feedback).to_have_attribute("data-kind", "wrong")
    expect(feedback).to_have_text(gettext("en", "That move does not win: try again."))
    expect(board(page)).to_have_attribute("data-moves", "0")
    rating_after_miss = int(page.get_by_test_id("puzzle-rating").inner_text())
    assert rating_after_miss < 1000, "a miss lowers the rating"
    solve(page, "xobo", puzzle)
    expect(feedback).to_have_text(gettext("en", "Solved, with help: the streak starts again."))
    expect(page.get_by_test_id("puzzle-streak")).to_have_text("0")
    # the next puzzle, solved cleanly: the streak and the rating go up, and stay after a reload
    other = next(p for p in every if p.depth == 1 and p.id != puzzle.id)
    open_puzzle(page, live_server.url, "xobo", "xobo", other)
    solve(page, "xobo", other)
    expect(page.get_by_test_id("puzzle-streak")).to_have_text("1")
    rating = int(page.get_by_test_id("puzzle-rating").inner_text())
    assert rating > rating_after_miss
    page.reload()
    expect(board(page)).to_have_attribute("data-ready", "1")
    expect(page.get_by_test_id("puzzle-streak")).to_have_text("1")
    expect(page.get_by_test_id("puzzle-best")).to_have_text("1")
    expect(page.get_by_test_id("puzzle-rating")).to_have_text(str(rating))


def test_the_hint_and_the_solution(live_server, new_page):
    spec = registry.from_spec("volo:board=mini").spec
    page = new_page()
    puzzle = puzzle_of(spec)
    open_puzzle(page, live_server.url, "volo", "mini", puzzle)
    page.get_by_test_id("puzzle-hint").click()
    first = re.split(r"[^A-Za-z0-9]+", puzzle.solution[0])[0]
    expect(page.get_by_test_id("puzzle-hint-text")).to_contain_text(first)
    expect(board(page).locator(f"[data-cell='{first}'].hint-cell").first).to_be_attached()
    page.get_by_test_id("puzzle-solution").click()
    expect(page.get_by_test_id("puzzle-solution-text")).to_contain_text(puzzle.solution[0])
    expect(page.get_by_test_id("puzzle-streak")).to_have_text("0")


def test_an_unknown_game_has_no_puzzles_page_in_the_players_language(live_server, new_page):
    page = new_page(locale="fr-FR", extra_http_headers={"Accept-Language": "fr"})
    response = page.goto(f"{live_server.url}/puzzles/nosuchgame")
    assert response is not None and response.status == 404
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.goto(f"{live_server.url}/")
    page.evaluate("() => { history.pushState(null, '', '/puzzles/nosuchgame'); }")
    page.evaluate("() => window.dispatchEvent(new PopStateEvent('popstate'))")
    expect(page.get_by_test_id("puzzles-error")).to_have_text(
        gettext("fr", "There are no puzzles for this game.")
    )
