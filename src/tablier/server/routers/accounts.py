"""``/api/account``, ``/api/players`` and the seat routes of accounts and guests.

- ``GET /api/account``: who is logged in, and the CSRF token (its cookie set when missing);
- ``POST /api/account/signup`` · ``/login`` · ``/logout``: the login session's cookie;
- ``POST /api/account/claim``: link the seats whose tokens the browser holds to the account;
- ``POST /api/games/<id>/seat``: a fresh token for the account's seat (another device);
- ``POST /api/games/<id>/join``: a seat's holder gives its name (a guest) or links it to
  the logged-in account;
- ``GET /api/players/<username>``: a player's profile: games, results, ratings.

Every route that the session cookie authenticates and that changes something checks the
CSRF token (:func:`~..accounts.csrf_protect`); see ``docs/web.md``, "Accounts".
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Depends, Query, Request, Response
from sqlalchemy import Table, and_, case, func, or_, select

from ... import games as registry
from ...core.errors import TablierError
from ..accounts import (
    SESSION_COOKIE,
    CurrentUser,
    OptionalUser,
    UserRef,
    check_csrf,
    check_password,
    check_username,
    clear_session_cookie,
    create_session,
    create_user,
    csrf_protect,
    csrf_token,
    delete_session,
    find_user,
    hash_password,
    needs_rehash,
    prepare_seat_user,
    set_csrf_cookie,
    set_password_hash,
    set_session_cookie,
    verify_password,
)
from ..deps import Seated, Service, check_game_id, get_settings
from ..errors import ApiError, json_response
from ..live import LiveGame, Prepared, hash_token, iso, summary_of_row
from ..models import ClaimBody, Credentials, JoinBody, error_responses
from ..players import clean_name
from ..ratelimit import enforce, rate_limit
from ..service import GameService, new_token
from ..storage import Change
from ..tables import BOTH, GameRow, RatingRow

__all__ = ["MAX_SEAT_TOKENS", "PROVISIONAL_RD", "router"]

log = logging.getLogger("tablier.server")

router = APIRouter(prefix="/api", tags=["accounts"])

_games: Table = GameRow.__table__  # type: ignore[assignment]
_ratings: Table = RatingRow.__table__  # type: ignore[assignment]
_JSON: dict[str, Any] = {"content": {"application/json": {}}}

#: The most tokens a seat may have (each device asks for one): the table stays bounded.
MAX_SEAT_TOKENS = 16

#: A rating whose deviation is over this is shown as provisional ("?"), as on lichess.
PROVISIONAL_RD = 110.0


def _no_store(response: Response) -> Response:
    response.headers["cache-control"] = "no-store"
    return response


@router.get("/account", responses={200: _JSON, **error_responses()}, response_class=Response)
async def account(request: Request, user: OptionalUser) -> Response:
    """Who is logged in (``user``: null for a guest) and the CSRF token to echo in the
    ``X-CSRF-Token`` header (its cookie ``tablier_csrf`` is set when missing)."""
    token, fresh = csrf_token(request)
    response = json_response({"user": user.json() if user else None, "csrf": token})
    if fresh:
        set_csrf_cookie(response, request, token)
    return _no_store(response)


async def _log_in(request: Request, service: Service, user: UserRef, status: int) -> Response:
    days = get_settings(request).session_days
    token = await service.write(create_session, service.storage.engine, user.id, days)
    response = json_response({"user": user.json()}, status)
    set_session_cookie(response, request, token)
    return _no_store(response)


@router.post(
    "/account/signup",
    status_code=201,
    responses={201: _JSON, **error_responses(403, 409, 422, 429)},
    response_class=Response,
    dependencies=[Depends(csrf_protect), Depends(rate_limit("signup"))],
)
async def signup(body: Credentials, request: Request, service: Service) -> Response:
    """Create an account and log it in (username 3–20 of ``A-Z a-z 0-9 _ -``, unique in
    any case; password 8–256 characters)."""
    username = check_username(body.username)
    password = check_password(body.password)
    digest = await to_thread.run_sync(hash_password, password)
    user = await service.write(create_user, service.storage.engine, username, digest)
    return await _log_in(request, service, user, 201)


@router.post(
    "/account/login",
    responses={200: _JSON, **error_responses(401, 403, 422, 429)},
    response_class=Response,
    dependencies=[Depends(csrf_protect), Depends(rate_limit("login"))],
)
async def login(body: Credentials, request: Request, service: Service) -> Response:
    """Log in (``401 bad_credentials`` for a wrong username or password, alike).

    Attempts are limited per client (the ``login`` dependency) and per username, so that
    guesses spread over many addresses do not get more tries at one account.
    """
    enforce(request, "login", key="username:" + body.username.lower()[:40])
    engine = service.storage.engine
    found = None
    if len(body.password) <= 256 and len(body.username) <= 20:
        found = await to_thread.run_sync(find_user, engine, body.username)
    stored = found[1] if found is not None and found[0].kind == "account" else None
    ok = await to_thread.run_sync(verify_password, stored, body.password[:256])
    if found is None or stored is None or not ok:
        raise ApiError(401, "bad_credentials", "wrong username or password")
    user = found[0]
    if needs_rehash(stored):
        digest = await to_thread.run_sync(hash_password, body.password)
        await service.write(set_password_hash, engine, user.id, digest)
    return await _log_in(request, service, user, 200)


@router.post(
    "/account/logout",
    responses={200: _JSON, **error_responses(403)},
    response_class=Response,
    dependencies=[Depends(csrf_protect)],
)
async def logout(request: Request, service: Service) -> Response:
    """Log out: the session is deleted on the server and its cookie in the browser."""
    token = request.cookies.get(SESSION_COOKIE)
    if token and len(token) <= 128:
        await service.write(delete_session, service.storage.engine, token)
    response = json_response({"user": None})
    clear_session_cookie(response, request)
    return _no_store(response)


async def _name_seat(
    service: GameService, game_id: str, seat: int, user: UserRef | None, name: str
) -> LiveGame:
    """Link or name ``seat`` of the game (through the optimistic version check)."""
    live = await service.get(game_id)
    if prepare_seat_user(live, seat, user, name) is None:
        return live

    def prepare(game: LiveGame) -> Prepared:
        prep = prepare_seat_user(game, seat, user, name)
        # made meanwhile by another request: the names rewritten as they are
        return prep or Prepared(Change(values={"names": list(game.names)}), "players")

    live, _ = await service._change(live, prepare)
    service.broadcast_snapshot(live)
    return live


@router.post(
    "/account/claim",
    responses={200: _JSON, **error_responses(401, 403, 422)},
    response_class=Response,
    dependencies=[Depends(csrf_protect)],
)
async def claim(body: ClaimBody, user: CurrentUser, service: Service) -> Response:
    """Link to the account every seat whose token the browser holds (a guest's games):
    ``{"claimed": [{"game", "seat"}], "refused": [{"game", "code"}]}``."""
    claimed: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    for item in body.seats:
        try:
            live = await service.get(check_game_id(item.game))
            seat = live.seat_for(item.token)
            if seat is None:
                raise ApiError(403, "not_your_seat", "this token holds no seat")
            if seat == BOTH or live.mode == "local":
                raise ApiError(409, "not_allowed", "a same-screen game has no seat to claim")
            await _name_seat(service, live.id, seat, user, "")
            claimed.append({"game": live.id, "seat": seat})
        except ApiError as exc:
            refused.append({"game": item.game, "code": exc.code})
    return json_response({"claimed": claimed, "refused": refused})


def _links(request: Request, game_id: str, key: str, token: str) -> str:
    base = (get_settings(request).public_url or str(request.base_url)).rstrip("/")
    return f"{base}/g/{game_id}#seat={token}"


@router.post(
    "/games/{game_id}/seat",
    responses={200: _JSON, **error_responses(401, 403, 404, 409)},
    response_class=Response,
    dependencies=[Depends(csrf_protect)],
)
async def mint_seat(
    game_id: str, request: Request, user: CurrentUser, service: Service
) -> Response:
    """A fresh token for the seat of the game that the logged-in account holds (to play
    from another device): ``{"seat", "token", "link"}``; ``403 not_your_game`` otherwise,
    ``409 too_many_tokens`` past :data:`MAX_SEAT_TOKENS` tokens for the seat."""
    live = await service.get(check_game_id(game_id))
    seats = [i for i in (0, 1) if live.users[i] == user.id and i != live.ai_seat]
    if not seats:
        raise ApiError(403, "not_your_game", "your account holds no seat in this game")
    seat = seats[0]
    if sum(1 for s, _ in live.tokens if s == seat) >= MAX_SEAT_TOKENS:
        raise ApiError(
            409, "too_many_tokens", f"this seat has {MAX_SEAT_TOKENS} tokens already: use one"
        )
    token = new_token()
    digest = hash_token(token)
    await service.add_token(live, seat, digest)  # the other processes are told
    body = {"seat": seat, "token": token, "link": _links(request, live.id, str(seat), token)}
    return _no_store(json_response(body))


@router.post(
    "/games/{game_id}/join",
    responses={200: _JSON, **error_responses(401, 403, 404, 409, 422)},
    response_class=Response,
)
async def join(
    body: JoinBody, actor: Seated, request: Request, service: Service, user: OptionalUser
) -> Response:
    """The seat's holder (Bearer token) names it: a guest gives the name they chose; a
    logged-in player links the seat to their account (the CSRF header is then needed)."""
    seat = actor.seat
    if seat is None or seat == BOTH or actor.live.mode == "local":
        raise ApiError(409, "not_allowed", "a same-screen game has no seat to join")
    if user is not None:
        check_csrf(request)
    live = await _name_seat(service, actor.live.id, seat, user, clean_name(body.name))
    return json_response(service.snapshot(live, seat))


# -- profiles -----------------------------------------------------------------------------


def _seat_of(uid: str, seat: int) -> Any:
    return _games.c.users[seat].as_string() == uid


def _profile(engine: Any, uid: str, limit: int, offset: int) -> dict[str, Any]:
    """A player's games (most recently changed first), results and ratings."""
    mine = or_(_seat_of(uid, 0), _seat_of(uid, 1))
    winner = _games.c.result["winner"].as_integer()
    finished = _games.c.status == "finished"
    results = {"wins": 0, "losses": 0, "draws": 0, "playing": 0}
    with engine.connect() as conn:
        rows = conn.execute(
            select(_games)
            .where(mine)
            .order_by(_games.c.updated.desc(), _games.c.id)
            .limit(limit)
            .offset(offset)
        ).mappings()
        games = [dict(r) for r in rows]
        for seat in (0, 1):
            row = conn.execute(
                select(
                    func.count(),
                    func.sum(case((and_(finished, winner == seat), 1), else_=0)),
                    func.sum(case((and_(finished, winner == 1 - seat), 1), else_=0)),
                    func.sum(case((and_(finished, winner.is_(None)), 1), else_=0)),
                    func.sum(case((_games.c.status == "active", 1), else_=0)),
                ).where(_seat_of(uid, seat))
            ).one()
            results["total"] = results.get("total", 0) + int(row[0] or 0)
            results["wins"] += int(row[1] or 0)
            results["losses"] += int(row[2] or 0)
            results["draws"] += int(row[3] or 0)
            results["playing"] += int(row[4] or 0)
        ratings = conn.execute(
            select(_ratings).where(_ratings.c.user_id == uid).order_by(_ratings.c.pool).limit(200)
        ).mappings()
        rating_rows = [dict(r) for r in ratings]
    listed = []
    for row in games:
        entry = summary_of_row(row)
        users = list(row.get("users") or [None, None])
        seat = 0 if users[0] == uid else 1
        result = row["result"] or {}
        outcome = None
        if row["status"] == "finished":
            w = result.get("winner")
            outcome = "draw" if w is None else ("win" if w == seat else "loss")
        listed.append({**entry, "seat": seat, "outcome": outcome})
    return {
        "games": listed,
        "results": results,
        "ratings": [_rating(r) for r in rating_rows],
    }


def _rating(row: dict[str, Any]) -> dict[str, Any]:
    pool = row["pool"]
    variant = None
    try:
        game = registry.from_spec(pool)
        name, title = game.name, game.title
        # the variant whose options make this spec, so the page can name it in its language
        found = game.variant()
        variant = None if found is None else found.key
    except TablierError:
        name, title = pool.split(":", 1)[0], pool
    return {
        "pool": pool,
        "game": name,
        "variant": variant,
        "title": title,
        "rating": round(float(row["rating"]), 1),
        "rd": round(float(row["rd"]), 1),
        "games": int(row["games"]),
        "provisional": float(row["rd"]) > PROVISIONAL_RD,
    }


@router.get(
    "/players/{username}",
    responses={200: _JSON, **error_responses(404, 422)},
    response_class=Response,
)
async def player(
    username: str,
    service: Service,
    limit: Annotated[int, Query(ge=1, le=50)] = 20,
    offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
) -> Response:
    """A player's profile: ``{"user", "created", "games": [SUMMARY + "seat", "outcome"],
    "results": {"total", "wins", "losses", "draws", "playing"}, "ratings": [...],
    "limit", "offset", "next"}``."""
    engine = service.storage.engine
    found = None
    if 3 <= len(username) <= 40:
        found = await to_thread.run_sync(find_user, engine, username)
    if found is None:
        raise ApiError(404, "not_found", "there is no such player")
    user, _, created = found
    profile = await to_thread.run_sync(_profile, engine, user.id, limit, offset)
    total = profile["results"]["total"]
    body = {
        "user": user.json(),
        "created": iso(created),
        **profile,
        "limit": limit,
        "offset": offset,
        "next": offset + limit if offset + limit < total else None,
    }
    return json_response(body)
