"""Types of the native simulation loop (``_sim.c``): see ``atril.sim``."""

from typing_extensions import Buffer

OUT_SPREAD: int
OUT_LEAVE: int
OUT_UNSEEN: int
OUT_FLAGS: int
OUT_FIELDS: int
FLAG_OVER: int
FLAG_MOVER_TO_MOVE: int
MAX_PLIES: int

def configure(values: bytes, counts: bytes, letter_multipliers: bytes, word_multipliers: bytes,
              bingo_bonus: int, /) -> None:
    """Tile values and counts (29 each), the premium maps and the bingo bonus."""

def simulate(board: Buffer, rack: Buffer, unseen: Buffer, bag: int, candidates: Buffer,
             active: Buffer, nodes: Buffer, masks: Buffer, bingos: Buffer,
             leaves: tuple[Buffer, Buffer, Buffer] | None, plies: int, exchange_min_bag: int,
             seed: int, first: int, count: int, /) -> bytes:
    """Iterations ``first`` to ``first + count - 1`` of every active candidate: ``OUT_FIELDS``
    float32 per (iteration, candidate)."""
