"""``tablier puzzles generate`` and ``tablier puzzle``: make puzzles, solve them in the terminal.

``tablier puzzles generate GAME --count N`` finds puzzles in the AI's
self-play games (:func:`tablier.ai.puzzles.generate`) and writes a data file;
with ``--out`` naming an existing file of the same game, its puzzles are kept
and new ones added (a long generation can be stopped and resumed).

``tablier puzzle GAME`` shows a shipped puzzle (or one from ``--file``),
reads the player's moves, answers each correct one with the defender's most
stubborn reply, and offers ``hint`` (the piece of the answer: the first move's
text cut short), ``solution`` and ``quit``.  See ``docs/cli.md``.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from ..ai import puzzles as lib
from ..ai.solver import Solver
from ..core.errors import TablierError
from ..core.game import Game, State
from .errors import FILE, FLOAT, INT, InputError
from .session import LineReader, describe_outcome

__all__ = ["puzzle_command", "puzzles_group", "register"]

_CONTEXT = {"help_option_names": ["-h", "--help"]}
_OPEN = {"ignore_unknown_options": True, "allow_extra_args": True, **_CONTEXT}


def _game(args: tuple[str, ...]) -> Game[Any, Any]:
    """``GAME [--OPTION VALUE ...]`` read as ``tablier play`` reads it."""
    from .main import parse_game_args

    game = parse_game_args(args)
    assert game is not None
    return game


def _depth(value: int | None, name: str = "--depth") -> int | None:
    if value is not None and not 1 <= value <= lib.MAX_DEPTH:
        raise InputError(f"{name} must be from 1 to {lib.MAX_DEPTH}, not {value}")
    return value


def _read_file(path: str, game: Game[Any, Any] | None) -> list[lib.Puzzle]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None
    try:
        return lib.load(text, game)
    except TablierError as exc:
        raise InputError(f"bad puzzle file {path}: {exc}") from None


@click.group("puzzles", context_settings=_CONTEXT)
def puzzles_group() -> None:
    """Make puzzles (forced wins with a single first move)."""


@puzzles_group.command("generate", context_settings=_OPEN)
@click.argument("args", nargs=-1, type=click.UNPROCESSED, metavar="GAME [--OPTION VALUE ...]")
@click.option("--count", type=INT, required=True, help="How many puzzles to find.")
@click.option("--seed", type=INT, default=0, show_default=True, help="Seed of the games.")
@click.option(
    "--max-depth", type=INT, default=lib.MAX_DEPTH, show_default=True, help="Deepest puzzles."
)
@click.option("--per-depth", type=INT, default=None, help="Keep at most this many per depth.")
@click.option("--player", default="medium", show_default=True, help="The AI that plays the games.")
@click.option(
    "--max-nodes", type=INT, default=50_000, show_default=True, help="Solver nodes per position."
)
@click.option(
    "--max-seconds",
    type=FLOAT,
    default=3.0,
    show_default=True,
    help="Solver CPU seconds per position.",
)
@click.option("--games", type=INT, default=None, help="Stop after this many games.")
@click.option("--out", type=FILE, default=None, help="Write (or add to) this data file.")
def generate_command(
    args: tuple[str, ...],
    count: int,
    seed: int,
    max_depth: int,
    per_depth: int | None,
    player: str,
    max_nodes: int,
    max_seconds: float,
    games: int | None,
    out: str | None,
) -> None:
    """Find COUNT puzzles of GAME in the AI's games against itself."""
    game = _game(args)
    _depth(max_depth, "--max-depth")
    if count < 1:
        raise InputError("--count must be 1 or more")
    from ..ai.players import make_player

    try:
        make_player(player, game)
    except TablierError as exc:
        raise InputError(f"bad --player: {exc}") from None
    found: list[lib.Puzzle] = []
    if out is not None and Path(out).exists():
        found = _read_file(out, game)
    ids = {p.id for p in found}
    depths = Counter(p.depth for p in found)
    err = Console(stderr=True, highlight=False)
    for puzzle in lib.generate(
        game,
        seed=seed,
        max_depth=max_depth,
        player=player,
        max_nodes=max_nodes,
        max_seconds=max_seconds,
        games=games,
    ):
        if len(found) >= count:
            break
        if puzzle.id in ids or (per_depth is not None and depths[puzzle.depth] >= per_depth):
            continue
        found.append(puzzle)
        ids.add(puzzle.id)
        depths[puzzle.depth] += 1
        err.print(
            f"{len(found)}/{count}: depth {puzzle.depth}, rating {puzzle.rating}, "
            f"{' '.join(puzzle.solution)}",
            markup=False,
        )
        if out is not None:
            lib.write(Path(out), found, game)
    if out is None:
        click.echo(lib.dump(found, game), nl=False)
    else:
        lib.write(Path(out), found, game)
    summary = ", ".join(f"depth {d}: {n}" for d, n in sorted(depths.items())) or "none"
    err.print(f"{len(found)} puzzle(s) ({summary})", markup=False)


HELP = """Commands:
  <move>     play a move (the game's notation)
  moves      list the legal moves
  hint       a hint: the first move's piece of notation
  solution   show the whole solution
  position   print the position string
  next       another puzzle
  quit       stop"""


