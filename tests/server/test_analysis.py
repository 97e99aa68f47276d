"""The analysis API: one streamed answer per search (NDJSON progress lines, then the result),
the answer's shape, the bounds and their codes, a search stopped when its client leaves, two
applications on one database each serving a search whole, the computer review (a planted
blunder is marked), hints against the computer."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from fastapi.testclient import TestClient

from tablier.server.analysis import judge
from tablier.server.app import create_app

from .conftest import bearer, make_settings, new_game, token_for, wait_for

#: A XoBo game where the first player, able to win at once with e2, plays h6 (a voyna)
#: instead, and the second player then wins with a7 (mined from random games with the
#: tactics' ``winning_moves``).
BLUNDER_GAME = ["i7", "d5", "c7", "c6", "f6", "f1", "b8", "g7", "f4", "c9", "f3", "e5"]
MISSED_WIN, BLUNDER, WIN = "e2", "h6 (v)", "a7"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "analysis.db"
    with TestClient(create_app(make_settings(f"sqlite:///{path}", ai_queue_limit=2))) as c:
        yield c


def stream(client: TestClient, path: str, body: dict | None = None) -> tuple[dict, list[dict]]:
    """A streamed answer read whole: its last line, and the progress lines before it."""
    with client.stream("POST", path, json=body) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"] == "application/x-ndjson"
        lines = [json.loads(text) for text in r.iter_lines() if text]
    assert lines and all(line["type"] == "progress" for line in lines[:-1]), lines
    assert lines[-1]["type"] in ("result", "error"), lines
    return lines[-1], lines[:-1]


class Exchange:
    """One request made to the application as a server makes it, in its event loop: the
    answer's lines are read as they come, and the client leaves (``http.disconnect``) when
    the test says, the response still streaming."""

    def __init__(self, client: TestClient, path: str, body: dict, address: str) -> None:
        self.client = client
        self.body = json.dumps(body).encode()
        self.scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},  # as uvicorn says
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [
                (b"host", b"testserver"),
                (b"content-type", b"application/json"),
                (b"content-length", str(len(self.body)).encode()),
            ],
            "client": (address, 50000),
            "server": ("testserver", 80),
        }
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self.raw = b""
        self.lines: list[dict] = []
        self.ended = False
        self._sent = False
        self._gone = asyncio.Event()
        self.future = client.portal.start_task_soon(self._run)

    async def _run(self) -> None:
        await self.client.app(self.scope, self._receive, self._send)

    async def _receive(self) -> dict:
        if not self._sent:
            self._sent = True
            return {"type": "http.request", "body": self.body, "more_body": False}
        await self._gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            self.raw += message.get("body", b"")
            if self.headers.get("content-type") == "application/x-ndjson":
                *whole, _partial = self.raw.split(b"\n")
                self.lines = [json.loads(text) for text in whole if text]
            self.ended = not message.get("more_body", False)

    def wait(self, done, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, (self.status, self.raw[-500:])
            time.sleep(0.02)

    def leave(self) -> None:
        """The client goes away; the application's call returns."""
        self.client.portal.call(self._gone.set)
        self.future.result(timeout=10)


def code(r) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def test_an_analysis_streams_progress_then_moves_line_and_evaluation(client):
    last, seen = stream(client, "/api/analysis", {"spec": "xobo", "moves": ["e5"], "seconds": 1.0})
    assert last["type"] == "result" and last["kind"] == "analysis", last
    running = [p for p in seen if p["status"] == "running"]
    assert running and any(p["simulations"] > 0 for p in running), seen
    assert set(seen[0]) == {"type", "kind", "status", "fraction", "simulations", "best"}
    fractions = [p["fraction"] for p in seen]
    assert all(0.0 <= f <= 1.0 for f in fractions) and fractions == sorted(fractions)
    result = last["result"]
    assert result["to_move"] == 1 and 0.0 <= result["eval"] <= 1.0
    assert 1 <= len(result["moves"]) <= 8
    first = result["moves"][0]
    assert set(first) == {"move", "visits", "win", "proven"}
    visits = [m["visits"] for m in result["moves"]]
    assert visits == sorted(visits, reverse=True) and visits[0] > 0
    assert result["line"][0] == first["move"] and 2 <= len(result["line"]) <= 12
    assert result["simulations"] >= sum(visits)
    assert not client.app.state.analysis_jobs.jobs  # nothing kept once answered


