"""Every reader of every game, fed any text, answers a value or a TablierError.

Readers: ``game.parse_move``, ``game.parse_position``,
``tablier.games.parse_position`` and ``start_state``, ``tablier.games.from_spec``,
``tablier.games.get(name, **options)`` with option texts, and AI player specs.
Where a reader succeeds, what it read must round-trip: the move or position
it returns is read back from its own notation.
"""

from __future__ import annotations

import re
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tablier.games
from tablier.ai.players import make_player
from tablier.ai.ray_backend import _host_port
from tablier.core.errors import TablierError
from tablier.core.position import parse_spec

from .fuzzkit import (
    FUZZ,
    TRIED,
    any_text,
    fragments_of,
    game_of,
    games_of,
    mixed_text,
    move_texts,
    option_keys,
    position_texts,
    refuses_cleanly,
    report_tried,  # noqa: F401 - the session fixture that prints the counts
    sample_states,
)

GAMES = tablier.games.names()


OPTION_SETS = [(name, key) for name in GAMES for key in option_keys(name)]


@pytest.mark.parametrize(("name", "options"), OPTION_SETS)
@FUZZ
@given(data=st.data())
def test_parse_move(name, options, data):
    game = game_of(name, options)
    state = data.draw(st.sampled_from(sample_states(game)), label="state")
    valid = move_texts(game)
    text = data.draw(any_text(fragments_of(valid), valid), label="text")
    move = refuses_cleanly(f"{name} parse_move", lambda: game.parse_move(state, text))
    if move is not None:
        assert move in state.legal_moves(), f"{text!r} read as {move}, which is not legal"
        again = game.parse_move(state, game.move_text(state, move))
        assert again == move, f"{move} does not read back from its notation"


@pytest.mark.parametrize(("name", "options"), OPTION_SETS)
@FUZZ
@given(data=st.data())
def test_game_parse_position(name, options, data):
    game = game_of(name, options)
    valid = position_texts(game)
    text = data.draw(any_text(fragments_of(valid), valid), label="text")
    state = refuses_cleanly(f"{name} game.parse_position", lambda: game.parse_position(text))
    if state is not None:
        assert state.game == game
        assert game.parse_position(state.to_text()) == state, "the position does not read back"


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_registry_parse_position_and_start_state(name, data):
    game = data.draw(st.sampled_from(games_of(name)), label="game")
    valid = [*position_texts(game), game.spec]
    text = data.draw(any_text(fragments_of(valid), valid), label="text")
    for reader in (tablier.games.parse_position, tablier.games.start_state):
        state = refuses_cleanly(f"{name} games.{reader.__name__}", lambda r=reader: r(text))
        if state is not None:
            assert tablier.games.parse_position(state.to_text()) == state


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_specs_and_option_texts(name, data):
    games = games_of(name)
    valid = [g.spec for g in games]
    text = data.draw(any_text(fragments_of(valid), valid), label="spec")
    game = refuses_cleanly(f"{name} from_spec", lambda: tablier.games.from_spec(text))
    if game is not None:
        assert tablier.games.from_spec(game.spec) == game, "the spec does not read back"
    option = data.draw(st.sampled_from([o.name for o in games[0].OPTIONS]), label="option")
    values = [str(v) for g in games for v in g.options.values()]
    value = data.draw(any_text(values, values), label="value")
    game = refuses_cleanly(
        f"{name} get(option=text)", lambda: tablier.games.get(name, **{option: value})
    )
    if game is not None:
        assert tablier.games.from_spec(game.spec) == game


PLAYER_SPECS = [
    "random",
    "greedy",
    "easy",
    "medium",
    "hard",
    "expert",
    "mcts:iterations=50",
    "hard:iterations=300,seconds=none",
    "mcts:iterations=20,seconds=0.5,tactics=no",
]


@FUZZ
@given(text=st.one_of(st.text(), any_text(fragments_of(PLAYER_SPECS), PLAYER_SPECS)))
def test_player_specs(text):
    game = games_of("volo")[0]
    refuses_cleanly("AI player spec", lambda: make_player(text, game))


@pytest.mark.parametrize("name", GAMES)
def test_game_names_and_option_values_of_other_types(name):
    for value in (None, 3, 2.5, float("nan"), True, [], {}, b"mini", "٣", "9" * 5000):
        for option in tablier.games.game_class(name).OPTIONS:
            refuses_cleanly(
                f"{name} get(option=object)",
                lambda o=option, v=value: tablier.games.get(name, **{o.name: v}),
            )
    for bad in (None, 3, b"volo", ["volo"], "volo" * 2000):
        refuses_cleanly("games.get(name)", lambda b=bad: tablier.games.get(b))
        refuses_cleanly("games.from_spec", lambda b=bad: tablier.games.from_spec(b))
        refuses_cleanly("games.parse_position", lambda b=bad: tablier.games.parse_position(b))
        refuses_cleanly("games.start_state", lambda b=bad: tablier.games.start_state(b))
    game = games_of(name)[0]
    state = game.initial_state()
    for bad in (None, 3, b"e5", ["e5"]):
        refuses_cleanly(f"{name} parse_move", lambda b=bad: game.parse_move(state, b))
        refuses_cleanly(f"{name} game.parse_position", partial(game.parse_position, bad))


