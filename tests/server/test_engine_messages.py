"""The engines' error messages in the player's language (docs/i18n.md, "Errors").

- over HTTP and WebSocket, the ``message`` of ``illegal_move``, ``bad_move``, ``bad_record``
  and ``bad_option`` comes translated into the request's language, the cells and moves filled
  in, and stays the engine's English text for English;
- every template an engine raises is marked ``N_("…")``: a scan of the raise sites of the
  engines' modules finds no message written as a plain string or an f-string;
- every marked template is in the catalog it belongs to (the core's in the interface's, a
  game's in the game's own) and translated in French and Japanese with its placeholders.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

import tablier.games
from tablier.core import errors
from tablier.core.errors import IllegalMoveError, InvalidMoveError, Label, Message, TablierError
from tablier.core.i18n import LOCALE_DIR, game_catalog_path, translations

from .conftest import bearer, new_game

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "tablier"
#: The modules whose errors reach players: the core's readers and each game's engine.
CORE = ["core/game.py", "core/position.py", "core/record.py"]
GAME_MODULES = ["notation.py", "rules.py", "game.py", "view.py", "actions.py"]
GAMES = ["volo", "xobo", "voldetour"]
PLACEHOLDER = re.compile(r"\{(\w*)\}")
#: The names of Tablier's errors (the others, TypeError for a wrong call, are no player's).
ERRORS = {n for n, v in vars(errors).items() if isinstance(v, type) and issubclass(v, TablierError)}
FR = {"Accept-Language": "fr-FR,fr;q=0.9"}
JA = {"Accept-Language": "ja"}


def engine_files() -> list[Path]:
    files = [SRC / name for name in CORE]
    for game in GAMES:
        files += [p for name in GAME_MODULES if (p := SRC / "games" / game / name).is_file()]
    return files


def marked(path: Path) -> set[str]:
    """The ``N_("…")`` messages of a source file, as Babel extracts them."""
    return {m for _, m, _, _ in extract_from_file("python", str(path), keywords={"N_": None})}


def messages(path: Path, lang: str) -> dict[str, str]:
    with path.open("rb") as handle:
        return {m.id: m.string for m in read_po(handle, locale=lang) if m.id and not m.fuzzy}


def interface(lang: str) -> dict[str, str]:
    return messages(LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po", lang)


def game_catalog(game: str, lang: str) -> dict[str, str]:
    return messages(game_catalog_path(tablier.games.game_class(game), lang), lang)


# -- the sources -------------------------------------------------------------------------------


def unmarked_raises(source: str) -> list[int]:
    """Lines where an error of Tablier's is raised with a message that is no template."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
            continue
        func = node.exc.func
        name = func.id if isinstance(func, ast.Name) else ""
        if name not in ERRORS and name != "error":  # error: the caller's class, passed in
            continue
        if node.exc.args and isinstance(node.exc.args[0], ast.JoinedStr | ast.Constant):
            lines.append(node.lineno)
    return lines


def test_the_scan_finds_an_unmarked_message():
    source = 'raise IllegalMoveError(f"{cell} is taken")\nraise IllegalMoveError(N_("x"))\n'
    assert unmarked_raises(source) == [1]


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: str(p.relative_to(SRC)))
def test_every_message_raised_is_a_marked_template(path):
    assert unmarked_raises(path.read_text(encoding="utf-8")) == [], (
        f"{path.name}: a message written as a string, not N_(template) with its values"
    )


# -- the catalogs ------------------------------------------------------------------------------


def check_translated(templates: set[str], catalog: dict[str, str], where: str) -> None:
    missing = sorted(t for t in templates if not catalog.get(t))
    assert not missing, f"{where} lacks a translation of {missing[:5]}"
    for template in templates:
        found = set(PLACEHOLDER.findall(catalog[template]))
        assert found == set(PLACEHOLDER.findall(template)), (where, template, catalog[template])
        assert catalog[template].format_map(dict.fromkeys(found, "x"))  # well-formed braces


@pytest.mark.parametrize("lang", ["fr", "ja"])
def test_the_cores_templates_are_translated_in_the_interface_catalog(lang):
    templates = set().union(*(marked(SRC / name) for name in CORE))
    assert len(templates) > 50
    check_translated(templates, interface(lang), f"messages.po ({lang})")


@pytest.mark.parametrize("lang", ["fr", "ja"])
@pytest.mark.parametrize("game", GAMES)
def test_each_games_templates_are_translated_in_its_catalog(game, lang):
    templates: set[str] = set()
    for name in GAME_MODULES:
        if (path := SRC / "games" / game / name).is_file():
            templates |= marked(path)
    assert len(templates) > 20
    check_translated(templates, game_catalog(game, lang), f"{game}.po ({lang})")


@pytest.mark.parametrize("game", GAMES)
def test_the_players_named_in_messages_have_their_labels(game):
    from importlib import import_module

    players = import_module(f"tablier.games.{game}.rules").PLAYERS
    english = tablier.games.get(game).player_names
    assert [str(p) for p in players] == list(english)
    for lang in ("en", "fr", "ja"):
        gettext = translations(lang).gettext
        for player in players:
            assert gettext(player.template) != player.template, (lang, player.template)
            assert player.translate(gettext) == gettext(player.template)


