"""The search's loops over a node's children, compiled (``src/tablier/ai/_native.c``)."""

from typing import Any, TypeVar

_N = TypeVar("_N")

def bind(cls: type[Any], /) -> None: ...
def select(
    children: list[_N],
    parent_mean: float,
    log_n: float,
    exploration: float,
    bias: float,
    rave: bool,
    rave_k: float,
    normalize: bool,
    /,
) -> _N: ...
def descend(
    node: Any,
    children: list[_N] | None,
    exploration: float,
    bias: float,
    rave: bool,
    rave_k: float,
    normalize: bool,
    /,
) -> _N: ...
def proof(children: list[Any], /) -> float | None: ...
def scaled(weights: Any, /) -> list[float] | None: ...
def children(
    state: Any,
    moves: list[Any],
    priors: list[float] | None,
    player: int,
    decisive: bool,
    solver: bool,
    /,
) -> list[Any]: ...
def backup(
    path: list[Any], played: list[tuple[int, Any]], reward0: float, rave: bool, /
) -> None: ...
