"""Concurrent submissions for the same ply: exactly one is accepted, the other gets 409."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi.testclient import TestClient

import tablier.games
from tablier.server.app import create_app

from .conftest import bearer, make_settings


async def _race(app, game: str, mode: str, rounds: int) -> list[list[int]]:
    """Create a game, then send two moves for the same ply at once, ``rounds`` times."""
    outcomes = []
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            created = (await c.post("/api/games", json={"game": game, "mode": mode})).json()
            gid = created["id"]
            tokens = created["tokens"]
            for _ in range(rounds):
                snap = (await c.get(f"/api/games/{gid}")).json()
                if snap["status"] != "active":
                    break
                seat = snap["view"]["to_move"]
                token = tokens.get("both") or tokens[str(seat)]
                legal = (await c.get(f"/api/games/{gid}/legal")).json()["moves"]
                a, b = legal[0]["notation"], legal[-1]["notation"]
                url = f"/api/games/{gid}/moves"
                r1, r2 = await asyncio.gather(
                    c.post(url, json={"ply": snap["ply"], "move": a}, headers=bearer(token)),
                    c.post(url, json={"ply": snap["ply"], "move": b}, headers=bearer(token)),
                )
                statuses = sorted([r1.status_code, r2.status_code])
                outcomes.append(statuses)
                loser = r1 if r1.status_code == 409 else r2
                assert loser.json()["error"]["code"] == "stale_ply"
                winner = r1 if r1.status_code == 200 else r2
                after = (await c.get(f"/api/games/{gid}")).json()
                assert after["ply"] == snap["ply"] + 1
                assert after["moves"][-1] == winner.json()["moves"][-1]
    return outcomes


@pytest.mark.parametrize("name", tablier.games.names())
def test_two_submissions_for_the_same_ply(sqlite_url, name):
    app = create_app(make_settings(sqlite_url, ai_workers=0))
    outcomes = asyncio.run(_race(app, name, "local", 4))
    assert outcomes and all(o == [200, 409] for o in outcomes)


def test_two_server_processes_share_one_database(database_url):
    """Two applications on one database (as two processes would be): the database decides."""
    settings = make_settings(database_url, ai_workers=0)
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        created = a.post("/api/games", json={"game": "xobo", "mode": "local"}).json()
        gid, token = created["id"], created["tokens"]["both"]
        legal = b.get(f"/api/games/{gid}/legal").json()["moves"]  # b caches the game
        first, other = legal[0]["notation"], legal[1]["notation"]
        ra = a.post(
            f"/api/games/{gid}/moves", json={"ply": 0, "move": first}, headers=bearer(token)
        )
        assert ra.status_code == 200
        # b's copy is behind: its commit fails on the version check, it reloads, and answers
        # the conflict the database saw.
        rb = b.post(
            f"/api/games/{gid}/moves", json={"ply": 0, "move": other}, headers=bearer(token)
        )
        assert rb.status_code == 409 and rb.json()["error"]["code"] == "stale_ply"
        assert b.get(f"/api/games/{gid}").json()["moves"] == [first]
        # b plays the next ply from its reloaded copy; a sees it after its own conflict.
        nxt = b.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
        assert (
            b.post(
                f"/api/games/{gid}/moves", json={"ply": 1, "move": nxt}, headers=bearer(token)
            ).status_code
            == 200
        )
        rc = a.post(f"/api/games/{gid}/moves", json={"ply": 1, "move": nxt}, headers=bearer(token))
        assert rc.status_code == 409
        assert a.get(f"/api/games/{gid}").json()["moves"] == [first, nxt]


def test_conflict_when_the_database_keeps_refusing(client, monkeypatch):
    created = client.post("/api/games", json={"game": "volo", "mode": "local"}).json()
    gid = created["id"]
    move = client.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
    monkeypatch.setattr(client.app.state.service.storage, "commit", lambda *a, **k: False)
    r = client.post(
        f"/api/games/{gid}/moves",
        json={"ply": 0, "move": move},
        headers=bearer(created["tokens"]["both"]),
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    monkeypatch.undo()
    assert client.get(f"/api/games/{gid}").json()["ply"] == 0
