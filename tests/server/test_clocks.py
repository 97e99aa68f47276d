"""Clocks: time controls on creation, the time of each turn, flag falls (once, with nobody
connected, across processes and restarts), correspondence, the record's clock times.

The service's ``now`` is replaced by a :class:`FakeClock`, so no test sleeps for the clock:
time moves when the test says so.  The flag-fall keeper still runs on real time, woken at
most every ``clock_sweep`` seconds (0.02 here).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from tablier.core.record import Record
from tablier.server import clocks
from tablier.server.app import create_app
from tablier.server.storage import Storage, make_engine
from tablier.server.tables import GameRow

from .conftest import bearer, make_settings

LIVE = {"kind": "live", "base": 60, "increment": 2}


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.t = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += timedelta(seconds=seconds)


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


def start(url: str, fake: FakeClock, **kw) -> TestClient:
    """An application on ``url`` whose service runs on ``fake`` time."""
    kw.setdefault("clock_sweep", 0.02)
    client = TestClient(create_app(make_settings(url, **kw)))
    client.__enter__()
    client.app.state.service.now = fake
    return client


@pytest.fixture
def app(sqlite_url, fake) -> Iterator[TestClient]:
    client = start(sqlite_url, fake)
    yield client
    client.__exit__(None, None, None)


def create(client: TestClient, game: str = "xobo", clock=LIVE, **kw) -> dict:
    r = client.post("/api/games", json={"game": game, "mode": "online", "clock": clock, **kw})
    assert r.status_code == 201, r.text
    return r.json()


def play(client: TestClient, created: dict, seat: int, move: str | None = None) -> dict:
    """Play ``move`` (default: the first legal decision) for ``seat``; return the snapshot."""
    gid = created["id"]
    snap = client.get(f"/api/games/{gid}").json()
    if move is None:
        move = client.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
    r = client.post(
        f"/api/games/{gid}/moves",
        json={"ply": snap["ply"], "move": move},
        headers=bearer(created["tokens"][str(seat)]),
    )
    assert r.status_code == 200, r.text
    return r.json()


def storage_of(client: TestClient) -> Storage:
    return client.app.state.service.storage


def wait_finished(client: TestClient, gid: str, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        snap = client.get(f"/api/games/{gid}").json()
        if snap["status"] == "finished":
            return snap
        assert time.monotonic() < deadline, f"the flag never fell: {snap['clock']}"
        time.sleep(0.02)


# -- creating ------------------------------------------------------------------------------


def test_a_new_game_has_its_clock_and_none_runs_before_the_first_turn_ends(app):
    created = create(app)
    clock = created["game"]["clock"]
    assert clock["control"] == LIVE
    assert clock["left"] == [60_000, 60_000]
    assert clock["running"] is None and clock["deadline"] is None
    assert create(app, clock=None)["game"]["clock"] is None


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ({"kind": "live", "base": 0, "increment": 0}, "bad_clock"),
        ({"kind": "live", "base": -1, "increment": 0}, "invalid_request"),
        ({"kind": "live", "base": 10_801, "increment": 0}, "invalid_request"),
        ({"kind": "live", "base": 60, "increment": 181}, "invalid_request"),
        ({"kind": "live", "base": "60", "increment": 0}, "invalid_request"),
        ({"kind": "live", "base": 60.5, "increment": 0}, "invalid_request"),
        ({"kind": "live", "base": 60, "days": 2}, "invalid_request"),
        ({"kind": "correspondence", "days": 0}, "invalid_request"),
        ({"kind": "correspondence", "days": 15}, "invalid_request"),
        ({"kind": "blitz", "base": 60}, "invalid_request"),
        ("5+3", "invalid_request"),
    ],
)
def test_a_bad_time_control_is_refused_with_its_code(app, spec, code):
    r = app.post("/api/games", json={"game": "xobo", "clock": spec})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == code


def test_the_service_checks_the_clocks_it_is_given():
    """Challenges create games through GameService.create: the same checks apply."""
    for bad in ({"kind": "live", "base": 0, "increment": 0}, {"kind": "x"}, [], {"kind": "live"}):
        with pytest.raises(Exception) as info:
            clocks.new_columns(bad)
        assert info.value.code == "bad_clock"
    assert (
        clocks.new_columns({"kind": "correspondence", "days": 3})["clock_left"]
        == [3 * clocks.DAY_MS] * 2
    )


# -- the time of a turn -------------------------------------------------------------------


def test_each_turn_takes_its_time_and_adds_the_increment(app, fake):
    created = create(app)
    gid = created["id"]
    fake.advance(30)  # the first turn is not timed
    snap = play(app, created, 0)
    clock = snap["clock"]
    assert clock["left"] == [60_000, 60_000] and clock["running"] == 1
    deadline = fake.t + timedelta(seconds=60)
    assert clock["deadline_ms"] == int(deadline.timestamp() * 1000)
    assert clock["now_ms"] == int(fake.t.timestamp() * 1000)
    fake.advance(5)
    snap = play(app, created, 1)
    assert snap["clock"]["left"] == [60_000, 57_000]  # 60 - 5 + 2
    assert snap["clock"]["running"] == 0
    fake.advance(3.5)
    assert app.get(f"/api/games/{gid}").json()["clock"]["left"] == [56_500, 57_000]
    snap = play(app, created, 0)
    assert snap["clock"]["left"] == [58_500, 57_000]
    assert storage_of(app).move_times(gid) == [(60_000, 0), (57_000, 5_000), (58_500, 3_500)]


def test_a_move_message_carries_the_clock(app, fake):
    created = create(app)
    gid = created["id"]
    play(app, created, 0)
    fake.advance(4)
    with app.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "hello", "token": created["tokens"]["1"]})
        assert ws.receive_json()["type"] == "snapshot"
        move = app.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
        ws.send_json({"type": "move", "ply": 1, "move": move, "ref": 1})
        for _ in range(10):
            message = ws.receive_json()
            if message["type"] == "move":
                break
        assert message["clock"]["left"] == [60_000, 58_000]
        assert message["clock"]["running"] == 0


def test_a_turn_of_several_decisions_runs_one_clock(app, fake):
    """Voldétour: a turn is a block, its place and "end"; the clock switches once."""
    created = create(app, "voldetour")
    gid = created["id"]
    for move in ("B122", "B122@i3:2x2x1", "end"):
        play(app, created, 0, move)
    steps = [("B111", 2), ("B111@g4:1x1x1", 3)]
    deadline = app.get(f"/api/games/{gid}").json()["clock"]["deadline"]
    for move, seconds in steps:
        fake.advance(seconds)
        clock = play(app, created, 1, move)["clock"]
        assert clock["running"] == 1, "the same player's turn goes on"
        assert clock["deadline"] == deadline, "the deadline stays while the turn goes on"
    fake.advance(1)
    clock = play(app, created, 1, "end")["clock"]
    assert clock["running"] == 0
    assert clock["left"] == [60_000, 60_000 - 6_000 + 2_000], "one increment for the turn"
    times = storage_of(app).move_times(gid)[3:]
    assert times == [(58_000, 2_000), (55_000, 3_000), (56_000, 1_000)]


def test_correspondence_gives_each_turn_its_days(app, fake):
    created = create(app, clock={"kind": "correspondence", "days": 3})
    gid = created["id"]
    day = 86_400_000
    play(app, created, 0)
    fake.advance(2 * 86_400)
    snap = play(app, created, 1)
    assert snap["clock"]["left"] == [3 * day, 3 * day]  # what is left is not carried over
    fake.advance(86_400 + 0.25)
    assert app.get(f"/api/games/{gid}").json()["clock"]["left"] == [2 * day - 250, 3 * day]
    fake.advance(2 * 86_400)
    snap = wait_finished(app, gid)
    assert snap["result"]["reason"] == "timeout" and snap["result"]["winner"] == 1


# -- flag falls ----------------------------------------------------------------------------


def test_the_flag_falls_with_nobody_connected(app, fake):
    created = create(app)
    gid = created["id"]
    play(app, created, 0)
    fake.advance(59.9)
    time.sleep(0.2)  # several sweeps: not yet
    assert app.get(f"/api/games/{gid}").json()["status"] == "active"
    fake.advance(0.2)
    snap = wait_finished(app, gid)
    assert snap["result"]["winner"] == 0
    assert snap["result"]["reason"] == "timeout"
    assert snap["clock"]["left"] == [60_000, 0] and snap["clock"]["running"] is None
    assert snap["clock"]["deadline"] is None
    assert app.app.state.service.clock_keeper.settled == 1


def test_a_move_after_the_flag_fell_is_refused_and_the_timeout_kept(sqlite_url, fake):
    client = start(sqlite_url, fake, clock_sweep=60)  # the keeper looks only on a wake-up
    try:
        created = create(client)
        gid = created["id"]
        play(client, created, 0)
        move = client.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
        fake.advance(61)
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.send_json({"type": "hello", "token": None})
            message = ws.receive_json()
            assert message["type"] == "snapshot"
            # The keeper, woken by the first move, may look after the clock was advanced
            # (a loaded machine) and settle the game first: then the spectator already
            # sees it finished; otherwise the refused move settles it and the spectator is told.
            settled_first = message["game"]["status"] == "finished"
            r = client.post(
                f"/api/games/{gid}/moves",
                json={"ply": 1, "move": move},
                headers=bearer(created["tokens"]["1"]),
            )
            assert r.status_code == 410 and r.json()["error"]["code"] == "game_over"
            for _ in range(0 if settled_first else 10):  # the spectator is told
                message = ws.receive_json()
                if message["type"] == "snapshot":
                    break
            assert message["game"]["status"] == "finished"
            assert message["game"]["result"]["reason"] == "timeout"
        snap = client.get(f"/api/games/{gid}").json()
        assert snap["ply"] == 1 and snap["result"]["winner"] == 0
    finally:
        client.__exit__(None, None, None)


def test_the_record_keeps_the_clock_times(app, fake):
    created = create(app)
    gid = created["id"]
    play(app, created, 0)
    fake.advance(12.34)
    play(app, created, 1)
    fake.advance(61)
    wait_finished(app, gid)
    text = app.get(f"/api/games/{gid}/record").text
    assert '[TimeControl "60+2"]' in text
    assert '[Reason "timeout"]' in text
    assert "{[%clk 0:01:00]}" in text and "{[%clk 0:00:49.6]}" in text
    record = Record.from_text(text)
    assert [d.comment for d in record.moves] == ["[%clk 0:01:00]", "[%clk 0:00:49.6]"]
    assert record.tags["TimeControl"] == "60+2"
    assert record.result == "0-1"


def test_the_flag_falls_once_with_two_processes(database_url, fake):
    """Two services on one database, both keepers awake: one commit settles the game."""
    a = start(database_url, fake)
    b = start(database_url, fake)
    try:
        created = create(a)
        gid = created["id"]
        play(a, created, 0)
        assert b.get(f"/api/games/{gid}").json()["ply"] == 1  # b holds the game in memory
        version = _version(a, gid)
        fake.advance(61)
        # whichever keeper is first settles it; the other process's memory may lag (each
        # process tells its own browsers): the database says
        deadline = time.monotonic() + 10
        while _row(a, gid)["status"] != "finished":
            assert time.monotonic() < deadline, "the flag never fell"
            time.sleep(0.02)
        time.sleep(0.2)  # more sweeps: nothing more happens
        keepers = [c.app.state.service.clock_keeper for c in (a, b)]
        assert sum(k.settled for k in keepers) == 1
        assert _version(a, gid) == version + 1
        # and the services' own attempts, at once, settle nothing more
        for client in (a, b):
            assert not client.portal.call(client.app.state.service.flag, gid)
    finally:
        a.__exit__(None, None, None)
        b.__exit__(None, None, None)


def test_two_flag_attempts_at_once_commit_once(database_url, fake):
    a = start(database_url, fake, clock_sweep=60)
    b = start(database_url, fake, clock_sweep=60)
    try:
        created = create(a)
        gid = created["id"]
        play(a, created, 0)
        b.get(f"/api/games/{gid}")
        version = _version(a, gid)
        fake.advance(61)
        # each application runs its own event loop: both attempts go at once, from threads
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(lambda c: c.portal.call(c.app.state.service.flag, gid), [a, b]))
        assert sorted(results) == [False, True]
        assert _version(a, gid) == version + 1
    finally:
        a.__exit__(None, None, None)
        b.__exit__(None, None, None)


def _row(client: TestClient, gid: str) -> dict:
    data = storage_of(client).load(gid)
    assert data is not None
    return data[0]


def _version(client: TestClient, gid: str) -> int:
    return int(_row(client, gid)["version"])


def test_a_restart_settles_the_flags_that_fell_meanwhile(database_url, fake):
    client = start(database_url, fake)
    created = create(client)
    gid = created["id"]
    play(client, created, 0)
    version = _version(client, gid)
    client.__exit__(None, None, None)
    # the server is down while the clock runs out
    engine = make_engine(database_url)
    with engine.begin() as conn:
        past = datetime.now(UTC) - timedelta(minutes=5)
        conn.execute(
            update(GameRow.__table__)
            .where(GameRow.__table__.c.id == gid)
            .values(turn_since=past - timedelta(seconds=60), deadline=past)
        )
    engine.dispose()
    for _ in range(2):  # restarted twice: settled by the first, left alone by the second
        client = TestClient(create_app(make_settings(database_url, clock_sweep=0.02)))
        with client:
            snap = wait_finished(client, gid)
            assert snap["result"]["reason"] == "timeout" and snap["result"]["winner"] == 0
            time.sleep(0.1)
            assert _version(client, gid) == version + 1
    assert snap["clock"]["left"] == [60_000, 0]


def test_resigning_stops_the_clock(app, fake):
    created = create(app)
    gid = created["id"]
    play(app, created, 0)
    fake.advance(10)
    r = app.post(f"/api/games/{gid}/resign", headers=bearer(created["tokens"]["1"]))
    assert r.status_code == 200
    clock = r.json()["clock"]
    assert clock["left"] == [60_000, 50_000] and clock["running"] is None
    fake.advance(600)
    time.sleep(0.1)
    assert app.get(f"/api/games/{gid}").json()["result"]["reason"] == "resignation"


# -- the computer's time -------------------------------------------------------------------


def test_the_ai_shares_out_its_time():
    def game(left: int, increment: int = 0, kind: str = "live") -> SimpleNamespace:
        control = (
            {"kind": kind, "base": 60, "increment": increment}
            if kind == "live"
            else {"kind": kind, "days": 1}
        )
        return SimpleNamespace(
            clock=control,
            clock_left=[left, left],
            turn_since=None,
            deadline=None,
            status="active",
            ai_seat=1,
            state=SimpleNamespace(to_move=1),
        )

    moment = datetime(2026, 1, 1, tzinfo=UTC)
    assert clocks.ai_seconds(game(50_000), moment) == pytest.approx(2.0)  # 50 s / 25
    assert clocks.ai_seconds(game(50_000, 5), moment) == pytest.approx(2.0 + 4.0)
    assert clocks.ai_seconds(game(1_000, 5), moment) == pytest.approx(0.5)  # half what is left
    assert clocks.ai_seconds(game(10), moment) == pytest.approx(0.05)
    assert clocks.ai_seconds(game(50_000, kind="correspondence"), moment) is None


def test_the_ai_plays_on_the_clock(sqlite_url, fake):
    client = start(sqlite_url, fake)
    try:
        r = client.post("/api/games", json={"game": "xobo", "mode": "ai", "seat": 0, "clock": LIVE})
        assert r.status_code == 201
        created = r.json()
        gid = created["id"]
        play(client, created, 0)
        deadline = time.monotonic() + 20
        while client.get(f"/api/games/{gid}").json()["ply"] < 2:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        snap = client.get(f"/api/games/{gid}").json()
        assert snap["clock"]["running"] == 0
        assert snap["clock"]["left"][1] == 62_000  # no fake time passed: the increment
        assert storage_of(client).move_times(gid)[1] == (62_000, 0)
    finally:
        client.__exit__(None, None, None)


def test_the_clock_s_share_caps_a_search_in_the_workers():
    """A search of a minute's budget given 0.3 s by the clock stops in about that time;
    the kept player of the game gets its own budget back on the next search."""
    from tablier import games
    from tablier.server.ai import AIPool

    volo = games.get("volo").initial_state().to_text()
    spec = "mcts:iterations=none,seconds=60"

    async def run() -> tuple[float, bool]:
        pool = AIPool(1, 0.0)
        try:
            capped = await pool.think("a", volo, spec, 1, game="g", seconds=0.3)
            task = asyncio.create_task(pool.think("b", volo, spec, 1, game="g"))
            await asyncio.sleep(3)
            running = not task.done()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return capped.seconds, running
        finally:
            pool.shutdown()

    seconds, uncapped_still_running = asyncio.run(run())
    assert seconds < 2.5, f"the search took {seconds:.2f} s of its 0.3 s"
    assert uncapped_still_running, "the next search without a clock lost its own budget"


def test_an_increment_only_clock_starts_with_one_increment(app, fake):
    created = create(app, clock={"kind": "live", "base": 0, "increment": 3})
    assert created["game"]["clock"]["left"] == [3_000, 3_000]
    play(app, created, 0)
    fake.advance(2)
    assert play(app, created, 1)["clock"]["left"] == [3_000, 4_000]


def test_a_process_whose_copy_is_stale_still_settles_the_flag(database_url, fake):
    """b holds a copy of the game from before a's move started the clock, and missed the
    news (an event lost): its flag attempt, given the database's version, reads the game
    again and settles it.  Both keepers look only on wake-ups here."""
    a = start(database_url, fake, clock_sweep=60)
    b = start(database_url, fake, clock_sweep=60)
    try:
        created = create(a)
        gid = created["id"]
        sb = b.app.state.service
        assert b.get(f"/api/games/{gid}").json()["ply"] == 0
        old = sb._cache[gid]
        play(a, created, 0)
        time.sleep(0.2)  # the processes' events, if any, are through
        sb._cache[gid] = old  # as if b had missed them
        cluster = getattr(sb, "cluster", None)
        if cluster is not None:
            cluster.stale.discard(gid)
        fake.advance(61)
        assert not b.portal.call(sb.flag, gid)  # its own copy: nothing is due
        assert _row(a, gid)["status"] == "active"
        assert b.portal.call(sb.flag, gid, _version(a, gid))
        row = _row(a, gid)
        assert row["status"] == "finished" and row["decided"] == "timeout"
    finally:
        a.__exit__(None, None, None)
        b.__exit__(None, None, None)
