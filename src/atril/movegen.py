"""Every legal move of a position, scored, and the best ones (the engine's move generator).

    >>> from atril import Board, movegen
    >>> from atril.lexicon import Lexicon
    >>> from atril.rack import Rack
    >>> moves = movegen.generate(Board(), Rack("AEIRSTN"), Lexicon.load())
    >>> len(moves), str(moves[0]), moves[0].bingo
    (1376, 'H2 ARESTIN 66', True)
    >>> [str(c) for c in movegen.best(Board(), Rack("AEIRSTN"), Lexicon.load(), n=2)]
    ['H2 ARESTIN 66', 'H2 ASENTIR 66']

Both return a ``MoveList``: a sequence of ``Candidate`` over one packed buffer, each candidate
made only when looked at (a mid-game position has thousands of moves; most are never read).

The work is done by the C extension ``atril._movegen`` (Gordon's GADDAG algorithm, as in
Macondo and wolges), on a graph ``atril.kwg`` has checked; if it is missing,
``atril.reference`` (pure Python, slow) stands in.
``best`` does not generate everything: it bounds what each anchor could score (MAGPIE's
"shadow" play: best tiles on best squares, words unchecked, bingos only if the rack spells
one) and walks the anchors from the highest bound down, stopping when none can win.

Conventions (as Quackle's, so move counts compare):

* On an empty board only across plays are generated (a down play is the same move mirrored).
* A play of one tile forms up to two words; it is reported once, in the direction of its longer
  word, across when both are equally long. ``rules.check_play`` scores it the same either way.
* A blank is a separate move for each letter it stands for and each square it lies on, even
  when the rack also holds that letter.
* Moves are sorted by score (``best``: by equity), then plays before exchanges before the
  pass, across before down, by row, column, and word: its length, the tiles it places, then
  tile by tile letters before blanks, then by code. The order is the same on every run and
  for the reference generator.

Leave values (``best(..., leave_values=table)``): any object with

* ``kwg_nodes``: a buffer of ``uint32`` nodes (KWG format, ``atril.kwg``) whose DAWG (root at
  ``nodes[0]``'s arc) holds every leave as its tiles sorted by code, the blank as tile 0 —
  wolges' KLV layout;
* ``values``: a buffer of ``float32``, the value of the leave whose rank (its index in the
  DAWG's sorted word order) is the index.

A leave missing from the table, and the empty leave, are worth 0. The rank table (words under
each node) is computed once per table object and cached.
"""

from __future__ import annotations

import struct
import sys
import warnings
import weakref
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Protocol, overload

from . import tiles as T
from .board import LETTER_MULTIPLIER, NUM_SQUARES, SIZE, WORD_MULTIPLIER, Board, square
from .errors import InvalidPositionError
from .i18n import _
from .kwg import Kwg, engine_constants
from .move import EXCHANGE, PASS, PLAY, Move
from .rules import BINGO_BONUS

if TYPE_CHECKING:
    from typing_extensions import Buffer

try:
    from . import _movegen as _native
except ImportError:  # pragma: no cover - only when the extension was not built
    _native = None  # type: ignore[assignment]
    warnings.warn("atril._movegen no está compilado: se usa el generador de referencia (lento)",
                  RuntimeWarning, stacklevel=2)


def configure(native) -> None:
    """Give a C module built on atril_movegen.h (``_movegen``, ``_endgame``, ``_sim``) the
    tile values and counts, the premium maps and the bingo bonus: each keeps its own copy."""
    native.configure(bytes(T.VALUES), bytes(T.COUNTS), bytes(LETTER_MULTIPLIER),
                     bytes(WORD_MULTIPLIER), BINGO_BONUS)


if _native is not None:
    configure(_native)

__all__ = ["Candidate", "LeaveTable", "MoveList", "best", "generate"]

# The packed move record the C code returns: its size, field offsets, kinds and the mark of a
# placed tile, as compiled (atril_engine.h).
_C = engine_constants(_native)
RECORD_SIZE = _C["RECORD_SIZE"]
_SCORE, _KIND, _DIR, _ROW, _COL = (_C["RECORD_SCORE"], _C["RECORD_KIND"], _C["RECORD_DIR"],
                                   _C["RECORD_ROW"], _C["RECORD_COL"])
