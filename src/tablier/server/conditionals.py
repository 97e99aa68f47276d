"""Conditional moves: "if they play X, I play Y" lines that the server plays for a player.

Allowed in games between two people without a live clock: correspondence games
(``clock.kind == "correspondence"``) and games with no clock at all, where a player may be
away for hours.  A live clock leaves no room for them (lichess has none there either).

A seat sets its lines while it is the **other** seat's turn (on its own turn it just plays).
A line is a sequence of decisions from the current position, in the engine's notation:
their decision(s), then mine, then theirs…  Nothing assumes that the players alternate: who
makes each decision is the engine's ``to_move`` as the line is replayed, so a Voldétour turn
of several decisions is several entries of the line.  A line must end with a decision of the
seat.  Two lines that agree up to a point must part on a decision of the opponent (a branch
on their choice, never two answers to one position: ``conflicting_conditionals``).  At most
:data:`MAX_LINES` lines of at most :data:`MAX_PLIES` decisions each; every decision is
replayed by the engine when the lines are set (``bad_conditional``, with the ``line`` and
``index`` of the first decision refused) and stored in the engine's own spelling.

After every move committed in such a game (:func:`after_move`, called by
:meth:`~.service.GameService.move` once the move is committed and broadcast), each seat's
lines are advanced in one transaction: the lines whose first decision is the one played lose
it, the others are dropped; the row's ``ply`` says which position its lines start from, and
its update is conditional on it, so each move advances the lines exactly once.  When it is
then the seat's turn, the first remaining line's next decision is played for it through the
normal move path (its ply checked: a move that came first wins) — which advances the lines
again, and so on until the seat's turn is over.  Lines set at a position the game has left
(a takeback, an undo) are dropped at the next move.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Engine, Table, delete, insert, select, update

from ..core.errors import TablierError
from .errors import ApiError
from .live import LiveGame, Prepared
from .storage import now
from .tables import ConditionalRow, GameRow

if TYPE_CHECKING:
    from .service import GameService

__all__ = [
    "MAX_LINES",
    "MAX_PLIES",
    "after_move",
    "allowed",
    "check_lines",
    "read",
    "remove",
    "store",
]

log = logging.getLogger("tablier.server")

#: The most lines a seat may leave.
MAX_LINES = 20
#: The most decisions in a line.
MAX_PLIES = 10

_conditionals = cast(Table, ConditionalRow.__table__)
_games = cast(Table, GameRow.__table__)


def allowed(live: LiveGame) -> bool:
    """Whether conditional moves may be left in ``live``: a game between people without a
    live clock."""
    clock = getattr(live, "clock", None)
    return live.mode == "online" and (
        not clock or (isinstance(clock, dict) and clock.get("kind") == "correspondence")
    )


def _need(live: LiveGame, seat: int | None) -> int:
    if seat not in (0, 1):
        raise ApiError(409, "not_allowed", "conditional moves are for a seat of the game")
    if not allowed(live):
        raise ApiError(
            409,
            "conditionals_not_allowed",
            "conditional moves are for games between people without a live clock",
        )
    return seat


def check_lines(
    live: LiveGame, seat: int | None, ply: int, lines: list[list[str]]
) -> list[list[str]]:
    """``lines`` checked from the current position and written in the engine's notation.

    Errors: ``not_allowed``, ``conditionals_not_allowed`` (409), ``game_over`` (410),
    ``stale_ply`` (409: the game is not at ``ply``), ``your_turn`` (409), ``bad_conditional``
    and ``conflicting_conditionals`` (422).
    """
    seat = _need(live, seat)
    if live.status != "active":
        raise ApiError(410, "game_over", "the game is over")
    if ply != live.ply:
        raise ApiError(409, "stale_ply", f"the game is at ply {live.ply}, not {ply}", ply=live.ply)
    start = live.state
    if start.to_move == seat:
        raise ApiError(409, "your_turn", "it is your turn: play your move")
    game = live.game
    out: list[list[str]] = []
    movers: list[list[int]] = []
    for i, line in enumerate(lines):
        state = start
        texts: list[str] = []
        who: list[int] = []
        for j, text in enumerate(line):
            where = f"line {i + 1}, decision {j + 1}"
            if state.outcome is not None:
                raise ApiError(
                    422, "bad_conditional", f"{where}: the game is over there", line=i, index=j
                )
            try:
                move = game.parse_move(state, text)
                after = state.apply(move)
            except TablierError as exc:
                raise ApiError(422, "bad_conditional", f"{where}: {exc}", line=i, index=j) from None
            who.append(state.to_move)
            texts.append(game.move_text(state, move))
            state = after
        if not who or who[-1] != seat:
            raise ApiError(
                422,
                "bad_conditional",
                f"line {i + 1} must end with your decision",
                line=i,
                index=len(line) - 1,
            )
        out.append(texts)
        movers.append(who)
    for a in range(len(out)):
        for b in range(a):
            for k, (x, y) in enumerate(zip(out[a], out[b], strict=False)):
                if x != y:
                    if movers[a][k] == seat:
                        raise ApiError(
                            422,
                            "conflicting_conditionals",
                            f"lines {b + 1} and {a + 1} answer the same position differently",
                            line=a,
                            index=k,
                        )
                    break
    return out


# -- storage (called in worker threads) --------------------------------------------------


def store(engine: Engine, game_id: str, seat: int, ply: int, lines: list[list[str]]) -> bool:
    """Replace ``seat``'s lines, if the game is still at ``ply`` (False: it moved on).

    The game's row is touched (``ply = ply``) first, in the same transaction: a move that
    commits meanwhile either came first (no row matches) or waits for this commit, and then
    advances these lines.
    """
    with engine.begin() as conn:
        touched = conn.execute(
            update(_games)
            .where(_games.c.id == game_id, _games.c.ply == ply, _games.c.status == "active")
            .values(ply=_games.c.ply)
        ).rowcount
        if touched != 1:
            return False
        conn.execute(
            delete(_conditionals).where(
                _conditionals.c.game_id == game_id, _conditionals.c.seat == seat
            )
        )
        if lines:
            conn.execute(
                insert(_conditionals).values(
                    game_id=game_id, seat=seat, ply=ply, lines=lines, updated=now()
                )
            )
    return True


def read(engine: Engine, game_id: str, seat: int) -> tuple[int, list[list[str]]] | None:
    """``(ply, lines)`` of ``seat``, or None."""
    with engine.connect() as conn:
        row = conn.execute(
            select(_conditionals.c.ply, _conditionals.c.lines).where(
                _conditionals.c.game_id == game_id, _conditionals.c.seat == seat
            )
        ).first()
    return None if row is None else (int(row.ply), [list(line) for line in row.lines])


def remove(engine: Engine, game_id: str, seat: int) -> None:
    """Drop ``seat``'s lines."""
    with engine.begin() as conn:
        conn.execute(
            delete(_conditionals).where(
                _conditionals.c.game_id == game_id, _conditionals.c.seat == seat
            )
        )


