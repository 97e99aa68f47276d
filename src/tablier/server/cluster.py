"""This server process among the others of its database: what it tells them and hears.

Several ``tablier serve`` processes on one PostgreSQL database behave as one site.  The
database decides every change (``GameService._change``: a version-checked commit); this
module carries the rest through the :mod:`~.broker`:

- **Broadcasts.**  What the service sends its own WebSockets — a move, a snapshot, any
  message (chat, the AI's progress, clocks) — it also publishes as an event ``{"kind",
  "game", "version", "origin", ...}``; the other processes hand it to their WebSockets of
  that game.  A move's or a message's text travels in the event (long ones in parts, see
  the broker); a snapshot depends on the seat and on the receiver's presence, so each
  receiver builds its own from its copy of the game.
- **Fresh copies.**  An event newer than a receiver's copy of the game marks the copy
  stale; the next read of the game (a REST request, a snapshot, a change) first re-reads it
  (``GameService._refresh``: the row, and only the moves that are new are replayed).  Events
  of one game are handled in order; a snapshot waits for the re-read.  When the broker
  reconnects (events may have been lost), every game held is checked against the database.
- **Presence.**  Each process publishes how many connections it holds per seat of a game
  (when one comes or goes, and all of them every :data:`HEARTBEAT` seconds); presence is
  the union over the processes.  A process's counts are forgotten when it says goodbye, or
  when it has not been heard for ``3 * HEARTBEAT`` seconds (it died).
- **The AI, once.**  A process searches an AI turn only after claiming ``(game, version)``
  in ``ai_claims`` (the primary key admits one claim).  A process whose AI workers are all
  busy first offers the turn (``ai_due``) and waits :data:`HANDOFF` seconds: a process with
  a free worker claims it; if none does, it claims it itself and queues it.  Claims are
  renewed while their search waits or runs; a claim not renewed for ``ai_claim_timeout``
  seconds (its process died) is taken over by the next process with a free worker that
  looks (every third of that time); a process that stops makes its claims stale at once and
  offers them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections import deque
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from .broker import Broker, Event
from .storage import now
from .tables import BOTH

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Collection

    from .live import LiveGame
    from .service import GameService

__all__ = ["HANDOFF", "HEARTBEAT", "Cluster", "process_name"]

log = logging.getLogger("tablier.server.cluster")

#: Seconds between two announcements of a process's presence counts.
HEARTBEAT = 10.0

#: Seconds a process whose AI workers are busy waits for another to take an AI turn.
HANDOFF = 0.2

#: Presence counts of a seat: (connections of seat 0, of seat 1, spectators).
Counts = tuple[int, int, int]


def process_name() -> str:
    """A name for this process, unique among the site's: ``host:pid:random``."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


