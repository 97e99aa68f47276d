"""Challenges (post, list, accept once, cancel, decline, expire) and unstarted games' expiry."""

from __future__ import annotations

import asyncio
import itertools
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from tablier.server import challenges
from tablier.server.app import create_app
from tablier.server.storage import now
from tablier.server.tables import ChallengeRow, GameRow

from .conftest import bearer, make_settings

_names = itertools.count()


@pytest.fixture
def app(sqlite_url):
    return create_app(make_settings(sqlite_url, ai_workers=0))


@pytest.fixture
def guest(app):
    with TestClient(app) as c:
        yield c


def other(app) -> TestClient:
    """Another browser on the same server (its own cookies)."""
    return TestClient(app)


def signup(client: TestClient, name: str | None = None) -> tuple[str, dict[str, str]]:
    """Sign ``client`` up (cookie kept); its username and the CSRF header to send."""
    name = name or f"player{next(_names)}"
    csrf = client.get("/api/account").json()["csrf"]
    headers = {"X-CSRF-Token": csrf}
    r = client.post(
        "/api/account/signup",
        json={"username": name, "password": "correct horse battery"},
        headers=headers,
    )
    assert r.status_code == 201, r.text
    return name, headers


def post(client: TestClient, headers: dict | None = None, **body) -> dict:
    body.setdefault("game", "xobo")
    r = client.post("/api/challenges", json=body, headers=headers or {})
    assert r.status_code == 201, r.text
    return r.json()


def ids(client: TestClient) -> set[str]:
    r = client.get("/api/challenges")
    assert r.status_code == 200, r.text
    return {c["id"] for c in r.json()["challenges"]}


def service_of(client: TestClient):
    return client.app.state.service


def engine_of(client: TestClient):
    return service_of(client).storage.engine


def test_post_list_and_accept_as_guests(app, guest):
    made = post(
        guest,
        game="volo",
        options={"board": "mini"},
        clock={"kind": "live", "base": 300, "increment": 2},
        colour="1",
        name="Ann",
    )
    shown, owner = made["challenge"], made["owner_token"]
    assert shown["status"] == "open" and shown["colour"] == "1" and shown["rated"] is False
    assert shown["variant"] == "mini" and shown["name"] == "Ann" and shown["user"] is None
    assert shown["clock"] == {"kind": "live", "base": 300, "increment": 2}
    assert "owner_hash" not in shown and owner not in str(shown)
    bob = other(app)
    listed = bob.get("/api/challenges").json()["challenges"]
    assert [c["id"] for c in listed] == [shown["id"]]
    r = bob.post(f"/api/challenges/{shown['id']}/accept", json={"name": "Bob"})
    assert r.status_code == 200, r.text
    game = r.json()
    assert game["seat"] == 0 and list(game["tokens"]) == ["0"]
    snap = game["game"]
    assert snap["you"] == 0 and [s["name"] for s in snap["seats"]] == ["Bob", "Ann"]
    assert snap["spec"].startswith("volo:board=mini")
    # The challenge now names the game and the poster's seat, to anyone (nothing secret).
    seen = guest.get(f"/api/challenges/{shown['id']}").json()
    assert (seen["status"], seen["game_id"], seen["seat"]) == ("accepted", game["id"], 1)
    assert shown["id"] not in ids(bob)
    # Both sides move: the acceptor with its token, the poster with its owner token.
    gid = game["id"]
    for token in (game["tokens"]["0"], owner):
        snap = guest.get(f"/api/games/{gid}").json()
        legal = guest.get(f"/api/games/{gid}/legal").json()["moves"]
        r = guest.post(
            f"/api/games/{gid}/moves",
            json={"ply": snap["ply"], "move": legal[0]["notation"]},
            headers=bearer(token),
        )
        assert r.status_code == 200, r.text
    assert guest.get(f"/api/games/{gid}", headers=bearer(owner)).json()["you"] == 1


