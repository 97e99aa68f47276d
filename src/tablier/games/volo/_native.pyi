"""Volo's compiled core (``_native.c``): the same rules as ``rules.py``, in C."""

from collections.abc import Callable, Sequence
from typing import Any

from ...core.game import Move
from .rules import VoloMove, VoloState

PORTED: int

def setup(
    state_class: type[VoloState],
    move_class: type[VoloMove],
    context_factory: Callable[[Any], object],
) -> None: ...
def context(
    board: object,
    stride: int,
    shifts: tuple[int, ...],
    all: int,
    safe_cut: int,
    neighbours: dict[int, int],
    window: dict[int, int],
    arcs: tuple[int, ...],
    optional_pass: bool,
    outcomes: tuple[object, ...],
) -> object: ...
def set_weights(
    evaluation: tuple[float, float, float], prior: tuple[float, float, float, float, float]
) -> None: ...
def generate(state: VoloState) -> list[VoloMove]: ...
def apply(state: VoloState, move: VoloMove) -> VoloState: ...
def features(state: VoloState, player: int) -> tuple[int, int, float]: ...
def evaluate(state: VoloState) -> float: ...
def move_prior(state: VoloState, moves: Sequence[VoloMove]) -> list[float]: ...
def playout(
    state: VoloState, seed: int, limit: int, weighted: bool, cutoff: bool
) -> tuple[float, list[tuple[int, Move]]]: ...
def prove(
    state: VoloState, attacker: int, depth: int, max_nodes: int, max_seconds: float
) -> tuple[bool | None, int]: ...
def may_divide(state: VoloState, open_before: int, landed: int) -> bool: ...
