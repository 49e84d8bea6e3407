"""A brute-force move generator in pure Python: slow, short, and obviously right.

It is the oracle the tests hold the C generator (``atril.movegen``) to, and the fallback when
the extension is not built. It shares no code with the fast path: it reads a plain word list
(``Words``, made from tile tuples such as ``lexicon.bundled_words("ES09")``), not the KWG;
checks its inputs itself; and answers with plain ``Found`` tuples. From every start square of
every line it tries every way of filling the empty squares with rack tiles that keeps a word
prefix, and asks ``rules.check_play`` for each play's score. Conventions, the order of the
moves included, are those of ``atril.movegen`` (its docstring).
"""

from __future__ import annotations

import weakref
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

from . import tiles as T
from .board import CENTER, NUM_SQUARES, SIZE, Board, square
from .errors import InvalidPositionError
from .i18n import _
from .kwg import ACCEPTS_BIT, ARC_MASK, IS_END_BIT, TILE_SHIFT
from .move import EXCHANGE, PASS, PLAY, Move
from .rules import check_play

__all__ = ["Found", "Words", "best", "endgame", "generate"]


class Words:
    """A word list ready for the search: which words exist, and which letters can follow a
    prefix (found by bisecting the sorted words, remembered once asked)."""

    def __init__(self, words: Iterable[Sequence[int]]):
        self._sorted = sorted({bytes(w) for w in words})
        self._words = frozenset(self._sorted)
        self._following: dict[bytes, bytes] = {}

    def __contains__(self, word: bytes) -> bool:
        return word in self._words

    def following(self, prefix: bytes) -> bytes:
        """The letters, ascending, that continue ``prefix`` towards some word."""
        found = self._following.get(prefix)
        if found is None:
            words, depth, letters = self._sorted, len(prefix), bytearray()
            i = bisect_left(words, prefix)
            while i < len(words) and words[i].startswith(prefix):
                if len(words[i]) == depth:  # the prefix itself
                    i += 1
                    continue
                letters.append(words[i][depth])
                if letters[-1] == 255:
                    break
                i = bisect_left(words, prefix + bytes([letters[-1] + 1]), i)
            found = self._following[prefix] = bytes(letters)
        return found


class Found(NamedTuple):
    """One move: equity (score + leave value, or the score, as a 32-bit float like the
    engine's), score, the move, and the (square, tile) of each tile it places, in order."""

    equity: float
    score: int
    move: Move
    placed: tuple[tuple[int, int], ...]


def generate(board: Board, rack: Sequence[int], words: Words, *, exchanges: bool = False,
             bag_count: int = 100) -> list[Found]:
    """Every legal placement (and, with ``exchanges``, exchanges and the pass), sorted."""
    rack_t = _checked(board, rack)
    moves = list(_plays(board, rack_t, words))
    if exchanges:
        moves += _exchanges(rack_t, bag_count)
    return _order((m[0], m) for m in moves)


def best(board: Board, rack: Sequence[int], words: Words, *, n: int = 1, leave_values=None,
         exchanges: bool = False, bag_count: int = 100) -> list[Found]:
    """The top ``n`` by score, or by score + leave value: the slow way, every move valued."""
    rack_t = _checked(board, rack)
    value = _leave_lookup(leave_values)
    moves = list(_plays(board, rack_t, words))
    if exchanges:
        moves += _exchanges(rack_t, bag_count)
    valued = []
    for m in moves:
        left = Counter(rack_t)
        left.subtract(_used(m))
        valued.append((m[0] + value(tuple(sorted(left.elements()))), m))
    return _order(valued)[:n]


def endgame(board: Board, racks: tuple[Sequence[int], Sequence[int]], words: Words, *,
            pass_limit: int, passes: int = 0, bag: int | None = None) -> int:
    """The exact value of an endgame (both racks known) for the side to move, ``racks[0]``:
    its points minus the other's from now to the end with both playing perfectly, by plain
    minimax over every play and the pass, each position valued once (the oracle of
    ``atril.endgame``; small racks only). Art. 45.4: going out gains the other rack's value,
    which the other loses; ``pass_limit`` passes in a row end the game, each player losing
    their own rack (45.2). ``bag``: the one tile left in the bag (the pre-endgame), which the
    next play draws; exchanges are not searched."""
    known: dict[tuple, int] = {}

    def value(board: Board, rack: tuple[int, ...], other: tuple[int, ...], passes: int,
              bag: int | None) -> int:
        key = (bytes(board.squares), rack, other, passes, bag)
        if key in known:
            return known[key]
        points = sum(T.VALUES[t] for t in rack if t != T.BLANK)
        other_points = sum(T.VALUES[t] for t in other if t != T.BLANK)
        if passes + 1 >= pass_limit:  # art. 45.2: each loses their own rack
            best = other_points - points
        else:
            best = -value(board, other, rack, passes + 1, bag)
        for found in generate(board, rack, words):
            left = Counter(rack)
            left.subtract(T.BLANK if T.is_blank(t) else t for _, t in found.placed)
            if bag is not None:
                left[bag] += 1
            kept = tuple(sorted(left.elements()))
            if not kept:  # art. 45.4: out, the other's rack gained and lost
                best = max(best, found.score + 2 * other_points)
                continue
            after = board.copy()
            for sq, t in found.placed:
                after[sq] = t
            best = max(best, found.score - value(after, other, kept, 0, None))
        known[key] = best
        return best

    return value(board, tuple(sorted(racks[0])), tuple(sorted(racks[1])), passes, bag)


