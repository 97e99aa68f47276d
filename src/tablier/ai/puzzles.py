"""Puzzles: positions with one way to force a win, found by the solver.

A *puzzle* is a position where the side to move (the *attacker*) forces a win
within ``depth`` decisions (plies; a turn of several decisions counts each of
them, and who decides comes from ``state.to_move``, never from alternation),
``depth`` is the fewest decisions of any forced win, and exactly one first
move wins within ``depth``.  A position whose only legal move wins is no
puzzle.

:func:`generate` finds them in games the computer plays against itself
(:func:`tablier.ai.match.play_game`), looking at the positions of the last
decisions of each game with :class:`~tablier.ai.solver.Solver` under node
and time limits.  :func:`check` proves a puzzle again from nothing.
:func:`load`, :func:`dump` and :func:`write` read and write the data files;
the package ships one per game spec in ``tablier/ai/puzzle_data``
(:func:`shipped`, :func:`load_shipped`).

The solution is the solver's main line (:meth:`Solver.line`): the attacker's
quickest winning moves and the defender's most stubborn replies, as move
texts (:meth:`Game.move_text`).  It has exactly ``depth`` moves.

The rating (an Elo-like number, higher is harder) is computed from the
puzzle alone (:func:`rating`)::

    rating = 500 + 150 * depth
           + 40 * min(log2(legal first moves), 6)
           + 20 * min(tempting, 10)
           + 200 if the greedy move is wrong

``tempting`` is the number of first moves the game's move prior ranks above
the solution (0 for a game without a prior): the moves a reader looks at
first and must refute; "the greedy move is wrong" when the one-ply
:class:`~tablier.ai.players.GreedyPlayer` (seed 0) would not play the
solution.

>>> from tablier.games import get
>>> game = get("volo", board="mini")
>>> puzzles = load_shipped(game)
>>> len(puzzles) >= 100
True
>>> check(puzzles[0])
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.errors import TablierError
from ..core.game import Game, Move, State
from .knowledge import knowledge_for
from .match import play_game
from .players import GreedyPlayer
from .solver import SearchLimitReached, Solver

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "Puzzle",
    "PuzzleError",
    "check",
    "data_file_name",
    "dump",
    "examine",
    "generate",
    "load",
    "load_shipped",
    "puzzle_id",
    "rating",
    "shipped",
    "write",
]

#: The value of the ``format`` key of a data file.
FORMAT = "tablier-puzzles/1"
#: The deepest puzzles made: forced wins within this many decisions.
MAX_DEPTH = 7


class PuzzleError(TablierError):
    """A puzzle or a data file is malformed, or a puzzle does not prove."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a position, the depth of its forced win and its solution.

    ``id`` is derived from the position (:func:`puzzle_id`), so it stays the
    same from one generation to the next.  ``legal``, ``tempting`` and
    ``greedy_fails`` are the facts the ``rating`` comes from.
    """

    id: str
    game: str
    position: str
    depth: int
    solution: tuple[str, ...]
    rating: int
    legal: int
    tempting: int
    greedy_fails: bool

    def state(self) -> State[Any]:
        """The puzzle's position."""
        from ..games import from_spec

        state: State[Any] = from_spec(self.game).parse_position(self.position)
        return state

    def to_json(self) -> dict[str, Any]:
        """The entry of a data file (the game spec is the file's)."""
        return {
            "id": self.id,
            "position": self.position,
            "depth": self.depth,
            "solution": list(self.solution),
            "rating": self.rating,
            "legal": self.legal,
            "tempting": self.tempting,
            "greedy_fails": self.greedy_fails,
        }


def puzzle_id(position: str) -> str:
    """The stable id of the puzzle at ``position`` (a position string).

    >>> puzzle_id("xobo ........./........./........./........./........./....")
    'ec8d32a44653'
    """
    return hashlib.sha256(position.encode("utf-8")).hexdigest()[:12]


def rating(depth: int, legal: int, tempting: int, greedy_fails: bool) -> int:
    """The difficulty rating of a puzzle (see the module docstring).

    >>> rating(1, 1, 0, False)
    650
    >>> rating(3, 64, 4, True)
    1470
    """
    value = 500 + 150 * depth + 40 * min(math.log2(max(legal, 1)), 6.0)
    value += 20 * min(tempting, 10) + (200 if greedy_fails else 0)
    return round(value)


# -- finding and proving -------------------------------------------------------------


