"""Placement (art. 2, 6, 8, 9) and scoring (art. 12–19), with hand-computed scores."""

import pytest

from atril import tiles as T
from atril.board import Board, parse_square
from atril.errors import IllegalMoveError
from atril.move import Move
from atril.rules import apply_play, check_play, leave_after


def put(board: Board, move: str) -> Board:
    """Lay tiles without checks: positions may be any arrangement (as in books)."""
    m = Move(move)
    for sq, t in zip(m.squares(), m.tiles):
        board[sq] = t
    return board


def words(play):
    return [(w.text, w.score) for w in play.words]


def test_first_play_doubled_on_the_star():  # art. 16
    play = check_play(Board(), Move("H8 CHARRO"))
    assert play.score == (5 + 1 + 8 + 1) * 2  # CH A RR O


def test_digraph_on_letter_premium():  # art. 11, 13
    # LL on H4 (2L): 16; A M A S; S on H8 (2W).
    play = check_play(Board(), Move("H4 LLAMAS"))
    assert play.score == (16 + 1 + 3 + 1 + 1) * 2


def test_blank_on_letter_premium_scores_zero():  # art. 10.1
    play = check_play(Board(), Move("H4 llAMAS"))
    assert play.score == (0 + 1 + 3 + 1 + 1) * 2


def test_blank_under_word_premium_still_doubles():  # art. 10.1, 14
    play = check_play(Board(), Move("H8 cASA"))
    assert play.score == (0 + 1 + 1 + 1) * 2


def test_word_across_two_triple_word_squares():  # art. 15, 19
    board = put(Board(), "A4 O")
    play = check_play(board, Move("A1 PALOMERA"))
    # P A L (O) M E R A: premiums A1 3W and A8 3W -> x9; A4 2L lies under an old tile (art. 17).
    assert play.score == (3 + 1 + 1 + 1 + 3 + 1 + 1 + 1) * 9 + 50
    assert play.bingo


def test_premium_only_counts_once():  # art. 17
    board = put(Board(), "H4 LLAMAS")
    play = check_play(board, Move("H4 LLAMASE"))  # extends over LL on H4 (2L) and S on H8 (2W)
    assert play.score == 8 + 1 + 3 + 1 + 1 + 1


def test_parallel_play_scores_every_word():  # art. 8, 18
    board = put(Board(), "H8 CASA")
    play = check_play(board, Move("I9 OSO"))
    # OSO with O on I9 (2L): 2+1+1; cross-words AO (1+2), SS (1+1), AO (1+1).
    assert sorted(words(play)) == sorted([("OSO", 4), ("AO", 3), ("SS", 2), ("AO", 2)])
    assert play.score == 11


def test_shared_tile_counts_in_both_words_premium_included():  # art. 18
    board = put(Board(), "E1 CASA")  # E1..E4; E5 is 2W
    board = put(board, "5F OSO")  # F5..H5 below E5
    play = check_play(board, Move("E1 CASAS"))
    # CASAS: 1x... new S on E5 (2W): (3+1+1+1+1)*2 = 14; SOSO down: (1+1+1+1)*2 = 8.
    assert sorted(words(play)) == sorted([("CASAS", 14), ("SOSO", 8)])
    assert play.score == 22


def test_seven_tiles_with_two_blanks():  # art. 10.2, 19
    play = check_play(Board(), Move("H8 cASAdAS"))
    # c (H8 2W) 0, A S A, d on H12 (2L) 0, A S -> 5 * 2 + 50
    assert play.score == 5 * 2 + 50
    assert play.bingo


def test_bingo_bonus_after_multipliers():  # art. 19
    play = check_play(Board(), Move("H2 ARESTIN"))
    # H4 is 2L under E; H8 (2W) under N. (1+1+2+1+1+1+1) * 2 + 50... 7 tiles from H2..H8
    assert play.score == (1 + 1 + 1 * 2 + 1 + 1 + 1 + 1) * 2 + 50


def test_digraph_on_triple_letter_counts_in_both_words():  # art. 11, 13, 18
    board = put(Board(), "F3 A")
    play = check_play(board, Move("2D PERRO"))
    # Down: P (D2) E (E2) RR on F2 (3L) = 24, O (G2): 3+1+24+1; across: RR A = 24+1.
    assert sorted(words(play)) == sorted([("PERRO", 29), ("RRA", 25)])
    assert play.score == 54


def test_one_tile_play_takes_the_word_it_forms():  # art. 2, 9
    board = put(Board(), "H8 CASA")
    one = check_play(board, Move("I9 O"))  # across it is alone; down it makes AO
    assert words(one) == [("AO", 1 + 1 * 2)]  # O on I9 (2L)
    assert not one.move.across


def test_first_play_must_cover_the_centre():  # art. 6
    with pytest.raises(IllegalMoveError) as info:
        check_play(Board(), Move("A1 CASA"))
    assert info.value.article == "6"


def test_play_must_connect():  # art. 9
    board = put(Board(), "H8 CASA")
    with pytest.raises(IllegalMoveError) as info:
        check_play(board, Move("A1 CASA"))
    assert info.value.article == "9"


def test_word_must_be_complete():  # art. 8
    board = put(Board(), "H8 CASA")
    with pytest.raises(IllegalMoveError) as info:
        check_play(board, Move("H5 MAL"))  # H5..H7 runs into CASA on H8
    assert info.value.article == "8"


def test_single_letter_alone_is_no_word():  # art. 2
    with pytest.raises(IllegalMoveError) as info:
        check_play(Board(), Move("H8 A"))
    assert info.value.article == "2"


def test_typed_letter_must_match_the_board():  # art. 8
    board = put(Board(), "H8 CASA")
    with pytest.raises(IllegalMoveError):
        check_play(board, Move("H8 COSA"))


def test_must_place_a_new_tile():  # art. 8
    board = put(Board(), "H8 CASA")
    with pytest.raises(IllegalMoveError):
        check_play(board, Move("H8 CASA"))


def test_c_and_h_tiles_never_make_ch():  # art. 11
    # Typed as a person types, CHA is the CH tile and A; C+H tiles need machine text.
    assert len(Move("H8 CHA").tiles) == 2
    play = check_play(Board(), Move("H8 [C]HA"))
    assert [T.tile_to_human(t) for t in play.move.tiles] == ["C", "H", "A"]


def test_chocho_needs_two_ch_tiles():  # art. 11
    tiles_ = Move("H8 CHOCHO").tiles
    assert [T.tile_to_human(t) for t in tiles_] == ["CH", "O", "CH", "O"]
    ch = T.code("CH")
    rack = (ch, T.code("O"), T.code("O"), T.code("C"), T.code("H"))
    with pytest.raises(IllegalMoveError):
        leave_after(rack, (ch, T.code("O"), ch, T.code("O")))
    # With a blank as the second CH it can be played.
    o = T.code("O")
    assert leave_after((ch, o, o, T.BLANK), (ch, o, T.BLANK, o)) == ()


def test_apply_play_puts_only_new_tiles():
    board = put(Board(), "H8 CASA")
    play = check_play(board, Move("8H C(A)SO"))  # down from H8: C is on the board
    before = board.tile_count()
    apply_play(board, play)
    assert board.tile_count() == before + len(play.placed)
    assert board[parse_square("I8")] == T.code("A")
