"""Events between the server processes of one database: PostgreSQL ``LISTEN/NOTIFY``.

Several ``tablier serve`` processes on one PostgreSQL database behave as one site: what one
process broadcasts to its WebSockets, it also publishes here, and every other process hands
it to its own (``service.py`` decides what an event means).  A :class:`Broker` is chosen
from the database URL by :func:`make_broker`:

- **PostgreSQL** (:class:`PostgresBroker`): ``NOTIFY`` on a channel named after the
  database schema (``tablier``, or ``tablier_<schema>`` for another schema than
  ``public``), so that sites sharing a server never hear each other.  One connection of its
  own (psycopg 3, asynchronous, autocommit) does nothing but ``LISTEN``; it is checked every
  30 s and reconnected with backoff (0.1 s doubling up to 5 s) when lost, after which the
  subscribers' ``on_connect`` callbacks run (the service re-reads the games it holds, since
  events may have been missed meanwhile).  A second connection publishes: events queue in
  memory and go out in batches, one ``SELECT pg_notify(...)`` per batch, in order.  A
  payload must stay under 8000 bytes: events are JSON in ASCII, and a longer one is cut into
  numbered parts that the receivers put together again (the parts of one event are sent in
  one transaction, so nothing comes between them).
- **SQLite** (:class:`LocalBroker`): one process owns an SQLite database, so events only
  go round inside it — between the applications of one process on one file (tests run two
  applications as two processes would be), with the same interface.

Every subscriber gets every event, its own included: events carry their ``origin`` and the
service skips its own.  Delivery is at most once and in order per publisher; an event
published while PostgreSQL is unreachable waits in memory (up to :data:`MAX_QUEUED` events)
and goes out when the connection is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import itertools
import json
import logging
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

from sqlalchemy.engine import make_url

__all__ = ["MAX_PAYLOAD", "MAX_QUEUED", "Broker", "LocalBroker", "PostgresBroker", "make_broker"]

log = logging.getLogger("tablier.server.broker")

Event = dict[str, Any]
Callback = Callable[[Event], None]

#: The longest ``NOTIFY`` payload sent (PostgreSQL refuses 8000 bytes and more).
MAX_PAYLOAD = 7900

#: Events kept while the publishing connection is down; older ones are dropped past it.
MAX_QUEUED = 100_000

#: Seconds a partly received event waits for its other parts.
PART_TIMEOUT = 30.0


def encode(event: Event) -> str:
    """An event as compact ASCII JSON."""
    return json.dumps(event, ensure_ascii=True, separators=(",", ":"))


class Broker(ABC):
    """Publish and subscribe to the events of one database's processes.

    ``publish`` never blocks (it queues the event); the callbacks given to ``subscribe`` run
    on the event loop of the broker's :meth:`start`, one event at a time, in order.
    """

    def __init__(self) -> None:
        self._subscribers: list[Callback] = []
        self._on_connect: list[Callable[[], None]] = []
        self._parts: dict[str, tuple[float, list[str | None]]] = {}
        self._ids = itertools.count()
        self._prefix = secrets.token_hex(4)

    @property
    def name(self) -> str:
        """What carries the events (for logs and docs): ``local`` or ``postgresql``."""
        return "local"

    def subscribe(self, callback: Callback) -> None:
        """Call ``callback(event)`` for every event published (this process's included)."""
        self._subscribers.append(callback)

    def on_connect(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` each time the broker (re)connects: events may have been lost
        before, so what depends on them is to be checked again."""
        self._on_connect.append(callback)

    @abstractmethod
    def publish(self, event: Event) -> None:
        """Send ``event`` (a JSON object) to every subscriber of every process."""

    async def start(self) -> None:  # noqa: B027 - optional: the local broker needs none
        """Start receiving (and publishing)."""

    async def stop(self) -> None:  # noqa: B027 - optional: the local broker needs none
        """Send what is queued (briefly) and stop."""

    # -- shared by the implementations -----------------------------------------------

    def _payloads(self, event: Event) -> list[str]:
        """The payloads of an event: its JSON, or numbered parts of it when too long."""
        text = encode(event)
        if len(text) <= MAX_PAYLOAD:
            return [text]
        key = f"{self._prefix}{next(self._ids):x}"
        size = MAX_PAYLOAD - 40
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        return [f"~{key} {i} {len(chunks)} {chunk}" for i, chunk in enumerate(chunks)]

    def _receive(self, payload: str) -> None:
        """A payload arrived: deliver its event once complete."""
        if payload.startswith("~"):
            text = self._join(payload)
            if text is None:
                return
        else:
            text = payload
        try:
            event = json.loads(text)
        except ValueError:
            log.warning("broker: dropped an unreadable event")
            return
        if isinstance(event, dict):
            self._deliver(event)

    def _join(self, payload: str) -> str | None:
        try:
            head, index, count, chunk = payload[1:].split(" ", 3)
            i, n = int(index), int(count)
        except ValueError:
            log.warning("broker: dropped an unreadable part of an event")
            return None
        moment = time.monotonic()
        for key in [k for k, (t, _) in self._parts.items() if moment - t > PART_TIMEOUT]:
            del self._parts[key]
        _, parts = self._parts.setdefault(head, (moment, [None] * n))
        if not 0 <= i < len(parts):
            return None
        parts[i] = chunk
        if any(p is None for p in parts):
            return None
        del self._parts[head]
        return "".join(p for p in parts if p is not None)

    def _deliver(self, event: Event) -> None:
        for callback in list(self._subscribers):
            try:
                callback(event)
            except Exception:
                log.exception("broker: a subscriber failed on a %r event", event.get("kind"))

    def _connected(self) -> None:
        for callback in list(self._on_connect):
            try:
                callback()
            except Exception:
                log.exception("broker: a reconnection callback failed")


class LocalBroker(Broker):
    """Events inside one process: between the brokers of the same ``key`` (the database)."""

    _hubs: ClassVar[dict[str, set[LocalBroker]]] = {}

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._hubs.setdefault(self.key, set()).add(self)
        self._connected()

    async def stop(self) -> None:
        hub = self._hubs.get(self.key)
        if hub is not None:
            hub.discard(self)
            if not hub:
                del self._hubs[self.key]

    def publish(self, event: Event) -> None:
        payloads = self._payloads(event)  # as on PostgreSQL: JSON, parts when long
        for broker in list(self._hubs.get(self.key, ())):
            loop = broker._loop
            if loop is None or loop.is_closed():
                continue
            for payload in payloads:
                with contextlib.suppress(RuntimeError):  # its loop stopped meanwhile
                    loop.call_soon_threadsafe(broker._receive, payload)


class PostgresBroker(Broker):
    """``LISTEN/NOTIFY`` on the database of ``url`` (see the module docstring)."""

    #: Seconds the listening connection may stay silent before it is checked.
    CHECK_EVERY = 30.0
    #: The longest wait between two reconnection attempts.
    BACKOFF_MAX = 5.0

    def __init__(self, url: str) -> None:
        super().__init__()
        self.dsn = psycopg_dsn(url)
        self.channel: str | None = None
        self.connected = False
        self._outbox: asyncio.Queue[str] | None = None
        self._tasks: list[asyncio.Task] = []
        self._ready: asyncio.Event | None = None
        self._dropped = 0
        self._sending = False

    @property
    def name(self) -> str:
        return "postgresql"

    async def start(self, timeout: float = 10.0) -> None:
        """Start listening and publishing; wait (up to ``timeout`` s) for the first LISTEN."""
        self._outbox = asyncio.Queue()
        self._ready = asyncio.Event()
        self._tasks = [
            asyncio.create_task(self._listen(), name="tablier-broker-listen"),
            asyncio.create_task(self._publish_loop(), name="tablier-broker-publish"),
        ]
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            log.warning("broker: not listening yet after %.0f s; still trying", timeout)

    async def stop(self, timeout: float = 2.0) -> None:
        outbox = self._outbox
        if outbox is not None and self._tasks:
            deadline = time.monotonic() + timeout
            while (outbox.qsize() or self._sending) and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []

    def publish(self, event: Event) -> None:
        outbox = self._outbox
        if outbox is None:
            return
        for payload in self._payloads(event):
            if outbox.qsize() >= MAX_QUEUED:
                with contextlib.suppress(asyncio.QueueEmpty):
                    outbox.get_nowait()
                self._dropped += 1
                if self._dropped % 1000 == 1:
                    log.warning("broker: PostgreSQL unreachable, %d events dropped", self._dropped)
            outbox.put_nowait(payload)

    async def _connect(self) -> Any:
        import psycopg

        conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        cur = await conn.execute("SELECT current_schema()")
        row = await cur.fetchone()
        self.channel = channel_name(row[0] if row else None)
        return conn

    async def _listen(self) -> None:
        from psycopg import sql

        delay = 0.1
        while True:
            conn = None
            try:
                conn = await self._connect()
                channel = self.channel or "tablier"
                await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                delay = 0.1
                self.connected = True
                assert self._ready is not None
                self._ready.set()
                self._connected()
                while True:
                    async for notify in conn.notifies(timeout=self.CHECK_EVERY):
                        self._receive(notify.payload)
                    await conn.execute("SELECT 1")  # silent for a while: still there?
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning(
                    "broker: the listening connection failed (%s: %s); again in %.1f s",
                    type(exc).__name__,
                    exc,
                    delay,
                )
            finally:
                self.connected = False
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.BACKOFF_MAX)

    async def _publish_loop(self) -> None:
        assert self._outbox is not None
        outbox = self._outbox
        conn = None
        delay = 0.1
        try:
            while True:
                batch = [await outbox.get()]
                self._sending = True
                while not outbox.empty() and len(batch) < 200:
                    batch.append(outbox.get_nowait())
                while True:
                    try:
                        if conn is None or conn.closed:
                            conn = await self._connect()
                        await conn.execute(
                            notify_query(len(batch)),
                            [x for payload in batch for x in (self.channel, payload)],
                        )
                        delay = 0.1
                        break
                    except asyncio.CancelledError:
                        raise
                    except Exception as exc:
                        log.warning(
                            "broker: publishing failed (%s: %s); again in %.1f s",
                            type(exc).__name__,
                            exc,
                            delay,
                        )
                        if conn is not None:
                            with contextlib.suppress(Exception):
                                await conn.close()
                        conn = None
                        await asyncio.sleep(delay)
                        delay = min(delay * 2, self.BACKOFF_MAX)
                self._sending = False
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()


@functools.lru_cache(maxsize=256)
def notify_query(count: int) -> str:
    """One statement (so one transaction) sending ``count`` notifications in order, each
    payload a parameter of its own.

    Not ``unnest(%s::text[])``: psycopg escapes a text array's elements in Python, character
    by character for JSON's quotes, which took about 0.2 ms of the event loop per event of
    1 KB (0.05 ms for the whole statement this way).

    >>> notify_query(2)
    'SELECT pg_notify(%s, %s), pg_notify(%s, %s)'
    """
    return "SELECT " + ", ".join(["pg_notify(%s, %s)"] * count)


def channel_name(schema: str | None) -> str:
    """The ``NOTIFY`` channel of a database schema (at most 63 characters).

    >>> channel_name("public"), channel_name("site_b")
    ('tablier', 'tablier_site_b')
    """
    if not schema or schema == "public":
        return "tablier"
    name = f"tablier_{schema}"
    if len(name) > 63:
        name = "tablier_" + hashlib.sha256(schema.encode()).hexdigest()[:32]
    return name


def psycopg_dsn(url: str) -> str:
    """A libpq URL for psycopg from an SQLAlchemy URL (its query options kept).

    >>> psycopg_dsn("postgresql+psycopg://u:p@h:5/db?options=-csearch_path%3Ds")
    'postgresql://u:p@h:5/db?options=-csearch_path%3Ds'
    """
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def make_broker(url: str) -> Broker:
    """The broker for the database ``url``: PostgreSQL's, else the in-process one."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        return PostgresBroker(url)
    return LocalBroker(parsed.render_as_string(hide_password=False))
