"""Voldétour's race: which Lord first stood perched by the enemy tower, and the turns lost before.

A Lord is *perched* when it stands at the towers' height within two squares (Manhattan) of
the enemy tower: from there a low square between it and the tower, raised to that height,
is the way on (docs/ai.md "Five-decision wins over a low square"; beside the tower at that
height nothing stops it).  Replays recorded matches (JSON lines as ``level_ladder.py``,
``tablier arena`` and ``voldetour_stalls.py --out`` write them) and reports, for the player
named by ``--player`` (its spec's name) against its opponent in each game:

- who perched first (at the end of one of its own turns), on which of its own turns, and
  who won: the share of games the first to perch won says how far the race to the perch
  decides the game, whatever the threats and defences that follow;
- the *idle* turns of each before the first perch: turns ended without a Lord move (each
  player's first turn, which carries the random opening, left out), *stuck* where no Lord
  move was legal at the turn's last decision (the pieces put did not free the Lord) and
  *chosen* where one was;
- whether the Lords *met* before the first perch (stood side by side at some point: neither
  can step onto or over the other, so each stood in the other's way) and who won then;
- the *tempo* (:func:`leader`: Black is a tempo ahead where its first turn, the opening's
  random decisions and its own, took its Lord two squares on, else White), who perched first
  by it, and the openings (each played once with each colour: games ``2k`` and ``2k + 1``)
  whose two games one colour won;
- the games where the side a tempo ahead walked its Lord below the towers' height before the
  first perch, and those where one side alone stood *pinned* (``ai._pinned``: at the towers'
  height, its pillars all blocked)::

    .venv/bin/python benchmarks/voldetour_race.py --player expert \\
        benchmarks/records/2026-12-02-voldetour-expert-hard-lasting.jsonl

Each game's line: its index, the player's result, who perched first and on which own turn,
and the idle turns (stuck + chosen) of the player and of its opponent.  Static replay, no
search: a second a file.

Were the idle turns mistakes?  With ``--play-on SPEC``, at the player's first idle turn by
choice in each game, where a *leapfrog* was beside it (:func:`advance`: the Lord's move, or
a block taken and put and then the Lord's move, that ends with the Lord at the towers'
height nearer the enemy tower), SPEC plays both sides on from the position after the turn
played and from that after the leapfrog, ``--seeds`` games from each with the same seeds,
and the player's score from each is reported::

    .venv/bin/python benchmarks/voldetour_race.py --player expert \
        --play-on "hard:iterations=200,seconds=none" --seeds 6 FILE

Does a player walk down again?  With ``--descents SPEC``, SPEC plays ``--seeds`` times the
first turn on which the side a tempo ahead walked its Lord below the towers' height, from
that turn's start (``--pillar C`` sets the path distance's ``_PILLAR`` first), and the turns
that end below it again are counted::

    .venv/bin/python benchmarks/voldetour_race.py --player expert --descents hard \\
        --seeds 2 [--pillar 1] FILE

An unreadable file or game, or a bad spec: one line, exit 2.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any, NamedTuple

from tablier.ai.players import make_player
from tablier.core.errors import TablierError
from tablier.games import from_spec, get
from tablier.games.voldetour import ai
from tablier.games.voldetour.rules import VMove, VState

# benchmarks beside this one: the games read and replayed as the losses benchmark reads
# them (a file or game that cannot be, _Unreadable), played on as the stalls benchmark does
from voldetour_losses import played_games
from voldetour_stalls import _Unreadable, play_on

#: A Lord at the towers' height this close (Manhattan) to the enemy tower is perched.
PERCH = 2

#: Lords this close (Manhattan) have met: each stands in the other's way (they never share
#: a square nor pass over each other, and no piece goes on a Lord's square).
MEET = 1


def perched(state: VState, player: int) -> bool:
    """Whether ``player``'s Lord stands at the towers' height within :data:`PERCH` squares
    of the enemy tower (on it counts too: the game is then won)."""
    top = state.game.pieceset.tower_height
    lord = state.lords[player]
    return state.board.height(lord) == top and ai.lord_distance(state, player) <= PERCH


class Turn(NamedTuple):
    """A turn of a recorded game, as :func:`turns` replays it."""

    #: the player whose turn it was, and which of its own turns (1 for its first)
    mover: int
    own: int
    #: the positions at its start, before its last decision, and at its end
    start: VState
    last: VState
    end: VState
    #: its decisions as recorded, and whether one of them moved the Lord
    decisions: list[str]
    moved: bool


def turns(record: dict[str, Any]) -> Iterator[Turn]:
    """The turns of a recorded game (``record["game"]`` and ``record["moves"]``), in order,
    up to the end of the game or of the record."""
    game = from_spec(record["game"])
    state = start = game.initial_state()
    own = [0, 0]
    decisions: list[str] = []
    moved = False
    for text in record["moves"]:
        mover, last = state.to_move, state
        move = game.parse_move(state, text)
        moved = moved or move.kind == "lord"
        state = state.apply(move)
        decisions.append(text)
        if state.to_move == mover and state.outcome is None:
            continue
        own[mover] += 1
        yield Turn(mover, own[mover], start, last, state, decisions, moved)
        start, decisions, moved = state, [], False


def _idle(turn: Turn) -> bool:
    """Whether ``turn`` ended without a Lord move (a player's first turn, which carries the
    random opening, does not count)."""
    return not turn.moved and turn.own > 1


def _lord_left(turn: Turn) -> bool:
    """Whether a Lord move was legal at ``turn``'s last decision."""
    return any(move.kind == "lord" for move in turn.last.legal_moves())


