"""The ``tablier`` command: list games, play in the terminal, replay records, perft.

Every subcommand works for every registered game through the core protocol;
game options are read from each game's declared ``OPTIONS``, so
``tablier play volo --board mini --edition 2010`` needs no code that knows
Volo.  See ``docs/cli.md``.
"""

from __future__ import annotations

import sys
import time
from types import ModuleType
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import games as registry
from ..core.errors import RecordError, TablierError, quote
from ..core.game import Game, State
from ..core.perft import divide, perft
from ..core.record import Record
from .errors import FILE, FLOAT, INT, InputError, TablierGroup
from .session import LineReader, PlaySession, ReplaySession

__all__ = ["main", "parse_game_args"]

_CONTEXT = {"help_option_names": ["-h", "--help"]}
_OPEN = {"ignore_unknown_options": True, "allow_extra_args": True, **_CONTEXT}


def _console() -> Console:
    return Console(highlight=False)


def parse_game_args(args: tuple[str, ...] | list[str], *, need_game: bool = True) -> Game | None:
    """Read ``GAME [--option VALUE | --option=VALUE ...]`` into a game.

    GAME may be a name or a full spec (``volo:board=mini``); the flags are
    the game's declared options (``-`` and ``_`` are interchangeable).
    Raises :class:`click.UsageError` for misplaced flags and
    :class:`~tablier.cli.errors.InputError` for a game or option value the
    game refuses, with the valid options listed.
    """
    name = None
    flags: list[tuple[str, str | None]] = []
    i = 0
    args = list(args)
    while i < len(args):
        arg = args[i]
        if arg.startswith("--"):
            key, eq, value = arg[2:].partition("=")
            if not eq:
                if i + 1 >= len(args) or args[i + 1].startswith("--"):
                    raise click.UsageError(f"option --{key} needs a value")
                value = args[i + 1]
                i += 1
            flags.append((key, value))
        elif arg.startswith("-") and len(arg) > 1 and arg[1] not in "0123456789":
            raise click.UsageError(f"unknown flag {quote(arg)}")
        elif name is None:
            name = arg
        else:
            raise click.UsageError(f"unexpected argument {quote(arg)}")
        i += 1
    if name is None:
        if flags or need_game:
            raise click.UsageError(f"name the game (one of: {', '.join(registry.names())})")
        return None
    try:
        if ":" in name:
            base = registry.from_spec(name)
            cls, options = type(base), dict(base.options)
        else:
            cls, options = registry.game_class(name), {}
    except TablierError as exc:
        raise InputError(str(exc)) from None
    declared = {o.name: o for o in cls.OPTIONS}
    for flag, flag_value in flags:
        attr = flag.replace("-", "_")
        if attr not in declared:
            valid = ", ".join(f"--{o.name.replace('_', '-')}" for o in cls.OPTIONS) or "none"
            shown = flag if len(flag) <= 40 else flag[:39] + "…"
            raise InputError(f"{cls.name} has no option --{shown} (its options: {valid})")
        options[attr] = flag_value
    try:
        return cls(**options)
    except TablierError as exc:
        raise InputError(str(exc)) from None


def _start_state(text: str) -> State:
    """A position string, or a game spec alone meaning its initial position."""
    try:
        return registry.start_state(text)
    except TablierError as exc:
        raise InputError(f"bad position: {exc}") from None


@click.group(cls=TablierGroup, context_settings=_CONTEXT)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=lambda ctx, _param, value: _print_version(ctx) if value else None,
    help="Show the version and the engine each game uses, and exit.",
)
def main() -> None:
    """Tablier: abstract board games in the terminal.

    \b
    tablier games                      list the games and their options
    tablier play volo --board mini     hot-seat play
    tablier replay game.txt            step through a record
    tablier perft volo:board=mini 2    count move paths
    tablier position volo              print the initial position string
    """


def _print_version(ctx: click.Context) -> None:
    """``tablier --version``: the package version, then one line per game with its engine."""
    from importlib.metadata import version

    click.echo(f"tablier {version('tablier')}")
    for name in registry.names():
        try:
            engine = registry.game_class(name).engine()
        except Exception as exc:  # a broken game package must not hide the others
            engine = f"cannot be loaded: {exc}"
        click.echo(f"  {name}: {engine} engine")
    ctx.exit()


