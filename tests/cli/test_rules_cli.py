"""``tablier rules GAME [--lang fr|ja|en]``: a game's rules page in the terminal.

On the toy game with a fake teaching (``tests/core/teachfake.py``): the page's parts in
order, the texts in the language asked, each frame as the game's text board with its
caption and its marks in words, the variant named; bad input is one line and status 2.
Every game that declares its own teaching is printed in the three languages.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import tablier.games
from core.teachfake import TaughtToy
from tablier.cli.main import main
from tablier.core.teaching import Diagram, Step, Teaching


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


class BrokenToy(TaughtToy):
    name = "brokentoy"

    @classmethod
    def teaching(cls) -> Teaching:
        good = TaughtToy.teaching()
        start = cls().initial_state().to_text()
        section = good.rules.sections[0]
        bad = Diagram(start, "x", steps=(Step("y", move="take 9"),))
        rules = type(good.rules)(
            good.rules.title, (), (type(section)(section.key, "x", (), (bad,)),)
        )
        return Teaching(rules=rules, lesson=good.lesson)


@pytest.fixture(autouse=True)
def taught():
    tablier.games.register(TaughtToy)
    tablier.games.register(BrokenToy)
    yield
    tablier.games.unregister(TaughtToy.name)
    tablier.games.unregister(BrokenToy.name)


def test_the_page_in_english():
    result = run("rules", "taughttoy")
    assert result.exit_code == 0, result.output
    out = result.output
    order = ["Page not found", "Contents", "1. Game not found", "2. Page not found"]
    positions = [out.index(text) for text in order]
    assert positions == sorted(positions), "title, contents, then the sections in order"
    # the first diagram: three frames, each a text board (the toy's board shows the pile)
    assert "[1.1] Page not found" in out
    assert "[1.2] take 1: Game not found" in out
    assert "[1.3] take 1: Back to the lobby" in out
    assert out.count("pile") >= 4, "every frame is drawn as the game's text board"
    assert "Variant: Back to the lobby" in out
    assert "Source: seed 000" in out


def test_the_page_in_french_and_japanese():
    french = run("rules", "taughttoy", "--lang", "fr").output
    assert "Page introuvable" in french and "Partie introuvable" in french
    assert "Sommaire" in french and "Variante : Retour à l'accueil" in french
    assert "[1.2] take 1 : Partie introuvable" in french
    japanese = run("rules", "taughttoy", "--lang", "ja").output
    assert "ページが見つかりません" in japanese and "目次" in japanese


def test_marks_are_listed_in_words(monkeypatch):
    teaching = TaughtToy.teaching()
    section = teaching.rules.sections[0]
    marked = Diagram(
        section.diagrams[0].position,
        "Page not found",
        highlights=("a1",),
        arrows=(("a1", "b2"),),
        marks=("c3",),
    )
    rules = type(teaching.rules)(
        teaching.rules.title, (), (type(section)("one", "Game not found", (), (marked,)),)
    )
    monkeypatch.setattr(
        TaughtToy, "teaching", classmethod(lambda cls: Teaching(rules, teaching.lesson))
    )
    out = run("rules", "taughttoy", "--lang", "fr").output
    assert "en surbrillance : a1; flèches : a1→b2; barrées : c3" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("rules", "nosuchgame"), "unknown game"),
        (("rules", "toy"), "toy has no rules page yet"),
        (("rules", "taughttoy", "--lang", "de"), "--lang must be one of en, fr, ja"),
        (("rules", "brokentoy"), "take 9"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], lines


def taught_games() -> list[str]:
    return [
        n
        for n in ("volo", "xobo", "voldetour")
        if tablier.games.game_class(n).teaching() is not None
    ]


@pytest.mark.parametrize("game", taught_games())
@pytest.mark.parametrize("lang", ["en", "fr", "ja"])
def test_every_game_rules_print(game, lang):
    result = run("rules", game, "--lang", lang)
    assert result.exit_code == 0, result.output
    teaching = tablier.games.game_class(game).teaching()
    assert teaching is not None
    diagrams = sum(len(s.diagrams) for s in teaching.rules.sections)
    assert f"[{diagrams}" in result.output, "every diagram is printed"