def advance(engine: Engine, game_id: str, ply: int, played: str) -> dict[int, list[list[str]]]:
    """Advance every seat's lines past the decision ``played`` at ``ply``; answer the lines
    each seat has left (only the rows this call advanced)."""
    left: dict[int, list[list[str]]] = {}
    query = select(_conditionals.c.seat).where(_conditionals.c.game_id == game_id).limit(1)
    with engine.connect() as conn:
        if conn.execute(query).first() is None:
            return left  # the usual case: a read, no write transaction
    with engine.begin() as conn:
        rows = conn.execute(
            select(_conditionals.c.seat, _conditionals.c.ply, _conditionals.c.lines).where(
                _conditionals.c.game_id == game_id
            )
        ).all()
        for row in rows:
            where = (
                (_conditionals.c.game_id == game_id)
                & (_conditionals.c.seat == row.seat)
                & (_conditionals.c.ply == row.ply)
            )
            lines = [list(line)[1:] for line in row.lines if line and line[0] == played]
            lines = [line for line in lines if line]
            if row.ply != ply or not lines:
                conn.execute(delete(_conditionals).where(where))
                continue
            done = conn.execute(
                update(_conditionals).where(where).values(ply=ply + 1, lines=lines, updated=now())
            ).rowcount
            if done == 1:
                left[int(row.seat)] = lines
    return left


# -- the server's side ---------------------------------------------------------------------


async def after_move(service: GameService, live: LiveGame, prep: Prepared) -> None:
    """Advance the lines past a committed move and play what they say (module docstring).

    Never raises: the move it follows is committed and answered whatever happens here.
    """
    if not allowed(live) or not prep.change.moves:
        return
    ply, played, _ = prep.change.moves[0]
    try:
        left = await service.write(advance, service.storage.engine, live.id, ply, played)
        live = service.current(live)
        for seat, lines in left.items():
            if live.status == "active" and live.ply == ply + 1 and live.state.to_move == seat:
                await service.move(live.id, seat, ply + 1, lines[0][0])
                return
    except ApiError as exc:
        log.info("a conditional move in game %s was not played: %s", live.id, exc.code)
    except Exception:
        log.exception("conditional moves failed in game %s", live.id)


def lines_of(live: LiveGame, stored: tuple[int, list[list[str]]] | None) -> dict[str, Any]:
    """The answer of ``GET …/conditionals``: ``{"ply", "lines"}`` (lines set at a position
    the game has left are shown as none)."""
    if stored is None or stored[0] != live.ply:
        return {"ply": live.ply, "lines": []}
    return {"ply": stored[0], "lines": stored[1]}
