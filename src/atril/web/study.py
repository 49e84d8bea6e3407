"""The study page at ``/estudio``: anagrams, buildable words, patterns, hooks and lists over a
lexicon, by tiles (the same searches as ``atril anagram|build|pattern|hooks|list``).

JSON endpoints (GET; every search takes ``lexico`` (default ES09), and the word searches
``orden=alfa|prob``, ``limite`` (default 200, at most 2000) and ``desde`` (default 0)):

- ``/api/anagrama?atril=CHAVAL?``
- ``/api/construir?atril=CHAVAL?&min=2``
- ``/api/patron?patron=?ACH*``
- ``/api/ganchos?palabras=casa perro`` (at most 50 words)
- ``/api/lista?longitud=2-3&contiene=Ñ``

Word searches answer ``{"total": n, "complete": bool, "desde": i, "siguiente"?: j,
"note"?: "...", "results": [{"word", "tiles", "rank"?, "probability"?, "blanks"?}]}``:
``results`` is the page of found words from position ``desde`` on (at most ``limite``), and
``siguiente`` the ``desde`` of the next page, when there is one. ``total`` is how many words
the search found. When ``complete`` is true that is all the words there are. When false there
may be more, and ``total`` is a lower bound, for one of two reasons:

- an alphabetical pattern search stops one word past the page it was asked for: ``total`` is
  then ``desde + limite + 1`` and only says that a next page exists (no ``note``);
- the search ran out of its work budget (``MAX_NODES`` graph nodes visited, ``MAX_WORDS`` words
  kept, ``MAX_RANKED`` when ranking by probability): ``total`` counts the words it found before
  stopping, ``note`` says so (in the request's language), no page reaches past those words, and
  ``orden=prob`` ranks only them.

Nothing is kept between requests: every page runs its search again, within the same budget.
Hooks answer ``{"results": [...]}``. Bad input is a 400 with ``{"error": "...", "article":
null}``.

Searches are pure-Python CPU work, so none runs in the server's process: each goes to a pool of
``WORKERS`` worker processes (started by the app's first search, stopped with the app), with
as many searches in flight as workers. A request that finds no free worker within
``WAIT_SECONDS`` gets a 503, and so does a search that takes longer than ``TIMEOUT_SECONDS``
(its worker is killed and replaced). Workers read lexicons by reference, never pickled per
request: a bundled list by id (from the disk cache), an uploaded one from a ``.kwg`` file the
server writes once into the lexicon cache folder; each worker keeps the last few in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import os
import signal
import tempfile
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from importlib import resources
from multiprocessing import get_context
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from .. import wordtools as W
from ..errors import AtrilError, InvalidTextError
from ..i18n import N_, _, current, ngettext, number, use
from ..judge import split_words
from ..kwg import Kwg
from ..lexicon import Lexicon, cache_dir, is_named
from .judge import error_response, lexicon_for

STATIC = resources.files("atril.web") / "static" / "estudio"
DEFAULT_LIMIT = 200
MAX_LIMIT = 2000
MAX_HOOK_WORDS = 50

# Work budget of one search, measured by bench/bench_wordtools.py: a graph node costs 0.15 to
# 0.5 µs to visit, a word about 1 µs to keep and 14 µs more to rank by probability: a search
# costs at most a second or two of CPU (the widest measured take 0.9 s; «*» by probability took
# 10.6 s without a budget). No search in the benchmark's first table is cut, in the order it
# runs them (alphabetical): the largest finds 130,522 words in 675,000 nodes.
MAX_NODES = 2_000_000
MAX_WORDS = 200_000
MAX_RANKED = 50_000

# The worker pool. One worker: on a two-core machine searches may take one core, never the one
# the server's process needs for game moves. Ctrl-C reaches the server, which stops the workers.
WORKERS = 1
WAIT_SECONDS = 2.0  # a search waits this long for a free worker, then gets a 503
TIMEOUT_SECONDS = 10.0  # a budgeted search takes about a second: longer means a stuck worker
WORKER_LEXICONS = 4  # lexicon graphs a worker keeps in memory

BUSY = N_("el servidor está ocupado con otras búsquedas; inténtalo en unos segundos")
TOO_SLOW = N_("la búsqueda ha tardado demasiado; afínala o inténtalo en unos segundos")
FAILED = N_("la búsqueda se ha interrumpido; inténtalo de nuevo")

#: what a search sends to a worker: the lexicon (a bundled id or a ``.kwg`` path) and the
#: function that makes the answer from its graph (a ``functools.partial``: it pickles).
Job = tuple[str, Callable[[Kwg], dict]]


# --- reading requests (in the server, so bad input never reaches a worker) ------------------

def _int(request: Request, name: str, default: int, low: int, high: int) -> int:
    text = request.query_params.get(name)
    if text in (None, ""):
        return default
    try:
        value = int(text)
    except ValueError:
        raise InvalidTextError(_("«{name}» debe ser un número, no «{text}»").format(
            name=name, text=text)) from None
    if not low <= value <= high:
        raise InvalidTextError(_("«{name}» va de {low} a {high}").format(
            name=name, low=low, high=high))
    return value


def _text(request: Request, name: str) -> str:
    text = request.query_params.get(name, "").strip()
    if not text:
        raise InvalidTextError(_("falta «{name}»").format(name=name))
    return text


def _source(request: Request) -> str:
    """How a worker finds the request's lexicon: a bundled or installed id, or the path of its
    graph."""
    lexicon = lexicon_for(request, request.query_params.get("lexico"))
    return lexicon.id if is_named(lexicon.id) else _graph_file(lexicon)


def _graph_file(lexicon: Lexicon) -> str:
    """An uploaded lexicon's graph as a ``.kwg`` file in the lexicon cache folder, written
    once (atomically) by whichever server process needs it first. The file is named after the
    id, which is made from the list's contents, so it never goes stale."""
    name = hashlib.sha256(lexicon.id.encode()).hexdigest()[:24]
    path = cache_dir() / f"estudio-{name}.kwg"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".kwg")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(lexicon.kwg.to_bytes())
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    return str(path)


