"""Leave tables: the DAWG of every leave, ranks as the C generator reads them, the file."""

import itertools
from array import array

import pytest

from atril import leaves, movegen
from atril import tiles as T
from atril.board import Board
from atril.errors import AtrilError
from atril.lexicon import Lexicon


def tiles(text):
    return T.tokenize_machine(text)


def test_every_leave_of_one_to_six_tiles():
    assert leaves.count() == 1_170_590  # multisets of the 100 tiles (art. 3) of size 1–6
    for i, leave in enumerate(itertools.islice(leaves.all_leaves(), 5_000)):
        assert leaves.rank(leave) == i
    assert leaves.rank(tiles("Z")) == leaves.count() - 1  # Z alone sorts last
    for impossible in ("ZZ", "???", "AAAAAAA", ""):
        with pytest.raises(KeyError):
            leaves.rank(tiles(impossible))


def test_the_move_generator_reads_the_same_ranks():
    table = leaves.LeaveValues(array("f", range(leaves.count())))
    rack = tiles("AE?[CH]SSL")
    found = movegen.best(Board(), rack, Lexicon.load(), n=60, leave_values=table, exchanges=True)
    checked = 0
    for c in found:
        if 1 <= len(c.leave) <= leaves.MAX_LEAVE:
            assert c.equity - c.score == pytest.approx(leaves.rank(c.leave), abs=0.5)
            checked += 1
    assert checked > 30


def test_file_round_trip(tmp_path):
    table = leaves.load()
    path = tmp_path / "hojas.bin.xz"
    table.write(path)
    assert leaves.LeaveValues.read(path).values == table.values  # already in sixteenths
    with pytest.raises(AtrilError):
        leaves.LeaveValues.from_bytes(b"not a table")
    with pytest.raises(AtrilError):
        leaves.LeaveValues([0.0] * 10)


def test_shipped_table_makes_sense():
    table = leaves.load()
    assert table is leaves.load() and len(table) == leaves.count()
    assert table[tiles("?")] > table[tiles("S")] > table[tiles("Q")]
    assert table[tiles("ERS")] > table[tiles("UUU")]
    assert table[tiles("QU")] > table[tiles("Q")]
    assert table[()] == 0.0
