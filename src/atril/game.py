"""A whole game between two players under a ruleset (art. 4–45): the one object a player, a
terminal or the web app drives.

    >>> from atril.game import Game
    >>> game = Game(["Ana", "Luis"], seed=1, draws=["AEIRSTN", "CHAOSLE"])
    >>> game.rack_text()
    'AEINRST'
    >>> turn = game.play("H2 ARESTIN")     # placed and scored, waiting for Luis (art. 38)
    >>> turn.score, game.pending is turn
    (66, True)
    >>> game.accept()                      # or game.challenge(); Luis acting also accepts
    >>> game.scores, game.player_to_move
    ([66, 0], 1)

API (``Game``)
--------------
- ``Game(players, *, ruleset="FISE2009", seed=None, first=0, challenge="single", lexicon=None,
  clock=None, can_play=None, draws=None)`` — ``first=None`` draws for the start (art. 4);
  ``lexicon=None`` judges challenges with the ruleset's lexicon, loaded when first needed;
  ``draws`` forces what each draw from the bag yields, in order (replaying a record, a
  teaching position); an entry ``None`` draws at random, as do all draws after the list.
- acting: ``play(move_or_text)`` (any move: play, ``cambio AEI``, ``paso``), ``exchange(tiles)``,
  ``pass_()``; the opponent then ``accept()``s or ``challenge()``s a pending play, every word
  it formed or only some (``challenge(words=["casa"])``).
  Illegal actions raise ``IllegalMoveError(message, article)``; ``check(move)`` asks the same
  questions without acting and never consults the lexicon (art. 43).
- declared endings: ``declare_blocked()`` (45.1), ``declare_time_up()`` (45.5), ``check_time()``;
  a player resigns with ``end("resign", loser=p)`` (scores as they stand).
- reading: ``board``, ``racks``, ``rack``, ``scores``, ``player_to_move``, ``pending``,
  ``pending_words`` (the words the pending play formed), ``history`` (list of ``Turn``),
  ``bag``, ``is_over()``, ``result`` (``Result``), ``unseen()``, ``position()`` (a CGP
  ``Position``), ``position_at(n)`` (a new ``Game`` after the first n turns), ``replay(turn)``
  (make a recorded turn again).
- ``record_overtime(player, minutes)``: overtime measured on an outside clock (art. 35).
- storage: ``to_dict()`` / ``Game.from_dict(data, lexicon=..., time_source=...)``: plain JSON
  values; reading replays every turn, so a stored game is validated again (``atril.record``).

The endings and final scores are ``atril.ending``'s; the turn loop front ends drive (who acts,
accept or challenge) is ``atril.referee``'s.

Challenges: with ``challenge="single"`` (FISE, art. 38–42) a play waits for the opponent, who
may challenge some of the words it formed or all of them (the default). The verdict is on the
set of words challenged, only "jugada correcta" or "jugada no válida" (art. 40), never which
word; a play with an invalid word among those goes back to the rack, scores 0 and loses the
turn; a failed challenge costs nothing. The turn keeps the words challenged (art. 42.1).
With ``challenge="void"`` a play with an invalid word is refused as "jugada no válida" and the
player tries again. Nothing else in this module tells whether a word is valid (art. 43).

Where the texts are silent, this module decides:

- 45.3 counts passes, withdrawn plays and exchanges, as written; a play that scores 0 (two
  blanks) is a play, not a scoreless turn.
- 45.1 is checked automatically only when the bag is empty and a ``can_play`` hook is given
  (with tiles in the bag a player can still exchange); otherwise it is declared.
- Overtime points (art. 35) come off in every ending, 45.5 included; losing on overtime (FILE
  2024) leaves the scores as they stand, penalty included, and the other player wins.
- The first play must cover H8 (art. 6); the opponent's option of art. 20 to accept it anyway
  is not offered.
- The last play of the game waits for acceptance like any other: the game ends when it stands.
"""

from __future__ import annotations

import functools
import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar, cast

