"""The Starlette application: pages, the JSON API and the game WebSocket.

API (all JSON; errors are ``{"error": "...", "article": "..." | null}`` with a 4xx status):

- ``GET  /api/opciones``                      levels, rulesets, lexicons for the lobby
- ``POST /api/lexicos``                       upload a word list (body: the text; ``?nombre=``)
- ``POST /api/partidas``                      create a game → id, seat links
- ``GET  /api/partidas/{id}?t=TOKEN``         the seat's view
- ``POST /api/partidas/{id}/accion``          ``{"t", "version", "action", ...}``: ``placed``
  (``[[square, tile], ...]``), ``move`` (``"H8 CASA"``) or ``tiles`` (an exchange)
- ``GET  /api/partidas/{id}/gcg?t=TOKEN``     the record (GCG)
- ``GET  /api/partidas/{id}/analisis?t=TOKEN`` best plays per turn, once the game is over
- ``WS   /ws/partidas/{id}?t=TOKEN``          the seat's view after every change; a message
  with an action (the POST body without the token) acts, answered ``done`` or ``error``
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import AtrilError
from ..ruleset import Ruleset
from . import computer
from .analysis import analyse
from .games import Changed, Games
from .lexicons import MAX_UPLOAD_BYTES, Lexicons
from .requests import COMPUTER, ApiError
from .live import Hub
from .store import NotFound, open_store

log = logging.getLogger("atril.web")
STATIC = resources.files("atril.web") / "static"


def create_app(db: str | None = None) -> Starlette:
    """The app over the database at ``db`` (see ``store.open_store``)."""
    store = open_store(db)
    games = Games(store, Lexicons(store))

    hub = Hub(store, games.render)
    api = _Api(games, hub)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        listener = asyncio.create_task(hub.listen()) if store.shared else None
        yield
        if listener is not None:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
        for task in list(api.tasks):
            task.cancel()
        store.close()

    routes = [
        Route("/", _page("lobby.html")),
        Route("/partida/{game_id}", _page("game.html")),
        Route("/api/opciones", api.options),
        Route("/api/lexicos", api.upload_lexicon, methods=["POST"]),
        Route("/api/partidas", api.create, methods=["POST"]),
        Route("/api/partidas/{game_id}", api.state),
        Route("/api/partidas/{game_id}/accion", api.action, methods=["POST"]),
        Route("/api/partidas/{game_id}/gcg", api.gcg),
        Route("/api/partidas/{game_id}/analisis", api.analysis),
        WebSocketRoute("/ws/partidas/{game_id}", api.socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        *_word_tools(),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        ApiError: _api_error, AtrilError: _atril_error, HTTPException: _http_error,
        Exception: _server_error})
    app.state.games, app.state.hub, app.state.store = games, hub, store
    return app


def _word_tools() -> list[Mount]:
    """The judge and study pages, when their modules are installed."""
    mounts = []
    for name, path in (("judge", "/juez"), ("study", "/estudio")):
        try:
            module = __import__(f"atril.web.{name}", fromlist=["routes"])
        except ImportError:
            continue
        mounts.append(Mount(path, routes=list(getattr(module, "routes"))))
    return mounts


def _page(name: str):
    async def page(request: Request) -> Response:
        return FileResponse(str(STATIC / name), media_type="text/html")
    return page


class _Api:
    """Request handlers; the blocking work (database, engine) runs in the thread pool."""

    def __init__(self, games: Games, hub: Hub):
        self.games = games
        self.hub = hub
        self.tasks: set[asyncio.Task] = set()

    async def options(self, request: Request) -> Response:
        return JSONResponse({
            "levels": [{"id": k, "name": name} for k, name in computer.LEVELS.items()],
            "default_level": computer.DEFAULT_LEVEL,
            "rulesets": [{"id": r, "name": Ruleset.get(r).title} for r in Ruleset.names()],
            "lexicons": Lexicons.bundled(),
        })

    async def upload_lexicon(self, request: Request) -> Response:
        size = request.headers.get("content-length", "0")
        if not size.isdigit() or int(size) > MAX_UPLOAD_BYTES:
            raise ApiError(413, "la lista es demasiado grande (máximo 16 MB)")
        raw = await request.body()
        lexicon = await run_in_threadpool(
            self.games.lexicons.upload, request.query_params.get("nombre", ""), raw)
        return JSONResponse({"id": lexicon.id, "name": lexicon.name, "words": len(lexicon),
                             "report": str(lexicon.report)}, status_code=201)

    async def create(self, request: Request) -> Response:
        options = await _json(request)
        game_id, tokens = await run_in_threadpool(self.games.create, options)
        links = {seat: f"/partida/{game_id}?t={tok}" for seat, tok in tokens.items()}
        own = links.get("0") or links["both"]
        body = {"id": game_id, "url": own, "invite": links.get("1"), "tokens": tokens}
        if options.get("mode", COMPUTER) == COMPUTER:
            self._after(game_id)
        return JSONResponse(body, status_code=201)

    async def state(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        version, doc, seat = await self._seat(game_id, request.query_params.get("t"))
        changed = await run_in_threadpool(self.games.join, game_id, seat)
        if changed is not None:
            await self._publish(game_id, changed)
            version, doc = changed.version, changed.doc
        view = (await run_in_threadpool(self.games.render, game_id, version, doc, full=True))(seat)
        if view["thinking"]:  # e.g. the server restarted while the computer was to move
            self._after(game_id)
        return JSONResponse(view)

    async def action(self, request: Request) -> Response:
        """Make a move; ``Server-Timing: act;dur=ms`` says how long the server took (checks,
        storage and live updates included; the computer's reply comes later)."""
        start = time.perf_counter()
        game_id = request.path_params["game_id"]
        body = await _json(request)
        changed = await self._act(game_id, body)
        view = self.games.render(game_id, changed.version, changed.doc)
        response = JSONResponse(view(self.games.seat(changed.doc, body.get("t"))))
        response.headers["Server-Timing"] = f"act;dur={(time.perf_counter() - start) * 1000:.2f}"
        return response

    async def _act(self, game_id: str, body: Any) -> Changed:
        changed = await run_in_threadpool(self.games.act, game_id, body)
        await self._publish(game_id, changed)
        if changed.doc["meta"]["computer"] is not None:
            self._after(game_id)
        return changed

    async def gcg(self, request: Request) -> Response:
        from ..gcg import dumps

        game_id = request.path_params["game_id"]
        version, doc, _ = await self._seat(game_id, request.query_params.get("t"))
        game = await run_in_threadpool(self.games.game, game_id, version, doc)
        return PlainTextResponse(dumps(game), headers={
            "Content-Disposition": f'attachment; filename="atril-{game_id}.gcg"'})

    async def analysis(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        version, doc, _ = await self._seat(game_id, request.query_params.get("t"))
        game = await run_in_threadpool(self.games.game, game_id, version, doc)
        if not game.is_over():
            raise ApiError(409, "el análisis se ve al terminar la partida", "43")
        lexicon = await run_in_threadpool(self.games.lexicons.get, doc["game"]["lexicon"])
        turns = await run_in_threadpool(analyse, game, lexicon)
        return JSONResponse({"players": list(game.players), "turns": turns})

    async def socket(self, ws: WebSocket) -> None:
        game_id = ws.path_params["game_id"]
        try:
            version, doc, seat = await self._seat(game_id, ws.query_params.get("t"))
        except ApiError as exc:
            await ws.close(code=4000 + exc.status, reason=exc.message[:120])
            return
        await ws.accept()
        self.hub.join(game_id, ws, seat)
        try:
            view = await run_in_threadpool(self.games.render, game_id, version, doc)
            await ws.send_json({"type": "state", "state": view(seat)})
            while True:
                text = await ws.receive_text()
                if text != "ping":  # the page's keep-alive
                    await self._socket_action(ws, game_id, ws.query_params.get("t"), text)
        except WebSocketDisconnect:
            pass
        finally:
            self.hub.leave(game_id, ws)

    async def _socket_action(self, ws: WebSocket, game_id: str, token: str | None,
                             text: str) -> None:
        """An action sent over the WebSocket (as the HTTP body, without the token): the new
        state reaches every client; the sender also gets ``done`` (or ``error``)."""
        start = time.perf_counter()
        try:
            body = json.loads(text)
            if not isinstance(body, dict):
                raise ApiError(400, "se esperaba un objeto JSON")
            changed = await self._act(game_id, {**body, "t": token})
        except ValueError:
            reply = {"type": "error", "status": 400, "article": None,
                     "error": "el mensaje no es JSON válido"}
        except ApiError as exc:
            reply = {"type": "error", "status": exc.status, "error": exc.message,
                     "article": exc.article}
        else:
            reply = {"type": "done", "version": changed.version,
                     "server_ms": round((time.perf_counter() - start) * 1000, 2)}
        await ws.send_json(reply)

    # -- helpers ------------------------------------------------------------------------------
    async def _seat(self, game_id: str, token: str | None) -> tuple[int, dict, Any]:
        try:
            version, doc = await run_in_threadpool(self.games.store.load, game_id)
        except NotFound:
            raise ApiError(404, "no existe esa partida") from None
        return version, doc, self.games.seat(doc, token)

    async def _publish(self, game_id: str, changed: Changed) -> None:
        await self.hub.publish(game_id, changed.version, changed.doc)

    def _after(self, game_id: str) -> None:
        """Let the computer act, in the background, if it is its turn."""
        task = asyncio.create_task(self._computer(game_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _computer(self, game_id: str) -> None:
        conflicts = 0
        while conflicts < 5:
            try:
                changed = await run_in_threadpool(self.games.computer_turn, game_id)
            except ApiError as exc:
                if exc.status != 409:
                    log.warning("el ordenador no pudo jugar en %s: %s", game_id, exc.message)
                    return
                conflicts += 1  # the game changed while it thought: think again
                continue
            except Exception:
                log.exception("el ordenador no pudo jugar en %s", game_id)
                return
            if changed is None:
                return
            await self._publish(game_id, changed)


async def _json(request: Request) -> Any:
    try:
        return json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "el cuerpo de la petición no es JSON válido") from None


def _error(status: int, message: str, article: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "article": article}, status_code=status)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _error(exc.status, exc.message, exc.article)


async def _atril_error(request: Request, exc: Exception) -> Response:
    return _error(400, str(exc), getattr(exc, "article", None))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    text = {404: "no existe esa página", 405: "método no permitido"}.get(
        exc.status_code, str(exc.detail))
    return _error(exc.status_code, text)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("error interno en %s", request.url.path)
    return _error(500, "error interno del servidor; la partida no ha cambiado")