def _winning_first_moves(solver: Solver, state: State[Any], me: int, depth: int) -> list[Move]:
    """The first moves after which ``me`` still forces a win within ``depth - 1``."""
    return [m for m in state.legal_moves() if solver.wins(state.apply_unchecked(m), me, depth - 1)]


def _tempting(state: State[Any], moves: list[Move], answer: Move) -> int:
    """How many first moves the game's move prior ranks above ``answer``."""
    knowledge = knowledge_for(state.game)
    if knowledge.move_prior is None:
        return 0
    priors = knowledge.priors(state, moves)
    mine = priors[moves.index(answer)]
    return sum(1 for p in priors if p > mine)


def examine(
    state: State[Any],
    max_depth: int = MAX_DEPTH,
    max_nodes: int = 50_000,
    max_seconds: float | None = 3.0,
) -> Puzzle | None:
    """The puzzle at ``state``, or None when it is none (or past the limits).

    ``max_nodes`` and ``max_seconds`` (CPU time of this process, so that a
    loaded machine does not change the answer much) bound the solver's work
    for the whole examination (a node can cost much more where hundreds of
    moves are legal); a position it cannot settle within them is skipped.
    """
    return _study(state, max_depth, max_nodes, max_seconds)[0]


def _study(
    state: State[Any], max_depth: int, max_nodes: int, max_seconds: float | None
) -> tuple[Puzzle | None, bool]:
    """:func:`examine`, and whether the side to move may force a win within ``max_depth``.

    The second answer is False only where the solver showed there is no such
    win, or could not find one within its limits.
    """
    if state.outcome is not None:
        return None, False
    moves = state.legal_moves()
    if len(moves) < 2:
        return None, True
    me = state.to_move
    deadline = None if max_seconds is None else time.process_time() + max_seconds
    solver = Solver(
        max_nodes=max_nodes,
        stop=None if deadline is None else (lambda: time.process_time() > deadline),
    )
    try:
        depth = solver.win_depth(state, me, max_depth)
        if depth is None or depth == 0:
            return None, False
        winners = _winning_first_moves(solver, state, me, depth)
        if len(winners) != 1:
            return None, True
        line = solver.line(state, me, depth)
    except SearchLimitReached:
        return None, False
    game = state.game
    texts = []
    s = state
    for move in line:
        texts.append(game.move_text(s, move))
        s = s.apply_unchecked(move)
    answer = winners[0]
    greedy = GreedyPlayer(seed=0, guard=False).choose(state)
    tempting = _tempting(state, moves, answer)
    position = state.to_text()
    greedy_fails = greedy != answer
    puzzle = Puzzle(
        id=puzzle_id(position),
        game=game.spec,
        position=position,
        depth=depth,
        solution=tuple(texts),
        rating=rating(depth, len(moves), tempting, greedy_fails),
        legal=len(moves),
        tempting=tempting,
        greedy_fails=greedy_fails,
    )
    return puzzle, True


def generate(
    game: Game[Any, Any],
    *,
    seed: int = 0,
    max_depth: int = MAX_DEPTH,
    player: str = "medium",
    window: int = 24,
    max_nodes: int = 50_000,
    max_seconds: float | None = 3.0,
    max_plies: int = 400,
    games: int | None = None,
) -> Iterator[Puzzle]:
    """Puzzles from self-play games of ``player`` against itself, as they are found.

    Game ``k`` is :func:`play_game` number ``k`` with ``seed`` (so a seed
    gives the same games, hence the same puzzles); the positions of its last
    ``window`` decisions where the game's winner decides (all of them after a
    draw) are examined (:func:`examine`), from the end back to the second (the
    fourth after a draw) in a row where the side to move has no forced win
    within ``max_depth`` (or none the limits let the solver find).  A position met
    twice is given once; so is a solution met twice in one game (the same win
    while the loser shuffles elsewhere), and the end of a puzzle's winning turn
    (:func:`_repeats`).  It goes on for ``games`` games (for
    ever without a limit): the caller stops when it has enough.
    """
    if not 1 <= max_depth <= MAX_DEPTH:
        raise TablierError(f"the depth must be from 1 to {MAX_DEPTH}, not {max_depth}")
    seen: set[str] = set()
    k = 0
    while games is None or k < games:
        record = play_game(game, player, player, k, seed=seed, max_plies=max_plies)
        k += 1
        states = [game.initial_state()]
        for text in record["moves"]:
            states.append(states[-1].apply(game.parse_move(states[-1], text)))
        winner = record["winner"]
        found: list[Puzzle] = []
        misses = 0
        for state in reversed(states[-window - 1 :]):
            if winner is not None and state.to_move != winner:
                continue  # the loser's forced wins are rare, and proving there is none costly
            position = state.to_text()
            if position in seen:
                continue
            seen.add(position)
            puzzle, won = _study(state, max_depth, max_nodes, max_seconds)
            if puzzle is not None:
                found.append(puzzle)
            misses = 0 if won else misses + 1
            if misses >= (2 if winner is not None else 4):  # earlier ones rarely have a win
                break
        kept: list[Puzzle] = []
        for puzzle in reversed(found):  # the earliest first: it holds the later ones' lines
            if not any(_repeats(puzzle, k) for k in kept):
                kept.append(puzzle)
                yield puzzle


