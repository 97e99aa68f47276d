"""Clocks: time controls, the time each turn takes, and flag falls.

The server is the only clock (``docs/web.md``, "Clocks").  A game's clock lives in four
columns of ``games``: ``clock`` (the time control), ``clock_left`` (each seat's time in
milliseconds when the current turn began), ``turn_since`` (when the seat to move began its
turn; ``None`` while no clock runs) and ``deadline`` (when that seat's flag falls, indexed).

- **Turns, not decisions.**  A turn is the run of decisions by one player (a Voldétour turn
  may hold several): the clock switches only when the seat to move changes
  (``state.to_move``), never by alternation.  Each decision stores the mover's time left
  after it (``moves.clock_ms``) and the time it took (``moves.spent_ms``).
- **Start.**  The first turn of a game is not timed: the clock starts when it ends (as on
  lichess, a player who never comes does not lose on time; a game nobody joins expires).
- **Live** (``{"kind": "live", "base": s, "increment": s}``): a turn's time is taken from
  the mover's clock and the increment added once the turn ends (not after the game's last
  decision); with no base time (``0+3``) each seat starts with one increment.
  **Correspondence** (``{"kind": "correspondence", "days": n}``): each turn has ``n`` days;
  what is left of one turn is not carried to the next.
- **Flag fall.**  Once the deadline has passed, the seat to move loses (``decided`` is
  ``"timeout"``), whatever the position: no "insufficient material" exception.  A move or
  any other request that arrives later is answered ``410 game_over`` and the timeout is
  committed instead, through the same version-checked commit as every change, so it
  happens once however many processes try.  :class:`ClockKeeper` settles games nobody
  touches: one task per process wakes at the earliest deadline (an indexed query) and at
  least every ``clock_sweep`` seconds, so games whose time ran out while the server was
  down are settled at start-up.

Everything here reads a game through a few attributes (``clock``, ``clock_left``,
``turn_since``, ``deadline``, ``status``, ``state``, ``movers``, ``clock_ms``) and builds
column values: the service commits them (``GameService._change``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from .errors import ApiError

if TYPE_CHECKING:  # pragma: no cover
    from .live import LiveGame, Prepared
    from .service import GameService

__all__ = [
    "MAX_BASE",
    "MAX_DAYS",
    "MAX_INCREMENT",
    "ClockKeeper",
    "TimeControl",
    "ai_seconds",
    "clock_comment",
    "clock_view",
    "due",
    "new_columns",
    "on_change",
    "parse_control",
]

log = logging.getLogger("tablier.server.clocks")

#: Bounds of a time control (seconds, seconds, days).
MAX_BASE = 3 * 3600
MAX_INCREMENT = 180
MAX_DAYS = 14

DAY_MS = 86_400_000

#: The kinds of change that need the game to be on: once the flag has fallen they are
#: refused and the timeout is committed instead.
TIMED = frozenset({"move", "takeback", "offer", "resign"})

#: Decisions the AI expects still to make when it shares out its time (see ai_seconds).
AI_MOVES_LEFT = 25


@dataclass(frozen=True)
class TimeControl:
    """A game's time control: live (base and increment, seconds) or correspondence (days).

    >>> TimeControl.from_json({"kind": "live", "base": 300, "increment": 3}).label
    '5+3'
    >>> TimeControl.from_json({"kind": "correspondence", "days": 3}).tag
    '1/259200'
    """

    kind: str
    base: int = 0
    increment: int = 0
    days: int = 0

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeControl:
        """The control of a ``games.clock`` value (already checked by :func:`parse_control`)."""
        if data.get("kind") == "correspondence":
            return cls("correspondence", days=int(data["days"]))
        return cls("live", base=int(data["base"]), increment=int(data["increment"]))

    def to_json(self) -> dict[str, Any]:
        """The ``games.clock`` value."""
        if self.kind == "correspondence":
            return {"kind": "correspondence", "days": self.days}
        return {"kind": "live", "base": self.base, "increment": self.increment}

    @property
    def initial_ms(self) -> int:
        """Each seat's time at the start (correspondence: one turn's; a live clock of no
        base time starts with one increment)."""
        if self.kind == "correspondence":
            return self.days * DAY_MS
        return (self.base or self.increment) * 1000

    def after_turn(self, left_ms: int, spent_ms: int) -> int:
        """The mover's time once a turn of ``spent_ms`` has ended (increment added)."""
        if self.kind == "correspondence":
            return self.days * DAY_MS
        return max(0, left_ms - spent_ms) + self.increment * 1000

    @property
    def label(self) -> str:
        """Short text: ``5+3`` (minutes + seconds, as players write it) or ``3d``."""
        if self.kind == "correspondence":
            return f"{self.days}d"
        minutes = self.base / 60
        base = f"{minutes:g}" if minutes >= 1 or self.base == 0 else f"{self.base}s"
        return f"{base}+{self.increment}"

    @property
    def tag(self) -> str:
        """The record's ``TimeControl`` tag, as PGN writes it: ``300+3`` (seconds +
        increment) or ``1/259200`` (one move per so many seconds)."""
        if self.kind == "correspondence":
            return f"1/{self.days * 86400}"
        return f"{self.base}+{self.increment}"