@main.command("games")
def games_command() -> None:
    """List the games and their options."""
    console = _console()
    table = Table(title="Games", show_lines=True)
    table.add_column("game")
    table.add_column("title")
    table.add_column("options (flags for play and position)")
    table.add_column("engine")
    for name in registry.names():
        try:
            cls = registry.game_class(name)
        except Exception as exc:  # a broken game package must not hide the others
            table.add_row(name, "(cannot be loaded)", Text(str(exc)), "")
            continue
        lines = []
        for opt in cls.OPTIONS:
            flag = f"--{opt.name.replace('_', '-')}"
            default = "none" if opt.default is None else str(opt.default)
            choices = f" [{'|'.join(str(c) for c in opt.choices)}]" if opt.choices else ""
            lines.append(f"{flag}{choices} (default {default}): {opt.doc}")
        table.add_row(name, Text(cls.title), Text("\n".join(lines) or "(none)"), Text(cls.engine()))
    console.print(table)


@main.command("play", context_settings=_OPEN)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.option("--position", "position", default=None, help="Start from this position string.")
@click.option("--load", "load", default=None, help="Load a record and go on from its end.")
@click.option("--ai", "ai_level", default=None, help="Play against the AI at this level.")
@click.option(
    "--ai-plays",
    type=click.Choice(["first", "second", "both"]),
    default="second",
    show_default=True,
    help="Which side the AI plays (with --ai).",
)
@click.option(
    "--side",
    type=click.Choice(["first", "second"]),
    default=None,
    help="Your side against the AI (with --ai): --side second lets the AI open.",
)
@click.option("--seed", type=INT, default=None, help="Random seed of the AI (with --ai).")
def play_command(
    args: tuple[str, ...],
    position: str | None,
    load: str | None,
    ai_level: str | None,
    ai_plays: str,
    side: str | None,
    seed: int | None,
) -> None:
    """Hot-seat play: tablier play GAME [--OPTION VALUE ...].

    The options are the game's own (see `tablier games`), e.g.
    `tablier play volo --board mini --edition 2010`.  Type `help` at the
    prompt for the commands (moves, hint, undo, save, load, position, quit).
    """
    if position is not None and load is not None:
        raise click.UsageError("give either --position or --load, not both")
    if side is not None and ai_level is None:
        raise click.UsageError("--side chooses your side against the AI: give --ai LEVEL too")
    game = parse_game_args(args, need_game=position is None and load is None)
    console = _console()
    tags: dict[str, str] = {}
    moves: list = []
    if load is not None:
        try:
            record = Record.load(load)
            states, moves = record.replay_moves()
        except RecordError as exc:
            raise InputError(str(exc)) from None
        if game is not None and game != record.game:
            raise InputError(f"{load} is a record of {record.game.spec}, not {game.spec}")
        game, start, tags = record.game, states[0], dict(record.tags)
    elif position is not None:
        if game is not None:
            try:
                start = game.parse_position(position)
            except TablierError as exc:
                raise InputError(f"bad position: {exc}") from None
        else:
            start = _start_state(position)
            game = start.game
    else:
        assert game is not None
        start = game.initial_state()
    ai_players: frozenset[int] = frozenset()
    ai_choose, hint, ai_restart = None, None, None
    if _ai is not None:

        def hint(state: State) -> list[str]:
            return _ai.hint_lines(state, console)

    if ai_level is not None:
        if _ai is None:
            raise click.UsageError(f"the AI is not available: {_AI_ERROR}")
        player = _ai.make_ai(ai_level, game, seed=seed)

        def ai_choose(state: State):
            return _ai.choose_player_move(player, state, console)

        def ai_restart(states: list[State]) -> None:
            player.reset()
            for state in states:
                player.remember(state)

        if side is not None:
            ai_plays = "second" if side == "first" else "first"
        ai_players = frozenset({"first": {0}, "second": {1}, "both": {0, 1}}[ai_plays])
    session = PlaySession(
        console,
        LineReader(console),
        game,
        start,
        moves,
        tags,
        ai_choose=ai_choose,
        ai_players=ai_players,
        hint=hint,
        ai_restart=ai_restart,
    )
    session.run()


@main.command("replay")
@click.argument("file", type=FILE)
@click.option("--all", "show_all", is_flag=True, help="Print every position and exit.")
def replay_command(file: str, show_all: bool) -> None:
    """Step through a record: Enter/n next, b back, a number jumps, q quits."""
    console = _console()
    try:
        record = Record.load(file)
        session = ReplaySession(console, LineReader(console), record)
    except RecordError as exc:
        raise InputError(str(exc)) from None
    if show_all:
        session.show_all()
    else:
        session.run()


