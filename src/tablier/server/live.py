"""A game held in memory: its states, moves, seats and cached views.

:class:`LiveGame` is rebuilt from the database (every move is replayed through the engine's
``parse_move``) and kept in the server's cache.  Its ``prepare_*`` methods check a request
against the rules and build the database :class:`~tablier.server.storage.Change` without
touching the game; once the change is committed the server calls the matching ``apply_*``
method.  Everything goes through the core protocol: nothing here knows which game it holds.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .. import games as registry
from ..core.errors import GameOverError, IllegalMoveError, TablierError
from ..core.game import Game, Move, Outcome, State
from ..core.record import Record
from . import clocks
from .errors import ApiError
from .players import players_of
from .storage import Change, now
from .tables import BOTH

__all__ = ["LiveGame", "Prepared", "hash_token", "iso"]


def hash_token(token: str) -> str:
    """The SHA-256 (hex) of a token: all the database ever stores."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC (SQLite hands back naive datetimes, which are UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def outcome_dict(state: State) -> dict[str, Any] | None:
    """The engine's outcome as JSON, or None."""
    outcome = state.outcome
    return None if outcome is None else outcome.to_json()


@dataclass
class Prepared:
    """A checked change: what to commit, and what it does once committed."""

    change: Change
    kind: str  # "move", "takeback", "offer", "resign", ...
    move: Move | None = None
    state: State | None = None
    notation: str | None = None
    seat: int | None = None
    drop_from: int | None = None
    view: dict | None = None
    move_view: dict | None = None


