"""Outcome JSON: one form, built by Outcome.to_json and read back by Outcome.from_json."""

from __future__ import annotations

import pytest

from tablier.core.errors import TablierError
from tablier.core.game import Outcome
from tablier.games import get


@pytest.mark.parametrize(
    "outcome",
    [Outcome(0, "flock", "Orange flocks"), Outcome(1, "resignation"), Outcome(None, "agreement")],
)
def test_round_trip(outcome: Outcome) -> None:
    data = outcome.to_json()
    assert set(data) == {"winner", "reason", "message", "result"}
    assert data["result"] == outcome.result
    back = Outcome.from_json(data)
    assert back == outcome and back.message == outcome.message


@pytest.mark.parametrize(
    ("data", "fault"),
    [
        ([0, "flock"], "JSON object"),
        ({"winner": 0}, "'reason'"),
        ({"winner": 2, "reason": "x"}, "'winner'"),
        ({"winner": True, "reason": "x"}, "'winner'"),
        ({"winner": 1.0, "reason": "x"}, "'winner'"),
        ({"winner": "0", "reason": "x"}, "'winner'"),
        ({"winner": 0, "reason": ""}, "'reason'"),
        ({"winner": 0, "reason": "x", "message": 3}, "'message'"),
        ({"winner": 0, "reason": "x", "result": "0-1"}, "'1-0'"),
        ({"winner": None, "reason": "x", "result": ["1/2-1/2"]}, "'result'"),
        ({"winner": 0, "reason": "x", "score": 1}, "no field 'score'"),
    ],
)
def test_from_json_refuses_what_is_not_an_outcome(data: object, fault: str) -> None:
    with pytest.raises(TablierError, match=fault):
        Outcome.from_json(data)


def test_state_view_gives_the_outcome_in_that_form() -> None:
    game = get("volo", board="mini")
    state = game.initial_state()
    while state.outcome is None:
        state = state.apply(state.legal_moves()[0])
    assert state.outcome is not None
    assert game.state_view(state)["outcome"] == state.outcome.to_json()
