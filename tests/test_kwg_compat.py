"""A ``.kwg`` file from another writer reads as a lexicon and plays like atril's own.

The writer here follows only the format as docs/FORMATS.md (§7) states it (wolges' layout:
DAWG and GADDAG in one array of little-endian uint32 nodes; Macondo and wolges files are made
so), and shares nothing with atril's builder: plain uncompressed tries, every GADDAG path
spelt out in full (no pointing into the DAWG), sibling lists laid out breadth first, nothing
minimised. Its tile codes and node bits are typed in from the document, not imported.
"""

from __future__ import annotations

import struct

import pytest

from atril import movegen
from atril.board import Board
from atril.errors import InvalidPositionError
from atril.lexicon import Lexicon
from atril.rules import apply_play, check_play

# docs/FORMATS.md, §7 "KWG — the word graph": tile codes and node bits.
ALPHABET = "A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z".split()  # codes 1..28
ACCEPTS, IS_END, SEPARATOR = 0x800000, 0x400000, 0

WORDS = ["chacha", "charro", "carro", "calle", "llave", "llaves", "perro", "perra", "ñandu",
         "caña", "año", "coche", "lechuza", "arrullo", "la", "al", "as", "sa", "re", "ser",
         "eso", "oso", "ole", "ola", "sal", "las", "ala", "casa", "casas", "cachorro"]


def tiles(word: str) -> tuple[int, ...]:
    """Tile codes of a word, digraphs first (CH, LL, RR are one tile each)."""
    out, i, text = [], 0, word.upper()
    while i < len(text):
        piece = text[i:i + 2] if text[i:i + 2] in ALPHABET else text[i]
        out.append(ALPHABET.index(piece) + 1)
        i += len(piece)
    return tuple(out)


def gaddag_strings(word: tuple[int, ...]) -> list[tuple[int, ...]]:
    """For c1..cn: ci..c1 ^ ci+1..cn for i < n, and cn..c1 (the document's definition)."""
    n = len(word)
    return [word[:i][::-1] + (SEPARATOR,) + word[i:] for i in range(1, n)] + [word[::-1]]


def trie(strings) -> dict:
    """{tile: [child trie, accepts]}, one branch per string, nothing shared."""
    root: dict = {}
    for s in strings:
        level = root
        for k, tile in enumerate(s):
            entry = level.setdefault(tile, [{}, False])
            if k == len(s) - 1:
                entry[1] = True
            level = entry[0]
    return root


def write_kwg(words: list[tuple[int, ...]]) -> bytes:
    """nodes[0] and nodes[1] point to the DAWG's and the GADDAG's root lists; each trie level
    becomes one sibling list, sorted by tile, its last node marked; lists are placed breadth
    first, in the order they are reached."""
    roots = [trie(words), trie(s for w in words for s in gaddag_strings(w))]
    nodes = [0, 0]
    queue = []  # (index of the node that points to the list, the list's trie level)

    def place(parent: int, level: dict) -> None:
        if level:
            queue.append((parent, level))

    place(0, roots[0])
    place(1, roots[1])
    while queue:
        parent, level = queue.pop(0)
        first = len(nodes)
        nodes[parent] |= first
        for k, tile in enumerate(sorted(level)):
            child, accepts = level[tile]
            nodes.append(tile << 24 | (ACCEPTS if accepts else 0)
                         | (IS_END if k == len(level) - 1 else 0))
            place(first + k, child)
    nodes[0] |= IS_END
    nodes[1] |= IS_END
    return struct.pack(f"<{len(nodes)}I", *nodes)


@pytest.fixture(scope="module")
def lexicons(tmp_path_factory):
    """The independent file read by ``Lexicon.load``, and atril's own build of the words."""
    path = tmp_path_factory.mktemp("kwg") / "AJENO.kwg"
    path.write_bytes(write_kwg([tiles(w) for w in WORDS]))
    return Lexicon.load(path), Lexicon.from_words(WORDS)


def test_the_file_holds_the_words(lexicons):
    foreign, own = lexicons
    assert foreign.id == "AJENO" and len(foreign) == len(WORDS)
    assert sorted(foreign.words()) == sorted(tiles(w) for w in WORDS) == list(own.words())
    assert "chacha" in foreign and "arrullo" in foreign and "ñandú" in foreign
    assert "chach" not in foreign and (3, 9, 1, 3, 9, 1) not in foreign  # C-H-A-C-H-A
    assert len(foreign.kwg) > len(own.kwg)  # nothing shared: far more nodes, same words


def rack_tiles(rack: str) -> tuple[int, ...]:
    """A rack typed as a word, ``?`` for a blank (code 0)."""
    return tiles(rack.replace("?", "")) + (0,) * rack.count("?")


@pytest.fixture(scope="module")
def boards(lexicons) -> list[Board]:
    """The empty board, then the board after each of a few plays."""
    out, board = [Board()], Board()
    for rack in ("casas", "llave?", "perro?", "oñandu", "coche?"):
        moves = movegen.generate(board, rack_tiles(rack), lexicons[1])
        apply_play(board, check_play(board, moves[0].move))
        out.append(board.copy())
    return out


@pytest.mark.parametrize("rack", ["chacaho", "rrolle?", "aellsv?", "ñaoecs?", "rrpeoaz"])
def test_the_same_plays_as_with_atrils_own_graph(lexicons, boards, rack):
    foreign, own = lexicons
    plays = 0
    for board in boards:
        try:
            ours = movegen.generate(board, rack_tiles(rack), own, exchanges=True, bag_count=7)
        except InvalidPositionError:  # the board already holds the rack's only CH, LL…
            continue
        theirs = movegen.generate(board, rack_tiles(rack), foreign, exchanges=True, bag_count=7)
        assert [str(c) for c in theirs] == [str(c) for c in ours]
        assert theirs._buf == ours._buf
        best = movegen.best(board, rack_tiles(rack), foreign, n=3, exchanges=True, bag_count=7)
        assert list(best) == list(ours[:3])
        plays += sum(1 for c in ours if c.move.is_play)
    assert plays >= 10
