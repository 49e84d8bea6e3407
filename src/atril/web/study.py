"""The study page at ``/estudio``: anagrams, buildable words, patterns, hooks and lists over a
lexicon, by tiles (the same searches as ``atril anagram|build|pattern|hooks|list``).

JSON endpoints (GET; every search takes ``lexico`` (default ES09), and the word searches
``orden=alfa|prob`` and ``limite`` (default 200, at most 2000)):

- ``/api/anagrama?atril=CHAVAL?``
- ``/api/construir?atril=CHAVAL?&min=2``
- ``/api/patron?patron=?ACH*``
- ``/api/ganchos?palabras=casa perro``
- ``/api/lista?longitud=2-3&contiene=Ñ``

Word searches answer ``{"total": n, "complete": bool, "results": [{"word", "tiles",
"rank"?, "probability"?, "blanks"?}]}``; ``complete`` is false when an alphabetical pattern
search stopped early and ``total`` is only a lower bound. Hooks answer ``{"results": [...]}``.
Bad input is a 400 with ``{"error": "..."}`` in Spanish.
"""

from __future__ import annotations

from importlib import resources
from typing import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from .. import wordtools as W
from ..errors import AtrilError, InvalidTextError
from ..judge import split_words
from ..lexicon import Lexicon
from .judge import error_response, lexicon_for

STATIC = resources.files("atril.web") / "static" / "estudio"
DEFAULT_LIMIT = 200
MAX_LIMIT = 2000


def _int(request: Request, name: str, default: int, low: int, high: int) -> int:
    text = request.query_params.get(name)
    if text in (None, ""):
        return default
    try:
        value = int(text)
    except ValueError:
        raise InvalidTextError(f"«{name}» debe ser un número, no «{text}»") from None
    if not low <= value <= high:
        raise InvalidTextError(f"«{name}» va de {low} a {high}")
    return value


def _text(request: Request, name: str) -> str:
    text = request.query_params.get(name, "").strip()
    if not text:
        raise InvalidTextError(f"falta «{name}»")
    return text


def _words_answer(request: Request, search: Callable[[Lexicon, int], list[W.Found]],
                  *, stops_early: bool = False, longest_first: bool = False) -> dict:
    """Run a word search with the request's order and limit; shape the answer."""
    order = request.query_params.get("orden", "alfa")
    if order not in ("alfa", "prob"):
        raise InvalidTextError("«orden» es alfa o prob")
    limit = _int(request, "limite", DEFAULT_LIMIT, 1, MAX_LIMIT)
    lexicon = lexicon_for(request, request.query_params.get("lexico"))
    if order == "prob":
        found = W.by_probability(search(lexicon, 0))
        if longest_first:
            found.sort(key=lambda f: -len(f.tiles))
        complete = True
    else:
        # an alphabetical search may stop one word past the limit: enough to say "more"
        found = search(lexicon, limit + 1 if stops_early else 0)
        complete = not stops_early or len(found) <= limit
    return {"total": len(found), "complete": complete,
            "results": [f.to_json() for f in found[:limit]]}


def _endpoint(build: Callable[[Request], dict]) -> Callable[[Request], object]:
    async def endpoint(request: Request) -> Response:
        try:
            return JSONResponse(await run_in_threadpool(build, request))
        except AtrilError as exc:
            return error_response(exc)
    return endpoint


def _anagram(request: Request) -> dict:
    rack = _text(request, "atril")
    return _words_answer(request, lambda lex, _: W.anagrams(lex, rack))


def _build(request: Request) -> dict:
    rack = _text(request, "atril")
    low = _int(request, "min", 2, 1, W.MAX_TILES)
    return _words_answer(request, lambda lex, _: W.buildable(lex, rack, min_length=low),
                         longest_first=True)


def _pattern(request: Request) -> dict:
    pattern = W.Pattern.parse(_text(request, "patron"))
    return _words_answer(
        request, lambda lex, stop: W.pattern_words(lex, pattern, limit=stop or None),
        stops_early=True)


def _list(request: Request) -> dict:
    length = request.query_params.get("longitud", "").strip()
    contains = request.query_params.get("contiene", "").strip()
    if not length and not contains:
        raise InvalidTextError("indica una longitud, unas fichas que contener o ambas")
    low, high = W.parse_length(length or None)
    return _words_answer(request, lambda lex, _: W.word_list(
        lex, min_length=low, max_length=high, contains=contains))


def _hooks(request: Request) -> dict:
    words = split_words(_text(request, "palabras"))[:50]
    lexicon = lexicon_for(request, request.query_params.get("lexico"))
    return {"results": [W.hooks(lexicon, w).to_json() for w in words]}


async def page(request: Request) -> Response:
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


routes: list[BaseRoute] = [
    Route("/", page),
    Route("/api/anagrama", _endpoint(_anagram)),
    Route("/api/construir", _endpoint(_build)),
    Route("/api/patron", _endpoint(_pattern)),
    Route("/api/ganchos", _endpoint(_hooks)),
    Route("/api/lista", _endpoint(_list)),
    Mount("/static", StaticFiles(directory=str(STATIC))),
]
