"""``atril torneo …``: the director's tool (``atril.tournament``, ``docs/TOURNAMENTS.md``).

A tournament is one JSON file (``crear`` makes it; every command that changes it writes it
back whole). A TSH ``.t`` file is read wherever a tournament is (``clasificacion``,
``emparejar``, ``hoja``, ``ratings``, ``exportar``) but never written over: ``emparejar`` on it
prints the next round without saving it, and ``importar`` turns it into a tournament file.

The two JSON contracts of issue 14: ``clasificacion --json`` is a list in rank order of
``{"rank", "name", "wins", "losses", "spread", "median_buchholz", "buchholz",
"sonneborn_berger"}``, and ``emparejar --json`` is ``{"round", "pairings": [{"players":
[name, name], "starts": name}], "bye": name or null}`` (pairings in table order).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Set
from pathlib import Path

import click
from tqdm import tqdm

from .. import tournament as TN
from ..i18n import N_, _
from ..tournament import export, pairing, ratings, simulation, tsh
from ..tournament.model import Round, Settings, Tournament, TournamentError
from ..tournament.standings import number
from . import Group, argument, echo_json, main, option
from .core import json_option

path_argument = argument("path", metavar=N_("ARCHIVO"))
round_option = option("--ronda", "round_number", type=click.IntRange(min=1), default=None,
                      metavar=N_("N"), help=N_("La ronda (por defecto, la última)."))


def _tiebreaks(ctx: click.Context, param: click.Parameter, value: str | None
               ) -> tuple[str, ...] | None:
    if value is None:
        return None
    keys = []
    for name in (n.strip().lower() for n in value.split(",") if n.strip()):
        if name not in TN.TIEBREAKS:
            raise click.BadParameter(_("«{name}» no es un desempate; los hay: {known}").format(
                name=name, known=", ".join(TN.TIEBREAKS)))
        keys.append(TN.TIEBREAKS[name])
    return tuple(keys)


tiebreaks_option = option(
    "--desempates", "tiebreaks", default=None, callback=_tiebreaks, metavar=N_("LISTA"),
    help=N_("Desempates en orden, separados por comas: mediana (Buchholz mediano), buchholz, "
            "sb (Sonneborn-Berger), spread, puntos. Por defecto: mediana,sb,spread."))


def _not_tsh(path: str) -> None:
    """A command that writes a tournament writes atril's file, never a TSH one."""
    if Path(path).suffix.lower() == ".t":
        raise TournamentError(_("un fichero .t solo se lee; pásalo a un torneo de atril con: "
                                "atril torneo importar {path} TORNEO.json").format(path=path))


def _editable(path: str) -> Tournament:
    _not_tsh(path)
    return Tournament.load(path)


def _print_table(head: list[str], rows: list[list[str]], right: Set[int]) -> None:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for row in [head, *rows]:
        click.echo("  ".join(c.rjust(w) if i in right else c.ljust(w)
                             for i, (c, w) in enumerate(zip(row, widths))).rstrip())


def _pairings_json(t: Tournament, rnd: Round) -> dict[str, object]:
    byes = [p for p, s in rnd.byes.items() if s > 0]
    return {"round": rnd.number,
            "pairings": [{"players": [t.player(p).name for p in g.players],
                          "starts": None if g.starts is None else t.player(g.starts).name}
                         for g in rnd.games],
            "bye": t.player(byes[0]).name if byes else None}


def _show_round(t: Tournament, rnd: Round) -> None:
    click.echo(_("Ronda {round} ({system})").format(round=rnd.number, system=rnd.system))
    head, rows = export.pairing_rows(t, rnd)
    _print_table(head, rows, {0})


def _emit_round(t: Tournament, rnd: Round, as_json: bool) -> None:
    """A round's pairings: the JSON of ``emparejar --json``, or the table."""
    if as_json:
        echo_json(_pairings_json(t, rnd))
    else:
        _show_round(t, rnd)


@main.group("torneo", cls=Group, help=N_(
    "Torneos: jugadores, emparejamientos (todos contra todos, suizo, rey de la pista, Gibson), "
    "resultados, clasificación con desempates, ratings y ficheros TSH."))
def tournament_group() -> None:
    """The group; its commands follow."""


@tournament_group.command(help=N_("Crea un torneo en ARCHIVO (JSON): un fichero que se puede "
                                  "copiar y enviar."))
