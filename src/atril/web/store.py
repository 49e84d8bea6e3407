"""Where games live: SQLite (one process) or PostgreSQL (several processes, LISTEN/NOTIFY).

A game is one row: an id, a version number and a JSON document. Every change is a
read-modify-write in one transaction that bumps the version; ``update`` refuses to write over a
version other than the one it read (optimistic check), and also takes a row lock (PostgreSQL
``FOR UPDATE``, SQLite ``BEGIN IMMEDIATE``), so two simultaneous submissions can never both count.
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import platformdirs

CHANNEL = "atril_games"

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS atril_games ("
    " id TEXT PRIMARY KEY, version INTEGER NOT NULL, doc TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS atril_lexicons ("
    " id TEXT PRIMARY KEY, name TEXT NOT NULL, words TEXT NOT NULL)",
)


class NotFound(LookupError):
    """No game with that id."""


class Conflict(RuntimeError):
    """The game changed since the version the caller read."""


def default_url() -> str:
    """``ATRIL_DB`` if set, else a SQLite file in the user data directory."""
    env = os.environ.get("ATRIL_DB")
    if env:
        return env
    path = Path(platformdirs.user_data_dir("atril")) / "partidas.sqlite3"
    return f"sqlite:///{path}"


def open_store(url: str | None = None) -> Store:
    """A store for ``sqlite:///path``, a bare file path, or ``postgresql://...``."""
    url = url or default_url()
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    path = url.removeprefix("sqlite:///").removeprefix("sqlite://")
    return SqliteStore(path)


class Store:
    """The common interface; subclasses provide a connection and the SQL dialect."""

    url: str
    shared = False  # True when other processes may write (then listen for notifications)

    def create(self, game_id: str, doc: dict) -> None:
        with self._tx() as cur:
            cur.execute(self._sql("INSERT INTO atril_games (id, version, doc) VALUES (?, 1, ?)"),
                        (game_id, json.dumps(doc)))

    def load(self, game_id: str) -> tuple[int, dict]:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT version, doc FROM atril_games WHERE id = ?"), (game_id,))
            row = cur.fetchone()
        if row is None:
            raise NotFound(game_id)
        return row[0], json.loads(row[1])

    def update(self, game_id: str, expected: int | None,
               change: Callable[[dict, int], Any]) -> tuple[int, dict, Any]:
        """Apply ``change(doc, version)`` in place under a row lock; store it as the next version.

        ``expected`` is the version the client acted on (None: whatever is current). Returns the
        new version, the document and what ``change`` returned; raises Conflict or NotFound."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql("SELECT version, doc FROM atril_games WHERE id = ?"
                                  + self._lock), (game_id,))
            row = cur.fetchone()
            if row is None:
                raise NotFound(game_id)
            version, doc = row[0], json.loads(row[1])
            if expected is not None and expected != version:
                raise Conflict(version)
            result = change(doc, version)
            cur.execute(self._sql("UPDATE atril_games SET version = ?, doc = ? "
                                  "WHERE id = ? AND version = ?"),
                        (version + 1, json.dumps(doc), game_id, version))
            if cur.rowcount != 1:
                raise Conflict(version)
            self._notify(cur, game_id, version + 1)
        return version + 1, doc, result

    def put_lexicon(self, lex_id: str, name: str, words: str) -> None:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("SELECT 1 FROM atril_lexicons WHERE id = ?"), (lex_id,))
            if cur.fetchone() is None:
                cur.execute(self._sql("INSERT INTO atril_lexicons (id, name, words) "
                                      "VALUES (?, ?, ?)"), (lex_id, name, words))

    def get_lexicon(self, lex_id: str) -> tuple[str, str] | None:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT name, words FROM atril_lexicons WHERE id = ?"), (lex_id,))
            row = cur.fetchone()
        return (row[0], row[1]) if row else None

    # -- dialect hooks ------------------------------------------------------------------------
    _lock = ""

    def _sql(self, text: str) -> str:
        return text

    def _notify(self, cur, game_id: str, version: int) -> None:
        """Tell other processes (PostgreSQL only)."""

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[Any]:
        raise NotImplementedError

    def close(self) -> None:
        """Release connections."""


class SqliteStore(Store):
    """One file, one connection guarded by a lock (SQLite serialises writers anyway)."""

    def __init__(self, path: str):
        self.url = f"sqlite:///{path}"
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA busy_timeout=5000")
        self._mutex = threading.Lock()
        for stmt in _SCHEMA:
            self._conn.execute(stmt)

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[sqlite3.Cursor]:
        with self._mutex:
            cur = self._conn.cursor()
            cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")

    def close(self) -> None:
        self._conn.close()


class PostgresStore(Store):
    """A small pool of psycopg 3 connections; each change sends ``NOTIFY atril_games``."""

    shared = True
    _lock = " FOR UPDATE"

    def __init__(self, url: str, size: int = 8):
        import psycopg

        self.url = url
        self._psycopg = psycopg
        self._pool: queue.LifoQueue = queue.LifoQueue()
        self._size = size
        self._made = 0
        self._made_lock = threading.Lock()
        with self._tx(write=True) as cur:
            cur.execute("SELECT pg_advisory_xact_lock(4242)")  # servers starting together
            for stmt in _SCHEMA:
                cur.execute(stmt)

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s")

    def _notify(self, cur, game_id: str, version: int) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:{version}"))

    def _get(self):
        try:
            return self._pool.get_nowait()
        except queue.Empty:
            pass
        with self._made_lock:
            make = self._made < self._size
            if make:
                self._made += 1
        if make:
            return self._psycopg.connect(self.url)
        return self._pool.get()

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[Any]:
        conn = self._get()
        try:
            with conn.transaction(), conn.cursor() as cur:
                yield cur
        finally:
            if conn.broken or conn.closed:
                conn.close()
                with self._made_lock:
                    self._made -= 1
            else:
                self._pool.put(conn)

    def close(self) -> None:
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                return
