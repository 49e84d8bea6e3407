"""What every response and request passes through: security headers, the origin check for
anything that changes state, and per-client rate limits (an ASGI middleware, so streaming and
WebSockets pass untouched).

- Every HTTP response gets ``X-Content-Type-Options: nosniff``, ``Referrer-Policy:
  no-referrer`` (a page's address holds its seat token: it must never travel in a Referer),
  ``X-Frame-Options: DENY`` and a Content-Security-Policy that allows only this origin's own
  scripts, styles and connections and no framing. Everything but ``/static/`` files and the
  pages' strings (``/i18n/``) is ``Cache-Control: no-store``: pages and answers carry tokens and
  hidden racks.
- A request that is not GET/HEAD/OPTIONS with an ``Origin`` header of another site is refused
  (403); the handlers also demand a JSON (or binary) content type, which another site cannot
  send without a CORS preflight that this server never grants.
- Such a request that carries the session cookie must also carry the session's CSRF token in
  the ``X-CSRF-Token`` header (``accounts.csrf_for``), or it is refused (403) before any
  handler runs, whether the session is still alive or not.
- Rate limits are token buckets per client address and kind of request; over the limit a
  request gets 429 with ``Retry-After``. Behind a reverse proxy the client address is the
  proxy's unless uvicorn is told to trust its ``X-Forwarded-For`` (``--forwarded-allow-ips``).
"""

from __future__ import annotations

import hmac
import json
import math
import re
import threading
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp as App
from starlette.types import Message, Receive, Scope, Send

from ..i18n import _
from .accounts import CSRF_HEADER, SESSION_COOKIE, csrf_for

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", CSP.encode()),
]
NO_STORE = (b"cache-control", b"no-store")
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}

#: kind → (requests per minute, burst), and which requests are of that kind.
RATE_LIMITS: dict[str, tuple[float, int]] = {
    "create": (20, 10),   # new games
    "join": (20, 10),     # invitation claims
    "upload": (4, 3),     # word lists (each one is compiled)
    "search": (60, 20),   # study searches
    "judge": (120, 30),   # the judge page
    "signup": (3, 3),     # new accounts (each hashes a password)
    "login": (10, 5),     # log-ins and password changes: guesses of a password
    "seek": (20, 10),     # lobby seeks
    "room": (120, 60),    # joining a duplicate room: a hall behind one address joins at once
    "analysis": (6, 3),   # analyses by simulation (each takes a core for a while)
}
_KINDS: list[tuple[str, re.Pattern[str], str]] = [
    ("POST", re.compile(r"^/api/partidas/?$"), "create"),
    ("POST", re.compile(r"^/api/partidas/[^/]+/unirse$"), "join"),
    ("POST", re.compile(r"^/api/lexicos/?$"), "upload"),
    ("GET", re.compile(r"^/estudio/api/"), "search"),
    ("POST", re.compile(r"^/juez/api/"), "judge"),
    ("POST", re.compile(r"^/api/cuenta/alta$"), "signup"),
    ("POST", re.compile(r"^/api/cuenta/(entrar|clave)$"), "login"),
    ("POST", re.compile(r"^/api/busquedas/?$"), "seek"),
    ("POST", re.compile(r"^/api/(busquedas/[^/]+/aceptar|partidas/[^/]+/revancha)$"), "create"),
    ("POST", re.compile(r"^/api/(duplicadas|torneos)/?$"), "create"),
    ("POST", re.compile(r"^/api/duplicadas/unirse$"), "room"),
    ("POST", re.compile(r"^/api/partidas/[^/]+/analisis/fondo$"), "analysis"),
]


