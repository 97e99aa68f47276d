"""Protocol-level guarantees shared by every registered game: options, specs, pickling."""

from __future__ import annotations

import pickle
import random

import pytest

import tablier.games
from tablier.core.errors import InvalidOptionError, TablierError, UnknownGameError
from tablier.core.game import Variant

CASES = [
    (name, options)
    for name in tablier.games.names()
    for options in tablier.games.game_class(name).example_options()
]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_spec_round_trip_and_pickle(name, options):
    game = tablier.games.get(name, **options)
    assert tablier.games.from_spec(game.spec) == game
    assert hash(tablier.games.from_spec(game.spec)) == hash(game)
    state = game.initial_state()
    rng = random.Random(7)
    for _ in range(12):
        moves = state.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        assert pickle.loads(pickle.dumps(move)) == move
        state = state.apply_unchecked(move)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and hash(again) == hash(state)
    assert again.to_text() == state.to_text()
    assert pickle.loads(pickle.dumps(game)) == game


def test_unknown_game_and_options_are_clear_errors():
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        tablier.games.get("chess")
    name = tablier.games.names()[0]
    with pytest.raises(InvalidOptionError, match="has no option 'colour'"):
        tablier.games.get(name, colour="red")
    with pytest.raises(TablierError):
        tablier.games.from_spec("not a spec!")


def test_volo_option_values_are_checked():
    with pytest.raises(InvalidOptionError, match="must be one of standard, mini"):
        tablier.games.get("volo", board="huge")
    with pytest.raises(InvalidOptionError, match="from 3 to 200"):
        tablier.games.get("volo", supply=2)
    with pytest.raises(InvalidOptionError, match="whole number written with the digits 0-9"):
        tablier.games.get("volo", supply="many")
    with pytest.raises(InvalidOptionError, match="whole number written with the digits 0-9"):
        tablier.games.get("volo", supply="٤٠")  # Arabic-Indic 40: refused, not read as 40
    with pytest.raises(InvalidOptionError, match="too large"):
        tablier.games.get("volo", supply="9" * 5000)
    assert tablier.games.get("volo", edition=2010).options["edition"] == "2010"
    assert tablier.games.get("volo", supply="40").options["supply"] == 40
    assert tablier.games.get("volo", board="mini").options["supply"] == 50


def test_default_views_are_json_and_name_the_move():
    import json

    import tablier.games as games

    for name in games.names():
        game = games.get(name)
        state = game.initial_state()
        view = game.state_view(state)
        assert json.loads(json.dumps(view)) == view
        assert view["game"] == name and view["to_move"] == state.to_move
        assert game.parse_position(view["position"]) == state
        move = state.legal_moves()[0]
        mv = game.move_view(state, move)
        assert json.loads(json.dumps(mv)) == mv
        assert game.parse_move(state, mv["notation"]) == move


def test_variant_and_changed_options_name_a_game_as_a_page_does():
    from .toygame import Toy

    class Tied(Toy):
        """A misère game needs an odd pile: an option that another one needs."""

        VARIANTS = (Variant("plain"), Variant("short-misere", {"pile": 5, "rule": "misere"}))

        def _resolve_options(self, values: dict) -> dict:
            if values["rule"] == "misere" and values["pile"] % 2 == 0:
                raise InvalidOptionError("a misère game needs an odd pile")
            return super()._resolve_options(values)

    assert Tied().variant() == Variant("plain") and Tied().changed_options() == {}
    assert Tied(pile=5, rule="misere").variant() == Variant(
        "short-misere", {"pile": 5, "rule": "misere"}
    )
    # the pile is needed (the rule alone is refused), so both are named
    odd = Tied(pile=7, rule="misere")
    assert odd.variant() is None
    assert odd.changed_options() == {"pile": "7", "rule": "misere"}
    assert Tied(pile=7).changed_options() == {"pile": "7"}
    assert Toy().variant() is None  # a game without variants
