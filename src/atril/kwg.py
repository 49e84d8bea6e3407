"""The word automaton: a KWG (DAWG + GADDAG in one flat ``uint32`` array), wolges format.

Why this format: it is what wolges and Macondo ship (``.kwg`` files read unchanged), it is one
contiguous buffer a C move generator can walk without Python objects, and it loads from disk
as a plain byte copy.

Node bits (little-endian ``uint32``): ``tile = node >> 24``, ``accepts = node & 0x800000``,
``is_end = node & 0x400000`` (last of its sibling list), ``arc = node & 0x3FFFFF`` (index of
the first node of the child sibling list; 0 = none). Sibling lists are contiguous and sorted by
tile. ``nodes[0].arc`` is the DAWG root list and ``nodes[1].arc`` the GADDAG root list. The
GADDAG holds, for a word c1..cn, ``ci .. c1 ^ ci+1 .. cn`` for i < n and ``cn .. c1``; the
separator ``^`` is tile 0.

Tile numbering is the caller's: atril uses ``atril.tiles`` codes (1..28 = A B C CH D E F G H
I J L LL M N Ñ O P Q R RR S T U V X Y Z), which is the order of the wolges/Macondo Spanish
alphabet, so their Spanish ``.kwg`` files (e.g. FILE2017) read with the same codes. A file
built for another alphabet reads fine but its tile numbers mean that alphabet's letters.

The builder follows wolges (``build.rs``): every sibling list is a chain of states deduplicated
by (tile, accepts, arc, next), so identical lists and shared list tails are stored once, and a
GADDAG path ``ci..c1 ^`` points straight into the DAWG node for ``c1..ci``. The layout is
depth-first, parents before children, DAWG before GADDAG (wolges' "MagpieMerged"). The heavy
building runs in C (``atril._kwg``); ``build_reference`` is the same algorithm in pure Python,
kept as the readable specification and the test oracle (both give identical arrays).

Every graph is checked before anything walks it (``Kwg.check``, in C): a file is not trusted.
The move generator reads arcs and sibling lists without bounds checks, and counting or listing
the words of a cyclic or exponentially branching graph would never end, so a ``Kwg`` is only
made from nodes that pass: arcs inside the array, every sibling list ending inside it and
strictly increasing by tile, no cycle, no path of more than ``MAX_DEPTH`` tiles, no node that
leads to no word, no separator in a DAWG word, at most ``MAX_WORDS`` (ten million) words in
the DAWG — counted per node, a DAG count, never word by word — and a GADDAG with one accepted
path per tile of each word.
The bit constants and limits come from the C header ``atril_engine.h``, defined once.
"""

from __future__ import annotations

import os
import re
import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from .errors import AtrilError
from .i18n import _

try:
    from . import _kwg as _native
except ImportError:  # pragma: no cover - only when the extension was not built
    _native = None  # type: ignore[assignment]


def engine_constants(module: object | None) -> dict[str, int]:
    """The numbers shared with the C engine, all defined in ``atril_engine.h``: the compiled
    module's attributes (what the running C code was built with), or the header's ``#define``
    lines in a source tree whose extensions are not built."""
    if module is not None:
        return {name: value for name, value in vars(module).items()
                if name.isupper() and isinstance(value, int)}
    header = resources.files("atril").joinpath("atril_engine.h").read_text(encoding="utf-8")
    return {m[1]: int(m[2], 0) for m in
            re.finditer(r"^#define ([A-Z_]+) (0x[0-9A-Fa-f]+|[0-9]+)u?$", header, re.M)}


_C = engine_constants(_native)
TILE_SHIFT: int = _C["TILE_SHIFT"]
ARC_MASK: int = _C["ARC_MASK"]
IS_END_BIT: int = _C["IS_END_BIT"]
ACCEPTS_BIT: int = _C["ACCEPTS_BIT"]
SEPARATOR: int = _C["SEPARATOR"]
#: most nodes the 22-bit arc field can address.
MAX_NODES: int = _C["MAX_NODES"]
#: most words a DAWG may hold, and most tiles on any path of a graph (checked on loading).
MAX_WORDS: int = _C["MAX_WORDS"]
MAX_DEPTH: int = _C["MAX_DEPTH"]


