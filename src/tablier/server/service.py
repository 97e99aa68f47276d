"""The game service: requests, the per-game locks, storage, broadcasts and the AI.

Every change to a game follows the same path, for REST and WebSocket alike:

1. take the game's :class:`asyncio.Lock` (one change at a time per game in this process);
2. in a worker thread, check the request with the engine (:class:`~.live.LiveGame`) and
   commit it to the database — the commit fails when the game's version moved on (another
   process) or the ``(game_id, ply)`` key exists, which is answered ``409 stale_ply``;
3. only then update the game in memory and broadcast to its WebSockets.

Nothing here branches on which game is played: the engines are reached through the core
protocol and the views are passed through unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from anyio import to_thread
from fastapi import WebSocket

from .. import games as registry
from ..ai.players import LEVELS
from ..core.errors import TablierError
from . import clocks, conditionals, ratings
from .ai import AIPool, AIWorkerLost, Thought, current_client
from .broker import Broker, LocalBroker
from .cluster import Cluster, process_name, seat_counts
from .errors import ApiError
from .live import LiveGame, Prepared, hash_token, summary_of_row
from .players import ai_user_id, clean_name
from .settings import Settings
from .storage import Change, NewGame, Storage, now
from .tables import BOTH

__all__ = ["Connection", "GameService", "new_token"]

log = logging.getLogger("tablier.server")

#: The ``Retry-After`` (seconds) of ``429 ai_busy``: about one AI move at the usual levels.
AI_BUSY_RETRY = 5


def new_token() -> str:
    """A fresh capability token (192 random bits)."""
    return secrets.token_urlsafe(24)


def new_game_id() -> str:
    """A fresh game id (72 random bits, URL-safe)."""
    return secrets.token_urlsafe(9)


def dumps(message: dict) -> str:
    """Compact JSON for the WebSocket."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


@dataclass(eq=False)
class Connection:
    """One WebSocket of a game: its seat and its outgoing queue (drained by a sender task)."""

    ws: WebSocket
    seat: int | None = None
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(maxsize=1000))
    closed: bool = False

    def send(self, text: str | None) -> None:
        """Queue a message (``None``: close); a client that stopped reading is disconnected."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closed = True
            self.queue = asyncio.Queue(maxsize=1)
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages until the connection closes."""
        while True:
            text = await self.queue.get()
            if text is None:
                await self.ws.close(code=1008)
                return
            await self.ws.send_text(text)


@dataclass
class _AIJob:
    version: int
    task: asyncio.Task | None = None
    client: str | None = None  # whose request made it the AI's turn (None: the server's)
    retry: bool = False  # a second try after its worker died