@main.command("perft")
@click.argument("position")
@click.argument("depth", type=INT)
@click.option("--divide", "split", is_flag=True, help="Count per first move.")
def perft_command(position: str, depth: int, split: bool) -> None:
    """Count the paths of DEPTH decisions from POSITION.

    POSITION is a position string (quote it) or a game spec alone, such as
    `volo` or `volo:board=mini`, for its initial position.  The count is
    printed on standard output, the time on standard error.
    """
    state = _start_state(position)
    if depth < 0:
        raise click.UsageError("DEPTH must be 0 or more")
    t0 = time.perf_counter()
    if split:
        if depth < 1:
            raise click.UsageError("--divide needs a DEPTH of at least 1")
        counts = divide(state, depth)
        width = max((len(k) for k in counts), default=0)
        for text, n in counts.items():
            click.echo(f"{text.ljust(width)}  {n}")
        total = sum(counts.values())
        click.echo(f"total: {total}")
    else:
        total = perft(state, depth)
        click.echo(str(total))
    elapsed = time.perf_counter() - t0
    rate = total / elapsed if elapsed > 0 else float("inf")
    click.echo(f"perft({depth}) = {total} in {elapsed:.3f} s ({rate:,.0f} paths/s)", err=True)


@main.command("position", context_settings=_OPEN)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def position_command(args: tuple[str, ...]) -> None:
    """Print the initial position string: tablier position GAME [--OPTION VALUE ...]."""
    game = parse_game_args(args)
    assert game is not None
    click.echo(game.initial_state().to_text())


@main.command("serve")
@click.option("--host", default=None, help="Address to listen on [TABLIER_HOST; 127.0.0.1].")
@click.option("--port", default=None, type=INT, help="Port [TABLIER_PORT; 8000].")
@click.option(
    "--database-url",
    default=None,
    help="SQLAlchemy URL (sqlite:///FILE or postgresql://...) [TABLIER_DATABASE_URL; an SQLite "
    "file in $XDG_DATA_HOME/tablier/].",
)
@click.option(
    "--ai-workers",
    default=None,
    type=INT,
    help="Processes that run the AI, 0: no games against the AI [TABLIER_AI_WORKERS; 1].",
)
@click.option(
    "--ai-spec",
    "ai_specs",
    multiple=True,
    metavar="LEVEL=SPEC",
    help="Play an AI level with another player spec, e.g. easy=random (repeatable) "
    "[TABLIER_AI_SPECS, JSON].",
)
@click.option(
    "--ai-progress-interval",
    default=None,
    type=FLOAT,
    help="Seconds between the AI's progress reports [TABLIER_AI_PROGRESS_INTERVAL; 0.1].",
)
@click.option(
    "--ai-queue-limit",
    default=None,
    type=INT,
    help="AI searches one client may have queued or running [TABLIER_AI_QUEUE_LIMIT; 4].",
)
@click.option(
    "--rate-limit",
    "rate_limits",
    multiple=True,
    metavar="NAME=LIMIT",
    help="Set a named rate limit, e.g. create_game=20/minute or chat=off (repeatable) "
    "[TABLIER_RATE_LIMITS, JSON; see docs/web.md].",
)
@click.option(
    "--max-body",
    default=None,
    type=INT,
    help="Largest request body in bytes [TABLIER_MAX_BODY; 65536].",
)
@click.option(
    "--max-record-plies",
    default=None,
    type=INT,
    help="Most decisions in a record read for review [TABLIER_MAX_RECORD_PLIES; 500].",
)
@click.option(
    "--history-page",
    default=None,
    type=INT,
    help="Most decisions in one page of a game's history [TABLIER_HISTORY_PAGE; 50].",
)
@click.option(
    "--public-url",
    default=None,
    help="Base of the links handed out [TABLIER_PUBLIC_URL; the request's own].",
)
@click.option(
    "--web-dir",
    default=None,
    type=click.Path(file_okay=False),
    help="Folder of the browser client [TABLIER_WEB_DIR; the packaged one].",
)
@click.option(
    "--migrate/--no-migrate",
    default=None,
    help="Run the database migrations at start-up [TABLIER_MIGRATE; on].",
)
@click.option(
    "--hello-timeout",
    default=None,
    type=FLOAT,
    help="Seconds a WebSocket has to say hello [TABLIER_HELLO_TIMEOUT; 10].",
)
@click.option(
    "--cache-size", default=None, type=INT, help="Games kept in memory [TABLIER_CACHE_SIZE; 2000]."
)
@click.option(
    "--sqlite-inline-writes/--no-sqlite-inline-writes",
    default=None,
    help="Run SQLite commits on the event loop [TABLIER_SQLITE_INLINE_WRITES; on].",
)
@click.option(
    "--access-log/--no-access-log",
    default=None,
    help="Write uvicorn's access log [TABLIER_ACCESS_LOG; on].",
)
@click.option(
    "--session-days",
    default=None,
    type=FLOAT,
    help="Days a login session lasts [TABLIER_SESSION_DAYS; 30].",
)
@click.option(
    "--secure-cookies/--no-secure-cookies",
    default=None,
    help="Mark the cookies Secure even on plain http, e.g. behind a proxy that serves "
    "https [TABLIER_SECURE_COOKIES; off: Secure only over https].",
)
@click.option(
    "--challenge-expiry",
    default=None,
    type=FLOAT,
    help="Seconds an open live or untimed challenge waits [TABLIER_CHALLENGE_EXPIRY; 600].",
)
@click.option(
    "--challenge-expiry-long",
    default=None,
    type=FLOAT,
    help="Seconds a correspondence or direct challenge waits "
    "[TABLIER_CHALLENGE_EXPIRY_LONG; 259200].",
)
@click.option(
    "--game-expiry",
    default=None,
    type=FLOAT,
    help="Seconds a game between two people waits for both sides' first moves "
    "[TABLIER_GAME_EXPIRY; 86400].",
)
@click.option(
    "--sweep-interval",
    default=None,
    type=FLOAT,
    help="Seconds between two expiry sweeps [TABLIER_SWEEP_INTERVAL; 30].",
)
@click.option(
    "--clock-sweep",
    default=None,
    type=FLOAT,
    help="Most seconds between two looks for fallen flags [TABLIER_CLOCK_SWEEP; 1].",
)
@click.option(
    "--process-id",
    default=None,
    help="This process's name among the site's, in AI claims and events "
    "[TABLIER_PROCESS_ID; host:pid:random].",
)
@click.option(
    "--ai-claim-timeout",
    default=None,
    type=FLOAT,
    help="Seconds after which another process takes over the AI turn of a process that "
    "stopped renewing its claim [TABLIER_AI_CLAIM_TIMEOUT; 30].",
)
def serve_command(ai_specs: tuple[str, ...], rate_limits: tuple[str, ...], **flags: Any) -> None:
    """Start the web server (default http://127.0.0.1:8000); see docs/web.md.

    Every setting is taken from its flag, else from its TABLIER_... environment variable,
    else from its default.
    """
    settings = _server_settings(ai_specs, flags, rate_limits)
    try:
        from ..server.app import serve
    except ImportError as exc:  # without the web extra
        raise _needs_web(exc) from None

    click.echo(
        f"Tablier: http://{settings.host}:{settings.port}/  "
        f"(database: {_safe_url(settings.database_url)})"
    )
    serve(settings)