class Race(NamedTuple):
    """One game's race, replayed up to the end of the turn that first left a Lord perched."""

    #: the side whose Lord perched first, or None where none did
    first: int | None
    #: that side's own turn (1 for its first) on which it did, or 0
    turn: int
    #: per side, the turns ended without a Lord move where none was legal at the last decision
    stuck: tuple[int, int]
    #: per side, the turns ended without a Lord move where one was legal
    chosen: tuple[int, int]
    #: whether the two Lords stood within :data:`MEET` squares of each other before
    met: bool
    #: per side, whether its Lord ended one of its turns (its first left out) below the
    #: towers' height before
    down: tuple[bool, bool] = (False, False)
    #: per side, whether its Lord stood pinned (``ai._pinned``: at the towers' height, each of
    #: its pillars blocked) at one of the turn ends before
    pinned: tuple[bool, bool] = (False, False)


def race(record: dict[str, Any]) -> Race:
    """The race of a recorded game (``record["game"]`` and ``record["moves"]``)."""
    stuck = [0, 0]
    chosen = [0, 0]
    down = [False, False]
    pinned = [False, False]
    met = False
    pieceset = from_spec(record["game"]).pieceset
    grid = pieceset.grid
    first, own = None, 0
    for turn in turns(record):
        # Lords move only by a Lord move, which ends the turn: the turn ends see every meeting
        (c1, r1), (c2, r2) = (grid.coord(lord) for lord in turn.end.lords)
        met = met or abs(c1 - c2) + abs(r1 - r2) <= MEET
        if _idle(turn):
            (chosen if _lord_left(turn) else stuck)[turn.mover] += 1
        for side in (0, 1):
            pinned[side] = pinned[side] or ai._pinned(turn.end, side)
        lord = turn.end.lords[turn.mover]
        if turn.own > 1 and turn.end.board.height(lord) != pieceset.tower_height:
            down[turn.mover] = True
        if perched(turn.end, turn.mover):
            first, own = turn.mover, turn.own
            break
    return Race(
        first,
        own,
        (stuck[0], stuck[1]),
        (chosen[0], chosen[1]),
        met,
        (down[0], down[1]),
        (pinned[0], pinned[1]),
    )


#: Squares Black's Lord gains on its first turn when that turn is a leapfrog (a 1x2x3 stood
#: beside the tower): the race's tempo then stays with Black (:func:`leader`).
LEAP = 2


def leader(record: dict[str, Any]) -> int:
    """The side a tempo ahead in the race once Black's first turn (the opening's random
    decisions, then Black's own) is over: Black where its Lord gained :data:`LEAP` squares
    on that turn, else White.  Both sides leapfrogging on their two pillars gain 2, 1, 2, 1…
    squares a turn, so from the 14 squares between each tower and the other both perch (12
    gained) on their eighth turn, Black first, unless its first turn gained less."""
    first = next(turns(record))
    gained = ai.lord_distance(first.start, 0) - ai.lord_distance(first.end, 0)
    return 0 if gained >= LEAP else 1


