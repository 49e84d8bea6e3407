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
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Generic, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from ..i18n import current, use
from .store import CHANNEL, DELETED, NotFound, Store

log = logging.getLogger("atril.web")

#: ``render(game_id, version, doc)`` gives a function from a seat to what that seat sees (its
#: texts in the current language).
RenderFn = Callable[[str, int, dict], Callable[[Any], dict]]


D = TypeVar("D")


class Audience(Generic[D]):
    """The WebSockets connected to each live document (a game, a duplicate room), each with
    a descriptor of who it is (a game's seat and language, a room's role), and the last
    version each document's clients were sent. ``publishing(key)`` serialises the
    publications of one document, so views go out in version order."""

    def __init__(self) -> None:
        self.clients: dict[str, dict[WebSocket, D]] = defaultdict(dict)
        self.sent: dict[str, int] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def join(self, key: str, ws: WebSocket, who: D) -> None:
        self.clients[key][ws] = who

    def leave(self, key: str, ws: WebSocket) -> None:
        """Forget a client; a document without clients is forgotten too."""
        clients = self.clients.get(key)
        if clients is not None:
            clients.pop(ws, None)
            if not clients:
                self.drop(key)

    def drop(self, key: str) -> dict[WebSocket, D]:
        """Forget a document and its clients (returned)."""
        self.sent.pop(key, None)
        self._locks.pop(key, None)
        return self.clients.pop(key, {})

    def of(self, key: str) -> list[tuple[WebSocket, D]]:
        """The document's clients now (a copy: sending may make some leave)."""
        return list(self.clients.get(key, {}).items())

    def watched(self) -> list[str]:
        return list(self.clients)

    def behind(self, key: str, version: int) -> bool:
        """Whether ``version`` is newer than what the clients were sent."""
        return self.sent.get(key, 0) < version

    @asynccontextmanager
    async def publishing(self, key: str) -> AsyncIterator[None]:
        async with self._locks.setdefault(key, asyncio.Lock()):
            yield

    async def send(self, key: str, ws: WebSocket, message: dict) -> None:
        """Send, forgetting a client that went away."""
        try:
            await ws.send_json(message)
        except Exception:
            self.leave(key, ws)


class Hub:
    """Connected WebSockets per game, each with the seat it speaks for (None = spectator) and
    its language."""

    def __init__(self, store: Store, render: RenderFn):
        self.store = store
        self.render = render
        self.audience: Audience[tuple[int | None, str]] = Audience()

    def join(self, game_id: str, ws: WebSocket, seat: int | None, lang: str | None = None
             ) -> None:
        """A client of ``game_id`` for ``seat``, spoken to in ``lang`` (by default, the
        language of the request it connected with)."""
        self.audience.join(game_id, ws, (seat, lang or current()))

    def leave(self, game_id: str, ws: WebSocket) -> None:
        self.audience.leave(game_id, ws)

    async def publish(self, game_id: str, version: int, doc: dict | None = None) -> None:
        """Send every client of the game its view of ``version`` (once per version). One
        publication at a time per game: views go out in version order, and a publication that
        finds its version already sent returns only once it has been (so the sender's
        ``done`` never overtakes the state it announces)."""
        audience = self.audience
        if not audience.of(game_id):
            return
        async with audience.publishing(game_id):
            if not audience.of(game_id) or not audience.behind(game_id, version):
                return
            if doc is None:
                try:
                    version, doc = await run_in_threadpool(self.store.load, game_id)
                except NotFound:
                    return
                if not audience.behind(game_id, version):
                    return
            assert doc is not None
            receivers = audience.of(game_id)
            views = {}
            for lang in {lang for _ws, (_seat, lang) in receivers}:
                with use(lang):
                    views[lang] = await run_in_threadpool(self.render, game_id, version, doc)
            audience.sent[game_id] = version
            await asyncio.gather(*(audience.send(game_id, ws, {
                "type": "state", "state": views[lang](seat)}) for ws, (seat, lang) in receivers))

    async def deleted(self, game_id: str) -> None:
        """The game was aborted (deleted): every client is told ``{"type": "aborted"}``, once
        (with PostgreSQL the deleting process also hears its own notification)."""
        clients = list(self.audience.drop(game_id))
        await asyncio.gather(*(ws.send_json({"type": "aborted"}) for ws in clients),
                             return_exceptions=True)

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

