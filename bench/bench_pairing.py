"""Swiss pairing at scale: 500 players paired deep in an event, against the target of issue 14
(under 1 s), and the rounds before it for context.

    .venv/bin/python bench/bench_pairing.py [--players 500] [--rounds 15] [--repeat 5] [--seed 0]

The event is played with random scores (Swiss every round) so that the round timed has real
score groups and many pairs already met; the time is ``atril.tournament.pair`` whole: the
standings, the costs of every pair, the matching (rustworkx) and who starts.
"""

from __future__ import annotations

import argparse
import random
import time

from atril.tournament import Settings, Tournament, pair

TARGET_SECONDS = 1.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=15, help="rondas jugadas antes de la medida")
    ap.add_argument("--repeat", type=int, default=5, help="medidas de la última ronda")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    draw = random.Random(args.seed)
    t = Tournament("bench", Settings(rounds=args.rounds + 1, king_rounds=0, seed=args.seed))
    for k in range(args.players):
        t.add_player(f"J{k + 1}", draw.randint(1200, 2200))
    start = time.perf_counter()
    for _ in range(args.rounds):
        rnd = pair(t, "suizo")
        t.add_round(rnd)
        for g in rnd.games:
            g.scores = (draw.randint(250, 550), draw.randint(250, 550))
    played = time.perf_counter() - start
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        rnd = pair(t, "suizo")
        times.append(time.perf_counter() - start)
    best, worst = min(times), max(times)
    repeats = sum(1 for g in rnd.games if t.met()[frozenset(g.players)])
    print(f"{args.rounds} rondas suizas de {args.players} jugadores emparejadas en {played:.1f} s "
          f"({played / args.rounds:.2f} s por ronda)")
    print(f"ronda {rnd.number}: {len(rnd.games)} mesas, {len(rnd.byes)} bye, {repeats} "
          f"repeticiones; {best:.3f} s (peor {worst:.3f} s); objetivo < {TARGET_SECONDS:.0f} s: "
          f"{'cumple' if worst < TARGET_SECONDS else 'NO CUMPLE'}")


if __name__ == "__main__":
    main()
