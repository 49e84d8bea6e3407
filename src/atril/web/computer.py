"""Computer opponents: a level is a function from a game and its lexicon to a move.

Add a level by adding an entry to ``LEVELS``; the lobby lists them.
"""

from __future__ import annotations

from typing import Callable

from .. import movegen
from .. import tiles as T
from ..board import Board
from ..game import Game
from ..lexicon import Lexicon
from ..move import THROUGH, Move
from ..rules import check_play

Level = Callable[[Game, Lexicon], Move]


def greedy(game: Game, lexicon: Lexicon) -> Move:
    """The highest-scoring play, or a pass when there is none (so a game where nobody can
    play ends by passes, art. 45.2)."""
    found = movegen.best(game.board, game.rack, lexicon, n=1)
    return found[0].move if len(found) else Move.pass_()


#: level id → (name shown in the lobby, Spanish; the player).
LEVELS: dict[str, tuple[str, Level]] = {
    "voraz": ("Voraz: la jugada de más puntos", greedy),
}
DEFAULT_LEVEL = "voraz"


def pending_is_valid(game: Game, lexicon: Lexicon) -> bool:
    """Whether every word of the play awaiting a decision is in the lexicon (the computer
    challenges exactly the invalid plays)."""
    turn = game.pending
    assert turn is not None
    before = Board(game.board.squares)
    for sq, t in zip(turn.move.squares(), turn.move.tiles):
        if t != THROUGH:
            before[sq] = T.EMPTY
    scored = check_play(before, turn.move)
    return all(lexicon.is_word(w.tiles) for w in scored.words)


def can_play(lexicon: Lexicon) -> Callable[[Board, tuple[int, ...]], bool]:
    """The ``can_play`` hook a game needs to see that nobody can place a tile (art. 45.1)."""
    return lambda board, rack: bool(rack) and len(movegen.generate(board, rack, lexicon)) > 0
