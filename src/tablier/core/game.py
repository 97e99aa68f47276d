"""The protocol every game implements and every other part of Tablier uses.

A :class:`Game` is a ruleset together with its options (board, edition,
supplies...).  It creates :class:`State` objects, which are immutable and
hashable: applying a :class:`Move` returns a new state and never changes the
old one.  Players are numbered ``0`` (the first player) and ``1``; a state says
whose *decision* it is (:attr:`State.to_move`).  A turn may consist of several
decisions by the same player, so code built on this protocol must never
assume that players alternate.

Nothing outside ``tablier.games.<name>`` needs to know which game it handles:
the registry (:mod:`tablier.games`) builds games by name, and everything else
goes through the methods below.

Example::

    >>> import tablier.games
    >>> game = tablier.games.get("volo", board="mini")
    >>> state = game.initial_state()
    >>> move = game.parse_move(state, "e5")
    >>> state2 = state.apply(move)
    >>> state2.to_move
    1
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import FrozenInstanceError, dataclass, field
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    NoReturn,
    Self,
    TypeVar,
    cast,
    dataclass_transform,
)

from .errors import (
    N_,
    GameOverError,
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Message,
    TablierError,
    quote,
)

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import RenderableType

    from .teaching import Teaching

__all__ = [
    "Game",
    "Move",
    "Option",
    "Outcome",
    "State",
    "Variant",
    "frozen_state",
    "slot_setters",
]

#: The move type of a game (a :class:`Move` subclass).
M = TypeVar("M", bound="Move")
#: The state type of a game (a :class:`State` subclass).
S = TypeVar("S", bound="State[Any]")


@dataclass(frozen=True)
class Variant:
    """A named set of options a player picks without reading every option.

    ``key`` names it in labels (``game.<game>.variant.<key>``, e.g. "Mini sky — Japanese
    edition"); ``options`` are the options it sets, the others keeping their defaults.
    A game lists its variants in :attr:`Game.VARIANTS`, the safe default first.

    >>> Variant("mini", {"board": "mini"}).options["board"]
    'mini'
    """

    key: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Option:
    """A declared game option.

    ``default`` is used when the option is not given.  ``choices``, when not
    ``None``, lists every accepted value.  ``parse`` turns a value given as
    text (on the command line, in a record header or a position string) into
    the option's value; ``check`` may reject a value with a message.
    """

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    parse: Callable[[str], Any] = str
    check: Callable[[Any], str | Message | None] | None = None

    def coerce(self, value: Any) -> Any:
        """Return ``value`` converted and validated, or raise InvalidOptionError."""
        if value is None:
            if self.default is None:
                return None
            raise InvalidOptionError(
                N_("option {name} needs a value (default {default})"),
                name=repr(self.name),
                default=self.default,
            )
        if (
            not isinstance(value, str)
            and self.choices is not None
            and all(isinstance(c, str) for c in self.choices)
        ):
            value = str(value)
        if isinstance(value, str) and self.parse is not str:
            if value.strip().lower() in ("", "none", "default") and self.default is None:
                return None
            if self.parse is int:  # int() would take '٣' or '３' and refuse 5,000 digits
                from .position import parse_int

                number = parse_int(
                    value,
                    Message(N_("option {name}"), name=repr(self.name)),
                    error=InvalidOptionError,
                )
                return self.coerce(number)
            try:
                value = self.parse(value.strip())
            except (TypeError, ValueError, OverflowError):
                raise InvalidOptionError(
                    N_("option {name}: cannot read {value}"),
                    name=repr(self.name),
                    value=quote(value),
                ) from None
        if isinstance(value, str):
            value = value.strip().lower()
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise InvalidOptionError(
                N_("option {name} must be one of {allowed}, not {value}"),
                name=repr(self.name),
                allowed=allowed,
                value=quote(value),
            )
        if self.check is not None and value is not None:
            problem = self.check(value)
            if problem:
                raise InvalidOptionError(
                    N_("option {name}: {problem}"), name=repr(self.name), problem=problem
                )
        return value


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    ``winner`` is ``0`` or ``1``, or ``None`` for a draw.  ``reason`` is a
    short stable code (such as ``"flock"`` or ``"double-pass"``) and
    ``message`` says the same in words.
    """

    winner: int | None
    reason: str
    message: str = field(default="", compare=False)

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None

    def score(self, player: int) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss, from ``player``'s side."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == player else 0.0

    @property
    def result(self) -> str:
        """The result as written in records: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON: ``{"winner", "reason", "message", "result"}``.

        The one form every JSON answer (state views, the web server's results)
        gives an outcome in; :meth:`from_json` reads it back.

        >>> Outcome(0, "resignation", "Blue resigned").to_json()
        {'winner': 0, 'reason': 'resignation', 'message': 'Blue resigned', 'result': '1-0'}
        """
        return {
            "winner": self.winner,
            "reason": self.reason,
            "message": self.message,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: object) -> Outcome:
        """Read :meth:`to_json`'s form; ``message`` and ``result`` may be left out.

        Raises :class:`~tablier.core.errors.TablierError` naming the faulty field.

        >>> Outcome.from_json({"winner": None, "reason": "agreement"})
        Outcome(winner=None, reason='agreement', message='')
        """
        if not isinstance(data, dict):
            raise TablierError(
                N_("an outcome is a JSON object, not {kind}"), kind=type(data).__name__
            )
        unknown = sorted(str(k) for k in set(data) - {"winner", "reason", "message", "result"})
        if unknown:
            raise TablierError(
                N_("an outcome has no field {names}"), names=", ".join(map(repr, unknown))
            )
        winner = data.get("winner")
        if winner is not None and (type(winner) is not int or winner not in (0, 1)):
            raise TablierError(N_("an outcome's 'winner' is 0, 1 or null"))
        reason, message = data.get("reason"), data.get("message", "")
        if not isinstance(reason, str) or not reason:
            raise TablierError(N_("an outcome's 'reason' is a non-empty string"))
        if not isinstance(message, str):
            raise TablierError(N_("an outcome's 'message' is a string"))
        outcome = cls(winner, reason, message)
        if "result" in data and data["result"] != outcome.result:
            raise TablierError(
                N_("an outcome's 'result' is {result} for this winner"), result=repr(outcome.result)
            )
        return outcome


class Move(ABC):
    """One decision of one player.

    Moves are immutable values: equal moves compare equal and hash alike.
    ``str(move)`` gives the move in the game's notation, which
    :meth:`Game.parse_move` reads back.
    """

    __slots__ = ()

    @abstractmethod
    def __str__(self) -> str: ...

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"


class State(ABC, Generic[M]):
    """An immutable, hashable game position, generic over its move type ``M``.

    Subclasses store their data in a few plain values and implement the
    abstract methods.  Two states are equal when they describe the same
    position of the same game (including side to move and counters).
    The built-in games declare their states with :func:`frozen_state`, so
    that assigning an attribute raises.
    """

    __slots__ = ()

    game: Game[Any, M]

    @property
    @abstractmethod
    def to_move(self) -> int:
        """The player (0 or 1) whose decision it is.  Still defined when the game is over."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""

    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.outcome is not None

    @abstractmethod
    def legal_moves(self) -> list[M]:
        """Every legal decision, in a fixed order; empty once the game is over."""

    @abstractmethod
    def apply_unchecked(self, move: M) -> Self:
        """Return the state after ``move``, which must come from :meth:`legal_moves`.

        Faster than :meth:`apply` because it does not check legality; feeding
        it an illegal move gives an unspecified (but never corrupting) result.
        """

    def apply(self, move: M) -> Self:
        """Return the state after ``move``; raise IllegalMoveError if it is not legal."""
        if self.outcome is not None:
            raise GameOverError(
                N_("the game is over ({why})"), why=self.outcome.message or self.outcome.reason
            )
        if move not in self.legal_moves():
            raise IllegalMoveError(N_("{move} is not a legal move in this position"), move=move)
        return self.apply_unchecked(move)

    @abstractmethod
    def to_text(self) -> str:
        """The position string, readable by :meth:`Game.parse_position` (round trip)."""

    def __str__(self) -> str:
        return self.to_text()


_StateClass = TypeVar("_StateClass", bound=type[State[Any]])


@dataclass_transform(frozen_default=True, eq_default=False, field_specifiers=(field,))
def frozen_state(cls: _StateClass) -> _StateClass:
    """Make a :class:`State` subclass a frozen slotted dataclass.

    Its annotated fields become ``__slots__`` and ``__init__`` parameters;
    assigning or deleting any attribute raises
    :class:`dataclasses.FrozenInstanceError` (an ``AttributeError``).  The
    class keeps its own ``__eq__``, ``__hash__`` and ``__repr__`` (states
    compare their game and position, not the caches they may hold).  A
    field declared with ``field(default=None, init=False)`` can hold a value
    computed on demand, written once with ``object.__setattr__``.

    >>> from tablier.core.game import State, frozen_state
    >>> @frozen_state
    ... class Counter(State):
    ...     count: int
    ...     to_move = 0
    ...     outcome = None
    ...     def legal_moves(self): return []
    ...     def apply_unchecked(self, move): return self
    ...     def to_text(self): return str(self.count)
    >>> c = Counter(3)
    >>> c.count = 4
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: Counter is immutable: cannot assign 'count'
    """
    new = dataclass(frozen=True, slots=True, eq=False, repr=False)(cls)
    # dataclass's own frozen __setattr__ raises TypeError for names that are not fields
    # of a slotted class on Python 3.11; refuse every name the same way.
    type.__setattr__(new, "__setattr__", _refuse_setattr)
    type.__setattr__(new, "__delattr__", _refuse_delattr)
    return cast(_StateClass, new)


def slot_setters(cls: type, *names: str) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of the slots ``names`` of a :func:`frozen_state` class.

    For a state's private fast constructor, used where states are made by
    the million (``apply_unchecked``): ``object.__new__(cls)`` then one setter
    per field is about twice as fast as the dataclass ``__init__``.  Code
    outside the class's module must not use them: the class still refuses
    every assignment.
    """
    return tuple(vars(cls)[name].__set__ for name in names)


def _refuse_setattr(self: object, name: str, value: object) -> NoReturn:
    raise FrozenInstanceError(f"{type(self).__name__} is immutable: cannot assign {name!r}")


def _refuse_delattr(self: object, name: str) -> NoReturn:
    raise FrozenInstanceError(f"{type(self).__name__} is immutable: cannot delete {name!r}")


class Game(ABC, Generic[S, M]):
    """A ruleset with its options; the factory of states and the reader of notation.

    ``Game`` is generic over its state type ``S`` and move type ``M``: a game
    is declared as ``class Volo(Game[VoloState, VoloMove])``, and code that
    handles any game takes a ``Game[Any, Any]``.  Subclasses declare ``name``,
    ``title``, ``player_names`` and ``OPTIONS`` and implement the abstract
    methods.  ``Game(**options)`` validates the options; :attr:`options` then
    holds every option, defaults filled in.  Games compare equal when their
    name and options are equal, and pickle as their class and options.

    What a game offers beyond its rules is declared here too, never found by
    module name: :meth:`knowledge` (AI knowledge) and :meth:`actions` (the
    action encoding of the research interfaces) return ``None`` unless the
    game overrides them; :meth:`state_view` and :meth:`move_view` are the web
    views.  A game is made known by name through the entry-point group
    ``tablier.games`` or :func:`tablier.games.register`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    #: The editions or rule sets a newcomer chooses between, the default first (the lobby
    #: offers them by their labels); none: the options alone.
    VARIANTS: ClassVar[tuple[Variant, ...]] = ()
    #: How much there is to learn before a first game: 1 (the simplest) upwards; the lobby
    #: shows the simplest game first (0: not declared, shown last).
    difficulty: ClassVar[int] = 0

    def __init__(self, /, **options: Any) -> None:
        declared = {o.name: o for o in self.OPTIONS}
        unknown = sorted(set(options) - set(declared))
        if unknown:
            known = ", ".join(declared) or "none"
            raise InvalidOptionError(
                N_("{game} has no option {names}{more} (options: {known})"),
                game=self.name,
                names=", ".join(quote(k, 20) for k in unknown[:5]),
                more=", …" if unknown[5:] else "",
                known=known,
            )
        values: dict[str, Any] = {}
        for opt in self.OPTIONS:
            values[opt.name] = opt.coerce(options[opt.name]) if opt.name in options else opt.default
        self._options = self._resolve_options(values)

    def _resolve_options(self, values: dict[str, Any]) -> dict[str, Any]:
        """Hook: fill in option values that depend on others (e.g. supply by board)."""
        return values

    @property
    def options(self) -> Mapping[str, Any]:
        """Every option with its value (a read-only view)."""
        return dict(self._options)

    @property
    @abstractmethod
    def player_names(self) -> tuple[str, str]:
        """The names of player 0 and player 1 (e.g. ``("Orange", "Blue")``)."""

    @abstractmethod
    def initial_state(self) -> S:
        """The position at the start of a game."""

    @abstractmethod
    def parse_move(self, state: S, text: str) -> M:
        """Read a move in the game's notation and return the matching legal move.

        Raises :class:`~tablier.core.errors.InvalidMoveError` when the text
        cannot be read and :class:`~tablier.core.errors.IllegalMoveError` when
        it names a move the rules forbid, each with a message that says why.
        """

    @abstractmethod
    def parse_position_body(self, body: str) -> S:
        """Read the game-specific part of a position string (after the spec)."""

    @abstractmethod
    def render(self, state: S, *, last_move: M | None = None) -> RenderableType:
        """A rich renderable of the board with coordinates, for terminal clients."""

    def move_text(self, state: S, move: M) -> str:
        """The notation of ``move`` played in ``state``, as records and clients show it.

        By default ``str(move)``; a game whose notation annotates a move with
        what it does in the position (XoBo writes ``e5 (v)`` when the move
        announces voyna) overrides this, like python-chess's ``board.san(move)``.
        ``parse_move`` must read the result back to ``move``.
        """
        return str(move)

    # -- views for clients (the web application) ----------------------------

    def state_view(self, state: S) -> dict[str, Any]:
        """A JSON-ready description of ``state`` for graphical clients.

        The web server sends it to the browser unchanged and never looks inside,
        so that it serves every game the same way; each game's browser module
        draws the board from it.  The keys every game gives are ``game``
        (:attr:`name`), ``spec``, ``position`` (the position string),
        ``to_move`` (0 or 1, or ``None`` once the game is over) and ``outcome``
        (``None``, or :meth:`Outcome.to_json`: ``{"winner", "reason", "message",
        "result"}``).  Games add their board under further keys (see ``docs/web.md``).
        """
        outcome = state.outcome
        return {
            "game": self.name,
            "spec": self.spec,
            "position": state.to_text(),
            "to_move": None if outcome is not None else state.to_move,
            "players": list(self.player_names),
            "outcome": None if outcome is None else outcome.to_json(),
        }

    def move_view(self, state: S, move: M) -> dict[str, Any]:
        """A JSON-ready description of the legal ``move`` in ``state`` for click input.

        Always holds ``notation`` (:meth:`move_text`, which :meth:`parse_move`
        reads back); games add the cells, pieces and choices that a click
        interface needs (see ``docs/web.md``).
        """
        return {"notation": self.move_text(state, move)}

    @classmethod
    def example_options(cls) -> list[dict[str, Any]]:
        """Option sets that test suites exercise (every meaningful combination)."""
        return [{}]

    # -- hooks: optional parts a game declares ------------------------------

    @classmethod
    def knowledge(cls) -> object | None:
        """The game's AI knowledge, or ``None`` (the default) for generic play.

        A module or any object whose optional attributes ``evaluate``,
        ``move_prior``, ``playout_policy`` and ``PLAYOUT_DEPTH`` help the search
        (see :mod:`tablier.ai.knowledge`).  A game declares it by overriding
        this method, importing its module lazily::

            @classmethod
            def knowledge(cls):
                from . import ai
                return ai

        Nothing finds a game's parts by module name: what is not declared here
        does not exist for the AI.
        """
        return None

    @classmethod
    def actions(cls) -> object | None:
        """The game's action encoding for the research interfaces, or ``None``.

        A module or object with ``num_actions``, ``encode``, ``decode``,
        ``observation_shape``, ``plane_names``, ``observation_planes`` and
        ``cell_colours`` (see ``docs/research.md``); declared like
        :meth:`knowledge`.  Without it the research interfaces refuse the game.
        The web views are the methods :meth:`state_view` and :meth:`move_view`.
        """
        return None

    @classmethod
    def teaching(cls) -> Teaching | None:
        """The game's rules page and tutorial (:mod:`tablier.core.teaching`), or ``None``.

        Declared like :meth:`knowledge`; the built-in games keep theirs in
        ``games/<name>/teaching.py``.  Without it the game has no rules page or tutorial.
        """
        return None

    @classmethod
    def engine(cls) -> str:
        """Which engine plays the rules: ``"compiled"`` or ``"pure (…why…)"``.

        A game with a compiled core answers with
        :func:`tablier.core.native.engine_status`; the default is a pure-Python
        engine.  Shown by ``tablier --version`` and ``tablier games``.
        """
        return "pure"

    # -- spec strings -------------------------------------------------------

    @property
    def spec(self) -> str:
        """``name:opt=value,...`` with every option; :func:`tablier.games.from_spec` reads it."""
        parts = [f"{k}={_format_value(v)}" for k, v in self._options.items()]
        return self.name + (":" + ",".join(parts) if parts else "")

    def parse_position(self, text: str) -> S:
        """Read a position string made by :meth:`State.to_text`.

        The string starts with the game spec (``volo:board=mini,...``); it
        must name this game with these options.  A game without options has
        its bare name as spec (``name body``): a first word equal to the game's
        name is read as that spec.  A string without the spec is read as the
        body alone.
        """
        from .position import split_position

        if not isinstance(text, str) or not text.strip():
            raise InvalidPositionError(N_("empty position string"))
        spec, body = split_position(text, is_name=lambda word: word == self.name)
        if spec is not None:
            name, opts = spec
            if name != self.name:
                raise InvalidPositionError(
                    N_("this position is for {other}, not {game}"),
                    other=repr(name),
                    game=repr(self.name),
                )
            other = type(self)(**opts)
            if other != self:
                raise InvalidPositionError(
                    N_("this position is for {other}, not {game}"), other=other.spec, game=self.spec
                )
        return self.parse_position_body(body)

    def position_text(self, body: str) -> str:
        """Join this game's spec and a position body into a position string."""
        return f"{self.spec} {body}"

    def variant(self) -> Variant | None:
        """The first of :attr:`VARIANTS` that is exactly this game (its options, the others
        at their defaults), or None: how a page names the game (docs/web-client.md).

        >>> from tablier.games import from_spec
        >>> from_spec("volo:board=mini").variant().key
        'mini'
        >>> from_spec("volo:board=mini,supply=40").variant() is None
        True
        """
        for variant in self.VARIANTS:
            if type(self)(**variant.options) == self:
                return variant
        return None

    def changed_options(self) -> dict[str, str]:
        """The options given other values than their defaults, as text, leaving out those
        that follow from the others (such as Volo's supply from its board).

        >>> from tablier.games import from_spec
        >>> from_spec("volo:board=mini").changed_options()
        {'board': 'mini'}
        >>> from_spec("volo:supply=40").changed_options()
        {'supply': '40'}
        """
        default = type(self)()._options
        changed = {k: v for k, v in self._options.items() if default[k] != v}
        for name in list(changed):
            rest = {k: v for k, v in changed.items() if k != name}
            try:
                follows = type(self)(**rest) == self
            except TablierError:  # the others alone are no game: this option is needed
                follows = False
            if follows:
                changed = rest
        return {k: _format_value(v) for k, v in changed.items()}

    # -- helpers ------------------------------------------------------------

    def player_name(self, player: int) -> str:
        """The name of ``player`` (0 or 1)."""
        return self.player_names[player]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game) and other.name == self.name and other._options == self._options
        )

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted((k, repr(v)) for k, v in self._options.items()))))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"

    def __reduce__(
        self,
    ) -> tuple[Callable[..., Game[Any, Any]], tuple[type[Game[Any, Any]], dict[str, Any]]]:
        # Games may hold precomputed tables that do not pickle: rebuild from the class
        # (pickled by reference) and the options, so that a game added with
        # tablier.games.register() also works in worker processes, unregistered there.
        return (_rebuild_game, (type(self), dict(self._options)))


def _rebuild_game(cls: type[Game[Any, Any]] | str, options: dict[str, Any]) -> Game[Any, Any]:
    if isinstance(cls, str):  # pickled by an earlier version: by name through the registry
        from ..games import get

        return get(cls, **options)
    return cls(**options)


def _format_value(value: Any) -> str:
    return "none" if value is None else str(value)
