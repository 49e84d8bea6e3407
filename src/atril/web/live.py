"""Live updates: the WebSocket clients of each game, and PostgreSQL LISTEN for other processes.

After a change this process calls ``Hub.publish`` itself; with PostgreSQL a listener task also
publishes the changes other server processes announce with NOTIFY. Each client gets the view of
its own seat, so no rack it may not see ever leaves the server, in the language it connected
with.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from ..i18n import current, use
from .store import CHANNEL, DELETED, NotFound, Store

log = logging.getLogger("atril.web")

#: ``render(game_id, version, doc)`` gives a function from a seat to what that seat sees (its
#: texts in the current language).
RenderFn = Callable[[str, int, dict], Callable[[Any], dict]]


class Hub:
    """Connected WebSockets per game, each with the seat it speaks for (None = spectator) and
    its language."""

    def __init__(self, store: Store, render: RenderFn):
        self.store = store
        self.render = render
        self.clients: dict[str, dict[WebSocket, tuple[int | None, str]]] = defaultdict(dict)
        self.sent: dict[str, int] = {}  # the last version broadcast per game
        self._locks: dict[str, asyncio.Lock] = {}

    def join(self, game_id: str, ws: WebSocket, seat: int | None, lang: str | None = None
             ) -> None:
        """A client of ``game_id`` for ``seat``, spoken to in ``lang`` (by default, the
        language of the request it connected with)."""
        self.clients[game_id][ws] = (seat, lang or current())

    def leave(self, game_id: str, ws: WebSocket) -> None:
        clients = self.clients.get(game_id)
        if clients is not None:
            clients.pop(ws, None)
            if not clients:
                del self.clients[game_id]
                self.sent.pop(game_id, None)
                self._locks.pop(game_id, None)

    async def publish(self, game_id: str, version: int, doc: dict | None = None) -> None:
        """Send every client of the game its view of ``version`` (once per version). One
        publication at a time per game: views go out in version order, and a publication that
        finds its version already sent returns only once it has been (so the sender's
        ``done`` never overtakes the state it announces)."""
        if not self.clients.get(game_id):
            return
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            clients = self.clients.get(game_id)
            if not clients or self.sent.get(game_id, 0) >= version:
                return
            if doc is None:
                try:
                    version, doc = await run_in_threadpool(self.store.load, game_id)
                except NotFound:
                    return
                if self.sent.get(game_id, 0) >= version:
                    return
            assert doc is not None
            receivers = list(clients.items())
            views = {}
            for lang in {lang for _ws, (_seat, lang) in receivers}:
                with use(lang):
                    views[lang] = await run_in_threadpool(self.render, game_id, version, doc)
            self.sent[game_id] = version
            await asyncio.gather(*(self._send(game_id, ws, views[lang](seat))
                                   for ws, (seat, lang) in receivers))

    async def deleted(self, game_id: str) -> None:
        """The game was aborted (deleted): every client is told ``{"type": "aborted"}``, once
        (with PostgreSQL the deleting process also hears its own notification)."""
        clients = list(self.clients.pop(game_id, {}))
        self.sent.pop(game_id, None)
        self._locks.pop(game_id, None)
        await asyncio.gather(*(self._send(game_id, ws, None) for ws in clients))

    async def _send(self, game_id: str, ws: WebSocket, message: dict | None) -> None:
        """A client's view (None: the game was aborted)."""
        try:
            await ws.send_json({"type": "aborted"} if message is None
                               else {"type": "state", "state": message})
        except Exception:  # a client that went away: forget it
            self.leave(game_id, ws)

    async def listen(self) -> None:
        """Forward NOTIFY messages from other processes until cancelled (PostgreSQL only)."""
        import psycopg

        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.store.url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    async for note in conn.notifies():
                        game_id, _, version = note.payload.rpartition(":")
                        if version == DELETED:
                            await self.deleted(game_id)
                        else:
                            await self.publish(game_id, int(version))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # database restarted: listen again shortly
                log.warning("LISTEN interrumpido (%s); reintentando", exc)
                await asyncio.sleep(1)

