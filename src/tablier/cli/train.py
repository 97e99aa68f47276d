"""``tablier train``: self-play training of a game's network (:mod:`tablier.ai.train`).

PyTorch (``pip install 'tablier[train]'``) is imported only when the command runs,
so ``tablier --help`` and every other command work without it.

    >>> import click
    >>> group = click.Group("tablier")
    >>> register(group)
    >>> sorted(group.commands)
    ['train']
"""

from __future__ import annotations

from pathlib import Path

import click

from .. import games as registry
from ..core.errors import TablierError
from .errors import FLOAT, INT, InputError

__all__ = ["register", "train_command"]

_CONTEXT = {"help_option_names": ["-h", "--help"]}


def _game(text: str, variant: str | None):
    try:
        game = registry.from_spec(text.strip())
    except TablierError as exc:
        raise InputError(str(exc)) from None
    if variant is None:
        return game
    cls = type(game)
    keys = [v.key for v in cls.VARIANTS or ()]
    for v in cls.VARIANTS or ():
        if v.key == variant.strip().lower():
            return cls(**dict(v.options))
    raise InputError(
        f"--variant: {game.name} has no variant {variant!r} (variants: {', '.join(keys) or 'none'})"
    )


@click.command("train", context_settings=_CONTEXT)
@click.argument("game")
@click.option("--variant", default=None, help="A declared variant of GAME (e.g. mini).")
@click.option(
    "--games", "-n", type=INT, default=50, show_default=True, help="Self-play games to play now."
)
@click.option(
    "--workers",
    "-j",
    type=INT,
    default=1,
    show_default=True,
    help="Local worker processes for self-play and evaluation games.",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where the games run: worker processes, or Ray tasks (needs tablier[ray]).",
)
@click.option(
    "--address",
    default=None,
    metavar="ADDR",
    help="Ray cluster for --backend ray: auto, HOST:PORT or ray://HOST:PORT.",
)
@click.option(
    "--out",
    "-o",
    default=None,
    help="Folder for the checkpoint, train.json, elo.svg and the .npz "
    "[default: training/GAME or training/GAME-VARIANT].",
)
@click.option("--resume", default=None, help="Continue from this checkpoint.pt (its settings).")
@click.option(
    "--simulations", "-s", type=INT, default=24, show_default=True, help="PUCT simulations."
)
@click.option(
    "--per-generation",
    type=INT,
    default=10,
    show_default=True,
    help="Self-play games between two trainings.",
)
@click.option(
    "--eval-games", type=INT, default=10, show_default=True, help="Candidate against the best."
)
@click.option("--eval-simulations", type=INT, default=None, help="Simulations in evaluation games.")
@click.option(
    "--gate", type=FLOAT, default=0.55, show_default=True, help="Score to replace the best."
)
@click.option(
    "--hard-games",
    type=INT,
    default=0,
    show_default=True,
    help="Also play the candidate against --hard through the arena each generation.",
)
@click.option("--hard", "hard_spec", default="hard", show_default=True, help="That opponent.")
@click.option("--channels", type=INT, default=32, show_default=True, help="Network width.")
@click.option("--blocks", type=INT, default=2, show_default=True, help="Residual blocks.")
@click.option("--buffer", type=INT, default=20000, show_default=True, help="Replay positions.")
@click.option("--batch", type=INT, default=64, show_default=True, help="Training batch size.")
@click.option("--steps", type=INT, default=0, help="Training steps per generation [4 passes].")
@click.option("--lr", type=FLOAT, default=1e-3, show_default=True, help="Adam learning rate.")
@click.option(
    "--max-decisions",
    type=INT,
    default=400,
    show_default=True,
    help="A game stopped there is adjudicated by the game's evaluation.",
)
@click.option(
    "--teacher",
    default=None,
    metavar="PLAYER",
    help="A warm start: this player's games against itself replace self-play "
    "in the first --teacher-generations generations (e.g. easy).",
)
@click.option(
    "--teacher-generations",
    type=INT,
    default=2,
    show_default=True,
    help="How many generations learn from --teacher.",
)
@click.option("--seed", type=INT, default=0, show_default=True, help="Random seed.")
def train_command(
    game: str,
    variant: str | None,
    games: int,
    workers: int,
    backend: str,
    address: str | None,
    out: str | None,
    resume: str | None,
    simulations: int,
    per_generation: int,
    eval_games: int,
    eval_simulations: int | None,
    gate: float,
    hard_games: int,
    hard_spec: str,
    channels: int,
    blocks: int,
    buffer: int,
    batch: int,
    steps: int,
    lr: float,
    max_decisions: int,
    teacher: str | None,
    teacher_generations: int,
    seed: int,
) -> None:
    """Train GAME's network by self-play (AlphaZero style); resumable.

    Each generation plays --per-generation self-play games with the best
    network (or, first, --teacher's games), trains a candidate on the replay
    buffer, and keeps it when it scores at least --gate against the best.
    With --resume, the checkpoint's settings are used and --games more games
    are played.
    """
    from ..ai.network import network_file_name
    from ..ai.train import TrainConfig, train

    g = _game(game, variant)
    try:
        name = network_file_name(g)[: -len(".npz")]
        for value, what in (
            (games, "--games"),
            (workers, "--workers"),
            (simulations, "--simulations"),
            (per_generation, "--per-generation"),
            (channels, "--channels"),
            (buffer, "--buffer"),
            (batch, "--batch"),
            (max_decisions, "--max-decisions"),
        ):
            if value < 1:
                raise InputError(f"{what} must be at least 1")
        if teacher_generations < 0:
            raise InputError("--teacher-generations must be at least 0")
        if not 0 <= gate <= 1:
            raise InputError("--gate is a score between 0 and 1")
        config = TrainConfig(
            game=g.spec,
            games_per_generation=per_generation,
            simulations=simulations,
            eval_simulations=eval_simulations or simulations,
            eval_games=eval_games,
            gate=gate,
            hard_games=hard_games,
            hard_spec=hard_spec,
            channels=channels,
            blocks=blocks,
            buffer_size=buffer,
            batch_size=batch,
            steps=steps,
            lr=lr,
            max_decisions=max_decisions,
            teacher=(teacher or "").strip(),
            teacher_generations=teacher_generations if teacher else 0,
            seed=seed,
        )
        folder = Path(out) if out else Path("training") / name
        if resume is None and (folder / "checkpoint.pt").exists():
            raise InputError(
                f"{folder} already holds a training (checkpoint.pt): go on with --resume "
                f"{folder / 'checkpoint.pt'}, or choose another --out"
            )
        state = train(
            config,
            games=games,
            out=folder,
            resume=resume,
            workers=workers,
            backend=backend,
            address=address,
            report=click.echo,
        )
    except TablierError as exc:
        raise InputError(str(exc)) from None
    click.echo(
        f"{state['games']} games in {state['generation']} generations, "
        f"{state['cpu_seconds']:.0f} s of CPU; best network: generation "
        f"{state['best_generation']}, Elo {state['best_elo']:+.0f} against the untrained one"
    )
    click.echo(f"wrote {folder / (name + '.npz')}, {folder / 'checkpoint.pt'}, train.json, elo.svg")


def register(group: click.Group) -> None:
    """Add ``train`` to the ``tablier`` command group."""
    group.add_command(train_command)
