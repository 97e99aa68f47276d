"""The tutorials: ``/learn/<game>`` (the client's page) and the check of a lesson's moves.

A game's lesson (:class:`~tablier.core.teaching.Lesson`, from :meth:`Game.teaching
<tablier.core.game.Game.teaching>`) is a list of steps, each a position and a task: one
decision to make, or several of the same player in a row (``accept``, then ``then``).
``POST /api/teaching/<game>/check`` replays the step's position and the moves the player
has made in it so far, checks each one against the step with the engine, and answers the
position the board must show now (``docs/web.md``, "Tutorials"):

>>> from tablier.core.teaching import LessonStep
>>> step = LessonStep(key="first", title="A cube", text="", task="Put a cube on e5.",
...     position="xobo " + "/".join(["........."] * 9) + " ns 36/0/0 -", accept=("e5",))
>>> check_step(step, ["e5"], lang="en")["done"]
True
>>> answer = check_step(step, ["a1"], lang="en")
>>> answer["ok"], answer["message"]
(False, 'That is not the move this step asks for: try again.')

Nothing is stored on the server: the browser keeps the player's progress.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import Field, StrictBool, StrictStr

from ... import games as registry
from ...core.errors import TablierError
from ...core.teaching import Lesson, LessonStep
from ..errors import ApiError, json_response
from ..i18n import LANGUAGES, N_, gettext, language_of
from ..models import _Strict, error_responses
from .pages import _client

__all__ = ["CheckBody", "check_step", "lesson_of", "router", "solution"]

router = APIRouter(tags=["teaching"])

#: Most decisions one step may take (a Voldétour turn is a handful).
MAX_MOVES = 16

#: What the player reads when a move cannot be played at all in the step's position.
NOT_LEGAL = N_("This move is not possible here: look at the board again.")
#: What the player reads after a legal move the step does not ask for, when it says nothing.
NOT_ASKED = N_("That is not the move this step asks for: try again.")
#: What the player reads after the step's task is done, when it says nothing.
WELL_DONE = N_("Well done!")


class CheckBody(_Strict):
    """``POST /api/teaching/<game>/check``: the moves made so far in a step."""

    step: Annotated[StrictStr, Field(min_length=1, max_length=100)]
    moves: Annotated[
        list[Annotated[StrictStr, Field(min_length=1, max_length=200)]],
        Field(max_length=MAX_MOVES, default_factory=list),
    ]
    solve: StrictBool = False


def lesson_of(game: str) -> Lesson:
    """The lesson of the game named ``game``, or ``404 not_found``."""
    try:
        cls = registry.game_class(game[:40])
    except TablierError:
        raise ApiError(404, "not_found", f"there is no game {game[:40]!r}") from None
    teaching = cls.teaching()
    if teaching is None:
        raise ApiError(404, "not_found", f"{cls.name} has no tutorial")
    return teaching.lesson


def _step(lesson: Lesson, key: str) -> LessonStep:
    for step in lesson.steps:
        if step.key == key:
            return step
    raise ApiError(422, "unknown_step", f"the lesson has no step {key[:100]!r}")


def _decisions(step: LessonStep) -> list[tuple[str, ...]]:
    """The accepted moves of each decision the step asks for (none: a step to read)."""
    return [step.accept, *step.then] if step.accept else []


def _readable(rules: Any, state: Any, accepted: tuple[str, ...]) -> set[str]:
    """The notations of the accepted moves that are legal in ``state`` (an alternative may
    only be legal after another choice of an earlier decision)."""
    out = set()
    for text in accepted:
        try:
            out.add(rules.move_text(state, rules.parse_move(state, text)))
        except TablierError:
            continue
    return out


def solution(state: Any, decisions: list[tuple[str, ...]]) -> list[Any] | None:
    """The first moves, in the order the step lists them, that play every decision in turn
    (an alternative may only be legal after some choices of the earlier decisions); ``None``
    when there are none."""
    if not decisions:
        return []
    rules = state.game
    for text in decisions[0]:
        try:
            move = rules.parse_move(state, text)
        except TablierError:
            continue
        rest = solution(state.apply(move), decisions[1:])
        if rest is not None:
            return [move, *rest]
    return None


def check_step(
    step: LessonStep, moves: list[str], *, lang: str, solve: bool = False
) -> dict[str, Any]:
    """The answer to the moves ``moves`` made in ``step`` (see ``docs/web.md``).

    ``ok``: every move is one the step accepts; ``done``: the task is complete (the reply,
    if any, then played); ``position`` and ``view``: what the board shows now (the step's
    own position again after a wrong move); ``legal``: the move views of the decisions to
    choose from while the step waits for one; ``last``: the move view of the last move
    played; ``message``: the step's text for what happened, in ``lang``.  ``solve`` adds
    the step's ``solution`` (:func:`solution`: the first accepted moves that play every
    decision in turn) and its first move's view as ``last``, on the step's position.
    """
    decisions = _decisions(step)
    moves = moves[: len(decisions)]  # a board may send a whole action: the rest is not asked
    start = registry.parse_position(step.position)
    rules = start.game
    state = start
    last = None
    ok = True
    message = ""
    if solve:
        path = solution(start, decisions)
        if path is None:
            raise TablierError(f"no accepted moves of step {step.key!r} can be played in turn")
        last = rules.move_view(start, path[0]) if path else None
        texts = []
        for move in path:
            texts.append(rules.move_text(state, move))
            state = state.apply(move)
        return _answer(rules, start, ok, False, "", last, None, lang, solution=texts)
    for text, accepted in zip(moves, decisions, strict=False):
        try:
            move = rules.parse_move(state, text)
        except TablierError:
            ok, message = False, NOT_LEGAL
            break
        if rules.move_text(state, move) not in _readable(rules, state, accepted):
            ok, message = False, step.wrong or NOT_ASKED
            break
        last = rules.move_view(state, move)
        state = state.apply(move)
    if not ok:
        return _answer(rules, start, False, False, message, None, None, lang)
    if len(moves) < len(decisions):
        return _answer(rules, state, True, False, "", last, None, lang)
    reply = None
    if step.reply:
        move = rules.parse_move(state, step.reply)
        reply = rules.move_text(state, move)
        last = rules.move_view(state, move)
        state = state.apply(move)
    success = step.success or (WELL_DONE if decisions else "")
    return _answer(rules, state, True, True, success, last, reply, lang)


def _answer(
    rules: Any,
    state: Any,
    ok: bool,
    done: bool,
    message: str,
    last: dict[str, Any] | None,
    reply: str | None,
    lang: str,
    **extra: Any,
) -> dict[str, Any]:
    waiting = not done and not state.is_terminal
    return {
        "ok": ok,
        "done": done,
        "message": gettext(lang, message) if message else "",
        "position": state.to_text(),
        "view": rules.state_view(state),
        "legal": [rules.move_view(state, m) for m in state.legal_moves()] if waiting else [],
        "last": last,
        "reply": reply,
        **extra,
    }


@router.post(
    "/api/teaching/{game}/check",
    responses={200: {"content": {"application/json": {}}}, **error_responses(404, 422)},
    response_class=Response,
)
async def check(
    game: str,
    body: CheckBody,
    request: Request,
    lang: Annotated[str | None, Query(max_length=10)] = None,
) -> Response:
    """Check the moves made so far in a step of the game's tutorial (``docs/web.md``).

    Computed on the event loop, like ``GET …/legal``: one short replay and the views of
    one position.
    """
    lesson = lesson_of(game)
    step = _step(lesson, body.step)
    language = lang if lang in LANGUAGES else language_of(request)
    try:
        answer = check_step(step, body.moves, lang=language, solve=body.solve)
    except TablierError as exc:  # a lesson the engine refuses: the game's content is wrong
        raise ApiError(500, "internal_error", f"the step {step.key!r} is broken: {exc}") from None
    return json_response(answer, headers={"cache-control": "no-store"})


@router.get("/learn/{game}", include_in_schema=False)
async def learn_page(game: str, request: Request) -> Response:
    """The tutorial of a game (the client), or "Page not found" (in the request's language)."""
    lesson_of(game)  # else 404 not_found, which the error handler answers with a page
    return _client(request)
