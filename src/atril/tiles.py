"""The Spanish tile set (docs/RULES.md §1, art. 3, 10, 11) and the text forms of tiles.

A tile is a small int. ``BLANK`` (0) is an undesignated blank on a rack; ``1..28`` are the
letters in Spanish alphabetical order, digraphs in their place (the order Macondo and wolges
use, so their ``.kwg`` files read the same). A blank placed on the board carries the tile it
stands for with ``BLANK_BIT`` set. On a board, ``EMPTY`` (0) marks an empty square.

A word is a tuple of tiles. Text is tokenized greedily: every ``ch``, ``ll``, ``rr`` in a
*word* is the digraph tile (art. 11); in machine formats a bare ``CH`` is two tiles and the
digraph is written ``[CH]`` (docs/FORMATS.md §2).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import InvalidTextError
from .i18n import _

BLANK = 0
EMPTY = 0
BLANK_BIT = 0x80
RACK_SIZE = 7


@dataclass(frozen=True)
class TileInfo:
    """One row of the tile table."""

    code: int
    letter: str  # upper case, digraphs as two letters: "CH"
    value: int
    count: int
    vowel: bool


# The one tile table (art. 3, 10, 11): letter, value, count, vowel.
_TABLE = [
    ("A", 1, 12, True), ("B", 3, 2, False), ("C", 3, 4, False), ("CH", 5, 1, False),
    ("D", 2, 5, False), ("E", 1, 12, True), ("F", 4, 1, False), ("G", 2, 2, False),
    ("H", 4, 2, False), ("I", 1, 6, True), ("J", 8, 1, False), ("L", 1, 4, False),
    ("LL", 8, 1, False), ("M", 3, 2, False), ("N", 1, 5, False), ("Ñ", 8, 1, False),
    ("O", 1, 9, True), ("P", 3, 2, False), ("Q", 5, 1, False), ("R", 1, 5, False),
    ("RR", 8, 1, False), ("S", 1, 6, False), ("T", 1, 4, False), ("U", 1, 5, True),
    ("V", 4, 1, False), ("X", 8, 1, False), ("Y", 4, 1, False), ("Z", 10, 1, False),
]
BLANK_COUNT = 2

TILES: tuple[TileInfo, ...] = tuple(
    TileInfo(code, letter, value, count, vowel)
    for code, (letter, value, count, vowel) in enumerate(_TABLE, start=1)
)
NUM_LETTERS = len(TILES)  # 28
ALPHABET_SIZE = NUM_LETTERS + 1  # codes 0..28, blank included

#: value of each code, blank (0) included; index by ``tile & ~BLANK_BIT`` only for letters.
VALUES: tuple[int, ...] = (0,) + tuple(t.value for t in TILES)
#: how many of each code the bag holds, blank (0) included.
COUNTS: tuple[int, ...] = (BLANK_COUNT,) + tuple(t.count for t in TILES)
VOWELS: frozenset[int] = frozenset(t.code for t in TILES if t.vowel)
TOTAL_TILES = sum(COUNTS)
assert TOTAL_TILES == 100

_LETTER_TO_CODE = {t.letter: t.code for t in TILES}
_DIGRAPHS = ("CH", "LL", "RR")
DIGRAPH_CODES: frozenset[int] = frozenset(_LETTER_TO_CODE[d] for d in _DIGRAPHS)


def is_blank(tile: int) -> bool:
    """True for a blank, designated (on the board) or not (on a rack)."""
    return tile == BLANK or bool(tile & BLANK_BIT)


def blank_last(tile: int) -> tuple[bool, int]:
    """Sort key of rack tiles: alphabetical tile order, blanks (code 0) last."""
    return (tile == BLANK, tile)


def letter_of(tile: int) -> int:
    """The letter code a tile shows: a designated blank shows its letter."""
    return tile & ~BLANK_BIT


def value(tile: int) -> int:
    """Points for a tile: blanks score 0 (art. 10.2)."""
    return 0 if is_blank(tile) else VALUES[tile]


def code(letter: str) -> int:
    """The code of an upper-case letter name such as ``"CH"`` or ``"Ñ"``."""
    try:
        return _LETTER_TO_CODE[letter.upper()]
    except KeyError:
        raise InvalidTextError(
            _("«{letter}» no es una ficha del juego español (art. 3)").format(letter=letter)
        ) from None


def strip_accents(text: str) -> str:
    """Drop accents and diaeresis (á→a, ü→u) but keep ñ (docs/RULES.md §7)."""
    out = []
    for ch in text:
        if ch in "ñÑ":
            out.append(ch)
            continue
        decomposed = unicodedata.normalize("NFD", ch)
        out.append("".join(c for c in decomposed if not unicodedata.combining(c)))
    return unicodedata.normalize("NFC", "".join(out))


def tokenize_word(text: str) -> tuple[int, ...]:
    """Tiles of a word as a person writes it: greedy digraphs whatever the case (``Lluvia``
    starts with the LL tile), accents ignored, no blanks.

    >>> [TILES[t - 1].letter for t in tokenize_word("charro")]
    ['CH', 'A', 'RR', 'O']
    """
    return _tokenize(text, digraphs=True, allow_blanks=False)


def tokenize_play(text: str) -> tuple[int, ...]:
    """Tiles of a played word as a person types it: lower case letters are blanks.

    Digraphs are read greedily within one case: ``CHArrO`` is CH, A, a blank RR, O; mixed
    case ``Rr`` is an R and a blank R. ``[CH]`` and ``[ch]`` are also read.
    """
    return _tokenize(text, digraphs=True, allow_blanks=True)


def tokenize_machine(text: str) -> tuple[int, ...]:
    """Tiles in a machine format (CGP, GCG, JSON): ``[CH]`` is the digraph, bare ``CH`` is C, H;
    lower case is a designated blank; ``?`` is an undesignated blank."""
    return _tokenize(text, digraphs=False, allow_blanks=True)


def _tokenize(text: str, *, digraphs: bool, allow_blanks: bool) -> tuple[int, ...]:
    if not isinstance(text, str):
        raise InvalidTextError(_("se esperaba un texto"))
    text = strip_accents(text.strip())
    out: list[int] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "[":
            end = text.find("]", i)
            if end < 0:
                raise InvalidTextError(_("falta «]» en «{text}»").format(text=text))
            inner = text[i + 1:end]
            if inner.upper() not in _DIGRAPHS and not (
                    len(inner) == 1 and inner.upper() in _LETTER_TO_CODE):
                raise InvalidTextError(_("«[{tile}]» no es una ficha del juego español (art. 3)")
                                       .format(tile=inner))
            out.append(_letter(inner, text, allow_blanks))
            i = end + 1
            continue
        if ch == "?":
            if not allow_blanks:
                raise InvalidTextError(
                    _("«?» (comodín sin designar) no vale en «{text}»").format(text=text))
            out.append(BLANK)
            i += 1
            continue
        if digraphs and i + 1 < n:
            pair = text[i:i + 2]
            # In a word case means nothing (Ll, LL, ll: the LL tile, art. 11); in a play lower
            # case is a blank, so a digraph is read within one case only.
            if pair.upper() in _DIGRAPHS and (not allow_blanks or pair.isupper()
                                              or pair.islower()):
                out.append(_letter(pair, text, allow_blanks))
                i += 2
                continue
        out.append(_letter(ch, text, allow_blanks))
        i += 1
    return tuple(out)


def _letter(piece: str, text: str, allow_blanks: bool) -> int:
    upper = piece.upper()
    if upper in ("K", "W"):
        raise InvalidTextError(
            _("«{text}»: la {letter} no existe en el Scrabble en español, ni como comodín "
              "(art. 10.2)").format(text=text, letter=upper))
    if upper not in _LETTER_TO_CODE:
        raise InvalidTextError(_("«{text}»: «{piece}» no es una ficha del juego español (art. 3)")
                               .format(text=text, piece=piece))
    tile = _LETTER_TO_CODE[upper]
    if piece != upper:  # lower case: a designated blank
        if not allow_blanks:
            return tile
        if piece.upper() == piece.lower():
            return tile
        return tile | BLANK_BIT
    return tile


def too_many(code: int, count: int) -> str:
    """Why a position is impossible: ``count`` tiles of ``code`` between the board and the
    racks, more than the set holds (art. 3)."""
    message = (_("hay {count} comodines entre el tablero y los atriles, pero el juego solo tiene "
                 "{most} (art. 3)") if code == BLANK else
               _("hay {count} fichas {tile} entre el tablero y los atriles, pero el juego solo "
                 "tiene {most} (art. 3)"))
    return message.format(count=count, tile=tile_to_human(code), most=COUNTS[code])


def tile_to_machine(tile: int) -> str:
    """``[CH]``, ``[ch]``, ``A``, ``a``, ``?`` (docs/FORMATS.md §2, machine text)."""
    if tile == BLANK:
        return "?"
    letter = TILES[letter_of(tile) - 1].letter
    if tile & BLANK_BIT:
        letter = letter.lower()
    return f"[{letter}]" if len(letter) == 2 else letter


def tile_to_human(tile: int) -> str:
    """``CH``, ``ch`` (a blank CH), ``A``, ``a``, ``?`` (docs/FORMATS.md §2, human text)."""
    if tile == BLANK:
        return "?"
    letter = TILES[letter_of(tile) - 1].letter
    return letter.lower() if tile & BLANK_BIT else letter


def to_machine(tiles: Iterable[int]) -> str:
    return "".join(tile_to_machine(t) for t in tiles)


def to_human(tiles: Iterable[int]) -> str:
    return "".join(tile_to_human(t) for t in tiles)


def word_text(tiles: Sequence[int]) -> str:
    """A word as the lexicon stores it: lower case, digraphs as two letters, blanks as letters."""
    return "".join(TILES[letter_of(t) - 1].letter for t in tiles).lower()
