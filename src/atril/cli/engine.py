"""``atril moves``: every legal move of a position, best first."""

from __future__ import annotations

import click

from .. import tiles as T
from ..board import square_name
from ..errors import InvalidPositionError
from ..lexicon import Lexicon
from ..movegen import generate
from ..position import Position
from . import echo_json, main
from .core import lexicon_option


def candidate_json(candidate) -> dict:
    """A move as ``atril moves --json`` and ``atril selfplay --json`` write it."""
    return {
        "notation": candidate.move.notation(),
        "score": candidate.score,
        "placed": [[square_name(sq), T.tile_to_machine(t)] for sq, t in candidate.placed],
        "leave": T.to_machine(candidate.leave),
    }


@main.command()
@click.option("--cgp", "cgp_text", help="La posición en formato CGP.")
@click.option("--cgp-file", type=click.File("r", encoding="utf-8"),
              help="Un fichero con una posición CGP por línea.")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="Cuántas jugadas mostrar.")
@click.option("--all", "show_all", is_flag=True, help="Todas las jugadas legales.")
@click.option("--exchanges", is_flag=True, help="Incluye los cambios y el paso.")
@lexicon_option
@click.option("--json", "as_json", is_flag=True, help="Un objeto JSON por posición.")
def moves(cgp_text, cgp_file, top, show_all, exchanges, lexicon_spec, as_json) -> None:
    """Todas las jugadas legales de una posición, de mayor a menor puntuación."""
    if bool(cgp_text) == bool(cgp_file):
        raise InvalidPositionError("indica una posición con --cgp o un fichero con --cgp-file")
    lines = [cgp_text] if cgp_text else [line for line in cgp_file if line.strip()]
    for number, line in enumerate(lines, start=1):
        try:
            position = Position(line.strip())
        except InvalidPositionError as exc:
            where = f"línea {number}: " if cgp_file else ""
            raise InvalidPositionError(f"{where}{exc}") from None
        lexicon = Lexicon.load(lexicon_spec or position.lexicon)
        found = generate(position.board, position.rack, lexicon, exchanges=exchanges,
                         bag_count=position.bag_count())
        shown = found if show_all else found[:top]
        if as_json:
            echo_json({"moves": [candidate_json(c) for c in shown]})
            continue
        if len(lines) > 1:
            click.echo(f"# {line.strip()}")
        click.echo(f"{len(found)} jugadas legales")
        for rank, c in enumerate(shown, start=1):
            leave = T.to_human(c.leave) or "—"
            click.echo(f"{rank:>4}. {c.move.notation(position.board):<24} {c.score:>4}   "
                       f"queda: {leave}")
