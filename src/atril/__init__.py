"""atril: Spanish Scrabble by the FISE/FILE rules."""

from .board import Board
from .errors import (AtrilError, IllegalMoveError, InvalidMoveError, InvalidPositionError,
                     InvalidTextError, LexiconError)
from .move import Move
from .position import Position
from .rack import Rack
from .rules import ScoredPlay, check_play

__version__ = "0.1.0"

__all__ = [
    "AtrilError", "Board", "IllegalMoveError", "InvalidMoveError", "InvalidPositionError",
    "InvalidTextError", "LexiconError", "Move", "Position", "Rack", "ScoredPlay", "check_play",
]
