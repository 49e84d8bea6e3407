"""CGP, the one-line position format of woogles-io/open-protocols (docs/FORMATS.md §4).

``<board> <rack1>/<rack2> <score1>/<score2> <zero turns> [op operands; ...]``
"""

from __future__ import annotations

import re

from . import tiles as T
from .board import Board
from .errors import InvalidPositionError, InvalidTextError
from .i18n import _
from .position import DEFAULT_LEXICON, Position
from .rack import format_rack


def loads(text: str) -> Position:
    """Read a CGP line; every error says which part is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidPositionError(_("CGP vacío: se espera «tablero atriles puntos ceros [ops]»"))
    head, _space, ops_text = text.strip().partition(" ")
    fields = [head] + ops_text.split(maxsplit=3)
    if len(fields) < 4:
        raise InvalidPositionError(
            _("CGP incompleto: se esperan tablero, atriles (A/B), puntuaciones (N/M) y número de "
              "turnos sin puntos"))
    board = Board(fields[0])
    racks = _racks(fields[1])
    scores = _scores(fields[2])
    try:
        zero_turns = int(fields[3])
        if zero_turns < 0:
            raise ValueError
    except ValueError:
        raise InvalidPositionError(
            _("CGP: «{text}» no es un número de turnos sin puntos").format(text=fields[3])
        ) from None
    ops = _ops(fields[4] if len(fields) > 4 else "")
    return Position(board=board, racks=racks, scores=scores, zero_turns=zero_turns, ops=ops)


def dumps(position: Position) -> str:
    """Write a CGP line, always with ``lex`` and ``ld`` (Macondo needs both for Spanish)."""
    board = "/".join(position.board.rows_machine())
    racks = "/".join(format_rack(r) for r in position.racks)
    scores = f"{position.scores[0]}/{position.scores[1]}"
    ops = {"lex": DEFAULT_LEXICON, "ld": "spanish"}
    ops.update(position.ops)
    op_text = " ".join(f"{k} {v};" if v else f"{k};" for k, v in ops.items())
    return f"{board} {racks} {scores} {position.zero_turns} {op_text}"


def _racks(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    parts = text.split("/")
    if len(parts) != 2:
        raise InvalidPositionError(
            _("CGP: los atriles se escriben «ATRIL1/ATRIL2», no «{text}»").format(text=text))
    racks = []
    for i, part in enumerate(parts):
        try:
            rack = T.tokenize_machine(part)
        except InvalidTextError as exc:
            raise InvalidPositionError(
                _("CGP: atril {rack}: {error}").format(rack=i + 1, error=exc)) from None
        if any(t & T.BLANK_BIT for t in rack):
            raise InvalidPositionError(
                _("CGP: atril {rack}: las letras van en mayúscula y el comodín es «?»").format(
                    rack=i + 1))
        racks.append(rack)
    return racks[0], racks[1]


def _scores(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(-?\d+)/(-?\d+)", text)
    if not match:
        raise InvalidPositionError(
            _("CGP: las puntuaciones se escriben «N/M», no «{text}»").format(text=text))
    return int(match.group(1)), int(match.group(2))


def _ops(text: str) -> dict[str, str]:
    ops: dict[str, str] = {}
    for chunk in text.split(";"):
        chunk = chunk.strip()
        if not chunk:
            continue
        name, _space, operands = chunk.partition(" ")
        ops[name] = operands.strip()
    return ops
