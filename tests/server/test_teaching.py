"""``GET /api/teaching/<game>`` and ``/rules/<game>``: the document's shape, its language,
its cache headers, and what a broken diagram or an unknown game gets.

The built-in games are tested with their own teaching as soon as they declare one
(:func:`taught_games`); the toy game with a fake teaching (``tests/core/teachfake.py``)
tests the route whatever the games declare.
"""

from __future__ import annotations

import json
import logging

import pytest

import tablier.games
from core.teachfake import TaughtToy
from core.toygame import Toy
from tablier.core.diagram import frames
from tablier.core.teaching import Diagram, Step, Teaching

FRAME_KEYS = {"caption", "move", "position", "view", "highlights", "arrows", "marks"}
STEP_KEYS = {
    "key", "title", "text", "task", "position", "view", "hint", "hint_cells", "wrong",
    "success", "has_reply", "decisions",
}  # fmt: skip


def taught_games() -> list[str]:
    """The built-in games that declare their teaching (none until their content lands)."""
    return [n for n in tablier.games.names() if tablier.games.game_class(n).teaching() is not None]


class BrokenToy(Toy):
    """A toy whose diagram plays a move the engine refuses."""

    name = "brokentoy"

    @classmethod
    def teaching(cls) -> Teaching:
        good = TaughtToy.teaching()
        start = cls().initial_state().to_text()
        bad = Diagram(start, "Page not found", steps=(Step("Page not found", move="take 9"),))
        section = good.rules.sections[0]
        rules = type(good.rules)(
            good.rules.title, good.rules.intro, (type(section)(section.key, "x", (), (bad,)),)
        )
        return Teaching(rules=rules, lesson=good.lesson)


@pytest.fixture(autouse=True)
def toys():
    for cls in (Toy, TaughtToy, BrokenToy):
        tablier.games.register(cls)
    yield
    for cls in (Toy, TaughtToy, BrokenToy):
        tablier.games.unregister(cls.name)


def check_shape(doc: dict, game: str, lang: str) -> None:
    assert doc["game"] == game and doc["lang"] == lang
    assert set(doc) == {"game", "lang", "summary", "rules", "lesson"}
    rules = doc["rules"]
    assert set(rules) == {"title", "intro", "sections"} and rules["title"]
    assert rules["sections"], "a rules page has sections"
    keys = [s["key"] for s in rules["sections"]]
    assert len(keys) == len(set(keys)), f"section anchors repeat: {keys}"
    for section in rules["sections"]:
        assert set(section) == {"key", "title", "paragraphs", "variant", "source", "diagrams"}
        for diagram in section["diagrams"]:
            assert set(diagram) == {"caption", "frames"} and diagram["frames"]
            assert diagram["frames"][0]["move"] is None, "frame 0 is the diagram's position"
            for frame in diagram["frames"]:
                assert set(frame) == FRAME_KEYS
                assert (
                    frame["view"]["game"] == game and frame["view"]["position"] == frame["position"]
                )
                assert all(len(pair) == 2 for pair in frame["arrows"])
    lesson = doc["lesson"]
    assert set(lesson) == {"title", "intro", "final_game", "final_text", "steps"}
    for step in lesson["steps"]:
        assert set(step) == STEP_KEYS, "the answers (accept, then, reply) stay on the server"
        assert step["view"]["position"] == step["position"]


def test_the_document_has_the_agreed_shape(shared_client):
    response = shared_client.get("/api/teaching/taughttoy?lang=en")
    assert response.status_code == 200, response.text
    doc = response.json()
    check_shape(doc, "taughttoy", "en")
    diagram = doc["rules"]["sections"][0]["diagrams"][0]
    assert [f["move"] for f in diagram["frames"]] == [None, "take 1", "take 1"]
    assert [f["view"]["position"].split()[1] for f in diagram["frames"]] == [
        "10/0/0", "9/1/0", "8/1/1",
    ]  # fmt: skip
    assert doc["rules"]["sections"][1]["variant"] == "Back to the lobby"
    assert doc["rules"]["sections"][1]["source"] == "seed 000"
    step = doc["lesson"]["steps"][0]
    assert step["decisions"] == 1 and step["has_reply"] is False
    assert doc["lesson"]["final_game"] == "taughttoy:pile=10,rule=normal"


