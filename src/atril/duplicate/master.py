"""The master move (*jugada maestra*, docs/DUPLICATE.md §3): the top-scoring legal play, found
by the engine (``movegen.generate``, every legal placement), and among equal tops the one that

1. uses fewer blanks (none, best);
2. leaves the more balanced rack (``imbalance``: the fewest vowels or consonants too many);
3. places fewer tiles;
4. spells the first word in alphabetical order (Spanish order, CH after C: the tile codes);
5. starts closest to A1 (fewest steps down and right; then the higher row; across first).

A tie left after all of these (the same word in the same place, its blank on another tile)
keeps the engine's own order (``atril.movegen``), so the choice is the same on every run.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .. import tiles as T
from ..board import Board
from ..lexicon import Lexicon
from ..movegen import Candidate, generate
from .racks import kinds


def imbalance(leave: Sequence[int]) -> int:
    """How far a leave is from as many vowels as consonants: ``|vowels − consonants|``, each
    blank counted on the shorter side; a leave of an odd number of tiles is at best 1 off."""
    vowels, consonants, blanks = kinds(leave)
    return max(abs(vowels - consonants) - blanks, len(leave) % 2)


def tie_break(candidate: Candidate) -> tuple[int, int, int, tuple[int, ...], int, int, int]:
    """The sort key of the tie-breaks among plays of the same score (smaller first)."""
    move = candidate.move
    used = candidate.used
    return (sum(1 for t in used if t == T.BLANK), imbalance(candidate.leave), len(used),
            tuple(T.letter_of(t) for t in move.tiles), move.row + move.col, move.row,
            0 if move.across else 1)


def choose(candidates: Iterable[Candidate]) -> Candidate | None:
    """The master among plays listed best score first (as the engine lists them)."""
    top: list[Candidate] = []
    for candidate in candidates:
        if top and candidate.score < top[0].score:
            break
        top.append(candidate)
    return min(top, key=tie_break) if top else None


def find(board: Board, rack: Sequence[int], lexicon: Lexicon) -> Candidate | None:
    """The master move of a round, or None when the rack has no legal play."""
    return choose(generate(board, rack, lexicon))
