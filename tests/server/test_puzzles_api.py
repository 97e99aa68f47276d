"""``GET /api/puzzles``: the shipped puzzles of a game, their shape, paging and the error codes."""

from __future__ import annotations

import pytest

import tablier.games
from tablier.ai import puzzles as lib

SPECS = ["volo", "volo:board=mini", "xobo", "voldetour"]


@pytest.mark.parametrize("spec", SPECS)
def test_a_game_answers_its_shipped_puzzles(shared_client, spec):
    response = shared_client.get("/api/puzzles", params={"game": spec, "limit": 5})
    assert response.status_code == 200
    body = response.json()
    shipped = lib.load_shipped(tablier.games.from_spec(spec))
    assert len(body) == min(5, len(shipped)) and body, "the first puzzles of the file"
    for item, puzzle in zip(body, shipped, strict=False):
        assert set(item) == {"id", "position", "depth", "solution", "rating"}
        assert item["id"] == puzzle.id and item["position"] == puzzle.position
        assert item["depth"] == len(item["solution"]) == puzzle.depth
        assert item["solution"] == list(puzzle.solution)


def test_depth_offset_and_limit_select_the_puzzles(shared_client):
    every = lib.load_shipped(tablier.games.from_spec("volo:board=mini"))
    depth = every[-1].depth
    wanted = [p.id for p in every if p.depth == depth][1:4]
    response = shared_client.get(
        "/api/puzzles",
        params={"game": "volo:board=mini", "depth": depth, "offset": 1, "limit": 3},
    )
    assert [item["id"] for item in response.json()] == wanted
    assert all(item["depth"] == depth for item in response.json())


def test_the_default_limit_is_twenty(shared_client):
    assert len(shared_client.get("/api/puzzles?game=xobo").json()) == 20


def test_a_game_without_puzzles_answers_an_empty_list(shared_client):
    response = shared_client.get("/api/puzzles", params={"game": "volo:edition=2010"})
    assert response.status_code == 200 and response.json() == []


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ({"game": "nosuchgame"}, "unknown_game"),
        ({"game": "volo:board=huge"}, "bad_option"),
        ({"game": "xobo", "limit": 0}, "invalid_request"),
        ({"game": "xobo", "limit": 101}, "invalid_request"),
        ({"game": "xobo", "limit": "ten"}, "invalid_request"),
        ({"game": "xobo", "depth": 8}, "invalid_request"),
        ({"game": "xobo", "offset": -1}, "invalid_request"),
        ({}, "invalid_request"),
    ],
)
def test_bad_queries_get_a_422_code(shared_client, query, code):
    response = shared_client.get("/api/puzzles", params=query)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == code
