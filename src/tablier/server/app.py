"""The FastAPI application: REST, WebSocket, static client, errors, limits.

:func:`create_app` builds the application from :class:`~.settings.Settings`; its lifespan
opens the database (running the Alembic migrations), starts the AI worker processes and
resumes the AI's turns of unfinished games.  :func:`serve` runs it with uvicorn (``tablier
serve``).  The API is described in ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import re
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from anyio import to_thread
from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import games as registry
from ..ai.players import LEVELS
from ..core.errors import RecordError, TablierError
from ..core.record import Record
from .ai import AIPool, ClientAddress
from .errors import ApiError
from .migrate import upgrade
from .service import Connection, GameService, dumps
from .settings import Settings
from .storage import Storage, make_engine

__all__ = ["create_app", "serve"]

log = logging.getLogger("tablier.server")

_GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data: blob:; connect-src 'self' ws: wss:; object-src 'none'; "
        b"base-uri 'none'; frame-ancestors 'none'",
    ),
]


# -- request bodies ------------------------------------------------------------------

OptionValue = StrictBool | StrictInt | StrictFloat | Annotated[str, Field(max_length=100)] | None


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateGame(_Body):
    """``POST /api/games``."""

    game: Annotated[str, Field(min_length=1, max_length=40)]
    options: Annotated[
        dict[Annotated[str, Field(max_length=40)], OptionValue], Field(max_length=20)
    ] = {}
    mode: Literal["online", "ai", "local"] = "online"
    seat: Literal[0, 1] = 0
    ai_level: Annotated[str, Field(max_length=20)] | None = None
    names: Annotated[list[Annotated[str, Field(max_length=100)]], Field(max_length=2)] = []


class MoveBody(_Body):
    """``POST /api/games/<id>/moves``."""

    ply: Annotated[int, Field(ge=0, le=1_000_000)]
    move: Annotated[str, Field(min_length=1, max_length=200)]


class OfferBody(_Body):
    """``POST /api/games/<id>/offers``."""

    kind: Literal["draw", "undo"]
    action: Literal["offer", "accept", "decline"]


class RecordBody(_Body):
    """``POST /api/records/parse``."""

    text: Annotated[str, Field(min_length=1, max_length=60_000)]


# -- middleware -----------------------------------------------------------------------


class _Limits:
    """Pure ASGI middleware: the body size limit (413) and the security headers."""

    def __init__(self, app: Any, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", ()):
            if key == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    length = self.max_body + 1
                if length > self.max_body:
                    await _too_large(send, self.max_body)
                    return
        # Read the whole body first (it is small): too large is answered before the app runs.
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                chunks = []
                break
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_body:
                await _too_large(send, self.max_body)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        pending = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> dict:
            if pending:
                return pending.pop()
            return await receive()

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, replay, send_with_headers)


async def _too_large(send: Any, limit: int) -> None:
    body = json.dumps(
        ApiError(413, "body_too_large", f"the request body exceeds {limit} bytes").body()
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class _RedactQuery(logging.Filter):
    """Drop query strings from uvicorn's access log: no secret can travel in one anyway."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            path = args[2].split("?", 1)[0].split("#", 1)[0]
            record.args = (*args[:2], path, *args[3:])
        return True


def install_log_filter() -> None:
    """Install the query-string filter on uvicorn's access logger (once)."""
    logger = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, _RedactQuery) for f in logger.filters):
        logger.addFilter(_RedactQuery())


# -- helpers ----------------------------------------------------------------------------


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "bad_authorization", "use 'Authorization: Bearer <token>'")
    return token.strip()


def _check_id(game_id: str) -> str:
    if not _GAME_ID.match(game_id):
        raise ApiError(404, "not_found", "there is no such game")
    return game_id


def _need_token(request: Request) -> str:
    token = _bearer(request)
    if token is None:
        raise ApiError(401, "token_required", "this needs the seat's token (Authorization header)")
    return token


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def catalog() -> dict[str, Any]:
    """Every game with its options, and the AI levels."""
    out = []
    for name in registry.names():
        try:
            cls = registry.game_class(name)
            players = list(cls().player_names)
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
            }
        )
    return {"games": out, "levels": list(LEVELS)}