# -- the messages --------------------------------------------------------------------------------


def test_a_message_is_translated_with_the_words_inside_it():
    gettext = translations("ja").gettext
    template = "{player} has no bird left in supply"
    exc = IllegalMoveError(template, player=Label("game.volo.player.1", "Blue"))
    assert str(exc) == "Blue has no bird left in supply"
    assert exc.translate(gettext) == "青の手元に鳥が残っていません"
    assert exc.translate(None) == str(exc) and exc.message.template == template
    nested = InvalidMoveError("{where}: {error}", where=Message("{n} and {n}", n=2), error=exc)
    assert str(nested) == "2 and 2: Blue has no bird left in supply"


def test_the_english_text_is_unchanged():
    game = tablier.games.get("xobo")
    start = game.initial_state()
    state = start.apply(game.parse_move(start, "e5"))
    with pytest.raises(IllegalMoveError) as caught:
        game.parse_move(state, "e5")
    assert str(caught.value) == "cannot place a cube there: e5 holds a single cube"
    fr = caught.value.translate(translations("fr").gettext)
    assert fr == "impossible de poser un cube ici : e5 porte un cube seul"


# -- over HTTP and WebSocket ---------------------------------------------------------------------


def error(response) -> tuple[int, str, str]:
    body = response.json()["error"]
    return response.status_code, body["code"], body["message"]


def test_an_illegal_xobo_move_in_french_and_japanese(shared_client):
    created = new_game(shared_client, "xobo", "local")
    url = f"/api/games/{created['id']}/moves"
    token = created["tokens"]["both"]
    assert shared_client.post(url, json={"ply": 0, "move": "e5"}, headers=bearer(token)).is_success
    again = {"ply": 1, "move": "e5"}
    answers = {
        lang: error(shared_client.post(url, json=again, headers={**bearer(token), **headers}))
        for lang, headers in (("en", {}), ("fr", FR), ("ja", JA))
    }
    assert answers["en"] == (
        422,
        "illegal_move",
        "cannot place a cube there: e5 holds a single cube",
    )
    assert answers["fr"] == (
        422,
        "illegal_move",
        "impossible de poser un cube ici : e5 porte un cube seul",
    )
    assert answers["ja"] == (
        422,
        "illegal_move",
        "そこにはキューブを置けません：e5 には単独のキューブがあります",
    )


def test_an_unreadable_volo_move_in_japanese_and_french(shared_client):
    created = new_game(shared_client, "volo", "local")
    url = f"/api/games/{created['id']}/moves"
    auth = bearer(created["tokens"]["both"])
    move = {"ply": 0, "move": "e5-"}
    status, code, ja = error(shared_client.post(url, json=move, headers={**auth, **JA}))
    assert (status, code) == (422, "bad_move")
    assert ja == (
        "'e5-' を読めません：マス（e5）、飛翔（e5-e8、列なら e5:e7-f6）、分断するならその後に "
        "/マス、または pass を書いてください"
    )
    _, _, fr = error(shared_client.post(url, json=move, headers={**auth, **FR}))
    assert fr.startswith("impossible de lire 'e5-' : on attend une case (e5), un envol")
    _, _, en = error(shared_client.post(url, json=move, headers=auth))
    assert en.startswith("cannot read 'e5-': expected a cell (e5), a flight")


def test_the_cookies_language_wins_for_a_bad_option(shared_client):
    shared_client.cookies.set("tablier_lang", "ja")
    try:
        r = shared_client.post(
            "/api/games", json={"game": "volo", "options": {"supply": "2"}}, headers=FR
        )
    finally:
        shared_client.cookies.clear()
    status, code, message = error(r)
    assert (status, code) == (422, "bad_option")
    assert message == (
        "オプション 'supply'：1人あたりの鳥の数は3から200までの整数でなければなりません"
    )


def test_a_bad_record_in_french_names_the_decision(shared_client):
    record = '[Game "xobo"]\n\n1. e5 ; e5\n'
    r = shared_client.post("/api/records/parse", json={"text": record}, headers=FR)
    status, code, message = error(r)
    assert (status, code, r.json()["error"]["ply"]) == (422, "bad_record", 2)
    assert message == (
        "coup 1 (Est-Ouest), décision 2, 'e5' : impossible de poser un cube ici : "
        "e5 porte un cube seul"
    )


def test_a_websocket_error_comes_in_the_connections_language(shared_client):
    created = new_game(shared_client, "xobo")
    with shared_client.websocket_connect(f"/ws/games/{created['id']}", headers=FR) as ws:
        ws.send_json({"type": "hello", "token": created["tokens"]["0"]})
        ws.send_json({"type": "move", "ply": 0, "move": "j1", "ref": 1})
        for _ in range(50):
            frame = ws.receive_json()
            if frame["type"] == "error":
                break
        assert (frame["code"], frame["ref"]) == ("bad_move", 1)
        assert frame["message"] == (
            "il n'y a pas de case 'j1' : les colonnes vont de a à i et les rangées de 1 à 9"
        )