class LiveGame:
    """One game in memory (see the module docstring)."""

    def __init__(
        self,
        row: dict[str, Any],
        moves: list[tuple],
        tokens: list,
        reuse: LiveGame | None = None,
    ):
        """The game of a database row, its moves and its tokens.  ``reuse``: an older copy
        of the same game, whose decisions are taken as they are where the moves agree (a
        copy refreshed after another process's change replays only what is new)."""
        self.id: str = row["id"]
        self.game: Game = registry.from_spec(row["spec"])
        self.mode: str = row["mode"]
        self.names: list[str] = list(row["names"])
        #: the account id of each seat (None: a guest; the AI's seat: its level's id)
        self.users: list[str | None] = list(row.get("users") or [None, None])
        self.ai_seat: int | None = row["ai_seat"]
        self.ai_level: str | None = row["ai_level"]
        self.version: int = row["version"]
        self.status: str = row["status"]
        self.result: dict | None = row["result"]
        self.decided: str | None = row["decided"]
        self.draw_offer: int | None = row["draw_offer"]
        self.undo_offer: int | None = row["undo_offer"]
        self.rematch_id: str | None = row["rematch_id"]
        self.rematch_of: str | None = row["rematch_of"]
        #: the players' chat room is turned off (server/chat.py)
        self.chat_off: bool = bool(row.get("chat_off") or False)
        #: per seat, whether it muted the other seat's chat
        self.mutes: list[bool] = [bool(m) for m in (row.get("mutes") or [False, False])]
        #: hints asked for per seat (games against the computer; routers/analysis.py)
        self.hints: list[int] = [int(n) for n in (row.get("hints") or [0, 0])]
        #: a rated game, and once settled each seat's rating change (server/ratings.py)
        self.rated: bool = bool(row.get("rated") or False)
        self.rating_change: list[dict] | None = row.get("rating_change")
        self.created: datetime = row["created"]
        self.updated: datetime = row["updated"]
        self.tokens: list[tuple[int, str]] = [(int(s), str(h)) for s, h in tokens]
        #: the time control and the clock's state (clocks.py)
        self.clock: dict | None = row.get("clock")
        self.clock_left: list[int] | None = row.get("clock_left")
        self.turn_since: datetime | None = clocks.aware(row.get("turn_since"))
        self.deadline: datetime | None = clocks.aware(row.get("deadline"))
        self.lock = asyncio.Lock()
        state = self.game.initial_state()
        self._initial = state
        self.moves: list[Move] = []
        self.notations: list[str] = []
        self.movers: list[int] = []
        #: the mover's clock after each decision (ms; None: no clock)
        self.clock_ms: list[int | None] = []
        shared = 0
        if reuse is not None and reuse.game.spec == self.game.spec:
            limit = min(len(moves), reuse.ply)
            while shared < limit and moves[shared][1] == reuse.notations[shared]:
                shared += 1
        for ply, notation, seat, *times in moves:
            if ply != len(self.moves):
                raise RuntimeError(f"game {self.id}: move {ply} stored out of order")
            if ply < shared:
                assert reuse is not None
                move = reuse.moves[ply]
                if ply == shared - 1:
                    state = reuse.state_at(shared)
            else:
                move = self.game.parse_move(state, notation)
                state = state.apply(move)
            self.moves.append(move)
            self.notations.append(notation)
            self.movers.append(seat)
            self.clock_ms.append(times[0] if times else None)
        # Only the current state is kept (older ones are replayed when asked for): engine
        # states carry caches, and a small heap keeps the garbage collector's pauses short.
        self._recent: dict[int, State] = {self.ply: state}
        self._views: dict[int, dict] = {}
        self._move_views: dict[int, dict] = {}
        self._legal_json: tuple[int, bytes] | None = None

    # -- reading ----------------------------------------------------------------------

    @property
    def ply(self) -> int:
        """The number of decisions played."""
        return len(self.moves)

    @property
    def state(self) -> State:
        """The current state."""
        return self._recent[self.ply]

    def state_at(self, ply: int) -> State:
        """The state after ``ply`` decisions (replayed from the start unless recent)."""
        state = self._recent.get(ply)
        if state is None:
            state = self._initial
            for move in self.moves[:ply]:
                state = state.apply_unchecked(move)
        return state

    def all_states(self) -> list[State]:
        """Every state from the start to now (replayed)."""
        states = [self._initial]
        for move in self.moves:
            states.append(states[-1].apply_unchecked(move))
        return states

    def seat_for(self, token: str | None) -> int | None:
        """The seat (0, 1 or :data:`BOTH`) that ``token`` holds, or None.

        Every stored hash is compared with :func:`hmac.compare_digest`, without stopping at
        the first match, so the time taken does not depend on which hash matches.
        """
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        digest = hash_token(token)
        found = None
        for seat, stored in self.tokens:
            if hmac.compare_digest(digest, stored):
                found = seat
        return found

    def view(self, ply: int) -> dict:
        """``state_view`` of the state after ``ply`` decisions (the latest ones cached).

        Only the views that every snapshot and broadcast needs are kept: a small heap keeps
        the garbage collector's pauses short with many games in memory.
        """
        view = self._views.get(ply)
        if view is None:
            view = self.game.state_view(self.state_at(ply))
            if ply >= self.ply - 1:
                self._views[ply] = view
        return view

    def move_view(self, ply: int) -> dict:
        """``move_view`` of decision number ``ply`` (0-based) in the state before it."""
        view = self._move_views.get(ply)
        if view is None:
            view = self.game.move_view(self.state_at(ply), self.moves[ply])
            if ply >= self.ply - 2:
                self._move_views[ply] = view
        return view

    def _prune(self) -> None:
        ply = self.ply
        self._views = {k: v for k, v in self._views.items() if ply - 1 <= k <= ply}
        self._move_views = {k: v for k, v in self._move_views.items() if ply - 2 <= k < ply}

    def legal_json(self) -> bytes:
        """The body of ``GET /legal`` now, serialised once per version of the game (cached
        as bytes only: the views themselves are not kept)."""
        cached = self._legal_json
        if cached is None or cached[0] != self.version:
            body = {"ply": self.ply, "moves": self.legal_views()}
            data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
            cached = (self.version, data)
            self._legal_json = cached
        return cached[1]

    def legal_views(self) -> list[dict]:
        """``move_view`` of every legal decision now (empty once the game is over)."""
        if self.status != "active":
            return []
        state = self.state
        return [self.game.move_view(state, m) for m in state.legal_moves()]

    def warm(self) -> None:
        """Compute the views that the next requests need (call it off the event loop)."""
        self.view(self.ply)
        if self.ply:
            self.move_view(self.ply - 1)

    def you(self, seat: int | None) -> int | str | None:
        """The ``you`` field of a snapshot."""
        return "both" if seat == BOTH else seat

    def current_result(self) -> dict | None:
        """The result: an off-board decision, else the engine's outcome."""
        if self.decided is not None:
            return self.result
        return outcome_dict(self.state)

    def snapshot(
        self,
        *,
        you: int | None = None,
        online: tuple[bool, bool] = (False, False),
        thinking: bool = False,
        at: datetime | None = None,
    ) -> dict[str, Any]:
        """The SNAPSHOT of the contract (see ``docs/web.md``); ``at``: the clock's now."""
        seats = []
        for i in (0, 1):
            is_ai = i == self.ai_seat
            seats.append(
                {
                    "seat": i,
                    "name": self.names[i],
                    "kind": "ai" if is_ai else "human",
                    "online": bool(online[i]),
                }
            )
        return {
            "id": self.id,
            "game": self.game.name,
            "spec": self.game.spec,
            "title": self.game.title,
            "mode": self.mode,
            "status": self.status,
            "ply": self.ply,
            "moves": list(self.notations),
            "view": self.view(self.ply),
            "last_move": self.move_view(self.ply - 1) if self.ply else None,
            "seats": seats,
            "players": players_of(self.names, self.users, self.ai_seat, self.ai_level),
            "you": self.you(you),
            "offers": {"draw": self.draw_offer, "undo": self.undo_offer},
            "result": self.current_result(),
            "ai": None
            if self.ai_seat is None
            else {"level": self.ai_level, "seat": self.ai_seat, "thinking": thinking},
            "rematch": self.rematch_id,
            "chat_off": self.chat_off,
            "muted": list(self.mutes),
            "hints": list(self.hints),
            "rated": self.rated,
            "rating_change": self.rating_change,
            "clock": clocks.clock_view(self, at or now()),
            "created": iso(self.created),
            "updated": iso(self.updated),
        }

    def record(self) -> Record:
        """The game record (``tablier.core.record``), with names, date and result."""
        tags = {"Site": "Tablier web", "Mode": self.mode}
        for i, tag in ((0, "First"), (1, "Second")):
            name = self.names[i] or ""
            if i == self.ai_seat:
                name = name or f"Tablier AI ({self.ai_level})"
            if name:
                tags[tag] = name
        tags["Date"] = self.created.strftime("%Y.%m.%d")
        if any(self.hints):
            tags["Hints"] = f"{self.hints[0]},{self.hints[1]}"
        comments = None
        if self.clock is not None:
            tags["TimeControl"] = clocks.TimeControl.from_json(self.clock).tag
            comments = [None if ms is None else clocks.clock_comment(ms) for ms in self.clock_ms]
        result = reason = None
        if self.decided is not None and self.result is not None:
            result, reason = Outcome.from_json(self.result).result, self.decided
        return Record.from_moves(
            self.game, self.moves, comments=comments, tags=tags, result=result, reason=reason
        )

    # -- checking requests ----------------------------------------------------------

    def _need_active(self) -> None:
        if self.status != "active":
            raise ApiError(410, "game_over", "the game is over")

    def _need_seat(self, seat: int | None) -> int:
        if seat is None:
            raise ApiError(403, "not_your_seat", "this link does not hold a seat in this game")
        return seat

    def prepare_move(self, seat: int | None, ply: int, text: str) -> Prepared:
        """Check a move submitted for ``seat`` at ``ply``; build its change."""
        seat = self._need_seat(seat)
        self._need_active()
        if ply != self.ply:
            raise ApiError(
                409,
                "stale_ply",
                f"the game is at ply {self.ply}, not {ply}: another move was played first",
                ply=self.ply,
            )
        state = self.state
        mover = state.to_move
        if seat not in (mover, BOTH) or mover == self.ai_seat:
            raise ApiError(403, "not_your_turn", f"it is {self.game.player_name(mover)}'s turn")
        return self.prepare_decision(mover, text)

    def prepare_decision(self, mover: int, text: str) -> Prepared:
        """Read ``text`` as the next decision of ``mover`` (human or AI) and build its change."""
        state = self.state
        try:
            move = self.game.parse_move(state, text)
            after = state.apply(move)
        except GameOverError as exc:
            raise ApiError(410, "game_over", exc) from None
        except IllegalMoveError as exc:
            raise ApiError(422, "illegal_move", exc) from None
        except TablierError as exc:
            raise ApiError(422, "bad_move", exc) from None
        notation = self.game.move_text(state, move)
        values: dict[str, Any] = {"ply": self.ply + 1, "draw_offer": None, "undo_offer": None}
        outcome = outcome_dict(after)
        if outcome is not None:
            values.update(status="finished", result=outcome, decided=None)
        change = Change(values=values, moves=[(self.ply, notation, mover)])
        # The views are computed here, in the worker thread, and cached once committed.
        return Prepared(
            change,
            "move",
            move,
            after,
            notation,
            mover,
            view=self.game.state_view(after),
            move_view=self.game.move_view(state, move),
        )

    def apply_move(self, prep: Prepared) -> None:
        """Record a committed move in memory."""
        assert prep.move is not None and prep.state is not None and prep.notation is not None
        ply = self.ply
        if prep.move_view is not None:
            self._move_views[ply] = prep.move_view
        if prep.view is not None:
            self._views[ply + 1] = prep.view
        self.moves.append(prep.move)
        self.notations.append(prep.notation)
        self.movers.append(prep.seat if prep.seat is not None else self.state.to_move)
        self.clock_ms.append(prep.change.move_times.get(ply, (None, None))[0])
        self._recent = {ply + 1: prep.state}
        self._prune()
        self._apply_values(prep.change)

    def _apply_values(self, change: Change) -> None:
        self.version += 1
        self.updated = change.values.get("updated") or now()
        for key in ("status", "result", "decided", "draw_offer", "undo_offer", "rematch_id"):
            if key in change.values:
                setattr(self, key, change.values[key])
        for key in ("rated", "rating_change"):
            if key in change.values:
                setattr(self, key, change.values[key])
        for key in ("clock_left", "turn_since", "deadline"):
            if key in change.values:
                setattr(self, key, change.values[key])
        for key in ("names", "users"):
            if key in change.values:
                setattr(self, key, list(change.values[key]))
        if "chat_off" in change.values:
            self.chat_off = bool(change.values["chat_off"])
        if "mutes" in change.values:
            self.mutes = [bool(m) for m in change.values["mutes"]]
        if "hints" in change.values:
            self.hints = [int(n) for n in change.values["hints"]]

    def turn_start(self, seat: int) -> int | None:
        """The ply where ``seat``'s last turn began (None when it never moved)."""
        i = len(self.movers) - 1
        while i >= 0 and self.movers[i] != seat:
            i -= 1
        if i < 0:
            return None
        while i > 0 and self.movers[i - 1] == seat:
            i -= 1
        return i

    def _rewind_change(self, drop_from: int) -> Change:
        values: dict[str, Any] = {
            "ply": drop_from,
            "status": "active",
            "result": None,
            "decided": None,
            "draw_offer": None,
            "undo_offer": None,
        }
        return Change(values=values, drop_from_ply=drop_from)

    def prepare_takeback(self, seat: int | None) -> Prepared:
        """Take back the last turn: against the AI, the human's last turn and the AI's reply.

        Allowed in games against the AI and same-screen games; in games between two people
        an undo is asked for with an offer instead.  A game decided off the board (resigned,
        draw agreed) cannot be taken back.
        """
        seat = self._need_seat(seat)
        if self.mode == "online":
            raise ApiError(
                409, "not_allowed", "in a game between two people, ask for an undo instead"
            )
        if self.rated:
            raise ApiError(409, "not_allowed", "a rated game cannot be taken back")
        if self.decided is not None:
            raise ApiError(410, "game_over", f"the game was decided by {self.decided}")
        if self.mode == "ai":
            human = 1 - self.ai_seat if self.ai_seat is not None else seat
            target = self.turn_start(human)
        else:
            target = self.turn_start(self.movers[-1]) if self.movers else None
        if target is None:
            raise ApiError(409, "nothing_to_undo", "there is no move to take back")
        return Prepared(self._rewind_change(target), "takeback", drop_from=target)

    def apply_rewind(self, prep: Prepared) -> None:
        """Drop the moves from ``prep.drop_from`` on, in memory."""
        n = prep.drop_from
        assert n is not None
        del self.moves[n:], self.notations[n:], self.movers[n:], self.clock_ms[n:]
        self._recent = {n: self.state_at(n)}
        self._prune()
        self._legal_json = None
        self._apply_values(prep.change)

    def prepare_offer(self, seat: int | None, kind: str, action: str) -> Prepared:
        """A draw or undo offer, its acceptance or its refusal (games between people)."""
        seat = self._need_seat(seat)
        if self.mode != "online" or seat == BOTH:
            raise ApiError(
                409, "not_allowed", "offers are for games between two people: use takeback"
            )
        self._need_active()
        other = 1 - seat
        pending = self.draw_offer if kind == "draw" else self.undo_offer
        field = "draw_offer" if kind == "draw" else "undo_offer"
        if action == "offer" and pending == other:
            action = "accept"  # both sides want it
        if action == "offer":
            if pending == seat:
                raise ApiError(409, "offer_pending", f"you have already offered a {kind}")
            if kind == "undo" and self.turn_start(seat) is None:
                raise ApiError(409, "nothing_to_undo", "you have not moved yet")
            return Prepared(Change(values={field: seat}), "offer")
        if pending is None:
            raise ApiError(409, "no_offer", f"there is no {kind} offer to {action}")
        if action == "decline":
            return Prepared(Change(values={field: None}), "offer")
        if pending == seat:
            raise ApiError(409, "own_offer", "you cannot accept your own offer")
        if kind == "draw":
            result = Outcome(None, "agreement", "draw agreed").to_json()
            values = {
                "status": "finished",
                "result": result,
                "decided": "agreement",
                "draw_offer": None,
                "undo_offer": None,
            }
            return Prepared(Change(values=values), "offer")
        target = self.turn_start(pending)
        if target is None:
            raise ApiError(409, "nothing_to_undo", "there is no move to undo")
        return Prepared(self._rewind_change(target), "takeback", drop_from=target)

    def prepare_resign(self, seat: int | None) -> Prepared:
        """Resignation of ``seat`` (a same-screen token resigns for the side to move)."""
        seat = self._need_seat(seat)
        self._need_active()
        loser = self.state.to_move if seat == BOTH else seat
        winner = 1 - loser
        message = f"{self.game.player_name(loser)} resigned"
        result = Outcome(winner, "resignation", message).to_json()
        values = {
            "status": "finished",
            "result": result,
            "decided": "resignation",
            "draw_offer": None,
            "undo_offer": None,
        }
        return Prepared(Change(values=values), "resign")

    def prepare_timeout(self, at: datetime) -> Prepared:
        """The flag fall of the seat to move (``409 not_due`` unless its deadline has passed
        at ``at``): it loses, decided ``timeout``."""
        if not clocks.due(self, at):
            raise ApiError(409, "not_due", "no clock of this game has run out")
        loser = self.state.to_move
        message = f"{self.game.player_name(loser)} ran out of time"
        result = Outcome(1 - loser, "timeout", message).to_json()
        values = {
            "status": "finished",
            "result": result,
            "decided": "timeout",
            "draw_offer": None,
            "undo_offer": None,
        }
        return Prepared(Change(values=values), "timeout")

    def apply_values(self, prep: Prepared) -> None:
        """Record a committed change that adds or drops no move."""
        self._apply_values(prep.change)


def summary_of_row(row: dict[str, Any]) -> dict[str, Any]:
    """A game-list entry from a database row."""
    return {
        "id": row["id"],
        "game": row["game"],
        "spec": row["spec"],
        "title": _title(row["game"]),
        "mode": row["mode"],
        "status": row["status"],
        "ply": row["ply"],
        "names": list(row["names"]),
        "players": players_of(row["names"], row.get("users"), row["ai_seat"], row["ai_level"]),
        "ai": None
        if row["ai_seat"] is None
        else {"level": row["ai_level"], "seat": row["ai_seat"]},
        "result": row["result"],
        "created": iso(row["created"]),
        "updated": iso(row["updated"]),
    }


def _title(name: str) -> str:
    try:
        return registry.game_class(name).title
    except TablierError:
        return name
