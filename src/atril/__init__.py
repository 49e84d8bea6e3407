"""atril: Spanish Scrabble by the FISE/FILE rules."""

from . import movegen
from .board import Board
from .errors import (
                     AtrilError,
                     IllegalMoveError,
                     InvalidMoveError,
                     InvalidPositionError,
                     InvalidTextError,
                     LexiconError,
)
from .game import Game
from .lexicon import Lexicon
from .move import Move
from .position import Position
from .rack import Rack
from .rules import ScoredPlay, check_play
from .ruleset import Ruleset

__version__ = "0.1.0"

__all__ = [
    "AtrilError", "Board", "Game", "IllegalMoveError", "InvalidMoveError", "InvalidPositionError",
    "InvalidTextError", "Lexicon", "LexiconError", "Move", "Position", "Rack", "Ruleset",
    "ScoredPlay", "check_play", "movegen",
]
