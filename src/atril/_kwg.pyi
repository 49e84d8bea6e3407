"""Types of the native KWG module (``_kwg.c``): building, checking and reading word graphs.

A graph is its nodes as little-endian ``uint32`` (any buffer: ``bytes``, ``array('I')``).
"""

from typing_extensions import Buffer

TILE_SHIFT: int
ACCEPTS_BIT: int
IS_END_BIT: int
ARC_MASK: int
MAX_NODES: int
MAX_WORDS: int
MAX_DEPTH: int
SEPARATOR: int

def build(blob: Buffer, /) -> bytes:
    """The KWG (DAWG + GADDAG) of the words in ``blob``, tile codes separated by 0 bytes."""

def check(nodes: Buffer, gaddag: bool, /) -> tuple[int, int, int, int, int]:
    """(words, tiles, longest word, GADDAG paths, tiles used); KwgError-worthy ValueError."""

def child_masks(nodes: Buffer, /) -> bytes:
    """One ``uint32`` tile set per node: the tiles of its sibling list from it on."""

def accepts(nodes: Buffer, word: Buffer, /) -> bool:
    """Whether the DAWG holds ``word`` (tile codes)."""

def words(nodes: Buffer, /) -> bytes:
    """Every DAWG word, tile codes separated by 0 bytes."""
