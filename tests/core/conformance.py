"""Generic conformance checks shared by the conformance and property tests.

Everything here goes through the core protocol and the registry only, so it
applies unchanged to every registered game (and to the toy game of the
tests).  ``game_params()`` builds one pytest parameter per game and option
set; a game package that cannot be imported gives a parameter whose tests
fail with the import error instead of hiding the game.
"""

from __future__ import annotations

import random
import re

import pytest

import tablier.games
from tablier.core.errors import GameOverError, TablierError
from tablier.core.game import Game, Move, State
from tablier.core.record import RESULTS, Record

from .toygame import PlainToy, Toy

# Characters that records reserve: a move's notation must not contain them.
RESERVED = (";", "{", "}", "\n", "\r")
_MOVE_NUMBER_WORD = re.compile(r"(?:^|\s)\d+\.+(?:\s|$)")
_RESULT_END = re.compile(r"(?:^|\s)(1-0|0-1|1/2-1/2|\*)$")


def _option_id(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


def game_params() -> list:
    """``pytest.param(cls, options)`` for every registered game and option set + the toys."""
    params = []
    for name in tablier.games.names():
        try:
            cls = tablier.games.game_class(name)
            option_sets = cls.example_options()
        except Exception as exc:  # report it as a failing test, not a collection error
            params.append(pytest.param(None, {"error": repr(exc)}, id=f"{name}-unloadable"))
            continue
        for options in option_sets:
            params.append(pytest.param(cls, options, id=f"{name}-{_option_id(options)}"))
    for toy in (Toy, PlainToy):  # PlainToy: a game without options (spec = bare name)
        for options in toy.example_options():
            params.append(pytest.param(toy, options, id=f"{toy.name}-{_option_id(options)}"))
    return params


def make_game(cls: type[Game] | None, options: dict) -> Game:
    """Build the game of a parameter (fails the test for an unloadable game)."""
    if cls is None:
        pytest.fail(f"the game package cannot be loaded: {options['error']}")
    return cls(**options)


def fingerprint(state: State) -> tuple[int, str]:
    """What must not change when a move is applied to ``state``."""
    return hash(state), state.to_text()


def check_notation(game: Game, state: State, moves: list[Move]) -> None:
    """Every legal move prints distinct, record-safe notation that parses back to itself."""
    texts = [str(m) for m in moves]
    assert len(set(texts)) == len(texts), f"two legal moves print alike: {texts}"
    assert len(set(moves)) == len(moves), "legal_moves() lists a move twice"
    for move, text in zip(moves, texts, strict=True):
        assert text and text == text.strip(), f"bad notation {text!r}"
        assert not any(c in text for c in RESERVED), f"{text!r} uses a record separator"
        assert not _MOVE_NUMBER_WORD.search(text), f"{text!r} contains a move-number word"
        assert not _RESULT_END.search(text), f"{text!r} ends like a result token"
        parsed = game.parse_move(state, text)
        assert parsed == move, f"{text!r} parses back as {parsed!r}, not {move!r}"
        assert hash(parsed) == hash(move)
        shown = game.move_text(state, move)  # the form records and clients show
        assert not any(c in shown for c in RESERVED), f"{shown!r} uses a record separator"
        assert game.parse_move(state, shown) == move, f"{shown!r} does not parse back"


def check_position(game: Game, state: State) -> None:
    """Position strings round-trip through the game and the registry; equal states hash alike."""
    text = state.to_text()
    assert "\n" not in text
    again = game.parse_position(text)
    assert again == state and hash(again) == hash(state)
    assert again.to_text() == text
    via_registry = tablier.games.parse_position(text)
    assert via_registry == state and hash(via_registry) == hash(state)
    assert via_registry.game == game
    assert state.game == game


def check_state(game: Game, state: State, rng: random.Random, *, all_moves: bool = True) -> Move:
    """Run every per-position check; return a random legal move (or None when over)."""
    assert state.to_move in (0, 1)
    check_position(game, state)
    before = fingerprint(state)
    moves = state.legal_moves()
    assert state.legal_moves() == moves, "legal_moves() is not in a fixed order"
    outcome = state.outcome
    assert state.is_terminal == (outcome is not None)
    assert (outcome is not None) == (not moves), "terminal iff no legal move"
    if outcome is not None:
        assert outcome.winner in (0, 1, None)
        assert isinstance(outcome.reason, str) and outcome.reason.strip()
        assert outcome.result in RESULTS[:3]
        return None
    sample = moves if all_moves else rng.sample(moves, min(len(moves), 8))
    check_notation(game, state, sample)
    for move in rng.sample(moves, min(len(moves), 3)):
        after = state.apply(move)
        assert after == state.apply_unchecked(move)
        assert fingerprint(state) == before, "applying a move changed the original state"
        assert after.game == game
    assert fingerprint(state) == before
    return rng.choice(moves)


def check_garbage(game: Game, state: State, rng: random.Random, count: int = 40) -> None:
    """Garbage and truncated moves and positions raise TablierError or read correctly."""
    moves = state.legal_moves()
    alphabet = "".join(sorted(set("".join(str(m) for m in moves[:50]) + state.to_text())))
    alphabet += " -+x/:;,()[]{}.*#?!0123456789é\t"
    legal = set(moves)
    candidates = ["", " ", "\n", "???", "pass pass", "z99", "a0", "-", "()", "1-0", "x" * 300]
    for _ in range(count):
        candidates.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))))
    for move in rng.sample(moves, min(len(moves), 5)):
        text = str(move)
        candidates += [text[:k] for k in range(len(text))]
        candidates += [text + text[-1:], text.upper(), f"  {text}  ", text + " ;"]
    for text in candidates:
        try:
            move = game.parse_move(state, text)
        except TablierError:
            continue
        except Exception as exc:  # pragma: no cover - what the check is for
            pytest.fail(f"parse_move({text!r}) raised {type(exc).__name__}: {exc}")
        assert move in legal, f"parse_move({text!r}) returned an illegal move {move!r}"
    check_garbage_positions(game, state, rng, count // 2)


def check_garbage_positions(game: Game, state: State, rng: random.Random, count: int) -> None:
    """Truncated and mutated position strings fail cleanly or read consistently."""
    text = state.to_text()
    spec, _, body = text.partition(" ")
    others = [n for n in tablier.games.names() if n != game.name]
    candidates = ["", " ", spec, spec + " ", body, "nogame:x=1 " + body]
    candidates += [f"{name} {body}" for name in others] + [f"{name}:{text}" for name in others]
    candidates += [text[:k] for k in rng.sample(range(len(text)), min(len(text), 25))]
    chars = sorted(set(text)) + list("xz9-/ ")
    for _ in range(count):
        k = rng.randrange(len(text))
        mutated = text[:k] + rng.choice(chars) + text[k + 1 :]
        candidates.append(mutated)
        candidates.append(text[:k] + text[k + 1 :])
    for candidate in candidates:
        for reader in (game.parse_position, tablier.games.parse_position):
            try:
                other = reader(candidate)
            except TablierError:
                continue
            except Exception as exc:  # pragma: no cover - what the check is for
                name = reader.__qualname__
                pytest.fail(f"{name}({candidate!r}) raised {type(exc).__name__}: {exc}")
            # Whatever was accepted must be a consistent position.
            assert isinstance(other, State)
            assert other.game.parse_position(other.to_text()) == other


def check_game_over(state: State, last: Move) -> None:
    """A finished game refuses moves with a TablierError (GameOverError)."""
    with pytest.raises(GameOverError):
        state.apply(last)


def check_record(game: Game, start: State, moves: list[Move], final: State) -> None:
    """The game as a record round-trips in both formats and replays to the final state."""
    comments = [None] * len(moves)
    if moves:
        comments[0] = "first } move \\ {"
        comments[-1] = "last"
    record = Record.from_moves(start, moves, comments=comments, tags={"Event": 'conformance "run"'})
    texts, state = [], start
    for m in moves:
        texts.append(game.move_text(state, m))
        state = state.apply_unchecked(m)
    assert [d.move for d in record.moves] == texts
    text = record.to_text()
    assert Record.from_text(text) == record
    assert Record.from_json(record.to_json()) == record
    assert record.replay()[-1] == final
    if final.outcome is not None:
        assert record.result == final.outcome.result
    else:
        assert record.result == "*"


def random_game(game: Game, rng: random.Random, cap: int, *, all_moves: bool = True):
    """Play a seeded random game with every check at every step; return moves and states."""
    state = game.initial_state()
    states, moves = [state], []
    while len(moves) < cap:
        move = check_state(game, state, rng, all_moves=all_moves)
        if move is None:
            break
        state = state.apply(move)
        moves.append(move)
        states.append(state)
    else:
        check_state(game, state, rng, all_moves=all_moves)
    return moves, states
