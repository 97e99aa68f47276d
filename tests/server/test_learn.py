"""``POST /api/teaching/<game>/check`` and the ``/learn/<game>`` page, on lessons of the tests.

The games' own lessons are checked by their content tests (``tests/games/<g>/
test_teaching.py``); here the endpoint is checked on a small XoBo lesson and a Voldétour
step of two decisions, installed with ``monkeypatch`` on the game classes: accepted and
refused moves, unreadable ones, the reply, a step to read, the solution, bounded input.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tablier.core.teaching import Lesson, LessonStep, RulesPage, Teaching
from tablier.games import game_class
from tablier.server.app import create_app

from .conftest import make_settings

EMPTY = "xobo " + "/".join(["........."] * 9) + " ns 36/0/0 -"
VD_START = (
    "voldetour:pieces=mini,repetition=False,max_turns=none turn=1 lords=b2,e5 black=- white=-"
)

XOBO_LESSON = Lesson(
    title="XoBo",
    intro="",
    steps=(
        LessonStep(
            key="place",
            title="A cube",
            text="",
            position=EMPTY,
            task="Put a cube on e5.",
            accept=("e5",),
            hint="The middle.",
            hint_cells=("e5",),
            wrong="Not there: the middle of the board.",
            success="Page not found",  # a message the catalogs translate
        ),
        LessonStep(key="read", title="Read", text="Nothing to play.", position=EMPTY, task=""),
        LessonStep(
            key="answered",
            title="An answer",
            text="",
            position=EMPTY,
            task="Put a cube on d4 or f6.",
            accept=("d4", "f6"),
            reply="a1",
        ),
    ),
    final_game="xobo",
)
VD_LESSON = Lesson(
    title="Voldétour",
    intro="",
    steps=(
        LessonStep(
            key="block",
            title="A block",
            text="",
            position=VD_START,
            task="Put the small block on c1.",
            accept=("B111",),
            then=(("B111@c1:1x1x1", "B111@d1:1x1x1"),),
        ),
    ),
    final_game="voldetour:pieces=mini",
)
# a second decision whose first alternative only follows the first decision's second one
EITHER = LessonStep(
    key="either",
    title="Either block",
    text="",
    position=VD_START,
    task="Put a block on c1.",
    accept=("B112", "B111"),
    then=(("B112@c1:1x1x2", "B111@c1:1x1x1"),),
)
VD_LESSON = Lesson(
    title=VD_LESSON.title, intro="", steps=(*VD_LESSON.steps, EITHER), final_game="voldetour"
)


def _teaching(lesson: Lesson) -> Teaching:
    return Teaching(rules=RulesPage(title="", intro=(), sections=()), lesson=lesson)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """An application whose XoBo and Voldétour teach the lessons above, and Volo nothing."""
    patch = pytest.MonkeyPatch()
    for name, lesson in (("xobo", XOBO_LESSON), ("voldetour", VD_LESSON)):
        taught = _teaching(lesson)
        patch.setattr(game_class(name), "teaching", classmethod(lambda cls, t=taught: t))
    patch.setattr(game_class("volo"), "teaching", classmethod(lambda cls: None))
    path = tmp_path_factory.mktemp("db") / "learn.db"
    try:
        with TestClient(create_app(make_settings(f"sqlite:///{path}"))) as c:
            yield c
    finally:
        patch.undo()


def check(client, game: str, step: str, moves: list, **extra):
    return client.post(f"/api/teaching/{game}/check", json={"step": step, "moves": moves, **extra})


def test_no_move_yet_gives_the_step_position_and_its_legal_moves(client):
    r = check(client, "xobo", "place", [])
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["ok"], body["done"], body["message"], body["reply"]) == (True, False, "", None)
    assert body["position"] == game_class("xobo")().parse_position(EMPTY).to_text()
    assert body["view"]["position"] == body["position"]
    assert len(body["legal"]) == 81
    assert r.headers["cache-control"] == "no-store"


def test_the_accepted_move_completes_the_step_with_its_success_text(client):
    body = check(client, "xobo", "place", ["e5"]).json()
    assert (body["ok"], body["done"], body["legal"]) == (True, True, [])
    assert body["message"] == "Page not found"
    assert body["last"]["notation"] == "e5"
    assert body["view"]["heights"][4][4] == 1


def test_the_success_text_is_in_the_language_asked(client):
    assert check(client, "xobo", "place", ["e5"]).json()["message"] == "Page not found"
    fr = client.post(
        "/api/teaching/xobo/check?lang=fr", json={"step": "place", "moves": ["e5"]}
    ).json()
    assert fr["message"] == "Page introuvable"
    ja = client.post(
        "/api/teaching/xobo/check",
        json={"step": "place", "moves": ["e5"]},
        headers={"Accept-Language": "ja"},
    ).json()
    assert ja["message"] not in ("", "Page not found")


def test_a_legal_move_not_asked_for_puts_the_board_back_with_the_step_feedback(client):
    body = check(client, "xobo", "place", ["a1"]).json()
    assert (body["ok"], body["done"], body["last"]) == (False, False, None)
    assert body["message"] == "Not there: the middle of the board."
    assert body["position"] == check(client, "xobo", "place", []).json()["position"]
    assert len(body["legal"]) == 81  # the step's own position, to try again


def test_an_unreadable_or_illegal_move_is_refused_with_the_catalog_text(client):
    for text in ("zz99", "e5->e7", "j1"):
        body = check(client, "xobo", "place", [text]).json()
        assert body["ok"] is False, text
        assert body["message"] == "This move is not possible here: look at the board again."
    fr = client.post(
        "/api/teaching/xobo/check?lang=fr", json={"step": "place", "moves": ["zz"]}
    ).json()
    assert fr["message"] and fr["message"] != body["message"]


def test_another_spelling_of_an_accepted_move_is_accepted(client):
    assert check(client, "xobo", "place", ["E5"]).json()["ok"] is True


def test_the_reply_is_played_after_the_right_move(client):
    body = check(client, "xobo", "answered", ["f6"]).json()
    assert (body["ok"], body["done"], body["reply"]) == (True, True, "a1")
    assert body["last"]["notation"] == "a1"
    heights = body["view"]["heights"]
    assert heights[5][5] == 1 and heights[0][0] == 1
    assert body["message"] == "Well done!"  # the step says nothing: the catalog's default


def test_decisions_beyond_the_step_are_not_played(client):
    # a board may send a whole action (Voldétour's take and put) for a step that asks less
    body = check(client, "xobo", "place", ["e5", "e6"]).json()
    assert (body["ok"], body["done"], body["last"]["notation"]) == (True, True, "e5")
    assert body["view"]["heights"][5][4] == 0


def test_a_step_to_read_is_done_without_a_move(client):
    body = check(client, "xobo", "read", []).json()
    assert (body["ok"], body["done"], body["message"]) == (True, True, "")


def test_a_step_of_two_decisions_waits_for_the_second(client):
    first = check(client, "voldetour", "block", ["B111"]).json()
    assert (first["ok"], first["done"]) == (True, False)
    assert first["last"]["notation"] == "B111"
    assert "B111@c1:1x1x1" in [m["notation"] for m in first["legal"]]
    done = check(client, "voldetour", "block", ["B111", "B111@d1:1x1x1"]).json()
    assert (done["ok"], done["done"]) == (True, True)
    wrong = check(client, "voldetour", "block", ["B111", "B111@a1:1x1x1"]).json()
    assert (wrong["ok"], wrong["done"]) == (False, False)
    assert wrong["position"] == check(client, "voldetour", "block", []).json()["position"]
    assert [m["notation"] for m in wrong["legal"]] == ["B111", "B112", "B122", "S"]


def test_the_solution_is_the_first_accepted_move_of_each_decision(client):
    body = check(client, "voldetour", "block", [], solve=True).json()
    assert body["solution"] == ["B111", "B111@c1:1x1x1"]
    assert (body["ok"], body["done"]) == (True, False)
    assert body["last"]["notation"] == "B111"  # shown on the step's own position
    assert body["position"] == check(client, "voldetour", "block", []).json()["position"]
    assert check(client, "xobo", "read", [], solve=True).json()["solution"] == []


def test_alternatives_are_judged_in_the_position_the_earlier_choices_reached(client):
    for moves in (["B112", "B112@c1:1x1x2"], ["B111", "B111@c1:1x1x1"]):
        body = check(client, "voldetour", "either", moves).json()
        assert (body["ok"], body["done"]) == (True, True), moves
    assert check(client, "voldetour", "either", ["B111", "B111@d1:1x1x1"]).json()["ok"] is False
    solved = check(client, "voldetour", "either", [], solve=True).json()
    assert solved["solution"] == ["B112", "B112@c1:1x1x2"]


@pytest.mark.parametrize(
    ("game", "body", "status", "code"),
    [
        ("nosuchgame", {"step": "place", "moves": []}, 404, "not_found"),
        ("volo", {"step": "place", "moves": []}, 404, "not_found"),  # no tutorial
        ("xobo", {"step": "nosuchstep", "moves": []}, 422, "unknown_step"),
        ("xobo", {"step": "place", "moves": ["e5"] * 17}, 422, "invalid_request"),
        ("xobo", {"step": "place", "moves": ["e" * 201]}, 422, "invalid_request"),
        ("xobo", {"step": "place", "moves": [""]}, 422, "invalid_request"),
        ("xobo", {"step": "place", "moves": [5]}, 422, "invalid_request"),
        ("xobo", {"step": "x" * 101, "moves": []}, 422, "invalid_request"),
        ("xobo", {"step": "place", "moves": [], "extra": 1}, 422, "invalid_request"),
        ("xobo", {"moves": []}, 422, "invalid_request"),
        ("xobo", [], 422, "invalid_request"),
    ],
)
def test_bad_input_is_a_json_error_with_its_code(client, game, body, status, code):
    r = client.post(f"/api/teaching/{game}/check", json=body)
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code


def test_the_learn_page_is_the_client_for_a_game_with_a_tutorial(client):
    r = client.get("/learn/xobo", headers={"Accept-Language": "fr"})
    assert r.status_code == 200
    assert '<html lang="fr"' in r.text and 'src="/static/app.js"' in r.text
    missing = client.get("/learn/nosuchgame")
    assert missing.status_code == 404
    assert "text/html" in missing.headers["content-type"]
    assert 'src="/static/app.js"' not in missing.text


def test_the_check_is_described_in_the_openapi_document(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    assert "/api/teaching/{game}/check" in paths
    assert "/learn/{game}" not in paths
