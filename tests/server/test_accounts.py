"""Players: guests' names, accounts, sessions, CSRF, claiming seats, seat tokens, the AI's
users and profiles (``server/accounts.py``, ``server/routers/accounts.py``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from tablier.server.accounts import SESSION_COOKIE
from tablier.server.app import create_app
from tablier.server.storage import now
from tablier.server.tables import SessionRow

from .conftest import bearer, make_settings, new_game


@pytest.fixture
def app(sqlite_url):
    return create_app(make_settings(sqlite_url))


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


def csrf(client: TestClient) -> dict[str, str]:
    """The CSRF header of ``client`` (its cookie set by GET /api/account)."""
    r = client.get("/api/account")
    assert r.status_code == 200
    return {"X-CSRF-Token": r.json()["csrf"]}


def signup(client: TestClient, username: str, password: str = "correct horse") -> dict:
    r = client.post(
        "/api/account/signup",
        json={"username": username, "password": password},
        headers=csrf(client),
    )
    assert r.status_code == 201, r.text
    return r.json()["user"]


def test_signup_logs_in_with_a_secure_cookie(client):
    user = signup(client, "Ann_1")
    assert user["username"] == "Ann_1" and user["kind"] == "account"
    assert client.get("/api/account").json()["user"] == user
    cookie = next(c for c in client.cookies.jar if c.name == SESSION_COOKIE)
    assert cookie.has_nonstandard_attr("HttpOnly")
    r = client.post(
        "/api/account/login",
        json={"username": "ann_1", "password": "correct horse"},
        headers=csrf(client),
    )
    assert "samesite=lax" in r.headers["set-cookie"].lower()
    assert "httponly" in r.headers["set-cookie"].lower()


def test_secure_cookie_over_https(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url)), base_url="https://testserver") as c:
        r = c.post(
            "/api/account/signup", json={"username": "sec", "password": "x" * 8}, headers=csrf(c)
        )
        assert r.status_code == 201
        assert "secure" in r.headers["set-cookie"].lower()


def test_duplicate_username_any_case(client, app):
    signup(client, "Bob")
    with TestClient(app) as other:
        r = other.post(
            "/api/account/signup",
            json={"username": "bOB", "password": "x" * 8},
            headers=csrf(other),
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "username_taken"


@pytest.mark.parametrize(
    ("username", "password", "code"),
    [
        ("ok_name", "short", "bad_password"),
        ("ok_name", "x" * 257, "bad_password"),
        ("a", "long enough", "bad_username"),
        ("has space", "long enough", "bad_username"),
        ("x" * 21, "long enough", "bad_username"),
        ("AI-hard", "long enough", "bad_username"),
    ],
)
def test_bad_usernames_and_passwords(client, username, password, code):
    r = client.post(
        "/api/account/signup",
        json={"username": username, "password": password},
        headers=csrf(client),
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == code
    assert client.get("/api/account").json()["user"] is None


def test_password_limits_are_inclusive(client, app):
    signup(client, "eight", "x" * 8)
    with TestClient(app) as other:
        signup(other, "long", "y" * 256)


def test_login_wrong_password_and_unknown_user(client, app):
    signup(client, "carol")
    with TestClient(app) as other:
        for name, password in (("carol", "wrong password"), ("nobody", "whatever1")):
            r = other.post(
                "/api/account/login",
                json={"username": name, "password": password},
                headers=csrf(other),
            )
            assert r.status_code == 401 and r.json()["error"]["code"] == "bad_credentials"
        r = other.post(
            "/api/account/login",
            json={"username": "CAROL", "password": "correct horse"},
            headers=csrf(other),
        )
        assert r.status_code == 200 and r.json()["user"]["username"] == "carol"


def test_logout_deletes_the_session(client, app):
    signup(client, "dave")
    token = client.cookies[SESSION_COOKIE]
    r = client.post("/api/account/logout", headers=csrf(client))
    assert r.status_code == 200 and r.json() == {"user": None}
    assert client.get("/api/account").json()["user"] is None
    with TestClient(app) as thief:  # the old cookie is worth nothing any more
        thief.cookies.set(SESSION_COOKIE, token)
        assert thief.get("/api/account").json()["user"] is None


def test_session_expiry(client, app):
    signup(client, "erin")
    engine = app.state.service.storage.engine
    with engine.begin() as conn:
        conn.execute(update(SessionRow.__table__).values(expires=now() - timedelta(seconds=1)))
    assert client.get("/api/account").json()["user"] is None


@pytest.mark.parametrize("header", [None, "wrong-token-" + "x" * 30])
def test_csrf_missing_or_wrong(client, header):
    csrf(client)  # the cookie is there
    headers = {} if header is None else {"X-CSRF-Token": header}
    for path in ("/api/account/signup", "/api/account/login"):
        r = client.post(path, json={"username": "frank", "password": "x" * 8}, headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    signup(client, "frank")
    r = client.post("/api/account/logout", headers=headers)
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    r = client.post("/api/account/claim", json={"seats": []}, headers=headers)
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    r = client.post("/api/games", json={"game": "xobo"}, headers=headers)
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    assert client.get("/api/account").json()["user"]["username"] == "frank"


def test_csrf_without_cookie_and_cross_site(client):
    r = client.post(
        "/api/account/signup",
        json={"username": "gina", "password": "x" * 8},
        headers={"X-CSRF-Token": "a" * 43},
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    r = client.post(
        "/api/account/signup",
        json={"username": "gina", "password": "x" * 8},
        headers={**csrf(client), "Sec-Fetch-Site": "cross-site"},
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"


def test_bearer_requests_need_no_csrf(client):
    game = new_game(client)
    r = client.post(
        f"/api/games/{game['id']}/moves",
        json={"ply": 0, "move": "a1"},
        headers=bearer(game["tokens"]["0"]),
    )
    assert r.status_code == 200


def test_guest_joins_with_a_name(client, app):
    game = new_game(client, names=["Ann", ""])
    assert [p["kind"] for p in game["game"]["players"]] == ["guest", "guest"]
    with TestClient(app) as joiner:
        r = joiner.post(
            f"/api/games/{game['id']}/join",
            json={"name": " Bob\n\t Lee " + "z" * 60},
            headers=bearer(game["tokens"]["1"]),
        )
        assert r.status_code == 200
        players = r.json()["players"]
    assert players[1] == {
        "name": ("Bob Lee " + "z" * 60)[:40],
        "user": None,
        "username": None,
        "kind": "guest",
    }
    snap = client.get(f"/api/games/{game['id']}").json()
    assert snap["seats"][1]["name"].startswith("Bob Lee")
    r = client.post(f"/api/games/{game['id']}/join", json={"name": "x"})
    assert r.status_code == 401


def test_logged_in_creator_and_joiner(client, app):
    ann = signup(client, "ann")
    game = client.post(
        "/api/games", json={"game": "xobo", "names": ["ignored"]}, headers=csrf(client)
    ).json()
    assert game["game"]["players"][0] == {
        "name": "ann",
        "user": ann["id"],
        "username": "ann",
        "kind": "account",
    }
    with TestClient(app) as other:
        bob = signup(other, "bob")
        r = other.post(
            f"/api/games/{game['id']}/join",
            json={"name": ""},
            headers={**bearer(game["tokens"]["1"]), **csrf(other)},
        )
        assert r.status_code == 200
        assert r.json()["players"][1]["user"] == bob["id"]
        # the account's seat keeps its username when a guest renames it
    with TestClient(app) as guest:
        r = guest.post(
            f"/api/games/{game['id']}/join",
            json={"name": "Mallory"},
            headers=bearer(game["tokens"]["1"]),
        )
        assert r.json()["players"][1]["name"] == "bob"


def test_claim_a_guests_games(client, app):
    game = new_game(client, names=["guest", ""])
    local = new_game(client, mode="local")
    signup(client, "hank")
    seats = [
        {"game": game["id"], "token": game["tokens"]["0"]},
        {"game": local["id"], "token": local["tokens"]["both"]},
        {"game": game["id"], "token": "not-a-token"},
        {"game": "nogame", "token": "x"},
    ]
    r = client.post("/api/account/claim", json={"seats": seats}, headers=csrf(client))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["claimed"] == [{"game": game["id"], "seat": 0}]
    assert [x["code"] for x in body["refused"]] == ["not_allowed", "not_your_seat", "not_found"]
    snap = client.get(f"/api/games/{game['id']}").json()
    assert snap["players"][0]["username"] == "hank" and snap["seats"][0]["name"] == "hank"
    profile = client.get("/api/players/HANK").json()
    assert [g["id"] for g in profile["games"]] == [game["id"]]
    # another account cannot take the seat over
    with TestClient(app) as other:
        signup(other, "ivan")
        r = other.post("/api/account/claim", json={"seats": seats[:1]}, headers=csrf(other))
        assert r.json()["refused"] == [{"game": game["id"], "code": "seat_taken"}]
    r = TestClient(app).post("/api/account/claim", json={"seats": []})
    assert r.status_code in (401, 403)


def test_claim_needs_login(client):
    r = client.post("/api/account/claim", json={"seats": []}, headers=csrf(client))
    assert r.status_code == 401 and r.json()["error"]["code"] == "login_required"


def test_seat_token_for_another_device(client, app):
    signup(client, "judy")
    game = client.post("/api/games", json={"game": "xobo", "seat": 1}, headers=csrf(client)).json()
    r = client.post(f"/api/games/{game['id']}/seat", headers=csrf(client))
    assert r.status_code == 200
    fresh = r.json()
    assert fresh["seat"] == 1 and fresh["link"].endswith(f"#seat={fresh['token']}")
    assert client.get(f"/api/games/{game['id']}", headers=bearer(fresh["token"])).json()["you"] == 1
    for _ in range(16 - 2):  # the creator's token, the one above, then up to 16
        assert client.post(f"/api/games/{game['id']}/seat", headers=csrf(client)).status_code == 200
    r = client.post(f"/api/games/{game['id']}/seat", headers=csrf(client))
    assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_tokens"
    with TestClient(app) as other:
        signup(other, "kim")
        r = other.post(f"/api/games/{game['id']}/seat", headers=csrf(other))
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_game"
    with TestClient(app) as guest:
        r = guest.post(f"/api/games/{game['id']}/seat", headers=csrf(guest))
        assert r.status_code == 401 and r.json()["error"]["code"] == "login_required"


def test_ai_levels_are_players(client, app):
    from tablier.ai.players import LEVELS
    from tablier.server.accounts import ensure_ai_users

    for level in LEVELS:
        r = client.get(f"/api/players/AI-{level}")
        assert r.status_code == 200
        assert r.json()["user"] == {"id": f"ai-{level}", "username": f"AI-{level}", "kind": "ai"}
    engine = app.state.service.storage.engine
    assert ensure_ai_users(engine, LEVELS) == 0  # idempotent
    game = new_game(client, mode="ai", ai_level="hard", seat=0)
    assert game["game"]["players"][1] == {
        "name": "AI (hard)",
        "user": "ai-hard",
        "username": "AI-hard",
        "kind": "ai",
    }
    profile = client.get("/api/players/ai-hard").json()
    assert profile["games"][0]["id"] == game["id"] and profile["games"][0]["seat"] == 1


def test_profile_results_ratings_and_pages(client, app):
    from tablier.server.tables import RatingRow

    lee = signup(client, "lee")
    ids = []
    for _ in range(3):
        g = client.post("/api/games", json={"game": "xobo"}, headers=csrf(client)).json()
        ids.append(g["id"])
    r = client.post(
        f"/api/games/{ids[0]}/resign",
        headers=bearer(
            client.post(f"/api/games/{ids[0]}/seat", headers=csrf(client)).json()["token"]
        ),
    )
    assert r.status_code == 200
    engine = app.state.service.storage.engine
    with engine.begin() as conn:
        conn.execute(
            RatingRow.__table__.insert().values(
                user_id=lee["id"],
                pool="xobo",
                rating=1612.4,
                rd=60.0,
                volatility=0.06,
                games=12,
                updated=now(),
            )
        )
    page = client.get("/api/players/lee?limit=2").json()
    assert page["results"] == {"total": 3, "wins": 0, "losses": 1, "draws": 0, "playing": 2}
    assert len(page["games"]) == 2 and page["next"] == 2
    assert page["ratings"] == [
        {
            "pool": "xobo",
            "game": "xobo",
            "variant": "xobo",  # the variant the pool's spec is, named in the page's language
            "title": page["ratings"][0]["title"],
            "rating": 1612.4,
            "rd": 60.0,
            "games": 12,
            "provisional": False,
        }
    ]
    rest = client.get("/api/players/lee?limit=2&offset=2").json()
    assert len(rest["games"]) == 1 and rest["next"] is None
    assert {g["id"] for g in page["games"] + rest["games"]} == set(ids)
    lost = next(g for g in page["games"] + rest["games"] if g["id"] == ids[0])
    assert lost["outcome"] == "loss"
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/players/lee?limit=500").status_code == 422
    r = client.get("/@/lee")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]


def test_accounts_and_profile_on_both_databases(database_url):
    """The JSON-path queries of profiles and the AI's users, on SQLite and PostgreSQL."""
    with TestClient(create_app(make_settings(database_url))) as c:
        user = signup(c, "Pat")
        g = c.post("/api/games", json={"game": "xobo", "seat": 1}, headers=csrf(c)).json()
        ai = c.post(
            "/api/games", json={"game": "xobo", "mode": "ai", "ai_level": "easy"}, headers=csrf(c)
        ).json()
        profile = c.get("/api/players/pat").json()
        assert profile["user"]["id"] == user["id"]
        assert {x["id"]: x["seat"] for x in profile["games"]} == {g["id"]: 1, ai["id"]: 0}
        assert c.get("/api/players/AI-easy").json()["results"]["total"] == 1
        r = c.post(
            "/api/account/signup", json={"username": "PAT", "password": "x" * 8}, headers=csrf(c)
        )
        assert r.json()["error"]["code"] == "username_taken"


