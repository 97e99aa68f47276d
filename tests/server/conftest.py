"""Fixtures of the web server tests: applications on SQLite files and on real PostgreSQL.

PostgreSQL: ``TABLIER_TEST_POSTGRES_URL`` names a server (CI starts one); every test gets a
fresh schema of its own, so parallel runs never collide.  Without the variable those tests
skip with a message, unless ``TABLIER_REQUIRE_POSTGRES=1`` (CI), which makes them fail.
"""

from __future__ import annotations

import os
import random
import secrets
import time
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from tablier.server.app import create_app
from tablier.server.ratelimit import DEFAULT_RATE_LIMITS
from tablier.server.settings import Settings, normalise_database_url

#: Fast stand-ins for the AI levels (the levels themselves are tested in tests/ai).
FAST_AI = {"easy": "random", "medium": "random", "hard": "greedy", "expert": "greedy"}

PG_ENV = "TABLIER_TEST_POSTGRES_URL"


def postgres_base_url() -> str | None:
    """The PostgreSQL URL of the environment, or skip (fail in CI) when there is none."""
    url = os.environ.get(PG_ENV, "").strip()
    if url:
        return normalise_database_url(url)
    message = f"PostgreSQL tests need {PG_ENV} (e.g. postgresql+psycopg://user@127.0.0.1/db)"
    if os.environ.get("TABLIER_REQUIRE_POSTGRES") == "1":
        pytest.fail(message + " and TABLIER_REQUIRE_POSTGRES=1 requires them")
    pytest.skip(message)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A URL whose connections use a fresh PostgreSQL schema, dropped afterwards."""
    base = postgres_base_url()
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(base)
    plain = url.set(drivername="postgresql").render_as_string(hide_password=False)
    schema = f"tablier_test_{os.getpid()}_{secrets.token_hex(4)}"
    try:
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
    except psycopg.OperationalError as exc:
        if os.environ.get("TABLIER_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"cannot reach PostgreSQL at {PG_ENV}: {exc}")
        pytest.skip(f"cannot reach PostgreSQL at {PG_ENV}: {exc}")
    sep = "&" if "?" in base else "?"
    yield f"{base}{sep}options={quote(f'-csearch_path={schema}')}"
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    """An SQLite file of its own."""
    return f"sqlite:///{tmp_path / 'tablier.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request) -> str:
    """Each storage test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    return request.getfixturevalue("postgres_url")


#: Every rate limit off: tests create many games from one client; the tests of a limit set
#: the ones they check (``rate_limits={"chat": "2/minute"}``: the others keep their defaults).
NO_RATE_LIMITS = dict.fromkeys(DEFAULT_RATE_LIMITS, "off")


def make_settings(url: str, **kw) -> Settings:
    """Settings for tests: fast AI players, quick progress reports, no rate limits."""
    kw.setdefault("ai_specs", dict(FAST_AI))
    kw.setdefault("rate_limits", dict(NO_RATE_LIMITS))
    kw.setdefault("ai_workers", 1)
    kw.setdefault("ai_progress_interval", 0.0)
    return Settings(database_url=url, **kw)


@pytest.fixture(scope="module")
def shared_client(tmp_path_factory) -> Iterator[TestClient]:
    """One application (SQLite, AI on) shared by the tests of a module."""
    path = tmp_path_factory.mktemp("db") / "shared.db"
    app = create_app(make_settings(f"sqlite:///{path}"))
    with TestClient(app) as client:
        yield client


@pytest.fixture
def client(sqlite_url) -> Iterator[TestClient]:
    """An application of its own on a fresh SQLite file."""
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    """The Authorization header of a token."""
    return {"Authorization": f"Bearer {token}"}


def new_game(client: TestClient, game: str = "xobo", mode: str = "online", **kw) -> dict:
    """Create a game and return the response body."""
    body = {"game": game, "mode": mode, **kw}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def token_for(created: dict, seat: int) -> str:
    """The token that may move for ``seat`` in a created game."""
    tokens = created["tokens"]
    return tokens.get("both") or tokens[str(seat)]


def wait_for(client: TestClient, game_id: str, predicate, timeout: float = 20.0) -> dict:
    """Poll the snapshot until ``predicate(snapshot)`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        snap = client.get(f"/api/games/{game_id}").json()
        if predicate(snap):
            return snap
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting; last snapshot: {snap}")
        time.sleep(0.02)


def play_random(client: TestClient, created: dict, plies: int, seed: int = 0) -> dict:
    """Play up to ``plies`` random legal human decisions (waiting for the AI when it moves)."""
    rng = random.Random(seed)
    game_id = created["id"]
    snap = created["game"]
    for _ in range(plies):
        ai = snap["ai"]
        if ai is not None and snap["status"] == "active" and snap["view"]["to_move"] == ai["seat"]:
            ply = snap["ply"]
            snap = wait_for(
                client, game_id, lambda s, p=ply: s["ply"] > p or s["status"] != "active"
            )
            continue
        if snap["status"] != "active":
            break
        legal = client.get(f"/api/games/{game_id}/legal").json()
        assert legal["ply"] == snap["ply"]
        move = rng.choice(legal["moves"])["notation"]
        seat = snap["view"]["to_move"]
        r = client.post(
            f"/api/games/{game_id}/moves",
            json={"ply": snap["ply"], "move": move},
            headers=bearer(token_for(created, seat)),
        )
        assert r.status_code == 200, r.text
        snap = r.json()
    return snap
