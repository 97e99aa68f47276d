"""The puzzles page: ``/puzzles/<game>``, its puzzle sets, and the check of the player's moves.

``GET /api/puzzles/sets?game=<name>`` lists the game's variants that have puzzles shipped:
``[{"variant", "spec", "count"}]``, in the order the game declares its variants
(:attr:`~tablier.core.game.Game.VARIANTS`; the game's defaults alone when it declares none).

``POST /api/puzzles/check`` replays a puzzle's position and the moves played so far (both
sides', the replies this route gave included) and judges the last one with the solver
(``docs/web.md``, "Puzzles"):

- a move of the attacker (the side to move in the puzzle) is right when it is the
  solution's move on the solution's line, or when the solver proves it still wins within
  the decisions left (another way to win is a win);
- after a right move, while the defender is to move, the defender's reply is played: the
  solution's next move on the solution's line, else the solver's most stubborn reply;
- a wrong move answers the position before it again, with ``ok`` false.

>>> from tablier.games import get
>>> from tablier.ai.puzzles import load_shipped
>>> puzzle = load_shipped(get("volo", board="mini"))[0]
>>> answer = check_moves(puzzle, list(puzzle.solution[:1]), lang="en")
>>> answer["ok"], answer["done"]
(True, True)

Nothing is stored on the server: the browser keeps the player's streak and rating.
"""

from __future__ import annotations

import functools
import logging
import time
from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Query, Request, Response
from pydantic import Field, StrictBool, StrictStr

from ... import games as registry
from ...ai import puzzles as lib
from ...ai.solver import SearchLimitReached, Solver
from ...core.errors import TablierError
from ...core.game import Game, State
from ..errors import ApiError, json_response
from ..i18n import LANGUAGES, N_, gettext, language_of
from ..models import _Strict, error_responses
from . import pages

__all__ = ["CheckBody", "check_moves", "puzzle_sets", "router"]

log = logging.getLogger("tablier.server")

router = APIRouter(tags=["puzzles"])

#: The solver's limits for one request (every move it judges off the solution's line and the
#: reply it finds, together): past them a move is not proved winning.
MAX_NODES = 200_000
MAX_SECONDS = 2.0

#: What the player reads after a move that cannot be played at all.
NOT_LEGAL = N_("This move is not possible here: look at the board again.")
#: What the player reads after a legal move that does not force the win in time.
NOT_WINNING = N_("That move does not win: try again.")
#: What the player reads when the puzzle is solved.
SOLVED = N_("Solved!")
#: What the player reads after a right move when the puzzle goes on.
GOOD = N_("Good move: keep going.")


class CheckBody(_Strict):
    """``POST /api/puzzles/check``: the moves played so far in a puzzle."""

    game: Annotated[StrictStr, Field(min_length=1, max_length=200)]
    id: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    moves: Annotated[
        list[Annotated[StrictStr, Field(min_length=1, max_length=200)]],
        Field(max_length=2 * lib.MAX_DEPTH, default_factory=list),
    ]
    solve: StrictBool = False


def _game(spec: str) -> Game[Any, Any]:
    try:
        return registry.from_spec(spec.strip())
    except TablierError as exc:
        code = "unknown_game" if isinstance(exc, LookupError) else "bad_option"
        raise ApiError(422, code, str(exc)) from None


@functools.lru_cache(maxsize=16)
def _puzzles(spec: str) -> dict[str, lib.Puzzle]:
    return {p.id: p for p in lib.load_shipped(registry.from_spec(spec))}


def puzzle_sets(cls: type[Game[Any, Any]]) -> list[dict[str, Any]]:
    """The variants of ``cls`` with puzzles: ``[{"variant", "spec", "count"}]``."""
    out = []
    seen = set()
    for variant in cls.VARIANTS or ():
        game = cls(**variant.options)
        if game.spec in seen:
            continue
        seen.add(game.spec)
        count = len(_puzzles(game.spec))
        if count:
            out.append({"variant": variant.key, "spec": game.spec, "count": count})
    if not cls.VARIANTS:
        game = cls()
        count = len(_puzzles(game.spec))
        if count:
            out.append({"variant": None, "spec": game.spec, "count": count})
    return out


def _solver() -> Solver:
    """A solver for one request: :data:`MAX_NODES` nodes and :data:`MAX_SECONDS` seconds in
    all, its table shared by every question of the request."""
    deadline = time.perf_counter() + MAX_SECONDS
    return Solver(max_nodes=MAX_NODES, stop=lambda: time.perf_counter() > deadline)


def _wins(solver: Solver, state: State[Any], attacker: int, depth: int) -> bool:
    """Whether ``attacker`` forces a win within ``depth`` decisions (no: past the limits)."""
    if state.outcome is not None:
        return state.outcome.winner == attacker
    if depth <= 0:
        return False
    return solver.forces_win(state, attacker, depth) is True


def _reply(solver: Solver, state: State[Any], attacker: int, depth: int) -> Any:
    """The defender's most stubborn move (the solver's line), else its first legal move."""
    try:
        line = solver.line(state, attacker, depth)
    except SearchLimitReached:
        line = []
    return line[0] if line else state.legal_moves()[0]


