"""Bounded cost and hostile input over REST; no token from a URL in the logs; one-step rematch."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time

import pytest
from fastapi.testclient import TestClient

import tablier.games
from tablier.core.record import Record
from tablier.server.app import create_app
from tablier.server.middleware import install_log_filter

from .conftest import bearer, make_settings, new_game


def long_record(name: str, plies: int) -> str:
    """A legal record of ``name`` with ``plies`` decisions (or as many as the game lasts)."""
    game = tablier.games.get(name)
    state, moves = game.initial_state(), []
    while len(moves) < plies and state.outcome is None:
        move = state.legal_moves()[len(moves) % len(state.legal_moves())]
        moves.append(move)
        state = state.apply(move)
    return Record.from_moves(game, moves).to_text()


def error_code(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_a_long_record_is_refused_with_413(sqlite_url):
    text = long_record("volo", 60)
    plies = len(Record.from_text(text).moves)
    assert plies > 20
    app = create_app(make_settings(sqlite_url, ai_workers=0, max_record_plies=20))
    with TestClient(app) as client:
        r = client.post("/api/records/parse", json={"text": text})
        assert error_code(r) == (413, "record_too_long")
        assert f"{plies} decisions" in r.json()["error"]["message"]
        short = long_record("volo", 20)
        assert client.post("/api/records/parse", json={"text": short}).status_code == 200


def test_the_review_answer_is_bounded(shared_client):
    """The largest record the body limit lets through answers well under the size bound."""
    limit = shared_client.app.state.settings.max_record_plies
    for name in tablier.games.names():
        text = long_record(name, limit)
        r = shared_client.post("/api/records/parse", json={"text": text})
        assert r.status_code in (200, 413), r.text[:200]
        if r.status_code == 200:
            plies = len(r.json()["moves"])
            assert plies <= limit
            assert len(r.content) <= (plies + 1) * 16_000, (name, plies, len(r.content))


def test_heavy_work_runs_off_the_event_loop(shared_client, monkeypatch):
    from tablier.server.routers import records

    threads = []
    real = records.parse_record

    def spy(*args):
        try:
            asyncio.get_running_loop()
            threads.append("loop")
        except RuntimeError:
            threads.append("worker")
        return real(*args)

    monkeypatch.setattr(records, "parse_record", spy)
    text = long_record("xobo", 10)
    assert shared_client.post("/api/records/parse", json={"text": text}).status_code == 200
    assert threads == ["worker"]


HOSTILE_BODIES = [
    b"[" * 50_000,
    b'{"game": "volo", "options": ' + b'{"a": ' * 5000 + b"1" + b"}" * 5000 + b"}",
    b'{"game": "volo", "seat": ' + b"9" * 6000 + b"}",
    b'{"game": "volo", "seat": 1e999}',
    b'{"game": "volo", "seat": true}',
    b'{"game": "volo", "seat": "0"}',
    b'{"game": 7}',
    b'{"game": ["volo"]}',
    b'{"game": "volo", "options": []}',
    b'{"game": "volo", "options": {"board": {"x": 1}}}',
    b'{"game": "volo", "options": {"board": 1e308}}',
    b'{"game": "volo", "options": {"board": ' + b"7" * 5000 + b"}}",
    b'{"game": "volo", "options": {"\xd9\xa3": "\xe2\x91\xa2"}}',
    b'{"game": "volo", "options": {"board": "\xc2\xb9\xc2\xb2"}}',
    b'{"game": "v\xc3\xb6lo"}',
    b'{"game": "volo\\u0000"}',
    b'{"game": "volo", "names": "Ann"}',
    b'{"game": "volo", "names": [1, 2]}',
    b"\xff\xfe garbage",
    b"null",
    b"",
]


@pytest.mark.parametrize("body", HOSTILE_BODIES, ids=range(len(HOSTILE_BODIES)))
def test_hostile_create_bodies_are_4xx_json(shared_client, body):
    r = shared_client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    _status, code = error_code(r)
    assert code in {"invalid_request", "unknown_game", "bad_option", "bad_input"}, code


@pytest.mark.parametrize(
    "move",
    ["", "z" * 200, "a¹", "a١", "①", "9" * 199, "\x00", "\ud7ff", "a1" * 100, "[" * 199],
)
def test_hostile_moves_are_4xx_json(shared_client, move):
    created = new_game(shared_client, "volo")
    r = shared_client.post(
        f"/api/games/{created['id']}/moves",
        json={"ply": 0, "move": move},
        headers=bearer(created["tokens"]["0"]),
    )
    assert error_code(r)[1] in {"invalid_request", "bad_move", "illegal_move"}, r.text


@pytest.mark.parametrize(
    "text",
    [
        '{"game": "volo", "moves": ' + "[" * 3000 + "]" * 3000 + "}",
        '{"game": "volo", "moves": [' + "9" * 5000 + "]}",
        '{"game": 7}',
        '[Game "volo"]\n\n1. ' + "9" * 5000 + "\n*\n",
        '[Game "volo"]\n[Options "board=①"]\n\n*\n',
        '[Game "xobo"]\n\n١. a1\n*\n',
        "\x00\ufeff{",
    ],
)
def test_hostile_records_are_4xx_json(shared_client, text):
    r = shared_client.post("/api/records/parse", json={"text": text})
    assert error_code(r) in {(422, "bad_record"), (422, "invalid_request")}, r.text[:300]


@pytest.mark.parametrize(
    "query", ["limit=" + "9" * 5000, "limit=1e999", "limit=١", "offset=-1", "limit=true"]
)
def test_hostile_queries_are_422(shared_client, query):
    assert error_code(shared_client.get(f"/api/games?{query}")) == (422, "invalid_request")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_a_token_in_a_websocket_url_is_never_logged(sqlite_url):
    """uvicorn in this process; every line its loggers write is captured and searched."""
    import uvicorn
    import websockets.sync.client as wsc

    app = create_app(make_settings(sqlite_url, ai_workers=0))
    port = _free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="debug", access_log=True, ws_max_size=65536
    )
    install_log_filter()  # after uvicorn configured its loggers, as serve() does before it
    capture = _Capture()
    loggers = [logging.getLogger(n) for n in ("uvicorn", "uvicorn.error", "uvicorn.access")]
    for logger in loggers:
        logger.addHandler(capture)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
            time.sleep(0.05)
        import httpx

        base = f"http://127.0.0.1:{port}"
        created = httpx.post(f"{base}/api/games", json={"game": "xobo"}).json()
        gid, token = created["id"], created["tokens"]["0"]
        url = f"ws://127.0.0.1:{port}/ws/games/{gid}?token={token}&seat={token}"
        with wsc.connect(url) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(ws.recv())["type"] == "snapshot"
        with wsc.connect(f"ws://127.0.0.1:{port}/ws/games/nogame?token={token}") as ws:
            assert json.loads(ws.recv())["code"] == "not_found"
        httpx.get(f"{base}/api/games/{gid}?token={token}")
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        for logger in loggers:
            logger.removeHandler(capture)
    text = "\n".join(capture.lines)
    assert f"/ws/games/{gid}" in text  # the WebSocket line was written, without its query
    assert f"/api/games/{gid}" in text  # and the access log
    assert token not in text


def test_rematch_is_one_transaction(shared_client, monkeypatch):
    service = shared_client.app.state.service
    created = new_game(shared_client, "xobo")
    gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    assert shared_client.post(f"/api/games/{gid}/resign", headers=bearer(t0)).status_code == 200
    calls = []
    for name in ("create_game", "commit", "add_token"):
        real = getattr(service.storage, name)

        def spy(*args, _name=name, _real=real):
            calls.append(_name)
            return _real(*args)

        monkeypatch.setattr(service.storage, name, spy)
    before = service.storage.count_games()
    # A refused commit leaves nothing behind: no new game, no link.
    monkeypatch.setattr(service.storage, "commit", lambda *a: calls.append("refused") or False)
    monkeypatch.setattr(service, "_reload", _same_game)
    r = shared_client.post(f"/api/games/{gid}/rematch", headers=bearer(t0))
    assert error_code(r) == (409, "conflict")
    assert service.storage.count_games() == before and calls == ["refused"]
    monkeypatch.undo()
    calls.clear()
    for name in ("create_game", "commit", "add_token"):
        real = getattr(service.storage, name)

        def spy(*args, _name=name, _real=real):
            calls.append(_name)
            return _real(*args)

        monkeypatch.setattr(service.storage, name, spy)
    first = shared_client.post(f"/api/games/{gid}/rematch", headers=bearer(t0)).json()
    assert calls == ["commit"]  # the new game, its token and the link: one transaction
    second = shared_client.post(f"/api/games/{gid}/rematch", headers=bearer(t1)).json()
    assert calls == ["commit", "add_token"] and second["id"] == first["id"]
    assert service.storage.count_games() == before + 1
    new = shared_client.get(f"/api/games/{first['id']}").json()
    assert shared_client.get(f"/api/games/{gid}").json()["rematch"] == new["id"]


async def _same_game(live):
    return live
