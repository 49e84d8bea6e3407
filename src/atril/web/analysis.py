"""After the game: for every turn, the best plays next to the one made, and missed scrabbles
(``analyse``, at once, static); and the analysis by simulation, in the background
(``DeepAnalyses``).

Plays are ranked by equity (score plus the value of the tiles kept, ``atril.leaves``); with the
bag empty, by score. Only finished games are analysed: during a game this would tell a player
which words are valid (art. 43).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool

from .. import analysis as full_analysis
from .. import leaves, movegen
from .. import tiles as T
from ..board import Board
from ..game import PLAY, Game
from ..i18n import _
from ..lexicon import Lexicon
from .requests import ApiError

log = logging.getLogger(__name__)

TOP = 3


def analyse(game: Game, lexicon: Lexicon) -> list[dict]:
    """One entry per turn: its number ``n``, the turn (``Turn.to_dict``), the top plays, the
    scrabbles the rack allowed if the play made was not one, and the static verdict of
    ``atril.analysis`` (``verdict``: the play made and the best by equity, each with its win
    probability after the move, what the choice lost, and ``win_before``, the mover's win
    probability before it: the points of a win-probability graph)."""
    board = Board()
    table = leaves.load()
    verdicts = full_analysis.analyse(game, lexicon, seconds=0).turns
    out = []
    for n, turn in enumerate(game.history):
        # While the bag has tiles both racks are full; then the tiles kept have a value.
        bag = T.TOTAL_TILES - board.tile_count() - 2 * T.RACK_SIZE
        top = movegen.best(board, turn.rack, lexicon, n=TOP,
                           leave_values=table if bag > 0 else None)
        best = [{"move": full_analysis.notation(c), "score": c.score,
                 "equity": round(c.equity, 1)} for c in top]
        scrabbles = [{"move": s["notation"], "score": s["score"]}  # found by the verdict
                     for s in verdicts[n].missed_scrabbles]
        verdict = verdicts[n].to_dict()
        out.append({"n": n + 1, **turn.to_dict(), "best": best, "missed_scrabbles": scrabbles,
                    "verdict": {key: verdict[key] for key in (
                        "win_before", "played", "best", "equity_lost", "win_lost")}})
        if turn.kind == PLAY:
            for sq, t in turn.placed():
                board[sq] = t
    return out


# -- the analysis by simulation, in the background ---------------------------------------------

#: finished analyses kept in memory (the oldest forgotten first)
KEEP = 64
#: analyses waiting or running at once; more are refused until one ends
QUEUE = 8


@dataclass
class Job:
    """A game's analysis by simulation: how far it is, and its result when done."""

    total: int
    done: int = 0
    result: dict | None = None
    failed: bool = False

    def to_dict(self, position: int | None) -> dict:
        state = ("failed" if self.failed else "done" if self.result is not None
                 else "running" if position == 0 else "queued")
        out: dict = {"state": state, "done": self.done, "total": self.total}
        if state == "queued":
            out["ahead"] = position
        if self.result is not None:
            out["analysis"] = self.result
        return out


class DeepAnalyses:
    """``atril.analysis`` with the simulation (``seconds`` a turn) for finished games, one
    game at a time in the background, so a server's cores stay with the games in play: the
    page asks for it, then polls its progress. The turns run in the thread pool (the
    simulation's loop is C without the GIL); results stay in memory (the last ``KEEP``), so a
    game is analysed once however many ask, and a restart forgets them."""

    def __init__(self, seconds: float, tasks: set[asyncio.Task]):
        self.seconds = seconds
        self.tasks = tasks  # the app cancels them on shutdown
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.waiting: list[tuple[str, Game, Lexicon]] = []
        self.running: str | None = None

    def status(self, game_id: str) -> dict:
        job = self.jobs.get(game_id)
        if job is None:
            return {"state": "none", "done": 0, "total": 0}
        return job.to_dict(self._position(game_id))

    def start(self, game_id: str, game: Game, lexicon: Lexicon) -> dict:
        """Queue ``game`` (over, art. 43) unless it is queued, running or done already."""
        job = self.jobs.get(game_id)
        if job is not None and not job.failed:
            return self.status(game_id)
        if len(self.waiting) + (self.running is not None) >= QUEUE:
            raise ApiError(503, _("hay demasiados análisis en marcha: prueba dentro de un rato"))
        self.jobs[game_id] = Job(total=len(game.history))
        self.waiting.append((game_id, game, lexicon))
        if self.running is None:
            task = asyncio.create_task(self._work())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return self.status(game_id)

    def _position(self, game_id: str) -> int | None:
        if self.running == game_id:
            return 0
        for k, (waiting_id, _game, _lexicon) in enumerate(self.waiting, start=1):
            if waiting_id == game_id:
                return k
        return None

    async def _work(self) -> None:
        while self.waiting:
            game_id, game, lexicon = self.waiting.pop(0)
            self.running = game_id
            job = self.jobs[game_id]
            try:
                turns = []
                for n in range(job.total):
                    turns.append(await run_in_threadpool(
                        full_analysis.analyse_turn, game, n, lexicon, seconds=self.seconds,
                        seed=game_id))
                    job.done = n + 1
                job.result = full_analysis.report(game, lexicon, self.seconds, turns).to_dict()
            except Exception:
                log.exception("no se pudo analizar la partida %s", game_id)
                job.failed = True
            finally:
                self.running = None
            self.jobs.move_to_end(game_id)
            ended = [k for k, j in self.jobs.items() if j.result is not None or j.failed]
            for k in ended[:max(0, len(self.jobs) - KEEP)]:
                del self.jobs[k]