class KwgError(AtrilError):
    """Bytes that are not a well-formed KWG, or words the format cannot hold."""


Word = Sequence[int]


class Shape(NamedTuple):
    """What checking a graph measured: the DAWG's words, their tiles in total and the most in
    one; the GADDAG's accepted paths (None until its walk is done); the tiles any node holds,
    as a bit set (bit ``t`` for tile ``t``)."""

    words: int
    tiles: int
    longest: int
    gaddag_paths: int | None
    tile_set: int


class Kwg:
    """A checked KWG node array with lookup and traversal helpers.

    ``nodes`` is an ``array('I')`` of node values in the host's byte order (files and
    ``to_bytes`` are little-endian); it supports the buffer protocol, so C code such as the move
    generator reads it as ``const uint32_t *`` with no copy. It was checked when the ``Kwg`` was
    made (see the module docstring) and must not be changed afterwards.
    """

    __slots__ = ("nodes", "shape", "_masks", "__weakref__")

    def __init__(self, nodes: array, *, check_gaddag: bool = True) -> None:
        """Check the nodes: ``KwgError`` unless every walk of them is safe. The GADDAG's walk
        (nine nodes in ten, about 10 ms for ES09) may wait, with ``check_gaddag=False``, until
        the GADDAG is first used: for bytes atril checked in full when it built them (its
        lexicon cache). The rest, all the move generator and the word walks rely on, is
        checked now."""
        if nodes.typecode != "I" or nodes.itemsize != 4:
            raise KwgError(_("los nodos de un KWG son un array('I') de 32 bits"))
        self.nodes = nodes
        self._masks: bytes | None = None
        self.shape = _check(nodes, gaddag=check_gaddag)

    def check(self) -> Shape:
        """The whole graph checked, the GADDAG included (its walk is done once)."""
        if self.shape.gaddag_paths is None:
            self.shape = _check(self.nodes, gaddag=True)
        return self.shape

    @property
    def has_gaddag(self) -> bool:
        """Whether the graph has a GADDAG (see ``_has_gaddag``)."""
        return _has_gaddag(self.nodes)

    @property
    def child_masks(self) -> bytes:
        """Per node, the set of tiles (bit ``t``, tiles below 32) of it and its later siblings,
        host-order ``uint32``; ``masks[0]`` is empty. With it the move generator finds a
        child in one step: ``arc + popcount(masks[arc] & ((1 << t) - 1))``. Made on first use
        (a few milliseconds, as much memory again as the nodes), once the GADDAG, which the
        generator walks, is checked."""
        if self._masks is None:
            self.check()
            self._masks = (_native.child_masks(self.nodes) if _native is not None
                           else _child_masks_python(self.nodes))
        return self._masks

    # --- building -------------------------------------------------------------------------

    @classmethod
    def build(cls, words: Iterable[Word]) -> Kwg:
        """Build a minimized DAWG + GADDAG from words (tile sequences; order and repeats free)."""
        if _native is None:
            return cls.build_reference(words)
        return cls.build_blob(_words_blob(words))

    @classmethod
    def build_blob(cls, blob: bytes) -> Kwg:
        """``build`` for words already as tile bytes joined by ``b"\\x00"`` (the fast path)."""
        if _native is None:
            return cls.build_reference(blob.split(b"\x00") if blob else [])
        try:
            data = _native.build(blob)
        except OverflowError as exc:
            raise KwgError(str(exc)) from None
        except ValueError:  # an empty word: two separators in a row
            raise KwgError(_("una palabra vacía no cabe en un KWG")) from None
        return cls.from_bytes(data)

    @classmethod
    def build_reference(cls, words: Iterable[Word]) -> Kwg:
        """The pure-Python builder: same algorithm and same output as the C one, but slow."""
        sorted_words = sorted({_checked_word(w) for w in words})
        return cls(_ReferenceBuilder().build(sorted_words))

    # --- bytes and files ------------------------------------------------------------------

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview, *, check: bool = True) -> Kwg:
        """Nodes from little-endian bytes, checked (``check=False``: the GADDAG's walk waits
        for its first use, see ``__init__``)."""
        if len(data) % 4 or len(data) < 8:
            raise KwgError(_("un KWG es una lista de nodos de 4 bytes, al menos dos"))
        nodes = array("I")
        nodes.frombytes(data)
        if sys.byteorder == "big":  # pragma: no cover
            nodes.byteswap()
        return cls(nodes, check_gaddag=check)

    def to_bytes(self) -> bytes:
        """Little-endian bytes, as a ``.kwg`` file holds them."""
        if sys.byteorder == "big":  # pragma: no cover
            swapped = array("I", self.nodes)
            swapped.byteswap()
            return swapped.tobytes()
        return self.nodes.tobytes()

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Kwg:
        """Read a ``.kwg`` file (atril's, wolges' or Macondo's: same format)."""
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise KwgError(_("no se puede leer el KWG «{path}»: {error}").format(
                path=path, error=exc.strerror or exc)) from None
        return cls.from_bytes(data)

    def write(self, path: str | os.PathLike[str]) -> None:
        Path(path).write_bytes(self.to_bytes())

    # --- node helpers (for readers such as the move generator) ----------------------------

    def __len__(self) -> int:
        return len(self.nodes)

    @property
    def dawg_root(self) -> int:
        """Index of the first node of the DAWG root list (0 if the DAWG is empty)."""
        return self.nodes[0] & ARC_MASK

    @property
    def gaddag_root(self) -> int:
        """Index of the first node of the GADDAG root list (0 if there is none), once the
        GADDAG is checked."""
        self.check()
        return self.nodes[1] & ARC_MASK

    def tile(self, node: int) -> int:
        return self.nodes[node] >> TILE_SHIFT

    def arc(self, node: int) -> int:
        return self.nodes[node] & ARC_MASK

    def is_end(self, node: int) -> bool:
        return bool(self.nodes[node] & IS_END_BIT)

    def node_accepts(self, node: int) -> bool:
        """True if the path ending with this node's tile is a word (a GADDAG path, there)."""
        return bool(self.nodes[node] & ACCEPTS_BIT)

    def siblings(self, first: int) -> Iterator[int]:
        """Node indices of the sibling list starting at ``first`` (nothing for 0)."""
        if first == 0:
            return
        nodes = self.nodes
        i = first
        while True:
            yield i
            if nodes[i] & IS_END_BIT:
                return
            i += 1

    def child(self, first: int, tile: int) -> int:
        """The node for ``tile`` in the list starting at ``first``, or 0 if absent."""
        if first == 0:
            return 0
        nodes = self.nodes
        i = first
        while True:
            node = nodes[i]
            t = node >> TILE_SHIFT
            if t == tile:
                return i
            if t > tile or node & IS_END_BIT:
                return 0
            i += 1

    def follow(self, tiles: Word, first: int | None = None) -> int:
        """The node reached by reading ``tiles`` from a list (default: the DAWG root), or 0."""
        node = 0
        arc = self.dawg_root if first is None else first
        for t in tiles:
            node = self.child(arc, t)
            if node == 0:
                return 0
            arc = self.nodes[node] & ARC_MASK
        return node

    # --- words ----------------------------------------------------------------------------

    def accepts(self, word: Word) -> bool:
        """True if ``word`` (tiles) is in the DAWG."""
        if not word:
            return False
        if _native is not None:
            try:
                return _native.accepts(self.nodes, bytes(word))
            except ValueError:  # a tile outside 0..255 is in no word
                return False
        node = self.follow(word)
        return node != 0 and bool(self.nodes[node] & ACCEPTS_BIT)

    def words(self) -> Iterator[tuple[int, ...]]:
        """Every DAWG word in sorted order, as tile tuples."""
        if _native is not None:
            blob = _native.words(self.nodes)
            if blob:
                yield from (tuple(w) for w in blob.split(b"\x00"))
            return
        yield from self._words_python()

    def _words_python(self) -> Iterator[tuple[int, ...]]:
        nodes = self.nodes
        prefix: list[int] = []
        stack = [self.dawg_root] if self.dawg_root else []
        while stack:
            i = stack[-1]
            node = nodes[i]
            if len(prefix) == len(stack):  # back from this node's children: move to the next one
                prefix.pop()
                if node & IS_END_BIT:
                    stack.pop()
                    continue
                i += 1
                stack[-1] = i
                node = nodes[i]
            prefix.append(node >> TILE_SHIFT)
            if node & ACCEPTS_BIT:
                yield tuple(prefix)
            if node & ARC_MASK:
                stack.append(node & ARC_MASK)


