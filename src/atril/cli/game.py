"""``atril selfplay`` (the computer against itself) and ``atril play`` (a game in the terminal)."""

from __future__ import annotations

import sys
import time

import click
from tqdm import tqdm

from .. import i18n
from .. import players as P
from ..errors import AtrilError
from ..game import Game
from ..i18n import N_, _
from ..lexicon import Lexicon, notice
from ..ruleset import Ruleset
from . import echo_json, fail, main, option
from .core import cluster_option, lexicon_option, workers_option


def game_json(game: Game) -> dict:
    """One finished game as ``atril selfplay --json`` writes it: each turn in the one JSON
    shape of a turn (``Turn.to_dict``) with the running totals (``cumulative``)."""
    totals = [0, 0]
    turns = []
    for turn in game.history:
        totals[turn.player] += turn.points
        turns.append({**turn.to_dict(), "cumulative": list(totals)})
    result = game.result
    assert result is not None, "game_json is for finished games"
    adjustments = [0, 0]
    for adj in result.adjustments:
        adjustments[adj.player] += adj.points
    return {"players": list(game.players), "seed": game.seed,
            "lexicon": game.lexicon_id, "turns": turns,
            "end": {"reason": result.reason, "article": result.article,
                    "adjustments": adjustments},
            "final": list(result.scores)}


def _player_names(text: str) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if len(names) != 2:
        raise click.BadParameter(_("dos jugadores separados por una coma, p. ej. equity,greedy"))
    for n in names:
        if n not in P.LEVELS:
            raise click.BadParameter(_("«{name}» no es un jugador; los hay: {known}").format(
                name=n, known=", ".join(P.LEVELS)))
    return names


ruleset_option = option("--ruleset", default=None,
                        type=click.Choice(Ruleset.names(), case_sensitive=False),
                        help=N_("Reglamento (por defecto FISE2009)."))
seconds_option = option("--tiempo", "seconds", type=click.FloatRange(min=0, min_open=True),
                        default=None, metavar=N_("S"),
                        help=N_("Segundos por jugada del nivel campeón (por defecto, 1)."))


#: games per task of ``atril selfplay --workers``: one pair (the same bag, seats swapped)
CHUNK = 2


def play_chunk(task: tuple) -> tuple[int, list[tuple[dict, tuple[int, int], list[int],
                                                      int | None, int]]]:
    """Games ``start`` to ``stop - 1`` of ``atril selfplay`` (a task of ``atril.parallel``):
    ``(start, [(game_json, seats, final scores, winning seat or None, turns), ...])``.

    Game ``i`` is the same wherever it runs: its bag seed is ``seed + i // 2``
    (``players.match``) and each engine's random choices are seeded ``"{seed}:{k}:{i}"``."""
    names, spec, ruleset, seconds, seed, start, stop = task
    lexicon = Lexicon.load(spec)  # loaded once per process (a worker plays many chunks)
    out = []
    for i in range(start, stop):
        seats = (1, 0) if i % 2 else (0, 1)
        engines = [P.get(n, lexicon=lexicon, seed=f"{seed}:{k}:{i}", seconds=seconds)
                   for k, n in enumerate(names)]
        game = P.play_game([engines[k] for k in seats], seed=seed + i // 2, lexicon=lexicon,
                           ruleset=ruleset)
        result = game.result
        assert result is not None
        out.append((game_json(game), seats, list(result.scores), result.winner,
                    len(game.history)))
    return start, out


@main.command(help=N_("Partidas del ordenador contra sí mismo, con barra de progreso en stderr."))
@option("--games", type=click.IntRange(min=1), default=10, show_default=True, metavar=N_("N"),
        help=N_("Cuántas partidas (por parejas: la misma bolsa con los asientos cambiados)."))
@option("--seed", type=int, default=0, show_default=True, metavar=N_("SEMILLA"),
        help=N_("Semilla de la primera bolsa."))
@option("--players", "player_list", default="equity,greedy", show_default=True,
        metavar=N_("JUGADORES"),
        help=N_("Los dos jugadores, separados por una coma (los niveles de atril play --vs)."))
