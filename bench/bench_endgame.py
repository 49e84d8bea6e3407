"""The exact endgame: time to the exact answer on endgames from self-play, one core.

    .venv/bin/python bench/bench_endgame.py [--positions 50] [--seed 0] [--limit 30]
        [--out endgames.txt] [--cgp-file endgames.txt]

The positions: seeded self-play (``equity`` against ``equity``, ES09, FISE 2009), each game
taken at the first turn with the bag empty, kept when both racks hold seven tiles (about a
quarter of the games), until ``--positions`` are found. Each is solved by ``atril.endgame``
with ``--limit`` seconds at most; the median and the worst time to the exact answer, and how
many were not exact within the limit (issue 16's goal: median < 1 s, none > 30 s).
"""

from __future__ import annotations

import argparse
import statistics
import time

from atril import endgame, players
from atril.lexicon import Lexicon
from atril.position import Position


class _Found(Exception):
    """Stops a self-play game at the position wanted."""


def positions(count: int, seed: int, lexicon: Lexicon) -> list[tuple[int, Position]]:
    """(game seed, position) of the first ``count`` self-play endgames with seven tiles on
    each rack, from bag seed ``seed`` on."""
    engines = [players.get("equity", lexicon=lexicon, seed=0),
               players.get("equity", lexicon=lexicon, seed=1)]
    out: list[tuple[int, Position]] = []
    game_seed = seed
    while len(out) < count:
        got: list[Position] = []

        def on_turn(game, got=got) -> None:
            if not len(game.bag) and not game.is_over():
                got.append(game.position())
                raise _Found

        try:
            players.play_game(engines, seed=game_seed, lexicon=lexicon, on_turn=on_turn)
        except _Found:
            position = got[0]
            if len(position.racks[0]) == len(position.racks[1]) == 7:
                out.append((game_seed, position))
        game_seed += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0, help="semilla de la primera partida")
    ap.add_argument("--limit", type=float, default=30.0, help="segundos como máximo por final")
    ap.add_argument("--out", default=None, help="guarda las posiciones (CGP) en este fichero")
    ap.add_argument("--cgp-file", default=None, help="lee las posiciones de este fichero")
    args = ap.parse_args()
    lexicon = Lexicon.load("ES09")
    if args.cgp_file:
        with open(args.cgp_file, encoding="utf-8") as f:
            found = [(-1, Position(line.strip())) for line in f if line.strip()]
    else:
        found = positions(args.positions, args.seed, lexicon)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.writelines(p.cgp() + "\n" for _, p in found)
    endgame.solve(Position(found[0][1].cgp()), lexicon, max_nodes=1000)  # warm-up: indexes
    times: list[float] = []
    stopped = 0
    for k, (game_seed, position) in enumerate(found, start=1):
        start = time.process_time()
        solution = endgame.solve(position, lexicon, seconds=args.limit)
        cpu = time.process_time() - start
        if solution.exact:
            times.append(cpu)
        else:
            stopped += 1
            times.append(float("inf"))
        origin = f"seed {game_seed:>4}" if game_seed >= 0 else "cgp      "  # --cgp-file: no seed
        print(f"{k:>3} {origin}  {cpu:8.2f} s  exact={solution.exact!s:<5} "
              f"nodes={solution.nodes:>11,}  spread={solution.spread:+4d}  "
              f"best={solution.best.move.notation(position.board)}", flush=True)
    solved = sorted(t for t in times if t != float("inf"))
    median = statistics.median(times)
    shown = f"> {args.limit:g}" if median == float("inf") else f"{median:.2f}"
    worst = f"{solved[-1]:.2f}" if solved else "—"
    print(f"\n{len(found)} finales 7-7: exactos en {args.limit:g} s: {len(solved)}; "
          f"mediana {shown} s; peor exacto {worst} s; sin terminar: {stopped}")


if __name__ == "__main__":
    main()
