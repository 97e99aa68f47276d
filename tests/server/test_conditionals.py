"""Conditional moves: the checks of the lines (with their codes), a line that fires through the
normal move path, lines dropped by another move, and multi-decision turns (Voldétour)."""

from __future__ import annotations

import random

import pytest

import tablier.games

from .conftest import bearer, new_game


def put(client, gid, token, ply, lines):
    return client.put(
        f"/api/games/{gid}/conditionals", json={"ply": ply, "lines": lines}, headers=bearer(token)
    )


def get(client, gid, token) -> dict:
    r = client.get(f"/api/games/{gid}/conditionals", headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()


def move(client, gid, token, ply, notation) -> dict:
    r = client.post(
        f"/api/games/{gid}/moves", json={"ply": ply, "move": notation}, headers=bearer(token)
    )
    assert r.status_code == 200, r.text
    return r.json()


def code(r) -> str:
    return r.json()["error"]["code"]


def legal(name: str, moves: list[str]) -> list[str]:
    """The notations of the legal decisions after ``moves`` in a new game ``name``."""
    game = tablier.games.get(name)
    state = game.initial_state()
    for text in moves:
        state = state.apply(game.parse_move(state, text))
    return [game.move_text(state, m) for m in state.legal_moves()]


@pytest.fixture
def xobo(shared_client):
    created = new_game(shared_client, "xobo")
    return created["id"], created["tokens"]["0"], created["tokens"]["1"]


def test_lines_are_checked(shared_client, xobo):
    gid, t0, t1 = xobo
    a, b, c = legal("xobo", [])[:3]
    assert put(shared_client, gid, t1, 0, [[a, b]]).status_code == 200
    # on one's own turn there is nothing to leave: play
    r = put(shared_client, gid, t0, 0, [[a, b]])
    assert r.status_code == 409 and code(r) == "your_turn"
    r = put(shared_client, gid, t1, 1, [[a, b]])
    assert r.status_code == 409 and code(r) == "stale_ply" and r.json()["error"]["ply"] == 0
    r = put(shared_client, gid, t1, 0, [[a, b], [b, "zz99"]])
    assert r.status_code == 422 and code(r) == "bad_conditional"
    assert r.json()["error"]["line"] == 1 and r.json()["error"]["index"] == 1
    r = put(shared_client, gid, t1, 0, [[a, a]])  # the cell is taken
    assert r.status_code == 422 and code(r) == "bad_conditional"
    second = legal("xobo", [a, b])[0]
    r = put(shared_client, gid, t1, 0, [[a, b, second]])
    assert r.status_code == 422 and code(r) == "bad_conditional"  # ends with their move
    r = put(shared_client, gid, t1, 0, [[a, b], [a, c]])
    assert r.status_code == 422 and code(r) == "conflicting_conditionals"
    r = put(shared_client, gid, t1, 0, [[a, b], [b, a]])  # a branch on their choice
    assert r.status_code == 200
    for bad in ([[a]], [[a, b]] * 21, [[a, b] * 6], [[a, ""]], [["x" * 201, b]], [[1, 2]]):
        r = put(shared_client, gid, t1, 0, bad)
        assert r.status_code == 422 and code(r) == "invalid_request", bad
    r = shared_client.put(f"/api/games/{gid}/conditionals", json={"ply": 0, "lines": [[a, b]]})
    assert r.status_code == 401
    # the opponent never sees them
    assert get(shared_client, gid, t0)["lines"] == []
    assert get(shared_client, gid, t1) == {"ply": 0, "lines": [[a, b], [b, a]], "allowed": True}


def test_only_in_games_between_people_without_a_live_clock(shared_client):
    a, b = legal("xobo", [])[:2]
    ai = new_game(shared_client, "xobo", mode="ai", seat=1)
    r = put(shared_client, ai["id"], ai["tokens"]["1"], 0, [[a, b]])
    assert r.status_code == 409 and code(r) == "conditionals_not_allowed"
    local = new_game(shared_client, "xobo", mode="local")
    r = put(shared_client, local["id"], local["tokens"]["both"], 0, [[a, b]])
    assert r.status_code == 409 and code(r) == "not_allowed"
    created = new_game(shared_client, "xobo")
    live = shared_client.app.state.service._cache[created["id"]]
    live.clock = {"kind": "live", "base": 60, "increment": 0}
    r = put(shared_client, created["id"], created["tokens"]["1"], 0, [[a, b]])
    assert r.status_code == 409 and code(r) == "conditionals_not_allowed"
    live.clock = {"kind": "correspondence", "days": 3}
    assert put(shared_client, created["id"], created["tokens"]["1"], 0, [[a, b]]).status_code == 200


def test_a_line_fires_once_and_others_are_dropped(shared_client, xobo):
    gid, t0, t1 = xobo
    a, b, c = legal("xobo", [])[:3]
    reply = legal("xobo", [a])[1]
    then = legal("xobo", [a, reply])[0]
    answer = legal("xobo", [a, reply, then])[2]
    lines = [[a, reply, then, answer], [b, a], [c, a]]
    assert put(shared_client, gid, t1, 0, lines).status_code == 200
    with shared_client.websocket_connect(f"/ws/games/{gid}") as watcher:
        watcher.send_json({"type": "hello"})
        snap = move(shared_client, gid, t0, 0, a)
        # the reply was played for seat 1 right after, through the normal move path
        assert snap["ply"] == 2 and snap["moves"] == [a, reply]
        seen = []
        while len(seen) < 2:
            message = watcher.receive_json()
            if message["type"] == "move":
                seen.append(message["move"])
        assert seen == [a, reply]
    assert get(shared_client, gid, t1) == {"ply": 2, "lines": [[then, answer]], "allowed": True}
    # another move than the line's: the lines are dropped, nothing is played
    other = next(m for m in legal("xobo", [a, reply]) if m != then)
    snap = move(shared_client, gid, t0, 2, other)
    assert snap["ply"] == 3 and snap["view"]["to_move"] == 1
    assert get(shared_client, gid, t1)["lines"] == []
    stored = shared_client.app.state.service.storage
    assert [m[1] for m in stored.load(gid)[1]] == [a, reply, other]


def test_delete_and_replace(shared_client, xobo):
    gid, t0, t1 = xobo
    a, b = legal("xobo", [])[:2]
    put(shared_client, gid, t1, 0, [[a, b]])
    assert put(shared_client, gid, t1, 0, [[b, a]]).json()["lines"] == [[b, a]]
    r = shared_client.delete(f"/api/games/{gid}/conditionals", headers=bearer(t1))
    assert r.status_code == 200 and r.json()["lines"] == []
    snap = move(shared_client, gid, t0, 0, b)
    assert snap["ply"] == 1


def test_lines_left_behind_by_a_takeback_are_dropped(shared_client, xobo):
    gid, t0, t1 = xobo
    a = legal("xobo", [])[0]
    first = move(shared_client, gid, t0, 0, a)
    reply = legal("xobo", [a])[0]
    move(shared_client, gid, t1, 1, reply)
    assert first["ply"] == 1
    then, answer = legal("xobo", [a, reply])[0], legal("xobo", [a, reply])[1]
    nxt = legal("xobo", [a, reply, then])[0]
    assert put(shared_client, gid, t1, 2, [[then, nxt]]).status_code == 200
    # seat 1 asks to undo its turn; seat 0 accepts: the game is back at ply 1
    for token, action in ((t1, "offer"), (t0, "accept")):
        r = shared_client.post(
            f"/api/games/{gid}/offers",
            json={"kind": "undo", "action": action},
            headers=bearer(token),
        )
        assert r.status_code == 200, r.text
    assert get(shared_client, gid, t1)["lines"] == []  # set at another position
    snap = move(shared_client, gid, t1, 1, answer)
    assert snap["ply"] == 2


def test_game_over(shared_client, xobo):
    gid, t0, t1 = xobo
    a, b = legal("xobo", [])[:2]
    shared_client.post(f"/api/games/{gid}/resign", headers=bearer(t0))
    r = put(shared_client, gid, t1, 0, [[a, b]])
    assert r.status_code == 410 and code(r) == "game_over"


def voldetour_turn(moves: list[str], rng: random.Random) -> list[str]:
    """The decisions of one whole turn after ``moves`` (random, the same player's)."""
    game = tablier.games.get("voldetour")
    state = game.initial_state()
    for text in moves:
        state = state.apply(game.parse_move(state, text))
    player = state.to_move
    turn: list[str] = []
    while state.to_move == player and state.outcome is None:
        decision = rng.choice(list(state.legal_moves()))
        turn.append(game.move_text(state, decision))
        state = state.apply(decision)
    return turn


def test_multi_decision_turns(shared_client):
    rng = random.Random(4)
    created = new_game(shared_client, "voldetour")
    gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    theirs = voldetour_turn([], rng)
    mine = voldetour_turn(theirs, rng)
    assert len(theirs) > 1 and len(mine) > 1
    r = put(shared_client, gid, t1, 0, [theirs + mine])
    assert r.status_code == 200, r.text
    # a line may end only after one of my decisions; a line cut inside their turn is refused
    r = put(shared_client, gid, t1, 0, [theirs])
    assert r.status_code == 422 and code(r) == "bad_conditional"
    snap = None
    for ply, decision in enumerate(theirs):
        snap = move(shared_client, gid, t0, ply, decision)
    assert snap is not None
    # the whole turn of seat 1 was played for it, decision by decision
    assert snap["moves"] == theirs + mine
    assert snap["view"]["to_move"] == 0
    assert get(shared_client, gid, t1)["lines"] == []


def test_fires_once_on_each_database(database_url):
    """The conditional updates (the game's row touched, the lines advanced on their ply) on
    SQLite and PostgreSQL."""
    from fastapi.testclient import TestClient

    from tablier.server.app import create_app

    from .conftest import make_settings

    with TestClient(create_app(make_settings(database_url, ai_workers=0))) as client:
        created = new_game(client, "xobo")
        gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
        a = legal("xobo", [])[0]
        reply = legal("xobo", [a])[0]
        assert put(client, gid, t1, 0, [[a, reply]]).status_code == 200
        assert put(client, gid, t1, 1, [[a, reply]]).status_code == 409
        snap = move(client, gid, t0, 0, a)
        assert snap["moves"] == [a, reply]
        assert get(client, gid, t1)["lines"] == []
        assert [m[1] for m in client.app.state.service.storage.load(gid)[1]] == [a, reply]
