"""The AI's worker processes: cancellation, the fair queue, kept trees, lost workers, limits.

The pool tests drive :class:`tablier.server.ai.AIPool` directly with real worker processes;
the last tests go through the application (the per-client limit, ``429 ai_busy``, and a
resignation freeing the only worker at once).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections import OrderedDict
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tablier import games
from tablier.ai.knowledge import knowledge_for
from tablier.ai.players import make_player
from tablier.server.ai import AIPool, AIWorkerLost, _search
from tablier.server.app import create_app

from .conftest import bearer, make_settings, wait_for

#: A search that would run for a minute unless stopped.
LONG = "mcts:iterations=none,seconds=60"
VOLO = games.get("volo").initial_state().to_text()


async def _started(pool: AIPool, name: str, game: str, client: str | None = None):
    """Start a long search and return its task once the worker reports progress."""
    seen = asyncio.Event()
    task = asyncio.create_task(
        pool.think(name, VOLO, LONG, 1, lambda *_: seen.set(), game=game, client=client)
    )
    await asyncio.wait_for(seen.wait(), 30)
    return task


def test_the_stop_hook_ends_every_phase_of_a_search():
    """``expert`` starts with a solver phase of up to 1.5 s: ``stop`` ends it too."""
    state = games.get("volo").initial_state()
    player = make_player("expert", state.game, seed=1)
    flag = threading.Event()
    player.stop = flag.is_set
    timer = threading.Timer(0.2, flag.set)
    moment = time.perf_counter()
    timer.start()
    move = player.choose(state)
    took = time.perf_counter() - moment
    assert move in state.legal_moves()
    # ``expert`` thinks 6 s; stopped at 0.2 s it answers within a fraction of that (a
    # second: room for a machine busy with other work)
    assert took < 1.0, took


def test_a_cancelled_search_frees_its_worker_at_once():
    async def main() -> float:
        pool = AIPool(1, 0.0)
        try:
            task = await _started(pool, "long", "g1")
            assert pool.pending(game="g1") == 1
            moment = time.perf_counter()
            task.cancel()
            thought = await pool.think("next", VOLO, "random", 1, game="g2")
            took = time.perf_counter() - moment
            assert thought.worker == 0
            with pytest.raises(asyncio.CancelledError):
                await task
            assert pool.pending() == 0
            return took
        finally:
            pool.shutdown()

    took = asyncio.run(main())
    print(f"\nnext job answered {1000 * took:.0f} ms after cancelling a 60 s search")
    assert took < 0.5


def test_the_queue_takes_turns_between_clients_and_games():
    """Round-robin between clients, then between a client's games, instead of FIFO."""

    async def main() -> list[str]:
        pool = AIPool(1, 0.0)
        done: list[str] = []

        async def job(name: str, game: str, client: str) -> None:
            await pool.think(name, VOLO, "random", 1, game=game, client=client)
            done.append(name)

        try:
            blocker = await _started(pool, "blocker", "x", "c0")
            # Submitted in this order while the only worker is busy.
            order = [
                ("A1", "A", "c1"),
                ("A2", "A", "c1"),
                ("A3", "A", "c1"),
                ("B1", "B", "c1"),
                ("C1", "C", "c2"),
            ]
            jobs = []
            for name, game, client in order:
                jobs.append(asyncio.create_task(job(name, game, client)))
                await asyncio.sleep(0)  # each one reaches the queue before the next
            # A waiting job that is cancelled never runs.
            dropped = asyncio.create_task(pool.think("D1", VOLO, "random", 1, game="D"))
            await asyncio.sleep(0)
            assert pool.pending(client="c1") == 4 and pool.pending(game="A") == 3
            dropped.cancel()
            blocker.cancel()
            await asyncio.gather(*jobs)
            assert dropped.cancelled()
            return done
        finally:
            pool.shutdown()

    done = asyncio.run(main())
    print(f"\nserved {done} (first in, first out would be A1 A2 A3 B1 C1)")
    assert done == ["A1", "C1", "B1", "A2", "A3"]


def test_the_next_move_starts_from_the_kept_tree():
    spec = "mcts:iterations=400"
    start = games.get("volo", board="mini").initial_state()

    async def main() -> tuple:
        pool = AIPool(2, 0.0)
        try:
            first = await pool.think("1", start.to_text(), spec, 7, game="g")
            # The human's reply: the one the AI's search looked at most (its tree is
            # deterministic for a seed, so this process can rebuild it).
            local = make_player(spec, start.game, seed=7)
            assert start.game.move_text(start, local.choose(start)) == first.move
            after = start.apply(start.game.parse_move(start, first.move))
            local._tree.advance(after)
            reply = local._tree.analysis()[0].move
            position = after.apply(reply)
            # Meanwhile a new game goes to the other worker, and a third one shares the first
            # worker (the other is busy) without touching the kept tree of "g".
            busy = await _started(pool, "other", "h")
            elsewhere = await pool.think("2", position.to_text(), spec, 7, game="g2")
            assert elsewhere.worker == first.worker
            busy.cancel()
            with pytest.raises(asyncio.CancelledError):
                await busy
            second = await pool.think("3", position.to_text(), spec, 7, game="g")
            return first, second, elsewhere
        finally:
            pool.shutdown()

    first, second, elsewhere = asyncio.run(main())
    print(f"\nsecond move: {second.reused} simulations kept from the first search")
    assert first.reused == 0 and first.simulations == 400
    assert second.worker == first.worker  # game affinity
    assert second.reused > 0
    assert elsewhere.reused == 0  # trees are never shared between games


