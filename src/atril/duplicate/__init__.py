"""Duplicate Scrabble (*modalidad duplicada*, docs/DUPLICATE.md): every player has the same
board and rack, writes the best play they find, and scores it; the master move (the top
score) is then placed for everyone.

- ``racks``: the rack rule (vowels and consonants by round) and the redraws;
- ``master``: the master move and its tie-breaks, found with the engine (``atril.movegen``);
- ``slips``: scoring the plays handed in, and why one scores 0;
- ``standings``: bonuses, standings and partial results;
- ``game``: ``Duplicate``, the game round by round, its endings and storage;
- ``sheet``: the record a person reads; ``practice``: ``atril duplicada practicar``.
"""

from .game import END_REASONS, Duplicate, Round
from .slips import ZERO_REASONS, Scored, Slip, score_slip
from .standings import Bonuses, Standing

__all__ = ["END_REASONS", "Duplicate", "Round", "ZERO_REASONS", "Scored", "Slip", "score_slip",
           "Bonuses", "Standing"]
