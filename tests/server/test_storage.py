"""Storage on SQLite and on real PostgreSQL: migrations, the (game_id, ply) key, versions,
restarts (nothing lost, the AI resumes)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

import tablier.games
from tablier.server.app import create_app
from tablier.server.migrate import upgrade
from tablier.server.storage import Change, Storage, make_engine, now

from .conftest import bearer, make_settings, new_game, play_random, wait_for


def _row(game_id: str) -> dict:
    stamp = now()
    return {
        "id": game_id,
        "game": "volo",
        "spec": tablier.games.get("volo").spec,
        "mode": "local",
        "status": "active",
        "ply": 0,
        "version": 0,
        "names": ["", ""],
        "ai_seat": None,
        "ai_level": None,
        "result": None,
        "decided": None,
        "draw_offer": None,
        "undo_offer": None,
        "rematch_id": None,
        "rematch_of": None,
        "created": stamp,
        "updated": stamp,
    }


@pytest.fixture
def storage(database_url):
    engine = make_engine(database_url)
    upgrade(engine)
    yield Storage(engine)
    engine.dispose()


def test_migrations_create_the_schema_once(storage):
    upgrade(storage.engine)  # a second run changes nothing
    inspector = sa.inspect(storage.engine)
    assert {"games", "moves", "seat_tokens", "alembic_version"} <= set(inspector.get_table_names())
    with storage.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "0002"
    pk = inspector.get_pk_constraint("moves")
    assert pk["constrained_columns"] == ["game_id", "ply"]


def test_the_database_accepts_one_move_per_ply(storage):
    storage.create_game(_row("g1"), [(2, "a" * 64)])
    assert storage.commit("g1", 0, Change(values={"ply": 1}, moves=[(0, "c1", 0)]))
    # A second move for ply 0, even with the right version, is refused by the key.
    assert not storage.commit("g1", 1, Change(values={"ply": 1}, moves=[(0, "d1", 0)]))
    with pytest.raises(sa.exc.IntegrityError), storage.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO moves (game_id, ply, notation, seat, created) "
                "VALUES ('g1', 0, 'e1', 0, CURRENT_TIMESTAMP)"
            )
        )
    row, moves, tokens = storage.load("g1")
    assert moves == [(0, "c1", 0, None)] and row["version"] == 1 and tokens == [(2, "a" * 64)]


def test_a_stale_version_is_refused_and_rolled_back(storage):
    storage.create_game(_row("g2"), [])
    assert storage.commit("g2", 0, Change(values={"ply": 1}, moves=[(0, "c1", 0)]))
    assert not storage.commit("g2", 0, Change(values={"ply": 2}, moves=[(1, "d1", 1)]))
    row, moves, _ = storage.load("g2")
    assert row["ply"] == 1 and moves == [(0, "c1", 0, None)]
    # Dropping moves (a takeback) and adding others in one transaction.
    assert storage.commit("g2", 1, Change(values={"ply": 1}, drop_from_ply=0, moves=[(0, "e1", 0)]))
    assert storage.load("g2")[1] == [(0, "e1", 0, None)]
    assert storage.load("nope") is None


def test_listing_and_unfinished_ai_games(storage):
    for i in range(3):
        storage.create_game(
            {**_row(f"l{i}"), "mode": "ai" if i else "local", "ai_seat": 1, "ai_level": "easy"}, []
        )
    storage.commit("l2", 0, Change(values={"status": "finished"}))
    assert storage.count_games() == 3
    assert storage.list_games(10, 0)[0]["id"] == "l2"  # the most recently updated
    assert storage.unfinished_ai_games() == ["l1"]


def test_restart_loses_nothing_and_resumes_the_ai(database_url):
    slow = make_settings(database_url, ai_specs={"easy": "mcts:iterations=none,seconds=60"})
    games = {}
    with TestClient(create_app(slow)) as first:
        for mode in ("online", "local"):
            for name in tablier.games.names():
                created = new_game(first, name, mode, names=["Ann", "Bob"])
                snap = play_random(first, created, 5, seed=9)
                games[created["id"]] = (created, snap)
        # The AI plays first and is still thinking when the server stops.
        ai = new_game(first, "xobo", "ai", seat=1, ai_level="easy")
        assert wait_for(first, ai["id"], lambda s: s["ai"]["thinking"])["ply"] == 0
    fast = make_settings(database_url)
    with TestClient(create_app(fast)) as second:
        for gid, (created, snap) in games.items():
            again = second.get(f"/api/games/{gid}").json()
            for key in ("moves", "view", "last_move", "status", "ply", "spec", "mode", "result"):
                assert again[key] == snap[key], key
            assert [s["name"] for s in again["seats"]] == ["Ann", "Bob"]
            # The seat links still work after the restart.
            seat = again["view"]["to_move"]
            if again["status"] == "active":
                move = second.get(f"/api/games/{gid}/legal").json()["moves"][0]["notation"]
                token = created["tokens"].get("both") or created["tokens"][str(seat)]
                r = second.post(
                    f"/api/games/{gid}/moves",
                    json={"ply": again["ply"], "move": move},
                    headers=bearer(token),
                )
                assert r.status_code == 200, r.text
        # The AI's turn was resumed at start-up: it moves without anyone asking.
        resumed = wait_for(second, ai["id"], lambda s: s["ply"] >= 1)
        assert resumed["view"]["to_move"] == 1 or resumed["status"] != "active"


def test_operators_can_run_the_migrations(tmp_path, capsys):
    from tablier.server.migrate import main

    url = f"sqlite:///{tmp_path / 'ops.db'}"
    main(["--database-url", url])
    assert "head" in capsys.readouterr().out
    engine = make_engine(url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "0002"
    engine.dispose()


def test_the_migrations_build_exactly_the_declared_schema(storage):
    """Alembic's own comparison finds nothing between the migrated database and tables.py."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from tablier.server.tables import Base

    with storage.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": False})
        diff = compare_metadata(context, Base.metadata)
    assert diff == []


def test_migration_0002_keeps_the_games_of_0001(tmp_path):
    """A database made by the first schema, with a game in it, upgrades with the game intact."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    upgrade(engine, "0001")
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO games (id, game, spec, mode, status, ply, version, names, created,"
                " updated) VALUES ('g1', 'xobo', 'xobo', 'online', 'active', 0, 0, '[\"a\",\"b\"]',"
                " '2026-11-01 00:00:00', '2026-11-01 00:00:00')"
            )
        )
    upgrade(engine)
    with engine.connect() as conn:
        row = conn.execute(sa.text("SELECT names, rated, chat_off FROM games")).one()
    assert row[0] == '["a","b"]' and not row[1] and not row[2]
    engine.dispose()
