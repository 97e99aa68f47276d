"""Interactive terminal sessions: hot-seat play and record replay.

Both work for every game through the core protocol only.  Input comes from
a :class:`LineReader`: on a terminal it uses rich's prompt (with line
editing when the platform has ``readline``); otherwise (pipes, tests) it
reads lines from standard input, echoes them after the prompt so that the
transcript reads naturally, and reports the end of input as ``None``.
"""

from __future__ import annotations

import contextlib
import datetime
import sys
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from ..core.errors import RecordError, TablierError, quote
from ..core.game import Game, Move, State
from ..core.record import Record, move_numbers

__all__ = ["LineReader", "PlaySession", "ReplaySession", "describe_outcome"]


class LineReader:
    """Read one line of input after a prompt; ``None`` at the end of input."""

    def __init__(self, console: Console, stream=None) -> None:
        self.console = console
        self._stream = stream

    @property
    def stream(self):
        """The input stream (standard input unless another was given)."""
        return self._stream if self._stream is not None else sys.stdin

    def interactive(self) -> bool:
        """True when reading from a terminal."""
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError):
            return False

    def __call__(self, prompt: str) -> str | None:
        """Show ``prompt`` and return the line typed (without the newline)."""
        if self.interactive():
            with contextlib.suppress(ImportError):  # line editing and history for input()
                import readline  # noqa: F401
            try:
                return self.console.input(Text(prompt, style="bold"))
            except EOFError:
                self.console.print()
                return None
        self.console.print(prompt, end="", markup=False, highlight=False)
        try:
            line = self.stream.readline()
        except (OSError, ValueError, UnicodeDecodeError):
            line = ""
        if not line:
            self.console.print()
            return None
        line = line.rstrip("\r\n")
        self.console.print(line, markup=False, highlight=False)
        return line


def describe_outcome(game: Game, state: State) -> str:
    """``Orange wins (flock: ...)`` or ``Draw (...)`` for a finished game."""
    outcome = state.outcome
    if outcome is None:
        return "the game is not over"
    why = outcome.reason + (f": {outcome.message}" if outcome.message else "")
    if outcome.winner is None:
        return f"Draw ({why})"
    return f"{game.player_name(outcome.winner)} wins ({why})"


def _move_label(states: list[State], index: int) -> str:
    """``3.`` / ``3...`` style label for decision ``index`` (0-based) of a game."""
    players = [s.to_move for s in states[: index + 1]]
    number = move_numbers(players)[index][0]
    return f"{number}." if players[index] == 0 else f"{number}..."


HELP = """\
Commands:
  <move>        play a move in the game's notation
  moves         list the legal moves
  hint          the AI's best moves after a short search (the legal moves without AI)
  undo          take back the last decision
  save FILE     save the game (JSON when FILE ends in .json, else the text record)
  load FILE     load a record (text or JSON) and go on from its last position
  position      print the position string (for perft, --position, sharing)
  new           start again from the first position
  help          this list
  quit          leave (also: exit, or the end of input)"""