class RateLimiter:
    """Token buckets by (kind, client): ``wait`` says how many seconds until one is free."""

    def __init__(self, limits: dict[str, tuple[float, int]] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.limits = dict(RATE_LIMITS if limits is None else limits)
        self.clock = clock
        self._buckets: dict[tuple[str, str], list[float]] = {}
        self._lock = threading.Lock()
        self._swept = clock()

    def wait(self, kind: str, client: str) -> float:
        """0 and a token taken, or the seconds to wait for the next one."""
        rate, burst = self.limits[kind]
        per_second = rate / 60
        now = self.clock()
        with self._lock:
            if now - self._swept > 300:
                self._sweep(now)
            tokens, last = self._buckets.get((kind, client), (float(burst), now))
            tokens = min(float(burst), tokens + (now - last) * per_second)
            if tokens >= 1:
                self._buckets[(kind, client)] = [tokens - 1, now]
                return 0.0
            self._buckets[(kind, client)] = [tokens, now]
            return (1 - tokens) / per_second

    def _sweep(self, now: float) -> None:
        """Forget clients whose buckets are full again (memory stays bounded)."""
        self._swept = now
        for key, (tokens, last) in list(self._buckets.items()):
            rate, burst = self.limits[key[0]]
            if tokens + (now - last) * rate / 60 >= burst:
                del self._buckets[key]


def origin_allowed(headers: Iterable[tuple[bytes, bytes]], extra: Iterable[str] = ()) -> bool:
    """No ``Origin`` (not a browser, or same-origin GET), or one naming this host, or one of
    the ``extra`` origins the operator allows (a proxy's public address)."""
    origin = host = None
    for name, value in headers:
        if name == b"origin":
            origin = value.decode("latin-1")
        elif name == b"host":
            host = value.decode("latin-1")
    if origin is None:
        return True
    if origin in extra:
        return True
    return host is not None and urlsplit(origin).netloc == host


def csrf_ok(scope: Scope) -> bool:
    """No session cookie, or the header with that session's CSRF token (both read as the
    handlers read them)."""
    headers = Headers(scope=scope)
    token = cookie_parser(headers.get("cookie", "")).get(SESSION_COOKIE)
    if token is None:
        return True
    given = headers.get(CSRF_HEADER, "")
    return hmac.compare_digest(given.encode(), csrf_for(token).encode())


def kind_of(method: str, path: str) -> str | None:
    for want, pattern, kind in _KINDS:
        if method == want and pattern.match(path):
            return kind
    return None


class Guard:
    """The middleware: headers on every response, the origin check, the rate limits."""

    def __init__(self, app: App, *, limiter: RateLimiter | None, origins: Iterable[str] = ()):
        self.app = app
        self.limiter = limiter
        self.origins = tuple(origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path, method = scope["path"], scope["method"]
        if method not in SAFE_METHODS and not origin_allowed(scope["headers"], self.origins):
            await _refuse(send, 403, _("petición de otro sitio web rechazada: la partida solo "
                                       "acepta acciones de sus propias páginas"))
            return
        if method not in SAFE_METHODS and not csrf_ok(scope):
            await _refuse(send, 403, _("falta la clave de seguridad de la sesión (cabecera "
                                       "{header}) o no es la suya: recarga la página").format(
                                           header=CSRF_HEADER))
            return
        kind = kind_of(method, path)
        if kind is not None and self.limiter is not None:
            client = (scope.get("client") or ("?", 0))[0]
            wait = self.limiter.wait(kind, client)
            if wait > 0:
                await _refuse(send, 429, _("demasiadas peticiones seguidas: espera {seconds} s")
                              .format(seconds=math.ceil(wait)), retry_after=wait)
                return
        no_store = not path.startswith(("/static/", "/juez/static/", "/estudio/static/",
                                        "/i18n/"))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += HEADERS
                if no_store:
                    headers = [h for h in headers if h[0].lower() != b"cache-control"]
                    headers.append(NO_STORE)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _refuse(send: Send, status: int, message: str, retry_after: float | None = None
                  ) -> None:
    body = json.dumps({"error": message, "article": None}, ensure_ascii=False).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()), NO_STORE, *HEADERS]
    if retry_after is not None:
        headers.append((b"retry-after", str(math.ceil(retry_after)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