@pytest.mark.parametrize(
    ("lang", "title", "caption"),
    [
        ("en", "Page not found", "Game not found"),
        ("fr", "Page introuvable", "Partie introuvable"),
        ("ja", "ページが見つかりません", "ゲームが見つかりません"),
    ],
)
def test_texts_come_in_the_language_asked(shared_client, lang, title, caption):
    doc = shared_client.get(f"/api/teaching/taughttoy?lang={lang}").json()
    assert doc["lang"] == lang and doc["rules"]["title"] == title
    frames_ = doc["rules"]["sections"][0]["diagrams"][0]["frames"]
    assert frames_[1]["caption"] == caption
    assert doc["lesson"]["steps"][0]["hint"] == caption


def test_without_lang_the_request_language_is_used(shared_client):
    doc = shared_client.get("/api/teaching/taughttoy", headers={"accept-language": "ja"}).json()
    assert doc["lang"] == "ja"


def test_the_document_is_cacheable(shared_client):
    first = shared_client.get("/api/teaching/taughttoy?lang=fr")
    etag = first.headers["etag"]
    assert "max-age" in first.headers["cache-control"]
    again = shared_client.get("/api/teaching/taughttoy?lang=fr", headers={"if-none-match": etag})
    assert again.status_code == 304 and not again.content
    other = shared_client.get("/api/teaching/taughttoy?lang=ja", headers={"if-none-match": etag})
    assert other.status_code == 200, "another language is another document"


def test_the_document_is_compressed_when_the_client_accepts_it(shared_client):
    packed = shared_client.get(
        "/api/teaching/taughttoy?lang=fr", headers={"accept-encoding": "gzip"}
    )
    plain = shared_client.get(
        "/api/teaching/taughttoy?lang=fr", headers={"accept-encoding": "identity"}
    )
    assert packed.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert packed.json() == plain.json()
    assert packed.headers["etag"] == plain.headers["etag"]
    assert "Accept-Encoding" in plain.headers["vary"]


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/teaching/toy", 404, "not_found"),
        ("/api/teaching/nosuchgame", 404, "not_found"),
        ("/api/teaching/taughttoy?lang=de", 422, "invalid_request"),
    ],
)
def test_bad_requests_get_a_code(shared_client, path, status, code):
    response = shared_client.get(path)
    assert response.status_code == status
    assert response.json()["error"]["code"] == code


def test_a_broken_diagram_is_a_logged_500(shared_client, caplog):
    with caplog.at_level(logging.ERROR, logger="tablier.server"):
        response = shared_client.get("/api/teaching/brokentoy?lang=en")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "internal_error"
    assert "take 9" in caplog.text, "the log names the move the engine refused"


def test_the_rules_page_is_served_for_a_game_with_teaching(shared_client):
    page = shared_client.get("/rules/taughttoy", headers={"accept-language": "fr"})
    assert page.status_code == 200 and '<html lang="fr"' in page.text
    assert shared_client.get("/rules/toy").status_code == 404
    missing = shared_client.get("/rules/nosuchgame", headers={"accept-language": "fr"})
    assert missing.status_code == 404 and "Page introuvable" in missing.text


# -- the games' own teaching ------------------------------------------------------------------


@pytest.mark.parametrize("game", taught_games())
@pytest.mark.parametrize("lang", ["en", "fr", "ja"])
def test_every_game_teaching_is_served(shared_client, game, lang):
    response = shared_client.get(f"/api/teaching/{game}?lang={lang}")
    assert response.status_code == 200, response.text
    check_shape(response.json(), game, lang)
    json.dumps(response.json())


@pytest.mark.parametrize("game", taught_games())
def test_every_diagram_replays(game):
    """Every diagram's moves are legal where they are played, every lesson position reads."""
    teaching = tablier.games.game_class(game).teaching()
    assert teaching is not None
    for section in teaching.rules.sections:
        for diagram in section.diagrams:
            assert len(frames(diagram)) == 1 + len(diagram.steps), diagram.caption
