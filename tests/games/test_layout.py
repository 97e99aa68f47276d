"""Every game package has the same modules with the same roles (docs/api.md, "Adding a game")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tablier
import tablier.games

SRC = Path(tablier.__file__).parent
PACKAGES = sorted(p.parent.name for p in (SRC / "games").glob("*/game.py"))
MODULES = ("rules", "notation", "render", "view", "ai", "actions", "game")


def _imports(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (functions included), made absolute."""
    package = ".".join(path.relative_to(SRC.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(x for x in (base, node.module or "") if x)
            found.add(module)
            found |= {f"{module}.{a.name}" for a in node.names}
    return found


def test_the_built_in_games_are_these_packages() -> None:
    assert PACKAGES == ["voldetour", "volo", "xobo"]


@pytest.mark.parametrize("package", PACKAGES)
def test_same_modules_and_rules_at_the_bottom(package: str) -> None:
    folder = SRC / "games" / package
    missing = [m for m in MODULES if not (folder / f"{m}.py").is_file()]
    assert not missing, f"games/{package} lacks {missing}"
    upper = ("notation", "render", "view", "ai", "actions")
    below = {f"tablier.games.{package}.{m}" for m in upper}
    assert not _imports(folder / "rules.py") & below, "rules.py imports a layer above it"


@pytest.mark.parametrize("package", PACKAGES)
def test_hooks_are_declared_on_the_game_class(package: str) -> None:
    cls = tablier.games.game_class(package)
    assert cls.knowledge().__name__ == f"tablier.games.{package}.ai"
    assert cls.actions().__name__ == f"tablier.games.{package}.actions"


def test_nothing_outside_a_game_package_imports_it() -> None:
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        inside = path.relative_to(SRC).parts
        own = inside[1] if inside[0] == "games" and len(inside) > 2 else None
        for module in _imports(path):
            parts = module.split(".")
            game = parts[2] if parts[:2] == ["tablier", "games"] and len(parts) > 2 else None
            if game in PACKAGES and game != own:
                offenders.append(f"{path.relative_to(SRC)} imports {module}")
    assert not offenders, offenders
