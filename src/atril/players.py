"""Computer players: the engine behind "play against the computer" and self-play.

A player is anything with ``choose(game) -> Move`` (the move for the player to move) and
``challenges(game) -> bool`` (whether to challenge the opponent's pending play), the way a
python-chess engine answers ``play(board)``. ``get(name)`` makes one of the built-in levels:

    >>> from atril import players
    >>> from atril.game import Game
    >>> game = Game(["Ana", "atril"], seed=1)
    >>> move = players.get("greedy").choose(game)      # the highest-scoring play
    >>> game.play(move).score > 0
    True

``LEVELS`` holds the names and Spanish descriptions (the web app lists them). ``play_game``
plays a whole game between two players through the referee (``atril.referee``), challenges
and the blocked end (art. 45.1) included.

The computer knows the lexicon: its own plays are always valid, so a challenge against it
always fails, and it challenges a play only when that play really is invalid (greedy, equity:
always; intermedio: half the time; principiante: never, as a learner would miss them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from . import movegen
from . import tiles as T
from .errors import AtrilError
from .game import Game
from .i18n import N_, _
from .lexicon import Lexicon
from .move import Move
from .referee import Player, Referee
from .rules import check_play

__all__ = ["LEVELS", "Level", "Engine", "Champion", "Player", "get", "match", "play_game",
           "play_out", "pending_is_valid"]


@dataclass(frozen=True)
class Level:
    """One built-in player: name, Spanish title and description (msgids: ``_(level.title)``
    where they are shown), and how it picks a move.

    ``top``: how many of the best moves it picks among at random (1 = always the best);
    ``equity``: rank by score plus leave value (and consider exchanges) instead of score;
    ``max_word``: longest main word it plays; ``bingos``: whether it plays all seven tiles;
    ``challenge``: probability of challenging a play it knows to be invalid;
    ``simulate``: think ahead (``Champion``: simulation, the exact endgame), within a time
    budget per move."""

    name: str
    title: str
    description: str
    top: int = 1
    equity: bool = False
    max_word: int = 15
    bingos: bool = True
    challenge: float = 1.0
    simulate: bool = False


LEVELS: dict[str, Level] = {lv.name: lv for lv in (
    Level("principiante", N_("Principiante"),
          N_("Juega palabras cortas (hasta 5 letras), nunca hace scrabble y elige al azar entre "
             "sus 15 mejores jugadas; no impugna nunca."),
          top=15, max_word=5, bingos=False, challenge=0.0),
    Level("intermedio", N_("Intermedio"),
          N_("Palabras de hasta 8 letras, sin scrabbles; elige al azar entre las 3 mejores "
             "jugadas según la puntuación y las fichas que se queda; impugna la mitad de las "
             "jugadas no válidas."),
          top=3, equity=True, max_word=8, bingos=False, challenge=0.5),
    Level("greedy", N_("Voraz"),
          N_("Siempre la jugada que más puntos da, sin pensar en las fichas que se queda; "
             "impugna toda jugada no válida."),
          top=1),
    Level("equity", N_("Experto"),
          N_("La jugada de más equidad: puntos más el valor de las fichas que se queda "
             "(valores aprendidos jugando contra sí mismo); sabe cambiar fichas; impugna toda "
             "jugada no válida."),
          top=1, equity=True),
    Level("campeon", N_("Campeón"),
          N_("Piensa por adelantado: juega muchas veces las mejores jugadas contra atriles "
             "posibles del rival y elige la que más gana (al final, la que más probabilidad "
             "de ganar le da); con la bolsa vacía calcula el final exacto. Tarda hasta el "
             "tiempo por jugada que se le dé; impugna toda jugada no válida."),
          top=1, equity=True, simulate=True),
)}

#: the time budget per move of a simulating level when none is given (seconds)
DEFAULT_SECONDS = 1.0
#: the endgame's budget of a level simulating without a clock (``Champion.iterations``)
ENDGAME_SECONDS = 1.0
#: the pre-endgame (one tile in the bag) is solved from this budget a move up; below it the
#: level simulates (the pre-endgame's some 130 endgame searches take seconds today)
PREENDGAME_SECONDS = 10.0
PREENDGAME_TOP = 8
PREENDGAME_SEARCHES = 136


def get(name: str, *, lexicon: Lexicon | None = None, seed: int | str | None = None,
        leaves: movegen.LeaveTable | None = None, seconds: float | None = None) -> Engine:
    """A built-in player by name (see ``LEVELS``); ``seed`` fixes its random choices,
    ``leaves`` replaces the shipped leave table (training uses this), ``seconds`` is the time
    budget per move of a level that simulates (``DEFAULT_SECONDS`` if not given; the others
    ignore it)."""
    try:
        level = LEVELS[name.lower()]
    except KeyError:
        raise AtrilError(_("jugador desconocido «{name}»; los disponibles son: {known}").format(
            name=name, known=", ".join(LEVELS))) from None
    if level.simulate:
        return Champion(level, lexicon=lexicon, seed=seed, leaves=leaves, seconds=seconds)
    return Engine(level, lexicon=lexicon, seed=seed, leaves=leaves)


class Engine:
    """A built-in computer player (see ``Level``)."""

    def __init__(self, level: Level, *, lexicon: Lexicon | None = None,
                 seed: int | str | None = None, leaves: movegen.LeaveTable | None = None):
        self.level = level
        self.name = level.name
        self._lexicon = lexicon
        self._leaves = leaves
        self._rng = random.Random(seed)

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = Lexicon.load()
        return self._lexicon

    @property
    def leaves(self) -> movegen.LeaveTable | None:
        """The leave table an equity level uses: the shipped one unless given."""
        if not self.level.equity:
            return None
        if self._leaves is None:
            from . import leaves
            self._leaves = leaves.load()
        return self._leaves

    def choose(self, game: Game) -> Move:
        """The move for the player to move: a play, else an exchange, else a pass."""
        level, board, rack = self.level, game.board, game.rack
        bag = len(game.bag)
        # With the bag empty the leave is worth only its penalty: rank by score (art. 45).
        leaves = self.leaves if bag else None
        may_exchange = bag >= max(1, game.ruleset.exchange_min_bag)
        exchanges = may_exchange and leaves is not None
        # A pass is only the last resort: its "leave" (the whole rack) has no value to weigh.
        # Filtered levels look at the best few hundred, which almost always hold allowed ones.
        n = level.top + 1 if self._unfiltered else 300
        moves = [c for c in movegen.best(board, rack, self.lexicon, n=n, leave_values=leaves,
                                         exchanges=exchanges, bag_count=bag) if self._allowed(c)]
        if not moves and not self._unfiltered:
            moves = [c for c in movegen.generate(board, rack, self.lexicon) if self._allowed(c)]
        moves = moves[:level.top]
        move = self._rng.choice(moves).move if moves else None
        if move is None or not move.is_play:
            # Nothing placeable, or an exchange preferred: exchange once, then pass if stuck.
            if _stuck(game) and not len(movegen.best(board, rack, self.lexicon)):
                return Move.pass_()
            if move is None:
                return Move.exchange(_worst_tiles(rack, bag)) if may_exchange else Move.pass_()
        return move

    @property
    def _unfiltered(self) -> bool:
        return self.level.max_word >= 15 and self.level.bingos

    def _allowed(self, c: movegen.Candidate) -> bool:
        if not c.move.is_play:
            return c.move.is_exchange
        return len(c.move.tiles) <= self.level.max_word and (self.level.bingos or not c.bingo)

    def challenges(self, game: Game) -> bool:
        """Challenge the pending play only if it is invalid, with the level's probability."""
        if game.pending is None or self.level.challenge <= 0:
            return False
        if pending_is_valid(game, self.lexicon):
            return False
        return self._rng.random() < self.level.challenge

    def __repr__(self) -> str:
        return f"<Engine {self.name}>"


