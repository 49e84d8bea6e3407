"""The tile set (art. 3, 10, 11) and tokenizing words into tiles."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atril import tiles as T
from atril.errors import InvalidTextError


def names(tiles):
    return [T.tile_to_human(t) for t in tiles]


def test_hundred_tiles():  # art. 3
    assert sum(T.COUNTS) == 100
    assert T.COUNTS[T.BLANK] == 2
    assert T.COUNTS[T.code("A")] == 12 and T.COUNTS[T.code("E")] == 12


def test_values_table():  # art. 12
    expected = {"A": 1, "CH": 5, "LL": 8, "RR": 8, "Ñ": 8, "Q": 5, "Z": 10, "J": 8, "X": 8, "H": 4}
    for letter, value in expected.items():
        assert T.value(T.code(letter)) == value


def test_no_k_no_w():  # art. 10.2
    with pytest.raises(InvalidTextError, match="10.2"):
        T.tokenize_word("kilo")
    with pytest.raises(InvalidTextError, match="10.2"):
        T.tokenize_play("w")


def test_digraphs_are_one_tile():  # art. 11
    assert names(T.tokenize_word("charro")) == ["CH", "A", "RR", "O"]
    assert names(T.tokenize_word("LLUVIA")) == ["LL", "U", "V", "I", "A"]
    assert len(T.tokenize_word("chacha")) == 4


def test_c_plus_h_never_ch_in_machine_text():  # art. 11
    assert names(T.tokenize_machine("CH")) == ["C", "H"]
    assert names(T.tokenize_machine("[CH]")) == ["CH"]


def test_accents_stripped_enye_kept():
    assert T.tokenize_word("canción") == T.tokenize_word("cancion")
    assert T.tokenize_word("pingüino") == T.tokenize_word("pinguino")
    assert T.tokenize_word("año") != T.tokenize_word("ano")
    assert names(T.tokenize_word("ÑU")) == ["Ñ", "U"]


def test_blank_may_be_a_digraph():  # art. 10.2
    (tile,) = T.tokenize_play("ch")
    assert T.is_blank(tile) and T.letter_of(tile) == T.code("CH")
    assert T.value(tile) == 0
    assert T.tile_to_machine(tile) == "[ch]"
    assert T.tile_to_human(tile) == "ch"


def test_mixed_case_is_not_a_digraph():
    assert names(T.tokenize_play("Rr")) == ["R", "r"]


@pytest.mark.parametrize("word", ["lluvia", "Lluvia", "LLUVIA", "lLuvia"])
def test_in_a_typed_word_case_means_nothing(word):  # art. 11: Ll, LL, ll are the LL tile
    assert names(T.tokenize_word(word)) == ["LL", "U", "V", "I", "A"]
    assert names(T.tokenize_word("Chocho")) == names(T.tokenize_word("CHOCHO")) == ["CH", "O",
                                                                                  "CH", "O"]
    assert names(T.tokenize_play("CHArrO")) == ["CH", "A", "rr", "O"]  # a move: lower = blank


@pytest.mark.parametrize("bad", ["ca$a", "[XX]", "[ch", "k", "1"])
def test_bad_text_is_a_clear_error(bad):
    with pytest.raises(InvalidTextError):
        T.tokenize_machine(bad)


tile_codes = st.integers(1, T.NUM_LETTERS)
board_tiles = st.one_of(tile_codes, tile_codes.map(lambda t: t | T.BLANK_BIT))


@given(st.lists(board_tiles, max_size=15))
def test_machine_text_round_trips(tiles):
    assert T.tokenize_machine(T.to_machine(tiles)) == tuple(tiles)
