"""``/api/analysis``, ``/api/review``, ``/api/games/<id>/review`` and ``…/hint``: the
analysis board's searches, the computer review of a game, hints against the computer.

What the searches do and their bounds: :mod:`..analysis`.  Every search runs in the AI
worker pool and answers as one streamed response (NDJSON lines: progress, then the result,
or an error line with its code), so any process serves it whole; closing the response stops
the search.  Errors found before the stream starts are ordinary 4xx JSON answers: a client
(address) has at most ``settings.ai_queue_limit`` analyses and reviews queued or running
(``429 analysis_busy`` with ``Retry-After``); a line is at most
``settings.max_record_plies`` decisions (``413 too_many_moves``); the spec and the moves are
checked (``422 bad_spec``, ``422 illegal_move`` with its ``ply``) in a worker thread before
any search starts.  The codes are listed in ``docs/web.md``.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import TablierError
from .. import analysis
from ..ai import current_client
from ..deps import Game, GameId, Seated, Service, get_settings
from ..errors import ApiError, json_response
from ..models import error_responses
from ..service import GameService

__all__ = ["router"]

router = APIRouter(tags=["analysis"])

_JSON: dict[str, Any] = {"content": {"application/json": {}}}
NDJSON = "application/x-ndjson"
_STREAM: dict[str, Any] = {
    "description": "NDJSON lines: progress, then the result or an error",
    "content": {NDJSON: {}},
}
_TASKS = "tablier.server.analysis"
#: Seconds a client told ``analysis_busy`` is asked to wait.
BUSY_RETRY = 2


class AnalysisBody(BaseModel):
    """A position to analyse: the game's spec and the decisions from its start."""

    model_config = ConfigDict(extra="forbid")

    spec: Annotated[str, Field(min_length=1, max_length=200)]
    moves: Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=100_000)] = []
    seconds: Annotated[float, Field(gt=0, le=analysis.ANALYSIS_SECONDS_MAX)] = (
        analysis.ANALYSIS_SECONDS
    )


class LineBody(BaseModel):
    """A line to show on the analysis board: the game's spec and the decisions."""

    model_config = ConfigDict(extra="forbid")

    spec: Annotated[str, Field(min_length=1, max_length=200)]
    moves: Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=100_000)] = []


def _jobs(request: Request) -> analysis.AnalysisJobs:
    state = request.app.state
    jobs = getattr(state, "analysis_jobs", None)
    if jobs is None:
        jobs = state.analysis_jobs = analysis.AnalysisJobs()
    return jobs


