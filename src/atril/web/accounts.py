"""Accounts, sessions and roles: optional — a guest plays exactly as before, with a seat's
token; an account keeps a name, a rating and its games on any device.

- **Passwords** are hashed with argon2id (``argon2-cffi``'s defaults), never stored or logged
  as given; a wrong name and a wrong password get the same answer, in the same time (an
  unknown name is checked against a dummy hash).
- **Sessions**: a random secret of 256 bits (``secrets``) in the cookie ``atril-sesion``
  (``HttpOnly``, ``SameSite=Lax``, ``Path=/``, ``Secure`` when the request came over HTTPS,
  30 days); the database keeps only its SHA-256. Logging out deletes it; changing the
  password ends every other session of the account.
- **CSRF**: every state-changing request that carries the session cookie must carry the
  header ``X-CSRF-Token`` with the session's CSRF token (``guard.Guard`` checks it before any
  handler runs). The token is an HMAC of the session secret, so it changes with the session
  and needs no storage; another site can neither read it nor make a browser send the header.
- **Roles**: everyone is a ``player``; an ``admin`` grants and takes away ``director`` and
  ``admin`` (``POST /api/admin/roles``); the first admin is made by ``atril admin crear``.

API: ``POST /api/cuenta/alta`` and ``/entrar`` (``{"name", "password"}`` → ``{"name",
"roles", "csrf"}`` and the cookie), ``POST /api/cuenta/salir``, ``POST /api/cuenta/clave``
(``{"old", "new"}``), ``GET /api/cuenta`` (``{"name": null}`` for a guest, else ``{"name",
"roles", "csrf", "rating": {"rating", "games", "provisional"}}``), ``POST /api/admin/roles``
(``{"name", "role", "grant"}``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
import unicodedata
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import rating
from ..i18n import _
from .requests import ApiError, read_object
from .store import Store, Taken, User

SESSION_COOKIE = "atril-sesion"
CSRF_HEADER = "X-CSRF-Token"
SESSION_SECONDS = 30 * 86400
#: every role; ``player`` is everyone's, the others are granted.
ROLES = ("player", "director", "admin")
GRANTED = ROLES[1:]
NAME = re.compile(r"[\w.-]{3,20}")
MIN_PASSWORD, MAX_PASSWORD = 8, 256
#: the longest cookie value looked up (a session secret is 43 characters).
_MAX_TOKEN = 100


def csrf_for(token: str) -> str:
    """The CSRF token of the session whose secret is ``token``."""
    return hmac.new(token.encode(), b"atril-csrf", hashlib.sha256).hexdigest()[:32]


def _session_id(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def roles(user: User) -> list[str]:
    """Every role of an account, ``player`` first."""
    return [r for r in ROLES if r == "player" or r in user.roles]


def rating_of(user: User) -> dict[str, Any]:
    """An account's rating as the API shows it."""
    return {"rating": round(user.rating, 2), "games": user.games,
            "provisional": user.games < rating.PROVISIONAL_GAMES}


def session_token(conn: HTTPConnection) -> str | None:
    """The session secret a request or WebSocket carries, if any."""
    token = conn.cookies.get(SESSION_COOKIE)
    return token if token and len(token) <= _MAX_TOKEN else None


class Accounts:
    """The accounts of one store."""

    def __init__(self, store: Store):
        self.store = store
        self.hasher = PasswordHasher()
        self._dummy = self.hasher.hash(secrets.token_hex(16))

    def sign_up(self, name: object, password: object, granted: tuple[str, ...] = ()) -> User:
        """A new account (409 if the name, ignoring case, is taken)."""
        name = _name(name)
        user = User(secrets.token_hex(8), name, self.hasher.hash(_password(password)), granted,
                    float(rating.INITIAL_RATING), 0, time.time())
        try:
            self.store.add_user(user)
        except Taken:
            raise ApiError(409, _("ya hay una cuenta con el nombre «{name}»").format(
                name=name)) from None
        return user

    def log_in(self, name: object, password: object) -> User:
        """The account whose name and password these are; 401 otherwise, the same answer
        (and about the same time) for an unknown name and a wrong password."""
        if not isinstance(name, str) or not isinstance(password, str) \
                or len(name) > 100 or len(password) > MAX_PASSWORD:
            raise ApiError(400, _("se esperaba {example}").format(
                example='{"name": "…", "password": "…"}'))
        user = self.store.user_named(name.strip())
        if not self._verify(user.password if user else self._dummy, password) or user is None:
            raise ApiError(401, _("nombre o clave incorrectos"))
        return user

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def open_session(self, user: User) -> str:
        """A new session of ``user``: its secret (the cookie's value)."""
        token = secrets.token_urlsafe(32)
        self.store.add_session(_session_id(token), user.id, time.time() + SESSION_SECONDS)
        return token

    def session(self, token: str | None) -> User | None:
        """The account of a live session, None for no session or a forged or expired one."""
        if token is None:
            return None
        return self.store.session_user(_session_id(token), time.time())

    def close_session(self, token: str) -> None:
        self.store.delete_session(_session_id(token))

    def change_password(self, user: User, token: str, old: object, new: object) -> None:
        """A new password, the old one given; every other session of the account ends."""
        if not isinstance(old, str) or not self._verify(user.password, old):
            raise ApiError(403, _("la clave actual no es esa"))
        self.store.set_password(user.id, self.hasher.hash(_password(new)),
                                keep=_session_id(token))

    def grant(self, admin: User, name: object, role: object, grant: object) -> User:
        """An admin gives (``grant`` true) or takes away a role."""
        if "admin" not in admin.roles:
            raise ApiError(403, _("solo un administrador puede dar o quitar roles"))
        if role not in GRANTED or not isinstance(role, str):
            raise ApiError(400, _("rol desconocido: {roles}").format(roles=", ".join(GRANTED)))
        if not isinstance(grant, bool):
            raise ApiError(400, _("«grant» es true (dar el rol) o false (quitarlo)"))
        user = self.store.user_named(name) if isinstance(name, str) else None
        if user is None:
            raise ApiError(404, _("no existe ese jugador"))
        if user.id == admin.id and role == "admin" and not grant:
            raise ApiError(400, _("un administrador no puede quitarse su propio rol"))
        kept = tuple(r for r in GRANTED if r in user.roles and r != role)
        updated = tuple(r for r in GRANTED if r in kept or (grant and r == role))
        self.store.set_roles(user.id, updated)
        return User(user.id, user.name, user.password, updated, user.rating, user.games,
                    user.created)


