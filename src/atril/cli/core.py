"""``atril check``, ``atril score``, ``atril show``: the core commands."""

from __future__ import annotations

import sys

import click

from .. import tiles as T
from ..board import square_name
from ..errors import IllegalMoveError
from ..lexicon import Lexicon
from ..move import Move
from ..position import Position
from ..rules import VERDICTS, check_play, leave_after
from . import echo_json, main

lexicon_option = click.option(
    "--lexicon", "lexicon_spec", default=None, metavar="ID|RUTA",
    help="Léxico: ES09 (incluido) o un fichero .txt/.txt.gz de palabras.")


@main.command()
@lexicon_option
@click.option("--judge", is_flag=True,
              help="Responde solo «jugada correcta» o «jugada no válida» (art. 40).")
@click.option("--json", "as_json", is_flag=True, help="Salida en JSON.")
@click.argument("words", nargs=-1, required=True)
def check(lexicon_spec: str | None, judge: bool, as_json: bool, words: tuple[str, ...]) -> None:
    """Dice si cada PALABRA es válida (sale con 0 si todas lo son, 1 si no)."""
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
        verdict = VERDICTS[all_valid]
        if as_json:
            echo_json({"verdict": verdict, "valid": all_valid})
        else:
            click.echo(verdict)
    elif as_json:
        echo_json({"words": results})
    else:
        for r in results:
            click.echo(f"{r['word']}: {'válida' if r['valid'] else 'no válida'}")
    sys.exit(0 if all_valid else 1)


@main.command()
@click.option("--cgp", "cgp_text", required=True, help="La posición en formato CGP.")
@click.option("--move", "move_text", required=True, help="La jugada: «H8 CASA», «8H CASA».")
@lexicon_option
@click.option("--json", "as_json", is_flag=True, help="Salida en JSON.")
def score(cgp_text: str, move_text: str, lexicon_spec: str | None, as_json: bool) -> None:
    """Valida y puntúa una jugada sobre una posición.

    Sale con 2 si la colocación es ilegal (con la regla y su artículo) y con 1 si alguna
    palabra formada no está en el léxico.
    """
    position = Position(cgp_text)
    move = Move(move_text)
    if not move.is_play:
        raise IllegalMoveError("solo se puntúan jugadas con fichas; cambio y paso valen 0", "25")
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
            "valid": valid,
        })
    else:
        click.echo(f"{play.move.notation(position.board)}: {play.score} puntos"
                   + (" (¡scrabble! +50)" if play.bingo else ""))
        for w in words:
            mark = "" if w["valid"] else "   (no está en el léxico)"
            click.echo(f"  {w['word']:<15} {w['score']:>4}{mark}")
    sys.exit(0 if valid else 1)


@main.command()
@click.option("--cgp", "cgp_text", required=True, help="La posición en formato CGP.")
@click.option("--json", "as_json", is_flag=True, help="Salida en JSON.")
def show(cgp_text: str, as_json: bool) -> None:
    """Muestra el tablero y los atriles de una posición."""
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
