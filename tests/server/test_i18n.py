"""The interface in three languages: the catalogs, the client's texts, the language chosen.

- every message of the template has a translation in every catalog (English: the labels,
  whose English is written in the catalog), with the same placeholders;
- the template holds what extraction finds in the sources, no more, no less;
- no text a player reads is left outside the catalogs in the client (a scan of the JS and
  HTML for literals in the places where text is shown);
- the language of a page: ``Accept-Language`` (Babel's negotiation), then the remembered
  choice (the cookie), over HTTP.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tablier.server.extract import HTML_MESSAGE, extract_catalog
from tablier.server.i18n import COOKIE, LANGUAGES, LOCALE_DIR, client_messages, negotiate
from tablier.server.labels import label_keys

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "tablier" / "web"
PLACEHOLDER = re.compile(r"\{(\w*)\}")
#: A label key (``game.volo.option.board``): no space, dotted.
LABEL = re.compile(r"^[a-z]+(\.[\w-]+)+$")


def catalog(lang: str):
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=lang)


def template():
    with (LOCALE_DIR / "messages.pot").open("rb") as handle:
        return read_po(handle)


def key(message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def ids(cat) -> set[str]:
    return {key(m) for m in cat if m.id}


def placeholders(text: str | tuple | list) -> set[str]:
    texts = [text] if isinstance(text, str) else list(text)
    return {name for t in texts for name in PLACEHOLDER.findall(t)}


# -- the catalogs ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_catalog_holds_exactly_the_template(lang):
    missing = ids(template()) - ids(catalog(lang))
    obsolete = ids(catalog(lang)) - ids(template())
    assert not missing, f"{lang}: not in the catalog (pybabel update): {sorted(missing)[:10]}"
    assert not obsolete, f"{lang}: no longer in the sources: {sorted(obsolete)[:10]}"


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_every_message_is_translated(lang):
    untranslated = []
    for message in catalog(lang):
        if not message.id:
            continue
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        if message.fuzzy or not strings or not all(s.strip() for s in strings):
            untranslated.append(key(message))
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated: {untranslated[:10]}"


def test_every_label_is_spelt_out_in_english():
    """English is the source language: a sentence of the code needs no English translation,
    but a label key does (the key is not what a player should read)."""
    labels = [m for m in catalog("en") if m.id and LABEL.match(key(m))]
    assert len(labels) >= len(list(label_keys())) > 20
    blank = [key(m) for m in labels if not str(m.string).strip()]
    assert not blank, f"English labels without text: {blank[:10]}"
    sentences = [m for m in catalog("en") if m.id and not LABEL.match(key(m))]
    written = [
        key(m) for m in sentences if any([m.string] if isinstance(m.string, str) else m.string)
    ]
    assert sentences and not written, f"English sentences stay as the code writes them: {written}"


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_translations_keep_the_placeholders(lang):
    english = {key(m): m.string for m in catalog("en") if m.id}
    wrong = []
    for message in catalog(lang):
        if not message.id:
            continue
        # a label's placeholders are those of its English text ({winner}, {loser})
        source = english[key(message)] if LABEL.match(key(message)) else message.id
        if placeholders(message.string) != placeholders(source):
            wrong.append((key(message), sorted(placeholders(message.string))))
    assert not wrong, f"{lang}: placeholders differ from the source: {wrong[:5]}"


def test_label_placeholders_are_the_ones_the_client_fills():
    for message in catalog("en"):
        if message.id and LABEL.match(key(message)):
            assert placeholders(message.string) <= {"winner", "loser"}, key(message)


def test_the_template_is_up_to_date_with_the_sources():
    found = extract_catalog(ROOT)
    held = ids(template())
    assert not found - held, f"new messages (pybabel extract): {sorted(found - held)[:10]}"
    assert not held - found, f"messages gone from the sources: {sorted(held - found)[:10]}"
    # the labels of every game, option, value and reason are there
    assert {k for k, _ in label_keys()} <= held


def test_client_messages_carry_plural_categories():
    fr = client_messages("fr")["messages"]
    assert fr["{n} move"] == {"one": "{n} coup", "other": "{n} coups"}
    assert client_messages("ja")["messages"]["{n} move"] == {"other": "{n}手"}
    assert fr["game.volo.player.1"] == "Bleu"
    assert "Page not found" not in client_messages("en")["messages"]  # the source needs none


# -- the client's texts ---------------------------------------------------------------------

_LIT = r'(?:"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`|\'(?:[^\'\\\n]|\\.)*\')'
#: The places where the client shows text: a literal there must go through t()/tn()/label().
SHOWN = [
    re.compile(r'(?:\btitle|"aria-label"|\bplaceholder|\blabel|\btext)\s*:\s*(' + _LIT + ")"),
    re.compile(r"\.(?:textContent|innerText|title)\s*=\s*(" + _LIT + ")"),
    re.compile(r'setAttribute\(\s*"(?:aria-label|title|placeholder)"\s*,\s*(' + _LIT + ")"),
    re.compile(r"\b(?:toast|showError|ask|choose|dialog|alert|confirm)\(\s*(" + _LIT + ")"),
    re.compile(r'\b(?:el|svg)\(\s*"[\w-]+"\s*,\s*(?:\{[^{}]*\}|null)\s*,\s*(' + _LIT + ")"),
    re.compile(r"parts\.push\(\s*(" + _LIT + ")"),
]
#: Literals shown as they are in every language: the site's name, an example of notation.
UNTRANSLATED = {'"Tablier"', r'"[Game \"xobo\"]\n1. e5 ; a4->c4 …"'}


def _code(path: Path) -> str:
    """A JS file without its comments (their text is kept out of the scan)."""
    src = path.read_text(encoding="utf-8")
    src = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.S)
    return re.sub(r"(?m)^\s*//.*$", "", src)


def _client_files() -> list[Path]:
    files = sorted(WEB.rglob("*.js"))
    assert len(files) > 10 and any(p.parent.name == "games" for p in files)
    return files


def _wording(literal: str) -> bool:
    """Whether a literal holds words (two letters or more outside ${…})."""
    return bool(re.search(r"[A-Za-z]{2,}", re.sub(r"\$\{[^}]*\}", "", literal[1:-1])))


def test_no_text_is_shown_outside_the_catalogs():
    left = []
    for path in _client_files():
        code = _code(path)
        for pattern in SHOWN:
            for match in pattern.finditer(code):
                literal = match.group(1)
                if literal in UNTRANSLATED or not _wording(literal):
                    continue
                line = code.count("\n", 0, match.start()) + 1
                left.append(f"{path.relative_to(WEB)}:{line}: {literal[:60]}")
    assert not left, "texts shown without t():\n" + "\n".join(left)


def test_the_scan_finds_a_text_left_out(tmp_path):
    """The scan above is not vacuous: untranslated texts in the usual places are found."""
    samples = [
        'el("button", { type: "button" }, "Resign")',
        'hint.textContent = "Click a cell";',
        'toast("Link copied")',
        'el("input", { placeholder: "type a move" })',
    ]
    for sample in samples:
        assert any(_wording(m.group(1)) for pattern in SHOWN for m in pattern.finditer(sample)), (
            sample
        )
    assert not any(p.search('el("span", {}, t("Resign"))') for p in SHOWN)


def test_every_message_of_the_client_is_extracted():
    """t("…") inside a template literal or inside another call's arguments escapes Babel's
    extractor: every literal given to t() must be in the template."""
    held = ids(template())
    lost = []
    for path in _client_files():
        code = _code(path)
        assert "${t(" not in code and "${tn(" not in code, f"{path.name}: t() in a template"
        for match in re.finditer(r'\bt\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]', code):
            if match.group(1) not in held:
                lost.append(f"{path.name}: {match.group(1)}")
    assert not lost, f"not extracted: {lost[:10]}"


def test_the_client_page_has_no_text_outside_the_catalog():
    html = (WEB / "index.html").read_text(encoding="utf-8")
    marked = {m.group(0) for m in HTML_MESSAGE.finditer(html)}
    assert marked, "the page marks its texts with data-i18n"
    rest = html
    for element in marked:
        rest = rest.replace(element, "")
    rest = re.sub(r"<(script|style)\b.*?</\1>", "", rest, flags=re.S)
    texts = [t.strip() for t in re.findall(r">([^<]+)<", rest) if t.strip()]
    assert set(texts) <= {"Tablier"}, f"texts of index.html outside data-i18n: {texts}"
    held = ids(template())
    for match in HTML_MESSAGE.finditer(html):
        assert " ".join(match.group(3).split()) in held


# -- the language of a page -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.8", "fr"),
        ("ja", "ja"),
        ("ja-JP", "ja"),
        ("de-DE,de;q=0.9,fr;q=0.5", "fr"),
        ("en-GB,ja;q=0.9", "en"),
        ("fr;q=0.2, ja;q=0.8", "ja"),
        ("fr;q=0, ja;q=0.1", "ja"),
        ("de, *", "en"),
        ("", "en"),
        ("x" * 5000, "en"),
        (";;;,,,q=", "en"),
    ],
)
def test_negotiation(header, lang):
    assert negotiate(header) == lang


def _lang_of(body: str) -> str:
    return re.search(r'<html lang="([^"]*)"', body).group(1)


@pytest.mark.parametrize("path", ["/", "/review"])
def test_the_client_page_speaks_the_browsers_language(shared_client, path):
    for header, lang, text in [
        ("fr-CH, fr;q=0.9", "fr", "Le plateau de Tablier a besoin de JavaScript"),
        ("ja-JP,ja;q=0.9,en;q=0.5", "ja", "Tablier の盤には JavaScript"),
        ("de-DE", "en", "Tablier&#x27;s board needs JavaScript"),
    ]:
        r = shared_client.get(path, headers={"Accept-Language": header})
        assert r.status_code == 200
        assert _lang_of(r.text) == lang and r.headers["content-language"] == lang
        assert text in r.text or text.replace("&#x27;", "'") in r.text
        assert "accept-language" in r.headers["vary"].lower()
        # the page keeps its security headers and has no inline script
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert not re.search(r"<script(?![^>]*\bsrc=)", r.text)


def test_the_remembered_choice_wins_over_the_browser(shared_client):
    shared_client.cookies.set(COOKIE, "ja")
    try:
        r = shared_client.get("/", headers={"Accept-Language": "fr"})
        assert _lang_of(r.text) == "ja"
        page = shared_client.get("/g/NoSuchGame123", headers={"Accept-Language": "fr"})
        assert page.status_code == 404 and _lang_of(page.text) == "ja"
        assert "ゲームが見つかりません" in page.text and "NoSuchGame123" in page.text
        shared_client.cookies.set(COOKIE, "klingon")  # not a language: the browser's again
        r = shared_client.get("/", headers={"Accept-Language": "fr"})
        assert _lang_of(r.text) == "fr"
    finally:
        shared_client.cookies.clear()


def test_the_server_pages_are_translated(shared_client):
    page = shared_client.get("/nothing-here", headers={"Accept-Language": "fr"})
    assert page.status_code == 404 and _lang_of(page.text) == "fr"
    assert "Page introuvable" in page.text and "Retour à l'accueil" in unescape(page.text)
    page = shared_client.get("/g/<x>", headers={"Accept-Language": "ja"})
    assert "ゲームが見つかりません" in page.text and "&lt;x&gt;" in page.text
    # the API keeps answering in JSON whatever the language
    r = shared_client.get("/api/nothing", headers={"Accept-Language": "ja"})
    assert r.headers["content-type"] == "application/json"


def test_the_client_messages_endpoint(shared_client):
    r = shared_client.get("/api/i18n/fr")
    assert r.status_code == 200
    body = r.json()
    assert body["lang"] == "fr" and body["languages"] == LANGUAGES
    assert body["messages"]["Resign"] == "Abandonner"
    assert body["messages"]["game.xobo.player.0"] == "Nord-Sud"
    assert shared_client.get("/api/i18n/ja").json()["messages"]["Resign"] == "投了"
    english = shared_client.get("/api/i18n/en").json()["messages"]
    assert english["game.voldetour.option.max_turns"] == "Turn limit"
    missing = shared_client.get("/api/i18n/xx")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


# -- the games' own catalogs (their rules pages and tutorials) ------------------------------


def _game_catalogs() -> list[str]:
    """The registered games that keep catalogs in ``locale/`` beside their class's module."""
    from tablier import games as registry
    from tablier.core.i18n import game_locale_dir

    return [
        name
        for name in registry.names()
        if (game_locale_dir(registry.game_class(name)) / f"{name}.pot").is_file()
    ]


