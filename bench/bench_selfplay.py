"""Self-play: turns per second (one core) and how often equity beats greedy.

    .venv/bin/python bench/bench_selfplay.py [--games 2000] [--seed 0] [--speed-games 200]
        [--leaves TABLE.bin.xz] [--skip-speed] [--workers 2]

Speed: static players on one core, every turn a full move generation, next to Quackle's
static self-play on the same word list (docs/BENCH.md: about 1,700 turns/s). Strength: ``--games``
paired games (each bag seed twice, seats swapped: each player gets the other's opening rack),
equity against greedy; the win rate (a draw counts half) with its 95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import time

from tqdm import tqdm

from atril import leaves, players
from atril.lexicon import Lexicon

QUACKLE_TURNS_PER_SECOND = 1700
PAIRS_PER_TASK = 10


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def speed(names: tuple[str, str], games: int, lexicon: Lexicon) -> tuple[float, float]:
    """Turns per second and mean turns per game, one process."""
    engines = [players.get(n, lexicon=lexicon, seed=k) for k, n in enumerate(names)]
    players.play_game(engines, seed="warm-up", lexicon=lexicon)
    turns = 0
    start = time.perf_counter()
    for game, _ in players.match(engines, games, seed=10_000, lexicon=lexicon):
        turns += len(game.history)
    return turns / (time.perf_counter() - start), turns / games


_engines: list = []


def _init(table_path: str | None) -> None:
    lexicon = Lexicon.load()
    table = leaves.LeaveValues.read(table_path) if table_path else None
    _engines[:] = [players.get("equity", lexicon=lexicon, leaves=table),
                   players.get("greedy", lexicon=lexicon)]


def _pairs(first_seed: int) -> list[tuple[float, int]]:
    """(equity's result: 1, ½ or 0; equity's spread) for PAIRS_PER_TASK paired games."""
    engines = _engines
    lexicon = engines[1].lexicon
    out = []
    for game, seats in players.match(engines, 2 * PAIRS_PER_TASK, seed=first_seed,
                                     lexicon=lexicon):
        eq = seats.index(0)
        scores = game.result.scores
        spread = scores[eq] - scores[1 - eq]
        out.append((1.0 if spread > 0 else 0.5 if spread == 0 else 0.0, spread))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="partidas equity contra greedy")
    ap.add_argument("--speed-games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0, help="semilla de la primera bolsa")
    ap.add_argument("--leaves", default=None, help="otra tabla de hojas (por defecto la incluida)")
    ap.add_argument("--skip-speed", action="store_true", help="solo la fuerza")
    ap.add_argument("--workers", type=int, default=mp.cpu_count())
    args = ap.parse_args()
    lexicon = Lexicon.load()
    leaves.load()
    for names in () if args.skip_speed else (("greedy", "greedy"), ("equity", "equity")):
        rate, per_game = speed(names, args.speed_games, lexicon)
        print(f"{names[0]:>7} contra {names[1]:<7} {rate:7.0f} turnos/s en un núcleo "
              f"({per_game:.1f} turnos por partida; Quackle: ~{QUACKLE_TURNS_PER_SECOND})",
              flush=True)
    pairs = args.games // 2
    seeds = range(args.seed, args.seed + pairs, PAIRS_PER_TASK)
    results: list[tuple[float, int]] = []
    start = time.perf_counter()
    total = 2 * len(seeds) * PAIRS_PER_TASK
    with mp.Pool(args.workers, initializer=_init, initargs=(args.leaves,)) as pool, \
            tqdm(total=total, unit="partida") as bar:
        for chunk in pool.imap_unordered(_pairs, seeds):
            results += chunk
            bar.update(len(chunk))
    n = len(results)
    won = sum(r for r, _ in results)
    low, high = wilson(won, n)
    spread = sum(s for _, s in results) / n
    print(f"equity contra greedy: {n} partidas emparejadas ({n // 2} bolsas, asientos "
          f"cambiados), {time.perf_counter() - start:.0f} s")
    print(f"  equity gana el {100 * won / n:.1f} % (IC 95 % de Wilson: {100 * low:.1f}–"
          f"{100 * high:.1f} %), diferencia media {spread:+.1f} puntos")


if __name__ == "__main__":
    main()
