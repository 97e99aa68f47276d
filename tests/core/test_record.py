"""Game records: text and JSON formats, round trips, validation and error reporting."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablier.core.errors import RecordError, TablierError
from tablier.core.record import Decision, Record, _parse_movetext, move_numbers

from .toygame import Toy


def random_game(game, rng, cap=200):
    """A random sequence of moves to the end (or ``cap`` decisions)."""
    state = game.initial_state()
    moves = []
    while not state.is_terminal and len(moves) < cap:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    return moves, state


# -- building and round trips ---------------------------------------------------


def test_text_round_trip_with_comments_and_escapes():
    game = Toy()
    record = Record.from_moves(
        game,
        ["take 2", "take 1", "pass", "take 3", "take 2 (+)", "take 2"],
        comments=[None, 'a } brace, a \\ backslash and "quotes"', None, "{nested?"],
        tags={"First": "Ann", "Date": "2026.11.22", "Event": 'the "open"', "Site": "a\\b"},
    )
    assert record.result == "1-0" and record.reason == "higher-score"
    text = record.to_text()
    assert Record.from_text(text) == record
    assert Record.from_json(record.to_json()) == record
    assert '[Event "the \\"open\\""]' in text
    assert '[Site "a\\\\b"]' in text


def test_movetext_numbering_follows_turns_not_alternation():
    game = Toy()
    # Red: take 2, take 1 (one turn of two decisions); Green: pass;
    # Red: take 3; Green: take 2, take 2 (two decisions, ends the game).
    record = Record.from_moves(game, ["take 2", "take 1", "pass", "take 3", "take 2", "take 2"])
    assert record.movetext_lines() == [
        "1. take 2 (+) ; take 1 ; pass",
        "2. take 3 ; take 2 (+) ; take 2 (+)",
        "1-0",
    ]


def test_record_from_a_position_with_the_second_player_to_move():
    game = Toy()
    start = game.parse_position("toy:pile=10,rule=normal 7/2/1 1 -")
    record = Record.from_moves(start, ["take 1", "take 3", "take 3"])
    assert record.position == start.to_text()
    assert record.movetext_lines() == ["1... take 1", "2. take 3 ; take 3", "1/2-1/2"]
    assert Record.from_text(record.to_text()) == record
    assert Record.from_json(record.to_json()) == record
    assert record.replay()[0] == start


def naive_numbers(players):
    """Independent numbering: split into turns (runs), a line starts at each first-player turn."""
    turns = []
    for p in players:
        if turns and turns[-1][0] == p:
            turns[-1][1] += 1
        else:
            turns.append([p, 1])
    out = []
    line = 0
    for t, (player, count) in enumerate(turns):
        new_line = t == 0 or player == 0
        if new_line:
            line += 1
        for k in range(count):
            out.append((line, new_line and k == 0))
    return out


@given(st.lists(st.integers(0, 1), max_size=40))
def test_move_numbers_match_a_naive_turn_split(players):
    got = [(n, starts) for n, starts, _ in move_numbers(players)]
    assert got == naive_numbers(players)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    pile=st.integers(1, 30),
    rule=st.sampled_from(["normal", "misere"]),
)
def test_random_games_round_trip(seed, pile, rule):
    game = Toy(pile=pile, rule=rule)
    rng = random.Random(seed)
    moves, final = random_game(game, rng)
    comments = [rng.choice([None, "ok", "}{;1. 1-0 *", "\\"]) for _ in moves]
    record = Record.from_moves(game, moves, comments=comments, tags={"Round": str(seed)})
    assert Record.from_text(record.to_text()) == record
    assert Record.from_json(record.to_json()) == record
    assert record.replay()[-1] == final
    assert record.result == final.outcome.result


def test_from_states_finds_the_moves():
    game = Toy()
    moves, _ = random_game(game, random.Random(3))
    states = [game.initial_state()]
    for m in moves:
        states.append(states[-1].apply(m))
    record = Record.from_states(states)
    assert [d.move for d in record.moves] == [str(m) for m in moves]
    assert record.replay() == states


def test_from_states_rejects_unjoined_states():
    game = Toy()
    s0 = game.initial_state()
    with pytest.raises(RecordError) as info:
        Record.from_states([s0, s0])
    assert info.value.ply == 1


def test_unfinished_game_keeps_star_and_may_carry_an_off_board_result():
    game = Toy()
    record = Record.from_moves(game, ["take 1"])
    assert record.result == "*" and record.reason is None
    resigned = Record.from_moves(game, ["take 1"], result="0-1", reason="resignation")
    again = Record.from_text(resigned.to_text())
    assert again == resigned and again.result == "0-1" and again.reason == "resignation"


def test_save_and_load_both_formats(tmp_path):
    record = Record.from_moves(Toy(pile=5), ["take 2", "take 3"], tags={"First": "A"})
    record.save(tmp_path / "g.txt")
    record.save(tmp_path / "g.JSON")
    assert (tmp_path / "g.JSON").read_text().lstrip().startswith("{")
    assert (tmp_path / "g.txt").read_text().startswith('[Game "toy"]')
    assert Record.load(tmp_path / "g.txt") == record
    assert Record.load(tmp_path / "g.JSON") == record


# -- reading hand-written files ---------------------------------------------------

HAND = """\
[Game "toy"]
[Options "pile=12"]
[First "Ann"]
[Second "Bob"]
[Date "2026.11.22"]
[Result "1-0"]

