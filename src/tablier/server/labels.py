"""The labels: messages named by a key, built from what each game declares.

What a player reads about a game — its title, its sides, its options and their values, the
reasons its games end — is not written in the server or the client (they never name a game)
but looked up by a key made from the game's own declarations:

- ``game.<game>.title``, ``game.<game>.player.<seat>``;
- ``game.<game>.option.<option>`` (the option in plain words) and ``….help`` (a sentence
  on it); ``….<value>`` for each of its choices (``….true`` and ``….false`` for an on/off
  option); ``….none`` for the default of an option whose default is ``None``;
- ``game.<game>.variant.<key>`` for each of its :attr:`~tablier.core.game.Game.VARIANTS`
  (an edition or rule set by its plain name: "2010 French pass rule");
- ``game.<game>.reason.<reason>`` for each reason its ``Outcome`` calls give;
- ``reason.<reason>`` for the reasons of the server itself (:data:`SERVER_REASONS`);
- ``level.<level>`` for each level of the computer player.

A reason's text may name the sides with ``{winner}`` and ``{loser}`` (filled by the client).

:func:`label_keys` lists them all with what the engine says in English (a comment for the
translators); the extraction (:mod:`.extract`) puts them in the catalog template, where
every language, English included, spells them out.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

from .. import games as registry
from ..ai.players import LEVELS

__all__ = ["SERVER_REASONS", "game_reasons", "label_keys"]

#: The reasons of the results the server decides (``live.py``): resignation, agreed draw,
#: flag fall (``clocks.py``).
SERVER_REASONS = {
    "resignation": "a player resigned",
    "agreement": "the players agreed a draw",
    "timeout": "a player ran out of time",
}


def game_reasons(cls: type) -> dict[str, str]:
    """The reasons of the outcomes a game's package builds, with the first English message.

    Read from the source of the game's package: every ``Outcome(winner, "reason", message)``
    call with a literal reason.
    """
    module = sys.modules[cls.__module__]
    folder = Path(module.__file__ or "").resolve().parent
    found: dict[str, str] = {}
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _name(node.func) == "Outcome"):
                continue
            args = list(node.args)
            reason = args[1] if len(args) > 1 else None
            message = args[2] if len(args) > 2 else None
            for keyword in node.keywords:
                if keyword.arg == "reason":
                    reason = keyword.value
                elif keyword.arg == "message":
                    message = keyword.value
            if isinstance(reason, ast.Constant) and isinstance(reason.value, str):
                text = ast.unparse(message) if message is not None else ""
                found.setdefault(reason.value, text)
    return found


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def label_keys() -> Iterator[tuple[str, str]]:
    """Every label key, with the engine's English for it (for the translators)."""
    for name in registry.names():
        cls = registry.game_class(name)
        prefix = f"game.{name}"
        yield f"{prefix}.title", f"the game's title: {cls.title}"
        for seat, player in enumerate(cls().player_names):
            order = "first" if seat == 0 else "second"
            yield f"{prefix}.player.{seat}", f"side {seat + 1} ({order} to move): {player}"
        for option in cls.OPTIONS:
            key = f"{prefix}.option.{option.name}"
            yield key, f"the option {option.name!r} in plain words: {option.doc}"
            yield f"{key}.help", f"one sentence on the option {option.name!r}: {option.doc}"
            values: tuple[object, ...] = option.choices or ()
            if isinstance(option.default, bool):
                values = (True, False)
            for value in values:
                text = str(value).lower() if isinstance(value, bool) else str(value)
                yield f"{key}.{text}", f"the value {text!r} of the option {option.name!r}"
            if option.default is None:
                yield f"{key}.none", f"the default of the option {option.name!r}: {option.doc}"
        for variant in cls.VARIANTS:
            options = ", ".join(f"{k}={v}" for k, v in variant.options.items()) or "the defaults"
            yield f"{prefix}.variant.{variant.key}", f"a variant's plain name: {options}"
        for reason, message in game_reasons(cls).items():
            yield f"{prefix}.reason.{reason}", f"why a game ended ({reason}): {message}"
    for reason, text in SERVER_REASONS.items():
        yield f"reason.{reason}", f"why a game ended: {text}"
    for level in LEVELS:
        yield f"level.{level}", f"a level of the computer player: {level}"
