"""Lexicons: the bundled ES09 list, user word lists, the compiled-graph cache, word lookup.

A lexicon is a set of words (tile tuples, docs/RULES.md §7: accents ignored, ñ kept, ch/ll/rr are
one tile) held in a KWG (``atril.kwg``). Building the graph for 600 000 words takes seconds, so
the compiled graph is cached on disk, keyed by a hash of the source bytes and a format version;
a second load, even in a new process, only reads that file. Within a process, loading the same
spec twice returns the same object.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import lzma
import os
import re
import struct
import tempfile
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path

import platformdirs

from .errors import InvalidTextError, LexiconError
from .i18n import N_, _
from .kwg import Kwg, KwgError
from .tiles import BLANK_BIT, NUM_LETTERS, TILES, strip_accents, tokenize_word

#: the bundled lists: id → (file in ``atril/data``, name shown to people: a msgid).
BUNDLED: dict[str, tuple[str, str]] = {
    "ES09": ("es09.txt.xz",
             N_("ES09: lista libre de palabras en español (an-array-of-spanish-words 2.0.0, "
                "MIT)")),
}
DEFAULT = "ES09"
#: the longest word that fits on the board.
MAX_WORD_TILES = 15
#: bump when the cache file layout or the way words are read changes.
CACHE_VERSION = 1
_CACHE_MAGIC = b"ATRILLEX"
_HEADER = struct.Struct("<8sIII")  # magic, version, metadata length, crc32 of the rest

#: why a line of a word list was skipped, with the Spanish text for people (a msgid, formatted
#: with ``most=MAX_WORD_TILES``).
SKIP_REASONS: dict[str, str] = {
    "k_w": N_("con K o W (no existen en el juego español)"),
    "one_tile": N_("de una sola ficha"),
    "too_long": N_("de más de {most} fichas"),
    "junk": N_("ilegibles o con caracteres que no son letras"),
}
_EXAMPLES = 5


@dataclass
class LoadReport:
    """What reading a word list did: kept words, repeats, and skipped lines by reason."""

    source: str
    lines: int = 0
    kept: int = 0
    duplicates: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def skip(self, reason: str, line: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1
        shown = self.examples.setdefault(reason, [])
        if len(shown) < _EXAMPLES:
            shown.append(line[:40])

    def __str__(self) -> str:
        """The report in the current language."""
        out = [_("{source}: {lines} líneas leídas, {kept} palabras aceptadas, {duplicates} "
                 "repetidas").format(source=self.source, lines=self.lines, kept=self.kept,
                                     duplicates=self.duplicates)]
        for reason, count in self.skipped.items():
            examples = ", ".join(f"«{e}»" for e in self.examples.get(reason, []))
            out.append("  " + _("descartadas {count} {reason}: {examples}").format(
                count=count, reason=_(SKIP_REASONS[reason]).format(most=MAX_WORD_TILES),
                examples=examples))
        return "\n".join(out)


class Lexicon:
    """A word list compiled to a KWG: lookup by spelling or by tiles, iteration, the graph."""

    __slots__ = ("id", "name", "word_count", "kwg", "report")

    def __init__(self, id: str, name: str, kwg: Kwg, word_count: int, report: LoadReport):
        self.id = id
        self.name = name
        self.kwg = kwg
        self.word_count = word_count
        self.report = report

    @classmethod
    def load(cls, spec: str | os.PathLike[str] | Lexicon = DEFAULT) -> Lexicon:
        """A bundled list by id (``"ES09"``), a ``.txt``/``.txt.gz`` word list by path, or a
        compiled ``.kwg`` from wolges/Macondo (Spanish tile order, see ``atril.kwg``).

        Raises ``LexiconError`` (a message in the current language) for an unknown id or an
        unusable file.
        """
        if isinstance(spec, Lexicon):
            return spec
        bundled = BUNDLED.get(str(spec).upper()) if isinstance(spec, str) else None
        with _LOCK:
            if bundled is not None:
                key = str(spec).upper()
                if key not in _LOADED:
                    _LOADED[key] = (None, _load_bundled(key, *bundled))
                return _LOADED[key][1]
            path = Path(spec)
            try:
                stat = path.stat()
            except OSError:
                raise LexiconError(_missing_message(spec)) from None
            key, stamp = str(path.resolve()), (stat.st_mtime_ns, stat.st_size)
            if key not in _LOADED or _LOADED[key][0] != stamp:  # new, or the file changed
                _LOADED[key] = (stamp, _load_file(path))
            return _LOADED[key][1]

    @classmethod
    def from_words(cls, words: Iterable[str], id: str = "PROPIA", name: str | None = None
                   ) -> Lexicon:
        """A lexicon from words in memory (spelled as in a word list); not cached."""
        report = LoadReport(source=name or id)
        blob = _read_lines(words, report)
        if not report.kept:
            raise LexiconError(_("la lista «{name}» no contiene ninguna palabra válida").format(
                name=name or id))
        return cls(id, name or id, Kwg.build_blob(blob), report.kept, report)

    # --- lookup ---------------------------------------------------------------------------

    def is_word(self, tiles: Sequence[int]) -> bool:
        """True if these tiles spell a word; a designated blank counts as its letter."""
        try:
            word = bytes(t & ~BLANK_BIT for t in tiles)
        except ValueError:  # a number that is no tile
            return False
        return self.kwg.accepts(word)

    def __contains__(self, word: object) -> bool:
        """``"chacha" in lex`` reads a person's spelling; a tuple of tiles is looked up as is."""
        if isinstance(word, str):
            try:
                return self.is_word(tokenize_word(word))
            except InvalidTextError:
                return False
        if isinstance(word, (tuple, list, bytes)):
            try:
                return self.is_word(word)
            except TypeError:
                return False
        return False

    def words(self) -> Iterator[tuple[int, ...]]:
        """All words as tile tuples, in tile order."""
        return self.kwg.words()

    def __len__(self) -> int:
        return self.word_count

    def __repr__(self) -> str:
        return f"<Lexicon {self.id}: {self.word_count} palabras>"


