"""Several server processes on one database behave as one site (docs/web.md, "Several
processes").

- the broker: PostgreSQL ``LISTEN/NOTIFY`` (long events in parts, reconnection) and the
  in-process one;
- two applications on one database (SQLite and PostgreSQL, as two processes would be): a
  move, an offer, presence and a new token reach the other's WebSockets and copies; a read
  naming the ply the client has seen (``?ply=N``) and a move sent to a process that has not
  heard the last move yet see that move (the broker held back); an AI
  turn seen by both is searched once; a claim left by a dead process is taken over;
- two real ``tablier serve`` processes on PostgreSQL: a move made through one reaches a
  WebSocket of the other within 100 ms (median of several), a flag fall is settled once,
  and the AI turns that both processes resume at start-up are each searched once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from tablier.server.app import create_app
from tablier.server.broker import LocalBroker, PostgresBroker, make_broker
from tablier.server.storage import Change, Storage, make_engine, now

from .conftest import bearer, make_settings, new_game
from .servers import ServerProcess, start_all
from .test_storage import _row


def until(ws, predicate: Callable[[dict], bool], limit: int = 100) -> dict:
    """The next message of ``ws`` that satisfies ``predicate`` (others skipped)."""
    for _ in range(limit):
        message = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("no such message")


def hello(ws, token: str | None = None) -> dict:
    ws.send_json({"type": "hello", "token": token})
    return until(ws, lambda m: m["type"] == "snapshot")["game"]


def legal(client, gid: str) -> list[str]:
    return [m["notation"] for m in client.get(f"/api/games/{gid}/legal").json()["moves"]]


# -- the broker ----------------------------------------------------------------------------


async def _exchange(first, second, events: list[dict]) -> list[dict]:
    """Publish ``events`` from ``first``; what ``second`` receives (its own included)."""
    got: list[dict] = []
    done = asyncio.Event()

    def on_event(event: dict) -> None:
        got.append(event)
        if len(got) == len(events):
            done.set()

    second.subscribe(on_event)
    await first.start()
    await second.start()
    try:
        for event in events:
            first.publish(event)
        await asyncio.wait_for(done.wait(), 10)
    finally:
        await first.stop()
        await second.stop()
    return got


def test_the_local_broker_delivers_in_order_and_in_parts():
    events = [{"n": i} for i in range(50)] + [{"long": "é" * 20_000}, {"n": "last"}]
    got = asyncio.run(_exchange(LocalBroker("k"), LocalBroker("k"), events))
    assert got == events
    assert isinstance(make_broker("sqlite:///x.db"), LocalBroker)
    assert isinstance(make_broker("postgresql+psycopg://u@h/db"), PostgresBroker)


def test_postgres_notify_delivers_in_order_and_in_parts(postgres_url):
    events = [{"n": i} for i in range(200)] + [{"long": "é" * 30_000, "n": -1}, {"n": "last"}]
    got = asyncio.run(_exchange(PostgresBroker(postgres_url), PostgresBroker(postgres_url), events))
    assert got == events


def test_postgres_listener_reconnects(postgres_url):
    """The listening connection is killed: the broker reconnects, says so, and hears again."""

    async def run() -> tuple[int, list[dict]]:
        listener, talker = PostgresBroker(postgres_url), PostgresBroker(postgres_url)
        listener.BACKOFF_MAX = 0.2
        connects: list[float] = []
        got: list[dict] = []
        listener.on_connect(lambda: connects.append(time.monotonic()))
        listener.subscribe(got.append)
        await listener.start()
        await talker.start()
        try:
            talker.publish({"n": 1})
            await _wait(lambda: len(got) == 1)
            engine = make_engine(postgres_url)
            with engine.begin() as conn:
                killed = conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
                    )
                ).all()
            engine.dispose()
            assert killed
            await _wait(lambda: len(connects) == 2)
            talker.publish({"n": 2})
            await _wait(lambda: len(got) == 2)
        finally:
            await listener.stop()
            await talker.stop()
        return len(connects), got

    connects, got = asyncio.run(run())
    assert connects == 2 and got == [{"n": 1}, {"n": 2}]


async def _wait(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


# -- two applications on one database ---------------------------------------------------


@contextlib.contextmanager
def two_apps(url: str, **kw) -> Iterator[tuple[TestClient, TestClient]]:
    settings = make_settings(url, **kw)
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        yield a, b


def test_moves_offers_and_presence_reach_the_other_process(database_url):
    with two_apps(database_url, ai_workers=0) as (a, b):
        created = new_game(a, "xobo", "online")
        gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
        with a.websocket_connect(f"/ws/games/{gid}") as wa:
            assert hello(wa, t0)["seats"][1]["online"] is False
            with b.websocket_connect(f"/ws/games/{gid}") as wb:
                # b learns of a's connection, and a of b's: presence is their union.
                first = hello(wb, t1)
                both = [True, True]
                if [s["online"] for s in first["seats"]] != both:
                    until(wb, lambda m: m["type"] == "presence" and m["seats"] == both)
                until(wa, lambda m: m["type"] == "presence" and m["seats"] == both)
                # A message for some seats only (a chat room) reaches those, in both.
                service = a.app.state.service
                a.portal.call(service.broadcast, gid, {"type": "note", "n": 1}, [0])
                a.portal.call(service.broadcast, gid, {"type": "note", "n": 2}, [1])
                assert until(wb, lambda m: m["type"] == "note")["n"] == 2
                assert until(wa, lambda m: m["type"] == "note")["n"] == 1
                # A move made through a reaches b's socket; b's copy is read again.
                move = legal(a, gid)[0]
                r = a.post(
                    f"/api/games/{gid}/moves", json={"ply": 0, "move": move}, headers=bearer(t0)
                )
                assert r.status_code == 200, r.text
                got = until(wb, lambda m: m["type"] == "move")
                assert got["ply"] == 1 and got["move"] == r.json()["moves"][-1]
                assert b.get(f"/api/games/{gid}").json()["moves"] == r.json()["moves"]
                # A move sent on b's socket reaches a's; an offer made on b, a's snapshot.
                reply = legal(b, gid)[0]
                wb.send_json({"type": "move", "ply": 1, "move": reply, "ref": 7})
                assert until(wb, lambda m: m["type"] == "move")["ref"] == 7
                got = until(wa, lambda m: m["type"] == "move" and m["ply"] == 2)
                assert got["move"] == reply and "ref" not in got
                r = b.post(
                    f"/api/games/{gid}/offers",
                    json={"kind": "draw", "action": "offer"},
                    headers=bearer(t1),
                )
                assert r.status_code == 200, r.text
                snap = until(wa, lambda m: m["type"] == "snapshot")["game"]
                assert snap["offers"]["draw"] == 1 and snap["you"] == 0 and snap["ply"] == 2
                assert a.get(f"/api/games/{gid}").json()["offers"]["draw"] == 1
            # b's socket closed: a hears that seat 1 left.
            until(wa, lambda m: m["type"] == "presence" and m["seats"] == [True, False])


def test_a_token_minted_by_one_process_works_on_the_other(database_url):
    with two_apps(database_url, ai_workers=0) as (a, b):
        created = new_game(a, "xobo", "online")
        gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
        assert a.post(f"/api/games/{gid}/resign", headers=bearer(t0)).status_code == 200
        first = a.post(f"/api/games/{gid}/rematch", headers=bearer(t0)).json()
        rid = first["id"]
        assert b.get(f"/api/games/{rid}").status_code == 200  # b holds the rematch now
        second = a.post(f"/api/games/{gid}/rematch", headers=bearer(t1)).json()
        assert second["id"] == rid
        ((seat, token),) = second["tokens"].items()
        # b had the game before a added the token; b's copy is read again, the token works.
        for _ in range(200):
            r = b.get(f"/api/games/{rid}", headers=bearer(token))
            if r.status_code == 200:
                break
            time.sleep(0.01)
        assert r.status_code == 200 and r.json()["you"] == int(seat)


@contextlib.contextmanager
def deaf(client: TestClient) -> Iterator[list[str]]:
    """Hold back what the broker of ``client``'s process receives (the few milliseconds
    between another process's commit and its event, made as long as the block); the
    payloads held are delivered at the end, in order."""
    broker = client.app.state.service.cluster.broker
    held: list[str] = []
    broker._receive = held.append  # an instance attribute hides the method
    try:
        yield held
    finally:
        del broker._receive

        async def deliver() -> None:
            for payload in held:
                broker._receive(payload)

        client.portal.call(deliver)


def test_a_read_naming_the_ply_seen_is_not_older_than_it(database_url):
    """A client that saw move N (its WebSocket, another process) and asks for the legal
    moves of position N on a process that has not heard of it yet gets position N."""
    with two_apps(database_url, ai_workers=0) as (a, b):
        created = new_game(a, "xobo", "online")
        gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
        assert b.get(f"/api/games/{gid}").json()["ply"] == 0  # b holds the game at ply 0
        with deaf(b) as held:
            r = a.post(
                f"/api/games/{gid}/moves",
                json={"ply": 0, "move": legal(a, gid)[0]},
                headers=bearer(t0),
            )
            assert r.status_code == 200, r.text
            expected = a.get(f"/api/games/{gid}/legal").json()
            assert expected["ply"] == 1
            # Without the ply, b answers its copy: the previous position (the race).
            assert b.get(f"/api/games/{gid}/legal").json()["ply"] == 0
            # With it, b reads the game again first.
            got = b.get(f"/api/games/{gid}/legal?ply=1", headers=bearer(t1))
            assert got.status_code == 200, got.text
            assert got.json() == expected
            # the event of a's commit reaches b's broker when PostgreSQL sends it, which on a
            # loaded machine can be after the reads above: wait for it, still held back
            for _ in range(500):
                if held:
                    break
                time.sleep(0.01)
            assert held, "the broker was not held back: the test shows nothing"
        with deaf(b):
            r = a.post(
                f"/api/games/{gid}/moves",
                json={"ply": 1, "move": expected["moves"][0]["notation"]},
                headers=bearer(t1),
            )
            assert r.status_code == 200, r.text
            assert b.get(f"/api/games/{gid}").json()["ply"] == 1
            snap = b.get(f"/api/games/{gid}?ply=2", headers=bearer(t0))
            assert snap.status_code == 200, snap.text
            assert snap.json()["moves"] == r.json()["moves"] and snap.json()["you"] == 0
        with deaf(b):
            r = a.post(
                f"/api/games/{gid}/moves",
                json={"ply": 2, "move": legal(a, gid)[0]},
                headers=bearer(t0),
            )
            assert r.status_code == 200, r.text
            page = b.get(f"/api/games/{gid}/history?from=0&ply=3").json()
            assert page["total"] == 3 and len(page["views"]) == 4
        # A ply the game has not reached: one read, then 409 ply_ahead with the game's ply.
        for path in ("legal?ply=9", "?ply=9", "history?ply=9"):
            url = f"/api/games/{gid}/{path}" if path[0] != "?" else f"/api/games/{gid}{path}"
            r = b.get(url)
            assert r.status_code == 409, (path, r.text)
            assert r.json()["error"]["code"] == "ply_ahead"
            assert r.json()["error"]["ply"] == 3
        assert b.get(f"/api/games/{gid}/legal?ply=-1").status_code == 422


def test_a_move_sent_to_a_process_that_has_not_heard_the_last_one_is_accepted(database_url):
    with two_apps(database_url, ai_workers=0) as (a, b):
        created = new_game(a, "xobo", "online")
        gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
        assert b.get(f"/api/games/{gid}").json()["ply"] == 0
        with b.websocket_connect(f"/ws/games/{gid}") as wb:
            hello(wb, t1)
            with deaf(b):
                r = a.post(
                    f"/api/games/{gid}/moves",
                    json={"ply": 0, "move": legal(a, gid)[0]},
                    headers=bearer(t0),
                )
                assert r.status_code == 200, r.text
                reply = a.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
                # b's copy is at ply 0: the move for ply 1 makes it read the game first.
                r = b.post(
                    f"/api/games/{gid}/moves", json={"ply": 1, "move": reply}, headers=bearer(t1)
                )
                assert r.status_code == 200, r.text
                assert r.json()["ply"] == 2
                third = legal(b, gid)[0]
            assert a.get(f"/api/games/{gid}?ply=2").json()["moves"] == r.json()["moves"]
            # The same on b's WebSocket, for a move a made meanwhile.
            with deaf(b):
                r = a.post(
                    f"/api/games/{gid}/moves",
                    json={"ply": 2, "move": third},
                    headers=bearer(t0),
                )
                assert r.status_code == 200, r.text
                fourth = a.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
                wb.send_json({"type": "move", "ply": 3, "move": fourth, "ref": 1})
                got = until(wb, lambda m: m["type"] in ("move", "error") and m.get("ref") == 1)
                assert got["type"] == "move" and got["ply"] == 4, got
            # A move for a ply already played is still refused, as before.
            r = b.post(
                f"/api/games/{gid}/moves", json={"ply": 1, "move": reply}, headers=bearer(t1)
            )
            assert r.status_code == 409 and r.json()["error"]["code"] == "stale_ply"
            assert r.json()["error"]["ply"] == 4


def test_an_ai_turn_seen_by_two_processes_is_searched_once(database_url):
    with two_apps(database_url, ai_specs={"easy": "mcts:iterations=none,seconds=0.3"}) as (a, b):
        asks_a, asks_b = count_searches(a, b)
        created = new_game(a, "xobo", "ai", seat=0, ai_level="easy")
        gid, token = created["id"], created["tokens"]["0"]
        move = legal(b, gid)[0]
        r = b.post(f"/api/games/{gid}/moves", json={"ply": 0, "move": move}, headers=bearer(token))
        assert r.status_code == 200, r.text
        # a sees the AI's turn too (as after a restart, or an event): both try; one claims.
        service_a = a.app.state.service

        async def start_on_a() -> None:
            service_a.maybe_start_ai(await service_a.get(gid))

        a.portal.call(start_on_a)
        deadline = time.monotonic() + 20
        while a.get(f"/api/games/{gid}").json()["ply"] < 2:
            assert time.monotonic() < deadline, "the AI did not move"
            time.sleep(0.05)
        time.sleep(0.5)
        assert asks_a + asks_b == [f"{gid}:1"]
        assert b.get(f"/api/games/{gid}").json()["ply"] == 2


def count_searches(*clients) -> list[list[str]]:
    """Record the AI searches each application asks its pool for."""
    asks: list[list[str]] = []
    for client in clients:
        pool = client.app.state.service.ai
        think = pool.think
        mine: list[str] = []

        async def counted(job, *args, _think=think, _mine=mine, **kwargs):
            _mine.append(job)
            return await _think(job, *args, **kwargs)

        pool.think = counted
        asks.append(mine)
    return asks


def test_a_busy_process_hands_an_ai_turn_to_a_free_one(sqlite_url):
    specs = {"easy": "mcts:iterations=none,seconds=30", "medium": "random"}
    with two_apps(sqlite_url, ai_specs=specs) as (a, b):
        asks_a, asks_b = count_searches(a, b)
        # a's only worker searches for a while; a game then created on a, where the AI
        # moves first, is searched by b, whose worker is free.
        busy = new_game(a, "xobo", "ai", seat=1, ai_level="easy")
        deadline = time.monotonic() + 20
        while not asks_a:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        handed = new_game(a, "xobo", "ai", seat=1, ai_level="medium")
        while b.get(f"/api/games/{handed['id']}").json()["ply"] < 1:
            assert time.monotonic() < deadline, "the AI's turn was not taken"
            time.sleep(0.02)
        assert asks_a == [f"{busy['id']}:0"] and asks_b == [f"{handed['id']}:0"]
        assert a.get(f"/api/games/{handed['id']}").json()["ply"] == 1


def test_a_process_without_ai_workers_leaves_ai_turns_to_one_with(sqlite_url):
    with two_apps(sqlite_url) as (a, b):
        created = new_game(a, "xobo", "ai", seat=0, ai_level="easy")
        gid, token = created["id"], created["tokens"]["0"]
        b.app.state.service.ai = None  # b has no AI workers (--ai-workers 0)
        move = legal(b, gid)[0]
        r = b.post(f"/api/games/{gid}/moves", json={"ply": 0, "move": move}, headers=bearer(token))
        assert r.status_code == 200, r.text
        deadline = time.monotonic() + 10
        while b.get(f"/api/games/{gid}").json()["ply"] < 2:
            assert time.monotonic() < deadline, "no process took the AI's turn"
            time.sleep(0.02)


def test_a_stopping_process_hands_its_ai_turns_over(database_url):
    slow = make_settings(database_url, ai_specs={"easy": "mcts:iterations=none,seconds=30"})
    with TestClient(create_app(make_settings(database_url))) as b:
        with TestClient(create_app(slow)) as a:
            gid = new_game(a, "xobo", "ai", seat=1, ai_level="easy")["id"]
            deadline = time.monotonic() + 20
            while not b.get(f"/api/games/{gid}").json()["ai"]["thinking"]:
                assert time.monotonic() < deadline, "a did not start searching"
                time.sleep(0.02)
        # a stopped in the middle of its search: b takes the turn at once (not after the
        # claim timeout of 30 s, nor at its next look for stale claims, 10 s) and plays it.
        deadline = time.monotonic() + 5
        while b.get(f"/api/games/{gid}").json()["ply"] < 1:
            assert time.monotonic() < deadline, "the turn was not handed over"
            time.sleep(0.02)


def test_a_claim_left_by_a_dead_process_is_taken_over(database_url):
    with two_apps(database_url, ai_claim_timeout=1.0) as (a, b):
        service = a.app.state.service
        storage = service.storage
        created = new_game(a, "xobo", "ai", seat=0, ai_level="easy")
        gid, token = created["id"], created["tokens"]["0"]
        # Another process claimed the AI's next turn, and died before playing it.
        other = b.app.state.service
        ai, other_ai = service.ai, other.ai
        service.ai = other.ai = None  # neither takes AI turns for a moment
        move = legal(a, gid)[0]
        r = a.post(f"/api/games/{gid}/moves", json={"ply": 0, "move": move}, headers=bearer(token))
        assert r.status_code == 200, r.text
        version = a.portal.call(service.get, gid).version
        assert storage.claim_ai(gid, version, "dead", now() - timedelta(seconds=60))
        service.ai, other.ai = ai, other_ai
        assert a.get(f"/api/games/{gid}").json()["ply"] == 1
        deadline = time.monotonic() + 20
        while a.get(f"/api/games/{gid}").json()["ply"] < 2:
            assert time.monotonic() < deadline, "the stale claim was not taken over"
            time.sleep(0.1)


def test_claims_admit_one_owner_until_stale(database_url):
    storage = Storage(make_engine(database_url))
    try:
        from tablier.server.migrate import upgrade

        upgrade(storage.engine)
        storage.create_game({**_row("c1"), "version": 3}, [])
        past, future = now() - timedelta(seconds=30), now() + timedelta(seconds=30)
        assert storage.claim_ai("c1", 3, "p1", past)
        assert not storage.claim_ai("c1", 3, "p2", past)  # held, renewed lately
        assert storage.claim_ai("c1", 3, "p1", past)  # its owner again (a retry)
        assert not storage.claim_ai("c1", 4, "p2", past)  # not the game's version
        assert not storage.claim_ai("c1", 2, "p2", future)  # an older one: played already
        assert storage.stale_ai_claims(future, 10) == [("c1", 3)]
        assert storage.claim_ai("c1", 3, "p2", future)  # p1's claim went stale
        assert storage.abandon_ai_claims("p2") == [("c1", 3)]
        assert storage.claim_ai("c1", 3, "p3", past)  # abandoned: taken at once
        assert storage.tidy_ai_claims() == 0  # the current version's claim stays
        assert storage.commit("c1", 3, Change(values={"ply": 0}))
        assert not storage.claim_ai("c1", 3, "p3", past)  # the game moved on
        assert storage.tidy_ai_claims() == 1
        assert storage.stale_ai_claims(future, 10) == []
    finally:
        storage.dispose()


# -- two real server processes on PostgreSQL --------------------------------------------


class Socket:
    """A WebSocket client of a game that timestamps every message as it arrives."""

    def __init__(self, server: ServerProcess, gid: str, token: str | None = None) -> None:
        from websockets.sync.client import connect

        self._stack = contextlib.ExitStack()
        url = f"ws://127.0.0.1:{server.port}/ws/games/{gid}"
        self.ws = self._stack.enter_context(connect(url, open_timeout=10))
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.messages: list[tuple[float, dict]] = []
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            for raw in self.ws:
                moment = time.perf_counter()
                with self.changed:
                    self.messages.append((moment, json.loads(raw)))
                    self.changed.notify_all()

    def wait(self, predicate: Callable[[dict], bool], timeout: float = 10.0) -> float:
        """When the first message satisfying ``predicate`` arrived (perf_counter)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for moment, message in self.messages:
                    if predicate(message):
                        return moment
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no such message in {[m for _, m in self.messages]}")
                self.changed.wait(left)

    def count(self, predicate: Callable[[dict], bool]) -> int:
        with self.changed:
            return sum(1 for _, m in self.messages if predicate(m))

    def close(self) -> None:
        self._stack.close()


