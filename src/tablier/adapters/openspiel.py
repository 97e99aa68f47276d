"""OpenSpiel games for every Tablier game, through OpenSpiel's Python game API.

Install the extra (``pip install 'tablier[openspiel]'``), then::

    >>> import pyspiel
    >>> import tablier.adapters.openspiel  # registers tablier_volo, tablier_xobo, ...
    >>> game = pyspiel.load_game("tablier_volo(board=mini)")
    >>> state = game.new_initial_state()
    >>> state.current_player()
    0

Every registered Tablier game ``<name>`` becomes ``tablier_<name>``, its options
game parameters: an option with a default keeps its type (``board="mini"``,
``repetition=True``); an option whose default is "none" (Volo's ``supply``,
Voldetour's ``max_turns``) is an int parameter where ``0`` means none (the default).
Actions are the steps of the game's fixed encoding (its ``actions`` module, as
for PettingZoo): a move split into several steps is several actions of the same
player, and so is a Voldetour turn of several decisions.  Observation tensors
are the same planes, flattened (``observation_tensor_shape()`` gives
``[rows, columns, planes]``).  Returns are +1 / -1, or 0 each for a draw.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..core.game import Game, Option
from ..games import game_class, get, names
from .stepper import Stepper

__all__ = [
    "TablierGame",
    "TablierState",
    "game_parameters",
    "load",
    "parameters_for",
    "register_all",
    "short_name",
]

#: Upper bound declared to OpenSpiel on the number of actions of one game.
MAX_GAME_LENGTH = 10_000


def short_name(name: str) -> str:
    """The OpenSpiel name of the Tablier game ``name`` (``tablier_volo``)."""
    return f"tablier_{name}"


def _parameter_default(option: Option) -> Any:
    if option.default is None:
        return 0 if option.parse is int else "none"
    return option.default


def game_parameters(name: str) -> dict[str, Any]:
    """The OpenSpiel parameter specification of the Tablier game ``name``."""
    return {o.name: _parameter_default(o) for o in game_class(name).OPTIONS}


def parameters_for(game: Game) -> dict[str, Any]:
    """The OpenSpiel parameters of a Tablier game with its options (for ``load_game``)."""
    out = {}
    for o in type(game).OPTIONS:
        value = game.options[o.name]
        if value is None:
            value = _parameter_default(o)
        out[o.name] = value
    return out


def load(game: Game) -> TablierGame:
    """The OpenSpiel game of a Tablier game with its options."""
    return pyspiel.load_game(short_name(game.name), parameters_for(game))


def _tablier_game(name: str, params: dict[str, Any]) -> Game:
    cls = game_class(name)
    options = {}
    for o in cls.OPTIONS:
        if o.name not in params:
            continue
        value = params[o.name]
        if o.default is None and value in (0, "none"):
            continue
        options[o.name] = value
    return get(name, **options)


def _common_start(texts: list[str]) -> str:
    """The longest text every one of ``texts`` starts with."""
    first, last = min(texts), max(texts)
    k = 0
    while k < min(len(first), len(last)) and first[k] == last[k]:
        k += 1
    return first[:k]


class _Shared:
    """An immutable Tablier state that deep copies (OpenSpiel's clone) share."""

    __slots__ = ("state",)

    def __init__(self, state) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self


class TablierGame(pyspiel.Game):
    """One Tablier game with its options, as an OpenSpiel game.

    :func:`register_all` makes one subclass per Tablier game, which sets
    ``tablier_name`` and ``game_type``.
    """

    tablier_name: str
    game_type: pyspiel.GameType

    def __init__(self, params: dict | None = None) -> None:
        name = self.tablier_name
        game_type = self.game_type
        params = dict(params or {})
        full = {**game_parameters(name), **params}
        self.tablier = _tablier_game(name, full)
        self.stepper = Stepper(self.tablier)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.stepper.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> TablierState:
        """The start of a game."""
        return TablierState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> _Observer:
        """The observer of the planes (perfect information: every player sees everything)."""
        return _Observer(self, params)


class TablierState(pyspiel.State):
    """A Tablier state and the pending steps of a move not yet complete."""

    def __init__(self, game: TablierGame) -> None:
        super().__init__(game)
        self._stepper = game.stepper
        self._box = _Shared(game.tablier.initial_state())
        self._pending: tuple[int, ...] = ()

    @property
    def tablier_state(self):
        """The Tablier state (the pending steps are not applied yet)."""
        return self._box.state

    @property
    def pending(self) -> tuple[int, ...]:
        """The steps already given of the move being played."""
        return self._pending

    def current_player(self) -> int:
        """The player whose decision it is, or TERMINAL."""
        state = self._box.state
        if state.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return state.to_move

    def _legal_actions(self, player: int) -> list[int]:
        state = self._box.state
        if state.is_terminal or player != state.to_move:
            return []
        return self._stepper.next_ids(state, self._pending)

    def _apply_action(self, action: int) -> None:
        state, pending, _ = self._stepper.play(self._box.state, self._pending, action)
        if state is not self._box.state:
            self._box = _Shared(state)
        self._pending = pending

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._box.state
        steps = (*self._pending, int(action))
        texts = [
            state.game.move_text(state, move)
            for enc, move in self._stepper.encodings(state)
            if enc[: len(steps)] == steps
        ]
        if not texts:
            return f"action {action}"
        for enc, move in self._stepper.encodings(state):
            if enc == steps:
                return state.game.move_text(state, move)
        # Part of a move: what all the moves it begins have in common, and the id itself.
        return f"{_common_start(texts)}… (step {len(steps)}: {action})"

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self._box.state.is_terminal

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser, 0 each for a draw or an unfinished game."""
        outcome = self._box.state.outcome
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        text = self._box.state.to_text()
        if self._pending:
            text += " pending " + ",".join(str(s) for s in self._pending)
        return text


class _Observer:
    """OpenSpiel's PyObserver: ``tensor`` (flat) and ``dict`` (shaped view)."""

    def __init__(self, game: TablierGame, params: dict | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        shape = game.stepper.observation_shape
        self._stepper = game.stepper
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: TablierState, player: int) -> None:
        pending = state.pending if state.tablier_state.to_move == player else ()
        planes = self._stepper.observation(state.tablier_state, player, pending)
        self.dict["observation"][...] = planes

    def string_from(self, state: TablierState, player: int) -> str:
        return str(state)


_REGISTERED: set[str] = set()


def register_all() -> list[str]:
    """Register every Tablier game with OpenSpiel (done on import); their short names."""
    out = []
    for name in names():
        short = short_name(name)
        out.append(short)
        if short in _REGISTERED:
            continue
        cls = game_class(name)
        game_type = pyspiel.GameType(
            short_name=short,
            long_name=f"Tablier {cls.title}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=2,
            min_num_players=2,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=game_parameters(name),
        )

        subclass = type(
            f"Tablier{cls.__name__}Game",
            (TablierGame,),
            {"tablier_name": name, "game_type": game_type, "__module__": __name__},
        )
        globals()[subclass.__name__] = subclass
        pyspiel.register_game(game_type, subclass)
        _REGISTERED.add(short)
    return out


register_all()
