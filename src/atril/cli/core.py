"""``atril check``, ``atril score``, ``atril show``: the core commands."""

from __future__ import annotations

import sys

import click

from .. import tiles as T
from ..board import square_name
from ..errors import IllegalMoveError
from ..i18n import N_, _
from ..lexicon import Lexicon
from ..move import Move
from ..position import Position
from ..rules import check_play, leave_after, verdict
from . import argument, echo_json, main, option

lexicon_option = option(
    "--lexicon", "lexicon_spec", default=None, metavar=N_("ID|RUTA"),
    help=N_("Léxico: ES09 o ES09-RAW (incluidos), una lista instalada (atril lexicon list) o "
            "un fichero .txt/.txt.gz de palabras."))
json_option = option("--json", "as_json", is_flag=True, help=N_("Salida en JSON."))
workers_option = option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
                        metavar=N_("N"),
                        help=N_("Procesos en paralelo (p. ej. tantos como núcleos); el "
                                "resultado es el mismo que con uno."))
cluster_option = option("--cluster", "address", default=None, metavar=N_("DIRECCIÓN"),
                        help=N_("Reparte el trabajo en un clúster Dask (tcp://máquina:8786, o "
                                "«local»); requiere atril[cluster]."))


@main.command(help=N_("Dice si cada PALABRA es válida (sale con 0 si todas lo son, 1 si no)."))
@lexicon_option
@option("--judge", is_flag=True,
        help=N_("Responde solo «jugada correcta» o «jugada no válida» (art. 40)."))
@json_option
@argument("words", nargs=-1, required=True, metavar=N_("PALABRA..."))
def check(lexicon_spec: str | None, judge: bool, as_json: bool, words: tuple[str, ...]) -> None:
    lexicon = Lexicon.load(lexicon_spec or "ES09")
    results = []
    for word in words:
        try:
            valid = T.tokenize_word(word) in lexicon
        except ValueError:
            valid = False
        results.append({"word": word, "valid": valid})
    all_valid = all(r["valid"] for r in results)
    if judge:
        said = verdict(all_valid)
        if as_json:
            echo_json({"verdict": said, "valid": all_valid, "lexicon": lexicon.id})
        else:
            click.echo(said)
    elif as_json:
        echo_json({"words": results, "lexicon": lexicon.id})
    else:
        for r in results:
            click.echo(f"{r['word']}: " + (_("válida") if r["valid"] else _("no válida")))
    sys.exit(0 if all_valid else 1)


cgp_option = option("--cgp", "cgp_text", required=True, metavar=N_("CGP"),
                    help=N_("La posición en formato CGP."))


@main.command(help=N_("Valida y puntúa una jugada sobre una posición.\n\nSale con 2 si la "
                      "colocación es ilegal (con la regla y su artículo) y con 1 si alguna "
                      "palabra formada no está en el léxico."))
@cgp_option
@option("--move", "move_text", required=True, metavar=N_("JUGADA"),
        help=N_("La jugada: «H8 CASA», «8H CASA»."))
@lexicon_option
@json_option
def score(cgp_text: str, move_text: str, lexicon_spec: str | None, as_json: bool) -> None:
    position = Position(cgp_text)
    move = Move(move_text)
    if not move.is_play:
        raise IllegalMoveError(_("solo se puntúan jugadas con fichas; cambio y paso valen 0"),
                               "25")
    play = check_play(position.board, move)
    if position.rack:
        leave_after(position.rack, play.placed_tiles())
    lexicon = Lexicon.load(lexicon_spec or position.lexicon)
    words = [{"word": w.text, "score": w.score, "valid": lexicon.is_word(w.tiles)}
             for w in play.words]
    valid = all(w["valid"] for w in words)
    if as_json:
        echo_json({
            "move": play.move.notation(position.board), "score": play.score, "bingo": play.bingo,
            "words": [{"word": w["word"], "score": w["score"]} for w in words],
            "placed": [[square_name(sq), T.tile_to_machine(t)] for sq, t in play.placed],
            "valid": valid, "lexicon": lexicon.id,
        })
    else:
        click.echo(_("{move}: {score} puntos").format(
            move=play.move.notation(position.board), score=play.score)
            + (" " + _("(¡scrabble! +50)") if play.bingo else ""))
        for w in words:
            mark = "" if w["valid"] else "   " + _("(no está en el léxico)")
            click.echo(f"  {w['word']:<15} {w['score']:>4}{mark}")
    sys.exit(0 if valid else 1)


@main.command(help=N_("Muestra el tablero y los atriles de una posición."))
@cgp_option
@json_option
def show(cgp_text: str, as_json: bool) -> None:
    position = Position(cgp_text)
    if as_json:
        echo_json({
            "cgp": position.cgp(),
            "board": [[T.tile_to_machine(position.board[r * 15 + c]) if position.board[r * 15 + c]
                       else None for c in range(15)] for r in range(15)],
            "racks": [T.to_machine(r) for r in position.racks],
            "scores": list(position.scores),
            "unseen": sum(position.unseen()),
        })
    else:
        click.echo(position.render())
