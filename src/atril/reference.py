"""A brute-force move generator in pure Python: slow, short, and obviously right.

It is the oracle the tests hold the C generator (``atril.movegen``) to, and the fallback when
the extension is not built. It shares nothing with the fast path but the output type: it reads
the lexicon's *word list* (not the KWG), tries from every start square of every line every way
of filling the empty squares with rack tiles that keeps a word prefix, and asks
``rules.check_play`` for each play's score. Conventions are those of ``atril.movegen``.
"""

from __future__ import annotations

import weakref
from collections import Counter
from itertools import combinations
from typing import Sequence

from . import tiles as T
from .board import CENTER, SIZE, Board, square
from .kwg import ACCEPTS_BIT, ARC_MASK, IS_END_BIT
from .move import Move
from .movegen import (KIND_EXCHANGE, KIND_PASS, KIND_PLAY, NEW_BIT, RECORD, LeaveTable, MoveList,
                      _check)
from .rules import check_play

__all__ = ["best", "generate"]

_INDEX: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _index(lexicon) -> tuple[frozenset, dict]:
    """The lexicon's words, and each prefix of a word with the letters that may follow it,
    as tuples of letter codes (cached per lexicon)."""
    try:
        return _INDEX[lexicon]
    except (KeyError, TypeError):
        pass
    words = frozenset(tuple(w) for w in lexicon.words())
    prefixes: dict[tuple[int, ...], set[int]] = {}
    for w in words:
        for i in range(len(w)):
            prefixes.setdefault(w[:i], set()).add(w[i])
    try:
        _INDEX[lexicon] = (words, prefixes)
    except TypeError:
        pass
    return words, prefixes


def generate(board: Board, rack: Sequence[int], lexicon, *, exchanges: bool = False,
             bag_count: int = 100) -> MoveList:
    """Every legal placement (and, with ``exchanges``, exchanges and the pass), sorted."""
    _, rack_t = _check(board, rack)
    words, prefixes = _index(lexicon)
    records = [(float(r[0]), r) for r in _plays(board, rack_t, words, prefixes)]
    if exchanges:
        records += [(0.0, r) for r in _exchanges(rack_t, bag_count)]
    return _sorted(records, rack_t)


def best(board: Board, rack: Sequence[int], lexicon, *, n: int = 1,
         leave_values: LeaveTable | None = None, exchanges: bool = False,
         bag_count: int = 100) -> MoveList:
    """The top ``n`` by score, or by score + leave value: the slow way, every move valued."""
    _, rack_t = _check(board, rack)
    words, prefixes = _index(lexicon)
    value = _leave_lookup(leave_values)
    records = list(_plays(board, rack_t, words, prefixes))
    if exchanges:
        records += _exchanges(rack_t, bag_count)
    valued = []
    for rec in records:
        used = Counter(_used(rec))
        left = Counter(rack_t)
        left.subtract(used)
        valued.append((rec[0] + value(tuple(sorted(left.elements()))), rec))
    return MoveList(b"".join(_pack(e, r) for e, r in _order(valued)[:n]), rack_t)


def _plays(board: Board, rack: tuple[int, ...], words: frozenset, prefixes: dict):
    """Record tuples (as ``movegen.RECORD`` without the equity) of every legal placement."""
    squares = board.squares
    first_move = not any(squares)
    counts = Counter(rack)
    cross_ok: dict[tuple[int, int, bool], bool] = {}  # (square, letter, across) → valid

    def extend(cells, across, start, pos, tiles, letters, left):
        """Fill ``cells[pos]`` every possible way and go on to the right."""
        sq = cells[pos]
        on_board = squares[sq]
        following = prefixes.get(letters, ())
        if on_board:
            options = [(on_board, None)] if on_board & ~T.BLANK_BIT in following else []
        else:
            options = [(t, t) for t in sorted(following) if counts[t]]
            if counts[T.BLANK]:
                options += [(t | T.BLANK_BIT, T.BLANK) for t in sorted(following)]
        for tile, used in options:
            word = letters + (tile & ~T.BLANK_BIT,)
            if used is not None:
                key = (sq, word[-1], across)
                if key not in cross_ok:
                    cross = _cross_letters(board, sq, tile, across)
                    cross_ok[key] = len(cross) < 2 or cross in words
                if not cross_ok[key]:
                    continue
                counts[used] -= 1
            new_tiles = tiles + [tile | (NEW_BIT if used is not None else 0)]
            rest = left - (used is not None)
            ends = pos == SIZE - 1 or not squares[cells[pos + 1]]
            if ends and word in words:
                rec = _record(board, cells, across, start, new_tiles, first_move)
                if rec is not None:
                    yield rec
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
                    yield from extend(cells, across, start, start, [], (), len(rack))


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


