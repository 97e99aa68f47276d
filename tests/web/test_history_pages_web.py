"""A game longer than one page of history shows its whole move list and navigates to its
first position: the client loads the history page by page (a server with 10-decision pages)."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer
from .web_helpers import create_game, move_texts, open_seat

PAGE = 10


class SmallPageServer(LiveServer):
    """``tablier serve`` whose history pages hold ``PAGE`` decisions (no AI workers)."""

    def environment(self) -> dict[str, str]:
        return {
            **super().environment(),
            "TABLIER_HISTORY_PAGE": str(PAGE),
            "TABLIER_AI_WORKERS": "0",
        }


@pytest.fixture(scope="module")
def small_page_server():
    workdir = Path(tempfile.mkdtemp(prefix="tablier-web-pages-"))
    server = SmallPageServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def play_random(server, made: dict, plies: int, seed: int) -> list[str]:
    """Play up to ``plies`` random legal decisions through the API; the notations played."""
    rng, gid, token = random.Random(seed), made["id"], made["tokens"]["both"]
    played: list[str] = []
    for ply in range(plies):
        legal = server.api("GET", f"/api/games/{gid}/legal").json()["moves"]
        if not legal:
            break
        move = rng.choice(legal)["notation"]
        r = server.api(
            "POST", f"/api/games/{gid}/moves", token=token, json={"ply": ply, "move": move}
        )
        assert r.status_code == 200, r.text
        played.append(move)
    return played


def heights_of(view: dict) -> list[int]:
    return sorted(h for row in view["heights"] for h in row)


def board_heights(page) -> list[int]:
    return sorted(
        page.locator("[data-cell]").evaluate_all(
            "els => els.map((e) => Number(e.dataset.height || 0))"
        )
    )


def test_a_game_of_several_pages_shows_every_move_and_goes_back_to_the_start(
    small_page_server, new_page
):
    server = small_page_server
    made = create_game(server, "xobo", mode="local")
    played = play_random(server, made, 26, seed=4)
    total = len(played)
    assert total > 2 * PAGE, "the random game ended early: pick another seed"

    def view_at(ply: int) -> dict:
        answer = server.api("GET", f"/api/games/{made['id']}/history?from={ply}&limit=1")
        return answer.json()["views"][0]

    page = new_page()
    responses = []
    page.on("response", lambda r: responses.append(r) if "/history?" in r.url else None)

    def answered() -> list[dict]:
        return [r.json() for r in responses]

    open_seat(page, server, made["id"], None)

    # The whole move list at once (the notations come with the game), the latest position.
    expect(page.get_by_test_id("move-item")).to_have_count(total)
    assert move_texts(page) == played
    expect(page.get_by_test_id("ply-label")).to_have_text(f"move {total} (latest)")
    assert board_heights(page) == heights_of(view_at(total))
    pages = answered()
    assert pages and all(len(p["moves"]) <= PAGE for p in pages)
    assert {p["total"] for p in pages} == {total}
    loaded = len(pages)
    assert any(p["from"] == total - PAGE for p in pages)  # the latest page came first

    # Back move by move across a page boundary: older pages come when needed.
    body = page.locator("body")
    for _ in range(PAGE + 2):
        body.press("ArrowLeft")
    back = total - PAGE - 2
    expect(page.get_by_test_id("ply-label")).to_have_text(f"move {back} of {total}")
    expect(page.get_by_test_id("board")).not_to_have_class("loading")
    expect(page.locator(f"[data-testid=move-item][data-ply='{back}']")).to_have_attribute(
        "aria-current", "step"
    )
    assert board_heights(page) == heights_of(view_at(back))
    assert len(answered()) > loaded

    # The first position (Home), then the first move from the move list.
    body.press("Home")
    expect(page.get_by_test_id("ply-label")).to_have_text(f"move 0 of {total}")
    expect(page.get_by_test_id("board")).not_to_have_class("loading")
    expect(page.locator("[data-cell]").first).to_be_visible()
    assert board_heights(page) == heights_of(view_at(0)) and sum(board_heights(page)) == 0
    page.locator("[data-testid=move-item][data-ply='1']").click()
    expect(page.get_by_test_id("ply-label")).to_have_text(f"move 1 of {total}")
    expect(page.locator(f"[data-cell='{played[0]}'].last")).to_have_count(1)
    assert board_heights(page) == heights_of(view_at(1))
    assert all(len(p["moves"]) <= PAGE for p in answered())

    # Forward to the end again, through every page: each position drawn is the server's.
    for ply in range(2, total + 1):
        body.press("ArrowRight")
        label = f"move {total} (latest)" if ply == total else f"move {ply} of {total}"
        expect(page.get_by_test_id("ply-label")).to_have_text(label)
    assert board_heights(page) == heights_of(view_at(total))
