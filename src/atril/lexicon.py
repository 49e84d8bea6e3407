"""Lexicons: the bundled ES09 list, user word lists, lists installed for a ruleset, the
compiled-graph cache, word lookup.

A lexicon is a set of words (tile tuples, docs/RULES.md §7: accents ignored, ñ kept, ch/ll/rr are
one tile) held in a KWG (``atril.kwg``). Building the graph for 600 000 words takes seconds, so
the compiled graph is cached on disk, keyed by a hash of the source bytes and a format version;
a second load, even in a new process, only reads that file. Within a process, loading the same
spec twice returns the same object.

``ES09`` is the bundled list with its errata applied: the words where the examples of the FISE
*Reglamento de Léxico* (2009) disagree with it (``data/es09-errata.tsv``, made by
``tools/lexicon_examples.py``); ``ES09-RAW`` is the list as published. A list installed with
``install`` (``atril lexicon install``) is kept in the user data folder and is the one its
rulesets play when a game names none (``Ruleset.lexicon``).
"""

from __future__ import annotations

import contextlib
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
from typing import TYPE_CHECKING, Any, NamedTuple

import platformdirs

from .errors import InvalidTextError, LexiconError
from .i18n import N_, _
from .kwg import Kwg, KwgError
from .tiles import BLANK_BIT, NUM_LETTERS, TILES, strip_accents, tokenize_word

if TYPE_CHECKING:
    from .ruleset import Ruleset


@dataclass(frozen=True)
class Bundled:
    """A list shipped in ``atril/data``: its file, the name shown to people (a msgid), and the
    errata applied to it when it loads (a file beside it: word, add or remove, article)."""

    file: str
    name: str
    errata: str | None = None


