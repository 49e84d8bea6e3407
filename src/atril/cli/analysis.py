"""``atril analizar``: a finished game's record, turn by turn, against the best play found."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from tqdm import tqdm

from .. import gcg
from ..analysis import analyse
from ..i18n import N_, _
from ..lexicon import Lexicon
from ..ruleset import Ruleset
from . import echo_json, main, option
from .core import lexicon_option


@main.command(name="analizar",
              help=N_("Analiza una partida GCG: por turno, la jugada hecha y la mejor "
                      "encontrada, la equidad y la probabilidad de ganar perdidas y los "
                      "scrabbles que se escaparon."))
@click.argument("path", metavar=N_("PARTIDA.gcg"), type=click.Path(exists=True, dir_okay=False))
@option("--tiempo", "seconds", type=click.FloatRange(min=0), default=1.0, show_default=True,
        metavar=N_("S"), help=N_("Segundos de simulación por turno (0: solo equidad estática)."))
@option("--ruleset", default=None, type=click.Choice(Ruleset.names(), case_sensitive=False),
        help=N_("Reglamento de la partida (por defecto FISE2009)."))
@option("--semilla", "seed", default="0", metavar=N_("SEMILLA"),
        help=N_("Semilla de la simulación."))
@lexicon_option
@option("--json", "as_json", is_flag=True, help=N_("El análisis en un objeto JSON."))
def analizar(path, seconds, ruleset, seed, lexicon_spec, as_json) -> None:
    lexicon = Lexicon.load(lexicon_spec or Ruleset.get(ruleset).lexicon)
    game = gcg.loads(Path(path).read_bytes(), ruleset=ruleset, lexicon=lexicon)
    bar = tqdm(total=len(game.history), unit=_("turno"), file=sys.stderr, disable=None,
               leave=False)

    def step(done: int, total: int) -> None:
        bar.update(done - bar.n)

    try:
        report = analyse(game, lexicon, seconds=seconds, seed=seed, on_turn=step)
    finally:
        bar.close()
    if as_json:
        echo_json(report.to_dict())
        return
    for t in report.turns:
        name = report.players[t.player]
        line = (f"{t.n:>3}. {name[:12]:<12} {t.rack:<10} {t.played.notation:<22} "
                f"{t.played.score:>4}")
        if t.best.notation != t.played.notation:
            line += "   " + _("mejor: {move} {score} (−{equity} eq., −{win} % de ganar)").format(
                move=t.best.notation, score=t.best.score, equity=f"{t.equity_lost:.1f}",
                win=f"{100 * t.win_lost:.1f}")
        click.echo(line)
        if t.missed_scrabbles:
            click.echo("     " + _("scrabbles posibles: {moves}").format(moves=", ".join(
                f"{s['notation']} {s['score']}" for s in t.missed_scrabbles)))
    if report.final is not None:
        click.echo(_("final: {a} – {b}").format(a=report.final[0], b=report.final[1]))