def _game_catalog(name: str, lang: str | None):
    from tablier import games as registry
    from tablier.core.i18n import game_catalog_path, game_locale_dir

    cls = registry.game_class(name)
    path = game_locale_dir(cls) / f"{name}.pot" if lang is None else game_catalog_path(cls, lang)
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


def _teaching_texts(name: str) -> set[str]:
    """Every text of a game's teaching that a reader sees translated (not positions, moves,
    cells, keys or sources)."""
    from tablier import games as registry

    teaching = registry.game_class(name).teaching()
    if teaching is None:
        return set()
    rules, lesson = teaching.rules, teaching.lesson
    texts = {teaching.summary, rules.title, *rules.intro}
    for section in rules.sections:
        texts |= {section.title, *section.paragraphs, section.variant or ""}
        for diagram in section.diagrams:
            texts |= {diagram.caption, *(step.caption for step in diagram.steps)}
    texts |= {lesson.title, lesson.intro, lesson.final_text}
    for step in lesson.steps:
        texts |= {step.title, step.text, step.task, step.hint, step.wrong, step.success}
    return {t for t in texts if t}


@pytest.mark.parametrize("game", _game_catalogs())
def test_every_game_catalog_holds_exactly_its_template(game):
    expected = ids(_game_catalog(game, None))
    for lang in LANGUAGES:
        held = ids(_game_catalog(game, lang))
        assert not expected - held, (
            f"{game}/{lang}: not in the catalog: {sorted(expected - held)[:5]}"
        )
        assert not held - expected, (
            f"{game}/{lang}: not in the template: {sorted(held - expected)[:5]}"
        )


