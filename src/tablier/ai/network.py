"""A small policy-and-value network, evaluated with numpy alone.

The network reads a game's observation planes (the ``observation_planes`` of
the action encoding its :meth:`Game.actions <tablier.core.game.Game.actions>`
declares, the same planes the research adapters give, seen from the player to
decide) and answers a probability for every legal action id of that encoding
and a value in ``[-1, 1]``: the expected result for the player to decide.

Shape (a small residual tower, no batch normalisation so that inference is a
handful of matrix products):

- a 3x3 convolution from the planes to ``channels`` feature maps, ReLU;
- ``blocks`` residual blocks of two 3x3 convolutions each (ReLU, skip);
- policy head: a 1x1 convolution to ``policy_planes`` maps, ReLU, then a
  fully connected layer to one logit per action id; illegal ids are masked
  before the softmax;
- value head: a 1x1 convolution to one map, ReLU, a fully connected layer to
  ``value_hidden`` units, ReLU, one unit, tanh.

Training (:mod:`tablier.ai.train`, PyTorch) writes the weights to an ``.npz``
file with :func:`save_npz`; :class:`Network` loads it with numpy only, so
playing with a trained network never imports PyTorch.  Weights are stored as
float16 (half the size, no measurable change in play) and computed in float32.

>>> import numpy as np
>>> from tablier.games import get
>>> game = get("xobo")
>>> net = Network.random(game, NetConfig(channels=8, blocks=1), seed=0)
>>> obs = observe(game, game.initial_state(), ())
>>> priors, value = net.evaluate(obs, [0, 1, 2])
>>> priors.shape, bool(abs(priors.sum() - 1) < 1e-5), -1 <= value <= 1
((3,), True, True)
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import TablierError
from ..core.game import Game, State

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "FORMAT",
    "NETWORK_DIR_ENV",
    "NetConfig",
    "Network",
    "network_file_name",
    "numpy_module",
    "observe",
    "save_npz",
    "shipped_network",
    "variant_key",
]

#: The format tag stored in every network file.
FORMAT = "tablier-network-1"

#: Environment variable naming a folder searched before the shipped networks.
NETWORK_DIR_ENV = "TABLIER_NETWORK_DIR"


def numpy_module() -> Any:
    """The ``numpy`` module, or a TablierError saying how to install it.

    numpy is a dependency of the core install, imported only here (on first use) so
    that the engines start without it; a broken install still gets a clear error.
    """
    try:
        import numpy
    except ImportError as exc:
        raise TablierError(
            f"playing or training with a network needs numpy ({exc}): pip install numpy"
        ) from None
    return numpy


@dataclass(frozen=True)
class NetConfig:
    """The size of a network (see the module docstring)."""

    channels: int = 32
    blocks: int = 2
    policy_planes: int = 2
    value_hidden: int = 32

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or value < (0 if name == "blocks" else 1):
                raise TablierError(f"network setting {name} must be a positive whole number")


def _codec(game: Game[Any, Any]) -> Any:
    codec = type(game).actions()
    if codec is None:
        raise TablierError(
            f"{game.name} declares no action encoding (Game.actions); a network needs one"
        )
    return codec


def observe(game: Game[Any, Any], state: State[Any], pending: Sequence[int]) -> np.ndarray:
    """The observation planes of ``state`` (height x width x planes, float32) seen by the
    player to decide, with the ``pending`` steps of a move not yet complete."""
    planes = _codec(game).observation_planes(state, state.to_move, tuple(pending))
    xp = numpy_module()
    out: np.ndarray = xp.asarray(planes, dtype=xp.float32)
    return out


def variant_key(game: Game[Any, Any]) -> str | None:
    """The key of the declared variant ``game`` is (its options and defaults), or None.

    >>> from tablier.games import get
    >>> variant_key(get("volo", board="mini")), variant_key(get("volo"))
    ('mini', 'standard')
    """
    found = game.variant()
    if found is not None:
        return found.key
    if not type(game).VARIANTS and type(game)().spec == game.spec:
        return "standard"
    return None


def network_file_name(game: Game[Any, Any]) -> str:
    """``<game>.npz`` for a game's default variant, ``<game>-<variant>.npz`` for another.

    Raises TablierError for options that are no declared variant.

    >>> from tablier.games import get
    >>> network_file_name(get("volo", board="mini"))
    'volo-mini.npz'
    """
    key = variant_key(game)
    if key is None:
        raise TablierError(f"no network can exist for {game.spec}: it is no declared variant")
    variants = type(game).VARIANTS or ()
    if not variants or key == variants[0].key:
        return f"{game.name}.npz"
    return f"{game.name}-{key}.npz"


def shipped_network(game: Game[Any, Any]) -> Path:
    """The network file for ``game``: first in ``$TABLIER_NETWORK_DIR`` when set, then the
    one shipped in the package (``tablier/ai/networks/``).

    Raises TablierError naming the file when there is none.
    """
    name = network_file_name(game)
    folder = os.environ.get(NETWORK_DIR_ENV)
    if folder:
        candidate = Path(folder) / name
        if candidate.is_file():
            return candidate
    shipped = resources.files("tablier.ai") / "networks" / name
    if shipped.is_file():
        return Path(str(shipped))
    raise TablierError(
        f"no trained network is shipped for {game.spec} (looked for networks/{name}"
        + (f" in ${NETWORK_DIR_ENV} and" if folder else "")
        + " in the package); train one with `tablier train` and put it there"
        + f" or point ${NETWORK_DIR_ENV} at its folder"
    )


_BLAS_LIMITED = False


def single_thread_blas(xp: Any) -> None:
    """Make numpy's BLAS use one thread in this process (once; best effort).

    The network's products are small (a few hundred thousand multiply-adds):
    OpenBLAS's threads cost more than they give, ten times more on a loaded
    machine.  Calls OpenBLAS's own setter in the library numpy's wheel ships;
    does nothing when there is none (another BLAS, or numpy built otherwise).
    """
    global _BLAS_LIMITED
    if _BLAS_LIMITED:
        return
    _BLAS_LIMITED = True
    import ctypes

    libs = Path(xp.__file__).resolve().parent.parent / "numpy.libs"
    for lib in sorted(libs.glob("*openblas*.so*")):
        try:
            handle = ctypes.CDLL(str(lib))
        except OSError:
            continue
        for name in (
            "scipy_openblas_set_num_threads64_",
            "scipy_openblas_set_num_threads",
            "openblas_set_num_threads64_",
            "openblas_set_num_threads",
        ):
            setter = getattr(handle, name, None)
            if setter is not None:
                setter(1)
                return


def _conv3(xp: Any, x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3x3 convolution with zero padding of ``x`` (H x W x C); ``w`` is (9C x O)."""
    h, wd, _ = x.shape
    p = xp.pad(x, ((1, 1), (1, 1), (0, 0)))
    cols = xp.concatenate([p[dy : dy + h, dx : dx + wd] for dy in range(3) for dx in range(3)], 2)
    out: np.ndarray = cols.reshape(h * wd, -1) @ w + b
    return out.reshape(h, wd, -1)


