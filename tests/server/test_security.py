"""Security: seats and tokens, spectators, hashed storage, constant-time checks, clean logs."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest
import sqlalchemy as sa

import tablier.server.live as live_module

from .conftest import bearer, new_game


def test_a_seat_cannot_act_for_the_other(shared_client):
    created = new_game(shared_client, "xobo")
    gid = created["id"]
    t0, t1 = created["tokens"]["0"], created["tokens"]["1"]
    move = shared_client.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
    r = shared_client.post(
        f"/api/games/{gid}/moves", json={"ply": 0, "move": move}, headers=bearer(t1)
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_turn"
    # A token of another game holds no seat here.
    other = new_game(shared_client, "xobo")
    r = shared_client.post(
        f"/api/games/{gid}/moves",
        json={"ply": 0, "move": move},
        headers=bearer(other["tokens"]["0"]),
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_seat"
    # Resigning with seat 1's token resigns seat 1, never seat 0.
    snap = shared_client.post(f"/api/games/{gid}/resign", headers=bearer(t1)).json()
    assert snap["result"]["winner"] == 0
    assert shared_client.get(f"/api/games/{gid}", headers=bearer(t0)).json()["you"] == 0


def test_spectators_cannot_act(shared_client):
    created = new_game(shared_client, "volo")
    gid = created["id"]
    for path, body in (
        ("moves", {"ply": 0, "move": "c1"}),
        ("resign", None),
        ("offers", {"kind": "draw", "action": "offer"}),
        ("takeback", None),
        ("rematch", None),
    ):
        r = shared_client.post(f"/api/games/{gid}/{path}", json=body)
        assert r.status_code == 401 and r.json()["error"]["code"] == "token_required", path
        r = shared_client.post(f"/api/games/{gid}/{path}", json=body, headers=bearer("guess"))
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_seat", path
    snap = shared_client.get(f"/api/games/{gid}").json()
    assert snap["ply"] == 0 and snap["status"] == "active" and snap["offers"]["draw"] is None


def test_tokens_are_stored_hashed(client):
    created = new_game(client, "volo")
    engine = client.app.state.service.storage.engine
    with engine.connect() as conn:
        dump = [
            repr(row)
            for table in ("games", "moves", "seat_tokens")
            for row in conn.execute(sa.text(f"SELECT * FROM {table}"))
        ]
    text = "\n".join(dump)
    for token in created["tokens"].values():
        assert token not in text
        assert live_module.hash_token(token) in text
    assert len(created["tokens"]["0"]) >= 32  # secrets.token_urlsafe(24)


def test_tokens_are_compared_in_constant_time(shared_client, monkeypatch):
    calls = []
    real = live_module.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(live_module.hmac, "compare_digest", spy)
    created = new_game(shared_client, "volo")
    shared_client.get(f"/api/games/{created['id']}", headers=bearer(created["tokens"]["1"]))
    assert calls, "seat tokens must be checked with hmac.compare_digest"
    # Every stored hash is compared (no early exit that would reveal which one matched).
    assert len(calls) == 2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_no_token_in_the_server_logs(tmp_path):
    """A real `tablier serve` process: its whole output must hold no token."""
    import websockets.sync.client as wsc

    port = _free_port()
    out = open(tmp_path / "server.log", "w+b")  # noqa: SIM115
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from tablier.cli.main import main; main()",
            "serve",
            "--port",
            str(port),
            "--database-url",
            f"sqlite:///{tmp_path / 'db.sqlite'}",
            "--ai-workers",
            "0",
        ],
        stdout=out,
        stderr=subprocess.STDOUT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    tokens = []
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None, "the server stopped"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        with httpx.Client(base_url=base) as c:
            created = c.post("/api/games", json={"game": "xobo"}).json()
            gid = created["id"]
            tokens += list(created["tokens"].values())
            move = c.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
            c.post(
                f"/api/games/{gid}/moves", json={"ply": 0, "move": move}, headers=bearer(tokens[0])
            )
            c.post(
                f"/api/games/{gid}/moves", json={"ply": 0, "move": "zz"}, headers=bearer(tokens[1])
            )  # an error response too
            c.get(f"/api/games/{gid}?token={tokens[1]}")  # even a misused query string
            # A token misplaced in the WebSocket URL's query string is not logged either.
            with wsc.connect(f"ws://127.0.0.1:{port}/ws/games/{gid}?token={tokens[1]}") as ws:
                ws.send(json.dumps({"type": "hello", "token": tokens[1]}))
                ws.recv()
            c.post(f"/api/games/{gid}/resign", headers=bearer(tokens[1]))
            rematch = c.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[0])).json()
            tokens += list(rematch["tokens"].values())
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
    out.seek(0)
    log = out.read().decode("utf-8", "replace")
    out.close()
    assert f"/api/games/{gid}" in log  # the access log was on
    for token in tokens:
        assert token not in log
