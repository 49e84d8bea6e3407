"""Move generator speed on the docs/BENCH.md positions (full ES09), next to Quackle's figures.

    .venv/bin/python bench/bench_movegen.py [--runs 200] [--positions 200]

For P1–P4: placements (exchanges excluded, as Quackle counts) and the CPU time per call (the
process's own time, so other jobs on a shared machine count less) of ``movegen.generate``
(every move scored and sorted; candidates are made lazily), of ``generate`` plus reading every
score, and of ``movegen.best`` (top move by score). Calls are timed in batches, every position
and mode in turn round after round, so a noisy spell of the machine hits them all alike; the
figure is the median batch, and the fastest batch follows in brackets' place as "mín" (what
the code costs on a quiet machine). Then positions per second over a fixed seeded set of
mid-game positions from random self-play, and turns per second of static self-play (best
score each turn), as Quackle's figure.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from atril import leaves, movegen
from atril import tiles as T
from atril.board import Board
from atril.cgp import loads
from atril.lexicon import Lexicon
from atril.rules import apply_play, check_play

# docs/BENCH.md: CGP, Quackle placements, all-moves ms, best-move ms.
POSITIONS = {
    "P1": ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEIRSTN/ 0/0 0", 1376, 0.75, 0.15),
    "P2": ("15/15/15/15/8C6/8A6/6N1[LL]AVE3/5[CH]ICO6/6Ñ8/3PE[rr]O8/15/15/15/15/15 "
           "[RR]AEIST?/ 0/0 0", 18349, 19.0, 6.0),
    "P3": ("15/15/15/15/15/5ZO[RR]OS5/5U3U5/3JAMON1E5/3E1O3L5/3F5O5/3EXITO7/7[LL]7/4CAÑA7/15/15 "
           "QUEDAST/ 0/0 0", 550, 0.21, 0.09),
    "P4": ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 [CH][LL]AEOR?/ 0/0 0", 5516, 2.4, 0.7),
}


def batch_ms(fns: dict[str, object], runs: int, batch: int = 10) -> dict[str, tuple[float, float]]:
    """(median, fastest) ms per call of each function, over ``runs`` calls in batches, the
    functions taking turns batch by batch."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for fn in fns.values():
        fn()  # warm caches
    for _ in range(max(1, runs // batch)):
        for name, fn in fns.items():
            t = time.process_time()
            for _ in range(batch):
                fn()
            times[name].append((time.process_time() - t) / batch)
    return {name: (statistics.median(v) * 1000, min(v) * 1000) for name, v in times.items()}


def midgame_positions(lexicon: Lexicon, count: int, seed: int = 2026) -> list[tuple[Board, tuple]]:
    """Boards after 4–14 turns of greedy-ish random self-play, with the rack to move."""
    rng = random.Random(seed)
    out: list[tuple[Board, tuple]] = []
    while len(out) < count:
        board = Board()
        bag = [t for t, n in enumerate(T.COUNTS) for _ in range(n)]
        rng.shuffle(bag)
        rack: list[int] = []
        for turn in range(14):
            while len(rack) < T.RACK_SIZE and bag:
                rack.append(bag.pop())
            if turn >= 4:
                out.append((board.copy(), tuple(rack)))
            moves = movegen.best(board, rack, lexicon, n=5)
            if not len(moves):
                break
            chosen = moves[rng.randrange(len(moves))]
            apply_play(board, check_play(board, chosen.move))
            for t in chosen.used:
                rack.remove(t)
    return out[:count]


def self_play_turns_per_second(lexicon: Lexicon, games: int, leave_values=None,
                               seed: int = 7) -> float:
    """Static self-play as Quackle's figure counts it: each turn the best move by score, or
    with ``leave_values`` by equity (score + leave value, exchanges included while the bag
    holds seven tiles), as Quackle's static player; draw, repeat."""
    rng = random.Random(seed)
    turns, t = 0, time.process_time()
    for _ in range(games):
        board = Board()
        bag = [c for c, n in enumerate(T.COUNTS) for _ in range(n)]
        rng.shuffle(bag)
        racks: list[list[int]] = [[], []]
        scoreless = 0  # passes and exchanges in a row: twelve end the game (art. 45.3)
        while scoreless < 12:
            rack = racks[turns % 2]
            while len(rack) < T.RACK_SIZE and bag:
                rack.append(bag.pop())
            turns += 1
            exchanges = leave_values is not None and len(bag) >= T.RACK_SIZE
            moves = movegen.best(board, rack, lexicon, leave_values=leave_values,
                                 exchanges=exchanges, bag_count=len(bag))
            if not len(moves) or not moves[0].move.is_play:
                scoreless += 1
                if len(moves) and moves[0].used:  # an exchange: the tiles go back, shuffled
                    for tile in moves[0].used:
                        rack.remove(tile)
                    bag.extend(moves[0].used)
                    rng.shuffle(bag)
                continue
            scoreless = 0
            apply_play(board, check_play(board, moves[0].move))
            for tile in moves[0].used:
                rack.remove(tile)
            if not rack:
                break
    return turns / (time.process_time() - t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="timed runs per position")
    parser.add_argument("--positions", type=int, default=200, help="mid-game positions")
    parser.add_argument("--games", type=int, default=20, help="self-play games")
    args = parser.parse_args()
    lexicon = Lexicon.load("ES09")
    print(f"atril {'C' if movegen._native else 'referencia'}, ES09, {args.runs} llamadas por "
          "medida en lotes de 10, ms de CPU por llamada: mediana de los lotes (el lote más "
          "rápido); Quackle entre corchetes")
    print(f"{'pos':4} {'jugadas':>14} {'todas':>24} {'todas+leer':>11} {'mejor':>23}  "
          "mejor jugada")
    fns: dict[str, object] = {}
    for name, (cgp, _q_count, _q_all, _q_best) in POSITIONS.items():
        pos = loads(cgp)
        board, rack = pos.board, pos.rack
        fns[name + " all"] = lambda b=board, r=rack: movegen.generate(b, r, lexicon)
        fns[name + " read"] = lambda b=board, r=rack: movegen.generate(b, r, lexicon).scores()
        fns[name + " best"] = lambda b=board, r=rack: movegen.best(b, r, lexicon)
    t = batch_ms(fns, args.runs)
    for name, (cgp, q_count, q_all, q_best) in POSITIONS.items():
        pos = loads(cgp)
        moves = movegen.generate(pos.board, pos.rack, lexicon)
        (a, a_min), (r, _), (b, b_min) = (t[f"{name} {m}"] for m in ("all", "read", "best"))
        print(f"{name:4} {len(moves):>6} [{q_count:>5}] {a:>7.3f} ({a_min:.3f}) [{q_all:>5}] "
              f"{r:>11.3f} {b:>6.3f} ({b_min:.3f}) [{q_best:>5}]  {moves[0]}")
    positions = midgame_positions(lexicon, args.positions)
    for label, fn in (("todas", lambda b, r: movegen.generate(b, r, lexicon)),
                      ("mejor", lambda b, r: movegen.best(b, r, lexicon))):
        t = time.process_time()
        total = 0
        for board, rack in positions:
            total += len(fn(board, rack))
        dt = time.process_time() - t
        print(f"{len(positions)} posiciones de medio juego, {label}: {len(positions) / dt:,.0f} "
              f"posiciones/s ({total} jugadas)")
    print(f"autojuego estático, mejor puntuación: "
          f"{self_play_turns_per_second(lexicon, args.games):,.0f} turnos/s [Quackle 1,700]")
    print(f"autojuego estático, mejor equity (puntuación + hoja): "
          f"{self_play_turns_per_second(lexicon, args.games, leaves.load()):,.0f} turnos/s "
          "[Quackle 1,700]")


if __name__ == "__main__":
    main()
