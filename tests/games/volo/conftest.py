"""Volo's tests run on both engines: the compiled core and the pure-Python reference."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tablier.core.native import using
from tablier.games.volo import rules


def require_native() -> bool:
    """True when ``TABLIER_REQUIRE_NATIVE=1``: a missing compiled core fails instead of skipping."""
    return os.environ.get("TABLIER_REQUIRE_NATIVE", "").strip() == "1"


def need_native() -> None:
    """Skip (or fail, under ``TABLIER_REQUIRE_NATIVE=1``) when the compiled core is not in use."""
    if rules._native is None:
        if require_native():
            pytest.fail("Volo's compiled core is not in use (TABLIER_REQUIRE_NATIVE=1)")
        pytest.skip("Volo's compiled core is not in use (not built, or TABLIER_PURE=1)")


@pytest.fixture(params=["compiled", "pure"], scope="module")
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run a module's tests with the compiled core on, then with the pure engine."""
    if request.param == "compiled":
        need_native()
    with using(request.param == "compiled"):
        yield request.param
