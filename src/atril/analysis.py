"""Analysis of a finished game: for every turn, the play made next to the best play found, the
equity and the win probability the choice lost, and the scrabbles the rack allowed.

    >>> from atril import analysis, players
    >>> from atril.lexicon import Lexicon
    >>> lexicon = Lexicon.load()
    >>> game = players.play_game([players.get("greedy"), players.get("equity")], seed=1,
    ...                          lexicon=lexicon)
    >>> report = analysis.analyse(game, lexicon, seconds=0)      # static: equity only
    >>> len(report.turns) == len(game.history), report.turns[0].equity_lost >= 0
    (True, True)

How each turn is judged (the same engine as the ``campeon`` level, docs/SIMULATION.md):

* **bag with tiles**: the top candidates by static equity and the play made are simulated
  (``atril.sim``) for ``seconds``; a candidate's *equity* is its mean value over the playouts
  (spread gained plus leave term) and its *win* the mean win probability at their end. With
  ``seconds=0`` nothing is simulated: equity is the static one (score + leave value) and win
  the model's probability after the move (``atril.winprob``).
* **bag empty**: the exact endgame (``atril.endgame``) gives the final spread after the best
  play and after the play made (the opponent's rack is then known: the unseen tiles); the win
  probability is the result it leads to (won 1, drawn ½, lost 0).

``equity_lost`` and ``win_lost`` are the best's figures minus the play made's, never below 0
(when the play made is as good as the best found, it *is* the best). A withdrawn play (art.
42) is judged as the pass it amounts to. ``missed_scrabbles``: the best scrabbles the rack
allowed on a turn that made none. Only finished games should be analysed: during a game this
would tell a player which words are valid (art. 43).
"""

from __future__ import annotations

import struct
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from . import ending, movegen, sim, winprob
from . import leaves as L
from . import tiles as T
from .errors import InvalidPositionError
from .game import EXCHANGE, PLAY, Game, Turn
from .move import THROUGH
from .movegen import Candidate

__all__ = ["Analysis", "Choice", "TurnAnalysis", "analyse", "analyse_turn", "notation", "report",
           "SCRABBLES"]

#: how many missed scrabbles to list per turn
SCRABBLES = 3
#: candidates simulated per turn (plus the play made)
CANDIDATES = 10


@dataclass
class Choice:
    """A move as the analysis reports it: notation, score, its equity and win probability
    (the mover's, after the move)."""

    notation: str
    score: int
    equity: float
    win: float


@dataclass
class TurnAnalysis:
    """One turn: who (``player``), the rack, the win probability before the move (the mover's,
    from the model), the play made and the best found, what the choice lost, the missed
    scrabbles, and how it was judged (``method``: simulation, static, endgame; with
    ``iterations`` of the simulation)."""

    n: int
    player: int
    rack: str
    win_before: float
    played: Choice
    best: Choice
    equity_lost: float
    win_lost: float
    missed_scrabbles: list[dict] = field(default_factory=list)
    method: str = "static"
    iterations: int = 0

    def to_dict(self) -> dict:
        data = asdict(self)
        for key in ("win_before", "equity_lost", "win_lost"):
            data[key] = round(data[key], 4 if key != "equity_lost" else 1)
        for key in ("played", "best"):
            data[key]["equity"] = round(data[key]["equity"], 1)
            data[key]["win"] = round(data[key]["win"], 4)
        return data


@dataclass
class Analysis:
    """The whole game: players, lexicon, the time per turn, and each turn."""

    players: list[str]
    lexicon: str
    seconds: float
    turns: list[TurnAnalysis]
    final: list[int] | None

    def to_dict(self) -> dict:
        return {"players": self.players, "lexicon": self.lexicon, "seconds": self.seconds,
                "final": self.final, "turns": [t.to_dict() for t in self.turns]}


def analyse(game: Game, lexicon, *, seconds: float = 1.0, seed: int | str = 0,
            on_turn: Callable[[int, int], None] | None = None) -> Analysis:
    """Analyse every turn of ``game`` (see the module docstring); ``seconds`` per turn
    (0: static), ``on_turn(done, total)`` after each turn (a progress bar)."""
    turns = []
    total = len(game.history)
    for n in range(total):
        turns.append(analyse_turn(game, n, lexicon, seconds=seconds, seed=seed))
        if on_turn is not None:
            on_turn(n + 1, total)
    return report(game, lexicon, seconds, turns)


