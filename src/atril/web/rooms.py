"""Duplicate rooms (issue 15, docs/DUPLICATE.md "En la web"): a director opens a room, players
join with its code or link (an account, or a guest with a token of the room), every round is
played against the clock and the master move, a projector shows it to a hall, and the
director arbitrates. The rules are ``atril.duplicate``'s (``rooms_service``); what each client
sees is ``rooms_views``'s; storage is ``rooms_store``'s.

Pages: ``/duplicada`` (join with a code; a director opens a room), ``/duplicada/{id}`` (a
player), ``/duplicada/{id}/pantalla`` (the projector: public, read-only),
``/duplicada/{id}/arbitro`` (the director).

API (JSON; errors ``{"error", "article"}``):

- ``POST /api/duplicadas`` (a director's session) ``{"ruleset", "lexicon", "rounds" (null:
  bolsa completa), "seconds" (180), "bonuses": {"master", "runner_up", "cap",
  "min_players"}, "auto_advance" (seconds showing the results before the next round starts
  by itself, null: the director starts it), "keep_leave"}`` → 201 ``{"id", "code", "url",
  "arbiter", "screen"}``
- ``POST /api/duplicadas/unirse`` ``{"code", "name"}`` → 201 ``{"id", "player", "token",
  "url"}``: the guest's token (the page keeps it in the browser); an account is also known by
  its session
- ``GET  /api/duplicadas/{id}?t=TOKEN&rol=arbitro|pantalla`` → the view of that client
- ``POST /api/duplicadas/{id}/jugada`` ``{"t", "move": "H8 CASA"}`` or ``{"t", "placed":
  [[square, tile], ...]}`` → the acknowledgement: ``{"round", "received", "remaining",
  "text", "notation", "score", "reason", "reason_text", "detail"}``; 409 «fuera de tiempo»
  once the round's deadline has passed
- ``POST /api/duplicadas/{id}/arbitro`` (the director) ``{"action": "next" | "close" |
  "override" (``move``) | "slip" (``round``, ``player``, ``move``, ``late``) |
  "add_player" (``name``: a player at the hall) | "stop"}`` → the director's view
- ``WS   /ws/duplicada/{id}?t=TOKEN&rol=…`` → ``{"type": "state", "state": view}`` after every
  change, ``{"type": "count", "submitted": n, "players": [...]}`` to the director and the
  projector as plays come in; a message ``{"action": "submit", "id": n, "move" | "placed"}``
  is a play, answered ``{"type": "ack", "id", ...}`` or ``{"type": "error", "id", "status",
  "error"}``; ``ping`` keeps it alive.

Live updates: the room's WebSockets of this process get every change this process makes at
once, and a watch task (started with the first WebSocket) closes rounds when their time is
up, starts the next one when the director asked for an automatic advance, and, every tick,
publishes the changes another process made (PostgreSQL) by comparing versions.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import AtrilError
from ..i18n import _, current, use
from . import rooms_views as views
from .accounts import AccountApi
from .games import Games
from .guard import origin_allowed
from .live import Audience
from .requests import ApiError, parse_frame, read_object
from .rooms_service import (
    OVER,
    PLAYING,
    RESULTS,
    Nothing,
    RoomService,
    is_director,
    player_of,
)
from .store import User

log = logging.getLogger("atril.web")
STATIC = resources.files("atril.web") / "static"

DIRECTOR, PLAYER, SCREEN = "director", "player", "screen"
#: seconds between the watch's looks (rounds due to close, changes of other processes).
TICK = 0.1
#: the director and the projector hear how many plays came in at most this often.
COUNT_EVERY = 0.5
#: the longest a close waits for this process's plays received before the deadline.
INFLIGHT_WAIT = 5.0


@dataclass(frozen=True)
class Client:
    role: str
    player: int | None
    lang: str


def _page(name: str) -> Callable[[Request], Any]:
    async def page(request: Request) -> Response:
        return FileResponse(str(STATIC / name), media_type="text/html")
    return page


class Rooms:
    """The rooms' handlers, their WebSockets and the watch (one per server process)."""

    def __init__(self, games: Games, accounts: AccountApi, settings: Any = None,
                 clock: Callable[[], float] = time.time):
        self.service = RoomService(games.store, games.lexicons, test_seeds=games.test_seeds,
                                   clock=clock)
        self.accounts = accounts
        self.origins: tuple[str, ...] = tuple(getattr(settings, "origins", ()) or ())
        self.audience: Audience[Client] = Audience()
        self.inflight: dict[str, int] = defaultdict(int)
        self._processing: set[str] = set()
        self._counting: set[str] = set()
        self._watch: asyncio.Task | None = None
        self._watch_loop: asyncio.AbstractEventLoop | None = None
        self.tasks: set[asyncio.Task] = set()

    @property
    def clock(self) -> Callable[[], float]:
        return self.service.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.service.clock = clock

    def routes(self) -> list[BaseRoute]:
        return [Route("/duplicada", _page("rooms.html")),
                Route("/duplicada/{room_id}", _page("room.html")),
                Route("/duplicada/{room_id}/pantalla", _page("projector.html")),
                Route("/duplicada/{room_id}/arbitro", _page("room_arbiter.html")),
                Route("/api/duplicadas", self.create, methods=["POST"]),
                Route("/api/duplicadas/unirse", self.join, methods=["POST"]),
                Route("/api/duplicadas/{room_id}", self.state),
                Route("/api/duplicadas/{room_id}/jugada", self.submit, methods=["POST"]),
                Route("/api/duplicadas/{room_id}/arbitro", self.arbiter, methods=["POST"]),
                WebSocketRoute("/ws/duplicada/{room_id}", self.socket)]

    # -- HTTP -----------------------------------------------------------------------------------
    async def create(self, request: Request) -> Response:
        body = await read_object(request)
        user = await self.accounts.current(request)
        room_id, code = await run_in_threadpool(self.service.create, body, user)
        return JSONResponse({"id": room_id, "code": code, "url": f"/duplicada/{room_id}",
                             "arbiter": f"/duplicada/{room_id}/arbitro",
                             "screen": f"/duplicada/{room_id}/pantalla"}, status_code=201)

    async def join(self, request: Request) -> Response:
        body = await read_object(request)
        user = await self.accounts.current(request)
        room_id = await run_in_threadpool(self.service.find, body.get("code"))
        version, player, doc, token = await run_in_threadpool(
            self.service.join, room_id, body.get("name"), user)
        await self.publish(room_id, version, doc, staff_only=True)
        return JSONResponse({"id": room_id, "player": player, "token": token,
                             "url": f"/duplicada/{room_id}"}, status_code=201)

    async def state(self, request: Request) -> Response:
        room_id = request.path_params["room_id"]
        await self._process(room_id)  # a round whose time is up closes before it is shown
        user = await self.accounts.current(request)
        version, doc = await run_in_threadpool(self.service.load, room_id)
        client = self._client(doc, request, user)
        [view] = await run_in_threadpool(self._views, room_id, version, doc, [client])
        return JSONResponse(view)

    async def submit(self, request: Request) -> Response:
        received = self.clock()
        room_id = request.path_params["room_id"]
        self.inflight[room_id] += 1
        try:
            body = await read_object(request)
            user = await self.accounts.current(request)
            ack = await run_in_threadpool(self.service.submit, room_id, body.get("t"), user,
                                          body, received)
        finally:
            self.inflight[room_id] -= 1
        self._count_soon(room_id)
        return JSONResponse(ack)

    async def arbiter(self, request: Request) -> Response:
        room_id = request.path_params["room_id"]
        body = await read_object(request)
        user = await self.accounts.current(request)
        _version, doc = await run_in_threadpool(self.service.load, room_id)
        if not is_director(user, doc):
            raise ApiError(403, _("solo el director de la sala puede hacer esto"))
        action = body.get("action")
        service = self.service
        if action == "next":
            version, doc = await run_in_threadpool(service.next_round, room_id)
        elif action == "close":
            version, doc = await run_in_threadpool(service.close_now, room_id)
            await self.publish(room_id, version, doc)
            await self._process(room_id, force=True)
            version, doc = await run_in_threadpool(service.load, room_id)
        elif action == "override":
            version, doc = await run_in_threadpool(service.override, room_id, body.get("move"))
        elif action == "slip":
            version, doc = await run_in_threadpool(
                service.arbiter_slip, room_id, body.get("round"), body.get("player"),
                body.get("move"), body.get("late", False))
        elif action == "add_player":
            version, _p, doc, _t = await run_in_threadpool(
                lambda: service.join(room_id, body.get("name"), None, hall=True))
        elif action == "stop":
            version, doc = await run_in_threadpool(service.stop, room_id)
        else:
            raise ApiError(400, _("acción desconocida: {actions}").format(
                actions="next, close, override, slip, add_player, stop"))
        await self.publish(room_id, version, doc)
        client = Client(DIRECTOR, None, current())
        [view] = await run_in_threadpool(self._views, room_id, version, doc, [client])
        return JSONResponse(view)

    # -- the WebSocket --------------------------------------------------------------------------
    async def socket(self, ws: WebSocket) -> None:
        """A client's live view, and a player's plays. Accepted before any check, so that a
        refusal reaches the page as a close code (4000 + the HTTP status)."""
        room_id = ws.path_params["room_id"]
        await ws.accept()
        try:
            if not origin_allowed(ws.scope["headers"], self.origins):
                raise ApiError(403, _("conexión desde otro sitio web rechazada"))
            user = await self.accounts.current(ws)
            version, doc = await run_in_threadpool(self.service.load, room_id)
            client = self._client(doc, ws, user)
        except ApiError as exc:
            await ws.close(code=4000 + exc.status, reason=exc.message.encode()[:120].decode(
                errors="ignore"))
            return
        self._ensure_watch(ws)
        if not self.audience.of(room_id):
            self.audience.sent[room_id] = version  # the first client gets this version below
        self.audience.join(room_id, ws, client)
        token = ws.query_params.get("t")
        try:
            [view] = await run_in_threadpool(self._views, room_id, version, doc, [client])
            await ws.send_json({"type": "state", "state": view})
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text == "ping":
                    continue
                received = self.clock()  # the moment of receipt decides, before any work
                self.inflight[room_id] += 1
                try:
                    reply = await self._socket_submit(room_id, token, user, text, received)
                finally:
                    self.inflight[room_id] -= 1
                await ws.send_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            self.audience.leave(room_id, ws)

    async def _socket_submit(self, room_id: str, token: str | None, user: User | None,
                             text: str | None, received: float) -> dict:
        ident = None
        try:
            body = parse_frame(text)
            ident = body.get("id")
            if body.get("action", "submit") != "submit":
                raise ApiError(400, _("acción desconocida: {actions}").format(actions="submit"))
            ack = await run_in_threadpool(self.service.submit, room_id, token, user, body,
                                          received)
        except ApiError as exc:
            return {"type": "error", "id": ident, "status": exc.status, "error": exc.message}
        except AtrilError as exc:
            return {"type": "error", "id": ident, "status": 400, "error": str(exc)}
        except Exception:
            log.exception("error interno en una jugada de la sala %s", room_id)
            return {"type": "error", "id": ident, "status": 500,
                    "error": _("error interno del servidor; recarga la página")}
        self._count_soon(room_id)
        return {"type": "ack", "id": ident, **ack}

    # -- who is who, and what they see ----------------------------------------------------------
    def _client(self, doc: dict, conn: HTTPConnection, user: User | None) -> Client:
        wanted = conn.query_params.get("rol")
        if wanted == "arbitro":
            if not is_director(user, doc):
                raise ApiError(403, _("solo el director de la sala puede hacer esto"))
            return Client(DIRECTOR, None, current())
        if wanted == "pantalla":
            return Client(SCREEN, None, current())
        player = player_of(doc, conn.query_params.get("t"), user)
        return Client(SCREEN if player is None else PLAYER, player, current())

    def _views(self, room_id: str, version: int, doc: dict, clients: list[Client]
               ) -> list[dict]:
        """Each client's view of ``version`` (blocking: the thread pool)."""
        service = self.service
        with service.lock(room_id):
            game = service.game(room_id, version, doc)
            number = len(game.rounds)
            playing = doc["phase"] == PLAYING
            slips = service.rooms.slips(room_id, number) if playing else {}
            ctx = service.context(room_id) if playing and any(
                c.role == PLAYER for c in clients) else None
            if ctx is not None and ctx.number != number:
                ctx = None
            shared: dict[str, dict] = {}
            for lang in {c.lang for c in clients}:
                with use(lang):
                    shared[lang] = views.shared(room_id, version, doc, game)
            now = service.clock()
            submitted = {p for p, (text, _at) in slips.items() if text is not None}
            out = []
            for c in clients:
                with use(c.lang):
                    base = views.with_clock(shared[c.lang], now)
                    if c.role == PLAYER and c.player is not None:
                        out.append(views.for_player(base, doc, game, c.player,
                                                    slips.get(c.player), ctx))
                    elif c.role == DIRECTOR:
                        out.append(views.for_director(base, doc, game, submitted))
                    else:
                        out.append(views.for_screen(base, len(submitted)))
            return out

    # -- live updates ---------------------------------------------------------------------------
    async def publish(self, room_id: str, version: int | None = None, doc: dict | None = None,
                      *, staff_only: bool = False) -> None:
        """Send every client of the room its view of ``version`` (once per version, in
        order); ``staff_only``: only the director and the projector (a player joined)."""
        audience = self.audience
        if not audience.of(room_id):
            return
        async with audience.publishing(room_id):
            if version is not None and not audience.behind(room_id, version):
                return
            if doc is not None and version is not None:
                ver, data = version, doc
            else:
                try:
                    ver, data = await run_in_threadpool(self.service.load, room_id)
                except ApiError:
                    return
            if not audience.behind(room_id, ver):
                return
            receivers = [(ws, c) for ws, c in audience.of(room_id)
                         if not staff_only or c.role != PLAYER]
            if not receivers:
                return
            made = await run_in_threadpool(self._views, room_id, ver, data,
                                           [c for _ws, c in receivers])
            audience.sent[room_id] = ver
            await asyncio.gather(*(audience.send(room_id, ws, {"type": "state", "state": view})
                                   for (ws, _c), view in zip(receivers, made)))

    def _count_soon(self, room_id: str) -> None:
        """Tell the director and the projector how many plays came in (at most every
        ``COUNT_EVERY`` seconds: two hundred plays make a handful of messages)."""
        staff = [ws for ws, c in self.audience.of(room_id) if c.role != PLAYER]
        if not staff or room_id in self._counting:
            return
        self._counting.add(room_id)
        self._spawn(self._count(room_id))

    async def _count(self, room_id: str) -> None:
        try:
            await asyncio.sleep(COUNT_EVERY)
            ctx = await run_in_threadpool(self.service.context, room_id)
            slips = await run_in_threadpool(self.service.rooms.slips, room_id, ctx.number)
            players = sorted(p for p, (text, _at) in slips.items() if text is not None)
            message = {"type": "count", "round": ctx.number, "submitted": len(players)}
            for ws, c in self.audience.of(room_id):
                if c.role == DIRECTOR:
                    await self.audience.send(room_id, ws, {**message, "players": players})
                elif c.role == SCREEN:
                    await self.audience.send(room_id, ws, message)
        finally:
            self._counting.discard(room_id)

    # -- the watch ------------------------------------------------------------------------------
    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _ensure_watch(self, conn: HTTPConnection) -> None:
        """Start the watch in this event loop (the server's) if it is not running here; it
        stops with the app (``app.state.closers``)."""
        closers = conn.app.state.closers
        if self.shutdown not in closers:
            closers.append(self.shutdown)
        loop = asyncio.get_running_loop()
        if self._watch is not None and self._watch_loop is loop and not self._watch.done():
            return
        self._watch_loop = loop
        self._watch = loop.create_task(self._run())

    def shutdown(self) -> None:
        for task in [self._watch, *self.tasks]:
            if task is not None:
                task.cancel()

    async def _run(self) -> None:
        while True:
            try:
                for room_id in await run_in_threadpool(self.service.due):
                    if room_id not in self._processing:
                        self._spawn(self._process(room_id))
                watched = self.audience.watched()
                if watched:
                    versions = await run_in_threadpool(self.service.rooms.versions, watched)
                    for room_id, version in versions.items():
                        if self.audience.behind(room_id, version):
                            await self.publish(room_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("la vigilancia de las salas de duplicada no pudo leer la base")
            await asyncio.sleep(TICK)

    async def _process(self, room_id: str, *, force: bool = False) -> None:
        """Close the open round if its time is up (after every play this process received
        before the deadline is stored), or start the next one when an automatic advance is
        due."""
        if room_id in self._processing and not force:
            return
        self._processing.add(room_id)
        try:
            version, doc = await run_in_threadpool(self.service.load, room_id)
            now = self.clock()
            if doc["phase"] == PLAYING and now >= doc["deadline"]:
                waited = time.monotonic()
                while self.inflight.get(room_id) and time.monotonic() - waited < INFLIGHT_WAIT:
                    await asyncio.sleep(0.005)
                closed = await run_in_threadpool(self.service.close, room_id,
                                                 len(doc["game"]["rounds"]))
                if closed is not None:
                    await self.publish(room_id, *closed)
            elif doc["phase"] == RESULTS and doc.get("due") is not None and now >= doc["due"]:
                with contextlib.suppress(Nothing):
                    version, doc = await run_in_threadpool(
                        lambda: self.service.next_round(room_id, expect=RESULTS))
                    await self.publish(room_id, version, doc)
            elif doc["phase"] == OVER:
                pass
        finally:
            self._processing.discard(room_id)
