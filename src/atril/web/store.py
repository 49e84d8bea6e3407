"""Where games live: SQLite (one process) or PostgreSQL (several processes, LISTEN/NOTIFY).

A game is one row: an id, a version number, a JSON document, and a few columns the server
looks up without reading documents (``Index``: when it was created, last changed and finished,
its lexicon, its mode, the accounts in its seats, and ``due``, the moment the server must act
on it unasked — the computer's turn or a clock deadline). Every change is a read-modify-write
in one transaction that bumps the version; ``update`` refuses to write over a version other
than the one it read (optimistic check), and also takes a row lock (PostgreSQL ``FOR UPDATE``,
SQLite ``BEGIN IMMEDIATE``), so two simultaneous submissions can never both count.

Beside the games: accounts (``atril_users``: the name, an argon2 hash of the password, roles,
the rating and how many rated games made it), sessions (``atril_sessions``: only the SHA-256 of
each session's secret), the rating history (``atril_ratings``: one row per account and rated
game, so a game can never be rated twice) and the lobby's open seeks (``atril_seeks``).

The schema evolves by ordered migrations recorded in ``atril_schema`` (one row: the version
reached). A small versioned table rather than Alembic: two dialects, a few tables, no ORM, and
nothing else of SQLAlchemy's to carry; each migration runs once, in one transaction, under a
lock, so servers starting together on one PostgreSQL database never apply it twice.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from ..i18n import _

CHANNEL = "atril_games"
#: what a notification says instead of a version when a game was deleted (aborted).
DELETED = "deleted"
_LOCK_KEY = 4242  # PostgreSQL advisory lock for migrations and the start-up check


class NotFound(LookupError):
    """No game with that id."""


class Conflict(RuntimeError):
    """The game changed since the version the caller read."""


class StoreError(RuntimeError):
    """The database cannot be used (a missing driver, a newer schema than this program)."""


class Taken(LookupError):
    """An account with that name (ignoring case) already exists."""


@dataclass(frozen=True)
class Index:
    """The columns kept beside a game's document: ``finished`` (it is over), ``due`` (epoch
    seconds when the server must look at it unasked, or None), its ``lexicon`` id, its
    ``mode`` and the account ids in its two seats (``users``)."""

    finished: bool
    due: float | None
    lexicon: str | None
    mode: str | None = None
    users: tuple[str | None, str | None] = (None, None)


@dataclass(frozen=True)
class User:
    """An account as stored: ``password`` is the argon2 hash; ``roles`` beyond ``player``;
    ``games`` the rated games its ``rating`` comes from."""

    id: str
    name: str
    password: str
    roles: tuple[str, ...]
    rating: float
    games: int
    created: float


@dataclass(frozen=True)
class StoredGame:
    """A game as the lists read it (profiles, my games, the games being played)."""

    id: str
    doc: dict
    updated: float
    finished: float | None
    users: tuple[str | None, str | None]


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


def _backfill_mode(store: Store, cur: Any) -> None:
    """Games stored before version 3: their mode, from the document (no seat has an account)."""
    cur.execute("SELECT id, doc FROM atril_games")
    for game_id, text in cur.fetchall():
        mode = json.loads(text).get("meta", {}).get("mode")
        cur.execute(store._sql("UPDATE atril_games SET mode = ? WHERE id = ?"), (mode, game_id))


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
    (3, ["ALTER TABLE atril_games ADD COLUMN mode TEXT",
         "ALTER TABLE atril_games ADD COLUMN user0 TEXT",
         "ALTER TABLE atril_games ADD COLUMN user1 TEXT",
         "CREATE INDEX atril_games_user0 ON atril_games (user0)",
         "CREATE INDEX atril_games_user1 ON atril_games (user1)",
         "CREATE INDEX atril_games_mode ON atril_games (mode, finished)",
         "CREATE TABLE atril_users ("
         " id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,"
         " password TEXT NOT NULL, roles TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL,"
         " games INTEGER NOT NULL, created DOUBLE PRECISION NOT NULL)",
         "CREATE TABLE atril_sessions ("
         " id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES atril_users (id),"
         " created DOUBLE PRECISION NOT NULL, expires DOUBLE PRECISION NOT NULL)",
         "CREATE INDEX atril_sessions_user ON atril_sessions (user_id)",
         "CREATE TABLE atril_ratings ("
         " user_id TEXT NOT NULL REFERENCES atril_users (id), game_id TEXT NOT NULL,"
         " at DOUBLE PRECISION NOT NULL, rating DOUBLE PRECISION NOT NULL,"
         " change DOUBLE PRECISION NOT NULL, PRIMARY KEY (user_id, game_id))",
         "CREATE TABLE atril_seeks ("
         " id TEXT PRIMARY KEY, key_hash TEXT NOT NULL, seat_hash TEXT NOT NULL,"
         " user_id TEXT, name TEXT NOT NULL, rating DOUBLE PRECISION, options TEXT NOT NULL,"
         " created DOUBLE PRECISION NOT NULL, seen DOUBLE PRECISION NOT NULL, game_id TEXT)",
         _backfill_mode]),
    (4, ["CREATE TABLE atril_tournaments ("
         " id TEXT PRIMARY KEY, version INTEGER NOT NULL, doc TEXT NOT NULL,"
         " director TEXT NOT NULL REFERENCES atril_users (id),"
         " created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL)",
         "CREATE INDEX atril_tournaments_updated ON atril_tournaments (updated)"]),
    (5, ["CREATE TABLE atril_rooms ("  # duplicate rooms (web/rooms.py, web/rooms_store.py)
         " id TEXT PRIMARY KEY, code TEXT NOT NULL UNIQUE, version INTEGER NOT NULL,"
         " doc TEXT NOT NULL, director TEXT NOT NULL REFERENCES atril_users (id),"
         " phase TEXT NOT NULL, round INTEGER NOT NULL, deadline DOUBLE PRECISION,"
         " due DOUBLE PRECISION, created DOUBLE PRECISION NOT NULL,"
         " updated DOUBLE PRECISION NOT NULL)",
         "CREATE INDEX atril_rooms_due ON atril_rooms (due)",
         "CREATE TABLE atril_room_slips ("
         " room_id TEXT NOT NULL REFERENCES atril_rooms (id), round INTEGER NOT NULL,"
         " player INTEGER NOT NULL, text TEXT, received DOUBLE PRECISION NOT NULL,"
         " PRIMARY KEY (room_id, round, player))"]),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]


_USER = "id, name, password, roles, rating, games, created"
_SEEK = "id, key_hash, seat_hash, user_id, name, rating, options, created, seen, game_id"


def name_key(name: str) -> str:
    """What makes two account names the same: NFC, ignoring case."""
    return unicodedata.normalize("NFC", name).casefold()


def _user(row: Any) -> User:
    return User(row[0], row[1], row[2], tuple(row[3].split()), float(row[4]), int(row[5]),
                float(row[6]))


def _seek(row: Any) -> dict:
    return dict(zip(_SEEK.split(", "), row)) | {"options": json.loads(row[6])}


def _stored(row: Any) -> StoredGame:
    return StoredGame(row[0], json.loads(row[1]), row[2], row[3], (row[4], row[5]))


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
                "lexicon, mode, user0, user1) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                (game_id, json.dumps(doc), now, now, now if index.finished else None, index.due,
                 index.lexicon, index.mode, *index.users))
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
        def indexed(doc: dict, version: int, read: tuple) -> tuple[Any, dict[str, Any]]:
            result, index = change(doc, version)
            finished = (read[0] or time.time()) if index.finished else None
            return result, {"finished": finished, "due": index.due, "mode": index.mode,
                            "user0": index.users[0], "user1": index.users[1]}

        return self.update_document("atril_games", game_id, expected, indexed,
                                    read=("finished",), notify=True)

    def update_document(self, table: str, row_id: str, expected: int | None,
                        change: Callable[[dict, int, tuple], tuple[Any, dict[str, Any]]], *,
                        read: tuple[str, ...] = (), notify: bool = False
                        ) -> tuple[int, dict, Any]:
        """The one way a versioned JSON document (a game, a tournament, a duplicate room) is
        changed: its row locked, ``change(doc, version, the columns in read)`` run on the
        document in place, which returns its result and the other columns to store; the row
        stored as the next version, ``updated`` now. ``expected``: the version the client
        acted on (None: whatever is current). ``notify``: tell the other server processes
        (games). Returns the new version, the document and the result; raises Conflict or
        NotFound. ``table`` and the column names are the store's own, never a client's."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql(f"SELECT {', '.join(('version', 'doc', *read))} FROM {table} "
                                  "WHERE id = ?" + self._lock), (row_id,))
            row = cur.fetchone()
            if row is None:
                raise NotFound(row_id)
            version, doc = row[0], json.loads(row[1])
            if expected is not None and expected != version:
                raise Conflict(version)
            result, columns = change(doc, version, tuple(row[2:]))
            names = ("version", "doc", "updated", *columns)
            cur.execute(self._sql(f"UPDATE {table} SET {', '.join(f'{n} = ?' for n in names)} "
                                  "WHERE id = ? AND version = ?"),
                        (version + 1, json.dumps(doc), time.time(), *columns.values(), row_id,
                         version))
            if cur.rowcount != 1:
                raise Conflict(version)
            if notify:
                self._notify(cur, f"{row_id}:{version + 1}")
        return version + 1, doc, result

    def delete(self, game_id: str, check: Callable[[dict], None]) -> None:
        """Delete a game if ``check(doc)``, run under its row lock, does not raise."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql("SELECT doc FROM atril_games WHERE id = ?" + self._lock),
                        (game_id,))
            row = cur.fetchone()
            if row is None:
                raise NotFound(game_id)
            check(json.loads(row[0]))
            cur.execute(self._sql("DELETE FROM atril_games WHERE id = ?"), (game_id,))
            self._notify(cur, f"{game_id}:{DELETED}")

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """One write transaction that the store calls made inside it join."""
        with self._tx(write=True):
            yield

    def games_of(self, user_id: str, *, finished: bool | None = None,
                 limit: int | None = None) -> list[StoredGame]:
        """The games with ``user_id`` in a seat, the last changed first (``finished``: only
        those over, or only those not over)."""
        where = {None: "", True: " AND finished IS NOT NULL", False: " AND finished IS NULL"}
        with self._tx() as cur:
            cur.execute(self._sql(
                "SELECT id, doc, updated, finished, user0, user1 FROM atril_games "
                "WHERE (user0 = ? OR user1 = ?)" + where[finished] + " ORDER BY updated DESC"
                + ("" if limit is None else f" LIMIT {int(limit)}")), (user_id, user_id))
            return [_stored(row) for row in cur.fetchall()]

    def live(self, since: float, limit: int) -> list[StoredGame]:
        """Games between two people (mode ``remote``) not over and changed since ``since``,
        the last changed first."""
        with self._tx() as cur:
            cur.execute(self._sql(
                "SELECT id, doc, updated, finished, user0, user1 FROM atril_games "
                "WHERE mode = 'remote' AND finished IS NULL AND updated >= ? "
                "ORDER BY updated DESC LIMIT ?"), (since, limit))
            return [_stored(row) for row in cur.fetchall()]

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

    # -- accounts and sessions ------------------------------------------------------------------
    def add_user(self, user: User) -> None:
        """Store a new account; ``Taken`` when its name, ignoring case, is another's."""
        try:
            with self._tx(write=True) as cur:
                cur.execute(self._sql("SELECT 1 FROM atril_users WHERE name_key = ?"),
                            (name_key(user.name),))
                if cur.fetchone() is not None:
                    raise Taken(user.name)
                cur.execute(self._sql(
                    "INSERT INTO atril_users (id, name, name_key, password, roles, rating, games, "
                    "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                    (user.id, user.name, name_key(user.name), user.password, " ".join(user.roles),
                     user.rating, user.games, user.created))
        except self._duplicate:  # another process took the name at the same moment
            raise Taken(user.name) from None

    def user(self, user_id: str, *, lock: bool = False) -> User | None:
        """An account by id (``lock``: held until the transaction ends)."""
        with self._tx(write=lock) as cur:
            cur.execute(self._sql(f"SELECT {_USER} FROM atril_users WHERE id = ?"
                                  + (self._lock if lock else "")), (user_id,))
            row = cur.fetchone()
        return None if row is None else _user(row)

    def user_named(self, name: str) -> User | None:
        """An account by name, ignoring case."""
        with self._tx() as cur:
            cur.execute(self._sql(f"SELECT {_USER} FROM atril_users WHERE name_key = ?"),
                        (name_key(name),))
            row = cur.fetchone()
        return None if row is None else _user(row)

    def set_password(self, user_id: str, password: str, keep: str | None) -> None:
        """A new password hash; every session of the account ends but ``keep``."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql("UPDATE atril_users SET password = ? WHERE id = ?"),
                        (password, user_id))
            cur.execute(self._sql("DELETE FROM atril_sessions WHERE user_id = ? AND id <> ?"),
                        (user_id, keep or ""))

    def set_roles(self, user_id: str, roles: tuple[str, ...]) -> None:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("UPDATE atril_users SET roles = ? WHERE id = ?"),
                        (" ".join(roles), user_id))

    def add_session(self, session_id: str, user_id: str, expires: float) -> None:
        """A session (``session_id``: the hash of its secret) until ``expires``."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql("INSERT INTO atril_sessions (id, user_id, created, expires) "
                                  "VALUES (?, ?, ?, ?)"), (session_id, user_id, time.time(),
                                                           expires))

    def session_user(self, session_id: str, now: float) -> User | None:
        """The account of a session not expired at ``now``."""
        with self._tx() as cur:
            cur.execute(self._sql(
                "SELECT " + ", ".join("u." + c for c in _USER.split(", ")) + " FROM "
                "atril_sessions s JOIN "
                "atril_users u ON u.id = s.user_id WHERE s.id = ? AND s.expires > ?"),
                (session_id, now))
            row = cur.fetchone()
        return None if row is None else _user(row)

    def delete_session(self, session_id: str) -> None:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("DELETE FROM atril_sessions WHERE id = ?"), (session_id,))

    # -- ratings --------------------------------------------------------------------------------
    def rate(self, user_id: str, game_id: str, rating: float, change: float) -> None:
        """The account's new rating after a rated game, and its history row (the primary key
        refuses a second one for the same game)."""
        now = time.time()
        with self._tx(write=True) as cur:
            cur.execute(self._sql("UPDATE atril_users SET rating = ?, games = games + 1 "
                                  "WHERE id = ?"), (rating, user_id))
            cur.execute(self._sql("INSERT INTO atril_ratings (user_id, game_id, at, rating, "
                                  "change) VALUES (?, ?, ?, ?, ?)"),
                        (user_id, game_id, now, rating, change))

    def rating_history(self, user_id: str) -> list[tuple[float, float, str]]:
        """(when, rating after, game id) of every rated game of the account, oldest first."""
        with self._tx() as cur:
            cur.execute(self._sql("SELECT at, rating, game_id FROM atril_ratings "
                                  "WHERE user_id = ? ORDER BY at"), (user_id,))
            return [(r[0], r[1], r[2]) for r in cur.fetchall()]

    # -- the lobby's seeks ----------------------------------------------------------------------
    def add_seek(self, seek: dict) -> None:
        """An open seek: ``id``, ``key_hash``, ``seat_hash``, ``user_id``, ``name``,
        ``rating``, ``options`` (a dict)."""
        now = time.time()
        with self._tx(write=True) as cur:
            cur.execute(self._sql(
                "INSERT INTO atril_seeks (id, key_hash, seat_hash, user_id, name, rating, "
                "options, created, seen, game_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)"),
                (seek["id"], seek["key_hash"], seek["seat_hash"], seek["user_id"], seek["name"],
                 seek["rating"], json.dumps(seek["options"]), now, now))

    def seeks(self, since: float) -> list[dict]:
        """The open seeks whose seeker has looked since ``since``, oldest first."""
        with self._tx() as cur:
            cur.execute(self._sql(f"SELECT {_SEEK} FROM atril_seeks WHERE game_id IS NULL AND "
                                  "seen >= ? ORDER BY created"), (since,))
            return [_seek(row) for row in cur.fetchall()]

    def seek(self, seek_id: str, *, seen: float | None = None, lock: bool = False
             ) -> dict | None:
        """A seek by id (``seen``: the seeker looks now; ``lock``: held until the transaction
        ends)."""
        with self._tx(write=lock or seen is not None) as cur:
            if seen is not None:
                cur.execute(self._sql("UPDATE atril_seeks SET seen = ? WHERE id = ?"),
                            (seen, seek_id))
            cur.execute(self._sql(f"SELECT {_SEEK} FROM atril_seeks WHERE id = ?"
                                  + (self._lock if lock else "")), (seek_id,))
            row = cur.fetchone()
        return None if row is None else _seek(row)

    def seek_accepted(self, seek_id: str, game_id: str) -> None:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("UPDATE atril_seeks SET game_id = ? WHERE id = ?"),
                        (game_id, seek_id))

    def delete_seek(self, seek_id: str) -> None:
        with self._tx(write=True) as cur:
            cur.execute(self._sql("DELETE FROM atril_seeks WHERE id = ?"), (seek_id,))

    def expire_sessions(self, now: float, seeks_unseen_since: float) -> None:
        """Delete expired sessions and the seeks nobody has looked at since
        ``seeks_unseen_since``."""
        with self._tx(write=True) as cur:
            cur.execute(self._sql("DELETE FROM atril_sessions WHERE expires <= ?"), (now,))
            cur.execute(self._sql("DELETE FROM atril_seeks WHERE seen < ?"),
                        (seeks_unseen_since,))

    # -- tournaments (web/tournaments.py): one versioned JSON document each ----------------------
    def create_tournament(self, tournament_id: str, doc: dict, director: str) -> None:
        now = time.time()
        with self._tx(write=True) as cur:
            cur.execute(self._sql("INSERT INTO atril_tournaments (id, version, doc, director, "
                                  "created, updated) VALUES (?, 1, ?, ?, ?, ?)"),
                        (tournament_id, json.dumps(doc), director, now, now))

    def load_tournament(self, tournament_id: str) -> tuple[int, dict, str]:
        """(version, document, the director's account id); NotFound."""
        with self._tx() as cur:
            cur.execute(self._sql("SELECT version, doc, director FROM atril_tournaments "
                                  "WHERE id = ?"), (tournament_id,))
            row = cur.fetchone()
        if row is None:
            raise NotFound(tournament_id)
        return row[0], json.loads(row[1]), row[2]

    def update_tournament(self, tournament_id: str, expected: int | None,
                          change: Callable[[dict, int], Any]) -> tuple[int, dict, Any]:
        """As ``update`` for a game: ``change(doc, version)`` in place under the row lock,
        stored as the next version; Conflict (``expected`` is not the version) or NotFound."""
        return self.update_document("atril_tournaments", tournament_id, expected,
                                    lambda doc, version, _read: (change(doc, version), {}))

    def tournaments(self, limit: int) -> list[tuple[str, int, dict, float]]:
        """(id, version, document, updated) of the last changed tournaments."""
        with self._tx() as cur:
            cur.execute(self._sql("SELECT id, version, doc, updated FROM atril_tournaments "
                                  "ORDER BY updated DESC LIMIT ?"), (limit,))
            return [(r[0], r[1], json.loads(r[2]), r[3]) for r in cur.fetchall()]

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
    _duplicate: type[Exception] | tuple[type[Exception], ...] = ()  # a unique key refused

    def _sql(self, text: str) -> str:
        return text

    def _lock_all(self, cur: Any) -> None:
        """Serialise with other processes for the rest of the transaction (PostgreSQL only;
        SQLite's ``BEGIN IMMEDIATE`` already does)."""

    def _notify(self, cur: Any, payload: str) -> None:
        """Tell other processes (PostgreSQL only): ``game_id:version`` or ``game_id:deleted``."""

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

    _duplicate = sqlite3.IntegrityError

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
        from psycopg.errors import UniqueViolation

        self._duplicate = UniqueViolation
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

    def _notify(self, cur: Any, payload: str) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

    @contextmanager
    def _begin(self, write: bool) -> Iterator[Any]:
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            yield cur

    def close(self) -> None:
        self._pool.close()