def analyse_turn(game: Game, n: int, lexicon, *, seconds: float = 1.0,
                 seed: int | str = 0) -> TurnAnalysis:
    """Turn ``n`` (from 0) of ``game`` alone: the same answer as in ``analyse``, so the turns
    of a game may be shared among processes (``atril analizar --workers``)."""
    return _turn(game.position_at(n), game.history[n], n, lexicon, L.load(), winprob.load(),
                 seconds, f"{seed}:{n}")


def report(game: Game, lexicon, seconds: float, turns: list[TurnAnalysis]) -> Analysis:
    """The analysis of ``game`` from its turns' (in order)."""
    final = list(game.result.scores) if game.result is not None else None
    return Analysis(list(game.players), getattr(lexicon, "id", game.lexicon_id), seconds,
                    turns, final)


def _turn(game: Game, turn: Turn, n: int, lexicon, table, model: winprob.Model,
          seconds: float, seed: str) -> TurnAnalysis:
    p = turn.player
    rack = tuple(turn.rack)
    bag = len(game.bag)
    unseen = _unseen(game, rack)
    spread = game.scores[p] - game.scores[1 - p]
    win_before = model.probability(spread, sum(unseen))
    min_bag = game.ruleset.exchange_min_bag
    top = sim.candidates(game.board, rack, lexicon, bag=bag, n=CANDIDATES, leaves=table,
                         exchange_min_bag=min_bag)
    played = _find(top, turn)
    if played is None:
        played = _candidate(game, turn, table if bag else None)
        moves = [*top, played]
    else:
        moves = list(top)
    method, iterations = "static", 0
    if bag == 0 and seconds > 0:
        values = _endgame(game, rack, unseen, lexicon, moves, seconds)
        if values is not None:
            method = "endgame"
    if method == "endgame":
        assert values is not None
        equity = {id(c): float(v) for c, v in zip(moves, values)}
        win = {id(c): winprob.final(spread + v) for c, v in zip(moves, values)}
    elif seconds > 0 and len(moves) > 1 and bag > 0:
        result = sim.simulate(game.board, rack, lexicon, unseen=unseen, bag=bag,
                              spread=spread, moves=moves, seconds=seconds, seed=seed,
                              leaves=table, exchange_min_bag=min_bag)
        method, iterations = "simulation", result.iterations
        equity = {id(o.candidate): o.value for o in result.outcomes}
        win = {id(o.candidate): o.win for o in result.outcomes}
        best = result.best.candidate
    else:
        equity = {id(c): c.equity for c in moves}
        win = {id(c): _static_win(model, c, spread, unseen, bag) for c in moves}
    if method != "simulation":
        best = max(moves, key=lambda c: (win[id(c)], equity[id(c)]) if bag <= sim.WIN_BAG
                   else (equity[id(c)], win[id(c)]))
    if _same(best, played):
        best = played

    def choice(c: Candidate) -> Choice:
        return Choice(notation(c), c.score, equity[id(c)], win[id(c)])

    return TurnAnalysis(
        n=n + 1, player=p, rack=T.to_machine(sorted(rack, key=T.blank_last)),
        win_before=win_before, played=choice(played), best=choice(best),
        equity_lost=max(0.0, equity[id(best)] - equity[id(played)]),
        win_lost=max(0.0, win[id(best)] - win[id(played)]),
        missed_scrabbles=_scrabbles(game, rack, lexicon, turn), method=method,
        iterations=iterations)


def _unseen(game: Game, rack: tuple[int, ...]) -> list[int]:
    """What the mover could not see: the full set less the board and their own rack."""
    from .bag import unseen
    return unseen(game.board, rack)


def _static_win(model: winprob.Model, c: Candidate, spread: int, unseen: list[int],
                bag: int) -> float:
    """The model's win probability after a move judged statically: the opponent moves next,
    seeing the bag and the mover's rack after the refill."""
    after = spread + c.equity
    kept = len(c.leave)
    opp_unseen = bag + min(T.RACK_SIZE, kept + min(bag, T.RACK_SIZE - kept))
    if c.move.is_play and not c.leave and bag == 0:
        opp_rack = sum(T.VALUES[t] for t, k in enumerate(unseen) for _ in range(k))
        return winprob.final(spread + c.score + 2 * opp_rack)
    return model.probability(after, opp_unseen, to_move=False)