class Cluster:
    """The service's side of the broker (see the module docstring)."""

    def __init__(self, service: GameService, broker: Broker, origin: str) -> None:
        self.service = service
        self.broker = broker
        self.origin = origin[:64]
        #: game -> origin -> (counts, when heard)
        self.presence: dict[str, dict[str, tuple[Counts, float]]] = {}
        #: game -> the version whose AI search runs in another process
        self.thinking: dict[str, int] = {}
        #: games held here that another process changed since they were read
        self.stale: set[str] = set()
        #: origin -> when last heard
        self.peers: dict[str, float] = {}
        self._queues: dict[str, deque[Event]] = {}
        self._draining: set[str] = set()
        self._tasks: set[asyncio.Task] = set()
        self._writes: set[asyncio.Future] = set()
        self._loop_task: asyncio.Task | None = None
        self._started = False

    # -- life ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Subscribe, connect, say hello, and start the periodic work."""
        self.broker.subscribe(self._on_event)
        self.broker.on_connect(self._on_connect)
        self._started = True  # what it publishes on connecting goes out
        await self.broker.start()
        self._loop_task = asyncio.create_task(self._maintain(), name="tablier-cluster")

    async def stop(self) -> None:
        """Say goodbye, hand over the AI turns claimed here, and disconnect."""
        if not self._started or self._loop_task is None:
            return
        task, self._loop_task = self._loop_task, None
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        for task in list(self._tasks):
            task.cancel()
        if self._writes:  # a claim or renewal under way must not land after the hand-over
            await asyncio.wait(set(self._writes), timeout=10)
        self.publish({"kind": "bye"})
        service = self.service
        try:
            abandoned = await service.write(service.storage.abandon_ai_claims, self.origin)
        except Exception:
            log.exception("could not hand over this process's AI claims")
            abandoned = []
        for game_id, version in abandoned:
            self.publish({"kind": "ai_due", "game": game_id, "version": version})
        self._started = False
        await self.broker.stop()

    async def _write(self, fn: Any, *args: Any) -> Any:
        """``service.write(fn, *args)``, finished even when the caller is cancelled (a
        thread's write cannot be stopped): :meth:`stop` waits for those under way."""
        task = asyncio.ensure_future(self.service.write(fn, *args))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)
        return await asyncio.shield(task)

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` as a task kept until it ends."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- telling the others --------------------------------------------------------------

    def publish(self, event: Event) -> None:
        """Publish ``event`` with this process as its origin."""
        if not self._started:
            return
        event["origin"] = self.origin
        self.broker.publish(event)

    def moved(self, live: LiveGame, message: dict, snapshot: bool) -> None:
        """A move was committed here (``snapshot``: offers were cleared with it)."""
        self.publish(
            {
                "kind": "move",
                "game": live.id,
                "version": live.version,
                "message": message,
                "snapshot": snapshot,
            }
        )

    def snapshot(self, live: LiveGame) -> None:
        """A change other than a move was committed here."""
        self.publish({"kind": "snapshot", "game": live.id, "version": live.version})

    def message(
        self, game_id: str, message: dict, seats: Collection[int | None] | None = None
    ) -> None:
        """A message for the game's connections (``seats``: only those seats')."""
        live = self.service._cache.get(game_id)
        self.publish(
            {
                "kind": "message",
                "game": game_id,
                "version": None if live is None else live.version,
                "message": message,
                "seats": None if seats is None else list(seats),
            }
        )

    def changed(self, game_id: str) -> None:
        """The game's row or tokens changed without a broadcast: the others re-read it."""
        self.publish({"kind": "refresh", "game": game_id})

    def counts_changed(self, game_id: str, counts: Counts, ask: bool = False) -> None:
        """This process's connections to a game changed (``ask``: the others answer with
        theirs, for a game this process had no connection to)."""
        self.publish({"kind": "presence", "game": game_id, "counts": list(counts), "ask": ask})

    def ai_due(self, game_id: str, version: int) -> None:
        """Offer an AI turn to the processes with a free worker."""
        self.publish({"kind": "ai_due", "game": game_id, "version": version})

    def _heartbeat(self) -> None:
        service = self.service
        games = {g: list(service.local_counts(g)) for g in service.connections}
        self.publish({"kind": "alive", "games": games})

    # -- what the others say -------------------------------------------------------------

    def remote_counts(self, game_id: str) -> list[Counts]:
        """The presence counts of the other processes for a game (the live ones)."""
        entries = self.presence.get(game_id)
        if not entries:
            return []
        limit = time.monotonic() - 3 * HEARTBEAT
        return [counts for counts, heard in entries.values() if heard >= limit]

    def has_peers(self) -> bool:
        """Whether another process was heard from lately."""
        limit = time.monotonic() - 3 * HEARTBEAT
        return any(heard >= limit for heard in self.peers.values())

    def _on_event(self, event: Event) -> None:
        origin = event.get("origin")
        if not isinstance(origin, str) or origin == self.origin:
            return
        self.peers[origin] = time.monotonic()
        kind = event.get("kind")
        if kind == "hello":
            self._heartbeat()
        elif kind == "alive":
            self._alive(origin, event.get("games") or {})
        elif kind == "bye":
            self.peers.pop(origin, None)
            self._forget(origin)
        elif kind == "presence":
            self._presence(origin, event)
        elif kind == "ai_due":
            self._offered(event)
        elif kind in ("move", "snapshot", "message", "refresh"):
            game = event.get("game")
            if isinstance(game, str):
                self._mark_stale(game, event.get("version"), kind == "refresh")
                self._state_event(game, event)

    def _on_connect(self) -> None:
        """(Re)connected: ask for the others' presence and check the games held here."""
        self.publish({"kind": "hello"})
        self._heartbeat()
        if self.service._cache:
            self.spawn(self._resync())

    async def _resync(self) -> None:
        service = self.service
        ids = list(service._cache)
        try:
            versions = await service.write(service.storage.versions, ids)
        except Exception:
            log.exception("could not check the games held after reconnecting")
            self.stale.update(ids)
            return
        for game_id in ids:
            live = service._cache.get(game_id)
            if live is not None and versions.get(game_id, live.version) != live.version:
                self.stale.add(game_id)
                if service.connections.get(game_id):
                    self._state_event(game_id, {"kind": "snapshot", "game": game_id})

    def _mark_stale(self, game_id: str, version: Any, force: bool) -> None:
        service = self.service
        live = service._cache.get(game_id)
        if live is None:
            if game_id in service._loading:  # its read may have begun before the change
                self.stale.add(game_id)
            return
        if force or not isinstance(version, int) or version > live.version:
            self.stale.add(game_id)
            job = service._jobs.get(game_id)
            if job is not None and job.version < (version if isinstance(version, int) else 0):
                self.spawn(self._reread(game_id))  # stop a search of an older position

    async def _reread(self, game_id: str) -> None:
        with contextlib.suppress(Exception):
            await self.service.get(game_id)

    # -- the events of one game, in order ------------------------------------------------

    def _state_event(self, game_id: str, event: Event) -> None:
        queue = self._queues.setdefault(game_id, deque())
        queue.append(event)
        if game_id in self._draining:
            return
        while queue:
            head = queue[0]
            if self._waits(head):
                self._draining.add(game_id)
                self.spawn(self._drain(game_id))
                return
            queue.popleft()
            self._handle_now(head)
        del self._queues[game_id]

    def _waits(self, event: Event) -> bool:
        """Whether handling ``event`` needs the game re-read first (a snapshot)."""
        if not self.service.connections.get(event["game"]):
            return False
        return event["kind"] == "snapshot" or (
            event["kind"] == "move" and bool(event.get("snapshot"))
        )

    async def _drain(self, game_id: str) -> None:
        try:
            queue = self._queues.get(game_id)
            while queue:
                event = queue.popleft()
                try:
                    self._handle_now(event)
                    if self._waits(event):
                        await self._send_snapshot(game_id)
                except Exception:
                    log.exception("handling a %r event of game %s", event.get("kind"), game_id)
        finally:
            self._draining.discard(game_id)
            if not self._queues.get(game_id):
                self._queues.pop(game_id, None)

    def _handle_now(self, event: Event) -> None:
        """What needs no re-read: a move's or a message's text, the AI's state."""
        service = self.service
        game_id = event["game"]
        kind = event["kind"]
        message = event.get("message")
        if kind == "message" and isinstance(message, dict) and message.get("type") == "ai":
            version = event.get("version")
            if message.get("thinking") and isinstance(version, int):
                self.thinking[game_id] = version
            else:
                self.thinking.pop(game_id, None)
        if kind == "move":
            self.thinking.pop(game_id, None)
        if kind in ("move", "message") and isinstance(message, dict):
            seats = event.get("seats")
            service.send_local(game_id, message, None if seats is None else set(seats))

    async def _send_snapshot(self, game_id: str) -> None:
        service = self.service
        live = await service.get(game_id)  # re-read: it is stale
        service.snapshot_local(live)

    # -- presence --------------------------------------------------------------------------

    def _presence(self, origin: str, event: Event) -> None:
        game_id = event.get("game")
        counts = _counts(event.get("counts"))
        if not isinstance(game_id, str) or counts is None:
            return
        changed = self._set_counts(game_id, origin, counts)
        service = self.service
        if event.get("ask") and service.connections.get(game_id):
            self.counts_changed(game_id, service.local_counts(game_id))
        if changed:
            self._announce(game_id)

    def _alive(self, origin: str, games: Any) -> None:
        if not isinstance(games, dict):
            return
        moment = time.monotonic()
        changed = []
        for game_id, raw in games.items():
            counts = _counts(raw)
            if (
                isinstance(game_id, str)
                and counts is not None
                and self._set_counts(game_id, origin, counts)
            ):
                changed.append(game_id)
        for game_id, entries in list(self.presence.items()):
            entry = entries.get(origin)
            if entry is None:
                continue
            if game_id in games:
                entries[origin] = (entry[0], moment)
            else:  # not listed any more: it has no connection to the game
                del entries[origin]
                if not entries:
                    del self.presence[game_id]
                changed.append(game_id)
        for game_id in changed:
            self._announce(game_id)

    def _set_counts(self, game_id: str, origin: str, counts: Counts) -> bool:
        entries = self.presence.setdefault(game_id, {})
        before = entries.get(origin)
        if counts == (0, 0, 0):
            entries.pop(origin, None)
            if not entries:
                del self.presence[game_id]
        else:
            entries[origin] = (counts, time.monotonic())
        if before is None:
            return counts != (0, 0, 0)
        return before[0] != counts

    def _forget(self, origin: str) -> None:
        for game_id, entries in list(self.presence.items()):
            if entries.pop(origin, None) is not None:
                if not entries:
                    del self.presence[game_id]
                self._announce(game_id)

    def _expire(self) -> None:
        limit = time.monotonic() - 3 * HEARTBEAT
        for game_id, entries in list(self.presence.items()):
            old = [o for o, (_, heard) in entries.items() if heard < limit]
            for origin in old:
                del entries[origin]
            if not entries:
                del self.presence[game_id]
            if old:
                self._announce(game_id)
        for origin in [o for o, heard in self.peers.items() if heard < limit]:
            del self.peers[origin]

    def _announce(self, game_id: str) -> None:
        """Tell this process's connections of a game who is there now."""
        service = self.service
        live = service._cache.get(game_id)
        if live is not None and service.connections.get(game_id):
            service.presence_local(live)

    # -- the AI ----------------------------------------------------------------------------

    def _offered(self, event: Event) -> None:
        game_id, version = event.get("game"), event.get("version")
        service = self.service
        if not isinstance(game_id, str) or not isinstance(version, int):
            return
        if service.closing or not service.ai_free() or game_id in service._jobs:
            return
        self.spawn(self._take(game_id, version))

    async def _take(self, game_id: str, version: int) -> None:
        """Start the AI's turn at ``version`` of a game here (its claim decides)."""
        service = self.service
        try:
            live = await service.get(game_id)
        except Exception:
            return
        if live.version == version and service.ai_free():
            service.maybe_start_ai(live)

    async def claim(self, game_id: str, version: int, is_current: Any) -> bool:
        """Claim the AI's turn at ``version`` (see the module docstring); ``is_current()``
        tells whether this process still wants it after the hand-off wait."""
        service = self.service
        if not service.ai_free() and self.has_peers():
            self.ai_due(game_id, version)
            await asyncio.sleep(HANDOFF)
            if not is_current():
                return False
        stale = now() - timedelta(seconds=service.settings.ai_claim_timeout)
        try:
            claimed = bool(
                await self._write(service.storage.claim_ai, game_id, version, self.origin, stale)
            )
        except Exception:  # the database decides the move anyway (version check)
            log.exception("could not claim the AI's turn in game %s", game_id)
            return True
        if not claimed:
            log.debug("the AI's turn %s:%d is another process's", game_id, version)
        return claimed

    def released(self, game_id: str, version: int) -> None:
        """The AI's turn before ``version`` is played: drop its claims (in the background)."""
        service = self.service
        self.spawn(self._write(service.storage.release_ai_claims, game_id, version))

    # -- periodic work -----------------------------------------------------------------------

    async def _maintain(self) -> None:
        service = self.service
        every = max(0.5, min(HEARTBEAT, service.settings.ai_claim_timeout / 3))
        last_beat = time.monotonic()
        rounds = 0
        while True:
            await asyncio.sleep(every)
            rounds += 1
            try:
                moment = time.monotonic()
                if moment - last_beat >= HEARTBEAT:
                    last_beat = moment
                    self._heartbeat()
                    self._expire()
                await self._renew_and_retake(tidy=rounds % 20 == 0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the cluster's periodic work failed")

    async def _renew_and_retake(self, tidy: bool) -> None:
        service = self.service
        storage = service.storage
        if service._jobs:
            await self._write(storage.renew_ai_claims, self.origin, list(service._jobs))
        if tidy:
            await self._write(storage.tidy_ai_claims)
        free = service.ai_room()
        if free <= 0 or service.closing:
            return
        stale = now() - timedelta(seconds=service.settings.ai_claim_timeout)
        for game_id, version in await self._write(storage.stale_ai_claims, stale, free):
            if game_id not in service._jobs:
                log.info("taking over the AI's turn in game %s (its process is gone)", game_id)
                await self._take(game_id, version)


def _counts(raw: Any) -> Counts | None:
    if (
        isinstance(raw, list)
        and len(raw) == 3
        and all(isinstance(n, int) and 0 <= n < 1_000_000 for n in raw)
    ):
        return raw[0], raw[1], raw[2]
    return None


def seat_counts(seats: list[int | None]) -> Counts:
    """Presence counts of the seats of some connections (``BOTH`` counts for both)."""
    first = sum(1 for s in seats if s in (0, BOTH))
    second = sum(1 for s in seats if s in (1, BOTH))
    return first, second, sum(1 for s in seats if s is None)