def advance(state: VState) -> list[VMove] | None:
    """At a turn start, the leapfrog the mover could have played: the turn of the Lord's move
    alone, or of a block taken, put and then the Lord's move, that ends with its Lord at the
    towers' height nearest the enemy tower (Manhattan), when nearer than now; the first found
    of the nearest, the Lord's moves alone first, then the blocks, puts and moves in the
    legal order.  None where there is none."""
    me, top = state.to_move, state.game.pieceset.tower_height
    best: tuple[int, list[VMove]] | None = None
    lines: list[tuple[VState, list[VMove]]] = [(state, [])]
    for take in state.legal_moves():
        if take.kind == "take" and str(take).startswith("B"):
            held = state.apply(take)
            lines += [(held.apply(put), [take, put]) for put in held.legal_moves()]
    for start, line in lines:
        for move in start.legal_moves():
            if move.kind != "lord":
                continue
            after = start.apply(move)
            if after.board.height(after.lords[me]) != top:
                continue
            distance = ai.lord_distance(after, me)
            if distance < (ai.lord_distance(state, me) if best is None else best[0]):
                best = (distance, [*line, move])
    return None if best is None else best[1]


class Idle(NamedTuple):
    """A turn ended without a Lord move where one was legal, and the leapfrog beside it."""

    #: the game's index in its record
    index: Any
    #: whether the player won the game
    won: bool
    #: the position after the turn played, and after :func:`advance`'s turn instead
    played: VState
    instead: VState
    #: the decisions of the turn played, and of the leapfrog
    played_line: str
    instead_line: str


def first_idle(record: dict[str, Any], side: int) -> Idle | None:
    """``side``'s first turn ended without a Lord move before the first perch (its first turn
    left out, as :func:`race` counts), where a Lord move was legal at its last decision and
    :func:`advance` finds a leapfrog at its start; None where that first idle turn was stuck
    or had no leapfrog, or there was none."""
    for turn in turns(record):
        if turn.mover == side and _idle(turn):
            leap = advance(turn.start) if _lord_left(turn) else None
            if leap is None:
                return None
            instead = turn.start
            for step in leap:
                instead = instead.apply(step)
            won = record.get("winner") == side
            shown = " ".join(str(step) for step in leap)
            return Idle(
                record.get("index"), won, turn.end, instead, " ".join(turn.decisions), shown
            )
        if perched(turn.end, turn.mover):
            return None
    return None


def first_descent(record: dict[str, Any]) -> Turn | None:
    """The first turn (its player's first left out) before the first perch after which the
    Lord of the side a tempo ahead (:func:`leader`) stood below the towers' height; None
    where there is none."""
    ahead = leader(record)
    top = from_spec(record["game"]).pieceset.tower_height
    for turn in turns(record):
        lord = turn.end.lords[ahead]
        if turn.mover == ahead and turn.own > 1 and turn.end.board.height(lord) != top:
            return turn
        if perched(turn.end, turn.mover):
            return None
    return None


def replay_descents(path: str, player: str, spec: str, seeds: int) -> list[str]:
    """The lines reporting, for each game of ``player`` in ``path`` (either side) with a
    :func:`first_descent`, how many of ``seeds`` turns that ``spec`` plays from that turn's
    start (seeds 0 to ``seeds - 1``) end with its Lord below the towers' height again."""
    lines: list[str] = []
    down = played = 0
    for record, side in played_games(path, player):
        turn = first_descent(record)
        if turn is None:
            continue
        top = turn.start.game.pieceset.tower_height
        below = 0
        for seed in range(seeds):
            mover = make_player(spec, turn.start.game, seed=seed)
            state = turn.start
            while state.outcome is None and state.to_move == turn.mover:
                state = state.apply(mover.choose(state))
            below += state.board.height(state.lords[turn.mover]) != top
        down += below
        played += seeds
        whose = player if turn.mover == side else "the opponent"
        lines.append(
            f"game {record['index']}: {whose} walked down on its turn {turn.own}"
            f" ({' '.join(turn.decisions)}); {spec} again: {below} of {seeds}"
        )
    lines.append(
        f"{len(lines)} first descents of the side a tempo ahead, {spec} from their starts:"
        f" {down} of {played} turns end below the towers' height"
    )
    return lines


