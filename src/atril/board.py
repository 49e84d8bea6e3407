"""The 15×15 board, its premium squares (art. 13–16) and square names.

Squares are ints ``row * 15 + col`` (0-based). Spanish notation names a square by row letter
A–O (top to bottom) and column number 1–15 (left to right): ``H8`` is the centre, index 112.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from . import tiles as T
from .errors import InvalidPositionError, InvalidTextError
from .i18n import _

SIZE = 15
NUM_SQUARES = SIZE * SIZE
CENTER = 7 * SIZE + 7  # H8, the star (art. 6, 16)
ROWS = "ABCDEFGHIJKLMNO"

# The premium map, defined once (docs/RULES.md §1).
# W/w: triple/double word; L/l: triple/double letter.
_PREMIUM_ROWS = (
    "W..l...W...l..W",
    ".w...L...L...w.",
    "..w...l.l...w..",
    "l..w...l...w..l",
    "....w.....w....",
    ".L...L...L...L.",
    "..l...l.l...l..",
    "W..l...w...l..W",
    "..l...l.l...l..",
    ".L...L...L...L.",
    "....w.....w....",
    "l..w...l...w..l",
    "..w...l.l...w..",
    ".w...L...L...w.",
    "W..l...W...l..W",
)
_LETTER_MULT = {".": 1, "l": 2, "L": 3, "w": 1, "W": 1}
_WORD_MULT = {".": 1, "l": 1, "L": 1, "w": 2, "W": 3}
#: letter and word multiplier of each square.
LETTER_MULTIPLIER: tuple[int, ...] = tuple(_LETTER_MULT[c] for row in _PREMIUM_ROWS for c in row)
WORD_MULTIPLIER: tuple[int, ...] = tuple(_WORD_MULT[c] for row in _PREMIUM_ROWS for c in row)
PREMIUM_NAME: tuple[str, ...] = tuple(
    {".": "", "l": "2L", "L": "3L", "w": "2W", "W": "3W"}[c] for row in _PREMIUM_ROWS for c in row)


def square(row: int, col: int) -> int:
    return row * SIZE + col


def square_name(sq: int) -> str:
    """Spanish name of a square: ``H8``."""
    return f"{ROWS[sq // SIZE]}{sq % SIZE + 1}"


def parse_square(text: str) -> int:
    """Index of a square named in Spanish notation (``H8``); direction is not implied here."""
    row, col, _across = parse_coordinate(text)
    return square(row, col)


def parse_coordinate(text: str, *, gcg: bool = False) -> tuple[int, int, bool]:
    """``(row, col, across)`` from a move coordinate.

    Spanish notation (default): letter first = across (``H8``), number first = down (``8H``).
    GCG notation (``gcg=True``): rows are numbers, columns letters; number first = across (``8H``).
    """
    raw = text
    text = text.strip().upper()
    if not text:
        raise InvalidTextError(_("falta la coordenada (p. ej. H8 en horizontal, 8H en vertical)"))
    letter_first = text[0].isalpha()
    if letter_first:
        letter, digits = text[0], text[1:]
    else:
        digits, letter = text[:-1], text[-1]
    if not digits.isdigit() or letter not in ROWS:
        raise InvalidTextError(
            _("coordenada «{text}» no válida: se espera una letra A–O y un número 1–15, "
              "como H8 (horizontal) u 8H (vertical)").format(text=raw))
    number = int(digits)
    if not 1 <= number <= SIZE:
        raise InvalidTextError(_("coordenada «{text}» fuera del tablero: los números van de 1 a "
                                 "15").format(text=raw))
    index = ROWS.index(letter)
    if gcg:
        # GCG: number = row, letter = column; number first = across.
        return number - 1, index, not letter_first
    return index, number - 1, letter_first


def format_coordinate(row: int, col: int, across: bool, *, gcg: bool = False) -> str:
    if gcg:
        return f"{row + 1}{ROWS[col]}" if across else f"{ROWS[col]}{row + 1}"
    return f"{ROWS[row]}{col + 1}" if across else f"{col + 1}{ROWS[row]}"


class Board:
    """The tiles on the board: 225 squares, ``tiles.EMPTY`` or a tile (blank bit for blanks)."""

    __slots__ = ("squares",)

    def __init__(self, squares: bytes | bytearray | str | None = None):
        """An empty board, 225 square bytes, or the board field of a CGP (rows from the top
        separated by ``/``, runs of empty squares as numbers: ``Board('15/…/15')``)."""
        if squares is None:
            self.squares = bytearray(NUM_SQUARES)
        elif isinstance(squares, str):
            self.squares = _parse_rows(squares)
        else:
            if len(squares) != NUM_SQUARES:
                raise InvalidPositionError(_("un tablero tiene 15×15 casillas"))
            self.squares = bytearray(squares)

    def copy(self) -> Board:
        return Board(self.squares)

    def __getitem__(self, sq: int) -> int:
        return self.squares[sq]

    def __setitem__(self, sq: int, tile: int) -> None:
        self.squares[sq] = tile

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.squares == other.squares

    def __hash__(self) -> int:
        return hash(bytes(self.squares))

    def at(self, row: int, col: int) -> int:
        """Tile at (row, col), or EMPTY when off the board."""
        if 0 <= row < SIZE and 0 <= col < SIZE:
            return self.squares[row * SIZE + col]
        return T.EMPTY

    def is_empty(self) -> bool:
        return not any(self.squares)

    def occupied(self) -> Iterator[int]:
        return (sq for sq, t in enumerate(self.squares) if t)

    def tile_count(self) -> int:
        return sum(1 for t in self.squares if t)

    def usage(self) -> list[int]:
        """How many of each code the board uses; designated blanks count as blanks (index 0)."""
        counts = [0] * T.ALPHABET_SIZE
        for t in self.squares:
            if t:
                counts[T.BLANK if t & T.BLANK_BIT else t] += 1
        return counts

    def rows_machine(self) -> list[str]:
        """Each row as CGP writes it."""
        out = []
        for r in range(SIZE):
            row, run = [], 0
            for c in range(SIZE):
                t = self.squares[r * SIZE + c]
                if t:
                    if run:
                        row.append(str(run))
                        run = 0
                    row.append(T.tile_to_machine(t))
                else:
                    run += 1
            if run:
                row.append(str(run))
            out.append("".join(row))
        return out

    def render(self, *, premiums: bool = True) -> str:
        """The board as a person reads it: digraphs as one tile, blanks in lower case,
        premiums marked where no tile lies."""
        cells = 3
        lines = ["   " + "".join(f"{c + 1:>{cells}}" for c in range(SIZE))]
        for r in range(SIZE):
            parts = []
            for c in range(SIZE):
                sq = r * SIZE + c
                t = self.squares[sq]
                if t:
                    text = T.tile_to_human(t)
                elif sq == CENTER:
                    text = "★"
                elif premiums and PREMIUM_NAME[sq]:
                    text = {"2L": "·", "3L": ":", "2W": "=", "3W": "#"}[PREMIUM_NAME[sq]]
                else:
                    text = "."
                parts.append(f"{text:>{cells}}")
            lines.append(f" {ROWS[r]} " + "".join(parts))
        if premiums:
            # TRANSLATORS: the board's legend; the marks and premium names stay as they are.
            lines.append("   " + _("· 2L   : 3L   = 2W   # 3W   ★ salida   minúscula = comodín"))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render(premiums=False)

    def __repr__(self) -> str:
        return f"Board('{'/'.join(self.rows_machine())}')"


_ROW_TOKEN = re.compile(r"\d+|\[[^\]]*\]|.")


def _parse_rows(text: str) -> bytearray:
    """The squares of a CGP board field; InvalidPositionError naming the row at fault."""
    rows = text.split("/")
    if len(rows) != SIZE:
        raise InvalidPositionError(
            _("CGP: el tablero tiene {rows} filas; deben ser 15").format(rows=len(rows)))
    squares = bytearray(NUM_SQUARES)
    for r, row in enumerate(rows):
        c = 0
        for token in _ROW_TOKEN.findall(row):
            if token.isdigit():
                c += int(token)
                continue
            if token == "?":
                raise InvalidPositionError(
                    _("CGP: fila {row}: un comodín en el tablero se escribe con la letra que "
                      "representa, en minúscula").format(row=r + 1))
            try:
                (tile,) = T.tokenize_machine(token)
            except (InvalidTextError, ValueError) as exc:
                raise InvalidPositionError(
                    _("CGP: fila {row}: {error}").format(row=r + 1, error=exc)) from None
            if c >= SIZE:
                break
            squares[r * SIZE + c] = tile
            c += 1
        if c != SIZE:
            raise InvalidPositionError(
                _("CGP: la fila {row} («{text}») tiene {squares} casillas; deben ser 15")
                .format(row=r + 1, text=row, squares=c))
    return squares
