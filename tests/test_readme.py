"""The README's terminal examples name real commands and options.

Its Python examples run as doctests (pyproject.toml's pytest options); here every
``.venv/bin/tablier ...`` line of its ``sh`` blocks is parsed by the command line itself
(subcommand, options and game options), and the ones that need neither a terminal nor a
file nor a placeholder run for real.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tablier.cli.main import main, parse_game_args

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
PREFIX = ".venv/bin/tablier "


def readme_commands() -> list[list[str]]:
    """The argument lists of every ``.venv/bin/tablier`` line in the README's sh blocks."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            if line.startswith(PREFIX):
                commands.append(shlex.split(line[len(PREFIX) :], comments=True))
    return commands


COMMANDS = readme_commands()


def test_the_readme_shows_the_commands():
    assert {args[0] for args in COMMANDS} >= {
        "play",
        "analyse",
        "solve",
        "arena",
        "replay",
        "perft",
        "games",
    }


def parse(args: list[str]) -> click.Context:
    """Parse a command line as ``tablier`` would, without running it."""
    parent = click.Context(main, info_name="tablier")
    command = main.get_command(parent, args[0])
    assert command is not None, f"no command {args[0]!r}"
    return command.make_context(args[0], list(args[1:]), parent=parent)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_readme_command_parses(args):
    ctx = parse(args)
    if args[0] in ("play", "position"):
        # These read GAME [--option VALUE ...] themselves, after click's own options.
        assert parse_game_args(tuple(ctx.params["args"])) is not None


def test_a_wrong_option_is_caught():
    """The check above is not vacuous: unknown options and commands fail to parse."""
    with pytest.raises(click.UsageError):
        parse(["arena", "xobo", "hard", "greedy", "--nope"])
    with pytest.raises(click.UsageError):
        parse_game_args(("volo", "--boards", "mini"))
    with pytest.raises(AssertionError):
        parse(["plays", "volo"])


@pytest.mark.parametrize(("args", "expected"), [(["perft", "volo", "2"], "9717\n")])
def test_readme_commands_that_run_here(args, expected):
    assert args in COMMANDS
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.stdout == expected


def test_readme_games_command_lists_every_game():
    assert ["games"] in COMMANDS
    result = CliRunner().invoke(main, ["games"])
    assert result.exit_code == 0, result.output
    for name in ("volo", "xobo", "voldetour"):
        assert name in result.stdout