def _relu(xp: Any, x: np.ndarray) -> np.ndarray:
    out: np.ndarray = xp.maximum(x, 0.0, out=x)
    return out


class Network:
    """A policy-and-value network with numpy inference (see the module docstring).

    ``arrays`` holds the weights in the layout :func:`save_npz` writes
    (``conv{i}.w`` as (9 * in) x out matrices, fully connected layers as
    in x out); ``meta`` the description (``config``, ``spec``, ``num_actions``,
    ``observation_shape`` and whatever training adds).
    """

    def __init__(self, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
        xp = self._xp = numpy_module()
        single_thread_blas(xp)
        self.meta: dict[str, Any] = dict(meta)
        if self.meta.get("format") != FORMAT:
            raise TablierError(
                f"not a Tablier network (format {self.meta.get('format')!r}, expected {FORMAT})"
            )
        self.config = NetConfig(**self.meta["config"])
        self.num_actions = int(self.meta["num_actions"])
        self.observation_shape = tuple(int(n) for n in self.meta["observation_shape"])
        try:
            self.w = {k: xp.asarray(v, dtype=xp.float32) for k, v in arrays.items()}
            self._check()
        except (KeyError, ValueError) as exc:
            raise TablierError(f"the network's weights do not fit its description: {exc}") from None

    def _check(self) -> None:
        h, wd, c = self.observation_shape
        f = self.config.channels
        shapes = {"conv0.w": (9 * c, f), "pol.fc.w": (self.config.policy_planes * h * wd, None)}
        for key, shape in shapes.items():
            got = self.w[key].shape
            if got[0] != shape[0] or (shape[1] is not None and got[1] != shape[1]):
                raise ValueError(f"{key} has shape {got}")
        if self.w["pol.fc.w"].shape[1] != self.num_actions:
            raise ValueError("the policy head does not match the action space")

    @classmethod
    def load(cls, path: str | os.PathLike[str] | io.BytesIO) -> Network:
        """Read a network written by :func:`save_npz` (TablierError if it cannot)."""
        xp = numpy_module()
        try:
            with xp.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files if k != "meta"}
                meta = json.loads(bytes(data["meta"]).decode("utf-8"))
        except (OSError, ValueError, KeyError) as exc:
            raise TablierError(f"cannot read the network {path}: {exc}") from None
        return cls(arrays, meta)

    @classmethod
    def random(
        cls, game: Game[Any, Any], config: NetConfig | None = None, seed: int = 0
    ) -> Network:
        """An untrained network for ``game`` (small random weights; tests and examples)."""
        config = config or NetConfig()
        meta = describe(game, config)
        xp = numpy_module()
        rng = xp.random.default_rng(seed)
        arrays = {
            name: (rng.standard_normal(shape) * (0.0 if name.endswith(".b") else 0.1)).astype(
                xp.float32
            )
            for name, shape in weight_shapes(meta).items()
        }
        return cls(arrays, meta)

    def forward(self, obs: np.ndarray) -> tuple[np.ndarray, float]:
        """All action logits and the value of one observation (H x W x C)."""
        w, xp = self.w, self._xp
        x = _relu(xp, _conv3(xp, obs, w["conv0.w"], w["conv0.b"]))
        for i in range(self.config.blocks):
            y = _relu(xp, _conv3(xp, x, w[f"res{i}.a.w"], w[f"res{i}.a.b"]))
            y = _conv3(xp, y, w[f"res{i}.b.w"], w[f"res{i}.b.b"])
            x = _relu(xp, x + y)
        h, wd, f = x.shape
        flat = x.reshape(h * wd, f)
        p = _relu(xp, flat @ w["pol.conv.w"] + w["pol.conv.b"])  # (HW, P)
        logits: np.ndarray = p.T.reshape(-1) @ w["pol.fc.w"] + w["pol.fc.b"]
        v = _relu(xp, flat @ w["val.conv.w"] + w["val.conv.b"]).reshape(-1)
        v = _relu(xp, v @ w["val.fc1.w"] + w["val.fc1.b"])
        value = float(xp.tanh(v @ w["val.fc2.w"] + w["val.fc2.b"])[0])
        return logits, value

    def evaluate(self, obs: np.ndarray, legal: Sequence[int]) -> tuple[np.ndarray, float]:
        """Priors over the ``legal`` ids (in their order, summing to 1) and the value."""
        xp = self._xp
        logits, value = self.forward(obs)
        sub = logits[xp.asarray(legal, dtype=xp.intp)]
        sub = xp.exp(sub - sub.max())
        return sub / sub.sum(), value