from . import ending, record
from . import tiles as T
from .bag import Bag, unseen
from .board import Board, square_name
from .clock import NO_CORRIDO, Clock, TimeSource
from .ending import END_REASONS, SCORELESS, WITHDRAWN, Adjustment, Result
from .errors import AtrilError, IllegalMoveError, InvalidTextError
from .i18n import _
from .move import EXCHANGE, PASS, PLAY, THROUGH, Move
from .position import Position
from .rack import format_rack, parse_rack
from .rules import ScoredPlay, apply_play, check_play, leave_after, verdict
from .ruleset import Ruleset

__all__ = ["Game", "Turn", "Result", "Adjustment", "END_REASONS", "PLAY", "EXCHANGE", "PASS",
           "WITHDRAWN", "SINGLE", "VOID", "verdict", "move_text", "move_from_text"]

SINGLE, VOID = "single", "void"  # challenge modes, named as CGP's ``cr`` op
CHALLENGE_MODES = (SINGLE, VOID)


_Method = TypeVar("_Method", bound=Callable[..., Any])


def _cited(method: _Method) -> _Method:
    """A public action or check: its errors and endings cite the game's own ruleset's
    article numbers (``Ruleset.in_force``)."""
    @functools.wraps(method)
    def cited(self: Game, *args: Any, **kwargs: Any) -> Any:
        with self.ruleset.in_force():
            return method(self, *args, **kwargs)
    return cast(_Method, cited)


class WordJudge(Protocol):
    """What a game needs of a lexicon (``atril.lexicon.Lexicon`` is one)."""

    def is_word(self, tiles: Sequence[int]) -> bool: ...


@dataclass(frozen=True)
class Turn:
    """One turn as the history keeps it.

    ``move``: for a play the word along its line with ``THROUGH`` for tiles already on the
    board (as GCG writes it); for an exchange the tiles given back. ``rack``: the rack before
    the turn. ``score``: what the play counted (a withdrawn play keeps it for the record);
    ``points`` is what the turn adds. ``word``: a play's whole main word. ``drawn``: tiles
    drawn after the turn. ``challenged``: the opponent challenged (in vain if kind is play);
    ``challenged_words``: the words the challenge named, as the play formed them (art. 40,
    42.1; empty in records older than the naming of words).
    """

    player: int
    kind: str
    move: Move
    rack: tuple[int, ...]
    score: int = 0
    word: tuple[int, ...] = ()
    drawn: tuple[int, ...] = ()
    challenged: bool = False
    challenged_words: tuple[tuple[int, ...], ...] = ()

    @property
    def points(self) -> int:
        return self.score if self.kind == PLAY else 0

    def notation(self) -> str:
        """Spanish notation, tiles already on the board in parentheses: ``H8 CA(S)A``."""
        if self.kind == EXCHANGE:
            return f"cambio {format_rack(self.move.tiles)}"
        if self.kind == PASS:
            return "paso"
        parts = []
        for new, full in zip(self.move.tiles, self.word):
            parts.append(f"({T.tile_to_human(full)})" if new == THROUGH else T.tile_to_human(full))
        return f"{self.move.coordinate()} {''.join(parts).replace(')(', '')}"

    def placed(self) -> tuple[tuple[int, int], ...]:
        """(square, tile) of every tile the play put on the board (a blank as the letter it
        stands for, ``BLANK_BIT`` set); nothing for an exchange or a pass."""
        if not self.move.is_play:
            return ()
        return tuple((sq, t) for sq, t in zip(self.move.squares(), self.move.tiles)
                     if t != THROUGH)

    def to_dict(self) -> dict[str, Any]:
        """The one JSON shape of a turn: who, ``type`` (play, withdrawn, exchange, pass), the
        Spanish ``notation``, the ``move`` in machine notation, the ``rack`` before it, the
        tiles ``placed`` (``[["H8", "[CH]"], …]``, as ``atril moves``), ``score`` (a withdrawn
        play keeps it), ``points`` (what the turn adds), the tiles ``drawn`` after it, and
        ``word`` (a play's whole word), ``challenged`` and ``challenged_words`` (machine text)
        when they apply. It reads back with ``Turn.from_dict``."""
        data = {"player": self.player, "type": self.kind, "notation": self.notation(),
                "move": move_text(self.move), "rack": format_rack(self.rack),
                "placed": [[square_name(sq), T.tile_to_machine(t)] for sq, t in self.placed()],
                "score": self.score, "points": self.points, "drawn": T.to_machine(self.drawn)}
        if self.word:
            data["word"] = T.to_machine(self.word)
        if self.challenged:
            data["challenged"] = True
        if self.challenged_words:
            data["challenged_words"] = [T.to_machine(w) for w in self.challenged_words]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Turn:
        """A turn from ``to_dict`` (also from version-1 records, which said ``kind``, and
        records without ``challenged_words``)."""
        return cls(int(data["player"]), data["type"] if "type" in data else data["kind"],
                   move_from_text(data["move"]), tuple(sorted(T.tokenize_machine(data["rack"]))),
                   int(data.get("score", 0)), T.tokenize_machine(data.get("word", "")),
                   T.tokenize_machine(data.get("drawn", "")), bool(data.get("challenged", False)),
                   tuple(T.tokenize_machine(w) for w in data.get("challenged_words", ())))

    def __repr__(self) -> str:
        return f"Turn.from_dict({self.to_dict()!r})"

    def __str__(self) -> str:
        code = {PLAY: f"+{self.score}", WITHDRAWN: "I", PASS: "P",
                EXCHANGE: f"C-{len(self.move.tiles)}"}[self.kind]
        return f"{self.notation()} {code}"


