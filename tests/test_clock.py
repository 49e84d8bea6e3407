"""Time control (art. 30–35) with a clock driven by hand: tests never sleep."""

import pytest

from atril.clock import CORRIDO, NO_CORRIDO, TURN_TIMER_SECONDS, Clock
from atril.errors import IllegalMoveError
from atril.game import Game


class FakeTime:
    """A time source that moves only when told to."""

    def __init__(self, now: float = 1000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def timed_game(minutes=30, mode=CORRIDO, ruleset=None, **clock_kwargs):
    t = FakeTime()
    clock = Clock(minutes, mode=mode, time_source=t, **clock_kwargs)
    game = Game(["Ana", "Luis"], ruleset=ruleset, clock=clock,
                draws=["CASAEIO", "PERROSL", "BBXD"])
    return game, t


# -- the clock alone -------------------------------------------------------------------------------
def test_only_the_running_clock_counts():  # art. 31.2, 34
    t = FakeTime()
    clock = Clock(30, time_source=t)
    clock.start(0)
    t.advance(10)
    clock.start(1)
    t.advance(5)
    assert clock.used_seconds(0) == 10 and clock.used_seconds(1) == 5
    clock.stop()
    t.advance(100)
    assert clock.used_seconds(1) == 5 and clock.remaining(0) == 30 * 60 - 10
    assert str(clock) == "29:50 / 29:55"


def test_overtime_counts_started_minutes():  # art. 35: "minuto (o fracción de minuto)"
    t = FakeTime()
    clock = Clock(1, time_source=t)
    clock.start(0)
    t.advance(60)
    assert clock.overtime_minutes(0) == 0
    t.advance(0.5)
    assert clock.overtime_minutes(0) == 1
    t.advance(59.5)
    assert clock.overtime_minutes(0) == 1
    t.advance(1)
    assert clock.overtime_minutes(0) == 2
    assert str(clock).startswith("-01:01")


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError):
        Clock(mode="rápido")


def test_clock_round_trips_and_keeps_counting():
    t = FakeTime()
    clock = Clock(25, mode=NO_CORRIDO, time_source=t)
    clock.start(1)
    t.advance(30)
    again = Clock.from_dict(clock.to_dict(), time_source=t)
    t.advance(30)
    assert again.used_seconds(1) == 60 == clock.used_seconds(1)
    assert repr(again) == "Clock(minutes=25, mode='no corrido')"


# -- the clock in a game ---------------------------------------------------------------------------
def test_game_starts_the_first_players_clock():
    game, t = timed_game()
    t.advance(20)
    assert game.clock.used_seconds(0) == 20 and game.clock.used_seconds(1) == 0


def test_corrido_the_opponent_decides_on_their_own_time():  # art. 32.1
    game, t = timed_game(mode=CORRIDO)
    t.advance(10)
    game.play("H8 CASA")
    t.advance(7)  # Luis thinks about challenging: checking, 5 s, is on Ana's clock
    assert game.clock.used_seconds(0) == 15 and game.clock.used_seconds(1) == 2
    game.accept()
    t.advance(3)
    assert game.clock.used_seconds(0) == 15 and game.clock.used_seconds(1) == 5


def test_corrido_a_quick_check_costs_the_decider_nothing():  # art. 32.1: up to 5 s
    game, t = timed_game(mode=CORRIDO)
    game.play("H8 CASA")
    t.advance(3)
    game.accept()  # Luis accepted within the 5 s: all of it Ana's
    t.advance(2)
    assert game.clock.used_seconds(0) == 3 and game.clock.used_seconds(1) == 2
    stored = Clock.from_dict(game.clock.to_dict(), time_source=t)  # the grace is kept too
    assert stored.used_seconds(1) == 2


def test_no_corrido_clocks_stop_while_the_play_waits():  # art. 32.2, 34.1
    game, t = timed_game(mode=NO_CORRIDO)
    t.advance(10)
    game.play("H8 CASA")
    assert game.clock.running is None
    t.advance(60)  # counting and checking: nobody's time
    game.accept()
    assert game.clock.running == 1
    t.advance(5)
    assert game.clock.used_seconds(0) == 10 and game.clock.used_seconds(1) == 5


