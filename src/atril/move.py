"""Moves: a play, an exchange or a pass (art. 8, 25, 26), and their notation.

A play is a start square, a direction and the whole word along the line, tiles already on the
board included. A word entry of ``THROUGH`` (0) stands for "the tile already on that square"
(``.`` in GCG); every other entry is a tile, a designated blank carrying ``tiles.BLANK_BIT``.
Comparing a play with a board (``rules.check_play``) tells which tiles are new.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from . import tiles as T
from .board import SIZE, Board, format_coordinate, parse_coordinate, square
from .errors import InvalidMoveError, InvalidTextError
from .i18n import _
from .rack import Rack, format_rack, parse_rack

PLAY, EXCHANGE, PASS = "play", "exchange", "pass"
WITHDRAWN = "withdrawn"  # a turn's kind: a play taken back after a challenge (art. 39)
THROUGH = 0

_PASS_WORDS = {"paso", "pasar", "pass", "-", "p"}
_EXCHANGE_WORDS = ("cambio", "cambiar", "exchange", "ex", "c")


@dataclass(frozen=True, init=False)
class Move:
    """A play, exchange or pass. Prints as the code that makes it: ``Move('H8 CASA')``."""

    kind: str
    row: int
    col: int
    across: bool
    tiles: tuple[int, ...]  # play: the word (THROUGH for a board tile); exchange: tiles given back

    def __init__(self, text: str | None = None, *, kind: str = PASS, row: int = 0, col: int = 0,
                 across: bool = True, tiles: tuple[int, ...] = ()):
        if text is not None:
            other = Move.parse(text)
            kind, row, col = other.kind, other.row, other.col
            across, tiles = other.across, other.tiles
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "row", row)
        object.__setattr__(self, "col", col)
        object.__setattr__(self, "across", across)
        object.__setattr__(self, "tiles", tuple(tiles))

    # -- constructors -----------------------------------------------------------------------
    @classmethod
    def play(cls, row: int, col: int, across: bool, word: tuple[int, ...]) -> Move:
        if not word:
            raise InvalidMoveError(_("una jugada necesita al menos una ficha"))
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise InvalidMoveError(_("la casilla de inicio está fuera del tablero (art. 2)"))
        if (col if across else row) + len(word) > SIZE:
            raise InvalidMoveError(
                _("la palabra se sale del tablero: {tiles} fichas desde {square} (art. 2)")
                .format(tiles=len(word), square=format_coordinate(row, col, across)))
        for t in word:
            if t != THROUGH and not (1 <= T.letter_of(t) <= T.NUM_LETTERS
                                     and t & ~(T.BLANK_BIT | 0x3F) == 0):
                raise InvalidMoveError(
                    _("ficha no válida en la jugada: {tile}").format(tile=repr(t)))
        return cls(kind=PLAY, row=row, col=col, across=across, tiles=tuple(word))

    @classmethod
    def exchange(cls, tiles: tuple[int, ...]) -> Move:
        if not tiles:
            raise InvalidMoveError(_("un cambio necesita al menos una ficha (art. 25)"))
        if len(tiles) > T.RACK_SIZE:
            raise InvalidMoveError(_("no se pueden cambiar más de 7 fichas (art. 25)"))
        return cls(kind=EXCHANGE, tiles=tuple(Rack(tiles)))

    @classmethod
    def pass_(cls) -> Move:
        return cls(kind=PASS)

    @classmethod
    def parse(cls, text: str, *, gcg: bool = False, machine: bool = False) -> Move:
        """Read a move as people write it.

        Plays: ``H8 CASA`` (across), ``8H CASA`` (down); lower case letters are blanks; tiles
        already on the board as plain letters, in parentheses ``CA(S)A`` or as ``.``.
        Exchanges: ``cambio AEI`` (also ``-AEI``); racks may use ``[CH]`` or the digits
        ``1 2 3`` for CH, LL, RR. Pass: ``paso`` (also ``-``).
        With ``machine=True`` the word is machine text (docs/FORMATS.md): a bare ``CH`` is the two
        tiles C and H, ``[CH]`` the digraph. ``gcg=True`` reads a GCG coordinate (``8H`` across)
        and machine text.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(_("la jugada debe ser un texto"))
        stripped = text.strip()
        if not stripped:
            raise InvalidMoveError(
                _("jugada vacía: escribe p. ej. «H8 CASA», «cambio AEI» o «paso»"))
        lowered = stripped.lower()
        if lowered in _PASS_WORDS:
            return cls.pass_()
        first, _space, rest = stripped.partition(" ")
        if first.lower() in _EXCHANGE_WORDS and rest.strip():
            return cls.exchange(parse_rack(rest.strip()))
        if stripped.startswith("-") and len(stripped) > 1:
            body = stripped[1:].strip()
            if body.isdigit():
                raise InvalidMoveError(
                    _("indica qué fichas cambias, p. ej. «cambio AEI» (art. 25)"))
            return cls.exchange(parse_rack(body))
        parts = stripped.split()
        if len(parts) != 2:
            raise InvalidMoveError(
                _("«{text}» no es una jugada: escribe coordenada y palabra («H8 CASA» "
                  "horizontal, «8H CASA» vertical), «cambio LETRAS» o «paso»").format(text=text))
        try:
            row, col, across = parse_coordinate(parts[0], gcg=gcg)
        except InvalidTextError as exc:
            raise InvalidMoveError(str(exc)) from None
        word = parse_play_word(parts[1], machine=machine or gcg)
        return cls.play(row, col, across, word)

    # -- queries ----------------------------------------------------------------------------
    @property
    def is_play(self) -> bool:
        return self.kind == PLAY

    @property
    def is_exchange(self) -> bool:
        return self.kind == EXCHANGE

    @property
    def is_pass(self) -> bool:
        return self.kind == PASS

    def squares(self) -> Iterator[int]:
        """Every square the word covers, in reading order."""
        dr, dc = (0, 1) if self.across else (1, 0)
        for i in range(len(self.tiles)):
            yield square(self.row + dr * i, self.col + dc * i)

    def coordinate(self, *, gcg: bool = False) -> str:
        return format_coordinate(self.row, self.col, self.across, gcg=gcg)

    # -- text -------------------------------------------------------------------------------
    def notation(self, board: Board | None = None, *, machine: bool = False) -> str:
        """Spanish notation: ``H8 CASA``, ``cambio AEI``, ``paso``.

        With a board, tiles already there are shown in parentheses: ``H8 CA(S)A``.
        ``machine=True`` writes ``[CH]`` for digraphs so the text reads back unambiguously.
        """
        if self.kind == PASS:
            return "paso"
        if self.kind == EXCHANGE:
            return f"cambio {format_rack(self.tiles)}"
        return f"{self.coordinate()} {self._word_text(board, machine=machine)}"

    def _word_text(self, board: Board | None, *, machine: bool) -> str:
        fmt = T.tile_to_machine if machine else T.tile_to_human
        parts = []
        for sq, t in zip(self.squares(), self.tiles):
            on_board = board[sq] if board is not None else T.EMPTY
            if t == THROUGH:
                parts.append(f"({fmt(on_board)})" if on_board else ".")
            elif on_board:
                parts.append(f"({fmt(t)})")
            else:
                parts.append(fmt(t))
        return "".join(parts).replace(")(", "")

    def __str__(self) -> str:
        if self._human_round_trips():
            return self.notation()
        # Machine form: a bracket anywhere makes the reader take bare C H as two tiles.
        text = self.notation(machine=True)
        if "[" not in text:
            coord, word = text.split(" ")
            i = next(i for i, c in enumerate(word) if c.isalpha())
            text = f"{coord} {word[:i]}[{word[i]}]{word[i + 1:]}"
        return text

    def _human_round_trips(self) -> bool:
        if self.kind != PLAY:
            return True
        text = self._word_text(None, machine=False)
        try:
            return parse_play_word(text) == self.tiles
        except InvalidTextError:
            return False

    def __repr__(self) -> str:
        return f"Move('{self}')"


