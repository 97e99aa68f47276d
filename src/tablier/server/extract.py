"""Babel extraction methods for what Babel's own extractors cannot read.

Named in ``tablier/locale/babel.cfg`` (``docs/i18n.md``):

- :func:`extract_labels` yields the label keys of :mod:`.labels` (built from the games'
  declarations, not written in any source file); it is mapped on ``labels.py``, whose
  content it ignores.
- :func:`extract_html` yields the text of the elements of an HTML file that carry a
  ``data-i18n`` attribute (the client's ``index.html``), which the server translates
  (:func:`translate_html`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

__all__ = [
    "HTML_MESSAGE",
    "KEYWORDS",
    "extract_catalog",
    "extract_html",
    "extract_labels",
    "translate_html",
]

#: The functions whose arguments are messages, beside Babel's defaults (``_``, ``gettext``…):
#: ``N_`` in Python, ``t`` and ``tn`` in the client (``pybabel extract -k N_ -k t -k tn:1,2``).
KEYWORDS: dict[str, Any] = {"N_": None, "t": None, "tn": (1, 2)}

#: An element with a ``data-i18n`` attribute and only text inside: (start tag, text, end tag).
HTML_MESSAGE = re.compile(r"(<(\w+)\b[^>]*\bdata-i18n\b[^>]*>)([^<]+)(</\2>)")

Extracted = Iterator[tuple[int, str | None, str, list[str]]]


def extract_labels(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Extracted:
    """The label keys, each with the engine's English as a comment."""
    from .labels import label_keys

    for key, comment in label_keys():
        yield 1, None, key, [comment]


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Extracted:
    """The texts of the ``data-i18n`` elements of an HTML file."""
    text = fileobj.read().decode("utf-8")
    for match in HTML_MESSAGE.finditer(text):
        lineno = text.count("\n", 0, match.start()) + 1
        yield lineno, None, " ".join(match.group(3).split()), []


def translate_html(html: str, gettext: Callable[[str], str]) -> str:
    """``html`` with the text of its ``data-i18n`` elements translated (and escaped).

    >>> translate_html('<p data-i18n class="x">Hello  world</p>', str.upper)
    '<p data-i18n class="x">HELLO WORLD</p>'
    """
    from html import escape

    def replace(match: re.Match[str]) -> str:
        message = " ".join(match.group(3).split())
        return match.group(1) + escape(gettext(message), quote=False) + match.group(4)

    return HTML_MESSAGE.sub(replace, html)


def extract_catalog(root: Path) -> set[str]:
    """The message ids that ``pybabel extract`` finds under ``root`` (the repository) with
    ``tablier/locale/babel.cfg`` (a plural message by its singular): what the catalog
    template must hold."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
    from babel.messages.frontend import parse_mapping_cfg
    from babel.util import pathmatch

    cfg = root / "src" / "tablier" / "locale" / "babel.cfg"
    with cfg.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle, str(cfg))
    keywords = {**DEFAULT_KEYWORDS, **KEYWORDS}
    found: set[str] = set()
    for path in sorted((root / "src").rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or any(part.startswith((".", "_")) for part in rel.split("/")[:-1]):
            continue
        for pattern, method in method_map:
            if pathmatch(pattern, rel):
                for _, message, _, _ in extract_from_file(
                    method, str(path), keywords=keywords, options=options_map.get(pattern)
                ):
                    found.add(message if isinstance(message, str) else message[0])
                break
    return found
