"""The package is typed (PEP 561) and its games need no overrides that the checker refuses.

mypy itself runs in ``make test`` (configured in pyproject.toml); these checks keep what
it cannot see: the marker file users' type checkers look for, and the generic protocol
staying generic enough that no game silences an incompatible override.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import tablier
from tablier.core.game import Game, State

SRC = Path(tablier.__file__).parent


def test_the_package_ships_py_typed():
    assert files("tablier").joinpath("py.typed").is_file()


def test_no_override_is_silenced():
    pattern = re.compile(r"type:\s*ignore\[[^\]]*override")
    found = [
        f"{path.relative_to(SRC)}:{n}"
        for path in sorted(SRC.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, f"'# type: ignore[override]' in {', '.join(found)}"


def test_every_built_in_game_declares_its_state_and_move_types():
    import tablier.games

    for name in ("volo", "xobo", "voldetour"):
        cls = tablier.games.game_class(name)
        bases = [b for b in getattr(cls, "__orig_bases__", ()) if getattr(b, "__origin__", None)]
        assert bases and bases[0].__origin__ is Game, f"{cls.__name__} is not Game[S, M]"
        state_type, move_type = bases[0].__args__
        assert issubclass(state_type, State), f"{cls.__name__}: {state_type!r} is no State"
        state = cls().initial_state()
        assert isinstance(state, state_type)
        assert all(isinstance(m, move_type) for m in state.legal_moves())
