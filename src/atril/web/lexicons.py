"""The word lists games use: the bundled and installed ones by id (``atril lexicon install``),
and lists people upload.

An uploaded list is stored in the database (so every server process can read it) under an id
made from its contents, ``U-`` and twelve hex digits. Compiling a list is the one thing a
client can make expensive (a graph grows with the square of word lengths), so it runs in a
child process with a time limit and a memory limit, never holding the server's interpreter.
Each process keeps the uploaded lexicons it compiled in a small LRU; the database forgets lists
that no stored game uses (``Store.expire``).
"""

from __future__ import annotations

import hashlib
import multiprocessing
import threading
from collections import OrderedDict
from typing import Any

from ..errors import LexiconError
from ..i18n import _, current, use
from ..kwg import Kwg
from ..lexicon import BUNDLED, Lexicon, installed, is_named
from .requests import ApiError
from .store import Store

MAX_UPLOAD_BYTES = 16 * 1024 * 1024
COMPILE_SECONDS = 20.0
COMPILE_WAIT = 10.0  # seconds an upload waits for another one's compile before giving up
COMPILE_MEMORY = 2 * 1024 ** 3  # bytes of address space for the compiling child
KEPT_UPLOADS = 4  # compiled uploaded lexicons one process keeps in memory


class Lexicons:
    """Lexicons by id for one server process."""

    def __init__(self, store: Store, *, kept: int = KEPT_UPLOADS,
                 compile_seconds: float = COMPILE_SECONDS):
        self.store = store
        self.kept = kept
        self.compile_seconds = compile_seconds
        self._uploaded: OrderedDict[str, Lexicon] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, lex_id: str) -> Lexicon:
        """The lexicon ``lex_id`` (``ES09``, an installed list, or an uploaded ``U-…``);
        LexiconError if unknown."""
        if is_named(lex_id):
            return Lexicon.load(lex_id.upper())  # loaded once per process by the library
        with self._lock:
            if lex_id in self._uploaded:
                self._uploaded.move_to_end(lex_id)
                return self._uploaded[lex_id]
        row = self.store.get_lexicon(lex_id)
        if row is None:
            raise LexiconError(_("no hay ningún léxico «{id}»").format(id=lex_id))
        name, words = row
        return self._keep(compile_words(words, lex_id, name, self.compile_seconds))

    def upload(self, name: str, raw: bytes) -> Lexicon:
        """Read an uploaded word list (UTF-8 or Latin-1, one word a line) and keep it."""
        if len(raw) > MAX_UPLOAD_BYTES:
            raise LexiconError(_("la lista es demasiado grande (máximo 16 MB)"))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        lex_id = "U-" + hashlib.sha256(text.encode()).hexdigest()[:12]
        name = (name or _("lista propia")).strip()[:60] or _("lista propia")
        lexicon = compile_words(text, lex_id, name, self.compile_seconds)
        self.store.put_lexicon(lex_id, name, text)
        return self._keep(lexicon)

    def _keep(self, lexicon: Lexicon) -> Lexicon:
        with self._lock:
            self._uploaded[lexicon.id] = lexicon
            self._uploaded.move_to_end(lexicon.id)
            while len(self._uploaded) > self.kept:
                self._uploaded.popitem(last=False)
        return lexicon

    @staticmethod
    def offered() -> list[dict]:
        """The lists the lobby offers: the bundled ones, named in the current language, and the
        installed ones."""
        return [*({"id": lex_id, "name": _(entry.name)} for lex_id, entry in BUNDLED.items()),
                *({"id": lex_id, "name": f"{lex_id} ({entry.name})"}
                  for lex_id, entry in installed().items())]


# -- compiling in a child process -----------------------------------------------------------
_CONTEXT: Any = None
_CONTEXT_LOCK = threading.Lock()
_COMPILING = threading.BoundedSemaphore(1)  # one compile at a time: it takes a whole core


def _context() -> Any:
    """A fork server with atril loaded: a compile starts in milliseconds, from a clean
    process (never a fork of the threaded server)."""
    global _CONTEXT
    with _CONTEXT_LOCK:
        if _CONTEXT is None:
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(["atril.lexicon"])
            _CONTEXT = ctx
        return _CONTEXT


def compile_words(text: str, lex_id: str, name: str, seconds: float = COMPILE_SECONDS
                  ) -> Lexicon:
    """Compile a word list in a child process; LexiconError if it is not a list, or takes more
    than ``seconds`` or ``COMPILE_MEMORY`` bytes."""
    if not _COMPILING.acquire(timeout=COMPILE_WAIT):
        raise ApiError(503, _("el servidor está compilando otra lista: vuelve a intentarlo en "
                              "unos segundos"))
    try:
        return _compile(text, lex_id, name, seconds)
    finally:
        _COMPILING.release()


def _compile(text: str, lex_id: str, name: str, seconds: float) -> Lexicon:
    ctx = _context()
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_compile_child, args=(send, text, lex_id, name, current()),
                        daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            raise LexiconError(_("la lista «{name}» tarda demasiado en compilarse (más de "
                                 "{seconds} s): súbela más pequeña o con palabras más cortas")
                               .format(name=name, seconds=f"{seconds:g}"))
        try:
            outcome = receive.recv()
        except EOFError:  # the child died: the memory limit, or a crash
            raise LexiconError(_("no se pudo compilar la lista «{name}» (¿necesita más de "
                                 "2 GB?): súbela más pequeña").format(name=name)) from None
    finally:
        receive.close()
        if child.is_alive():
            child.kill()
        child.join()
    if outcome[0] == "error":
        raise LexiconError(outcome[1])
    _ok, nodes, count, report = outcome
    return Lexicon(lex_id, name, Kwg.from_bytes(nodes, check=False), count, report)


def _compile_child(send: Any, text: str, lex_id: str, name: str, lang: str) -> None:
    """In the child: compile, and say why not in the language of the upload's request."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (COMPILE_MEMORY, COMPILE_MEMORY))
    with use(lang):
        try:
            lexicon = Lexicon.from_words(text.splitlines(), id=lex_id, name=name)
            outcome: tuple = ("ok", lexicon.kwg.to_bytes(), lexicon.word_count, lexicon.report)
        except LexiconError as exc:
            outcome = ("error", str(exc))
        except MemoryError:
            outcome = ("error", _("la lista «{name}» necesita demasiada memoria para compilarse")
                       .format(name=name))
    send.send(outcome)
    send.close()