def test_a_win_in_one_is_found_and_a_finished_position_answers_at_once(client):
    last, _ = stream(client, "/api/analysis", {"spec": "xobo", "moves": BLUNDER_GAME, "seconds": 1})
    assert last["result"]["moves"][0]["move"] == MISSED_WIN
    assert last["result"]["moves"][0]["proven"] == "win"
    assert last["result"]["eval"] == 1.0  # the first player wins
    over = [*BLUNDER_GAME, BLUNDER, WIN]
    last, seen = stream(client, "/api/analysis", {"spec": "xobo", "moves": over})
    assert seen == [] and last["result"]["over"] and last["result"]["eval"] == 0.0


def test_the_analysis_board_line_has_views_and_legal_moves(client):
    r = client.post("/api/analysis/line", json={"spec": "volo:board=mini", "moves": []})
    assert r.status_code == 200, r.text
    line = r.json()
    assert line["spec"].startswith("volo:board=mini") and len(line["views"]) == 1 and line["legal"]
    move = line["legal"][0]["notation"]
    r = client.post("/api/analysis/line", json={"spec": "volo:board=mini", "moves": [move]})
    assert len(r.json()["views"]) == 2 and len(r.json()["move_views"]) == 1


def test_the_line_names_the_variant_or_the_changed_options(client):
    """What the page's heading is made of (docs/web-client.md, "Analysis")."""
    named = {}
    for spec in ("volo", "volo:board=mini", "voldetour:repetition=on", "xobo:stack=three"):
        r = client.post("/api/analysis/line", json={"spec": spec, "moves": []})
        assert r.status_code == 200, r.text
        named[spec] = (r.json()["variant"], r.json()["changed"])
    assert named == {
        "volo": ("standard", {}),
        "volo:board=mini": ("mini", {"board": "mini"}),
        "voldetour:repetition=on": (None, {"repetition": "True"}),
        "xobo:stack=three": (None, {"stack": "three"}),
    }


def test_bounds_are_4xx_with_codes(client, sqlite_url):
    assert code(client.post("/api/analysis", json={"spec": "chess", "moves": []})) == (
        422,
        "bad_spec",
    )
    r = client.post("/api/analysis", json={"spec": "xobo", "moves": ["e5", "e5"]})
    assert code(r) == (422, "illegal_move") and r.json()["error"]["ply"] == 1
    r = client.post("/api/analysis", json={"spec": "xobo", "seconds": 60})
    assert r.status_code == 422  # past ANALYSIS_SECONDS_MAX
    with TestClient(create_app(make_settings(sqlite_url, max_record_plies=3))) as small:
        r = small.post("/api/analysis", json={"spec": "xobo", "moves": ["e5", "e4", "e3", "e2"]})
        assert code(r) == (413, "too_many_moves")
        assert code(small.post("/api/review", json={"spec": "xobo", "moves": ["a"] * 4})) == (
            413,
            "too_many_moves",
        )


def _pool_entries(client: TestClient, address: str) -> list:
    """The AI pool's jobs (queued or searching in a worker) of the client at ``address``."""
    pool = client.app.state.service.ai
    return [job for job in list(pool._jobs.values()) if job.client == address]


def test_a_client_leaving_stops_the_search_in_the_worker(client):
    address = "10.0.0.1"
    left = Exchange(client, "/api/analysis", {"spec": "volo", "seconds": 10}, address)
    left.wait(lambda: any(p["status"] == "running" for p in left.lines))
    assert left.status == 200 and left.headers["x-accel-buffering"] == "no"
    [job] = [j for j in client.app.state.analysis_jobs.jobs.values() if j.client == address]
    [entry] = _pool_entries(client, address)
    assert entry.worker is not None and not entry.cancelled  # searching in a worker
    left.leave()
    assert job.status == "cancelled" and entry.cancelled
    assert job not in client.app.state.analysis_jobs.jobs.values()
    # the worker stops well before the search's 10 seconds: the pool forgets the job
    left.wait(lambda: not _pool_entries(client, address), timeout=5)
    assert not any(line["type"] == "result" for line in left.lines)