def _stream(body: AsyncIterator[bytes]) -> StreamingResponse:
    """A stream of NDJSON lines, sent as they come (no proxy buffering)."""
    return StreamingResponse(
        body,
        media_type=NDJSON,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _line(spec: str, moves: list[str], limit: int) -> list[Any]:
    """The states of a line, or the 4xx of a bad one (run in a worker thread)."""
    if len(moves) > limit:
        raise ApiError(413, "too_many_moves", f"at most {limit} decisions are analysed")
    from ... import games

    try:
        game = games.from_spec(spec)
    except (TablierError, KeyError, ValueError) as exc:
        raise ApiError(422, "bad_spec", f"no such game or option: {exc}") from None
    states = [game.initial_state()]
    for ply, text in enumerate(moves):
        state = states[-1]
        if state.outcome is not None:
            raise ApiError(422, "illegal_move", "the game is over before this move", ply=ply)
        try:
            states.append(state.apply(game.parse_move(state, text)))
        except TablierError as exc:
            raise ApiError(422, "illegal_move", exc, ply=ply) from None
    return states


def _room(request: Request, service: GameService) -> tuple[analysis.AnalysisJobs, str | None]:
    """The jobs, and the client, after checking it may start one more search."""
    if service.ai is None:
        raise ApiError(503, "ai_unavailable", "the computer player is off on this server")
    jobs = _jobs(request)
    client = current_client.get()
    limit = get_settings(request).ai_queue_limit
    if (client is not None and jobs.busy(client) >= limit) or jobs.full():
        raise ApiError(
            429,
            "analysis_busy",
            f"at most {limit} analyses at once: wait for one to end, or stop it",
            headers={"Retry-After": str(BUSY_RETRY)},
            retry_after=BUSY_RETRY,
        )
    return jobs, client


@router.post(
    "/api/analysis/line",
    responses={200: _JSON, **error_responses(413, 422)},
    response_class=Response,
)
async def analysis_line(body: LineBody, request: Request) -> Response:
    """The views of a line for the analysis board: per position its view, per move its
    view, and the legal decisions of the last position (no search)."""
    limit = get_settings(request).max_record_plies

    def work() -> dict[str, Any]:
        states = _line(body.spec, body.moves, limit)
        game = states[0].game
        last = states[-1]
        parsed = [game.parse_move(s, m) for s, m in zip(states, body.moves, strict=False)]
        return {
            "game": game.name,
            "spec": game.spec,
            "title": game.title,
            "variant": (v.key if (v := game.variant()) else None),
            "changed": game.changed_options(),
            "moves": [game.move_text(s, m) for s, m in zip(states, parsed, strict=False)],
            "views": [game.state_view(s) for s in states],
            "move_views": [game.move_view(s, m) for s, m in zip(states, parsed, strict=False)],
            "legal": (
                []
                if last.outcome is not None
                else [game.move_view(last, m) for m in last.legal_moves()]
            ),
        }

    return json_response(await to_thread.run_sync(work))


@router.post(
    "/api/analysis",
    responses={200: _STREAM, **error_responses(413, 422, 429, 503)},
    response_class=StreamingResponse,
)
async def start_analysis(
    body: AnalysisBody, request: Request, service: Service
) -> StreamingResponse:
    """Analyse the position after ``moves`` for at most ``seconds``: one streamed answer,
    NDJSON progress lines then the result (closing it stops the search)."""
    jobs, client = _room(request, service)
    limit = get_settings(request).max_record_plies
    states = await to_thread.run_sync(_line, body.spec, body.moves, limit)
    spec = states[0].game.spec
    if states[-1].outcome is not None:
        return _stream(analysis.once(analysis.answer("analysis", analysis._over(states[-1]))))
    payload = {
        "spec": spec,
        "moves": body.moves,
        "seconds": body.seconds,
        "simulations": analysis.ANALYSIS_SIMULATIONS_MAX,
        "seed": secrets.randbits(30),
    }
    pool = service.ai
    assert pool is not None

    async def work(report: analysis.Report) -> Any:
        return await pool.run("analysis", f"{_TASKS}:analyse_task", payload, report, client=client)

    return _stream(jobs.follow(jobs.start("analysis", client, work)))


async def _review(
    request: Request, service: GameService, spec: str, moves: list[str]
) -> StreamingResponse:
    jobs = _jobs(request)
    key = analysis.review_key(spec, moves)
    cached = jobs.cached_review(key)
    if cached is not None:
        return _stream(analysis.once(analysis.answer("review", cached)))
    running = jobs.running_review(key)
    if running is not None:  # the same review under way in this process: follow it
        return _stream(jobs.follow(running))
    jobs, client = _room(request, service)
    payload = {"spec": spec, "moves": moves, "seed": secrets.randbits(30)}
    pool = service.ai
    assert pool is not None

    async def work(report: analysis.Report) -> Any:
        # in parts of REVIEW_CHUNK decisions: the fair queue serves other jobs between them
        total = max(1, len(moves))
        parts = []
        simulations = 0
        for first in range(0, max(1, len(moves)), analysis.REVIEW_CHUNK):
            last = min(len(moves), first + analysis.REVIEW_CHUNK)

            def part_report(
                fraction: float,
                n: int,
                best: str | None,
                first: int = first,
                last: int = last,
                base: int = simulations,
            ) -> None:
                report((first + fraction * (last - first)) / total, base + n, best)

            part = {**payload, "first": first, "last": last}
            parts.append(
                await pool.run("review", f"{_TASKS}:review_task", part, part_report, client=client)
            )
            simulations += parts[-1]["simulations"]
        return analysis.merge_reviews(parts)

    return _stream(jobs.follow(jobs.start("review", client, work, cache=key)))


@router.post(
    "/api/review",
    responses={200: _STREAM, **error_responses(413, 422, 429, 503)},
    response_class=StreamingResponse,
)
async def review_line(body: LineBody, request: Request, service: Service) -> StreamingResponse:
    """The computer review of a game given by its spec and moves (a record): one streamed
    answer, NDJSON progress lines then the review."""
    limit = get_settings(request).max_record_plies
    states = await to_thread.run_sync(_line, body.spec, body.moves, limit)
    return await _review(request, service, states[0].game.spec, list(body.moves))


@router.post(
    "/api/games/{game_id}/review",
    responses={200: _STREAM, **error_responses(404, 409, 413, 429, 503)},
    response_class=StreamingResponse,
)
async def review_game(live: Game, request: Request, service: Service) -> StreamingResponse:
    """The computer review of a finished game, streamed as ``/api/review``'s
    (``409 game_not_over`` before)."""
    if live.status == "active":
        raise ApiError(409, "game_not_over", "the computer review is for finished games")
    limit = get_settings(request).max_record_plies
    moves = list(live.notations)
    if len(moves) > limit:
        raise ApiError(413, "too_many_moves", f"at most {limit} decisions are analysed")
    return await _review(request, service, live.game.spec, moves)


def _prepare_hint(live: Any, seat: int | None) -> Any:
    from ..live import Prepared
    from ..storage import Change

    if live.ai_seat is None:
        raise ApiError(403, "hints_not_allowed", "hints are for games against the computer")
    if seat not in (0, 1) or live.ai_seat == seat:
        raise ApiError(403, "not_your_seat", "this link does not hold a seat in this game")
    if live.rated:
        raise ApiError(403, "hints_not_allowed", "there are no hints in rated games")
    if live.status != "active":
        raise ApiError(410, "game_over", "the game is over")
    if live.state.to_move != seat:
        raise ApiError(409, "not_your_turn", "a hint is for your own decision")
    hints = list(live.hints)
    hints[seat] += 1
    return Prepared(Change(values={"hints": hints}), "hint", seat=seat)


@router.post(
    "/api/games/{game_id}/hint",
    responses={200: _JSON, **error_responses(401, 403, 404, 409, 410, 429, 503)},
    response_class=Response,
)
async def hint(game_id: GameId, actor: Seated, request: Request, service: Service) -> Response:
    """A hint for the caller's decision, in a game against the computer (not rated): the
    move the search prefers; counted in ``hints`` (the snapshot, the record's ``Hints``)."""
    live = actor.live
    _prepare_hint(live, actor.seat)  # refused before any search or count
    _, client = _room(request, service)
    position = live.state.to_text()
    live, _ = await service._change(live, lambda g: _prepare_hint(g, actor.seat))
    service.broadcast_snapshot(live)
    pool = service.ai
    assert pool is not None
    payload = {"position": position, "seed": secrets.randbits(30)}
    try:
        answer = await pool.run("hint", f"{_TASKS}:hint_task", payload, client=client)
    except RuntimeError as exc:  # its worker was lost, or the pool is shutting down
        raise ApiError(503, "ai_unavailable", f"the hint's search failed: {exc}") from None
    best = answer["moves"][0] if answer["moves"] else None
    return json_response(
        {
            "ply": live.ply,
            "move": best["move"] if best else None,
            "win": best["win"] if best else None,
            "line": answer["line"],
            "hints": list(live.hints),
        }
    )