def test_accepting_ones_own_or_a_taken_challenge(app, guest):
    made = post(guest)
    cid, owner = made["challenge"]["id"], made["owner_token"]
    r = guest.post(f"/api/challenges/{cid}/accept", headers=bearer(owner))
    assert r.status_code == 409 and r.json()["error"]["code"] == "own_challenge"
    assert other(app).post(f"/api/challenges/{cid}/accept").status_code == 200
    r = other(app).post(f"/api/challenges/{cid}/accept")
    assert r.status_code == 409 and r.json()["error"]["code"] == "challenge_taken"
    r = guest.post(f"/api/challenges/{cid}/cancel", headers=bearer(owner))
    assert r.status_code == 409 and r.json()["error"]["code"] == "challenge_taken"


def test_colours(app, guest):
    seats = set()
    for _ in range(16):
        cid = post(guest, colour="random")["challenge"]["id"]
        seats.add(other(app).post(f"/api/challenges/{cid}/accept").json()["seat"])
    assert seats == {0, 1}  # each of 16 draws is a coin toss: both appear but 2 times in 65,536
    cid = post(guest, colour="0")["challenge"]["id"]
    assert other(app).post(f"/api/challenges/{cid}/accept").json()["seat"] == 1


def test_cancel(app, guest):
    made = post(guest)
    cid, owner = made["challenge"]["id"], made["owner_token"]
    stranger = other(app)
    r = stranger.post(f"/api/challenges/{cid}/cancel", headers=bearer("not-the-owner"))
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_challenge"
    r = stranger.post(f"/api/challenges/{cid}/cancel")
    assert r.status_code == 403
    r = guest.post(f"/api/challenges/{cid}/cancel", headers=bearer(owner))
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert cid not in ids(stranger)
    r = stranger.post(f"/api/challenges/{cid}/accept")
    assert r.status_code == 410 and r.json()["error"]["code"] == "challenge_closed"
    r = guest.post(f"/api/challenges/{cid}/cancel", headers=bearer(owner))
    assert r.status_code == 410 and r.json()["error"]["state"] == "cancelled"
    assert guest.post("/api/challenges/nope/cancel").status_code == 404


def test_rated_needs_accounts(app, guest):
    r = guest.post("/api/challenges", json={"game": "xobo", "rated": True})
    assert r.status_code == 403 and r.json()["error"]["code"] == "account_required"
    ann = other(app)
    ann_name, ann_csrf = signup(ann)
    # A cookie-authenticated change needs the CSRF header.
    r = ann.post("/api/challenges", json={"game": "xobo", "rated": True})
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    shown = post(ann, ann_csrf, rated=True, colour="0", name="ignored")["challenge"]
    assert shown["rated"] and shown["user"] == ann_name and shown["name"] == ann_name
    assert shown["mine"] is True
    r = guest.post(f"/api/challenges/{shown['id']}/accept")
    assert r.status_code == 403 and r.json()["error"]["code"] == "account_required"
    bob = other(app)
    bob_name, bob_csrf = signup(bob)
    r = bob.post(f"/api/challenges/{shown['id']}/accept", headers=bob_csrf)
    assert r.status_code == 200, r.text
    gid = r.json()["id"]
    with engine_of(guest).connect() as conn:
        row = conn.execute(select(GameRow.__table__).where(GameRow.id == gid)).mappings().one()
    assert row["rated"] is True and row["names"] == [ann_name, bob_name]
    assert row["users"][0] and row["users"][1] and row["users"][0] != row["users"][1]


def test_direct_challenge(app, guest):
    ann, bob = other(app), other(app)
    _, ann_csrf = signup(ann)
    bob_name, bob_csrf = signup(bob)
    carl = other(app)
    _, carl_csrf = signup(carl)
    r = ann.post(
        "/api/challenges", json={"game": "xobo", "target": "nobody-here"}, headers=ann_csrf
    )
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_player"
    r = bob.post("/api/challenges", json={"game": "xobo", "target": bob_name}, headers=bob_csrf)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_target"
    shown = post(ann, ann_csrf, target=bob_name.upper())["challenge"]
    cid_ = shown["id"]
    assert shown["target"] == bob_name
    assert cid_ in ids(bob) and cid_ in ids(ann)
    assert cid_ not in ids(guest) and cid_ not in ids(carl)
    assert guest.get(f"/api/challenges/{cid_}").status_code == 404
    assert carl.post(f"/api/challenges/{cid_}/accept", headers=carl_csrf).status_code == 404
    assert carl.post(f"/api/challenges/{cid_}/decline", headers=carl_csrf).status_code == 404
    assert bob.get(f"/api/challenges/{cid_}").json()["target"] == bob_name
    r = bob.post(f"/api/challenges/{cid_}/decline", headers=bob_csrf)
    assert r.status_code == 200 and r.json()["status"] == "declined"
    assert cid_ not in ids(bob)
    # An accepted direct challenge: only the target may take it.
    cid_ = post(ann, ann_csrf, target=bob_name)["challenge"]["id"]
    r = bob.post(f"/api/challenges/{cid_}/accept", headers=bob_csrf)
    assert r.status_code == 200, r.text