def _repeats(puzzle: Puzzle, earlier: Puzzle) -> bool:
    """True when ``puzzle`` is ``earlier`` again: the same line, or its end within one turn.

    Where a turn has several decisions, the positions between them hold the
    same win cut short; they are not given as puzzles of their own.
    """
    if puzzle.solution == earlier.solution:
        return True
    n = len(earlier.solution) - len(puzzle.solution)
    if n <= 0 or earlier.solution[n:] != puzzle.solution:
        return False
    state = earlier.state()
    me = state.to_move
    for text in earlier.solution[:n]:
        state = state.apply(state.game.parse_move(state, text))
        if state.to_move != me:
            return False
    return True


def check(puzzle: Puzzle) -> None:
    """Prove ``puzzle`` again; raise :class:`PuzzleError` saying what fails.

    Checked: the side to move forces a win within ``depth`` decisions and not
    within fewer; exactly one first move wins within ``depth``, and it is the
    solution's first; the solution has ``depth`` legal moves, the attacker
    keeps a win within the decisions left after each, and it ends in the
    attacker's win.
    """
    state = puzzle.state()
    game = state.game
    where = f"puzzle {puzzle.id}"
    if puzzle_id(puzzle.position) != puzzle.id:
        raise PuzzleError(f"{where}: the id does not match the position")
    if state.outcome is not None:
        raise PuzzleError(f"{where}: the game is already over")
    me = state.to_move
    solver = Solver()
    n = puzzle.depth
    if not solver.wins(state, me, n):
        raise PuzzleError(f"{where}: no forced win within {n} decisions")
    if solver.wins(state, me, n - 1):
        raise PuzzleError(f"{where}: a forced win within {n - 1} decisions exists")
    winners = _winning_first_moves(solver, state, me, n)
    if len(winners) != 1:
        raise PuzzleError(f"{where}: {len(winners)} first moves win within {n}, not one")
    if len(state.legal_moves()) < 2:
        raise PuzzleError(f"{where}: the only legal move wins")
    if len(puzzle.solution) != n:
        raise PuzzleError(f"{where}: the solution has {len(puzzle.solution)} moves, not {n}")
    s = state
    for i, text in enumerate(puzzle.solution):
        try:
            move = game.parse_move(s, text)
        except TablierError as exc:
            raise PuzzleError(f"{where}: solution move {i + 1} ({text}): {exc}") from None
        if i == 0 and move != winners[0]:
            raise PuzzleError(f"{where}: the solution's first move is not the winning one")
        s = s.apply(move)
        if not solver.wins(s, me, n - i - 1):
            raise PuzzleError(f"{where}: after solution move {i + 1} ({text}) the win is gone")
    outcome = s.outcome
    if outcome is None or outcome.winner != me:
        raise PuzzleError(f"{where}: the solution does not end in the attacker's win")


# -- data files ----------------------------------------------------------------------


def data_file_name(game: Game[Any, Any]) -> str:
    """The name of a game's shipped data file: its name and the options that matter.

    >>> from tablier.games import get
    >>> data_file_name(get("volo", board="mini")), data_file_name(get("xobo"))
    ('volo-board-mini.json', 'xobo.json')
    """
    options = dict(game.options)
    for key in list(options):  # leave out every option the others imply
        trial = {k: v for k, v in options.items() if k != key}
        try:
            implied = type(game)(**trial) == game
        except TablierError:
            implied = False
        if implied:
            options = trial
    parts = [game.name, *(f"{k}-{v}" for k, v in options.items())]
    return "-".join(parts).lower() + ".json"


def dump(puzzles: Sequence[Puzzle], game: Game[Any, Any]) -> str:
    """The text of a data file holding ``puzzles`` of ``game`` (sorted by depth, rating)."""
    for p in puzzles:
        if p.game != game.spec:
            raise PuzzleError(f"puzzle {p.id} is for {p.game}, not {game.spec}")
    ordered = sorted(puzzles, key=lambda p: (p.depth, p.rating, p.id))
    data = {"format": FORMAT, "game": game.spec, "puzzles": [p.to_json() for p in ordered]}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


