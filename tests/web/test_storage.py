"""Issue 10, item 8: storage that can evolve — a schema version with ordered migrations, the
timestamps and the expiry of abandoned games, and a PostgreSQL pool that survives a restart."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
import time

import pytest
from starlette.testclient import TestClient
from test_web_api import act, mover, new_game, view

from atril.game import Game
from atril.web.app import create_app
from atril.web.store import SCHEMA_VERSION, StoreError, open_store


def test_a_new_database_is_at_the_latest_schema(db_url):
    store = open_store(db_url)
    try:
        assert store.schema_version() == SCHEMA_VERSION
    finally:
        store.close()
    store = open_store(db_url)  # opening again migrates nothing
    try:
        assert store.schema_version() == SCHEMA_VERSION
    finally:
        store.close()


def test_a_database_of_the_first_version_is_migrated_and_its_games_play_on(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)  # as atril stored games before schema versions
    conn.execute("CREATE TABLE atril_games (id TEXT PRIMARY KEY, version INTEGER NOT NULL, "
                 "doc TEXT NOT NULL)")
    conn.execute("CREATE TABLE atril_lexicons (id TEXT PRIMARY KEY, name TEXT NOT NULL, "
                 "words TEXT NOT NULL)")
    game = Game(["Ana", "Luis"], seed=7, first=None)
    game.lexicon = None
    data = game.to_dict()
    data["lexicon"] = "ES09"
    tokens = {"0": "ficha-de-ana", "1": "ficha-de-luis"}
    meta = {"mode": "remote", "computer": None, "clock_waiting": None,
            "tokens": {s: hashlib.sha256(t.encode()).hexdigest() for s, t in tokens.items()}}
    conn.execute("INSERT INTO atril_games VALUES ('viejo', 3, ?)",
                 (json.dumps({"meta": meta, "game": data}),))
    conn.commit()
    conn.close()
    with TestClient(create_app(f"sqlite:///{path}")) as client:
        assert client.app.state.store.schema_version() == SCHEMA_VERSION
        state = view(client, "viejo", tokens["0"])
        assert state["version"] == 3 and state["players"][0]["name"] == "Ana"
        token, _ = mover(client, "viejo", tokens)
        assert act(client, "viejo", token, "pass").status_code == 200
    row = sqlite3.connect(path).execute(
        "SELECT created, updated, finished, lexicon FROM atril_games").fetchone()
    assert row[0] and row[1] >= row[0] and row[2] is None and row[3] == "ES09"


def test_a_database_of_a_newer_atril_is_refused(tmp_path):
    path = tmp_path / "new.sqlite3"
    open_store(f"sqlite:///{path}").close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE atril_schema SET version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="más nueva"):
        open_store(f"sqlite:///{path}")


def test_timestamps_and_the_expiry_of_abandoned_games(client):
    store = client.app.state.store
    finished_id, tokens = new_game(client)
    for _ in range(4):
        who, state = mover(client, finished_id, tokens)
        if state["over"]:
            break
        act(client, finished_id, who, "pass")
    abandoned_id, _ = new_game(client)
    lexicon = view(client, finished_id, tokens["0"])["lexicon"]
    unfinished = store.unfinished()  # (the PostgreSQL test database holds other tests' games)
    assert abandoned_id in unfinished and finished_id not in unfinished
    now = time.time()
    store.expire(now - 3600, now - 3600)  # nothing of this test is an hour old
    assert client.get(f"/api/partidas/{abandoned_id}").status_code == 200
    games, _ = store.expire(now + 1, now + 1)  # as if a month had passed
    assert games >= 1
    assert client.get(f"/api/partidas/{abandoned_id}").status_code == 404
    assert view(client, finished_id, tokens["0"])["over"] is not None
    assert store.get_lexicon(lexicon) is not None  # still used by the finished game


def test_a_postgresql_restart_costs_no_request_an_error(pg_url):
    import psycopg

    with TestClient(create_app(pg_url, test_seeds=True, rate_limits=False)) as client:
        game_id, tokens = new_game(client)
        assert view(client, game_id, tokens["0"])
        name = pg_url.rsplit("/", 1)[1]
        with psycopg.connect(pg_url, autocommit=True) as conn:  # every connection is cut
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE datname = %s AND pid <> pg_backend_pid()", (name,))
        for _ in range(8):
            assert client.get(f"/api/partidas/{game_id}?t={tokens['0']}").status_code == 200


def test_postgresql_needs_its_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg_pool", None)
    with pytest.raises(StoreError, match=r"atril\[postgresql\]"):
        open_store("postgresql://nadie@127.0.0.1:1/nada")