@ruleset_option
@seconds_option
@lexicon_option
@workers_option
@cluster_option
@option("--json", "as_json", is_flag=True, help=N_("Un objeto JSON por partida."))
def selfplay(games, seed, player_list, ruleset, seconds, lexicon_spec, workers, address,
             as_json) -> None:
    from .. import parallel
    names = _player_names(player_list)
    spec = lexicon_spec or Ruleset.get(ruleset).lexicon
    lexicon = Lexicon.load(spec)
    said = notice(ruleset, lexicon.id)
    if said:
        click.echo(said, err=True)
    tasks = [(names, spec, ruleset, seconds, seed, i, min(i + CHUNK, games))
             for i in range(0, games, CHUNK)]
    wins, points, turns = [0, 0], [0, 0], 0
    start = time.perf_counter()
    done: dict[int, list] = {}
    following = 0  # the next game to print: the output keeps the games' order
    bar = tqdm(total=games, unit=_("partida"), file=sys.stderr, disable=None, leave=False)
    try:
        for first, chunk in parallel.map_unordered(play_chunk, tasks, workers=workers,
                                                   address=address):
            bar.update(len(chunk))
            done[first] = chunk
            while following in done:
                chunk = done.pop(following)
                following += len(chunk)
                for data, seats, scores, winner, n in chunk:
                    turns += n
                    for seat, k in enumerate(seats):
                        points[k] += scores[seat]
                    if winner is not None:
                        wins[seats[winner]] += 1
                    if as_json:
                        echo_json(data)
    except AtrilError as exc:
        fail(exc, json_output=as_json)
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    if as_json:
        return
    draws = games - sum(wins)
    for k, name in enumerate(names):
        click.echo(f"{k + 1}. {name:<13} " + _("{wins} victorias ({share} %)   media {points} "
                                               "puntos").format(
            wins=f"{wins[k]:>6}", share=f"{100 * wins[k] / games:5.1f}",
            points=f"{points[k] / games:6.1f}"))
    label = _("empates")
    click.echo(f"   {label:<13} {draws:>6}")
    click.echo(_("{games} partidas, {turns} turnos en {seconds} s: {speed} turnos/s").format(
        games=games, turns=turns, seconds=f"{seconds:.1f}", speed=f"{turns / seconds:.0f}"))


@main.command(help=N_("Juega una partida en la terminal, contra el ordenador o entre dos "
                      "personas."))
@option("--vs", "opponent", default="equity", show_default=True,
        type=click.Choice([*P.LEVELS, "humano"], case_sensitive=False),
        help=N_("Contra quién: un nivel del ordenador o «humano» (dos personas, un teclado)."))
@ruleset_option
@option("--clock", "minutes", type=click.FloatRange(min=0, min_open=True), default=None,
        metavar=N_("MIN"), help=N_("Reloj de ajedrez: minutos por jugador (art. 34)."))
@option("--seed", default=None, metavar=N_("SEMILLA"),
        help=N_("Semilla de la bolsa (partida reproducible)."))
@option("--lang", type=click.Choice(i18n.LANGUAGES), default=None,
        help=N_("Idioma de los mensajes (como atril --lang)."))
@option("--save", "save_path", default=None, metavar=N_("FICHERO.gcg"),
        help=N_("Guarda la partida en GCG al terminar o al salir."))
@seconds_option
@lexicon_option
def play(opponent: str, ruleset: str | None, minutes: float | None, seed: str | None,
         lang: str | None, save_path: str | None, seconds: float | None,
         lexicon_spec: str | None) -> None:
    from ..terminal import run
    lexicon = Lexicon.load(lexicon_spec or Ruleset.get(ruleset).lexicon)
    run(sys.stdin, sys.stdout, opponent=opponent.lower(),
        ruleset=ruleset, clock_minutes=minutes, seed=seed, lang=lang, save=save_path,
        lexicon=lexicon, seconds=seconds)
