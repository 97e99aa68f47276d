"""A game's rules page and tutorial as the browser reads them, in one language.

:func:`teaching_document` turns what a game declares (:meth:`Game.teaching
<tablier.core.game.Game.teaching>`, :mod:`tablier.core.teaching`) into the JSON of
``GET /api/teaching/<game>`` (``docs/web.md``): every text translated into the language
asked for (the game's own catalog merged into the interface's, :mod:`tablier.core.i18n`),
every diagram's frames replayed by the engine (:mod:`tablier.core.diagram`) with the view the
board modules draw (``state_view``), and each lesson step's position with its view.  The
answers a step accepts are not sent: the server checks the moves (LEARN's ``check``).

The document is built once per game class and language and kept with its gzip-compressed
copy and its ETag (:func:`teaching_body`).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
from collections.abc import Callable
from typing import Any

from ..core.diagram import Frame, frames, read_position
from ..core.game import Game
from ..core.i18n import gettext
from ..core.teaching import Diagram, Lesson, LessonStep, Section, Teaching
from .errors import dump_json

__all__ = ["frame_json", "teaching_body", "teaching_document"]

Translate = Callable[[str], str]


def _translator(lang: str) -> Translate:
    def translate(text: str) -> str:
        return gettext(lang, text) if text else text

    return translate


def frame_json(frame: Frame, _: Translate) -> dict[str, Any]:
    """One frame: ``{"caption", "move", "position", "view", "highlights", "arrows", "marks"}``."""
    state = frame.state
    return {
        "caption": _(frame.caption),
        "move": frame.move,
        "position": state.to_text(),
        "view": state.game.state_view(state),
        "highlights": list(frame.highlights),
        "arrows": [list(pair) for pair in frame.arrows],
        "marks": list(frame.marks),
    }


def _diagram(diagram: Diagram, _: Translate) -> dict[str, Any]:
    return {
        "caption": _(diagram.caption),
        "frames": [frame_json(frame, _) for frame in frames(diagram)],
    }


def _section(section: Section, _: Translate) -> dict[str, Any]:
    return {
        "key": section.key,
        "title": _(section.title),
        "paragraphs": [_(p) for p in section.paragraphs],
        "variant": _(section.variant) if section.variant else None,
        "source": _(section.source) if section.source else None,
        "diagrams": [_diagram(d, _) for d in section.diagrams],
    }


def _step(step: LessonStep, _: Translate) -> dict[str, Any]:
    state = read_position(step.position)
    return {
        "key": step.key,
        "title": _(step.title),
        "text": _(step.text),
        "task": _(step.task),
        "position": state.to_text(),
        "view": state.game.state_view(state),
        "hint": _(step.hint),
        "hint_cells": list(step.hint_cells),
        "wrong": _(step.wrong),
        "success": _(step.success),
        "has_reply": step.reply is not None,
        "decisions": 1 + len(step.then) if step.accept else 0,
    }


def _lesson(lesson: Lesson, _: Translate) -> dict[str, Any]:
    return {
        "title": _(lesson.title),
        "intro": _(lesson.intro),
        "final_game": lesson.final_game,
        "final_text": _(lesson.final_text),
        "steps": [_step(step, _) for step in lesson.steps],
    }


def teaching_document(name: str, teaching: Teaching, lang: str) -> dict[str, Any]:
    """The JSON of ``GET /api/teaching/<name>?lang=<lang>`` (see the module docstring).

    Raises :class:`~tablier.core.diagram.BrokenDiagramError` when a diagram or a lesson
    step holds a position or a move the engine refuses.
    """
    _ = _translator(lang)
    rules = teaching.rules
    return {
        "game": name,
        "lang": lang,
        "summary": _(teaching.summary),
        "rules": {
            "title": _(rules.title),
            "intro": [_(p) for p in rules.intro],
            "sections": [_section(s, _) for s in rules.sections],
        },
        "lesson": _lesson(teaching.lesson, _),
    }


@functools.lru_cache(maxsize=64)
def teaching_body(cls: type[Game[Any, Any]], lang: str) -> tuple[bytes, bytes, str] | None:
    """The document of the game class ``cls`` in ``lang``: its JSON bytes, the same
    gzip-compressed, and its ETag; ``None`` for a game without teaching.

    Compressed, a page of views shrinks about twentyfold (Voldétour's rules in French:
    435 KiB of JSON, 19 KiB sent), for about 2 ms once per game and language.
    """
    teaching = cls.teaching()
    if teaching is None:
        return None
    body = dump_json(teaching_document(cls.name, teaching, lang))
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    return body, gzip.compress(body, 6, mtime=0), etag
