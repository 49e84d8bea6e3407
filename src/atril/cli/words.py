"""``atril judge`` (the challenge judge, art. 39–40) and the study searches: ``atril anagram``,
``atril build``, ``atril pattern``, ``atril hooks``, ``atril list``.

Search output as JSON is a list of objects ``{"word", "tiles", "rank"?, "probability"?,
"blanks"?}`` (``word`` in human form: digraphs as ``CH``, blanks lower case).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

import click

from .. import tiles as T
from .. import wordtools as W
from ..errors import InvalidTextError
from ..i18n import N_, _, ngettext
from ..judge import JudgmentLog, split_words
from ..judge import judge as judge_play
from ..lexicon import Lexicon
from . import argument, echo_json, main, option
from .core import json_option, lexicon_option

#: how the searches read a rack, in the help of those that take one.
RACK_HELP = N_("ch, ll y rr se leen como una ficha (como en las palabras); 1 2 3 también son CH "
               "LL RR; para una C y una H sueltas escribe C,H. ? es un comodín (hasta dos).")

limit_option = option("--limit", default=200, show_default=True, type=click.IntRange(min=0),
                      metavar=N_("N"), help=N_("Cuántas palabras mostrar como mucho (0: todas)."))
sort_option = option(
    "--sort", "sort", type=click.Choice(["alfa", "prob"]), default="alfa", show_default=True,
    help=N_("Orden: alfabético por fichas, o por probabilidad dentro de cada longitud."))
no_blanks_option = option(
    "--no-blanks", is_flag=True,
    help=N_("Calcula la probabilidad sin contar los comodines de la bolsa."))


def search_options(command):
    """The options every word search takes: lexicon, JSON, limit, order, blanks."""
    for decorate in (no_blanks_option, sort_option, limit_option, json_option, lexicon_option):
        command = decorate(command)
    return command




def _lexicon(spec: str | None) -> Lexicon:
    return Lexicon.load(spec or "ES09")


def _ordered(found: list[W.Found], sort: str, no_blanks: bool) -> list[W.Found]:
    return W.by_probability(found, blanks=not no_blanks) if sort == "prob" else found


def _show(found: list[W.Found], limit: int, as_json: bool, *, grouped: bool = False,
          complete: bool = True) -> None:
    """Print results (the first ``limit``), one per line or grouped by length; ``complete`` is
    False when the search stopped early, so the count is a lower bound."""
    shown = found[:limit] if limit else found
    if as_json:
        echo_json([f.to_json() for f in shown])
        return
    if not found:
        click.echo(_("ninguna palabra"))
        return
    if grouped:
        lengths: dict[int, list[str]] = {}
        for f in shown:
            lengths.setdefault(len(f.tiles), []).append(_label(f))
        for n, words in lengths.items():
            click.echo(_("{tiles} fichas ({count}): ").format(tiles=n, count=len(words))
                       + " ".join(words))
    else:
        for f in shown:
            click.echo(_label(f))
    if len(found) == len(shown):
        click.echo(ngettext("{count} palabra", "{count} palabras", len(found)).format(
            count=len(found)), err=True)
    else:
        count = str(len(found)) if complete else _("más de {count}").format(count=len(shown))
        click.echo(_("{count} palabras (se muestran {shown}; --limit 0 para verlas todas)")
                   .format(count=count, shown=len(shown)), err=True)


def _label(f: W.Found) -> str:
    return f"{f.rank:>5}. {f.word}" if f.rank is not None else f.word


@main.command(short_help=N_("Juez de palabras: solo dice si la jugada es correcta o no válida."),
              help=N_("Juez de palabras (art. 39–40): «JUGADA CORRECTA» o «JUGADA NO VÁLIDA»."
                      "\n\nCon PALABRAS juzga una jugada (sale con 0 si es correcta y 1 si no); "
                      "sin ellas lee una jugada por línea hasta el final de la entrada. Nunca "
                      "dice qué palabra falla (art. 40)."))
@lexicon_option
@option("--log", "log_path", type=click.Path(dir_okay=False), default=None, metavar=N_("FICHERO"),
        help=N_("Registro de juicios (JSON por líneas) para el director del torneo."))
@json_option
@argument("words", nargs=-1, metavar=N_("[PALABRA]..."))
def judge(lexicon_spec: str | None, log_path: str | None, as_json: bool,
          words: tuple[str, ...]) -> None:
    lexicon = _lexicon(lexicon_spec)
    log = JudgmentLog(log_path, lexicon.id) if log_path else None

    def one(play: Iterable[str]) -> bool:
        judgment = judge_play(lexicon, play)
        if log:
            log.record(judgment)
        if as_json:
            echo_json(judgment.to_json())
        else:
            click.echo(judgment.verdict)
        return judgment.valid

    if words:
        sys.exit(0 if one(split_words(" ".join(words))) else 1)
    interactive = sys.stdin.isatty()
    if interactive:
        click.echo(_("Escribe las palabras de cada jugada en una línea (Ctrl-D para terminar)."),
                   err=True)
    while True:
        if interactive:
            click.echo(_("palabras> "), nl=False, err=True)
        line = sys.stdin.readline()
        if not line:
            break
        play = split_words(line)
        if play:
            one(play)


@main.command(help=(N_("Palabras que usan todas las fichas del ATRIL (los comodines salen en "
                         "minúscula)."), RACK_HELP))
@search_options
@argument("rack", metavar=N_("ATRIL"))
def anagram(lexicon_spec: str | None, as_json: bool, limit: int, sort: str, no_blanks: bool,
            rack: str) -> None:
    found = W.anagrams(_lexicon(lexicon_spec), rack)
    _show(_ordered(found, sort, no_blanks), limit, as_json)


@main.command(help=(N_("Palabras que se forman con fichas del ATRIL, agrupadas por longitud."),
                    RACK_HELP))
@search_options
@option("--min", "min_length", default=2, show_default=True, type=click.IntRange(min=1),
        metavar=N_("N"), help=N_("Longitud mínima (en fichas)."))
@argument("rack", metavar=N_("ATRIL"))
def build(lexicon_spec: str | None, as_json: bool, limit: int, sort: str, no_blanks: bool,
          min_length: int, rack: str) -> None:
    found = W.buildable(_lexicon(lexicon_spec), rack, min_length=min_length)
    if sort == "prob":
        found = sorted(W.by_probability(found, blanks=not no_blanks), key=lambda f: -len(f.tiles))
    _show(found, limit, as_json, grouped=True)


@main.command(help=N_("Palabras que encajan en un PATRÓN: ? una ficha, * cualquier tramo "
                      "(también vacío), [AEIOU] una ficha del conjunto, [^AEIOU] una que no "
                      "esté.\n\nLas letras se leen como en las palabras (ch es la ficha CH); "
                      "dentro de un conjunto, [ACH] es A o CH y [A,C,H] es A, C o H. Ejemplos: "
                      "?ACH*  *[AEIOU]RR?"))
@search_options
@argument("pattern", metavar=N_("PATRÓN"))
def pattern(lexicon_spec: str | None, as_json: bool, limit: int, sort: str, no_blanks: bool,
            pattern: str) -> None:
    lexicon = _lexicon(lexicon_spec)
    if sort == "prob":
        found = W.by_probability(W.pattern_words(lexicon, pattern), blanks=not no_blanks)
        _show(found, limit, as_json)
        return
    # alphabetical: the search stops one word past what is shown (enough to say "more")
    found = W.pattern_words(lexicon, pattern, limit=limit + 1 if limit else None)
    _show(found, limit, as_json, complete=not limit or len(found) <= limit)


@main.command(help=N_("Ganchos: qué fichas pueden ir delante y detrás de cada PALABRA."))
@lexicon_option
@json_option
@argument("words", nargs=-1, required=True, metavar=N_("PALABRA..."))
def hooks(lexicon_spec: str | None, as_json: bool, words: tuple[str, ...]) -> None:
    lexicon = _lexicon(lexicon_spec)
    results = [W.hooks(lexicon, w) for w in words]
    if as_json:
        echo_json([h.to_json() for h in results])
        return
    for h in results:
        front = " ".join(T.tile_to_human(t) for t in h.front) or "-"
        back = " ".join(T.tile_to_human(t) for t in h.back) or "-"
        mark = "" if h.is_word else "   " + _("(no está en el léxico)")
        click.echo(f"{front:>20} · {h.word} · {back}{mark}")


@main.command("list", help=N_("Listas de estudio: palabras de una longitud, o que contienen "
                              "ciertas fichas.\n\nLas de dos y tres fichas: atril list --length "
                              "2-3 --sort prob"))
@search_options
@option("--length", "length", default=None, metavar=N_("N|N-M"),
        help=N_("Longitud en fichas: 2, o un intervalo como 2-3."))
@option("--contains", default="", metavar=N_("FICHAS"),
        help=N_("Fichas que la palabra debe contener (con repeticiones), p. ej. ZX o CH,RR."))
def list_words(lexicon_spec: str | None, as_json: bool, limit: int, sort: str, no_blanks: bool,
               length: str | None, contains: str) -> None:
    if length is None and not contains:
        raise InvalidTextError(_("indica --length, --contains o ambos"))
    low, high = W.parse_length(length)
    found = W.word_list(_lexicon(lexicon_spec), min_length=low, max_length=high,
                        contains=contains)
    _show(_ordered(found, sort, no_blanks), limit, as_json)

