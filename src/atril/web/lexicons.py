"""The word lists games use: the bundled ones by id, and lists people upload.

An uploaded list is stored in the database (so every server process can read it) under an id
made from its contents, ``U-`` and twelve hex digits; each process compiles it once.
"""

from __future__ import annotations

import hashlib
import threading

from ..errors import LexiconError
from ..lexicon import BUNDLED, Lexicon
from .store import Store

MAX_UPLOAD_BYTES = 16 * 1024 * 1024


class Lexicons:
    """Lexicons by id for one server process."""

    def __init__(self, store: Store):
        self.store = store
        self._loaded: dict[str, Lexicon] = {}
        self._lock = threading.Lock()

    def get(self, lex_id: str) -> Lexicon:
        """The lexicon ``lex_id`` (``ES09`` or an uploaded ``U-…``); LexiconError if unknown."""
        with self._lock:
            if lex_id in self._loaded:
                return self._loaded[lex_id]
        if lex_id.upper() in BUNDLED:
            lexicon = Lexicon.load(lex_id.upper())
        else:
            row = self.store.get_lexicon(lex_id)
            if row is None:
                raise LexiconError(f"no hay ningún léxico «{lex_id}»")
            name, words = row
            lexicon = Lexicon.from_words(words.splitlines(), id=lex_id, name=name)
        with self._lock:
            self._loaded[lex_id] = lexicon
        return lexicon

    def upload(self, name: str, raw: bytes) -> Lexicon:
        """Read an uploaded word list (UTF-8 or Latin-1, one word a line) and keep it."""
        if len(raw) > MAX_UPLOAD_BYTES:
            raise LexiconError("la lista es demasiado grande (máximo 16 MB)")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        lex_id = "U-" + hashlib.sha256(text.encode()).hexdigest()[:12]
        name = (name or "lista propia").strip()[:60] or "lista propia"
        lexicon = Lexicon.from_words(text.splitlines(), id=lex_id, name=name)
        self.store.put_lexicon(lex_id, name, text)
        with self._lock:
            self._loaded[lex_id] = lexicon
        return lexicon

    @staticmethod
    def bundled() -> list[dict]:
        return [{"id": lex_id, "name": name} for lex_id, (_, name) in BUNDLED.items()]
