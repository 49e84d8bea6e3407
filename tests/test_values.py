"""Values print as the code that makes them: ``eval(repr(x)) == x`` for every value type (the
python-chess way), checked over many values of each."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from atril import Board, Move, Position, Rack, Ruleset, players
from atril.bag import Bag
from atril.ending import Adjustment, Result
from atril.game import Game, Turn
from atril.lexicon import Lexicon

NAMES = {"Board": Board, "Bag": Bag, "Move": Move, "Rack": Rack, "Position": Position,
         "Ruleset": Ruleset, "Turn": Turn, "Result": Result, "Adjustment": Adjustment}


def round_trips(value: object) -> bool:
    return eval(repr(value), dict(NAMES)) == value


def played_game(seed: int) -> Game:
    lexicon = Lexicon.load("ES09")
    return players.play_game([players.get("greedy", lexicon=lexicon),
                              players.get("equity", lexicon=lexicon)], seed=seed,
                             lexicon=lexicon)


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000))
def test_the_values_of_a_whole_game_round_trip(seed):
    game = played_game(seed)
    assert round_trips(game.board) and round_trips(game.bag)
    assert round_trips(game.result)
    for adjustment in game.result.adjustments:
        assert round_trips(adjustment)
    for turn in game.history:
        assert round_trips(turn) and round_trips(turn.move)
        assert round_trips(Rack(turn.rack))
    assert round_trips(game.position())


def test_the_other_values_round_trip():
    for value in (Board(), Bag(3), Bag(5, tiles="AE?[CH]", draws=4), Move("paso"),
                  Move("cambio AE?"), Move("8H [CH]A[rr]O"), Rack("[LL]AE?"), Rack(""),
                  Ruleset.get("FILE2024")):
        assert round_trips(value), repr(value)
