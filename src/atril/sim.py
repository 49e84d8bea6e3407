"""Simulation: choose a move by playing the best candidates out over many random racks.

    >>> from atril import sim
    >>> from atril.game import Game
    >>> from atril.lexicon import Lexicon
    >>> game = Game(["Ana", "atril"], seed=3, lexicon=Lexicon.load())
    >>> result = sim.simulate_game(game, seconds=None, iterations=64, seed=1)
    >>> result.best is result.outcomes[0], result.iterations <= 64
    (True, True)

The static ``equity`` player ranks moves by score plus the value of the tiles kept. A
simulation (as Quackle's Championship Player and Macondo do) takes its top ``n`` candidates and,
for each of many *iterations*, deals the opponent a random rack from the tiles the mover cannot
see (the rest, shuffled, is the bag), then plays every candidate out for ``plies`` more turns
(opponent, mover, …), each side choosing its best move by static equity. A candidate's value
in one iteration is the spread it gained over the playout plus the leave term at its end (the
value of what the mover's last move kept minus the opponent's; nothing once the bag is empty).
Every candidate meets the same deal in the same iteration (common random numbers), so the
*differences* between candidates carry much less luck than their values.

Choosing: by the mean value; once the game nears its end (the bag holds ``WIN_BAG`` tiles or
fewer) by the mean win probability at the end of the playout (``atril.winprob``), with the
value as a small tie-break.

Stopping: successive elimination (docs/SIMULATION.md). After ``MIN_ITERATIONS`` and after every
batch, the leader is the candidate with the best mean; a candidate is dropped when the leader's
paired advantage over it is clearly positive: mean difference minus ``z`` standard errors
(z = 2.58 by default, two-sided 99 %) above zero. The simulation stops when one candidate is
left, when the time budget is spent, or after ``iterations``.

The hot loop is in C (``atril._sim``, on the move generator of ``atril_movegen.h``): no Python
runs between plies. Without it, ``atril.movegen`` plays the plies from Python (slow).
Opponent modelling (Macondo's inference of the opponent's leave from their last play) is not
done: the opponent's rack is drawn uniformly from the unseen tiles.
"""

from __future__ import annotations

import math
import random
import struct
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import movegen, winprob
from . import tiles as T
from .board import Board
from .game import Game
from .i18n import _
from .movegen import Candidate, LeaveTable
from .rack import Rack

try:
    from . import _sim as _native
except ImportError:  # pragma: no cover - only when the extension was not built
    _native = None  # type: ignore[assignment]
else:
    movegen.configure(_native)

__all__ = ["Outcome", "Simulation", "candidates", "simulate", "simulate_game",
           "MIN_ITERATIONS", "WIN_BAG"]

#: iterations every candidate gets before any is dropped
MIN_ITERATIONS = 32
#: candidates simulated by default, and how far below the best static equity they may start
CANDIDATES = 10
EQUITY_WINDOW = 25.0
#: from this many tiles in the bag down, choose by win probability
WIN_BAG = 20
#: the weight of the value (points) next to the win probability when choosing by it
TIE_BREAK = 1e-4
FIELDS = 4
OUT_SPREAD, OUT_LEAVE, OUT_UNSEEN, OUT_FLAGS = 0, 1, 2, 3
FLAG_OVER, FLAG_MOVER_TO_MOVE = 1, 2


@dataclass
class Outcome:
    """One candidate after the simulation: ``static`` its equity (score + leave value);
    ``value`` the mean of spread + leave term over its playouts, ``stderr`` that mean's
    standard error; ``win`` the mean win probability at the end of the playouts (the mover's,
    counting the scores before the move); ``dropped`` whether the stopping rule eliminated it
    (after ``iterations`` iterations)."""

    candidate: Candidate
    static: float
    iterations: int = 0
    value: float = 0.0
    stderr: float = 0.0
    win: float = 0.0
    dropped: bool = False
    _values: list[float] = field(default_factory=list, repr=False)
    _wins: list[float] = field(default_factory=list, repr=False)

    def objective(self, by_win: bool) -> list[float]:
        """The per-iteration numbers the candidates are compared on."""
        if not by_win:
            return self._values
        return [w + TIE_BREAK * v for w, v in zip(self._wins, self._values)]


