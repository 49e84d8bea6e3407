"""The lobby: open seeks another player accepts, and the games being played now.

- ``POST /api/busquedas`` ``{"minutes", "clock_mode", "ruleset", "rated", "lexicon"}`` (and a
  guest's ``name``) → 201 ``{"id", "key"}``: the key is the seeker's secret to follow and
  cancel the seek. A rated seek needs an account.
- ``GET /api/busquedas`` → ``{"seeks": [{"id", "name", "rating", "minutes", "clock_mode",
  "ruleset", "rated", "mine"}]}`` (``mine``: the session's account's, or one whose key is
  given as ``?key=``, which may repeat).
- ``POST /api/busquedas/{id}/aceptar`` → 201 ``{"id", "token", "url"}``: a game against a
  person between the two, who starts drawn for (art. 4); the seeker takes seat 0.
- ``GET /api/busquedas/{id}?key=KEY`` → ``{"status": "open"}`` or ``{"status": "accepted",
  "url"}`` (the seeker's seat); ``DELETE`` with the key → 204. A seek whose seeker has not
  looked for ``SEEK_SECONDS`` is gone.
- ``GET /api/en-juego`` → ``{"games": [{"id", "players", "scores", "ruleset", "turns"}]}``:
  games between two people in progress, to watch (a spectator never sees a rack).

The seeker's seat token is an HMAC of the seek's key, so the store keeps only hashes: of the key
and of that token, which becomes the seat's when the seek is accepted.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
import uuid

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..i18n import _
from .accounts import AccountApi
from .games import Games, new_secret, seated, token_hash
from .requests import REMOTE, ApiError, clean_name, read_object
from .store import User
from .views import invite_open

#: an open seek lasts this long after its seeker last looked at it.
SEEK_SECONDS = 600.0
#: the games listed as being played: changed this recently, at most this many.
LIVE_SECONDS = 3600.0
LIVE_LIMIT = 50
#: what a seek says of the game it asks for.
SEEK_OPTIONS = ("minutes", "clock_mode", "ruleset", "rated", "lexicon")


def seat_token(key: str) -> str:
    """The seeker's seat token, made from the seek's key."""
    digest = hmac.new(key.encode(), b"atril-asiento", hashlib.sha256).digest()[:18]
    return base64.urlsafe_b64encode(digest).decode()


class Lobby:
    def __init__(self, games: Games, accounts: AccountApi):
        self.games = games
        self.store = games.store
        self.accounts = accounts

    def routes(self) -> list[Route]:
        return [Route("/api/busquedas", self.seeks),
                Route("/api/busquedas", self.seek, methods=["POST"]),
                Route("/api/busquedas/{seek_id}", self.status),
                Route("/api/busquedas/{seek_id}", self.cancel, methods=["DELETE"]),
                Route("/api/busquedas/{seek_id}/aceptar", self.accept, methods=["POST"]),
                Route("/api/en-juego", self.live)]

    async def seek(self, request: Request) -> Response:
        body = await read_object(request)
        user = await self.accounts.current(request)
        options = {k: body[k] for k in SEEK_OPTIONS if k in body}
        setup = await run_in_threadpool(self.games.setup, {**options, "mode": REMOTE})
        if setup.rated and user is None:
            raise ApiError(403, _("inicia sesión para jugar una partida puntuable"))
        key = new_secret()
        seek_id = uuid.uuid4().hex[:12]
        await run_in_threadpool(self.store.add_seek, {
            "id": seek_id, "key_hash": token_hash(key), "seat_hash": token_hash(seat_token(key)),
            "user_id": None if user is None else user.id, "name": _player(body, user),
            "rating": None if user is None else user.rating, "options": options})
        return JSONResponse({"id": seek_id, "key": key}, status_code=201)

    async def seeks(self, request: Request) -> Response:
        user = await self.accounts.current(request)
        keys = {token_hash(k) for k in request.query_params.getlist("key")}
        rows = await run_in_threadpool(self.store.seeks, time.time() - SEEK_SECONDS)
        out = []
        for row in rows:
            options = row["options"]
            out.append({
                "id": row["id"], "name": row["name"],
                "rating": None if row["rating"] is None else round(row["rating"], 2),
                "minutes": options.get("minutes", 0),
                "clock_mode": options.get("clock_mode"),
                "ruleset": options.get("ruleset"), "rated": bool(options.get("rated")),
                "mine": (user is not None and row["user_id"] == user.id)
                or row["key_hash"] in keys})
        return JSONResponse({"seeks": out})

    async def status(self, request: Request) -> Response:
        """The seeker looks at the seek (which keeps it open): accepted yet?"""
        seek_id = request.path_params["seek_id"]
        key = await self._key(request, seek_id)
        row = await run_in_threadpool(lambda: self.store.seek(seek_id, seen=time.time()))
        if row is None:
            raise _gone()
        if row["game_id"] is None:
            return JSONResponse({"status": "open"})
        return JSONResponse({"status": "accepted",
                             "url": f"/partida/{row['game_id']}?t={seat_token(key)}"})

    async def cancel(self, request: Request) -> Response:
        seek_id = request.path_params["seek_id"]
        await self._key(request, seek_id)
        await run_in_threadpool(self.store.delete_seek, seek_id)
        return Response(status_code=204)

    async def _key(self, request: Request, seek_id: str) -> str:
        """The seek's key from ``?key=``: 404 for no such seek (or one open but expired), 403
        for a wrong key."""
        key = request.query_params.get("key", "")
        row = await run_in_threadpool(self.store.seek, seek_id)
        if row is None or row["game_id"] is None and row["seen"] < time.time() - SEEK_SECONDS:
            raise _gone()
        if not hmac.compare_digest(token_hash(key), row["key_hash"]):
            raise ApiError(403, _("esta clave no es la de la búsqueda"))
        return key

    async def accept(self, request: Request) -> Response:
        seek_id = request.path_params["seek_id"]
        body = await read_object(request)
        user = await self.accounts.current(request)
        row = await run_in_threadpool(self.store.seek, seek_id)
        _check_open(row)
        assert row is not None
        if user is not None and row["user_id"] == user.id:
            raise ApiError(409, _("no puedes aceptar tu propia búsqueda"))
        if row["options"].get("rated") and user is None:
            raise ApiError(403, _("inicia sesión para jugar una partida puntuable"))
        setup = await run_in_threadpool(self.games.setup, {
            **row["options"], "mode": REMOTE, "names": [row["name"], _player(body, user)]})
        token = new_secret()

        def start() -> str:
            seeker = None if row["user_id"] is None else self.store.user(row["user_id"])
            accounts = {seat: seated(account) for seat, account in
                        (("0", seeker), ("1", user)) if account is not None}
            with self.store.atomic():
                taken = self.store.seek(seek_id, lock=True)
                _check_open(taken)
                assert taken is not None
                game_id = self.games.start(
                    setup, first=None, seed=secrets.randbits(63),
                    tokens={"0": taken["seat_hash"], "1": token_hash(token)}, invite=None,
                    accounts=accounts)
                self.store.seek_accepted(seek_id, game_id)
            return game_id

        game_id = await run_in_threadpool(start)
        return JSONResponse({"id": game_id, "token": token,
                             "url": f"/partida/{game_id}?t={token}"}, status_code=201)

    async def live(self, request: Request) -> Response:
        rows = await run_in_threadpool(self.store.live, time.time() - LIVE_SECONDS, LIVE_LIMIT)
        out = []
        for row in rows:
            if invite_open(row.doc["meta"]):
                continue
            data = row.doc["game"]
            out.append({"id": row.id, "players": list(data["players"]),
                        "scores": [sum(t["points"] for t in data["history"] if t["player"] == p)
                                   for p in (0, 1)],  # a play waiting for a decision not yet
                        "ruleset": data["ruleset"], "turns": len(data["history"])})
        return JSONResponse({"games": out})


def _player(body: dict, user: User | None) -> str:
    """The name a player shows: the account's, or the one a guest gives."""
    if user is not None:
        return user.name
    given = body.get("name")
    return (clean_name(given) if isinstance(given, str) else "") or _("Invitado")


def _check_open(row: dict | None) -> None:
    if row is None or row["seen"] < time.time() - SEEK_SECONDS:
        raise _gone()
    if row["game_id"] is not None:
        raise ApiError(409, _("otro jugador ya ha aceptado esta búsqueda"))


def _gone() -> ApiError:
    return ApiError(404, _("esa búsqueda ya no está abierta"))
