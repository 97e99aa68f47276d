"""Ratings: rated games settled exactly once, casual games untouched, the leaderboard."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import UTC, datetime

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select, update

from tablier.server import ratings
from tablier.server.app import create_app
from tablier.server.ratings import commit_settlement, settle
from tablier.server.storage import Change
from tablier.server.tables import GameRow, RatingRow, UserRow

from .conftest import bearer, make_settings

_games = GameRow.__table__
_ratings = RatingRow.__table__
_users = UserRow.__table__


def add_user(engine, user_id: str, kind: str = "account") -> None:
    """A ``users`` row (the accounts' own API is tested elsewhere)."""
    with engine.begin() as conn:
        exists = conn.execute(select(_users.c.id).where(_users.c.id == user_id)).first()
        if exists is None:
            conn.execute(
                insert(_users).values(
                    id=user_id,
                    username=user_id,
                    username_key=user_id.lower(),
                    password_hash=None,
                    kind=kind,
                    created=datetime.now(UTC),
                )
            )


def make_rated(service, game_id: str, users: list, rated: bool = True) -> None:
    """Give a game's seats to ``users`` and set ``rated`` (as accepting a challenge does)."""
    with service.storage.engine.begin() as conn:
        conn.execute(
            update(_games)
            .where(_games.c.id == game_id)
            .values(users=users, rated=rated, version=_games.c.version + 1)
        )
    service._cache.pop(game_id, None)


def rating_rows(engine) -> dict[tuple[str, str], tuple[float, float, int]]:
    with engine.connect() as conn:
        rows = conn.execute(select(_ratings)).all()
    return {(r.user_id, r.pool): (r.rating, r.rd, r.games) for r in rows}


def new_online(client) -> dict:
    r = client.post("/api/games", json={"game": "xobo", "mode": "online"})
    assert r.status_code == 201, r.text
    return r.json()


def wait_settled(client, game_id: str, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        snap = client.get(f"/api/games/{game_id}").json()
        if snap["rating_change"] is not None:
            return snap
        assert time.monotonic() < deadline, snap
        time.sleep(0.02)


@pytest.fixture
def app_client(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url, ai_workers=0))) as client:
        engine = client.app.state.service.storage.engine
        for user in ("ann", "bob", "cy"):
            add_user(engine, user)
        yield client


def test_a_rated_game_is_settled_when_it_ends(app_client):
    client = app_client
    service = client.app.state.service
    created = new_online(client)
    gid = created["id"]
    make_rated(service, gid, ["ann", "bob"])
    snap = client.get(f"/api/games/{gid}").json()
    assert snap["rated"] is True and snap["rating_change"] is None
    r = client.post(f"/api/games/{gid}/resign", headers=bearer(created["tokens"]["1"]))
    assert r.status_code == 200, r.text
    snap = wait_settled(client, gid)
    first, second = snap["rating_change"]
    assert first["before"] == second["before"] == 1500
    assert first["delta"] > 0 > second["delta"] and first["delta"] == -second["delta"]
    assert first["after"] == first["before"] + first["delta"] == 1662
    assert first["provisional"] and second["provisional"]  # RD 290 > 110
    pool = snap["spec"]
    rows = rating_rows(service.storage.engine)
    assert rows[("ann", pool)][2] == rows[("bob", pool)][2] == 1
    assert rows[("ann", pool)][0] == pytest.approx(1662.31, abs=0.01)
    # nothing more happens: settling again finds nothing to do
    assert client.portal.call(settle, service, gid) is False
    assert rating_rows(service.storage.engine) == rows


def test_a_draw_and_a_second_game_use_the_ratings_so_far(app_client):
    client = app_client
    service = client.app.state.service
    results = []
    for _ in range(2):
        created = new_online(client)
        gid = created["id"]
        make_rated(service, gid, ["ann", "cy"])
        headers = bearer(created["tokens"]["0"])
        client.post(
            f"/api/games/{gid}/offers", json={"kind": "draw", "action": "offer"}, headers=headers
        )
        r = client.post(
            f"/api/games/{gid}/offers",
            json={"kind": "draw", "action": "accept"},
            headers=bearer(created["tokens"]["1"]),
        )
        assert r.status_code == 200, r.text
        results.append(wait_settled(client, gid)["rating_change"])
    assert [c["delta"] for c in results[0]] == [0, 0]
    rows = rating_rows(service.storage.engine)
    pool = client.get(f"/api/games/{gid}").json()["spec"]
    assert rows[("ann", pool)][2] == 2
    assert rows[("ann", pool)][1] < 290  # two games: surer than after one


