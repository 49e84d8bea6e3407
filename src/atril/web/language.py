"""The language of each request, and the pages' strings in it.

A request speaks the language of ``?lang=``, else of the cookie the pages' language selector
sets (``atril-lang``), else the one it prefers most in ``Accept-Language``; without any, the
server's own (``ATRIL_LANG`` or Spanish). ``Language`` is an ASGI middleware that sets it for
the whole request or WebSocket: errors and texts are made in it, in the event loop and in the
thread pool alike (``anyio.to_thread.run_sync`` runs the work in a copy of the context).

``/i18n/<lang>.json`` serves the pages their strings: the translations of the gettext catalog
the server's messages come from (the pages' msgids are Spanish, so Spanish needs none).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp as App
from starlette.types import Scope

from ..i18n import _, messages, supported, use

COOKIE = "atril-lang"


def accepted(header: str) -> str | None:
    """The supported language an ``Accept-Language`` header prefers most (the first of the
    highest quality)."""
    best, best_q = None, 0.0
    for part in header.split(","):
        tag, _sep, params = part.partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _eq, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = supported(tag)
        if lang is not None and q > best_q:
            best, best_q = lang, q
    return best


def request_language(scope: Scope) -> str | None:
    """The language a request (HTTP or WebSocket) asks for, if any."""
    asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang")
    if asked and supported(asked[0]):
        return supported(asked[0])
    headers = {name.decode("latin-1"): value.decode("latin-1")
               for name, value in scope.get("headers", ())}
    if "cookie" in headers:
        cookies = SimpleCookie()
        try:
            cookies.load(headers["cookie"])
        except CookieError:
            pass
        if COOKIE in cookies and supported(cookies[COOKIE].value):
            return supported(cookies[COOKIE].value)
    return accepted(headers.get("accept-language", ""))


class Language:
    """The middleware: each request runs in its language."""

    def __init__(self, app: App):
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        lang = request_language(scope) if scope["type"] in ("http", "websocket") else None
        if lang is None:
            await self.app(scope, receive, send)
            return
        with use(lang):
            await self.app(scope, receive, send)


@cache
def _catalog(lang: str) -> tuple[bytes, str]:
    body = json.dumps(messages(lang), ensure_ascii=False, sort_keys=True).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


async def catalog(request: Request) -> Response:
    """``/i18n/<lang>.json``: msgid → translation (or → its plural forms); revalidated with
    its ETag, so a new version of atril is seen at once."""
    lang = request.path_params["lang"]
    if lang != supported(lang):
        return JSONResponse({"error": _("no existe ese idioma"), "article": None},
                            status_code=404)
    body, etag = _catalog(lang)
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