@path_argument
@option("--nombre", "name", default="", metavar=N_("NOMBRE"), help=N_("Nombre del torneo."))
@option("--rondas", "rounds", type=click.IntRange(min=1), default=None, metavar=N_("N"),
        help=N_("Rondas previstas (el rey de la pista y Gibson las necesitan)."))
@option("--sistema", "system", type=click.Choice(["suizo", "todos"]), default="suizo",
        show_default=True, help=N_("suizo (con rey de la pista y Gibson al final) o todos "
                                   "contra todos."))
@option("--rey", "king_rounds", type=click.IntRange(min=0), default=Settings.king_rounds,
        show_default=True, metavar=N_("N"),
        help=N_("Cuántas de las últimas rondas del suizo van por rey de la pista, con Gibson."))
@option("--bye-spread", "bye_spread", type=click.IntRange(min=1), default=Settings.bye_spread,
        show_default=True, metavar=N_("S"),
        help=N_("Spread del bye (una victoria) y de la incomparecencia."))
@option("--spread-max", "max_spread", type=click.IntRange(min=0), default=Settings.max_spread,
        show_default=True, metavar=N_("S"),
        help=N_("Spread máximo de una partida, para saber si el primer puesto está decidido "
                "(Gibson)."))
@option("--premios", "prizes", type=click.IntRange(min=1), default=Settings.prizes,
        show_default=True, metavar=N_("N"), help=N_("Cuántos puestos tienen premio."))
@tiebreaks_option
@option("--primera-ronda", "first_round", type=click.Choice(["rating", "azar"]),
        default="rating", show_default=True,
        help=N_("La primera ronda del suizo, por rating o por sorteo."))
@option("--sorteo-salida", "draw_starts", is_flag=True,
        help=N_("Quién sale se sortea en cada partida (torneos por equipos, art. 4.4)."))
@option("--semilla", "seed", type=int, default=0, show_default=True, metavar=N_("SEMILLA"),
        help=N_("Semilla de los sorteos."))
@json_option
def crear(path: str, name: str, rounds: int | None, system: str, king_rounds: int,
          bye_spread: int, max_spread: int, prizes: int, tiebreaks: tuple[str, ...] | None,
          first_round: str, draw_starts: bool, seed: int, as_json: bool) -> None:
    _not_tsh(path)
    if Path(path).exists():
        raise TournamentError(_("{path} ya existe").format(path=path))
    settings = Settings(rounds, system, king_rounds, bye_spread, max_spread, prizes,
                        tiebreaks or Settings.tiebreaks,
                        "random" if first_round == "azar" else "rating", draw_starts, seed)
    t = Tournament(name, settings)
    t.save(path)
    if as_json:
        echo_json({"path": path, "name": name})
    else:
        click.echo(_("creado el torneo «{name}» en {path}").format(name=name, path=path))


@tournament_group.command(help=N_("Inscribe a un jugador; con rondas ya emparejadas, entra "
                                  "desde la siguiente."))
@path_argument
@argument("name", metavar=N_("NOMBRE"))
@option("--rating", type=click.IntRange(min=0), default=None, metavar=N_("R"),
        help=N_("Su rating (sin él, no tiene)."))
@option("--partidas", "games", type=click.IntRange(min=0), default=0, show_default=True,
        metavar=N_("N"), help=N_("Partidas valoradas que ya lleva (las 50 primeras son "
                                 "provisionales)."))
@json_option
def alta(path: str, name: str, rating: int | None, games: int, as_json: bool) -> None:
    t = _editable(path)
    player = t.add_player(name, rating, games)
    t.save(path)
    if as_json:
        echo_json({"number": player.number, "name": player.name, "rating": player.rating,
                   "joined": player.joined})
    else:
        click.echo(_("{number}. {name} inscrito desde la ronda {round}").format(
            number=player.number, name=player.name, round=player.joined))


@tournament_group.command(help=N_("Retira a un jugador: no se le empareja desde la ronda "
                                  "siguiente; sus resultados cuentan."))