@dataclass
class Simulation:
    """What ``simulate`` found: ``outcomes`` best first (candidates still in the race, then
    the dropped ones), how many ``iterations`` were run, in how many ``seconds``, why it
    ``stopped`` (``"clear"``: one candidate left, ``"time"``, ``"iterations"``, ``"single"``:
    only one candidate to begin with), and whether it chose ``by_win``."""

    outcomes: list[Outcome]
    iterations: int
    seconds: float
    stopped: str
    by_win: bool

    @property
    def best(self) -> Outcome:
        return self.outcomes[0]


def candidates(board: Board, rack: Sequence[int], lexicon, *, bag: int, n: int = CANDIDATES,
               leaves: LeaveTable | None = None, exchange_min_bag: int = 1,
               window: float | None = None) -> list[Candidate]:
    """The top ``n`` moves by static equity, exchanges (and the pass) included while the rules
    allow an exchange (art. 25: at least ``exchange_min_bag`` tiles in the bag, and as many
    as exchanged); with ``window``, only those within that many points of the best."""
    from . import leaves as L
    table = leaves if leaves is not None else L.load()
    may_exchange = bag >= max(1, exchange_min_bag)
    found = list(movegen.best(board, rack, lexicon, n=n, leave_values=table if bag else None,
                              exchanges=may_exchange, bag_count=bag))
    if window is not None and found:
        found = [c for c in found if c.equity >= found[0].equity - window]
    return found


def simulate(board: Board, rack: Sequence[int], lexicon, *, unseen: Sequence[int], bag: int,
             spread: int = 0, moves: Sequence[Candidate] | None = None, n: int = CANDIDATES,
             plies: int = 2, seconds: float | None = 1.0, iterations: int = 100_000,
             z: float = 2.58, seed: int | str = 0, leaves: LeaveTable | None = None,
             exchange_min_bag: int = 1, by_win: bool | None = None) -> Simulation:
    """Simulate the candidates ``moves`` (by default the top ``n`` by static equity) for the
    player holding ``rack``.

    Candidates more than ``EQUITY_WINDOW`` points of static equity below the best are left out
    (a 2-ply look rarely makes up that much, and the time goes to the close calls).
    ``unseen``: counts per tile code of what that player cannot see (bag plus the opponent's
    rack; ``Game.unseen``), ``bag`` how many of them are in the bag; ``spread``: the player's
    score minus the opponent's before the move (for the win probability). ``seconds`` is the
    time budget (None: no limit, then ``iterations`` alone stops it and the result depends only
    on ``seed``). ``by_win``: compare by win probability (default: when the bag holds
    ``WIN_BAG`` tiles or fewer)."""
    from . import leaves as L
    table = leaves if leaves is not None else L.load()
    start = time.perf_counter()
    if moves is None:
        moves = candidates(board, rack, lexicon, bag=bag, n=n, leaves=table,
                           exchange_min_bag=exchange_min_bag, window=EQUITY_WINDOW)
    if not moves:
        raise ValueError(_("no hay jugadas que simular"))
    if by_win is None:
        by_win = bag <= WIN_BAG
    outs = [Outcome(c, c.equity) for c in moves]
    if len(outs) == 1:
        return Simulation(outs, 0, time.perf_counter() - start, "single", by_win)
    runner = _Runner(board, rack, lexicon, unseen, bag, outs, plies, table, exchange_min_bag,
                     _seed64(seed))
    model = winprob.load()
    done, batch, stopped = 0, 4, "iterations"
    while True:
        active = [not o.dropped for o in outs]
        count = min(batch, iterations - done)
        t0 = time.perf_counter()
        for k, rows in runner.run(active, done, count):
            _record(outs[k], rows, spread, model)
        done += count
        took = time.perf_counter() - t0
        if done >= MIN_ITERATIONS:
            _eliminate(outs, by_win, z)
        if sum(not o.dropped for o in outs) == 1:
            stopped = "clear"
            break
        if done >= iterations:
            break
        elapsed = time.perf_counter() - start
        if seconds is not None and elapsed >= seconds:
            stopped = "time"
            break
        if seconds is None:  # checkpoints that depend on nothing but the iteration count
            batch = 16
            continue
        # Batches of about a tenth of the time left (so the clock is kept), at least 4.
        per = took / count if count else 0.0
        batch = max(4, min(256, int((seconds - elapsed) / 10 / per) if per > 0 else 4))
    for o in outs:
        o.iterations = len(o._values)
        if o._values:
            o.value = sum(o._values) / len(o._values)
            o.win = sum(o._wins) / len(o._wins)
            o.stderr = _stdev(o._values) / math.sqrt(len(o._values))
    outs.sort(key=lambda o: (o.dropped, -_mean(o.objective(by_win)), -o.static))
    return Simulation(outs, done, time.perf_counter() - start, stopped, by_win)


