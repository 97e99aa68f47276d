"""Errors the server answers with: a stable ``code``, an HTTP status and a message.

:class:`ApiError` is raised by the routes and the service; :func:`install` registers the
application's exception handlers, the single place where anything raised becomes an answer:

- under ``/api/`` (and for anything that is no page) a JSON body
  ``{"error": {"code", "message", ...}}``;
- for the pages (``/``, ``/g/<id>``, ``/static/…``, unknown paths) an HTML page
  (:mod:`.pages`) in the request's language (:func:`.i18n.language_of`);
- ``405`` answers carry an ``Allow`` header listing every method the path takes;
- a request body that is not readable JSON (a syntax error, nesting too deep, an integer
  over 4,300 digits) is ``422 invalid_request``, as is any body or query that fails
  validation;
- a :class:`~tablier.core.errors.TablierError` that a route did not translate is ``422
  bad_input``; anything else is ``500 internal_error``, logged without request data;
- an engine's message (an :class:`ApiError` made from a ``TablierError``: ``bad_move``,
  ``illegal_move``, ``bad_record``, ``bad_option``…) is written in the request's language,
  its template translated through the catalogs and its values filled in.

The codes are listed in ``docs/web.md``.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from ..core.errors import TablierError
from .i18n import language_of, translations
from .pages import error_page

__all__ = [
    "STATUS_CODES",
    "ApiError",
    "describe",
    "dump_json",
    "install",
    "is_api_path",
    "json_response",
]

log = logging.getLogger("tablier.server")

#: The code of a bare HTTP status (raised by the framework rather than by Tablier).
STATUS_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    422: "invalid_request",
}


#: The longest engine's message answered (characters).
_LONGEST = 500


class ApiError(Exception):
    """An error reported to the client as ``{"error": {"code", "message", ...}}``.

    ``extra`` adds fields to the error object (``ply`` for a bad record); ``headers`` are
    added to the HTTP answer (``Retry-After`` of a 429).  WebSocket clients get the same
    code and message in an ``error`` message.  ``message`` may be an engine's
    error: ``self.message`` is then its English text, :meth:`text` its text in a language.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str | TablierError,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(str(message))
        self.status = status
        self.headers = headers
        self.code = code
        self.error = message if isinstance(message, TablierError) else None
        # an engine's message echoes the input (quoted, cut): kept short all the same
        self.message = str(message)[:_LONGEST] if self.error is not None else str(message)
        self.extra = extra

    def text(self, lang: str) -> str:
        """The message in ``lang``: an engine's error translated, its values filled in."""
        if self.error is None:
            return self.message
        return self.error.translate(translations(lang).gettext)[:_LONGEST]

    def body(self, lang: str | None = None) -> dict[str, Any]:
        """The JSON body of the error response (its message in ``lang``, else English)."""
        message = self.message if lang is None else self.text(lang)
        return {"error": {"code": self.code, "message": message, **self.extra}}


def describe(exc: ValidationError | RequestValidationError) -> str:
    """A short account of what failed validation (at most five fields, no input values).

    >>> from pydantic import BaseModel
    >>> class M(BaseModel):
    ...     ply: int
    >>> try:
    ...     M.model_validate({"ply": "x"})
    ... except ValidationError as exc:
    ...     print(describe(exc))
    ply: Input should be a valid integer, unable to parse string as an integer
    """
    problems = []
    for err in exc.errors()[:5]:
        parts = [str(p)[:40] for p in err.get("loc", ()) if p != "body"]
        where = ".".join(parts)
        message = str(err.get("msg", "invalid"))[:200]
        problems.append(f"{where}: {message}" if where else message)
    return "; ".join(problems) or "invalid request"


def is_api_path(path: str) -> bool:
    """Whether errors on ``path`` are answered in JSON (the API) rather than as a page."""
    return path == "/api" or path.startswith(("/api/", "/ws/"))


def dump_json(content: Any) -> bytes:
    """Compact UTF-8 JSON, serialised once with the standard library."""
    return json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode()


def json_response(
    content: Any, status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """A JSON response serialised once (no re-encoding pass through FastAPI's encoder)."""
    return Response(
        dump_json(content), status_code=status, media_type="application/json", headers=headers
    )


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _allowed(request: Request) -> list[str]:
    """Every method that some route takes at the request's path."""
    allowed = []
    for method in _METHODS:
        scope = {**request.scope, "method": method, "type": "http"}
        if any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes):
            allowed.append(method)
    return allowed


def _answer(
    request: Request,
    status: int,
    code: str,
    message: str | TablierError,
    headers: dict[str, str] | None = None,
    page: str | None = None,
    **extra: Any,
) -> Response:
    if is_api_path(request.url.path) or page is None:
        body = ApiError(status, code, message, **extra).body(language_of(request))
        return json_response(body, status, headers)
    return Response(
        error_page(status, page, language_of(request), **extra),
        status,
        headers={**(headers or {}), "content-language": language_of(request)},
        media_type="text/html",
    )


def install(app: FastAPI) -> None:
    """Register the exception handlers (see the module docstring)."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        page = {404: "not_found"}.get(exc.status, "error")
        message = exc.error if exc.error is not None else exc.message
        return _answer(request, exc.status, exc.code, message, exc.headers, page=page, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        return _answer(request, 422, "invalid_request", describe(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        status = exc.status_code
        headers = dict(exc.headers or {})
        if status == 400:  # FastAPI's answer to a body that json.loads refused
            return _answer(
                request,
                422,
                "invalid_request",
                "the body is not readable JSON (too deeply nested, or a number too long)",
            )
        if status == 405:
            headers["Allow"] = ", ".join(_allowed(request)) or headers.get("Allow", "")
            return _answer(
                request,
                405,
                "method_not_allowed",
                f"{request.method} is not allowed here (allowed: {headers['Allow']})",
                headers,
                page="method_not_allowed",
            )
        code = STATUS_CODES.get(status, f"http_{status}")
        message = "not found" if status == 404 else str(exc.detail or "error")[:200]
        page = "not_found" if status == 404 else "error"
        return _answer(request, status, code, message, headers, page=page)

    @app.exception_handler(TablierError)
    async def _tablier(request: Request, exc: TablierError) -> Response:
        return _answer(request, 422, "bad_input", exc if str(exc) else type(exc).__name__)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> Response:
        log.error("internal error: %s", type(exc).__name__, exc_info=exc)
        return _answer(request, 500, "internal_error", "internal server error", page="error")
