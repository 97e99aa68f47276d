"""Self-play training of a policy-and-value network (AlphaZero style), for any game.

One *generation* of :func:`train`:

1. **self-play**: ``games_per_generation`` games of the current best network
   against itself, each decision (each action id of a move) a PUCT search
   (:mod:`tablier.ai.az`) with Dirichlet noise at the root; the first
   ``temperature_decisions`` decisions are drawn in proportion to visits, the
   rest take the most visited.  Each decision gives a sample: the observation
   planes, the visit shares over the legal ids (policy target) and the final
   result for the player who decided (value target; a game stopped at
   ``max_decisions`` is adjudicated by the game's static evaluation of its
   last position, when the game has one: the MCTS levels' evaluation).  A
   move that would lose by a rule the player could have obeyed is replaced by
   the rule guard's choice, as every player does.  Games run in local
   worker processes (``workers``) or as Ray tasks (``backend="ray"``, the
   arena's connection helpers); workers use the numpy network, never PyTorch.
   With a ``teacher`` (a player spec), the first ``teacher_generations``
   generations play that player against itself instead (:func:`teacher_game`);
2. **training**: the samples enter a replay buffer of the last
   ``buffer_size`` positions; the candidate (a copy of the best) takes
   ``steps`` Adam steps on batches drawn from it, with PyTorch (on the GPU
   when there is one): cross-entropy of the masked policy against the visit
   shares plus the squared error of the value;
3. **evaluation**: the candidate plays ``eval_games`` games against the best
   (colours alternate, the first two decisions drawn by visits so games
   differ; a game stopped at ``max_decisions`` scores by the adjudicated
   value); it becomes the best when it scores at least ``gate``.  The score
   is turned into an Elo difference; the best's Elo (the untrained network is
   0) makes the curve of the training.  With ``hard_games``, the candidate
   also plays that many games against ``hard_spec`` through the arena (as
   ``master`` read from the output folder).

After each generation the folder ``out`` holds ``checkpoint.pt`` (the
PyTorch weights of the best and of the candidate, the optimizer, and
``state``: configuration, counters, CPU time, buffer summary, Elo history),
``train.json`` (that state, readable), the best network for numpy inference
as ``<game>[-<variant>].npz``, and ``elo.svg`` (the curve).  ``resume``
continues from a checkpoint with its configuration (the buffer starts empty).
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..core.errors import TablierError
from ..core.game import Game
from .az import PUCT, Node, PUCTConfig, next_ids
from .knowledge import knowledge_for
from .network import (
    NETWORK_DIR_ENV,
    NetConfig,
    Network,
    describe,
    network_file_name,
    numpy_module,
    observe,
    save_npz,
    weight_shapes,
)
from .players import make_player, rule_guard

__all__ = [
    "TORCH_EXTRA_HINT",
    "TrainConfig",
    "config_from",
    "elo_svg",
    "export_npz",
    "import_torch",
    "teacher_game",
    "train",
]

#: How to install what training needs.
TORCH_EXTRA_HINT = "pip install 'tablier[train]'"

Report = Callable[[str], None]


@dataclass(frozen=True)
class TrainConfig:
    """Everything that shapes a training run (see the module docstring)."""

    game: str
    games_per_generation: int = 10
    simulations: int = 24
    eval_simulations: int = 24
    eval_games: int = 10
    gate: float = 0.55
    hard_games: int = 0
    hard_spec: str = "hard"
    channels: int = 32
    blocks: int = 2
    buffer_size: int = 20_000
    batch_size: int = 64
    steps: int = 0  # 0: four passes over the new positions
    lr: float = 1e-3
    weight_decay: float = 1e-4
    c_puct: float = 1.5
    noise_alpha: float = 0.0  # 0: 10 / legal ids
    noise_frac: float = 0.25
    temperature_decisions: int = 12
    max_decisions: int = 400
    rule_guard: bool = True  # never lose by a rule the player could have obeyed
    adjudicate: bool = True  # a game stopped at max_decisions: the static evaluation decides
    teacher: str = ""  # a player spec whose games replace self-play in the first generations
    teacher_generations: int = 0
    seed: int = 0

    def net_config(self) -> NetConfig:
        return NetConfig(channels=self.channels, blocks=self.blocks)


def import_torch() -> Any:
    """The ``torch`` module, or a TablierError naming the extra to install."""
    try:
        import torch
    except ImportError as exc:
        raise TablierError(
            f"training needs PyTorch, which is not installed ({exc}): {TORCH_EXTRA_HINT}"
        ) from None
    return torch


# -- the PyTorch twin of tablier.ai.network.Network ---------------------------------------


def _torch_model(torch: Any, meta: dict[str, Any]) -> Any:
    """A ``torch.nn.Module`` computing what :class:`Network` computes for ``meta``."""
    nn = torch.nn
    cfg = NetConfig(**meta["config"])
    h, w, c = (int(n) for n in meta["observation_shape"])
    actions = int(meta["num_actions"])
    f = cfg.channels

    class Net(nn.Module):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.conv0 = nn.Conv2d(c, f, 3, padding=1)
            self.res = nn.ModuleList(
                nn.ModuleList([nn.Conv2d(f, f, 3, padding=1), nn.Conv2d(f, f, 3, padding=1)])
                for _ in range(cfg.blocks)
            )
            self.pol_conv = nn.Conv2d(f, cfg.policy_planes, 1)
            self.pol_fc = nn.Linear(cfg.policy_planes * h * w, actions)
            self.val_conv = nn.Conv2d(f, 1, 1)
            self.val_fc1 = nn.Linear(h * w, cfg.value_hidden)
            self.val_fc2 = nn.Linear(cfg.value_hidden, 1)

        def forward(self, x: Any) -> tuple[Any, Any]:
            relu = torch.relu
            x = relu(self.conv0(x))
            for a, b in self.res:
                x = relu(x + b(relu(a(x))))
            p = relu(self.pol_conv(x)).flatten(1)
            v = relu(self.val_conv(x)).flatten(1)
            v = relu(self.val_fc1(v))
            return self.pol_fc(p), torch.tanh(self.val_fc2(v)).squeeze(1)

    return Net()


def _numpy_arrays(model: Any) -> dict[str, Any]:
    """The weights of a :func:`_torch_model` in the layout of :func:`save_npz`."""

    def conv(m: Any) -> tuple[Any, Any]:
        wt = m.weight.detach().cpu().float()
        o, i, kh, kw = wt.shape
        mat = wt.permute(2, 3, 1, 0).reshape(kh * kw * i, o)
        return mat.numpy().copy(), m.bias.detach().cpu().float().numpy().copy()

    def fc(m: Any) -> tuple[Any, Any]:
        return (
            m.weight.detach().cpu().float().t().numpy().copy(),
            m.bias.detach().cpu().float().numpy().copy(),
        )

    out: dict[str, Any] = {}
    out["conv0.w"], out["conv0.b"] = conv(model.conv0)
    for i, (a, b) in enumerate(model.res):
        out[f"res{i}.a.w"], out[f"res{i}.a.b"] = conv(a)
        out[f"res{i}.b.w"], out[f"res{i}.b.b"] = conv(b)
    out["pol.conv.w"], out["pol.conv.b"] = conv(model.pol_conv)
    out["pol.fc.w"], out["pol.fc.b"] = fc(model.pol_fc)
    out["val.conv.w"], out["val.conv.b"] = conv(model.val_conv)
    out["val.fc1.w"], out["val.fc1.b"] = fc(model.val_fc1)
    out["val.fc2.w"], out["val.fc2.b"] = fc(model.val_fc2)
    return out


def _network_of(model: Any, meta: dict[str, Any]) -> Network:
    """The numpy :class:`Network` of a torch model (exactly the saved, float16, weights)."""
    buffer = io.BytesIO()
    save_npz(buffer, _numpy_arrays(model), meta)
    buffer.seek(0)
    return Network.load(buffer)


def export_npz(model: Any, meta: dict[str, Any], path: str | os.PathLike[str]) -> Path:
    """Write the torch model as a numpy network file; its path."""
    path = Path(path)
    tmp = path.with_suffix(".tmp.npz")
    save_npz(tmp, _numpy_arrays(model), meta)
    tmp.replace(path)
    return path


# -- games in workers (numpy only) ---------------------------------------------------------


def _net_from(blob: bytes) -> Network:
    return Network.load(io.BytesIO(blob))


def _net_blob(net_model: Any, meta: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    save_npz(buffer, _numpy_arrays(net_model), meta)
    return buffer.getvalue()


def _step(search: PUCT, node: Node, action: int, guard: bool) -> Node:
    """The node after ``action``; a move it completes that loses by a rule the
    player could have obeyed is replaced by the rule guard's choice, as every
    player does (``players.rule_guard``), and the game goes on from a fresh node."""
    child = search.child(node, action)
    if not guard or child.pending:
        return child
    state = node.state
    move = search.completed(node, action)
    assert move is not None  # a child without pending ids completes a move
    picked = rule_guard(state).pick(state, [move])
    if picked == move:
        return child
    return search.root(state.apply_unchecked(picked))


def _final(game: Game[Any, Any], state: Any, cfg: TrainConfig) -> list[float] | None:
    """The value of a game stopped at ``max_decisions`` for each player, by the game's
    static evaluation (the one the MCTS levels use), or None (a draw) without one.

    Long races (Voldétour) played by an untrained network rarely end within the
    limit; without adjudication every such game is a draw and the value head
    learns nothing.  Chess-engine test frameworks adjudicate long games the same way.
    """
    if not cfg.adjudicate:
        return None
    knowledge = knowledge_for(game)
    if knowledge.evaluate is None:
        return None
    return [round(knowledge.value(state, p), 4) for p in (0, 1)]


def teacher_game(game: Game[Any, Any], config: dict[str, Any], seed: int) -> dict[str, Any]:
    """One game between two ``teacher`` players, as samples like :func:`self_play_game`'s:
    the policy target of each decision is the id of the teacher's move (all the
    share on it), the value target the game's result.

    A warm start (AlphaGo began from human games; here a hand-made level plays
    them): an untrained Voldétour network wanders until any decision limit, so
    its self-play games never end and teach nothing; a network that has first
    imitated ``easy`` races, and self-play goes on from there.
    """
    np = numpy_module()
    cpu = time.process_time()
    cfg = TrainConfig(**config)
    rng = random.Random(seed)
    players = [make_player(cfg.teacher, game, seed=rng.randrange(2**31)) for _ in (0, 1)]
    codec: Any = type(game).actions()
    encode: Callable[[Any, Any], tuple[int, ...]] = codec.encode
    state = game.initial_state()
    samples = []
    decisions = 0
    while not state.is_terminal and decisions < cfg.max_decisions:
        move = players[state.to_move].choose(state)
        steps = tuple(encode(state, move))
        encodings = [tuple(encode(state, m)) for m in state.legal_moves()]
        for k, action in enumerate(steps):
            pre = steps[:k]
            ids = next_ids(encodings, pre)
            if len(ids) > 1:
                obs = observe(game, state, pre).astype(np.float16)
                shares = [1.0 if a == action else 0.0 for a in ids]
                samples.append((obs, ids, shares, state.to_move))
            decisions += 1
        state = state.apply(move)
    return _game_result(game, cfg, state, samples, decisions, cpu)


def _game_result(
    game: Game[Any, Any],
    cfg: TrainConfig,
    state: Any,
    samples: list[Any],
    decisions: int,
    cpu: float,
) -> dict[str, Any]:
    outcome = state.outcome if state.is_terminal else None
    return {
        "samples": samples,
        "winner": outcome.winner if outcome is not None else None,
        "final": None if state.is_terminal else _final(game, state, cfg),
        "decisions": decisions,
        "cpu": time.process_time() - cpu,
    }


def self_play_game(
    game: Game[Any, Any], blob: bytes, config: dict[str, Any], seed: int
) -> dict[str, Any]:
    """One self-play game of the network in ``blob``; its samples and result.

    Samples are ``(observation float16, legal ids, visit shares, player)``;
    ``winner`` is None for a draw or a game stopped at ``max_decisions``; ``final``
    is the adjudicated value of a stopped game for each player (see :func:`_final`).
    """
    np = numpy_module()
    cpu = time.process_time()
    cfg = TrainConfig(**config)
    net = _net_from(blob)
    rng = random.Random(seed)
    search = PUCT(
        game,
        net,
        PUCTConfig(
            simulations=cfg.simulations,
            c_puct=cfg.c_puct,
            noise_alpha=cfg.noise_alpha,
            noise_frac=cfg.noise_frac,
        ),
        rng=rng,
    )
    node = search.root(game.initial_state())
    samples = []
    decisions = 0
    while not node.terminal and decisions < cfg.max_decisions:
        search.add_noise(node)
        search.run(node)
        ids, shares = search.policy(node)
        if len(ids) > 1:
            obs = observe(game, node.state, node.pending).astype(np.float16)
            samples.append((obs, ids, shares, node.player))
        temperature = 1.0 if decisions < cfg.temperature_decisions else 0.0
        action = search.pick(node, temperature)
        node = _step(search, node, action, cfg.rule_guard)
        decisions += 1
    return _game_result(game, cfg, node.state, samples, decisions, cpu)


def eval_game(
    game: Game[Any, Any], blobs: tuple[bytes, bytes], config: dict[str, Any], index: int
) -> dict[str, Any]:
    """Game ``index`` between the networks ``blobs`` (A, B); A plays first in even games.

    Returns ``score_a`` (1, ½, 0) and the CPU time.
    """
    cpu = time.process_time()
    cfg = TrainConfig(**config)
    rng = random.Random(cfg.seed * 7919 + index)
    nets = [_net_from(b) for b in blobs]
    a_first = index % 2 == 0
    order = (nets[0], nets[1]) if a_first else (nets[1], nets[0])
    searches = [
        PUCT(game, net, PUCTConfig(simulations=cfg.eval_simulations, c_puct=cfg.c_puct), rng=rng)
        for net in order
    ]
    state = game.initial_state()
    pending: tuple[int, ...] = ()
    decisions = 0
    while not state.is_terminal and decisions < cfg.max_decisions:
        search = searches[state.to_move]
        node = search.root(state, pending)
        search.run(node)
        action = search.pick(node, 1.0 if decisions < 2 else 0.0)
        child = _step(search, node, action, cfg.rule_guard)
        state, pending = child.state, child.pending
        decisions += 1
    outcome = state.outcome if state.is_terminal else None
    winner = outcome.winner if outcome is not None else None
    a_player = 0 if a_first else 1
    score = 0.5 if winner is None else (1.0 if winner == a_player else 0.0)
    final = None if state.is_terminal else _final(game, state, cfg)
    if final is not None:  # stopped at max_decisions: the adjudicated value decides
        score = (1.0 + final[a_player]) / 2
    return {"index": index, "score_a": score, "cpu": time.process_time() - cpu}


def _call(job: tuple[Callable[..., dict[str, Any]], tuple[Any, ...]]) -> dict[str, Any]:
    fn, args = job
    return fn(*args)


class _Runner:
    """Runs jobs ``(function, args)`` in this process, in worker processes, or on Ray."""

    def __init__(self, workers: int, backend: str, address: str | None) -> None:
        self.workers = workers
        self.backend = backend
        self.address = address
        self._pool: Any = None
        self._ray: Any = None
        self._owned = False

    def __enter__(self) -> _Runner:
        if self.backend == "ray":
            from .ray_backend import _connect, import_ray

            self._ray = import_ray()
            self._owned = _connect(self._ray, self.address, None)
        elif self.workers > 1:
            import multiprocessing

            self._pool = multiprocessing.get_context("spawn").Pool(self.workers)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
        if self._ray is not None and self._owned:
            from .ray_backend import _disconnect

            _disconnect(self._ray)

    @property
    def remote(self) -> bool:
        """Whether jobs run in other processes (their CPU time is not this process's)."""
        return self._pool is not None or self._ray is not None

    def map(
        self, jobs: Sequence[tuple[Callable[..., dict[str, Any]], tuple[Any, ...]]]
    ) -> Iterator[dict[str, Any]]:
        if self._ray is not None:
            ray = self._ray
            remote = ray.remote(num_cpus=1, max_retries=3)(_call)
            refs = [remote.remote(job) for job in jobs]
            pending = list(refs)
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for ref in ready:
                    yield ray.get(ref)
        elif self._pool is not None:
            yield from self._pool.imap_unordered(_call, jobs)
        else:
            for job in jobs:
                yield _call(job)


# -- the loop ------------------------------------------------------------------------------


def _elo(score: float, n: int) -> float:
    """The Elo difference of a score over ``n`` games (kept finite: ½ game from 0 and 1)."""
    lo = 0.5 / max(n, 1)
    s = min(max(score, lo), 1 - lo)
    return -400.0 * math.log10(1.0 / s - 1.0)


class _Buffer:
    """The last ``size`` self-play positions."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: list[tuple[Any, list[int], list[float], float]] = []
        self.added = 0

    def add(
        self,
        samples: list[tuple[Any, list[int], list[float], int]],
        winner: int | None,
        final: list[float] | None = None,
    ) -> None:
        for obs, ids, shares, player in samples:
            if winner is not None:
                z = 1.0 if winner == player else -1.0
            else:
                z = final[player] if final is not None else 0.0
            self.items.append((obs, ids, shares, z))
            self.added += 1
        if len(self.items) > self.size:
            del self.items[: len(self.items) - self.size]

    def summary(self) -> dict[str, Any]:
        zs = [z for *_, z in self.items]
        return {
            "positions": len(self.items),
            "capacity": self.size,
            "added": self.added,
            "mean_value_target": round(sum(zs) / len(zs), 4) if zs else None,
            "draw_share": round(sum(1 for z in zs if z == 0) / len(zs), 4) if zs else None,
        }


def _batch(torch: Any, np: Any, items: list[Any], actions: int, device: Any) -> tuple[Any, ...]:
    obs = np.stack([it[0] for it in items]).astype(np.float32)
    b = len(items)
    target = np.zeros((b, actions), dtype=np.float32)
    legal = np.zeros((b, actions), dtype=bool)
    for k, (_, ids, shares, _) in enumerate(items):
        target[k, ids] = shares
        legal[k, ids] = True
    z = np.asarray([it[3] for it in items], dtype=np.float32)
    x = torch.from_numpy(obs).permute(0, 3, 1, 2).contiguous().to(device)
    return (
        x,
        torch.from_numpy(target).to(device),
        torch.from_numpy(legal).to(device),
        torch.from_numpy(z).to(device),
    )


def _train_steps(
    torch: Any,
    model: Any,
    optimizer: Any,
    buffer: _Buffer,
    steps: int,
    batch: int,
    actions: int,
    device: Any,
    rng: random.Random,
) -> dict[str, float]:
    np = numpy_module()
    model.train()
    totals = {"policy_loss": 0.0, "value_loss": 0.0}
    for _ in range(steps):
        items = [buffer.items[rng.randrange(len(buffer.items))] for _ in range(batch)]
        x, target, legal, z = _batch(torch, np, items, actions, device)
        logits, value = model(x)
        logits = logits.masked_fill(~legal, -1e9)
        policy_loss = -(target * torch.log_softmax(logits, dim=1)).sum(1).mean()
        value_loss = ((value - z) ** 2).mean()
        loss = policy_loss + value_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        totals["policy_loss"] += policy_loss.item()
        totals["value_loss"] += value_loss.item()
    model.eval()
    return {k: round(v / max(steps, 1), 4) for k, v in totals.items()}


def _vs_hard(
    game: Game[Any, Any],
    blob: bytes,
    cfg: TrainConfig,
    out: Path,
    workers: int,
    backend: str,
    address: str | None,
    seed: int,
) -> dict[str, Any]:
    """The candidate (as ``master``) against ``cfg.hard_spec`` through the arena."""
    from .arena import run_match, summarise

    folder = out / "candidate"
    folder.mkdir(exist_ok=True)
    (folder / network_file_name(game)).write_bytes(blob)
    old = os.environ.get(NETWORK_DIR_ENV)
    os.environ[NETWORK_DIR_ENV] = str(folder)
    try:
        master = f"master:simulations={cfg.eval_simulations},seconds=none"
        results = run_match(
            game,
            master,
            cfg.hard_spec,
            cfg.hard_games,
            jobs=workers,
            seed=seed,
            backend=backend,
            address=address,
        )
    finally:
        if old is None:
            os.environ.pop(NETWORK_DIR_ENV, None)
        else:
            os.environ[NETWORK_DIR_ENV] = old
    s = summarise(results)
    return {
        "opponent": cfg.hard_spec,
        "games": s.games,
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "score": round(s.score, 4),
    }


def train(
    config: TrainConfig | None = None,
    *,
    games: int,
    out: str | os.PathLike[str],
    resume: str | os.PathLike[str] | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    report: Report | None = None,
) -> dict[str, Any]:
    """Play ``games`` more games (self-play, or the teacher's first) in generations (see
    the module docstring); the final training state (also in ``out/train.json``)."""
    from .. import games as registry

    torch = import_torch()
    numpy_module()  # a clear error now rather than in the first worker
    say = report or (lambda _: None)
    if backend not in ("local", "ray"):
        raise TablierError(f"unknown backend {backend!r}: expected local or ray")
    if address is not None and backend != "ray":
        raise TablierError("an address is only used by the ray backend")
    if not isinstance(games, int) or games < 1:
        raise TablierError("the number of games must be at least 1")
    if workers < 1:
        raise TablierError("the number of workers must be at least 1")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cpu":
        # The network is small: one thread is as fast when idle and ten times faster
        # than PyTorch's default (every core) when the cores are shared.
        torch.set_num_threads(1)
    checkpoint: dict[str, Any] | None = None
    if resume is not None:
        try:
            checkpoint = torch.load(resume, map_location=device, weights_only=False)
        except (OSError, RuntimeError, EOFError) as exc:
            raise TablierError(f"cannot read the checkpoint {resume}: {exc}") from None
        saved = dict(checkpoint["state"]["config"])
        if config is not None and config.game != saved["game"]:
            raise TablierError(f"the checkpoint trains {saved['game']}, not {config.game}")
        config = TrainConfig(**saved)
    if config is None:
        raise TablierError("give a configuration or a checkpoint to resume")
    cfg = config
    game = registry.from_spec(cfg.game)
    if cfg.teacher:
        make_player(cfg.teacher, game)  # an unknown player: a clear error now
    meta = describe(game, cfg.net_config())
    weight_shapes(meta)
    torch.manual_seed(cfg.seed)
    best = _torch_model(torch, meta).to(device)
    model = _torch_model(torch, meta).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    state: dict[str, Any] = {
        "config": asdict(cfg),
        "network": meta,
        "generation": 0,
        "games": 0,
        "positions": 0,
        "cpu_seconds": 0.0,
        "best_generation": 0,
        "best_elo": 0.0,
        "history": [],
        "buffer": {},
        "sittings": [],
    }
    if checkpoint is not None:
        best.load_state_dict(checkpoint["best"])
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        state = checkpoint["state"]
    else:
        model.load_state_dict(best.state_dict())
    best.eval()
    model.eval()
    sitting_start = time.perf_counter()
    state["sittings"].append(
        {
            "games": games,
            "workers": workers,
            "backend": backend,
            "device": str(device),
            "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
    )
    buffer = _Buffer(cfg.buffer_size)
    rng = random.Random(cfg.seed * 1_000_003 + state["generation"])
    npz_path = out / network_file_name(game)
    cfg_dict = asdict(cfg)
    played = 0
    with _Runner(workers, backend, address) as runner:
        while played < games:
            gen = state["generation"] + 1
            n = min(cfg.games_per_generation, games - played)
            cpu0 = time.process_time()
            best_blob = _net_blob(best, meta)
            base = cfg.seed * 1_000_003 + state["games"]
            teaching = bool(cfg.teacher) and gen <= cfg.teacher_generations
            jobs: list[tuple[Callable[..., dict[str, Any]], tuple[Any, ...]]] = [
                (teacher_game, (game, cfg_dict, base + k))
                if teaching
                else (self_play_game, (game, best_blob, cfg_dict, base + k))
                for k in range(n)
            ]
            wins = [0, 0, 0]
            worker_cpu = 0.0
            decisions = positions = 0
            for result in runner.map(jobs):
                buffer.add(result["samples"], result["winner"], result.get("final"))
                wins[2 if result["winner"] is None else result["winner"]] += 1
                worker_cpu += result["cpu"] if runner.remote else 0.0
                decisions += result["decisions"]
                positions += len(result["samples"])
            played += n
            state["games"] += n
            steps = cfg.steps or max(8, (4 * positions) // cfg.batch_size)
            losses = _train_steps(
                torch,
                model,
                optimizer,
                buffer,
                steps,
                cfg.batch_size,
                meta["num_actions"],
                device,
                rng,
            )
            cand_blob = _net_blob(model, meta)
            eval_jobs = [
                (eval_game, (game, (cand_blob, best_blob), cfg_dict, state["games"] + k))
                for k in range(cfg.eval_games)
            ]
            scores = []
            for result in runner.map(eval_jobs):
                scores.append(result["score_a"])
                worker_cpu += result["cpu"] if runner.remote else 0.0
            score = sum(scores) / len(scores) if scores else 1.0
            diff = _elo(score, len(scores))
            cand_elo = state["best_elo"] + diff
            accepted = score >= cfg.gate
            entry: dict[str, Any] = {
                "generation": gen,
                "games": state["games"],
                "decisions": decisions,
                **({"teacher": cfg.teacher} if teaching else {}),
                "self_play": {"first": wins[0], "second": wins[1], "draws": wins[2]},
                "train_steps": steps,
                **losses,
                "score_vs_best": round(score, 4),
                "eval_games": len(scores),
                "candidate_elo": round(cand_elo, 1),
                "accepted": accepted,
            }
            if accepted:
                best.load_state_dict(model.state_dict())
                state["best_elo"] = cand_elo
                state["best_generation"] = gen
            if cfg.hard_games > 0:
                entry["vs_hard"] = _vs_hard(
                    game, cand_blob, cfg, out, workers, backend, address, cfg.seed + gen
                )
            state["cpu_seconds"] = round(
                state["cpu_seconds"] + time.process_time() - cpu0 + worker_cpu, 2
            )
            entry["best_elo"] = round(state["best_elo"], 1)
            entry["cpu_seconds"] = state["cpu_seconds"]
            state["history"].append(entry)
            state["generation"] = gen
            state["positions"] += positions
            state["buffer"] = buffer.summary()
            _save(torch, out, best, model, optimizer, state, meta, npz_path)
            say(
                f"generation {gen}: {state['games']} games, loss p {losses['policy_loss']:.3f} "
                f"v {losses['value_loss']:.3f}, vs best {score:.2f} "
                f"({'accepted' if accepted else 'kept the best'}), "
                f"best Elo {state['best_elo']:+.0f}"
                + (
                    f", vs {cfg.hard_spec} {entry['vs_hard']['score']:.2f}"
                    if "vs_hard" in entry
                    else ""
                )
            )
    state["sittings"][-1]["seconds"] = round(time.perf_counter() - sitting_start, 1)
    _save(torch, out, best, model, optimizer, state, meta, npz_path)
    return state


def _save(
    torch: Any,
    out: Path,
    best: Any,
    model: Any,
    optimizer: Any,
    state: dict[str, Any],
    meta: dict[str, Any],
    npz_path: Path,
) -> None:
    meta = dict(
        meta,
        training={
            "games": state["games"],
            "generation": state["best_generation"],
            "cpu_seconds": state["cpu_seconds"],
            "elo": round(state["best_elo"], 1),
        },
    )
    export_npz(best, meta, npz_path)
    tmp = out / "checkpoint.pt.tmp"
    torch.save(
        {
            "best": best.state_dict(),
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "state": state,
        },
        tmp,
    )
    tmp.replace(out / "checkpoint.pt")
    (out / "train.json").write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")
    (out / "elo.svg").write_text(
        elo_svg(state["history"], state["config"]["game"]), encoding="utf-8"
    )


# -- the curve -----------------------------------------------------------------------------


def elo_svg(
    history: Sequence[dict[str, Any]], title: str, width: int = 640, height: int = 360
) -> str:
    """An SVG plot of the best network's Elo (and each candidate's) over the games played.

    >>> svg = elo_svg([{"games": 10, "best_elo": 50.0, "candidate_elo": 50.0}], "xobo")
    >>> svg.startswith("<svg") and "xobo" in svg
    True
    """
    left, right, top, bottom = 60, 20, 40, 50
    pts = [(0.0, 0.0, 0.0)] + [
        (float(h["games"]), float(h["best_elo"]), float(h["candidate_elo"])) for h in history
    ]
    xmax = max(p[0] for p in pts) or 1.0
    ys = [p[1] for p in pts] + [p[2] for p in pts]
    ymin, ymax = min(ys), max(ys)
    if ymax - ymin < 100:
        ymin, ymax = ymin - 50, ymax + 50
    pw, ph = width - left - right, height - top - bottom

    def sx(x: float) -> float:
        return left + pw * x / xmax

    def sy(y: float) -> float:
        return top + ph * (1 - (y - ymin) / (ymax - ymin))

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">'
        f"Self-play training of {_xml(title)}: Elo against the untrained network</text>",
        f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="black"/>',
    ]
    for k in range(6):
        yv = ymin + (ymax - ymin) * k / 5
        xv = xmax * k / 5
        parts.append(
            f'<line x1="{left}" y1="{sy(yv):.1f}" x2="{left + pw}" y2="{sy(yv):.1f}" '
            'stroke="#ddd"/>'
        )
        parts.append(
            f'<text x="{left - 6}" y="{sy(yv) + 4:.1f}" text-anchor="end">{yv:+.0f}</text>'
        )
        parts.append(
            f'<text x="{sx(xv):.1f}" y="{top + ph + 18}" text-anchor="middle">{xv:.0f}</text>'
        )
    parts.append(
        f'<text x="{left + pw / 2}" y="{height - 10}" text-anchor="middle">'
        "games played (self-play or teacher)</text>"
    )
    best_line = " ".join(f"{sx(x):.1f},{sy(b):.1f}" for x, b, _ in pts)
    parts.append(f'<polyline points="{best_line}" fill="none" stroke="#1f77b4" stroke-width="2"/>')
    for x, _, c in pts[1:]:
        parts.append(f'<circle cx="{sx(x):.1f}" cy="{sy(c):.1f}" r="3" fill="#ff7f0e"/>')
    parts.append(
        f'<text x="{left + 10}" y="{top + 14}" fill="#1f77b4">— best network</text>'
        f'<text x="{left + 130}" y="{top + 14}" fill="#ff7f0e">● each candidate</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def config_from(game: Game[Any, Any], **changes: Any) -> TrainConfig:
    """A :class:`TrainConfig` for ``game`` with ``changes`` (unknown names raise TablierError)."""
    known = {f.name for f in dataclasses.fields(TrainConfig)} - {"game"}
    unknown = set(changes) - known
    if unknown:
        raise TablierError(f"unknown training settings: {', '.join(sorted(unknown))}")
    return TrainConfig(game=game.spec, **changes)
