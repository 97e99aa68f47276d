"""Build of Tablier's compiled core: one C extension module per game.

Everything else about the package is declared in ``pyproject.toml``; this file exists
because extension modules are declared in code.  Each extension is *optional*: when the
machine has no C compiler (or no Python headers), setuptools reports the failure and
installs the package without it, and Tablier then runs its pure-Python engines (see
``tablier.core.native``).  ``CFLAGS``/``LDFLAGS`` in the environment are honoured, which is
how the sanitizer build of the tests is made (``tools/native_sanitize.sh``).
"""

from setuptools import Extension, setup

GAMES = ("volo", "xobo", "voldetour")
CFLAGS = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"]

setup(
    ext_modules=[
        Extension(
            f"tablier.games.{game}._native",
            sources=[f"src/tablier/games/{game}/_native.c"],
            include_dirs=["src/tablier/core"],  # _native_rng.h, _native_proof.h (shared)
            extra_compile_args=CFLAGS,
            optional=True,
        )
        for game in GAMES
    ]
    # the search's loops over a node's children (tablier.ai.mcts), for every game
    + [
        Extension(
            "tablier.ai._native",
            sources=["src/tablier/ai/_native.c"],
            extra_compile_args=CFLAGS,
            optional=True,
        )
    ],
)