_ODD = {
    "Arabic-Indic": str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"),
    "fullwidth": str.maketrans("0123456789", "０１２３４５６７８９"),
    "superscript": str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"),
}


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("digits", sorted(_ODD))
def test_digits_other_than_ascii_are_refused_not_read(name, digits):
    """A move or position written with other digits is refused, never read as its ASCII twin."""
    for game in games_of(name):
        states = sample_states(game)
        for state in states:
            for move in state.legal_moves()[:15]:
                text = game.move_text(state, move)
                odd = text.translate(_ODD[digits])
                if odd != text:
                    result = refuses_cleanly(
                        f"{name} parse_move", partial(game.parse_move, state, odd)
                    )
                    assert result is None, f"{odd!r} was read as {result}"
            text = state.to_text()
            odd = text.translate(_ODD[digits])
            for reader in (game.parse_position, tablier.games.parse_position):
                result = refuses_cleanly(f"{name} game.parse_position", partial(reader, odd))
                assert result is None, f"{odd!r} was read as a position"


@pytest.mark.parametrize("name", GAMES)
def test_numbers_of_any_length_are_refused(name):
    """Each number of a position string, made 5,000 digits long, gives a TablierError."""
    for game in games_of(name):
        text = sample_states(game)[-1].to_text()
        numbers = list(dict.fromkeys(re.findall(r"(?<![0-9a-z])[0-9]+(?![0-9])", text)))
        assert numbers, text
        for number in numbers:
            for huge in ("9" * 19, "1" + "0" * 5000):
                bad = re.sub(rf"(?<![0-9a-z]){number}(?![0-9])", huge, text, count=1)
                result = refuses_cleanly(
                    f"{name} game.parse_position", partial(game.parse_position, bad)
                )
                assert result is None, f"{bad[:80]!r}... was read"


@FUZZ
@given(
    port=st.one_of(
        st.text(max_size=6),
        st.sampled_from(["²", "٣٣", "６３７９", "0", "65536", "9" * 5000, "6379 ", "-1"]),
    )
)
def test_ray_addresses(port):
    """A Ray address is HOST:PORT with an ASCII port, or a TablierError (no socket is opened)."""
    address = f"head:{port}"
    target = refuses_cleanly("Ray address", partial(_host_port, address))
    if target is not None:
        tail = address.rpartition(":")[2]
        assert tail.isascii() and tail.isdigit() and target[1] == int(tail)


_WORD = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
_VALUE = st.from_regex(r"[a-z0-9_.+-]{0,8}", fullmatch=True)


@FUZZ
@given(name=_WORD, options=st.dictionaries(_WORD, _VALUE, max_size=4), spaces=st.booleans())
def test_parse_spec_reads_what_it_is_given(name, options, spaces):
    """``name:key=value,...`` reads back as written (lower-cased; spaces around parts allowed)."""
    sep = ", " if spaces else ","
    text = name + (":" + sep.join(f"{k}={v}" for k, v in options.items()) if options else "")
    TRIED["parse_spec (valid specs)"] += 1
    assert parse_spec(text) == (name, options)
    assert parse_spec(text.upper()) == (name, options)


@FUZZ
@given(text=st.one_of(st.text(), mixed_text(["volo", "hard", "board", "mini", "=", ":", ","])))
def test_parse_spec_any_text(text):
    refuses_cleanly("parse_spec", partial(parse_spec, text))


def test_game_and_player_specs_share_one_reader():
    """The same forms are accepted, and the same faults refused, in game and player specs."""
    game = tablier.games.from_spec(" VOLO : Board = mini , supply=12 ")
    assert game.spec == "volo:board=mini,edition=current,setup=nests,supply=12"
    player = make_player(" HARD : Iterations = 50 , max-playout=7 ", game)
    assert player.level.iterations == 50 and player.level.config.max_playout == 7
    for fault, words in (
        (":board=mini", "starts with a name"),
        ("x:board", "is not key=value"),
        ("x:a=1,a=2", "given twice"),
        ("x:a=٣", "other than ASCII"),
    ):
        for reader in (tablier.games.from_spec, partial(make_player, game=game)):
            with pytest.raises(TablierError, match=words):
                reader(fault.replace("x", "volo" if reader is tablier.games.from_spec else "hard"))