def parse_control(spec: Any) -> dict[str, Any] | None:
    """Check a time control (a dict as ``POST /api/games`` takes it, or None) and return the
    value stored in ``games.clock``; ``422 bad_clock`` when it is none.

    >>> parse_control({"kind": "live", "base": 180, "increment": 2})
    {'kind': 'live', 'base': 180, 'increment': 2}
    >>> parse_control({"kind": "live", "base": 0, "increment": 0})
    Traceback (most recent call last):
    ...
    tablier.server.errors.ApiError: a live clock needs a base time or an increment
    """
    if spec is None:
        return None
    if hasattr(spec, "model_dump"):
        spec = spec.model_dump()
    if not isinstance(spec, dict):
        raise ApiError(422, "bad_clock", "a clock is an object with a 'kind'")

    def number(key: str, low: int, high: int) -> int:
        value = spec.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ApiError(
                422, "bad_clock", f"the clock's {key!r} must be an integer from {low} to {high}"
            )
        return value

    kind = spec.get("kind")
    if kind == "live":
        if set(spec) - {"kind", "base", "increment"}:
            raise ApiError(422, "bad_clock", "a live clock has only 'base' and 'increment'")
        base = number("base", 0, MAX_BASE)
        increment = number("increment", 0, MAX_INCREMENT)
        if base == 0 and increment == 0:
            raise ApiError(422, "bad_clock", "a live clock needs a base time or an increment")
        return TimeControl("live", base=base, increment=increment).to_json()
    if kind == "correspondence":
        if set(spec) - {"kind", "days"}:
            raise ApiError(422, "bad_clock", "a correspondence clock has only 'days'")
        return TimeControl("correspondence", days=number("days", 1, MAX_DAYS)).to_json()
    raise ApiError(422, "bad_clock", "a clock's kind is 'live' or 'correspondence'")


def new_columns(spec: Any) -> dict[str, Any]:
    """The clock's columns of a new game with the time control ``spec`` (checked here:
    ``422 bad_clock``; None: no clock)."""
    clock = parse_control(spec)
    return {"clock": clock, "clock_left": initial_left(clock), "turn_since": None, "deadline": None}


def initial_left(clock: dict[str, Any] | None) -> list[int] | None:
    """``games.clock_left`` of a new game."""
    if clock is None:
        return None
    ms = TimeControl.from_json(clock).initial_ms
    return [ms, ms]