def warm_up() -> None:
    """Load every game and build its first views once, so that the first players do not wait
    for imports and tables (start-up takes that time instead)."""
    for name in registry.names():
        try:
            game = registry.get(name)
            state = game.initial_state()
            for _ in range(3):
                game.state_view(state)
                moves = state.legal_moves()
                if not moves:
                    break
                for move in moves:
                    game.move_view(state, move)
                move = moves[len(moves) // 2]
                game.parse_move(state, game.move_text(state, move))
                state = state.apply(move)
        except Exception:  # a broken game must not stop the server
            log.exception("warming up %s failed", name)


def parse_record(text: str) -> dict[str, Any]:
    """Read a record (text or JSON) for review: moves, views per ply, move views."""
    try:
        if text.lstrip("\ufeff \t\r\n").startswith("{"):
            record = Record.from_json(text)
        else:
            record = Record.from_text(text)
        states, moves = record.replay_moves()
    except RecordError as exc:
        raise ApiError(422, "bad_record", str(exc), ply=exc.ply) from None
    except TablierError as exc:
        raise ApiError(422, "bad_record", str(exc), ply=None) from None
    game = record.game
    headers = {"Game": game.name, **record.tags, "Result": record.result}
    if record.reason is not None:
        headers["Reason"] = record.reason
    return {
        "game": game.name,
        "spec": game.spec,
        "title": game.title,
        "headers": headers,
        "moves": [d.move for d in record.moves],
        "comments": [d.comment for d in record.moves],
        "result": record.result,
        "reason": record.reason,
        "views": [game.state_view(s) for s in states],
        "move_views": [game.move_view(s, m) for s, m in zip(states, moves, strict=False)],
    }


# -- the application ---------------------------------------------------------------------


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the web application (see the module docstring)."""
    settings = settings or Settings()
    install_log_filter()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url)
        if settings.migrate:
            await to_thread.run_sync(upgrade, engine)
        storage = Storage(engine)
        pool = (
            AIPool(settings.ai_workers, settings.ai_progress_interval)
            if settings.ai_workers > 0
            else None
        )
        service = GameService(settings, storage, pool)
        app.state.service = service
        await to_thread.run_sync(warm_up)
        gc.collect()
        gc.freeze()  # what start-up built lives on: keep it out of the collector's way
        resumed = await service.resume_ai()
        if resumed:
            log.info("resumed the AI in %d game(s)", resumed)
        try:
            yield
        finally:
            await service.close()
            if pool is not None:
                await to_thread.run_sync(pool.shutdown)
            storage.dispose()

    app = FastAPI(
        title="Tablier",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.settings = settings

    def service_of(request: Request | WebSocket) -> GameService:
        return request.app.state.service

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors()[:5]:
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            problems.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
        error = ApiError(422, "invalid_request", "; ".join(problems) or "invalid request")
        return JSONResponse(error.body(), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}
        code = codes.get(exc.status_code, f"http_{exc.status_code}")
        message = exc.detail if isinstance(exc.detail, str) else "error"
        if exc.status_code == 404:
            message = "not found"
        return JSONResponse(
            ApiError(exc.status_code, code, message).body(), status_code=exc.status_code
        )

    @app.exception_handler(Exception)
    async def _crash(_request: Request, exc: Exception) -> JSONResponse:
        log.error("internal error: %s", type(exc).__name__, exc_info=exc)
        error = ApiError(500, "internal_error", "internal server error")
        return JSONResponse(error.body(), status_code=500)

    # -- REST ------------------------------------------------------------------------

    @app.get("/api/health")
    async def health() -> dict:
        """Liveness."""
        return {"ok": True}

    @app.get("/api/catalog")
    async def get_catalog() -> dict:
        """Games, their options and the AI levels."""
        return catalog()

    @app.post("/api/games", status_code=201)
    async def create_game(body: CreateGame, request: Request) -> Response:
        """Create a game; answer its tokens, links and snapshot."""
        service = service_of(request)
        live, tokens = await service.create(
            body.game, dict(body.options), body.mode, body.seat, body.ai_level, body.names
        )
        base = (settings.public_url or str(request.base_url)).rstrip("/")
        links = {k: f"{base}/g/{live.id}#seat={t}" for k, t in tokens.items()}
        links["spectator"] = f"{base}/g/{live.id}"
        you = {"online": body.seat, "ai": body.seat, "local": 2}[body.mode]
        return _json(
            {"id": live.id, "tokens": tokens, "links": links, "game": service.snapshot(live, you)},
            201,
        )

    @app.get("/api/games")
    async def list_games(
        request: Request,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> dict:
        """Recent games, most recently changed first."""
        from .live import summary_of_row

        rows = await to_thread.run_sync(service_of(request).storage.list_games, limit, offset)
        return {"games": [summary_of_row(r) for r in rows]}

    async def _seat(request: Request, game_id: str, required: bool):
        service = service_of(request)
        live = await service.get(_check_id(game_id))
        token = _need_token(request) if required else _bearer(request)
        seat = live.seat_for(token) if token is not None else None
        if token is not None and seat is None:
            raise ApiError(403, "not_your_seat", "this token holds no seat in this game")
        return service, live, seat

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str, request: Request) -> Response:
        """The game's snapshot (``you`` from the optional Bearer token)."""
        service, live, seat = await _seat(request, game_id, False)
        return _json(service.snapshot(live, seat))

    @app.get("/api/games/{game_id}/history")
    async def history(game_id: str, request: Request) -> Response:
        """Every position's view and every move's view."""
        service = service_of(request)
        live = await service.get(_check_id(game_id))

        def build() -> dict:
            game, moves = live.game, list(live.moves)
            states = live.all_states()[: len(moves) + 1]
            return {
                "views": [game.state_view(st) for st in states],
                "moves": [game.move_view(st, m) for st, m in zip(states, moves, strict=False)],
            }

        return _json(await to_thread.run_sync(build))

    @app.get("/api/games/{game_id}/legal")
    async def legal(game_id: str, request: Request) -> Response:
        """The legal decisions now, as move views (serialised once per ply).

        Computed on the event loop: it takes a millisecond or two, and CPU-bound work in a
        worker thread would only make the loop wait for the GIL in 5 ms slices.
        """
        service = service_of(request)
        live = await service.get(_check_id(game_id))
        return Response(live.legal_json(), media_type="application/json")

    @app.post("/api/games/{game_id}/moves")
    async def play(game_id: str, body: MoveBody, request: Request) -> Response:
        """Play a move (Bearer token of the seat to move)."""
        service, live, seat = await _seat(request, game_id, True)
        live = await service.move(live.id, seat, body.ply, body.move)
        return _json(service.snapshot(live, seat))

    @app.post("/api/games/{game_id}/resign")
    async def resign(game_id: str, request: Request) -> Response:
        """Resign."""
        service, live, seat = await _seat(request, game_id, True)
        live = await service.resign(live.id, seat)
        return _json(service.snapshot(live, seat))

    @app.post("/api/games/{game_id}/offers")
    async def offers(game_id: str, body: OfferBody, request: Request) -> Response:
        """Offer, accept or decline a draw or an undo."""
        service, live, seat = await _seat(request, game_id, True)
        live = await service.offer(live.id, seat, body.kind, body.action)
        return _json(service.snapshot(live, seat))

    @app.post("/api/games/{game_id}/takeback")
    async def takeback(game_id: str, request: Request) -> Response:
        """Take back the last turn (against the AI: with its reply)."""
        service, live, seat = await _seat(request, game_id, True)
        live = await service.takeback(live.id, seat)
        return _json(service.snapshot(live, seat))

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, request: Request) -> dict:
        """The rematch with colours swapped, and a token for the caller's new seat."""
        service, live, seat = await _seat(request, game_id, True)
        new_id, tokens = await service.rematch(live.id, seat)
        base = (settings.public_url or str(request.base_url)).rstrip("/")
        links = {k: f"{base}/g/{new_id}#seat={t}" for k, t in tokens.items()}
        return {"id": new_id, "tokens": tokens, "links": links}

    @app.get("/api/games/{game_id}/record")
    async def record(
        game_id: str,
        request: Request,
        format: Annotated[Literal["text", "json"], Query()] = "text",
    ) -> Response:
        """The game record, as text or JSON (``tablier.core.record``)."""
        service = service_of(request)
        live = await service.get(_check_id(game_id))
        rec = await to_thread.run_sync(live.record)
        filename = f"tablier-{live.game.name}-{live.id}.{'json' if format == 'json' else 'txt'}"
        headers = {"content-disposition": f'attachment; filename="{filename}"'}
        if format == "json":
            return Response(rec.to_json(), media_type="application/json", headers=headers)
        return PlainTextResponse(rec.to_text(), headers=headers)

    @app.post("/api/records/parse")
    async def records_parse(body: RecordBody) -> Response:
        """Read an imported record for review."""
        return _json(await to_thread.run_sync(parse_record, body.text))

    # -- WebSocket ---------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(ws: WebSocket, game_id: str) -> None:
        """Live moves, presence and the AI's progress (see docs/web.md)."""
        service = service_of(ws)
        await ws.accept()
        try:
            live = await service.get(_check_id(game_id))
        except ApiError as exc:
            await ws.send_text(
                dumps({"type": "error", "code": exc.code, "message": exc.message, "ref": None})
            )
            await ws.close(code=4404)
            return
        try:
            first = await asyncio.wait_for(ws.receive_text(), settings.hello_timeout)
            hello = _message(first)
        except (TimeoutError, WebSocketDisconnect, ApiError, KeyError):
            with contextlib.suppress(Exception):
                await ws.send_text(
                    dumps(
                        {
                            "type": "error",
                            "code": "hello_required",
                            "message": "send hello first",
                            "ref": None,
                        }
                    )
                )
                await ws.close(code=1008)
            return
        if hello.get("type") != "hello":
            await ws.send_text(
                dumps(
                    {
                        "type": "error",
                        "code": "hello_required",
                        "message": "the first message must be hello",
                        "ref": None,
                    }
                )
            )
            await ws.close(code=1008)
            return
        conn = Connection(ws)
        token = hello.get("token")
        if token is not None:
            conn.seat = live.seat_for(token) if isinstance(token, str) else None
            if conn.seat is None:
                conn.send(
                    dumps(
                        {
                            "type": "error",
                            "code": "not_your_seat",
                            "message": "this token holds no seat: watching only",
                            "ref": None,
                        }
                    )
                )
        pump = asyncio.create_task(conn.pump())
        service.join(live, conn)
        try:
            while True:
                receive = asyncio.ensure_future(ws.receive_text())
                done, _ = await asyncio.wait({receive, pump}, return_when=asyncio.FIRST_COMPLETED)
                if pump in done:
                    receive.cancel()
                    break
                text = receive.result()
                await _handle(service, live.id, conn, text)
        except WebSocketDisconnect:
            pass
        except Exception as exc:  # pragma: no cover - a broken connection
            log.debug("websocket closed: %s", type(exc).__name__)
        finally:
            pump.cancel()
            service.leave(await _current(service, live), conn)

    async def _current(service: GameService, live: Any) -> Any:
        return service._cache.get(live.id) or live

    async def _handle(service: GameService, game_id: str, conn: Connection, text: str) -> None:
        ref = None
        try:
            message = _message(text)
            ref = message.get("ref")
            if not isinstance(ref, str | int | float | type(None)) or (
                isinstance(ref, str) and len(ref) > 100
            ):
                ref = None
            kind = message.get("type")
            if kind == "ping":
                conn.send(dumps({"type": "pong"}))
            elif kind == "hello":
                live = await service.get(game_id)
                conn.send(dumps({"type": "snapshot", "game": service.snapshot(live, conn.seat)}))
            elif kind == "move":
                ply, move = message.get("ply"), message.get("move")
                if (
                    isinstance(ply, bool)
                    or not isinstance(ply, int)
                    or not isinstance(move, str)
                    or not move
                    or len(move) > 200
                ):
                    raise ApiError(
                        422,
                        "invalid_request",
                        "a move message needs an integer ply and a move text",
                    )
                await service.move(game_id, conn.seat, ply, move, ref, conn)
            else:
                raise ApiError(422, "bad_message", f"unknown message type {kind!r}")
        except ApiError as exc:
            conn.send(
                dumps(
                    {
                        "type": "error",
                        "code": exc.code,
                        "message": exc.message,
                        "ref": ref,
                        **exc.extra,
                    }
                )
            )

    # -- static client ------------------------------------------------------------------

    web = settings.web_dir

    async def index() -> Response:
        page = web / "index.html"
        if not page.is_file():
            return PlainTextResponse("the web client is not installed", status_code=404)
        return FileResponse(page, media_type="text/html", headers={"cache-control": "no-cache"})

    app.add_api_route("/", index, methods=["GET"], include_in_schema=False)
    app.add_api_route("/review", index, methods=["GET"], include_in_schema=False)
    app.add_api_route("/g/{game_id}", index, methods=["GET"], include_in_schema=False)
    if web.is_dir():
        app.mount("/static", StaticFiles(directory=web), name="static")

    app.add_middleware(_Limits, max_body=settings.max_body)
    app.add_middleware(ClientAddress)  # whose AI searches a request starts (ai.py)
    return app


def _json(content: Any, status: int = 200) -> Response:
    """A JSON response serialised once with the standard library (no re-encoding pass)."""
    body = json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode()
    return Response(body, status_code=status, media_type="application/json")


def _message(text: str) -> dict:
    if len(text) > 65536:
        raise ApiError(413, "message_too_large", "the message exceeds 64 KiB")
    try:
        message = json.loads(text)
    except (ValueError, TypeError):
        raise ApiError(422, "bad_message", "the message is not JSON") from None
    if not isinstance(message, dict):
        raise ApiError(422, "bad_message", "the message must be a JSON object")
    return message


def serve(
    settings: Settings,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    access_log: bool = True,
) -> None:
    """Run the server with uvicorn until interrupted (``tablier serve``)."""
    import uvicorn

    install_log_filter()
    app = create_app(settings)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=65536,
        ws_per_message_deflate=False,
        access_log=access_log,
        log_level="info",
        proxy_headers=True,
        server_header=False,
    )
