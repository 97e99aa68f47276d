"""The AI's part of the ``tablier`` command: ``analyse``, ``solve``, ``arena``,
and the small API the play loop uses for ``--ai LEVEL`` and ``hint``.

Wiring (``main.py`` registers the commands on its group), and the play loop's use::

    >>> import click
    >>> from tablier.games import get
    >>> group = click.Group("tablier")
    >>> register(group)  # adds analyse, solve and arena
    >>> sorted(group.commands)
    ['analyse', 'arena', 'solve']
    >>> game = get("xobo")
    >>> state = game.initial_state()
    >>> ai = make_ai("easy:seconds=none,iterations=30", game, seed=1)  # once per game
    >>> move = choose_player_move(ai, state)  # given a console, shows a progress line
    >>> move in state.legal_moves()
    True
    >>> hint_lines(state, seconds=0.05)[0]  # the 'hint' command
    'best moves (visits, estimated chance of winning for the side to move):'
    >>> make_ai("grandmaster", game)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    tablier.cli.errors.InputError: --ai: unknown player 'grandmaster' (known: random, greedy, ...)

Every command works for every registered game through the core protocol.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import click
from rich.console import Console

from .. import games as registry
from ..ai.arena import BACKENDS, run_match, sprt_result, summarise
from ..ai.knowledge import knowledge_for
from ..ai.mcts import MoveStat, SearchProgress
from ..ai.players import Level, MCTSPlayer, Player, make_player
from ..ai.solver import Solver
from ..ai.sprt import validate as validate_sprt
from ..core.errors import TablierError
from ..core.game import Game, Move, State
from ..core.position import parse_float
from .errors import FILE, FLOAT, INT, InputError

__all__ = [
    "analyse_command",
    "arena_command",
    "choose_player_move",
    "hint_lines",
    "make_ai",
    "register",
    "solve_command",
]

_CONTEXT = {"help_option_names": ["-h", "--help"]}

#: The budget of the ``hint`` command in ``tablier play`` (seconds).
HINT_SECONDS = 1.0


def _read_state(text: str) -> State:
    """A position string, or a game name/spec alone meaning its initial position."""
    try:
        return registry.start_state(text)
    except TablierError as exc:
        raise InputError(f"bad position: {exc}") from None


def _read_args(args: tuple[str, ...]) -> State:
    """``POSITION`` alone, or ``GAME POSITION`` (a game spec, then a full position or its body)."""
    if len(args) == 1:
        return _read_state(args[0])
    if len(args) != 2:
        raise click.UsageError('give a POSITION, or a GAME and a POSITION: volo:board=mini "..."')
    game = _read_game(args[0])
    if not args[1].strip():
        return game.initial_state()
    try:
        return game.parse_position(args[1])
    except TablierError as exc:
        raise InputError(f"bad position: {exc}") from None


def _read_game(text: str) -> Game:
    try:
        return registry.from_spec(text.strip())
    except TablierError as exc:
        raise InputError(str(exc)) from None


# -- the API for the play loop ----------------------------------------------------------


def make_ai(level: str, game: Game, seed: int | None = None) -> Player:
    """The player for ``--ai LEVEL`` (a level name or any player spec).

    Raises :class:`~tablier.cli.errors.InputError` naming the known levels
    when ``level`` cannot be read.
    """
    try:
        return make_player(level, game, seed=seed)
    except TablierError as exc:
        raise InputError(f"--ai: {exc}") from None


def _describe_progress(name: str, p: SearchProgress) -> str:
    text = f"{name} is thinking… {100 * p.fraction:3.0f}%  {p.iterations} simulations"
    if p.best is not None:
        text += f"  (best so far {p.best.move}, {100 * p.best.score:.0f}%)"
    return text


def choose_player_move(
    player: Player,
    state: State,
    console: Console | None = None,
    progress: Callable[[SearchProgress], None] | None = None,
) -> Move:
    """Let ``player`` choose a move of ``state``, showing progress on ``console``.

    ``progress``, when given, is also called with each
    :class:`~tablier.ai.mcts.SearchProgress` (about five times a second).
    """
    if console is None:
        return player.choose(state, progress)
    with console.status(f"{player.name} is thinking…") as status:

        def report(p: SearchProgress) -> None:
            status.update(_describe_progress(player.name, p))
            if progress is not None:
                progress(p)

        return player.choose(state, report)


def format_stats(stats: list[MoveStat]) -> list[str]:
    """One line per move: rank, move, visits, win estimate for the side to move."""
    return [f"{i:>2}. {s.describe()}" for i, s in enumerate(stats, 1)]


def hint_lines(
    state: State,
    console: Console | None = None,
    seconds: float = HINT_SECONDS,
    top: int = 5,
    seed: int | None = None,
) -> list[str]:
    """The ``hint`` command: the best moves after a short search, as lines of text."""
    if state.outcome is not None:
        return ["the game is over"]
    player = MCTSPlayer(Level(iterations=None, seconds=seconds), seed=seed, name="hint")
    if console is None:
        stats = player.analyse(state, top=top)
    else:
        with console.status("thinking…") as status:
            stats = player.analyse(
                state, lambda p: status.update(_describe_progress("hint", p)), top=top
            )
    return [
        "best moves (visits, estimated chance of winning for the side to move):",
        *format_stats(stats),
    ]


# -- commands ---------------------------------------------------------------------------


@click.command("analyse", context_settings=_CONTEXT)
@click.argument("position", nargs=-1, required=True)
@click.option("--iterations", "-i", type=INT, default=None, help="Simulations (default 2000).")
@click.option("--seconds", "-s", type=FLOAT, default=None, help="Time limit instead/as well.")
@click.option("--top", "-n", type=INT, default=8, show_default=True, help="Moves to list.")
@click.option("--seed", type=INT, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def analyse_command(
    position: tuple[str, ...],
    iterations: int | None,
    seconds: float | None,
    top: int,
    seed: int,
    as_json: bool,
) -> None:
    """Search POSITION and list the top moves with visits and win estimates.

    POSITION is a position string (quote it) or a game spec alone, such as
    `volo` or `volo:board=mini`, for its initial position; `GAME POSITION`
    (a game spec, then the position or its body) works too.  With neither
    --iterations nor --seconds the search runs 2000 simulations (deterministic
    for a given --seed).
    """
    state = _read_args(position)
    if state.outcome is not None:
        raise click.UsageError("the game is over in this position: nothing to analyse")
    if top < 1:
        raise click.UsageError("--top must be at least 1")
    if iterations is None and seconds is None:
        iterations = 2000
    parts = [
        f"iterations={iterations if iterations is not None else 'none'}",
        f"seconds={seconds if seconds is not None else 'none'}",
    ]
    try:
        player = make_player("mcts:" + ",".join(parts), state.game, seed=seed)
        assert isinstance(player, MCTSPlayer)
        start = time.perf_counter()
        stats = player.analyse(state, top=top)
    except TablierError as exc:
        raise InputError(str(exc)) from None
    elapsed = time.perf_counter() - start
    tree = player._tree
    sims = tree.iterations if tree is not None else 0
    side = state.game.player_name(state.to_move)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "position": state.to_text(),
                    "to_move": state.to_move,
                    "simulations": sims,
                    "seconds": round(elapsed, 3),
                    "moves": [
                        {
                            "move": str(s.move),
                            "visits": s.visits,
                            "score": round(s.score, 4),
                            "proven": s.proven,
                        }
                        for s in stats
                    ],
                }
            )
        )
        return
    click.echo(f"{side} to move; {sims} simulations in {elapsed:.2f} s")
    for line in format_stats(stats):
        click.echo(line)


#: How many positions of a compiled proof search one of ``--max-nodes`` is worth (each
#: costs about a hundredth of the generic solver's node).
COMPILED_NODES = 100


@click.command("solve", context_settings=_CONTEXT)
@click.argument("position", nargs=-1, required=True)
@click.option("--depth", "-d", type=INT, required=True, help="Decisions (plies) to search.")
@click.option("--max-nodes", type=INT, default=None, help="Give up after this many nodes.")
@click.option("--seconds", type=FLOAT, default=None, help="Give up after this long.")
def solve_command(
    position: tuple[str, ...], depth: int, max_nodes: int | None, seconds: float | None
) -> None:
    """Prove a forced win within DEPTH decisions from POSITION, or say there is none.

    Prints the winning line (the winner's quickest moves and the loser's
    longest defence) or "no forced win within N".  A turn of several decisions
    counts one per decision.  POSITION may also be given as `GAME POSITION`
    (a game spec, then the position string or its body).  A game with a
    compiled proof search (Volo, XoBo; Voldétour to three decisions) answers
    through it, with the same answers: --max-nodes then bounds its positions at a
    hundred times the number.
    """
    state = _read_args(position)
    if depth < 0:
        raise click.UsageError("--depth must be 0 or more")
    if max_nodes is not None and max_nodes < 1:
        raise click.UsageError("--max-nodes must be at least 1")
    if seconds is not None and seconds <= 0:
        raise click.UsageError("--seconds must be positive")
    solver = Solver(
        max_nodes=max_nodes,
        max_seconds=seconds,
        prove=knowledge_for(state.game).prove,
        prove_nodes=COMPILED_NODES * max_nodes if max_nodes is not None else 1 << 62,
    )
    result = solver.solve(state, depth)
    click.echo(result.describe())
    compiled = f" and {solver.proved_nodes} compiled" if solver.proved_nodes else ""
    click.echo(f"{result.nodes} nodes{compiled} in {result.seconds:.3f} s", err=True)


@click.command("arena", context_settings=_CONTEXT)
@click.argument("game")
@click.argument("a")
@click.argument("b")
@click.option("-n", "--games", type=INT, default=20, show_default=True, help="Games to play.")
@click.option(
    "--jobs",
    "-j",
    type=INT,
    default=None,
    help="Games played at once. local: worker processes (default 1). ray: the "
    "CPUs of the local Ray instance, or with --address the most games in "
    "flight (default: every CPU Ray has).",
)
@click.option("--seed", type=INT, default=0, show_default=True, help="Openings and players.")
@click.option(
    "--opening",
    type=INT,
    default=2,
    show_default=True,
    help="Random decisions before the players take over.",
)
@click.option(
    "--max-plies",
    type=INT,
    default=1000,
    show_default=True,
    help="Adjudicate a draw after this many decisions.",
)
@click.option(
    "--out", "-o", type=FILE, default=None, help="JSON-lines results file (resumes when it exists)."
)
@click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    default="local",
    show_default=True,
    help="Where the games run: worker processes on this machine, or Ray tasks "
    "(needs tablier[ray]).",
)
@click.option(
    "--address",
    default=None,
    metavar="ADDR",
    help="Ray cluster for --backend ray: auto, HOST:PORT (head node) or "
    "ray://HOST:PORT (Ray Client). Default: $RAY_ADDRESS if set, else a "
    "local Ray instance started and stopped by this command.",
)
@click.option(
    "--sprt",
    "sprt",
    default=None,
    metavar="ELO0,ELO1[,ALPHA,BETA]",
    help="Sequential test on game pairs (pentanomial): stop as soon as it accepts "
    "H0 (Elo <= ELO0) or H1 (Elo >= ELO1), with error rates ALPHA and BETA "
    "(default 0.05 each); -n is then the most games played.",
)
@click.option("--quiet", "-q", is_flag=True, help="Only the summary.")
def arena_command(
    game: str,
    a: str,
    b: str,
    games: int,
    jobs: int | None,
    seed: int,
    opening: int,
    max_plies: int,
    out: str | None,
    backend: str,
    address: str | None,
    sprt: str | None,
    quiet: bool,
) -> None:
    """Play GAMES games of A against B and print W/D/L, score and Elo (95% CI).

    GAME is a name or spec (`volo:board=mini`).  A and B are players:
    random, greedy, easy, medium, hard, expert, or mcts:iterations=N (any
    level takes overrides, e.g. hard:iterations=300,seconds=none).  Colours
    alternate, each opening is played with both colours, and with --out the
    results go to a JSON-lines file that a rerun resumes.  With --backend ray
    the same games run as Ray tasks (one per game), locally or on a cluster
    (--address), with the same results and summary.  With --sprt the match
    stops when a sequential test decides, and the summary gives its verdict.
    """
    the_game = _read_game(game)
    sprt_params = _read_sprt(sprt) if sprt is not None else None
    if opening < 0 or max_plies < 1:
        raise click.UsageError("--opening must be 0 or more and --max-plies at least 1")
    if jobs is not None and jobs < 1:
        raise click.UsageError("--jobs must be at least 1")
    if address is not None and backend != "ray":
        raise click.UsageError("--address needs --backend ray")
    for spec in (a, b):
        try:
            make_player(spec, the_game)
        except TablierError as exc:
            raise InputError(str(exc)) from None

    def show(item: dict) -> None:
        if not quiet:
            who = "A" if item["score_a"] == 1.0 else "B" if item["score_a"] == 0.0 else "draw"
            click.echo(
                f"game {item['index'] + 1}: {item['first']} - {item['second']} "
                f"{item['result']} ({item['reason']}, {item['plies']} plies) -> {who}"
            )

    try:
        results = run_match(
            the_game,
            a,
            b,
            games,
            jobs=jobs,
            seed=seed,
            opening_plies=opening,
            max_plies=max_plies,
            out=Path(out) if out else None,
            on_result=show,
            backend=backend,
            address=address,
            sprt=sprt_params,
        )
    except TablierError as exc:
        raise InputError(str(exc)) from None
    except KeyboardInterrupt:
        kept = (
            f"the finished games are in {out}; run the same command again to resume"
            if out
            else "no --out file, so the finished games are not kept"
        )
        click.echo(f"interrupted: {kept}", err=True)
        raise SystemExit(130) from None
    click.echo(summarise(results, a, b).describe())
    if sprt_params is not None:
        click.echo(sprt_result(results, sprt_params).describe())


def _read_sprt(text: str) -> tuple[float, ...]:
    """``ELO0,ELO1[,ALPHA,BETA]`` read with the CLI's number reader, checked."""
    parts = text.split(",")
    if len(parts) not in (2, 4):
        raise InputError(f"--sprt: expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, not {text!r}")
    try:
        values = tuple(parse_float(p.strip(), "--sprt", error=TablierError) for p in parts)
        validate_sprt(*values)
    except TablierError as exc:
        raise InputError(str(exc)) from None
    except ValueError as exc:
        raise InputError(f"--sprt: {exc}") from None
    return values


def register(group: click.Group) -> None:
    """Add ``analyse``, ``solve`` and ``arena`` to the ``tablier`` command group."""
    group.add_command(analyse_command)
    group.add_command(solve_command)
    group.add_command(arena_command)
