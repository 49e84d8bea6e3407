"""``atril duplicada``: a duplicate game without players, the master move of each round
(``--json``: one line a round, then the end), and ``atril duplicada practicar``, a game alone
against the master move with the round's timer (docs/DUPLICATE.md)."""

from __future__ import annotations

import sys

import click

from .. import tiles as T
from ..duplicate import Duplicate
from ..i18n import LANGUAGES, N_
from ..lexicon import Lexicon, notice
from ..ruleset import Ruleset
from . import Group, echo_json, main, option
from .core import json_option, lexicon_option
from .engine import play_json
from .game import ruleset_option

seed_option = option("--semilla", "seed", default=None, metavar=N_("SEMILLA"),
                     help=N_("Semilla de la bolsa (partida reproducible)."))
rounds_option = option("--rondas", "rounds", type=click.IntRange(min=1), default=None,
                       metavar=N_("N"),
                       help=N_("Número de rondas; sin él, hasta que la bolsa no pueda formar "
                               "un atril válido (bolsa completa)."))
keep_option = option("--conservar-resto", "keep_leave", is_flag=True,
                     help=N_("Si un atril no cumple la regla de vocales y consonantes, vuelven "
                             "a la bolsa solo las fichas nuevas (sin esto vuelve todo, también "
                             "las que quedaban de la ronda anterior)."))


def _lexicon(ruleset: str | None, spec: str | None) -> Lexicon:
    """The lexicon asked for, else the ruleset's; saying so when its text names another."""
    lexicon = Lexicon.load(spec or Ruleset.get(ruleset).lexicon)
    said = notice(ruleset, lexicon.id)
    if said:
        click.echo(said, err=True)
    return lexicon


@main.group("duplicada", cls=Group, invoke_without_command=True,
            subcommand_metavar=N_("[ORDEN [ARGUMENTOS]...]"),
            help=N_("Duplicada: el mismo tablero y el mismo atril para todos, contra la jugada "
                    "maestra. Sin orden, juega la partida sin jugadores y da la jugada maestra "
                    "de cada ronda (con --json, una línea por ronda y una al final)."))
@seed_option
@rounds_option
@keep_option
@ruleset_option
@lexicon_option
@json_option
@click.pass_context
def duplicada(ctx: click.Context, seed: str | None, rounds: int | None, keep_leave: bool,
              ruleset: str | None, lexicon_spec: str | None, as_json: bool) -> None:
    if ctx.invoked_subcommand is not None:
        return
    game = Duplicate(seed=seed, lexicon=_lexicon(ruleset, lexicon_spec), rounds=rounds,
                     keep_leave=keep_leave)
    while (rnd := game.start_round()) is not None:
        game.close_round()
        if as_json:
            echo_json({"round": rnd.number, "rack": [T.tile_to_machine(t) for t in rnd.rack],
                       "redrawn": rnd.redraws > 0, "master": play_json(rnd.master)})
    if as_json:
        echo_json({"end": game.end, "total": game.master_total()})
    else:
        click.echo(game.board.render(premiums=False))
        click.echo(game.to_text())


@duplicada.command("practicar",
                   help=N_("Duplicada en solitario contra la jugada maestra, con reloj: en cada "
                           "ronda escribe la mejor jugada que encuentres antes de que acabe el "
                           "tiempo."))
@option("--segundos", "seconds", type=click.IntRange(min=1), default=180, show_default=True,
        metavar=N_("S"), help=N_("Tiempo de cada ronda, en segundos."))
@seed_option
@rounds_option
@keep_option
@ruleset_option
@lexicon_option
@option("--lang", type=click.Choice(LANGUAGES), default=None,
        help=N_("Idioma de los mensajes (como atril --lang)."))
@option("--guardar", "save_path", default=None, metavar=N_("FICHERO.json"),
        help=N_("Guarda la partida en JSON al terminar o al salir."))
def practicar(seconds: int, seed: str | None, rounds: int | None, keep_leave: bool,
              ruleset: str | None, lexicon_spec: str | None, lang: str | None,
              save_path: str | None) -> None:
    from ..duplicate.practice import run
    run(sys.stdin, sys.stdout, seconds=seconds, seed=seed, rounds=rounds,
        keep_leave=keep_leave, lexicon=_lexicon(ruleset, lexicon_spec), lang=lang,
        save=save_path)
