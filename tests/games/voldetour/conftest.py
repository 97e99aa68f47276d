"""Voldetour's property and reference tests run on both engines: compiled and pure."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tablier.core.native import using
from tablier.games.voldetour import rules


@pytest.fixture(params=["compiled", "pure"], scope="module")
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run a module's tests with the compiled core on, then with the pure engine.

    The compiled run is skipped when the core is not built, unless
    ``TABLIER_REQUIRE_NATIVE=1`` asks for it (then it fails).
    """
    if request.param == "compiled" and rules._native is None:
        if os.environ.get("TABLIER_REQUIRE_NATIVE", "").strip() == "1":
            pytest.fail("Voldetour's compiled core is not built (TABLIER_REQUIRE_NATIVE=1)")
        pytest.skip("Voldetour's compiled core is not built")
    with using(request.param == "compiled"):
        yield request.param