def simulate_game(game: Game, **options) -> Simulation:
    """``simulate`` for the player to move in ``game`` (its board, rack, unseen tiles, bag,
    spread and ruleset)."""
    p = game.player_to_move
    options.setdefault("exchange_min_bag", game.ruleset.exchange_min_bag)
    lexicon = options.pop("lexicon", None) or game.lexicon
    return simulate(game.board, game.rack, lexicon, unseen=game.unseen(),
                    bag=len(game.bag), spread=game.scores[p] - game.scores[1 - p], **options)


# -- running the playouts ---------------------------------------------------------------------

def _seed64(seed: int | str) -> int:
    return random.Random(seed).getrandbits(64)


class _Runner:
    """The playouts of one position: in C when ``atril._sim`` is built."""

    def __init__(self, board: Board, rack: Sequence[int], lexicon, unseen: Sequence[int],
                 bag: int, outs: list[Outcome], plies: int, table: LeaveTable,
                 exchange_min_bag: int, seed: int):
        self.board, self.rack, self.unseen, self.bag = board, tuple(rack), list(unseen), bag
        self.plies, self.table, self.exchange_min_bag, self.seed = (plies, table,
                                                                     exchange_min_bag, seed)
        self.lexicon = lexicon
        self.cands = b"".join(o.candidate._rec for o in outs)
        self.counts, self.unseen_b = bytes(Rack(rack).counts()), bytes(unseen)
        kwg = movegen._kwg(lexicon)
        self.kwg = kwg
        if _native is not None:
            self.args = (kwg.nodes, kwg.child_masks, movegen._bingo_table(kwg),
                         movegen._leave_buffers(table))
        self.n = len(outs)
        self.unpack = struct.Struct(f"={FIELDS}f").iter_unpack

    def run(self, active: list[bool], first: int, count: int
            ) -> list[tuple[int, list[tuple[float, ...]]]]:
        """For each active candidate, its rows (spread, leave, unseen, flags) of iterations
        ``first`` … ``first + count - 1``."""
        if _native is None:  # pragma: no cover
            return self._run_python(active, first, count)
        nodes, masks, bingos, leaves = self.args
        raw = _native.simulate(self.board.squares, self.counts, self.unseen_b, self.bag,
                               self.cands, bytes(active), nodes, masks, bingos, leaves,
                               self.plies, self.exchange_min_bag, self.seed, first, count)
        rows = list(self.unpack(raw))
        n = self.n
        return [(k, rows[k::n]) for k in range(n) if active[k]]

    def _run_python(self, active: list[bool], first: int, count: int
                    ) -> list[tuple[int, list[tuple[float, ...]]]]:  # pragma: no cover
        """The same playouts through ``movegen`` (its own random stream: the C code's draws
        are not reproduced)."""
        from .rules import apply_play, check_play
        out: list[tuple[int, list[tuple[float, ...]]]] = [(k, []) for k in range(self.n)
                                                          if active[k]]
        pool = [t for t, c in enumerate(self.unseen) for _ in range(c)]
        opp_n = len(pool) - self.bag
        outs_c = [Candidate(self.cands[k * movegen.RECORD_SIZE:(k + 1) * movegen.RECORD_SIZE],
                            self.rack) for k in range(self.n)]
        for it in range(first, first + count):
            rng = random.Random(self.seed ^ it)
            deal = list(pool)
            rng.shuffle(deal)
            for k, rows in out:
                board = self.board.copy()
                racks = [list(outs_c[k].leave), deal[:opp_n]]
                bag = deal[opp_n:]
                spread, side, over = 0, 0, False
                kept: list[tuple[int, ...]] = [(), ()]
                moves: list[Candidate] = [outs_c[k]]
                for ply in range(self.plies + 1):
                    if ply:
                        found = movegen.best(board, racks[side], self.kwg,
                                             leave_values=self.table if bag else None,
                                             exchanges=len(bag) >= max(1, self.exchange_min_bag),
                                             bag_count=len(bag))
                        moves = list(found)
                        if ply and not moves:
                            kept[side] = ()
                            side = 1 - side
                            continue
                        for t in moves[0].used:
                            racks[side].remove(t)
                    c = moves[0]
                    kept[side] = tuple(sorted(racks[side])) if len(racks[side]) < 7 else ()
                    sign = 1 if side == 0 else -1
                    spread += sign * c.score
                    if c.move.is_play:
                        apply_play(board, check_play(board, c.move))
                    elif c.move.is_exchange:
                        bag.extend(c.used)
                    while len(racks[side]) < T.RACK_SIZE and bag:
                        racks[side].append(bag.pop(0))
                    if c.move.is_play and not racks[side] and not bag:
                        spread += sign * 2 * sum(T.VALUES[t] for t in racks[1 - side])
                        over = True
                        side = 1 - side
                        break
                    side = 1 - side
                leave = 0.0
                if not over and bag:
                    leave = self.table_value(kept[0]) - self.table_value(kept[1])
                flags = (FLAG_OVER if over else 0) | (FLAG_MOVER_TO_MOVE if side == 0 else 0)
                rows.append((spread, leave, len(bag) + len(racks[1 - side]), flags))
        return out

    def table_value(self, rack: Sequence[int]) -> float:  # pragma: no cover
        return self.table[rack] if rack else 0.0  # type: ignore[index]