def _child_masks_python(nodes: array) -> bytes:
    """The reference for ``_kwg.child_masks``: one pass from the last node back."""
    masks = array("I", bytes(4 * len(nodes)))
    following = 0
    for i in range(len(nodes) - 1, -1, -1):
        node = nodes[i]
        tile = node >> TILE_SHIFT
        if node & IS_END_BIT:
            following = 0
        following |= (1 << tile) if tile < 32 else 0
        masks[i] = following
    if masks:
        masks[0] = 0
    return masks.tobytes()


def _has_gaddag(nodes: array) -> bool:
    """Whether ``nodes[1]`` points to a GADDAG: a root pointer (tile 0, end of list, not a
    word) with a list to point to. In a wolges DAWG-only file it is the DAWG's first node."""
    return nodes[1] & ~ARC_MASK == IS_END_BIT and nodes[1] & ARC_MASK != 0


def _check(nodes: array, *, gaddag: bool) -> Shape:
    """``_kwg.check`` (or its Python twin) with its verdicts as ``KwgError``, and the GADDAG
    held to the DAWG: a GADDAG made from it has one accepted path per tile of each word. (The
    verdicts themselves are the C checker's words, in Spanish whatever the language.)"""
    try:
        shape = Shape(*(_native.check(nodes, gaddag) if _native is not None
                        else _check_python(nodes, gaddag)))
    except ValueError as exc:
        raise KwgError(_("KWG dañado: {problem}").format(problem=exc)) from None
    if shape.gaddag_paths not in (None, shape.tiles) and _has_gaddag(nodes):
        raise KwgError(_("KWG dañado: el GADDAG no corresponde al DAWG ({paths} caminos para "
                         "{tiles} fichas en sus palabras)").format(paths=shape.gaddag_paths,
                                                                  tiles=shape.tiles))
    return shape