_LOCK = threading.RLock()
#: loaded lexicons by bundled id or resolved path, with the file's (mtime, size) when read.
_LOADED: dict[str, tuple[tuple[int, int] | None, Lexicon]] = {}


# --- reading word lists ---------------------------------------------------------------------

_SIMPLE = re.compile(r"[a-jl-vx-zñ]+")  # lower case, no accents, no K/W: the common line
_ALL_SIMPLE = re.compile(r"(?:[a-jl-vx-zñ]+\n)*[a-jl-vx-zñ]+")
# While reading, a tile is the byte 0x40 + code, so that b"\n" stays the word separator;
# the kept words are then mapped to their codes, b"\n" to 0 (what Kwg.build_blob takes).
_OFFSET = 0x40
_DIGRAPH_MARKS = ((b"ch", bytes([_OFFSET + 4])), (b"ll", bytes([_OFFSET + 13])),
                  (b"rr", bytes([_OFFSET + 21])))
_SINGLE = [t for t in TILES if len(t.letter) == 1]
_TO_OFFSET = bytes.maketrans("".join(t.letter.lower() for t in _SINGLE).encode("latin-1"),
                             bytes(_OFFSET + t.code for t in _SINGLE))
_TO_CODES = bytes(0 if b == 10 else b - _OFFSET if _OFFSET < b <= _OFFSET + 28 else b
                  for b in range(256))


def _simple_tiles(text: str) -> bytes:
    """Tiles of ``_SIMPLE`` words (one a line) as offset bytes: greedy digraphs, exactly what
    ``tokenize_word`` reads, but done on the whole text at once with bytes methods (fast)."""
    data = text.encode("latin-1")  # a-z and ñ all fit
    for digraph, mark in _DIGRAPH_MARKS:
        data = data.replace(digraph, mark)
    return data.translate(_TO_OFFSET)


