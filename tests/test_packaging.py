"""Dependencies: what `pip install tablier` gives, what each extra adds, and that they match
the imports of src/.

The core install (engines, notation, records, AI, the terminal client) needs only the
packages of ``[project] dependencies``; the web server is the ``web`` extra; the research
interfaces, OpenSpiel, Ray and PostgreSQL stay extras, and ``dev`` holds everything.  The
import test runs a fresh interpreter that refuses every package of the extras (an import
hook), plays through the core and the command line there, and checks that ``tablier
serve`` then fails with a one-line message naming the extra.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "tablier"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]

WEB_STACK = {
    "fastapi",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "pydantic",
    "pydantic-settings",
    "starlette",
    "anyio",
}


def norm(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(req: str) -> str:
    return norm(re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req).group(1))


def extra_packages(extra: str, seen: frozenset[str] = frozenset()) -> set[str]:
    """The distributions an extra brings, following ``tablier[other]`` references."""
    out = set()
    for req in PROJECT["optional-dependencies"][extra]:
        name = requirement_name(req)
        if name == "tablier":
            for other in re.search(r"\[(.*)\]", req).group(1).split(","):
                if other.strip() not in seen:
                    out |= extra_packages(other.strip(), seen | {extra})
        else:
            out.add(name)
    return out


CORE = {requirement_name(r) for r in PROJECT["dependencies"]}
EXTRAS = {extra: extra_packages(extra) for extra in PROJECT["optional-dependencies"]}


def group_of(path: Path) -> str:
    """Which install a module of src/ belongs to: 'core' or the name of an extra."""
    rel = path.relative_to(SRC).as_posix()
    if rel.startswith("server/"):
        return "web"
    if rel == "adapters/openspiel.py":
        return "openspiel"
    if rel.startswith("adapters/") or (rel.startswith("games/") and rel.endswith("/actions.py")):
        return "rl"
    if rel == "ai/ray_backend.py":
        return "ray"
    return "core"


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def third_party_imports(path: Path) -> tuple[set[str], set[str]]:
    """Top-level names of the third-party modules a file imports: (at import time, later).

    "Later" are imports inside functions and under ``if TYPE_CHECKING``.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    eager: set[str] = set()
    lazy: set[str] = set()

    def visit(node: ast.AST, deferred: bool) -> None:
        for child in ast.iter_child_nodes(node):
            later = (
                deferred
                or _is_type_checking(child)
                or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            )
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                names = [child.module]
            for name in names:
                top = name.partition(".")[0]
                if top not in sys.stdlib_module_names and top not in {"tablier", "__future__"}:
                    (lazy if later else eager).add(top)
            visit(child, later)

    visit(tree, False)
    return eager, lazy


def distributions_of(module: str) -> set[str]:
    """The installed distributions that provide a top-level module."""
    return {norm(d) for d in importlib.metadata.packages_distributions().get(module, [])}


def src_files() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py"))


def test_core_install_has_no_web_stack():
    assert {"babel", "click", "numpy", "rich"} == CORE
    assert not CORE & WEB_STACK


def test_web_extra_has_the_server_stack():
    assert EXTRAS["web"] >= WEB_STACK
    assert not EXTRAS["web"] & (EXTRAS["ray"] | EXTRAS["openspiel"] | {"playwright"})


def test_research_and_storage_stay_extras():
    assert {"numpy", "gymnasium", "pettingzoo"} <= EXTRAS["rl"]
    assert "open-spiel" in EXTRAS["openspiel"] and EXTRAS["rl"] <= EXTRAS["openspiel"]
    assert "ray" in EXTRAS["ray"]
    assert "psycopg" in EXTRAS["postgres"] and EXTRAS["web"] <= EXTRAS["postgres"]


def test_dev_holds_every_extra():
    for extra, packages in EXTRAS.items():
        assert packages <= EXTRAS["dev"], f"dev lacks {sorted(packages - EXTRAS['dev'])} ({extra})"


@pytest.mark.parametrize("path", src_files(), ids=lambda p: p.relative_to(SRC).as_posix())
def test_every_import_is_declared_where_it_is_needed(path):
    """An import run when the module is imported needs its group's packages (core's included);
    one deferred to a function (or a type check) needs only to be declared somewhere."""
    eager, lazy = third_party_imports(path)
    group = group_of(path)
    allowed = CORE | (EXTRAS[group] if group != "core" else set())
    declared = CORE.union(*EXTRAS.values())
    for module, where in [*((m, allowed) for m in eager), *((m, declared) for m in lazy)]:
        dists = distributions_of(module)
        assert dists, f"{module} is imported but no installed distribution provides it"
        assert dists & where, f"{module} ({', '.join(sorted(dists))}) is not declared for {group}"


def test_the_import_scan_sees_the_server_stack():
    """The scan above is not vacuous: it finds the web stack in server/ and classifies it."""
    found = set()
    for path in src_files():
        if group_of(path) == "web":
            eager, lazy = third_party_imports(path)
            found |= eager | lazy
    assert {"fastapi", "sqlalchemy", "pydantic", "starlette", "uvicorn"} <= found
    assert "web" in {group_of(p) for p in src_files()}