class Champion(Engine):
    """The ``campeon`` level: with tiles in the bag it simulates its best candidates
    (``atril.sim``; by win probability near the end); with the bag empty it solves the endgame
    exactly (``atril.endgame``), the opponent's rack being then the unseen tiles. With one tile
    in the bag it solves the pre-endgame (every draw an endgame) when its budget is
    ``PREENDGAME_SECONDS`` or more, and simulates otherwise. Each move takes about
    ``seconds``."""

    def __init__(self, level: Level, *, lexicon: Lexicon | None = None,
                 seed: int | str | None = None, leaves: movegen.LeaveTable | None = None,
                 seconds: float | None = None, iterations: int | None = None):
        super().__init__(level, lexicon=lexicon, seed=seed, leaves=leaves)
        self.seconds = DEFAULT_SECONDS if seconds is None else seconds
        #: with a cap on the iterations and no clock (``seconds`` = 0) a move depends only on
        #: the seed, not on the machine's load (benchmarks)
        self.iterations = iterations

    def choose(self, game: Game) -> Move:
        bag = len(game.bag)
        if bag == 0:
            found = self._endgame(game)
            if found is not None:
                return found
            return super().choose(game)
        if bag == 1:
            found = self._preendgame(game)
            if found is not None:
                return found
        from . import sim
        result = sim.simulate_game(game, lexicon=self.lexicon, leaves=self.leaves,
                                   seconds=self.seconds or None,
                                   iterations=self.iterations or 1_000_000,
                                   seed=self._rng.getrandbits(64))
        move = result.best.candidate.move
        if not move.is_play and _stuck(game) and not len(movegen.best(game.board, game.rack,
                                                                      self.lexicon)):
            return Move.pass_()  # a second fruitless exchange could go on forever
        return move

    def _endgame(self, game: Game) -> Move | None:
        """The exact endgame's move (the opponent holds exactly the unseen tiles)."""
        try:
            from . import endgame
        except ImportError:  # pragma: no cover - the extension was not built
            return None
        position = game.position()
        unseen = tuple(t for t, n in enumerate(game.unseen()) for _ in range(n))
        if not unseen or not game.rack:
            return None
        position.racks = (tuple(game.rack), unseen)
        try:
            solution = endgame.solve(position, self.lexicon, ruleset=game.ruleset,
                                     seconds=self.seconds or ENDGAME_SECONDS)
        except AtrilError:  # e.g. a ruleset whose passes never end the game
            return None
        return solution.best.move

    def _preendgame(self, game: Game) -> Move | None:
        """The pre-endgame's move with one tile in the bag (``atril.endgame.preendgame``: each
        candidate against every possible bag tile, each draw an exact endgame), when the
        budget affords it: ``PREENDGAME_SECONDS`` or more a move. It solves some 130 endgames
        (the ``PREENDGAME_TOP`` plays by score, the pass and the one-tile exchanges, times
        eight draws); each gets an equal share of the budget."""
        budget = self.seconds or ENDGAME_SECONDS
        if budget < PREENDGAME_SECONDS:
            return None
        try:
            from . import endgame
        except ImportError:  # pragma: no cover
            return None
        position = game.position()
        position.racks = (tuple(game.rack), ())  # the opponent's rack is not known yet
        try:
            found = endgame.preendgame(position, self.lexicon, ruleset=game.ruleset,
                                       top=PREENDGAME_TOP, seconds=budget / PREENDGAME_SEARCHES)
        except AtrilError:
            return None
        return found[0].move if found else None

    def __repr__(self) -> str:
        return f"<Champion {self.name} {self.seconds} s>"


