"""Where duplicate rooms live (migration 5 in ``store.MIGRATIONS``): one row per room in
``atril_rooms`` and one per player and round in ``atril_room_slips``.

A room is a versioned JSON document, like a game (``rooms.py`` says what it holds), with the
columns the server reads without parsing it: the ``phase``, the ``round`` and its ``deadline``
(epoch seconds, the server's clock), and ``due`` (when the server must act unasked: close the
round, or start the next one). The plays of the open round are **not** in the document: each
submission is one upsert into ``atril_room_slips`` (the text and when the server received it),
so two hundred players submitting together never rewrite the room, only their own row. The
upsert runs under a shared lock of the room row and only while the room is still in that round
with a deadline after the moment of receipt; closing the round takes the exclusive lock, so a
submission either counts, stored before the close, or is refused.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .store import NotFound, Store

PLAYING = "playing"


@dataclass(frozen=True)
class RoomRow:
    """The columns kept beside a room's document."""

    phase: str
    round: int
    deadline: float | None
    due: float | None


class RoomStore:
    """The rooms of one store (SQLite or PostgreSQL, through the store's own transactions)."""

    def __init__(self, store: Store):
        self.store = store
        # a shared row lock for submissions (PostgreSQL); SQLite serialises writers anyway
        self._share = " FOR SHARE" if store._lock else ""

    def _sql(self, text: str) -> str:
        return self.store._sql(text)

    def create(self, room_id: str, code: str, doc: dict, director: str, row: RoomRow) -> None:
        now = time.time()
        with self.store._tx(write=True) as cur:
            cur.execute(self._sql(
                "INSERT INTO atril_rooms (id, code, version, doc, director, phase, round, "
                "deadline, due, created, updated) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)"),
                (room_id, code, json.dumps(doc), director, row.phase, row.round, row.deadline,
                 row.due, now, now))

    def load(self, room_id: str) -> tuple[int, dict]:
        with self.store._tx() as cur:
            cur.execute(self._sql("SELECT version, doc FROM atril_rooms WHERE id = ?"),
                        (room_id,))
            row = cur.fetchone()
        if row is None:
            raise NotFound(room_id)
        return row[0], json.loads(row[1])

    def by_code(self, code: str) -> str | None:
        with self.store._tx() as cur:
            cur.execute(self._sql("SELECT id FROM atril_rooms WHERE code = ?"), (code,))
            row = cur.fetchone()
        return None if row is None else row[0]

    def code_taken(self, code: str) -> bool:
        return self.by_code(code) is not None

    def update(self, room_id: str, expected: int | None,
               change: Callable[[dict, int], tuple[Any, RoomRow]]) -> tuple[int, dict, Any]:
        """``change(doc, version)`` in place under the room's row lock, stored as the next
        version with the columns it returns; Conflict or NotFound."""
        def with_row(doc: dict, version: int, _read: tuple) -> tuple[Any, dict[str, Any]]:
            result, row = change(doc, version)
            return result, {"phase": row.phase, "round": row.round, "deadline": row.deadline,
                            "due": row.due}

        return self.store.update_document("atril_rooms", room_id, expected, with_row)

    # -- the open round's plays -----------------------------------------------------------------
    def put_slip(self, room_id: str, number: int, player: int, text: str | None,
                 received: float, *, check_deadline: bool = True) -> bool:
        """Store ``player``'s play for round ``number`` (replacing an earlier one) if the room
        is still playing that round and, with ``check_deadline``, its deadline is after
        ``received``; False when it is not (the round closed, or the time was up)."""
        with self.store._tx(write=True) as cur:
            cur.execute(self._sql("SELECT phase, round, deadline FROM atril_rooms WHERE id = ?"
                                  + self._share), (room_id,))
            row = cur.fetchone()
            if row is None:
                raise NotFound(room_id)
            phase, current, deadline = row
            if phase != PLAYING or current != number or (
                    check_deadline and (deadline is None or received >= deadline)):
                return False
            cur.execute(self._sql(
                "INSERT INTO atril_room_slips (room_id, round, player, text, received) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (room_id, round, player) DO UPDATE SET "
                "text = excluded.text, received = excluded.received"),
                (room_id, number, player, text, received))
            return True

    def slips(self, room_id: str, number: int) -> dict[int, tuple[str | None, float]]:
        """Every player's stored play of a round: player → (text, when received)."""
        with self.store._tx() as cur:
            cur.execute(self._sql("SELECT player, text, received FROM atril_room_slips "
                                  "WHERE room_id = ? AND round = ?"), (room_id, number))
            return {r[0]: (r[1], r[2]) for r in cur.fetchall()}

    def slip(self, room_id: str, number: int, player: int) -> tuple[str | None, float] | None:
        with self.store._tx() as cur:
            cur.execute(self._sql("SELECT text, received FROM atril_room_slips WHERE "
                                  "room_id = ? AND round = ? AND player = ?"),
                        (room_id, number, player))
            row = cur.fetchone()
        return None if row is None else (row[0], row[1])

    def count(self, room_id: str, number: int) -> int:
        """How many players have handed in a play for the round."""
        with self.store._tx() as cur:
            cur.execute(self._sql("SELECT COUNT(*) FROM atril_room_slips WHERE room_id = ? "
                                  "AND round = ? AND text IS NOT NULL"), (room_id, number))
            return int(cur.fetchone()[0])

    # -- what the server watches ----------------------------------------------------------------
    def due(self, now: float, limit: int = 50) -> list[str]:
        """Rooms whose ``due`` moment has come, soonest first."""
        with self.store._tx() as cur:
            cur.execute(self._sql("SELECT id FROM atril_rooms WHERE due IS NOT NULL AND "
                                  "due <= ? ORDER BY due LIMIT ?"), (now, limit))
            return [r[0] for r in cur.fetchall()]

    def versions(self, room_ids: list[str]) -> dict[str, int]:
        """The current version of each of ``room_ids`` (a room another process changed)."""
        if not room_ids:
            return {}
        marks = ", ".join("?" for _ in room_ids)
        with self.store._tx() as cur:
            cur.execute(self._sql(f"SELECT id, version FROM atril_rooms WHERE id IN ({marks})"),
                        tuple(room_ids))
            return {r[0]: r[1] for r in cur.fetchall()}
