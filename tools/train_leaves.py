"""Learn Spanish leave values by self-play (docs/LEAVES.md) and write the shipped table.

    .venv/bin/pip install numpy   # only this script needs it
    .venv/bin/python tools/train_leaves.py --games 10000,10000,20000,40000 \\
        --out src/atril/data/leaves-es09.bin.xz [--workers N] [--cluster tcp://host:8786]

Generation 0 is two greedy players; generation k+1 is two equity players using generation k's
table. For every turn that leaves 1–6 tiles while the bag still has tiles, the target is what
the same player makes of it on their next turn: its points plus (bootstrapping) the value of
the leave it keeps then, or its end-of-game adjustment if the game ends first (art. 45). A
leave's value is its mean target minus the mean over all turns, shrunk towards a per-tile
additive model (tiles, duplicates, vowel/consonant mix) fitted to all leaves, so rare leaves
get sensible values and the million-odd never seen get the model's.
"""

from __future__ import annotations

import argparse
import functools
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from tqdm import tqdm

from atril import leaves, parallel, players
from atril import tiles as T
from atril.game import WITHDRAWN
from atril.lexicon import Lexicon
from atril.move import EXCHANGE, PLAY, THROUGH

CHUNK = 25  # games per task

# -- self-play ------------------------------------------------------------------------------------

@functools.cache
def _engines(table: bytes | None) -> tuple:
    """The lexicon, the table and the two players of a generation, made once per process (a
    worker plays many chunks of the same generation)."""
    lexicon = Lexicon.load()
    values = leaves.LeaveValues.from_bytes(table) if table else None
    name = "equity" if values else "greedy"
    return lexicon, values, [players.get(name, lexicon=lexicon, leaves=values) for _ in (0, 1)]


def _leave(turn) -> tuple[int, ...]:
    """The tiles a turn kept (before drawing)."""
    left = list(turn.rack)
    if turn.kind == PLAY:
        used = [T.BLANK if t & T.BLANK_BIT else t for t in turn.move.tiles if t != THROUGH]
    elif turn.kind == EXCHANGE:
        used = list(turn.move.tiles)
    else:
        used = []
    for t in used:
        left.remove(t)
    return tuple(sorted(left))


def _records(game, table) -> list[tuple[int, float]]:
    """(leave rank, target) for every turn of a finished game whose leave counts."""
    history = game.history
    end = [0, 0]
    for adj in game.result.adjustments:
        end[adj.player] += adj.points
    bag = 100 - 2 * T.RACK_SIZE
    bags = []
    for turn in history:
        bags.append(bag)
        if turn.kind == PLAY:
            bag -= len(turn.drawn)
    out = []
    for i, turn in enumerate(history):
        leave = _leave(turn)
        if turn.kind == WITHDRAWN or not bags[i] or not 1 <= len(leave) <= leaves.MAX_LEAVE:
            continue
        if i + 2 < len(history):
            nxt = history[i + 2]
            target = float(nxt.points)
            later = _leave(nxt)
            if table is not None and bags[i + 2] and 1 <= len(later) <= leaves.MAX_LEAVE \
                    and nxt.kind != WITHDRAWN:
                target += table[later]
        else:
            target = float(end[turn.player])
        out.append((leaves.rank(leave), target))
    return out


def _play_chunk(task: tuple[int, bytes | None]) -> tuple[dict, int, int]:
    """Play CHUNK games from seed ``first_seed`` with the generation's table (its file's bytes,
    so a worker on another machine needs no file of ours); per-leave (count, sum, sum of
    squares), games, turns."""
    first_seed, table = task
    lexicon, values, engines = _engines(table)
    stats: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    turns = 0
    for seed in range(first_seed, first_seed + CHUNK):
        game = players.play_game(engines, seed=f"train:{seed}", lexicon=lexicon)
        turns += len(game.history)
        for r, y in _records(game, values):
            s = stats[r]
            s[0] += 1
            s[1] += y
            s[2] += y * y
    return dict(stats), CHUNK, turns


def self_play(games: int, table_path: str | None, workers: int, address: str | None,
              seed0: int, label: str):
    """One generation's games on ``workers`` processes or the Dask cluster at ``address``
    (atril.parallel): each chunk's games follow from its seeds, wherever it is played."""
    stats: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    turns = 0
    start = time.perf_counter()
    table = Path(table_path).read_bytes() if table_path else None
    tasks = [(seed, table) for seed in range(seed0, seed0 + games, CHUNK)]
    with tqdm(total=games, desc=label, unit="partida") as bar:
        for chunk, n, t in parallel.map_unordered(_play_chunk, tasks, workers=workers,
                                                  address=address):
            for r, (c, s, q) in chunk.items():
                acc = stats[r]
                acc[0] += c
                acc[1] += s
                acc[2] += q
            turns += t
            bar.update(n)
    return stats, turns, time.perf_counter() - start


# -- fitting --------------------------------------------------------------------------------------