# A move while searching: (score, kind, across, row, col, tiles), tiles as the C records hold
# them: the whole word with _NEW on the tiles placed, or the tiles an exchange gives back.
_NEW = 0x100
_KIND_ORDER = {PLAY: 0, EXCHANGE: 1, PASS: 2}


def _checked(board: Board, rack: Sequence[int]) -> tuple[int, ...]:
    """The rack, after checking that the board and rack could be a game's (art. 3, 6)."""
    squares = getattr(board, "squares", None)
    if not isinstance(squares, (bytes, bytearray)) or len(squares) != NUM_SQUARES:
        raise InvalidPositionError(_("se esperaba un tablero (Board) de 15×15 casillas"))
    rack_t = tuple(rack)
    if len(rack_t) > T.RACK_SIZE:
        raise InvalidPositionError(
            _("el atril tiene {tiles} fichas; como mucho 7 (art. 6)").format(tiles=len(rack_t)))
    uses: Counter[int] = Counter()
    for t in squares:
        if t:
            if t & ~T.BLANK_BIT not in range(1, T.NUM_LETTERS + 1):
                raise InvalidPositionError(
                    _("ficha desconocida en el tablero: {tile}").format(tile=repr(t)))
            uses[T.BLANK if t & T.BLANK_BIT else t] += 1
    for t in rack_t:
        if type(t) is not int or t not in range(T.ALPHABET_SIZE):
            raise InvalidPositionError(
                _("ficha desconocida en el atril: {tile}").format(tile=repr(t)))
        uses[t] += 1
    for code, count in sorted(uses.items()):
        if count > T.COUNTS[code]:
            raise InvalidPositionError(T.too_many(code, count))
    return rack_t


def _plays(board: Board, rack: tuple[int, ...], words: Words):
    """Every legal placement as a search move (see _NEW)."""
    squares = board.squares
    first_move = not any(squares)
    counts = Counter(rack)
    cross_ok: dict[tuple[int, int, bool], bool] = {}  # (square, letter, across) → valid

    def extend(cells, across, start, pos, tiles, letters, left):
        """Fill ``cells[pos]`` every possible way and go on to the right."""
        sq = cells[pos]
        on_board = squares[sq]
        following = words.following(letters)
        if on_board:
            options = [(on_board, None)] if on_board & ~T.BLANK_BIT in following else []
        else:
            options = [(t, t) for t in following if counts[t]]
            if counts[T.BLANK]:
                options += [(t | T.BLANK_BIT, T.BLANK) for t in following]
        for tile, used in options:
            word = letters + bytes([tile & ~T.BLANK_BIT])
            if used is not None:
                key = (sq, word[-1], across)
                if key not in cross_ok:
                    cross = _cross_letters(board, sq, tile, across)
                    cross_ok[key] = len(cross) < 2 or cross in words
                if not cross_ok[key]:
                    continue
                counts[used] -= 1
            new_tiles = tiles + [tile | (_NEW if used is not None else 0)]
            rest = left - (used is not None)
            ends = pos == SIZE - 1 or not squares[cells[pos + 1]]
            if ends and word in words:
                move = _placement(board, cells, across, start, new_tiles, first_move)
                if move is not None:
                    yield move
            if pos < SIZE - 1 and (squares[cells[pos + 1]] or rest):
                yield from extend(cells, across, start, pos + 1, new_tiles, word, rest)
            if used is not None:
                counts[used] += 1

    for across in ((True,) if first_move else (True, False)):
        for line in range(SIZE):
            cells = [square(line, i) if across else square(i, line) for i in range(SIZE)]
            for start in range(SIZE):
                if start > 0 and squares[cells[start - 1]]:
                    continue  # a word starts after an empty square or the edge
                if _reaches(board, cells, across, start, len(rack), first_move):
                    yield from extend(cells, across, start, start, [], b"", len(rack))


def _reaches(board: Board, cells: list[int], across: bool, start: int, rack_size: int,
             first_move: bool) -> bool:
    """Whether a word from ``start`` can touch the board (or the centre) with this many tiles:
    a cheap necessary condition that saves the search most start squares."""
    empties = 0
    for pos in range(start, SIZE):
        sq = cells[pos]
        if board[sq]:
            return True
        if empties == rack_size:
            return False
        empties += 1
        if sq == CENTER if first_move else any(board[n] for n in _perpendicular(sq, across)):
            return True
    return False


