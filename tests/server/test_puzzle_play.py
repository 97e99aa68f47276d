"""The puzzles page's server side: ``/puzzles/<game>``, ``GET /api/puzzles/sets`` and
``POST /api/puzzles/check`` (right and wrong moves, the defender's replies, the solution)."""

from __future__ import annotations

import pytest

import tablier.games
from tablier.ai import puzzles as lib
from tablier.server.routers.puzzle_play import check_moves

MINI = "volo:board=mini"


def _puzzle(depth: int) -> lib.Puzzle:
    every = lib.load_shipped(tablier.games.from_spec(MINI))
    return next(p for p in every if p.depth == depth)


def _check(client, puzzle, moves, **extra):
    body = {"game": MINI, "id": puzzle.id, "moves": moves, **extra}
    response = client.post("/api/puzzles/check?lang=en", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def test_the_solution_played_move_by_move_gets_the_defenders_replies(shared_client):
    puzzle = _puzzle(3)
    first = _check(shared_client, puzzle, [puzzle.solution[0]])
    assert first["ok"] and not first["done"]
    assert first["reply"] == puzzle.solution[1], "the solution's reply on the solution's line"
    assert first["moves"] == list(puzzle.solution[:2])
    assert first["legal"], "the attacker has moves to choose from again"
    last = _check(shared_client, puzzle, list(puzzle.solution))
    assert last["ok"] and last["done"] and last["message"] == "Solved!"
    assert last["legal"] == [] and last["view"]["outcome"]


def test_a_wrong_first_move_answers_the_puzzles_position_again(shared_client):
    puzzle = _puzzle(3)
    state = puzzle.state()
    rules = state.game
    wrong = next(
        rules.move_text(state, m)
        for m in state.legal_moves()
        if rules.move_text(state, m) != puzzle.solution[0]
    )
    answer = _check(shared_client, puzzle, [wrong])
    assert not answer["ok"] and not answer["done"]
    assert answer["message"] == "That move does not win: try again."
    assert answer["position"] == state.to_text() and answer["moves"] == []
    assert answer["legal"], "the player may try again"


def test_a_move_that_cannot_be_played_is_said_so(shared_client):
    answer = _check(shared_client, _puzzle(1), ["zz99"])
    assert not answer["ok"] and answer["message"].startswith("This move is not possible")


def test_the_messages_come_in_the_language_asked(shared_client):
    puzzle = _puzzle(1)
    body = {"game": MINI, "id": puzzle.id, "moves": list(puzzle.solution)}
    answer = shared_client.post("/api/puzzles/check?lang=fr", json=body).json()
    assert answer["done"] and answer["message"] and answer["message"] != "Solved!"


def test_solve_answers_the_solution_on_the_puzzles_position(shared_client):
    puzzle = _puzzle(3)
    answer = _check(shared_client, puzzle, [], solve=True)
    assert answer["solution"] == list(puzzle.solution)
    assert answer["position"] == puzzle.state().to_text()


def test_another_winning_move_is_right_and_the_solver_replies():
    """Off the solution's line the solver judges: a defender's other reply, then the win."""
    puzzle = _puzzle(3)
    start = puzzle.state()
    attacker = start.to_move
    rules = start.game
    state = start.apply(rules.parse_move(start, puzzle.solution[0]))
    other = next(
        rules.move_text(state, m)
        for m in state.legal_moves()
        if rules.move_text(state, m) != puzzle.solution[1]
    )
    answer = check_moves(puzzle, [puzzle.solution[0], other], lang="en")
    assert answer["ok"] and answer["reply"] is None and answer["legal"]
    # the attacker's win is still there after the other defence: the solver finds it
    after = rules.parse_position(answer["position"])
    winning = [
        rules.move_text(after, m)
        for m in after.legal_moves()
        if after.apply(m).outcome is not None and after.apply(m).outcome.winner == attacker
    ]
    if winning:
        done = check_moves(puzzle, [puzzle.solution[0], other, winning[0]], lang="en")
        assert done["ok"] and done["done"]


def test_sets_list_the_variants_with_puzzles(shared_client):
    sets = shared_client.get("/api/puzzles/sets", params={"game": "volo"}).json()
    specs = {s["spec"]: s for s in sets}
    mini = tablier.games.from_spec(MINI).spec
    assert mini in specs and specs[mini]["variant"] == "mini"
    assert all(s["count"] > 0 for s in sets)
    assert shared_client.get("/api/puzzles/sets", params={"game": "nope"}).status_code == 404


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "nope", "id": "x", "moves": []}, 422, "unknown_game"),
        ({"game": MINI, "id": "000000000000", "moves": []}, 404, "not_found"),
        ({"game": MINI, "id": "x", "moves": [1]}, 422, "invalid_request"),
        ({"game": MINI, "id": "x", "moves": ["a"] * 30}, 422, "invalid_request"),
    ],
)
def test_bad_requests_get_their_codes(shared_client, body, status, code):
    response = shared_client.post("/api/puzzles/check", json=body)
    assert response.status_code == status and response.json()["error"]["code"] == code


def test_the_page_of_a_game_and_of_an_unknown_game(shared_client):
    assert shared_client.get("/puzzles/volo").status_code == 200
    response = shared_client.get("/puzzles/nope", headers={"accept-language": "fr"})
    assert response.status_code == 404 and 'lang="fr"' in response.text