@path_argument
@argument("name", metavar=N_("NOMBRE"))
@json_option
def baja(path: str, name: str, as_json: bool) -> None:
    t = _editable(path)
    player = t.find(name)
    t.withdraw(player)
    t.save(path)
    if as_json:
        echo_json({"name": player.name, "withdrawn": player.withdrawn})
    else:
        click.echo(_("{name} retirado desde la ronda {round}").format(
            name=player.name, round=player.withdrawn))


@tournament_group.command(help=N_(
    "Empareja la ronda siguiente y la guarda en el torneo (en un fichero .t solo la muestra). "
    "Sin --sistema, el del plan del torneo (suizo y, en las últimas rondas, rey de la pista "
    "con Gibson; o todos contra todos)."))
@path_argument
@option("--sistema", "system", type=click.Choice(TN.SYSTEMS), default=None,
        help=N_("todos (tabla de Berger), suizo, rey (1.º contra 2.º…) o gibson (rey de la "
                "pista con la regla de Gibson)."))
@option("--premios", "prizes", type=click.IntRange(min=1), default=None, metavar=N_("N"),
        help=N_("Puestos con premio, para Gibson (por defecto, los del torneo)."))
@option("--spread-max", "max_spread", type=click.IntRange(min=0), default=None,
        metavar=N_("S"), help=N_("Spread máximo de una partida, para Gibson."))
@option("--rondas", "rounds", type=click.IntRange(min=1), default=None, metavar=N_("N"),
        help=N_("Rondas del torneo, para Gibson (en un .t sin ellas, esta se toma por la "
                "última)."))
@option("--manual", "manual", type=(str, str), multiple=True, metavar=N_("JUGADOR JUGADOR"),
        help=N_("Una partida decidida a mano (se puede repetir); el resto, por el sistema."))
@option("--bye", "bye", default=None, metavar=N_("JUGADOR"),
        help=N_("Quién descansa, decidido a mano."))
@option("--desempates", "tiebreaks", default=None, callback=_tiebreaks, metavar=N_("LISTA"),
        help=N_("Desempates en orden (como en crear); en un torneo quedan guardados."))
@option("--rehacer", "redo", is_flag=True,
        help=N_("Deshace la última ronda (si aún no tiene resultados) y la empareja de nuevo."))
@json_option
def emparejar(path: str, system: str | None, prizes: int | None, max_spread: int | None,
              rounds: int | None, manual: tuple[tuple[str, str], ...], bye: str | None,
              tiebreaks: tuple[str, ...] | None, redo: bool, as_json: bool) -> None:
    is_tsh = Path(path).suffix.lower() == ".t"
    t = TN.load(path)
    if tiebreaks:
        t.settings.tiebreaks = tiebreaks
    if redo:
        t.unpair_last()
    fixed = [(t.find(a).number, t.find(b).number) for a, b in manual]
    rnd = TN.pair(t, system, fixed=fixed, bye=None if bye is None else t.find(bye).number,
                  rounds=rounds, prizes=prizes, max_spread=max_spread)
    t.add_round(rnd)
    if not is_tsh:
        t.save(path)
    _emit_round(t, rnd, as_json)


@tournament_group.command(help=N_(
    "Anota el resultado de una partida: JUGADOR PUNTOS JUGADOR PUNTOS (corregir es volver a "
    "anotarlo), o quién no se presentó con --no-presentado."))
@path_argument
@argument("result", nargs=-1, metavar=N_("[JUGADOR PUNTOS JUGADOR PUNTOS]"))
@round_option
@option("--no-presentado", "absent", multiple=True, metavar=N_("JUGADOR"),
        help=N_("No se presentó: pierde por el spread del bye (se puede repetir)."))
@json_option
def resultado(path: str, result: tuple[str, ...], round_number: int | None,
              absent: tuple[str, ...], as_json: bool) -> None:
    t = _editable(path)
    if bool(result) == bool(absent) or (result and len(result) != 4):
        raise click.UsageError(_("o bien JUGADOR PUNTOS JUGADOR PUNTOS, o bien --no-presentado "
                                 "JUGADOR"))
    number_ = round_number or t.last_round().number
    if result:
        a, b = t.find(result[0]), t.find(result[2])
        scores = []
        for text in (result[1], result[3]):
            try:
                scores.append(int(text))
            except ValueError:
                raise click.BadParameter(_("«{text}» no es una puntuación").format(text=text),
                                         param_hint="PUNTOS") from None
        game = t.record(number_, a, scores[0], b, scores[1])
    else:
        for name in absent:
            game = t.forfeit(number_, t.find(name))
    t.save(path)
    names = [t.player(p).name for p in game.players]
    if as_json:
        echo_json({"round": number_, "table": game.table, "players": names,
                   "scores": list(game.scores) if game.scores else None,
                   "forfeits": [t.player(p).name for p in game.forfeits]})
    else:
        head, rows = export.pairing_rows(t, Round(number_, "", [game]))
        _print_table(head, rows, {0})


