"""Scoring the plays players hand in (*papeletas*, docs/DUPLICATE.md §4).

A player scores what their play would score on the round's board (it is never placed: the
master move is). A slip scores 0, with its reason, when it is

- ``missing``: nothing handed in (or «paso»);
- ``late``: handed in after the time (it is not read);
- ``malformed``: badly written, not readable as a play (a coordinate and a word);
- ``unmarked_blank``: it needs a blank the player did not mark (lower case), the rack holding
  the blank but not the letter;
- ``invalid``: an illegal placement, tiles the rack does not hold, or a word not in the
  lexicon. As for a challenge (art. 40), which word failed is not said; a broken placement
  rule is (``Scored.detail``, with its article).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .. import tiles as T
from ..board import Board
from ..errors import AtrilError, IllegalMoveError, InvalidTextError
from ..i18n import N_
from ..lexicon import Lexicon
from ..move import Move
from ..rules import ScoredPlay, check_play, leave_after

MISSING, LATE, MALFORMED, UNMARKED_BLANK, INVALID = (
    "missing", "late", "malformed", "unmarked_blank", "invalid")
#: why a slip scores 0: code → Spanish text (a msgid, translated where shown).
ZERO_REASONS: dict[str, str] = {
    MISSING: N_("sin jugada"),
    LATE: N_("fuera de tiempo"),
    MALFORMED: N_("mal escrita"),
    UNMARKED_BLANK: N_("comodín sin marcar"),
    INVALID: N_("jugada no válida"),
}


@dataclass(frozen=True)
class Slip:
    """What a player handed in for a round: the play as written (None: nothing), and whether it
    came after the time."""

    text: str | None = None
    late: bool = False


@dataclass(frozen=True)
class Scored:
    """A slip's score: ``reason`` (a ``ZERO_REASONS`` code) when it scores 0 for a fault;
    ``detail`` the rule a placement broke, in the language it was scored in; ``play`` the play
    as it was checked (None when it could not be read)."""

    score: int
    reason: str | None = None
    detail: str = ""
    play: ScoredPlay | None = None


def score_slip(board: Board, rack: Sequence[int], lexicon: Lexicon, slip: Slip) -> Scored:
    """What ``slip`` scores on ``board`` with ``rack``."""
    if slip.text is None or not slip.text.strip():
        return Scored(0, MISSING)
    if slip.late:
        return Scored(0, LATE)
    try:
        move = Move.parse(slip.text)
    except InvalidTextError as exc:
        return Scored(0, MALFORMED, str(exc))
    if move.is_pass:  # «paso»: no play handed in
        return Scored(0, MISSING)
    if not move.is_play:  # duplicate has no exchanges
        return Scored(0, MALFORMED)
    try:
        play = check_play(board, move)
    except IllegalMoveError as exc:
        return Scored(0, INVALID, str(exc))
    try:
        leave_after(rack, play.placed_tiles())
    except AtrilError as exc:
        if _needs_unmarked_blank(rack, play.placed_tiles()):
            return Scored(0, UNMARKED_BLANK, play=play)
        return Scored(0, INVALID, str(exc), play)
    if not all(lexicon.is_word(word.tiles) for word in play.words):
        return Scored(0, INVALID, play=play)
    return Scored(play.score, play=play)


def _needs_unmarked_blank(rack: Sequence[int], used: Sequence[int]) -> bool:
    """Whether the letters ``used`` lacks on ``rack`` are all covered by its unused blanks."""
    missing = Counter(used) - Counter(rack)
    spare = rack.count(T.BLANK) - used.count(T.BLANK)
    return T.BLANK not in missing and 0 < sum(missing.values()) <= spare