def _read_lines(lines: Iterable[str], report: LoadReport) -> bytes:
    """Kept words as a 0-separated blob of tile bytes (what ``Kwg.build_blob`` takes); fills
    the report."""
    lines = list(lines)
    report.lines = len(lines)
    text = "\n".join(lines)
    if _ALL_SIMPLE.fullmatch(text) and text.count("\n") == len(lines) - 1:
        words = lines  # a clean list, like the bundled one: no line needs a closer look
    else:
        match = _SIMPLE.fullmatch
        words = [w for w in lines if match(w)]
        text = "\n".join(words)
    tiles = _simple_tiles(text).split(b"\n") if words else []
    if len(words) < len(lines):
        for line in lines:
            word = line.strip()
            if not word or _SIMPLE.fullmatch(line):
                continue
            try:
                codes = tokenize_word(word.lower())
            except InvalidTextError:
                upper = strip_accents(word).upper()
                report.skip("k_w" if "K" in upper or "W" in upper else "junk", word)
                continue
            if not codes:
                report.skip("junk", word)
                continue
            words.append(word)
            tiles.append(bytes(_OFFSET + c for c in codes))
    seen: set[bytes] = set()
    for word, t in zip(words, tiles):
        if len(t) == 1:
            report.skip("one_tile", word)
        elif len(t) > MAX_WORD_TILES:
            report.skip("too_long", word)
        elif t in seen:
            report.duplicates += 1
        else:
            seen.add(t)
    report.kept = len(seen)
    return b"\n".join(seen).translate(_TO_CODES)


def _decode(raw: bytes, source: str) -> str:
    if b"\x00" in raw:
        raise LexiconError(_("«{source}» no es una lista de palabras (parece un archivo "
                             "binario)").format(source=source))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")  # older Spanish lists; never fails


def _compile(text: str, source: str, id: str, name: str) -> Lexicon:
    report = LoadReport(source=source)
    blob = _read_lines(text.splitlines(), report)
    if not report.kept:
        if not report.lines:
            raise LexiconError(_("la lista «{name}» está vacía").format(name=source))
        raise LexiconError(_("la lista «{name}» no contiene ninguna palabra válida").format(
            name=source) + f"\n{report}")
    try:
        kwg = Kwg.build_blob(blob)
    except KwgError as exc:
        raise LexiconError(_("la lista «{name}» es demasiado grande: {error}").format(
            name=source, error=exc)) from None
    return Lexicon(id, name, kwg, report.kept, report)


def _load_bundled(id: str, filename: str, name: str) -> Lexicon:
    packed = resources.files("atril").joinpath("data", filename).read_bytes()

    def build() -> Lexicon:
        return _compile(lzma.decompress(packed).decode("utf-8"), id, id, name)

    return _cached(packed, id, build)