def test_a_lost_worker_fails_its_job_and_is_replaced():
    async def main() -> None:
        pool = AIPool(1, 0.0)
        try:
            task = await _started(pool, "long", "g")
            os.kill(pool._workers[0].process.pid, signal.SIGKILL)
            with pytest.raises(AIWorkerLost):
                await asyncio.wait_for(task, 10)
            thought = await asyncio.wait_for(pool.think("next", VOLO, "random", 1), 30)
            assert thought.move
        finally:
            pool.shutdown()

    asyncio.run(main())


def test_a_bad_job_is_an_error_and_the_worker_goes_on():
    async def main() -> None:
        pool = AIPool(1, 0.0)
        try:
            with pytest.raises(RuntimeError, match="unknown player"):
                await pool.think("bad", VOLO, "nobody", 1)
            assert (await pool.think("good", VOLO, "random", 1)).move
        finally:
            pool.shutdown()

    asyncio.run(main())


def test_shutdown_during_a_search_is_quick():
    async def main() -> float:
        pool = AIPool(2, 0.0)
        task = await _started(pool, "long", "g")
        moment = time.perf_counter()
        pool.shutdown()
        took = time.perf_counter() - moment
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)
        assert not any(w.process.is_alive() for w in pool._workers)
        return took

    assert asyncio.run(main()) < 2.0


SCRIPT = """
import asyncio, sys, threading
from tablier import games
from tablier.server.ai import AIPool

def run():
    async def main():
        pool = AIPool(1, 0.0)
        print(pool._workers[0].process.pid, flush=True)
        position = games.get("volo").initial_state().to_text()
        await pool.think("x", position, "mcts:iterations=none,seconds=60", 1, game="g")
    asyncio.run(main())

if __name__ == "__main__":
    # From a thread other than the main one the pool does not ask for PR_SET_PDEATHSIG:
    # the worker must notice on its own that its parent is gone.
    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
"""


