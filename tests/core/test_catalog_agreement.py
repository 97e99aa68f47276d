"""The catalogs merged per language never disagree on a message.

The interface's catalog and each game's own are merged into one per language
(:mod:`tablier.core.i18n`), so a message that two catalogs both translate must be
translated alike; otherwise one of the games would silently read the other's words.
"""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

import tablier.games as registry
from tablier.core import i18n


def _translations(path, lang):
    with path.open("rb") as handle:
        return {m.id: m.string for m in read_po(handle, locale=lang) if m.id and m.string}


@pytest.mark.parametrize("lang", ["fr", "ja"])
def test_a_message_shared_by_two_catalogs_has_one_translation(lang):
    owners: dict[object, tuple[str, object]] = {}
    interface = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    catalogs = [("interface", interface)] + [
        (name, i18n.game_catalog_path(registry.game_class(name), lang)) for name in registry.names()
    ]
    clashes = []
    for owner, path in catalogs:
        if not path.is_file():
            continue
        for msgid, text in _translations(path, lang).items():
            first = owners.setdefault(msgid, (owner, text))
            if first[1] != text:
                clashes.append(f"{msgid!r}: {first[0]} {first[1]!r}, {owner} {text!r}")
    assert not clashes, "\n".join(clashes)
