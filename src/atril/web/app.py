"""The Starlette application: pages, the JSON API and the game WebSocket.

API (all JSON; errors are ``{"error": "...", "article": "..." | null}`` with a 4xx status, in the
request's language: ``?lang=``, the ``atril-lang`` cookie or ``Accept-Language``, see
``atril.web.language``; state-changing requests must be ``Content-Type: application/json``,
uploads ``application/octet-stream``):

- ``GET  /i18n/{lang}.json``                  the pages' strings in that language
- ``GET  /api/opciones``                      levels, rulesets (each with the lexicon it plays
  here and the notes a bundled one calls for), lexicons (bundled and installed) for the lobby
- ``POST /api/lexicos``                       upload a word list (body: the text; ``?nombre=``)
- ``POST /api/partidas``                      create a game → ``{"id", "token", "url",
  "invite"}``: the creator's token and page, and for a game against a person the invitation
  link ``/partida/{id}?invitacion=CODE`` (null otherwise); ``"rated": true`` asks for a rated
  game (against a person, logged in)
- ``POST /api/partidas/{id}/unirse``          ``{"invite": CODE}`` → ``{"token"}``, once; 409
  for every later claim
- ``GET  /api/partidas/{id}?t=TOKEN``         the seat's view (no ``t``: the seat of the
  session's account, else a spectator's)
- ``POST /api/partidas/{id}/accion``          ``{"t", "version", "action", ...}``: ``placed``
  (``[[square, tile], ...]``), ``move`` (``"H8 CASA"``) or ``tiles`` (an exchange); a
  ``challenge`` may name ``words`` (``["CASA"]``, some of the view's ``pending.words``; all
  when absent, art. 40); ``resign`` (any time); ``abort`` (before the first move: the game is
  deleted, every client gets ``{"type": "aborted"}``)
- ``POST /api/partidas/{id}/revancha``        a seat of a finished game → ``{"id", "token",
  "url"}``: the same game again, the other player starting
- ``GET  /api/partidas/{id}/gcg?t=TOKEN``     the record, as much of it as the seat may know
- ``GET  /api/partidas/{id}/analisis?t=TOKEN`` best plays per turn, once the game is over
- ``POST /api/partidas/{id}/analisis/fondo`` the analysis by simulation, in the background;
  ``GET`` the same address: its progress, and the analysis when done
- ``GET  /api/partidas/{id}/repeticion``      a finished game move by move, for anyone
- ``WS   /ws/partidas/{id}?t=TOKEN``          the seat's view after every change; a message
  with an action (the POST body without the token) acts, answered ``done`` or ``error``. A bad
  link is closed with code 4000 + the HTTP status (4403, 4404), which the page shows and does
  not retry.
- accounts (``accounts``), the lobby's seeks and games being played (``lobby``), profiles and
  an account's games (``profiles``), tournaments (``tournaments``). Unknown addresses outside
  ``/api/`` get a page (404).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, fields
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import gcg
from ..errors import AtrilError
from ..game import Game
from ..i18n import N_, _, current, use
from ..lexicon import BUNDLED, Lexicon, notice
from ..ruleset import Ruleset
from . import computer, judge, study
from .accounts import AccountApi, Accounts
from .analysis import DeepAnalyses, analyse
from .games import ABORT, Changed, Games
from .guard import Guard, RateLimiter, origin_allowed
from .language import Language, catalog, request_language
from .lexicons import MAX_UPLOAD_BYTES, Lexicons
from .live import Hub
from .lobby import Lobby
from .profiles import Profiles
from .requests import COMPUTER, ApiError, parse_frame, read_body, read_json, require_type
from .rooms import Rooms
from .store import NotFound, User, open_store
from .tournaments import Tournaments
from .views import replay_view
from .watch import Watch, WatchSettings

log = logging.getLogger("atril.web")
STATIC = resources.files("atril.web") / "static"


@dataclass(frozen=True)
class Settings(WatchSettings):
    """How a server runs. ``test_seeds``: clients may choose the bag's seed (tests only: the
    one who chooses it knows every draw). ``rate_limits``: per-client limits on creating
    games, uploads and searches. ``origins``: other origins whose pages may act here (a
    reverse proxy's public address)."""

    test_seeds: bool = False
    rate_limits: bool = True
    origins: tuple[str, ...] = ()
    analysis_seconds: float = 0.5  # simulation per turn of the analysis in the background


def create_app(db: str | None = None, settings: Settings | None = None, **options: Any
               ) -> Starlette:
    """The app over the database at ``db`` (see ``store.open_store``); ``options`` are
    ``Settings`` fields, for short: ``create_app(url, test_seeds=True)``."""
    settings = settings or Settings(**options)
    store = open_store(db)
    games = Games(store, Lexicons(store), test_seeds=settings.test_seeds)
    hub = Hub(store, games.render)
    accounts = AccountApi(Accounts(store))
    api = _Api(games, hub, settings, accounts)
    watch = Watch(games, hub, api.computer, WatchSettings(
        **{f.name: getattr(settings, f.name) for f in fields(WatchSettings)}))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await watch.start()
        background = [asyncio.create_task(watch.run())]
        if store.shared:
            background.append(asyncio.create_task(hub.listen()))
        yield
        for close in app.state.closers:  # e.g. the study searches' worker processes
            close()
        for task in background + list(api.tasks) + list(watch.tasks):
            task.cancel()
        for task in background:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        store.close()

    routes = [
        Route("/", _page("lobby.html")),
        Route("/partida/{game_id}", _page("game.html")),
        Route("/partida/{game_id}/repeticion", _page("replay.html")),
        Route("/mis-partidas", _page("mine.html")),
        Route("/jugadores/{name}", _page("profile.html")),
        Route("/i18n/{lang}.json", catalog),
        Route("/api/opciones", api.options),
        Route("/api/lexicos", api.upload_lexicon, methods=["POST"]),
        Route("/api/partidas", api.create, methods=["POST"]),
        Route("/api/partidas/{game_id}", api.state),
        Route("/api/partidas/{game_id}/unirse", api.join, methods=["POST"]),
        Route("/api/partidas/{game_id}/accion", api.action, methods=["POST"]),
        Route("/api/partidas/{game_id}/gcg", api.gcg),
        Route("/api/partidas/{game_id}/analisis", api.analysis),
        Route("/api/partidas/{game_id}/analisis/fondo", api.deep_analysis,
              methods=["GET", "POST"]),
        Route("/api/partidas/{game_id}/revancha", api.rematch, methods=["POST"]),
        Route("/api/partidas/{game_id}/repeticion", api.replay),
        *accounts.routes(),
        *Lobby(games, accounts).routes(),
        *Profiles(store, accounts).routes(),
        *Rooms(games, accounts, settings).routes(),
        *Tournaments(games, accounts).routes(),
        WebSocketRoute("/ws/partidas/{game_id}", api.socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        *_word_tools(),
    ]
    limiter = RateLimiter() if settings.rate_limits else None
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        ApiError: _api_error, AtrilError: _atril_error, HTTPException: _http_error,
        Exception: _server_error},
        middleware=[Middleware(Language),
                    Middleware(Guard, limiter=limiter, origins=settings.origins)])
    app.state.games, app.state.hub, app.state.store = games, hub, store
    app.state.settings = settings
    app.state.closers = []  # what to stop with the app, added by what starts it
    return app