@pytest.fixture
def pair(postgres_url, tmp_path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two ``tablier serve`` processes on one PostgreSQL schema."""
    servers = [
        ServerProcess(name, postgres_url, tmp_path, TABLIER_CLOCK_SWEEP="0.2")
        for name in ("a", "b")
    ]
    start_all(servers)
    try:
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()


def test_a_move_through_one_process_reaches_the_other_within_100_ms(pair):
    a, b = pair
    created = a.api("POST", "/api/games", json={"game": "xobo", "mode": "local"}).json()
    gid, token = created["id"], created["tokens"]["both"]
    watcher = Socket(b, gid)
    try:
        watcher.wait(lambda m: m["type"] == "snapshot")
        delays = []
        for ply in range(12):
            move = a.api("GET", f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
            r = a.api("POST", f"/api/games/{gid}/moves", token, json={"ply": ply, "move": move})
            returned = time.perf_counter()
            assert r.status_code == 200, r.text
            arrived = watcher.wait(lambda m, p=ply: m["type"] == "move" and m["ply"] == p + 1)
            delays.append(max(0.0, arrived - returned))
            if r.json()["status"] != "active":
                break
        # b serves the game as it is now (its copy was read again on the event).
        assert b.api("GET", f"/api/games/{gid}").json()["moves"] == r.json()["moves"]
    finally:
        watcher.close()
    assert len(delays) >= 5
    print(
        f"move a -> socket on b: median {statistics.median(delays) * 1000:.1f} ms, "
        f"max {max(delays) * 1000:.1f} ms over {len(delays)} moves"
    )
    assert statistics.median(delays) < 0.1, delays
    assert max(delays) < 0.5, delays


def test_a_flag_fall_is_settled_once(pair, postgres_url):
    a, b = pair
    body = {"game": "xobo", "mode": "online", "clock": {"kind": "live", "base": 1, "increment": 0}}
    created = a.api("POST", "/api/games", json=body).json()
    gid, t0 = created["id"], created["tokens"]["0"]
    sockets = [Socket(a, gid), Socket(b, gid)]
    try:
        # The first turn is not timed; seat 1's clock runs from seat 0's move, on a.
        move = a.api("GET", f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
        r = a.api("POST", f"/api/games/{gid}/moves", t0, json={"ply": 0, "move": move})
        assert r.status_code == 200, r.text

        def over(m: dict) -> bool:
            return m["type"] == "snapshot" and m["game"]["status"] == "finished"

        for sock in sockets:
            sock.wait(over, timeout=15)
        time.sleep(1.0)  # both processes' clock keepers have looked again meanwhile
        for sock in sockets:
            assert sock.count(over) == 1
        for server in (a, b):
            snap = server.api("GET", f"/api/games/{gid}").json()
            assert snap["status"] == "finished" and snap["result"]["reason"] == "timeout"
    finally:
        for sock in sockets:
            sock.close()
    engine = make_engine(postgres_url)
    try:
        with engine.connect() as conn:
            version, decided = conn.execute(
                text("SELECT version, decided FROM games WHERE id = :id"), {"id": gid}
            ).one()
    finally:
        engine.dispose()
    assert decided == "timeout" and version == 2  # one move, one flag fall


def test_ai_turns_resumed_by_two_processes_are_searched_once(postgres_url, tmp_path):
    # A first process starts three games where the AI moves first and stops while its AI
    # still thinks (a search of a minute): its claims are handed over as it stops.
    slow = {"TABLIER_AI_SPECS": json.dumps({"easy": "mcts:iterations=none,seconds=60"})}
    first = ServerProcess("first", postgres_url, tmp_path, **slow)
    start_all([first])
    try:
        games = []
        for _ in range(3):
            body = {"game": "xobo", "mode": "ai", "seat": 1, "ai_level": "easy"}
            r = first.api("POST", "/api/games", json=body)
            assert r.status_code == 201, r.text
            games.append(r.json()["id"])
        for gid in games:
            for _ in range(100):
                if first.api("GET", f"/api/games/{gid}").json()["ai"]["thinking"]:
                    break
                time.sleep(0.05)
    finally:
        first.stop()
    assert sorted(first.searches()) == sorted(f"{gid}:0" for gid in games)
    # Two processes start together: both resume the same AI turns; each is searched once.
    pair = [ServerProcess(name, postgres_url, tmp_path) for name in ("a", "b")]
    start_all(pair)
    try:
        for gid in games:
            deadline = time.monotonic() + 20
            while pair[1].api("GET", f"/api/games/{gid}").json()["ply"] < 1:
                assert time.monotonic() < deadline, "the AI's turn was not resumed"
                time.sleep(0.05)
        time.sleep(1.0)
        searches = pair[0].searches() + pair[1].searches()
        logs = "\n".join(server.log_text()[-4000:] for server in pair)
        assert sorted(searches) == sorted(f"{gid}:0" for gid in games), (searches, logs)
        for gid in games:
            assert pair[0].api("GET", f"/api/games/{gid}").json()["ply"] == 1
    finally:
        for server in pair:
            server.stop()
    engine = make_engine(postgres_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT game_id, count(*) FROM moves GROUP BY game_id")).all()
    finally:
        engine.dispose()
    assert sorted(rows) == sorted((gid, 1) for gid in games)