def play_on_idle(path: str, player: str, spec: str, seeds: int, max_plies: int) -> list[str]:
    """The lines reporting, for each game of ``player`` in ``path`` with a :func:`first_idle`
    turn, the score of ``player``'s side when ``spec`` plays both sides on from the position
    after the turn played and from that after the leapfrog instead, ``seeds`` games each
    (seeds 0 to ``seeds - 1``, the same for both, at most ``max_plies`` decisions)."""
    lines: list[str] = []
    totals = [0.0, 0.0]
    better: Counter[str] = Counter()
    for record, side in played_games(path, player):
        idle = first_idle(record, side)
        if idle is None:
            continue
        scores = []
        for start in (idle.played, idle.instead):
            score = 0.0
            for seed in range(seeds):
                # play_on's A moves first there: the opponent, the turn being the player's
                score += 1 - play_on(start, spec, spec, seed, max_plies)["score_a"]
            scores.append(score)
        totals = [totals[0] + scores[0], totals[1] + scores[1]]
        better["idle" if scores[0] > scores[1] else "leap" if scores[1] > scores[0] else "="] += 1
        lines.append(
            f"game {idle.index} ({'won' if idle.won else 'lost'}): idle {scores[0]:g},"
            f" leapfrog {scores[1]:g} of {seeds} | {idle.played_line} | {idle.instead_line}"
        )
    n = sum(better.values())
    lines.append(
        f"{n} first idle turns by choice with a leapfrog beside them, {spec} on both sides,"
        f" {seeds} games from each: {player} scored {totals[0]:g} after the turn played,"
        f" {totals[1]:g} after the leapfrog, of {n * seeds}; the leapfrog better in"
        f" {better['leap']}, worse in {better['idle']}, equal in {better['=']}"
    )
    return lines


#: The rounds :func:`predictions` reports (a round: a turn of each side), the last open-ended.
ROUNDS = 8


