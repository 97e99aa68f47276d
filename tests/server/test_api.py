"""REST API tests (FastAPI's TestClient, httpx underneath): every endpoint and error code."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

import tablier.games
from tablier.core.record import Record
from tablier.server.app import create_app

from .conftest import bearer, make_settings, new_game, play_random

GAMES = tablier.games.names()
MODES = ["online", "ai", "local"]


def error_of(response) -> tuple[int, str]:
    """The status and the stable code of an error response (checking its shape)."""
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return response.status_code, body["error"]["code"]


def test_health_and_catalog(shared_client: TestClient):
    assert shared_client.get("/api/health").json() == {"ok": True}
    catalog = shared_client.get("/api/catalog").json()
    assert [g["name"] for g in catalog["games"]] == GAMES
    assert catalog["levels"] == ["easy", "medium", "hard", "expert"]
    for entry in catalog["games"]:
        cls = tablier.games.game_class(entry["name"])
        assert entry["title"] == cls.title
        assert entry["players"] == list(cls().player_names)
        assert [o["name"] for o in entry["options"]] == [o.name for o in cls.OPTIONS]
        for option in entry["options"]:
            assert set(option) == {"name", "default", "doc", "choices"}
    json.dumps(catalog)  # every value is plain JSON


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", GAMES)
def test_create_and_play_every_game_and_mode(shared_client: TestClient, name: str, mode: str):
    created = new_game(shared_client, name, mode, seat=0, ai_level="easy", names=["Ann", ""])
    snap = created["game"]
    game = tablier.games.get(name)
    assert snap["id"] == created["id"] and snap["game"] == name and snap["spec"] == game.spec
    assert snap["mode"] == mode and snap["status"] == "active" and snap["ply"] == 0
    assert snap["view"] == game.state_view(game.initial_state())
    assert snap["last_move"] is None and snap["moves"] == []
    assert snap["seats"][0]["name"] == "Ann"
    if mode == "online":
        assert set(created["tokens"]) == {"0", "1"} and snap["you"] == 0
        assert snap["ai"] is None
    elif mode == "ai":
        assert set(created["tokens"]) == {"0"} and snap["you"] == 0
        assert snap["ai"] == {"level": "easy", "seat": 1, "thinking": False}
        assert [s["kind"] for s in snap["seats"]] == ["human", "ai"]
    else:
        assert set(created["tokens"]) == {"both"} and snap["you"] == "both"
    assert created["links"]["spectator"].endswith(f"/g/{created['id']}")
    for key, token in created["tokens"].items():
        assert created["links"][key].endswith(f"/g/{created['id']}#seat={token}")
    final = play_random(shared_client, created, 8, seed=len(name))
    # Replaying the stored notations through the engine gives the served view.
    state = game.initial_state()
    for text in final["moves"]:
        state = state.apply(game.parse_move(state, text))
    assert final["view"] == game.state_view(state)
    fetched = shared_client.get(f"/api/games/{created['id']}").json()
    assert fetched["moves"] == final["moves"] and fetched["you"] is None
    history = shared_client.get(f"/api/games/{created['id']}/history").json()
    assert len(history["views"]) == len(final["moves"]) + 1 == len(history["moves"]) + 1
    assert history["views"][-1] == final["view"]
    assert [m["notation"] for m in history["moves"]] == final["moves"]


def test_get_with_token_says_who_you_are(shared_client):
    created = new_game(shared_client)
    gid = created["id"]
    for seat in (0, 1):
        snap = shared_client.get(f"/api/games/{gid}", headers=bearer(created["tokens"][str(seat)]))
        assert snap.json()["you"] == seat
    r = shared_client.get(f"/api/games/{gid}", headers=bearer("not-a-token"))
    assert error_of(r) == (403, "not_your_seat")
    r = shared_client.get(f"/api/games/{gid}", headers={"Authorization": "Basic abc"})
    assert error_of(r) == (401, "bad_authorization")


def test_list_games(shared_client):
    ids = [new_game(shared_client, "volo", names=["L1", "L2"])["id"] for _ in range(3)]
    listed = shared_client.get("/api/games?limit=100").json()["games"]
    by_id = {g["id"]: g for g in listed}
    for gid in ids:
        entry = by_id[gid]
        assert entry["names"] == ["L1", "L2"] and entry["game"] == "volo"
        assert "tokens" not in entry and "view" not in entry
    stamps = [g["updated"] for g in listed]
    assert stamps == sorted(stamps, reverse=True)
    two = shared_client.get("/api/games?limit=2&offset=1").json()["games"]
    assert [g["id"] for g in two] == [g["id"] for g in listed[1:3]]
    assert error_of(shared_client.get("/api/games?limit=0")) == (422, "invalid_request")
    assert error_of(shared_client.get("/api/games?limit=abc")) == (422, "invalid_request")


def test_legal_moves_are_the_engines(shared_client):
    for name in GAMES:
        created = new_game(shared_client, name)
        game = tablier.games.get(name)
        state = game.initial_state()
        legal = shared_client.get(f"/api/games/{created['id']}/legal").json()
        assert legal["ply"] == 0
        assert legal["moves"] == [game.move_view(state, m) for m in state.legal_moves()]


def test_move_errors(shared_client):
    created = new_game(shared_client, "xobo")
    gid = created["id"]
    t0, t1 = created["tokens"]["0"], created["tokens"]["1"]
    url = f"/api/games/{gid}/moves"
    first = shared_client.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
    assert error_of(shared_client.post(url, json={"ply": 0, "move": first})) == (
        401,
        "token_required",
    )
    assert error_of(
        shared_client.post(url, json={"ply": 0, "move": first}, headers=bearer("x" * 32))
    ) == (403, "not_your_seat")
    assert error_of(
        shared_client.post(url, json={"ply": 0, "move": first}, headers=bearer(t1))
    ) == (403, "not_your_turn")
    assert error_of(
        shared_client.post(url, json={"ply": 0, "move": "zz99"}, headers=bearer(t0))
    ) == (422, "bad_move")
    assert error_of(shared_client.post(url, json={"ply": 0}, headers=bearer(t0))) == (
        422,
        "invalid_request",
    )
    assert error_of(
        shared_client.post(url, json={"ply": -1, "move": first}, headers=bearer(t0))
    ) == (422, "invalid_request")
    assert error_of(
        shared_client.post(url, json={"ply": 0, "move": first, "x": 1}, headers=bearer(t0))
    ) == (422, "invalid_request")
    assert error_of(
        shared_client.post(
            url, content=b"{not json", headers={**bearer(t0), "content-type": "application/json"}
        )
    ) == (422, "invalid_request")
    ok = shared_client.post(url, json={"ply": 0, "move": first}, headers=bearer(t0))
    assert ok.status_code == 200 and ok.json()["ply"] == 1
    assert ok.json()["last_move"]["notation"] == first
    # The same ply again: another move was accepted first.
    stale = shared_client.post(url, json={"ply": 0, "move": first}, headers=bearer(t1))
    assert error_of(stale) == (409, "stale_ply")
    assert stale.json()["error"]["ply"] == 1
    # The first move again, now on an occupied cell: the rules forbid it.
    illegal = shared_client.post(url, json={"ply": 1, "move": first}, headers=bearer(t1))
    assert error_of(illegal) == (422, "illegal_move")
    assert "a1" in illegal.json()["error"]["message"]
    # Resigned games take no more moves.
    assert shared_client.post(f"/api/games/{gid}/resign", headers=bearer(t1)).status_code == 200
    over = shared_client.post(url, json={"ply": 1, "move": "b1"}, headers=bearer(t1))
    assert error_of(over) == (410, "game_over")
    assert shared_client.get(f"/api/games/{gid}/legal").json()["moves"] == []


def test_unknown_things(shared_client):
    assert error_of(shared_client.get("/api/games/nope")) == (404, "not_found")
    assert error_of(shared_client.get("/api/games/bad%20id!")) == (404, "not_found")
    assert error_of(shared_client.get("/api/nothing-here")) == (404, "not_found")
    assert error_of(shared_client.delete("/api/games")) == (405, "method_not_allowed")
    assert error_of(shared_client.post("/api/games", json={"game": "chess"})) == (
        422,
        "unknown_game",
    )
    assert error_of(
        shared_client.post("/api/games", json={"game": "volo", "options": {"board": "huge"}})
    ) == (422, "bad_option")
    assert error_of(
        shared_client.post("/api/games", json={"game": "volo", "options": {"colour": "red"}})
    ) == (422, "bad_option")
    assert error_of(
        shared_client.post("/api/games", json={"game": "volo", "mode": "ai", "ai_level": "godlike"})
    ) == (422, "bad_level")
    assert error_of(shared_client.post("/api/games", json={"game": "volo", "mode": "team"})) == (
        422,
        "invalid_request",
    )
    assert error_of(
        shared_client.post("/api/games", json={"game": "volo", "options": {"board": ["mini"]}})
    ) == (422, "invalid_request")
    assert error_of(
        shared_client.post("/api/games", json={"game": "volo", "names": ["a", "b", "c"]})
    ) == (422, "invalid_request")


def test_body_size_limit(shared_client):
    big = json.dumps({"text": "x" * (70 * 1024)})
    r = shared_client.post(
        "/api/records/parse", content=big, headers={"content-type": "application/json"}
    )
    assert error_of(r) == (413, "body_too_large")

    def chunks():  # no Content-Length: the limit counts the bytes as they come
        for _ in range(80):
            yield b"x" * 1024

    r = shared_client.post(
        "/api/records/parse", content=chunks(), headers={"content-type": "application/json"}
    )
    assert error_of(r) == (413, "body_too_large")


def test_ai_unavailable(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url, ai_workers=0))) as client:
        r = client.post("/api/games", json={"game": "volo", "mode": "ai"})
        assert error_of(r) == (503, "ai_unavailable")


def test_internal_errors_are_json(sqlite_url, monkeypatch):
    app = create_app(make_settings(sqlite_url, ai_workers=0))
    with TestClient(app, raise_server_exceptions=False) as client:

        def broken(*_a, **_k):
            raise RuntimeError("boom")

        monkeypatch.setattr(client.app.state.service.storage, "list_games", broken)
        r = client.get("/api/games")
    assert error_of(r) == (500, "internal_error")
    assert "boom" not in r.text


def test_names_are_cleaned_and_kept_as_text(shared_client):
    nasty = '<script>alert("x")</script>\n\x00Bob'
    created = new_game(shared_client, names=[nasty, "é" * 100])
    names = [s["name"] for s in created["game"]["seats"]]
    assert names[0] == '<script>alert("x")</script> Bob'  # text: the client never parses it
    assert names[1] == "é" * 40
    record = shared_client.get(f"/api/games/{created['id']}/record").text
    assert Record.from_text(record).tags["First"] == names[0]


def test_resign(shared_client):
    created = new_game(shared_client, "volo")
    gid = created["id"]
    r = shared_client.post(f"/api/games/{gid}/resign", headers=bearer(created["tokens"]["0"]))
    snap = r.json()
    assert snap["status"] == "finished"
    assert snap["result"]["winner"] == 1 and snap["result"]["reason"] == "resignation"
    assert snap["result"]["result"] == "0-1"
    again = shared_client.post(f"/api/games/{gid}/resign", headers=bearer(created["tokens"]["1"]))
    assert error_of(again) == (410, "game_over")
    assert error_of(shared_client.post(f"/api/games/{gid}/resign")) == (401, "token_required")
    rec = Record.from_text(shared_client.get(f"/api/games/{gid}/record").text)
    assert rec.result == "0-1" and rec.reason == "resignation"


def test_local_resign_is_the_side_to_move(shared_client):
    created = new_game(shared_client, "xobo", "local")
    snap = play_random(shared_client, created, 1)
    mover = snap["view"]["to_move"]
    r = shared_client.post(
        f"/api/games/{created['id']}/resign", headers=bearer(created["tokens"]["both"])
    )
    assert r.json()["result"]["winner"] == 1 - mover


def test_draw_offers(shared_client):
    created = new_game(shared_client, "volo")
    gid = created["id"]
    h0, h1 = bearer(created["tokens"]["0"]), bearer(created["tokens"]["1"])
    url = f"/api/games/{gid}/offers"
    assert error_of(
        shared_client.post(url, json={"kind": "draw", "action": "accept"}, headers=h1)
    ) == (409, "no_offer")
    r = shared_client.post(url, json={"kind": "draw", "action": "offer"}, headers=h0)
    assert r.json()["offers"] == {"draw": 0, "undo": None}
    assert error_of(
        shared_client.post(url, json={"kind": "draw", "action": "offer"}, headers=h0)
    ) == (409, "offer_pending")
    assert error_of(
        shared_client.post(url, json={"kind": "draw", "action": "accept"}, headers=h0)
    ) == (409, "own_offer")
    r = shared_client.post(url, json={"kind": "draw", "action": "decline"}, headers=h1)
    assert r.json()["offers"]["draw"] is None
    shared_client.post(url, json={"kind": "draw", "action": "offer"}, headers=h1)
    r = shared_client.post(url, json={"kind": "draw", "action": "accept"}, headers=h0)
    snap = r.json()
    assert snap["status"] == "finished" and snap["result"]["result"] == "1/2-1/2"
    assert snap["result"]["reason"] == "agreement"
    assert error_of(
        shared_client.post(url, json={"kind": "draw", "action": "offer"}, headers=h0)
    ) == (410, "game_over")
    assert error_of(
        shared_client.post(url, json={"kind": "peace", "action": "offer"}, headers=h0)
    ) == (422, "invalid_request")


def test_a_move_clears_offers(shared_client):
    created = new_game(shared_client, "xobo")
    gid = created["id"]
    h1 = bearer(created["tokens"]["1"])
    shared_client.post(
        f"/api/games/{gid}/offers", json={"kind": "draw", "action": "offer"}, headers=h1
    )
    snap = play_random(shared_client, created, 1)
    assert snap["offers"] == {"draw": None, "undo": None}


def test_undo_offers_between_people(shared_client):
    created = new_game(shared_client, "xobo")
    gid = created["id"]
    h0, h1 = bearer(created["tokens"]["0"]), bearer(created["tokens"]["1"])
    url = f"/api/games/{gid}/offers"
    assert error_of(
        shared_client.post(url, json={"kind": "undo", "action": "offer"}, headers=h0)
    ) == (409, "nothing_to_undo")
    snap = play_random(shared_client, created, 3, seed=5)
    moves = snap["moves"]
    assert len(moves) == 3
    # Player 0 made decisions 1 and 3: an accepted undo takes back its last turn (decision 3).
    shared_client.post(url, json={"kind": "undo", "action": "offer"}, headers=h0)
    r = shared_client.post(url, json={"kind": "undo", "action": "accept"}, headers=h1)
    snap = r.json()
    assert snap["moves"] == moves[:2] and snap["ply"] == 2
    assert snap["offers"] == {"draw": None, "undo": None}
    game = tablier.games.get("xobo")
    state = game.initial_state()
    for text in moves[:2]:
        state = state.apply(game.parse_move(state, text))
    assert snap["view"] == game.state_view(state)
    # Player 1 now asks to undo its decision 2; player 0 declines, then agrees.
    shared_client.post(url, json={"kind": "undo", "action": "offer"}, headers=h1)
    shared_client.post(url, json={"kind": "undo", "action": "decline"}, headers=h0)
    assert shared_client.get(f"/api/games/{gid}").json()["ply"] == 2
    shared_client.post(url, json={"kind": "undo", "action": "offer"}, headers=h1)
    assert (
        shared_client.post(url, json={"kind": "undo", "action": "accept"}, headers=h0).json()[
            "moves"
        ]
        == moves[:1]
    )
    # Takeback is for games against the AI and same-screen games.
    assert error_of(shared_client.post(f"/api/games/{gid}/takeback", headers=h0)) == (
        409,
        "not_allowed",
    )


def test_takeback_against_the_ai(shared_client, monkeypatch):
    created = new_game(
        shared_client, "volo", "ai", seat=0, ai_level="easy", options={"board": "mini"}
    )
    gid = created["id"]
    h = bearer(created["tokens"]["0"])
    assert error_of(shared_client.post(f"/api/games/{gid}/takeback", headers=h)) == (
        409,
        "nothing_to_undo",
    )
    pool = shared_client.app.state.service.ai
    asked: list[tuple[str, tuple]] = []
    think = pool.think

    async def seen(job, position, *args, **kwargs):
        asked.append((position, kwargs["history"]))
        return await think(job, position, *args, **kwargs)

    monkeypatch.setattr(pool, "think", seen)
    snap = play_random(shared_client, created, 5, seed=2)
    from .conftest import wait_for

    snap = wait_for(shared_client, gid, lambda s: s["view"]["to_move"] == 0 and s["ply"] >= 4)
    moves = snap["moves"]
    # each AI job carried the game's decisions up to the position it searched
    game = tablier.games.get("volo", board="mini")
    assert asked
    for position, history in asked:
        state = game.initial_state()
        for text in history:
            state = state.apply(game.parse_move(state, text))
        assert state.to_text() == position and list(history) == moves[: len(history)]
    assert gid in pool._home  # a worker keeps the AI's tree of this game
    r = shared_client.post(f"/api/games/{gid}/takeback", headers=h)
    after = r.json()
    # The human's last decision and the AI's reply are gone; the human is to move again.
    assert after["moves"] == moves[:-2] and after["view"]["to_move"] == 0
    # and the AI's kept tree and remembered positions, of the line taken back, are dropped
    assert gid not in pool._home
    assert after["status"] == "active"
    offer = shared_client.post(
        f"/api/games/{gid}/offers", json={"kind": "draw", "action": "offer"}, headers=h
    )
    assert error_of(offer) == (409, "not_allowed")


def test_takeback_same_screen(shared_client):
    created = new_game(shared_client, "voldetour", "local")
    gid = created["id"]
    snap = play_random(shared_client, created, 6, seed=3)
    game = tablier.games.get("voldetour")
    state = game.initial_state()
    movers = []
    for text in snap["moves"]:
        movers.append(state.to_move)
        state = state.apply(game.parse_move(state, text))
    start = len(movers) - 1
    while start > 0 and movers[start - 1] == movers[-1]:
        start -= 1
    r = shared_client.post(f"/api/games/{gid}/takeback", headers=bearer(created["tokens"]["both"]))
    assert r.json()["moves"] == snap["moves"][:start]  # the whole last turn


def test_takeback_after_a_finished_game_and_resignation(shared_client):
    created = new_game(shared_client, "xobo", "local")
    gid = created["id"]
    h = bearer(created["tokens"]["both"])
    play_random(shared_client, created, 2)
    shared_client.post(f"/api/games/{gid}/resign", headers=h)
    assert error_of(shared_client.post(f"/api/games/{gid}/takeback", headers=h)) == (
        410,
        "game_over",
    )


def test_rematch_swaps_colours(shared_client):
    created = new_game(shared_client, "volo", names=["Ann", "Bob"], options={"board": "mini"})
    gid = created["id"]
    h0, h1 = bearer(created["tokens"]["0"]), bearer(created["tokens"]["1"])
    assert error_of(shared_client.post(f"/api/games/{gid}/rematch", headers=h0)) == (
        409,
        "game_not_over",
    )
    shared_client.post(f"/api/games/{gid}/resign", headers=h1)
    first = shared_client.post(f"/api/games/{gid}/rematch", headers=h0).json()
    second = shared_client.post(f"/api/games/{gid}/rematch", headers=h1).json()
    assert first["id"] == second["id"] != gid
    assert set(first["tokens"]) == {"1"} and set(second["tokens"]) == {"0"}
    new = shared_client.get(f"/api/games/{first['id']}", headers=bearer(first["tokens"]["1"]))
    snap = new.json()
    assert snap["you"] == 1 and snap["spec"] == created["game"]["spec"]
    assert [s["name"] for s in snap["seats"]] == ["Bob", "Ann"]
    assert shared_client.get(f"/api/games/{gid}").json()["rematch"] == first["id"]
    # Ann (seat 0 before) now plays seat 1 and may not move first.
    legal = shared_client.get(f"/api/games/{first['id']}/legal").json()["moves"]
    r = shared_client.post(
        f"/api/games/{first['id']}/moves",
        json={"ply": 0, "move": legal[0]["notation"]},
        headers=bearer(first["tokens"]["1"]),
    )
    assert error_of(r) == (403, "not_your_turn")
    r = shared_client.post(
        f"/api/games/{first['id']}/moves",
        json={"ply": 0, "move": legal[0]["notation"]},
        headers=bearer(second["tokens"]["0"]),
    )
    assert r.status_code == 200


def test_rematch_against_the_ai(shared_client):
    created = new_game(shared_client, "xobo", "ai", seat=0, ai_level="easy")
    gid = created["id"]
    h = bearer(created["tokens"]["0"])
    shared_client.post(f"/api/games/{gid}/resign", headers=h)
    rematch = shared_client.post(f"/api/games/{gid}/rematch", headers=h).json()
    assert set(rematch["tokens"]) == {"1"}
    from .conftest import wait_for

    # The AI now plays first, by itself.
    snap = wait_for(shared_client, rematch["id"], lambda s: s["ply"] >= 1)
    assert snap["ai"]["seat"] == 0 and snap["seats"][0]["kind"] == "ai"


def test_record_export(shared_client):
    for name in GAMES:
        created = new_game(shared_client, name, names=["Ann", "Bob"])
        snap = play_random(shared_client, created, 6, seed=1)
        text = shared_client.get(f"/api/games/{created['id']}/record?format=text")
        assert text.headers["content-type"].startswith("text/plain")
        assert "attachment" in text.headers["content-disposition"]
        record = Record.from_text(text.text)
        assert [d.move for d in record.moves] == snap["moves"]
        assert record.tags["First"] == "Ann" and record.tags["Second"] == "Bob"
        assert record.game.spec == snap["spec"]
        js = shared_client.get(f"/api/games/{created['id']}/record?format=json")
        assert js.headers["content-type"].startswith("application/json")
        assert Record.from_json(js.text) == record
    bad = shared_client.get(f"/api/games/{created['id']}/record?format=pgn")
    assert error_of(bad) == (422, "invalid_request")


def test_record_parse_for_review(shared_client):
    for name in GAMES:
        created = new_game(shared_client, name)
        snap = play_random(shared_client, created, 5, seed=4)
        text = shared_client.get(f"/api/games/{created['id']}/record").text
        js = shared_client.get(f"/api/games/{created['id']}/record?format=json").text
        for body in (text, js):
            parsed = shared_client.post("/api/records/parse", json={"text": body}).json()
            assert parsed["game"] == name and parsed["spec"] == snap["spec"]
            assert parsed["moves"] == snap["moves"]
            assert len(parsed["views"]) == len(snap["moves"]) + 1
            assert parsed["views"][-1] == snap["view"]
            assert [m["notation"] for m in parsed["move_views"]] == snap["moves"]
            assert parsed["headers"]["Game"] == name
            # a game made with no options is its first variant (none for a game without)
            variants = tablier.games.get(name).VARIANTS
            assert parsed["changed"] == {}
            assert parsed["variant"] == (variants[0].key if variants else None)
    game = tablier.games.get("xobo")
    first = game.move_text(game.initial_state(), game.initial_state().legal_moves()[0])
    broken = f'[Game "xobo"]\n\n1. {first} ; {first}\n*\n'
    r = shared_client.post("/api/records/parse", json={"text": broken})
    assert error_of(r) == (422, "bad_record")
    assert r.json()["error"]["ply"] == 2
    r = shared_client.post("/api/records/parse", json={"text": "{not json"})
    assert error_of(r) == (422, "bad_record")
    r = shared_client.post("/api/records/parse", json={"text": '[Game "chess"]\n\n*\n'})
    assert error_of(r) == (422, "bad_record")
    assert error_of(shared_client.post("/api/records/parse", json={})) == (422, "invalid_request")


def test_static_pages(shared_client):
    gid = new_game(shared_client)["id"]
    for path in ("/", "/review", f"/g/{gid}"):
        r = shared_client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert "<html" in r.text.lower()
        assert r.headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert shared_client.get("/static/index.html").status_code == 200
    assert shared_client.get("/static/../pyproject.toml").status_code == 404
