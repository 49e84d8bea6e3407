"""``Rack``: the tiles a player holds, as a sorted tuple of tile codes that prints well."""

from __future__ import annotations

from collections.abc import Iterable

from . import tiles as T
from .errors import InvalidMoveError, InvalidTextError
from .i18n import _


class Rack(tuple[int, ...]):
    """Up to 7 tiles (``BLANK`` = 0 for a blank), kept in alphabetical tile order.

    ``Rack("AEIRS?T")``, ``Rack("1AE")`` (digits 1 2 3 are CH LL RR), ``Rack("[CH]AE")``;
    a bare ``CH`` is the two tiles C and H (docs/FORMATS.md §2). Prints as ``Rack('AEIRST?')``.
    """

    def __new__(cls, tiles: str | Iterable[int] = ()) -> Rack:
        codes = parse_rack(tiles) if isinstance(tiles, str) else tuple(tiles)
        if len(codes) > T.RACK_SIZE:
            raise InvalidMoveError(
                _("un atril tiene como mucho 7 fichas, no {tiles}").format(tiles=len(codes)))
        for t in codes:
            if not 0 <= t <= T.NUM_LETTERS:
                raise InvalidMoveError(
                    _("ficha no válida en el atril: {tile}").format(tile=repr(t)))
        return super().__new__(cls, sorted(codes, key=T.blank_last))

    def counts(self) -> list[int]:
        """How many of each tile code (index 0 = blanks)."""
        counts = [0] * T.ALPHABET_SIZE
        for t in self:
            counts[t] += 1
        return counts

    def value(self) -> int:
        """Points of the tiles: what art. 45 deducts at the end of a game."""
        return sum(T.VALUES[t] for t in self)

    def __str__(self) -> str:
        return format_rack(self)

    def __repr__(self) -> str:
        return f"Rack('{self}')"

    def human(self) -> str:
        """As a person reads it: ``A E I CH ?``."""
        return " ".join(T.tile_to_human(t) for t in self)


def parse_rack(text: str) -> tuple[int, ...]:
    """Tiles of a rack as typed: letters, ``?`` for a blank, ``[CH]`` ``[LL]`` ``[RR]`` or the
    digits ``1`` ``2`` ``3`` for them (a bare ``CH`` on a rack is C and H: docs/FORMATS.md §2)."""
    text = text.strip().replace(" ", "")
    text = text.replace("1", "[CH]").replace("2", "[LL]").replace("3", "[RR]")
    try:
        tiles = T.tokenize_machine(text.upper())
    except InvalidTextError as exc:
        raise InvalidMoveError(str(exc)) from None
    if len(tiles) > T.RACK_SIZE:
        raise InvalidMoveError(_("«{text}»: un atril tiene como mucho 7 fichas").format(text=text))
    return tiles


def format_rack(tiles: Iterable[int]) -> str:
    """A rack in machine form (``[CH]``, ``?``), in alphabetical tile order, blanks last."""
    return T.to_machine(sorted(tiles, key=T.blank_last))