def test_casual_games_change_nothing(app_client):
    client = app_client
    service = client.app.state.service
    created = new_online(client)
    gid = created["id"]
    make_rated(service, gid, ["ann", "bob"], rated=False)
    client.post(f"/api/games/{gid}/resign", headers=bearer(created["tokens"]["0"]))
    assert client.portal.call(settle, service, gid) is False
    snap = client.get(f"/api/games/{gid}").json()
    assert snap["status"] == "finished" and snap["rated"] is False
    assert snap["rating_change"] is None
    assert rating_rows(service.storage.engine) == {}
    # nor one aborted before it started (an unstarted game's expiry)
    created = new_online(client)
    with service.storage.engine.begin() as conn:
        conn.execute(
            update(_games)
            .where(_games.c.id == created["id"])
            .values(status="aborted", decided="expired")
        )
    make_rated(service, created["id"], ["ann", "bob"])
    assert client.portal.call(settle, service, created["id"]) is False
    assert ratings.unsettled_games(service.storage.engine) == []
    # a rated game with a guest's seat is not rated either
    created = new_online(client)
    make_rated(service, created["id"], ["ann", None])
    client.post(f"/api/games/{created['id']}/resign", headers=bearer(created["tokens"]["0"]))
    assert client.portal.call(settle, service, created["id"]) is False
    assert rating_rows(service.storage.engine) == {}


def test_the_ai_levels_are_rated_players(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url))) as client:
        service = client.app.state.service
        engine = service.storage.engine
        add_user(engine, "ann")
        add_user(engine, "ai-easy", kind="ai")  # normally made at start-up
        r = client.post(
            "/api/games", json={"game": "xobo", "mode": "ai", "ai_level": "easy", "seat": 0}
        )
        created = r.json()
        gid = created["id"]
        make_rated(service, gid, ["ann", "ai-easy"])
        headers = bearer(created["tokens"]["0"])
        # no takeback in a rated game
        r = client.post(f"/api/games/{gid}/takeback", headers=headers)
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_allowed"
        client.post(f"/api/games/{gid}/resign", headers=headers)
        snap = wait_settled(client, gid)
        assert snap["rating_change"][1]["delta"] > 0
        assert [r.user for r in ratings.ratings_of(engine, "ai-easy")] == ["ai-easy"]


def test_two_services_settle_a_game_once(database_url):
    """Two applications on one database (two processes) try to settle the same game at
    once: one does it, the other finds it settled; each player's rating counts one game."""
    settings = make_settings(database_url, ai_workers=0)

    async def scenario() -> tuple[list[bool], dict, list]:
        a, b = create_app(settings), create_app(settings)
        async with a.router.lifespan_context(a), b.router.lifespan_context(b):
            sa, sb = a.state.service, b.state.service
            for user in ("ann", "bob"):
                add_user(sa.storage.engine, user)
            transport = httpx.ASGITransport(app=a)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                created = (
                    await c.post("/api/games", json={"game": "xobo", "mode": "online"})
                ).json()
                gid = created["id"]
                await c.post(f"/api/games/{gid}/resign", headers=bearer(created["tokens"]["0"]))
            # rated only now: the game ended rated and unsettled (as if its process stopped)
            make_rated(sa, gid, ["ann", "bob"])
            sb._cache.pop(gid, None)
            done = await asyncio.gather(*(settle(s, gid) for s in (sa, sb, sa, sb)))
            change = (await sb.get(gid)).rating_change
            return done, rating_rows(sa.storage.engine), change

    done, rows, change = asyncio.run(scenario())
    assert sorted(done) == [False, False, False, True]
    assert sorted(games for _, _, games in rows.values()) == [1, 1]
    assert change is not None and change[1]["delta"] > 0