def predictions(path: str, player: str) -> list[str]:
    """How often, at each turn end before the first perch of ``player``'s games in ``path``
    (round ``r``: the game's turn ends ``2r`` and ``2r + 1``, counted from 1; round 0 the
    first player's first turn), each predictor names the side that perched first:
    the evaluation's sign for the side to move (with the evaluation's ``_TEMPO`` as set), and
    the Lords' own squares (the one nearer the enemy tower, the side to move on a tie).
    :class:`_Unreadable` as :func:`survey`."""
    predictors = {
        "the evaluation": lambda state: ai.evaluate(state) > 0,
        "the Lords' squares": lambda state: (
            ai.lord_distance(state, state.to_move) <= ai.lord_distance(state, 1 - state.to_move)
        ),
    }
    agree: dict[str, Counter[int]] = {name: Counter() for name in predictors}
    asked: Counter[int] = Counter()
    for record, _side in played_games(path, player):
        first = race(record).first
        if first is None:
            continue
        for ended, turn in enumerate(turns(record), 1):
            row = min(ended // 2, ROUNDS)
            asked[row] += 1
            state = turn.end
            for name, mover_ahead in predictors.items():
                ahead = state.to_move if mover_ahead(state) else 1 - state.to_move
                agree[name][row] += ahead == first
            if perched(state, turn.mover):
                break
    lines = [f"tempo {ai._TEMPO:g}: who perched first, named at the turn ends of each round"]
    for row in sorted(asked):
        label = f"round {row}" + ("+" if row == ROUNDS else "")
        cells = ", ".join(
            f"{name} {agree[name][row]} ({100 * agree[name][row] / asked[row]:.0f}%)"
            for name in predictors
        )
        lines.append(f"  {label}: {asked[row]} turn ends; {cells}")
    return lines


def survey(path: str, player: str) -> list[str]:
    """The lines reporting the races of ``player``'s games in the record file ``path``;
    :class:`_Unreadable` naming the file or the game that cannot be read or replayed
    (:func:`played_games`)."""
    lines: list[str] = []
    firsts: Counter[tuple[str, bool]] = Counter()  # (who perched first, player won)
    turns: dict[str, list[int]] = {"player": [], "opponent": []}
    # games with an idle turn, by (player won, whose, "any"/"stuck"/"chosen")
    idled: Counter[tuple[bool, str, str]] = Counter()
    results: Counter[bool] = Counter()
    even: Counter[str] = Counter()  # games where neither idled: who perched first
    meetings: Counter[tuple[bool, bool]] = Counter()  # (the Lords met, player won)
    lone: Counter[bool] = Counter()  # games where one side alone idled: did the idler lose?
    # by (the colour ahead, who perched first); by (the player ahead, the player perched first)
    colours: Counter[tuple[int, int | None]] = Counter()
    tempo: Counter[tuple[bool, bool]] = Counter()
    # by (whose lead, the leader went below the towers' height, the leader perched first)
    descents: Counter[tuple[str, bool, bool]] = Counter()
    pins: Counter[bool] = Counter()  # games where one side alone stood pinned: did it perch first?
    pairs: dict[int, list[tuple[int, Any, int]]] = {}  # opening -> [(side, winner, ahead)]
    for record, side in played_games(path, player):
        got = race(record)
        won = record.get("winner") == side
        ahead = leader(record)
        colours[ahead, got.first] += 1
        if got.first is not None:
            whose = "player" if ahead == side else "opponent"
            descents[whose, got.down[ahead], got.first == ahead] += 1
            for s in (0, 1):
                if got.pinned[s] and not got.pinned[1 - s]:
                    pins[got.first == s] += 1
        tempo[ahead == side, got.first == side] += 1
        pairs.setdefault(record["index"] // 2, []).append((side, record.get("winner"), ahead))
        results[won] += 1
        who = "nobody" if got.first is None else "player" if got.first == side else "opponent"
        firsts[who, won] += 1
        if got.first is not None:
            turns[who].append(got.turn)
        for whose, s in (("player", side), ("opponent", 1 - side)):
            idled[won, whose, "stuck"] += got.stuck[s] > 0
            idled[won, whose, "chosen"] += got.chosen[s] > 0
            idled[won, whose, "any"] += got.stuck[s] + got.chosen[s] > 0
        meetings[got.met, won] += 1
        idler = [got.stuck[s] + got.chosen[s] > 0 for s in (0, 1)]
        if idler[0] != idler[1]:
            lone[idler[side] != won] += 1
        if sum(got.stuck) + sum(got.chosen) == 0:
            even["games"] += 1
            even["starter"] += got.first == 0
            even["player"] += got.first == side
        when = "" if got.first is None else f" on its turn {got.turn}"
        lines.append(
            f"game {record['index']} ({'won' if won else 'lost'}): {who} perched first{when};"
            f" idle turns {got.stuck[side]}+{got.chosen[side]}, opponent"
            f" {got.stuck[1 - side]}+{got.chosen[1 - side]}"
        )
    games = sum(results.values())
    lines.append(f"{games} games of {player}: {results[True]} won, {results[False]} not won")
    for who in ("player", "opponent", "nobody"):
        won, lost = firsts[who, True], firsts[who, False]
        if won + lost == 0:
            continue
        if who == "nobody":
            lines.append(f"  no Lord perched in {won + lost}: {player} won {won}")
            continue
        name = player if who == "player" else "the opponent"
        median = statistics.median(turns[who])
        lines.append(
            f"  {name} perched first in {won + lost}: {player} won {won},"
            f" median own turn {median:g}"
        )
    first_won = firsts["player", True] + firsts["opponent", False]
    raced = games - firsts["nobody", True] - firsts["nobody", False]
    if raced:
        lines.append(
            f"  the first to perch won {first_won} of {raced} ({100 * first_won / raced:.0f}%)"
        )
    if even["games"]:
        lines.append(
            f"  in the {even['games']} where neither idled, the side that began perched first in"
            f" {even['starter']}, {player} in {even['player']}"
        )
    if lone:
        lines.append(
            f"  in the {lone[True] + lone[False]} where one side alone idled, the idler lost"
            f" {lone[True]}"
        )
    lines.extend(_tempo_lines(player, colours, tempo, pairs))
    if pins:
        lines.append(
            f"  in the {pins[True] + pins[False]} where one side alone stood pinned (its pillars"
            f" all blocked), it perched first in {pins[True]}"
        )
    for whose in ("player", "opponent"):
        name = player if whose == "player" else "the opponent"
        for went in (True, False):
            n = descents[whose, went, True] + descents[whose, went, False]
            if n:
                lines.append(
                    f"  {name} a tempo ahead and {'went below' if went else 'stayed at'} the"
                    f" towers' height before the first perch in {n}: perched first in"
                    f" {descents[whose, went, True]}"
                )
    for met in (True, False):
        n = meetings[met, True] + meetings[met, False]
        if n:
            lines.append(
                f"  the Lords {'met' if met else 'never met'} before the first perch in {n}:"
                f" {player} won {meetings[met, True]}"
            )
    for won in (True, False):
        if not results[won]:
            continue
        for whose in ("player", "opponent"):
            name = player if whose == "player" else "the opponent"
            lines.append(
                f"  in the {results[won]} games {player} {'won' if won else 'did not win'}:"
                f" {name} idled before the first perch in {idled[won, whose, 'any']}"
                f" (stuck in {idled[won, whose, 'stuck']}, by choice in"
                f" {idled[won, whose, 'chosen']})"
            )
    return lines


def _tempo_lines(
    player: str,
    colours: Counter[tuple[int, int | None]],
    tempo: Counter[tuple[bool, bool]],
    pairs: dict[int, list[tuple[int, Any, int]]],
) -> list[str]:
    """:func:`survey`'s lines on the tempo (:func:`leader`) and on the opening pairs (games
    ``2k`` and ``2k + 1`` of a match play opening ``k`` once with each colour)."""
    lines = []
    for colour, name in ((0, "Black"), (1, "White")):
        n = sum(count for (ahead, _), count in colours.items() if ahead == colour)
        if n:
            lines.append(
                f"  {name} a tempo ahead after Black's first turn in {n}:"
                f" {name} perched first in {colours[colour, colour]}"
            )
    for ahead in (True, False):
        n = tempo[ahead, True] + tempo[ahead, False]
        if n:
            lines.append(
                f"  {player} a tempo {'ahead' if ahead else 'behind'} in {n}:"
                f" {player} perched first in {tempo[ahead, True]}"
            )
    both = [games for games in pairs.values() if len(games) == 2]
    if both:
        same = [g for g in both if g[0][1] == g[1][1] is not None]
        leading = sum(g[0][1] == g[0][2] == g[1][2] for g in same)
        swept = Counter(sum(winner == side for side, winner, _ in g) for g in both)
        lines.append(
            f"  {len(both)} openings played with both colours: the same colour won both in"
            f" {len(same)} (the colour a tempo ahead in {leading}); {player} won both in"
            f" {swept[2]}, the opponent in {swept[0]}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--player", required=True, help="the spec name to report on, e.g. expert")
    parser.add_argument("--quiet", action="store_true", help="the totals only, not each game")
    parser.add_argument(
        "--play-on",
        metavar="SPEC",
        help="instead: at the player's first idle turn by choice in each game, SPEC plays both"
        " sides on after it and after the leapfrog beside it",
    )
    parser.add_argument(
        "--seeds", type=int, default=6, help="games (--play-on) or turns (--descents) from each"
    )
    parser.add_argument("--max-plies", type=int, default=400, help="for --play-on")
    parser.add_argument(
        "--predict",
        action="store_true",
        help="instead: how often the evaluation and the Lords' squares name the first to perch",
    )
    parser.add_argument(
        "--tempo", type=float, default=None, help="for --predict: the evaluation's _TEMPO"
    )
    parser.add_argument(
        "--descents",
        metavar="SPEC",
        help="instead: SPEC plays again, --seeds times, the first turn on which the side a"
        " tempo ahead walked its Lord below the towers' height",
    )
    parser.add_argument(
        "--pillar", type=int, default=None, help="for --descents: the path distance's _PILLAR"
    )
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.max_plies < 1:
        parser.error("--seeds and --max-plies must be 1 or more")
    for flag, spec in (("--play-on", args.play_on), ("--descents", args.descents)):
        try:  # a bad spec stops it here, before any game is read or played
            if spec:
                make_player(spec, get("voldetour"))
        except TablierError as error:
            print(f"error: {flag}: {error}", file=sys.stderr)
            return 2
    if args.pillar is not None:
        ai._set_pillar(args.pillar)
    for path in args.files:
        try:
            if args.predict:
                if args.tempo is not None:
                    ai._set_tempo(args.tempo)
                lines = predictions(path, args.player)
            elif args.descents:
                lines = replay_descents(path, args.player, args.descents, args.seeds)
            elif args.play_on:
                lines = play_on_idle(path, args.player, args.play_on, args.seeds, args.max_plies)
            else:
                lines = survey(path, args.player)
        except _Unreadable as error:
            print(f"error: cannot read the records in {error}", file=sys.stderr)
            return 2
        print(path)
        for line in lines:
            if not (args.quiet and line.startswith("game ")):
                print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