#: the bundled lists by id.
BUNDLED: dict[str, Bundled] = {
    "ES09": Bundled("es09.txt.xz", N_(
        "ES09: lista libre de palabras en español (an-array-of-spanish-words 2.0.0, MIT), con "
        "las correcciones del Reglamento de Léxico FISE 2009"), "es09-errata.tsv"),
    "ES09-RAW": Bundled("es09.txt.xz", N_(
        "ES09-RAW: la lista ES09 tal como se publicó, sin las correcciones del Reglamento de "
        "Léxico")),
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
        """A bundled list by id (``"ES09"``), an installed one by id (``install``), a
        ``.txt``/``.txt.gz`` word list by path, or a compiled ``.kwg`` from wolges/Macondo
        (Spanish tile order, see ``atril.kwg``).

        Raises ``LexiconError`` (a message in the current language) for an unknown id or an
        unusable file.
        """
        if isinstance(spec, Lexicon):
            return spec
        name = str(spec).upper() if isinstance(spec, str) else ""
        with _LOCK:
            if name in BUNDLED:
                if name not in _LOADED:
                    _LOADED[name] = (None, _load_bundled(name, BUNDLED[name]))
                return _LOADED[name][1]
            entry = installed().get(name) if _INSTALL_ID.fullmatch(name) else None
            path = Path(spec) if entry is None else entry.path
            try:
                stat = path.stat()
            except OSError:
                if entry is not None:
                    raise LexiconError(_("la lista instalada «{id}» ya no está en «{path}»: "
                                         "vuelve a instalarla").format(id=name, path=path)
                                       ) from None
                raise LexiconError(_missing_message(spec)) from None
            key, stamp = str(path.resolve()), (stat.st_mtime_ns, stat.st_size)
            if key not in _LOADED or _LOADED[key][0] != stamp:  # new, or the file changed
                _LOADED[key] = (stamp, _load_file(path) if entry is None else
                                _from_bytes(_read_file(path), path, entry.id, entry.name,
                                            _installed_label(entry.id)))
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


def _compile(lines: list[str], source: str, id: str, name: str) -> Lexicon:
    report = LoadReport(source=source)
    blob = _read_lines(lines, report)
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


def _data(filename: str) -> bytes:
    return resources.files("atril").joinpath("data", filename).read_bytes()


class Erratum(NamedTuple):
    """A correction of a bundled list: a word (spelled as the list spells it) to add or remove,
    and the article of the FISE *Reglamento de Léxico* (2009) whose examples call for it."""

    word: str
    action: str  # "add" or "remove"
    article: str


def errata(id: str = DEFAULT) -> list[Erratum]:
    """The errata a bundled list loads with (none for ``ES09-RAW``)."""
    filename = _bundled(id).errata
    if filename is None:
        return []
    return [Erratum(*line.split("\t")) for line in _data(filename).decode("utf-8").splitlines()
            if line and not line.startswith("#")]


def _bundled(id: str) -> Bundled:
    try:
        return BUNDLED[id.upper()]
    except KeyError:
        raise LexiconError(_missing_message(id)) from None


def _bundled_lines(id: str, packed: bytes) -> list[str]:
    """A bundled list's words, one a line, with its errata applied."""
    lines = lzma.decompress(packed).decode("utf-8").splitlines()
    fixes = errata(id)
    removed = {e.word for e in fixes if e.action == "remove"}
    if removed:
        lines = [w for w in lines if w not in removed]
    return lines + [e.word for e in fixes if e.action == "add"]


def _load_bundled(id: str, entry: Bundled) -> Lexicon:
    packed = _data(entry.file)
    # the errata are part of the source: a changed errata file is another cache entry
    source = (packed,) if entry.errata is None else (packed, b"\x00errata\x00",
                                                    _data(entry.errata))

    def build() -> Lexicon:
        return _compile(_bundled_lines(id, packed), id, id, entry.name)

    return _cached(source, id, build)


def _read_file(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except IsADirectoryError:
        raise LexiconError(_("«{path}» es una carpeta, no una lista de palabras").format(
            path=path)) from None
    except FileNotFoundError:
        raise LexiconError(_missing_message(path)) from None
    except OSError as exc:
        raise LexiconError(_("no se puede leer la lista «{path}»: {error}").format(
            path=path, error=exc.strerror or exc)) from None


def _file_id(path: Path) -> str:
    stem = path.name
    for suffix in (".gz", ".txt", ".kwg"):
        stem = stem.removesuffix(suffix)
    return stem.upper() or "PROPIA"


def _load_file(path: Path) -> Lexicon:
    return _from_bytes(_read_file(path), path, _file_id(path), path.name, str(path.resolve()))


def _from_bytes(raw: bytes, path: Path, id: str, name: str, label: str) -> Lexicon:
    """A lexicon from a file's bytes: a ``.kwg`` as it is, a list compiled (or read from the
    cache entry of ``label`` and these bytes)."""
    if path.suffix.lower() == ".kwg":
        return _load_kwg(path, raw, id, name)

    def build() -> Lexicon:
        data = raw
        if raw[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(raw)
            except (OSError, EOFError, zlib.error):
                raise LexiconError(_("«{path}» es un .gz dañado").format(path=path)) from None
        return _compile(_decode(data, str(path)).splitlines(), str(path), id, name)

    return _cached((raw,), label, build)


def _load_kwg(path: Path, raw: bytes, id: str, name: str) -> Lexicon:
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
    return Lexicon(id, name, kwg, count, LoadReport(source=str(path), kept=count))


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
    """A bundled list's words (its errata applied) as tile tuples, in tile order, read from its
    text with no graph involved: the word list ``atril.reference`` checks the engine against."""
    lines = _bundled_lines(id.upper(), _data(_bundled(id).file))
    blob = _read_lines(lines, LoadReport(source=id))
    return [tuple(word) for word in sorted(blob.split(b"\x00"))]


def _missing_message(spec: object) -> str:
    text = str(spec)
    if os.sep not in text and "/" not in text and "." not in text:
        return _("léxico desconocido «{id}»; los incluidos son: {known}, o indica un archivo "
                 ".txt").format(id=text, known=", ".join([*BUNDLED, *installed()]))
    return _("no existe la lista de palabras «{path}»").format(path=text)


# --- the disk cache -------------------------------------------------------------------------

def cache_dir() -> Path:
    """Where compiled lexicons live: ``$ATRIL_CACHE_DIR`` or the user cache directory."""
    return Path(os.environ.get("ATRIL_CACHE_DIR") or platformdirs.user_cache_dir("atril"))


def _cache_path(raw: Sequence[bytes], label: str) -> Path:
    """``lexicon-<source>-<content>.bin``: the source part (a hash of the label) lets a new
    build replace the file of an older version of the same list. The content part hashes the
    source's pieces one after another (no copy of a large list)."""
    source = hashlib.sha256(label.encode("utf-8")).hexdigest()[:12]
    digest = hashlib.sha256(f"atril-lexicon-{CACHE_VERSION}\x00{label}\x00".encode())
    for piece in raw:
        digest.update(piece)
    return cache_dir() / f"lexicon-{source}-{digest.hexdigest()[:40]}.bin"


def _cached(raw: Sequence[bytes], label: str, build: Callable[[], Lexicon]) -> Lexicon:
    """The lexicon from the cache file for these source bytes (in pieces), or built and saved
    there.

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
    """Write atomically; a cache that cannot be written is just skipped."""
    meta = json.dumps({"id": lexicon.id, "name": lexicon.name, "word_count": lexicon.word_count,
                       "report": asdict(lexicon.report)}, ensure_ascii=False).encode("utf-8")
    body = meta + lexicon.kwg.to_bytes()
    header = _HEADER.pack(_CACHE_MAGIC, CACHE_VERSION, len(meta), zlib.crc32(body))
    try:
        _replace(path, header, body)
        source = path.name.split("-")[1]
        for old in path.parent.glob(f"lexicon-{source}-*.bin"):  # older versions of this list
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass


def _replace(path: Path, *chunks: bytes) -> None:
    """Write a file atomically (temp file + rename), making its folder if need be."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = None
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tmp-", delete=False) as f:
            tmp = f.name
            for chunk in chunks:
                f.write(chunk)
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise


# --- lists installed for a ruleset ----------------------------------------------------------

#: an installed list's id: what ``--lexicon`` and a game record name it by. ``U-`` is kept for
#: the lists uploaded to the web server (``atril.web.lexicons``).
_INSTALL_ID = re.compile(r"(?!U-)[A-Z0-9][A-Z0-9_-]{0,31}")


def data_dir() -> Path:
    """Where atril keeps the user's data: ``$ATRIL_DATA_DIR`` or the user data directory."""
    return Path(os.environ.get("ATRIL_DATA_DIR") or platformdirs.user_data_dir("atril"))


def _registry_path() -> Path:
    """The registry of installed lists: ``lexicons/installed.json`` in the data folder, beside
    the copies of the lists (``lexicons/<ID>.txt``, ``.txt.gz`` or ``.kwg``)."""
    return data_dir() / "lexicons" / "installed.json"


@dataclass(frozen=True)
class Installed:
    """A list installed with ``install``: its copy in the data folder, the name of the file it
    came from, its words, and the rulesets that play it when a game names none."""

    id: str
    path: Path
    name: str
    words: int
    rulesets: tuple[str, ...]


def installed() -> dict[str, Installed]:
    """The installed lists by id."""
    registry = _registry()
    folder = _registry_path().parent
    return {lex_id: Installed(lex_id, folder / entry["file"], entry["name"], entry["words"],
                              tuple(r for r, used in registry["rulesets"].items()
                                    if used == lex_id))
            for lex_id, entry in registry["lexicons"].items()}


def is_named(lex_id: str) -> bool:
    """Whether ``Lexicon.load`` knows this id: a bundled or an installed list."""
    name = lex_id.upper()
    return name in BUNDLED or bool(_INSTALL_ID.fullmatch(name)) and name in installed()


def installed_for(ruleset: str) -> str | None:
    """The id of the list installed for a ruleset (by name), or None."""
    registry = _registry()
    lex_id = registry["rulesets"].get(ruleset)
    return lex_id if lex_id in registry["lexicons"] else None


def install(path: str | os.PathLike[str], rulesets: Iterable[str | Ruleset] = (),
            id: str | None = None) -> Lexicon:
    """Install a word list (``.txt``, ``.txt.gz``) or a ``.kwg`` once: compiled into the
    lexicon cache, copied to the data folder as ``id`` (by default made from the file's name),
    and played by these rulesets when a game names none (``Ruleset.lexicon``). Installing an
    id again replaces its list."""
    from .ruleset import Ruleset

    names = [Ruleset.get(r).name for r in rulesets]
    source = Path(path)
    raw = _read_file(source)
    lex_id = _new_id(id, source)
    file = lex_id + (".kwg" if source.suffix.lower() == ".kwg" else
                     ".txt.gz" if raw[:2] == b"\x1f\x8b" else ".txt")
    lexicon = _from_bytes(raw, source, lex_id, source.name, _installed_label(lex_id))
    with _LOCK:
        registry = _registry()
        folder = _registry_path().parent
        old = registry["lexicons"].get(lex_id)
        registry["lexicons"][lex_id] = {"file": file, "name": source.name,
                                        "words": lexicon.word_count}
        registry["rulesets"].update(dict.fromkeys(names, lex_id))
        try:
            _replace(folder / file, raw)
            if old and old["file"] != file:
                (folder / old["file"]).unlink(missing_ok=True)
        except OSError as exc:
            raise _unwritable(folder, exc) from None
        _write_registry(registry)
    return lexicon


def unassign(rulesets: Iterable[str | Ruleset]) -> dict[str, str]:
    """Let these rulesets play their bundled list again; the lists stay installed. Returns
    ruleset → the id it played."""
    from .ruleset import Ruleset

    names = [Ruleset.get(r).name for r in rulesets]
    with _LOCK:
        registry = _registry()
        dropped = {n: registry["rulesets"].pop(n) for n in names if n in registry["rulesets"]}
        _write_registry(registry)
    return dropped


def uninstall(id: str) -> tuple[str, ...]:
    """Remove an installed list, and with it the rulesets' choice of it (which it returns).
    A game recorded with it can no longer be replayed."""
    lex_id = id.upper()
    with _LOCK:
        registry = _registry()
        entry = registry["lexicons"].pop(lex_id, None)
        if entry is None:
            raise LexiconError(_("no hay ninguna lista instalada «{id}»; las instaladas son: "
                                 "{known}").format(id=id, known=", ".join(
                                     registry["lexicons"]) or "—"))
        rulesets = tuple(r for r, used in registry["rulesets"].items() if used == lex_id)
        for ruleset in rulesets:
            del registry["rulesets"][ruleset]
        _write_registry(registry)
        (_registry_path().parent / entry["file"]).unlink(missing_ok=True)
    return rulesets


def notice(ruleset: str | Ruleset | None, lexicon_id: str) -> str | None:
    """What a game set up under this ruleset with this lexicon must say plainly: that the
    ruleset's text names another list, when the game plays one of atril's bundled lists; None
    when there is nothing to say (docs/RULES.md §7)."""
    from .ruleset import Ruleset

    rules = Ruleset.get(ruleset)
    if rules.text_lexicon is None or lexicon_id.upper() not in BUNDLED:
        return None
    return _("{ruleset} usa {named}; esta partida se juega con {lexicon}, la lista libre incluida "
             "en atril (Reglamento de Léxico FISE 2009).").format(
        ruleset=_(rules.title), named=_(rules.text_lexicon), lexicon=lexicon_id.upper())


def _installed_label(lex_id: str) -> str:
    """The cache entry of an installed list: the same whether compiled by ``install`` or
    again from its copy."""
    return f"installed:{lex_id}"


def _new_id(given: str | None, source: Path) -> str:
    if given is None:
        made = re.sub(r"[^A-Z0-9]+", "-", strip_accents(_file_id(source))).strip("-")[:32]
        if made and _INSTALL_ID.fullmatch(made) and made not in BUNDLED:
            return made
        given = made or source.name
    lex_id = given.upper()
    if not _INSTALL_ID.fullmatch(lex_id) or lex_id in BUNDLED:
        raise LexiconError(_("«{id}» no sirve como nombre de una lista instalada: usa --id con "
                             "letras, cifras, - o _ (hasta 32), que no empiece por «U-» ni sea "
                             "el de una lista incluida ({known})").format(
                                 id=given, known=", ".join(BUNDLED)))
    return lex_id


def _registry() -> dict[str, dict[str, Any]]:
    path = _registry_path()
    try:
        registry = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"lexicons": {}, "rulesets": {}}
    except (OSError, ValueError):
        registry = None
    if not _well_formed(registry):
        raise LexiconError(_("el registro de listas instaladas «{path}» está dañado: bórralo y "
                             "vuelve a instalar las listas").format(path=path))
    return registry


def _well_formed(registry: Any) -> bool:
    """Whether the registry read has the shape ``install`` writes."""
    if not (isinstance(registry, dict) and isinstance(registry.get("lexicons"), dict)
            and isinstance(registry.get("rulesets"), dict)):
        return False
    return all(isinstance(e, dict) and isinstance(e.get("file"), str) and
               isinstance(e.get("name"), str) and isinstance(e.get("words"), int)
               for e in registry["lexicons"].values()) and all(
        isinstance(lex_id, str) for lex_id in registry["rulesets"].values())


def _write_registry(registry: dict[str, dict[str, Any]]) -> None:
    path = _registry_path()
    try:
        _replace(path, json.dumps(registry, ensure_ascii=False, indent=1).encode("utf-8"))
    except OSError as exc:
        raise _unwritable(path.parent, exc) from None


def _unwritable(folder: Path, exc: OSError) -> LexiconError:
    return LexiconError(_("no se puede escribir en «{path}»: {error}").format(
        path=folder, error=exc.strerror or exc))
