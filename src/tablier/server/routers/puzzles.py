"""``GET /api/puzzles``: the puzzles shipped for a game (:mod:`tablier.ai.puzzles`).

``GET /api/puzzles?game=<spec>&limit=N&offset=K&depth=D`` answers
``[{"id", "position", "depth", "solution": [move texts…], "rating"}]``: the game's puzzles
in the data file's order (by depth, then rating), those of ``depth`` only when it is given,
``limit`` (1–100, default 20) of them from the ``offset``-th.  A game spec the registry
refuses is ``422 unknown_game`` or ``422 bad_option``; a query out of range is ``422
invalid_request``; a game without puzzles answers ``[]``.  The data file of a game is read
(and checked) once, in a worker thread.
"""

from __future__ import annotations

import functools
from typing import Annotated

from anyio import to_thread
from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict

from ... import games as registry
from ...ai import puzzles as lib
from ...core.errors import TablierError
from ..errors import ApiError
from ..models import error_responses

__all__ = ["PuzzleOut", "router"]

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])

#: The most puzzles one request answers.
MAX_LIMIT = 100


class PuzzleOut(BaseModel):
    """One puzzle: the side to move in ``position`` forces a win in ``depth`` decisions.

    ``solution`` is the winning line, the defender's most stubborn replies included;
    ``rating`` its difficulty (``docs/ai.md``, "Puzzles").
    """

    model_config = ConfigDict(extra="forbid")

    id: str
    position: str
    depth: int
    solution: list[str]
    rating: int


@functools.lru_cache(maxsize=16)
def _shipped(spec: str) -> tuple[PuzzleOut, ...]:
    game = registry.from_spec(spec)
    return tuple(
        PuzzleOut(
            id=p.id, position=p.position, depth=p.depth, solution=list(p.solution), rating=p.rating
        )
        for p in lib.load_shipped(game)
    )


@router.get("", response_model=list[PuzzleOut], responses=error_responses(422))
async def puzzles(
    game: Annotated[str, Query(max_length=200, description="a game spec, e.g. volo:board=mini")],
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 20,
    offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
    depth: Annotated[int | None, Query(ge=1, le=lib.MAX_DEPTH)] = None,
) -> list[PuzzleOut]:
    """Up to ``limit`` puzzles of ``game`` (of ``depth`` when given), from the ``offset``-th."""
    try:
        spec = registry.from_spec(game.strip()).spec
    except TablierError as exc:
        code = "unknown_game" if isinstance(exc, LookupError) else "bad_option"
        raise ApiError(422, code, exc) from None
    found = await to_thread.run_sync(_shipped, spec)
    if depth is not None:
        found = tuple(p for p in found if p.depth == depth)
    return list(found[offset : offset + limit])
