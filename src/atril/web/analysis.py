"""After the game: for every turn, the best plays next to the one made, and missed scrabbles.

Plays are ranked by equity (score plus the value of the tiles kept, ``atril.leaves``); with the
bag empty, by score. Only finished games are analysed: during a game this would tell a player
which words are valid (art. 43).
"""

from __future__ import annotations

from .. import analysis as full_analysis
from .. import leaves, movegen
from .. import tiles as T
from ..board import Board
from ..game import PLAY, Game
from ..lexicon import Lexicon

TOP = 3


def analyse(game: Game, lexicon: Lexicon) -> list[dict]:
    """One entry per turn: its number ``n``, the turn (``Turn.to_dict``), the top plays, the
    scrabbles the rack allowed if the play made was not one, and the static verdict of
    ``atril.analysis`` (``verdict``: the play made and the best by equity, each with its win
    probability after the move, what the choice lost, and ``win_before``, the mover's win
    probability before it: the points of a win-probability graph)."""
    board = Board()
    table = leaves.load()
    verdicts = full_analysis.analyse(game, lexicon, seconds=0).turns
    out = []
    for n, turn in enumerate(game.history):
        # While the bag has tiles both racks are full; then the tiles kept have a value.
        bag = T.TOTAL_TILES - board.tile_count() - 2 * T.RACK_SIZE
        top = movegen.best(board, turn.rack, lexicon, n=TOP,
                           leave_values=table if bag > 0 else None)
        best = [{"move": _text(c), "score": c.score, "equity": round(c.equity, 1)}
                for c in top]
        scrabbles = []
        made_bingo = turn.kind == PLAY and len(turn.placed()) == T.RACK_SIZE
        if not made_bingo:
            for cand in movegen.generate(board, turn.rack, lexicon):
                if cand.score < 50:
                    break
                if cand.bingo:
                    scrabbles.append({"move": _text(cand), "score": cand.score})
                    if len(scrabbles) == TOP:
                        break
        verdict = verdicts[n].to_dict()
        out.append({"n": n + 1, **turn.to_dict(), "best": best, "missed_scrabbles": scrabbles,
                    "verdict": {key: verdict[key] for key in (
                        "win_before", "played", "best", "equity_lost", "win_lost")}})
        if turn.kind == PLAY:
            for sq, t in turn.placed():
                board[sq] = t
    return out


def _text(cand: movegen.Candidate) -> str:
    """``H8 CA(S)A`` without the trailing score ``str(Candidate)`` adds."""
    return str(cand).rsplit(" ", 1)[0]
