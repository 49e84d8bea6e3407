"""End of the game (art. 45; 2004 art. 40): each way a game ends and its own adjustments."""

import dataclasses

import pytest

from atril.errors import IllegalMoveError
from atril.game import Game
from atril.move import THROUGH, Move
from atril.ruleset import Ruleset


def empty_bag(game: Game) -> None:
    """Take every tile out of the bag (test only: those tiles leave the game)."""
    game.bag.draw(len(game.bag))


def test_going_out_with_an_empty_bag():  # art. 45.4
    game = Game(["Ana", "Luis"], draws=["ABCDEFG", "PERROSL"])
    empty_bag(game)
    game.play("H8 ABCD")
    game.pass_()  # Luis accepts by passing
    game.play("H8 (ABCD)EFG")
    assert not game.is_over()  # waits: Luis may still challenge the last play
    game.accept()
    r = game.result
    assert r.reason == "out" and r.article == "45.4"
    luis_rack = 3 + 1 + 1 + 1 + 1 + 1 + 1  # P E R R O S L
    assert [(a.player, a.kind, a.points) for a in r.adjustments] == [
        (1, "rack", -luis_rack), (0, "out", luis_rack)]
    assert r.scores == (game.scores[0] + luis_rack, -luis_rack)
    assert r.winner == 0 and "Ana" in r.text


def test_a_challenged_last_play_does_not_end_the_game():  # art. 39, 45.4
    game = Game(draws=["ABCDEFG", "PERROSL"])
    empty_bag(game)
    game.play("H8 ABCDEFG")
    game.challenge(valid=False)
    assert not game.is_over() and len(game.racks[0]) == 7


def test_four_passes_end_the_game():  # art. 45.2
    game = Game(draws=["CASAEIO", "PERROSL"])
    for _ in range(3):
        game.pass_()
    assert not game.is_over()
    game.pass_()
    r = game.result
    assert r.reason == "passes" and r.article == "45.2"
    # each player subtracts their own rack (45.1–45.3 final paragraph)
    assert [(a.player, a.points) for a in r.adjustments] == [(0, -9), (1, -9)]
    assert r.scores == (-9, -9) and r.winner is None  # a draw


def test_a_withdrawn_play_counts_as_a_pass():  # art. 45.2
    game = Game(draws=["CASAEIO", "PERROSL"])
    game.pass_()
    game.pass_()
    game.play("H8 CASO")
    game.challenge(valid=False)
    assert not game.is_over()
    game.pass_()
    assert game.result.reason == "passes"


def test_a_withdrawn_play_is_not_a_pass_when_the_ruleset_says_so():
    rules = dataclasses.replace(Ruleset.get("FISE2009"), name="PRUEBA", withdrawn_is_pass=False)
    game = Game(ruleset=rules, draws=["CASAEIO", "PERROSL"])
    game.pass_(), game.pass_()
    game.play("H8 CASO")
    game.challenge(valid=False)
    game.pass_()
    assert not game.is_over()


def test_an_exchange_is_not_a_pass():  # art. 45.2
    game = Game(draws=["CASAEIO", "PERROSL"])
    game.pass_(), game.pass_()
    game.exchange("C")
    game.pass_()
    assert not game.is_over()
    game.pass_(), game.pass_()
    assert not game.is_over()
    game.pass_()
    assert game.result.reason == "passes"


def _scoreless(game: Game, turns: int) -> None:
    """Alternate exchanges and passes, so that passes never reach four in a row."""
    for i in range(turns):
        if i % 2 == 0:
            game.exchange(game.rack[:1])
        else:
            game.pass_()