async def _two_accepts(app, cid: str) -> list[httpx.Response]:
    transport = httpx.ASGITransport(app=app)
    async with (
        httpx.AsyncClient(transport=transport, base_url="http://test") as a,
        httpx.AsyncClient(transport=transport, base_url="http://test") as b,
    ):
        url = f"/api/challenges/{cid}/accept"
        return list(await asyncio.gather(a.post(url), b.post(url)))


def _games_count(client: TestClient) -> int:
    with engine_of(client).connect() as conn:
        return int(conn.execute(select(func.count()).select_from(GameRow.__table__)).scalar_one())


def test_two_accepters_race(app, guest):
    for _ in range(5):
        cid = post(guest)["challenge"]["id"]
        before = _games_count(guest)
        answers = guest.portal.call(_two_accepts, app, cid)
        assert sorted(r.status_code for r in answers) == [200, 409]
        loser = next(r for r in answers if r.status_code == 409)
        assert loser.json()["error"]["code"] == "challenge_taken"
        assert _games_count(guest) == before + 1


def test_two_processes_race(database_url):
    """Two applications on one database (two server processes): one game all the same."""
    settings = make_settings(database_url, ai_workers=0)
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        for _ in range(4):
            cid = post(a)["challenge"]["id"]
            url = f"/api/challenges/{cid}/accept"
            with ThreadPoolExecutor(2) as pool:
                answers = list(pool.map(lambda c, u=url: c.post(u), (a, b)))
            assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
            gid = next(r for r in answers if r.status_code == 200).json()["id"]
            assert a.get(f"/api/challenges/{cid}").json()["game_id"] == gid
            assert b.get(f"/api/games/{gid}").status_code == 200


def _age(client: TestClient, table, where, seconds: float = 60) -> None:
    with engine_of(client).begin() as conn:
        conn.execute(update(table).where(where).values(expires=now() - timedelta(seconds=seconds)))


def test_challenges_expire(app, guest):
    settings = app.state.settings
    live = post(guest, clock={"kind": "live", "base": 60, "increment": 0})["challenge"]
    slow = post(guest, clock={"kind": "correspondence", "days": 3})["challenge"]

    def lifetime(shown):
        from datetime import datetime

        created = datetime.fromisoformat(shown["created"])
        return (datetime.fromisoformat(shown["expires"]) - created).total_seconds()

    assert abs(lifetime(live) - settings.challenge_expiry) <= 1
    assert abs(lifetime(slow) - settings.challenge_expiry_long) <= 1
    _age(guest, ChallengeRow.__table__, ChallengeRow.id == live["id"])
    # Read lazily before any sweep: not listed, shown expired, not accepted.
    assert live["id"] not in ids(guest) and slow["id"] in ids(guest)
    assert guest.get(f"/api/challenges/{live['id']}").json()["status"] == "expired"
    r = other(app).post(f"/api/challenges/{live['id']}/accept")
    assert r.status_code == 410 and r.json()["error"]["state"] == "expired"
    expired, _ = guest.portal.call(challenges.sweep, service_of(guest))
    assert expired == 1
    with engine_of(guest).connect() as conn:
        status = conn.execute(
            select(ChallengeRow.__table__.c.status).where(ChallengeRow.id == live["id"])
        ).scalar_one()
    assert status == "expired"


def _move(client: TestClient, gid: str, token: str) -> None:
    snap = client.get(f"/api/games/{gid}").json()
    legal = client.get(f"/api/games/{gid}/legal").json()["moves"]
    r = client.post(
        f"/api/games/{gid}/moves",
        json={"ply": snap["ply"], "move": legal[0]["notation"]},
        headers=bearer(token),
    )
    assert r.status_code == 200, r.text