def _running(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    if stat.parent.parent.joinpath("self").exists():
        try:
            text = stat.read_text()
        except FileNotFoundError:
            return False
        return text[text.rindex(")") + 2] != "Z"
    try:  # pragma: no cover - without /proc
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_worker_ends_when_its_parent_is_killed(tmp_path):
    script = tmp_path / "pool_owner.py"
    script.write_text(textwrap.dedent(SCRIPT))
    owner = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    worker = 0
    try:
        worker = int(owner.stdout.readline())
        time.sleep(1.0)  # the search has started
        assert _running(worker)
        owner.kill()
        owner.wait(timeout=5)
        moment = time.monotonic()
        while _running(worker) and time.monotonic() - moment < 10:
            time.sleep(0.02)
        took = time.monotonic() - moment
        print(f"\nworker gone {took:.2f} s after its parent was killed")
        assert not _running(worker)
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
        if worker and _running(worker):
            os.kill(worker, signal.SIGKILL)


# -- through the application --------------------------------------------------------------


def test_one_client_cannot_fill_the_ai_queue(sqlite_url):
    specs = {"easy": "random", "medium": "random", "hard": LONG, "expert": LONG}
    settings = make_settings(sqlite_url, ai_specs=specs, ai_queue_limit=1)
    mini = {"board": "mini"}
    with TestClient(create_app(settings)) as client:
        slow = {"game": "volo", "options": mini, "mode": "ai", "seat": 1, "ai_level": "hard"}
        first = client.post("/api/games", json=slow)
        assert first.status_code == 201 and first.json()["game"]["ai"]["thinking"]
        refused = client.post("/api/games", json=slow)
        assert refused.status_code == 429
        error = refused.json()["error"]
        assert error["code"] == "ai_busy" and "at most 1" in error["message"]
        # A game where the human moves first can be made, but not its first move...
        human_first = {"game": "volo", "options": mini, "mode": "ai", "seat": 0, "ai_level": "easy"}
        other = client.post("/api/games", json=human_first)
        assert other.status_code == 201
        other_id, token = other.json()["id"], other.json()["tokens"]["0"]
        move = client.get(f"/api/games/{other_id}/legal").json()["moves"][0]["notation"]
        body = {"ply": 0, "move": move}
        r = client.post(f"/api/games/{other_id}/moves", json=body, headers=bearer(token))
        assert r.status_code == 429 and r.json()["error"]["code"] == "ai_busy"
        assert client.get(f"/api/games/{other_id}").json()["ply"] == 0  # nothing committed
        # ... until the first game's search is over: resigning stops it at once and frees
        # the only worker for the next game.
        r = client.post(
            f"/api/games/{first.json()['id']}/resign",
            headers=bearer(first.json()["tokens"]["1"]),
        )
        assert r.status_code == 200, r.text
        moment = time.perf_counter()
        r = client.post(f"/api/games/{other_id}/moves", json=body, headers=bearer(token))
        assert r.status_code == 200, r.text
        wait_for(client, other_id, lambda s: s["ply"] >= 2, timeout=5)
        took = time.perf_counter() - moment
        print(f"\nthe AI answered {1000 * took:.0f} ms after the resignation")
        assert took < 2.0
        assert client.app.state.service.ai.pending() == 0


def test_the_ai_searches_again_when_its_worker_dies(sqlite_url):
    specs = {"easy": "random", "medium": "mcts:iterations=none,seconds=0.5"}
    with TestClient(create_app(make_settings(sqlite_url, ai_specs=specs))) as client:
        body = {"game": "volo", "options": {"board": "mini"}, "mode": "ai", "seat": 1}
        created = client.post("/api/games", json={**body, "ai_level": "medium"}).json()
        pool = client.app.state.service.ai
        deadline = time.monotonic() + 10
        while pool._workers[0].job is None and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(pool._workers[0].process.pid, signal.SIGKILL)
        snap = wait_for(client, created["id"], lambda s: s["ply"] >= 1, timeout=20)
        assert snap["moves"] and not snap["ai"]["thinking"]


def test_the_server_ai_reuses_its_tree_within_a_game(sqlite_url, caplog):
    """A Voldétour turn is several decisions: the AI's later ones start from its kept tree."""
    specs = {"easy": "random", "medium": "mcts:iterations=300"}
    caplog.set_level("DEBUG", logger="tablier.server")
    with TestClient(create_app(make_settings(sqlite_url, ai_specs=specs))) as client:
        body = {"game": "voldetour", "mode": "ai", "seat": 1, "ai_level": "medium"}
        created = client.post("/api/games", json=body).json()
        wait_for(client, created["id"], lambda s: s["view"]["to_move"] == 1, timeout=30)
    kept = [r.args[3] for r in caplog.records if r.getMessage().startswith("AI move")]
    print(f"\nsimulations kept at each AI decision of the first turn: {kept}")
    assert len(kept) >= 2 and kept[0] == 0 and max(kept[1:]) > 0


class _Pipe:
    """What a worker sends back, in this process."""

    def __init__(self) -> None:
        self.sent: list[tuple] = []

    def send(self, message: tuple) -> None:
        self.sent.append(message)


def _walk(game, texts):
    states = [game.initial_state()]
    for text in texts:
        states.append(states[-1].apply(game.parse_move(states[-1], text)))
    return states


#: The first 39 decisions of a recorded `hard`–`greedy` game: nine turns, and the position
#: searched starts the tenth.
_RECORDED = (
    "S S@e10:e B123 B123@c2:1x2x3 Lb2-c2 B112 B112@b3:1x1x2 S S@g8:n end Se10 S@d5:w end S "
    "S@c5:e B113 B113@a4:3x1x1 end Lc2-c3 S S@b4+1:s B123 B123@i7:1x2x3 Li9-i8-i7 S S@b5:w "
    "B112 B112@g9:2x1x1 Lc3-c2 Sg8 S@b5:u B122 B122@h6:1x2x2 end S S@h7+2:e B113 "
    "B113@e7:3x1x1 end"
)
_LINE = _RECORDED.split()


def test_a_fresh_player_replays_the_games_history():
    """A job carries its game's decisions: a player made afresh in a worker (a restarted
    server, a takeback) that scores repetitions remembers every earlier turn start."""
    game = games.get("voldetour")
    states = _walk(game, _LINE)
    key = knowledge_for(game).position_key
    assert key is not None
    spec = "hard:iterations=30,seconds=none"

    def search(history):
        players: OrderedDict = OrderedDict()
        _search(
            _Pipe(),
            1,
            "g",
            states[-1].to_text(),
            spec,
            3,
            60.0,
            threading.Event(),
            players,
            4,
            None,
            history,
        )
        return players["g"][1]._seen

    every = {key(s) for s in states} - {None}
    assert len(every) == 10  # the start and the turn starts after it
    assert every <= search(tuple(_LINE))
    earlier = {key(states[5]), key(states[10])}
    assert None not in earlier
    # without the history it knows only its own decision's positions
    assert not earlier & search(None)
    # a history that does not lead to the position, or does not parse, is left out
    assert not earlier & search(tuple(_LINE[:-5]))
    assert not earlier & search(("Lb2-z9", *_LINE[1:]))


def test_players_say_whether_they_remember_positions():
    game = games.get("voldetour")
    assert make_player("hard", game).remembers
    assert not make_player("medium", game).remembers
    assert not make_player("random", game).remembers