class PlaySession:
    """Hot-seat play of one game in the terminal."""

    def __init__(
        self,
        console: Console,
        read: Callable[[str], str | None],
        game: Game,
        start: State | None = None,
        moves: list[Move] | None = None,
        tags: dict[str, str] | None = None,
        *,
        ai_choose: Callable[[State], Move] | None = None,
        ai_players: frozenset[int] = frozenset(),
        hint: Callable[[State], list[str]] | None = None,
        ai_restart: Callable[[list[State]], None] | None = None,
    ) -> None:
        self.console = console
        self.read = read
        self.ai_choose = ai_choose
        # told the game's positions whenever the line changes other than by a move (new,
        # load, undo): the AI forgets what it kept and learns the line again
        self.ai_restart = ai_restart
        self.ai_players = ai_players if ai_choose is not None else frozenset()
        self.hint = hint
        self.tags = dict(tags or {})
        self.tags.setdefault("Date", datetime.date.today().strftime("%Y.%m.%d"))
        self._set_game(game, start or game.initial_state(), moves or [])

    def _set_game(self, game: Game, start: State, moves: list[Move]) -> None:
        self.game = game
        self.states = [start]
        self.moves: list[Move] = []
        for move in moves:
            self.states.append(self.states[-1].apply(move))
            self.moves.append(move)
        self._restart_ai()

    def _restart_ai(self) -> None:
        """Tell the AI the line as it now stands (after new, load or undo)."""
        if self.ai_restart is not None:
            self.ai_restart(list(self.states))

    @property
    def state(self) -> State:
        """The current position."""
        return self.states[-1]

    def record(self) -> Record:
        """The game so far as a record."""
        return Record.from_moves(self.states[0], self.moves, tags=self.tags)

    # -- display --------------------------------------------------------------

    def show(self) -> None:
        """Print the board, the last move and whose decision it is."""
        state = self.state
        last = self.moves[-1] if self.moves else None
        self.console.print(self.game.render(state, last_move=last))
        status = Text()
        if last is not None:
            mover = self.game.player_name(self.states[-2].to_move)
            label = _move_label(self.states, len(self.moves) - 1)
            text = self.game.move_text(self.states[-2], last)
            status.append(f"Last move: {label} {mover} {text}")
        if state.outcome is None:
            who = self.game.player_name(state.to_move)
            again = len(self.states) > 1 and self.states[-2].to_move == state.to_move
            if status:
                status.append("  -  ")
            status.append(f"{who} to play" + (" again (same turn)" if again else ""), "bold")
        if status:
            self.console.print(status)
        if state.outcome is not None:
            self.banner()

    def banner(self) -> None:
        """The end-of-game banner."""
        text = describe_outcome(self.game, self.state)
        self.console.print(
            Panel(Text(f"Game over: {text}", style="bold"), expand=False, title="result")
        )

    def say(self, message: str, style: str | None = None) -> None:
        """Print one message (no markup interpretation)."""
        self.console.print(message, style=style, markup=False, highlight=False, soft_wrap=True)

    def error(self, message: str) -> None:
        """Print an error message; the position stays as it was."""
        self.say(f"error: {message}", style="bold red")

    # -- the loop ---------------------------------------------------------------

    def run(self) -> None:
        """Show the position and read commands until ``quit`` or the end of input."""
        self.say(f"{self.game.title} ({self.game.spec}). Type 'help' for the commands.")
        self.show()
        while True:
            if self.state.outcome is None and self.state.to_move in self.ai_players:
                self.ai_move()
                continue
            prompt = (
                "game over> "
                if self.state.outcome is not None
                else f"{self.game.player_name(self.state.to_move)}> "
            )
            line = self.read(prompt)
            if line is None:
                return
            line = line.strip()
            if not line:
                continue
            if not self.handle(line):
                return

    def handle(self, line: str) -> bool:
        """Carry out one command or move; False when the session should end."""
        word, _, rest = line.partition(" ")
        command = word.lower()
        rest = rest.strip()
        if command in ("quit", "exit", "q"):
            return False
        if command == "help":
            self.say(HELP)
        elif command == "moves":
            self.list_moves()
        elif command == "hint":
            self.give_hint()
        elif command == "undo":
            self.undo()
        elif command == "position":
            self.say(self.state.to_text())
        elif command == "new":
            self._set_game(self.game, self.states[0], [])
            self.show()
        elif command == "save":
            self.save(rest)
        elif command == "load":
            self.load(rest)
        else:
            self.play(line)
        return True

    def list_moves(self) -> None:
        """Print the legal moves."""
        moves = self.state.legal_moves()
        if not moves:
            self.say("no legal moves: the game is over")
            return
        self.say(f"{len(moves)} legal move{'s' if len(moves) != 1 else ''}:")
        self.say(", ".join(str(m) for m in moves))

    def give_hint(self) -> None:
        """The AI's suggestions when an AI is available, else the legal moves."""
        if self.hint is None or self.state.outcome is not None:
            self.list_moves()
            return
        try:
            lines = self.hint(self.state)
        except TablierError as exc:
            self.error(str(exc))
            return
        for line in lines:
            self.say(line)

    def undo(self) -> None:
        """Take back one decision, and the AI's decisions after the last human one."""
        if not self.moves:
            self.error("nothing to undo")
            return
        undone = []
        while self.moves:
            undone.append(self.moves.pop())
            self.states.pop()
            if self.state.to_move not in self.ai_players or len(self.ai_players) == 2:
                break
        self._restart_ai()
        self.say("took back " + ", ".join(str(m) for m in reversed(undone)))
        self.show()

    def ai_move(self) -> None:
        """Let the AI make the current decision."""
        assert self.ai_choose is not None
        name = self.game.player_name(self.state.to_move)
        try:
            move = self.ai_choose(self.state)
            after = self.state.apply(move)
        except TablierError as exc:  # pragma: no cover - an AI only returns legal moves
            self.error(f"the AI could not move: {exc}")
            self.ai_players = frozenset()
            return
        self.say(f"{name} (AI) plays {move}")
        self._played(move, after)

    def play(self, text: str) -> None:
        """Read and play a move, or report why it cannot be played."""
        if self.state.outcome is not None:
            self.error(
                f"the game is over ({describe_outcome(self.game, self.state)}); "
                "type undo, new, save FILE, load FILE or quit"
            )
            return
        try:
            move = self.game.parse_move(self.state, text)
            after = self.state.apply(move)
        except TablierError as exc:
            self.error(str(exc))
            return
        self._played(move, after)

    def _played(self, move: Move, after: State) -> None:
        self.moves.append(move)
        self.states.append(after)
        self.show()
        if after.outcome is not None:
            self.offer_save()

    def offer_save(self) -> None:
        """At the end of a game, offer to save it."""
        name = self.read("Save this game? File name (Enter to skip): ")
        if name and name.strip():
            self.save(name.strip())

    def save(self, name: str) -> None:
        """Save the game as a record (JSON for ``*.json``)."""
        if not name:
            self.error("usage: save FILE")
            return
        try:
            self.record().save(name)
        except OSError as exc:
            self.error(f"cannot write {name!r}: {exc.strerror or exc}")
            return
        except TablierError as exc:  # pragma: no cover - the session only holds legal moves
            self.error(str(exc))
            return
        self.say(f"saved {len(self.moves)} decisions to {name}")

    def load(self, name: str) -> None:
        """Load a record and continue from its last position."""
        if not name:
            self.error("usage: load FILE")
            return
        try:
            record = Record.load(Path(name))
            states, moves = record.replay_moves()
        except RecordError as exc:
            self.error(str(exc))
            return
        self.tags = dict(record.tags)
        self.game = record.game
        self.states, self.moves = states, moves
        self._restart_ai()
        self.say(f"loaded {len(moves)} decisions from {name} ({record.game.spec})")
        self.show()