class Game:
    """A game of two players; see the module docstring for the API."""

    def __init__(self, players: Sequence[str] = ("Jugador 1", "Jugador 2"), *,
                 ruleset: str | Ruleset | None = None, seed: int | str | None = None,
                 first: int | None = 0, challenge: str = SINGLE,
                 lexicon: WordJudge | None = None, clock: Clock | None = None,
                 can_play: Callable[[Board, tuple[int, ...]], bool] | None = None,
                 draws: Iterable[Iterable[int] | str | None] | None = None):
        if len(players) != 2:
            raise AtrilError(_("una partida es entre dos jugadores (art. 1)"))
        if challenge not in CHALLENGE_MODES:
            raise AtrilError(_("modo de impugnación desconocido «{mode}»: single o void").format(
                mode=challenge))
        self.players = tuple(str(p) for p in players)
        self.ruleset = Ruleset.get(ruleset)
        if challenge == VOID and not self.ruleset.casual:
            raise AtrilError(_("el modo VOID deja probar palabras antes de jugarlas, y eso no "
                               "se permite en una partida FISE o FILE (art. 43, 46.2): elige "
                               "el reglamento LIBRE, una partida informal"))
        self.seed = random.SystemRandom().randrange(2 ** 63) if seed is None else seed
        self.challenge_mode = challenge
        self.lexicon = lexicon
        self.clock = clock
        self.can_play = can_play
        self.bag = Bag(self.seed)
        self.board = Board()
        self.racks: list[tuple[int, ...]] = [(), ()]
        self.scores = [0, 0]
        self.history: list[Turn] = []
        self.pending: Turn | None = None
        self.result: Result | None = None
        self.overtime = [0, 0]  # minutes, for games timed off the program (record_overtime)
        self._pending_play: ScoredPlay | None = None
        self._forced: deque[tuple[int, ...] | None] = deque(
            T.tokenize_machine(d) if isinstance(d, str) else None if d is None else tuple(d)
            for d in (draws or ()))
        self.start_draws: tuple[tuple[int, int], ...] = ()
        self._deal(first)

    # -- the start (art. 4, 6) ------------------------------------------------------------------
    def _deal(self, first: int | None) -> None:
        """Who starts (drawn for when ``first`` is None), then seven tiles each, the starting
        player first; the starting player's clock runs."""
        if first is None:
            first = self._draw_for_start()
        elif first not in (0, 1):
            raise AtrilError(_("el jugador que sale es 0 o 1"))
        self.first = first
        for p in (first, 1 - first):
            self.racks[p] = self._draw(T.RACK_SIZE)
        self.initial_racks = tuple(self.racks)
        self.player_to_move = first
        if self.clock is not None:
            self.clock.start(first)

    def _draw_for_start(self) -> int:
        """Each player draws a tile: closest to A starts, a blank beats all, a tie draws again;
        the tiles go back to the bag (ReDeLetras art. 4, docs/RULES.md §6)."""
        rounds = []
        while True:
            a, b = self._draw(1)[0], self._draw(1)[0]
            self.bag.put_back((a, b))
            rounds.append((a, b))
            if a != b:
                self.start_draws = tuple(rounds)
                return 0 if a < b else 1  # BLANK is 0: lower code = closer to A

    def _draw(self, n: int) -> tuple[int, ...]:
        n = min(n, len(self.bag))
        tiles = self._forced.popleft() if self._forced else None
        if tiles is not None:
            if len(tiles) != n:
                raise IllegalMoveError(
                    _("se deben sacar {tiles} fichas de la bolsa, no {drawn}").format(
                        tiles=n, drawn=len(tiles)), "32")
            return tuple(sorted(self.bag.take(tiles)))
        return tuple(sorted(self.bag.draw(n)))

    # -- reading ----------------------------------------------------------------------------------
    @property
    def rack(self) -> tuple[int, ...]:
        """The rack of the player to move."""
        return self.racks[self.player_to_move]

    def rack_text(self, player: int | None = None) -> str:
        return format_rack(self.racks[self.player_to_move if player is None else player])

    @property
    def pending_words(self) -> tuple[tuple[int, ...], ...]:
        """The words the pending play formed, each once, its main word first, as they lie on
        the board (a blank with ``BLANK_BIT``): what a challenge may name (art. 40). Everyone
        sees them on the board; nothing here says whether they are valid (art. 43)."""
        if self._pending_play is None:
            return ()
        distinct: dict[tuple[int, ...], tuple[int, ...]] = {}
        for word in self._pending_play.words:
            distinct.setdefault(_letters(word.tiles), word.tiles)
        return tuple(distinct.values())

    @property
    def lexicon_id(self) -> str:
        """The id of the list that judges this game: its own, else its ruleset's."""
        return getattr(self.lexicon, "id", None) or self.ruleset.lexicon

    def is_over(self) -> bool:
        return self.result is not None

    def unseen(self, player: int | None = None) -> list[int]:
        """Counts per code of what ``player`` cannot see: the bag and the opponent's rack."""
        p = self.player_to_move if player is None else player
        return unseen(self.board, self.racks[p])

    def position(self) -> Position:
        """The position for the player to move, as a CGP holds it (their rack and score first;
        a pending play lies on the board, as at the table)."""
        p = self.player_to_move
        ops = {"lex": self.lexicon_id, "ld": "spanish"}
        return Position(board=self.board.copy(), racks=(self.racks[p], self.racks[1 - p]),
                        scores=(self.scores[p], self.scores[1 - p]),
                        zero_turns=ending.streak(self.history, SCORELESS), ops=ops)

    # -- checks -----------------------------------------------------------------------------------
    @_cited
    def check(self, move: Move | str) -> ScoredPlay | None:
        """Raise IllegalMoveError if ``move`` may not be made now; a play comes back scored.

        Only placement, tiles and bag are checked, never words (art. 43)."""
        self._check_open()
        move = _as_move(move)
        if move.kind == PASS:
            return None
        self._check_turn_timer()
        if move.kind == EXCHANGE:
            self._check_exchange(move.tiles)
            return None
        scored = check_play(self.board, move)
        leave_after(self.rack, scored.placed_tiles())
        return scored

    def is_legal(self, move: Move | str) -> bool:
        try:
            self.check(move)
        except AtrilError:
            return False
        return True

    def _check_open(self) -> None:
        if self.result is not None:
            raise IllegalMoveError(_("la partida ha terminado: {text}").format(
                text=self.result.text), self.result.article)

    def _check_turn_timer(self) -> None:
        if self.clock is not None and self.clock.turn_expired():
            raise IllegalMoveError(
                _("se acabó el tiempo del turno: ya no se puede iniciar una jugada, solo pasar"),
                "33")

    def _check_exchange(self, tiles: tuple[int, ...]) -> None:
        need = max(len(tiles), self.ruleset.exchange_min_bag)
        if len(self.bag) < need:
            raise IllegalMoveError(
                _("para cambiar {tiles} fichas la bolsa debe tener al menos {need}; quedan {left}")
                .format(tiles=len(tiles), need=need, left=len(self.bag)), "25")
        leave_after(self.rack, tiles, "25")

    # -- acting -----------------------------------------------------------------------------------
    def _begin(self) -> None:
        """Before any action: acting accepts a pending play (art. 38), time may end the game."""
        self._settle()
        self._check_open()

    @contextmanager
    def _atomic(self) -> Iterator[None]:
        """An action that is refused leaves the game exactly as it was: acting first accepts
        the pending play, so a refused action must undo that acceptance too — unless the game
        ended on the way (time ran out, art. 35): that ending stands."""
        saved = self._snapshot()
        try:
            yield
        except BaseException:
            if self.result is None or saved[-1] is not None:
                self._restore(saved)
            raise

    def _snapshot(self) -> tuple[Any, ...]:
        """Everything an action changes, copied (the clock as its stored form)."""
        return (self.board.copy(), self.bag.copy(), list(self.racks), list(self.scores),
                list(self.history), self.pending, self._pending_play, self.player_to_move,
                list(self.overtime), deque(self._forced),
                None if self.clock is None else self.clock.to_dict(), self.result)

    def _restore(self, saved: tuple[Any, ...]) -> None:
        (self.board, self.bag, self.racks, self.scores, self.history, self.pending,
         self._pending_play, self.player_to_move, self.overtime, self._forced, clock,
         self.result) = saved
        if self.clock is not None and clock is not None:
            self.clock.restore(clock)

    def _settle(self) -> None:
        self._check_open()
        if self.pending is not None:
            self.accept()
        self.check_time()

    @_cited
    def play(self, move: Move | str) -> Turn:
        """Make a move for the player to move. A play is placed, scored and left ``pending``
        for the opponent's decision (in void mode it is judged and completed at once)."""
        move = _as_move(move)
        if move.kind == EXCHANGE:
            return self.exchange(move.tiles)
        if move.kind == PASS:
            return self.pass_()
        with self._atomic():
            return self._play(move)

    def _play(self, move: Move) -> Turn:
        self._begin()
        scored = self.check(move)
        assert scored is not None
        if self.challenge_mode == VOID and not self._valid(w.tiles for w in scored.words):
            raise IllegalMoveError(verdict(False), "40")
        p = self.player_to_move
        rack = self.racks[p]
        apply_play(self.board, scored)
        self.racks[p] = leave_after(rack, scored.placed_tiles())
        self.scores[p] += scored.score
        placed = {sq for sq, _ in scored.placed}
        line = tuple(t if sq in placed else THROUGH
                     for sq, t in zip(scored.move.squares(), scored.move.tiles))
        turn = Turn(p, PLAY, Move.play(scored.move.row, scored.move.col, scored.move.across, line),
                    rack, scored.score, scored.move.tiles)
        self.pending, self._pending_play = turn, scored
        self.player_to_move = 1 - p
        if self.challenge_mode == VOID:
            self._complete(turn)
        elif self.clock is not None:
            if self.clock.mode == NO_CORRIDO:
                self.clock.stop()  # art. 34.1
            else:
                self.clock.hand_over(1 - p)  # art. 32.1: the first 5 s of checking are p's
        return turn

    @_cited
    def accept(self) -> None:
        """The opponent accepts the pending play (art. 38): the player draws (art. 32)."""
        if self.pending is None:
            raise IllegalMoveError(_("no hay ninguna jugada pendiente de aceptar"), "38")
        self._complete(self.pending)

    @_cited
    def challenge(self, valid: bool | None = None, *,
                  words: Iterable[str | Sequence[int]] | None = None) -> bool:
        """The opponent challenges the pending play (art. 39–40); True = "jugada correcta".

        ``words`` names the words challenged, some of those the play formed (``pending_words``):
        texts as a person types them, where case carries no meaning (``ch``, ``Ch`` and ``CH``
        are the CH tile), or tiles; None challenges them all. The verdict is on that set at once
        (art. 40) and the play is withdrawn only if a word of it is not valid; the turn keeps
        the set (art. 42.1). ``valid`` gives a judge's verdict on it instead of asking the
        lexicon (a recorded game, a tournament judge). No penalty either way (art. 39)."""
        if self.pending is None or self._pending_play is None:
            raise IllegalMoveError(_("no hay ninguna jugada que impugnar"), "39")
        if self.challenge_mode != SINGLE:
            raise IllegalMoveError(_("en esta partida no se impugna: las jugadas no válidas se "
                                     "rechazan al hacerlas"), "39")
        named = self._named(words)
        if self.clock is not None:
            self.clock.stop()  # art. 34.2
        if valid is None:
            valid = self._valid(named)
        turn = replace(self.pending, challenged=True, challenged_words=named)
        if valid:
            self._complete(turn)
            return True
        for sq, _tile in self._pending_play.placed:
            self.board[sq] = T.EMPTY
        self.racks[turn.player] = turn.rack
        self.scores[turn.player] -= turn.score
        self.pending = self._pending_play = None
        self._finish_turn(replace(turn, kind=WITHDRAWN))
        return False

    def _named(self, words: Iterable[str | Sequence[int]] | None) -> tuple[tuple[int, ...], ...]:
        """The pending play's words a challenge names, in the play's order; all if None."""
        formed = self.pending_words
        if words is None:
            return formed
        chosen = {_formed_word(formed, name) for name in words}
        if not chosen:
            raise IllegalMoveError(_("nombra al menos una palabra de la jugada para "
                                     "impugnarla"), "40")
        return tuple(w for w in formed if w in chosen)

    def _valid(self, words: Iterable[Sequence[int]]) -> bool:
        """Judge words at once; without a lexicon given, the ruleset's own is loaded now."""
        if self.lexicon is None:
            from .lexicon import Lexicon
            self.lexicon = Lexicon.load(self.ruleset.lexicon)
        return all(self.lexicon.is_word(_letters(w)) for w in words)

    def _complete(self, turn: Turn) -> None:
        """The play stands: the player draws back up to seven while the bag lasts (art. 32)."""
        drawn = self._draw(T.RACK_SIZE - len(self.racks[turn.player]))
        self.racks[turn.player] = tuple(sorted(self.racks[turn.player] + drawn))
        self.pending = self._pending_play = None
        self._finish_turn(replace(turn, drawn=drawn))

    @_cited
    def exchange(self, tiles: Iterable[int] | str) -> Turn:
        """Give back tiles and draw as many (art. 25): new ones first, then the old go in."""
        with self._atomic():
            return self._exchange(tiles)

    def _exchange(self, tiles: Iterable[int] | str) -> Turn:
        self._begin()
        tiles = parse_rack(tiles) if isinstance(tiles, str) else tuple(tiles)
        move = Move.exchange(tiles)
        self.check(move)
        p = self.player_to_move
        rack = self.racks[p]
        forced = self._forced.popleft() if self._forced else None
        if forced is not None and len(forced) != len(move.tiles):
            raise IllegalMoveError(
                _("al cambiar {tiles} fichas se sacan {tiles}, no {drawn}").format(
                    tiles=len(move.tiles), drawn=len(forced)), "25")
        drawn = self.bag.exchange(move.tiles, drawn=forced)
        drawn = tuple(sorted(drawn))
        self.racks[p] = tuple(sorted(leave_after(rack, move.tiles, "25") + drawn))
        return self._finish_turn(Turn(p, EXCHANGE, move, rack, drawn=drawn), switch=True)

    @_cited
    def pass_(self) -> Turn:
        """Pass the turn (art. 26); always allowed, even when the turn timer has run out."""
        with self._atomic():
            self._begin()
            p = self.player_to_move
            return self._finish_turn(Turn(p, PASS, Move.pass_(), self.racks[p]), switch=True)

    def _finish_turn(self, turn: Turn, *, switch: bool = False) -> Turn:
        self.history.append(turn)
        if switch:
            self.player_to_move = 1 - turn.player
        if self.clock is not None:
            self.clock.start(self.player_to_move)
        self._check_end()
        return turn

    # -- the end (art. 45) -------------------------------------------------------------------
    def _check_end(self) -> None:
        reason = ending.after_turn(self)
        if reason is not None:
            self.end(reason)
        else:
            self.check_time()

    @_cited
    def check_time(self) -> None:
        """End the game if time says so: a player beyond the ruleset's overtime limit loses
        (FILE 2024), or the game's time is up and both have had as many turns (art. 30, 45.5).
        Called before every action; a program may also call it on a timer. A play waiting for
        a decision stands when the one deciding runs out of time (they did not challenge it)."""
        if self.result is not None or self.clock is None:
            return
        limit = self.ruleset.overtime_limit
        if self.pending is not None:
            deciding = self.clock.running
            if (limit is not None and deciding is not None
                    and self.clock.overtime_seconds(deciding) > limit * 60):
                self.accept()  # art. 38; completing the turn checks the time again
            return
        if limit is not None:
            for p in (0, 1):
                if self.clock.overtime_seconds(p) > limit * 60:
                    self.end("overtime", loser=p)
                    return
        if self.clock.game_time_up() and self.player_to_move == self.first:
            self.end("time")

    @_cited
    def declare_blocked(self) -> Result:
        """Neither player can place a tile (art. 45.1): the program cannot know without a move
        generator, so the caller declares it (a ``can_play`` hook is consulted if given)."""
        self._settle()
        if self.result is not None:
            return self.result
        if self.can_play is not None and any(self.can_play(self.board, r) for r in self.racks):
            raise IllegalMoveError(_("todavía hay un jugador que puede colocar fichas"), "45.1")
        return self.end("blocked")

    @_cited
    def declare_time_up(self) -> Result:
        """The game's time limit ran out on an outside clock (art. 30, 45.5). If the turns are
        not equal, the second player must still play one turn: call this after it."""
        self._settle()
        if self.result is not None:
            return self.result
        if self.player_to_move != self.first:
            raise IllegalMoveError(
                _("{name} debe jugar para igualar los turnos").format(
                    name=self.players[self.player_to_move]), "30")
        return self.end("time")

    @_cited
    def record_overtime(self, player: int, minutes: int) -> None:
        """Minutes over the clock measured outside the program (a physical clock, a record),
        counted as started minutes (art. 35); applied when the game ends."""
        if self.clock is not None and self.clock.minutes is not None:
            raise AtrilError(_("esta partida lleva su propio reloj"))
        self.overtime[player] = int(minutes)
        if self.result is not None:
            self.end(self.result.reason, loser=self._loser())

    def _loser(self) -> int | None:
        if self.result is None or self.result.reason != "overtime" or self.result.winner is None:
            return None
        return 1 - self.result.winner

    @_cited
    def end(self, reason: str, *, loser: int | None = None) -> Result:
        """End the game for ``reason`` (an ``END_REASONS`` code; ``loser`` for a loss on
        time or the player who resigns, ``end("resign", loser=p)``): the clocks stop and the
        final scores are worked out (``atril.ending``)."""
        if self.clock is not None:
            self.clock.stop()
            if self.clock.minutes is not None:
                self.overtime = [self.clock.overtime_minutes(p) for p in (0, 1)]
        self.result = ending.result(self, reason, loser)
        return self.result

    # -- records (atril.record) -------------------------------------------------------------------
    def position_at(self, turns: int) -> Game:
        """A new game (no clock) rebuilt from the first ``turns`` turns of this one."""
        return record.position_at(self, turns)

    def replay(self, turn: Turn) -> None:
        """Make a recorded turn again, challenge outcome included."""
        record.replay(self, turn)

    def to_dict(self) -> dict[str, Any]:
        """The whole game as JSON-able values (a web app's database row)."""
        return record.to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, lexicon: WordJudge | None = None,
                  can_play: Callable[[Board, tuple[int, ...]], bool] | None = None,
                  time_source: TimeSource | None = None) -> Game:
        """Rebuild a game from ``to_dict`` by replaying it (so it is checked again)."""
        return record.from_dict(data, lexicon=lexicon, can_play=can_play,
                                time_source=time_source)

    def __repr__(self) -> str:
        state = (f"fin: {self.result.reason}" if self.result else
                 f"juega {self.players[self.player_to_move]}")
        return (f"<Game {self.ruleset.name} seed={self.seed!r}: {self.players[0]} "
                f"{self.scores[0]} – {self.players[1]} {self.scores[1]}, "
                f"{len(self.history)} turnos, {state}>")

    def __str__(self) -> str:
        lines = [str(self.board), ""]
        for p in (0, 1):
            mark = "→" if p == self.player_to_move and not self.result else " "
            lines.append(f"{mark} {self.players[p]:<12} {self.scores[p]:>4}  "
                         + " ".join(T.tile_to_human(t)  # «C H» is not «CH»
                                    for t in sorted(self.racks[p], key=T.blank_last)))
        lines.append("  " + _("bolsa: {tiles}").format(tiles=len(self.bag)))
        if self.result and self.result.article is None:
            lines.append("  " + _("fin de la partida: {text}").format(text=self.result.text))
        elif self.result:
            lines.append("  " + _("fin de la partida: {text} (art. {article})").format(
                text=self.result.text, article=self.result.article))
        return "\n".join(lines)