def _words_job(request: Request, find: Callable[..., list[W.Found]], *, refine: str,
               stops_early: bool = False, longest_first: bool = False) -> Job:
    """A word search with the request's order, page and lexicon. ``find(graph, budget=...)``
    searches; ``stops_early``: it takes a ``limit`` and, alphabetically, can stop at the page;
    ``refine`` names what to narrow when the budget runs out (a msgid)."""
    order = request.query_params.get("orden", "alfa")
    if order not in ("alfa", "prob"):
        raise InvalidTextError(_("«orden» es alfa o prob"))
    limit = _int(request, "limite", DEFAULT_LIMIT, 1, MAX_LIMIT)
    start = _int(request, "desde", 0, 0, MAX_WORDS)
    ranked = order == "prob"
    stops_early = stops_early and not ranked
    if stops_early:  # words come in order: one past the page is enough to say "more"
        find = functools.partial(find, limit=start + limit + 1)
    answer = functools.partial(
        _words_answer, find=find, ranked=ranked, start=start, limit=limit,
        stops_early=stops_early, longest_first=longest_first, refine=refine,
        caps=(MAX_NODES, MAX_RANKED if ranked else MAX_WORDS))
    return _source(request), answer


def _anagram(request: Request) -> Job:
    rack = W.parse_tiles(_text(request, "atril"))
    return _words_job(request, functools.partial(W.anagrams, rack=rack), refine=N_("el atril"))


def _build(request: Request) -> Job:
    rack = W.parse_tiles(_text(request, "atril"))
    low = _int(request, "min", 2, 1, W.MAX_TILES)
    return _words_job(request, functools.partial(W.buildable, rack=rack, min_length=low),
                      refine=N_("el atril o la longitud mínima"), longest_first=True)


def _pattern(request: Request) -> Job:
    pattern = W.Pattern.parse(_text(request, "patron"))
    return _words_job(request, functools.partial(W.pattern_words, pattern=pattern),
                      refine=N_("el patrón"), stops_early=True)


def _list(request: Request) -> Job:
    length = request.query_params.get("longitud", "").strip()
    contains = request.query_params.get("contiene", "").strip()
    if not length and not contains:
        raise InvalidTextError(_("indica una longitud, unas fichas que contener o ambas"))
    low, high = W.parse_length(length or None)
    tiles = W.parse_word(contains) if contains else ()
    find = functools.partial(W.word_list, min_length=low, max_length=high, contains=tiles)
    return _words_job(request, find, refine=N_("la longitud o las fichas"))


def _hooks(request: Request) -> Job:
    """Hooks are cheap (two lookups per tile and word), but they run in the pool too: the
    server's process runs no search, and the bound on searches in flight counts them."""
    typed = split_words(_text(request, "palabras"))[:MAX_HOOK_WORDS]
    words = tuple(W.parse_word(w) for w in typed)
    return _source(request), functools.partial(_hooks_answer, words=words)


# --- in a worker ------------------------------------------------------------------------

def _work(source: str, answer: Callable[[Kwg], dict], lang: str) -> dict:
    """A worker's task: the answer to one search, its texts in the request's language."""
    with use(lang):
        return answer(_graph(source))