def test_twelve_scoreless_turns_end_the_game():  # art. 45.3
    game = Game(seed=4, draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.accept()
    _scoreless(game, 11)
    assert not game.is_over()
    _scoreless(game, 1)
    r = game.result
    assert r.reason == "scoreless" and r.article == "45.3"
    assert all(a.kind == "rack" for a in r.adjustments) and len(r.adjustments) == 2


def test_twelve_scoreless_turns_at_nil_nil_go_on():  # art. 45.3: "no se aplicará … 0-0"
    game = Game(seed=4)
    _scoreless(game, 14)
    assert not game.is_over()


def test_no_twelve_turn_rule_in_2004():  # 2004 art. 40
    game = Game(ruleset="FISE2004", seed=4, draws=["CASAEIO"])
    game.play("H8 CASA")
    game.accept()
    _scoreless(game, 20)
    assert not game.is_over()


def test_withdrawn_plays_count_as_scoreless_turns():  # art. 45.3: "jugadas inválidas"
    game = Game(seed=4, draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.accept()
    _scoreless(game, 10)
    tile = next(t for t in game.rack if t)
    game.play(Move.play(6, 7, False, (tile, THROUGH)))  # a tile over the C, then withdrawn
    game.challenge(valid=False)
    assert not game.is_over()
    game.exchange(game.rack[:1])
    assert game.result.reason == "scoreless"


def test_blocked_through_the_hook():  # art. 45.1
    game = Game(draws=["CASAEIO", "PERROSL"], can_play=lambda board, rack: False)
    empty_bag(game)
    game.play("H8 CASA")
    game.accept()
    r = game.result
    assert r.reason == "blocked" and r.article == "45.1"
    assert [(a.player, a.points) for a in r.adjustments] == [(0, -3), (1, -9)]


def test_blocked_is_not_checked_while_the_bag_has_tiles():
    game = Game(draws=["CASAEIO"], can_play=lambda board, rack: False)
    game.play("H8 CASA")
    game.accept()
    assert not game.is_over()


def test_declared_blocked():  # art. 45.1
    game = Game(draws=["CASAEIO", "PERROSL"])
    game.declare_blocked()
    assert game.result.reason == "blocked"
    game = Game(draws=["CASAEIO"], can_play=lambda board, rack: True)
    with pytest.raises(IllegalMoveError) as err:
        game.declare_blocked()
    assert err.value.article == "45.1"


def test_declared_time_up_waits_for_equal_turns():  # art. 30, 45.5
    game = Game(draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    with pytest.raises(IllegalMoveError) as err:
        game.declare_time_up()  # Luis must play once more
    assert err.value.article == "30"
    game.pass_()
    r = game.declare_time_up()
    assert r.reason == "time" and r.adjustments == () and r.scores == (12, 0)


def test_recorded_overtime():  # art. 35, timed off the program
    game = Game(draws=["CASAEIO", "PERROSL"])
    game.record_overtime(1, 3)
    game.declare_time_up()
    assert [(a.player, a.kind, a.points) for a in game.result.adjustments] == [(1, "time", -30)]
    game.record_overtime(1, 1)  # corrected before signing (art. 41)
    assert game.result.scores == (0, -10)


def test_nothing_happens_after_the_end():
    game = Game(draws=["CASAEIO", "PERROSL"])
    for _ in range(4):
        game.pass_()
    for action in (lambda: game.pass_(), lambda: game.play("H8 CASA"),
                   lambda: game.exchange("C")):
        with pytest.raises(IllegalMoveError) as err:
            action()
        assert err.value.article == "45.2"


def test_a_draw_has_no_winner():
    game = Game(draws=["AAAAEEE", "AAAAEEE"])
    for _ in range(4):
        game.pass_()
    assert game.result.winner is None and game.result.scores == (-7, -7)


def test_declaring_after_the_clock_ended_the_game_returns_that_result():  # art. 45.5
    from atril.clock import Clock
    now = [0.0]
    game = Game(clock=Clock(60, game_minutes=1, time_source=lambda: now[0]), draws=["CASAEIO"])
    now[0] = 61.0
    assert game.declare_time_up().reason == "time"
    with pytest.raises(IllegalMoveError):
        game.declare_blocked()  # over is over


# -- FILE 2024: six scoreless turns, three each (a 2026 Spanish Scrabble manual) --------------
def test_file_2024_six_scoreless_turns_counting_exchanges_end_the_game():
    game = Game(ruleset="FILE2024", seed=4, draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.accept()
    for _ in range(5):
        game.exchange(game.rack[:1])  # exchanges count in FILE 2024
    assert not game.is_over()
    game.pass_()
    r = game.result
    assert r.reason == "scoreless" and "6 turnos seguidos" in r.text
    assert all(a.kind == "rack" for a in r.adjustments) and len(r.adjustments) == 2


def test_file_2024_withdrawn_plays_and_passes_count_too():
    game = Game(ruleset="FILE2024", seed=4, draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.accept()
    game.pass_()
    tile = next(t for t in game.rack if t)
    game.play(Move.play(6, 7, False, (tile, THROUGH)))
    game.challenge(valid=False)  # withdrawn
    for _ in range(3):
        game.pass_()
    assert not game.is_over()
    game.exchange(game.rack[:2])
    assert game.result.reason == "scoreless"


def test_file_2024_four_passes_at_the_opening_do_not_end_it():  # "except at the opening"
    game = Game(ruleset="FILE2024", seed=4)
    for _ in range(8):
        game.pass_()
    assert not game.is_over()


def test_file_2024_has_no_separate_four_pass_rule():
    game = Game(ruleset="FILE2024", seed=4, draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.accept()
    for _ in range(4):
        game.pass_()
    assert not game.is_over()  # FISE 2009 would end it (art. 45.2); FILE 2024 waits for six
    game.pass_()
    game.pass_()
    assert game.result.reason == "scoreless"


# -- articles follow the ruleset --------------------------------------------------------------
def test_a_fise_2004_ending_cites_2004_articles():  # 2004 art. 40.2 is 2009's 45.2
    game = Game(ruleset="FISE2004", seed=4)
    for _ in range(4):
        game.pass_()
    assert game.result.article == "40.2 FISE 2004"


def test_a_fise_2004_error_cites_2004_articles():  # 2004 art. 24 is 2009's exchange, art. 25
    game = Game(ruleset="FISE2004", draws=["CASAEIO"])
    empty_bag(game)
    with pytest.raises(IllegalMoveError) as err:
        game.exchange("A")
    assert err.value.article == "24 FISE 2004" and "(art. 24 FISE 2004)" in str(err.value)
    with pytest.raises(IllegalMoveError) as err:
        Game(draws=["CASAEIO"], ruleset="FISE2009").exchange("Z")
    assert err.value.article == "25"


def test_file_2018_cites_its_summary_and_says_what_it_lacks():
    game = Game(ruleset="FILE2018", seed=4, draws=["CASAEIO", "PERROSL"])
    game.play("H8 CASA")
    game.accept()
    _scoreless(game, 12)
    assert game.result.reason == "scoreless"
    assert game.result.article == "45.3 FISE 2009"  # the 2018 summary has no such rule
    assert Ruleset.get("FILE2018").note and "doce turnos" in Ruleset.get("FILE2018").note
    game = Game(ruleset="FILE2018", seed=4)
    for _ in range(4):
        game.pass_()
    assert game.result.article == "25.a FILE 2018"
