"""Strategies and helpers shared by the fuzz tests.

The readers are fed three kinds of text: any Unicode text (``st.text()``),
text assembled from valid fragments of the game's own notation mixed with
digit-like characters that are not ASCII digits, numbers thousands of digits
long and separators; and valid texts (moves, position strings, records) with
one or a few of those pieces put in, swapped or cut out.  Each reader must
answer with a value or a :class:`~tablier.core.errors.TablierError`, nothing
else; :data:`TRIED` counts the inputs each reader was given, printed at the
end of the test session by the :func:`report_tried` fixture.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import tablier.games
from tablier.core.errors import TablierError
from tablier.core.game import Game, State
from tablier.core.record import Record

#: The settings of every fuzz test: enough inputs to find the classic faults, fast.
FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

#: Inputs tried per reader over the session ("volo parse_move" -> count).
TRIED: Counter[str] = Counter()

#: Characters for which str.isdigit() or str.isnumeric() is True but which are not 0-9:
#: superscripts, circled, Arabic-Indic, Devanagari, fullwidth, mathematical, Roman, fractions.
ODD_DIGITS = tuple("²³¹⁰①⑳٣٠۴५３０𝟠𝟎߃Ⅻⅷ½¼〇零")
#: Characters that join pieces of notation in one game or another.
SEPARATORS = (
    "/",
    ":",
    "-",
    "->",
    "x",
    "@",
    "+",
    "=",
    ",",
    ".",
    ";",
    " ",
    "  ",
    "\t",
    "\n",
    "(v)",
    "{",
    "}",
    "[",
    "]",
    '"',
    "\\",
    "–",
    "\u00a0",
    "\u3000",
    "\x00",
    "*",
    "1-0",
    "1/2-1/2",
)


def huge_numbers() -> st.SearchStrategy[str]:
    """Digit strings around and far beyond the lengths int() accepts, and ordinary ones."""
    return st.one_of(
        st.integers(min_value=-(10**30), max_value=10**30).map(str),
        st.integers(min_value=19, max_value=60).map(lambda n: "9" * n),
        st.integers(min_value=4290, max_value=6000).map(lambda n: "1" + "0" * n),
        st.sampled_from(["0", "00", "-0", "+1", "1_000", "1e9", "nan", "inf", "0x1f", "٣٣"]),
    )


def fragments_of(texts: list[str]) -> list[str]:
    """Tokens of valid texts: whole texts, their words, and the pieces between separators."""
    out: set[str] = set()
    for text in texts:
        out.add(text)
        for word in text.split():
            out.add(word)
            out.update(p for p in re.split(r"[/:,=@;\-]", word) if p)
    return sorted(out)


def mixed_text(fragments: list[str]) -> st.SearchStrategy[str]:
    """Text built from valid fragments, odd digits, huge numbers and separators."""
    piece = st.one_of(
        st.sampled_from(fragments),
        st.sampled_from(ODD_DIGITS),
        huge_numbers(),
        st.sampled_from(SEPARATORS),
        st.text(max_size=3),
    )
    return st.lists(piece, max_size=10).map("".join)


def mutated(valid: list[str]) -> st.SearchStrategy[str]:
    """A valid text with a few pieces put in, replaced, or cut out."""
    insert = st.one_of(
        st.sampled_from(ODD_DIGITS),
        huge_numbers(),
        st.sampled_from(SEPARATORS),
        st.text(min_size=1, max_size=2),
    )

    @st.composite
    def build(draw: st.DrawFn) -> str:
        text = draw(st.sampled_from(valid))
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(text)))
            j = draw(st.integers(i, min(len(text), i + 3)))
            kind = draw(st.sampled_from(("insert", "replace", "cut")))
            if kind == "cut":
                text = text[:i] + text[j:]
            else:
                new = draw(insert)
                text = text[:i] + new + (text[j:] if kind == "replace" else text[i:])
        return text

    return build()


def any_text(fragments: list[str], valid: list[str]) -> st.SearchStrategy[str]:
    """Every kind of input at once: full Unicode, mixed fragments and mutated valid texts."""
    return st.one_of(st.text(), mixed_text(fragments), mutated(valid))


@pytest.fixture(scope="session", autouse=True)
def report_tried(request: pytest.FixtureRequest):
    """At the end of the session, print the inputs tried per reader (once)."""
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or not TRIED or _REPORTED:
        return
    _REPORTED.append(True)
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
        reporter.write_line("")
        reporter.section("fuzz inputs tried per reader")
        for reader, count in sorted(TRIED.items()):
            reporter.write_line(f"{count:7d}  {reader}")
        reporter.write_line(f"{sum(TRIED.values()):7d}  in all")


_REPORTED: list[bool] = []


def refuses_cleanly(reader: str, call: Callable[[], Any]) -> Any:
    """Call a reader; return its value, or None when it raised a TablierError.

    Any other exception fails the test (pytest shows it with its traceback).
    """
    TRIED[reader] += 1
    try:
        return call()
    except TablierError as exc:
        message = str(exc)
        assert message.strip(), f"{reader}: a {type(exc).__name__} without a message"
        assert len(message) < 2000, f"{reader}: a message of {len(message)} characters"
        return None


# -- the games under test -------------------------------------------------------------------


def option_sets() -> list[tuple[str, dict[str, Any]]]:
    """Every game with each of its example option sets."""
    return [
        (name, options)
        for name in tablier.games.names()
        for options in tablier.games.game_class(name).example_options()
    ]


@cache
def game_of(name: str, key: str) -> Game:
    """The game ``name`` with the option set whose repr is ``key``."""
    for n, options in option_sets():
        if n == name and repr(sorted(options.items())) == key:
            return tablier.games.get(name, **options)
    raise KeyError((name, key))


def option_keys(name: str) -> list[str]:
    """The keys :func:`game_of` takes for the example option sets of ``name`` (test ids too)."""
    return [repr(sorted(o.items())) for o in tablier.games.game_class(name).example_options()]


def games_of(name: str) -> list[Game]:
    """The game ``name`` under each of its example option sets."""
    return [
        game_of(name, repr(sorted(o.items())))
        for o in tablier.games.game_class(name).example_options()
    ]


@cache
def sample_states(game: Game, count: int = 4, plies: int = 12) -> tuple[State, ...]:
    """The initial state and a few reached by seeded random play (same every run)."""
    rng = random.Random(f"{game.spec}")
    states = [game.initial_state()]
    for k in range(1, count):
        state = game.initial_state()
        for _ in range(rng.randint(1, plies * k)):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.apply_unchecked(rng.choice(moves))
        states.append(state)
    return tuple(states)


@cache
def sample_record(game: Game) -> Record:
    """A record of a seeded random game of a few decisions, with tags and a comment."""
    rng = random.Random(f"record {game.spec}")
    state = game.initial_state()
    moves = []
    for _ in range(8):
        legal = state.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        state = state.apply_unchecked(move)
    comments = [None] * len(moves)
    if comments:
        comments[0] = "a {quiet} start"
    return Record.from_moves(game, moves, comments=comments, tags={"First": "Ann", "Second": "Bob"})


@cache
def move_texts(game: Game) -> list[str]:
    """Legal move texts of the sample states (the valid inputs of parse_move)."""
    out: list[str] = []
    for state in sample_states(game):
        out.extend(game.move_text(state, m) for m in state.legal_moves()[:40])
    return out or ["pass"]


@cache
def position_texts(game: Game) -> list[str]:
    """Position strings of the sample states."""
    return [s.to_text() for s in sample_states(game)]


def json_values(max_leaves: int = 6) -> st.SearchStrategy[Any]:
    """Any JSON value (nested lists and objects of every scalar type)."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**20), max_value=10**20),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=max_leaves,
    )


def record_json_texts(game: Game) -> list[str]:
    """The JSON of the sample record, compact and indented."""
    record = sample_record(game)
    return [record.to_json(), record.to_json(indent=None)]


def json_with_field(game: Game, path: tuple[Any, ...], value: Any) -> str:
    """The sample record's JSON with the field at ``path`` replaced by ``value``."""
    data = sample_record(game).to_dict()
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if isinstance(target, list) and not target:
        target.append(value)
    elif isinstance(target, list):
        target[min(path[-1], len(target) - 1)] = value
    else:
        target[path[-1]] = value
    return json.dumps(data)


#: Fields of a JSON record, as paths into its data (the moves' items and their keys too).
JSON_FIELDS: tuple[tuple[Any, ...], ...] = (
    ("format",),
    ("game",),
    ("options",),
    ("tags",),
    ("position",),
    ("moves",),
    ("result",),
    ("reason",),
    ("moves", 0),
    ("moves", 0, "move"),
    ("moves", 0, "comment"),
    ("tags", "First"),
    ("options", "x"),
    ("extra",),
)
