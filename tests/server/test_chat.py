"""The chat of a game: the players' and spectators' rooms, cleaning and limits, mutes, the
players' room turned off, the rate limit, the history on joining and after the game."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tablier.server.app import create_app
from tablier.server.chat import MAX_TEXT

from .conftest import bearer, make_settings, new_game

SCRIPT = "<script>alert(1)</script><img src=x onerror=alert(1)>"


def say(client, gid, text, token=None, **kw):
    headers = bearer(token) if token else {}
    return client.post(f"/api/games/{gid}/chat", json={"text": text, **kw}, headers=headers)


def read(client, gid, token=None) -> dict:
    r = client.get(f"/api/games/{gid}/chat", headers=bearer(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def texts(body: dict) -> list[str]:
    return [m["text"] for m in body["messages"]]


def receive_until(ws, kind: str, limit: int = 20) -> dict:
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def join(ws, token=None) -> tuple[dict, dict]:
    """Say hello: the snapshot and the chat history that follows it."""
    ws.send_json({"type": "hello", "token": token})
    snap = ws.receive_json()
    assert snap["type"] == "snapshot"
    return snap["game"], receive_until(ws, "chat_history")


def test_rooms_are_apart_while_the_game_runs(shared_client):
    created = new_game(shared_client, "xobo")
    gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    r = say(shared_client, gid, "good luck", t0)
    assert r.status_code == 201, r.text
    message = r.json()["message"]
    assert message["room"] == "players" and message["seat"] == 0 and message["text"] == "good luck"
    assert say(shared_client, gid, "who wins?", name="Zoe").status_code == 201
    assert texts(read(shared_client, gid, t1)) == ["good luck"]
    spectators = read(shared_client, gid)
    assert texts(spectators) == ["who wins?"]
    assert spectators["messages"][0]["name"] == "Zoe" and spectators["messages"][0]["seat"] is None
    assert spectators["room"] == "spectators" and spectators["rooms"] == ["spectators"]


def test_live_delivery_follows_the_rooms(shared_client):
    created = new_game(shared_client, "xobo")
    gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    with (
        shared_client.websocket_connect(f"/ws/games/{gid}") as p0,
        shared_client.websocket_connect(f"/ws/games/{gid}") as p1,
        shared_client.websocket_connect(f"/ws/games/{gid}") as watcher,
    ):
        join(p0, t0)
        join(p1, t1)
        join(watcher)
        watcher.send_json({"type": "chat", "text": "nice opening", "ref": 7})
        p0.send_json({"type": "chat", "text": SCRIPT})
        # the players get the players' message and nothing of the spectators' room
        got = receive_until(p1, "chat")["message"]
        assert got["text"] == SCRIPT and got["room"] == "players"
        assert receive_until(p0, "chat")["message"]["text"] == SCRIPT
        seen = receive_until(watcher, "chat")["message"]
        assert seen["text"] == "nice opening" and seen["room"] == "spectators"
        # the next chat message each socket gets is the next one sent in its room
        watcher.send_json({"type": "chat", "text": "second"})
        assert receive_until(watcher, "chat")["message"]["text"] == "second"
        p1.send_json({"type": "chat", "text": "thanks"})
        assert receive_until(p0, "chat")["message"]["text"] == "thanks"


def test_text_is_cleaned_stored_as_is_and_bounded(shared_client):
    created = new_game(shared_client, "xobo")
    gid, t0 = created["id"], created["tokens"]["0"]
    r = say(shared_client, gid, f"  {SCRIPT}\n\n\tnext\u202e\x00 ", t0)
    assert r.status_code == 201
    assert r.json()["message"]["text"] == f"{SCRIPT} next"
    # the answer is JSON: the payload is a JSON string, nothing is escaped or executed
    assert '"text":"<script>alert(1)</script>' in r.text.replace(" ", "")
    assert texts(read(shared_client, gid, t0)) == [f"{SCRIPT} next"]
    assert say(shared_client, gid, "x" * MAX_TEXT, t0).status_code == 201
    too_long = say(shared_client, gid, "x" * (MAX_TEXT + 1), t0)
    assert too_long.status_code == 422 and too_long.json()["error"]["code"] == "chat_too_long"
    empty = say(shared_client, gid, " \n\u200b\x07 ", t0)
    assert empty.status_code == 422 and empty.json()["error"]["code"] == "chat_empty"
    huge = say(shared_client, gid, "x" * 1001, t0)
    assert huge.status_code == 422 and huge.json()["error"]["code"] == "invalid_request"


def test_names_come_from_the_seat_not_the_request(shared_client):
    created = new_game(shared_client, "xobo", names=["Ann", "Bob"])
    gid, t1 = created["id"], created["tokens"]["1"]
    message = say(shared_client, gid, "hi", t1, name="Ann").json()["message"]
    assert message["name"] == "Bob" and message["seat"] == 1
    spectator = say(shared_client, gid, "hey", name="  Eve\n\x1b ").json()["message"]
    assert spectator["name"] == "Eve"


def test_mute(shared_client):
    created = new_game(shared_client, "xobo")
    gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    say(shared_client, gid, "before", t1)
    r = shared_client.post(
        f"/api/games/{gid}/chat/settings", json={"mute": True}, headers=bearer(t0)
    )
    assert r.status_code == 200, r.text
    assert r.json()["muted"] == [True, False]
    say(shared_client, gid, "spam", t1)
    say(shared_client, gid, "mine", t0)
    assert texts(read(shared_client, gid, t0)) == ["mine"]
    assert texts(read(shared_client, gid, t1)) == ["before", "spam", "mine"]
    with (
        shared_client.websocket_connect(f"/ws/games/{gid}") as p0,
        shared_client.websocket_connect(f"/ws/games/{gid}") as p1,
    ):
        assert texts(join(p0, t0)[1]) == ["mine"]
        join(p1, t1)
        p1.send_json({"type": "chat", "text": "more spam"})
        assert receive_until(p1, "chat")["message"]["text"] == "more spam"
        p0.send_json({"type": "chat_settings", "mute": False})
        assert receive_until(p0, "snapshot")["game"]["muted"] == [False, False]
        p1.send_json({"type": "chat", "text": "heard"})
        # p0 never got "more spam": its next chat message is "heard"
        assert receive_until(p0, "chat")["message"]["text"] == "heard"
    spectators = say(shared_client, gid, "x").json()
    assert spectators["message"]["room"] == "spectators"


def test_chat_off(shared_client):
    created = new_game(shared_client, "xobo")
    gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    assert shared_client.get(f"/api/games/{gid}").json()["chat_off"] is False
    r = shared_client.post(
        f"/api/games/{gid}/chat/settings", json={"chat_off": True}, headers=bearer(t1)
    )
    assert r.status_code == 200 and r.json()["chat_off"] is True
    refused = say(shared_client, gid, "hello?", t0)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "chat_off"
    assert say(shared_client, gid, "spectators still talk").status_code == 201
    version = shared_client.get(f"/api/games/{gid}").json()
    r = shared_client.post(
        f"/api/games/{gid}/chat/settings", json={"chat_off": False}, headers=bearer(t0)
    )
    assert r.status_code == 200 and r.json()["chat_off"] is False
    assert r.json()["updated"] >= version["updated"]
    assert say(shared_client, gid, "back", t0).status_code == 201
    # spectators and games without two people have no settings to change
    r = shared_client.post(f"/api/games/{gid}/chat/settings", json={"chat_off": True})
    assert r.status_code == 401
    ai = new_game(shared_client, "xobo", mode="ai")
    r = shared_client.post(
        f"/api/games/{ai['id']}/chat/settings",
        json={"mute": True},
        headers=bearer(ai["tokens"]["0"]),
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_allowed"


def test_chat_off_from_the_start(shared_client):
    created = new_game(shared_client, "xobo", chat_off=True)
    gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    assert created["game"]["chat_off"] is True
    refused = say(shared_client, gid, "hello?", t1)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "chat_off"
    r = shared_client.post(
        f"/api/games/{gid}/chat/settings", json={"chat_off": False}, headers=bearer(t0)
    )
    assert r.status_code == 200 and r.json()["chat_off"] is False
    assert say(shared_client, gid, "hello", t1).status_code == 201
    # only games between people have a players' room to turn off
    ai = new_game(shared_client, "xobo", mode="ai", chat_off=True)
    assert ai["game"]["chat_off"] is False
    r = shared_client.post("/api/games", json={"game": "xobo", "chat_off": "yes"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


def test_settings_go_through_the_version_check(shared_client):
    created = new_game(shared_client, "xobo")
    gid, t0 = created["id"], created["tokens"]["0"]
    service = shared_client.app.state.service
    storage = service.storage
    before = storage.load(gid)[0]["version"]
    shared_client.post(f"/api/games/{gid}/chat/settings", json={"mute": True}, headers=bearer(t0))
    row = storage.load(gid)[0]
    assert row["version"] == before + 1 and row["mutes"] == [True, False]


def test_history_on_join_and_after_the_game(shared_client):
    created = new_game(shared_client, "xobo")
    gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    say(shared_client, gid, "gl", t0)
    say(shared_client, gid, "hf", t1)
    say(shared_client, gid, "go Ann", name="Zoe")
    with shared_client.websocket_connect(f"/ws/games/{gid}") as p1:
        snap, history = join(p1, t1)
        assert snap["chat_off"] is False and snap["muted"] == [False, False]
        assert history["room"] == "players" and texts(history) == ["gl", "hf"]
    assert shared_client.post(f"/api/games/{gid}/resign", headers=bearer(t0)).status_code == 200
    # once over, the game's page is its review: everyone reads both rooms
    for token in (t0, t1, None):
        body = read(shared_client, gid, token)
        assert texts(body) == ["gl", "hf", "go Ann"] and body["rooms"] == ["players", "spectators"]
    with shared_client.websocket_connect(f"/ws/games/{gid}") as watcher:
        _, history = join(watcher)
        assert texts(history) == ["gl", "hf", "go Ann"]
    # players still talk in their room after the end ("good game")
    assert say(shared_client, gid, "gg", t1).json()["message"]["room"] == "players"


def test_history_is_bounded(shared_client):
    from tablier.server.chat import HISTORY

    created = new_game(shared_client, "xobo")
    gid, t0 = created["id"], created["tokens"]["0"]
    for i in range(HISTORY + 5):
        say(shared_client, gid, f"m{i}", t0)
    got = texts(read(shared_client, gid, t0))
    assert len(got) == HISTORY and got[0] == "m5" and got[-1] == f"m{HISTORY + 4}"


def test_seats_of_games_without_two_people_write_with_the_spectators(shared_client):
    ai = new_game(shared_client, "xobo", mode="ai")
    message = say(shared_client, ai["id"], "hi", ai["tokens"]["0"]).json()["message"]
    assert message["room"] == "spectators" and message["seat"] is None


def test_rate_limit(sqlite_url):
    settings = make_settings(sqlite_url, rate_limits={"chat": "3/minute"})
    with TestClient(create_app(settings)) as client:
        created = new_game(client, "xobo")
        gid, t0 = created["id"], created["tokens"]["0"]
        for i in range(3):
            assert say(client, gid, f"m{i}", t0).status_code == 201
        r = say(client, gid, "one too many", t0)
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            join(ws, t0)
            ws.send_json({"type": "chat", "text": "still?", "ref": "c1"})
            error = receive_until(ws, "error")
            assert error["code"] == "rate_limited" and error["ref"] == "c1"
            assert error["retry_after"] >= 1
        assert texts(read(client, gid, t0)) == ["m0", "m1", "m2"]
        # the settings count too: each change goes to every socket
        r = client.post(f"/api/games/{gid}/chat/settings", json={"mute": True}, headers=bearer(t0))
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"


def test_bad_chat_messages_keep_the_socket(shared_client):
    created = new_game(shared_client, "xobo")
    gid = created["id"]
    with shared_client.websocket_connect(f"/ws/games/{gid}") as ws:
        join(ws)
        ws.send_json({"type": "chat", "text": 3, "ref": 1})
        assert receive_until(ws, "error")["code"] == "bad_message"
        ws.send_json({"type": "chat_settings", "mute": True, "ref": 2})
        error = receive_until(ws, "error")
        assert error["code"] == "not_your_seat" and error["ref"] == 2
        ws.send_json({"type": "chat", "text": "fine"})
        assert receive_until(ws, "chat")["message"]["text"] == "fine"


def test_stored_on_each_database(database_url):
    with TestClient(create_app(make_settings(database_url, ai_workers=0))) as client:
        created = new_game(client, "xobo")
        gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
        first = say(client, gid, SCRIPT, t0).json()["message"]
        second = say(client, gid, "ok", t1).json()["message"]
        assert second["id"] > first["id"]
        assert texts(read(client, gid, t1)) == [SCRIPT, "ok"]
        r = client.post(
            f"/api/games/{gid}/chat/settings", json={"chat_off": True}, headers=bearer(t0)
        )
        assert r.status_code == 200 and r.json()["chat_off"] is True
        client.app.state.service._cache.clear()  # read back from the database
        assert client.get(f"/api/games/{gid}").json()["chat_off"] is True
