"""Placement (art. 2, 6, 8, 9, 21) and scoring (art. 12–19) of a play on a board.

Word validity is a separate question, asked of a lexicon: ``check_play`` only says whether the
tiles may lie there and what the play scores.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass

from . import tiles as T
from .board import CENTER, LETTER_MULTIPLIER, SIZE, WORD_MULTIPLIER, Board, square_name
from .errors import IllegalMoveError
from .i18n import _
from .move import PLAY, THROUGH, Move
from .rack import format_rack

BINGO_BONUS = 50  # art. 19


def verdict(valid: bool) -> str:
    """The only answers a challenge or the word judge gives (art. 40), never which word failed:
    «jugada correcta» or «jugada no válida» (an English catalog keeps the Spanish words)."""
    return _("jugada correcta") if valid else _("jugada no válida")


@dataclass(frozen=True)
class Word:
    """A word formed by a play, with the points it scores this turn (art. 18)."""

    tiles: tuple[int, ...]
    start: int  # square
    across: bool
    score: int

    @property
    def text(self) -> str:
        return T.to_human(self.tiles)

    def __str__(self) -> str:
        return f"{self.text} {self.score}"


@dataclass(frozen=True)
class ScoredPlay:
    """A legal placement: the play with every tile known, the new tiles, the words and score."""

    move: Move
    placed: tuple[tuple[int, int], ...]  # (square, tile) of newly placed tiles
    words: tuple[Word, ...]  # main word first, then cross-words in reading order
    score: int

    @property
    def bingo(self) -> bool:
        """A scrabble: all seven rack tiles played in one turn (art. 19)."""
        return len(self.placed) == T.RACK_SIZE

    def placed_tiles(self) -> tuple[int, ...]:
        """The rack tiles the play uses (a blank as ``BLANK``)."""
        return tuple(T.BLANK if t & T.BLANK_BIT else t for _, t in self.placed)


def check_play(board: Board, move: Move) -> ScoredPlay:
    """Validate where a play's tiles go and score it; raise IllegalMoveError naming the article."""
    if move.kind != PLAY:
        raise IllegalMoveError(_("solo una jugada con fichas se coloca en el tablero"), "8")
    cross_step = SIZE if move.across else 1
    squares = list(move.squares())
    word: list[int] = []
    placed: list[tuple[int, int]] = []
    for sq, t in zip(squares, move.tiles):
        on_board = board[sq]
        if on_board:
            if t != THROUGH and T.letter_of(t) != T.letter_of(on_board):
                raise IllegalMoveError(
                    _("en {square} ya hay {there}, no {typed}").format(
                        square=square_name(sq), there=T.tile_to_human(on_board),
                        typed=T.tile_to_human(t)), "8")
            if t != THROUGH and (t & T.BLANK_BIT) != (on_board & T.BLANK_BIT):
                raise IllegalMoveError(
                    _("en {square} la ficha es {there}").format(
                        square=square_name(sq), there=T.tile_to_human(on_board)), "8")
            word.append(on_board)
        else:
            if t == THROUGH:
                raise IllegalMoveError(
                    _("{square} está vacía: «.» solo vale para fichas ya colocadas").format(
                        square=square_name(sq)), "8")
            word.append(t)
            placed.append((sq, t))
    if not placed:
        raise IllegalMoveError(_("la jugada no coloca ninguna ficha nueva"), "8")
    # The word must be complete: no tile right before or after it on the line (art. 8).
    before_r, before_c = (move.row, move.col - 1) if move.across else (move.row - 1, move.col)
    last = squares[-1]
    after_r, after_c = ((last // SIZE, last % SIZE + 1) if move.across
                        else (last // SIZE + 1, last % SIZE))
    if board.at(before_r, before_c) or board.at(after_r, after_c):
        raise IllegalMoveError(
            _("la palabra no está completa: sigue en fichas ya colocadas en la misma línea"), "8")
    if len(word) < 2:
        # One new tile: the word it forms may run the other way (art. 2).
        cross = _cross_word(board, placed[0][0], placed[0][1], cross_step)
        if cross is None:
            raise IllegalMoveError(_("una palabra tiene dos o más letras"), "2")
        start = cross[1][0]
        return check_play(board, Move.play(start // SIZE, start % SIZE, not move.across, cross[0]))
    first_move = board.is_empty()
    if first_move:
        if CENTER not in squares:
            raise IllegalMoveError(_("la primera jugada debe ocupar la casilla central H8"), "6")
    else:
        touches = len(placed) < len(word) or any(
            board[n] for sq, _ in placed for n in _neighbours(sq, cross_step) if n is not None)
        if not touches:
            raise IllegalMoveError(_("la jugada debe enlazar con las fichas del tablero"), "9")

    words: list[Word] = []
    main_score = _score_line(word, squares, {sq for sq, _ in placed})
    words.append(Word(tuple(word), squares[0], move.across, main_score))
    for sq, t in placed:
        cross = _cross_word(board, sq, t, cross_step)
        if cross is not None:
            cross_tiles, cross_squares = cross
            words.append(Word(cross_tiles, cross_squares[0], not move.across,
                              _score_line(cross_tiles, cross_squares, {sq})))
    total = sum(w.score for w in words)
    if len(placed) == T.RACK_SIZE:
        total += BINGO_BONUS
    resolved = Move.play(move.row, move.col, move.across, tuple(word))
    return ScoredPlay(resolved, tuple(placed), tuple(words), total)


def _score_line(word: Sequence[int], squares: Sequence[int], new_squares: Container[int]) -> int:
    """Letter premiums first, then word premiums, only under new tiles (art. 13–17)."""
    total, word_mult = 0, 1
    for sq, t in zip(squares, word):
        v = T.value(t)
        if sq in new_squares:
            v *= LETTER_MULTIPLIER[sq]
            word_mult *= WORD_MULTIPLIER[sq]
        total += v
    return total * word_mult


def _neighbours(sq: int, step: int) -> tuple[int | None, int | None]:
    """Squares before and after ``sq`` along a line with ``step`` (1 = across, 15 = down)."""
    row, col = divmod(sq, SIZE)
    if step == 1:
        return (sq - 1 if col > 0 else None), (sq + 1 if col < SIZE - 1 else None)
    return (sq - SIZE if row > 0 else None), (sq + SIZE if row < SIZE - 1 else None)


def _cross_word(board: Board, sq: int, tile: int, step: int
                ) -> tuple[tuple[int, ...], list[int]] | None:
    """The perpendicular word through a newly placed tile, or None if it stands alone."""
    start = sq
    while True:
        prev, _next = _neighbours(start, step)
        if prev is None or not board[prev]:
            break
        start = prev
    squares: list[int] = []
    tiles_: list[int] = []
    cur: int | None = start
    while cur is not None and (cur == sq or board[cur]):
        squares.append(cur)
        tiles_.append(tile if cur == sq else board[cur])
        _prev, cur = _neighbours(cur, step)
    if len(squares) < 2:
        return None
    return tuple(tiles_), squares


def leave_after(rack: Sequence[int], used: Iterable[int], article: str = "8") -> tuple[int, ...]:
    """The rack left after using ``used`` (blanks as ``BLANK``); an error naming every missing
    tile if the rack does not hold them: art. 8 for a play (the tiles played are the player's
    own), the caller's article otherwise (art. 25 for an exchange)."""
    used = tuple(used)
    missing = Counter(used) - Counter(rack)
    if missing:
        raise IllegalMoveError(
            _("no tienes en el atril {missing} (atril: {rack})").format(
                missing=format_rack(missing.elements()), rack=format_rack(rack) or _("vacío")),
            article)
    left = list(rack)
    for t in used:
        left.remove(t)
    return tuple(left)


def apply_play(board: Board, play: ScoredPlay) -> None:
    """Put a checked play's new tiles on the board."""
    for sq, t in play.placed:
        board[sq] = t
