"""The computer opponent of the web app: the levels of ``atril.players``, one decision at a time.

A level is chosen in the lobby; every decision makes a fresh engine seeded by the game's seed
and turn number, so a stored game replays the same way after a restart.
"""

from __future__ import annotations

from .. import players
from ..game import Game
from ..i18n import _
from ..lexicon import Lexicon

#: what the lobby offers first: a fair opponent for a newcomer (short words, no scrabbles).
DEFAULT_LEVEL = "intermedio"


def levels() -> dict[str, str]:
    """Level id → the name the lobby shows, in the current language."""
    return {name: f"{_(lv.title)}: {_(lv.description)}" for name, lv in players.LEVELS.items()}


def engine(level: str, game: Game, lexicon: Lexicon) -> players.Engine:
    """The computer of ``level`` for its next decision in ``game`` (seeded by the game)."""
    return players.get(level, lexicon=lexicon, seed=f"{game.seed}:{len(game.history)}")
