"""The bag (art. 3, 7, 25): seeded, reproducible, and serialisable as a few plain values.

Each draw uses a fresh ``random.Random`` seeded with ``"<seed>:<n>"`` (n = draws so far), so a
bag is fully described by its seed, its draw count and its tiles: no generator state to save,
and the same seed and the same actions always give the same tiles.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from . import tiles as T
from .board import Board
from .errors import IllegalMoveError
from .i18n import _
from .rack import format_rack


def full_set() -> list[int]:
    """The 100 tiles of the Spanish set (art. 3), sorted by code."""
    return [code for code, n in enumerate(T.COUNTS) for _ in range(n)]


class Bag:
    """The tiles not yet drawn. ``len(bag)`` is how many are left (art. 27)."""

    __slots__ = ("seed", "draws", "_tiles")

    def __init__(self, seed: int | str = 0, tiles: Iterable[int] | str | None = None,
                 draws: int = 0):
        """A full bag, or these tiles (codes, or machine text as ``repr`` writes them)."""
        self.seed = seed
        self.draws = draws
        if isinstance(tiles, str):
            tiles = T.tokenize_machine(tiles)
        self._tiles = sorted(full_set() if tiles is None else tiles)

    def __len__(self) -> int:
        return len(self._tiles)

    def tiles(self) -> tuple[int, ...]:
        """The tiles in the bag, sorted (for tests and analysis, not for players to see)."""
        return tuple(self._tiles)

    def counts(self) -> list[int]:
        """How many of each code the bag holds (blank = index 0)."""
        out = [0] * T.ALPHABET_SIZE
        for t in self._tiles:
            out[t] += 1
        return out

    def draw(self, n: int) -> tuple[int, ...]:
        """Draw up to ``n`` tiles at random (fewer if the bag runs out, art. 32)."""
        n = min(n, len(self._tiles))
        rng = random.Random(f"{self.seed}:{self.draws}")
        self.draws += 1
        picked = []
        for _tile in range(n):
            picked.append(self._tiles.pop(rng.randrange(len(self._tiles))))
        return tuple(picked)

    def take(self, tiles: Iterable[int]) -> tuple[int, ...]:
        """Draw these very tiles (replaying a record); counts as a draw like ``draw``."""
        tiles = tuple(tiles)
        remaining = list(self._tiles)
        for t in tiles:
            if t not in remaining:
                raise IllegalMoveError(
                    _("no quedan en la bolsa las fichas {tiles}").format(tiles=format_rack(tiles)),
                    "3")
            remaining.remove(t)
        self._tiles = remaining
        self.draws += 1
        return tiles

    def put_back(self, tiles: Iterable[int]) -> None:
        self._tiles.extend(tiles)
        self._tiles.sort()

    def exchange(self, tiles: Iterable[int], *, drawn: Iterable[int] | None = None
                 ) -> tuple[int, ...]:
        """Draw as many new tiles as are given back, then put the old ones in (art. 25).

        ``drawn`` forces the new tiles (replaying a record)."""
        tiles = tuple(tiles)
        if len(tiles) > len(self._tiles):
            raise IllegalMoveError(
                _("para cambiar {tiles} fichas la bolsa debe tener al menos {need}; quedan {left}")
                .format(tiles=len(tiles), need=len(tiles), left=len(self._tiles)), "25")
        new = self.draw(len(tiles)) if drawn is None else self.take(drawn)
        self.put_back(tiles)
        return new

    def copy(self) -> Bag:
        return Bag(self.seed, self._tiles, self.draws)

    def to_dict(self) -> dict:
        return {"seed": self.seed, "draws": self.draws, "tiles": T.to_machine(self._tiles)}

    @classmethod
    def from_dict(cls, data: dict) -> Bag:
        return cls(data["seed"], data["tiles"], data["draws"])

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Bag) and self.seed == other.seed and self.draws == other.draws
                and self._tiles == other._tiles)

    def __repr__(self) -> str:
        return f"Bag(seed={self.seed!r}, tiles='{T.to_machine(self._tiles)}', draws={self.draws})"


def unseen(board: Board, rack: Iterable[int]) -> list[int]:
    """Counts per code of the tiles a player cannot see: bag plus the opponent's rack.

    Computed from the full set, the board (designated blanks count as blanks) and the player's
    own rack, so it never peeks at hidden information."""
    counts = list(T.COUNTS)
    for code, n in enumerate(board.usage()):
        counts[code] -= n
    for t in rack:
        counts[t] -= 1
    return counts
