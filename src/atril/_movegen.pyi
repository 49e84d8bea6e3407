"""Types of the native move generator (``_movegen.c``). Moves come back as packed records of
``RECORD_SIZE`` bytes, read by ``atril.movegen.MoveList`` with the offsets below."""

from typing_extensions import Buffer

RECORD_SIZE: int
RECORD_SCORE: int
RECORD_KIND: int
RECORD_DIR: int
RECORD_ROW: int
RECORD_COL: int
RECORD_LEN: int
RECORD_NPLACED: int
RECORD_TILES: int
RECORD_EQUITY: int
KIND_PLAY: int
KIND_EXCHANGE: int
KIND_PASS: int
NEW_BIT: int

def configure(values: bytes, counts: bytes, letter_multipliers: bytes, word_multipliers: bytes,
              bingo_bonus: int, /) -> None:
    """Tile values and counts (29 each), the premium maps (225 each) and the bingo bonus."""

def excess(squares: Buffer, rack_counts: Buffer, /) -> int:
    """A tile code that board and rack hold more of than the game has, or -1 (art. 3)."""

def generate(squares: Buffer, rack_counts: Buffer, nodes: Buffer, masks: Buffer, bag: int,
             /) -> bytes:
    """Every legal move, sorted, as packed records (exchanges too when ``bag`` >= 0)."""

def best(squares: Buffer, rack_counts: Buffer, nodes: Buffer, masks: Buffer, bingos: Buffer,
         bag: int, n: int, leaves: tuple[Buffer, Buffer, Buffer] | None, /) -> bytes:
    """The best ``n`` moves by score, or by equity with a leave table, as packed records."""

def leave_counts(nodes: Buffer, /) -> bytes:
    """Words under each node of a leave DAWG (``uint32`` per node)."""

def bingo_table(nodes: Buffer, /) -> bytes:
    """The open-addressing table of tile multisets (7 to 15 tiles) that spell words."""
