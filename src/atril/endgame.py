"""The exact endgame: once the bag is empty each player can work out the other's rack, and
the rest of the game is a game of perfect information. ``solve`` finds the best move, the
final spread after perfect play by both and the line that gets there.

    >>> from atril import endgame
    >>> from atril.board import Board
    >>> from atril.lexicon import Lexicon
    >>> from atril.rack import parse_rack
    >>> board = Board("15/15/15/15/15/15/15/3CASA8/15/15/15/15/15/15/15")
    >>> solution = endgame.solve_racks(board, [parse_rack("S"), parse_rack("E")],
    ...                                Lexicon.load(), pass_limit=4)
    >>> str(solution.best), solution.value, [str(c) for c in solution.pv]
    ('H4 (CASA)S 14', 16, ['H4 (CASA)S 14'])

``solve`` takes a position (a CGP) whose bag is empty and adds its scores.
The search (``atril._endgame``, in C over the move generator's own code) is negamax with
alpha-beta, iterative deepening, a transposition table and move ordering; every value is
exact unless a time or node limit stopped it (``Solution.exact``). The end follows the
ruleset (art. 45): going out ends the game and gains the other rack's value, which the other
player loses; a run of passes ends it (four under FISE: both players pass twice, 45.2; six
scoreless turns under FILE 2024) with each player losing their own rack's value. The run of
passes already made is the position's scoreless-turn count (a CGP's zero turns: with the bag
empty they can only be passes and withdrawn plays). ``atril.reference.endgame`` is the plain
minimax the tests hold it to.

``preendgame`` plays the turn before: one tile left in the bag, the opponent's rack unknown
(they hold seven of the eight unseen tiles). Every candidate (plays, the pass, exchanging one
tile: art. 25 allows it while the bag holds as many tiles as are exchanged) is tried against
every possible bag tile, each draw solved as an exact endgame; the choice is by wins, then
spread. ``docs/ENDGAME.md`` says what is searched and what is not.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import _endgame as _native
from . import movegen
from . import tiles as T
from .board import Board
from .errors import InvalidPositionError
from .i18n import _
from .kwg import Kwg
from .move import PASS
from .position import Position
from .rack import Rack
from .ruleset import Ruleset

__all__ = ["PreCandidate", "Progress", "SearchInterrupted", "Solution", "endgame_words",
           "pass_limit", "preendgame", "preendgame_racks", "solve", "solve_racks"]

movegen.configure(_native)

#: transposition table: at most 2**TT_BITS entries of 16 bytes (256 MiB, kept from one search to
#: the next; a search uses the first 4 MiB and widens it sixteenfold as it fills, so only what
#: it uses is touched; the remembered plays of lines and cross-sets take another 74 MiB at most).
TT_BITS = 24


@dataclass(frozen=True)
class Solution:
    """What perfect play gives from a position. ``spread``: the final score difference (the
    player to move minus the other) counting the position's scores; ``value``: the points it
    adds from here; ``pv``: the best line to the end, the best move first (only that move
    when the search was stopped). ``exact``: every line was searched to the end of the game."""

    best: movegen.Candidate
    spread: int
    value: int
    pv: tuple[movegen.Candidate, ...]
    exact: bool
    nodes: int
    depth: int
    seconds: float

    def to_dict(self) -> dict:
        """The JSON of ``atril final``: best move, spread, best line, exactness, nodes."""
        return {"best": move_json(self.best), "spread": self.spread,
                "pv": [c.move.notation() for c in self.pv], "exact": self.exact,
                "nodes": self.nodes}


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a search (in the main thread, where signals arrive): it stops at once,
    however long the endgame would take, and ``solution`` is what it had found, not exact (the
    best move of the deepest search completed, as when a time limit stops it)."""

    def __init__(self, solution: Solution) -> None:
        super().__init__()
        self.solution = solution

    def __reduce__(self):
        """Pickled with its solution (a worker process's, sent back to the pool)."""
        return SearchInterrupted, (self.solution,)


def move_json(candidate: movegen.Candidate) -> dict:
    """A move as ``atril final --json`` writes it: notation, score and tiles placed."""
    from .board import square_name
    return {"notation": candidate.move.notation(), "score": candidate.score,
            "placed": [[square_name(sq), T.tile_to_machine(t)] for sq, t in candidate.placed]}


def pass_limit(ruleset: Ruleset | str | None = None) -> int:
    """How many passes in a row end a game under ``ruleset``: its own pass rule (45.2) or its
    scoreless-turn rule (45.3) when passes count there, whichever comes first. (The 0–0
    exception of 45.3 is not applied: with the bag empty the score is never 0–0 in a game.)"""
    rules = Ruleset.get(ruleset)
    limits = [n for n, applies in ((rules.max_passes, True),
                                   (rules.max_scoreless_turns, PASS in rules.scoreless_counts))
              if n is not None and applies]
    if not limits:
        raise InvalidPositionError(
            _("el reglamento {ruleset} no termina nunca una serie de pases").format(
                ruleset=rules.name))
    return min(limits)


