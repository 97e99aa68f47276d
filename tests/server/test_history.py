"""``GET /api/games/{id}/history``: pages of bounded size that cover a game of any length."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import tablier.games
from tablier.server.app import create_app
from tablier.server.settings import HISTORY_PAGE_MAX

from .conftest import make_settings, new_game, play_random


def engine_history(name: str, notations: list[str]) -> tuple[list[dict], list[dict]]:
    """Every position's view and every decision's view, replayed by the engine."""
    game = tablier.games.get(name)
    state = game.initial_state()
    views, moves = [game.state_view(state)], []
    for text in notations:
        move = game.parse_move(state, text)
        moves.append(game.move_view(state, move))
        state = state.apply(move)
        views.append(game.state_view(state))
    return views, moves


def walk_forward(client: TestClient, gid: str, query: str = "") -> list[dict]:
    """Every page from the start, following ``next``."""
    pages, start = [], 0
    while start is not None:
        page = client.get(f"/api/games/{gid}/history?from={start}{query}").json()
        pages.append(page)
        start = page["next"]
    return pages


def joined(pages: list[dict]) -> tuple[list[dict], list[dict]]:
    """The views and move views of consecutive pages (the shared positions once)."""
    views, moves = [], []
    for page in pages:
        assert not views or views[-1] == page["views"][0]  # a page starts where one ended
        views += page["views"][1:] if views else page["views"]
        moves += page["moves"]
    return views, moves


@pytest.fixture(scope="module")
def small_pages(tmp_path_factory):
    """An application whose history pages hold 7 decisions, and a game of 30 of them."""
    path = tmp_path_factory.mktemp("history") / "h.db"
    app = create_app(make_settings(f"sqlite:///{path}", ai_workers=0, history_page=7))
    with TestClient(app) as client:
        created = new_game(client, "volo", "local")
        snap = play_random(client, created, 30, seed=3)
        assert snap["ply"] == 30 and snap["status"] == "active"
        yield client, created["id"], snap


def test_pages_cover_the_whole_game_in_windows(small_pages):
    client, gid, snap = small_pages
    first = client.get(f"/api/games/{gid}/history").json()
    assert (first["from"], first["limit"], first["total"]) == (0, 7, 30)
    assert (len(first["views"]), len(first["moves"])) == (8, 7)
    assert (first["next"], first["prev"]) == (7, None)
    pages = walk_forward(client, gid)
    assert [p["from"] for p in pages] == [0, 7, 14, 21, 28]
    assert [len(p["moves"]) for p in pages] == [7, 7, 7, 7, 2]
    views, moves = joined(pages)
    want_views, want_moves = engine_history("volo", snap["moves"])
    assert views == want_views and moves == want_moves
    assert views[-1] == snap["view"] and pages[-1]["next"] is None
    # Backwards from the latest page, following ``prev``: the same positions.
    page = client.get(f"/api/games/{gid}/history?from=23").json()
    assert (page["views"][0], page["views"][-1], page["prev"]) == (views[23], views[30], 16)
    back = [page]
    while back[-1]["prev"] is not None:
        back.append(client.get(f"/api/games/{gid}/history?from={back[-1]['prev']}").json())
    assert [p["from"] for p in back] == [23, 16, 9, 2, 0]
    assert back[-1]["views"][:3] == views[:3]


def test_windows_at_the_edges_and_limits_below_the_page(small_pages):
    client, gid, snap = small_pages
    views, _ = engine_history("volo", snap["moves"])
    page = client.get(f"/api/games/{gid}/history?from=10&limit=3").json()
    assert page["views"] == views[10:14] and len(page["moves"]) == 3
    assert (page["limit"], page["next"], page["prev"]) == (3, 13, 7)
    # A limit over the server's page is cut to it (the answer says so).
    page = client.get(f"/api/games/{gid}/history?limit={HISTORY_PAGE_MAX}").json()
    assert page["limit"] == 7 and len(page["moves"]) == 7
    # The last position alone, then past the end: an empty page, never an error.
    page = client.get(f"/api/games/{gid}/history?from=30").json()
    assert page["views"] == [snap["view"]] and page["moves"] == []
    assert (page["next"], page["prev"]) == (None, 23)
    page = client.get(f"/api/games/{gid}/history?from=31").json()
    assert (page["views"], page["moves"], page["next"], page["prev"]) == ([], [], None, None)
    assert page["total"] == 30


@pytest.mark.parametrize(
    "query",
    [
        "from=-1",
        "from=x",
        "from=1.5",
        f"from={10**9 + 1}",
        "from=" + "9" * 5000,
        "limit=0",
        f"limit={HISTORY_PAGE_MAX + 1}",
        "limit=-3",
        "limit=ten",
        "limit=",
    ],
)
def test_bad_page_parameters_are_422(small_pages, query):
    client, gid, _ = small_pages
    r = client.get(f"/api/games/{gid}/history?{query}")
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "invalid_request"


def test_an_unknown_game_is_404(small_pages):
    client, _, _ = small_pages
    r = client.get("/api/games/nosuchgame/history?from=0&limit=5")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_a_game_longer_than_the_default_page(sqlite_url):
    """A game past the default page and past ``max_record_plies`` is served, page by page."""
    settings = make_settings(sqlite_url, ai_workers=0, max_record_plies=40)
    assert settings.history_page == HISTORY_PAGE_MAX
    with TestClient(create_app(settings)) as client:
        created = new_game(client, "volo", "local")
        snap = play_random(client, created, HISTORY_PAGE_MAX + 12, seed=5)
        total = snap["ply"]
        assert total == HISTORY_PAGE_MAX + 12, "the random game ended early: pick a seed"
        first = client.get(f"/api/games/{created['id']}/history").json()
        assert first["total"] == total and len(first["moves"]) == HISTORY_PAGE_MAX
        assert first["next"] == HISTORY_PAGE_MAX
        pages = walk_forward(client, created["id"])
        assert len(pages) == 2
        views, moves = joined(pages)
        assert (views, moves) == engine_history("volo", snap["moves"])