def test_a_client_has_at_most_ai_queue_limit_searches_then_429(client):
    address = "10.0.0.2"
    body = {"spec": "volo", "seconds": 10}
    held = [Exchange(client, "/api/analysis", body, address) for _ in range(2)]
    for exchange in held:
        exchange.wait(lambda e=exchange: bool(e.lines))
    refused = Exchange(client, "/api/analysis", body, address)
    refused.wait(lambda: refused.ended)
    assert refused.status == 429 and int(refused.headers["retry-after"]) > 0
    assert json.loads(refused.raw)["error"]["code"] == "analysis_busy"
    refused.leave()
    review = Exchange(client, "/api/review", {"spec": "xobo", "moves": ["e5"]}, address)
    review.wait(lambda: review.ended)
    assert review.status == 429  # reviews count too
    review.leave()
    assert code(client.post("/api/analysis", json=body | {"spec": "xobo", "seconds": 60})) == (
        422,
        "invalid_request",
    )  # the time cap
    entries = _pool_entries(client, address)
    assert len(entries) == 2  # one searching, one queued (one worker)
    for exchange in held:  # gone: their searches stop, the room is free again
        exchange.leave()
    assert all(entry.cancelled for entry in entries)
    fresh = Exchange(client, "/api/analysis", {"spec": "xobo", "seconds": 0.2}, address)
    fresh.wait(lambda: fresh.ended)
    assert fresh.status == 200 and fresh.lines[-1]["type"] == "result", fresh.raw
    fresh.leave()


def test_two_applications_on_one_database_each_serve_a_search_whole(tmp_path):
    """Nothing about a search is asked again: the process a request reaches answers it
    whole, whatever the other processes hold (no sticky routing behind a proxy)."""
    url = f"sqlite:///{tmp_path / 'two.db'}"
    with (
        TestClient(create_app(make_settings(url))) as one,
        TestClient(create_app(make_settings(url))) as two,
    ):
        created = new_game(one, "xobo", "local")
        token = token_for(created, 0)
        for ply, move in enumerate([*BLUNDER_GAME, BLUNDER, WIN]):
            r = one.post(
                f"/api/games/{created['id']}/moves",
                json={"ply": ply, "move": move},
                headers=bearer(token),
            )
            assert r.status_code == 200, r.text
        # the game was played through the first; the second reviews it from the database
        last, seen = stream(two, f"/api/games/{created['id']}/review")
        assert seen and last["type"] == "result", last
        assert any(m["mark"] == "??" and m["better"] == MISSED_WIN for m in last["result"]["marks"])
        last, _ = stream(
            one, "/api/analysis", {"spec": "xobo", "moves": BLUNDER_GAME, "seconds": 0.5}
        )
        assert last["result"]["moves"][0]["move"] == MISSED_WIN
        # each answered from its own memory, and keeps nothing to be asked for later
        assert not one.app.state.analysis_jobs.jobs and not two.app.state.analysis_jobs.jobs
        assert len(two.app.state.analysis_jobs.reviews) == 1
        assert not one.app.state.analysis_jobs.reviews  # the review cache is per process


def test_no_ai_workers_is_503(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url, ai_workers=0))) as c:
        assert code(c.post("/api/analysis", json={"spec": "xobo"})) == (503, "ai_unavailable")


def test_marks_follow_the_lichess_thresholds():
    assert [judge(d) for d in (0.0, 0.09, 0.10, 0.19, 0.2, 0.29, 0.3, 1.0)] == [
        None, None, "?!", "?!", "?", "?", "??", "??",
    ]  # fmt: skip


def test_the_review_marks_a_missed_win_as_a_blunder_with_the_better_move(client):
    moves = [*BLUNDER_GAME, BLUNDER, WIN]
    last, seen = stream(client, "/api/review", {"spec": "xobo", "moves": moves})
    assert last["type"] == "result" and last["kind"] == "review", last
    assert any(0 < p["fraction"] < 1 for p in seen)
    review = last["result"]
    assert len(review["evals"]) == len(moves) + 1
    assert review["evals"][len(BLUNDER_GAME)] == 1.0 and review["evals"][-1] == 0.0
    blunder = [m for m in review["marks"] if m["ply"] == len(BLUNDER_GAME)]
    print(f"\nmarks: {review['marks']}")
    assert blunder == [
        {"ply": 12, "move": BLUNDER, "mover": 0, "mark": "??", "drop": 1.0, "better": MISSED_WIN}
    ]
    # cached: asked again, the answer is there at once
    again, seen = stream(client, "/api/review", {"spec": "xobo", "moves": moves})
    assert seen == [] and again["result"] == review


