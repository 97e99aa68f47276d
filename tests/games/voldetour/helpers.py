"""Shared helpers of the Voldetour tests: games, positions and random play."""

from __future__ import annotations

import dataclasses
import random

from tablier.games.voldetour import Voldetour, VState


def game(**options) -> Voldetour:
    """A Voldetour game with ``options``."""
    return Voldetour(**options)


def play(state: VState, *texts: str) -> VState:
    """Apply decisions given in notation (each checked by parse_move and apply)."""
    for text in texts:
        state = state.apply(state.game.parse_move(state, text))
    return state


def eager_move(state: VState, rng: random.Random):
    """A random decision that favours building and getting the Lord out and forward.

    Uniformly random play mostly loses by leaving the Lord on its tower; this
    policy reaches varied mid-game positions (Lords out, stacks, slopes, nesting).
    """
    moves = state.legal_moves()
    lords = [m for m in moves if m.kind == "lord"]
    puts = [m for m in moves if m.kind == "put"]
    takes = [m for m in moves if m.kind == "take"]
    if puts:
        # prefer resting on something: higher pieces make 3D positions
        return rng.choice(puts)
    if takes and rng.random() < 0.8:
        return rng.choice(takes)
    if lords and rng.random() < 0.9:
        return rng.choice(lords)
    return rng.choice(moves)


def _touches(state: VState, move) -> bool:
    """Whether a block put lands beside another piece (makes enclosures likelier)."""
    o = state.game.pieceset.orientations[move.key[3]]
    fp = o.base << move.key[4]
    grid = state.game.pieceset.grid
    ring = grid.dilate(fp) & ~fp
    return bool(ring & state.board.occ[move.key[5]])


def built_position(game: Voldetour, rng: random.Random, pieces: int | None = None) -> VState:
    """A random legal construction with Lords placed at random, then a few decisions.

    Pieces are taken and put by both players in random order (ignoring turns,
    so that the third-turn rule does not end most games first), the Lords are
    set on random flat tops (or left on their towers), the turn number is drawn,
    and zero to two decisions of the new turn are played (reaching hands, used
    actions, lifted pieces).
    """
    ps = game.pieceset
    state = game.initial_state()
    if pieces is None:
        pieces = rng.randrange(0, 2 * (len(ps.blocks) + ps.stairs) + 6)
    for _ in range(pieces):
        p = rng.randrange(2)
        state = VState(game, state.blocks, state.stairs, state.lords, p + 1)
        takes = [m for m in state.legal_moves() if m.kind == "take"]
        if not takes:
            continue
        state = state.apply_unchecked(rng.choice(takes))
        puts = state.legal_moves()
        # favour pieces resting on others and nested stairs: more 3D positions
        high = [
            m
            for m in puts
            if (m.key[1] == "B" and m.key[5]) or (m.key[1] == "S" and (m.key[3] or m.key[5]))
        ]
        near = [m for m in puts if m.key[1] == "B" and _touches(state, m)]
        pool = (
            high if high and rng.random() < 0.6 else near if near and rng.random() < 0.5 else puts
        )
        state = state.apply_unchecked(rng.choice(pool))
    lords = list(ps.towers)
    board = state.board
    for p in (0, 1):
        if rng.random() < 0.8:
            spots = [
                a
                for a in ps.grid.indices
                if board.height(a) is not None and a not in ps.towers and a != lords[1 - p]
            ]
            if spots:
                lords[p] = rng.choice(spots)
    on_tower = lords[0] == ps.towers[0] or lords[1] == ps.towers[1]
    turn = rng.randrange(1, 6 if on_tower else 40)
    state = VState(game, state.blocks, state.stairs, tuple(lords), turn)
    if game.repetition:
        state = dataclasses.replace(state, history=(state.repetition_key(),))
    for _ in range(rng.randrange(3)):
        if state.outcome is not None:
            break
        state = state.apply_unchecked(eager_move(state, rng))
    return state


def random_positions(game: Voldetour, count: int, seed: int) -> list:
    """``count`` varied positions: random constructions and random continuations."""
    rng = random.Random(seed)
    return [built_position(game, rng) for _ in range(count)]