def _stuck(game: Game) -> bool:
    """The player's last turn was already a fruitless exchange or pass: exchanging again
    could go on forever at 0–0 (art. 45.3 needs a score), passing ends it (art. 45.2)."""
    own = [t for t in game.history if t.player == game.player_to_move]
    return bool(own) and own[-1].points == 0 and not own[-1].move.is_play


def _worst_tiles(rack: Sequence[int], bag: int) -> tuple[int, ...]:
    """The tiles to give back when nothing can be placed: all, highest value first, blanks
    kept, as many as the bag allows (art. 25)."""
    order = sorted((t for t in rack if t != T.BLANK), key=lambda t: -T.VALUES[t])
    return tuple(order[:bag]) or tuple(rack[:bag])


def pending_is_valid(game: Game, lexicon: Lexicon) -> bool:
    """Whether every word of the pending play is in the lexicon (what a challenge would say)."""
    turn = game.pending
    assert turn is not None
    before = game.board.copy()
    for sq, _tile in turn.placed():
        before[sq] = T.EMPTY
    scored = check_play(before, Move.play(turn.move.row, turn.move.col, turn.move.across,
                                          turn.word))
    return all(lexicon.is_word(w.tiles) for w in scored.words)


def play_game(players: Sequence[Player], *, seed: int | str, lexicon: Lexicon,
              ruleset: str | None = None,
              on_turn: Callable[[Game], None] | None = None) -> Game:
    """A whole game between two computer players, seat 0 first; the finished ``Game``.

    ``on_turn`` is called after every completed turn (tests check invariants there)."""
    game = Game([p.name for p in players], seed=seed, ruleset=ruleset, lexicon=lexicon)
    return play_out(game, players, lexicon, on_turn)


def play_out(game: Game, players: Sequence[Player], lexicon: Lexicon,
             on_turn: Callable[[Game], None] | None = None) -> Game:
    """Play a game to its end, ``players[k]`` in seat k (see ``play_game``): the referee's
    loop with a computer in both seats."""
    def step(_: list) -> None:
        if on_turn is not None and game.pending is None:  # a turn is complete
            on_turn(game)

    Referee(game, players, lexicon=lexicon).run(on_step=step)
    return game


def match(players: Sequence[Player], games: int, *, seed: int = 0, lexicon: Lexicon,
          ruleset: str | None = None) -> Iterator[tuple[Game, tuple[int, int]]]:
    """Paired games: game ``i`` uses bag seed ``seed + i // 2`` and odd games swap the seats,
    so each player gets the other's opening rack and bag seed (much of the luck cancels out).
    Yields each finished game with ``seats``: which of ``players`` sat in seats 0 and 1."""
    for i in range(games):
        seats = (1, 0) if i % 2 else (0, 1)
        game = play_game([players[k] for k in seats], seed=seed + i // 2, lexicon=lexicon,
                         ruleset=ruleset)
        yield game, seats
