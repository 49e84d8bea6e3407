"""``atril moves``: every legal move of a position, best first."""

from __future__ import annotations

import click

from .. import tiles as T
from ..board import square_name
from ..errors import InvalidPositionError
from ..i18n import N_, _, ngettext
from ..lexicon import Lexicon
from ..movegen import generate
from ..position import Position
from . import echo_json, main, option
from .core import lexicon_option


def play_json(play) -> dict:
    """A play (a ``Candidate`` or a ``ScoredPlay``) as ``atril moves --json`` writes it: the
    whole word's notation, the score and each tile placed (``[["H8", "[CH]"], …]``)."""
    return {
        "notation": play.move.notation(),
        "score": play.score,
        "placed": [[square_name(sq), T.tile_to_machine(t)] for sq, t in play.placed],
    }


def candidate_json(candidate) -> dict:
    """A move as ``atril moves --json`` and ``atril selfplay --json`` write it."""
    return {**play_json(candidate), "leave": T.to_machine(candidate.leave)}


@main.command(help=N_("Todas las jugadas legales de una posición, de mayor a menor puntuación."))
@option("--cgp", "cgp_text", metavar=N_("CGP"), help=N_("La posición en formato CGP."))
@option("--cgp-file", type=click.File("r", encoding="utf-8"), metavar=N_("FICHERO"),
        help=N_("Un fichero con una posición CGP por línea."))
@option("--top", type=click.IntRange(min=1), default=10, show_default=True, metavar=N_("N"),
        help=N_("Cuántas jugadas mostrar."))
@option("--all", "show_all", is_flag=True, help=N_("Todas las jugadas legales."))
@option("--exchanges", is_flag=True, help=N_("Incluye los cambios y el paso."))
@lexicon_option
@option("--json", "as_json", is_flag=True, help=N_("Un objeto JSON por posición."))
def moves(cgp_text, cgp_file, top, show_all, exchanges, lexicon_spec, as_json) -> None:
    if bool(cgp_text) == bool(cgp_file):
        raise InvalidPositionError(_("indica una posición con --cgp o un fichero con --cgp-file"))
    lines = [cgp_text] if cgp_text else [line for line in cgp_file if line.strip()]
    for number, line in enumerate(lines, start=1):
        try:
            position = Position(line.strip())
        except InvalidPositionError as exc:
            if not cgp_file:
                raise
            raise InvalidPositionError(_("línea {line}: {error}").format(
                line=number, error=exc)) from None
        lexicon = Lexicon.load(lexicon_spec or position.lexicon)
        found = generate(position.board, position.rack, lexicon, exchanges=exchanges,
                         bag_count=position.bag_count())
        shown = found if show_all else found[:top]
        if as_json:
            echo_json({"moves": [candidate_json(c) for c in shown], "lexicon": lexicon.id})
            continue
        if len(lines) > 1:
            click.echo(f"# {line.strip()}")
        click.echo(ngettext("{count} jugada legal", "{count} jugadas legales", len(found))
                   .format(count=len(found)))
        for rank, c in enumerate(shown, start=1):
            leave = _("queda: {tiles}").format(tiles=T.to_human(c.leave) or "—")
            click.echo(f"{rank:>4}. {c.move.notation(position.board):<24} {c.score:>4}   {leave}")
