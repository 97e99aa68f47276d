"""``POST /api/records/parse``: read an imported record (text or JSON) for review.

The cost is bounded: the body is at most ``max_body`` bytes (64 KiB), a record of more than
``max_record_plies`` decisions is refused (``413 record_too_long``) before it is replayed,
and the reading, the replay and the serialisation of the answer run in a worker thread, not
on the event loop.
"""

from __future__ import annotations

from typing import Any

from anyio import to_thread
from fastapi import APIRouter, Request, Response

from ...core.errors import RecordError, TablierError
from ...core.record import Record
from ..deps import get_settings
from ..errors import ApiError, dump_json
from ..models import RecordBody, error_responses

__all__ = ["parse_record", "router"]

router = APIRouter(prefix="/api/records", tags=["records"])


def parse_record(text: str, max_plies: int) -> dict[str, Any]:
    """Read a record (text or JSON) for review: moves, views per ply, move views."""
    try:
        if text.lstrip("\ufeff \t\r\n").startswith("{"):
            record = Record.from_json(text)
        else:
            record = Record.from_text(text)
        if len(record.moves) > max_plies:
            raise ApiError(
                413,
                "record_too_long",
                f"the record has {len(record.moves)} decisions; at most {max_plies} are read",
            )
        states, moves = record.replay_moves()
    except RecordError as exc:
        raise ApiError(422, "bad_record", exc, ply=exc.ply) from None
    except TablierError as exc:
        raise ApiError(422, "bad_record", exc, ply=None) from None
    game = record.game
    headers = {"Game": game.name, **record.tags, "Result": record.result}
    if record.reason is not None:
        headers["Reason"] = record.reason
    return {
        "game": game.name,
        "spec": game.spec,
        "title": game.title,
        "variant": (v.key if (v := game.variant()) else None),
        "changed": game.changed_options(),
        "headers": headers,
        "moves": [d.move for d in record.moves],
        "comments": [d.comment for d in record.moves],
        "result": record.result,
        "reason": record.reason,
        "views": [game.state_view(s) for s in states],
        "move_views": [game.move_view(s, m) for s, m in zip(states, moves, strict=False)],
    }


@router.post(
    "/parse",
    responses={200: {"content": {"application/json": {}}}, **error_responses(422)},
    response_class=Response,
)
async def records_parse(body: RecordBody, request: Request) -> Response:
    """Read an imported record for review (``413 record_too_long`` past the ply limit)."""
    limit = get_settings(request).max_record_plies

    def work() -> bytes:
        return dump_json(parse_record(body.text, limit))

    return Response(await to_thread.run_sync(work), media_type="application/json")
