"""Strength: one level against another over paired games (docs/SIMULATION.md).

    .venv/bin/python bench/bench_strength.py --games 1000 --tiempo 1 --workers 2
    .venv/bin/python bench/bench_strength.py --players campeon,equity --games 100 --tiempo 0.1
    .venv/bin/python bench/bench_strength.py --players equity+final,equity --games 1000
    .venv/bin/python bench/bench_strength.py --players equity+prefinal,equity+final --games 400

Games come in pairs: the same bag seed (``--seed`` + pair number) with the seats swapped, so
each player gets the other's racks and much of the luck cancels out (as ``atril selfplay``).
Each pair is a task for a pool of ``--workers`` processes. On a shared machine a clock budget
measures the load as much as the player: ``--iterations N`` gives campeón N iterations per move
and no clock instead, so a run depends on its seeds rather than on the load (only the endgame
keeps a one-second clock).
Besides the levels of ``atril.players``, two bench-only players measure a part alone (issue 16):
``equity+final`` is ``equity`` except that with the bag empty it plays the exact endgame's move
(``--tiempo`` a move), and ``equity+prefinal`` also solves the pre-endgame with one tile in the
bag, with ``players.PREENDGAME_SECONDS`` for it (the ``campeon`` level's threshold). Against
``equity`` and ``equity+final`` respectively, the games are the same until the part measured,
so the difference is that part's alone.
Prints the first player's win rate (a draw counts half) with its 95 % Wilson interval, the
mean spread, and the time per game;
``--json`` writes one line with the same figures. The interval treats games as independent
(the pairing only removes luck, so it is if anything conservative).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import sys
import time

from tqdm import tqdm

from atril import players
from atril.lexicon import Lexicon

_state: dict = {}


def _init(names: list[str], seconds: float, iterations: int | None, ruleset: str | None
          ) -> None:
    lexicon = Lexicon.load()
    _state.update(lexicon=lexicon, names=names, seconds=seconds, iterations=iterations,
                  ruleset=ruleset)


class Specialist(players.Champion):
    """``equity``'s static choice everywhere but in ``parts``: ``final`` (the exact endgame,
    bag empty), ``prefinal`` (the pre-endgame, one tile in the bag)."""

    def __init__(self, parts: set[str], **options):
        super().__init__(players.LEVELS["equity"], **options)
        self.parts = parts

    def choose(self, game):
        bag, found = len(game.bag), None
        if bag == 0 and "final" in self.parts:
            found = self._endgame(game)
        elif bag == 1 and "prefinal" in self.parts:
            kept, self.seconds = self.seconds, max(self.seconds, players.PREENDGAME_SECONDS)
            try:  # the pre-endgame at its own budget; the endgames keep --tiempo
                found = self._preendgame(game)
            finally:
                self.seconds = kept
        return found if found is not None else players.Engine.choose(self, game)


def _player(name: str, **options) -> players.Engine:
    """A level of ``atril.players``, or a bench-only ``equity+final``/``equity+prefinal``."""
    if name == "equity+final":
        return Specialist({"final"}, **options)
    if name == "equity+prefinal":
        return Specialist({"final", "prefinal"}, **options)
    return players.get(name, **options)


def _pair(seed: int) -> list[tuple[float, int, int]]:
    """(result for player A: 1, ½ or 0; A's spread; turns) of the two games of one seed."""
    lexicon, names = _state["lexicon"], _state["names"]
    out = []
    for swap in (False, True):
        engines = [_player(n, lexicon=lexicon, seed=f"{seed}:{k}:{swap}",
                           seconds=_state["seconds"]) for k, n in enumerate(names)]
        if _state["iterations"]:
            for engine in engines:
                if isinstance(engine, players.Champion):
                    engine.seconds, engine.iterations = 0, _state["iterations"]
        seats = [engines[1], engines[0]] if swap else engines
        game = players.play_game(seats, seed=seed, lexicon=lexicon, ruleset=_state["ruleset"])
        a = 1 if swap else 0
        scores = game.result.scores
        spread = scores[a] - scores[1 - a]
        winner = game.result.winner
        result = 0.5 if winner is None else 1.0 if winner == a else 0.0
        out.append((result, spread, len(game.history)))
    return out


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", default="campeon,equity")
    parser.add_argument("--games", type=int, default=100, help="games (rounded up to pairs)")
    parser.add_argument("--tiempo", type=float, default=1.0, help="seconds per move (campeón)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="instead of a clock: iterations per move (the same on any load)")
    parser.add_argument("--workers", type=int, default=mp.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ruleset", default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    names = [n.strip() for n in args.players.split(",")]
    pairs = range(args.seed, args.seed + (args.games + 1) // 2)
    results: list[tuple[float, int, int]] = []
    start = time.perf_counter()
    with mp.Pool(args.workers, initializer=_init,
                 initargs=(names, args.tiempo, args.iterations, args.ruleset)) as pool:
        for pair in tqdm(pool.imap_unordered(_pair, pairs), total=len(pairs), unit="pareja",
                         file=sys.stderr, disable=None):
            results.extend(pair)
    seconds = time.perf_counter() - start
    n = len(results)
    score = sum(r for r, _s, _t in results) / n
    lo, hi = wilson(score, n)
    spread = sum(s for _r, s, _t in results) / n
    summary = {"players": names, "games": n, "tiempo": args.tiempo,
               "iterations": args.iterations, "workers": args.workers,
               "seed": args.seed, "win_rate": round(score, 4), "ci95": [round(lo, 4), round(hi, 4)],
               "spread": round(spread, 1), "wins": sum(r == 1 for r, _s, _t in results),
               "draws": sum(r == 0.5 for r, _s, _t in results),
               "seconds_per_game": round(seconds * args.workers / n, 2)}
    if args.json:
        print(json.dumps(summary))
        return
    budget = (f"{args.iterations} iterations/move" if args.iterations
              else f"{args.tiempo} s/move")
    print(f"{names[0]} vs {names[1]}: {n} games ({n // 2} seeds, seats swapped), "
          f"{budget}, {args.workers} workers")
    print(f"  {names[0]} won {100 * score:.1f} % (95 % interval {100 * lo:.1f}–{100 * hi:.1f} %), "
          f"spread {spread:+.1f} a game")
    print(f"  {seconds:.0f} s wall, {summary['seconds_per_game']} s per game per worker")


if __name__ == "__main__":
    main()