def _record(o: Outcome, rows: list[tuple[float, ...]], spread: int,
            model: winprob.Model) -> None:
    """Add one candidate's rows: its value and the mover's win probability per iteration."""
    for gained, leave, unseen, flags in rows:
        value = gained + leave
        o._values.append(value)
        total = spread + gained
        if int(flags) & FLAG_OVER:
            o._wins.append(winprob.final(total))
        else:
            o._wins.append(model.probability(total + leave, int(unseen),
                                             to_move=bool(int(flags) & FLAG_MOVER_TO_MOVE)))


def _mean(v: Sequence[float]) -> float:
    return sum(v) / len(v) if v else -math.inf


def _stdev(v: Sequence[float]) -> float:
    n = len(v)
    if n < 2:
        return 0.0
    m = sum(v) / n
    return math.sqrt(max(0.0, sum((x - m) ** 2 for x in v) / (n - 1)))


def _eliminate(outs: list[Outcome], by_win: bool, z: float) -> None:
    """Successive elimination: drop every candidate the leader is clearly better than (its
    paired mean advantage more than ``z`` standard errors above zero)."""
    live = [o for o in outs if not o.dropped]
    series = {id(o): o.objective(by_win) for o in live}
    leader = max(live, key=lambda o: (_mean(series[id(o)]), o.static))
    lead = series[id(leader)]
    for o in live:
        if o is leader:
            continue
        diffs = [a - b for a, b in zip(lead, series[id(o)])]
        n = len(diffs)
        mean = sum(diffs) / n
        se = _stdev(diffs) / math.sqrt(n)
        if mean - z * se > 0:
            o.dropped = True
