"""``/api/challenges``: post, list, read, accept, cancel and decline challenges; and
``POST /api/turns``, the state of many games at once (the lobby's "your turn" list).

What a challenge is, how acceptance happens exactly once and how the poster learns of it:
:mod:`..challenges`.  A request that the session cookie authenticates (an account posting,
accepting, cancelling or declining) passes the CSRF check; one that only a Bearer owner
token authenticates (a guest cancelling) needs none.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from starlette.requests import HTTPConnection

from .. import challenges
from ..accounts import OptionalUser, check_csrf
from ..deps import Service, bearer, get_settings
from ..errors import ApiError, json_response
from ..live import iso
from ..models import AcceptBody, ChallengeBody, TurnsBody, error_responses
from ..ratelimit import rate_limit
from ..tables import BOTH

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["challenges"])

_JSON: dict[str, Any] = {"content": {"application/json": {}}}
ChallengeId = Annotated[
    str, Path(description="the challenge's id (letters, digits, '-' and '_', at most 32)")
]


def _csrf(conn: HTTPConnection, user: Any) -> None:
    """The CSRF check, for a request that acts as the logged-in user."""
    if user is not None:
        check_csrf(conn)


@router.post(
    "/challenges",
    status_code=201,
    responses={201: _JSON, **error_responses(403, 404, 422, 429)},
    response_class=Response,
    dependencies=[Depends(rate_limit("challenge"))],
)
async def post_challenge(
    body: ChallengeBody, request: Request, user: OptionalUser, service: Service
) -> Response:
    """Post a challenge; answer it and its owner token (which becomes the poster's seat
    token once it is accepted)."""
    _csrf(request, user)
    shown, token = await challenges.post(
        service,
        game=body.game,
        options=dict(body.options),
        clock=None if body.clock is None else body.clock.model_dump(),
        rated=body.rated,
        colour=body.colour,
        target=body.target,
        name=body.name,
        user=user,
    )
    return json_response({"challenge": shown, "owner_token": token}, 201)


@router.get("/challenges", responses=error_responses(422))
async def list_challenges(
    user: OptionalUser,
    service: Service,
    limit: Annotated[int, Query(ge=1, le=challenges.LIST_MAX)] = 50,
) -> dict:
    """Open challenges: those open to anyone, and those to and from the logged-in player."""
    return {"challenges": await challenges.listing(service, user, limit)}


@router.get("/challenges/{challenge_id}", responses={200: _JSON, **error_responses(401, 404)})
async def get_challenge(
    challenge_id: ChallengeId, request: Request, user: OptionalUser, service: Service
) -> dict:
    """One challenge (a direct one: for its poster, with the owner token or the account,
    and its target only)."""
    return await challenges.read(service, challenge_id, user, bearer(request))


@router.post(
    "/challenges/{challenge_id}/accept",
    responses={200: _JSON, **error_responses(401, 403, 404, 409, 410, 422, 429)},
    response_class=Response,
)
async def accept_challenge(
    challenge_id: ChallengeId,
    request: Request,
    user: OptionalUser,
    service: Service,
    body: AcceptBody | None = None,
) -> Response:
    """Accept a challenge: the new game's id, the acceptor's token and link, its snapshot."""
    _csrf(request, user)
    live, tokens, seat = await challenges.accept(
        service, challenge_id, user, bearer(request), "" if body is None else body.name
    )
    base = (get_settings(request).public_url or str(request.base_url)).rstrip("/")
    links = {k: f"{base}/g/{live.id}#seat={t}" for k, t in tokens.items()}
    links["spectator"] = f"{base}/g/{live.id}"
    return json_response(
        {
            "id": live.id,
            "seat": seat,
            "tokens": tokens,
            "links": links,
            "game": service.snapshot(live, seat),
        }
    )


@router.post(
    "/challenges/{challenge_id}/cancel",
    responses={200: _JSON, **error_responses(401, 403, 404, 409, 410)},
)
async def cancel_challenge(
    challenge_id: ChallengeId, request: Request, user: OptionalUser, service: Service
) -> dict:
    """Cancel one's own challenge (Bearer owner token, or the poster's account)."""
    token = bearer(request)
    if token is None:
        _csrf(request, user)
    return await challenges.cancel(service, challenge_id, user, token)


@router.post(
    "/challenges/{challenge_id}/decline",
    responses={200: _JSON, **error_responses(403, 404, 409, 410)},
)
async def decline_challenge(
    challenge_id: ChallengeId, request: Request, user: OptionalUser, service: Service
) -> dict:
    """Decline a direct challenge addressed to the logged-in player."""
    _csrf(request, user)
    return await challenges.decline(service, challenge_id, user)


@router.post("/turns", responses=error_responses(422))
async def games_status(body: TurnsBody, service: Service) -> dict:
    """Where each game of a list stands, and whether it is the token's seat to decide (the
    lobby lists the games where it is the player's turn first).  An unknown game is
    answered ``"status": "missing"``; a token that holds no seat, ``"you": null``."""
    out: list[dict[str, Any]] = []
    for item in body.games:
        try:
            live = await service.get(item.id) if len(item.id) <= 32 else None
        except ApiError:
            live = None
        if live is None:
            out.append({"id": item.id, "status": "missing"})
            continue
        seat = live.seat_for(item.token) if item.token else None
        to_move = live.state.to_move if live.status == "active" else None
        mine = seat is not None and to_move is not None and seat in (to_move, BOTH)
        out.append(
            {
                "id": live.id,
                "status": live.status,
                "ply": live.ply,
                "to_move": to_move,
                "you": live.you(seat),
                "your_turn": bool(mine and to_move != live.ai_seat),
                "updated": iso(live.updated),
            }
        )
    return {"games": out}
