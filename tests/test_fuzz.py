"""Every parser meets arbitrary text: it answers or raises an ``AtrilError`` with a message,
never another exception (as python-chess fuzzes FEN and PGN)."""

from hypothesis import given, settings, strategies as st

from atril.board import Board
from atril.errors import AtrilError
from atril.move import Move
from atril.position import Position
from atril.rack import Rack
from atril.rules import check_play

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
