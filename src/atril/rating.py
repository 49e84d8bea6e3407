"""Ratings: the Elo system Spanish Scrabble uses, as a library (the web app and, later,
tournaments rate games with it).

    >>> round(expected(1870, 1800), 2)      # 70 points above: 60 %
    0.6
    >>> change(1800, 1800, 1, k=10)          # equals, K = 10: ±5
    5.0
    >>> round(change(2000, 1700, 1, k=10), 2), round(change(2000, 1700, 0, k=10), 2)
    (1.51, -8.49)

- ``expected(rating, opponent)``: the expected score ``E = 1 / (1 + 10^(−Δ/400))`` with
  ``Δ = rating − opponent`` (Δ 70, 147, 241, 382 give 60, 70, 80, 90 %).
- ``change(rating, opponent, result, *, games=None, k=None)``: ``K·(result − E)``; ``result``
  is 1 for a win, ½ for a draw, 0 for a loss. ``games`` is how many rated games the player
  has already played: fewer than ``PROVISIONAL_GAMES`` take ``K_PROVISIONAL``, more (or
  None) take ``K``; ``k`` overrides both.

Defaults, chosen here (a module attribute a program may set): every player starts at
``INITIAL_RATING`` = 1800; ``K`` = 10 for established players, so a game between equals moves
each by 5 and a 2000 beating a 1700 gains 1.5 (losing, it drops 8.5); ``K_PROVISIONAL`` = 20
during the first ``PROVISIONAL_GAMES`` = 50 rated games, so a new player finds their level in
a season rather than in years. ``docs/RATING.md`` says more.
"""

from __future__ import annotations

from .errors import AtrilError
from .i18n import _

__all__ = ["INITIAL_RATING", "PROVISIONAL_GAMES", "K", "K_PROVISIONAL", "expected", "change",
           "k_factor"]

INITIAL_RATING = 1800
PROVISIONAL_GAMES = 50
K = 10.0
K_PROVISIONAL = 20.0


def expected(rating: float, opponent: float) -> float:
    """The score ``rating`` is expected to make against ``opponent``: 0.5 between equals."""
    return 1 / (1 + 10 ** (-(rating - opponent) / 400))


def k_factor(games: int | None = None) -> float:
    """The K of a player with ``games`` rated games already played (None: established)."""
    if games is not None and games < PROVISIONAL_GAMES:
        return K_PROVISIONAL
    return K


def change(rating: float, opponent: float, result: float, *, games: int | None = None,
           k: float | None = None) -> float:
    """How much ``rating`` moves after a game against ``opponent`` that ended ``result`` (1 a
    win, 0.5 a draw, 0 a loss): ``K·(result − E)``, with the K of ``games`` unless ``k``
    says otherwise."""
    if not 0 <= result <= 1:
        raise AtrilError(_("el resultado de una partida va de 0 (derrota) a 1 (victoria), y "
                           "un empate es 0,5: no {result}").format(result=result))
    return (k_factor(games) if k is None else k) * (result - expected(rating, opponent))