_LEN, _NPLACED, _TILES, _EQUITY = (_C["RECORD_LEN"], _C["RECORD_NPLACED"], _C["RECORD_TILES"],
                                   _C["RECORD_EQUITY"])
KIND_PLAY, KIND_EXCHANGE, KIND_PASS = _C["KIND_PLAY"], _C["KIND_EXCHANGE"], _C["KIND_PASS"]
NEW_BIT = _C["NEW_BIT"]  # in a record's word: a tile placed by this move
_SCORES = struct.Struct(f"={_SCORE}xh{RECORD_SIZE - _SCORE - 2}x")  # score alone, per record
_EQUITY_FIELD = struct.Struct("=f")


class LeaveTable(Protocol):
    """What ``best`` needs of a leave-value table (see the module docstring)."""

    @property
    def kwg_nodes(self) -> Buffer:
        """The leaves' DAWG, a buffer of uint32."""

    @property
    def values(self) -> Buffer:
        """One float32 per leave, in the DAWG's word order."""


class Candidate:
    """One generated move with its score; decoded from its packed record only when asked."""

    __slots__ = ("_rec", "_rack")

    def __init__(self, record: bytes, rack: tuple[int, ...]):
        self._rec = record
        self._rack = rack

    @property
    def score(self) -> int:
        return int.from_bytes(self._rec[_SCORE:_SCORE + 2], sys.byteorder, signed=True)

    @property
    def equity(self) -> float:
        """Score plus leave value (``best`` with a leave table); else the score."""
        return _EQUITY_FIELD.unpack_from(self._rec, _EQUITY)[0]

    def _word(self) -> bytes:
        """The record's tiles: the whole word (placed ones with ``NEW_BIT``), or the tiles an
        exchange gives back."""
        return self._rec[_TILES:_TILES + self._rec[_LEN]]

    @property
    def move(self) -> Move:
        """The play (whole word, blanks with ``BLANK_BIT``), exchange or pass."""
        rec = self._rec
        kind = rec[_KIND]
        if kind == KIND_PLAY:
            word = tuple(t & ~NEW_BIT for t in self._word())
            return Move(kind=PLAY, row=rec[_ROW], col=rec[_COL], across=rec[_DIR] == 0,
                        tiles=word)
        if kind == KIND_EXCHANGE:
            return Move(kind=EXCHANGE, tiles=tuple(self._word()))
        return Move(kind=PASS)

    @property
    def placed(self) -> tuple[tuple[int, int], ...]:
        """(square, tile) of each new tile, in reading order."""
        rec = self._rec
        if rec[_KIND] != KIND_PLAY:
            return ()
        first, step = square(rec[_ROW], rec[_COL]), (1 if rec[_DIR] == 0 else SIZE)
        return tuple((first + i * step, t & ~NEW_BIT)
                     for i, t in enumerate(self._word()) if t & NEW_BIT)

    @property
    def used(self) -> tuple[int, ...]:
        """Rack tiles the move takes (a blank as ``BLANK``); for an exchange, those given back."""
        if self._rec[_KIND] == KIND_PLAY:
            return tuple(T.BLANK if t & T.BLANK_BIT else t & ~NEW_BIT
                         for t in self._word() if t & NEW_BIT)
        return tuple(self._word())

    @property
    def leave(self) -> tuple[int, ...]:
        """Rack tiles kept, in rack order (blanks last)."""
        left = Counter(self._rack)
        left.subtract(self.used)
        return tuple(sorted(left.elements(), key=_rack_order))

    @property
    def bingo(self) -> bool:
        """All seven rack tiles played (art. 19)."""
        return self._rec[_KIND] == KIND_PLAY and self._rec[_NPLACED] == T.RACK_SIZE

    def __str__(self) -> str:
        """Spanish notation with the score: ``H8 CA(S)A 12``, ``cambio AEI 0``, ``paso 0``."""
        rec = self._rec
        if rec[_KIND] != KIND_PLAY:
            return f"{self.move.notation()} 0"
        shown = Board()
        first, step = square(rec[_ROW], rec[_COL]), (1 if rec[_DIR] == 0 else SIZE)
        for i, t in enumerate(self._word()):
            if not t & NEW_BIT:
                shown[first + i * step] = t
        return f"{self.move.notation(shown)} {self.score}"

    def __repr__(self) -> str:
        return f"<Candidate {self}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Candidate) and self._rec == other._rec

    def __hash__(self) -> int:
        return hash(self._rec)


