"""The server's own watch: what must happen in a game when nobody sends a request.

- A clock deadline (art. 35 in FILE 2024: more than 8 minutes over loses; art. 45.5: the
  game's time is up) ends the game when it comes, stores the result and pushes it to the seats.
- The computer's turn after a restart is played without waiting for a page to ask.
- Server downtime is not charged to anyone's clock: every few seconds the server records that
  it is alive; on start, a gap longer than ``downtime_after`` since the last heartbeat is given
  back to every running clock and written on the game's planilla.
- Abandoned games (unfinished and untouched for ``abandoned_days``), uploaded word lists
  nobody uses, expired sessions and seeks nobody looks at are deleted.

Each game row has a ``due`` moment (``games.index``). The watch looks for due games every
``tick`` seconds and takes each one with a lease (``Store.claim``), so with several server
processes on one PostgreSQL database exactly one of them acts.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool

from .games import COMPUTER_LEASE, Changed, Games
from .live import Hub
from .lobby import SEEK_SECONDS

log = logging.getLogger("atril.web")

BEAT_SECONDS = 5.0
EXPIRY_SECONDS = 3600.0


@dataclass(frozen=True)
class WatchSettings:
    tick: float = 0.5              # seconds between looks for due games
    downtime_after: float = 15.0   # seconds without a heartbeat that count as downtime
    abandoned_days: float = 30.0   # unfinished games untouched this long are deleted
    unused_lexicon_days: float = 7.0  # uploaded lists no game uses, unused this long


class Watch:
    """One per server process; ``run`` until cancelled."""

    def __init__(self, games: Games, hub: Hub, computer: Callable[[str], Awaitable[None]],
                 settings: WatchSettings):
        self.games = games
        self.store = games.store
        self.hub = hub
        self.computer = computer
        self.settings = settings
        self.tasks: set[asyncio.Task] = set()

    async def run(self) -> None:
        """Look after due games until cancelled (after ``start``)."""
        next_beat = next_expiry = 0.0
        horizon = COMPUTER_LEASE  # the first look also takes the computer turns a crash left
        while True:
            now = time.time()
            try:
                if now >= next_beat:
                    await run_in_threadpool(self.store.beat, now)
                    next_beat = now + BEAT_SECONDS
                if now >= next_expiry:
                    await run_in_threadpool(self._expire, now)
                    next_expiry = now + EXPIRY_SECONDS
                await self._wake_due(now + horizon)
                horizon = 0.0
            except asyncio.CancelledError:
                raise
            except Exception:  # the database went away: look again on the next tick
                log.exception("la vigilancia de relojes no pudo leer la base de datos")
            await asyncio.sleep(self.settings.tick)

    async def start(self) -> None:
        """Before the first request: give back to the clocks the time the server was down."""
        now = time.time()
        previous = await run_in_threadpool(self.store.beat, now)
        if previous is not None and now - previous > self.settings.downtime_after:
            log.warning("el servidor estuvo parado %.0f s: no se descuentan de los relojes",
                        now - previous)
            changed = await run_in_threadpool(self.games.credit_downtime, previous, now)
            for game_id, change in changed:
                await self.hub.publish(game_id, change.version, change.doc)

    def _expire(self, now: float) -> None:
        day = 86400
        games, lexicons = self.store.expire(now - self.settings.abandoned_days * day,
                                            now - self.settings.unused_lexicon_days * day)
        if games or lexicons:
            log.info("caducadas: %d partidas abandonadas, %d listas sin uso", games, lexicons)
        self.store.expire_sessions(now, now - SEEK_SECONDS)

    async def _wake_due(self, until: float) -> None:
        for game_id, due in await run_in_threadpool(self.store.due, until):
            if await run_in_threadpool(self.store.claim, game_id, due,
                                       time.time() + COMPUTER_LEASE):
                task = asyncio.create_task(self._wake(game_id))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

    async def _wake(self, game_id: str) -> None:
        """Look at one due game: end it on time, let the computer play, then note when to look
        again."""
        try:
            changed: Changed | None = await run_in_threadpool(self.games.expire, game_id)
            if changed is not None:
                await self.hub.publish(game_id, changed.version, changed.doc)
            await self.computer(game_id)
            await run_in_threadpool(self.games.refresh_due, game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("no se pudo atender la partida %s", game_id)
