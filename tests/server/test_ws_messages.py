"""A bad WebSocket message, whatever it holds, gets a ``bad_message`` frame; the socket stays."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablier.server.errors import ApiError
from tablier.server.models import MoveBody, MoveMessage, read_message

from .conftest import new_game
from .test_ws import hello, receive_until

DEEP = "[" * 5000 + "]" * 5000
BAD = [
    "",
    "not json",
    "{not json",
    "\x00\ud7ff\uffff",
    "[]",
    "42",
    "null",
    '"hello"',
    DEEP,
    '{"type": ' + DEEP + "}",
    '{"a":' * 3000 + "1" + "}" * 3000,
    '{"type": "move", "ply": ' + "9" * 5000 + ', "move": "a1"}',
    '{"type": "move", "ply": 1e999, "move": "a1"}',
    '{"type": "move", "ply": -1, "move": "a1"}',
    '{"type": "move", "ply": true, "move": "a1"}',
    '{"type": "move", "ply": "0", "move": "a1"}',
    '{"type": "move", "ply": 0, "move": 7}',
    '{"type": "move", "ply": 0, "move": ""}',
    '{"type": "move", "ply": 0, "move": ["a1"]}',
    '{"type": "move", "ply": 0}',
    '{"type": "move", "ply": 0, "move": "a1", "extra": 1}',
    '{"type": "hello", "token": 12}',
    '{"type": "hello", "token": {"a": 1}}',
    '{"type": 5}',
    '{"type": ["ping"]}',
    '{"type": "dance"}',
    '{"type": "ping", "ref": 1e999}',
    '{"type": "ping", "ref": ' + "1" * 400 + "}",
    '{"type": "ping", "ref": {"deep": [1, 2]}}',
    '{"type": "ping", "ref": "' + "x" * 500 + '"}',
    '{"type": "pıng"}',
    '{"type": "ping٠"}',
    '{"\ud800": 1}'.encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
]


@pytest.mark.parametrize("text", BAD, ids=range(len(BAD)))
def test_read_message_refuses_with_bad_message(text):
    with pytest.raises(ApiError) as caught:
        read_message(text)
    assert caught.value.code == "bad_message" and caught.value.status == 422


def test_move_messages_are_the_rest_move_bodies():
    assert issubclass(MoveMessage, MoveBody)
    message = read_message('{"type": "move", "ply": 3, "move": "a1", "ref": "r"}')
    assert isinstance(message, MoveMessage) and (message.ply, message.move) == (3, "a1")


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.one_of(
        st.text(),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner),
            max_leaves=8,
        ).map(json.dumps),
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(["move", "hello", "ping"]) | st.text(),
                "ply": st.integers() | st.text() | st.floats() | st.none(),
                "move": st.text() | st.integers(),
                "ref": st.integers() | st.text() | st.floats(),
            }
        ).map(json.dumps),
    )
)
def test_any_text_is_a_message_or_bad_message(text):
    try:
        read_message(text)
    except ApiError as exc:
        assert exc.code in ("bad_message", "message_too_large")


def test_bad_messages_keep_the_connection(shared_client):
    created = new_game(shared_client, "xobo")
    gid = created["id"]
    with shared_client.websocket_connect(f"/ws/games/{gid}") as ws:
        hello(ws, created["tokens"]["0"])
        for i, text in enumerate(BAD):
            ws.send_text(text)
            err = receive_until(ws, "error")
            assert err["code"] == "bad_message", (i, err)
            assert set(err) >= {"type", "code", "message", "ref"}
        ws.send_bytes(b'{"type": "ping"}')
        assert receive_until(ws, "error")["code"] == "bad_message"
        # The ref of a readable message comes back even when the message is refused.
        ws.send_text('{"type": "move", "ply": "x", "ref": "r1"}')
        assert receive_until(ws, "error")["ref"] == "r1"
        # Still connected and seated: a ping and a real move work.
        ws.send_json({"type": "ping"})
        assert receive_until(ws, "pong") == {"type": "pong"}
        move = shared_client.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
        ws.send_json({"type": "move", "ply": 0, "move": move, "ref": 9})
        assert receive_until(ws, "move")["ref"] == 9


def test_errors_from_deeper_down_keep_the_connection(shared_client, monkeypatch):
    from tablier.core.errors import InvalidMoveError

    service = shared_client.app.state.service
    created = new_game(shared_client, "xobo")
    gid = created["id"]
    with shared_client.websocket_connect(f"/ws/games/{gid}") as ws:
        hello(ws, created["tokens"]["0"])
        for raised, code in (
            (InvalidMoveError("no such move"), "bad_input"),
            (RuntimeError("bug"), "internal_error"),
        ):

            async def broken(*_a, _exc=raised, **_k):
                raise _exc

            monkeypatch.setattr(service, "move", broken)
            ws.send_json({"type": "move", "ply": 0, "move": "a1", "ref": code})
            err = receive_until(ws, "error")
            assert (err["code"], err["ref"]) == (code, code)
            assert "bug" not in err["message"]
        monkeypatch.undo()
        ws.send_json({"type": "ping"})
        assert receive_until(ws, "pong") == {"type": "pong"}
