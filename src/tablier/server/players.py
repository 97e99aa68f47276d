"""Who sits at a game's seats: guests, accounts and the AI levels (the ``players`` key).

A seat is held by a capability token whatever its player; ``games.users`` names the account
of each seat (``None``: a guest) and ``games.names`` the name shown.  An account's seat is
shown under its username (set whenever a seat is linked to an account), a guest's under
the name they chose, and the AI's seat belongs to the ``users`` row of its level:
id ``ai-<level>``, username ``AI-<level>`` (created at start-up, see
:func:`tablier.server.accounts.ensure_ai_users`).

>>> players_of(["Ann", ""], [None, "ai-hard"], 1, "hard")[1]
{'name': '', 'user': 'ai-hard', 'username': 'AI-hard', 'kind': 'ai'}
"""

from __future__ import annotations

from typing import Any

__all__ = ["AI_ID_PREFIX", "NAME_MAX", "ai_user_id", "ai_username", "clean_name", "players_of"]

#: The prefix of the AI levels' user ids (and, case-folded, of their usernames).
AI_ID_PREFIX = "ai-"

#: The longest player name kept (characters).
NAME_MAX = 40


def ai_user_id(level: str) -> str:
    """The ``users.id`` of an AI level.

    >>> ai_user_id("expert")
    'ai-expert'
    """
    return f"{AI_ID_PREFIX}{level}"


def ai_username(level: str) -> str:
    """The username of an AI level (its profile is ``/@/AI-<level>``).

    >>> ai_username("easy")
    'AI-easy'
    """
    return f"AI-{level}"


def clean_name(name: Any) -> str:
    """A player name: text without control characters, spaces collapsed, at most 40 characters.

    >>> clean_name(" Ann\\n\\t Lee ")
    'Ann Lee'
    >>> clean_name(3)
    ''
    """
    if not isinstance(name, str):
        return ""
    cleaned = "".join(c if c.isprintable() else " " for c in name)
    return " ".join(cleaned.split())[:NAME_MAX]


def players_of(
    names: list[str], users: list[str | None] | None, ai_seat: int | None, ai_level: str | None
) -> list[dict[str, Any]]:
    """The ``players`` of a snapshot: ``[{name, user, username, kind}]`` per seat.

    ``kind`` is ``"ai"``, ``"account"`` or ``"guest"``; ``username`` is null for a guest.
    """
    users = list(users or [None, None])
    out: list[dict[str, Any]] = []
    for seat in (0, 1):
        user = users[seat] if seat < len(users) else None
        name = names[seat] if seat < len(names) else ""
        if seat == ai_seat:
            level = ai_level or ""
            out.append(
                {
                    "name": name,
                    "user": user or ai_user_id(level),
                    "username": ai_username(level),
                    "kind": "ai",
                }
            )
        elif user is not None:
            out.append({"name": name, "user": user, "username": name, "kind": "account"})
        else:
            out.append({"name": name, "user": None, "username": None, "kind": "guest"})
    return out
