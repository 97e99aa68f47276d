"""Errors the API answers with: a stable ``code``, an HTTP status and a message."""

from __future__ import annotations

from typing import Any

__all__ = ["ApiError"]


class ApiError(Exception):
    """An error reported to the client as ``{"error": {"code", "message", ...}}``.

    ``extra`` adds fields to the error object (``ply`` for a bad record).  WebSocket clients
    get the same code and message in an ``error`` message.
    """

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON body of the error response."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}
