"""Leave values: what the tiles kept after a move are worth, in points (the "equity" engine).

    >>> from atril import leaves, tiles as T
    >>> table = leaves.load()                          # the shipped Spanish table
    >>> table[T.tokenize_machine("S?")] > table[T.tokenize_machine("QÑ")]
    True

The table covers every possible leave of 1 to 6 tiles of the Spanish set (1,170,590 of
them): a leave is its tiles sorted by code, the blank (0) first. It is a ``LeaveTable`` for
``movegen.best``: ``kwg_nodes`` is a DAWG of all those leaves (wolges' KLV layout, no GADDAG)
and ``values`` the ``float32`` value of each leave by its rank in sorted order.

Because the table holds *every* leave, the DAWG depends only on the tile counts (art. 3): it
is built at load time from a handful of states (last tile, copies of it, room left), and the
file holds only the values, in rank order, as ``int16`` sixteenths of a point, xz-compressed.
How the values are learnt (self-play, ``tools/train_leaves.py``): docs/LEAVES.md.
"""

from __future__ import annotations

import functools
import lzma
import struct
import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path

from . import tiles as T
from .errors import AtrilError
from .i18n import _
from .kwg import ACCEPTS_BIT, IS_END_BIT

__all__ = ["LeaveValues", "MAX_LEAVE", "SHIPPED", "all_leaves", "count", "load", "rank"]

MAX_LEAVE = T.RACK_SIZE - 1
SHIPPED = "leaves-es09.bin.xz"
_MAGIC = b"ATRILLV1"
_HEADER = struct.Struct("<8sIf")  # magic, number of values, points per unit
_SCALE = 1 / 16

#: a DAWG state: (last tile, copies of it so far, tiles that may still follow).
_State = tuple[int, int, int]
_ROOT: _State = (-1, 0, MAX_LEAVE)


@functools.cache
def _children(state: _State) -> tuple[tuple[int, _State], ...]:
    last, copies, room = state
    if room == 0:
        return ()
    out = []
    for t in range(max(last, 0), T.ALPHABET_SIZE):
        if t == last:
            if copies < T.COUNTS[t]:
                out.append((t, (t, copies + 1, room - 1)))
        elif T.COUNTS[t]:
            out.append((t, (t, 1, room - 1)))
    return tuple(out)


@functools.cache
def _words_under(state: _State) -> int:
    """Leaves that extend the prefix ending in ``state`` (the prefix itself excluded)."""
    return sum(1 + _words_under(child) for _, child in _children(state))


@functools.cache
def _dawg() -> array:
    """The DAWG of every leave: one sibling list per state, shared by every prefix reaching it."""
    nodes = array("I", [0, 0])
    placed: dict[_State, int] = {}

    def place(state: _State) -> int:
        if state in placed:
            return placed[state]
        kids = _children(state)
        if not kids:
            return 0
        start = placed[state] = len(nodes)
        nodes.extend([0] * len(kids))
        for i, (tile, child) in enumerate(kids):
            end = IS_END_BIT if i == len(kids) - 1 else 0
            nodes[start + i] = tile << 24 | ACCEPTS_BIT | end | place(child)
        return start

    nodes[0] = IS_END_BIT | place(_ROOT)
    nodes[1] = IS_END_BIT  # no GADDAG in a leave table
    return nodes


def count() -> int:
    """How many leaves of 1 to 6 tiles the Spanish set allows."""
    return _words_under(_ROOT)


def rank(leave: Iterable[int]) -> int:
    """The index of a leave in sorted order (its value's index); ``KeyError`` if impossible."""
    tiles = sorted(leave)
    if not 1 <= len(tiles) <= MAX_LEAVE:
        raise KeyError(tuple(tiles))
    state, r = _ROOT, 0
    for i, tile in enumerate(tiles):
        for t, child in _children(state):
            if t == tile:
                state = child
                break
            r += 1 + _words_under(child)
        else:
            raise KeyError(tuple(tiles))
        if i:
            r += 1  # the shorter prefix sorts first
    return r


def all_leaves() -> Iterator[tuple[int, ...]]:
    """Every leave, in rank order."""
    def walk(state: _State, prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for tile, child in _children(state):
            word = prefix + (tile,)
            yield word
            yield from walk(child, word)
    return walk(_ROOT, ())


class LeaveValues:
    """A value for every leave (see the module docstring); ``table[tiles]`` reads one."""

    __slots__ = ("kwg_nodes", "values", "__weakref__")

    def __init__(self, values: Sequence[float]):
        if len(values) != count():
            raise AtrilError(_("una tabla de hojas tiene {want} valores, no {given}").format(
                want=count(), given=len(values)))
        self.kwg_nodes = _dawg()
        self.values = values if isinstance(values, array) and values.typecode == "f" \
            else array("f", values)

    def __getitem__(self, leave: Iterable[int]) -> float:
        tiles = tuple(leave)
        return self.values[rank(tiles)] if tiles else 0.0

    def __len__(self) -> int:
        return len(self.values)

    def to_bytes(self) -> bytes:
        """The file form: header, then each value in sixteenths of a point, xz-compressed."""
        units = array("h", (max(-32768, min(32767, round(v / _SCALE))) for v in self.values))
        if sys.byteorder == "big":  # pragma: no cover
            units.byteswap()
        return lzma.compress(_HEADER.pack(_MAGIC, len(units), _SCALE) + units.tobytes())

    @classmethod
    def from_bytes(cls, data: bytes) -> LeaveValues:
        try:
            raw = lzma.decompress(data)
            magic, n, scale = _HEADER.unpack_from(raw)
        except (lzma.LZMAError, struct.error):
            raise AtrilError(_("fichero de valores de hojas dañado")) from None
        units = array("h")
        units.frombytes(raw[_HEADER.size:])
        if magic != _MAGIC or len(units) != n:
            raise AtrilError(_("fichero de valores de hojas dañado"))
        if sys.byteorder == "big":  # pragma: no cover
            units.byteswap()
        return cls(array("f", [u * scale for u in units]))

    def write(self, path: str | Path) -> None:
        Path(path).write_bytes(self.to_bytes())

    @classmethod
    def read(cls, path: str | Path) -> LeaveValues:
        return cls.from_bytes(Path(path).read_bytes())

    def __repr__(self) -> str:
        return f"<LeaveValues of {len(self)} leaves>"


@functools.cache
def load() -> LeaveValues:
    """The shipped table (``atril/data/leaves-es09.bin.xz``), read once per process."""
    return LeaveValues.from_bytes(resources.files("atril").joinpath("data", SHIPPED).read_bytes())
