"""The analysis API: jobs and their progress, the answer's shape, the bounds and their codes,
the computer review (a planted blunder is marked), hints against the computer."""

from __future__ import annotations

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


def poll(client: TestClient, job: dict, timeout: float = 60.0) -> tuple[dict, list[dict]]:
    """Poll a job until it ends; its last view and the views seen while it ran."""
    seen = []
    deadline = time.monotonic() + timeout
    while job["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
        r = client.get(f"/api/analysis/jobs/{job['id']}")
        assert r.status_code == 200, r.text
        job = r.json()
        seen.append(job)
    return job, seen


def code(r) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def test_an_analysis_job_reports_progress_then_moves_line_and_evaluation(client):
    r = client.post("/api/analysis", json={"spec": "xobo", "moves": ["e5"], "seconds": 1.0})
    assert r.status_code == 202, r.text
    job = r.json()
    assert job["kind"] == "analysis" and job["status"] in ("queued", "running")
    done, seen = poll(client, job)
    assert done["status"] == "done", done
    running = [j for j in seen if j["status"] == "running"]
    assert running and any(j["progress"]["simulations"] > 0 for j in running), seen
    result = done["result"]
    assert result["to_move"] == 1 and 0.0 <= result["eval"] <= 1.0
    assert 1 <= len(result["moves"]) <= 8
    first = result["moves"][0]
    assert set(first) == {"move", "visits", "win", "proven"}
    visits = [m["visits"] for m in result["moves"]]
    assert visits == sorted(visits, reverse=True) and visits[0] > 0
    assert result["line"][0] == first["move"] and 2 <= len(result["line"]) <= 12
    assert result["simulations"] >= sum(visits)


def test_a_win_in_one_is_found_and_a_finished_position_answers_at_once(client):
    r = client.post("/api/analysis", json={"spec": "xobo", "moves": BLUNDER_GAME, "seconds": 1})
    done, _ = poll(client, r.json())
    assert done["result"]["moves"][0]["move"] == MISSED_WIN
    assert done["result"]["moves"][0]["proven"] == "win"
    assert done["result"]["eval"] == 1.0  # the first player wins
    over = [*BLUNDER_GAME, BLUNDER, WIN]
    r = client.post("/api/analysis", json={"spec": "xobo", "moves": over})
    job = r.json()
    assert job["status"] == "done" and job["result"]["over"] and job["result"]["eval"] == 0.0


def test_the_analysis_board_line_has_views_and_legal_moves(client):
    r = client.post("/api/analysis/line", json={"spec": "volo:board=mini", "moves": []})
    assert r.status_code == 200, r.text
    line = r.json()
    assert line["spec"].startswith("volo:board=mini") and len(line["views"]) == 1 and line["legal"]
    move = line["legal"][0]["notation"]
    r = client.post("/api/analysis/line", json={"spec": "volo:board=mini", "moves": [move]})
    assert len(r.json()["views"]) == 2 and len(r.json()["move_views"]) == 1


def test_bounds_are_4xx_with_codes(client, sqlite_url):
    assert code(client.post("/api/analysis", json={"spec": "chess", "moves": []})) == (
        422,
        "bad_spec",
    )
    r = client.post("/api/analysis", json={"spec": "xobo", "moves": ["e5", "e5"]})
    assert code(r) == (422, "illegal_move") and r.json()["error"]["ply"] == 1
    r = client.post("/api/analysis", json={"spec": "xobo", "seconds": 60})
    assert r.status_code == 422  # past ANALYSIS_SECONDS_MAX
    assert code(client.get("/api/analysis/jobs/nope")) == (404, "analysis_not_found")
    with TestClient(create_app(make_settings(sqlite_url, max_record_plies=3))) as small:
        r = small.post("/api/analysis", json={"spec": "xobo", "moves": ["e5", "e4", "e3", "e2"]})
        assert code(r) == (413, "too_many_moves")
        assert code(small.post("/api/review", json={"spec": "xobo", "moves": ["a"] * 4})) == (
            413,
            "too_many_moves",
        )


def test_a_client_has_at_most_ai_queue_limit_jobs_then_429(client):
    jobs = [
        client.post("/api/analysis", json={"spec": "volo", "seconds": 10}).json() for _ in range(2)
    ]
    r = client.post("/api/analysis", json={"spec": "volo", "seconds": 10})
    assert code(r) == (429, "analysis_busy") and int(r.headers["retry-after"]) > 0
    for job in jobs:  # cancelled: the worker stops, the room is free again
        r = client.delete(f"/api/analysis/jobs/{job['id']}")
        assert r.status_code == 200 and r.json()["status"] == "cancelled"
    r = client.post("/api/analysis", json={"spec": "xobo", "seconds": 0.2})
    assert r.status_code == 202, r.text
    assert poll(client, r.json())[0]["status"] == "done"


def test_no_ai_workers_is_503(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url, ai_workers=0))) as c:
        assert code(c.post("/api/analysis", json={"spec": "xobo"})) == (503, "ai_unavailable")


def test_marks_follow_the_lichess_thresholds():
    assert [judge(d) for d in (0.0, 0.09, 0.10, 0.19, 0.2, 0.29, 0.3, 1.0)] == [
        None, None, "?!", "?!", "?", "?", "??", "??",
    ]  # fmt: skip


def test_the_review_marks_a_missed_win_as_a_blunder_with_the_better_move(client):
    moves = [*BLUNDER_GAME, BLUNDER, WIN]
    r = client.post("/api/review", json={"spec": "xobo", "moves": moves})
    assert r.status_code == 202, r.text
    done, seen = poll(client, r.json(), timeout=120)
    assert done["status"] == "done", done
    assert any(0 < j["progress"]["fraction"] < 1 for j in seen)
    review = done["result"]
    assert len(review["evals"]) == len(moves) + 1
    assert review["evals"][len(BLUNDER_GAME)] == 1.0 and review["evals"][-1] == 0.0
    blunder = [m for m in review["marks"] if m["ply"] == len(BLUNDER_GAME)]
    print(f"\nmarks: {review['marks']}")
    assert blunder == [
        {"ply": 12, "move": BLUNDER, "mover": 0, "mark": "??", "drop": 1.0, "better": MISSED_WIN}
    ]
    # cached: asked again, the answer is there at once
    again = client.post("/api/review", json={"spec": "xobo", "moves": moves}).json()
    assert again["status"] == "done" and again["result"] == review


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
    r = client.post(f"/api/games/{game_id}/review")
    assert r.status_code == 202, r.text
    done, _ = poll(client, r.json(), timeout=120)
    assert any(m["mark"] == "??" and m["better"] == MISSED_WIN for m in done["result"]["marks"])


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
    job = client.post("/api/review", json={"spec": "xobo", "moves": moves}).json()
    created = new_game(client, "xobo", "ai", seat=0, ai_level="easy")
    r = client.post(
        f"/api/games/{created['id']}/moves",
        json={"ply": 0, "move": "e5"},
        headers=bearer(token_for(created, 0)),
    )
    assert r.status_code == 200, r.text
    wait_for(client, created["id"], lambda s: s["ply"] >= 2, timeout=30)
    view = client.get(f"/api/analysis/jobs/{job['id']}").json()
    print(f"\nreview at {view['progress']['fraction']:.0%} when the AI had moved")
    assert view["status"] == "running" and view["progress"]["fraction"] < 0.9
    assert client.delete(f"/api/analysis/jobs/{job['id']}").json()["status"] == "cancelled"