# Runs in a fresh interpreter: every package of the extras is refused, as on a core install.
BLOCKER = """
import importlib.abc, sys
# What the interpreter imported before Tablier's code ran (setuptools' distutils hook
# comes in through a .pth file at start-up) is not Tablier's doing.
BLOCKED = set({blocked!r}) - {{m.partition(".")[0] for m in sys.modules}}
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Refuse())
"""


def modules_of(dists: set[str]) -> set[str]:
    """The top-level modules the installed distributions ``dists`` provide."""
    return {
        m
        for m, provided in importlib.metadata.packages_distributions().items()
        if {norm(d) for d in provided} & dists
    }


def extras_modules(allowed: set[str] = frozenset()) -> list[str]:
    """Top-level modules of every package the extras bring, but the core's and ``allowed``'s."""
    extra_dists = set().union(*EXTRAS.values()) - CORE
    modules = modules_of(extra_dists) | {"pyspiel", "torch", "fastapi", "pydantic"}
    return sorted(modules - modules_of(CORE | allowed))


def run_core(
    code: str, *args: str, stdin: str = "", allowed: set[str] = frozenset()
) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter that refuses the extras' packages (but ``allowed``)."""
    script = BLOCKER.format(blocked=extras_modules(allowed)) + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_the_blocker_refuses_the_web_stack():
    result = run_core("import fastapi")
    assert result.returncode == 1 and "No module named 'fastapi'" in result.stderr


def test_core_works_without_the_extras():
    result = run_core("""
        import json, sys
        import tablier, tablier.games
        from tablier.ai import make_player
        from tablier.core.perft import perft
        from tablier.core.record import Record
        out = {}
        for name in tablier.games.names():
            game = tablier.games.get(name)
            state = game.initial_state()
            player = make_player("easy:seconds=none,iterations=30", game, seed=1)
            moves = []
            for _ in range(4):
                moves.append(player.choose(state))
                state = state.apply(moves[-1])
            text = state.to_text()
            assert tablier.games.parse_position(text) == state
            record = Record.from_moves(game, moves)
            assert Record.from_text(record.to_text()).final_state() == state
            assert Record.from_json(record.to_json()).final_state() == state
            out[name] = [text, perft(state, 1)]
        blocked = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
        print(json.dumps({"games": out, "imported": blocked}))
    """)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["imported"] == []
    assert set(report["games"]) >= {"volo", "xobo", "voldetour"}
    for text, moves in report["games"].values():
        assert moves > 0 and " " in text


CLI = """
    import sys
    from tablier.cli.main import main
    sys.argv = ["tablier", *sys.argv[1:]]
    main()
"""


def test_cli_games_and_play_without_the_extras():
    games = run_core(CLI, "games")
    assert games.returncode == 0, games.stderr
    assert "volo" in games.stdout and "voldetour" in games.stdout
    play = run_core(CLI, "play", "volo", "--board", "mini", stdin="e5\nposition\nquit\n")
    assert play.returncode == 0, play.stderr
    assert "volo:board=mini,edition=current,setup=nests,supply=50 4/1o3b1/8/9/10/b6o" in (
        play.stdout
    )
    # The master level plays with the shipped network: numpy, never PyTorch (refused here).
    master = run_core(
        CLI,
        "play",
        "xobo",
        "--ai",
        "master:seconds=0.2",
        "--side",
        "second",
        stdin="position\nquit\n",
    )
    assert master.returncode == 0, master.stderr
    assert "xobo:" in master.stdout and "Traceback" not in master.stderr
    perft = run_core(CLI, "perft", "xobo", "2")
    assert perft.returncode == 0 and perft.stdout.strip() == "6480"


def test_serve_without_the_web_extra_names_it():
    result = run_core(CLI, "serve", "--port", "0")
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "pip install 'tablier[web]'" in lines[0]
    assert "Traceback" not in result.stderr + result.stdout


def test_the_import_scan_tells_eager_from_deferred(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text(
        textwrap.dedent("""
        from typing import TYPE_CHECKING
        import numpy as np
        from rich.console import Console
        from . import sibling
        if TYPE_CHECKING:
            import fastapi
        try:
            import ray
        except ImportError:
            ray = None
        def later():
            import sqlalchemy
            from pydantic import BaseModel
    """)
    )
    eager, lazy = third_party_imports(path)
    assert eager == {"numpy", "rich", "ray"}
    assert lazy == {"fastapi", "sqlalchemy", "pydantic"}


def test_the_server_needs_only_the_web_extra():
    """`make run` installs .[web] only: every server module imports without Ray, OpenSpiel,
    PyTorch, PettingZoo, Gymnasium, psycopg or the test tools."""
    result = run_core(
        """
        import importlib, pkgutil, sys
        import tablier.server
        for info in pkgutil.walk_packages(tablier.server.__path__, "tablier.server."):
            if not info.name.endswith("migrations.env"):  # runs only inside alembic
                importlib.import_module(info.name)
        from tablier.server.app import create_app
        print(sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED))
        """,
        allowed=EXTRAS["web"],
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    blocked = extras_modules(EXTRAS["web"])
    assert {"torch", "ray", "pyspiel", "playwright"} <= set(blocked)
    assert "fastapi" not in blocked
