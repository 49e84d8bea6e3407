"""A position: what a CGP line holds — board, racks, scores, zero-turn count and options."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import tiles as T
from .bag import unseen
from .board import Board
from .errors import InvalidPositionError
from .i18n import _
from .rack import Rack

DEFAULT_LEXICON = "ES09"


@dataclass
class Position:
    """Board, both racks (player to move first; an unknown rack is empty), scores, the number
    of consecutive scoreless turns, and CGP operations such as ``lex``.

    Prints as the code that makes it: ``Position('<cgp>')``.
    """

    board: Board = field(default_factory=Board)
    racks: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    scores: tuple[int, int] = (0, 0)
    zero_turns: int = 0
    ops: dict[str, str] = field(default_factory=dict)

    def __init__(self, cgp: str | None = None, *, board: Board | None = None,
                 racks=((), ()), scores=(0, 0), zero_turns: int = 0,
                 ops: dict[str, str] | None = None):
        if cgp is not None:
            from .cgp import loads
            other = loads(cgp)
            board, racks, scores, zero_turns, ops = (
                other.board, other.racks, other.scores, other.zero_turns, other.ops)
        self.board = board if board is not None else Board()
        self.racks = (tuple(racks[0]), tuple(racks[1]))
        self.scores = (int(scores[0]), int(scores[1]))
        self.zero_turns = int(zero_turns)
        self.ops = dict(ops or {})
        self.validate()

    @property
    def rack(self) -> tuple[int, ...]:
        """The rack of the player to move."""
        return self.racks[0]

    @property
    def lexicon(self) -> str:
        return self.ops.get("lex", DEFAULT_LEXICON)

    def validate(self) -> None:
        """Any arrangement is allowed (positions come from books), but never more tiles of a
        kind than the set holds (art. 3), nor a rack of more than 7 tiles."""
        for i, rack in enumerate(self.racks):
            if len(rack) > T.RACK_SIZE:
                raise InvalidPositionError(
                    _("el atril {rack} tiene {tiles} fichas; como mucho 7 (art. 6)").format(
                        rack=i + 1, tiles=len(rack)))
            for t in rack:
                if not 0 <= t <= T.NUM_LETTERS:
                    raise InvalidPositionError(_("ficha desconocida en el atril {rack}: {tile}")
                                               .format(rack=i + 1, tile=repr(t)))
        for t in self.board.squares:
            if t and not 1 <= T.letter_of(t) <= T.NUM_LETTERS:
                raise InvalidPositionError(
                    _("ficha desconocida en el tablero: {tile}").format(tile=repr(t)))
        used = self.board.usage()
        for rack in self.racks:
            for t in rack:
                used[t] += 1
        for code_, n in enumerate(used):
            if n > T.COUNTS[code_]:
                raise InvalidPositionError(T.too_many(code_, n))

    def unseen(self) -> list[int]:
        """Tiles the player to move cannot see: bag plus the opponent's rack (counts per code)."""
        return unseen(self.board, self.racks[0])

    def bag_count(self) -> int:
        """Tiles in the bag. With the opponent's rack unknown (empty in the CGP), they are
        taken to hold a full rack, as far as the unseen tiles allow."""
        unseen = sum(self.unseen())
        held = len(self.racks[1]) if self.racks[1] else min(T.RACK_SIZE, unseen)
        return unseen - held

    def cgp(self) -> str:
        from .cgp import dumps
        return dumps(self)

    def __str__(self) -> str:
        return self.cgp()

    def __repr__(self) -> str:
        return f"Position('{self.cgp()}')"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.cgp() == other.cgp()

    def copy(self) -> Position:
        return Position(board=self.board.copy(), racks=self.racks, scores=self.scores,
                        zero_turns=self.zero_turns, ops=self.ops)

    def render(self) -> str:
        """Board, racks and scores as a person reads them."""
        lines = [self.board.render()]
        for i, (rack, score) in enumerate(zip(self.racks, self.scores)):
            line = (_("Jugador {number} (al turno): {score} puntos   atril: {rack}") if i == 0
                    else _("Jugador {number} (rival): {score} puntos   atril: {rack}"))
            lines.append(line.format(number=i + 1, score=f"{score:>4}",
                                     rack=Rack(rack).human() or "—"))
        lines.append(_("Fichas en la bolsa: {bag}   por ver (bolsa y atril rival): {unseen}   "
                       "léxico: {lexicon}").format(bag=self.bag_count(), unseen=sum(self.unseen()),
                                                   lexicon=self.lexicon))
        return "\n".join(lines)