def test_a_finished_games_review_and_409_before_the_end(client):
    created = new_game(client, "xobo", "local")
    game_id = created["id"]
    r = client.post(f"/api/games/{game_id}/review")
    assert code(r) == (409, "game_not_over")
    token = token_for(created, 0)
    for ply, move in enumerate([*BLUNDER_GAME, BLUNDER, WIN]):
        r = client.post(
            f"/api/games/{game_id}/moves", json={"ply": ply, "move": move}, headers=bearer(token)
        )
        assert r.status_code == 200, r.text
    assert r.json()["status"] != "active"
    last, _ = stream(client, f"/api/games/{game_id}/review")
    assert any(m["mark"] == "??" and m["better"] == MISSED_WIN for m in last["result"]["marks"])


def test_hints_against_the_computer_are_counted_in_the_snapshot_and_record(client):
    created = new_game(client, "xobo", "ai", seat=0, ai_level="easy")
    game_id, token = created["id"], token_for(created, 0)
    r = client.post(f"/api/games/{game_id}/hint", headers=bearer(token))
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["hints"] == [1, 0] and hint["move"] and hint["line"][0] == hint["move"]
    legal = [m["notation"] for m in client.get(f"/api/games/{game_id}/legal").json()["moves"]]
    assert hint["move"] in legal
    assert client.get(f"/api/games/{game_id}").json()["hints"] == [1, 0]
    r = client.post(
        f"/api/games/{game_id}/moves", json={"ply": 0, "move": hint["move"]}, headers=bearer(token)
    )
    assert r.status_code == 200, r.text
    # the computer's turn: a hint is for one's own decision
    snap = wait_for(client, game_id, lambda s: s["ply"] >= 2 or s["status"] != "active")
    assert snap["hints"] == [1, 0]
    record = client.get(f"/api/games/{game_id}/record").text
    assert '[Hints "1,0"]' in record


def test_hints_are_refused_between_people_and_without_a_seat(client):
    created = new_game(client, "xobo", "online")
    game_id = created["id"]
    r = client.post(f"/api/games/{game_id}/hint", headers=bearer(token_for(created, 0)))
    assert code(r) == (403, "hints_not_allowed")
    assert client.get(f"/api/games/{game_id}").json()["hints"] == [0, 0]
    assert code(client.post(f"/api/games/{game_id}/hint")) == (401, "token_required")
    created = new_game(client, "xobo", "local")
    r = client.post(f"/api/games/{created['id']}/hint", headers=bearer(token_for(created, 0)))
    assert code(r) == (403, "hints_not_allowed")


def test_hints_are_counted_through_the_version_check_on_each_database(database_url):
    with TestClient(create_app(make_settings(database_url))) as c:
        created = new_game(c, "xobo", "ai", seat=0, ai_level="easy")
        game_id, token = created["id"], token_for(created, 0)
        for n in (1, 2):
            r = c.post(f"/api/games/{game_id}/hint", headers=bearer(token))
            assert r.status_code == 200, r.text
            assert r.json()["hints"] == [n, 0]
        version = c.get(f"/api/games/{game_id}").json()
    # read back from the database by a fresh application
    with TestClient(create_app(make_settings(database_url))) as c:
        assert c.get(f"/api/games/{game_id}").json()["hints"] == version["hints"] == [2, 0]


def test_a_long_review_lets_the_ais_moves_through(client):
    """A review runs in parts of REVIEW_CHUNK decisions: the AI's move of a game being
    played is searched between two of them, not after the whole review (one worker)."""
    import random

    from tablier import games

    game, rng = games.from_spec("xobo"), random.Random(7)
    state, moves = game.initial_state(), []
    while len(moves) < 40 and state.outcome is None:
        move = rng.choice(state.legal_moves())
        moves.append(game.move_text(state, move))
        state = state.apply(move)
    review = Exchange(client, "/api/review", {"spec": "xobo", "moves": moves}, "10.0.0.3")
    review.wait(lambda: bool(review.lines))
    created = new_game(client, "xobo", "ai", seat=0, ai_level="easy")
    r = client.post(
        f"/api/games/{created['id']}/moves",
        json={"ply": 0, "move": "e5"},
        headers=bearer(token_for(created, 0)),
    )
    assert r.status_code == 200, r.text
    wait_for(client, created["id"], lambda s: s["ply"] >= 2, timeout=30)
    progress = review.lines[-1]
    print(f"\nreview at {progress['fraction']:.0%} when the AI had moved")
    assert progress["type"] == "progress" and progress["fraction"] < 0.9 and not review.ended
    review.leave()