_UINT32_MAX = 0xFFFFFFFF
_NEW, _OPEN, _DONE = 0, 1, 2


def _check_python(nodes: array, gaddag: bool) -> tuple[int, int, int, int | None, int]:
    """The reference for ``_kwg.check``: the same rules, in the same order, with the same
    messages and results (slow: the fallback, and the C code's test oracle)."""
    n = len(nodes)
    if n > MAX_NODES:
        raise ValueError(f"el KWG tiene {n} nodos; el formato admite como mucho {MAX_NODES}")
    tile_set = 0
    for i, node in enumerate(nodes):
        tile_set |= 1 << (node >> TILE_SHIFT)
        if node & ARC_MASK >= n:
            raise ValueError(f"el nodo {i} apunta fuera ({node & ARC_MASK} ≥ {n})")
        if node & IS_END_BIT:
            continue
        if i + 1 == n:
            raise ValueError("la última lista de hermanos no termina")
        tile, following = node >> TILE_SHIFT, nodes[i + 1] >> TILE_SHIFT
        if tile >= following:
            raise ValueError(f"lista de hermanos desordenada en el nodo {i} (ficha {tile} "
                             f"antes de la {following})")
    mark = bytearray(n)  # _NEW, _OPEN, or _DONE + the node's height
    paths = [0] * n
    tiles = [0] * n
    in_dawg = True

    def add(a: int, b: int) -> int:
        return min(a + b, _UINT32_MAX)

    def visit(start: int, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise ValueError(f"el KWG tiene caminos de más de {MAX_DEPTH} fichas")
        last = start
        while True:
            node = nodes[last]
            arc = node & ARC_MASK
            mark[last] = _OPEN
            if in_dawg and node >> TILE_SHIFT == SEPARATOR:
                raise ValueError(f"el nodo {last} del DAWG tiene la ficha {SEPARATOR}, el "
                                 "separador del GADDAG")
            if arc and mark[arc] < _DONE:
                if mark[arc] == _OPEN:
                    raise ValueError(f"el KWG tiene un ciclo: el nodo {last} lleva de vuelta "
                                     f"al nodo {arc}")
                visit(arc, depth + 1)
            if node & IS_END_BIT or mark[last + 1] >= _DONE:
                break
            if mark[last + 1] == _OPEN:
                raise ValueError(f"el KWG tiene un ciclo: el nodo {last} lleva de vuelta al "
                                 f"nodo {last + 1}")
            last += 1
        for i in range(last, start - 1, -1):
            node = nodes[i]
            arc = node & ARC_MASK
            p = 1 if node & ACCEPTS_BIT else 0
            t, height = p, 1
            if arc:
                p = add(p, paths[arc])
                t = add(t, add(tiles[arc], paths[arc]))
                height += mark[arc] - _DONE
            if not p:
                raise ValueError(f"el nodo {i} no lleva a ninguna palabra")
            if not node & IS_END_BIT:
                p = add(p, paths[i + 1])
                t = add(t, tiles[i + 1])
                height = max(height, mark[i + 1] - _DONE)
            if height + depth - 1 > MAX_DEPTH:
                raise ValueError(f"el KWG tiene caminos de más de {MAX_DEPTH} fichas")
            paths[i], tiles[i], mark[i] = p, t, _DONE + height

    dawg, root = nodes[0] & ARC_MASK, nodes[1] & ARC_MASK
    if dawg and mark[dawg] == _NEW:
        visit(dawg, 1)
    words = paths[dawg] if dawg else 0
    if words > MAX_WORDS:
        raise ValueError(f"el KWG tiene más de {MAX_WORDS} palabras")
    gaddag_paths = None
    if gaddag:
        in_dawg = False
        if root and mark[root] == _NEW:
            visit(root, 1)
        gaddag_paths = paths[root] if root else 0
    return (words, tiles[dawg] if dawg else 0, mark[dawg] - _DONE if dawg else 0, gaddag_paths,
            tile_set)


def _checked_word(word: Word) -> tuple[int, ...]:
    w = tuple(word)
    if not w:
        raise KwgError(_("una palabra vacía no cabe en un KWG"))
    for t in w:
        if not isinstance(t, int) or not 1 <= t <= 255:
            raise KwgError(_("ficha {tile} fuera de 1..255 en {word}").format(tile=repr(t),
                                                                             word=w))
    return w


def _words_blob(words: Iterable[Word]) -> bytes:
    """Words as bytes separated by 0 (tile 0 is the separator, so it never occurs in a word)."""
    parts = []
    for w in words:
        try:
            b = bytes(w)
        except (TypeError, ValueError):
            b = b""
        if not b or 0 in b:
            b = bytes(_checked_word(w))
        parts.append(b)
    return b"\x00".join(parts)


def _gaddag_strings(sorted_words: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """GADDAG strings: each word reversed, plus ``ci..c1 ^`` for its prefixes (wolges' drowwords).

    A prefix already emitted for the previous word is not repeated (CAR then CARE: RAC^ once).
    """
    out: list[tuple[int, ...]] = []
    prev: tuple[int, ...] = ()
    for word in sorted_words:
        n = len(word)
        prefix_len = 0
        if prev:
            limit = min(n, len(prev) - 1)
            while prefix_len < limit and prev[prefix_len] == word[prefix_len]:
                prefix_len += 1
        rev = word[::-1] + (SEPARATOR,)
        out.append(rev[:-1])
        for k in range(1, n - prefix_len):
            out.append(rev[k:])
        prev = word
    out.sort()
    return out


class _ReferenceBuilder:
    """wolges' state maker and the depth-first layout, step by step (see the module docstring).

    A *state* is one node of a sibling-list chain: (tile, accepts, arc, next), where ``arc`` and
    ``next`` are state ids; state 0 is the sink. Ids are topologically sorted (arc, next < id).
    """

    def __init__(self) -> None:
        self.tile = [0]
        self.acc = [False]
        self.arc = [0]
        self.next = [0]
        self.finder: dict[tuple[int, bool, int, int], int] = {(0, False, 0, 0): 0}

    def make_state(self, transitions: list[list]) -> int:
        ret = 0
        for tile, accepts, arc in reversed(transitions):
            key = (tile, accepts, arc, ret)
            found = self.finder.get(key)
            if found is None:
                found = len(self.tile)
                self.finder[key] = found
                self.tile.append(tile)
                self.acc.append(accepts)
                self.arc.append(arc)
                self.next.append(ret)
            ret = found
        return ret

    def make_dawg(self, words: list[tuple[int, ...]], dawg_start: int, gaddag: bool) -> int:
        transitions: list[list] = []  # [tile, accepts, arc]
        indexes: list[int] = []  # start of each open node's child batch in ``transitions``

        def pop() -> None:
            start = indexes.pop()
            transitions[start - 1][2] = self.make_state(transitions[start:])
            del transitions[start:]

        prev: tuple[int, ...] | None = None
        for word in words:
            prefix_len = 0
            if prev is not None:
                prev_len = len(indexes)
                limit = min(len(word), prev_len)
                while prefix_len < limit and prev[prefix_len] == word[prefix_len]:
                    prefix_len += 1
                for _level in range(prefix_len, prev_len):
                    pop()
            for t in word[prefix_len:]:
                transitions.append([t, False, 0])
                indexes.append(len(transitions))
            if gaddag and word[-1] == SEPARATOR:
                indexes.pop()
                p = dawg_start
                for sought in reversed(word[:-1]):
                    while self.tile[p] != sought:
                        p = self.next[p]
                    p = self.arc[p]
                transitions[-1][2] = p
            else:
                transitions[-1][1] = True
            prev = word
        for _level in range(len(indexes)):
            pop()
        return self.make_state(transitions)

    def build(self, words: list[tuple[int, ...]]) -> array:
        dawg_start = self.make_dawg(words, 0, False)
        gaddag_start = self.make_dawg(_gaddag_strings(words), dawg_start, True)
        n = len(self.tile)
        nxt = self.next
        # head[p]: the first state of a chain that has p as a tail, so p's list is a suffix of it.
        head = list(range(n))
        for p in range(n - 1, 0, -1):
            head[nxt[p]] = p
        for p in range(n - 1, 0, -1):
            head[p] = head[head[p]]
        to_end = [1] * n
        for p in range(1, n):
            if nxt[p]:
                to_end[p] += to_end[nxt[p]]
        dest = [0] * n
        dest[0] = 0xFFFFFFFF  # the sink is never written
        written = 2

        def defrag(p: int) -> None:
            nonlocal written
            p = head[p]
            if dest[p]:
                return
            first = written
            dest[p] = 0xFFFFFFFF  # breaks cycles through this chain's own tail
            num = to_end[p]
            written += num
            w = p
            while True:
                if self.arc[p]:
                    defrag(self.arc[p])
                p = nxt[p]
                if p == 0:
                    break
            dest[w] = 0
            for ofs in range(num):
                if dest[w]:  # already placed inside an earlier copy of this tail
                    break
                dest[w] = first + ofs
                w = nxt[w]

        defrag(dawg_start)
        defrag(gaddag_start)
        dest[0] = 0
        if written > MAX_NODES:
            raise KwgError(_("el KWG necesitaría {nodes} nodos; el formato admite {most}").format(
                nodes=written, most=MAX_NODES))
        out = array("I", bytes(4 * written))
        out[0] = IS_END_BIT | dest[dawg_start]
        out[1] = IS_END_BIT | dest[gaddag_start]
        for p in range(1, n):
            d = dest[p]
            if d == 0:
                continue
            while True:
                np_ = nxt[p]
                out[d] = ((self.tile[p] << TILE_SHIFT) | (ACCEPTS_BIT if self.acc[p] else 0)
                          | (IS_END_BIT if np_ == 0 else 0) | dest[self.arc[p]])
                if np_ == 0:
                    break
                p = np_
                d += 1
        return out