def test_clocks_stop_while_a_challenge_is_judged():  # art. 34.2
    game, t = timed_game(mode=NO_CORRIDO)
    game.play("H8 CASA")
    game.challenge(valid=False)
    assert game.clock.running == 1  # the verdict given, the challenger's clock runs
    game, t = timed_game(mode=CORRIDO)
    t.advance(10)
    game.play("H8 CASA")
    t.advance(4)  # checking: Ana's (art. 32.1)
    game.challenge(valid=True)
    t.advance(1)
    assert game.clock.used_seconds(0) == 14 and game.clock.used_seconds(1) == 1


def test_exchange_and_pass_press_the_clock():
    game, t = timed_game()
    t.advance(3)
    game.pass_()
    t.advance(4)
    game.exchange("PLRS")
    assert game.clock.running == 0
    assert game.clock.used_seconds(0) == 3 and game.clock.used_seconds(1) == 4


def test_overtime_penalty_at_the_end():  # art. 35: 10 points per started minute
    game, t = timed_game(minutes=1)
    t.advance(60 + 61)  # Ana is 61 s over: two started minutes
    game.play("H8 CASA")
    game.accept()
    for _ in range(4):
        game.pass_()
    r = game.result
    assert r.reason == "passes"
    time_adj = [a for a in r.adjustments if a.kind == "time"]
    assert [(a.player, a.points) for a in time_adj] == [(0, -20)]
    assert game.overtime == [2, 0]


def test_no_overtime_limit_before_2024():  # art. 35 (2009): only points off
    game, t = timed_game(minutes=1, ruleset="FISE2009")
    t.advance(60 + 20 * 60)
    game.play("H8 CASA")
    game.accept()
    assert not game.is_over()


def test_file_2024_more_than_eight_minutes_over_loses():  # FILE 2024, docs/RULES.md §8
    game, t = timed_game(minutes=1, ruleset="FILE2024")
    game.play("H8 CASA")
    game.accept()  # Ana 12, Luis 0; now Luis's clock runs
    t.advance(60 + 8 * 60)  # exactly 8 minutes over: not more
    game.check_time()
    assert not game.is_over()
    t.advance(1)
    with pytest.raises(IllegalMoveError) as err:
        game.pass_()
    assert err.value.article == "35 FISE 2009"  # the FILE 2018 summary has no time rules
    r = game.result
    assert r.reason == "overtime" and r.winner == 0
    game2, t2 = timed_game(minutes=1, ruleset="FILE2024")
    game2.pass_()
    game2.play("H8 PESO")
    game2.accept()
    game2.pass_()  # Luis leads; now his clock runs
    t2.advance(60 + 8 * 60 + 1)
    game2.check_time()
    assert game2.result.reason == "overtime" and game2.result.winner == 0
    assert game2.scores[1] > game2.scores[0]  # he led, and loses all the same
    assert [a.points for a in game2.result.adjustments if a.kind == "time"] == [-90]


def test_turn_timer_two_minutes():  # art. 31.1, 33
    t = FakeTime()
    game = Game(clock=Clock(None, turn_seconds=TURN_TIMER_SECONDS, time_source=t),
                draws=["CASAEIO", "PERROSL"])
    t.advance(121)
    with pytest.raises(IllegalMoveError) as err:
        game.play("H8 CASA")
    assert err.value.article == "33"
    with pytest.raises(IllegalMoveError):
        game.exchange("CA")
    game.pass_()  # passing is still allowed
    t.advance(119)  # Luis's turn timer started afresh
    game.play("H8 PESO")
    assert game.clock.remaining(0) is None and game.clock.overtime_minutes(0) == 0


def test_game_time_limit_ends_after_equal_turns_without_rack_deductions():  # art. 30, 45.5
    t = FakeTime()
    game = Game(["Ana", "Luis"], clock=Clock(60, game_minutes=50, time_source=t),
                draws=["CASAEIO", "PERROSL", "BBXD"])
    game.play("H8 CASA")
    game.accept()
    t.advance(50 * 60)  # time runs out on Luis's turn: he still plays to equalise
    game.check_time()
    assert not game.is_over()
    game.play("10F PE(S)O")
    game.accept()  # now both have had one turn: the game ends
    r = game.result
    assert r.reason == "time" and r.article == "45.5"
    assert r.adjustments == () and r.scores == (12, 12)  # no rack deductions
    assert r.winner is None


def test_game_limit_does_not_stop_for_challenges():  # art. 42.6
    t = FakeTime()
    clock = Clock(30, mode=NO_CORRIDO, game_minutes=1, time_source=t)
    game = Game(clock=clock, draws=["CASAEIO"])
    game.play("H8 CASA")
    t.advance(61)  # clocks stopped, but the game's time runs
    assert clock.game_time_up()
