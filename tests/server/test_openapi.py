"""The served OpenAPI description is true: a bounded schemathesis run against it.

Every operation of ``/api/openapi.json`` gets generated requests, valid and invalid
(derandomized: the same examples every run); each answer must be no server error, have a
status code and content type the description declares, and match its declared schema.
The application runs in-process (ASGI) on an SQLite file, without AI workers.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis import checks as sc  # noqa: E402

from tablier.server.app import create_app  # noqa: E402

from .conftest import make_settings  # noqa: E402


def _application():
    """The application under test, on an SQLite file of its own (removed at exit).

    The description is read from the application without starting it; its lifespan
    starts with the first request and lasts until the test process ends.
    """
    folder = tempfile.mkdtemp(prefix="tablier-openapi-")
    atexit.register(shutil.rmtree, folder, True)
    return create_app(make_settings(f"sqlite:///{folder}/api.db", ai_workers=0))


_app = _application()
schema = schemathesis.openapi.from_dict(_app.openapi())
schema.app = _app


@schemathesis.check
def no_server_error(ctx, response, case):
    """No 5xx, except the documented ``503 ai_unavailable`` (this server runs no AI)."""
    if response.status_code == 503:
        assert response.json()["error"]["code"] == "ai_unavailable"
    else:
        assert response.status_code < 500, response.text[:500]


CHECKS = [
    no_server_error,
    sc.status_code_conformance,
    sc.content_type_conformance,
    sc.response_schema_conformance,
    sc.negative_data_rejection,
    sc.unsupported_method,
    sc.allow_header_conformance,
]


@schema.parametrize()
@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_answers_as_described(case):
    case.call_and_validate(checks=CHECKS)