#: Told now and then how far a search in the main thread got: the positions searched so far,
#: and the plies and spread of the last iteration of the deepening completed (0, 0 before the
#: first). Whatever it raises stops the search and is raised again.
Progress = Callable[[int, int, int], object]


def solve(position: Position, lexicon, *, ruleset: Ruleset | str | None = None,
          seconds: float | None = None, max_nodes: int | None = None,
          progress: Progress | None = None) -> Solution:
    """Solve the endgame of a position whose bag is empty and whose racks are both known (a
    CGP gives the player to move first). ``seconds`` or ``max_nodes`` stop the search early:
    the answer is then the best move of the deepest search completed, and not exact. The
    spreads given to ``progress`` count the position's scores, as the answer's does."""
    if not position.racks[0] or not position.racks[1]:
        raise InvalidPositionError(
            _("el final exacto necesita los dos atriles: el CGP da «atril1/atril2», el del "
              "jugador al turno primero"))
    _check_racks(position)
    bag = position.bag_count()
    if bag:
        raise InvalidPositionError(
            _("el final exacto necesita la bolsa vacía: quedan {tiles} fichas por sacar").format(
                tiles=bag))
    # With the bag empty, the scoreless turns since the last play can only be passes (and
    # withdrawn plays, which count as passes: 45.2).
    passes = start_passes(Ruleset.get(ruleset), position.zero_turns, position.zero_turns)
    told: Progress | None = None
    if progress is not None:
        report, ahead = progress, position.scores[0] - position.scores[1]

        def told(nodes: int, depth: int, value: int) -> object:
            return report(nodes, depth, ahead + value if depth else 0)

    try:
        solution = solve_racks(position.board, position.racks, lexicon,
                               pass_limit=pass_limit(ruleset), passes=passes, seconds=seconds,
                               max_nodes=max_nodes, progress=told)
    except SearchInterrupted as stop:
        raise SearchInterrupted(_with_scores(position, stop.solution)) from None
    return _with_scores(position, solution)


def _with_scores(position: Position, solution: Solution) -> Solution:
    """The solution with the position's scores counted in its spread."""
    spread = position.scores[0] - position.scores[1] + solution.value
    return Solution(solution.best, spread, solution.value, solution.pv, solution.exact,
                    solution.nodes, solution.depth, solution.seconds)


def _check_racks(position: Position) -> None:
    """What the C search takes on trust, checked first: racks of at most seven tiles, known
    codes, no more tiles of a kind than the game has (art. 3)."""
    position.validate()


def start_passes(rules: Ruleset, pass_streak: int, scoreless_streak: int) -> int:
    """The search's pass count at the root: the fresh limit less the passes still allowed,
    by the pass rule (45.2) and the scoreless-turn rule (45.3), whichever ends it first
    (``ending.streaks`` counts them in a game); InvalidPositionError when they ended it."""
    left = []
    if rules.max_passes is not None:
        left.append(rules.max_passes - pass_streak)
    if rules.max_scoreless_turns is not None and PASS in rules.scoreless_counts:
        left.append(rules.max_scoreless_turns - scoreless_streak)
    remaining = min(left) if left else pass_limit(rules)
    if remaining <= 0:
        raise InvalidPositionError(
            _("la partida ya ha terminado: {turns} turnos seguidos sin puntuar").format(
                turns=scoreless_streak))
    return pass_limit(rules) - remaining


def solve_racks(board: Board, racks: Sequence[Sequence[int]], lexicon, *, pass_limit: int,
                passes: int = 0, bag: int | None = None, seconds: float | None = None,
                max_nodes: int | None = None, words: Kwg | None = None,
                proof: bool = True, progress: Progress | None = None) -> Solution:
    """The search itself, on a board and two racks (the first to move), for callers that
    checked them (the pre-endgame, the player); ``spread`` is the value. ``bag``: the one
    tile left in the bag, which the next play draws (then nobody can go out before it).
    ``words``: the lexicon cut down by ``endgame_words`` for this board or one it came from
    (made here when not given, within ``seconds``: a player's clock counts it). ``proof=False``
    leaves out the proof of the shallow search's value (docs/ENDGAME.md): the search the
    tests hold it to. ``progress``: see ``Progress`` (its spreads are values from here)."""
    start = time.perf_counter()
    if words is None:
        words = endgame_words(board, [*racks[0], *racks[1], *([] if bag is None else [bag])],
                              lexicon)
    limit = 0.0  # none
    if seconds:
        limit = max(seconds - (time.perf_counter() - start), 0.001)
    counts = [bytes(Rack(r).counts()) for r in racks]
    try:
        found = _native.solve(
            board.squares, counts[0], counts[1], words.nodes, words.child_masks, pass_limit,
            passes, limit, int(max_nodes or 0), _table_bits(racks), -1 if bag is None else bag,
            *(() if proof else (0,)), progress=progress)
    except KeyboardInterrupt as stop:
        partial = getattr(stop, "partial", None)
        if partial is None:
            raise
        raise SearchInterrupted(_solution(partial, racks, bag, start)) from None
    return _solution(found, racks, bag, start)


