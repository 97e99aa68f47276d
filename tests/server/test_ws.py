"""WebSocket tests: hello and snapshot, broadcasts, presence, conflicts, errors, the AI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import tablier.games

from .conftest import bearer, new_game


def receive_until(ws, kind: str, limit: int = 50) -> dict:
    """The next message of type ``kind`` (skipping others)."""
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def hello(ws, token=None) -> dict:
    """Say hello; return the snapshot."""
    ws.send_json({"type": "hello", "token": token})
    message = ws.receive_json()
    assert message["type"] == "snapshot"
    return message["game"]


@contextmanager
def ai_spec(client, level: str, spec: str) -> Iterator[None]:
    """Play ``level`` with the player ``spec`` for the duration; restore it after."""
    specs = client.app.state.service.settings.ai_specs
    before = specs[level]
    specs[level] = spec
    try:
        yield
    finally:
        specs[level] = before


def first_legal(client, gid) -> str:
    """The notation of the first legal decision."""
    return client.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]


@pytest.mark.parametrize("name", tablier.games.names())
def test_move_is_broadcast_to_every_connection(shared_client, name):
    created = new_game(shared_client, name)
    gid, t0 = created["id"], created["tokens"]["0"]
    with (
        shared_client.websocket_connect(f"/ws/games/{gid}") as player,
        shared_client.websocket_connect(f"/ws/games/{gid}") as watcher,
    ):
        snap = hello(player, t0)
        assert snap["you"] == 0 and snap["ply"] == 0 and snap["id"] == gid
        assert hello(watcher)["you"] is None
        move = first_legal(shared_client, gid)
        player.send_json({"type": "move", "ply": 0, "move": move, "ref": "r1"})
        mine = receive_until(player, "move")
        theirs = receive_until(watcher, "move")
        assert mine["ref"] == "r1" and "ref" not in theirs
        assert mine["ply"] == theirs["ply"] == 1 and mine["move"] == move
        game = tablier.games.get(name)
        state = game.initial_state()
        after = state.apply(game.parse_move(state, move))
        assert mine["view"] == game.state_view(after)
        assert mine["last_move"]["notation"] == move
        assert mine["status"] == "active" and mine["result"] is None
    # Committed before broadcast: a fresh fetch has it.
    assert shared_client.get(f"/api/games/{gid}").json()["moves"] == [move]


def test_presence(shared_client):
    created = new_game(shared_client, "volo")
    gid = created["id"]
    with shared_client.websocket_connect(f"/ws/games/{gid}") as a:
        hello(a, created["tokens"]["0"])
        assert receive_until(a, "presence") == {
            "type": "presence",
            "seats": [True, False],
            "spectators": 0,
        }
        with shared_client.websocket_connect(f"/ws/games/{gid}") as b:
            hello(b, created["tokens"]["1"])
            assert receive_until(a, "presence")["seats"] == [True, True]
            with shared_client.websocket_connect(f"/ws/games/{gid}") as c:
                hello(c)
                assert receive_until(a, "presence")["spectators"] == 1
            assert receive_until(a, "presence")["spectators"] == 0
            snap = shared_client.get(f"/api/games/{gid}").json()
            assert [s["online"] for s in snap["seats"]] == [True, True]
        assert receive_until(a, "presence")["seats"] == [True, False]


def test_rest_changes_reach_the_websocket(shared_client):
    created = new_game(shared_client, "xobo")
    gid = created["id"]
    with shared_client.websocket_connect(f"/ws/games/{gid}") as ws:
        hello(ws, created["tokens"]["1"])
        move = first_legal(shared_client, gid)
        shared_client.post(
            f"/api/games/{gid}/moves",
            json={"ply": 0, "move": move},
            headers=bearer(created["tokens"]["0"]),
        )
        assert receive_until(ws, "move")["move"] == move
        shared_client.post(
            f"/api/games/{gid}/offers",
            json={"kind": "draw", "action": "offer"},
            headers=bearer(created["tokens"]["0"]),
        )
        snap = receive_until(ws, "snapshot")["game"]
        assert snap["offers"]["draw"] == 0 and snap["you"] == 1
        shared_client.post(f"/api/games/{gid}/resign", headers=bearer(created["tokens"]["0"]))
        snap = receive_until(ws, "snapshot")["game"]
        assert snap["status"] == "finished" and snap["result"]["reason"] == "resignation"


def test_errors_go_to_the_sender_only(shared_client):
    created = new_game(shared_client, "xobo")
    gid = created["id"]
    with (
        shared_client.websocket_connect(f"/ws/games/{gid}") as p0,
        shared_client.websocket_connect(f"/ws/games/{gid}") as p1,
    ):
        hello(p0, created["tokens"]["0"])
        hello(p1, created["tokens"]["1"])
        move = first_legal(shared_client, gid)
        p1.send_json({"type": "move", "ply": 0, "move": move, "ref": 7})
        err = receive_until(p1, "error")
        assert (err["code"], err["ref"]) == ("not_your_turn", 7)
        p0.send_json({"type": "move", "ply": 0, "move": "zz99", "ref": "x"})
        assert receive_until(p0, "error")["code"] == "bad_move"
        p0.send_json({"type": "move", "ply": 5, "move": move, "ref": "y"})
        err = receive_until(p0, "error")
        assert err["code"] == "stale_ply" and err["ply"] == 0
        p0.send_json({"type": "move", "ply": "0", "move": move})
        assert receive_until(p0, "error")["code"] == "bad_message"
        p0.send_text("{not json")
        assert receive_until(p0, "error")["code"] == "bad_message"
        p0.send_json({"type": "dance"})
        assert receive_until(p0, "error")["code"] == "bad_message"
        p0.send_text(json.dumps({"type": "ping", "pad": "x" * 70000}))
        assert receive_until(p0, "error")["code"] == "message_too_large"
        p0.send_json({"type": "ping"})
        assert receive_until(p0, "pong") == {"type": "pong"}
        # p1 saw none of p0's errors: its next message is p0's move.
        p0.send_json({"type": "move", "ply": 0, "move": move, "ref": "ok"})
        assert receive_until(p0, "move")["ref"] == "ok"
        nxt = p1.receive_json()
        while nxt["type"] == "presence":
            nxt = p1.receive_json()
        assert nxt["type"] == "move" and "ref" not in nxt


def test_stale_ply_between_two_sockets(shared_client):
    created = new_game(shared_client, "voldetour", "local")
    gid, tok = created["id"], created["tokens"]["both"]
    with (
        shared_client.websocket_connect(f"/ws/games/{gid}") as a,
        shared_client.websocket_connect(f"/ws/games/{gid}") as b,
    ):
        hello(a, tok)
        hello(b, tok)
        move = first_legal(shared_client, gid)
        a.send_json({"type": "move", "ply": 0, "move": move, "ref": "a"})
        assert receive_until(a, "move")["ref"] == "a"
        b.send_json({"type": "move", "ply": 0, "move": move, "ref": "b"})
        err = receive_until(b, "error")
        assert err["code"] == "stale_ply" and err["ref"] == "b"
    assert shared_client.get(f"/api/games/{gid}").json()["ply"] == 1


def test_spectators_and_bad_tokens_cannot_move(shared_client):
    created = new_game(shared_client, "volo")
    gid = created["id"]
    move = first_legal(shared_client, gid)
    with shared_client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "hello", "token": "forged-token"})
        err = ws.receive_json()
        assert err["type"] == "error" and err["code"] == "not_your_seat"
        snap = receive_until(ws, "snapshot")["game"]
        assert snap["you"] is None
        ws.send_json({"type": "move", "ply": 0, "move": move})
        assert receive_until(ws, "error")["code"] == "not_your_seat"
    with shared_client.websocket_connect(f"/ws/games/{gid}") as ws:
        hello(ws, None)
        ws.send_json({"type": "move", "ply": 0, "move": move})
        assert receive_until(ws, "error")["code"] == "not_your_seat"
    assert shared_client.get(f"/api/games/{gid}").json()["ply"] == 0


def test_hello_first_and_unknown_game(shared_client):
    created = new_game(shared_client, "volo")
    with shared_client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        ws.send_json({"type": "move", "ply": 0, "move": "c1"})
        assert ws.receive_json()["code"] == "hello_required"
    with shared_client.websocket_connect("/ws/games/doesnotexist") as ws:
        assert ws.receive_json()["code"] == "not_found"


def test_ai_progress_and_move(shared_client):
    # A search of 0.7 s reports its progress every 0.2 s; the levels are mapped in conftest.
    created = new_game(shared_client, "xobo", "ai", seat=0, ai_level="medium")
    gid = created["id"]
    with (
        ai_spec(shared_client, "medium", "mcts:iterations=none,seconds=0.7"),
        shared_client.websocket_connect(f"/ws/games/{gid}") as ws,
    ):
        hello(ws, created["tokens"]["0"])
        move = first_legal(shared_client, gid)
        ws.send_json({"type": "move", "ply": 0, "move": move, "ref": 1})
        assert receive_until(ws, "move")["ref"] == 1
        reports = []
        while True:
            message = ws.receive_json()
            if message["type"] == "ai":
                reports.append(message)
            elif message["type"] == "move":
                break
        assert reports[0]["thinking"] is True and reports[-1]["thinking"] is False
        progress = [r["progress"] for r in reports if r["thinking"]]
        assert any(p["simulations"] > 0 for p in progress)
        assert all(0.0 <= p["fraction"] <= 1.0 for p in progress)
        assert message["ply"] == 2 and "ref" not in message
        game = tablier.games.get("xobo")
        state = game.initial_state()
        state = state.apply(game.parse_move(state, move))
        game.parse_move(state, message["move"])  # the AI's move is legal


def test_takeback_while_the_ai_thinks_drops_its_search(shared_client):
    created = new_game(
        shared_client, "volo", "ai", seat=0, ai_level="hard", options={"board": "mini"}
    )
    gid = created["id"]
    with ai_spec(shared_client, "hard", "mcts:iterations=none,seconds=1.5"):
        with shared_client.websocket_connect(f"/ws/games/{gid}") as ws:
            hello(ws, created["tokens"]["0"])
            move = first_legal(shared_client, gid)
            ws.send_json({"type": "move", "ply": 0, "move": move, "ref": "m"})
            receive_until(ws, "move")
            assert receive_until(ws, "ai")["thinking"] is True
            r = shared_client.post(
                f"/api/games/{gid}/takeback", headers=bearer(created["tokens"]["0"])
            )
            assert r.json()["ply"] == 0 and r.json()["ai"]["thinking"] is False
            # The search ends without a move: the position it searched is gone.
            while True:
                message = ws.receive_json()
                assert message["type"] != "move"
                if message["type"] == "ai" and not message["thinking"]:
                    break
        assert shared_client.get(f"/api/games/{gid}").json()["moves"] == []