def check_moves(
    puzzle: lib.Puzzle, moves: list[str], *, lang: str, solve: bool = False
) -> dict[str, Any]:
    """The answer to ``moves`` played from ``puzzle``'s position (see the module).

    ``ok``: the last move is right; ``done``: the attacker has won; ``moves``: the moves
    played now (the defender's reply added; the wrong move taken back); ``position``,
    ``view``, ``legal`` (the attacker's moves to choose from, while it is to move), ``last``
    (the last move's view), ``reply`` (the defender's move just played, or null),
    ``message`` in ``lang``.  ``solve`` adds ``solution`` (the solution's moves from the
    start) and answers the puzzle's position.
    """
    start = puzzle.state()
    rules = start.game
    attacker = start.to_move
    if solve:
        return _answer(
            rules,
            start,
            attacker,
            [],
            True,
            False,
            "",
            None,
            None,
            lang,
            solution=list(puzzle.solution),
        )
    solver = _solver()
    state = start
    played: list[str] = []
    on_line = True  # every move so far is the solution's
    last = None
    for index, text in enumerate(moves):
        if state.outcome is not None:
            break
        try:
            move = rules.parse_move(state, text)
        except TablierError:
            return _answer(
                rules, state, attacker, played, False, False, NOT_LEGAL, last, None, lang
            )
        notation = rules.move_text(state, move)
        after = state.apply(move)
        if state.to_move == attacker:
            expected = (
                on_line and index < len(puzzle.solution) and (notation == puzzle.solution[index])
            )
            if not expected and not _wins(solver, after, attacker, puzzle.depth - index - 1):
                return _answer(
                    rules, state, attacker, played, False, False, NOT_WINNING, last, None, lang
                )
            on_line = expected
        else:
            on_line = (
                on_line and index < len(puzzle.solution) and (notation == puzzle.solution[index])
            )
        played.append(notation)
        last = rules.move_view(state, move)
        state = after
    reply = None
    if state.outcome is None and state.to_move != attacker and len(played) < puzzle.depth:
        index = len(played)
        if on_line and index < len(puzzle.solution):
            move = rules.parse_move(state, puzzle.solution[index])
        else:
            move = _reply(solver, state, attacker, puzzle.depth - index)
        reply = rules.move_text(state, move)
        played.append(reply)
        last = rules.move_view(state, move)
        state = state.apply(move)
    done = state.outcome is not None and state.outcome.winner == attacker
    message = SOLVED if done else GOOD if played else ""
    return _answer(rules, state, attacker, played, True, done, message, last, reply, lang)


def _answer(
    rules: Any,
    state: State[Any],
    attacker: int,
    played: list[str],
    ok: bool,
    done: bool,
    message: str,
    last: dict[str, Any] | None,
    reply: str | None,
    lang: str,
    **extra: Any,
) -> dict[str, Any]:
    waiting = not done and state.outcome is None and state.to_move == attacker
    return {
        "ok": ok,
        "done": done,
        "moves": played,
        "message": gettext(lang, message) if message else "",
        "position": state.to_text(),
        "view": rules.state_view(state),
        "legal": [rules.move_view(state, m) for m in state.legal_moves()] if waiting else [],
        "last": last,
        "reply": reply,
        **extra,
    }


@router.get("/api/puzzles/sets", responses=error_responses(404, 422))
async def sets(
    game: Annotated[str, Query(max_length=40, description="a game's name, e.g. volo")],
) -> list[dict[str, Any]]:
    """The game's variants that have puzzles, with their spec and count."""
    try:
        cls = registry.game_class(game.strip())
    except TablierError:
        raise ApiError(404, "not_found", f"there is no game {game[:40]!r}") from None
    return await to_thread.run_sync(puzzle_sets, cls)


@router.post(
    "/api/puzzles/check",
    responses={200: {"content": {"application/json": {}}}, **error_responses(404, 422)},
    response_class=Response,
)
async def check(
    body: CheckBody,
    request: Request,
    lang: Annotated[str | None, Query(max_length=10)] = None,
) -> Response:
    """Judge the moves played so far in a puzzle; play the defender's reply.

    In a worker thread: a move off the solution's line is proved by the solver (within
    :data:`MAX_NODES` nodes and :data:`MAX_SECONDS` seconds for the whole request).
    """
    spec = _game(body.game).spec
    found = await to_thread.run_sync(_puzzles, spec)
    puzzle = found.get(body.id)
    if puzzle is None:
        raise ApiError(404, "not_found", f"no puzzle {body.id[:40]!r} for {spec}")
    language = lang if lang in LANGUAGES else language_of(request)
    answer = await to_thread.run_sync(
        functools.partial(check_moves, puzzle, list(body.moves), lang=language, solve=body.solve)
    )
    return json_response(answer, headers={"cache-control": "no-store"})


@router.get("/puzzles/{game}", include_in_schema=False)
async def puzzles_page(game: str, request: Request) -> Response:
    """A game's puzzles (the client), or "Page not found" (in the request's language)."""
    try:
        registry.game_class(game[:40])
    except TablierError:
        raise ApiError(404, "not_found", f"there is no game {game[:40]!r}") from None
    return await pages.lobby(request)  # the client's page, which routes /puzzles/ itself