class GameService:
    """Games in memory, their WebSocket connections and the AI (see the module docstring)."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        ai: AIPool | None,
        broker: Broker | None = None,
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.ai = ai
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Future] = {}
        self.connections: dict[str, set[Connection]] = {}
        self._jobs: dict[str, _AIJob] = {}
        self._reserved: dict[tuple[str, str], int] = {}  # (client, game) -> changes under way
        self._tasks: set[asyncio.Task] = set()
        self._committing: set[str] = set()  # games whose AI move is being committed
        self.closing = False
        #: the other processes of the database (cluster.py); alone without a broker
        self.cluster = Cluster(
            self,
            broker or LocalBroker(f"service:{id(self)}"),
            settings.process_id or process_name(),
        )
        #: the clocks' time (tests put a fake clock here)
        self.now: Callable[[], datetime] = now
        self.clock_keeper = clocks.ClockKeeper(self, settings.clock_sweep)
        # SQLite takes one writer at a time and a commit in WAL mode takes a fraction of a
        # millisecond (checkpoints run in a thread of their own, see storage.py): writes run
        # right on the event loop, which saves two thread hand-offs per move.  PostgreSQL
        # writes wait on the network: they run in worker threads.
        self._inline = storage.engine.dialect.name == "sqlite" and settings.sqlite_inline_writes

    async def start(self) -> None:
        """Join the other processes of the database (see cluster.py)."""
        await self.cluster.start()

    async def write(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a database write (with the engine work that prepares it)."""
        if self._inline:
            return fn(*args)
        return await to_thread.run_sync(fn, *args)

    # -- games in memory ------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game ``game_id``, loaded from the database if needed; 404 when unknown."""
        live = self._cache.get(game_id)
        if live is not None:
            for _ in range(3):  # a read under way may predate the change heard since
                if game_id not in self.cluster.stale and game_id not in self._loading:
                    break
                live = await self._refresh(live)  # another process changed it
            self._cache.move_to_end(game_id)
            return live
        pending = self._loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            live = await to_thread.run_sync(self._load, game_id)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved
            raise
        finally:
            self._loading.pop(game_id, None)
        future.set_result(live)
        self._remember(live)
        return live

    async def get_at(self, game_id: str, ply: int | None) -> LiveGame:
        """The game ``game_id`` at ``ply`` decisions or later: the read of a client that has
        seen position ``ply`` (a ``move`` message, sent on another process's event, can
        reach it before this process heard that event).

        A copy behind ``ply`` is read again from the database, once; when the database is
        behind it too (a ply never played), ``409 ply_ahead`` (``ply``: the game's).
        """
        live = await self.get(game_id)
        if ply is None or live.ply >= ply:
            return live
        live = await self._refresh(live)
        if live.ply < ply:
            raise ApiError(
                409,
                "ply_ahead",
                f"the game is at ply {live.ply}, not yet at {ply}: ask again",
                ply=live.ply,
            )
        return live

    def _load(self, game_id: str, reuse: LiveGame | None = None) -> LiveGame:
        data = self.storage.load(game_id)
        if data is None:
            raise ApiError(404, "not_found", f"there is no game {game_id!r}")
        live = LiveGame(*data, reuse=reuse)
        live.warm()
        return live

    async def _refresh(self, live: LiveGame) -> LiveGame:
        """Read a game again whose database row moved on (another process changed it).

        Only the moves that are new are replayed; the copy read replaces the one in memory
        unless a newer one is there (a change committed here meanwhile).
        """
        pending = self._loading.get(live.id)
        if pending is not None:
            return await asyncio.shield(pending)
        self.cluster.stale.discard(live.id)  # an event from now on marks it again
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._loading[live.id] = future
        try:
            fresh = await to_thread.run_sync(self._load, live.id, live)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved
            raise
        finally:
            self._loading.pop(live.id, None)
        fresh.lock = live.lock  # waiters of the old lock keep excluding each other
        held = self._cache.get(live.id)
        if held is not None and held.version > fresh.version:
            fresh = held
        else:
            self._remember(fresh)
        future.set_result(fresh)
        job = self._jobs.get(fresh.id)
        self._drop_stale_ai(fresh)
        if job is not None and self._jobs.get(fresh.id) is None:
            self.maybe_start_ai(fresh)  # the search it stopped may still be due
        return fresh

    def _remember(self, live: LiveGame) -> None:
        self._cache[live.id] = live
        self._cache.move_to_end(live.id)
        if len(self._cache) <= self.settings.cache_size:
            return
        for key in list(self._cache):
            if len(self._cache) <= self.settings.cache_size:
                break
            other = self._cache[key]
            if self.connections.get(key) or other.lock.locked() or key in self._jobs:
                continue
            del self._cache[key]

    def current(self, live: LiveGame) -> LiveGame:
        """The game in memory now (``live`` itself unless it was reloaded meanwhile)."""
        return self._cache.get(live.id) or live

    async def _reload(self, live: LiveGame) -> LiveGame:
        """Read again a game whose database row moved on (another process)."""
        return await self._refresh(live)

    # -- presence and broadcasts ---------------------------------------------------

    def local_counts(self, game_id: str) -> tuple[int, int, int]:
        """This process's connections to a game: of seat 0, of seat 1, spectators."""
        return seat_counts([conn.seat for conn in self.connections.get(game_id, ())])

    def counts(self, game_id: str) -> tuple[int, int, int]:
        """The connections to a game over every process of the site."""
        first, second, spectators = self.local_counts(game_id)
        for a, b, c in self.cluster.remote_counts(game_id):
            first, second, spectators = first + a, second + b, spectators + c
        return first, second, spectators

    def online(self, game_id: str, live: LiveGame | None = None) -> tuple[bool, bool]:
        """Which seats have a connection to any process (the AI's seat counts as present)."""
        first, second, _ = self.counts(game_id)
        seats = [first > 0, second > 0]
        if live is not None and live.ai_seat is not None:
            seats[live.ai_seat] = True
        return seats[0], seats[1]

    def thinking(self, live: LiveGame) -> bool:
        """Whether the AI is searching the current position (here or in another process)."""
        job = self._jobs.get(live.id)
        if job is not None and job.version == live.version:
            return True
        return self.cluster.thinking.get(live.id) == live.version

    def snapshot(self, live: LiveGame, seat: int | None) -> dict:
        """The game's SNAPSHOT as seen by the holder of ``seat``."""
        return live.snapshot(
            you=seat, online=self.online(live.id, live), thinking=self.thinking(live), at=self.now()
        )

    def broadcast(
        self, game_id: str, message: dict, seats: Collection[int | None] | None = None
    ) -> None:
        """Send ``message`` to every connection of the game, in every process (only to
        those whose seat is in ``seats`` when given: None stands for the spectators; chat
        rooms use it)."""
        self.send_local(game_id, message, seats)
        self.cluster.message(game_id, message, seats)

    def send_local(
        self, game_id: str, message: dict, seats: Collection[int | None] | None = None
    ) -> None:
        """Send ``message`` to this process's connections of the game (see broadcast)."""
        conns = self.connections.get(game_id)
        if not conns:
            return
        text = dumps(message)
        for conn in conns:
            if seats is None or conn.seat in seats:
                conn.send(text)

    def broadcast_snapshot(self, live: LiveGame) -> None:
        """Send each connection, in every process, the snapshot as its seat sees it."""
        self.snapshot_local(live)
        self.cluster.snapshot(live)

    def snapshot_local(self, live: LiveGame) -> None:
        """Send each connection of this process the snapshot as its seat sees it."""
        conns = self.connections.get(live.id)
        if not conns:
            return
        base = self.snapshot(live, None)
        for conn in conns:
            conn.send(dumps({"type": "snapshot", "game": {**base, "you": live.you(conn.seat)}}))

    def broadcast_presence(self, live: LiveGame, ask: bool = False) -> None:
        """Send who is connected, and tell the other processes this process's counts
        (``ask``: and ask for theirs)."""
        self.presence_local(live)
        self.cluster.counts_changed(live.id, self.local_counts(live.id), ask)

    def presence_local(self, live: LiveGame) -> None:
        """Send this process's connections of the game who is connected (every process)."""
        self.send_local(
            live.id,
            {
                "type": "presence",
                "seats": list(self.online(live.id, live)),
                "spectators": self.counts(live.id)[2],
            },
        )

    def join(self, live: LiveGame, conn: Connection) -> None:
        """Register a WebSocket of the game and announce it."""
        first = not self.connections.get(live.id)
        self.connections.setdefault(live.id, set()).add(conn)
        conn.send(dumps({"type": "snapshot", "game": self.snapshot(live, conn.seat)}))
        self.broadcast_presence(live, ask=first)

    def leave(self, live: LiveGame, conn: Connection) -> None:
        """Forget a WebSocket and announce it."""
        conns = self.connections.get(live.id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.connections[live.id]
        if not self.closing:
            self.broadcast_presence(live)

    # -- creating -------------------------------------------------------------------

    async def create(
        self,
        name: str,
        options: dict[str, Any],
        mode: str,
        seat: int,
        ai_level: str | None,
        names: list[str],
        users: list[tuple[str, str] | None] | None = None,
        clock: dict[str, Any] | None = None,
        rated: bool = False,
        chat_off: bool = False,
    ) -> tuple[LiveGame, dict[str, str]]:
        """Create a game; return it and its tokens (``{"0": tok, ...}`` or ``{"both": tok}``).

        ``users`` gives the account ``(id, username)`` of a seat (None: a guest); an
        account's seat is named by its username.  ``clock`` is the time control (None: no
        clock) and ``rated`` whether the game counts for the ratings (challenges pass them);
        ``chat_off`` starts a game between people with the players' chat turned off.
        """
        row = self._new_row(name, options, mode, seat, ai_level, names, users=users)
        row.update(clocks.new_columns(clock), rated=rated, chat_off=chat_off and mode == "online")
        tokens: dict[str, str] = {}
        if mode == "online":
            tokens = {"0": new_token(), "1": new_token()}
        elif mode == "ai":
            tokens = {str(seat): new_token()}
        else:
            tokens = {"both": new_token()}
        hashes = [(BOTH if k == "both" else int(k), hash_token(t)) for k, t in tokens.items()]
        with self._ai_room(str(row["id"]), _ai_moves_first(row)):
            await self.write(self.storage.create_game, row, hashes)
            return self._started(row, hashes), tokens

    def _new_row(
        self,
        name: str,
        options: dict[str, Any],
        mode: str,
        seat: int,
        ai_level: str | None,
        names: list[str],
        rematch_of: str | None = None,
        users: list[tuple[str, str] | None] | None = None,
    ) -> dict[str, Any]:
        """The database row of a new game (checked: game, options, AI level)."""
        try:
            game = registry.get(name, **options)
        except TablierError as exc:
            code = "unknown_game" if isinstance(exc, LookupError) else "bad_option"
            raise ApiError(422, code, exc) from None
        ai_seat = None
        if mode == "ai":
            if self.ai is None:
                raise ApiError(503, "ai_unavailable", "the AI is off on this server")
            level = ai_level or "medium"
            if level not in LEVELS:
                raise ApiError(
                    422, "bad_level", f"unknown AI level {level!r} (levels: {', '.join(LEVELS)})"
                )
            ai_level, ai_seat = level, 1 - seat
        else:
            ai_level = None
        names = [clean_name(n) for n in ([*list(names), "", ""])[:2]]
        seat_users: list[str | None] = [None, None]
        for i, account in enumerate([*(users or []), None, None][:2]):
            if account is not None and mode != "local" and i != ai_seat:
                seat_users[i], names[i] = account[0], account[1]
        if ai_seat is not None:
            assert ai_level is not None
            seat_users[ai_seat] = ai_user_id(ai_level)
            if not names[ai_seat]:
                names[ai_seat] = f"AI ({ai_level})"
        stamp = now()
        return {
            "id": new_game_id(),
            "game": game.name,
            "spec": game.spec,
            "mode": mode,
            "status": "active",
            "ply": 0,
            "version": 0,
            "names": names,
            "ai_seat": ai_seat,
            "ai_level": ai_level,
            "result": None,
            "decided": None,
            "draw_offer": None,
            "undo_offer": None,
            "rematch_id": None,
            "rematch_of": rematch_of,
            "created": stamp,
            "updated": stamp,
            "users": seat_users,
            "rated": False,
            "clock": None,
            "clock_left": None,
            "turn_since": None,
            "deadline": None,
            "rating_change": None,
            "chat_off": False,
            "mutes": [False, False],
            # a game between two people expires unless both seats decide (challenges.py)
            "expires": stamp + timedelta(seconds=self.settings.game_expiry)
            if mode == "online"
            else None,
            "hints": [0, 0],
        }

    def _started(self, row: dict[str, Any], hashes: list[tuple[int, str]]) -> LiveGame:
        """A committed new game, in memory (and the AI started if it moves first)."""
        live = LiveGame(row, [], hashes)
        live.warm()
        self._remember(live)
        self.maybe_start_ai(live)
        return live

    async def list_games(self, limit: int, offset: int) -> list[dict[str, Any]]:
        """SUMMARY of the most recently changed games (read in a worker thread)."""
        rows = await to_thread.run_sync(self.storage.list_games, limit, offset)
        return [summary_of_row(r) for r in rows]

    # -- changes ----------------------------------------------------------------------

    async def _change(
        self,
        live: LiveGame,
        prepare: Callable[[LiveGame], Prepared],
        commit: Callable[[str, int, Change], bool] | None = None,
    ) -> tuple[LiveGame, Prepared]:
        """Run ``prepare`` and commit its change under the game's lock (see the module doc);
        ``commit`` replaces ``storage.commit`` (the rating settlement's own transaction)."""
        async with live.lock:
            live = self._cache.get(live.id) or live
            if live.id in self.cluster.stale:  # another process changed it: read it first
                live = await self._refresh(live)
            store = commit or self.storage.commit
            for attempt in range(2):
                version = live.version

                def work(
                    game: LiveGame = live, expected: int = version
                ) -> tuple[Prepared, bool, bool]:
                    prep = prepare(game)
                    moment = self.now()
                    late = prep.kind in clocks.TIMED and clocks.due(game, moment)
                    if late:  # the flag fell first: that is the change
                        prep = game.prepare_timeout(moment)
                    clocks.on_change(game, prep, moment)
                    return prep, store(game.id, expected, prep.change), late

                prep, ok, late = await self.write(work)
                if ok:
                    break
                # Another process changed the game: reload it and check the request again.
                live = await self._reload(live)
                if attempt == 1:
                    raise ApiError(409, "conflict", "the game changed meanwhile: try again")
            if prep.kind == "move":
                live.apply_move(prep)
            elif prep.kind == "takeback":
                live.apply_rewind(prep)
                if live.ai_seat is not None and self.ai is not None:
                    # its kept tree and the positions its player remembers are of the line
                    # taken back: the next search starts afresh
                    self.ai.forget(live.id)
            else:
                live.apply_values(prep)
            held = self._cache.get(live.id)
            if held is not None and held is not live and held.version < live.version:
                self._cache[live.id] = live  # a copy read meanwhile is older than this one
            self._drop_stale_ai(live)
        ratings.after_change(self, live)  # a rated game that just ended: settle it
        if live.deadline is not None:
            self.clock_keeper.wake(live.deadline)
        if prep.kind == "timeout":
            self.broadcast_snapshot(live)
            if late:  # the request came after the flag fell
                raise ApiError(410, "game_over", "the time ran out")
        return live, prep

    async def move(
        self,
        game_id: str,
        seat: int | None,
        ply: int,
        text: str,
        ref: Any = None,
        sender: Connection | None = None,
    ) -> LiveGame:
        """Play a move for ``seat``; commit it, then broadcast it.  A copy behind ``ply``
        (another process's move not heard of yet) is read again first: the move is checked
        against the game as it is, not refused as ``stale_ply``."""
        live = await self.get(game_id)
        if live.ply < ply:
            live = await self._refresh(live)
        if seat is not None and seat == live.ai_seat:  # pragma: no cover - tokens never do
            seat = None
        offers_before = (live.draw_offer, live.undo_offer)
        with self._ai_room(live.id, live.ai_seat is not None):
            live, prep = await self._change(
                live, lambda g: _started_by(g, g.prepare_move(seat, ply, text))
            )
            self._after_move(live, prep, ref, sender, offers_before)
        await conditionals.after_move(self, live, prep)
        return live

    def _after_move(
        self,
        live: LiveGame,
        prep: Prepared,
        ref: Any,
        sender: Connection | None,
        offers_before: tuple,
    ) -> None:
        ply = live.ply
        message = {
            "type": "move",
            "ply": ply,
            "move": prep.notation,
            "last_move": live.move_view(ply - 1),
            "view": live.view(ply),
            "status": live.status,
            "result": live.current_result(),
            "clock": clocks.clock_view(live, self.now()),
        }
        conns = self.connections.get(live.id)
        if conns:
            text = dumps(message)
            for conn in conns:
                if conn is sender:
                    conn.send(dumps({**message, "ref": ref}))
                else:
                    conn.send(text)
            if offers_before != (None, None):
                self.snapshot_local(live)
        self.cluster.moved(live, message, offers_before != (None, None))
        self.maybe_start_ai(live)

    async def flag(self, game_id: str, version: int | None = None) -> bool:
        """Settle the flag fall of ``game_id`` if its deadline has passed (once: False when it
        has not, or when another process or request settled it first).  ``version``: the
        game's in the database (the clock keeper's); a copy in memory older than that is read
        again first (this process may have missed the change that set the deadline)."""
        try:
            live = await self.get(game_id)
            if version is not None and live.version < version:
                live = await self._reload(live)
            await self._change(live, lambda g: g.prepare_timeout(self.now()))
        except ApiError:
            return False
        return True

    async def takeback(self, game_id: str, seat: int | None) -> LiveGame:
        """Take back the last turn (games against the AI and same-screen games)."""
        live = await self.get(game_id)
        live, _ = await self._change(live, lambda g: g.prepare_takeback(seat))
        self.broadcast_snapshot(live)
        self.maybe_start_ai(live)
        return live

    async def offer(self, game_id: str, seat: int | None, kind: str, action: str) -> LiveGame:
        """A draw or undo offer, acceptance or refusal."""
        live = await self.get(game_id)
        live, _ = await self._change(live, lambda g: g.prepare_offer(seat, kind, action))
        self.broadcast_snapshot(live)
        return live

    async def resign(self, game_id: str, seat: int | None) -> LiveGame:
        """Resign for ``seat``."""
        live = await self.get(game_id)
        live, _ = await self._change(live, lambda g: g.prepare_resign(seat))
        self.broadcast_snapshot(live)
        return live

    async def abort_unstarted(self, game_id: str) -> bool:
        """Abort an active game that is past its ``expires`` before both seats decided
        (status ``aborted``, ``decided`` ``expired``); False when it had started or ended."""
        live = await self.get(game_id)
        if live.status != "active":
            return False
        live, prep = await self._change(live, _expiry)
        if prep.kind == "abort":
            self.broadcast_snapshot(live)
        return prep.kind == "abort"

    async def rematch(self, game_id: str, seat: int | None) -> tuple[str, dict[str, str]]:
        """The rematch (colours swapped) and a new token for ``seat``'s seat in it.

        One transaction each time: the first call inserts the new game, the caller's token
        and the old game's link to it together (checked against the old game's version);
        later calls add the caller's token to the rematch.
        """
        live = await self.get(game_id)
        if seat is None:
            raise ApiError(403, "not_your_seat", "this link does not hold a seat in this game")
        if live.status == "active":
            raise ApiError(409, "game_not_over", "a rematch needs a finished game")
        if seat == BOTH:
            new_seat, key = BOTH, "both"
        else:
            new_seat = 1 - seat
            key = str(new_seat)
        token = new_token()
        digest = hash_token(token)
        async with live.lock:
            live = self.current(live)
            if live.rematch_id is None:
                human = live.ai_seat if live.ai_seat is not None else 0  # the AI's former seat
                row = self._new_row(
                    live.game.name,
                    dict(live.game.options),
                    live.mode,
                    human,
                    live.ai_level,
                    [live.names[1], live.names[0]],
                    rematch_of=live.id,
                    users=[_account(live, 1), _account(live, 0)],
                )
                row.update(clocks.new_columns(live.clock))
                # a rated game's rematch is rated too (as on lichess), the seats' users swapped
                row["rated"] = live.rated and ratings.rated_users(row["users"]) is not None
                hashes = [(new_seat, digest)]
                change = Change(values={"rematch_id": row["id"]}, new_game=NewGame(row, hashes))
                with self._ai_room(str(row["id"]), _ai_moves_first(row)):
                    if await self.write(self.storage.commit, live.id, live.version, change):
                        live.apply_values(Prepared(change, "rematch"))
                        self._started(row, hashes)
                        self.broadcast_snapshot(live)
                        return row["id"], {key: token}
                live = await self._reload(live)  # another process made the rematch
                if live.rematch_id is None:  # pragma: no cover - a racing process failed
                    raise ApiError(409, "conflict", "the game changed meanwhile: try again")
        rematch = await self.get(live.rematch_id)
        await self.add_token(rematch, new_seat, digest)
        return rematch.id, {key: token}

    async def add_token(self, live: LiveGame, seat: int, digest: str) -> None:
        """Store one more token hash for a seat of ``live``, here and for the other
        processes (a token adds no version: their copies are marked to be read again)."""
        await self.write(self.storage.add_token, live.id, seat, digest)
        self.current(live).tokens.append((seat, digest))
        self.cluster.changed(live.id)

    # -- the AI ----------------------------------------------------------------------

    def ai_spec(self, level: str) -> str:
        """The player spec used for an AI level (settings may override it, e.g. in tests)."""
        return self.settings.ai_specs.get(level, level)

    @contextlib.contextmanager
    def _ai_room(self, game_id: str, needed: bool) -> Iterator[None]:
        """Refuse a change that would queue an AI search past the client's limit (429).

        A client (the request's address) may have ``settings.ai_queue_limit`` searches queued
        or running, counting the changes of its other games under way; a game has at most
        one (a newer position cancels the older search).  The server's own searches (resumed
        at start-up) are not counted.
        """
        client = current_client.get()
        if not needed or self.ai is None or client is None:
            yield
            return
        busy = sum(1 for g, job in self._jobs.items() if g != game_id and job.client == client)
        busy += sum(n for (c, g), n in self._reserved.items() if c == client and g != game_id)
        limit = self.settings.ai_queue_limit
        if busy >= limit:
            raise ApiError(
                429,
                "ai_busy",
                f"the AI is already thinking in {busy} of your games (at most {limit} at "
                "once): wait for one of its moves",
                headers={"Retry-After": str(AI_BUSY_RETRY)},
                retry_after=AI_BUSY_RETRY,
            )
        key = (client, game_id)
        self._reserved[key] = self._reserved.get(key, 0) + 1
        try:
            yield
        finally:
            self._reserved[key] -= 1
            if not self._reserved[key]:
                del self._reserved[key]

    def _drop_stale_ai(self, live: LiveGame) -> None:
        """Stop a search of an earlier position of the game (it is not wanted any more)."""
        job = self._jobs.get(live.id)
        if job is not None and job.version != live.version:
            del self._jobs[live.id]
            if job.task is not None:
                job.task.cancel()  # the worker stops the search and takes its next job
            self.broadcast(live.id, {"type": "ai", "thinking": False, "progress": None})
        if live.status != "active" and live.ai_seat is not None and self.ai is not None:
            self.ai.forget(live.id)  # its kept search tree

    def maybe_start_ai(self, live: LiveGame) -> None:
        """Start the AI's search when it is the AI's decision and none runs for this version."""
        self._drop_stale_ai(live)
        if (
            self.closing
            or live.ai_seat is None
            or live.status != "active"
            or live.state.to_move != live.ai_seat
        ):
            return
        if self.ai is None:  # no AI workers here: a process that has some takes the turn
            self.cluster.ai_due(live.id, live.version)
            return
        job = self._jobs.get(live.id)
        if (job is not None and job.version == live.version) or live.id in self._committing:
            return
        job = _AIJob(live.version, client=current_client.get())
        self._jobs[live.id] = job
        job.task = asyncio.create_task(self._run_ai(live, job))
        self._tasks.add(job.task)
        job.task.add_done_callback(self._tasks.discard)

    def ai_room(self) -> int:
        """How many more AI searches this process's workers could start now."""
        if self.ai is None or self.closing:
            return 0
        return self.settings.ai_workers - self.ai.pending()

    def ai_free(self) -> bool:
        """Whether one of this process's AI workers is free."""
        return self.ai_room() > 0

    async def _run_ai(self, live: LiveGame, job: _AIJob) -> None:
        assert self.ai is not None and live.ai_level is not None
        game_id = live.id
        # Several processes may see this turn: the one whose claim the database takes
        # searches it (cluster.py).
        wanted = lambda: self._jobs.get(game_id) is job  # noqa: E731
        if not await self.cluster.claim(game_id, job.version, wanted):
            if self._jobs.get(game_id) is job:
                del self._jobs[game_id]
            return
        if self._jobs.get(game_id) is not job or self.closing:
            return
        self.broadcast(
            game_id,
            {
                "type": "ai",
                "thinking": True,
                "progress": {"fraction": 0.0, "simulations": 0, "best": None},
            },
        )

        def progress(fraction: float, simulations: int, best: str | None) -> None:
            if self._jobs.get(game_id) is job:
                self.broadcast(
                    game_id,
                    {
                        "type": "ai",
                        "thinking": True,
                        "progress": {
                            "fraction": round(min(max(fraction, 0.0), 1.0), 3),
                            "simulations": simulations,
                            "best": best,
                        },
                    },
                )

        try:
            thought: Thought = await self.ai.think(
                f"{game_id}:{job.version}",
                live.state.to_text(),
                self.ai_spec(live.ai_level),
                secrets.randbits(30),
                progress,
                game=game_id,
                client=job.client,
                seconds=clocks.ai_seconds(live, self.now()),
                history=tuple(live.notations),
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("the AI failed in game %s", game_id)
            if self._jobs.get(game_id) is job:
                del self._jobs[game_id]
                if isinstance(exc, AIWorkerLost) and not job.retry:
                    # Its worker died (and was replaced): search once more.
                    self.maybe_start_ai(self._cache.get(game_id) or live)
                    again = self._jobs.get(game_id)
                    if again is not None:
                        again.retry = True
                        return
            self.broadcast(game_id, {"type": "ai", "thinking": False, "progress": None})
            return
        notation = thought.move
        log.debug(
            "AI move %s in game %s: %d simulations (%d kept from earlier moves), worker %d",
            notation,
            game_id,
            thought.simulations,
            thought.reused,
            thought.worker,
        )
        if self._jobs.get(game_id) is not job or self.closing:
            return  # taken back meanwhile: a newer job (or none) is in charge
        current = self._cache.get(game_id) or live
        if current.version != job.version:
            del self._jobs[game_id]
            self.broadcast(game_id, {"type": "ai", "thinking": False, "progress": None})
            self.maybe_start_ai(current)
            return
        del self._jobs[game_id]
        self.broadcast(game_id, {"type": "ai", "thinking": False, "progress": None})
        seat = current.ai_seat
        self._committing.add(game_id)  # no second search of this turn meanwhile
        refused = None
        try:
            current, prep = await self._change(
                current, lambda g: _ai_decision(g, seat, job.version, notation)
            )
        except ApiError as exc:
            refused = exc
        finally:
            self._committing.discard(game_id)
        if refused is not None:
            log.warning("the AI's move %r in game %s was refused: %s", notation, game_id, refused)
            self.maybe_start_ai(self._cache.get(game_id) or current)
            return
        self._after_move(current, prep, None, None, (None, None))
        self.cluster.released(game_id, current.version)

    async def resume_ai(self) -> int:
        """Start the AI in every unfinished game where it is its turn (at start-up)."""
        if self.ai is None:
            return 0
        ids = await to_thread.run_sync(self.storage.unfinished_ai_games)
        started = 0
        for game_id in ids:
            try:
                live = await self.get(game_id)
            except Exception:
                log.exception("cannot load game %s to resume its AI", game_id)
                continue
            before = game_id in self._jobs
            self.maybe_start_ai(live)
            started += (game_id in self._jobs) and not before
        return started

    async def close(self) -> None:
        """Stop the AI tasks, leave the other processes and close every WebSocket."""
        self.closing = True
        await self.clock_keeper.stop()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.cluster.stop()
        for conns in list(self.connections.values()):
            for conn in list(conns):
                conn.send(None)


def _ai_moves_first(row: dict[str, Any]) -> bool:
    """Whether the AI decides first in the new game ``row``."""
    if row["ai_seat"] is None:
        return False
    return bool(registry.from_spec(row["spec"]).initial_state().to_move == row["ai_seat"])


def _started_by(live: LiveGame, prep: Prepared) -> Prepared:
    """``prep`` (a move), clearing the game's expiry when it is the first decision of the
    second seat to decide: both seats have then played."""
    if live.mode == "online" and prep.seat in (0, 1):
        movers = set(live.movers)
        if prep.seat not in movers and 1 - prep.seat in movers:
            prep.change.values["expires"] = None
    return prep


def _expiry(live: LiveGame) -> Prepared:
    """Abort an unstarted game (the sweep found it past its ``expires``); a game where both
    seats decided has started: only its stale expiry is cleared."""
    if live.status != "active" or {0, 1} <= set(live.movers):
        return Prepared(Change(values={"expires": None}), "values")
    values = {
        "status": "aborted",
        "decided": "expired",
        "result": None,
        "draw_offer": None,
        "undo_offer": None,
        "expires": None,
    }
    return Prepared(Change(values=values), "abort")


def _ai_decision(live: LiveGame, seat: int | None, version: int, notation: str) -> Prepared:
    if live.version != version or live.status != "active" or live.state.to_move != seat:
        raise ApiError(409, "stale_ply", "the position changed while the AI was thinking")
    return live.prepare_decision(live.state.to_move, notation)


def _account(live: LiveGame, seat: int) -> tuple[str, str] | None:
    """The account ``(id, username)`` of a human seat of ``live`` (None: a guest)."""
    user = live.users[seat] if seat < len(live.users) else None
    if user is None or seat == live.ai_seat:
        return None
    return user, live.names[seat]