def test_concurrent_commits_at_one_version_settle_once(database_url):
    """The settlement's own transaction: many threads at the same version, one wins."""
    settings = make_settings(database_url, ai_workers=0)
    with TestClient(create_app(settings)) as client:
        service = client.app.state.service
        engine = service.storage.engine
        for user in ("ann", "bob"):
            add_user(engine, user)
        created = new_online(client)
        gid = created["id"]
        client.post(f"/api/games/{gid}/resign", headers=bearer(created["tokens"]["1"]))
        make_rated(service, gid, ["ann", "bob"])
        with engine.connect() as conn:
            version = conn.execute(select(_games.c.version).where(_games.c.id == gid)).scalar()
        outcomes: list[bool] = []
        barrier = threading.Barrier(4)

        def attempt() -> None:
            barrier.wait()
            outcomes.append(commit_settlement(engine, gid, version, Change()))

        threads = [threading.Thread(target=attempt) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcomes) == [False, False, False, True]
        assert sorted(g for _, _, g in rating_rows(engine).values()) == [1, 1]
        # and at the next version, nothing is left to settle
        assert commit_settlement(engine, gid, version + 1, Change()) is False


def test_a_restart_settles_games_that_ended_unsettled(sqlite_url):
    settings = make_settings(sqlite_url, ai_workers=0)
    with TestClient(create_app(settings)) as client:
        service = client.app.state.service
        for user in ("ann", "bob"):
            add_user(service.storage.engine, user)
        created = new_online(client)
        gid = created["id"]
        client.post(f"/api/games/{gid}/resign", headers=bearer(created["tokens"]["1"]))
        make_rated(service, gid, ["ann", "bob"])  # ended, rated, not settled
    with TestClient(create_app(settings)) as client:
        snap = client.get(f"/api/games/{gid}").json()
        assert snap["rating_change"] is not None and snap["rating_change"][0]["delta"] > 0


# -- the leaderboard ----------------------------------------------------------------------


def _seed(engine, pool: str, rows: list[tuple[str, float, float, int]]) -> None:
    for user, _, _, _ in rows:
        add_user(engine, user)
    with engine.begin() as conn:
        for user, rating, rd, games in rows:
            conn.execute(
                insert(_ratings).values(
                    user_id=user,
                    pool=pool,
                    rating=rating,
                    rd=rd,
                    volatility=0.06,
                    games=games,
                    updated=datetime.now(UTC),
                )
            )