class MoveList(Sequence[Candidate]):
    """Moves packed in one buffer; a ``Candidate`` is made only for the moves looked at."""

    __slots__ = ("_buf", "_rack", "_n")

    def __init__(self, buf: bytes, rack: tuple[int, ...]):
        self._buf = buf
        self._rack = rack
        self._n = len(buf) // RECORD_SIZE

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Candidate: ...

    @overload
    def __getitem__(self, i: slice) -> list[Candidate]: ...

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(_("no hay tantas jugadas"))
        return Candidate(self._buf[i * RECORD_SIZE:(i + 1) * RECORD_SIZE], self._rack)

    def __iter__(self) -> Iterator[Candidate]:
        buf, rack = self._buf, self._rack
        for off in range(0, len(buf), RECORD_SIZE):
            yield Candidate(buf[off:off + RECORD_SIZE], rack)

    def scores(self) -> list[int]:
        """Every score, without making candidates."""
        return [s[0] for s in _SCORES.iter_unpack(self._buf)]

    def __repr__(self) -> str:
        head = ", ".join(str(c) for c in self[:3])
        return f"<MoveList of {self._n}: {head}{', …' if self._n > 3 else ''}>"


def generate(board: Board, rack: Sequence[int], lexicon, *, exchanges: bool = False,
             bag_count: int = 100) -> MoveList:
    """Every legal placement, best score first; with ``exchanges``, also every distinct
    exchange of at most ``bag_count`` tiles (art. 25) and the pass."""
    counts, rack_t = _check(board, rack)
    if _native is None:  # pragma: no cover
        return _by_reference("generate", board, rack_t, lexicon, exchanges=exchanges,
                             bag_count=bag_count)
    bag = max(0, min(bag_count, T.RACK_SIZE)) if exchanges else -1
    kwg = _kwg(lexicon)
    return MoveList(_native.generate(board.squares, counts, kwg.nodes, kwg.child_masks, bag),
                    rack_t)


def best(board: Board, rack: Sequence[int], lexicon, *, n: int = 1,
         leave_values: LeaveTable | None = None, exchanges: bool = False,
         bag_count: int = 100) -> MoveList:
    """The top ``n`` moves by score, or by equity (score + leave value) with ``leave_values``.

    With ``exchanges`` the exchanges (equity: the value of the tiles kept) and the pass count
    too. Ties are broken as in ``generate``: without leave values this is exactly
    ``generate(...)[:n]``, only faster (anchors that cannot reach the n-th score are skipped).
    """
    if n < 1:
        raise ValueError(_("n debe ser al menos 1"))
    counts, rack_t = _check(board, rack)
    bag = max(0, min(bag_count, T.RACK_SIZE)) if exchanges else -1
    if _native is None:  # pragma: no cover
        return _by_reference("best", board, rack_t, lexicon, n=n, leave_values=leave_values,
                             exchanges=exchanges, bag_count=bag_count)
    leaves = None if leave_values is None else _leave_buffers(leave_values)
    kwg = _kwg(lexicon)
    return MoveList(_native.best(board.squares, counts, kwg.nodes, kwg.child_masks,
                                 _bingo_table(kwg), bag, n, leaves), rack_t)


# -- inputs ---------------------------------------------------------------------------------

_BOARD_CODES = bytes([T.EMPTY]) + bytes(range(1, T.ALPHABET_SIZE)) + bytes(
    T.BLANK_BIT | c for c in range(1, T.ALPHABET_SIZE))
#: board byte → tile code it uses (a designated blank uses a blank); empty squares → 255.
_USES = bytes(255 if b == 0 else (0 if b & T.BLANK_BIT else b) for b in range(256))


def _rack_order(t: int) -> tuple[bool, int]:
    return (t == T.BLANK, t)