def _solution(found: tuple[int, int, int, int, bytes], racks: Sequence[Sequence[int]],
              bag: int | None, start: float) -> Solution:
    """The native search's answer (value, exact, nodes, depth, best line) as a Solution."""
    value, exact, nodes, depth, line = found
    pv = _line(line, racks, bag)
    if not pv:  # stopped before a first answer: the pass is always legal
        pv = (movegen.Candidate(_PASS_RECORD, tuple(racks[0])),)
    return Solution(pv[0], value, value, pv, bool(exact), nodes, depth,
                    time.perf_counter() - start)


def endgame_words(board: Board, tiles: Sequence[int], lexicon) -> Kwg:
    """The lexicon cut down to the words that can still be formed on ``board`` with ``tiles``
    (both racks, and the bag's tile), each used once at most (``_endgame.words``): every word
    an endgame forms — a play's own and the words across it — is one of them, so the search
    finds the same plays and cross-sets over a graph of thousands of words, not hundreds of
    thousands (6 % less time on the bench's endgames). It holds for the boards that come from
    this one by plays of these tiles too: the pre-endgame makes it once for all its endgames."""
    if len(tiles) > 2 * T.RACK_SIZE + 1 or not all(0 <= t < T.ALPHABET_SIZE for t in tiles):
        raise InvalidPositionError(
            _("un final tiene como mucho {most} fichas (dos atriles y la de la bolsa), cada una "
              "con un código de ficha").format(most=2 * T.RACK_SIZE + 1))
    pool = [0] * T.ALPHABET_SIZE
    for t in tiles:
        pool[t] += 1
    blob = _native.words(board.squares, bytes(pool), lexicon.kwg.nodes, lexicon.kwg.child_masks)
    return Kwg.build_blob(blob) if blob else lexicon.kwg  # no word: no play either way


def _table_bits(racks: Sequence[Sequence[int]]) -> int:
    """The most table the problem may need: small endgames (the tests solve thousands) need
    no more than a few MiB for the plays they remember."""
    return min(TT_BITS, 12 + len(racks[0]) + len(racks[1]))


_PASS_RECORD = bytes([0, 0, movegen.KIND_PASS]) + bytes(movegen.RECORD_SIZE - 3)


def _line(records: bytes, racks: Sequence[Sequence[int]],
          bag: int | None = None) -> tuple[movegen.Candidate, ...]:
    """The packed best line as candidates, each with its player's rack at that point."""
    held = [list(racks[0]), list(racks[1])]
    out = []
    size = movegen.RECORD_SIZE
    for i, off in enumerate(range(0, len(records), size)):
        rack = held[i % 2]
        candidate = movegen.Candidate(records[off:off + size], tuple(rack))
        left = Counter(rack)
        left.subtract(candidate.used)
        if candidate.move.is_play and bag is not None:
            left[bag] += 1  # the first play draws the bag's last tile
            bag = None
        held[i % 2] = list(left.elements())
        out.append(candidate)
    return tuple(out)


@dataclass(frozen=True)
class PreCandidate:
    """A pre-endgame candidate: ``wins`` out of ``draws`` (the unseen tiles, each possible
    bag tile counted as often as it is unseen; a tie is half a win), the mean final spread
    (counting the position's scores), the final spread per bag tile, and whether every draw
    was solved exactly."""

    candidate: movegen.Candidate
    wins: float
    draws: int
    spread: float
    outcomes: tuple[tuple[int, int], ...]  # (bag tile, final spread)
    exact: bool

    @property
    def move(self):
        return self.candidate.move


def preendgame(position: Position, lexicon, *, ruleset: Ruleset | str | None = None,
               top: int | None = None, seconds: float | None = None) -> list[PreCandidate]:
    """Every candidate of a position with one tile in the bag, best first (wins, then mean
    spread, counting the position's scores). The opponent's rack is unknown (the CGP leaves
    it empty): each of the eight unseen tiles is tried as the bag tile, the other seven being
    theirs. When the CGP gives it, only that draw. ``top``: only the best ``top`` plays by
    score (the pass and the one-tile exchanges always); ``seconds``: the limit of each endgame
    search (a stopped one makes its candidate inexact)."""
    if not position.racks[0]:
        raise InvalidPositionError(_("falta el atril del jugador al turno"))
    _check_racks(position)
    if position.bag_count() != 1:
        raise InvalidPositionError(
            _("el prefinal necesita una sola ficha en la bolsa: hay {tiles}").format(
                tiles=position.bag_count()))
    unseen = [t for t, n in enumerate(position.unseen()) for _ in range(n)]
    return preendgame_racks(position.board, position.racks[0], unseen, lexicon,
                            ruleset=ruleset, opponent=position.racks[1] or None,
                            spread=position.scores[0] - position.scores[1],
                            zero_turns=position.zero_turns, top=top, seconds=seconds)