def _expires(client: TestClient, gid: str):
    with engine_of(client).connect() as conn:
        return conn.execute(
            select(GameRow.__table__.c.expires).where(GameRow.id == gid)
        ).scalar_one()


def test_unstarted_games_expire(app, guest):
    games = [guest.post("/api/games", json={"game": "xobo"}).json() for _ in range(3)]
    local = guest.post("/api/games", json={"game": "xobo", "mode": "local"}).json()
    assert _expires(guest, local["id"]) is None
    for g in games:
        assert _expires(guest, g["id"]) is not None
    untouched, half, started = games
    _move(guest, half["id"], half["tokens"]["0"])
    assert _expires(guest, half["id"]) is not None  # one side only: not started
    _move(guest, started["id"], started["tokens"]["0"])
    _move(guest, started["id"], started["tokens"]["1"])
    assert _expires(guest, started["id"]) is None  # both sides decided: started
    _age(guest, GameRow.__table__, GameRow.id.in_([untouched["id"], half["id"]]))
    _, aborted = guest.portal.call(challenges.sweep, service_of(guest))
    assert aborted == 2
    for g in (untouched, half):
        snap = guest.get(f"/api/games/{g['id']}").json()
        assert snap["status"] == "aborted" and snap["result"] is None
        r = guest.post(
            f"/api/games/{g['id']}/moves",
            json={"ply": snap["ply"], "move": "x"},
            headers=bearer(g["tokens"]["1"]),
        )
        assert r.status_code == 410
    assert guest.get(f"/api/games/{started['id']}").json()["status"] == "active"
    assert guest.portal.call(challenges.sweep, service_of(guest)) == (0, 0)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"game": "volo", "options": {"board": "huge"}}, "bad_option"),
        ({"game": "xobo", "clock": {"kind": "blitz", "base": 60}}, "invalid_request"),
        ({"game": "xobo", "clock": {"kind": "live", "base": -1}}, "invalid_request"),
        ({"game": "xobo", "clock": {"kind": "correspondence", "days": 99}}, "invalid_request"),
        ({"game": "xobo", "colour": "2"}, "invalid_request"),
        ({"game": "xobo", "rated": "yes"}, "invalid_request"),
        ({"game": "xobo", "target": "x" * 41}, "invalid_request"),
        ({"game": "xobo", "extra": 1}, "invalid_request"),
    ],
)
def test_bad_challenges(guest, body, code):
    r = guest.post("/api/challenges", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] == code, r.text


def test_listing_is_bounded(guest):
    for _ in range(3):
        post(guest)
    assert len(guest.get("/api/challenges?limit=2").json()["challenges"]) == 2
    assert guest.get("/api/challenges?limit=0").status_code == 422
    assert guest.get("/api/challenges?limit=101").status_code == 422


def test_the_challenge_rate_limit(sqlite_url):
    settings = make_settings(sqlite_url, ai_workers=0, rate_limits={"challenge": "2/minute"})
    with TestClient(create_app(settings)) as c:
        assert [c.post("/api/challenges", json={"game": "xobo"}).status_code for _ in range(3)] == [
            201,
            201,
            429,
        ]


def test_games_status(guest):
    a = guest.post("/api/games", json={"game": "xobo"}).json()
    b = guest.post("/api/games", json={"game": "xobo"}).json()
    _move(guest, b["id"], b["tokens"]["0"])
    body = {
        "games": [
            {"id": a["id"], "token": a["tokens"]["0"]},
            {"id": b["id"], "token": b["tokens"]["0"]},
            {"id": b["id"], "token": b["tokens"]["1"]},
            {"id": a["id"]},
            {"id": "missing"},
        ]
    }
    out = guest.post("/api/turns", json=body).json()["games"]
    assert [g.get("your_turn") for g in out] == [True, False, True, False, None]
    assert [g.get("you") for g in out[:4]] == [0, 0, 1, None]
    assert out[4]["status"] == "missing"
    too_many = {"games": [{"id": a["id"]}] * 51}
    assert guest.post("/api/turns", json=too_many).status_code == 422