def _endgame(game: Game, rack: tuple[int, ...], unseen: list[int], lexicon,
             moves: list[Candidate], seconds: float) -> list[int] | None:
    """Points each move gains from here to the end with perfect play (bag empty), or None
    without the endgame module."""
    try:
        from . import endgame
        from .rules import apply_play, check_play
    except ImportError:  # pragma: no cover
        return None
    opp = tuple(t for t, k in enumerate(unseen) for _ in range(k))
    if not opp:
        return None
    rules = game.ruleset
    try:
        limit = endgame.pass_limit(rules)
    except Exception:  # noqa: BLE001 - a ruleset whose passes never end: no exact answer
        return None
    pass_streak, scoreless = ending.streaks(game.history, rules)
    budget = max(0.05, seconds) / max(1, len(moves))
    values = []
    for c in moves:
        left = list(c.leave)
        if c.move.is_play:
            board = game.board.copy()
            apply_play(board, check_play(board, c.move))
            if not left:
                values.append(c.score + 2 * sum(T.VALUES[t] for t in opp))
                continue
            after = 0
        else:  # the pass (with the bag empty nothing can be exchanged, art. 25)
            board = game.board
            try:
                after = endgame.start_passes(rules, pass_streak + 1, scoreless + 1)
            except InvalidPositionError:  # it ends the game: each loses their own rack
                values.append(sum(T.VALUES[t] for t in opp) - sum(T.VALUES[t] for t in rack))
                continue
        reply = endgame.solve_racks(board, [opp, tuple(left)], lexicon, pass_limit=limit,
                                    passes=after, seconds=budget)
        values.append(c.score - reply.value)
    return values


def _scrabbles(game: Game, rack: tuple[int, ...], lexicon, turn: Turn) -> list[dict]:
    """The best scrabbles (art. 19) the rack allowed, if the play made was not one."""
    if turn.kind == PLAY and len(turn.placed()) == T.RACK_SIZE:
        return []
    if len(rack) < T.RACK_SIZE:
        return []
    out: list[dict] = []
    for c in movegen.generate(game.board, rack, lexicon):
        if c.score < 50:  # the bonus alone is 50: nothing below can be a scrabble
            break
        if c.bingo:
            out.append({"notation": notation(c), "score": c.score})
            if len(out) == SCRABBLES:
                break
    return out


def notation(c: Candidate) -> str:
    """``H8 CA(S)A`` (tiles on the board in parentheses), ``cambio AEI``, ``paso``."""
    return str(c).rsplit(" ", 1)[0]


def _key(kind: int, c: Candidate) -> tuple:
    if kind == movegen.KIND_PLAY:
        return (kind, tuple(sorted(c.placed)))
    return (kind, tuple(sorted(c.used)))


def _same(a: Candidate, b: Candidate) -> bool:
    return _kind(a) == _kind(b) and _key(_kind(a), a) == _key(_kind(b), b)


def _kind(c: Candidate) -> int:
    return c._rec[movegen._KIND]


def _find(top: list[Candidate], turn: Turn) -> Candidate | None:
    """The play made among the candidates, if it is one of them."""
    want: tuple
    if turn.kind == PLAY:
        want = (movegen.KIND_PLAY, tuple(sorted(turn.placed())))
    elif turn.kind == EXCHANGE:
        want = (movegen.KIND_EXCHANGE, tuple(sorted(turn.move.tiles)))
    else:  # a pass, or a withdrawn play: the turn passes
        want = (movegen.KIND_PASS, ())
    for c in top:
        if _key(_kind(c), c) == want:
            return c
    return None


def _candidate(game: Game, turn: Turn, table) -> Candidate:
    """The play made as a packed move record (even a word the lexicon lacks), its equity the
    score plus the value of the tiles kept."""
    rec = bytearray(movegen.RECORD_SIZE)
    rack = tuple(turn.rack)
    if turn.kind == PLAY:
        move = turn.move
        word = bytes((full | movegen.NEW_BIT) if new != THROUGH else full
                     for new, full in zip(move.tiles, turn.word))
        rec[movegen._KIND] = movegen.KIND_PLAY
        rec[movegen._DIR] = 0 if move.across else 1
        rec[movegen._ROW], rec[movegen._COL] = move.row, move.col
        rec[movegen._NPLACED] = len(turn.placed())
        score = turn.score
    else:
        word = bytes(turn.move.tiles) if turn.kind == EXCHANGE else b""
        rec[movegen._KIND] = movegen.KIND_EXCHANGE if turn.kind == EXCHANGE else \
            movegen.KIND_PASS
        score = 0
    rec[movegen._LEN] = len(word)
    rec[movegen._TILES:movegen._TILES + len(word)] = word
    struct.pack_into("=h", rec, movegen._SCORE, score)
    candidate = Candidate(bytes(rec), rack)
    kept = Counter(rack)
    kept.subtract(candidate.used)
    leave = tuple(sorted(kept.elements()))
    value = table[leave] if table is not None and 0 < len(leave) < T.RACK_SIZE else 0.0
    struct.pack_into("=f", rec, movegen._EQUITY, score + value)
    return Candidate(bytes(rec), rack)