def _check(board: Board, rack: Sequence[int]) -> tuple[bytes, tuple[int, ...]]:
    """Tile counts of the rack, after checking board and rack are possible (art. 3, 6)."""
    squares = getattr(board, "squares", None)
    if not isinstance(squares, (bytes, bytearray)) or len(squares) != NUM_SQUARES:
        raise InvalidPositionError(_("se esperaba un tablero (Board) de 15×15 casillas"))
    bad = squares.translate(None, _BOARD_CODES)
    if bad:
        raise InvalidPositionError(
            _("ficha desconocida en el tablero: {tile}").format(tile=repr(bad[0])))
    rack_t = tuple(rack)
    if len(rack_t) > T.RACK_SIZE:
        raise InvalidPositionError(
            _("el atril tiene {tiles} fichas; como mucho 7 (art. 6)").format(tiles=len(rack_t)))
    counts = [0] * T.ALPHABET_SIZE
    for t in rack_t:
        if type(t) is not int or not 0 <= t <= T.NUM_LETTERS:
            raise InvalidPositionError(
                _("ficha desconocida en el atril: {tile}").format(tile=repr(t)))
        counts[t] += 1
    counts_b = bytes(counts)
    if _native is not None:
        code = _native.excess(squares, counts_b)
    else:  # pragma: no cover
        used = squares.translate(_USES)
        code = next((c for c in range(T.ALPHABET_SIZE)
                     if used.count(c) + counts[c] > T.COUNTS[c]), -1)
    if code >= 0:
        n = squares.translate(_USES).count(code) + counts[code]
        raise InvalidPositionError(T.too_many(code, n))
    return counts_b, rack_t


def _kwg(lexicon) -> Kwg:
    """The graph of a ``Lexicon``, or a ``Kwg`` itself."""
    kwg = getattr(lexicon, "kwg", lexicon)
    if not isinstance(kwg, Kwg):
        raise TypeError(_("se esperaba un Lexicon o un Kwg"))
    return kwg


_REFERENCE_WORDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _by_reference(search: str, board: Board, rack: tuple[int, ...], lexicon, **options
                  ) -> MoveList:
    """``atril.reference``'s answer, packed as the C code packs it (the fallback). Its word
    list is the graph's, read once per graph."""
    from . import reference
    kwg = _kwg(lexicon)
    words = _REFERENCE_WORDS.get(kwg)
    if words is None:
        words = _REFERENCE_WORDS[kwg] = reference.Words(kwg.words())
    found = getattr(reference, search)(board, rack, words, **options)
    return MoveList(b"".join(map(_record, found)), rack)


def _record(found) -> bytes:
    """One ``reference.Found`` as a packed record."""
    rec = bytearray(RECORD_SIZE)
    move = found.move
    struct.pack_into("=h", rec, _SCORE, found.score)
    _EQUITY_FIELD.pack_into(rec, _EQUITY, found.equity)
    if move.is_play:
        placed = {sq for sq, _ in found.placed}
        first, step = square(move.row, move.col), (1 if move.across else SIZE)
        tiles = bytes(t | (NEW_BIT if first + i * step in placed else 0)
                      for i, t in enumerate(move.tiles))
        rec[_KIND], rec[_DIR], rec[_NPLACED] = KIND_PLAY, 0 if move.across else 1, len(placed)
        rec[_ROW], rec[_COL] = move.row, move.col
    else:
        tiles = bytes(move.tiles)
        rec[_KIND] = KIND_EXCHANGE if move.is_exchange else KIND_PASS
    rec[_LEN] = len(tiles)
    rec[_TILES:_TILES + len(tiles)] = tiles
    return bytes(rec)


_BINGO_TABLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _bingo_table(kwg: Kwg) -> bytes:
    """Which multisets of 7 to 15 tiles spell a word (for ``best``'s bounds), built on first
    use per graph: about 40 ms and 4 MiB for ES09."""
    table = _BINGO_TABLES.get(kwg)
    if table is None:
        table = _BINGO_TABLES[kwg] = _native.bingo_table(kwg.nodes)
    return table


_LEAVE_COUNTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _leave_buffers(table: LeaveTable) -> tuple[memoryview, bytes, memoryview]:
    """The table's node and value buffers, checked, and its rank table (cached per table)."""
    nodes, values = memoryview(table.kwg_nodes), memoryview(table.values)
    if nodes.itemsize != 4 or values.format != "f":
        raise TypeError(_("tabla de hojas: kwg_nodes debe ser uint32 y values float32"))
    try:
        counts = _LEAVE_COUNTS.get(table)
    except TypeError:  # not weakly referenceable: no cache
        counts = None
    if counts is None:
        counts = _native.leave_counts(nodes)
        try:
            _LEAVE_COUNTS[table] = counts
        except TypeError:
            pass
    return nodes, counts, values
