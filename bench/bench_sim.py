"""Simulation speed: 2-ply iterations per second on one core (docs/SIMULATION.md, docs/BENCH.md).

    .venv/bin/python bench/bench_sim.py [--iterations 60] [--candidates 15] [--positions 20]

An *iteration* of one candidate is what MAGPIE counts: the candidate played, then the
opponent's reply and the mover's next move (2 plies), each the best move by static equity found
by the full move generator, on a random rack for the opponent and a random refill; the leave
values at the end. The figure is iterations (candidates × deals) per second of CPU time of
this process (``time.process_time``: other jobs on a shared machine count less), over the
positions P1–P4 of docs/BENCH.md and a seeded set of mid-game positions from self-play
(bench_movegen.midgame_positions), all candidates kept in the race (no early stopping).
Anchor: MAGPIE ≈ 1,770 2-ply iterations/s on one core (English, CSW).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_movegen import POSITIONS, midgame_positions  # noqa: E402

from atril import leaves, sim  # noqa: E402
from atril import tiles as T  # noqa: E402
from atril.bag import unseen as unseen_of  # noqa: E402
from atril.cgp import loads  # noqa: E402
from atril.lexicon import Lexicon  # noqa: E402

MAGPIE = 1770


def rate(board, rack, lexicon, table, iterations: int, n: int, plies: int) -> tuple[float, int]:
    """(iterations per CPU second, iterations run) for one position."""
    unseen = unseen_of(board, rack)
    bag = max(0, sum(unseen) - T.RACK_SIZE)
    moves = sim.candidates(board, rack, lexicon, bag=bag, n=n, leaves=table)
    outs = [sim.Outcome(c, c.equity) for c in moves]
    runner = sim._Runner(board, rack, lexicon, unseen, bag, outs, plies, table, 1, 12345)
    active = [True] * len(outs)
    runner.run(active, 0, 2)  # warm the caches
    start = time.process_time()
    runner.run(active, 0, iterations)
    took = time.process_time() - start
    done = iterations * len(outs)
    return done / took, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=60, help="deals per position")
    parser.add_argument("--candidates", type=int, default=15)
    parser.add_argument("--positions", type=int, default=20, help="mid-game positions")
    parser.add_argument("--plies", type=int, default=2)
    args = parser.parse_args()
    lexicon = Lexicon.load()
    table = leaves.load()
    print(f"{args.plies}-ply iterations per CPU second, one core "
          f"(MAGPIE, English: ≈ {MAGPIE:,}/s)")
    for name, (cgp, *_rest) in POSITIONS.items():
        position = loads(cgp)
        r, done = rate(position.board, position.rack, lexicon, table, args.iterations,
                       args.candidates, args.plies)
        print(f"  {name}: {r:8,.0f} iterations/s  ({done} iterations)")
    rates, total, cpu = [], 0, 0.0
    for board, rack in midgame_positions(lexicon, args.positions):
        r, done = rate(board, rack, lexicon, table, args.iterations, args.candidates,
                       args.plies)
        rates.append(r)
        total += done
        cpu += done / r
    print(f"  mid-game ({len(rates)} positions): {total / cpu:8,.0f} iterations/s overall, "
          f"median {statistics.median(rates):,.0f}, slowest {min(rates):,.0f}")


if __name__ == "__main__":
    main()
