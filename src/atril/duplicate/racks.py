"""The rack rule of duplicate (docs/DUPLICATE.md §2): until round 15 a rack holds at least two
vowels and two consonants, from round 16 at least one of each; Y is a consonant and a blank
counts as either. A drawn rack that fails goes back to the bag and is drawn again.

The regulations do not say whether the tiles left from the previous round go back with it:
by default everything goes back (``keep_leave=False``), since the leftover alone can make every
draw fail (six consonants kept and one tile to draw, before round 16); with ``keep_leave`` only
the new tiles go back, and the leftover too once no draw could complete it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import tiles as T
from ..bag import Bag

#: the last round whose rack needs two vowels and two consonants; later rounds need one of each.
LAST_ROUND_OF_TWO = 15


def minimum(round_number: int) -> int:
    """How many vowels, and how many consonants, a rack of this round needs at least."""
    return 2 if round_number <= LAST_ROUND_OF_TWO else 1


def kinds(tiles: Sequence[int]) -> tuple[int, int, int]:
    """(vowels, consonants, blanks) among rack tiles: the vowels are ``tiles.VOWELS``, every
    other letter (Y included) is a consonant."""
    blanks = sum(1 for t in tiles if t == T.BLANK)
    vowels = sum(1 for t in tiles if t in T.VOWELS)
    return vowels, len(tiles) - vowels - blanks, blanks


def _meets(vowels: int, consonants: int, blanks: int, need: int) -> bool:
    """Whether the blanks can be shared out so that both sides reach ``need``."""
    return (vowels + blanks >= need and consonants + blanks >= need
            and vowels + consonants + blanks >= 2 * need)


def meets_rule(rack: Sequence[int], round_number: int) -> bool:
    """Whether ``rack`` is a valid rack for this round."""
    return _meets(*kinds(rack), minimum(round_number))


def could_meet(kept: Sequence[int], pool: Sequence[int], size: int, round_number: int) -> bool:
    """Whether ``kept`` plus some ``size - len(kept)`` tiles of ``pool`` makes a valid rack."""
    need, draw = minimum(round_number), size - len(kept)
    kv, kc, kb = kinds(kept)
    pv, pc, pb = kinds(pool)
    return any(_meets(kv + v, kc + draw - v - b, kb + b, need)
               for v in range(min(draw, pv) + 1) for b in range(min(draw - v, pb) + 1)
               if draw - v - b <= pc)


def draw_rack(bag: Bag, leave: Sequence[int], round_number: int, *, keep_leave: bool = False
              ) -> tuple[tuple[int, ...], int] | None:
    """The round's rack, completed from ``bag`` to seven tiles (fewer when fewer are left),
    and how many drawn racks failed the rule and went back first; None when no draw of the
    bag and ``leave`` together can make a valid rack (the game is over).

    ``leave`` is off the bag when called; when None is returned it still is."""
    size = min(T.RACK_SIZE, len(bag) + len(leave))
    if size == 0 or not could_meet((), (*bag.tiles(), *leave), size, round_number):
        return None
    kept, redraws = tuple(leave), 0
    while True:
        rack = kept + bag.draw(size - len(kept))
        if meets_rule(rack, round_number):
            return tuple(sorted(rack, key=T.blank_last)), redraws
        redraws += 1
        if keep_leave and could_meet(kept, (*bag.tiles(), *rack[len(kept):]), size,
                                     round_number):
            bag.put_back(rack[len(kept):])
        else:
            bag.put_back(rack)
            kept = ()
