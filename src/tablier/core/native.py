"""Loading the compiled core: one C extension module per game, or the pure-Python engine.

Each built-in game has a compiled core beside its rules (``games/<name>/_native.c``),
built by the install when the machine has a C compiler.  The game's rules module asks
:func:`load` for it; when it is missing (no compiler at install time) or refused
(``TABLIER_PURE=1`` in the environment), the game runs its pure-Python engine, which is
also the reference the compiled one is tested against.  Both give the same states, moves
and outcomes; only the speed differs.  The search has one too, for every game
(``tablier.ai._native``: its loops over a node's children), loaded the same way.

A missing compiled core is said once per process (a :class:`RuntimeWarning`); asking
for the pure engines with ``TABLIER_PURE=1`` is silent.  :func:`engine_status` tells which
engine a game module uses, for ``tablier --version`` and ``tablier games``.

>>> engine_status("tablier.games.volo._native").split()[0] in {"compiled", "pure"}
True
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType

__all__ = ["PURE_ENV", "engine_status", "load", "pure_forced", "register", "using"]

#: Environment variable forcing the pure-Python engines when set to ``1``.
PURE_ENV = "TABLIER_PURE"

_STATUS: dict[str, str] = {}
_SWITCHES: dict[str, Callable[[bool], None]] = {}
_warned = False


def pure_forced() -> bool:
    """True when ``TABLIER_PURE=1`` asks for the pure-Python engines."""
    return os.environ.get(PURE_ENV, "").strip() == "1"


def load(name: str) -> ModuleType | None:
    """The compiled module ``name``, or None when the pure engine must run.

    None when ``TABLIER_PURE=1`` is set, or when the module cannot be imported (it
    was not built); the latter is reported once per process as a warning.
    """
    if pure_forced():
        _STATUS[name] = f"pure ({PURE_ENV}=1)"
        return None
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        _STATUS[name] = "pure (compiled core not built)"
        _warn_once(name, exc)
        return None
    _STATUS[name] = "compiled"
    return module


def engine_status(name: str) -> str:
    """``"compiled"`` or ``"pure (…why…)"`` for the compiled module ``name``."""
    if name not in _STATUS:
        load(name)
    return _STATUS[name]


def _warn_once(name: str, exc: ImportError) -> None:
    global _warned
    if _warned:
        return
    _warned = True
    warnings.warn(
        f"Tablier's compiled core is not installed ({name}: {exc}); the pure-Python "
        "engines are used (same rules, slower). Reinstall with a C compiler to build it.",
        RuntimeWarning,
        stacklevel=3,
    )


def register(name: str, switch: Callable[[bool], None]) -> None:
    """Record how a rules module turns its compiled core on (True) and off (False).

    A rules module whose compiled core loaded registers a switch, so that the tests
    can run the same checks on both engines in one process (:func:`using`).
    """
    _SWITCHES[name] = switch


@contextmanager
def using(compiled: bool) -> Iterator[None]:
    """Run the block with every registered compiled core on (True) or off (False).

    The compiled cores are back on afterwards.  Used by the tests to compare the
    two engines; programs choose with ``TABLIER_PURE`` instead.
    """
    for switch in _SWITCHES.values():
        switch(compiled)
    try:
        yield
    finally:
        for switch in _SWITCHES.values():
            switch(True)
