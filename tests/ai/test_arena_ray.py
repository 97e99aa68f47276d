"""The arena's Ray backend against a real local Ray instance.

One instance is shared by the module (starting Ray is the main cost); it is
shut down at the end, and the test checks that Ray's processes went with it.
The tests form one xdist group (``--dist loadgroup`` in the Makefile), so
under ``pytest -n 2`` a single worker runs them; with plain ``--dist load``
they still pass, each worker then starting its own instance.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tablier.ai.arena import read_results, run_match, summarise
from tablier.cli.ai_commands import register
from tablier.core.errors import TablierError
from tablier.games import get

ray = pytest.importorskip(
    "ray", reason="Ray is not installed: pip install 'tablier[ray]' to test the ray backend"
)

pytestmark = pytest.mark.xdist_group("ray")

GAME = "volo:board=mini,supply=12"
#: Seeded and bounded by iterations, not time: the same games on every backend.
A, B = "medium:iterations=10,seconds=none", "greedy"
TIMING = ("seconds", "think_a", "think_b")


def _descendants(pid: int) -> list[int]:
    """Live (non-zombie) descendant processes of ``pid``, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _alive(pids: list[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.append(pid)
    return alive


def _wait_gone(pids: list[int], seconds: float = 15.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while _alive(pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    return _alive(pids)


@pytest.fixture(scope="module")
def ray_instance():
    """One local Ray instance (2 CPUs) for the module; gone with its processes afterwards."""
    before = set(_descendants(os.getpid()))
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("RAY_ADDRESS", raising=False)
        assert not ray.is_initialized()
        ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
        try:
            yield ray
        finally:
            started = [p for p in _descendants(os.getpid()) if p not in before]
            ray.shutdown()
    assert started, "no Ray process seen"
    left = _wait_gone(started)
    assert not left, f"Ray left processes behind after shutdown: {left}"


def _strip(item: dict) -> dict:
    return {k: v for k, v in item.items() if k not in TIMING}


def _lines(path: Path) -> list[dict]:
    return sorted((json.loads(x) for x in path.read_text().splitlines()), key=lambda r: r["index"])


@pytest.fixture(scope="module")
def local_reference(tmp_path_factory):
    """The match played by the local backend (in this process): the reference results."""
    out = tmp_path_factory.mktemp("local") / "local.jsonl"
    run_match(get("volo", board="mini", supply=12), A, B, 4, seed=5, out=out)
    return out


@pytest.fixture(scope="module")
def cli():
    @click.group()
    def group() -> None:
        """Test group."""

    register(group)
    runner = CliRunner()
    return lambda *args: runner.invoke(group, [str(a) for a in args])


def test_ray_plays_the_same_games_as_the_local_backend(ray_instance, local_reference, tmp_path):
    out = tmp_path / "ray.jsonl"
    arrived = []
    results = run_match(
        get("volo", board="mini", supply=12),
        A,
        B,
        4,
        seed=5,
        out=out,
        jobs=2,
        backend="ray",
        on_result=arrived.append,
    )
    assert sorted(r["index"] for r in arrived) == [0, 1, 2, 3]
    assert [r["index"] for r in results] == [0, 1, 2, 3]
    ray_lines, local_lines = _lines(out), _lines(local_reference)
    assert [set(x) for x in ray_lines] == [set(x) for x in local_lines]  # same fields
    assert [_strip(x) for x in ray_lines] == [_strip(x) for x in local_lines]
    assert len({tuple(x["moves"]) for x in ray_lines}) > 1  # not one game four times
    assert summarise(results, A, B) == summarise(read_results(local_reference), A, B)


def test_cli_end_to_end_with_the_ray_backend(ray_instance, cli, tmp_path):
    ray_out, local_out = tmp_path / "ray.jsonl", tmp_path / "local.jsonl"
    common = ("arena", GAME, "random", "greedy", "-n", 4, "--seed", 2)
    on_ray = cli(*common, "--jobs", 2, "--backend", "ray", "--out", ray_out)
    assert on_ray.exit_code == 0, on_ray.output
    assert sum(line.startswith("game ") for line in on_ray.output.splitlines()) == 4
    on_local = cli(*common, "--out", local_out)
    assert on_local.exit_code == 0, on_local.output
    summary = on_ray.output.splitlines()[-1]
    assert summary.startswith("random vs greedy: 4 games, ")
    assert summary == on_local.output.splitlines()[-1]
    assert [_strip(x) for x in _lines(ray_out)] == [_strip(x) for x in _lines(local_out)]


def test_an_interrupted_file_resumes_on_ray(ray_instance, local_reference, tmp_path):
    out = tmp_path / "partial.jsonl"
    lines = local_reference.read_text().splitlines()
    out.write_text(lines[2] + "\n" + lines[0] + '\n{"index": 3, "ga')  # a half-written line
    played = []
    results = run_match(
        get("volo", board="mini", supply=12),
        A,
        B,
        4,
        seed=5,
        out=out,
        backend="ray",
        on_result=played.append,
    )
    finished = {json.loads(lines[k])["index"] for k in (0, 2)}
    assert sorted(r["index"] for r in played) == sorted({0, 1, 2, 3} - finished)
    assert [_strip(r) for r in results] == [_strip(x) for x in _lines(local_reference)]
    assert sorted(r["index"] for r in read_results(out)) == [0, 1, 2, 3]
    # Everything there: a rerun plays nothing (and needs no Ray connection).
    again = []
    run_match(
        get("volo", board="mini", supply=12),
        A,
        B,
        4,
        seed=5,
        out=out,
        backend="ray",
        on_result=again.append,
    )
    assert again == []


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_bad_addresses_are_refused_at_once(cli, tmp_path):
    game = get("volo", board="mini", supply=12)
    port = _closed_port()
    start = time.monotonic()
    for address, message in [
        ("nonsense", "bad Ray address"),
        ("ray://host-without-port", "bad Ray address"),
        (f"127.0.0.1:{port}", f"no Ray cluster answers at 127.0.0.1:{port}"),
        (f"ray://127.0.0.1:{port}", "no Ray cluster answers"),
    ]:
        with pytest.raises(TablierError, match=message):
            run_match(game, "random", "random", 2, backend="ray", address=address)
    assert time.monotonic() - start < 10
    out = tmp_path / "r.jsonl"
    result = cli(
        "arena",
        GAME,
        "random",
        "random",
        "-n",
        2,
        "--backend",
        "ray",
        "--address",
        f"127.0.0.1:{port}",
        "--out",
        out,
    )
    assert result.exit_code == 2 and "no Ray cluster answers" in result.output
    assert "Traceback" not in result.output
    assert not out.exists() or read_results(out) == []
    result = cli("arena", GAME, "random", "random", "--address", "auto")
    assert result.exit_code == 2 and "--address needs --backend ray" in result.output
    result = cli("arena", GAME, "random", "random", "--backend", "spark")
    assert result.exit_code == 2 and "spark" in result.output
    with pytest.raises(TablierError, match="only used by the ray backend"):
        run_match(game, "random", "random", 2, address="auto")
    with pytest.raises(TablierError, match="unknown backend"):
        run_match(game, "random", "random", 2, backend="dask")


def test_an_address_while_already_connected_is_an_error(ray_instance):
    with socket.socket() as server:  # something that answers, so the address itself is fine
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"127.0.0.1:{server.getsockname()[1]}"
        with pytest.raises(TablierError, match="already connected to Ray"):
            run_match(
                get("volo", board="mini"), "random", "random", 2, backend="ray", address=address
            )


def test_missing_ray_names_the_extra(monkeypatch, cli):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(TablierError, match=r"tablier\[ray\]"):
        run_match(get("volo", board="mini"), "random", "random", 2, backend="ray")
    result = cli("arena", GAME, "random", "random", "-n", 2, "--backend", "ray")
    assert result.exit_code == 2 and "tablier[ray]" in result.output


def test_ctrl_c_stops_cleanly_and_the_file_resumes(ray_instance, tmp_path):
    """The real command in its own process group, with its own Ray instance, gets Ctrl-C."""
    out = tmp_path / "interrupted.jsonl"
    # About a second a game with either engine (a time budget, not a simulation count: with
    # the compiled core 100 simulations took a few milliseconds, and Ctrl-C then kept landing
    # while Ray was completing a task, which crashes Ray's own worker).
    slow = "medium:iterations=none,seconds=0.1"
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            # A shell gives a foreground command the default Ctrl-C; a test runner's worker
            # may ignore SIGINT, and the command would inherit that.
            "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from tablier.cli.main import main; main()",
            "arena",
            GAME,
            slow,
            "random",
            "-n",
            "40",
            "--jobs",
            "1",
            "--backend",
            "ray",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (out.exists() and out.read_text().count("\n") >= 1):
            assert proc.poll() is None, proc.communicate()[0]
            assert time.monotonic() < deadline, "no game finished within 60 s"
            time.sleep(0.1)
        ray_processes = _descendants(proc.pid)
        assert ray_processes  # the local Ray instance of the command
        # A game has just been written, so Ray is completing that task and starting the next:
        # an interrupt then can crash Ray's own worker (a Ray bug, seen on CI). Land it in the
        # middle of the next game instead, as a person's Ctrl-C almost always does.
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        output, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, output
    assert "interrupted: the finished games are in" in output
    assert "Traceback" not in output
    assert not _wait_gone(ray_processes), "Ray processes left behind after Ctrl-C"
    finished = sorted(r["index"] for r in read_results(out))
    assert 1 <= len(finished) < 40
    assert finished == list(range(len(finished)))  # one job: the games start in index order
    # Resume on the same file, one game further: only that game is played.
    played = []
    results = run_match(
        get("volo", board="mini", supply=12),
        slow,
        "random",
        len(finished) + 1,
        out=out,
        backend="ray",
        on_result=played.append,
    )
    assert [r["index"] for r in played] == [len(finished)]
    assert [r["index"] for r in results] == [*finished, len(finished)]


class _FakeRay:
    """Records the ray.init calls of ``ray_backend._connect``, without starting anything."""

    def __init__(self):
        self.calls = []

    def is_initialized(self):
        return False

    def init(self, **kwargs):
        self.calls.append(kwargs)


def test_what_connect_asks_ray_for(monkeypatch):
    from tablier.ai import ray_backend

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    fake = _FakeRay()
    assert ray_backend._connect(fake, None, 3) is True  # a local instance of 3 CPUs
    assert fake.calls[-1]["num_cpus"] == 3 and fake.calls[-1]["include_dashboard"] is False
    ray_backend._connect(fake, None, None)  # every CPU: Ray's default
    assert "num_cpus" not in fake.calls[-1] and "address" not in fake.calls[-1]
    ray_backend._connect(fake, "auto", 3)  # a cluster: no CPU count, --jobs caps the tasks
    assert fake.calls[-1]["address"] == "auto" and "num_cpus" not in fake.calls[-1]
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"127.0.0.1:{server.getsockname()[1]}"
        monkeypatch.setenv("RAY_ADDRESS", address)
        ray_backend._connect(fake, None, 2)
        assert fake.calls[-1]["address"] == address and "num_cpus" not in fake.calls[-1]
    monkeypatch.setenv("RAY_ADDRESS", "http://head:8265")
    with pytest.raises(TablierError, match="RAY_ADDRESS: bad Ray address"):
        ray_backend._connect(fake, None, 2)
    assert len(fake.calls) == 4


def test_a_killed_worker_costs_nothing(ray_instance, local_reference, tmp_path):
    """SIGKILL a worker in the middle of a game: Ray retries it (max_retries) and the
    results are still complete and the same as the local backend's."""
    import threading

    killed: list[int] = []
    stop = threading.Event()

    def killer() -> None:
        while not stop.is_set() and not killed:
            for pid in _descendants(os.getpid()):
                try:
                    title = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    continue
                if title.startswith(b"ray::_play"):  # a worker running a game right now
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    break
            time.sleep(0.02)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    out = tmp_path / "killed.jsonl"
    try:
        results = run_match(
            get("volo", board="mini", supply=12), A, B, 4, seed=5, out=out, jobs=2, backend="ray"
        )
    finally:
        stop.set()
        thread.join()
    assert killed, "no worker was seen playing a game"
    assert [_strip(r) for r in results] == [_strip(x) for x in _lines(local_reference)]
    assert [_strip(x) for x in _lines(out)] == [_strip(x) for x in _lines(local_reference)]
