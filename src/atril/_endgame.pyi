"""Types of the native exact endgame (``_endgame.c``), read by ``atril.endgame``."""

from collections.abc import Callable

from typing_extensions import Buffer

PROFILED: int
"""1 when built from a profile of its own run (setup.py); -1 when the build did not try
(ATRIL_PGO=0, a compiler other than GCC, no workload); 0 when it tried and the profile failed."""

def configure(values: bytes, counts: bytes, letter_multipliers: bytes, word_multipliers: bytes,
              bingo_bonus: int, /) -> None:
    """Tile values and counts (29 each), the premium maps (225 each) and the bingo bonus."""

def solve(squares: Buffer, rack_a: Buffer, rack_b: Buffer, nodes: Buffer, masks: Buffer,
          pass_limit: int, passes: int, seconds: float, max_nodes: int, tt_bits: int,
          bag: int = -1, proof_depth: int = 5, /, *,
          progress: Callable[[int, int, int], object] | None = None
          ) -> tuple[int, int, int, int, bytes]:
    """(value, exact, nodes, depth, best line as packed move records); ``rack_a`` moves first;
    ``bag``: the one tile left in the bag, drawn by the next play (-1: the bag is empty);
    ``proof_depth``: the plies of the proof of the shallow value (0: none). In the main
    thread a signal's handler runs during the search: its exception (KeyboardInterrupt for
    Ctrl-C) stops it, raised with ``partial``, the same tuple for what was found (not exact);
    so does whatever ``progress`` raises, called there now and then with the positions so far
    and the plies and value of the last iteration of the deepening completed."""

def check_lists(on: object, /) -> None:
    """For the tests: every list of one-tile plays a search works out is checked against every
    square of its board, and every play put on a board and taken off again (to bound the node
    after it without making it), and every bound of a play leaving one tile, against the board
    the play makes; a wrong one raises AssertionError from ``solve``."""

def words(squares: Buffer, pool: Buffer, nodes: Buffer, masks: Buffer, /) -> bytes:
    """The words the board can still form with tiles of the pool (29 counts, index 0 the
    blanks), as tile bytes separated by 0, some repeated."""
