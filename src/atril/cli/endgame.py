"""``atril final``: the exact endgame of a position whose bag is empty (``atril.endgame``)."""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from .. import endgame as E
from ..i18n import N_, _, ngettext
from ..lexicon import Lexicon
from ..position import Position
from ..ruleset import Ruleset
from . import echo_json, main, option
from .core import lexicon_option
from .engine import play_json
from .game import ruleset_option


@main.command(help=N_("El final exacto: con la bolsa vacía y los dos atriles conocidos, la "
                      "mejor jugada, la diferencia final con juego perfecto y la línea que lleva "
                      "a ella."))
@option("--cgp", "cgp_text", required=True, metavar=N_("CGP"),
        help=N_("La posición en formato CGP, con los dos atriles (primero el del jugador al "
                "turno) y la bolsa vacía."))
@ruleset_option
@option("--tiempo", "seconds", type=click.FloatRange(min=0, min_open=True), default=None,
        metavar=N_("S"), help=N_("Segundos como máximo: si no basta, la mejor jugada hallada "
                                 "(no exacta). Sin límite, Ctrl-C para la búsqueda y da lo "
                                 "mismo."))
@lexicon_option
@option("--json", "as_json", is_flag=True, help=N_("Salida en JSON."))
def final(cgp_text: str, ruleset: str | None, seconds: float | None, lexicon_spec: str | None,
          as_json: bool) -> None:
    position = Position(cgp_text.strip())
    rules = Ruleset.get(ruleset)
    lexicon = Lexicon.load(lexicon_spec or position.lexicon)
    # on a terminal, the positions searched and the last depth's answer as the search goes
    bar = tqdm(unit=" " + _("pos."), unit_scale=True, file=sys.stderr, disable=None,
               leave=False)

    def progress(nodes: int, depth: int, spread: int) -> None:
        bar.update(nodes - bar.n)
        if depth:
            bar.set_postfix_str(ngettext("a {depth} turno: {spread:+d}",
                                         "a {depth} turnos: {spread:+d}", depth).format(
                depth=depth, spread=spread))

    try:
        solution = E.solve(position, lexicon, ruleset=rules, seconds=seconds,
                           progress=None if bar.disable else progress)
        interrupted = False
    except E.SearchInterrupted as stop:  # Ctrl-C: what was found, then the usual exit code
        solution, interrupted = stop.solution, True
    finally:
        bar.close()
    show(solution, position, as_json)
    if interrupted:
        raise SystemExit(130)


def show(solution: E.Solution, position: Position, as_json: bool) -> None:
    """The answer, as JSON (the issue's contract) or as text."""
    if as_json:
        echo_json({"best": play_json(solution.best), "spread": solution.spread,
                   "pv": [c.move.notation() for c in solution.pv], "exact": solution.exact,
                   "nodes": solution.nodes})
        return
    click.echo(_("Mejor jugada: {move} ({score})").format(
        move=solution.best.move.notation(position.board), score=solution.best.score))
    click.echo(_("Diferencia final: {spread:+d}").format(spread=solution.spread))
    click.echo(_("Línea: {line}").format(line=", ".join(c.move.notation() for c in solution.pv)))
    if not solution.exact:
        click.echo(_("(búsqueda interrumpida: el resultado no es exacto)"))