def aware(moment: datetime | None) -> datetime | None:
    """``moment`` in UTC (SQLite hands back naive datetimes, which are UTC)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _ms(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() * 1000))


def running(live: LiveGame) -> int | None:
    """The seat whose clock runs now, or None."""
    if live.clock is None or live.turn_since is None or live.status != "active":
        return None
    mover = live.state.to_move
    return mover if mover in (0, 1) else None


def left_now(live: LiveGame, now: datetime) -> list[int] | None:
    """Each seat's time left at ``now`` (the running clock's turn deducted, never below 0)."""
    if live.clock is None:
        return None
    left = list(live.clock_left or initial_left(live.clock) or [0, 0])
    seat = running(live)
    if seat is not None:
        since = aware(live.turn_since)
        assert since is not None
        left[seat] = max(0, left[seat] - _ms(now - since))
    return left


def due(live: LiveGame, now: datetime) -> bool:
    """Whether the flag of the seat to move has fallen (its deadline has passed)."""
    deadline = aware(live.deadline)
    return (
        live.clock is not None
        and live.status == "active"
        and deadline is not None
        and now >= deadline
    )


def clock_view(live: LiveGame, now: datetime) -> dict[str, Any] | None:
    """The snapshot's ``clock``: ``{"control", "left": [ms, ms] (at now), "running":
    seat|null, "deadline": iso|null, "deadline_ms", "now_ms"}`` (times since the epoch in
    ms: the client corrects its clock with ``now_ms``), or None without a clock."""
    if live.clock is None:
        return None
    deadline = aware(live.deadline) if running(live) is not None else None
    return {
        "control": dict(live.clock),
        "left": left_now(live, now),
        "running": running(live),
        "deadline": None if deadline is None else _iso_ms(deadline),
        "deadline_ms": None if deadline is None else int(deadline.timestamp() * 1000),
        "now_ms": int(now.timestamp() * 1000),
    }


def _iso_ms(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def clock_comment(ms: int) -> str:
    """A record comment with a clock time, ``[%clk h:mm:ss]`` (as PGN writes it; tenths
    under a minute).

    >>> clock_comment(3_725_000), clock_comment(9_350)
    ('[%clk 1:02:05]', '[%clk 0:00:09.3]')
    """
    seconds, millis = divmod(max(0, ms), 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{seconds:02d}"
    if ms < 60_000:
        text += f".{millis // 100}"
    return f"[%clk {text}]"


def on_change(live: LiveGame, prep: Prepared, now: datetime) -> None:
    """Add the clock's columns to ``prep.change`` (a change of ``live`` checked at ``now``).

    A decision takes its time from the mover's clock; the turn's end adds the increment
    and starts the other seat's clock; a takeback charges the running clock and starts the
    turn of the seat to move in the position taken back to; a change that ends the game
    (resignation, agreement, timeout) stops the clock.  Other changes leave it alone.
    """
    if live.clock is None:
        return
    control = TimeControl.from_json(live.clock)
    values = prep.change.values
    left = list(live.clock_left or initial_left(live.clock) or [0, 0])
    runner = running(live)
    since = aware(live.turn_since)
    elapsed = _ms(now - since) if runner is not None and since is not None else 0
    ends_game = values.get("status") == "finished"
    if prep.kind == "move":
        assert prep.state is not None
        mover = prep.seat if prep.seat in (0, 1) else live.state.to_move
        turn_ends = ends_game or prep.state.to_move != mover
        if runner is None:  # the untimed first turn
            clock_ms, spent = left[mover], 0
        else:
            spent = elapsed
            if live.movers and live.movers[-1] == mover and live.clock_ms[-1] is not None:
                # a later decision of the same turn: its own time since the previous one
                spent = max(0, elapsed - (left[mover] - live.clock_ms[-1]))
            if turn_ends:
                left[mover] = (
                    max(0, left[mover] - elapsed)
                    if ends_game
                    else control.after_turn(left[mover], elapsed)
                )
                clock_ms = left[mover]
            else:
                clock_ms = max(0, left[mover] - elapsed)
        prep.change.move_times[live.ply] = (clock_ms, spent)
        if ends_game:
            since = None
        elif turn_ends:
            since = now
        values["clock_left"] = left
        if since is None:
            values.update(turn_since=None, deadline=None)
        elif turn_ends:
            seat = prep.state.to_move
            values.update(turn_since=now, deadline=now + timedelta(milliseconds=left[seat]))
        return
    if prep.kind == "takeback":
        if runner is not None:
            left[runner] = max(0, left[runner] - elapsed)
        target = prep.drop_from or 0
        values["clock_left"] = left
        if target == 0:  # back to the untimed first turn
            values.update(turn_since=None, deadline=None)
        else:
            seat = live.state_at(target).to_move
            values.update(turn_since=now, deadline=now + timedelta(milliseconds=left[seat]))
        return
    if ends_game and runner is not None:
        left[runner] = 0 if prep.kind == "timeout" else max(0, left[runner] - elapsed)
        values.update(clock_left=left, turn_since=None, deadline=None)


def ai_seconds(live: LiveGame, now: datetime) -> float | None:
    """The time the AI may take for its next decision on its clock, or None (no limit).

    A live clock's share: what is left over the decisions it expects still to make
    (:data:`AI_MOVES_LEFT`) plus most of the increment; the level's own budget stays the
    upper bound (the pool takes the smaller).  Correspondence days set no limit.
    """
    if live.clock is None or live.ai_seat is None:
        return None
    control = TimeControl.from_json(live.clock)
    if control.kind != "live":
        return None
    left = left_now(live, now)
    assert left is not None
    share = left[live.ai_seat] / 1000 / AI_MOVES_LEFT + 0.8 * control.increment
    return max(0.05, min(share, 0.5 * left[live.ai_seat] / 1000))


class ClockKeeper:
    """Settles the games whose flag has fallen, in this process (see the module docstring).

    One task: it asks the database for the earliest deadlines (at most ``batch``), settles
    those passed through :meth:`GameService.flag` (a version-checked commit: a game another
    process settled first is left alone; a copy in memory older than the database's is read
    again first), then sleeps until the next deadline, at most
    ``interval`` seconds (deadlines set by other processes are seen then), or until
    :meth:`wake` (a deadline set in this process that comes sooner).
    """

    def __init__(self, service: GameService, interval: float, batch: int = 100) -> None:
        self.service = service
        self.interval = interval
        self.batch = batch
        self.next_at: datetime | None = None
        self._event = asyncio.Event()
        self._task: asyncio.Task | None = None
        self.settled = 0  # flag falls this process committed

    def start(self) -> None:
        """Start the task (in the running event loop)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="tablier-clocks")

    def wake(self, deadline: datetime | None = None) -> None:
        """Look again now (when ``deadline`` is None or earlier than the next look)."""
        if deadline is None or self.next_at is None or deadline < self.next_at:
            self._event.set()

    async def stop(self) -> None:
        """Stop the task."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self) -> None:
        while True:
            self._event.clear()
            try:
                delay = await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the clock sweep failed")
                delay = self.interval
            self.next_at = self.service.now() + timedelta(seconds=delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._event.wait(), delay)

    async def sweep(self) -> float:
        """Settle every game whose deadline has passed; return the seconds to the next."""
        from anyio import to_thread

        rows = await to_thread.run_sync(self.service.storage.deadlines, self.batch)
        now = self.service.now()
        delay = self.interval
        for game_id, stored, version in rows:
            deadline = aware(stored)
            assert deadline is not None
            if deadline > now:
                delay = min(delay, (deadline - now).total_seconds())
                break
            if await self.service.flag(game_id, version):
                self.settled += 1
        else:
            if len(rows) >= self.batch:
                delay = 0.0  # more may be due
        return max(0.0, delay)