_PLAY_WORD = re.compile(r"^[A-Za-zÑñÁÉÍÓÚÜáéíóúü.()\[\]]+$")


def parse_play_word(text: str, *, machine: bool = False) -> tuple[int, ...]:
    """The word part of a play: letters (lower case = blank), ``[CH]``, ``(S)`` and ``.``.

    Parenthesised letters and ``.`` are tiles already on the board: parentheses keep the
    letter (checked against the board later), ``.`` becomes ``THROUGH``. A word with any
    ``[..]``, or any word with ``machine=True``, is read as machine text, where a bare ``CH`` is
    the two tiles C and H.
    """
    machine = machine or "[" in text
    if not _PLAY_WORD.match(text):
        bad = sorted({c for c in text if not re.match(r"[A-Za-zÑñÁÉÍÓÚÜáéíóúü.()\[\]]", c)})
        raise InvalidMoveError(_("«{text}» no es una palabra: caracteres no válidos {characters}")
                               .format(text=text, characters=" ".join(bad)))
    if text.count("(") != text.count(")") or re.search(r"\([^)]*\(", text):
        raise InvalidMoveError(_("«{text}»: paréntesis mal cerrados").format(text=text))
    word: list[int] = []
    for piece in re.split(r"(\.|\([^)]*\))", text):
        if not piece:
            continue
        if piece == ".":
            word.append(THROUGH)
        elif piece.startswith("("):
            inner = piece[1:-1]
            if not inner:
                raise InvalidMoveError(_("«{text}»: paréntesis vacíos").format(text=text))
            word.extend(_play_tiles(inner, machine))
        else:
            word.extend(_play_tiles(piece, machine))
    return tuple(word)


def _play_tiles(piece: str, machine: bool) -> tuple[int, ...]:
    try:
        return T.tokenize_machine(piece) if machine else T.tokenize_play(piece)
    except InvalidTextError as exc:
        raise InvalidMoveError(str(exc)) from None