_KEYS = {
    "id": str,
    "position": str,
    "depth": int,
    "solution": list,
    "rating": int,
    "legal": int,
    "tempting": int,
    "greedy_fails": bool,
}


def _entry(raw: object, game: Game[Any, Any], index: int) -> Puzzle:
    where = f"puzzle {index + 1}"
    if not isinstance(raw, dict):
        raise PuzzleError(f"{where}: an object is expected, not {type(raw).__name__}")
    if set(raw) != set(_KEYS):
        missing = sorted(set(_KEYS) - set(raw))
        extra = sorted(set(raw) - set(_KEYS))
        raise PuzzleError(f"{where}: missing keys {missing}, unknown keys {extra}")
    for key, kind in _KEYS.items():
        value = raw[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise PuzzleError(f"{where}: {key!r} must be {kind.__name__}, not {value!r:.40}")
    solution = raw["solution"]
    if not all(isinstance(t, str) and t for t in solution):
        raise PuzzleError(f"{where}: the solution must be a list of move texts")
    depth = raw["depth"]
    if not 1 <= depth <= MAX_DEPTH:
        raise PuzzleError(f"{where}: the depth must be from 1 to {MAX_DEPTH}, not {depth}")
    if len(solution) != depth:
        raise PuzzleError(f"{where}: the solution has {len(solution)} moves, not {depth}")
    if raw["legal"] < 2 or raw["tempting"] < 0:
        raise PuzzleError(f"{where}: 'legal' must be 2 or more and 'tempting' not negative")
    position = raw["position"]
    try:
        game.parse_position(position)
    except TablierError as exc:
        raise PuzzleError(f"{where}: bad position: {exc}") from None
    if puzzle_id(position) != raw["id"]:
        raise PuzzleError(f"{where}: the id {raw['id']!r} does not match the position")
    return Puzzle(
        id=raw["id"],
        game=game.spec,
        position=position,
        depth=depth,
        solution=tuple(solution),
        rating=raw["rating"],
        legal=raw["legal"],
        tempting=raw["tempting"],
        greedy_fails=raw["greedy_fails"],
    )


def load(text: str, game: Game[Any, Any] | None = None) -> list[Puzzle]:
    """Read a data file's text, strictly: :class:`PuzzleError` on any malformed entry.

    With ``game``, the file must be for that game (same spec).
    """
    from ..games import from_spec

    try:
        data = json.loads(text)
    except ValueError as exc:
        raise PuzzleError(f"not a puzzle file: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleError(f"not a puzzle file: the 'format' must be {FORMAT!r}")
    if set(data) != {"format", "game", "puzzles"}:
        raise PuzzleError("a puzzle file has exactly the keys 'format', 'game' and 'puzzles'")
    spec = data["game"]
    if not isinstance(spec, str):
        raise PuzzleError("the 'game' of a puzzle file must be a game spec")
    try:
        file_game = from_spec(spec)
    except TablierError as exc:
        raise PuzzleError(f"bad game spec in the puzzle file: {exc}") from None
    if game is not None and file_game != game:
        raise PuzzleError(f"this puzzle file is for {file_game.spec}, not {game.spec}")
    entries = data["puzzles"]
    if not isinstance(entries, list):
        raise PuzzleError("the 'puzzles' of a puzzle file must be a list")
    puzzles = [_entry(raw, file_game, i) for i, raw in enumerate(entries)]
    ids = [p.id for p in puzzles]
    if len(set(ids)) != len(ids):
        raise PuzzleError("a puzzle file holds the same puzzle twice")
    return puzzles


def _data_dir() -> Any:
    return resources.files("tablier.ai").joinpath("puzzle_data")


def shipped() -> list[str]:
    """The names of the data files shipped with the package."""
    folder = _data_dir()
    return sorted(f.name for f in folder.iterdir() if f.name.endswith(".json"))


def load_shipped(game: Game[Any, Any]) -> list[Puzzle]:
    """The puzzles shipped for ``game`` ([] when none are)."""
    path = _data_dir().joinpath(data_file_name(game))
    if not path.is_file():
        return []
    return load(path.read_text(encoding="utf-8"), game)


def write(path: Path, puzzles: Sequence[Puzzle], game: Game[Any, Any]) -> None:
    """Write a data file (atomically: a half-written file is never left)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dump(puzzles, game), encoding="utf-8")
    tmp.replace(path)
