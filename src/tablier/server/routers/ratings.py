"""``/api/leaderboard/<game>``: the best ratings of a game and variant (:mod:`..ratings`).

``GET /api/leaderboard/<game>?variant=KEY&limit=N&provisional=false`` answers the pool
(``spec``: the game with the variant's options; the game's default options without
``variant``; or ``spec=`` for any option set), its ``changed`` options (to name a pool that
is no variant), the game's ``variants`` (to switch pools) and ``players``: ``[{rank, user,
username, kind, rating, rd, games, provisional, updated}]``, highest rating first, at most
``limit`` (1–100, default 50).  Provisional ratings (deviation over 110) are left out unless
``provisional=true``, as on lichess.
"""

from __future__ import annotations

from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Query

from ... import games as registry
from ...core.errors import TablierError
from ...core.game import Game
from ..deps import Service
from ..errors import ApiError
from ..models import error_responses
from ..ratings import LEADERBOARD_MAX, PROVISIONAL_RD, count_rated, leaderboard

__all__ = ["pool_of", "router"]

router = APIRouter(prefix="/api", tags=["ratings"])


def pool_of(game: str, variant: str | None = None, spec: str | None = None) -> Game[Any, Any]:
    """The game whose spec is the pool of ``game`` with ``variant`` or ``spec``;
    ``404 not_found`` for an unknown game, ``422 bad_option`` for an unknown variant or a
    spec the game refuses.

    >>> built = pool_of("volo", "mini")
    >>> built.spec.startswith("volo:board=mini,"), built.variant().key
    (True, 'mini')
    """
    try:
        cls = registry.game_class(game)
    except TablierError:
        raise ApiError(404, "not_found", f"there is no game {game[:40]!r}") from None
    variants = {v.key: v.options for v in cls.VARIANTS}
    try:
        if spec is not None:
            built = registry.from_spec(spec.strip())
            if built.name != cls.name:
                raise ApiError(422, "bad_option", f"{spec[:60]!r} is not a spec of {game}")
        elif variant is not None:
            if variant not in variants:
                known = ", ".join(variants)
                raise ApiError(
                    422, "bad_option", f"no variant {variant[:40]!r} of {game} (variants: {known})"
                )
            built = registry.get(cls.name, **variants[variant])
        else:
            built = registry.get(cls.name)
    except TablierError as exc:
        raise ApiError(422, "bad_option", exc) from None
    return built


@router.get("/leaderboard/{game}", responses=error_responses(404, 422))
async def get_leaderboard(
    game: str,
    service: Service,
    variant: Annotated[str | None, Query(max_length=40, description="a variant's key")] = None,
    spec: Annotated[str | None, Query(max_length=400, description="a game spec")] = None,
    limit: Annotated[int, Query(ge=1, le=LEADERBOARD_MAX)] = 50,
    provisional: Annotated[bool, Query(description="include provisional ratings")] = False,
) -> dict:
    """The best ratings of a game's pool (see the module docstring)."""
    built = pool_of(game[:40], variant, spec)
    pool, found = built.spec, built.variant()
    engine = service.storage.engine
    rows = await to_thread.run_sync(
        lambda: leaderboard(engine, pool, limit, provisional=provisional)
    )
    total = await to_thread.run_sync(count_rated, engine, pool)
    return {
        "game": built.name,
        "title": built.title,
        "variant": "" if found is None else found.key,
        "pool": pool,
        # the options changed from the defaults, to name a pool that is no variant in words
        "changed": built.changed_options(),
        "variants": [v.key for v in built.VARIANTS],
        "provisional_rd": PROVISIONAL_RD,
        "rated_players": total,
        "players": [{"rank": i + 1, **row.to_json()} for i, row in enumerate(rows)],
    }