def _name(name: object) -> str:
    if not isinstance(name, str):
        raise ApiError(400, _("falta «name»"))
    name = unicodedata.normalize("NFC", name).strip()
    if not NAME.fullmatch(name):
        raise ApiError(400, _("el nombre de una cuenta tiene de 3 a 20 caracteres: letras, "
                              "cifras, «_», «-» y «.»"))
    return name


def _password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ApiError(400, _("la clave tiene de {least} a {most} caracteres").format(
            least=MIN_PASSWORD, most=MAX_PASSWORD))
    return password


class AccountApi:
    """The account handlers (argon2 runs in the thread pool: it takes tens of milliseconds
    on purpose)."""

    def __init__(self, accounts: Accounts):
        self.accounts = accounts

    def routes(self) -> list[Route]:
        return [Route("/api/cuenta", self.me),
                Route("/api/cuenta/alta", self.sign_up, methods=["POST"]),
                Route("/api/cuenta/entrar", self.log_in, methods=["POST"]),
                Route("/api/cuenta/salir", self.log_out, methods=["POST"]),
                Route("/api/cuenta/clave", self.change_password, methods=["POST"]),
                Route("/api/admin/roles", self.roles, methods=["POST"])]

    async def current(self, conn: HTTPConnection) -> User | None:
        """The account of the session a request or WebSocket carries (None: a guest)."""
        token = session_token(conn)
        if token is None:
            return None
        return await run_in_threadpool(self.accounts.session, token)

    async def me(self, request: Request) -> Response:
        user = await self.current(request)
        token = session_token(request)
        if user is None or token is None:
            response = JSONResponse({"name": None})
            if request.cookies.get(SESSION_COOKIE) is not None:  # a dead session: forget it
                _clear(response, request)
            return response
        return JSONResponse({**_signed_in(user, token), "rating": rating_of(user)})

    async def sign_up(self, request: Request) -> Response:
        body = await read_object(request)
        user = await run_in_threadpool(self.accounts.sign_up, body.get("name"),
                                       body.get("password"))
        return await self._session(request, user, 201)

    async def log_in(self, request: Request) -> Response:
        body = await read_object(request)
        user = await run_in_threadpool(self.accounts.log_in, body.get("name"),
                                       body.get("password"))
        return await self._session(request, user, 200)

    async def _session(self, request: Request, user: User, status: int) -> Response:
        """A new session for ``user`` (any session the request carried ends)."""
        old = session_token(request)
        if old is not None:
            await run_in_threadpool(self.accounts.close_session, old)
        token = await run_in_threadpool(self.accounts.open_session, user)
        response = JSONResponse(_signed_in(user, token), status_code=status)
        response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_SECONDS, path="/",
                            httponly=True, samesite="lax", secure=_https(request))
        return response

    async def log_out(self, request: Request) -> Response:
        token = session_token(request)
        if token is not None:
            await run_in_threadpool(self.accounts.close_session, token)
        response = Response(status_code=204)
        _clear(response, request)
        return response

    async def change_password(self, request: Request) -> Response:
        body = await read_object(request)
        user, token = await self.required(request)
        await run_in_threadpool(self.accounts.change_password, user, token, body.get("old"),
                                body.get("new"))
        return Response(status_code=204)

    async def roles(self, request: Request) -> Response:
        body = await read_object(request)
        admin = await self.current(request)
        if admin is None:
            raise ApiError(403, _("solo un administrador puede dar o quitar roles"))
        user = await run_in_threadpool(self.accounts.grant, admin, body.get("name"),
                                       body.get("role"), body.get("grant"))
        return JSONResponse({"name": user.name, "roles": roles(user)})

    async def required(self, conn: HTTPConnection) -> tuple[User, str]:
        """The account and session secret of a request that needs them: 401 for a guest."""
        token = session_token(conn)
        user = await self.current(conn)
        if user is None or token is None:
            raise ApiError(401, _("inicia sesión para esto"))
        return user, token


def _signed_in(user: User, token: str) -> dict[str, Any]:
    return {"name": user.name, "roles": roles(user), "csrf": csrf_for(token)}


def _https(request: Request) -> bool:
    return request.url.scheme == "https"


def _clear(response: Response, request: Request) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=_https(request))