def _cross_letters(board: Board, sq: int, tile: int, across: bool) -> tuple[int, ...]:
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
    return tuple(out)


def _record(board, cells, across, start, tiles, first_move):
    """The record of a complete word if it is a legal play and the canonical form of it."""
    new = [i for i, t in enumerate(tiles) if t & NEW_BIT]
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
        cross_len = len(_cross_letters(board, squares[new[0]], tiles[new[0]], across))
        if cross_len > len(tiles) or (not across and cross_len == len(tiles)):
            return None
    row, col = divmod(squares[0], SIZE)
    word = tuple(t & ~NEW_BIT for t in tiles)
    score = check_play(board, Move.play(row, col, across, word)).score
    return (score, KIND_PLAY, 0 if across else 1, row, col, len(tiles), len(new), bytes(tiles))


def _perpendicular(sq: int, across: bool) -> list[int]:
    row, col = divmod(sq, SIZE)
    if across:
        return [square(r, col) for r in (row - 1, row + 1) if 0 <= r < SIZE]
    return [square(row, c) for c in (col - 1, col + 1) if 0 <= c < SIZE]


def _exchanges(rack: tuple[int, ...], bag_count: int) -> list[tuple]:
    """Every distinct multiset of at most ``bag_count`` tiles given back, and the pass."""
    tiles = sorted(rack)
    given = {c for k in range(1, min(len(tiles), bag_count) + 1) for c in combinations(tiles, k)}
    out = [(0, KIND_EXCHANGE, 0, 0, 0, len(g), 0, bytes(g)) for g in given]
    return out + [(0, KIND_PASS, 0, 0, 0, 0, 0, b"")]


def _used(rec: tuple) -> tuple[int, ...]:
    if rec[1] != KIND_PLAY:
        return tuple(rec[7])
    return tuple(T.BLANK if t & T.BLANK_BIT else t & ~NEW_BIT for t in rec[7] if t & NEW_BIT)


_RANKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _leave_lookup(table: LeaveTable | None):
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
        except TypeError:
            pass
    return lambda leave: float(values[ranks[leave]]) if leave in ranks else 0.0


def _ranks(nodes: memoryview) -> dict[tuple[int, ...], int]:
    """Each DAWG word's index in sorted order: depth first, a word before its extensions."""
    ranks: dict[tuple[int, ...], int] = {}

    def walk(first: int, prefix: tuple[int, ...]) -> None:
        i = first
        while first:
            node = nodes[i]
            word = prefix + (node >> 24,)
            if node & ACCEPTS_BIT:
                ranks[word] = len(ranks)
            if node & ARC_MASK:
                walk(node & ARC_MASK, word)
            if node & IS_END_BIT:
                break
            i += 1

    walk(nodes[0] & ARC_MASK, ())
    return ranks


def _order(valued: list[tuple[float, tuple]]) -> list[tuple[float, tuple]]:
    """Equity desc, then kind, direction, row, column, length, tiles (as the C code sorts)."""
    return sorted(valued, key=lambda er: (-er[0], _pack(er[0], er[1])[2:24]))


def _pack(equity: float, rec: tuple) -> bytes:
    return RECORD.pack(*rec, equity, 0)


def _sorted(records: list[tuple[float, tuple]], rack: tuple[int, ...]) -> MoveList:
    return MoveList(b"".join(_pack(e, r) for e, r in _order(records)), rack)
