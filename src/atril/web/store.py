"""Where games live: SQLite (one process) or PostgreSQL (several processes, LISTEN/NOTIFY).

A game is one row: an id, a version number, a JSON document, and a few columns the server
looks up without reading documents (``Index``: when it was created, last changed and finished,
its lexicon, and ``due``, the moment the server must act on it unasked — the computer's turn or
a clock deadline). Every change is a read-modify-write in one transaction that bumps the
version; ``update`` refuses to write over a version other than the one it read (optimistic
check), and also takes a row lock (PostgreSQL ``FOR UPDATE``, SQLite ``BEGIN IMMEDIATE``), so
two simultaneous submissions can never both count.

The schema evolves by ordered migrations recorded in ``atril_schema`` (one row: the version
reached). A small versioned table rather than Alembic: two dialects, three tables, no ORM, and
nothing else of SQLAlchemy's to carry; each migration runs once, in one transaction, under a
lock, so servers starting together on one PostgreSQL database never apply it twice.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from ..i18n import _

CHANNEL = "atril_games"
_LOCK_KEY = 4242  # PostgreSQL advisory lock for migrations and the start-up check


class NotFound(LookupError):
    """No game with that id."""


class Conflict(RuntimeError):
    """The game changed since the version the caller read."""


class StoreError(RuntimeError):
    """The database cannot be used (a missing driver, a newer schema than this program)."""


@dataclass(frozen=True)
class Index:
    """The columns kept beside a game's document: ``finished`` (it is over), ``due`` (epoch
    seconds when the server must look at it unasked, or None) and its ``lexicon`` id."""

    finished: bool
    due: float | None
    lexicon: str | None


# -- migrations: (version, statements); a statement is SQL text or a function of the cursor ----
def _backfill_index(store: Store, cur: Any) -> None:
    """Games stored before version 2: created and updated now, finished if they have a result,
    the lexicon from the document, and due now (the server looks at each once)."""
    now = time.time()
    cur.execute("SELECT id, doc FROM atril_games")
    rows = cur.fetchall()
    for game_id, text in rows:
        doc = json.loads(text)
        data = doc.get("game", {})
        finished = now if data.get("result") else None
        cur.execute(store._sql("UPDATE atril_games SET created = ?, updated = ?, finished = ?, "
                               "due = ?, lexicon = ? WHERE id = ?"),
                    (now, now, finished, None if finished else now, data.get("lexicon"), game_id))
    cur.execute(store._sql("UPDATE atril_lexicons SET created = ?, used = ?"), (now, now))


MIGRATIONS: list[tuple[int, list[str | Callable[[Store, Any], None]]]] = [
    (1, ["CREATE TABLE IF NOT EXISTS atril_games ("
         " id TEXT PRIMARY KEY, version INTEGER NOT NULL, doc TEXT NOT NULL)",
         "CREATE TABLE IF NOT EXISTS atril_lexicons ("
         " id TEXT PRIMARY KEY, name TEXT NOT NULL, words TEXT NOT NULL)"]),
    (2, ["ALTER TABLE atril_games ADD COLUMN created DOUBLE PRECISION",
         "ALTER TABLE atril_games ADD COLUMN updated DOUBLE PRECISION",
         "ALTER TABLE atril_games ADD COLUMN finished DOUBLE PRECISION",
         "ALTER TABLE atril_games ADD COLUMN due DOUBLE PRECISION",
         "ALTER TABLE atril_games ADD COLUMN lexicon TEXT",
         "ALTER TABLE atril_lexicons ADD COLUMN created DOUBLE PRECISION",
         "ALTER TABLE atril_lexicons ADD COLUMN used DOUBLE PRECISION",
         "CREATE INDEX atril_games_due ON atril_games (due)",
         "CREATE INDEX atril_games_updated ON atril_games (updated)",
         "CREATE INDEX atril_games_lexicon ON atril_games (lexicon)",
         "CREATE TABLE atril_server (name TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL)",
         _backfill_index]),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]


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
    _local: threading.local  # the transaction this thread is in, if any

    # -- games ----------------------------------------------------------------------------------
    def create(self, game_id: str, doc: dict, index: Index) -> None:
        now = time.time()
        with self._tx(write=True) as cur:
            cur.execute(self._sql(
                "INSERT INTO atril_games (id, version, doc, created, updated, finished, due, "
                "lexicon) VALUES (?, 1, ?, ?, ?, ?, ?, ?)"),
                (game_id, json.dumps(doc), now, now, now if index.finished else None, index.due,
                 index.lexicon))
            if index.lexicon is not None:
                cur.execute(self._sql("UPDATE atril_lexicons SET used = ? WHERE id = ?"),
                            (now, index.lexicon))

    def load(self, game_id: str) -> tuple[int, dict]:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT version, doc FROM atril_games WHERE id = ?"), (game_id,))
            row = cur.fetchone()
        if row is None:
            raise NotFound(game_id)
        return row[0], json.loads(row[1])

    def update(self, game_id: str, expected: int | None,
               change: Callable[[dict, int], tuple[Any, Index]]) -> tuple[int, dict, Any]:
        """Apply ``change(doc, version)`` in place under a row lock; store it as the next version
        with the ``Index`` it returns beside its result.

        ``expected`` is the version the client acted on (None: whatever is current). Returns the
        new version, the document and what ``change`` returned; raises Conflict or NotFound."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql("SELECT version, doc, finished FROM atril_games WHERE id = ?"
                                  + self._lock), (game_id,))
            row = cur.fetchone()
            if row is None:
                raise NotFound(game_id)
            version, doc, finished = row[0], json.loads(row[1]), row[2]
            if expected is not None and expected != version:
                raise Conflict(version)
            result, index = change(doc, version)
            now = time.time()
            if index.finished:
                finished = finished or now
            cur.execute(self._sql("UPDATE atril_games SET version = ?, doc = ?, updated = ?, "
                                  "finished = ?, due = ? WHERE id = ? AND version = ?"),
                        (version + 1, json.dumps(doc), now, finished if index.finished else None,
                         index.due, game_id, version))
            if cur.rowcount != 1:
                raise Conflict(version)
            self._notify(cur, game_id, version + 1)
        return version + 1, doc, result

    def due(self, now: float, limit: int = 50) -> list[tuple[str, float]]:
        """Games whose ``due`` moment has come, soonest first: (id, due)."""
        with self._tx() as cur:
            cur.execute(self._sql("SELECT id, due FROM atril_games WHERE due IS NOT NULL AND "
                                  "due <= ? ORDER BY due LIMIT ?"), (now, limit))
            return [(r[0], r[1]) for r in cur.fetchall()]

    def claim(self, game_id: str, seen: float, until: float) -> bool:
        """Take the wake-up of a game for this process: move its ``due`` from the value ``seen``
        to ``until`` (a lease). False when another process took it first."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql("UPDATE atril_games SET due = ? WHERE id = ? AND due = ?"),
                        (until, game_id, seen))
            return cur.rowcount == 1

    def set_due(self, game_id: str, version: int, due: float | None) -> None:
        """Set ``due`` as worked out from ``version``, unless the game has changed since."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql("UPDATE atril_games SET due = ? WHERE id = ? AND version = ?"),
                        (due, game_id, version))

    def unfinished(self) -> list[str]:
        """Ids of every game not over yet."""
        with self._tx() as cur:
            cur.execute("SELECT id FROM atril_games WHERE finished IS NULL")
            return [r[0] for r in cur.fetchall()]

    def expire(self, abandoned_before: float, lexicons_unused_before: float) -> tuple[int, int]:
        """Delete games not finished and untouched since ``abandoned_before``, then uploaded
        lists that no stored game uses and nobody used since ``lexicons_unused_before``.
        Returns how many of each went."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql("DELETE FROM atril_games WHERE finished IS NULL AND "
                                  "updated < ?"), (abandoned_before,))
            games = cur.rowcount
            cur.execute(self._sql(
                "DELETE FROM atril_lexicons WHERE used < ? AND id NOT IN "
                "(SELECT lexicon FROM atril_games WHERE lexicon IS NOT NULL)"),
                (lexicons_unused_before,))
            return games, cur.rowcount

    # -- uploaded word lists --------------------------------------------------------------------
    def put_lexicon(self, lex_id: str, name: str, words: str) -> None:
        now = time.time()
        with self._tx(write=True) as cur:
            cur.execute(self._sql("SELECT 1 FROM atril_lexicons WHERE id = ?"), (lex_id,))
            if cur.fetchone() is None:
                cur.execute(self._sql("INSERT INTO atril_lexicons (id, name, words, created, "
                                      "used) VALUES (?, ?, ?, ?, ?)"),
                            (lex_id, name, words, now, now))
            else:
                cur.execute(self._sql("UPDATE atril_lexicons SET used = ? WHERE id = ?"),
                            (now, lex_id))

    def get_lexicon(self, lex_id: str) -> tuple[str, str] | None:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT name, words FROM atril_lexicons WHERE id = ?"), (lex_id,))
            row = cur.fetchone()
        return (row[0], row[1]) if row else None

    # -- the server's own records ---------------------------------------------------------------
    def beat(self, now: float) -> float | None:
        """Record that a server is alive now; returns the previous heartbeat (None: first)."""
        with self._tx(write=True) as cur:
            self._lock_all(cur)
            cur.execute(self._sql("SELECT at FROM atril_server WHERE name = ?"), ("heartbeat",))
            row = cur.fetchone()
            if row is None:
                cur.execute(self._sql("INSERT INTO atril_server (name, at) VALUES (?, ?)"),
                            ("heartbeat", now))
                return None
            cur.execute(self._sql("UPDATE atril_server SET at = ? WHERE name = ?"),
                        (max(now, row[0]), "heartbeat"))
            return row[0]

    def schema_version(self) -> int:
        with self._tx() as cur:
            cur.execute("SELECT version FROM atril_schema")
            return cur.fetchone()[0]

    # -- migrations -----------------------------------------------------------------------------
    def _migrate(self) -> None:
        with self._tx(write=True) as cur:
            self._lock_all(cur)
            cur.execute("CREATE TABLE IF NOT EXISTS atril_schema (version INTEGER NOT NULL)")
            cur.execute("SELECT version FROM atril_schema")
            row = cur.fetchone()
            if row is None:
                cur.execute("INSERT INTO atril_schema (version) VALUES (0)")
            current = row[0] if row else 0
            if current > SCHEMA_VERSION:
                raise StoreError(_("la base de datos es de una versión más nueva de atril "
                                   "(esquema {schema}; este programa llega al {known})").format(
                                       schema=current, known=SCHEMA_VERSION))
            for version, steps in MIGRATIONS:
                if version <= current:
                    continue
                for step in steps:
                    if callable(step):
                        step(self, cur)
                    else:
                        cur.execute(step)
                cur.execute(self._sql("UPDATE atril_schema SET version = ?"), (version,))

    # -- dialect hooks --------------------------------------------------------------------------
    _lock = ""

    def _sql(self, text: str) -> str:
        return text

    def _lock_all(self, cur: Any) -> None:
        """Serialise with other processes for the rest of the transaction (PostgreSQL only;
        SQLite's ``BEGIN IMMEDIATE`` already does)."""

    def _notify(self, cur: Any, game_id: str, version: int) -> None:
        """Tell other processes (PostgreSQL only)."""

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[Any]:
        """A transaction; inside another one on the same thread (a lexicon read while a game
        is changed under its row lock) it joins that one instead of waiting for a second
        connection the outer one may be holding."""
        local = self._local
        if getattr(local, "cur", None) is not None:
            yield local.cur
            return
        with self._begin(write) as cur:
            local.cur = cur
            try:
                yield cur
            finally:
                local.cur = None

    @contextmanager
    def _begin(self, write: bool) -> Iterator[Any]:
        raise NotImplementedError

    def close(self) -> None:
        """Release connections."""


class SqliteStore(Store):
    """One file, one connection guarded by a lock (SQLite serialises writers anyway)."""

    def __init__(self, path: str):
        self.url = f"sqlite:///{path}"
        self._local = threading.local()
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA busy_timeout=5000")
        self._mutex = threading.Lock()
        self._closed = False
        self._migrate()

    @contextmanager
    def _begin(self, write: bool) -> Iterator[sqlite3.Cursor]:
        with self._mutex:
            if self._closed:
                raise StoreError(_("la base de datos ya está cerrada"))
            cur = self._conn.cursor()
            cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")

    def close(self) -> None:
        """Close once no transaction is running (a thread may still be finishing one)."""
        with self._mutex:
            self._closed = True
            self._conn.close()


class PostgresStore(Store):
    """A ``psycopg_pool`` pool: every connection is checked before use, so a PostgreSQL restart
    costs no request an error; each change sends ``NOTIFY atril_games``."""

    shared = True
    _lock = " FOR UPDATE"

    def __init__(self, url: str, size: int = 8):
        try:
            from psycopg_pool import ConnectionPool
        except ImportError:
            raise StoreError(_("para usar PostgreSQL instala el extra: {command}").format(
                command="pip install 'atril[postgresql]'")) from None
        self.url = url
        self._local = threading.local()
        self._pool = ConnectionPool(url, min_size=1, max_size=size, open=True,
                                    check=ConnectionPool.check_connection, timeout=30,
                                    name="atril")
        self._migrate()

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s")

    def _lock_all(self, cur: Any) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))

    def _notify(self, cur: Any, game_id: str, version: int) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:{version}"))

    @contextmanager
    def _begin(self, write: bool) -> Iterator[Any]:
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            yield cur

    def close(self) -> None:
        self._pool.close()
