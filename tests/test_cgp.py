"""CGP (docs/FORMATS.md §4): reading, writing, and rejecting impossible tile counts (art. 3)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atril import tiles as T
from atril.board import Board
from atril.errors import InvalidPositionError
from atril.position import Position

P2 = ("15/15/15/15/8C6/8A6/6N1[LL]AVE3/5[CH]ICO6/6Ñ8/3PE[rr]O8/15/15/15/15/15 "
      "[RR]AEIST?/ 0/0 0")


def test_reads_digraphs_blanks_and_ops():
    pos = Position(P2 + " lex ES09; ld spanish;")
    assert pos.board.at(7, 5) == T.code("CH")
    assert pos.board.at(9, 5) == T.code("RR") | T.BLANK_BIT
    assert pos.rack.count(T.BLANK) == 1 and T.code("RR") in pos.rack
    assert pos.lexicon == "ES09"


def test_writes_lex_and_ld_and_reads_back():
    pos = Position(P2)
    text = pos.cgp()
    assert "lex ES09;" in text and "ld spanish;" in text
    assert Position(text) == pos


def test_bare_ch_on_a_rack_is_two_tiles():
    pos = Position("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 CH/ 0/0 0")
    assert pos.rack == (T.code("C"), T.code("H"))


@pytest.mark.parametrize("bad, why", [
    ("", "vacío"),
    ("15/15/15 A/ 0/0 0", "filas"),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/16 A/ 0/0 0", "fila 15"),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/14 A/ 0/0 0", "fila 15"),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A 0/0 0", "atriles"),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ x/0 0", "puntuaciones"),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 z", "turnos"),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/14K A/ 0/0 0", "10.2"),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/14? A/ 0/0 0", "comodín"),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/13ZZ A/ 0/0 0", "art. 3"),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/13[CH]1 [CH]/ 0/0 0", "art. 3"),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/12abc ?/ 0/0 0", "comodines"),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AAAAAAAA/ 0/0 0", "7"),
])
def test_bad_cgp_says_what_is_wrong(bad, why):  # art. 3
    with pytest.raises(InvalidPositionError) as info:
        Position(bad)
    assert why in str(info.value)


@pytest.mark.parametrize("bad, article", [
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/13ZZ A/ 0/0 0", "3"),  # one Z in the game
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/12abc ?/ 0/0 0", "3"),  # two blanks
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AAAAAAAA/ 0/0 0", "6"),  # seven at most
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/14K A/ 0/0 0", "10.2"),  # no K, not even a blank
    ("15/15/15 A/ 0/0 0", None),  # malformed: no rule broken
])
def test_a_bad_position_names_the_rule_it_breaks(bad, article):  # art. 3, 6, 10.2
    """The rule an impossible position breaks is the error's ``article`` too, not only in its
    message, so that a front end (the CLI's and the web's ``{"error", "article"}``) shows it."""
    with pytest.raises(InvalidPositionError) as info:
        Position(bad)
    assert info.value.article == article
    assert article is None or f"(art. {article})" in str(info.value)


def test_any_arrangement_is_allowed():
    # A floating word nowhere near the centre: positions are transcribed from books.
    pos = Position("15/15/15/15/15/15/15/15/15/15/15/15/15/15/CASA11 / 0/0 0")
    assert pos.board.tile_count() == 4 and pos.racks == ((), ())


@st.composite
def positions(draw):
    pool = [code for code, n in enumerate(T.COUNTS) for _ in range(n)]
    order = draw(st.permutations(pool))
    n_board = draw(st.integers(0, 80))
    squares = draw(st.lists(st.integers(0, 224), min_size=n_board, max_size=n_board, unique=True))
    board = Board()
    used = 0
    for sq in squares:
        t = order[used]
        used += 1
        if t == T.BLANK:
            t = draw(st.integers(1, T.NUM_LETTERS)) | T.BLANK_BIT
        board[sq] = t
    rack1 = order[used:used + draw(st.integers(0, 7))]
    used += len(rack1)
    rack2 = order[used:used + draw(st.integers(0, 7))]
    scores = (draw(st.integers(-50, 900)), draw(st.integers(-50, 900)))
    return Position(board=board, racks=(rack1, rack2), scores=scores,
                    zero_turns=draw(st.integers(0, 12)))


@given(positions())
def test_write_then_read_gives_the_position_back(pos):
    again = Position(pos.cgp())
    assert again.board == pos.board
    assert sorted(again.racks[0]) == sorted(pos.racks[0])
    assert sorted(again.racks[1]) == sorted(pos.racks[1])
    assert again.scores == pos.scores and again.zero_turns == pos.zero_turns
