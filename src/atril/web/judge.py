"""The challenge judge page at ``/juez`` (art. 39–40): type the words of one play, see only
«JUGADA CORRECTA» or «JUGADA NO VÁLIDA», never which word failed.

Routes (mounted at ``/juez`` by ``atril.web.app``):

- ``GET  /``             the full-screen page (``?lexico=ES09``, ``?segundos=6``)
- ``POST /api/juzgar``   ``{"palabras": "casa perro" | [..], "lexico": "ES09"}`` →
  ``{"verdict": "...", "valid": bool}``

The optional judgment log (JSON lines, for the tournament director) is the file named by
``app.state.judge_log`` or, failing that, the ``ATRIL_JUDGE_LOG`` environment variable.
"""

from __future__ import annotations

import os
from importlib import resources

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import AtrilError, LexiconError
from ..i18n import _
from ..judge import JudgmentLog, judge, split_words
from ..lexicon import DEFAULT, Lexicon, is_named
from .requests import MAX_JSON_BYTES, parse_json, read_body, require_type

STATIC = resources.files("atril.web") / "static" / "juez"
_logs: dict[str, JudgmentLog] = {}


def lexicon_for(request: Request, lex_id: str | None) -> Lexicon:
    """A lexicon by id: the server's own (bundled, installed or uploaded) lists, never a path on
    disk."""
    lex_id = (lex_id or DEFAULT).strip()
    games = getattr(request.app.state, "games", None)
    if games is not None:
        return games.lexicons.get(lex_id)
    if not is_named(lex_id):
        raise LexiconError(_("no hay ningún léxico «{id}»").format(id=lex_id))
    return Lexicon.load(lex_id.upper())


def error_response(exc: AtrilError) -> JSONResponse:
    """Bad input as the app's other endpoints report it: 400 and the message."""
    return JSONResponse({"error": str(exc), "article": exc.article},
                        status_code=400)


def _log(request: Request, lexicon: Lexicon) -> JudgmentLog | None:
    path = getattr(request.app.state, "judge_log", None) or os.environ.get("ATRIL_JUDGE_LOG")
    if not path:
        return None
    key = f"{path}\0{lexicon.id}"
    if key not in _logs:  # one log object per file, so its lock serialises the writes
        _logs[key] = JudgmentLog(path, lexicon.id)
    return _logs[key]


async def page(request: Request) -> Response:
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


async def api_judge(request: Request) -> Response:
    require_type(request, "application/json")
    body = parse_json(await read_body(request, MAX_JSON_BYTES))
    words = body.get("palabras") if isinstance(body, dict) else None
    if isinstance(words, str):
        words = split_words(words)
    if not isinstance(words, list | tuple) or not all(isinstance(w, str) for w in words):
        return JSONResponse({"error": _("faltan las palabras de la jugada"), "article": None},
                            status_code=400)
    try:
        lexicon = await run_in_threadpool(lexicon_for, request, body.get("lexico"))
        judgment = judge(lexicon, words)
        log = _log(request, lexicon)
        if log is not None:
            await run_in_threadpool(log.record, judgment)
    except AtrilError as exc:
        return error_response(exc)
    return JSONResponse(judgment.to_json())


routes: list[BaseRoute] = [
    Route("/", page),
    Route("/api/juzgar", api_judge, methods=["POST"]),
    Mount("/static", StaticFiles(directory=str(STATIC))),
]