class ReplaySession:
    """Step through a record: Enter or ``n`` next, ``b`` back, a number jumps, ``q`` quits."""

    def __init__(self, console: Console, read: Callable[[str], str | None], record: Record):
        self.console = console
        self.read = read
        self.record = record
        self.game = record.game
        self.states, self.moves = record.replay_moves()
        self.index = 0

    def header(self) -> None:
        """Game, players, date and result."""
        lines = [f"{self.game.title} ({self.game.spec})"]
        for key, value in self.record.tags.items():
            lines.append(f"{key}: {value}")
        result = self.record.result
        if self.record.reason:
            result += f" ({self.record.reason})"
        lines.append(f"Result: {result}; {len(self.moves)} decisions")
        self.console.print("\n".join(lines), markup=False, highlight=False)

    def show(self, index: int | None = None) -> None:
        """Print position ``index`` (0 is the start) with the move that led to it."""
        i = self.index if index is None else index
        state = self.states[i]
        last = self.moves[i - 1] if i else None
        self.console.print(Text(f"Position {i}/{len(self.moves)}", style="bold"))
        if last is not None:
            mover = self.game.player_name(self.states[i - 1].to_move)
            text = self.game.move_text(self.states[i - 1], last)
            line = f"{_move_label(self.states, i - 1)} {mover} {text}"
            comment = self.record.moves[i - 1].comment
            if comment:
                line += f"  {{{comment}}}"
            self.console.print(line, markup=False, highlight=False)
        self.console.print(self.game.render(state, last_move=last))
        if state.outcome is not None:
            self.console.print(f"Game over: {describe_outcome(self.game, state)}", markup=False)
        elif i == len(self.moves):
            self.console.print(f"End of the record (result {self.record.result})", markup=False)
        else:
            self.console.print(f"{self.game.player_name(state.to_move)} to play", markup=False)

    def show_all(self) -> None:
        """Print every position, non-interactively."""
        self.header()
        for i in range(len(self.states)):
            self.show(i)

    def run(self) -> None:
        """The interactive loop."""
        self.header()
        self.show()
        last = len(self.moves)
        while True:
            line = self.read("[Enter/n next, b back, NUMBER jump, q quit]> ")
            if line is None:
                return
            cmd = line.strip().lower()
            if cmd in ("q", "quit", "exit"):
                return
            if cmd in ("", "n", "next"):
                if self.index == last:
                    self.console.print("already at the end")
                    continue
                self.index += 1
            elif cmd in ("b", "back", "p"):
                if self.index == 0:
                    self.console.print("already at the start")
                    continue
                self.index -= 1
            elif cmd.isascii() and cmd.isdigit() and len(cmd) <= 9:
                target = int(cmd)
                if target > last:
                    self.console.print(f"error: no position {target} (0 to {last})", style="red")
                    continue
                self.index = target
            else:
                self.console.print(
                    f"error: unknown command {quote(line.strip())}", style="red", markup=False
                )
                continue
            self.show()
