"""Win probability: how likely the player to move is to win, from the spread and the tiles left.

    >>> from atril import winprob
    >>> round(winprob.probability(0, 93), 2)      # the first move of a game
    0.55
    >>> winprob.probability(40, 20) > winprob.probability(10, 20) > winprob.probability(-10, 20)
    True

The model is fitted on self-play games of the ``equity`` player (``tools/fit_winprob.py``,
docs/SIMULATION.md): for every number ``u`` of tiles unseen by the player to move (the bag plus
the opponent's rack), a logistic curve in the spread,

    P(win | spread, u) = 1 / (1 + exp(-(spread + offset[u]) / scale[u]))

``offset`` is what being on move is worth (in points) and ``scale`` how much the game can still
swing; a draw counts half. Both are fitted per ``u`` over a window of neighbouring counts and
smoothed, so the curve is monotone in the spread for every ``u`` (``scale > 0``). The table ships
as ``data/winprob-es09.json``.

Whose turn: the curve is for the player to move. The probability of the player *not* on move
is ``1 - P(-spread, u')``, ``u'`` being the tiles unseen by the one to move
(``probability(..., to_move=False)`` does this).
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from importlib import resources

__all__ = ["Model", "SHIPPED", "final", "load", "probability"]

SHIPPED = "winprob-es09.json"


@dataclass(frozen=True)
class Model:
    """The fitted curves: ``offset[u]`` and ``scale[u]`` for ``u`` tiles unseen by the player to
    move (counts beyond the table use its last entry)."""

    offset: tuple[float, ...]
    scale: tuple[float, ...]
    meta: dict

    def probability(self, spread: float, unseen: int, *, to_move: bool = True) -> float:
        """P(win) of a player ``spread`` points ahead (see the module docstring)."""
        if not to_move:
            return 1.0 - self.probability(-spread, unseen)
        if unseen <= 0:  # nothing left to play for the player to move: the game is decided
            return final(spread)
        u = min(unseen, len(self.scale) - 1)
        z = (spread + self.offset[u]) / self.scale[u]
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)

    @classmethod
    def from_json(cls, text: str) -> Model:
        data = json.loads(text)
        return cls(tuple(map(float, data["offset"])), tuple(map(float, data["scale"])),
                   dict(data.get("meta", {})))

    def to_json(self) -> str:
        return json.dumps({"meta": self.meta, "offset": [round(x, 3) for x in self.offset],
                           "scale": [round(x, 3) for x in self.scale]}, indent=1)


def final(spread: float) -> float:
    """The result of a finished game as a probability: won 1, drawn ½, lost 0."""
    return 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0


@functools.cache
def load() -> Model:
    """The shipped model, read once per process."""
    text = resources.files("atril").joinpath("data", SHIPPED).read_text(encoding="utf-8")
    return Model.from_json(text)


def probability(spread: float, unseen: int, *, to_move: bool = True) -> float:
    """P(win) with the shipped model: ``spread`` is the player's score minus the opponent's,
    ``unseen`` the tiles unseen by the player to move (bag plus the other rack), ``to_move``
    whether the player is the one to move."""
    return load().probability(spread, unseen, to_move=to_move)
