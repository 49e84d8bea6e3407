"""Every parser meets arbitrary text, and the word-graph loader arbitrary bytes: each answers
or raises an ``AtrilError`` with a message, never another exception, a crash or a hang (as
python-chess fuzzes FEN and PGN)."""

import os
import random

import crafted_kwg as crafted
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atril import lexicon as lexicon_module
from atril import movegen
from atril.board import Board
from atril.errors import AtrilError, LexiconError
from atril.kwg import Kwg, KwgError
from atril.lexicon import Lexicon
from atril.move import Move
from atril.position import Position
from atril.rack import Rack
from atril.rules import check_play
from atril.tiles import BLANK, BLANK_BIT, code, tokenize_word

# Text made of the pieces these formats use, so the fuzzer reaches deep into each parser.
pieces = st.sampled_from(
    list("ABCHLRÑñaechlr?.()[]/ 0123456789-;kKwWxyzáü") + ["[CH]", "[ch]", "15", "7", "H8 ", "8H "])
texts = st.one_of(st.text(max_size=40), st.lists(pieces, max_size=40).map("".join))


def refused_cleanly(parse, text) -> None:
    try:
        parse(text)
    except AtrilError as exc:
        assert str(exc)


@settings(max_examples=400)
@given(texts)
def test_move_parser(text):
    refused_cleanly(Move, text)
    refused_cleanly(lambda t: Move.parse(t, gcg=True), text)


@settings(max_examples=300)
@given(texts)
def test_rack_parser(text):
    refused_cleanly(Rack, text)


board_rows = st.lists(st.lists(pieces, max_size=8).map("".join), min_size=14, max_size=16)


@settings(max_examples=300)
@given(board_rows, texts)
def test_cgp_parser(rows, tail):
    refused_cleanly(Position, "/".join(rows) + " " + tail)
    refused_cleanly(Position, tail)


@settings(max_examples=300)
@given(texts)
def test_placement_of_any_parsed_move(text):
    # Whatever parses as a play can be put to the placement rules without a crash.
    try:
        move = Move(text)
    except AtrilError:
        return
    if move.is_play:
        board = Board()
        board[112] = 1
        refused_cleanly(lambda m: check_play(board, m), move)


# --- word graphs ------------------------------------------------------------------------------
# Damaged .kwg bytes and random bytes meet the loader, then the move generator: each input
# either loads and every walk of it ends cleanly, or is refused with KwgError or LexiconError,
# never a crash, a MemoryError or a hang. ATRIL_FUZZ_CASES sets how many (tools/fuzz_kwg.py
# runs many more under AddressSanitizer).

FUZZ_CASES = int(os.environ.get("ATRIL_FUZZ_CASES", "2000"))


def fuzz_boards() -> list[Board]:
    """An empty board, and one with words (a blank and digraphs) for cross-checks."""
    board = Board()
    for sq, t in zip(range(112, 117), tokenize_word("charro")):  # H8 CHARRO
        board[sq] = t
    for sq, t in zip(range(99, 160, 15), tokenize_word("llaves")):  # 7J LLAVES through the A
        if not board[sq]:
            board[sq] = t
    board[160] = board[160] | BLANK_BIT if board[160] else code("S") | BLANK_BIT
    return [Board(), board]


FUZZ_RACKS = [tuple(tokenize_word("casal")) + (BLANK,), tuple(tokenize_word("eoñza")) + (BLANK,)]


def walk_everything(graph) -> None:
    """Everything that walks a graph: its words, a lookup, and the generator's two searches
    (exchanges included) on each board and rack."""
    words = list(graph.words())
    assert len(words) == (graph.word_count if isinstance(graph, Lexicon) else graph.shape.words)
    graph.accepts(tokenize_word("casa")) if isinstance(graph, Kwg) else ("casa" in graph)
    for board in fuzz_boards():
        for rack in FUZZ_RACKS:
            movegen.generate(board, rack, graph, exchanges=True, bag_count=7)
            movegen.best(board, rack, graph, n=3, exchanges=True)


def damaged(seed: int, cases: int) -> list[bytes]:
    rng = random.Random(seed)
    real = crafted.real()
    return [crafted.mutate(rng, real) if case % 8 else crafted.random_bytes(rng)
            for case in range(cases)]


@pytest.mark.parametrize("seed", range(4))
def test_damaged_kwg_bytes(seed):
    loaded = 0
    for data in damaged(seed, FUZZ_CASES // 4):
        for check in (True, False):
            try:
                kwg = Kwg.from_bytes(data, check=check)
                walk_everything(kwg)
                loaded += 1
            except KwgError as exc:
                assert str(exc)
    assert loaded  # some damage leaves a graph that still works


@pytest.mark.parametrize("seed", range(2))
def test_damaged_kwg_files(seed, tmp_path, monkeypatch):
    monkeypatch.setenv("ATRIL_CACHE_DIR", str(tmp_path / "cache"))
    for case, data in enumerate(damaged(100 + seed, FUZZ_CASES // 8)):
        path = tmp_path / f"{case}.kwg"
        path.write_bytes(data)
        try:
            walk_everything(Lexicon.load(path))
        except LexiconError as exc:
            assert str(exc)
        lexicon_module._LOADED.clear()


@settings(max_examples=max(20, FUZZ_CASES // 8), deadline=None)
@given(st.sets(st.lists(st.sampled_from([1, 4, 13, 16, 21, 28, 29, 31, 32, 200, 255]),
                        min_size=1, max_size=15).map(tuple), min_size=1, max_size=30))
def test_odd_but_sound_graphs(words):
    """Graphs that pass every check but are no Spanish lexicon (tiles past Z, words longer
    than the board) still only give legal-looking moves of their words."""
    kwg = Kwg.build(words)
    walk_everything(kwg)
    for c in movegen.generate(fuzz_boards()[1], FUZZ_RACKS[0], kwg):
        assert tuple(t & ~BLANK_BIT for t in c.move.tiles) in words
