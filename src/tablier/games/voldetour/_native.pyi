"""Voldetour's compiled core (``_native.c``): the engine of ``rules.py`` and the hot paths
of ``ai.py``.  Every function raises TypeError or ValueError on arguments of the wrong kind."""

from collections.abc import Sequence
from typing import Any

from .rules import VMove, VState

PORTED: int

def init(
    vstate_type: type[VState],
    unset: object,
    move_cls: type[VMove],
    stride: int,
    board: int,
    towers: tuple[int, int],
    tower_height: int,
    stairs: int,
    kinds: list[tuple[int, int, int]],
    orientations: list[tuple[int, int, int, tuple[int, ...], int]],
    put_blocks: list[Any],
    put_stairs: list[Any],
    take_blocks: list[VMove],
    take_stair: VMove,
    end: VMove,
    pass_: VMove,
    /,
) -> object | None: ...
def generate(tables: object, state: VState, /) -> list[VMove]: ...
def apply(
    tables: object, state: VState, move: VMove, repetition: bool, max_turns: int, /
) -> VState: ...
def outcome(tables: object, state: VState, max_turns: int, /) -> int: ...
def repetition_key(tables: object, state: VState, /) -> int: ...
def move_prior(tables: object, state: VState, moves: Sequence[VMove], /) -> list[float]: ...
def evaluate(tables: object, state: VState, /) -> float: ...
def set_lord_weight(weight: float, /) -> float: ...
def set_tempo(tempo: float, /) -> float: ...
def set_pin(weight: float, /) -> float: ...
def set_pillar(cost: float, /) -> float: ...
def set_playout_power(power: float, /) -> float: ...
def path_distance(tables: object, state: VState, player: int, walls: int = 0, /) -> int: ...
def playout(
    tables: object,
    state: VState,
    seed: int,
    limit: int,
    weighted: bool,
    cutoff: bool,
    repetition: bool,
    max_turns: int,
    /,
) -> tuple[float, list[tuple[int, VMove]]]: ...
def prove(
    tables: object,
    max_turns: int,
    repetition: bool,
    state: VState,
    attacker: int,
    depth: int,
    max_nodes: int,
    max_seconds: float,
    /,
) -> tuple[bool | None, int]: ...