def _load_file(path: Path) -> Lexicon:
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise LexiconError(_("«{path}» es una carpeta, no una lista de palabras").format(
            path=path)) from None
    except OSError as exc:
        raise LexiconError(_("no se puede leer la lista «{path}»: {error}").format(
            path=path, error=exc.strerror or exc)) from None
    stem = path.name
    for suffix in (".gz", ".txt", ".kwg"):
        stem = stem.removesuffix(suffix)
    id = stem.upper() or "PROPIA"
    if path.suffix.lower() == ".kwg":
        return _load_kwg(path, raw, id)

    def build() -> Lexicon:
        data = raw
        if raw[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(raw)
            except (OSError, EOFError, zlib.error):
                raise LexiconError(_("«{path}» es un .gz dañado").format(path=path)) from None
        return _compile(_decode(data, str(path)), str(path), id, path.name)

    return _cached(raw, str(path.resolve()), build)


def _load_kwg(path: Path, raw: bytes, id: str) -> Lexicon:
    """A compiled graph from wolges or Macondo: already a KWG, so nothing to build or cache,
    but checked in full (``Kwg``) before anything walks it."""
    try:
        kwg = Kwg.from_bytes(raw)
        problem = _unusable(kwg)
    except KwgError as exc:
        problem = str(exc)
    if problem:
        raise LexiconError(_("«{path}» no es un archivo KWG válido: {problem}").format(
            path=path, problem=problem))
    count = kwg.shape.words
    return Lexicon(id, path.name, kwg, count, LoadReport(source=str(path), kept=count))


def _unusable(kwg: Kwg) -> str | None:
    """Why a checked graph cannot be a Spanish lexicon for the engine, or None."""
    if not kwg.shape.words:
        return _("no contiene ninguna palabra")
    if not kwg.has_gaddag:
        return _("no tiene GADDAG (¿es un KWG solo de DAWG?), y el motor lo necesita")
    foreign = [t for t in range(NUM_LETTERS + 1, 256) if kwg.shape.tile_set >> t & 1]
    if foreign:
        return _("usa fichas que no son del alfabeto español (1..{letters}): {tiles}; ¿es de "
                 "otro idioma?").format(letters=NUM_LETTERS, tiles=", ".join(map(str, foreign)))
    return None


def bundled_words(id: str = DEFAULT) -> list[tuple[int, ...]]:
    """A bundled list's words as tile tuples, in tile order, read from its text with no graph
    involved: the word list ``atril.reference`` checks the engine against."""
    try:
        filename = BUNDLED[id.upper()][0]
    except KeyError:
        raise LexiconError(_missing_message(id)) from None
    text = lzma.decompress(resources.files("atril").joinpath("data", filename).read_bytes())
    blob = _read_lines(text.decode("utf-8").splitlines(), LoadReport(source=id))
    return [tuple(word) for word in sorted(blob.split(b"\x00"))]


def _missing_message(spec: object) -> str:
    text = str(spec)
    if os.sep not in text and "/" not in text and "." not in text:
        return _("léxico desconocido «{id}»; los incluidos son: {known}, o indica un archivo "
                 ".txt").format(id=text, known=", ".join(BUNDLED))
    return _("no existe la lista de palabras «{path}»").format(path=text)


# --- the disk cache -------------------------------------------------------------------------

def cache_dir() -> Path:
    """Where compiled lexicons live: ``$ATRIL_CACHE_DIR`` or the user cache directory."""
    return Path(os.environ.get("ATRIL_CACHE_DIR") or platformdirs.user_cache_dir("atril"))


def _cache_path(raw: bytes, label: str) -> Path:
    """``lexicon-<source>-<content>.bin``: the source part (a hash of the label) lets a new
    build replace the file of an older version of the same list."""
    source = hashlib.sha256(label.encode("utf-8")).hexdigest()[:12]
    digest = hashlib.sha256(
        f"atril-lexicon-{CACHE_VERSION}\x00{label}\x00".encode() + raw).hexdigest()
    return cache_dir() / f"lexicon-{source}-{digest[:40]}.bin"


def _cached(raw: bytes, label: str, build: Callable[[], Lexicon]) -> Lexicon:
    """The lexicon from the cache file for these source bytes, or built and saved there.

    ``label`` names the source (id, path): the same words under another name are another
    entry, since the id, name and report are stored with the graph."""
    path = _cache_path(raw, label)
    lexicon = _read_cache(path)
    if lexicon is None:
        lexicon = build()
        _write_cache(path, lexicon)
    return lexicon


def _read_cache(path: Path) -> Lexicon | None:
    """None if missing or unusable in any way (the caller rebuilds it)."""
    try:
        data = path.read_bytes()
        magic, version, meta_len, crc = _HEADER.unpack_from(data)
        if magic != _CACHE_MAGIC or version != CACHE_VERSION:
            return None
        body = memoryview(data)[_HEADER.size:]
        if zlib.crc32(body) != crc:
            return None
        meta = json.loads(bytes(body[:meta_len]).decode("utf-8"))
        # Written by atril from a graph it checked in full: the GADDAG's walk waits for its
        # first use; the rest, all that walks rely on, is checked again here.
        kwg = Kwg.from_bytes(body[meta_len:], check=False)
        word_count = int(meta["word_count"])
        if _unusable(kwg) or kwg.shape.words != word_count:
            return None
        report = LoadReport(**meta["report"])
        return Lexicon(meta["id"], meta["name"], kwg, word_count, report)
    except (OSError, ValueError, KeyError, TypeError, struct.error):
        return None


def _write_cache(path: Path, lexicon: Lexicon) -> None:
    """Write atomically (temp file + rename); a cache that cannot be written is just skipped."""
    meta = json.dumps({"id": lexicon.id, "name": lexicon.name, "word_count": lexicon.word_count,
                       "report": asdict(lexicon.report)}, ensure_ascii=False).encode("utf-8")
    body = meta + lexicon.kwg.to_bytes()
    header = _HEADER.pack(_CACHE_MAGIC, CACHE_VERSION, len(meta), zlib.crc32(body))
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tmp-", delete=False) as f:
            tmp = f.name
            f.write(header)
            f.write(body)
        os.replace(tmp, path)
        source = path.name.split("-")[1]
        for old in path.parent.glob(f"lexicon-{source}-*.bin"):  # older versions of this list
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
