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

from typing import Annotated

from anyio import to_thread
from fastapi import APIRouter, Query

from ... import games as registry
from ...core.errors import TablierError
from ..deps import Service
from ..errors import ApiError
from ..models import error_responses
from ..ratings import LEADERBOARD_MAX, PROVISIONAL_RD, count_rated, leaderboard

__all__ = ["pool_of", "router"]

router = APIRouter(prefix="/api", tags=["ratings"])


def pool_of(game: str, variant: str | None = None, spec: str | None = None) -> tuple[str, str]:
    """The pool (a spec) of ``game`` with ``variant`` or ``spec``, and the variant's key
    (``""``: none matches); ``404 not_found`` for an unknown game, ``422 bad_option`` for
    an unknown variant or a spec the game refuses.

    >>> spec, key = pool_of("volo", "mini")
    >>> spec.startswith("volo:board=mini,"), key
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
    found = built.variant()
    return built.spec, "" if found is None else found.key


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
    pool, key = pool_of(game[:40], variant, spec)
    engine = service.storage.engine
    rows = await to_thread.run_sync(
        lambda: leaderboard(engine, pool, limit, provisional=provisional)
    )
    total = await to_thread.run_sync(count_rated, engine, pool)
    cls = registry.game_class(game[:40])
    return {
        "game": cls.name,
        "title": cls.title,
        "variant": key,
        "pool": pool,
        # the options changed from the defaults, to name a pool that is no variant in words
        "changed": registry.from_spec(pool).changed_options(),
        "variants": [v.key for v in cls.VARIANTS],
        "provisional_rd": PROVISIONAL_RD,
        "rated_players": total,
        "players": [{"rank": i + 1, **row.to_json()} for i, row in enumerate(rows)],
    }
