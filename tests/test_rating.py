"""``atril.rating``: the Elo figures of the issue (expected scores, K, the provisional period)."""

from __future__ import annotations

import doctest

import pytest

from atril import rating
from atril.errors import AtrilError


@pytest.mark.parametrize(("difference", "percent"), [(70, 60), (147, 70), (241, 80), (382, 90)])
def test_the_expected_score_of_a_rating_difference(difference, percent):
    assert rating.expected(1800 + difference, 1800) == pytest.approx(percent / 100, abs=0.005)
    assert rating.expected(1800, 1800 + difference) == pytest.approx(1 - percent / 100,
                                                                     abs=0.005)
    assert rating.expected(2000, 2000) == 0.5


def test_equals_move_by_five_with_k_10():
    assert rating.change(1800, 1800, 1, k=10) == 5
    assert rating.change(1800, 1800, 0, k=10) == -5
    assert rating.change(2100, 2100, 1) == 5  # games=None: the established K


def test_a_favourite_gains_little_and_loses_much():
    # 2000 against 1700 (E = 0.849): about 1 for a win, about 9 for a loss (1.51 and 8.49)
    win, loss = rating.change(2000, 1700, 1, k=10), rating.change(2000, 1700, 0, k=10)
    assert win == pytest.approx(1.51, abs=0.01) and loss == pytest.approx(-8.49, abs=0.01)
    assert round(win) in (1, 2) and round(-loss) in (8, 9)
    assert win - loss == pytest.approx(10)  # the two outcomes are K apart
    assert rating.change(1700, 2000, 1, k=10) == pytest.approx(-loss)  # zero-sum


def test_a_draw_is_half():
    assert rating.change(1800, 1800, 0.5) == 0
    assert rating.change(1900, 1800, 0.5, k=10) < 0 < rating.change(1800, 1900, 0.5, k=10)
    assert rating.change(1900, 1800, 0.5, k=10) == pytest.approx(
        (rating.change(1900, 1800, 1, k=10) + rating.change(1900, 1800, 0, k=10)) / 2)


def test_new_players_move_faster_for_their_first_fifty_games():
    assert rating.INITIAL_RATING == 1800 and rating.PROVISIONAL_GAMES == 50
    assert rating.K == 10 and rating.K_PROVISIONAL == 20
    assert rating.change(1800, 1800, 1, games=0) == 10
    assert rating.change(1800, 1800, 1, games=49) == 10
    assert rating.change(1800, 1800, 1, games=50) == 5
    assert rating.change(1800, 1800, 1, games=None) == 5


def test_k_overrides_and_the_defaults_are_configurable(monkeypatch):
    assert rating.change(1800, 1800, 1, games=3, k=32) == 16
    assert rating.change(1800, 1800, 1, games=300, k=32) == 16
    monkeypatch.setattr(rating, "K", 16.0)
    monkeypatch.setattr(rating, "K_PROVISIONAL", 40.0)
    assert rating.change(1800, 1800, 1) == 8 and rating.change(1800, 1800, 1, games=1) == 20


@pytest.mark.parametrize("result", [-1, 2, 1.5])
def test_a_result_is_between_a_loss_and_a_win(result):
    with pytest.raises(AtrilError, match="0,5"):
        rating.change(1800, 1800, result)


def test_the_module_examples():
    assert doctest.testmod(rating).failed == 0