class PuzzleSession:
    """One puzzle at a time in the terminal: the player attacks, the solver defends."""

    def __init__(
        self,
        console: Console,
        read: Any,
        puzzles: list[lib.Puzzle],
        rng: random.Random,
    ) -> None:
        self.console = console
        self.read = read
        self.puzzles = puzzles
        self.rng = rng
        self.solved = 0

    def say(self, message: str, style: str | None = None) -> None:
        self.console.print(message, style=style, markup=False, highlight=False, soft_wrap=True)

    def run(self) -> None:
        """Puzzles until ``quit`` or the end of input."""
        order = list(self.puzzles)
        self.rng.shuffle(order)
        for puzzle in order:
            if not self.play(puzzle):
                break
        self.say(f"Solved: {self.solved}.")

    def play(self, puzzle: lib.Puzzle) -> bool:
        """One puzzle; False when the player asked to stop."""
        state: State[Any] = puzzle.state()
        game = state.game
        me = state.to_move
        line = list(puzzle.solution)  # the expected moves from ``state`` on
        self.say(
            f"Puzzle {puzzle.id} (rating {puzzle.rating}): "
            f"{game.player_name(me)} to play and win within {puzzle.depth} decision(s)."
        )
        self.console.print(game.render(state))
        while True:
            if state.outcome is not None:
                self.say(f"Solved! {describe_outcome(game, state)}", style="bold green")
                self.solved += 1
                return True
            if state.to_move != me:
                reply = game.parse_move(state, line[0])
                self.say(f"{game.player_name(state.to_move)} answers {line[0]}")
                state = state.apply(reply)
                line.pop(0)
                self.console.print(game.render(state, last_move=reply))
                continue
            text = self.read(f"{game.player_name(me)}> ")
            if text is None:
                return False
            word = text.strip()
            command = word.lower()
            if not word:
                continue
            if command in ("quit", "exit", "q"):
                return False
            if command == "help":
                self.say(HELP)
            elif command == "moves":
                self.say(", ".join(game.move_text(state, m) for m in state.legal_moves()))
            elif command == "hint":
                answer = line[0]
                self.say(f"hint: the move starts with {answer[: max(1, len(answer) // 2)]}")
            elif command == "solution":
                self.say("solution: " + " ".join(line))
            elif command == "position":
                self.say(state.to_text())
            elif command == "next":
                return True
            else:
                state, line = self._try(state, line, word)

    def _try(self, state: State[Any], line: list[str], text: str) -> tuple[State[Any], list[str]]:
        """Play the player's move ``text``: the position and line after it (unchanged if wrong)."""
        game = state.game
        me = state.to_move
        try:
            move = game.parse_move(state, text)
        except TablierError as exc:
            self.say(f"error: {exc}", style="bold red")
            return state, line
        after = state.apply(move)
        left = len(line) - 1
        if game.move_text(state, move) == line[0]:
            rest = line[1:]
        elif Solver().wins(after, me, left):
            # Another move that wins as fast (possible after the first): the
            # solver finds the most stubborn defence against it.
            rest, s = [], after
            for m in Solver().line(after, me, left):
                rest.append(game.move_text(s, m))
                s = s.apply_unchecked(m)
        else:
            self.say("Not the winning move: try again (or 'hint').", style="bold red")
            return state, line
        self.say("Correct.", style="bold green")
        self.console.print(game.render(after, last_move=move))
        return after, rest


@click.command("puzzle", context_settings=_OPEN)
@click.argument("args", nargs=-1, type=click.UNPROCESSED, metavar="GAME [--OPTION VALUE ...]")
@click.option("--depth", type=INT, default=None, help="Only puzzles of this depth (1-7).")
@click.option("--id", "puzzle_id", default=None, help="This puzzle (its id).")
@click.option("--file", "file", type=FILE, default=None, help="Puzzles from this data file.")
@click.option("--seed", type=INT, default=None, help="Seed of the puzzles' order.")
def puzzle_command(
    args: tuple[str, ...],
    depth: int | None,
    puzzle_id: str | None,
    file: str | None,
    seed: int | None,
) -> None:
    """Solve puzzles of GAME: find the forced win, the computer defends."""
    game = _game(args)
    _depth(depth)
    puzzles = _read_file(file, game) if file is not None else lib.load_shipped(game)
    if not puzzles:
        raise InputError(f"no puzzles for {game.spec}")
    if depth is not None:
        puzzles = [p for p in puzzles if p.depth == depth]
        if not puzzles:
            raise InputError(f"no puzzles of depth {depth} for {game.spec}")
    if puzzle_id is not None:
        puzzles = [p for p in puzzles if p.id == puzzle_id]
        if not puzzles:
            raise InputError(f"no puzzle {puzzle_id!r} for {game.spec}")
    console = Console(highlight=False)
    session = PuzzleSession(console, LineReader(console), puzzles, random.Random(seed))
    session.run()


def register(group: click.Group) -> None:
    """Add ``puzzles`` (``generate``) and ``puzzle`` to the ``tablier`` command group."""
    group.add_command(puzzles_group)
    group.add_command(puzzle_command)
