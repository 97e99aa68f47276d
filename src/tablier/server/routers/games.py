"""``/api``: the catalog and the games (create, list, read, play, offers, records).

Every route reaches the games through the injected :class:`~.service.GameService` and the
request's seat through :mod:`..deps`; the errors each route may answer are declared in its
``responses`` (and listed in ``docs/web.md``).
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

from anyio import to_thread
from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import PlainTextResponse

from ... import games as registry
from ...ai.players import LEVELS
from ..accounts import OptionalUser, check_csrf
from ..deps import Game, GameAt, Seated, Service, ViewerAt, get_settings
from ..errors import dump_json, json_response
from ..models import CreateGame, MoveBody, OfferBody, error_responses
from ..ratelimit import enforce, rate_limit
from ..settings import HISTORY_PAGE_MAX

__all__ = ["catalog", "router"]

log = logging.getLogger("tablier.server")

router = APIRouter(prefix="/api", tags=["games"])

_ON_GAME = error_responses(401, 403, 404)
_ACTION = error_responses(401, 403, 404, 409, 410)
_JSON: dict[str, Any] = {"content": {"application/json": {}}}


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def catalog() -> dict[str, Any]:
    """Every game with its options, variants, difficulty and the view of its initial
    position (what the lobby's card draws), and the AI levels."""
    out = []
    for name in registry.names():
        try:
            cls = registry.game_class(name)
            game = cls()
            players = list(game.player_names)
            view = game.state_view(game.initial_state())
        except Exception:  # a broken game package must not hide the others
            log.exception("game %s cannot be loaded", name)
            continue
        out.append(
            {
                "name": name,
                "title": cls.title,
                "players": players,
                "options": [
                    {
                        "name": o.name,
                        "default": _jsonable(o.default),
                        "doc": o.doc,
                        "choices": None if o.choices is None else [_jsonable(c) for c in o.choices],
                    }
                    for o in cls.OPTIONS
                ],
                "variants": [
                    {"key": v.key, "options": {k: _jsonable(x) for k, x in v.options.items()}}
                    for v in cls.VARIANTS
                ],
                "difficulty": cls.difficulty,
                "teaching": cls.teaching() is not None,
                "view": view,
            }
        )
    return {"games": out, "levels": list(LEVELS)}


def _links(request: Request, game_id: str, tokens: dict[str, str]) -> dict[str, str]:
    """The seat links of ``tokens`` and the spectator's link."""
    base = (get_settings(request).public_url or str(request.base_url)).rstrip("/")
    links = {k: f"{base}/g/{game_id}#seat={t}" for k, t in tokens.items()}
    links["spectator"] = f"{base}/g/{game_id}"
    return links


@router.get("/health", responses=error_responses())
async def health() -> dict:
    """Liveness."""
    return {"ok": True}


@router.get("/catalog", responses=error_responses())
async def get_catalog() -> dict:
    """Games, their options and the AI levels."""
    return catalog()


@router.post(
    "/games",
    status_code=201,
    responses={201: _JSON, **error_responses(422, 429, 503)},
    response_class=Response,
    dependencies=[Depends(rate_limit("create_game"))],
)
async def create_game(
    body: CreateGame, request: Request, service: Service, user: OptionalUser
) -> Response:
    """Create a game; answer its tokens, links and snapshot (``429 rate_limited`` past the
    client's ``create_game`` limit, and for a game against the AI its ``ai_game`` one)."""
    if body.mode == "ai":
        enforce(request, "ai_game")
    users: list[tuple[str, str] | None] = [None, None]
    if user is not None:  # the creator's seat is the account's (a cookie: CSRF-checked)
        check_csrf(request)
        users[body.seat] = (user.id, user.username)
    live, tokens = await service.create(
        body.game,
        dict(body.options),
        body.mode,
        body.seat,
        body.ai_level,
        body.names,
        users,
        clock=None if body.clock is None else body.clock.model_dump(),
        chat_off=body.chat_off,
    )
    links = _links(request, live.id, tokens)
    you = {"online": body.seat, "ai": body.seat, "local": 2}[body.mode]
    return json_response(
        {"id": live.id, "tokens": tokens, "links": links, "game": service.snapshot(live, you)},
        201,
    )


@router.get("/games", responses=error_responses(422))
async def list_games(
    service: Service,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict:
    """Recent games, most recently changed first."""
    return {"games": await service.list_games(limit, offset)}


@router.get(
    "/games/{game_id}",
    responses={200: _JSON, **error_responses(401, 403, 404, 409, 422)},
    response_class=Response,
)
async def get_game(actor: ViewerAt, service: Service) -> Response:
    """The game's snapshot (``you`` from the optional Bearer token); with ``ply``, not older
    than that position."""
    return json_response(service.snapshot(actor.live, actor.seat))


@router.get(
    "/games/{game_id}/history",
    responses={200: _JSON, **error_responses(404, 409, 422)},
    response_class=Response,
)
async def history(
    live: GameAt,
    request: Request,
    start: Annotated[
        int,
        Query(alias="from", ge=0, le=10**9, description="the first position of the page (a ply)"),
    ] = 0,
    limit: Annotated[
        int | None,
        Query(
            ge=1,
            le=HISTORY_PAGE_MAX,
            description="most decisions in the page (default and cap: the server's page size)",
        ),
    ] = None,
) -> Response:
    """One page of the game's history: the views of positions ``from`` … ``from + limit``
    and of the decisions between them (built off the event loop).

    The answer also says ``total`` (the decisions played), the ``limit`` applied (at most
    the server's ``history_page``), and ``next`` / ``prev``, the ``from`` of the following
    and preceding pages (null at either end).  A ``from`` past the game's last position
    answers an empty page.
    """
    page = min(limit or HISTORY_PAGE_MAX, get_settings(request).history_page)
    # the moves are copied here, on the loop, so that a move played meanwhile cannot mix in
    game, initial, moves = live.game, live.state_at(0), list(live.moves)
    body = await to_thread.run_sync(history_page, game, initial, moves, start, page)
    return Response(body, media_type="application/json")


def history_page(game: Any, initial: Any, moves: list, start: int, limit: int) -> bytes:
    """The body of ``GET …/history?from=start&limit=limit`` for the game whose decisions
    are ``moves`` from ``initial`` (call it off the event loop).

    Positions ``start`` … ``end`` and decisions ``start`` … ``end - 1``, where ``end`` is
    ``start + limit`` or the last position: the cost is one replay up to ``start`` (cheap)
    and at most ``limit + 1`` state views and ``limit`` move views.
    """
    total = len(moves)
    views: list[dict] = []
    move_views: list[dict] = []
    end = min(start + limit, total)
    if start <= total:
        state = initial
        for move in moves[:start]:
            state = state.apply_unchecked(move)
        for ply in range(start, end + 1):
            views.append(game.state_view(state))
            if ply < end:
                move_views.append(game.move_view(state, moves[ply]))
                state = state.apply_unchecked(moves[ply])
    return dump_json(
        {
            "from": start,
            "limit": limit,
            "total": total,
            "views": views,
            "moves": move_views,
            "next": end if start <= total and end < total else None,
            "prev": max(0, start - limit) if 0 < start <= total else None,
        }
    )


@router.get(
    "/games/{game_id}/legal",
    responses={200: _JSON, **error_responses(404, 409, 422)},
    response_class=Response,
)
async def legal(live: GameAt) -> Response:
    """The legal decisions now, as move views (serialised once per ply); with ``ply``, of
    that position or a later one (``409 ply_ahead`` when the game has not reached it).

    Computed on the event loop: it takes a millisecond or two, and CPU-bound work in a
    worker thread would only make the loop wait for the GIL in 5 ms slices.
    """
    return Response(live.legal_json(), media_type="application/json")


@router.post(
    "/games/{game_id}/moves",
    responses={200: _JSON, **error_responses(401, 403, 404, 409, 410, 422, 429)},
    response_class=Response,
)
async def play(body: MoveBody, actor: Seated, service: Service) -> Response:
    """Play a move (Bearer token of the seat to move)."""
    live = await service.move(actor.live.id, actor.seat, body.ply, body.move)
    return json_response(service.snapshot(live, actor.seat))


@router.post("/games/{game_id}/resign", responses={200: _JSON, **_ACTION}, response_class=Response)
async def resign(actor: Seated, service: Service) -> Response:
    """Resign."""
    live = await service.resign(actor.live.id, actor.seat)
    return json_response(service.snapshot(live, actor.seat))


@router.post(
    "/games/{game_id}/offers",
    responses={200: _JSON, **error_responses(401, 403, 404, 409, 410, 422)},
    response_class=Response,
)
async def offers(body: OfferBody, actor: Seated, service: Service) -> Response:
    """Offer, accept or decline a draw or an undo."""
    live = await service.offer(actor.live.id, actor.seat, body.kind, body.action)
    return json_response(service.snapshot(live, actor.seat))


@router.post(
    "/games/{game_id}/takeback", responses={200: _JSON, **_ACTION}, response_class=Response
)
async def takeback(actor: Seated, service: Service) -> Response:
    """Take back the last turn (against the AI: with its reply)."""
    live = await service.takeback(actor.live.id, actor.seat)
    return json_response(service.snapshot(live, actor.seat))


@router.post(
    "/games/{game_id}/rematch",
    responses=error_responses(401, 403, 404, 409, 422, 429, 503),
    dependencies=[Depends(rate_limit("create_game"))],
)
async def rematch(actor: Seated, service: Service, request: Request) -> dict:
    """The rematch with colours swapped, and a token for the caller's new seat."""
    if actor.live.mode == "ai":
        enforce(request, "ai_game")
    new_id, tokens = await service.rematch(actor.live.id, actor.seat)
    links = _links(request, new_id, tokens)
    del links["spectator"]
    return {"id": new_id, "tokens": tokens, "links": links}


@router.get(
    "/games/{game_id}/record",
    responses={
        200: {"content": {"text/plain": {}, "application/json": {}}},
        **error_responses(404, 422),
    },
    response_class=Response,
)
async def record(
    live: Game,
    format: Annotated[Literal["text", "json"], Query()] = "text",
) -> Response:
    """The game record, as text or JSON (``tablier.core.record``), built off the loop."""

    def build() -> str:
        rec = live.record()
        return rec.to_json() if format == "json" else rec.to_text()

    text = await to_thread.run_sync(build)
    filename = f"tablier-{live.game.name}-{live.id}.{'json' if format == 'json' else 'txt'}"
    headers = {"content-disposition": f'attachment; filename="{filename}"'}
    if format == "json":
        return Response(text, media_type="application/json", headers=headers)
    return PlainTextResponse(text, headers=headers)
