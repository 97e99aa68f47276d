"""Per-client rate limits: 429 ``rate_limited`` with ``Retry-After``, per name and per client."""

from __future__ import annotations

import pytest
from fastapi import Depends, FastAPI, WebSocket
from fastapi.testclient import TestClient

from tablier.server import errors
from tablier.server.app import create_app
from tablier.server.ratelimit import (
    DEFAULT_RATE_LIMITS,
    RateLimiter,
    hit,
    rate_limit,
)
from tablier.server.settings import Settings

from .conftest import NO_RATE_LIMITS, make_settings
from .test_ai_pool import LONG


def _limited(url: str, **limits: str) -> Settings:
    return make_settings(url, ai_workers=0, rate_limits={**NO_RATE_LIMITS, **limits})


def _assert_429(r, name: str) -> int:
    assert r.status_code == 429, r.text
    error = r.json()["error"]
    assert error["code"] == "rate_limited" and error["limit"] == name
    wait = int(r.headers["retry-after"])
    assert wait == error["retry_after"] and 1 <= wait <= 60
    return wait


def test_create_game_is_limited_per_client(sqlite_url):
    app = create_app(_limited(sqlite_url, create_game="3/minute"))
    with TestClient(app) as client:
        for _ in range(3):
            r = client.post("/api/games", json={"game": "xobo", "mode": "online"})
            assert r.status_code == 201, r.text
        _assert_429(
            client.post("/api/games", json={"game": "xobo", "mode": "local"}), "create_game"
        )
        # another client (address) counts apart
        with TestClient(app, client=("203.0.113.5", 4000)) as other:
            r = other.post("/api/games", json={"game": "xobo", "mode": "online"})
            assert r.status_code == 201, r.text
        # a refused request is not counted, and the limit holds on
        _assert_429(
            client.post("/api/games", json={"game": "xobo", "mode": "local"}), "create_game"
        )


def test_ai_games_have_a_limit_of_their_own(sqlite_url):
    settings = _limited(sqlite_url, ai_game="1/minute")
    settings.ai_workers = 1
    with TestClient(create_app(settings)) as client:
        ai = {"game": "xobo", "mode": "ai", "ai_level": "easy"}
        assert client.post("/api/games", json=ai).status_code == 201
        _assert_429(client.post("/api/games", json=ai), "ai_game")
        r = client.post("/api/games", json={"game": "xobo", "mode": "online"})
        assert r.status_code == 201, r.text  # games between people are not AI games


def test_rematch_counts_as_a_new_game(sqlite_url):
    with TestClient(create_app(_limited(sqlite_url, create_game="1/minute"))) as client:
        created = client.post("/api/games", json={"game": "xobo", "mode": "local"}).json()
        token = created["tokens"]["both"]
        headers = {"Authorization": f"Bearer {token}"}
        r = client.post(f"/api/games/{created['id']}/rematch", headers=headers)
        _assert_429(r, "create_game")


def test_off_means_no_limit_and_defaults_are_kept(sqlite_url):
    settings = make_settings(sqlite_url, ai_workers=0, rate_limits={"chat": "off"})
    assert settings.rate_limits["chat"] == "off"
    assert settings.rate_limits["create_game"] == DEFAULT_RATE_LIMITS["create_game"] == "20/minute"
    assert Settings().rate_limits == DEFAULT_RATE_LIMITS
    limiter = RateLimiter({"chat": "off"})
    assert all(limiter.hit("chat", "a") is None for _ in range(1000))
    with pytest.raises(ValueError):
        limiter.hit("lunch", "a")


def test_every_named_limit_answers_429_with_retry_after():
    """A dependency per name: each refuses its second hit, independently of the others."""
    app = FastAPI()
    errors.install(app)
    app.state.settings = Settings(rate_limits=dict.fromkeys(DEFAULT_RATE_LIMITS, "1/minute"))
    for name in DEFAULT_RATE_LIMITS:
        app.add_api_route(
            f"/api/{name}", lambda: {"ok": True}, dependencies=[Depends(rate_limit(name))]
        )
    with TestClient(app) as client:
        for name in DEFAULT_RATE_LIMITS:
            assert client.get(f"/api/{name}").status_code == 200
        for name in DEFAULT_RATE_LIMITS:
            assert 55 <= _assert_429(client.get(f"/api/{name}"), name) <= 60
    with pytest.raises(ValueError):
        rate_limit("lunch")


def test_retry_after_is_the_wait_until_a_hit_leaves_the_window():
    limiter = RateLimiter({"chat": "2/10seconds"})
    assert limiter.hit("chat", "k") is None and limiter.hit("chat", "k") is None
    wait = limiter.hit("chat", "k")
    assert wait is not None and 9 < wait <= 10
    assert limiter.hit("chat", "other") is None
    limiter.reset()
    assert limiter.hit("chat", "k") is None


def test_several_limits_in_one_value():
    limiter = RateLimiter({"signup": "1/second;2/hour"})
    assert limiter.hit("signup", "k") is None
    assert limiter.hit("signup", "k") is not None  # the second within the second
    # a refused hit counts for neither window: only the first hit is in the hour's
    assert limiter.strategy.get_window_stats(limiter.items["signup"][1], "signup", "k")[1] == 1


def test_hit_counts_websocket_messages(sqlite_url):
    """``hit(conn, name)``: the check a WebSocket handler makes for each message."""
    app = FastAPI()
    app.state.settings = Settings(rate_limits={"chat": "2/minute"})
    seen: list = []

    @app.websocket("/ws")
    async def ws(websocket: WebSocket):
        await websocket.accept()
        for _ in range(3):
            await websocket.receive_text()
            seen.append(hit(websocket, "chat"))
        await websocket.close()

    with TestClient(app) as client, client.websocket_connect("/ws") as socket:
        for _ in range(3):
            socket.send_text("hello")
        socket.receive()  # the close
    assert seen[:2] == [None, None] and seen[2] is not None and 59 < seen[2] <= 60


def test_ai_busy_answers_retry_after_too(sqlite_url):
    """The cap on concurrent AI searches per client answers 429 with Retry-After."""
    settings = make_settings(sqlite_url, ai_queue_limit=1, ai_specs={"hard": LONG})
    with TestClient(create_app(settings)) as client:
        body = {"game": "volo", "options": {"board": "mini"}, "mode": "ai", "seat": 1}
        body["ai_level"] = "hard"
        first = client.post("/api/games", json=body)
        assert first.status_code == 201, first.text
        r = client.post("/api/games", json=body)
        assert r.status_code == 429, r.text
        assert r.json()["error"]["code"] == "ai_busy"
        assert int(r.headers["retry-after"]) == r.json()["error"]["retry_after"] >= 1
        headers = {"Authorization": f"Bearer {first.json()['tokens']['1']}"}
        client.post(f"/api/games/{first.json()['id']}/resign", headers=headers)
