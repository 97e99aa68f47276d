"""Unknown paths and games: an HTML page for browsers, JSON under /api/; 405 with Allow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tablier.server.pages import TEXT

from .conftest import new_game


def is_page(response, status: int) -> str:
    """The body of an HTML error page answered with ``status`` (checking its shape)."""
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"].startswith("text/html")
    assert response.text.startswith("<!doctype html>")
    assert '{"error"' not in response.text
    assert response.headers["x-content-type-options"] == "nosniff"
    return response.text


@pytest.mark.parametrize("path", ["/nothing-here", "/g", "/static/missing.js", "/review/x/y"])
def test_unknown_paths_get_a_page(shared_client, path):
    body = is_page(shared_client.get(path), 404)
    assert TEXT["not_found"]["heading"] in body and 'href="/"' in body


@pytest.mark.parametrize("path", ["/api/nothing", "/api/games/abc/nothing", "/api", "/api/docs"])
def test_unknown_api_paths_get_json(shared_client, path):
    r = shared_client.get(path)
    assert r.status_code == 404 and r.headers["content-type"] == "application/json"
    assert r.json()["error"]["code"] == "not_found"


def test_an_unknown_game_gets_a_page_not_an_empty_board(shared_client):
    body = is_page(shared_client.get("/g/NoSuchGame123"), 404)
    assert TEXT["no_game"]["heading"] in body and "NoSuchGame123" in body
    assert "/static/app.js" not in body  # not the client, which would draw an empty game
    # An id that cannot be one, with markup in it, is escaped.
    body = is_page(shared_client.get("/g/%3Cscript%3Ex"), 404)
    assert "<script>" not in body
    # A game that exists gets the client.
    gid = new_game(shared_client)["id"]
    r = shared_client.get(f"/g/{gid}")
    assert r.status_code == 200 and "/static/app.js" in r.text


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/api/games", "GET, POST"),
        ("PUT", "/api/games/abc/moves", "POST"),
        ("POST", "/api/health", "GET"),
        ("PATCH", "/api/records/parse", "POST"),
    ],
)
def test_wrong_method_is_405_with_allow(shared_client, method, path, allow):
    r = shared_client.request(method, path)
    assert r.status_code == 405 and r.headers["allow"] == allow
    assert r.json()["error"]["code"] == "method_not_allowed"


def test_wrong_method_on_a_page_is_a_page(shared_client):
    r = shared_client.post("/")
    is_page(r, 405)
    assert r.headers["allow"] == "GET"


def test_every_page_string_is_in_one_table():
    from tablier.server import pages

    source = Path(pages.__file__).read_text(encoding="utf-8")
    template = source.split("_TEMPLATE = ", 1)[1].split('"""', 2)[1]
    # The template holds markup and placeholders only: every word shown comes from TEXT.
    text = template
    for tag in ("{title}", "{site}", "{heading}", "{message}", "{home}", "{status}"):
        text = text.replace(tag, "")
    visible = re.sub(r"<[^>]*>", " ", text).split()
    assert visible == ["·"], visible