@pytest.mark.parametrize("game", _game_catalogs())
@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_every_game_message_is_translated_with_its_placeholders(game, lang):
    untranslated, wrong = [], []
    for message in _game_catalog(game, lang):
        if not message.id:
            continue
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        if message.fuzzy or not strings or not all(s.strip() for s in strings):
            untranslated.append(key(message))
        elif placeholders(message.string) != placeholders(message.id):
            wrong.append(key(message))
    assert not untranslated, f"{game}/{lang}: {len(untranslated)} untranslated: {untranslated[:5]}"
    assert not wrong, f"{game}/{lang}: placeholders differ from the source: {wrong[:5]}"


@pytest.mark.parametrize("game", _game_catalogs())
def test_every_game_template_is_up_to_date(game):
    """The game's template holds what ``pybabel extract -k N_`` finds in its package, and
    every text its teaching shows is one of them (none is left in English by mistake)."""
    from babel.messages.extract import extract_from_dir

    from tablier import games as registry
    from tablier.core.i18n import game_locale_dir

    folder = game_locale_dir(registry.game_class(game)).parent
    found = {
        m[2] if isinstance(m[2], str) else m[2][0]
        for m in extract_from_dir(
            str(folder), keywords={"N_": None}, method_map=[("**.py", "python")]
        )
    }
    held = ids(_game_catalog(game, None))
    assert not found - held, f"{game}: new messages (pybabel extract): {sorted(found - held)[:5]}"
    assert not held - found, f"{game}: messages gone from the sources: {sorted(held - found)[:5]}"
    missing = _teaching_texts(game) - held
    assert not missing, f"{game}: teaching texts not marked N_(): {sorted(missing)[:5]}"


def test_game_catalogs_are_merged_into_the_interface():
    """A game's message is translated by the interface's gettext (server and terminal)."""
    from tablier.core.i18n import gettext

    interface = ids(catalog("fr"))  # where both have a message, the interface's wins
    for game in _game_catalogs():
        for message in _game_catalog(game, "fr"):
            if message.id in interface or not isinstance(message.id, str):
                continue
            if message.id and message.string and not message.fuzzy:
                assert gettext("fr", message.id) == message.string
                break