@functools.lru_cache(maxsize=WORKER_LEXICONS)
def _graph(source: str) -> Kwg:
    """A lexicon's graph in a worker: bundled or installed by id, uploaded from its ``.kwg``
    file."""
    return Lexicon.load(source).kwg if is_named(source) else Kwg.read(source)


def _words_answer(kwg: Kwg, *, find: Callable[..., list[W.Found]], ranked: bool, start: int,
                  limit: int, stops_early: bool, longest_first: bool, refine: str,
                  caps: tuple[int, int]) -> dict:
    budget = W.Budget(*caps)
    found = find(kwg, budget=budget)
    if ranked:
        found = W.by_probability(found)
        if longest_first:
            found.sort(key=lambda f: -len(f.tiles))
    end = start + limit
    answer: dict[str, Any] = {
        "total": len(found), "complete": not budget.cut and not (stops_early and len(found) > end),
        "desde": start, "results": [f.to_json() for f in found[start:end]]}
    if len(found) > end:
        answer["siguiente"] = end
    if budget.cut:
        answer["note"] = _cut_note(len(found), refine, ranked)
    return answer


def _cut_note(found: int, refine: str, ranked: bool) -> str:
    note = ngettext("búsqueda demasiado amplia: se ha detenido tras encontrar {count} palabra; "
                    "afina {refine} para verlas todas",
                    "búsqueda demasiado amplia: se ha detenido tras encontrar {count} palabras; "
                    "afina {refine} para verlas todas", found).format(
        count=number(found), refine=_(refine))
    return note + (" " + _("(el orden por probabilidad es solo entre ellas)") if ranked else "")


def _hooks_answer(kwg: Kwg, *, words: tuple[tuple[int, ...], ...]) -> dict:
    return {"results": [W.hooks(kwg, w).to_json() for w in words]}


# --- the pool ---------------------------------------------------------------------------

class _Pool:
    """The app's worker processes, and the bound on searches in flight (one per worker)."""

    def __init__(self) -> None:
        self.workers = WORKERS
        self.slots = asyncio.Semaphore(self.workers)
        self.executor: ProcessPoolExecutor | None = None

    async def answer(self, job: Job) -> Response:
        try:
            await asyncio.wait_for(self.slots.acquire(), WAIT_SECONDS)
        except TimeoutError:
            return _unavailable(_(BUSY))
        try:
            if self.executor is None:
                self.executor = ProcessPoolExecutor(
                    self.workers, mp_context=get_context("spawn"),  # never a fork of threads
                    initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN))
            future = self.executor.submit(_work, *job, current())
        except BrokenProcessPool:  # its worker died while idle
            self.slots.release()
            self.close()
            return _unavailable(_(FAILED))
        except BaseException:
            self.slots.release()
            raise
        # the slot is free when the worker is: a request that gives up does not free it early
        loop = asyncio.get_running_loop()

        def free(_: Future) -> None:
            with contextlib.suppress(RuntimeError):  # the app has stopped: nothing to free
                loop.call_soon_threadsafe(self.slots.release)

        future.add_done_callback(free)
        try:
            return JSONResponse(await asyncio.wait_for(asyncio.wrap_future(future),
                                                       TIMEOUT_SECONDS))
        except TimeoutError:
            self.close()
            return _unavailable(_(TOO_SLOW))
        except BrokenProcessPool:  # a worker died (killed, out of memory)
            self.close()
            return _unavailable(_(FAILED))

    def close(self) -> None:
        """Kill the workers now (a search under way is abandoned); the next search starts new
        ones. Python 3.11's pool has no public way to kill a busy worker (3.14 adds
        ``terminate_workers``), hence ``_processes``."""
        executor, self.executor = self.executor, None
        if executor is None:
            return
        for process in list((executor._processes or {}).values()):
            process.kill()
        executor.shutdown(wait=False, cancel_futures=True)


def _unavailable(message: str) -> JSONResponse:
    return JSONResponse({"error": message, "article": None}, status_code=503)


def _pool(request: Request) -> _Pool:
    """The app's pool, made by its first search and closed with the app."""
    state = request.app.state
    pool = getattr(state, "study_pool", None)
    if pool is None:
        pool = state.study_pool = _Pool()
        state.closers.append(pool.close)
    return pool


def _endpoint(prepare: Callable[[Request], Job]) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            job = await run_in_threadpool(prepare, request)  # may read the database
        except AtrilError as exc:
            return error_response(exc)
        return await _pool(request).answer(job)
    return endpoint


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