@tournament_group.command(help=N_(
    "Cambia un emparejamiento de una ronda sin resultados: JUGADOR y JUGADOR juegan entre sí, "
    "y sus rivales de antes, entre ellos (o uno descansa)."))
@path_argument
@argument("first", metavar=N_("JUGADOR"))
@argument("second", metavar=N_("JUGADOR"))
@round_option
@json_option
def cambiar(path: str, first: str, second: str, round_number: int | None,
            as_json: bool) -> None:
    t = _editable(path)
    rnd = t.round(round_number) if round_number else t.last_round()
    pairing.swap(t, rnd.number, t.find(first).number, t.find(second).number)
    t.save(path)
    _emit_round(t, rnd, as_json)


@tournament_group.command(help=N_(
    "La clasificación: victorias (un empate, media), derrotas, spread y desempates."))
@path_argument
@tiebreaks_option
@round_option
@json_option
def clasificacion(path: str, tiebreaks: tuple[str, ...] | None, round_number: int | None,
                  as_json: bool) -> None:
    t = TN.load(path)
    rows = TN.standings(t, round_number, tiebreaks)
    if as_json:
        echo_json([r.to_dict() for r in rows])
        return
    head, body = export.standings_rows(rows)
    _print_table(head, body, export.STANDINGS_NUMBERS)


@tournament_group.command(help=N_(
    "La hoja de emparejamientos de una ronda, con las mesas; --html la escribe lista para "
    "imprimir (o guardar como PDF), con los jugadores por orden alfabético."))
@path_argument
@round_option
@option("--html", "html_path", default=None, metavar=N_("FICHERO.html"),
        help=N_("Escribe la hoja en HTML."))
@json_option
def hoja(path: str, round_number: int | None, html_path: str | None, as_json: bool) -> None:
    t = TN.load(path)
    rnd = t.round(round_number) if round_number else t.last_round()
    if html_path:
        Path(html_path).write_text(export.pairings_html(t, rnd), encoding="utf-8")
    if as_json or not html_path:
        _emit_round(t, rnd, as_json)


@tournament_group.command(help=N_(
    "Escribe el torneo en DESTINO, según su extensión: .json (el fichero de atril), .t (TSH), "
    ".csv o .html (la clasificación)."))
@path_argument
@argument("target", metavar=N_("DESTINO"))
@tiebreaks_option
@json_option
def exportar(path: str, target: str, tiebreaks: tuple[str, ...] | None, as_json: bool) -> None:
    t = TN.load(path)
    kind = Path(target).suffix.lower()
    if kind == ".json":
        t.save(target)
    elif kind == ".t":
        tsh.write(t, target)
    elif kind in (".csv", ".html"):
        rows = TN.standings(t, tiebreaks=tiebreaks)
        text = export.standings_csv(rows) if kind == ".csv" else export.standings_html(t, rows)
        Path(target).write_text(text, encoding="utf-8")
    else:
        raise TournamentError(_("{path}: la extensión ha de ser .json, .t, .csv o .html")
                              .format(path=target))
    if as_json:
        echo_json({"path": target})
    else:
        click.echo(_("escrito {path}").format(path=target))


@tournament_group.command(help=N_(
    "Lee ORIGEN: un .t de TSH se convierte en el torneo ARCHIVO (nuevo); una lista de rating "
    "(.csv: name,rating,games) inscribe en ARCHIVO a quien no está y pone al día el rating "
    "de quien ya está."))
