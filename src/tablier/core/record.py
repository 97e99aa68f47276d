"""Game records: a PGN-like text format and JSON, for every game.

A :class:`Record` holds the game (name and options), free tags (players,
date, event...), an optional start position, the list of decisions (each a
move in the game's notation with an optional comment), the result and the
reason.  It reads and writes two formats, described in ``docs/records.md``:

Text::

    >>> from tablier.games import get
    >>> record = Record.from_moves(
    ...     get("volo", board="mini"),
    ...     ["e5", "d4", "g4", "h7"],
    ...     comments=[None, "a quiet start"],
    ...     tags={"First": "Ann", "Second": "Bob", "Date": "2026.11.22"},
    ...     result="1-0",
    ...     reason="resignation",
    ... )
    >>> print(record.to_text(), end="")
    [Game "volo"]
    [Options "board=mini,edition=current,setup=nests,supply=50"]
    [First "Ann"]
    [Second "Bob"]
    [Date "2026.11.22"]
    [Result "1-0"]
    [Reason "resignation"]
    <BLANKLINE>
    1. e5 ; d4 {a quiet start}
    2. g4 ; h7
    1-0

JSON: ``{"format": 1, "game": "volo", "options": {...}, "tags": {...},
"position": null, "moves": [{"move": "e5", "comment": null}, ...],
"result": "1-0", "reason": "resignation"}``. Both read back to the same record::

    >>> Record.from_text(record.to_text()) == record == Record.from_json(record.to_json())
    True

Loading (:meth:`Record.from_text`, :meth:`Record.from_json`,
:meth:`Record.load`) replays every decision through ``game.parse_move`` and
raises :class:`~tablier.core.errors.RecordError` for the first one that
cannot be read or is illegal (with its 1-based ``ply``), and for any other
problem with the file.  Loaded records hold each move in its canonical
notation (``game.move_text(state, move)``, by default ``str(move)``), so
``Record.from_text(r.to_text()) == r``.
A result that disagrees with a finished game is an error; a missing result
(or ``*``) on a finished game is filled in from the replay, and a decided
result on an unfinished game (resignation, adjudication) is kept.

Move numbers are derived from whose decision it is, never from alternation:
a numbered line starts each time the first player begins a turn (a turn is
the maximal run of decisions by the same player).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import N_, Label, Message, RecordError, TablierError, quote
from .game import Game, Move, State

__all__ = [
    "RESULTS",
    "Decision",
    "Record",
    "move_numbers",
]

#: The result tokens: first player won, second player won, draw, unknown/unfinished.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

#: The version written in the ``format`` field of JSON records.
JSON_FORMAT = 1

_STANDARD_TAGS = ("Game", "Options", "Position", "Result", "Reason")
_TAG_ORDER = ("First", "Second", "Date")
_TAG_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_TAG_LINE = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
# A move number: digits then one or more dots, at a word boundary, followed by space or end.
_MOVE_NUMBER = re.compile(r"(?:^|(?<=[\s;}]))[0-9]+\.+(?=\s|$)")
_RESULT_AT_END = re.compile(r"(?:^|(?<=[\s;}]))(1-0|0-1|1/2-1/2|\*)\s*$")


@dataclass(frozen=True)
class Decision:
    """One decision of a record: the move text and an optional comment."""

    move: str
    comment: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.move, str):
            raise RecordError(N_("a move must be text, not {kind}"), kind=type(self.move).__name__)
        if self.comment is not None and not isinstance(self.comment, str):
            raise RecordError(
                N_("a comment must be text, not {kind}"), kind=type(self.comment).__name__
            )
        if self.comment is not None and "\r" in self.comment:
            # Line ends are stored as "\n" so that comments survive a text file's line ends.
            object.__setattr__(
                self, "comment", self.comment.replace("\r\n", "\n").replace("\r", "\n")
            )


@dataclass
class Record:
    """A game record.

    ``game`` is the :class:`~tablier.core.game.Game` (with its options);
    ``tags`` the other header tags (``First``, ``Second``, ``Date`` and any
    extra ones); ``position`` the start position string, or ``None`` for the
    game's initial position; ``moves`` the decisions; ``result`` one of
    :data:`RESULTS`; ``reason`` the outcome's reason code (or a free word,
    such as ``resignation``, for a game decided off the board).
    """

    game: Game[Any, Any]
    moves: tuple[Decision, ...] = ()
    tags: dict[str, str] = field(default_factory=dict)
    position: str | None = None
    result: str = "*"
    reason: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.game, Game):
            raise RecordError(N_("a record needs a Game"))
        moves = []
        for d in self.moves:
            moves.append(d if isinstance(d, Decision) else Decision(d))
        self.moves = tuple(moves)
        self.tags = dict(self.tags)
        for name, value in self.tags.items():
            _check_tag(name, value)
            if name in _STANDARD_TAGS:
                raise RecordError(
                    N_("tag {name} is a field of the record, not a free tag"), name=repr(name)
                )
        if self.result not in RESULTS:
            raise RecordError(
                N_("result {result} is not one of {results}"),
                result=quote(self.result),
                results=", ".join(RESULTS),
            )
        if self.reason is not None:
            _check_tag("Reason", self.reason)
        if self.position is not None:
            _check_tag("Position", self.position)

    # -- building -------------------------------------------------------------

    @classmethod
    def from_moves(
        cls,
        start: Game[Any, Any] | State[Any],
        moves: Iterable[Move | str],
        *,
        comments: Sequence[str | None] | None = None,
        tags: Mapping[str, str] | None = None,
        result: str | None = None,
        reason: str | None = None,
    ) -> Record:
        """Build a record from a start (a game, or a state) and the moves played.

        Each move is checked (a move text is read with ``parse_move``).  When
        the last state is terminal, ``result`` and ``reason`` default to its
        outcome; otherwise to ``"*"`` and ``None``.
        """
        if isinstance(start, Game):
            game, state, position = start, start.initial_state(), None
        else:
            game, state = start.game, start
            position = None if state == game.initial_state() else state.to_text()
        decisions = []
        comment_list = list(comments) if comments is not None else []
        for i, move in enumerate(moves):
            try:
                if isinstance(move, str):
                    move = game.parse_move(state, move)
                text = game.move_text(state, move)
                state = state.apply(move)
            except TablierError as exc:
                raise RecordError(
                    N_("decision {n}: {move}: {error}"), n=i + 1, move=move, error=exc, ply=i + 1
                ) from None
            comment = comment_list[i] if i < len(comment_list) else None
            decisions.append(Decision(text, comment))
        return cls._finish(game, decisions, tags, position, state, result, reason)

    @classmethod
    def from_states(
        cls,
        states: Sequence[State[Any]],
        *,
        comments: Sequence[str | None] | None = None,
        tags: Mapping[str, str] | None = None,
        result: str | None = None,
        reason: str | None = None,
    ) -> Record:
        """Build a record from consecutive states (the first is the start).

        The move between two states is found among the legal moves; a pair
        of states that no legal move joins raises RecordError.
        """
        if not states:
            raise RecordError(N_("no states given"))
        moves = []
        for i in range(len(states) - 1):
            before, after = states[i], states[i + 1]
            for move in before.legal_moves():
                if before.apply_unchecked(move) == after:
                    moves.append(move)
                    break
            else:
                raise RecordError(
                    N_("no legal move leads from state {n} to state {next}"),
                    n=i,
                    next=i + 1,
                    ply=i + 1,
                )
        return cls.from_moves(
            states[0], moves, comments=comments, tags=tags, result=result, reason=reason
        )

    @classmethod
    def _finish(
        cls,
        game: Game[Any, Any],
        decisions: list[Decision],
        tags: Mapping[str, str] | None,
        position: str | None,
        state: State[Any],
        result: str | None,
        reason: str | None,
    ) -> Record:
        outcome = state.outcome
        if result is None:
            result = outcome.result if outcome is not None else "*"
        if reason is None and outcome is not None and result == outcome.result:
            reason = outcome.reason
        record = cls(game, tuple(decisions), dict(tags or {}), position, result, reason)
        record._check_result(state)
        return record

    # -- replaying ------------------------------------------------------------

    def start_state(self) -> State[Any]:
        """The position the record starts from."""
        state: State[Any]
        if self.position is None:
            state = self.game.initial_state()
            return state
        try:
            state = self.game.parse_position(self.position)
            return state
        except TablierError as exc:
            raise RecordError(N_("bad start position: {error}"), error=exc) from None

    def replay(self) -> list[State[Any]]:
        """Every state of the game, from the start to after the last decision.

        Raises RecordError naming the first decision that cannot be read or
        is illegal, and when the result disagrees with the final position.
        """
        states, _ = self._replay()
        return states

    def replay_moves(self) -> tuple[list[State[Any]], list[Move]]:
        """Like :meth:`replay`, also returning the moves (one fewer than the states)."""
        return self._replay()

    def final_state(self) -> State[Any]:
        """The position after the last decision."""
        return self.replay()[-1]

    def _replay(self) -> tuple[list[State[Any]], list[Move]]:
        state = self.start_state()
        states = [state]
        moves: list[Move] = []
        number, previous = 0, -1
        for ply, decision in enumerate(self.moves, start=1):
            player = state.to_move
            if ply == 1 or (player == 0 and previous != 0):
                number += 1
            previous = player
            where = Message(
                N_("move {number} ({player}), decision {ply}, {move}"),
                number=number,
                player=Label(
                    f"game.{self.game.name}.player.{player}", self.game.player_name(player)
                ),
                ply=ply,
                move=quote(decision.move),
            )
            if state.outcome is not None:
                raise RecordError(
                    N_("{where}: the game was already over ({result}, {reason})"),
                    where=where,
                    result=state.outcome.result,
                    reason=state.outcome.reason,
                    ply=ply,
                )
            try:
                move = self.game.parse_move(state, decision.move)
                state = state.apply(move)
            except TablierError as exc:
                raise RecordError(N_("{where}: {error}"), where=where, error=exc, ply=ply) from None
            moves.append(move)
            states.append(state)
        self._check_result(state)
        return states, moves

    def _check_result(self, final: State[Any]) -> None:
        outcome = final.outcome
        if outcome is None:
            return
        if self.result not in ("*", outcome.result):
            raise RecordError(
                N_("the result says {result} but the game ended {ended} ({reason})"),
                result=self.result,
                ended=outcome.result,
                reason=outcome.reason,
            )
        if self.reason is not None and self.reason.strip().lower() not in (
            outcome.reason.lower(),
            outcome.message.lower(),
        ):
            raise RecordError(
                N_("the reason says {reason} but the game ended by {ended}"),
                reason=quote(self.reason),
                ended=repr(outcome.reason),
            )

    def _canonical(self) -> Record:
        """Replay, then return the record with canonical move texts and position."""
        states, moves = self._replay()
        final = states[-1]
        reason, result = self.reason, self.result
        if final.outcome is not None:
            reason, result = final.outcome.reason, final.outcome.result
        position = None if self.position is None else states[0].to_text()
        decisions = tuple(
            Decision(self.game.move_text(before, m), d.comment)
            for before, m, d in zip(states, moves, self.moves, strict=False)
        )
        return Record(self.game, decisions, self.tags, position, result, reason)

    # -- text format ----------------------------------------------------------

    def to_text(self) -> str:
        """The record in the text format (header tags, numbered movetext, result)."""
        lines = [_tag_line("Game", self.game.name)]
        options = self.game.spec.partition(":")[2]
        if options:
            lines.append(_tag_line("Options", options))
        for name in _TAG_ORDER:
            if name in self.tags:
                lines.append(_tag_line(name, self.tags[name]))
        for name, value in self.tags.items():
            if name not in _TAG_ORDER:
                lines.append(_tag_line(name, value))
        lines.append(_tag_line("Result", self.result))
        if self.reason is not None:
            lines.append(_tag_line("Reason", self.reason))
        if self.position is not None:
            lines.append(_tag_line("Position", self.position))
        lines.append("")
        lines.extend(self.movetext_lines())
        return "\n".join(lines) + "\n"

    def movetext_lines(self) -> list[str]:
        """The numbered movetext lines, the result token last."""
        if not self.moves:
            return [self.result]
        try:
            states, _ = self._replay_lenient()
        except TablierError:
            states = []
        players = [s.to_move for s in states]
        if len(players) < len(self.moves):
            # Unreplayable record: number by alternation as a last resort.
            start = players[0] if players else 0
            players = [(start + i) % 2 for i in range(len(self.moves))]
        labels = move_numbers(players[: len(self.moves)])
        out: list[str] = []
        current = ""
        for (number, starts_line, first_player), decision in zip(labels, self.moves, strict=True):
            text = decision.move
            if decision.comment is not None:
                text += " {" + _escape_comment(decision.comment) + "}"
            if starts_line:
                if current:
                    out.append(current)
                current = f"{number}{'.' if first_player else '...'} {text}"
            else:
                current += f" ; {text}"
        out.append(current)
        out.append(self.result)
        return out

    def _replay_lenient(self) -> tuple[list[State[Any]], list[Move]]:
        """Replay as far as possible, without checking the result."""
        state = self.start_state()
        states, moves = [state], []
        for decision in self.moves:
            if state.outcome is not None:
                break
            move = self.game.parse_move(state, decision.move)
            state = state.apply(move)
            moves.append(move)
            states.append(state)
        return states, moves

    @classmethod
    def from_text(cls, text: str) -> Record:
        """Read a record in the text format and validate it by replaying every move."""
        if not isinstance(text, str):
            raise RecordError(N_("a record must be text, not {kind}"), kind=type(text).__name__)
        tags: dict[str, str] = {}
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        i = 0
        if lines and lines[0].startswith("\ufeff"):
            lines[0] = lines[0][1:]
        while i < len(lines):
            line = lines[i].strip()
            if not line:
                i += 1
                continue
            if not line.startswith("["):
                break
            m = _TAG_LINE.match(line)
            if not m:
                raise RecordError(
                    N_("line {n}: cannot read the tag {text}"), n=i + 1, text=quote(line)
                )
            name, value = m.group(1), _unescape_tag(m.group(2), i + 1)
            if name in tags:
                raise RecordError(
                    N_("line {n}: tag {name} appears twice"), n=i + 1, name=quote(name)
                )
            tags[name] = value
            i += 1
        movetext = "\n".join(lines[i:])
        if "Game" not in tags:
            raise RecordError(N_('the record has no [Game "..."] tag'))
        game = _game_from(tags.pop("Game"), tags.pop("Options", None))
        result = tags.pop("Result", "*").strip()
        if result not in RESULTS:
            raise RecordError(
                N_("result {result} is not one of {results}"),
                result=quote(result),
                results=", ".join(RESULTS),
            )
        reason = tags.pop("Reason", None)
        position = tags.pop("Position", None)
        decisions, token = _parse_movetext(movetext, first_line=i + 1)
        if token is not None and token != result:
            raise RecordError(
                N_("the movetext ends with {token} but the Result tag says {result}"),
                token=token,
                result=result,
            )
        record = cls(game, tuple(decisions), tags, position, result, reason)
        return record._canonical()

    # -- JSON -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON-ready data (see ``docs/records.md``)."""
        from .position import parse_spec

        _, options = parse_spec(self.game.spec)
        return {
            "format": JSON_FORMAT,
            "game": self.game.name,
            "options": options,
            "tags": dict(self.tags),
            "position": self.position,
            "moves": [{"move": d.move, "comment": d.comment} for d in self.moves],
            "result": self.result,
            "reason": self.reason,
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """The record as a JSON document."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """Read a record from the data of :meth:`to_dict` and validate it."""
        if not isinstance(data, dict):
            raise RecordError(
                N_("a JSON record must be an object, not {kind}"), kind=_json_type(data)
            )
        version = data.get("format")
        if type(version) is not int or version != JSON_FORMAT:
            shown = quote(version) if type(version) in (int, str) else _json_type(version)
            raise RecordError(
                N_("unsupported record format {shown} (this version reads format {supported})"),
                shown=shown,
                supported=JSON_FORMAT,
            )
        known = {"format", "game", "options", "tags", "position", "moves", "result", "reason"}
        unknown = sorted(set(data) - known, key=repr)
        if unknown:
            shown = ", ".join(quote(k, 20) for k in unknown[:5]) + (", …" if unknown[5:] else "")
            raise RecordError(N_("unknown field(s) in the JSON record: {shown}"), shown=shown)
        name = _field(data, "game", str)
        options = data.get("options")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RecordError(
                N_("'options' must be an object, not {kind}"), kind=_json_type(options)
            )
        for key, value in options.items():
            if not isinstance(key, str):
                raise RecordError(N_("option names are strings, not {kind}"), kind=_json_type(key))
            if isinstance(value, bool) or not isinstance(value, str | int | float | type(None)):
                raise RecordError(
                    N_(
                        "option {key} has a value of the wrong type: {kind} (a string, a "
                        "number or null)"
                    ),
                    key=quote(key),
                    kind=_json_type(value),
                )
        game = _game_from_options(name, options)
        tags = data.get("tags")
        if tags is None:
            tags = {}
        if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
            raise RecordError(N_("'tags' must be an object whose values are strings"))
        position = data.get("position")
        if position is not None and not isinstance(position, str):
            raise RecordError(
                N_("'position' must be a string or null, not {kind}"),
                kind=_json_type(position),
            )
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise RecordError(N_("'moves' must be a list, not {kind}"), kind=_json_type(moves))
        decisions = []
        for n, item in enumerate(moves, start=1):
            if isinstance(item, str):
                decisions.append(Decision(item))
                continue
            if not isinstance(item, dict) or not isinstance(item.get("move"), str):
                raise RecordError(
                    N_("decision {n}: expected a string or an object with a 'move' string"),
                    n=n,
                    ply=n,
                )
            extra = sorted(set(item) - {"move", "comment"}, key=repr)
            if extra:
                shown = ", ".join(quote(k, 20) for k in extra[:5]) + (", …" if extra[5:] else "")
                raise RecordError(
                    N_("decision {n}: unknown field(s) {shown}"), n=n, shown=shown, ply=n
                )
            comment = item.get("comment")
            if comment is not None and not isinstance(comment, str):
                raise RecordError(
                    N_("decision {n}: the comment must be a string or null"), n=n, ply=n
                )
            decisions.append(Decision(item["move"], comment))
        result = data.get("result", "*")
        if not isinstance(result, str) or result not in RESULTS:
            shown = quote(result) if isinstance(result, str) else _json_type(result)
            raise RecordError(
                N_("result {result} is not one of {results}"),
                result=shown,
                results=", ".join(RESULTS),
            )
        reason = data.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise RecordError(
                N_("'reason' must be a string or null, not {kind}"),
                kind=_json_type(reason),
            )
        return cls(game, tuple(decisions), tags, position, result, reason)._canonical()

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Read a JSON record and validate it by replaying every move."""
        try:
            data = json.loads(text)
        except RecursionError:
            raise RecordError(N_("not valid JSON for a record: nested too deeply")) from None
        except (ValueError, TypeError) as exc:  # JSONDecodeError, bad UTF-8, 5,000-digit numbers
            raise RecordError(N_("not valid JSON: {error}"), error=exc) from None
        return cls.from_dict(data)

    # -- files ----------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the record: JSON when the file name ends in ``.json``, else text."""
        path = Path(path)
        data = self.to_json() if path.suffix.lower() == ".json" else self.to_text()
        path.write_text(data, encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file: JSON when it starts with ``{``, else the text format.

        Raises RecordError for an unreadable file as well as a bad record.
        """
        try:
            data = Path(path).read_text(encoding="utf-8")
        except (OSError, ValueError) as exc:  # ValueError: bad UTF-8, a NUL in the name
            raise RecordError(
                N_("cannot read {path}: {error}"), path=quote(str(path)), error=exc
            ) from None
        if data.lstrip("\ufeff \t\r\n").startswith("{"):
            return cls.from_json(data)
        return cls.from_text(data)


# -- helpers ------------------------------------------------------------------


def move_numbers(players: Sequence[int]) -> list[tuple[int, bool, bool]]:
    """Number the decisions whose deciding players are ``players``.

    Returns, per decision, ``(move_number, starts_line, first_player_line)``.
    A new numbered line starts at the first decision and each time the first
    player (0) begins a turn; ``first_player_line`` is False for a first line
    that begins with the second player (written ``1...``).
    """
    out = []
    number = 0
    first_line = True
    for i, player in enumerate(players):
        starts = i == 0 or (player == 0 and players[i - 1] != 0)
        if starts:
            number += 1
            first_line = player == 0
        out.append((number, starts, first_line))
    return out


def _game_from(name: str, options: str | None) -> Game[Any, Any]:
    from ..games import from_spec

    name = name.strip()
    spec = name
    if options is not None and options.strip():
        opts = options.strip()
        if ":" in opts:
            other, _, opts = opts.partition(":")
            if other.strip().lower() != name.lower():
                raise RecordError(
                    N_("the Options tag is for {other}, but the game is {name}"),
                    other=quote(other),
                    name=quote(name),
                )
        spec = f"{name}:{opts}"
    try:
        return from_spec(spec)
    except TablierError as exc:
        raise RecordError(
            N_("bad game or options {spec}: {error}"), spec=quote(spec), error=exc
        ) from None


def _game_from_options(name: str, options: Mapping[str, Any]) -> Game[Any, Any]:
    """The game ``name`` built with the option values of a JSON record."""
    from ..games import get

    try:
        return get(name, **options)
    except TablierError as exc:
        raise RecordError(N_("bad game or options: {error}"), error=exc) from None


def _check_tag(name: Any, value: Any) -> None:
    if not isinstance(name, str) or not _TAG_NAME.match(name):
        raise RecordError(N_("bad tag name {name} (letters, digits and _ only)"), name=quote(name))
    if not isinstance(value, str):
        raise RecordError(
            N_("tag {name} must be text, not {kind}"), name=quote(name), kind=type(value).__name__
        )
    if any(c in value for c in "\n\r"):
        raise RecordError(N_("tag {name} must be one line"), name=quote(name))


def _tag_line(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _unescape_tag(value: str, line: int) -> str:
    out = []
    i = 0
    while i < len(value):
        c = value[i]
        if c == "\\":
            nxt = value[i + 1] if i + 1 < len(value) else ""
            if nxt not in ('"', "\\"):
                raise RecordError(
                    N_('line {line}: bad escape {escape} in a tag (use \\" or \\\\)'),
                    line=line,
                    escape=f"'\\{nxt}'",
                )
            out.append(nxt)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _escape_comment(text: str) -> str:
    return text.replace("\\", "\\\\").replace("}", "\\}")


def _parse_movetext(text: str, first_line: int = 1) -> tuple[list[Decision], str | None]:
    """Split movetext into decisions; return them and the result token (or None)."""
    # 1. cut out the comments (they may contain anything, escaped '}' and '\').
    pieces: list[tuple[str, str]] = []  # ("text", chunk) or ("comment", body)
    buf: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "{":
            start_line = first_line + text.count("\n", 0, i)
            pieces.append(("text", "".join(buf)))
            buf = []
            body: list[str] = []
            i += 1
            while True:
                if i >= n:
                    raise RecordError(
                        N_("line {line}: comment not closed with '}}'"), line=start_line
                    )
                ch = text[i]
                if ch == "\\" and i + 1 < n and text[i + 1] in "\\}":
                    body.append(text[i + 1])
                    i += 2
                    continue
                if ch == "}":
                    i += 1
                    break
                body.append(ch)
                i += 1
            pieces.append(("comment", "".join(body)))
            continue
        if c == "}":
            line = first_line + text.count("\n", 0, i)
            raise RecordError(N_("line {line}: '}}' without an opening '{{'"), line=line)
        buf.append(c)
        i += 1
    pieces.append(("text", "".join(buf)))

    # 2. the result token ends the last text piece.
    token = None
    for k in range(len(pieces) - 1, -1, -1):
        kind, chunk = pieces[k]
        if kind == "comment":
            break
        if not chunk.strip():
            continue
        m = _RESULT_AT_END.search(chunk)
        if m:
            token = m.group(1)
            pieces[k] = ("text", chunk[: m.start()])
        break

    # 3. split the text pieces at ';' and move numbers; attach comments.
    decisions: list[Decision] = []
    separated = True  # whether a separator came since the last decision
    for kind, chunk in pieces:
        if kind == "comment":
            if not decisions:
                raise RecordError(N_("a comment comes before the first move"))
            last = decisions[-1]
            comment = body_join(last.comment, chunk)
            decisions[-1] = Decision(last.move, comment)
            continue
        for part in _split_separators(chunk):
            if part is None:
                separated = True
                continue
            words = part.strip()
            if not words:
                continue
            if not separated and decisions:
                # e.g. "take 1 {c} take 2": text after a comment needs a ';'
                raise RecordError(
                    N_("after the move {move}: missing ';' before {words}"),
                    move=quote(decisions[-1].move),
                    words=quote(words),
                )
            if _RESULT_AT_END.fullmatch(words) and words in RESULTS:
                raise RecordError(N_("result {words} in the middle of the moves"), words=words)
            decisions.append(Decision(" ".join(words.split())))
            separated = False
        # a comment ends a decision but does not separate it from the next one
    return decisions, token


def body_join(old: str | None, new: str) -> str:
    """Join two comments on the same decision."""
    return new if old is None else f"{old} {new}"


def _split_separators(chunk: str) -> list[str | None]:
    """Split at ';' and move numbers; ``None`` marks each separator."""
    out: list[str | None] = []
    for k, part in enumerate(chunk.split(";")):
        if k:
            out.append(None)
        pos = 0
        for m in _MOVE_NUMBER.finditer(part):
            out.append(part[pos : m.start()])
            out.append(None)
            pos = m.end()
        out.append(part[pos:])
    return out


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise RecordError(N_("the JSON record has no {key}"), key=repr(key))
    value = data[key]
    if not isinstance(value, kind):
        raise RecordError(
            N_("{key} must be a {expected}, not {kind}"),
            key=repr(key),
            expected=kind.__name__,
            kind=_json_type(value),
        )
    return value


_JSON_TYPES: dict[type, Message | str] = {
    dict: Message(N_("an object")),
    list: Message(N_("a list")),
    str: Message(N_("a string")),
    int: Message(N_("a number")),
    float: Message(N_("a number")),
    bool: Message(N_("a boolean")),
    type(None): "null",
}


def _json_type(value: Any) -> Message | str:
    return _JSON_TYPES.get(type(value), type(value).__name__)