def _vc_index() -> dict[tuple[int, int], int]:
    pairs = [(v, n - v) for n in range(1, leaves.MAX_LEAVE + 1) for v in range(n + 1)]
    return {p: i for i, p in enumerate(pairs)}


VC = _vc_index()
Q, U = T.code("Q"), T.code("U")
N_FEATURES = 2 * T.ALPHABET_SIZE + len(VC) + 1


def features(leave: tuple[int, ...]) -> list[int]:
    """Indices of the model's features present in a leave (repeated = counted again)."""
    out = list(leave)  # one per tile
    out += [T.ALPHABET_SIZE + t for a, t in zip(leave, leave[1:]) if a == t]  # duplicates
    vowels = sum(1 for t in leave if t in T.VOWELS)
    out.append(2 * T.ALPHABET_SIZE + VC[(vowels, len(leave) - vowels)])
    if Q in leave and U not in leave:
        out.append(N_FEATURES - 1)
    return out


@functools.cache
def design() -> tuple[np.ndarray, np.ndarray]:
    """The model's features of every leave in rank order, as CSR (row starts, feature ids)."""
    starts, ids = [0], []
    for leave in leaves.all_leaves():
        ids += features(leave)
        starts.append(len(ids))
    return np.array(starts, dtype=np.int64), np.array(ids, dtype=np.int64)


def dense(ranks: np.ndarray) -> np.ndarray:
    """Feature counts of some leaves as a dense matrix."""
    starts, ids = design()
    lens = starts[ranks + 1] - starts[ranks]
    rows = np.repeat(np.arange(len(ranks)), lens)
    pos = np.repeat(starts[ranks] - np.cumsum(lens) + lens, lens) + np.arange(lens.sum())
    x = np.zeros((len(ranks), N_FEATURES))
    np.add.at(x, (rows, ids[pos]), 1)
    return x


def fit(stats: dict[int, list[float]]) -> tuple[np.ndarray, dict]:
    """Every leave's value: mean target minus the overall mean, shrunk to the additive model."""
    ranks = np.fromiter(stats.keys(), dtype=np.int64)
    n, s, q = (np.array([stats[r][k] for r in stats], dtype=np.float64) for k in range(3))
    rho = s.sum() / n.sum()
    mean = s / n - rho
    within = (q - s * s / n).sum() / max(1.0, (n - 1).sum())  # sigma² of one target

    xtx = np.zeros((N_FEATURES, N_FEATURES))
    xty = np.zeros(N_FEATURES)
    for lo in range(0, len(ranks), 50_000):
        x = dense(ranks[lo:lo + 50_000])
        w = n[lo:lo + 50_000]
        xtx += (x * w[:, None]).T @ x
        xty += x.T @ (w * mean[lo:lo + 50_000])
    ridge = 1e-3 * n.sum() / len(n) * np.eye(N_FEATURES)
    weights = np.linalg.solve(xtx + ridge, xty)

    starts, ids = design()
    rows = np.repeat(np.arange(len(starts) - 1), np.diff(starts))
    values = np.bincount(rows, weights=weights[ids], minlength=len(starts) - 1)
    prior_seen = values[ranks]
    often = n >= 50  # spread of true values around the model, net of sampling noise
    tau2 = 25.0 if often.sum() < 30 else max(1.0, float(
        np.average((mean[often] - prior_seen[often]) ** 2 - within / n[often], weights=n[often])))
    k = within / tau2
    values[ranks] = (n * mean + k * prior_seen) / (n + k)
    info = {"mean_target": rho, "sigma2": within, "tau2": tau2, "k": k, "seen": len(ranks),
            "records": int(n.sum())}
    return values.astype(np.float32), info


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="10000,10000,20000,40000",
                    help="partidas por generación, separadas por comas")
    ap.add_argument("--workers", type=int, default=parallel.cpu_count())
    ap.add_argument("--cluster", default=None, metavar="ADDRESS",
                    help="a Dask scheduler (tcp://host:8786, or local); atril[cluster]")
    ap.add_argument("--out", type=Path, default=Path("src/atril/data") / leaves.SHIPPED)
    ap.add_argument("--work", type=Path, default=Path("build/leaves"))
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    table_path: str | None = None
    seed0 = 0
    for gen, games in enumerate(int(g) for g in args.games.split(",")):
        stats, turns, seconds = self_play(games, table_path, args.workers, args.cluster, seed0,
                                           f"gen {gen}")
        seed0 += games
        values, info = fit(stats)
        path = args.work / f"gen{gen}.bin.xz"
        leaves.LeaveValues(values.tolist()).write(path)
        table_path = str(path)
        show = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in info.items()}
        print(f"gen {gen}: {games} partidas, {turns} turnos en {seconds:.0f} s "
              f"({turns / seconds:.0f} turnos/s); {show}", flush=True)
    args.out.write_bytes(Path(table_path).read_bytes())
    print(f"tabla escrita en {args.out}")


if __name__ == "__main__":
    main()