def _server_settings(
    ai_specs: tuple[str, ...], flags: dict[str, Any], rate_limits: tuple[str, ...] = ()
) -> Any:
    """The server's Settings from the flags given (the others from the environment)."""
    try:
        from pydantic import ValidationError

        from ..server.settings import Settings
    except ImportError as exc:  # without the web extra
        raise _needs_web(exc) from None
    given = {k: v for k, v in flags.items() if v is not None}
    if ai_specs:
        specs = {}
        for item in ai_specs:
            level, sep, spec = item.partition("=")
            if not sep or not level.strip() or not spec.strip():
                raise click.BadParameter(f"{item!r} is not LEVEL=SPEC", param_hint="--ai-spec")
            specs[level.strip()] = spec.strip()
        given["ai_specs"] = specs
    if rate_limits:
        limits = {}
        for item in rate_limits:
            name, sep, value = item.partition("=")
            if not sep or not name.strip() or not value.strip():
                raise click.BadParameter(f"{item!r} is not NAME=LIMIT", param_hint="--rate-limit")
            limits[name.strip()] = value.strip()
        given["rate_limits"] = limits
    try:
        return Settings(**given)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:5]
        )
        raise InputError(f"bad server setting: {problems}") from None


def _needs_web(exc: ImportError) -> InputError:
    """The one-line error of ``tablier serve`` without the web extra (exit status 2)."""
    return InputError(f"tablier serve needs the web extra ({exc}): pip install 'tablier[web]'")


def _safe_url(url: str) -> str:
    """A database URL with its password hidden, for messages."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable URL)"


# The AI's commands (analyse, solve, arena) and its play-loop helpers.  A broken AI
# package must not take the rest of the command down: play then works without it.
_ai: ModuleType | None
_AI_ERROR: ImportError | None
try:
    from . import ai_commands
except ImportError as exc:  # pragma: no cover - only when the AI package is broken
    _ai, _AI_ERROR = None, exc
else:
    _ai, _AI_ERROR = ai_commands, None
    ai_commands.register(main)
    from . import puzzles as puzzle_commands

    puzzle_commands.register(main)
    from . import train as train_commands  # PyTorch only when `tablier train` runs

    train_commands.register(main)


# `tablier rules`: a game's rules page in the terminal.
from . import rules as rules_commands  # noqa: E402

rules_commands.register(main)


def run(argv: list[str] | None = None) -> Any:  # pragma: no cover - thin wrapper
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``)."""
    return main.main(args=argv if argv is not None else sys.argv[1:])
