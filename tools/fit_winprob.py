"""Fit the win-probability model (atril.winprob, docs/SIMULATION.md) on self-play games.

    .venv/bin/pip install numpy   # only this script needs it
    .venv/bin/python tools/fit_winprob.py --games 10000 --workers 2 \\
        --out src/atril/data/winprob-es09.json
    .venv/bin/python tools/fit_winprob.py --games 100000 --cluster tcp://host:8786  # Dask

The games run in tasks of CHUNK games through ``atril.parallel`` (docs/PARALLEL.md): on
``--workers`` processes, or on a Dask cluster given ``--cluster`` (``atril[cluster]``).

Two ``equity`` players play ``--games`` games (bag seeds ``winprob:<n>``, so a run is
reproducible). Before every turn the state of the player to move is recorded: the spread (their
score minus the opponent's), the tiles they cannot see (bag plus the opponent's rack) and, once
the game is over, how it went for them (won 1, drawn ½, lost 0). Then for every unseen count
``u`` a logistic curve ``P = 1 / (1 + exp(-(spread + offset) / scale))`` is fitted by maximum
likelihood (Newton's method) to the states whose count lies within a window around ``u``,
widened until it holds enough states; offsets and scales are smoothed over ``u`` with a moving
average, and scales kept positive, so the curve is monotone in the spread.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from atril import parallel, players
from atril import tiles as T
from atril.lexicon import Lexicon
from atril.winprob import Model

CHUNK = 20  # games per task
MAX_UNSEEN = sum(T.COUNTS) - T.RACK_SIZE  # 93: the first move
MIN_STATES = 400  # per fitted count: the window widens until it holds this many
MIN_SPREAD_SD = 5.0  # points: below it the spreads of a window cannot fix a scale

_state: dict = {}


def _init() -> None:
    lexicon = Lexicon.load()
    _state.update(lexicon=lexicon, players=[players.get("equity", lexicon=lexicon)
                                            for _ in (0, 1)])


def _play_chunk(first: int) -> list[tuple[int, int, float]]:
    """(spread, unseen, outcome) for the player to move, before every turn of CHUNK games."""
    if not _state:  # once per worker process
        _init()
    rows: list[tuple[int, int, float]] = []
    for n in range(first, first + CHUNK):
        states: list[tuple[int, int, int]] = []

        def record(game, states=states) -> None:
            if game.is_over():
                return
            p = game.player_to_move
            states.append((p, game.scores[p] - game.scores[1 - p],
                           len(game.bag) + len(game.racks[1 - p])))

        game = players.play_game(_state["players"], seed=f"winprob:{n}",
                                 lexicon=_state["lexicon"], on_turn=record)
        states.insert(0, (game.first, 0, MAX_UNSEEN))
        final = game.result.scores
        for p, spread, unseen in states:
            diff = final[p] - final[1 - p]
            rows.append((spread, unseen, 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0))
    return rows


def _chunk_of(first: int) -> tuple[int, list[tuple[int, int, float]]]:
    """``(first, _play_chunk(first))``: a task of ``atril.parallel``, tagged to be sorted."""
    return first, _play_chunk(first)


def _logistic(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Maximum-likelihood (b0, b1) of P(y) = sigmoid(b0 + b1 x), y in [0, 1] (Newton)."""
    b = np.zeros(2)
    X = np.stack([np.ones_like(x), x], axis=1)
    for _ in range(50):
        p = 1 / (1 + np.exp(-(X @ b)))
        w = p * (1 - p) + 1e-9
        grad = X.T @ (y - p)
        hess = (X * w[:, None]).T @ X + 1e-6 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        b += step
        if np.abs(step).max() < 1e-9:
            break
    return float(b[0]), float(b[1])


def fit(rows: np.ndarray) -> tuple[list[float], list[float]]:
    """offset[u], scale[u] for u = 0 … MAX_UNSEEN (see the module docstring)."""
    spread, unseen, won = rows[:, 0], rows[:, 1].astype(int), rows[:, 2]
    offsets, scales = [0.0], [1.0]  # u = 0: the game is over (winprob.final decides)
    for u in range(1, MAX_UNSEEN + 1):
        w = 0
        while True:
            near = np.abs(unseen - u) <= w
            if near.sum() >= MIN_STATES or w > MAX_UNSEEN:
                break
            w += 1
        if spread[near].std() < MIN_SPREAD_SD:
            # The first move (u = 93) is always at 0-0: only the win rate is known there, so
            # keep the scale of the count below and match the rate with the offset.
            rate = float(np.clip(won[near].mean(), 0.01, 0.99))
            scales.append(scales[-1])
            offsets.append(scales[-1] * float(np.log(rate / (1 - rate))))
            continue
        b0, b1 = _logistic(spread[near] / 100, won[near])
        b1 = max(b1, 1e-3)
        scales.append(100 / b1)
        offsets.append(b0 * 100 / b1)
    smooth_o, smooth_s = list(offsets), list(scales)
    for u in range(1, MAX_UNSEEN + 1):
        lo, hi = max(1, u - 2), min(MAX_UNSEEN, u + 2)
        smooth_o[u] = float(np.mean(offsets[lo:hi + 1]))
        smooth_s[u] = max(1.0, float(np.mean(scales[lo:hi + 1])))
    return smooth_o, smooth_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--workers", type=int, default=parallel.cpu_count())
    parser.add_argument("--cluster", default=None, metavar="ADDRESS",
                        help="a Dask scheduler (tcp://host:8786, or local); atril[cluster]")
    parser.add_argument("--out", default="src/atril/data/winprob-es09.json")
    parser.add_argument("--rows", default=None,
                        help="a .npy file: the states are saved there, or read if it exists")
    args = parser.parse_args()
    start = time.perf_counter()
    seeds = range(0, args.games, CHUNK)
    if args.rows and Path(args.rows).exists():
        data = np.load(args.rows)
    else:
        rows: list[tuple[int, int, float]] = []
        # sorted: the rows (and so the fit) do not depend on the order the chunks finish in
        chunks = dict(tqdm(parallel.map_unordered(_chunk_of, seeds, workers=args.workers,
                                                  address=args.cluster),
                           total=len(seeds), unit="tarea"))
        for first in sorted(chunks):
            rows.extend(chunks[first])
        data = np.array(rows, dtype=float)
        if args.rows:
            np.save(args.rows, data)
    played = time.perf_counter() - start
    offset, scale = fit(data)
    meta = {"games": len(seeds) * CHUNK, "states": len(data), "players": "equity x 2",
            "seeds": "winprob:<n>", "tool": "tools/fit_winprob.py",
            "selfplay_seconds": round(played), "min_states": MIN_STATES}
    model = Model(tuple(offset), tuple(scale), meta)
    Path(args.out).write_text(model.to_json() + "\n", encoding="utf-8")
    print(json.dumps(meta))
    for u in (93, 80, 60, 40, 20, 10, 7, 3):
        print(f"u={u:>2}: offset {offset[u]:+6.1f}  scale {scale[u]:5.1f}  "
              f"P(0)={model.probability(0, u):.3f} P(+20)={model.probability(20, u):.3f}")


if __name__ == "__main__":
    main()