def test_login_and_signup_are_rate_limited(sqlite_url):
    limits = {"login": "3/minute", "signup": "1/hour"}
    with TestClient(create_app(make_settings(sqlite_url, rate_limits=limits))) as c:
        signup(c, "quinn")
        r = c.post(
            "/api/account/signup", json={"username": "quinn2", "password": "x" * 8}, headers=csrf(c)
        )
        assert r.status_code == 429 and r.json()["error"]["limit"] == "signup"
        codes = []
        for _ in range(4):
            r = c.post(
                "/api/account/login",
                json={"username": "quinn", "password": "guess123"},
                headers=csrf(c),
            )
            codes.append(r.json()["error"]["code"])
        assert codes == ["bad_credentials"] * 3 + ["rate_limited"]
        assert int(r.headers["retry-after"]) >= 1
    # per username too: guesses from another address count against the same account
    app = create_app(make_settings(sqlite_url, rate_limits={"login": "2/minute"}))
    with TestClient(app) as a, TestClient(app, client=("198.51.100.7", 5000)) as b:
        for client in (a, b):
            r = client.post(
                "/api/account/login",
                json={"username": "Quinn", "password": "x" * 8},
                headers=csrf(client),
            )
            assert r.status_code == 401
        r = b.post(
            "/api/account/login", json={"username": "quinn", "password": "x" * 8}, headers=csrf(b)
        )
        assert r.status_code == 429
