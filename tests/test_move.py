"""Move notation (docs/FORMATS.md §3): Spanish coordinates, blanks, board tiles, exchange, pass."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atril import tiles as T
from atril.board import parse_coordinate
from atril.errors import InvalidMoveError
from atril.move import THROUGH, Move
from atril.rack import Rack


def test_across_and_down():
    across = Move("H8 CASA")
    assert (across.row, across.col, across.across) == (7, 7, True)
    down = Move("8H CASA")
    assert (down.row, down.col, down.across) == (7, 7, False)


def test_gcg_coordinates_are_a_relabelling():
    # Spanish H8 across = GCG 8H; Spanish 1A down = GCG A1.
    assert parse_coordinate("8H", gcg=True) == parse_coordinate("H8")
    assert parse_coordinate("A1", gcg=True) == parse_coordinate("1A")
    assert Move.parse("8H CASA", gcg=True) == Move("H8 CASA")


def test_board_tiles_three_ways():
    plain, paren, dot = Move("H8 CASA"), Move("H8 CA(S)A"), Move("H8 CA.A")
    assert plain == paren
    assert dot.tiles[2] == THROUGH


def test_lower_case_is_a_blank():
    move = Move("H8 CHARrO")
    assert [T.is_blank(t) for t in move.tiles] == [False, False, False, True, False]
    assert move.tiles[3] == T.code("R") | T.BLANK_BIT


def test_exchange_and_pass():
    assert Move("cambio AEI").is_exchange
    assert Move("cambio 1?A").tiles == (T.code("A"), T.code("CH"), T.BLANK)  # blanks last
    assert Move("-[RR]X").tiles == (T.code("RR"), T.code("X"))
    assert Move("paso").is_pass and Move("-").is_pass


@pytest.mark.parametrize("bad", [
    "", "H8", "H16 CASA", "Z8 CASA", "H8 CA$A", "H8 KIWI", "H13 CASAS", "H8 CA(SA", "88 CASA",
    "cambio 12345678", "cambio K",
])
def test_malformed_moves_say_what_is_wrong(bad):
    with pytest.raises(InvalidMoveError) as info:
        Move(bad)
    assert str(info.value)


tiles = st.integers(1, T.NUM_LETTERS)
played = st.one_of(tiles, tiles.map(lambda t: t | T.BLANK_BIT), st.just(THROUGH))


@given(st.integers(0, 14), st.integers(0, 14), st.booleans(),
       st.lists(played, min_size=1, max_size=15))
def test_format_then_parse_gives_the_move_back(row, col, across, word):
    if (col if across else row) + len(word) > 15:
        return
    move = Move.play(row, col, across, tuple(word))
    assert Move(str(move)) == move
    assert eval(repr(move)) == move


@given(st.lists(st.integers(0, T.NUM_LETTERS), min_size=1, max_size=7))
def test_exchange_round_trips(rack):
    move = Move.exchange(tuple(rack))
    assert Move(str(move)) == move


def test_rack_prints_as_code_and_accepts_digit_aliases():
    rack = Rack("1?AE3")
    assert repr(rack) == "Rack('A[CH]E[RR]?')"  # Spanish order: CH after C
    assert Rack(str(rack)) == rack
    assert rack.human() == "A CH E RR ?"
    assert Rack("CH") == (T.code("C"), T.code("H"))  # a bare CH on a rack is two tiles
    assert Rack("[CH]QZ").value() == 5 + 5 + 10


def test_gcg_and_machine_words_read_bare_ch_as_two_tiles():
    # docs/FORMATS.md §2: in machine text a bare CH is C and H; [CH] is the digraph.
    assert Move.parse("8H CHA", gcg=True).tiles == (T.code("C"), T.code("H"), T.code("A"))
    assert Move.parse("8H [CH]A", gcg=True).tiles == (T.code("CH"), T.code("A"))
    move = Move.parse("H8 [CH]A.O", machine=True)
    assert Move.parse(move.notation(machine=True), machine=True) == move
