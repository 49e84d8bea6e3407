"""``atril analizar``: a finished game's record, turn by turn, against the best play found."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click
from tqdm import tqdm

from .. import gcg, parallel
from ..analysis import Analysis, TurnAnalysis, analyse_turn, report
from ..errors import AtrilError
from ..game import Game
from ..i18n import N_, _
from ..lexicon import Lexicon
from ..ruleset import Ruleset
from . import echo_json, fail, main, option
from .core import cluster_option, lexicon_option, workers_option


@functools.cache
def _game(data: bytes, ruleset: str | None, spec: str) -> tuple[Game, Lexicon]:
    """A game record and its lexicon, read once per process (a worker gets many turns)."""
    lexicon = Lexicon.load(spec)
    return gcg.loads(data, ruleset=ruleset, lexicon=lexicon), lexicon


def analyse_task(task: tuple) -> tuple[int, int, TurnAnalysis]:
    """One turn of one game (a task of ``atril.parallel``): ``(game index, turn, analysis)``.
    The task carries the record's bytes and the lexicon's id or path, not the objects."""
    index, data, ruleset, spec, n, seconds, seed = task
    game, lexicon = _game(data, ruleset, spec)
    return index, n, analyse_turn(game, n, lexicon, seconds=seconds, seed=seed)


@main.command(name="analizar",
              help=N_("Analiza partidas GCG: por turno, la jugada hecha y la mejor "
                      "encontrada, la equidad y la probabilidad de ganar perdidas y los "
                      "scrabbles que se escaparon."))
@click.argument("paths", metavar=N_("PARTIDA.gcg..."), nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False))
@option("--tiempo", "seconds", type=click.FloatRange(min=0), default=1.0, show_default=True,
        metavar=N_("S"), help=N_("Segundos de simulación por turno (0: solo equidad estática)."))
@option("--ruleset", default=None, type=click.Choice(Ruleset.names(), case_sensitive=False),
        help=N_("Reglamento de la partida (por defecto FISE2009)."))
@option("--semilla", "seed", default="0", metavar=N_("SEMILLA"),
        help=N_("Semilla de la simulación."))
@lexicon_option
@workers_option
@cluster_option
@option("--json", "as_json", is_flag=True,
        help=N_("El análisis en un objeto JSON (una línea por partida)."))
def analizar(paths, seconds, ruleset, seed, lexicon_spec, workers, address, as_json) -> None:
    spec = lexicon_spec or Ruleset.get(ruleset).lexicon
    records = [Path(p).read_bytes() for p in paths]
    games = [_game(data, ruleset, spec)[0] for data in records]  # every file read first
    tasks = [(i, data, ruleset, spec, n, seconds, seed)
             for i, (data, game) in enumerate(zip(records, games))
             for n in range(len(game.history))]
    turns: list[dict[int, TurnAnalysis]] = [{} for _ in games]
    bar = tqdm(total=len(tasks), unit=_("turno"), file=sys.stderr, disable=None, leave=False)
    try:
        for i, n, turn in parallel.map_unordered(analyse_task, tasks, workers=workers,
                                                 address=address):
            turns[i][n] = turn
            bar.update(1)
    except AtrilError as exc:
        fail(exc, json_output=as_json)
    finally:
        bar.close()
    lexicon = _game(records[0], ruleset, spec)[1]
    for k, (path, game) in enumerate(zip(paths, games)):
        analysis = report(game, lexicon, seconds, [turns[k][n] for n in sorted(turns[k])])
        if as_json:
            echo_json(analysis.to_dict())
            continue
        if len(paths) > 1:
            click.echo(("" if k == 0 else "\n") + f"== {path} ==")
        _print(analysis)


def _print(analysis: Analysis) -> None:
    """The analysis as text: one line per turn, the best play where another was made."""
    for t in analysis.turns:
        name = analysis.players[t.player]
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
    if analysis.final is not None:
        click.echo(_("final: {a} – {b}").format(a=analysis.final[0], b=analysis.final[1]))