def describe(game: Game[Any, Any], config: NetConfig) -> dict[str, Any]:
    """The ``meta`` of a network of ``config`` for ``game``."""
    codec = _codec(game)
    return {
        "format": FORMAT,
        "game": game.name,
        "spec": game.spec,
        "config": asdict(config),
        "num_actions": int(codec.num_actions(game)),
        "observation_shape": [int(n) for n in codec.observation_shape(game)],
    }


def weight_shapes(meta: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
    """Every array of a network described by ``meta`` with its numpy shape."""
    cfg = NetConfig(**meta["config"])
    h, wd, c = (int(n) for n in meta["observation_shape"])
    f, hw = cfg.channels, h * wd
    shapes: dict[str, tuple[int, ...]] = {"conv0.w": (9 * c, f), "conv0.b": (f,)}
    for i in range(cfg.blocks):
        for part in "ab":
            shapes[f"res{i}.{part}.w"] = (9 * f, f)
            shapes[f"res{i}.{part}.b"] = (f,)
    shapes.update(
        {
            "pol.conv.w": (f, cfg.policy_planes),
            "pol.conv.b": (cfg.policy_planes,),
            "pol.fc.w": (cfg.policy_planes * hw, int(meta["num_actions"])),
            "pol.fc.b": (int(meta["num_actions"]),),
            "val.conv.w": (f, 1),
            "val.conv.b": (1,),
            "val.fc1.w": (hw, cfg.value_hidden),
            "val.fc1.b": (cfg.value_hidden,),
            "val.fc2.w": (cfg.value_hidden, 1),
            "val.fc2.b": (1,),
        }
    )
    return shapes


def save_npz(
    path: str | os.PathLike[str] | io.BytesIO,
    arrays: Mapping[str, np.ndarray],
    meta: Mapping[str, Any],
) -> None:
    """Write a network (weights as float16, ``meta`` as JSON) that :meth:`Network.load` reads."""
    xp = numpy_module()
    expected = weight_shapes(meta)
    if set(arrays) != set(expected):
        raise TablierError(f"the weights must be exactly {sorted(expected)}")
    data = {k: xp.asarray(v, dtype=xp.float16) for k, v in arrays.items()}
    blob = xp.frombuffer(json.dumps(dict(meta), sort_keys=True).encode("utf-8"), dtype=xp.uint8)
    xp.savez_compressed(path, meta=blob, **data)