1. TAKE 2 ; take  1 {spaces and case are tolerated}
   ; pass 2. take 2 (+);take 3 ; take 3
3. take 1
1-0
"""


def test_hand_written_text_file():
    record = Record.from_text(HAND)
    assert record.game == Toy(pile=12)
    assert [d.move for d in record.moves] == [
        "take 2 (+)",
        "take 1",
        "pass",
        "take 2 (+)",
        "take 3",
        "take 3",
        "take 1",
    ]
    assert record.moves[1].comment == "spaces and case are tolerated"
    assert record.tags == {"First": "Ann", "Second": "Bob", "Date": "2026.11.22"}
    assert record.reason == "higher-score"  # filled in from the replayed outcome
    assert record.replay()[-1].scores == (9, 3)


def test_moves_with_spaces_are_split_only_at_separators():
    text = '[Game "toy"]\n1. take 2 (+) ; take 1\n2. take 3 ; take 2 (+) ; pass\n'
    record = Record.from_text(text)
    expected = ["take 2 (+)", "take 1", "take 3", "take 2 (+)", "pass"]
    assert [d.move for d in record.moves] == expected
    assert record.result == "*"


def test_options_tag_may_hold_the_full_spec():
    record = Record.from_text('[Game "toy"]\n[Options "toy:pile=5,rule=misere"]\n\n*\n')
    assert record.game == Toy(pile=5, rule="misere")
    assert record.moves == ()


def test_decision_accepts_plain_strings():
    record = Record(Toy(), ("take 1",))
    assert record.moves == (Decision("take 1"),)


# -- error reporting ------------------------------------------------------------


def load_error(text):
    with pytest.raises(RecordError) as info:
        Record.from_text(text)
    return info.value


def test_first_illegal_move_is_reported_by_number():
    err = load_error('[Game "toy"]\n1. take 3 ; take 3\n2. take 3 ; take 3\n')
    assert err.ply == 4
    message = str(err)
    assert "move 2" in message and "Green" in message and "decision 4" in message
    assert "'take 3'" in message and "only 1 stones are left" in message


def test_unreadable_move_is_reported_with_the_engine_reason():
    err = load_error('[Game "toy"]\n1. take 1 ; take 1 ; take 9\n')
    assert err.ply == 3
    assert "move 2" in str(err) and "take 9" in str(err) and "take 1, 2 or 3" in str(err)


def test_missing_result_is_completed_from_the_replay():
    record = Record.from_text('[Game "toy"]\n1. take 3 ; take 3 ; take 3 ; take 1\n')
    assert record.result == "1-0" and record.reason == "higher-score"
    assert Record.from_text(record.to_text()) == record


def test_move_after_the_end_is_reported():
    err = load_error('[Game "toy"]\n[Options "pile=2"]\n1. take 2 ; take 1\n')
    assert err.ply == 2 and "already over" in str(err)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[Game "toy"]\n[Result "0-1"]\n1. take 3 ; take 3 ; take 3 ; take 1\n', "result says 0-1"),
        ('[Game "toy"]\n[Result "1-0"]\n1. take 3 ; take 1\n0-1\n', "movetext ends with 0-1"),
        ('[Game "toy"]\n[Result "2-0"]\n', "not one of"),
        ('[Game "toy"]\n[Reason "flock"]\n1. take 3 ; take 3 ; take 3 ; take 1\n', "reason says"),
        ('[Game "chess"]\n', "unknown game"),
        ('[Game "toy"]\n[Options "pile=0"]\n', "between 1 and 60"),
        ('[Game "toy"]\n[Options "colour=red"]\n', "no option"),
        ('[Game "toy"]\n[Options "xobo:pile=3"]\n', "Options tag is for"),
        ('[Options "pile=3"]\n1. take 1\n', "no [Game"),
        ("[Game toy]\n", "cannot read the tag"),
        ('[Game "toy"]\n[Game "toy"]\n', "appears twice"),
        ('[Game "toy"]\n[Event "a \\q"]\n', "bad escape"),
        ('[Game "toy"]\n1. take 1 {oops\n', "not closed"),
        ('[Game "toy"]\n1. take 1 } ; take 1\n', "without an opening"),
        ('[Game "toy"]\n{first} 1. take 1\n', "before the first move"),
        ('[Game "toy"]\n1. take 1 {c} take 1\n', "missing ';'"),
        ('[Game "toy"]\n1. take 1 ; 1-0 ; take 1\n', "middle of the moves"),
        ('[Game "toy"]\n[Position "toy:pile=10,rule=normal 9/0/0 0 -"]\n', "bad start position"),
        ('[Game "toy"]\n[Position "toy:pile=9,rule=normal 9/0/0 0 -"]\n', "bad start position"),
    ],
)
def test_malformed_text_records(text, words):
    err = load_error(text)
    assert words in str(err)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ('{"format": 1, "game": "toy", "moves": [', "not valid JSON"),
        ("[1, 2]", "must be an object"),
        ('{"game": "toy"}', "unsupported record format"),
        ('{"format": 2, "game": "toy"}', "unsupported record format"),
        ('{"format": 1}', "no 'game'"),
        ('{"format": 1, "game": 7}', "must be a str"),
        ('{"format": 1, "game": "toy", "options": [1]}', "'options' must be an object"),
        ('{"format": 1, "game": "toy", "options": {"pile": [3]}}', "wrong type"),
        ('{"format": 1, "game": "toy", "moves": "take 1"}', "'moves' must be a list"),
        ('{"format": 1, "game": "toy", "moves": [3]}', "decision 1"),
        ('{"format": 1, "game": "toy", "moves": [{"move": "take 1", "x": 1}]}', "unknown field"),
        ('{"format": 1, "game": "toy", "moves": [{"move": "take 1", "comment": 5}]}', "comment"),
        ('{"format": 1, "game": "toy", "tags": {"First": 3}}', "'tags'"),
        ('{"format": 1, "game": "toy", "tags": {"bad name": "x"}}', "bad tag name"),
        ('{"format": 1, "game": "toy", "tags": {"Result": "1-0"}}', "field of the record"),
        ('{"format": 1, "game": "toy", "position": 5}', "'position'"),
        ('{"format": 1, "game": "toy", "result": "1-1"}', "not one of"),
        ('{"format": 1, "game": "toy", "reason": 1}', "'reason'"),
        ('{"format": 1, "game": "toy", "colour": 1}', "unknown field"),
        ('{"format": 1, "game": "nope"}', "unknown game"),
        ('{"format": 1, "game": "toy", "moves": ["take 1", "take 7"]}', "decision 2"),
    ],
)
def test_malformed_json_records(data, words):
    with pytest.raises(RecordError) as info:
        Record.from_json(data)
    assert words in str(info.value)


def test_json_illegal_move_has_its_ply():
    data = {"format": 1, "game": "toy", "options": {"pile": 4}, "moves": ["take 3", "pass", "pass"]}
    with pytest.raises(RecordError) as info:
        Record.from_json(json.dumps(data))
    assert info.value.ply == 3 and "no pass straight after a pass" in str(info.value)


def test_load_missing_or_binary_file(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "nope.txt")
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(RecordError):
        Record.load(tmp_path / "bin.txt")


def test_constructor_rejects_bad_fields():
    game = Toy()
    with pytest.raises(RecordError, match="one line"):
        Record(game, tags={"Event": "two\nlines"})
    with pytest.raises(RecordError, match="not one of"):
        Record(game, result="win")
    with pytest.raises(RecordError, match="must be text"):
        Record(game, moves=(5,))
    with pytest.raises(RecordError, match="needs a Game"):
        Record("toy")


def test_from_moves_rejects_illegal_moves():
    with pytest.raises(RecordError) as info:
        Record.from_moves(Toy(pile=3), ["take 3", "take 1"])
    assert info.value.ply == 2


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=80))
def test_garbage_text_raises_only_record_errors(text):
    for candidate in (text, '[Game "toy"]\n' + text):
        with contextlib.suppress(TablierError):
            Record.from_text(candidate)
        with contextlib.suppress(TablierError):
            Record.from_json(candidate)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_truncated_records_fail_cleanly(seed, data):
    game = Toy()
    moves, _ = random_game(game, random.Random(seed))
    record = Record.from_moves(game, moves, comments=["c}" for _ in moves])
    for text in (record.to_text(), record.to_json()):
        cut = data.draw(st.integers(0, len(text)))
        try:
            read = Record.from_text if text[0] == "[" else Record.from_json
            loaded = read(text[:cut])
        except RecordError:
            continue
        # A cut that still reads is a valid prefix of the game.
        assert [d.move for d in loaded.moves] == [d.move for d in record.moves][: len(loaded.moves)]


@pytest.mark.parametrize(
    ("movetext", "expected"),
    [
        ("1. e5 (v) ; a4->c4", ["e5 (v)", "a4->c4"]),
        ("3. g4 (v) ; g6xf5", ["g4 (v)", "g6xf5"]),
        (
            "1. e5 (v) ; a4->c4\n2. b2 ; c3 (v) {x} 3. d4",
            ["e5 (v)", "a4->c4", "b2", "c3 (v)", "d4"],
        ),
        ("1... a 1.5 b ; c 1-0", ["a 1.5 b", "c"]),
        ("12.\ta\n13. b", ["a", "b"]),
        ("a1.b2 ; 7.", ["a1.b2"]),
    ],
)
def test_movetext_splits_only_at_separators(movetext, expected):
    decisions, _ = _parse_movetext(movetext)
    assert [d.move for d in decisions] == expected


@settings(max_examples=80, deadline=None)
@given(
    comments=st.lists(st.one_of(st.none(), st.text()), min_size=3, max_size=3),
    event=st.text().filter(lambda t: "\n" not in t and "\r" not in t),
)
def test_any_comment_and_tag_text_round_trips(comments, event):
    record = Record.from_moves(
        Toy(), ["take 1", "take 2", "pass"], comments=comments, tags={"Event": event}
    )
    assert Record.from_text(record.to_text()) == record
    assert Record.from_json(record.to_json()) == record
    windows = record.to_text().replace("\n", "\r\n")
    assert Record.from_text(windows) == record