def _cross_letters(board: Board, sq: int, tile: int, across: bool) -> bytes:
    """Letters of the perpendicular line through ``sq`` with ``tile`` on it."""
    row, col = divmod(sq, SIZE)
    dr, dc = (1, 0) if across else (0, 1)
    r, c = row, col
    while board.at(r - dr, c - dc):
        r, c = r - dr, c - dc
    out = []
    while (r, c) == (row, col) or board.at(r, c):
        out.append(T.letter_of(tile if (r, c) == (row, col) else board.at(r, c)))
        r, c = r + dr, c + dc
    return bytes(out)


def _placement(board, cells, across, start, tiles, first_move):
    """The search move of a complete word if it is a legal play and the canonical form of it
    (one-tile plays only along their longer word)."""
    new = [i for i, t in enumerate(tiles) if t & _NEW]
    if not new or len(tiles) < 2:
        return None
    squares = cells[start:start + len(tiles)]
    if first_move:
        if CENTER not in squares:
            return None
    elif len(new) == len(tiles) and not any(
            board[n] for i in new for n in _perpendicular(squares[i], across)):
        return None  # touches nothing on the board
    if len(new) == 1:  # one tile: kept along its longer word, across on a tie
        cross_len = len(_cross_letters(board, squares[new[0]], tiles[new[0]] & ~_NEW, across))
        if cross_len > len(tiles) or (not across and cross_len == len(tiles)):
            return None
    row, col = divmod(squares[0], SIZE)
    score = check_play(board, Move.play(row, col, across, tuple(t & ~_NEW for t in tiles))).score
    return (score, PLAY, across, row, col, tuple(tiles))


def _perpendicular(sq: int, across: bool) -> list[int]:
    row, col = divmod(sq, SIZE)
    if across:
        return [square(r, col) for r in (row - 1, row + 1) if 0 <= r < SIZE]
    return [square(row, c) for c in (col - 1, col + 1) if 0 <= c < SIZE]


def _exchanges(rack: tuple[int, ...], bag_count: int) -> list[tuple]:
    """Every distinct multiset of at most ``bag_count`` tiles given back, and the pass."""
    tiles = sorted(rack)
    given = {c for k in range(1, min(len(tiles), bag_count) + 1) for c in combinations(tiles, k)}
    return [(0, EXCHANGE, True, 0, 0, g) for g in given] + [(0, PASS, True, 0, 0, ())]


def _used(move: tuple) -> tuple[int, ...]:
    """Rack tiles a search move takes (a blank as ``BLANK``), or those an exchange gives."""
    if move[1] != PLAY:
        return move[5]
    return tuple(T.BLANK if t & T.BLANK_BIT else t & ~_NEW for t in move[5] if t & _NEW)


def _order(valued: Iterable[tuple[float, tuple]]) -> list[Found]:
    """Sorted as ``atril.movegen`` documents: equity desc; plays, exchanges, pass; across
    before down; row; column; then the word: its length, the tiles it places, and tile by
    tile letters before blanks, then by code."""
    def key(em: tuple[float, tuple]) -> tuple:
        equity, (_, kind, across, row, col, tiles) = em
        return (-equity, _KIND_ORDER[kind], not across, row, col, len(tiles),
                sum(1 for t in tiles if t & _NEW),
                tuple((t & T.BLANK_BIT, T.letter_of(t & ~_NEW)) for t in tiles))

    out = []
    rounded = [(array("f", [equity])[0], move) for equity, move in valued]
    for equity, (score, kind, across, row, col, tiles) in sorted(rounded, key=key):
        if kind == PLAY:
            step = 1 if across else SIZE
            placed = tuple((square(row, col) + i * step, t & ~_NEW)
                           for i, t in enumerate(tiles) if t & _NEW)
            move = Move(kind=PLAY, row=row, col=col, across=across,
                        tiles=tuple(t & ~_NEW for t in tiles))
        else:
            placed, move = (), Move(kind=kind, tiles=tiles)
        out.append(Found(equity, score, move, placed))
    return out


_RANKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _leave_lookup(table):
    """Value of a sorted leave: every leave of the table's DAWG ranked in Python (cached)."""
    if table is None:
        return lambda leave: 0.0
    values = memoryview(table.values).cast("B").cast("f")
    try:
        ranks = _RANKS[table]
    except (KeyError, TypeError):
        ranks = _ranks(memoryview(table.kwg_nodes).cast("B").cast("I"))
        try:
            _RANKS[table] = ranks
        except TypeError:  # not weakly referenceable: no cache
            pass
    return lambda leave: float(values[ranks[leave]]) if leave in ranks else 0.0


def _ranks(nodes: memoryview) -> dict[tuple[int, ...], int]:
    """Each DAWG word's index in sorted order: depth first, a word before its extensions."""
    ranks: dict[tuple[int, ...], int] = {}

    def walk(first: int, prefix: tuple[int, ...]) -> None:
        i = first
        while first:
            node = nodes[i]
            word = prefix + (node >> TILE_SHIFT,)
            if node & ACCEPTS_BIT:
                ranks[word] = len(ranks)
            if node & ARC_MASK:
                walk(node & ARC_MASK, word)
            if node & IS_END_BIT:
                break
            i += 1

    walk(nodes[0] & ARC_MASK, ())
    return ranks
