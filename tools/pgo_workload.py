"""The work a profile-guided build of the exact endgame runs (setup.py, docs/BENCH.md).

    python tools/pgo_workload.py [--games 12] [--nodes 40000000]

setup.py builds ``atril._endgame`` once with the compiler counting its branches, runs this
with that build on the path, and builds it again from the counts, so that the compiler lays the
code out for the branches the search takes. It solves the endgames of seeded self-play games
(``equity`` against ``equity``), each up to a count of positions, not a time: the same counts on
every machine. Its games start at seed 9000, far from the benchmark's (bench/bench_endgame.py
starts at 0, its second set at 5000), so the build is not tuned to the endgames it is measured
on.
"""

from __future__ import annotations

import argparse

from atril import endgame, players
from atril.lexicon import Lexicon

GAMES = 12
FIRST_SEED = 9000
ENDGAME_NODES = 40_000_000


class _Done(Exception):
    """Stops a game once its endgame is solved."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--nodes", type=int, default=ENDGAME_NODES, help="per endgame")
    args = parser.parse_args()
    lexicon = Lexicon.load("ES09")
    engines = [players.get("equity", lexicon=lexicon, seed=0),
               players.get("equity", lexicon=lexicon, seed=1)]
    nodes: list[int] = []
    for seed in range(FIRST_SEED, FIRST_SEED + args.games):
        def on_turn(game) -> None:
            if not len(game.bag) and not game.is_over():
                nodes.append(endgame.solve(game.position(), lexicon, max_nodes=args.nodes).nodes)
                raise _Done

        try:
            players.play_game(engines, seed=seed, lexicon=lexicon, on_turn=on_turn)
        except _Done:
            pass
    print(f"{len(nodes)} finales, {sum(nodes):,} posiciones")


if __name__ == "__main__":
    main()