def test_the_leaderboard_orders_and_bounds(app_client):
    client = app_client
    engine = client.app.state.service.storage.engine
    pool = client.get("/api/leaderboard/volo").json()["pool"]
    mini = client.get("/api/leaderboard/volo?variant=mini").json()["pool"]
    assert pool != mini and mini.startswith("volo:board=mini")
    _seed(
        engine,
        pool,
        [
            ("p1", 1700.4, 60, 30),
            ("p2", 1800.0, 200, 3),  # provisional
            ("p3", 1650.0, 110, 12),  # exactly 110: established
            ("p4", 1700.4, 80, 50),  # ties p1 on rating, more games
            ("p5", 1500.0, 350, 0),  # never played
        ],
    )
    _seed(engine, mini, [("m1", 2000.0, 50, 20)])
    body = client.get("/api/leaderboard/volo").json()
    assert [p["user"] for p in body["players"]] == ["p4", "p1", "p3"]
    assert [p["rank"] for p in body["players"]] == [1, 2, 3]
    assert body["players"][0]["rating"] == 1700 and not body["players"][0]["provisional"]
    assert body["rated_players"] == 4 and body["variant"] == "standard"
    body = client.get("/api/leaderboard/volo?provisional=true&limit=2").json()
    assert [(p["user"], p["provisional"]) for p in body["players"]] == [
        ("p2", True),
        ("p4", False),
    ]
    assert [
        p["user"] for p in client.get("/api/leaderboard/volo?variant=mini").json()["players"]
    ] == ["m1"]
    by_spec = client.get("/api/leaderboard/volo", params={"spec": mini}).json()
    assert by_spec["variant"] == "mini" and by_spec["players"][0]["user"] == "m1"
    assert by_spec["changed"] == {"board": "mini"}
    other = client.get("/api/leaderboard/volo", params={"spec": "volo:supply=40"}).json()
    assert other["variant"] == "" and other["changed"] == {"supply": "40"}
    for bad in ("limit=0", "limit=101", "provisional=maybe"):
        r = client.get(f"/api/leaderboard/volo?{bad}")
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    r = client.get("/api/leaderboard/volo?variant=huge")
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_option"
    r = client.get("/api/leaderboard/volo", params={"spec": "xobo"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_option"
    r = client.get("/api/leaderboard/chess")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    # a player's ratings, for the profile page
    mine = [r.to_json() for r in ratings.ratings_of(engine, "p2")]
    assert mine == [
        {
            **mine[0],
            "user": "p2",
            "game": "volo",
            "pool": pool,
            "rating": 1800,
            "rd": 200,
            "games": 3,
            "provisional": True,
        }
    ]
    assert ratings.ratings_of(engine, "p5") == []  # no rated game played


def test_the_leaderboard_page_is_the_client(app_client):
    r = app_client.get("/leaderboard/volo")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]


def test_a_rated_challenge_between_two_accounts(app_client):
    """The whole path: two accounts, a rated challenge accepted, a resignation; the change
    shows in the snapshot, on both profiles and (asked for provisional ratings) on the
    leaderboard."""
    client = app_client
    app = client.app
    players = []
    for name in ("Alice", "Boris"):
        c = TestClient(app)
        csrf = {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}
        body = {"username": name, "password": "correct horse battery"}
        assert c.post("/api/account/signup", json=body, headers=csrf).status_code == 201
        players.append((c, csrf))
    (ann, ann_csrf), (bob, bob_csrf) = players
    body = {"game": "xobo", "rated": True, "colour": "0"}
    r = ann.post("/api/challenges", json=body, headers=ann_csrf)
    assert r.status_code == 201, r.text
    r = bob.post(f"/api/challenges/{r.json()['challenge']['id']}/accept", headers=bob_csrf)
    assert r.status_code == 200, r.text
    accepted = r.json()
    gid, seat = accepted["id"], accepted["seat"]
    assert accepted["game"]["rated"] is True and accepted["game"]["rating_change"] is None
    r = bob.post(f"/api/games/{gid}/resign", headers=bearer(accepted["tokens"][str(seat)]))
    assert r.status_code == 200, r.text
    change = wait_settled(client, gid)["rating_change"]
    assert change[seat]["delta"] < 0 < change[1 - seat]["delta"]
    for name, won in (("Alice", True), ("Boris", False)):
        (rating,) = client.get(f"/api/players/{name}").json()["ratings"]
        assert rating["games"] == 1 and rating["provisional"] is True
        assert (rating["rating"] > 1500) is won
    board = client.get("/api/leaderboard/xobo?provisional=true").json()
    assert [p["username"] for p in board["players"]] == ["Alice", "Boris"]
    assert client.get("/api/leaderboard/xobo").json()["players"] == []  # provisional


def test_a_flag_fall_settles_the_ratings_too(sqlite_url):
    """A rated game lost on time with nobody connected: the clock keeper's timeout goes
    through ``_change`` like any change, and the settlement follows it."""
    from .test_clocks import LIVE, FakeClock, create, play, start

    fake = FakeClock()
    client = start(sqlite_url, fake, ai_workers=0)
    try:
        service = client.app.state.service
        for user in ("ann", "bob"):
            add_user(service.storage.engine, user)
        created = create(client, clock=LIVE)
        gid = created["id"]
        make_rated(service, gid, ["ann", "bob"])
        play(client, created, 0)
        fake.advance(61)
        snap = wait_settled(client, gid)
        assert snap["result"]["reason"] == "timeout" and snap["result"]["winner"] == 0
        assert snap["rating_change"][0]["delta"] > 0 > snap["rating_change"][1]["delta"]
    finally:
        client.__exit__(None, None, None)


def test_the_rematch_of_a_rated_game_is_rated(app_client):
    client = app_client
    service = client.app.state.service
    created = new_online(client)
    gid = created["id"]
    make_rated(service, gid, ["ann", "bob"])
    client.post(f"/api/games/{gid}/resign", headers=bearer(created["tokens"]["0"]))
    wait_settled(client, gid)
    r = client.post(f"/api/games/{gid}/rematch", headers=bearer(created["tokens"]["0"]))
    assert r.status_code == 200, r.text
    rematch = client.get(f"/api/games/{r.json()['id']}").json()
    assert rematch["rated"] is True and rematch["rating_change"] is None
    assert [p["user"] for p in rematch["players"]] == ["bob", "ann"]
    # a casual game's rematch stays casual
    created = new_online(client)
    make_rated(service, created["id"], ["ann", "bob"], rated=False)
    client.post(f"/api/games/{created['id']}/resign", headers=bearer(created["tokens"]["0"]))
    r = client.post(f"/api/games/{created['id']}/rematch", headers=bearer(created["tokens"]["1"]))
    assert client.get(f"/api/games/{r.json()['id']}").json()["rated"] is False