def _ruleset_option(ruleset: Ruleset) -> dict[str, Any]:
    """A ruleset as the lobby offers it: its name, what a player should know of it, and
    whether it is a casual game (the only one with the VOID challenge mode, art. 43); the
    lexicon it plays by default here, and what to say when a game plays a bundled list its
    text does not name (``lexicon_notes``: bundled id → note)."""
    return {"id": ruleset.name, "name": _(ruleset.title), "casual": ruleset.casual,
            "note": None if ruleset.note is None else _(ruleset.note),
            "lexicon": ruleset.lexicon,
            "lexicon_notes": {lex_id: said for lex_id in BUNDLED
                              if (said := notice(ruleset, lex_id)) is not None}}


def _word_tools() -> list[Mount]:
    """The judge and study pages."""
    return [Mount("/juez", routes=judge.routes), Mount("/estudio", routes=study.routes)]


def _page(name: str):
    async def page(request: Request) -> Response:
        return FileResponse(str(STATIC / name), media_type="text/html")
    return page


class _Api:
    """Request handlers; the blocking work (database, engine) runs in the thread pool."""

    def __init__(self, games: Games, hub: Hub, settings: Settings, accounts: AccountApi):
        self.games = games
        self.hub = hub
        self.settings = settings
        self.accounts = accounts
        self.tasks: set[asyncio.Task] = set()
        self.deep = DeepAnalyses(settings.analysis_seconds, self.tasks)

    async def options(self, request: Request) -> Response:
        return JSONResponse({
            "levels": [{"id": k, "name": name} for k, name in computer.levels().items()],
            "default_level": computer.DEFAULT_LEVEL,
            "rulesets": [_ruleset_option(Ruleset.get(r)) for r in Ruleset.names()],
            "lexicons": Lexicons.offered(),
        })

    async def upload_lexicon(self, request: Request) -> Response:
        require_type(request, "application/octet-stream")
        raw = await read_body(request, MAX_UPLOAD_BYTES, N_("la lista"))
        lexicon = await run_in_threadpool(
            self.games.lexicons.upload, request.query_params.get("nombre", ""), raw)
        return JSONResponse({"id": lexicon.id, "name": lexicon.name, "words": len(lexicon),
                             "report": str(lexicon.report)}, status_code=201)

    async def create(self, request: Request) -> Response:
        options = await read_json(request)
        user = await self.accounts.current(request)
        game_id, token, invite = await run_in_threadpool(self.games.create, options, user)
        body = {"id": game_id, "token": token, "url": f"/partida/{game_id}?t={token}",
                "invite": None if invite is None else f"/partida/{game_id}?invitacion={invite}"}
        if isinstance(options, dict) and options.get("mode", COMPUTER) == COMPUTER:
            self._after(game_id)
        return JSONResponse(body, status_code=201)

    async def join(self, request: Request) -> Response:
        """The invitee's page claims the second seat with the invitation code, once."""
        game_id = request.path_params["game_id"]
        body = await read_json(request)
        code = body.get("invite") if isinstance(body, dict) else None
        user = await self.accounts.current(request)
        token = await run_in_threadpool(self.games.claim, game_id, code, user)
        version, doc = await run_in_threadpool(self.games.store.load, game_id)
        await self.hub.publish(game_id, version, doc)
        return JSONResponse({"token": token}, status_code=201)

    async def state(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        version, doc, seat = await self._seat(request, game_id)
        view = (await run_in_threadpool(self.games.render, game_id, version, doc, full=True))(seat)
        return JSONResponse(view)

    async def action(self, request: Request) -> Response:
        """Make a move; ``Server-Timing: act;dur=ms`` says how long the server took (checks,
        storage and live updates included; the computer's reply comes later)."""
        start = time.perf_counter()
        game_id = request.path_params["game_id"]
        body = await read_json(request)
        user = await self.accounts.current(request)
        if isinstance(body, dict) and body.get("action") == ABORT:
            return JSONResponse(await self._abort(game_id, body, user))
        changed = await self._act(game_id, body, user)
        view = self.games.render(game_id, changed.version, changed.doc)
        response = JSONResponse(view(self.games.seat(changed.doc, body.get("t"), user)))
        response.headers["Server-Timing"] = f"act;dur={(time.perf_counter() - start) * 1000:.2f}"
        return response

    async def _act(self, game_id: str, body: Any, user: User | None) -> Changed:
        changed = await run_in_threadpool(self.games.act, game_id, body, user)
        await self._publish(game_id, changed)
        if changed.refusal is not None:  # the game ended on time as the player acted
            raise changed.refusal
        if changed.doc["meta"]["computer"] is not None:
            self._after(game_id)
        return changed

    async def _abort(self, game_id: str, body: dict, user: User | None) -> dict:
        await run_in_threadpool(self.games.abort, game_id, body, user)
        await self.hub.deleted(game_id)
        return {"type": "aborted"}

    async def rematch(self, request: Request) -> Response:
        """A seat of a finished game asks for the same game again (``{"t"}`` unless its
        account's session speaks for it)."""
        game_id = request.path_params["game_id"]
        body = await read_json(request)
        user = await self.accounts.current(request)
        token = body.get("t") if isinstance(body, dict) else None
        new_id, new_token, changed = await run_in_threadpool(
            self.games.rematch, game_id, token, user)
        await self._publish(game_id, changed)  # the other seat's view now offers it
        self._after(new_id)  # the computer may start
        return JSONResponse({"id": new_id, "token": new_token,
                             "url": f"/partida/{new_id}?t={new_token}"}, status_code=201)

    async def replay(self, request: Request) -> Response:
        """A finished game move by move: anyone with its address."""
        game_id = request.path_params["game_id"]
        version, doc = await self._load(game_id)
        game = await run_in_threadpool(self.games.game, game_id, version, doc)
        if not game.is_over():
            raise ApiError(409, _("la repetición se ve al terminar la partida"))
        return JSONResponse(await run_in_threadpool(replay_view, doc, game))

    async def gcg(self, request: Request) -> Response:
        """The record: until the game is over, only what this seat may know (its own racks,
        the opponent's plays and scores, exchanges as a count, art. 25)."""
        game_id = request.path_params["game_id"]
        version, doc, seat = await self._seat(request, game_id)
        game = await run_in_threadpool(self.games.game, game_id, version, doc)
        text = gcg.dumps(game, seat=seat if seat in (0, 1) else None)
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="atril-{game_id}.gcg"'})

    async def analysis(self, request: Request) -> Response:
        game, lexicon = await self._finished(request, request.path_params["game_id"])
        turns = await run_in_threadpool(analyse, game, lexicon)
        return JSONResponse({"players": list(game.players), "turns": turns})

    async def _finished(self, request: Request, game_id: str) -> tuple[Game, Lexicon]:
        """A game to analyse and its lexicon: only once it is over (art. 43: during the game
        an analysis would tell which words are valid)."""
        version, doc, _seat = await self._seat(request, game_id)
        game = await run_in_threadpool(self.games.game, game_id, version, doc)
        if not game.is_over():
            raise ApiError(409, _("el análisis se ve al terminar la partida"), "43")
        lexicon = await run_in_threadpool(self.games.lexicons.get, doc["game"]["lexicon"])
        return game, lexicon

    async def deep_analysis(self, request: Request) -> Response:
        """The analysis by simulation of a finished game: GET says how far it is (and gives
        it when done), POST asks for it. Whoever may see the game's analysis may ask; one
        game is analysed once, one at a time (``DeepAnalyses``)."""
        game_id = request.path_params["game_id"]
        if request.method == "GET":
            await self._seat(request, game_id)  # a game that exists (404 otherwise)
            return JSONResponse(self.deep.status(game_id))
        game, lexicon = await self._finished(request, game_id)
        return JSONResponse(self.deep.start(game_id, game, lexicon))

    async def socket(self, ws: WebSocket) -> None:
        """A seat's (or a spectator's) live view. The socket is accepted before any check, so
        that a refusal reaches the page as a close code it understands, not a failed
        handshake it would retry for ever."""
        game_id = ws.path_params["game_id"]
        token = ws.query_params.get("t")
        await ws.accept()
        try:
            if not origin_allowed(ws.scope["headers"], self.settings.origins):
                raise ApiError(403, _("conexión desde otro sitio web rechazada"))
            user = await self.accounts.current(ws)
            version, doc, seat = await self._seat(ws, game_id)
        except ApiError as exc:
            await ws.close(code=4000 + exc.status, reason=_reason(exc.message))
            return
        self.hub.join(game_id, ws, seat)
        try:
            view = await run_in_threadpool(self.games.render, game_id, version, doc)
            await ws.send_json({"type": "state", "state": view(seat)})
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text == "ping":  # the page's keep-alive
                    continue
                reply = await self._socket_action(game_id, token, user, text)
                if reply is not None:
                    await ws.send_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            self.hub.leave(game_id, ws)

    async def _socket_action(self, game_id: str, token: str | None, user: User | None,
                             text: str | None) -> dict | None:
        """An action sent over the WebSocket (as the HTTP body, without the token): the new
        state reaches every client; the sender also gets ``done`` or ``error`` — a bad frame
        is answered, never a reason to drop the socket. An abort is told to every client,
        the sender included, as ``aborted`` (None: nothing more to answer)."""
        start = time.perf_counter()
        try:
            body = parse_frame(text)
            if body.get("action") == ABORT:
                await self._abort(game_id, {"t": token}, user)
                return None
            changed = await self._act(game_id, {**body, "t": token}, user)
        except ApiError as exc:
            return {"type": "error", "status": exc.status, "error": exc.message,
                    "article": exc.article}
        except AtrilError as exc:
            return {"type": "error", "status": 400, "error": str(exc),
                    "article": exc.article}
        except Exception:
            log.exception("error interno en una acción de %s", game_id)
            return {"type": "error", "status": 500, "article": None,
                    "error": _("error interno del servidor; recarga la página")}
        return {"type": "done", "version": changed.version,
                "server_ms": round((time.perf_counter() - start) * 1000, 2)}

    # -- helpers ------------------------------------------------------------------------------
    async def _load(self, game_id: str) -> tuple[int, dict]:
        try:
            return await run_in_threadpool(self.games.store.load, game_id)
        except NotFound:
            raise ApiError(404, _("no existe esa partida")) from None

    async def _seat(self, conn: HTTPConnection, game_id: str) -> tuple[int, dict, Any]:
        """The game and the seat a request or WebSocket speaks for: its token's (``?t=``),
        else its session's account's, else None (a spectator)."""
        version, doc = await self._load(game_id)
        user = await self.accounts.current(conn)
        return version, doc, self.games.seat(doc, conn.query_params.get("t"), user)

    async def _publish(self, game_id: str, changed: Changed) -> None:
        await self.hub.publish(game_id, changed.version, changed.doc)

    def _after(self, game_id: str) -> None:
        """Let the computer act, in the background, if it is its turn."""
        task = asyncio.create_task(self.computer(game_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def computer(self, game_id: str) -> None:
        """The computer's steps while it is to act (accept or challenge, then move)."""
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


def _reason(message: str) -> str:
    """A WebSocket close reason: at most 123 bytes of UTF-8."""
    return message.encode()[:120].decode(errors="ignore")


def _error(status: int, message: str, article: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "article": article}, status_code=status)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _error(exc.status, exc.message, exc.article)


async def _atril_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, AtrilError)
    return _error(400, str(exc), exc.article)


#: the addresses whose answers are JSON, also when they do not exist.
API_PREFIXES = ("/api/", "/juez/api/", "/estudio/api/")


async def _http_error(request: Request, exc: Exception) -> Response:
    """An unknown address: a page with a link to the lobby, or JSON under ``/api/``."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404 and not request.url.path.startswith(API_PREFIXES):
        return FileResponse(str(STATIC / "notfound.html"), status_code=404,
                            media_type="text/html")
    text = {404: _("no existe esa página"), 405: _("método no permitido")}.get(
        exc.status_code, str(exc.detail))
    return _error(exc.status_code, text)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("error interno en %s", request.url.path)
    with use(request_language(request.scope) or current()):  # outside the Language middleware
        return _error(500, _("error interno del servidor; recarga la página para ver el estado "
                             "de la partida"))