@argument("source", metavar=N_("ORIGEN"))
@path_argument
@json_option
def importar(source: str, path: str, as_json: bool) -> None:
    _not_tsh(path)
    kind = Path(source).suffix.lower()
    if kind == ".t":
        if Path(path).exists():
            raise TournamentError(_("{path} ya existe").format(path=path))
        t = tsh.read(source)
        t.save(path)
        report = {"players": len(t.players), "rounds": len(t.rounds)}
        said = _("{path}: jugadores: {players}, rondas: {rounds}").format(path=path, **report)
    elif kind == ".csv":
        t = Tournament.load(path)
        added, updated = ratings.apply_list(t, ratings.read_list(source))
        t.save(path)
        report = {"added": added, "updated": updated}
        said = _("{path}: inscritos: {added}, puestos al día: {updated}").format(
            path=path, **report)
    else:
        raise TournamentError(_("{path}: la extensión ha de ser .t o .csv").format(path=source))
    if as_json:
        echo_json(report)
    else:
        click.echo(said)


@tournament_group.command("ratings", help=N_(
    "Los cambios de rating del torneo (Elo: cada partida contra el rating de antes del "
    "torneo); --lista escribe la lista de rating de después."))
@path_argument
@option("--lista", "list_path", default=None, metavar=N_("FICHERO.csv"),
        help=N_("Escribe la lista de rating nueva (name,rating,games)."))
@json_option
def ratings_command(path: str, list_path: str | None, as_json: bool) -> None:
    t = TN.load(path)
    found = ratings.changes(t)
    if list_path:
        ratings.write_list(found, list_path)
    if as_json:
        echo_json([c.to_dict() for c in found])
        return
    head = [_("Jugador"), _("Antes"), _("Partidas"), _("Tanteo"), _("Esperado"), _("Cambio"),
            _("Después")]
    rows = [[c.player.name, str(round(c.before)), str(c.games), str(number(c.score)),
             f"{c.expected:.2f}", f"{c.change:+.1f}", str(round(c.after))] for c in found]
    _print_table(head, rows, {1, 2, 3, 4, 5, 6})


@tournament_group.command(help=N_(
    "Un torneo entero jugado por el ordenador (suizo, y rey de la pista con Gibson al final), "
    "con barra de progreso; muestra la clasificación final."))
@option("--jugadores", "players", type=click.IntRange(min=2), default=100, show_default=True,
        metavar=N_("N"), help=N_("Cuántos jugadores."))
@option("--rondas", "rounds", type=click.IntRange(min=1), default=12, show_default=True,
        metavar=N_("N"), help=N_("Cuántas rondas."))
@option("--rey", "king_rounds", type=click.IntRange(min=0), default=Settings.king_rounds,
        show_default=True, metavar=N_("N"),
        help=N_("Cuántas de las últimas rondas van por rey de la pista, con Gibson."))
@option("--niveles", "levels", default="equity,greedy", show_default=True,
        metavar=N_("NIVELES"), help=N_("Los niveles del ordenador que se turnan, separados por "
                                       "comas (los de atril play --vs)."))
@option("--semilla", "seed", type=int, default=0, show_default=True, metavar=N_("SEMILLA"),
        help=N_("Semilla del torneo: las bolsas y los sorteos."))
@option("--guardar", "save_path", default=None, metavar=N_("FICHERO.json"),
        help=N_("Guarda el torneo jugado."))
@json_option
def simular(players: int, rounds: int, king_rounds: int, levels: str, seed: int,
            save_path: str | None, as_json: bool) -> None:
    if save_path:
        _not_tsh(save_path)
    names = [n.strip().lower() for n in levels.split(",") if n.strip()]
    start = time.perf_counter()
    with tqdm(total=rounds * (players // 2), unit=_("partida"), file=sys.stderr, disable=None,
              leave=False) as bar:
        t = simulation.simulate(players, rounds, levels=names,
                                         king_rounds=king_rounds, seed=seed,
                                         on_game=lambda game: bar.update())
    seconds = time.perf_counter() - start
    if save_path:
        t.save(save_path)
    rows = TN.standings(t)
    games = sum(len(r.games) for r in t.rounds)
    if as_json:
        echo_json({"players": players, "rounds": rounds, "games": games,
                   "seconds": round(seconds, 2), "standings": [r.to_dict() for r in rows]})
        return
    head, body = export.standings_rows(rows)
    _print_table(head, body, export.STANDINGS_NUMBERS)
    click.echo(_("jugadores: {players}, rondas: {rounds}, partidas: {games}, en {seconds} s")
               .format(players=players, rounds=rounds, games=games, seconds=f"{seconds:.1f}"))
