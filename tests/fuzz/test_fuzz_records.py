"""Record readers, fed any text or any JSON, answer a record or a RecordError.

``Record.from_text`` and ``Record.from_json`` get mutated records of every
game and option set, full-Unicode text, JSON nested thousands deep, numbers
of thousands of digits, and every field of a JSON record replaced by a value
of every JSON type.  A record that is read must read back from its own text
and JSON.
"""

from __future__ import annotations

import json
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tablier.games
from tablier.core.errors import RecordError
from tablier.core.record import Record

from .fuzzkit import (
    FUZZ,
    JSON_FIELDS,
    TRIED,
    any_text,
    fragments_of,
    games_of,
    json_values,
    json_with_field,
    record_json_texts,
    refuses_cleanly,
    report_tried,  # noqa: F401 - the session fixture that prints the counts
    sample_record,
)

GAMES = tablier.games.names()


def _round_trips(record: Record) -> None:
    assert Record.from_text(record.to_text()) == record, "the record does not read back as text"
    assert Record.from_json(record.to_json()) == record, "the record does not read back as JSON"


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_record_from_text(name, data):
    game = data.draw(st.sampled_from(games_of(name)), label="game")
    valid = [sample_record(game).to_text()]
    text = data.draw(any_text(fragments_of(valid), valid), label="text")
    record = refuses_cleanly(f"{name} Record.from_text", lambda: Record.from_text(text))
    if record is not None:
        _round_trips(record)


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_record_from_json_text(name, data):
    game = data.draw(st.sampled_from(games_of(name)), label="game")
    valid = record_json_texts(game)
    text = data.draw(any_text(fragments_of(valid), valid), label="json")
    record = refuses_cleanly(f"{name} Record.from_json", lambda: Record.from_json(text))
    if record is not None:
        _round_trips(record)


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_record_json_fields_of_every_type(name, data):
    game = data.draw(st.sampled_from(games_of(name)), label="game")
    paths = [*JSON_FIELDS, *(("options", key) for key in game.options)]
    path = data.draw(st.sampled_from(paths), label="field")
    value = data.draw(json_values(), label="value")
    text = json_with_field(game, path, value)
    record = refuses_cleanly(
        f"{name} Record.from_json (typed fields)", lambda: Record.from_json(text)
    )
    if record is not None:
        _round_trips(record)


@pytest.mark.parametrize("depth", [50, 5_000, 200_000])
def test_json_nested_deeply(depth):
    game = games_of("volo")[0]
    record = json.dumps(sample_record(game).to_dict())
    for nested in ("[" * depth + "]" * depth, '{"a":' * depth + "0" + "}" * depth):
        for text in (nested, record[:-1] + ', "tags": ' + nested + "}"):
            TRIED["Record.from_json (nesting)"] += 1
            with pytest.raises(RecordError):
                Record.from_json(text)


def test_json_numbers_of_every_length_and_odd_digits():
    game = games_of("volo")[-1]  # the option set with a supply
    base = sample_record(game).to_dict()
    for number in ("1" + "0" * 5000, "9" * 4301, "1e999", "-0", "12.0", "NaN", "Infinity"):
        for key in ("format", "result"):
            text = json.dumps(base).replace(
                f'"{key}": {json.dumps(base[key])}', f'"{key}": {number}'
            )
            with pytest.raises(RecordError):
                Record.from_json(text)
    for supply in ("٤٠", "４０", "⁴⁰", "④⓪", "1" * 5000):
        data = dict(base, options=dict(base["options"], supply=supply))
        with pytest.raises(RecordError, match="supply"):
            Record.from_json(json.dumps(data))
    # And the same in the text format's Options tag.
    text = sample_record(game).to_text()
    for supply in ("٤٠", "1" * 5000):
        bad = text.replace("supply=12", f"supply={supply}")
        assert bad != text
        with pytest.raises(RecordError, match="supply"):
            Record.from_text(bad)


def test_record_text_of_other_types_and_bad_files(tmp_path):
    for bad in (None, 3, b'[Game "volo"]', ["x"]):
        with pytest.raises(RecordError):
            Record.from_text(bad)
    for bad in (b"\xff\xfe{", b'{"format": 1', 3, None):
        with pytest.raises(RecordError):
            Record.from_json(bad)
    for name in ("nul\x00name.txt", str(tmp_path), str(tmp_path / "missing.txt")):
        with pytest.raises(RecordError):
            Record.load(name)
    latin = tmp_path / "latin1.txt"
    latin.write_bytes('[Game "volo"]\n\n1. é\n'.encode("latin-1"))
    with pytest.raises(RecordError):
        Record.load(latin)


_KEYS = st.one_of(
    st.sampled_from(["format", "game", "options", "tags", "position", "moves", "result"]),
    st.text(max_size=5),
    st.integers(),
    st.none(),
)


@FUZZ
@given(
    data=st.dictionaries(_KEYS, json_values(), max_size=8),
    options=st.dictionaries(_KEYS, json_values(max_leaves=2), max_size=3),
)
def test_record_from_dict_of_any_keys_and_values(data, options):
    """from_dict takes Python data: keys that are not strings are refused too."""
    for candidate in (data, {"format": 1, "game": "volo", "options": options, **data}):
        record = refuses_cleanly("Record.from_dict", partial(Record.from_dict, candidate))
        if record is not None:
            _round_trips(record)