def preendgame_racks(board: Board, rack: Sequence[int], unseen: Sequence[int], lexicon, *,
                     ruleset: Ruleset | str | None = None,
                     opponent: Sequence[int] | None = None, spread: int = 0,
                     zero_turns: int = 0, top: int | None = None,
                     seconds: float | None = None) -> list[PreCandidate]:
    """``preendgame`` on a board, the mover's rack and the unseen tiles (the opponent's rack
    and the one bag tile; ``opponent``: their rack when known), for callers that checked
    them; ``spread``: the mover's lead so far, ``zero_turns``: the scoreless turns in a row."""
    rules = Ruleset.get(ruleset)
    rack = tuple(rack)
    pool = Counter(unseen)
    if opponent is not None:  # the bag tile is what the opponent does not hold
        left = pool - Counter(opponent)
        draws = {t: (n, tuple(opponent)) for t, n in left.items()}
    else:
        draws = {t: (n, tuple((pool - Counter([t])).elements())) for t, n in pool.items()}
    if sum(n for n, _ in draws.values()) < 1:
        raise InvalidPositionError(_("el prefinal necesita una sola ficha en la bolsa: hay 0"))
    limit = pass_limit(rules)
    # Art. 25: an exchange needs the bag to hold at least max(n, exchange_min_bag) tiles.
    may_exchange = rules.exchange_min_bag <= 1
    found = movegen.generate(board, rack, lexicon, exchanges=may_exchange, bag_count=1)
    plays = [c for c in found if c.move.is_play]
    others = [c for c in found if not c.move.is_play and len(c.used) <= 1]
    if not any(c.move.is_pass for c in others):
        others.append(movegen.Candidate(_PASS_RECORD, rack))
    if top is not None:
        plays = plays[:top]
    words = endgame_words(board, [*rack, *unseen], lexicon)  # every endgame below comes from it
    results = []
    for cand in plays + others:
        outcomes, wins, total, exact, count = [], 0.0, 0, True, 0
        for tile, (weight, opp) in sorted(draws.items()):
            final, ok = _outcome(board, rack, cand, tile, opp, lexicon, words, rules, limit,
                                 zero_turns, seconds)
            final += spread
            exact &= ok
            outcomes.append((tile, final))
            wins += weight * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
            total += weight * final
            count += weight
        results.append(PreCandidate(cand, wins, count, total / count, tuple(outcomes), exact))
    results.sort(key=lambda r: (-r.wins, -r.spread))
    return results


def _outcome(board: Board, own: tuple[int, ...], cand: movegen.Candidate, tile: int,
             opp: tuple[int, ...], lexicon, words: Kwg, rules: Ruleset, limit: int, z: int,
             seconds: float | None) -> tuple[int, bool]:
    """The spread the candidate adds to the end of the game when ``tile`` is in the bag and
    the opponent holds ``opp``, with perfect play after it; and whether that is exact."""
    rack = Counter(own)
    rack.subtract(cand.used)
    rack = +rack
    opp_value = sum(T.VALUES[t] for t in opp if t != T.BLANK)
    if cand.move.is_play:  # draws the last tile: a pure endgame, the opponent to move
        after = board.copy()
        for sq, t in cand.placed:
            after[sq] = t
        rack[tile] += 1
        s = solve_racks(after, (opp, tuple(rack.elements())), lexicon, pass_limit=limit,
                        seconds=seconds, words=words)
        return cand.score - s.value, s.exact
    if cand.move.is_pass:
        pass_streak, scoreless, bag = z + 1, z + 1, tile
    else:  # exchange one tile: draw the bag's, give back our own (art. 25); not a pass (45.2)
        rack[tile] += 1
        pass_streak, scoreless, bag = 0, z + 1, cand.used[0]
    mine = tuple(rack.elements())
    try:
        passes = start_passes(rules, pass_streak, scoreless)
    except InvalidPositionError:  # that turn ends the game (45.2, 45.3): own racks off
        return opp_value - sum(T.VALUES[t] for t in mine if t != T.BLANK), True
    s = solve_racks(board, (opp, mine), lexicon, pass_limit=limit, passes=passes, bag=bag,
                    seconds=seconds, words=words)
    return -s.value, s.exact