# -- helpers ---------------------------------------------------------------------------------
def _as_move(move: Move | str) -> Move:
    return Move.parse(move) if isinstance(move, str) else move


def _letters(tiles: Iterable[int]) -> tuple[int, ...]:
    """The letters tiles show (a blank as its letter): what a lexicon judges."""
    return tuple(T.letter_of(t) for t in tiles)


def _formed_word(formed: Sequence[tuple[int, ...]], name: str | Sequence[int]
                 ) -> tuple[int, ...]:
    """The word of ``formed`` that ``name`` names: tiles, or a text read as a word whatever its
    case (``tiles.tokenize_word``), else a text spelt like a word laid with a C and an H where
    CH is one tile (art. 11). None named: an error listing the words formed (art. 40)."""
    try:
        tiles = T.tokenize_word(name.lower()) if isinstance(name, str) else tuple(name)
    except InvalidTextError:
        tiles = None
    if tiles is not None:
        spelt = T.word_text(tiles) if isinstance(name, str) else None
        found = (next((w for w in formed if _letters(w) == _letters(tiles)), None)
                 or next((w for w in formed if T.word_text(w) == spelt), None))
        if found is not None:
            return found
    raise IllegalMoveError(
        _("«{word}» no es una de las palabras que forma la jugada: {words}").format(
            word=name if isinstance(name, str) else T.to_human(name),
            words=", ".join(T.to_human(w) for w in formed)), "40")


def move_text(move: Move) -> str:
    """A move as stored: machine notation that reads back exactly (``H8 [CH]A.O``)."""
    return move.notation(machine=True)


def move_from_text(text: str) -> Move:
    """Read ``move_text``."""
    return Move.parse(text, machine=True)
