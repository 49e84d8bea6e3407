"""Hand-made KWG bytes for the tests: graphs that broke the loader or the move generator before
they were checked, and random damage to a real graph (the fuzz tests, tools/fuzz_kwg.py)."""

from __future__ import annotations

import random
import struct
from array import array

from atril.kwg import ACCEPTS_BIT, ARC_MASK, IS_END_BIT, MAX_DEPTH, TILE_SHIFT, Kwg
from atril.tiles import tokenize_word

#: a few Spanish words, digraphs included: the real graph the damage is done to.
WORDS = ("casa", "casas", "cal", "cala", "sal", "ala", "las", "as", "sa", "la", "al", "lacas",
         "chacha", "charro", "llave", "perro", "ñandu", "erre", "re", "ser", "oso", "eso")


def node(tile: int, arc: int = 0, *, end: bool = False, accepts: bool = False) -> int:
    return (tile << TILE_SHIFT) | arc | (IS_END_BIT if end else 0) | (ACCEPTS_BIT if accepts else 0)


def pack(nodes: list[int]) -> bytes:
    return struct.pack(f"<{len(nodes)}I", *nodes)


def unpack(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data[:len(data) // 4 * 4]))


def real() -> bytes:
    """A DAWG + GADDAG made by atril from WORDS."""
    return Kwg.build(tokenize_word(w) for w in WORDS).to_bytes()


def exponential(levels: int = 60) -> bytes:
    """488 bytes whose DAWG holds 2**61 - 2 words: at each level both tiles are words and
    lead on to the next level. Listing them word by word never ends (the old loader died of
    MemoryError, or of the OOM killer)."""
    nodes = [node(0, 2, end=True), node(0, end=True)]
    for level in range(levels):
        following = 2 + 2 * (level + 1) if level + 1 < levels else 0
        nodes += [node(1, following, accepts=True), node(2, following, end=True, accepts=True)]
    return pack(nodes)


def cycle() -> bytes:
    """A DAWG whose one list leads back to itself: A, AA, AAA… for ever."""
    return pack([node(0, 2, end=True), node(0, end=True), node(1, 2, end=True, accepts=True)])


def chain(length: int) -> bytes:
    """A DAWG of one word of ``length`` tiles (and no GADDAG)."""
    nodes = [node(0, 2, end=True), node(0, end=True)]
    for i in range(length):
        last = i == length - 1
        nodes.append(node(1, 0 if last else len(nodes) + 1, end=True, accepts=last))
    return pack(nodes)


def too_deep() -> bytes:
    return chain(MAX_DEPTH + 1)


def dead_paths(levels: int = 60) -> bytes:
    """One word, B, and beside it 2**60 paths that lead to no word: listing the words walked
    them all and never ended."""
    nodes = [node(0, 2, end=True), node(0, end=True), node(1, 4), node(2, end=True, accepts=True)]
    for level in range(levels):
        following = 4 + 2 * (level + 1) if level + 1 < levels else 0
        nodes += [node(1, following), node(2, following, end=True)]
    return pack(nodes)


def dead_end() -> bytes:
    """A list whose node leads nowhere and is no word: its paths, not its words, count."""
    return pack([node(0, 2, end=True), node(0, end=True), node(1, 4), node(2, end=True),
                 node(3, end=True)])


def gaddag_out_of_range() -> bytes:
    """The real graph with its GADDAG root list far outside the array: the move generator
    read masks[arc] there and crashed (segmentation fault) when nothing checked it."""
    nodes = unpack(real())
    nodes[1] = (nodes[1] & ~ARC_MASK) | ARC_MASK
    return pack(nodes)


def gaddag_word_dropped(kwg: Kwg) -> array:
    """The graph's nodes with one GADDAG node (one the DAWG does not reach, with children)
    no longer a word: every walk is still safe, but the GADDAG no longer matches the DAWG."""
    dawg, lists = set(), [kwg.dawg_root]
    while lists:
        for i in kwg.siblings(lists.pop()):
            dawg.add(i)
            lists.append(kwg.arc(i))
    nodes = array("I", kwg.nodes)
    flip = next(i for i in range(2, len(nodes))
                if i not in dawg and nodes[i] & ACCEPTS_BIT and nodes[i] & ARC_MASK)
    nodes[flip] ^= ACCEPTS_BIT
    return nodes


def mutate(rng: random.Random, data: bytes) -> bytes:
    """The bytes damaged at random: bits flipped, arcs, tiles or flags changed, nodes swapped
    or repeated, the end cut off."""
    nodes = unpack(data)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(nodes))
        kind = rng.randrange(8)
        if kind == 0:
            nodes[i] ^= 1 << rng.randrange(32)
        elif kind == 1:
            arc = rng.choice([0, 1, 2, len(nodes) - 1, len(nodes), rng.randrange(len(nodes)),
                              rng.randrange(ARC_MASK + 1)])
            nodes[i] = (nodes[i] & ~ARC_MASK) | arc
        elif kind == 2:
            nodes[i] = (nodes[i] & ~(0xFF << TILE_SHIFT)) | rng.randrange(256) << TILE_SHIFT
        elif kind == 3:
            nodes[i] ^= rng.choice([IS_END_BIT, ACCEPTS_BIT])
        elif kind == 4:
            j = rng.randrange(len(nodes))
            nodes[i], nodes[j] = nodes[j], nodes[i]
        elif kind == 5:
            j = rng.randrange(i, min(len(nodes), i + 8) + 1)
            nodes[j:j] = nodes[i:j]
        elif kind == 6:
            del nodes[rng.randrange(2, len(nodes) + 1):]
        else:
            nodes[i] = (nodes[i] & ~ARC_MASK) | (nodes[rng.randrange(len(nodes))] & ARC_MASK)
    out = pack(nodes)
    return out[:rng.randrange(len(out) + 1)] if rng.random() < 0.05 else out


def random_bytes(rng: random.Random) -> bytes:
    return rng.randbytes(rng.choice([0, 4, 7, 8, 12, 40, rng.randrange(400)]))
